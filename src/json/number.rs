use std::cmp::Ordering;

/// A JSON number as written, read exactly: `-? int . frac e exp`. Comparing two of
/// them is exact for any number of digits (no rounding through `f64`), so
/// `18446744073709551616 > 18446744073709551615` and `1.0 == 1` both hold, and
/// `1e2` is an integer.
#[derive(Clone, Copy, Debug)]
pub struct Decimal<'a> {
    neg: bool,
    int: &'a [u8],
    frac: &'a [u8],
    /// The written exponent, saturated far beyond anything comparable in practice.
    exp: i64,
}

/// Exponents beyond this magnitude are clamped: the numbers they denote cannot be
/// told apart by any schema bound written in less than a petabyte.
const EXP_LIMIT: i64 = 1 << 52;

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
        let mut exp: i64 = 0;
        if let Some((b'e' | b'E', r)) = rest.split_first() {
            let (eneg, r) = match r.split_first() {
                Some((b'-', r)) => (true, r),
                Some((b'+', r)) => (false, r),
                _ => (false, r),
            };
            if r.is_empty() || !r.iter().all(u8::is_ascii_digit) {
                return None;
            }
            for &d in r {
                exp = (exp * 10 + i64::from(d - b'0')).min(EXP_LIMIT);
            }
            if eneg {
                exp = -exp;
            }
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

    /// The value is `0.d1 d2 ... dn × 10^magnitude`.
    fn magnitude(&self, lead: usize) -> i64 {
        self.int.len() as i64 - lead as i64 + self.exp
    }

    /// The significant digits (no leading or trailing zeros; none for zero), as
    /// values 0-9, and the power of ten of the last one, when it fits an i64: the value
    /// is `± digits × 10^exponent`. `None` for the exponent when it does not fit (its
    /// sign then says which way: `Err(true)` far above, `Err(false)` far below).
    pub(crate) fn scaled_digits(&self) -> (impl Iterator<Item = u8> + '_, Result<i64, bool>) {
        let (lead, n) = self.significant();
        let exponent = self.magnitude(lead).checked_sub(n as i64).ok_or(false);
        ((lead..lead + n).map(|i| self.digit(i) - b'0'), exponent)
    }

    /// True for a negative nonzero value.
    pub(crate) fn is_negative(&self) -> bool {
        self.neg && !self.is_zero()
    }

    pub fn is_zero(&self) -> bool {
        self.significant().1 == 0
    }

    /// True when the value has no fractional part: `3`, `3.0`, `1e2`, `-0`.
    pub fn is_integer(&self) -> bool {
        let (lead, n) = self.significant();
        n == 0 || self.magnitude(lead) >= n as i64
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
        let by_magnitude = self.magnitude(la).cmp(&other.magnitude(lb));
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
}
