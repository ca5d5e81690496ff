use super::{write_json_string, Build, Decimal, SyntaxError};

/// An owned JSON tree, used for schemas only. Object members keep the author's
/// order (tool definitions are sent to the model in that order) and numbers keep
/// their exact text.
///
/// Nesting drives every recursion over a tree (reading, writing, cloning, comparing,
/// dropping): each level goes through `stack::guarded`, so a tree nested to the
/// deepest limit never overflows a small thread's stack.
#[derive(Debug)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// The number's text as written (validated RFC 8259 grammar).
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object's members in the author's order (keys are unique).
    Object(Vec<(String, Value)>),
}

impl Value {
    /// Parses a complete document strictly (duplicates, depth, trailing data).
    pub fn parse(input: &[u8], max_depth: usize) -> Result<Value, SyntaxError> {
        Tree.read(input, max_depth)
    }

    /// The value at the RFC 6901 JSON pointer `pointer` (`""` is the value itself,
    /// `/properties/city` a member's member, `/items/0` an element).
    ///
    /// ```
    /// use toolgate_core::value::Value;
    /// let v = Value::parse(br#"{"properties": {"a/b": {"enum": [1, 2]}}}"#, 8).unwrap();
    /// assert_eq!(v.pointer("/properties/a~1b/enum/1").unwrap().to_compact(), "2");
    /// assert!(v.pointer("/properties/c").is_none());
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        crate::schema::resolve::pointer_get(self, pointer)
    }

    /// Whether this value can be a schema: an object, or a boolean (`true` accepts
    /// everything, `false` nothing).
    pub fn is_schema(&self) -> bool {
        crate::schema::resolve::positions::is_schema(self)
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The number, read exactly.
    pub fn as_decimal(&self) -> Option<Decimal<'_>> {
        match self {
            Value::Number(t) => Decimal::parse(t.as_bytes()),
            _ => None,
        }
    }

    /// The JSON type's name: null, boolean, integer, number, string, array, object.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) if self.as_decimal().is_some_and(|d| d.is_integer()) => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }

    /// Appends the value as compact JSON, members in order, numbers as written.
    pub fn write_compact(&self, out: &mut String) {
        crate::stack::guarded(|| self.write_compact_here(out))
    }

    fn write_compact_here(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(t) => out.push_str(t),
            Value::String(s) => write_json_string(out, s),
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write_compact(out);
                }
                out.push(']');
            }
            Value::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_json_string(out, k);
                    out.push(':');
                    v.write_compact(out);
                }
                out.push('}');
            }
        }
    }

    /// Compact JSON text.
    pub fn to_compact(&self) -> String {
        let mut s = String::new();
        self.write_compact(&mut s);
        s
    }
}

impl Clone for Value {
    fn clone(&self) -> Self {
        crate::stack::guarded(|| match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(*b),
            Value::Number(t) => Value::Number(t.clone()),
            Value::String(s) => Value::String(s.clone()),
            Value::Array(items) => Value::Array(items.clone()),
            Value::Object(members) => Value::Object(members.clone()),
        })
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        crate::stack::guarded(|| match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            _ => false,
        })
    }
}

impl Drop for Value {
    fn drop(&mut self) {
        // The members are dropped here, a level at a time through the guard, rather
        // than by the drop glue after this returns (which would recurse unguarded).
        match self {
            Value::Array(items) if !items.is_empty() => {
                let items = std::mem::take(items);
                crate::stack::guarded(move || drop(items));
            }
            Value::Object(members) if !members.is_empty() => {
                let members = std::mem::take(members);
                crate::stack::guarded(move || drop(members));
            }
            _ => {}
        }
    }
}

/// The [`Build`] of [`Value`] trees.
struct Tree;

impl Build for Tree {
    type Value = Value;
    type Array = Vec<Value>;
    type Object = Vec<(String, Value)>;
    type Error = SyntaxError;

    fn null(&mut self) -> Result<Value, SyntaxError> {
        Ok(Value::Null)
    }

    fn bool(&mut self, value: bool) -> Result<Value, SyntaxError> {
        Ok(Value::Bool(value))
    }

    fn number(&mut self, text: &str) -> Result<Value, SyntaxError> {
        Ok(Value::Number(text.to_owned()))
    }

    fn string(&mut self, value: &str) -> Result<Value, SyntaxError> {
        Ok(Value::String(value.to_owned()))
    }

    fn array(&mut self) -> Result<Vec<Value>, SyntaxError> {
        Ok(Vec::new())
    }

    fn push(&mut self, array: &mut Vec<Value>, item: Value) -> Result<(), SyntaxError> {
        array.push(item);
        Ok(())
    }

    fn end_array(&mut self, array: Vec<Value>) -> Result<Value, SyntaxError> {
        Ok(Value::Array(array))
    }

    fn object(&mut self) -> Result<Vec<(String, Value)>, SyntaxError> {
        Ok(Vec::new())
    }

    fn member(
        &mut self,
        object: &mut Vec<(String, Value)>,
        key: &str,
        value: Value,
    ) -> Result<(), SyntaxError> {
        object.push((key.to_owned(), value));
        Ok(())
    }

    fn end_object(&mut self, object: Vec<(String, Value)>) -> Result<Value, SyntaxError> {
        Ok(Value::Object(object))
    }
}
