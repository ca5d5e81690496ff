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
