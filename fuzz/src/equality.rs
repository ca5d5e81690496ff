//! Equality by value, as `uniqueItems`, `enum` and `const` decide it, against a
//! reference comparison of canonical decimals. The generator draws values first, each
//! number in canonical form (sign, significant digits with no leading or trailing zero,
//! the power of ten of the last digit, as an i128, so past an i64 too), and compares
//! them on that form: two numbers are equal exactly when the forms are (every zero
//! is one). Only then is each value written out, every number in a spelling of its own
//! (trailing zeros, a decimal point anywhere, leading zeros after `0.`, `e`/`E` with a
//! sign and leading zeros in the exponent, `-0`), and every object's members in an
//! order of its own. toolgate must find equal exactly the pairs the reference does.
//!
//! Work per input is bounded: at most [`MAX_ITEMS`] values of at most [`MAX_NODES`]
//! nodes, [`MAX_DIGITS`] digits and depth [`MAX_DEPTH`].

use arbitrary::{Result, Unstructured};
use toolgate_core::{Options, Profile, Schema};

/// Values in one array (or enum).
pub const MAX_ITEMS: usize = 12;
/// Nodes of one value.
pub const MAX_NODES: usize = 24;
/// Significant digits of one number.
pub const MAX_DIGITS: usize = 40;
/// Nesting of one value.
pub const MAX_DEPTH: u32 = 3;

/// A value as the reference sees it.
#[derive(Clone, Debug)]
pub enum Model {
    Null,
    Bool(bool),
    /// Zero, or `± digits × 10^scale` (digits ASCII, first and last nonzero).
    Number {
        neg: bool,
        digits: String,
        scale: i128,
    },
    String(&'static str),
    Array(Vec<Model>),
    /// Distinct keys.
    Object(Vec<(&'static str, Model)>),
}

/// Keys and strings, two of them spelled with escapes when written.
const WORDS: &[&str] = &["a", "b", "é", "", "0"];

/// Scales near the ends of an i64 and far past them, and small ones.
const SCALES: &[i128] = &[
    0,
    1,
    -1,
    2,
    -3,
    17,
    -20,
    i64::MAX as i128 - 1,
    i64::MAX as i128,
    i64::MAX as i128 + 1,
    i64::MIN as i128,
    i64::MIN as i128 - 1,
    1_000_000_000_000_000_000,
    999_999_999_999_999_999,
    -1_000_000_000_000_000_000,
    100_000_000_000_000_000_000_000,
    -72_340_172_838_076_673,
];

impl Model {
    fn generate(u: &mut Unstructured<'_>, depth: u32, nodes: &mut usize) -> Result<Model> {
        *nodes += 1;
        let leaf = depth >= MAX_DEPTH || *nodes >= MAX_NODES;
        Ok(match u.int_in_range(0..=if leaf { 5 } else { 7 })? {
            0 => Model::Null,
            1 => Model::Bool(u.arbitrary()?),
            2 => Model::String(u.choose(WORDS)?),
            3 => Model::zero(),
            _ if leaf => Model::number(u)?,
            4 | 5 => Model::number(u)?,
            6 => {
                let n = u.int_in_range(0..=3)?;
                let mut items = Vec::new();
                for _ in 0..n {
                    items.push(Model::generate(u, depth + 1, nodes)?);
                }
                Model::Array(items)
            }
            _ => {
                let mut members: Vec<(&'static str, Model)> = Vec::new();
                for _ in 0..u.int_in_range(0..=3)? {
                    let key = *u.choose(WORDS)?;
                    if members.iter().all(|(k, _)| *k != key) {
                        members.push((key, Model::generate(u, depth + 1, nodes)?));
                    }
                }
                Model::Object(members)
            }
        })
    }

    fn zero() -> Model {
        Model::Number {
            neg: false,
            digits: String::new(),
            scale: 0,
        }
    }

    fn number(u: &mut Unstructured<'_>) -> Result<Model> {
        let len = u.int_in_range(1..=MAX_DIGITS)?;
        // Few distinct digit strings, so that equal numbers come up often.
        let digits: String = match u.int_in_range(0..=3)? {
            0 => "1".to_owned(),
            1 => "15".to_owned(),
            2 => "1".repeat(len),
            _ => {
                let mut d = String::new();
                for i in 0..len {
                    let lo = if i == 0 || i + 1 == len { 1 } else { 0 };
                    d.push(char::from(b'0' + u.int_in_range(lo..=9)?));
                }
                d
            }
        };
        let scale = *u.choose(SCALES)? + i128::from(u.int_in_range(-2i8..=2)?);
        Ok(Model::Number {
            neg: u.arbitrary()?,
            digits,
            scale,
        })
    }

    /// Equality by value on the canonical forms: what the reference says.
    pub fn same(&self, other: &Model) -> bool {
        use Model::*;
        match (self, other) {
            (Null, Null) => true,
            (Bool(a), Bool(b)) => a == b,
            (
                Number {
                    neg: na,
                    digits: da,
                    scale: sa,
                },
                Number {
                    neg: nb,
                    digits: db,
                    scale: sb,
                },
            ) => {
                // Every zero is one value, whatever its sign and scale.
                (da.is_empty() && db.is_empty()) || (na == nb && da == db && sa == sb)
            }
            (String(a), String(b)) => a == b,
            (Array(a), Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y)),
            (Object(a), Object(b)) => {
                a.len() == b.len()
                    && a.iter().all(|(k, v)| {
                        b.iter()
                            .find(|(l, _)| l == k)
                            .is_some_and(|(_, w)| v.same(w))
                    })
            }
            _ => false,
        }
    }

    /// The value as JSON text, in spellings drawn from `u`.
    fn write(&self, u: &mut Unstructured<'_>, out: &mut String) -> Result<()> {
        match self {
            Model::Null => out.push_str("null"),
            Model::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Model::Number { neg, digits, scale } => spell(u, *neg, digits, *scale, out)?,
            Model::String(s) => write_string(u, s, out)?,
            Model::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(u, out)?;
                }
                out.push(']');
            }
            Model::Object(members) => {
                let mut order: Vec<usize> = (0..members.len()).collect();
                // A rotation and maybe a reversal: an order of its own.
                if !order.is_empty() {
                    let by = u.int_in_range(0..=order.len() - 1)?;
                    order.rotate_left(by);
                }
                if u.arbitrary()? {
                    order.reverse();
                }
                out.push('{');
                for (n, &i) in order.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    write_string(u, members[i].0, out)?;
                    out.push(':');
                    members[i].1.write(u, out)?;
                }
                out.push('}');
            }
        }
        Ok(())
    }
}

/// A string, plain or with its characters escaped.
fn write_string(u: &mut Unstructured<'_>, s: &str, out: &mut String) -> Result<()> {
    out.push('"');
    let escaped = u.arbitrary::<bool>()?;
    for c in s.chars() {
        if escaped {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.push('"');
    Ok(())
}

/// `± digits × 10^scale` in a spelling drawn from `u`: `t` trailing zeros added to the
/// digits, `f` of the digits (and zeros) after the decimal point, and the exponent
/// that makes up for both, written with `e` or `E`, a sign or none, leading zeros.
fn spell(
    u: &mut Unstructured<'_>,
    neg: bool,
    digits: &str,
    scale: i128,
    out: &mut String,
) -> Result<()> {
    if neg || (digits.is_empty() && u.arbitrary()?) {
        out.push('-');
    }
    let mut mantissa = if digits.is_empty() {
        "0".to_owned()
    } else {
        digits.to_owned()
    };
    let t = u.int_in_range(0..=3)?;
    mantissa.push_str(&"0".repeat(t));
    let f = u.int_in_range(0..=mantissa.len() + 2)?;
    // A zero's scale is anything at all.
    let base = if digits.is_empty() {
        *u.choose(SCALES)?
    } else {
        scale
    };
    let exponent = base - t as i128 + f as i128;
    if f == 0 {
        // A zero's integer part is one "0", never "00".
        out.push_str(if digits.is_empty() { "0" } else { &mantissa });
    } else if f >= mantissa.len() {
        out.push_str("0.");
        out.push_str(&"0".repeat(f - mantissa.len()));
        out.push_str(&mantissa);
    } else {
        let (int, frac) = mantissa.split_at(mantissa.len() - f);
        // A zero's integer part is one "0", never "00".
        let int = if int.bytes().all(|b| b == b'0') {
            "0"
        } else {
            int
        };
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    }
    if exponent != 0 || u.arbitrary()? {
        out.push(if u.arbitrary()? { 'e' } else { 'E' });
        match (exponent < 0, u.arbitrary::<bool>()?) {
            (true, _) => out.push('-'),
            (false, true) => out.push('+'),
            _ => {}
        }
        out.push_str(&"0".repeat(u.int_in_range(0..=2)?));
        out.push_str(&exponent.unsigned_abs().to_string());
    }
    Ok(())
}

/// Values, and a value to look up among them.
#[derive(Debug)]
pub struct Case {
    pub items: Vec<Model>,
    /// The array of the items, written out.
    pub array: String,
    /// Each item written again (in other spellings), for `enum` and `const`.
    pub respelled: Vec<String>,
    /// One of the items or another value, written out, and its model.
    pub probe: (Model, String),
}

impl Case {
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Case> {
        let n = u.int_in_range(0..=MAX_ITEMS)?;
        let mut items: Vec<Model> = Vec::new();
        for _ in 0..n {
            // Often a copy of an earlier item (to be written another way).
            let item = match items.len() {
                k if k > 0 && u.ratio(1, 3)? => items[u.int_in_range(0..=k - 1)?].clone(),
                _ => Model::generate(u, 0, &mut 0)?,
            };
            items.push(item);
        }
        let mut array = String::from("[");
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                array.push(',');
            }
            item.write(u, &mut array)?;
        }
        array.push(']');
        let mut respelled = Vec::new();
        for item in &items {
            let mut s = String::new();
            item.write(u, &mut s)?;
            respelled.push(s);
        }
        let probe = match items.len() {
            k if k > 0 && u.arbitrary()? => items[u.int_in_range(0..=k - 1)?].clone(),
            _ => Model::generate(u, 0, &mut 0)?,
        };
        let mut probe_text = String::new();
        probe.write(u, &mut probe_text)?;
        Ok(Case {
            items,
            array,
            respelled,
            probe: (probe, probe_text),
        })
    }

    /// The first pair the reference finds equal: the earliest later item, with the
    /// first item it equals.
    pub fn first_equal_pair(&self) -> Option<(usize, usize)> {
        (1..self.items.len()).find_map(|j| {
            (0..j)
                .find(|&i| self.items[i].same(&self.items[j]))
                .map(|i| (i, j))
        })
    }
}

fn schema(profile: Profile, text: &str) -> Schema {
    Schema::compile_with(text.as_bytes(), &Options::default().with_profile(profile))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// `uniqueItems` over the array, `enum` of the items and `const` of each against the
/// probe: every verdict is the reference's.
pub fn check(case: &Case) {
    let unique = schema(Profile::Full, r#"{"uniqueItems":true}"#);
    let want = case.first_equal_pair();
    let doc = case.array.as_bytes();
    assert_eq!(
        unique.is_valid(doc),
        want.is_none(),
        "uniqueItems of {}",
        case.array
    );
    let errors = unique.validate_json(doc);
    match want {
        None => assert!(errors.is_empty(), "{}: {errors:?}", case.array),
        Some((i, j)) => {
            assert_eq!(errors.len(), 1, "{}: {errors:?}", case.array);
            assert_eq!(
                errors[0].message,
                format!("items [{i}] and [{j}] are equal"),
                "{}",
                case.array
            );
        }
    }
    let (probe, probe_text) = &case.probe;
    let listed = case.items.iter().any(|m| m.same(probe));
    let enum_text = format!(r#"{{"enum":[{}]}}"#, case.respelled.join(","));
    for profile in [Profile::Core, Profile::Full] {
        // The core profile refuses an empty enum.
        if case.items.is_empty() && profile == Profile::Core {
            continue;
        }
        let e = schema(profile, &enum_text);
        assert_eq!(
            e.is_valid(probe_text.as_bytes()),
            listed,
            "{probe_text} in {enum_text} ({profile:?})"
        );
        assert_eq!(
            e.validate_json(probe_text.as_bytes()).is_empty(),
            listed,
            "{probe_text} in {enum_text} ({profile:?})"
        );
    }
    for (item, text) in case.items.iter().zip(&case.respelled).take(3) {
        let c = schema(Profile::Full, &format!(r#"{{"const":{text}}}"#));
        assert_eq!(
            c.is_valid(probe_text.as_bytes()),
            item.same(probe),
            "{probe_text} against const {text}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Generated cases are JSON, come up with both verdicts, and pass the check.
    #[test]
    fn generated_cases_agree_with_the_reference() {
        let mut seed = 0x51_7cc1_b727_220au64;
        let (mut equal, mut distinct, mut listed) = (0, 0, 0);
        for n in 0..3000 {
            let bytes = crate::xorshift_bytes(&mut seed, 384);
            let case = Case::generate(&mut Unstructured::new(&bytes)).unwrap();
            serde_json::from_str::<serde_json::Value>(&case.array)
                .unwrap_or_else(|e| panic!("case {n}: {}: {e}", case.array));
            check(&case);
            match case.first_equal_pair() {
                Some(_) => equal += 1,
                None => distinct += 1,
            }
            listed += usize::from(case.items.iter().any(|m| m.same(&case.probe.0)));
        }
        assert!(
            equal > 300 && distinct > 300,
            "{equal} equal, {distinct} distinct"
        );
        assert!(listed > 300, "{listed} probes listed");
    }

    /// The generator writes one value in many spellings (zeros with any sign and
    /// scale, scales past an i64), and toolgate reads each as that value.
    #[test]
    fn spellings_of_one_value_are_many_and_equal() {
        let unique = schema(Profile::Full, r#"{"uniqueItems":true}"#);
        let mut seed = 0x1d8e_4e27_c47d_124fu64;
        for (neg, digits, scale) in [
            (false, "", 0),
            (true, "15", i64::MAX as i128 + 1),
            (false, "1", -1_000_000_000_000_000_000),
            (false, "123", -2),
        ] {
            let mut spellings = std::collections::BTreeSet::new();
            for _ in 0..200 {
                let bytes = crate::xorshift_bytes(&mut seed, 32);
                let mut s = String::new();
                spell(&mut Unstructured::new(&bytes), neg, digits, scale, &mut s).unwrap();
                serde_json::from_str::<serde_json::Value>(&s)
                    .unwrap_or_else(|e| panic!("{s}: {e}"));
                spellings.insert(s);
            }
            assert!(
                spellings.len() > 40,
                "{} spellings of {digits}",
                spellings.len()
            );
            let first = spellings.first().unwrap().clone();
            for s in &spellings {
                let doc = format!("[{first},{s}]");
                assert!(!unique.is_valid(doc.as_bytes()), "{doc}");
            }
        }
    }
}
