use std::cmp::Ordering;

/// A JSON number as written, read exactly: `-? int . frac e exp`. Comparing two of
/// them is exact for any number of digits, in the mantissa and in the exponent (no
/// rounding through `f64`, no clamping), so `18446744073709551616 >
/// 18446744073709551615`, `1.0 == 1`, `1e4503599627370498 > 1e4503599627370497` all
/// hold, and `1e2` is an integer. Nothing is allocated.
#[derive(Clone, Copy, Debug)]
pub struct Decimal<'a> {
    neg: bool,
    int: &'a [u8],
    frac: &'a [u8],
    exp: Exponent<'a>,
}

/// The written exponent: its value when it has at most 18 digits (a value that
/// always fits an i64, and every exponent a person writes), else its digits.
#[derive(Clone, Copy, Debug)]
enum Exponent<'a> {
    Small(i64),
    /// More than 18 digits, leading zeros removed.
    Large {
        neg: bool,
        digits: &'a [u8],
    },
}

/// The most digits whose value always fits an i64.
const SMALL_DIGITS: usize = 18;

impl<'a> Decimal<'a> {
    /// Splits a number token that the reader has validated (RFC 8259 grammar).
    pub fn parse(text: &'a [u8]) -> Option<Decimal<'a>> {
        let (neg, rest) = match text.split_first() {
            Some((b'-', r)) => (true, r),
            _ => (false, text),
        };
        let int_end = rest
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(rest.len());
        if int_end == 0 {
            return None;
        }
        let int = &rest[..int_end];
        let mut rest = &rest[int_end..];
        let mut frac: &[u8] = &[];
        if let Some((b'.', r)) = rest.split_first() {
            let end = r
                .iter()
                .position(|b| !b.is_ascii_digit())
                .unwrap_or(r.len());
            if end == 0 {
                return None;
            }
            frac = &r[..end];
            rest = &r[end..];
        }
        let mut exp = Exponent::Small(0);
        if let Some((b'e' | b'E', r)) = rest.split_first() {
            let (eneg, r) = match r.split_first() {
                Some((b'-', r)) => (true, r),
                Some((b'+', r)) => (false, r),
                _ => (false, r),
            };
            if r.is_empty() || !r.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let lead = r.iter().take_while(|&&d| d == b'0').count();
            let digits = &r[lead..];
            exp = if digits.len() <= SMALL_DIGITS {
                let v = digits
                    .iter()
                    .fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
                Exponent::Small(if eneg { -v } else { v })
            } else {
                Exponent::Large { neg: eneg, digits }
            };
            rest = &[];
        }
        if !rest.is_empty() {
            return None;
        }
        Some(Decimal {
            neg,
            int,
            frac,
            exp,
        })
    }

    fn digit(&self, i: usize) -> u8 {
        if i < self.int.len() {
            self.int[i]
        } else {
            self.frac[i - self.int.len()]
        }
    }

    fn total(&self) -> usize {
        self.int.len() + self.frac.len()
    }

    /// (index of the first significant digit, count of significant digits); count 0
    /// means the value is zero.
    fn significant(&self) -> (usize, usize) {
        let total = self.total();
        let lead = (0..total).take_while(|&i| self.digit(i) == b'0').count();
        if lead == total {
            return (total, 0);
        }
        let trail = (0..total)
            .rev()
            .take_while(|&i| self.digit(i) == b'0')
            .count();
        (lead, total - lead - trail)
    }

    /// The value is `0.d1 d2 ... dn × 10^m` with `m = shift + exponent`; this is
    /// the shift (the integer digits from the first significant one).
    fn shift(&self, lead: usize) -> i128 {
        self.int.len() as i128 - lead as i128
    }

    /// The value's one canonical form (see [`Canonical`]): every spelling of a value
    /// (`1`, `1.0`, `10e-1`, `0.1e1`; `0`, `-0`, `0.0`, `0e5`) gives the same one.
    pub(crate) fn canonical(&self) -> Canonical<'a> {
        let (lead, n) = self.significant();
        if n == 0 {
            return Canonical {
                neg: false,
                runs: [&[], &[]],
                len: 0,
                scale: Scale::Small(0),
            };
        }
        // The digits lead..lead + n, split at the decimal point.
        let int_len = self.int.len();
        let end = lead + n;
        let runs = if end <= int_len {
            [&self.int[lead..end], &[][..]]
        } else if lead >= int_len {
            [&self.frac[lead - int_len..end - int_len], &[][..]]
        } else {
            [&self.int[lead..], &self.frac[..end - int_len]]
        };
        // The power of ten of the last significant digit: the written exponent plus
        // the digits between the decimal point and that digit (`shift - n`).
        let offset = self.shift(lead) - n as i128;
        let scale = match self.exp {
            Exponent::Small(e) => Scale::from_i128(i128::from(e) + offset),
            Exponent::Large { neg, digits } => Scale::sum(neg, digits, offset),
        };
        Canonical {
            neg: self.neg,
            runs,
            len: n,
            scale,
        }
    }

    /// Whether the two numbers are the same value, by their canonical forms (what
    /// `enum`, `const` and `uniqueItems` compare).
    pub(crate) fn same_value(&self, other: &Decimal<'_>) -> bool {
        self.canonical() == other.canonical()
    }

    /// True for a negative nonzero value.
    pub(crate) fn is_negative(&self) -> bool {
        self.neg && !self.is_zero()
    }

    /// True for every spelling of zero (`0`, `-0.0`, `0e5`).
    pub fn is_zero(&self) -> bool {
        self.significant().1 == 0
    }

    /// True when the value has no fractional part: `3`, `3.0`, `1e2`, `-0`.
    pub fn is_integer(&self) -> bool {
        let (lead, n) = self.significant();
        // m >= n: every significant digit is left of the point.
        n == 0
            || cmp_shifted(
                self.exp,
                self.shift(lead) - n as i128,
                Exponent::Small(0),
                0,
            ) != Ordering::Less
    }

    /// The value, when it is a non-negative integer that fits a u64 (`3`, `3.0`,
    /// `1e2`, `-0`, `0e99999999999999999999`).
    pub fn as_u64(&self) -> Option<u64> {
        let (lead, n) = self.significant();
        if n == 0 {
            return Some(0);
        }
        if self.neg || !self.is_integer() {
            return None;
        }
        // A long exponent of a nonzero integer is a positive one: far too large.
        let Exponent::Small(e) = self.exp else {
            return None;
        };
        // The n significant digits, then m - n zeros (m >= n: it is an integer).
        let m = self.shift(lead) + i128::from(e);
        if m > 20 {
            return None;
        }
        let mut v: u64 = 0;
        for i in 0..m as usize {
            let d = if i < n {
                self.digit(lead + i) - b'0'
            } else {
                0
            };
            v = v.checked_mul(10)?.checked_add(u64::from(d))?;
        }
        Some(v)
    }

    fn cmp_abs(&self, other: &Decimal<'_>) -> Ordering {
        let (la, na) = self.significant();
        let (lb, nb) = other.significant();
        match (na == 0, nb == 0) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let by_magnitude = cmp_shifted(self.exp, self.shift(la), other.exp, other.shift(lb));
        if by_magnitude != Ordering::Equal {
            return by_magnitude;
        }
        for i in 0..na.min(nb) {
            let c = self.digit(la + i).cmp(&other.digit(lb + i));
            if c != Ordering::Equal {
                return c;
            }
        }
        na.cmp(&nb)
    }

    /// Exact numeric comparison.
    pub fn cmp_value(&self, other: &Decimal<'_>) -> Ordering {
        let a_neg = self.neg && !self.is_zero();
        let b_neg = other.neg && !other.is_zero();
        match (a_neg, b_neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_abs(other),
            (true, true) => other.cmp_abs(self),
        }
    }
}

/// A number's one canonical decimal form: `± d1 d2 ... dn × 10^scale`, with `d1` and
/// `dn` nonzero (no leading or trailing zeros), and zero as no digits, not negative,
/// scale 0. Two numbers are equal by value exactly when their canonical forms are
/// equal, field by field: the comparison of `enum`, `const` and `uniqueItems`, and what
/// the `uniqueItems` hash reads (so equal values hash alike, and the hash, which writes
/// the digit count and the scale's digit count before the digits, can tell any two
/// distinct values apart).
#[derive(Clone, Debug)]
pub(crate) struct Canonical<'a> {
    pub neg: bool,
    /// The significant digits as written (ASCII), in up to two runs (before and after
    /// the decimal point).
    runs: [&'a [u8]; 2],
    /// Their count.
    len: usize,
    pub scale: Scale<'a>,
}

impl Canonical<'_> {
    /// The count of significant digits (0 for zero).
    pub(crate) fn digit_count(&self) -> usize {
        self.len
    }

    /// The significant digits (ASCII), most significant first, in one or two runs.
    pub(crate) fn digit_runs(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.runs.iter().copied().filter(|r| !r.is_empty())
    }

    /// The significant digits as values 0-9.
    pub(crate) fn digits(&self) -> impl Iterator<Item = u8> + '_ {
        self.digit_runs().flatten().map(|d| d - b'0')
    }
}

impl PartialEq for Canonical<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.neg == other.neg
            && self.len == other.len
            && self.scale == other.scale
            && self.digit_runs().flatten().eq(other.digit_runs().flatten())
    }
}

/// The power of ten of a canonical form's last digit: an integer of any size, as an
/// i64 whenever it fits one, else its sign and decimal digits, read without
/// allocating (so comparing numbers never allocates, whatever their exponents).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Scale<'a> {
    Small(i64),
    /// Past an i64, within an i128 (a short written exponent plus the digit count).
    Wide(i128),
    /// `±E + offset`, for a written exponent `E` of more than 37 digits (ASCII, no
    /// leading zero; `neg` its sign): far past an i64.
    Long {
        neg: bool,
        digits: &'a [u8],
        offset: i128,
    },
}

/// The last digits of a long exponent that are added to as an integer: the offset (a
/// digit count, below 10^19) changes them by at most one carry or borrow into the rest.
const LOW_DIGITS: usize = 20;
const LOW: i128 = 10i128.pow(LOW_DIGITS as u32);

impl<'a> Scale<'a> {
    fn from_i128(v: i128) -> Scale<'a> {
        match i64::try_from(v) {
            Ok(v) => Scale::Small(v),
            Err(_) => Scale::Wide(v),
        }
    }

    /// `±E + offset`, for a written exponent `E` of more than 18 digits.
    fn sum(neg: bool, digits: &'a [u8], offset: i128) -> Scale<'a> {
        if digits.len() <= 37 {
            // Below 10^37: exact in an i128, with the offset (below 10^19).
            let e = digits
                .iter()
                .fold(0i128, |v, &d| v * 10 + i128::from(d - b'0'));
            return Scale::from_i128(if neg { -e } else { e } + offset);
        }
        Scale::Long {
            neg,
            digits,
            offset,
        }
    }

    /// The sign and the decimal digits (ASCII, most significant first, no leading
    /// zero) of a scale past an i64; `None` for a small one.
    pub(crate) fn wide_digits(&self) -> Option<(bool, ScaleDigits<'a>)> {
        match *self {
            Scale::Small(_) => None,
            Scale::Wide(v) => {
                let mut buf = [0u8; 40];
                let mut start = buf.len();
                let mut m = v.unsigned_abs();
                while m > 0 {
                    start -= 1;
                    buf[start] = b'0' + (m % 10) as u8;
                    m /= 10;
                }
                Some((v < 0, ScaleDigits::Wide { buf, start }))
            }
            Scale::Long {
                neg,
                digits,
                offset,
            } => {
                // E = high × 10^20 + low; ±E + offset = ±(high × 10^20 + low'), with
                // low' = low ± offset, one carry or borrow at most.
                let (high, low) = digits.split_at(digits.len() - LOW_DIGITS);
                let low = low
                    .iter()
                    .fold(0i128, |v, &d| v * 10 + i128::from(d - b'0'));
                let low = if neg { low - offset } else { low + offset };
                let (carry, low) = if low >= LOW {
                    (1, low - LOW)
                } else if low < 0 {
                    (-1, low + LOW)
                } else {
                    (0, low)
                };
                Some((
                    neg,
                    ScaleDigits::Long {
                        high: HighDigits::new(high, carry),
                        low,
                        low_at: 0,
                    },
                ))
            }
        }
    }
}

impl PartialEq for Scale<'_> {
    /// By value, whatever the variant.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Scale::Small(a), Scale::Small(b)) => a == b,
            (Scale::Small(_), _) | (_, Scale::Small(_)) => false,
            _ => match (self.wide_digits(), other.wide_digits()) {
                (Some((na, a)), Some((nb, b))) => na == nb && a.eq(b),
                _ => false,
            },
        }
    }
}

/// The digits of a scale past an i64 (see [`Scale::wide_digits`]).
#[derive(Clone, Debug)]
pub(crate) enum ScaleDigits<'a> {
    Wide {
        buf: [u8; 40],
        start: usize,
    },
    /// The high digits of a long exponent (plus a carry or borrow), then the 20 low
    /// digits.
    Long {
        high: HighDigits<'a>,
        low: i128,
        low_at: u32,
    },
}

impl ScaleDigits<'_> {
    /// How many digits there are.
    pub(crate) fn digit_count(&self) -> usize {
        match self {
            ScaleDigits::Wide { buf, start } => buf.len() - start,
            ScaleDigits::Long { high, .. } => high.digit_count() + LOW_DIGITS,
        }
    }
}

impl Iterator for ScaleDigits<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        match self {
            ScaleDigits::Wide { buf, start } => {
                let d = *buf.get(*start)?;
                *start += 1;
                Some(d)
            }
            ScaleDigits::Long { high, low, low_at } => {
                if let Some(d) = high.next() {
                    return Some(d);
                }
                if *low_at as usize >= LOW_DIGITS {
                    return None;
                }
                let place = 10i128.pow(LOW_DIGITS as u32 - 1 - *low_at);
                *low_at += 1;
                Some(b'0' + ((*low / place) % 10) as u8)
            }
        }
    }
}

/// The digits of `high + carry` (`carry` -1, 0 or 1; `high` at least 10^17, ASCII
/// without leading zero), most significant first: a carry turns the trailing nines
/// into zeros and adds one to the digit before them (a leading one when all are
/// nines); a borrow turns the trailing zeros into nines and takes one from the digit
/// before them (dropped when that leaves a leading zero).
#[derive(Clone, Debug)]
pub(crate) struct HighDigits<'a> {
    digits: &'a [u8],
    carry: i8,
    /// The index of the digit the carry or borrow changes (the last one not a nine,
    /// or not a zero), `None` when there is none (all nines, with a carry).
    pivot: Option<usize>,
    /// The next digit to give, counting a leading one first when the carry adds a
    /// digit (index `usize::MAX` stands for it).
    at: usize,
}

impl<'a> HighDigits<'a> {
    fn new(digits: &'a [u8], carry: i8) -> HighDigits<'a> {
        let pivot = match carry {
            1 => digits.iter().rposition(|&d| d != b'9'),
            -1 => digits.iter().rposition(|&d| d != b'0'),
            _ => None,
        };
        let at = match (carry, pivot) {
            (1, None) => usize::MAX,
            // The leading digit 1 borrowed from, with nothing before it: dropped.
            (-1, Some(0)) if digits[0] == b'1' && digits.len() > 1 => 1,
            _ => 0,
        };
        HighDigits {
            digits,
            carry,
            pivot,
            at,
        }
    }

    fn digit_count(&self) -> usize {
        match self.at {
            usize::MAX => self.digits.len() + 1,
            at => self.digits.len() - at,
        }
    }
}

impl Iterator for HighDigits<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.at == usize::MAX {
            self.at = 0;
            return Some(b'1');
        }
        let i = self.at;
        let d = *self.digits.get(i)?;
        self.at += 1;
        Some(match (self.carry, self.pivot) {
            (0, _) => d,
            // All nines, carried: a leading one, then zeros.
            (1, None) => b'0',
            (1, Some(p)) if i == p => d + 1,
            (1, Some(p)) if i > p => b'0',
            (-1, Some(p)) if i == p => d - 1,
            (-1, Some(p)) if i > p => b'9',
            _ => d,
        })
    }
}

/// How `a + a_shift` compares with `b + b_shift`, exactly for exponents of any length.
/// The shifts are digit counts, so they are far from the limits of an i128.
fn cmp_shifted(a: Exponent<'_>, a_shift: i128, b: Exponent<'_>, b_shift: i128) -> Ordering {
    use Exponent::{Large, Small};
    match (a, b) {
        (Small(a), Small(b)) => (i128::from(a) + a_shift).cmp(&(i128::from(b) + b_shift)),
        (Small(a), Large { neg, digits }) => sign_of_sum(
            i128::from(a) + a_shift - b_shift,
            (!neg, digits),
            (true, &[]),
        ),
        (Large { neg, digits }, Small(b)) => sign_of_sum(
            a_shift - i128::from(b) - b_shift,
            (neg, digits),
            (true, &[]),
        ),
        (
            Large {
                neg: a_neg,
                digits: a_digits,
            },
            Large {
                neg: b_neg,
                digits: b_digits,
            },
        ) => sign_of_sum(a_shift - b_shift, (a_neg, a_digits), (!b_neg, b_digits)),
    }
}

/// The sign of `start ± A ± B`, where A and B are decimal digit strings of any
/// length, each with its sign (`true`: subtracted). One pass from the last digit,
/// with a carry: after k digits the sum is `R + carry·10^k` with `0 <= R < 10^k` (R
/// made of the digits written so far), so at the end the carry's sign is the sum's,
/// or R decides when the carry is zero.
fn sign_of_sum(start: i128, a: (bool, &[u8]), b: (bool, &[u8])) -> Ordering {
    let term = |(minus, digits): (bool, &[u8]), k: usize| -> i128 {
        let d = digits
            .len()
            .checked_sub(k + 1)
            .map_or(0, |i| i128::from(digits[i] - b'0'));
        if minus {
            -d
        } else {
            d
        }
    };
    let mut carry = start;
    let mut written_nonzero = false;
    for k in 0..a.1.len().max(b.1.len()) {
        let t = carry + term(a, k) + term(b, k);
        written_nonzero |= t.rem_euclid(10) != 0;
        carry = t.div_euclid(10);
    }
    match carry.cmp(&0) {
        Ordering::Equal if written_nonzero => Ordering::Greater,
        order => order,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal<'_> {
        Decimal::parse(s.as_bytes()).unwrap()
    }

    #[test]
    fn integers_by_value() {
        for s in [
            "3", "3.0", "1e2", "1.5e1", "100e-2", "-0", "0.0", "1E+2", "1e308",
        ] {
            assert!(d(s).is_integer(), "{s}");
        }
        for s in ["3.5", "1e-2", "0.1", "-1.25", "15e-1"] {
            assert!(!d(s).is_integer(), "{s}");
        }
    }

    #[test]
    fn exact_comparison() {
        use Ordering::*;
        let cases = [
            ("1", "1.0", Equal),
            ("1", "1e0", Equal),
            ("100", "1e2", Equal),
            ("0.05", "5e-2", Equal),
            ("-0", "0", Equal),
            ("18446744073709551616", "18446744073709551615", Greater),
            ("-18446744073709551616", "-18446744073709551615", Less),
            ("0.1", "0.10000000000000001", Less),
            ("2", "10", Less),
            ("-2", "1", Less),
            ("1e400", "1e399", Greater),
            (
                "12345678910111213141516171819202122232425262728293031",
                "1e52",
                Greater,
            ),
        ];
        for (a, b, want) in cases {
            assert_eq!(d(a).cmp_value(&d(b)), want, "{a} vs {b}");
            assert_eq!(d(b).cmp_value(&d(a)), want.reverse(), "{b} vs {a}");
        }
    }

    #[test]
    fn exponents_compare_exactly_past_two_to_the_52() {
        use Ordering::*;
        let cases = [
            ("1e4503599627370497", "1e4503599627370498", Less),
            ("1e4503599627370496", "1e4503599627370497", Less),
            ("0.1e4503599627370497", "1e4503599627370496", Equal),
            ("10e4503599627370496", "1e4503599627370497", Equal),
            ("1e-4503599627370497", "1e-4503599627370498", Greater),
            ("1e-4503599627370496", "10e-4503599627370497", Equal),
            ("-1e4503599627370497", "-1e4503599627370498", Greater),
            ("2e4503599627370496", "1e4503599627370496", Greater),
            ("1e9223372036854775807", "1e9223372036854775808", Less),
            ("1e-9223372036854775808", "1e-9223372036854775809", Greater),
            ("1e999999999999999999", "1e1000000000000000000", Less),
            ("1e1000000000000000000", "10e999999999999999999", Equal),
            ("1e1000000000000000000", "1e1000000000000000001", Less),
            // 40-digit exponents, where the digit counts of the mantissas still matter.
            (
                "1e1000000000000000000000000000000000000000",
                "10e999999999999999999999999999999999999999",
                Equal,
            ),
            (
                "1e1000000000000000000000000000000000000000",
                "100e999999999999999999999999999999999999999",
                Less,
            ),
            (
                "0.001e1000000000000000000000000000000000000002",
                "10e999999999999999999999999999999999999998",
                Equal,
            ),
            (
                "1e-1000000000000000000000000000000000000000",
                "0.1e-999999999999999999999999999999999999999",
                Equal,
            ),
            (
                "1e-1000000000000000000000000000000000000000",
                "1e1000000000000000000000000000000000000000",
                Less,
            ),
            (
                "1e-99999999999999999999999999999999999999999",
                "1e-1000000000000000000000000000000000000000",
                Less,
            ),
            // Leading zeros in the exponent are not digits of its value.
            ("1e0004503599627370497", "1e4503599627370497", Equal),
            ("1e-0000000000000000000000000000001", "0.1", Equal),
            ("5e00000000000000000000000000000000000", "5", Equal),
            // Zero is zero whatever its exponent.
            (
                "0e99999999999999999999999",
                "0e-99999999999999999999999",
                Equal,
            ),
            (
                "0e99999999999999999999999",
                "1e-99999999999999999999999",
                Less,
            ),
            (
                "-1e99999999999999999999999",
                "0e-99999999999999999999999",
                Less,
            ),
        ];
        for (a, b, want) in cases {
            assert_eq!(d(a).cmp_value(&d(b)), want, "{a} vs {b}");
            assert_eq!(d(b).cmp_value(&d(a)), want.reverse(), "{b} vs {a}");
        }
    }

    #[test]
    fn integers_with_huge_exponents() {
        for s in [
            "1e4503599627370497",
            "1.5e4503599627370497",
            "0e-99999999999999999999",
            "1e99999999999999999999",
            "123.456e3",
            "1234000e-3",
        ] {
            assert!(d(s).is_integer(), "{s}");
        }
        for s in [
            "1e-4503599627370497",
            "1e-99999999999999999999",
            "123.456e2",
            "12345678901234567890123e-23",
        ] {
            assert!(!d(s).is_integer(), "{s}");
        }
    }

    /// Every spelling of a value has one canonical form, and two numbers have the same
    /// one exactly when the exact comparison finds them equal.
    #[test]
    fn canonical_forms_are_one_per_value() {
        let spellings = [
            "0",
            "-0",
            "0.0",
            "-0.000",
            "0e5",
            "0e-5",
            "0E+99999999999999999999",
            "00e0",
            "1",
            "1.0",
            "10e-1",
            "0.1e1",
            "100e-2",
            "1E0",
            "-1",
            "-1.00",
            "12.5",
            "125e-1",
            "0.125e2",
            "1250e-2",
            "2",
            "20e-1",
            "1e1000000000000000000",
            "10e999999999999999999",
            "0.1e1000000000000000001",
            "1e-1000000000000000000",
            "0.1e-999999999999999999",
            "1000e-1000000000000000002",
            "1e-999999999999999999",
            "1e9223372036854775807",
            "10e9223372036854775806",
            "1e9223372036854775808",
            "0.1e9223372036854775809",
            "1e-9223372036854775808",
            "1e-9223372036854775809",
            "10e-9223372036854775810",
            "1e99999999999999999999999",
            "0.001e100000000000000000002",
        ];
        for a in spellings {
            for b in spellings {
                let same = d(a).cmp_value(&d(b)).is_eq();
                assert_eq!(d(a).same_value(&d(b)), same, "{a} vs {b}");
            }
        }
        let zero = d("0").canonical();
        for z in ["-0", "0.0", "0e5", "0e138", "-0e-99999999999999999999"] {
            let c = d(z).canonical();
            assert!(c == zero && !c.neg && c.digit_count() == 0, "{z}");
            assert_eq!(c.scale, Scale::Small(0), "{z}");
        }
        // A long written exponent whose sum with the digits fits an i64 is small, as
        // the same value spelled with a short exponent is.
        assert_eq!(
            d("1000e-1000000000000000002").canonical().scale,
            Scale::Small(-999_999_999_999_999_999)
        );
        let wide = |s: &str| {
            let scale = d(s).canonical().scale;
            let (neg, digits) = scale.wide_digits().expect("past an i64");
            let count = digits.digit_count();
            let text = String::from_utf8(digits.collect()).unwrap();
            assert_eq!(count, text.len(), "{s}");
            (neg, text)
        };
        assert_eq!(
            wide("1e9223372036854775808"),
            (false, "9223372036854775808".to_owned())
        );
        // Exponents past 37 digits, with a carry or borrow through their high digits.
        let nines = "9".repeat(40);
        assert_eq!(
            wide(&format!("10e{nines}")),
            (false, format!("1{}", "0".repeat(40)))
        );
        assert_eq!(wide(&format!("1e-{nines}")), (true, nines.clone()));
        assert_eq!(
            wide(&format!("0.1e1{}", "0".repeat(40))),
            (false, nines.clone())
        );
        assert_eq!(
            wide(&format!("123.4e{}", "5".repeat(45))),
            (false, format!("{}54", "5".repeat(43)))
        );
        assert_eq!(
            wide(&format!("0.001e-{}", "7".repeat(41))),
            (true, format!("{}80", "7".repeat(39)))
        );
        assert_eq!(
            d("-12.50e3").canonical().digits().collect::<Vec<_>>(),
            vec![1, 2, 5]
        );
    }

    #[test]
    fn u64_values() {
        for (s, want) in [
            ("0", Some(0)),
            ("-0", Some(0)),
            ("0.0e-9223372036854775808", Some(0)),
            ("0e99999999999999999999999", Some(0)),
            ("3", Some(3)),
            ("3.0", Some(3)),
            ("1e2", Some(100)),
            ("1.5e1", Some(15)),
            ("0.00000000000000000000000000007e29", Some(7)),
            ("18446744073709551615", Some(u64::MAX)),
            ("1.8446744073709551615e19", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("1e20", None),
            ("1e99999999999999999999999", None),
            ("-1", None),
            ("1.5", None),
            ("1e-99999999999999999999999", None),
        ] {
            assert_eq!(d(s).as_u64(), want, "{s}");
        }
    }

    #[test]
    fn sign_of_sum_matches_i128_arithmetic() {
        // Every sum small enough to check directly, from digits of both signs.
        let numbers = [
            "", "0", "1", "9", "10", "99", "100", "12345", "99999", "100000",
        ];
        for start in [-200_001i128, -100_000, -11, -1, 0, 1, 10, 99_999, 200_001] {
            for a in numbers {
                for b in numbers {
                    for (a_minus, b_minus) in
                        [(false, false), (false, true), (true, false), (true, true)]
                    {
                        let value = |s: &str, minus: bool| {
                            let v: i128 = s.parse().unwrap_or(0);
                            if minus {
                                -v
                            } else {
                                v
                            }
                        };
                        let want = (start + value(a, a_minus) + value(b, b_minus)).cmp(&0);
                        let got =
                            sign_of_sum(start, (a_minus, a.as_bytes()), (b_minus, b.as_bytes()));
                        assert_eq!(got, want, "{start} {a_minus} {a} {b_minus} {b}");
                    }
                }
            }
        }
    }
}
