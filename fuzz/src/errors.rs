//! The invariants of a list of violations, whatever the schema and the instance:
//! sorted by (path, message) in byte order; every path in the `$.a[0]` form and every
//! pointer an RFC 6901 pointer, the two naming the same place (or, for a missing
//! property, an unexpected one and a property name its `propertyNames` schema refuses,
//! the pointer one member further); and,
//! when the instance is known, every pointer reaching a value that is there (a
//! missing property's parent object).

use serde_json::Value;
use toolgate_core::{Schema, ValidationError};

/// One step of a location: a member name or an element index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Member(String),
    Index(usize),
}

/// `is_valid` and `validate_json` agree, and the errors keep their invariants, also
/// with skips remembering and in listings (see [`check_remembering_and_listing`]).
/// Returns the verdict.
pub fn check_schema_on(schema: &Schema, instance: &[u8], parsed: Option<&Value>) -> bool {
    let valid = check_entry_points(schema, instance, parsed);
    check_remembering_and_listing(schema, instance);
    valid
}

/// What [`check_schema_on`] checks through each entry point once. Returns the
/// verdict.
pub fn check_entry_points(schema: &Schema, instance: &[u8], parsed: Option<&Value>) -> bool {
    let valid = schema.is_valid(instance);
    let errors = schema.validate_json(instance);
    assert_eq!(
        valid,
        errors.is_empty(),
        "is_valid says {valid}, validate_json {errors:?}, on {:?}",
        String::from_utf8_lossy(instance)
    );
    check_list(&errors, parsed);
    // Tool-call arguments: empty means `{}`, anything else reads the same.
    let blank = instance
        .iter()
        .all(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'));
    let as_arguments = schema.is_valid_arguments(instance);
    let want = if blank { schema.is_valid(b"{}") } else { valid };
    assert_eq!(as_arguments, want, "is_valid_arguments");
    assert_eq!(
        schema.validate_arguments(instance).is_empty(),
        want,
        "validate_arguments"
    );
    valid
}

/// Skips and hashes that remember where containers end (and their hashes), as they
/// do past a few times a call's input, change no verdict and no error; and a listing
/// of at most `max` violations is the whole list when it is no longer, else `max` of
/// its violations, sorted, then the one that says there are more (malformed JSON
/// staying the one error).
pub fn check_remembering_and_listing(schema: &Schema, instance: &[u8]) {
    let valid = schema.is_valid(instance);
    let errors = schema.validate_json(instance);
    let remembered = toolgate_core::fuzz_internals::remembering(|| {
        (schema.is_valid(instance), schema.validate_json(instance))
    });
    assert_eq!(
        (valid, &errors),
        (remembered.0, &remembered.1),
        "remembering skips changed the verdict on {:?}",
        String::from_utf8_lossy(instance)
    );
    for max in [0, 1, 3] {
        let listed = schema.validate_json_at_most(instance, max);
        if errors.len() <= max || matches!(errors.as_slice(), [only] if only.keyword == "json") {
            assert_eq!(listed, errors, "validate_json_at_most({max})");
            continue;
        }
        let (last, first) = listed.split_last().expect("a listing past its limit");
        assert_eq!(first.len(), max, "validate_json_at_most({max}): {listed:?}");
        assert_eq!(
            (last.keyword, last.path.as_str()),
            ("violations", "$"),
            "{listed:?}"
        );
        assert!(
            first.iter().all(|e| errors.contains(e)),
            "validate_json_at_most({max}) lists {first:?}, not among {errors:?}"
        );
        check_list(first, None);
    }
}

/// The invariants of one list; `parsed` is the instance when it is known.
pub fn check_list(errors: &[ValidationError], parsed: Option<&Value>) {
    for w in errors.windows(2) {
        assert!(
            (w[0].path.as_str(), w[0].message.as_str())
                <= (w[1].path.as_str(), w[1].message.as_str()),
            "errors not sorted by (path, message): {errors:?}"
        );
    }
    if let [only] = errors {
        if only.keyword == "json" {
            assert_eq!((only.path.as_str(), only.pointer.as_str()), ("$", ""));
            assert!(
                only.message.starts_with("malformed JSON at line "),
                "{only:?}"
            );
            return;
        }
    }
    for e in errors {
        assert!(!e.keyword.is_empty() && e.keyword != "json", "{e:?}");
        assert!(
            !e.message.is_empty() && !e.message.contains('\n'),
            "message: {e:?}"
        );
        let path = parse_path(&e.path).unwrap_or_else(|| panic!("bad path: {e:?}"));
        let pointer = parse_pointer(&e.pointer).unwrap_or_else(|| panic!("bad pointer: {e:?}"));
        // A missing property (`required`, `dependentRequired`, array `dependencies`)
        // and a present one refused by name (`additionalProperties` and
        // `unevaluatedProperties` "unexpected property", `propertyNames`) point at the
        // member, one step past the object the path names.
        let missing = e.keyword == "required"
            || (matches!(e.keyword, "dependentRequired" | "dependencies")
                && e.message.starts_with("property ")
                && e.message.contains(" is required when "));
        let refused_name = e.keyword == "propertyNames"
            || (matches!(e.keyword, "additionalProperties" | "unevaluatedProperties")
                && e.message.starts_with("unexpected property"));
        let one_further = missing || refused_name;
        if one_further {
            assert_eq!(pointer.len(), path.len() + 1, "{e:?}");
            assert!(matches!(pointer.last(), Some(Step::Member(_))), "{e:?}");
        } else {
            assert_eq!(pointer.len(), path.len(), "{e:?}");
        }
        for (p, q) in path.iter().zip(&pointer) {
            let same = match (p, q) {
                (Step::Member(a), Step::Member(b)) => a == b,
                (Step::Index(i), Step::Member(b)) => b == &i.to_string(),
                _ => false,
            };
            assert!(same, "path and pointer differ: {e:?}");
        }
        if let Some(doc) = parsed {
            let at = resolve(doc, &path).unwrap_or_else(|| panic!("path not in instance: {e:?}"));
            if one_further {
                let Some(Step::Member(name)) = pointer.last() else {
                    unreachable!()
                };
                let obj = at
                    .as_object()
                    .unwrap_or_else(|| panic!("not an object: {e:?}"));
                assert_eq!(obj.contains_key(name.as_str()), !missing, "{e:?}");
            }
        }
    }
}

/// The value at `path` in `doc`.
pub fn resolve<'v>(doc: &'v Value, path: &[Step]) -> Option<&'v Value> {
    let mut at = doc;
    for step in path {
        at = match (step, at) {
            (Step::Member(m), Value::Object(o)) => o.get(m.as_str())?,
            (Step::Index(i), Value::Array(a)) => a.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

/// An RFC 6901 pointer's steps (every step a member name here: the path says which
/// are indices). `None` when it is not a pointer.
pub fn parse_pointer(p: &str) -> Option<Vec<Step>> {
    if p.is_empty() {
        return Some(Vec::new());
    }
    let rest = p.strip_prefix('/')?;
    rest.split('/')
        .map(|raw| {
            let mut out = String::new();
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                match c {
                    '~' => match chars.next()? {
                        '0' => out.push('~'),
                        '1' => out.push('/'),
                        _ => return None,
                    },
                    c => out.push(c),
                }
            }
            Some(Step::Member(out))
        })
        .collect()
}

fn is_identifier(s: &str) -> bool {
    let mut b = s.bytes();
    matches!(b.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// A `$.a[0]`-form path's steps: `$`, then `.name` (an identifier), `["name"]` (a JSON
/// string, only for a name that is not an identifier) or `[i]`. `None` when it is
/// not of that form.
pub fn parse_path(p: &str) -> Option<Vec<Step>> {
    let mut rest = p.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(r.len());
            let name = &r[..end];
            if !is_identifier(name) {
                return None;
            }
            steps.push(Step::Member(name.to_owned()));
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix("[\"") {
            // The JSON string runs to the first quote not escaped.
            let bytes = r.as_bytes();
            let mut i = 0;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            let quoted = r.get(..=i)?;
            let name: String = serde_json::from_str(&format!("\"{quoted}")).ok()?;
            if is_identifier(&name) {
                return None;
            }
            steps.push(Step::Member(name));
            rest = r.get(i + 1..)?.strip_prefix(']')?;
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            let digits = &r[..end];
            if digits.is_empty()
                || !digits.bytes().all(|b| b.is_ascii_digit())
                || (digits.len() > 1 && digits.starts_with('0'))
            {
                return None;
            }
            steps.push(Step::Index(digits.parse().ok()?));
            rest = &r[end + 1..];
        } else {
            return None;
        }
    }
    Some(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_pointers() {
        use Step::*;
        let m = |s: &str| Member(s.to_owned());
        assert_eq!(parse_path("$"), Some(vec![]));
        assert_eq!(
            parse_path(r#"$.a[3]["a.b"]["\"\\"]._x1"#),
            Some(vec![m("a"), Index(3), m("a.b"), m("\"\\"), m("_x1")])
        );
        for bad in [
            "",
            "a",
            "$.",
            "$.1a",
            "$[01]",
            "$[]",
            r#"$["a"]"#,
            "$[\"x",
            "$..a",
        ] {
            assert_eq!(parse_path(bad), None, "{bad}");
        }
        assert_eq!(parse_pointer(""), Some(vec![]));
        assert_eq!(
            parse_pointer("/a~1b/~0/"),
            Some(vec![m("a/b"), m("~"), m("")])
        );
        for bad in ["a", "/~", "/~2"] {
            assert_eq!(parse_pointer(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_lists_of_a_known_schema_keep_the_invariants() {
        let s = Schema::compile(
            br#"{"type":"object","properties":{"a.b":{"type":"integer"},"l":{"items":{"maxLength":1}}},
                "required":["x/y","a.b"],"additionalProperties":false}"#,
        )
        .unwrap();
        let inst = br#"{"a.b":"s","l":["ab","c","de"],"q~":1}"#;
        let doc: Value = serde_json::from_slice(inst).unwrap();
        assert!(!check_schema_on(&s, inst, Some(&doc)));
        assert_eq!(s.validate_json(inst).len(), 5);
    }

    /// A property refused by name, or missing, is reported at the object, pointing at
    /// the member (the compile target's findings: `{"propertyNames":false}` in CI,
    /// `{"unevaluatedProperties":false}` in the campaign).
    #[test]
    fn a_property_refused_by_name_or_missing_points_at_its_member() {
        let full = toolgate_core::Options::default().with_profile(toolgate_core::Profile::Full);
        for schema in [
            &br#"{"propertyNames":false}"#[..],
            br#"{"properties":{"x":{"propertyNames":{"maxLength":1}}}}"#,
            br#"{"properties":{"x":{"unevaluatedProperties":false}}}"#,
            br#"{"properties":{"x":{"dependentRequired":{"ab":["zz"]}}}}"#,
        ] {
            let s = Schema::compile_with(schema, &full).unwrap();
            let inst = br#"{"x":{"ab":1,"c":2,"de":3}}"#;
            let doc: Value = serde_json::from_slice(inst).unwrap();
            assert!(!check_schema_on(&s, inst, Some(&doc)));
            let errors = s.validate_json(inst);
            assert!(!errors.is_empty());
            for e in &errors {
                let path = parse_path(&e.path).unwrap();
                assert_eq!(
                    parse_pointer(&e.pointer).unwrap().len(),
                    path.len() + 1,
                    "{e:?}"
                );
            }
        }
    }
}
