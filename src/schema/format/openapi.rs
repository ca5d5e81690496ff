//! The formats OpenAPI 3.0 adds (its "Data Types" table): `int32` and `int64`
//! (signed integers of that width), `float` and `double` (IEEE 754 binary32 and
//! binary64) and `byte` (base64, RFC 4648 4).
//!
//! Numbers are read exactly from their JSON text: an integer is any value without a
//! fractional part (`1.0` and `1e2` count, as JSON Schema's `integer` does), and a
//! float or double fits when it rounds (IEEE 754, to nearest) to a finite value of
//! that type: its magnitude is below the point where rounding reaches infinity,
//! compared digit by digit with that point's exact decimal value. So `3.4028235e38`,
//! the shortest text of the largest binary32, is a float, and `3.4028236e38` is not.
//! Values below the smallest subnormal fit: they round to zero, as every decimal
//! rounds to a nearby value.

use std::cmp::Ordering;

use crate::json::Decimal;

const INT32_MIN: &str = "-2147483648";
const INT32_MAX: &str = "2147483647";
const INT64_MIN: &str = "-9223372036854775808";
const INT64_MAX: &str = "9223372036854775807";

/// Where binary32 rounding reaches infinity: 2^128 - 2^103, the largest finite
/// value (2^128 - 2^104) plus half its spacing. A value below it rounds to a finite
/// float; the limit itself ties, to even, which is infinity.
macro_rules! float_limit {
    () => {
        "340282356779733661637539395458142568448"
    };
}
/// The same for binary64: 2^1024 - 2^970 (309 digits).
macro_rules! double_limit {
    () => {
        concat!(
            "1797693134862315807937289714053034150799341327100378269361737789804449",
            "6829276475094664901797758720709633028641669288791094655554785194040263",
            "0657488671505820681908902000708383676273854845817711531764475730270069",
            "8555713669596228429148198608349364752927190741684443655107043427115596",
            "99508093042880177904174497792",
        )
    };
}
const FLOAT_LIMIT: &str = float_limit!();
const FLOAT_LIMIT_NEG: &str = concat!("-", float_limit!());
const DOUBLE_LIMIT: &str = double_limit!();
const DOUBLE_LIMIT_NEG: &str = concat!("-", double_limit!());

fn bound(text: &'static str) -> Decimal<'static> {
    match Decimal::parse(text.as_bytes()) {
        Some(d) => d,
        None => unreachable!("the bounds are JSON numbers"),
    }
}

/// Whether `min <= v <= max`, exactly.
fn within(v: &Decimal<'_>, min: &'static str, max: &'static str) -> bool {
    v.cmp_value(&bound(min)) != Ordering::Less && v.cmp_value(&bound(max)) != Ordering::Greater
}

/// Whether `-limit < v < limit`, exactly.
fn inside(v: &Decimal<'_>, limit_neg: &'static str, limit: &'static str) -> bool {
    v.cmp_value(&bound(limit_neg)) == Ordering::Greater
        && v.cmp_value(&bound(limit)) == Ordering::Less
}

pub(super) fn is_int32(text: &[u8]) -> bool {
    Decimal::parse(text).is_some_and(|v| v.is_integer() && within(&v, INT32_MIN, INT32_MAX))
}

pub(super) fn is_int64(text: &[u8]) -> bool {
    Decimal::parse(text).is_some_and(|v| v.is_integer() && within(&v, INT64_MIN, INT64_MAX))
}

pub(super) fn is_float(text: &[u8]) -> bool {
    Decimal::parse(text).is_some_and(|v| inside(&v, FLOAT_LIMIT_NEG, FLOAT_LIMIT))
}

pub(super) fn is_double(text: &[u8]) -> bool {
    Decimal::parse(text).is_some_and(|v| inside(&v, DOUBLE_LIMIT_NEG, DOUBLE_LIMIT))
}

/// RFC 4648 4: groups of four characters of `A-Z a-z 0-9 + /`, the last group
/// padded with `=` to four. The empty string encodes no bytes. Non-zero padding
/// bits (3.5: decoders "MAY" refuse them) are accepted.
pub(super) fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return false;
    }
    let is_digit = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    let pad = match b {
        [.., b'=', b'='] => 2,
        [.., b'='] => 1,
        _ => 0,
    };
    b[..b.len() - pad].iter().all(is_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_exact() {
        assert_eq!(INT32_MIN.parse::<i32>().unwrap(), i32::MIN);
        assert_eq!(INT32_MAX.parse::<i32>().unwrap(), i32::MAX);
        assert_eq!(INT64_MIN.parse::<i64>().unwrap(), i64::MIN);
        assert_eq!(INT64_MAX.parse::<i64>().unwrap(), i64::MAX);
        assert_eq!(FLOAT_LIMIT, (((1u128 << 25) - 1) << 103).to_string());
        assert_eq!(DOUBLE_LIMIT, times_power_of_two((1u64 << 54) - 1, 970));
        // The limits are where rounding overflows: just below stays finite.
        assert_eq!(FLOAT_LIMIT.parse::<f32>().unwrap(), f32::INFINITY);
        assert_eq!(DOUBLE_LIMIT.parse::<f64>().unwrap(), f64::INFINITY);
        assert_eq!(just_below(FLOAT_LIMIT).parse::<f32>().unwrap(), f32::MAX);
        assert_eq!(just_below(DOUBLE_LIMIT).parse::<f64>().unwrap(), f64::MAX);
    }

    /// `limit - 0.1`, for a limit whose last digit is not 0.
    fn just_below(limit: &str) -> String {
        let (head, last) = limit.split_at(limit.len() - 1);
        let last = last.as_bytes()[0];
        assert!(last > b'0');
        format!("{head}{}.9", char::from(last - 1))
    }

    /// `m * 2^e` in decimal, by doubling a little-endian digit vector.
    fn times_power_of_two(m: u64, e: u32) -> String {
        let mut digits: Vec<u8> = m.to_string().bytes().rev().map(|b| b - b'0').collect();
        for _ in 0..e {
            let mut carry = 0;
            for d in digits.iter_mut() {
                let v = *d * 2 + carry;
                *d = v % 10;
                carry = v / 10;
            }
            if carry > 0 {
                digits.push(carry);
            }
        }
        digits.iter().rev().map(|d| char::from(b'0' + d)).collect()
    }

    #[test]
    fn int32_range_and_integral_values() {
        for ok in [
            "0",
            "-0",
            "2147483647",
            "-2147483648",
            "1.0",
            "1e2",
            "2.147483647e9",
            "21474836470e-1",
        ] {
            assert!(is_int32(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "2147483648",
            "-2147483649",
            "1.5",
            "1e-1",
            "1e10",
            "2.1474836475e9",
        ] {
            assert!(!is_int32(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn int64_range_exact_beyond_f64() {
        assert!(is_int64(b"9223372036854775807"));
        assert!(is_int64(b"-9223372036854775808"));
        // Both round to 2^63 as an f64; only the first is in range.
        assert!(!is_int64(b"9223372036854775808"));
        assert!(!is_int64(b"-9223372036854775809"));
        assert!(is_int64(b"9.223372036854775807e18"));
        assert!(!is_int64(b"1e19"));
        assert!(!is_int64(b"0.5"));
    }

    #[test]
    fn float_and_double_magnitude() {
        // The largest finite values, as written exactly and as printed shortest.
        assert!(is_float(b"340282346638528859811704183484516925440"));
        assert!(is_float(b"3.4028235e38"));
        assert!(is_float(b"-3.4028235e38"));
        assert!(!is_float(b"3.4028236e38"));
        assert!(!is_float(b"-3.4028236e38"));
        assert!(
            !is_float(FLOAT_LIMIT.as_bytes()),
            "the tie rounds to infinity"
        );
        assert!(!is_float(FLOAT_LIMIT_NEG.as_bytes()));
        assert!(is_float(just_below(FLOAT_LIMIT).as_bytes()));
        assert!(is_double(just_below(DOUBLE_LIMIT).as_bytes()));
        assert!(is_float(b"1e-50"), "tiny values round to zero");
        assert!(is_float(b"0.1"));
        assert!(is_double(b"1.7976931348623157e308"));
        assert!(is_double(b"-1.7976931348623157e308"));
        assert!(
            is_double(b"1.7976931348623158e308"),
            "rounds down to the largest"
        );
        assert!(!is_double(b"1.7976931348623159e308"));
        assert!(!is_double(DOUBLE_LIMIT.as_bytes()));
        assert!(!is_double(b"1e309"));
        assert!(is_double(b"3.5e38"));
        assert!(!is_float(b"3.5e38"));
        assert!(is_double(b"1e-400"));
    }

    #[test]
    fn base64() {
        for ok in ["", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "+/+/", "AA=="] {
            assert!(is_base64(ok), "{ok}");
        }
        for bad in [
            "Z", "Zg=", "Zg", "Z===", "=Zg=", "Zm9v\n", "Zm-_", "Zm 9v", "Zg==Zg==",
        ] {
            assert!(!is_base64(bad), "{bad}");
        }
    }
}
