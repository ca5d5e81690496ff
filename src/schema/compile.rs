//! Schema JSON → compiled tree. Every keyword is checked here, once: a schema that
//! uses a keyword outside the profile, or a keyword with an invalid value, is refused
//! with the pointer to the keyword, so no schema promises more than it checks.

use crate::json::{write_json_string, Value};

use super::node::*;
use super::{pattern, CompileError};

/// Keywords that carry no assertion and are accepted (their values are checked for shape).
const ANNOTATIONS: [&str; 6] = [
    "title",
    "description",
    "default",
    "examples",
    "$schema",
    "$comment",
];

/// The most subschemas `anyOf` nesting may make the validator try for one value: a
/// bound on the work a schema can ask for, since nested anyOf multiplies.
pub(crate) const MAX_ALTERNATIVES: usize = 4096;

/// Appends a reference token to a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`).
pub(crate) fn push_pointer_token(ptr: &mut String, token: &str) {
    ptr.push('/');
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        ptr.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => ptr.push_str("~0"),
            '/' => ptr.push_str("~1"),
            c => ptr.push(c),
        }
    }
}

fn err(ptr: &str, keyword: &str, message: impl Into<String>) -> CompileError {
    CompileError {
        pointer: ptr.to_string(),
        keyword: keyword.to_string(),
        message: message.into(),
    }
}

fn quoted(s: &str) -> String {
    let mut out = String::new();
    write_json_string(&mut out, s);
    out
}

/// Compiles the schema at `ptr`.
pub(crate) fn compile_node(v: &Value, ptr: &mut String) -> Result<Node, CompileError> {
    let members = match v {
        Value::Bool(true) => return Ok(Node::True),
        Value::Bool(false) => return Ok(Node::False),
        Value::Object(m) => m,
        other => {
            return Err(err(
                ptr,
                "",
                format!(
                    "a schema must be an object or a boolean, got {}",
                    other.type_name()
                ),
            ))
        }
    };
    let mut rules = Rules {
        types: None,
        enum_: None,
        const_: None,
        object: None,
        array: None,
        string: None,
        number: None,
        any_of: Vec::new(),
        checks_value: false,
    };
    let mut properties: Option<&Vec<(String, Value)>> = None;
    let mut required: Option<&Vec<Value>> = None;
    let mut additional: Option<Node> = None;
    let mut items: Option<Node> = None;
    let (mut min_items, mut max_items, mut min_len, mut max_len) = (None, None, None, None);
    let mut pattern_rule: Option<Pattern> = None;
    let (mut minimum, mut maximum) = (None, None);

    for (key, val) in members {
        let base = ptr.len();
        push_pointer_token(ptr, key);
        let here = ptr.clone();
        match key.as_str() {
            "type" => rules.types = Some(compile_type(val, &here)?),
            "enum" => match val {
                Value::Array(vals) if !vals.is_empty() => {
                    rules.enum_ = Some(choices(vals.clone(), val.to_compact()))
                }
                _ => return Err(err(&here, key, "\"enum\" must be a non-empty array")),
            },
            "const" => rules.const_ = Some(choices(vec![val.clone()], val.to_compact())),
            "properties" => match val {
                Value::Object(m) => properties = Some(m),
                _ => return Err(err(&here, key, "\"properties\" must be an object")),
            },
            "required" => match val {
                Value::Array(names) => {
                    for (i, n) in names.iter().enumerate() {
                        let Value::String(s) = n else {
                            return Err(err(
                                &here,
                                key,
                                "\"required\" must be an array of strings",
                            ));
                        };
                        if names[..i]
                            .iter()
                            .any(|m| matches!(m, Value::String(t) if t == s))
                        {
                            return Err(err(
                                &here,
                                key,
                                format!("\"required\" lists {} twice", quoted(s)),
                            ));
                        }
                    }
                    required = Some(names);
                }
                _ => return Err(err(&here, key, "\"required\" must be an array of strings")),
            },
            "additionalProperties" => additional = Some(compile_node(val, ptr)?),
            "items" => {
                if matches!(val, Value::Array(_)) {
                    return Err(err(
                        &here,
                        key,
                        "\"items\" must be a schema (the array form is not supported; it means prefixItems in draft 2020-12)",
                    ));
                }
                items = Some(compile_node(val, ptr)?)
            }
            "minItems" => min_items = Some(length_bound(val, &here, key)?),
            "maxItems" => max_items = Some(length_bound(val, &here, key)?),
            "minLength" => min_len = Some(length_bound(val, &here, key)?),
            "maxLength" => max_len = Some(length_bound(val, &here, key)?),
            "pattern" => {
                let Value::String(src) = val else {
                    return Err(err(&here, key, "\"pattern\" must be a string"));
                };
                let matcher = pattern::compile_matcher(src).map_err(|why| {
                    err(
                        &here,
                        key,
                        format!("invalid pattern {}: {why}", quoted(src)),
                    )
                })?;
                let mut quoted_source = String::with_capacity(src.len() + 8);
                write_json_string(&mut quoted_source, src);
                pattern_rule = Some(Pattern {
                    quoted_source,
                    matcher,
                });
            }
            "minimum" | "maximum" => {
                let Value::Number(text) = val else {
                    return Err(err(&here, key, format!("\"{key}\" must be a number")));
                };
                if key == "minimum" {
                    minimum = Some(Bound::new(text.clone()));
                } else {
                    maximum = Some(Bound::new(text.clone()));
                }
            }
            "anyOf" => match val {
                Value::Array(subs) if !subs.is_empty() => {
                    for (i, s) in subs.iter().enumerate() {
                        let b = ptr.len();
                        push_pointer_token(ptr, &i.to_string());
                        rules.any_of.push(compile_node(s, ptr)?);
                        ptr.truncate(b);
                    }
                }
                _ => {
                    return Err(err(
                        &here,
                        key,
                        "\"anyOf\" must be a non-empty array of schemas",
                    ))
                }
            },
            "title" | "description" | "$comment" | "$schema" => {
                if !matches!(val, Value::String(_)) {
                    return Err(err(&here, key, format!("\"{key}\" must be a string")));
                }
            }
            "examples" => {
                if !matches!(val, Value::Array(_)) {
                    return Err(err(&here, key, "\"examples\" must be an array"));
                }
            }
            k if ANNOTATIONS.contains(&k) => {}
            _ => {
                return Err(err(
                    &here,
                    key,
                    format!("unsupported keyword {}", quoted(key)),
                ))
            }
        }
        ptr.truncate(base);
    }

    if properties.is_some() || required.is_some() || additional.is_some() {
        let mut obj = ObjectRules::new(additional);
        if let Some(props) = properties {
            let base = ptr.len();
            push_pointer_token(ptr, "properties");
            for (name, sub) in props {
                let b = ptr.len();
                push_pointer_token(ptr, name);
                let node = compile_node(sub, ptr)?;
                ptr.truncate(b);
                obj.props.push(Prop {
                    name: name.clone(),
                    node: Some(node),
                });
            }
            ptr.truncate(base);
        }
        for n in required.into_iter().flatten() {
            let Value::String(name) = n else { continue };
            let idx = match obj.props.iter().position(|p| &p.name == name) {
                Some(i) => i,
                None => {
                    obj.props.push(Prop {
                        name: name.clone(),
                        node: None,
                    });
                    obj.props.len() - 1
                }
            };
            let mut message = String::from("missing required property ");
            write_json_string(&mut message, name);
            obj.required.push(Required {
                index: idx,
                message,
            });
        }
        obj.finish();
        rules.object = Some(obj);
    }
    if items.is_some() || min_items.is_some() || max_items.is_some() {
        rules.array = Some(ArrayRules {
            items,
            min: min_items,
            max: max_items,
        });
    }
    if min_len.is_some() || max_len.is_some() || pattern_rule.is_some() {
        rules.string = Some(StringRules {
            min: min_len,
            max: max_len,
            pattern: pattern_rule,
        });
    }
    if minimum.is_some() || maximum.is_some() {
        rules.number = Some(NumberRules { minimum, maximum });
    }
    let empty = rules.types.is_none()
        && rules.enum_.is_none()
        && rules.const_.is_none()
        && rules.object.is_none()
        && rules.array.is_none()
        && rules.string.is_none()
        && rules.number.is_none()
        && rules.any_of.is_empty();
    if empty {
        return Ok(Node::True);
    }
    rules.checks_value =
        rules.enum_.is_some() || rules.const_.is_some() || !rules.any_of.is_empty();
    if alternatives(&rules) > MAX_ALTERNATIVES {
        return Err(err(
            ptr,
            "anyOf",
            format!("anyOf nesting asks for more than {MAX_ALTERNATIVES} alternatives to be tried for one value"),
        ));
    }
    Ok(Node::Rules(Box::new(rules)))
}

/// How many schemas one value may be checked against through nested `anyOf`.
fn alternatives(rules: &Rules) -> usize {
    1 + rules
        .any_of
        .iter()
        .map(|n| match n {
            Node::Rules(r) => alternatives(r),
            _ => 1,
        })
        .fold(0usize, usize::saturating_add)
}

fn choices(values: Vec<Value>, text: String) -> Choices {
    let strings = values
        .iter()
        .map(|v| match v {
            Value::String(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    Choices {
        values,
        text,
        strings,
    }
}

fn compile_type(v: &Value, ptr: &str) -> Result<Types, CompileError> {
    let names: Vec<&str> = match v {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) if !items.is_empty() => {
            let mut names = Vec::with_capacity(items.len());
            for it in items {
                match it {
                    Value::String(s) => names.push(s.as_str()),
                    _ => {
                        return Err(err(
                            ptr,
                            "type",
                            "\"type\" must be a type name or an array of type names",
                        ))
                    }
                }
            }
            names
        }
        _ => {
            return Err(err(
                ptr,
                "type",
                "\"type\" must be a type name or an array of type names",
            ))
        }
    };
    let mut mask = 0u8;
    for n in &names {
        let bit = type_bit(n).ok_or_else(|| {
            err(
                ptr,
                "type",
                format!("unknown type {} (expected null, boolean, object, array, number, string or integer)", quoted(n)),
            )
        })?;
        if mask & bit != 0 {
            return Err(err(
                ptr,
                "type",
                format!("\"type\" lists {} twice", quoted(n)),
            ));
        }
        mask |= bit;
    }
    Ok(Types {
        mask,
        text: join_or(&names),
    })
}

/// `a`, `a or b`, `a, b or c`.
pub(crate) fn join_or(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A non-negative integer (2.0 counts, as JSON Schema says); huge values saturate.
fn length_bound(v: &Value, ptr: &str, key: &str) -> Result<u64, CompileError> {
    let bad = || {
        err(
            ptr,
            key,
            format!("\"{key}\" must be a non-negative integer"),
        )
    };
    let Value::Number(text) = v else {
        return Err(bad());
    };
    let d = v.as_decimal().ok_or_else(bad)?;
    if !d.is_integer() || (text.starts_with('-') && !d.is_zero()) {
        return Err(bad());
    }
    let max = crate::json::Decimal::parse(b"18446744073709551615").expect("valid literal");
    if d.cmp_value(&max).is_gt() {
        return Ok(u64::MAX);
    }
    // An integer that fits: read its value digit by digit through the exact form.
    Ok(integer_value(text))
}

/// The value of an integral number text that fits in u64 (`3`, `3.0`, `1e2`).
fn integer_value(text: &str) -> u64 {
    let (mant, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().unwrap_or(0)),
        None => (text, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut digits: String = format!("{int}{frac}");
    let mut exp = exp - frac.len() as i64;
    while exp < 0 && digits.ends_with('0') {
        digits.pop();
        exp += 1;
    }
    let mut v: u64 = digits.parse::<u64>().unwrap_or(0);
    for _ in 0..exp.max(0) {
        v = v.saturating_mul(10);
    }
    v
}

/// An ECMA group name we can pass on: an ASCII identifier.
pub(crate) fn is_group_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
