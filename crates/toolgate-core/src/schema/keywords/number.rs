//! `minimum` and `maximum` (inclusive), and in the full profile `exclusiveMinimum`,
//! `exclusiveMaximum` and `multipleOf`: compared exactly from the number's text
//! (integers of any size, no rounding through floating point; `0.3` is a multiple of
//! `0.1`, `1e308` of `0.5`). Formats that apply to numbers (OpenAPI's `int32`, ...) are
//! checked here too.

use std::cmp::Ordering;

use crate::json::{Decimal, Doc, Number, Reader, Scale};

use super::super::compile::Compiler;
use super::super::message::{push_number, quoted_len};
use super::super::program::Loc;
use super::super::sink::{At, Member, Sink, W};
use super::format::{report_format, FormatRule};
use crate::arena::{with_place, Arena, Building, Frozen, Plan, Reserved, Store, TableStr};

/// A numeric bound as written in the schema, compared exactly; `small` is its value
/// when it is an integer that fits an i64, so plain integer arguments compare without
/// reading digits.
///
/// Built with a text of its own ([`Building`]); a compiled program keeps the text in
/// its block ([`Frozen`]).
// `repr(C)`: the value a comparison reads first, the text (for messages) after it.
#[repr(C)]
pub(crate) struct Bound<S: Store = Frozen> {
    pub small: Option<i64>,
    pub text: S::Text,
}

impl Bound<Building> {
    pub(crate) fn new(text: String) -> Bound<Building> {
        let small = Reader::new(text.as_bytes(), 1)
            .read_number()
            .ok()
            .and_then(|n| n.small());
        Bound { text, small }
    }
}

impl<S: Store> Bound<S> {
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

/// `multipleOf`: a positive number, kept as its significant digits `b` and the power
/// of ten of the last one (`0.25` is 25 × 10^-2), so divisibility is decided exactly.
pub(crate) struct MultipleOf {
    pub text: String,
    /// The power of ten of the last digit.
    exponent: i64,
    divisor: Divisor,
    /// Zeros after a number's digits past which more change nothing (see
    /// [`MultipleOf::divides`]): at least the count of twos or fives in `b`.
    enough_zeros: u64,
}

/// The significant digits of a `multipleOf` as an integer.
enum Divisor {
    /// Below [`SMALL_DIVISOR`] (the common case): the remainder is a u128.
    Small(u128),
    /// Longer: base-10^9 limbs, see [`BigDivisor`].
    Big(BigDivisor),
}

/// Below this, `r * 10 + 9` never overflows a u128.
const SMALL_DIVISOR: u128 = 1 << 120;

/// The base of [`BigDivisor`]'s limbs: nine decimal digits each, so the limbs are read
/// straight from the digits and a number's digits are taken nine at a time.
const LIMB: u64 = 1_000_000_000;

impl MultipleOf {
    fn new(c: &mut Compiler<'_>, v: &Doc<'_>) -> Option<MultipleOf> {
        let bad = |c: &mut Compiler<'_>| {
            c.problem(
                "multipleOf",
                "\"multipleOf\" must be a number greater than 0",
            );
            None
        };
        let (Doc::Number(text), Some(d)) = (v, v.as_decimal()) else {
            return bad(c);
        };
        if d.is_zero() || d.is_negative() {
            return bad(c);
        }
        let canonical = d.canonical();
        let Scale::Small(exponent) = canonical.scale else {
            c.problem(
                "multipleOf",
                "\"multipleOf\" has an exponent too large to be checked exactly",
            );
            return None;
        };
        let digits: Vec<u8> = canonical.digits().collect();
        let small = digits.iter().try_fold(0u128, |acc, &d| {
            let next = acc * 10 + u128::from(d);
            (next < SMALL_DIVISOR).then_some(next)
        });
        let (divisor, enough_zeros) = match small {
            Some(b) => (Divisor::Small(b), u64::from(twos_or_fives_small(b))),
            None => {
                let big = BigDivisor::new(&digits);
                let enough = big.twos_or_fives(&digits);
                (Divisor::Big(big), enough)
            }
        };
        Some(MultipleOf {
            text: (*text).to_owned(),
            exponent,
            divisor,
            enough_zeros,
        })
    }

    /// Whether `n` is an integer multiple of the divisor.
    ///
    /// Linear in `n`'s digits: a divisor below 2^120 costs one u128 step per digit; a
    /// longer one of `k` base-10^9 limbs costs one step of O(k) limb operations per
    /// nine digits (a schoolbook division step whose quotient is one limb), so
    /// `⌈digits / 9⌉ × (k + 2)` limb operations at most, plus the same per nine of the
    /// zeros the exponent appends (at most [`MultipleOf::enough_zeros`], which depends
    /// on the divisor alone). Before, each digit cost a pass over the whole divisor.
    pub(crate) fn divides(&self, n: &Decimal<'_>) -> bool {
        if n.is_zero() {
            return true;
        }
        let n = n.canonical();
        // n = a × 10^ea and the divisor b × 10^eb, both digit strings without trailing
        // zeros. If ea < eb, n / divisor = (a / b) × 10^(ea - eb) needs a divisible by
        // 10, which a (no trailing zero) is not.
        let shift = match n.scale {
            Scale::Small(ea) if ea < self.exponent => return false,
            Scale::Small(ea) => ea.abs_diff(self.exponent),
            // Past an i64 below: far below the divisor's last digit.
            Scale::Wide(e) if e < 0 => return false,
            Scale::Long { neg: true, .. } => return false,
            // Far above: shifted more than any divisor needs (see below).
            Scale::Wide(_) | Scale::Long { .. } => u64::MAX,
        };
        // a × 10^shift ≡ 0 (mod b). b = 2^x × 5^y × c with c prime to 10, and x or y
        // is 0 (b's last digit is not 0); once the shift reaches x + y, more zeros
        // change nothing: 10 is invertible modulo c.
        let shift = shift.min(self.enough_zeros);
        match &self.divisor {
            Divisor::Small(b) => {
                let b = *b;
                let mut r: u128 = 0;
                for d in n.digits() {
                    r = (r * 10 + u128::from(d)) % b;
                }
                for _ in 0..shift {
                    r = (r * 10) % b;
                }
                r == 0
            }
            Divisor::Big(b) => {
                let mut r = b.zero();
                let (mut chunk, mut len) = (0u64, 0u32);
                for d in n.digits() {
                    chunk = chunk * 10 + u64::from(d);
                    len += 1;
                    if len == 9 {
                        b.push(&mut r, LIMB, chunk);
                        (chunk, len) = (0, 0);
                    }
                }
                if len > 0 {
                    b.push(&mut r, 10u64.pow(len), chunk);
                }
                for _ in 0..shift / 9 {
                    b.push(&mut r, LIMB, 0);
                }
                if shift % 9 > 0 {
                    b.push(&mut r, 10u64.pow((shift % 9) as u32), 0);
                }
                r.iter().all(|&l| l == 0)
            }
        }
    }
}

/// The count of twos or of fives in `b` (a number whose last digit is not 0: it has
/// one kind or neither).
fn twos_or_fives_small(mut b: u128) -> u32 {
    let twos = b.trailing_zeros();
    if twos > 0 {
        return twos;
    }
    let mut fives = 0;
    while b.is_multiple_of(5) {
        b /= 5;
        fives += 1;
    }
    fives
}

#[cfg(test)]
thread_local! {
    /// Limb operations of [`BigDivisor::push`], in tests.
    pub(crate) static LIMB_OPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A divisor of more than 36 digits, as base-10^9 limbs (least significant first),
/// multiplied by `scale` so that its top limb is at least half the base (the
/// normalization of Knuth's Algorithm D, TAOCP 4.3.1, that makes the estimated
/// quotient limb off by at most 2). The remainder is kept multiplied by `scale` too:
/// `r ≡ 0 (mod b)` exactly when `scale × r ≡ 0 (mod scale × b)`.
struct BigDivisor {
    limbs: Box<[u64]>,
    scale: u64,
}

impl BigDivisor {
    /// From the significant digits (values 0-9, most significant first; at least 37).
    fn new(digits: &[u8]) -> BigDivisor {
        let mut limbs: Vec<u64> = digits
            .rchunks(9)
            .map(|c| c.iter().fold(0u64, |v, &d| v * 10 + u64::from(d)))
            .collect();
        let top = *limbs.last().unwrap_or(&1);
        let scale = LIMB / (top + 1);
        let mut carry = 0;
        for l in &mut limbs {
            let t = *l * scale + carry;
            *l = t % LIMB;
            carry = t / LIMB;
        }
        debug_assert_eq!(carry, 0);
        BigDivisor {
            limbs: limbs.into_boxed_slice(),
            scale,
        }
    }

    /// Zeros enough for [`MultipleOf::divides`]: the twos or fives in the divisor,
    /// counted exactly up to a budget of divisions (a divisor with more of them is a
    /// huge power of two or five; then the bound every divisor of `m` digits meets,
    /// `4m + 4`, stands in).
    fn twos_or_fives(&self, digits: &[u8]) -> u64 {
        let bound = 4 * digits.len() as u64 + 4;
        let (prime, step, power): (u64, u64, u64) = match digits.last() {
            Some(d) if d % 2 == 0 => (2, 29, 1 << 29),
            Some(5) => (5, 12, 244_140_625),
            _ => return 0,
        };
        let mut n: Vec<u64> = digits
            .rchunks(9)
            .map(|c| c.iter().fold(0u64, |v, &d| v * 10 + u64::from(d)))
            .collect();
        let mut count = 0;
        // Divides `n` by `by` when it divides evenly.
        let divide = |n: &mut Vec<u64>, by: u64| -> bool {
            let mut q = n.clone();
            let mut rem = 0;
            for l in q.iter_mut().rev() {
                let t = rem * LIMB + *l;
                *l = t / by;
                rem = t % by;
            }
            if rem == 0 {
                *n = q;
            }
            rem == 0
        };
        for _ in 0..64 {
            if !divide(&mut n, power) {
                while divide(&mut n, prime) {
                    count += 1;
                }
                return count;
            }
            count += step;
        }
        bound
    }

    fn zero(&self) -> Vec<u64> {
        vec![0; self.limbs.len()]
    }

    /// `r = (r × mul + add) mod b`, with `add < mul <= 10^9` and `r` kept multiplied by
    /// the scale: one limb of quotient, estimated from the top two limbs and corrected.
    fn push(&self, r: &mut [u64], mul: u64, add: u64) {
        let v = &self.limbs;
        let k = v.len();
        #[cfg(test)]
        LIMB_OPS.with(|c| c.set(c.get() + k as u64));
        // u = r × mul + add × scale (r in place, `top` its limb above): below
        // b × scale × mul, so its quotient by v is below mul, one limb.
        let mut carry = add * self.scale;
        for l in r.iter_mut() {
            let t = *l * mul + carry;
            *l = t % LIMB;
            carry = t / LIMB;
        }
        let top = carry;
        // The quotient limb from the top two limbs of u and of v (D3): at most one
        // too large after the test with v's second limb.
        let (vt, vn) = (v[k - 1], v[k - 2]);
        let num = top * LIMB + r[k - 1];
        let mut q = (num / vt).min(LIMB - 1);
        let mut rem = num - q * vt;
        while rem < LIMB && q * vn > rem * LIMB + r[k - 2] {
            q -= 1;
            rem += vt;
        }
        if q == 0 {
            return;
        }
        // u -= q × v, limb by limb.
        let mut borrow = 0u64;
        for (l, &d) in r.iter_mut().zip(v.iter()) {
            let p = q * d + borrow;
            let (lo, hi) = (p % LIMB, p / LIMB);
            if *l >= lo {
                *l -= lo;
                borrow = hi;
            } else {
                *l = *l + LIMB - lo;
                borrow = hi + 1;
            }
        }
        if borrow > top {
            // q was one too large (rare): add v back once.
            let mut carry = 0;
            for (l, &d) in r.iter_mut().zip(v.iter()) {
                let t = *l + d + carry;
                *l = t % LIMB;
                carry = t / LIMB;
            }
        }
    }
}

/// The number keywords of one schema.
///
/// `repr(C)`, in the order a check reads them: the core profile's bounds and the flag
/// that sends the rest out of line come first, so a schema not used for a while costs a
/// number one cache line, not the five the whole group spans.
///
/// Built with texts of its own ([`Building`]); a compiled program keeps the bounds'
/// texts in its block ([`Frozen`]).
#[repr(C)]
pub(crate) struct NumberGroup<S: Store = Frozen> {
    /// Any of the full profile's number keywords is present (one test on the path
    /// of the core profile's).
    pub full: bool,
    pub minimum: Option<Bound<S>>,
    pub maximum: Option<Bound<S>>,
    pub exclusive_minimum: Option<Bound<S>>,
    pub exclusive_maximum: Option<Bound<S>>,
    pub multiple_of: Option<MultipleOf>,
    /// A format that applies to numbers (OpenAPI's `int32`, `int64`, `float`, `double`).
    pub format: Option<FormatRule>,
    /// Where the schema object is (for the violations' schema location).
    pub at: Loc,
}

impl Default for NumberGroup<Building> {
    fn default() -> Self {
        NumberGroup {
            full: false,
            minimum: None,
            maximum: None,
            exclusive_minimum: None,
            exclusive_maximum: None,
            multiple_of: None,
            format: None,
            at: Loc::default(),
        }
    }
}

impl NumberGroup<Building> {
    /// Reserves room for the bounds' texts in `plan` (see [`NumberGroup::freeze`]).
    pub(crate) fn reserve(&self, plan: &mut Plan) -> NumberPlaces {
        let mut text = |b: &Option<Bound<Building>>| b.as_ref().map(|b| plan.reserve(b.text.len()));
        NumberPlaces([
            text(&self.minimum),
            text(&self.maximum),
            text(&self.exclusive_minimum),
            text(&self.exclusive_maximum),
        ])
    }

    /// The group with its bounds' texts moved into `arena`, where `at` reserved.
    ///
    /// # Safety
    ///
    /// As [`Arena::fill`]: the group returned is not read once the arena is dropped.
    pub(crate) unsafe fn freeze(self, arena: &mut Arena, at: NumberPlaces) -> NumberGroup {
        let [min, max, xmin, xmax] = at.0;
        // SAFETY: as the caller promised; the texts are filled in the order reserved.
        let mut bound = |b: Option<Bound<Building>>, at: Option<Reserved<u8>>| unsafe {
            let (b, at) = with_place(b, at)?;
            Some(Bound {
                small: b.small,
                text: TableStr::fill(arena, at, b.text),
            })
        };
        NumberGroup {
            full: self.full,
            minimum: bound(self.minimum, min),
            maximum: bound(self.maximum, max),
            exclusive_minimum: bound(self.exclusive_minimum, xmin),
            exclusive_maximum: bound(self.exclusive_maximum, xmax),
            multiple_of: self.multiple_of,
            format: self.format,
            at: self.at,
        }
    }
}

/// Where a number group's bounds' texts go in an arena.
pub(crate) struct NumberPlaces([Option<Reserved<u8>>; 4]);

impl<S: Store> NumberGroup<S> {
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
pub(crate) fn compile_bound(
    c: &mut Compiler<'_>,
    keyword: &str,
    v: &Doc<'_>,
) -> Option<Bound<Building>> {
    let Doc::Number(text) = v else {
        c.problem(keyword, format!("\"{keyword}\" must be a number"));
        return None;
    };
    Some(Bound::new((*text).to_owned()))
}

/// Compiles `multipleOf` into `group`.
pub(crate) fn compile_multiple_of(
    c: &mut Compiler<'_>,
    group: &mut NumberGroup<Building>,
    v: &Doc<'_>,
) {
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
            report(sink, g.at, "minimum", n, LESS, &min.text)?;
        }
    }
    if let Some(max) = &g.maximum {
        if max.compare(n).is_gt() {
            report(sink, g.at, "maximum", n, GREATER, &max.text)?;
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
            report(sink, g.at, "exclusiveMinimum", n, NOT_GREATER, &min.text)?;
        }
    }
    if let Some(max) = &g.exclusive_maximum {
        if max.compare(n).is_ge() {
            report(sink, g.at, "exclusiveMaximum", n, NOT_LESS, &max.text)?;
        }
    }
    if let Some(m) = &g.multiple_of {
        let divides = Decimal::parse(n.text).is_some_and(|d| m.divides(&d));
        if !divides {
            report(sink, g.at, "multipleOf", n, NOT_MULTIPLE, &m.text)?;
        }
    }
    if let Some(f) = &g.format {
        if !f.format.is_valid_number(n.text) {
            report_format(sink, g.at, n.text, f)?;
        }
    }
    Ok(())
}

/// `N<relation>BOUND`: the number as written, then what it breaks.
fn report<'a, S: Sink<'a>>(
    sink: &mut S,
    at: Loc,
    keyword: &'static str,
    n: Number<'_>,
    relation: &str,
    bound: &str,
) -> W {
    let capacity = quoted_len(n.text.len()) + relation.len() + bound.len();
    sink.report(keyword, At::Object(at), Member::None, capacity, |m| {
        push_number(m, n.text);
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
        let arena = bumpalo::Bump::new();
        let (v, _) = Doc::parse_compact(of.as_bytes(), 4, &arena).unwrap();
        let mut c = Compiler::new(&opts, None, opts.default_draft(), 0, &arena);
        let m = MultipleOf::new(&mut c, &v).expect("a valid divisor");
        m.divides(&Decimal::parse(n.as_bytes()).unwrap())
    }

    /// `digits × 10^shift ≡ 0 (mod b)` one digit at a time, the remainder kept as
    /// decimal digits: slow (a pass over `b` per digit), plainly right.
    fn reference_divides(digits: &str, shift: usize, b: &str) -> bool {
        let b: Vec<u8> = b.bytes().map(|c| c - b'0').collect();
        let mut r: Vec<u8> = vec![0];
        let below = |r: &[u8]| {
            let r = &r[r.iter().take_while(|&&d| d == 0).count()..];
            r.len() < b.len() || (r.len() == b.len() && r < &b[..])
        };
        for d in digits
            .bytes()
            .map(|c| c - b'0')
            .chain(std::iter::repeat_n(0, shift))
        {
            r.push(d);
            while !below(&r) {
                let offset = r.len() - b.len();
                let mut borrow = 0i16;
                for i in (0..r.len()).rev() {
                    let sub = if i >= offset {
                        i16::from(b[i - offset])
                    } else {
                        0
                    };
                    let mut v = i16::from(r[i]) - sub - borrow;
                    borrow = i16::from(v < 0);
                    if v < 0 {
                        v += 10;
                    }
                    r[i] = v as u8;
                }
            }
        }
        r.iter().all(|&d| d == 0)
    }

    /// Divisors past a u128 (base-10^9 limbs) agree with the digit-at-a-time
    /// reference, on multiples, near misses and random numbers, with and without
    /// zeros appended by the exponent.
    #[test]
    fn long_divisors_agree_with_the_reference() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let digits = |next: &mut dyn FnMut(u64) -> u64, len: usize| -> String {
            let mut s: String = (0..len)
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            s.replace_range(0..1, &(1 + next(9)).to_string());
            s
        };
        // Powers of two and five and their products with other digits: the zeros a
        // number needs are counted.
        let pow = |base: u32, e: usize| {
            let mut v: Vec<u32> = vec![1];
            for _ in 0..e {
                let mut carry = 0;
                for d in v.iter_mut() {
                    let t = *d * base + carry;
                    *d = t % 10;
                    carry = t / 10;
                }
                while carry > 0 {
                    v.push(carry % 10);
                    carry /= 10;
                }
            }
            v.iter()
                .rev()
                .map(|d| char::from(b'0' + *d as u8))
                .collect::<String>()
        };
        let mut divisors = vec![pow(2, 130), pow(5, 60), pow(2, 2000), pow(5, 900)];
        for _ in 0..60 {
            let len = 37 + next(60) as usize;
            let mut b = digits(&mut next, len);
            if b.ends_with('0') {
                b.replace_range(len - 1.., "7");
            }
            divisors.push(b);
        }
        for b in &divisors {
            for _ in 0..12 {
                let len = 1 + next(200) as usize;
                let n = digits(&mut next, len);
                let shift = next(4) as usize * next(40) as usize;
                let text = format!("{n}e{shift}");
                assert_eq!(
                    multiple(&text, b),
                    reference_divides(&n, shift, b),
                    "{text} of {b}"
                );
            }
        }
        // Exact multiples, and one off.
        for b in divisors.iter().take(20) {
            let len = 1 + next(30) as usize;
            // b × 10^len: a multiple; the same plus one: not.
            let product = format!("{b}{}", "0".repeat(len));
            assert!(multiple(&product, b), "{product} of {b}");
            let plus_one = format!("{}1", &product[..product.len() - 1]);
            assert_eq!(
                multiple(&plus_one, b),
                reference_divides(&plus_one, 0, b),
                "{plus_one} of {b}"
            );
        }
        assert!(multiple("1e2000", &pow(2, 2000)));
        assert!(!multiple("1e1999", &pow(2, 2000)));
        assert!(multiple("5e900", &pow(5, 901)));
        assert!(!multiple("5e899", &pow(5, 901)));
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
