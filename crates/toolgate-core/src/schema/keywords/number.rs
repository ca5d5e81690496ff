//! `minimum` and `maximum` (inclusive), and in the full profile `exclusiveMinimum`,
//! `exclusiveMaximum` and `multipleOf`: compared exactly from the number's text
//! (integers of any size, no rounding through floating point; `0.3` is a multiple of
//! `0.1`, `1e308` of `0.5`). Formats that apply to numbers (OpenAPI's `int32`, ...) are
//! checked here too.

use std::cmp::Ordering;

use crate::json::{Decimal, Number, Reader, Value};

use super::super::compile::Compiler;
use super::super::message::quoted_len;
use super::super::sink::{Member, Sink, W};
use super::format::{report_format, FormatRule};

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

/// `multipleOf`: a positive number, kept as its significant digits and the power of
/// ten of the last one (`0.25` is 25 × 10^-2), so divisibility is decided exactly.
pub(crate) struct MultipleOf {
    pub text: String,
    /// The significant digits, as values 0-9.
    digits: Box<[u8]>,
    /// The power of ten of the last digit.
    exponent: i64,
    /// The digits as a number, when they fit comfortably in a u128 (the common case).
    small: Option<u128>,
}

/// Below this, `r * 10 + 9` never overflows a u128.
const SMALL_DIVISOR: u128 = 1 << 120;

impl MultipleOf {
    fn new(c: &mut Compiler<'_>, v: &Value) -> Option<MultipleOf> {
        let bad = |c: &mut Compiler<'_>| {
            c.problem(
                "multipleOf",
                "\"multipleOf\" must be a number greater than 0",
            );
            None
        };
        let (Value::Number(text), Some(d)) = (v, v.as_decimal()) else {
            return bad(c);
        };
        if d.is_zero() || d.is_negative() {
            return bad(c);
        }
        let (digits, exponent) = d.scaled_digits();
        let digits: Box<[u8]> = digits.collect();
        let Ok(exponent) = exponent else {
            c.problem(
                "multipleOf",
                "\"multipleOf\" has an exponent too large to be checked exactly",
            );
            return None;
        };
        let small = digits.iter().try_fold(0u128, |acc, &d| {
            let next = acc * 10 + u128::from(d);
            (next < SMALL_DIVISOR).then_some(next)
        });
        Some(MultipleOf {
            text: text.clone(),
            digits,
            exponent,
            small,
        })
    }

    /// Whether `n` is an integer multiple of the divisor.
    pub(crate) fn divides(&self, n: &Decimal<'_>) -> bool {
        if n.is_zero() {
            return true;
        }
        let (digits, exponent) = n.scaled_digits();
        // n = a × 10^ea and the divisor b × 10^eb, both digit strings without trailing
        // zeros. If ea < eb, n / divisor = (a / b) × 10^(ea - eb) needs a divisible by
        // 10, which a (no trailing zero) is not.
        let shift = match exponent {
            Err(false) => return false,
            // Far above: shifted more than any divisor needs (see below).
            Err(true) => u64::MAX,
            Ok(ea) if ea < self.exponent => return false,
            Ok(ea) => ea.abs_diff(self.exponent),
        };
        // a × 10^shift ≡ 0 (mod b). Once the shift reaches b's powers of 2 and 5 (fewer
        // than its bit length), more zeros change nothing: 10 is invertible modulo the
        // rest of b. So a shift beyond 4 × digits + 4 is the same as that.
        let shift = shift.min(4 * self.digits.len() as u64 + 4);
        match self.small {
            Some(b) => {
                let mut r: u128 = 0;
                for d in digits {
                    r = (r * 10 + u128::from(d)) % b;
                }
                for _ in 0..shift {
                    r = (r * 10) % b;
                }
                r == 0
            }
            None => {
                let b = BigDigits::new(&self.digits);
                let mut r = BigDigits::zero(self.digits.len());
                for d in digits.chain(std::iter::repeat_n(0, shift as usize)) {
                    r.push_digit_mod(d, &b);
                }
                r.is_zero()
            }
        }
    }
}

/// A non-negative integer as decimal digits (most significant first), for divisors
/// too long for a u128: the remainder is kept below the divisor one digit at a time.
struct BigDigits {
    digits: Vec<u8>,
}

impl BigDigits {
    fn new(digits: &[u8]) -> BigDigits {
        BigDigits {
            digits: digits.to_vec(),
        }
    }

    fn zero(room: usize) -> BigDigits {
        let mut digits = Vec::with_capacity(room + 1);
        digits.push(0);
        BigDigits { digits }
    }

    fn is_zero(&self) -> bool {
        self.digits.iter().all(|&d| d == 0)
    }

    /// `self = (self × 10 + d) mod m`, given `self < m`.
    fn push_digit_mod(&mut self, d: u8, m: &BigDigits) {
        self.digits.push(d);
        // self < 10 m: subtract m at most nine times.
        while self.cmp(m) != Ordering::Less {
            self.sub(m);
        }
        let lead = self.digits.iter().take_while(|&&d| d == 0).count();
        self.digits
            .drain(..lead.min(self.digits.len().saturating_sub(1)));
    }

    fn cmp(&self, m: &BigDigits) -> Ordering {
        let a = &self.digits[self.digits.iter().take_while(|&&d| d == 0).count()..];
        let b = &m.digits[m.digits.iter().take_while(|&&d| d == 0).count()..];
        a.len().cmp(&b.len()).then_with(|| a.cmp(b))
    }

    fn sub(&mut self, m: &BigDigits) {
        let mut borrow = 0i16;
        let offset = self.digits.len() - m.digits.len();
        for i in (0..self.digits.len()).rev() {
            let sub = if i >= offset {
                i16::from(m.digits[i - offset])
            } else {
                0
            };
            let mut v = i16::from(self.digits[i]) - sub - borrow;
            borrow = i16::from(v < 0);
            if v < 0 {
                v += 10;
            }
            self.digits[i] = v as u8;
        }
    }
}

/// The number keywords of one schema.
#[derive(Default)]
pub(crate) struct NumberGroup {
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub exclusive_minimum: Option<Bound>,
    pub exclusive_maximum: Option<Bound>,
    pub multiple_of: Option<MultipleOf>,
    /// A format that applies to numbers (OpenAPI's `int32`, `int64`, `float`, `double`).
    pub format: Option<FormatRule>,
    /// Any of the full profile's number keywords is present (one test on the path
    /// of the core profile's).
    pub full: bool,
}

impl NumberGroup {
    pub(crate) fn is_empty(&self) -> bool {
        self.minimum.is_none()
            && self.maximum.is_none()
            && self.exclusive_minimum.is_none()
            && self.exclusive_maximum.is_none()
            && self.multiple_of.is_none()
            && self.format.is_none()
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

/// Compiles `multipleOf` into `group`.
pub(crate) fn compile_multiple_of(c: &mut Compiler<'_>, group: &mut NumberGroup, v: &Value) {
    group.multiple_of = MultipleOf::new(c, v);
}

const LESS: &str = " is less than the minimum ";
const GREATER: &str = " is greater than the maximum ";
const NOT_GREATER: &str = " is not greater than the exclusive minimum ";
const NOT_LESS: &str = " is not less than the exclusive maximum ";
const NOT_MULTIPLE: &str = " is not a multiple of ";

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
    if g.full {
        check_full(g, n, sink)?;
    }
    Ok(())
}

/// The full profile's number keywords, out of the core profile's way.
#[inline(never)]
fn check_full<'a, S: Sink<'a>>(g: &NumberGroup, n: Number<'_>, sink: &mut S) -> W {
    if let Some(min) = &g.exclusive_minimum {
        if min.compare(n).is_le() {
            report(sink, "exclusiveMinimum", n, NOT_GREATER, &min.text)?;
        }
    }
    if let Some(max) = &g.exclusive_maximum {
        if max.compare(n).is_ge() {
            report(sink, "exclusiveMaximum", n, NOT_LESS, &max.text)?;
        }
    }
    if let Some(m) = &g.multiple_of {
        let divides = Decimal::parse(n.text).is_some_and(|d| m.divides(&d));
        if !divides {
            report(sink, "multipleOf", n, NOT_MULTIPLE, &m.text)?;
        }
    }
    if let Some(f) = &g.format {
        if !f.format.is_valid_number(n.text) {
            report_format(sink, n.text, f)?;
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
    let capacity = quoted_len(n.text.len()) + relation.len() + bound.len();
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

    fn multiple(n: &str, of: &str) -> bool {
        let opts = crate::schema::Options::default();
        let v = Value::parse(of.as_bytes(), 4).unwrap();
        let mut c = Compiler::new(&opts, None, opts.default_draft());
        let m = MultipleOf::new(&mut c, &v).expect("a valid divisor");
        m.divides(&Decimal::parse(n.as_bytes()).unwrap())
    }

    #[test]
    fn multiple_of_is_exact_on_the_decimal_text() {
        for (n, of) in [
            ("0.3", "0.1"),
            ("0.0075", "0.0001"),
            ("10", "2"),
            ("-10", "2"),
            ("1e308", "0.5"),
            ("4.5", "1.5"),
            ("1e2", "25"),
            ("0", "7"),
            ("7", "7"),
            ("123456789012345678901234567890", "10"),
            ("1e999999", "5e5"),
            ("3e999999", "3e5"),
            ("2e-3", "1e-3"),
            ("1", "1e-99999"),
            // A divisor longer than a u128: the digit-at-a-time path.
            (
                "246913578024691357802469135780246913578024691357802469135780",
                "123456789012345678901234567890123456789012345678901234567890",
            ),
        ] {
            assert!(multiple(n, of), "{n} is a multiple of {of}");
        }
        for (n, of) in [
            ("0.35", "0.1"),
            ("7", "5"),
            ("1", "3"),
            ("0.00751", "0.0001"),
            ("1e-5", "1e-4"),
            ("1e999999", "7"),
            ("1e999999", "3e5"),
            ("1", "0.3"),
            (
                "246913578024691357802469135780246913578024691357802469135781",
                "123456789012345678901234567890123456789012345678901234567890",
            ),
        ] {
            assert!(!multiple(n, of), "{n} is not a multiple of {of}");
        }
    }
}
