//! The `stream` target: an instance fed to a stream in chunks split where the fuzzer
//! says, against `validate_json` on the whole bytes. The first byte picks a schema of
//! [`SCHEMAS`] (each early rule of a stream, in both profiles), the next two the chunk
//! sizes; the rest is the instance. Checked:
//!
//! - `finish` equals `validate_json` of the whole bytes unless the stream was refused,
//!   and then it equals the refusal, which no later feed changes;
//! - a refusal is never of a valid instance, and comes with errors;
//! - a malformed-JSON refusal is the whole's one error; other refusals, when the whole
//!   is well-formed, are among the whole's errors (the rules decided on an open value,
//!   `maxLength`, `maxItems`, `maxProperties`, `enum`, `const`, by path, pointer,
//!   keyword and schema location);
//! - the chunks do not change whether a refusal comes: byte by byte, split, and whole
//!   agree;
//! - a stream listing at most 0 to 3 violations (the second byte picks) refuses at the
//!   same byte as one listing all, with that refusal cut to the limit plus the
//!   `violations` line when there were more; unrefused, it finishes as
//!   `validate_json_at_most`.

use toolgate_core::schema::Feed;
use toolgate_core::{Options, Profile, Schema, ValidationError};

/// The schemas the target picks from, and whether each is compiled in the full profile.
pub const SCHEMAS: &[(&str, bool)] = &[
    (
        r#"{"type":"object","properties":{"n":{"type":"integer","minimum":0,"maximum":9},"s":{"type":"string","maxLength":4,"pattern":"^a"},"e":{"enum":["red","green","blue"]},"a":{"type":"array","items":{"type":"boolean"},"maxItems":2,"minItems":1}},"required":["n"],"additionalProperties":false}"#,
        false,
    ),
    (
        r#"{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":["string","null"]}},"required":["x"]}},"additionalProperties":{"type":"number"}}"#,
        false,
    ),
    (
        r#"{"type":"object","maxProperties":2,"patternProperties":{"^p":{"const":"q"}},"additionalProperties":false,"propertyNames":{"maxLength":3}}"#,
        true,
    ),
    (
        r#"{"type":"object","properties":{"u":{"anyOf":[{"type":"string","maxLength":2},{"type":"integer"}]},"v":{"oneOf":[{"const":1},{"const":"1"}]}},"unevaluatedProperties":false}"#,
        true,
    ),
    (
        r#"{"type":"array","prefixItems":[{"type":"string"},{"enum":[1,"two",null]}],"items":false,"uniqueItems":true,"contains":{"type":"string"}}"#,
        true,
    ),
    (
        r##"{"$defs":{"t":{"type":"object","properties":{"c":{"$ref":"#/$defs/t"},"k":{"type":"string","enum":["ab","ac"]}},"additionalProperties":false}},"$ref":"#/$defs/t"}"##,
        true,
    ),
    (
        r#"{"type":"object","properties":{"f":false,"d":{"dependentRequired":{"a":["b"]}}}}"#,
        true,
    ),
    (
        r#"{"type":"object","properties":{"s":{"type":"string","format":"date","minLength":10}}}"#,
        true,
    ),
];

/// The keywords decided on a value still open: their count or text is what was read.
const OPEN_VALUE_RULES: &[&str] = &["maxLength", "maxItems", "maxProperties", "enum", "const"];

fn compiled(index: usize) -> Schema {
    let (json, full) = SCHEMAS[index % SCHEMAS.len()];
    let opts = if full {
        Options::default().with_profile(Profile::Full)
    } else {
        Options::default()
    };
    Schema::compile_with(json.as_bytes(), &opts).expect("the target's schemas compile")
}

/// Feeds `bytes` in chunks of `sizes` (cycled); when it was refused, the bytes read
/// and the refusal's errors.
fn feed_checked(
    schema: &Schema,
    bytes: &[u8],
    sizes: &[usize],
) -> Option<(usize, Vec<ValidationError>)> {
    let whole = schema.validate_json(bytes);
    let mut stream = schema.stream();
    let mut early: Option<Vec<ValidationError>> = None;
    let (mut at, mut k) = (0, 0);
    while at < bytes.len() {
        let n = sizes[k % sizes.len()].clamp(1, bytes.len() - at);
        k += 1;
        match stream.feed(&bytes[at..at + n]) {
            Feed::Refused(errors) => match &early {
                None => early = Some(errors.to_vec()),
                Some(first) => assert_eq!(first, errors, "a refusal changed"),
            },
            Feed::Incomplete => assert!(early.is_none(), "a refusal was taken back"),
        }
        at += n;
    }
    let read = stream.bytes_before_refusal();
    let finished = stream.finish();
    let Some(early) = early else {
        assert_eq!(finished, whole, "finish differs from validate_json");
        return None;
    };
    assert_eq!(finished, early, "finish differs from the refusal");
    assert!(!whole.is_empty(), "a valid instance was refused: {early:?}");
    assert!(!early.is_empty(), "a refusal without errors");
    let malformed = whole.len() == 1 && whole[0].keyword == "json";
    if early[0].keyword == "json" {
        assert_eq!(early, whole, "malformed JSON refused with another error");
    } else if !malformed {
        for e in &early {
            let found = if OPEN_VALUE_RULES.contains(&e.keyword) {
                whole.iter().any(|w| {
                    (&w.path, &w.pointer, w.keyword, &w.schema_location)
                        == (&e.path, &e.pointer, e.keyword, &e.schema_location)
                })
            } else {
                whole.contains(e)
            };
            assert!(
                found,
                "early error {e:?} is not among the whole's {whole:?}"
            );
        }
    }
    Some((read.expect("a refused stream says where"), early))
}

/// Feeds `bytes` in chunks of `sizes` to a stream listing every violation and to one
/// listing at most `max`, and checks the second against the first.
fn feed_listing(schema: &Schema, bytes: &[u8], sizes: &[usize], max: usize) {
    let mut all = schema.stream();
    let mut listing = schema.stream().at_most(max);
    let (mut at, mut k) = (0, 0);
    while at < bytes.len() {
        let n = sizes[k % sizes.len()].clamp(1, bytes.len() - at);
        k += 1;
        all.feed(&bytes[at..at + n]);
        listing.feed(&bytes[at..at + n]);
        at += n;
    }
    assert_eq!(
        all.bytes_before_refusal(),
        listing.bytes_before_refusal(),
        "a listing stream refused at another byte"
    );
    let refused = listing.bytes_before_refusal().is_some();
    let (all, listed) = (all.finish(), listing.finish());
    if !refused {
        assert_eq!(
            listed,
            schema.validate_json_at_most(bytes, max),
            "a listing stream's finish differs from validate_json_at_most"
        );
        return;
    }
    let more = all.len() > max;
    let (kept, last) = listed.split_at(listed.len() - usize::from(more));
    assert_eq!(kept.len(), all.len().min(max), "{listed:?} of {all:?}");
    assert!(
        kept.iter().all(|e| all.contains(e)),
        "{listed:?} of {all:?}"
    );
    if let [line] = last {
        assert_eq!(line.keyword, "violations", "{listed:?}");
    }
}

/// The target's check of one input.
pub fn check(data: &[u8]) {
    let [pick, a, b, instance @ ..] = data else {
        return;
    };
    let schema = compiled(usize::from(*pick));
    let one = feed_checked(&schema, instance, &[1]);
    let split = feed_checked(&schema, instance, &[usize::from(*a), usize::from(*b)]);
    let whole = feed_checked(&schema, instance, &[instance.len().max(1)]);
    // Each rule refuses at its byte whatever the chunks: a value or a name read at
    // once decides where the byte-by-byte reading does.
    assert_eq!(one, split, "the chunks changed where a refusal comes, or its errors");
    assert_eq!(one, whole, "the chunks changed where a refusal comes, or its errors");
    let sizes = [usize::from(*a), usize::from(*b)];
    feed_listing(&schema, instance, &sizes, usize::from(*a % 4));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_instances_and_noise_keep_every_property() {
        let instances: &[&str] = &[
            r#"{"n":3,"s":"ab","e":"red","a":[true]}"#,
            r#"{"n":30,"s":"abcdef","e":"grey","a":[true,false,true],"z":1}"#,
            r#"{"o":{"x":null},"y":1.5}"#,
            r#"{"o":{"x":1},"y":"s"}"#,
            r#"{"p":"q","pq":"q","pqr":"r"}"#,
            r#"{"u":"abc","v":1,"w":2}"#,
            r#"["a",1,2]"#,
            r#"{"c":{"c":{"k":"ad"}},"k":"ab"}"#,
            r#"{"f":1,"d":{"a":1}}"#,
            r#"{"s":"2024-02-30"}"#,
            r#"{"n":1,"n":2}"#,
            r#"{"n":1,}"#,
        ];
        for pick in 0..SCHEMAS.len() as u8 {
            for inst in instances {
                for (a, b) in [(1, 1), (3, 7), (16, 2)] {
                    let mut data = vec![pick, a, b];
                    data.extend_from_slice(inst.as_bytes());
                    check(&data);
                    for cut in 0..inst.len() {
                        data.truncate(3 + cut);
                        check(&data);
                        data.truncate(3);
                        data.extend_from_slice(inst.as_bytes());
                    }
                }
            }
        }
        let mut seed = 0x5EED_u64;
        for _ in 0..5000 {
            let mut data = crate::xorshift_bytes(&mut seed, 40);
            // Mostly JSON-looking bytes: the noise mapped onto JSON's own characters.
            let alphabet = b"{}[]\",:0123456789-.eE truefalsn\\u\"abcnpqsxyz";
            for b in data.iter_mut().skip(3) {
                *b = alphabet[usize::from(*b) % alphabet.len()];
            }
            check(&data);
        }
    }
}
