//! Equality of an instance value with a schema value, by value, as JSON Schema
//! compares them: numbers numerically (`1` equals `1.0`), strings by their decoded
//! characters, arrays element by element, objects by their members whatever the order.

use crate::json::{Decimal, KeySet, Kind, Reader, Value};

/// Reads one (well-formed) value and compares it with `v`.
pub(crate) fn equals(r: &mut Reader<'_>, v: &Value, depth: usize) -> bool {
    let Ok(kind) = r.peek_kind() else {
        return false;
    };
    match (kind, v) {
        (Kind::Null, Value::Null)
        | (Kind::True, Value::Bool(true))
        | (Kind::False, Value::Bool(false)) => r.read_literal(kind).is_ok(),
        (Kind::Number, Value::Number(t)) => match (
            r.read_number().ok().and_then(|n| Decimal::parse(n.text)),
            Decimal::parse(t.as_bytes()),
        ) {
            (Some(a), Some(b)) => a.cmp_value(&b).is_eq(),
            _ => false,
        },
        (Kind::String, Value::String(t)) => r.read_string().is_ok_and(|s| s.eq_str(t)),
        (Kind::Array, Value::Array(items)) => {
            let Ok(mut more) = r.begin_array(depth) else {
                return false;
            };
            let mut i = 0;
            while more {
                match items.get(i) {
                    Some(item) if equals(r, item, depth + 1) => {}
                    _ => return false,
                }
                i += 1;
                more = match r.next_element() {
                    Ok(m) => m,
                    Err(_) => return false,
                };
            }
            i == items.len()
        }
        (Kind::Object, Value::Object(members)) => {
            let Ok(mut more) = r.begin_object(depth) else {
                return false;
            };
            let mut keys = KeySet::new();
            let mut n = 0;
            while more {
                let Ok(key) = r.read_key(&mut keys) else {
                    return false;
                };
                match members.iter().find(|(k, _)| key.eq_str(k)) {
                    Some((_, mv)) if equals(r, mv, depth + 1) => {}
                    _ => return false,
                }
                n += 1;
                more = match r.next_member() {
                    Ok(m) => m,
                    Err(_) => return false,
                };
            }
            n == members.len()
        }
        _ => false,
    }
}

/// A hash of the value at the cursor by value (consuming it): values that are equal by
/// value hash alike (`1` and `1.0`, `"a"` and `"\u0061"`, objects whatever their
/// members' order). Keyed per process (SipHash with a random key), so a model cannot
/// choose thousands of distinct elements that collide.
pub(crate) fn hash_value(r: &mut Reader<'_>, depth: usize) -> u64 {
    use std::hash::BuildHasher;
    thread_local! {
        static KEYS: std::collections::hash_map::RandomState =
            std::collections::hash_map::RandomState::new();
    }
    KEYS.with(|keys| {
        let mut h = keys.build_hasher();
        hash_into(r, depth, &mut h, keys);
        std::hash::Hasher::finish(&h)
    })
}

fn hash_into(
    r: &mut Reader<'_>,
    depth: usize,
    h: &mut impl std::hash::Hasher,
    keys: &std::collections::hash_map::RandomState,
) {
    use std::hash::{BuildHasher, Hasher};
    let Ok(kind) = r.peek_kind() else {
        return;
    };
    match kind {
        Kind::Null | Kind::True | Kind::False => {
            let _ = r.read_literal(kind);
            h.write_u8(match kind {
                Kind::Null => 0,
                Kind::True => 1,
                _ => 2,
            });
        }
        Kind::Number => {
            h.write_u8(3);
            if let Some(d) = r.read_number().ok().and_then(|n| Decimal::parse(n.text)) {
                h.write_u8(u8::from(d.is_negative()));
                let (digits, exponent) = d.scaled_digits();
                for digit in digits {
                    h.write_u8(digit);
                }
                match exponent {
                    Ok(e) => h.write_i64(e),
                    Err(up) => h.write_u8(u8::from(up)),
                }
            }
        }
        Kind::String => {
            h.write_u8(4);
            if let Ok(s) = r.read_string() {
                match s.as_plain_str() {
                    Some(plain) => h.write(plain.as_bytes()),
                    None => {
                        let mut buf = [0u8; 4];
                        for c in s.chars() {
                            h.write(c.encode_utf8(&mut buf).as_bytes());
                        }
                    }
                }
                h.write_u8(0xFF);
            }
        }
        Kind::Array => {
            h.write_u8(5);
            if let Ok(true) = r.begin_array(depth) {
                loop {
                    hash_into(r, depth + 1, h, keys);
                    match r.next_element() {
                        Ok(true) => {}
                        _ => break,
                    }
                }
            }
            h.write_u8(0xFE);
        }
        Kind::Object => {
            h.write_u8(6);
            // Members in any order: the sum of each member's own hash.
            let mut sum: u64 = 0;
            let mut count: u64 = 0;
            if let Ok(true) = r.begin_object(depth) {
                while let Ok(key) = r.read_key_unchecked() {
                    let mut m = keys.build_hasher();
                    let mut buf = [0u8; 4];
                    for c in key.chars() {
                        m.write(c.encode_utf8(&mut buf).as_bytes());
                    }
                    m.write_u8(0xFF);
                    hash_into(r, depth + 1, &mut m, keys);
                    sum = sum.wrapping_add(m.finish());
                    count += 1;
                    match r.next_member() {
                        Ok(true) => {}
                        _ => break,
                    }
                }
            }
            h.write_u64(sum);
            h.write_u64(count);
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Comparisons of two instance values, in tests.
    pub(crate) static COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Whether the two well-formed values `a` and `b` (spans of instance text) are equal
/// by value.
pub(crate) fn same_value(a: &[u8], b: &[u8], depth: usize) -> bool {
    #[cfg(test)]
    COMPARISONS.with(|c| c.set(c.get() + 1));
    let (mut ra, mut rb) = (Reader::new(a, usize::MAX), Reader::new(b, usize::MAX));
    same_at(&mut ra, &mut rb, depth)
}

fn same_at(a: &mut Reader<'_>, b: &mut Reader<'_>, depth: usize) -> bool {
    let (Ok(ka), Ok(kb)) = (a.peek_kind(), b.peek_kind()) else {
        return false;
    };
    match (ka, kb) {
        (Kind::Null, Kind::Null) | (Kind::True, Kind::True) | (Kind::False, Kind::False) => {
            a.read_literal(ka).is_ok() && b.read_literal(kb).is_ok()
        }
        (Kind::Number, Kind::Number) => match (a.read_number(), b.read_number()) {
            (Ok(x), Ok(y)) => match (Decimal::parse(x.text), Decimal::parse(y.text)) {
                (Some(x), Some(y)) => x.cmp_value(&y).is_eq(),
                _ => false,
            },
            _ => false,
        },
        (Kind::String, Kind::String) => match (a.read_string(), b.read_string()) {
            (Ok(x), Ok(y)) => x.chars().eq(y.chars()),
            _ => false,
        },
        (Kind::Array, Kind::Array) => {
            let (Ok(mut ma), Ok(mut mb)) = (a.begin_array(depth), b.begin_array(depth)) else {
                return false;
            };
            while ma && mb {
                if !same_at(a, b, depth + 1) {
                    return false;
                }
                match (a.next_element(), b.next_element()) {
                    (Ok(x), Ok(y)) => (ma, mb) = (x, y),
                    _ => return false,
                }
            }
            ma == mb
        }
        (Kind::Object, Kind::Object) => {
            let (Some(ma), Some(mb)) = (members(a, depth), members(b, depth)) else {
                return false;
            };
            ma.len() == mb.len()
                && ma
                    .iter()
                    .zip(&mb)
                    .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb, depth + 1))
        }
        _ => false,
    }
}

/// An object's members as (decoded key, value span), sorted by key.
fn members<'a>(r: &mut Reader<'a>, depth: usize) -> Option<Vec<(String, &'a [u8])>> {
    let mut out = Vec::new();
    if r.begin_object(depth).ok()? {
        loop {
            let key = r.read_key_unchecked().ok()?.to_cow().into_owned();
            let start = r.pos_after_ws();
            r.skip_value(depth + 1).ok()?;
            out.push((key, &r.input()[start..r.pos()]));
            if !r.next_member().ok()? {
                break;
            }
        }
    }
    out.sort_by(|x, y| x.0.cmp(&y.0));
    Some(out)
}
