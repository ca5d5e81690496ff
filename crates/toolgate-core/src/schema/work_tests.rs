//! Work-counted tests for what the adversarial tests do not cover: number equality and
//! hashing under `uniqueItems`, `enum` and `const`, `multipleOf` with a long divisor,
//! compiling long `required` lists and long chains of references, and values nested to
//! the depth limit on a small thread. Each counts its work (values read, comparisons,
//! limb operations, lookups) on an input and on one twice its size, and asserts that
//! doubling the input at most doubles the work (with a small constant), besides the
//! verdicts. Counted, never timed.

use std::sync::Arc;

use super::compile::LINK_STEPS;
use super::equal::{equals, hash_value, same_value, COMPARISONS, VALUES_READ};
use super::keywords::number::LIMB_OPS;
use super::keywords::object::NAME_COMPARISONS;
use super::resolve::MEMBER_STEPS;
use super::{Options, Profile, Schema};
use crate::json::{Reader, Value};

fn options(profile: Profile) -> Options {
    Options::default().with_profile(profile)
}

fn full(schema: &str) -> Schema {
    Schema::compile_with(schema.as_bytes(), &options(Profile::Full))
        .unwrap_or_else(|e| panic!("{schema}: {e}"))
}

/// The work `counter` counted while `f` ran, with what `f` returned.
fn counted<T>(
    counter: &'static std::thread::LocalKey<std::cell::Cell<u64>>,
    f: impl FnOnce() -> T,
) -> (T, u64) {
    counter.with(|c| c.set(0));
    let out = f();
    (out, counter.with(|c| c.get()))
}

/// Doubling the input at most doubled the work, up to `slack`.
fn at_most_doubles(what: &str, small: u64, large: u64, slack: u64) {
    assert!(
        large <= 2 * small + slack,
        "{what}: {small} for the input, {large} for twice the input"
    );
}

/// Distinct numbers whose exponents run past 18 digits, and arrays whose digits and
/// exponents, run together, read alike, used to hash alike: each element is hashed
/// apart from the others, so none is compared.
#[test]
fn unique_items_tells_long_exponents_apart() {
    let schema = full(r#"{"uniqueItems":true}"#);
    let doc = |n: u64| {
        let items: Vec<String> = (0..n)
            .map(|i| format!("1e{}", 1_000_000_000_000_000_000u64 + i))
            .collect();
        format!("[{}]", items.join(","))
    };
    let mut work = Vec::new();
    for n in [2_000, 4_000] {
        let text = doc(n);
        let ((valid, compared), read) = counted(&VALUES_READ, || {
            counted(&COMPARISONS, || schema.is_valid(text.as_bytes()))
        });
        assert!(valid);
        assert!(
            compared <= 2,
            "{compared} comparisons of {n} distinct elements"
        );
        work.push(read + compared);
    }
    at_most_doubles("values read", work[0], work[1], 8);
    // The same numbers twice over: refused, the first pair named.
    let twice = b"[1e1000000000000000000,1e1000000000000000001,10e999999999999999999]";
    let errors = schema.validate_json(twice);
    assert_eq!(errors[0].message, "items [0] and [2] are equal");
    // Digits then exponent, with no length between them, read alike for these two.
    let a = "[111111111301e72340172838076673]";
    let b = "[1e72340172838076673,1e72340172838076673]";
    let hash = |s: &str| hash_value(&mut Reader::new(s.as_bytes(), 8), 0);
    assert_ne!(hash(a), hash(b));
    assert!(schema.is_valid(format!("[{a},{b}]").as_bytes()));
    // Exponents that differ past the 18th digit, and ones that only look different.
    assert!(schema.is_valid(b"[1e10000000000000000000001,1e10000000000000000000002]"));
    assert!(!schema.is_valid(b"[1e10000000000000000000001,0.1e10000000000000000000002]"));
}

/// Every spelling of zero is one value, for `uniqueItems` as for `enum` and `const`,
/// in both profiles.
#[test]
fn zeros_of_every_spelling_are_one_value() {
    let schema = full(r#"{"uniqueItems":true}"#);
    for doc in [
        "[0,0.0]",
        "[0,0e5]",
        "[-0,0e5]",
        "[0.0,0e0]",
        "[[0e138],[0e0]]",
        "[1,1.0]",
        "[0,-0]",
        r#"[{"a":[0.0]},{"a":[-0e-7]}]"#,
        "[1e2,100.0,1]",
    ] {
        assert!(
            !schema.is_valid(doc.as_bytes()),
            "{doc} has two equal items"
        );
        let errors = schema.validate_json(doc.as_bytes());
        assert_eq!(errors.len(), 1, "{doc}: {errors:?}");
        assert_eq!(errors[0].keyword, "uniqueItems", "{doc}");
    }
    for doc in ["[0,1]", "[0,0.1]", "[1e5,1e-5]", "[[0],[[0]]]", "[0,false]"] {
        assert!(schema.is_valid(doc.as_bytes()), "{doc} has distinct items");
    }
    for profile in [Profile::Core, Profile::Full] {
        let opts = options(profile);
        let enum_ = Schema::compile_with(br#"{"enum":[0, [1.5]]}"#, &opts).unwrap();
        for doc in ["0", "-0", "0.0", "0e5", "-0.0e-9", "[1.50]", "[15e-1]"] {
            assert!(enum_.is_valid(doc.as_bytes()), "{doc} in {profile:?}");
        }
        for doc in ["1", "[1.51]", "[0]"] {
            assert!(!enum_.is_valid(doc.as_bytes()), "{doc} in {profile:?}");
        }
    }
    let const_ = full(r#"{"const":{"a":0.0,"b":[1e1]}}"#);
    assert!(const_.is_valid(br#"{"b":[10],"a":-0}"#));
    assert!(!const_.is_valid(br#"{"b":[10.5],"a":0}"#));
}

/// Two equal elements nested deep, and wide: the comparison reads each once.
#[test]
fn comparing_equal_elements_reads_each_once() {
    let nested = |n: usize| {
        let mut s = String::from("0");
        for i in 0..n {
            s = format!(r#"{{"k{i}":{s},"w":[1,2,3]}}"#);
        }
        s
    };
    let mut work = Vec::new();
    for n in [100, 200] {
        let v = nested(n);
        let (same, read) = counted(&VALUES_READ, || same_value(v.as_bytes(), v.as_bytes()));
        assert!(same);
        work.push(read);
        let other = v.replacen("0", "1", 1);
        assert!(!same_value(v.as_bytes(), other.as_bytes()));
    }
    at_most_doubles("values read comparing", work[0], work[1], 8);
}

/// `multipleOf` with an 800-digit divisor costs each nine digits of the number one
/// step over the divisor's limbs: linear in the number.
#[test]
fn multiple_of_a_long_divisor_is_linear_in_the_number() {
    let divisor = format!("1{}", "7".repeat(799));
    let schema = full(&format!(r#"{{"multipleOf":{divisor}}}"#));
    let limbs = 800u64.div_ceil(9);
    let mut work = Vec::new();
    for copies in [20, 40] {
        // The divisor written `copies` times over is a multiple of it.
        let multiple = divisor.repeat(copies);
        let digits = multiple.len() as u64;
        let (valid, ops) = counted(&LIMB_OPS, || schema.is_valid(multiple.as_bytes()));
        assert!(valid, "{copies} copies");
        assert!(
            ops <= (digits.div_ceil(9) + 1) * limbs,
            "{ops} limb operations for {digits} digits"
        );
        work.push(ops);
        let off = format!("{}8", &multiple[..multiple.len() - 1]);
        assert!(!schema.is_valid(off.as_bytes()));
        let errors = schema.validate_json(off.as_bytes());
        assert_eq!(errors[0].keyword, "multipleOf");
    }
    at_most_doubles("limb operations", work[0], work[1], limbs);
}

/// `required` of n names and `dependentRequired` of n entries: each name is found
/// through a hash set, so the names compared grow with n, not n².
#[test]
fn long_name_lists_compile_in_linear_work() {
    let required = |n: usize| {
        let names: Vec<String> = (0..n).map(|i| format!("\"p{i}\"")).collect();
        format!(r#"{{"type":"object","required":[{}]}}"#, names.join(","))
    };
    let dependent = |n: usize| {
        let entries: Vec<String> = (0..n).map(|i| format!(r#""p{i}":["q{i}"]"#)).collect();
        format!(r#"{{"dependentRequired":{{{}}}}}"#, entries.join(","))
    };
    // A hash set compares a name only with those that share its bucket's tag: far
    // fewer than one per name (a search of the list compares n² / 2).
    for profile in [Profile::Core, Profile::Full] {
        let mut work = Vec::new();
        for n in [2_000, 4_000] {
            let text = required(n);
            let (schema, compared) = counted(&NAME_COMPARISONS, || {
                Schema::compile_with(text.as_bytes(), &options(profile))
            });
            let schema = schema.unwrap();
            assert!(compared <= n as u64, "{compared} names compared for {n}");
            work.push(compared);
            let errors = schema.validate_json(b"{\"p0\":1}");
            assert_eq!(errors.len(), n - 1);
            assert_eq!(errors[0].message, "missing required property \"p1\"");
        }
        // The tags' chance collisions vary from run to run: a quarter of the names'
        // count as slack.
        at_most_doubles("names compared for required", work[0], work[1], 500);
    }
    let mut work = Vec::new();
    for n in [2_000, 4_000] {
        let text = dependent(n);
        let (schema, compared) = counted(&NAME_COMPARISONS, || full(&text));
        assert!(
            compared <= 2 * n as u64,
            "{compared} names compared for {n}"
        );
        work.push(compared);
        assert!(schema.is_valid(br#"{"p7":1,"q7":2}"#));
        assert!(!schema.is_valid(br#"{"p7":1}"#));
    }
    at_most_doubles(
        "names compared for dependentRequired",
        work[0],
        work[1],
        1000,
    );
    // A name listed twice is still refused, naming it.
    let twice = Schema::compile(br#"{"required":["a","b","a"]}"#).unwrap_err();
    assert!(twice.to_string().contains("lists \"a\" twice"), "{twice}");
}

/// A chain of `$ref`s through n `$defs`, by pointer and by `$id`: each reference finds
/// its target through the members' index, and `link` follows each chain once.
#[test]
fn reference_chains_compile_in_linear_work() {
    let by_pointer = |n: usize| {
        let defs: Vec<String> = (0..n)
            .map(|i| match i + 1 < n {
                true => format!(r##""d{i}":{{"$ref":"#/$defs/d{}"}}"##, i + 1),
                false => format!(r#""d{i}":{{"type":"integer"}}"#),
            })
            .collect();
        format!(
            r##"{{"$ref":"#/$defs/d0","$defs":{{{}}}}}"##,
            defs.join(",")
        )
    };
    let by_id = |n: usize| {
        let defs: Vec<String> = (0..n)
            .map(|i| match i + 1 < n {
                true => format!(r#""d{i}":{{"$id":"urn:d{i}","$ref":"urn:d{}"}}"#, i + 1),
                false => format!(r#""d{i}":{{"$id":"urn:d{i}","type":"integer"}}"#),
            })
            .collect();
        format!(r##"{{"$ref":"urn:d0","$defs":{{{}}}}}"##, defs.join(","))
    };
    for (what, build) in [
        ("pointers", &by_pointer as &dyn Fn(usize) -> String),
        ("ids", &by_id),
    ] {
        let mut members = Vec::new();
        let mut links = Vec::new();
        for n in [1_000, 2_000] {
            let text = build(n);
            let ((schema, steps), linked) =
                counted(&LINK_STEPS, || counted(&MEMBER_STEPS, || full(&text)));
            members.push(steps);
            links.push(linked);
            assert!(schema.is_valid(b"1"), "{what}");
            assert!(!schema.is_valid(b"\"x\""), "{what}");
            assert_eq!(
                schema.validate_json(b"1.5")[0].message,
                "expected integer, got number",
                "{what}"
            );
        }
        // By pointer, three lookups a reference (the index of `$defs`, built once);
        // by `$id`, none (the URI finds the resource).
        assert!(members[1] <= 4 * 2_000, "{what}: {} members", members[1]);
        at_most_doubles(
            &format!("members looked at ({what})"),
            members[0],
            members[1],
            64,
        );
        at_most_doubles(&format!("alias steps ({what})"), links[0], links[1], 64);
    }
}

/// The deepest values the limits allow (1024 levels), through every function that reads
/// a whole value (skipping, hashing, comparing with a schema value, comparing two
/// values), on a thread with 256 KB of stack: none recurses per level.
#[test]
fn deepest_values_fit_a_small_stack() {
    // The schemas are built on a large stack: parsing and compiling a schema value
    // nested 1024 deep is the compiler's matter, not what this test measures.
    let setup = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(read_deepest_values_on_a_small_thread)
        .unwrap();
    assert!(setup.join().is_ok(), "reading the deepest values failed");
}

fn read_deepest_values_on_a_small_thread() {
    const DEPTH: usize = 1024;
    let arrays = |d: usize| format!("{}{}", "[".repeat(d), "]".repeat(d));
    let objects = |d: usize| format!("{}0{}", r#"{"a":"#.repeat(d), "}".repeat(d));
    let mixed = |d: usize| format!("{}0{}", r#"[{"a":"#.repeat(d / 2), "}]".repeat(d / 2));
    // The schemas are compiled here, the values read on the small thread.
    let opts = options(Profile::Full).with_max_depth(DEPTH);
    let compile = |s: &str| Arc::new(Schema::compile_with(s.as_bytes(), &opts).unwrap());
    let mut checks: Vec<(Arc<Schema>, String, bool)> = Vec::new();
    for deep in [arrays, objects, mixed] {
        let inner = deep(DEPTH - 1);
        let top = deep(DEPTH);
        checks.push((compile("{}"), top.clone(), true));
        checks.push((
            compile(r#"{"uniqueItems":true}"#),
            format!("[{inner},{inner}]"),
            false,
        ));
        checks.push((
            compile(r#"{"uniqueItems":true}"#),
            format!("[{inner},0]"),
            true,
        ));
        // A schema's value sits a level or two below the schema's root.
        let below = deep(DEPTH - 2);
        checks.push((
            compile(&format!(r#"{{"enum":[{below}]}}"#)),
            below.clone(),
            true,
        ));
        checks.push((
            compile(&format!(r#"{{"enum":[{below}]}}"#)),
            top.clone(),
            false,
        ));
        checks.push((
            compile(&format!(r#"{{"const":{inner}}}"#)),
            inner.clone(),
            true,
        ));
        checks.push((
            compile(&format!(r#"{{"const":{inner}}}"#)),
            top.clone(),
            false,
        ));
        checks.push((
            compile(r#"{"type":"array","items":{}}"#),
            format!("[{inner}]"),
            true,
        ));
    }
    let values: Vec<(Value, String)> = [arrays, objects, mixed]
        .iter()
        .map(|deep| {
            let text = deep(DEPTH);
            (Value::parse(text.as_bytes(), DEPTH).unwrap(), text)
        })
        .collect();
    let values = Arc::new(values);
    let thread = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            for (schema, doc, want) in &checks {
                assert_eq!(schema.is_valid(doc.as_bytes()), *want, "{doc:.40}");
                assert_eq!(schema.validate_json(doc.as_bytes()).is_empty(), *want);
            }
            for (value, text) in values.iter() {
                let bytes = text.as_bytes();
                Reader::new(bytes, DEPTH).skip_value(0).unwrap();
                hash_value(&mut Reader::new(bytes, DEPTH), 0);
                assert!(equals(&mut Reader::new(bytes, DEPTH), value, 0));
                assert!(same_value(bytes, bytes));
            }
            // One level past the limit is still refused, not overflowed.
            let past = format!("{}{}", "[".repeat(DEPTH + 1), "]".repeat(DEPTH + 1));
            assert!(Reader::new(past.as_bytes(), DEPTH).skip_value(0).is_err());
        })
        .unwrap();
    // The schema values are dropped here, on the large stack.
    assert!(thread.join().is_ok(), "reading on 256 KB failed");
}
