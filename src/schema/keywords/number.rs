//! `minimum` and `maximum`: inclusive bounds compared exactly from the number's text
//! (integers of any size, no rounding through floating point).

use std::cmp::Ordering;

use crate::json::{Decimal, Number, Reader, Value};

use super::super::compile::Compiler;
use super::super::sink::{Member, Sink, W};

/// A numeric bound as written in the schema, compared exactly; `small` is its value
/// when it is an integer that fits an i64, so plain integer arguments compare without
/// reading digits.
pub(crate) struct Bound {
    pub text: String,
    pub small: Option<i64>,
}

impl Bound {
    pub(crate) fn new(text: String) -> Bound {
        let small = Reader::new(text.as_bytes(), 1)
            .read_number()
            .ok()
            .and_then(|n| n.small());
        Bound { text, small }
    }

    /// How the instance number `n` compares with the bound (`n` ⋛ bound).
    #[inline(always)]
    pub(crate) fn compare(&self, n: Number<'_>) -> Ordering {
        if let Some(order) = self.small.and_then(|b| n.cmp_int(b)) {
            return order;
        }
        match (Decimal::parse(n.text), Decimal::parse(self.text.as_bytes())) {
            (Some(a), Some(b)) => a.cmp_value(&b),
            // Unreachable for tokens the reader produced; compare as equal (passes).
            _ => Ordering::Equal,
        }
    }
}

/// The number keywords of one schema.
#[derive(Default)]
pub(crate) struct NumberGroup {
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
}

impl NumberGroup {
    pub(crate) fn is_empty(&self) -> bool {
        self.minimum.is_none() && self.maximum.is_none()
    }
}

/// A bound keyword's value: a number, kept as written. `None` after recording a problem.
pub(crate) fn compile_bound(c: &mut Compiler<'_>, keyword: &str, v: &Value) -> Option<Bound> {
    let Value::Number(text) = v else {
        c.problem(keyword, format!("\"{keyword}\" must be a number"));
        return None;
    };
    Some(Bound::new(text.clone()))
}

const LESS: &str = " is less than the minimum ";
const GREATER: &str = " is greater than the maximum ";

/// Checks the number `n`.
#[inline(always)]
pub(crate) fn check<'a, S: Sink<'a>>(g: &NumberGroup, n: Number<'_>, sink: &mut S) -> W {
    if let Some(min) = &g.minimum {
        if min.compare(n).is_lt() {
            report(sink, "minimum", n, LESS, &min.text)?;
        }
    }
    if let Some(max) = &g.maximum {
        if max.compare(n).is_gt() {
            report(sink, "maximum", n, GREATER, &max.text)?;
        }
    }
    Ok(())
}

/// `N<relation>BOUND`: the number as written, then what it breaks.
fn report<'a, S: Sink<'a>>(
    sink: &mut S,
    keyword: &'static str,
    n: Number<'_>,
    relation: &str,
    bound: &str,
) -> W {
    let capacity = n.text.len() + relation.len() + bound.len();
    sink.report(keyword, Member::None, capacity, |m| {
        m.push_str(&String::from_utf8_lossy(n.text));
        m.push_str(relation);
        m.push_str(bound);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_compare_exactly_on_the_fast_path_and_off_it() {
        use std::cmp::Ordering::*;
        let cmp = |n: &str, b: &str| {
            let mut r = Reader::new(n.as_bytes(), 1);
            Bound::new(b.to_string()).compare(r.read_number().unwrap())
        };
        let cases = [
            ("3", "3", Equal),
            ("3.0", "3", Equal),
            ("3.5", "3", Greater),
            ("2.5", "3", Less),
            ("-0.5", "0", Less),
            ("0.5", "0", Greater),
            ("-3.5", "-3", Less),
            ("-2.5", "-3", Greater),
            ("-3.0", "-3", Equal),
            ("48.8686", "90", Less),
            ("-90.0001", "-90", Less),
            ("1e2", "100", Equal),
            ("100.5", "1e2", Greater),
            ("123456789012345678901", "123456789012345678900", Greater),
            ("0.30000000000000004", "0.3", Greater),
        ];
        for (n, b, want) in cases {
            assert_eq!(cmp(n, b), want, "{n} vs {b}");
        }
    }
}
