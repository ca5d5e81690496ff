use super::{write_json_string, Build, Decimal, KeySet, Kind, Reader, SyntaxError};

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

    /// [`Value::parse`], and the document as [`Value::to_compact`] writes it, made in
    /// the same pass: a schema is read once for both its tree and the text a tool
    /// definition sends. The same reader, in the same order, so the same errors.
    pub(crate) fn parse_compact(
        input: &[u8],
        max_depth: usize,
    ) -> Result<(Value, String), SyntaxError> {
        let mut p = CompactTree {
            // Compact text is rarely longer than the input (only a re-escaped string
            // can be), so one allocation is the usual cost.
            out: String::with_capacity(input.len()),
            members: Vec::new(),
            items: Vec::new(),
        };
        let mut r = Reader::new(input, max_depth);
        let v = p.value(&mut r, 0)?;
        r.finish()?;
        Ok((v, p.out))
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

/// The reader of [`Value::parse_compact`]: the tree and its compact text at once.
/// Members and elements are gathered on two stacks shared by every level (a nested
/// container is finished before its parent takes its next item), so each container's
/// vector is allocated once, at its length, rather than grown.
struct CompactTree {
    out: String,
    members: Vec<(String, Value)>,
    items: Vec<Value>,
}

impl CompactTree {
    /// One value; every [`GUARD_EVERY`] levels the rest of the recursion makes sure
    /// of room on the stack (as [`Build::read`] does).
    #[inline]
    fn value(&mut self, r: &mut Reader<'_>, depth: usize) -> Result<Value, SyntaxError> {
        if depth.is_multiple_of(GUARD_EVERY) {
            crate::stack::guarded(|| self.value_here(r, depth))
        } else {
            self.value_here(r, depth)
        }
    }

    fn value_here(&mut self, r: &mut Reader<'_>, depth: usize) -> Result<Value, SyntaxError> {
        match r.peek_kind()? {
            Kind::Null => {
                r.read_literal(Kind::Null)?;
                self.out.push_str("null");
                Ok(Value::Null)
            }
            k @ (Kind::True | Kind::False) => {
                r.read_literal(k)?;
                let b = k == Kind::True;
                self.out.push_str(if b { "true" } else { "false" });
                Ok(Value::Bool(b))
            }
            Kind::Number => {
                let n = r.read_number()?;
                // The reader checked the number's grammar: its text is ASCII.
                let text = super::utf8(n.text).unwrap_or("0");
                self.out.push_str(text);
                Ok(Value::Number(text.to_owned()))
            }
            Kind::String => {
                let s = r.read_string()?;
                let text = s.to_cow();
                self.push_string(s.has_escapes(), &text);
                Ok(Value::String(text.into_owned()))
            }
            Kind::Array => {
                let start = self.items.len();
                self.out.push('[');
                if r.begin_array(depth)? {
                    loop {
                        let item = self.value(r, depth + 1)?;
                        self.items.push(item);
                        if !r.next_element()? {
                            break;
                        }
                        self.out.push(',');
                    }
                }
                self.out.push(']');
                Ok(Value::Array(self.items.drain(start..).collect()))
            }
            Kind::Object => {
                let start = self.members.len();
                self.out.push('{');
                if r.begin_object(depth)? {
                    let mut keys = KeySet::new();
                    loop {
                        let key = r.read_key(&mut keys)?;
                        let name = key.to_cow();
                        self.push_string(key.has_escapes(), &name);
                        self.out.push(':');
                        let item = self.value(r, depth + 1)?;
                        self.members.push((name.into_owned(), item));
                        if !r.next_member()? {
                            break;
                        }
                        self.out.push(',');
                    }
                }
                self.out.push('}');
                Ok(Value::Object(self.members.drain(start..).collect()))
            }
        }
    }
}

impl CompactTree {
    /// Appends the string `text` as [`write_json_string`] does. When its token had no
    /// escapes the reader has already refused quotes, backslashes and control bytes
    /// in it, so only DEL (which is escaped) is left to look for.
    #[inline]
    fn push_string(&mut self, escaped: bool, text: &str) {
        if escaped || text.as_bytes().contains(&0x7F) {
            write_json_string(&mut self.out, text);
        } else {
            self.out.push('"');
            self.out.push_str(text);
            self.out.push('"');
        }
    }
}

/// How many levels share one check for stack room (as in [`Build::read`]).
const GUARD_EVERY: usize = 16;

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass reader gives the tree and the text that `parse` then `to_compact`
    /// give, and refuses what `parse` refuses, with the same error.
    #[test]
    fn parse_compact_is_parse_then_to_compact() {
        let docs: [&[u8]; 14] = [
            br#"{"type": "object", "properties": {"a": {"type": "string"}}}"#,
            b" \n\t{ \"a\" : [ 1 , 2.50 , -0 , 1e3 , true , false , null ] } \r\n",
            br#"{"esc": "\"quoted\" \\ \/ \b\f\n\r\t \u0041\u00e9\ud83d\ude00 \u007f \u0001"}"#,
            "{\"del\": \"a\u{7f}b\", \"caf\u{e9}\": \"\u{1F600}\"}".as_bytes(),
            br#"{"k\u0065y": {}, "e": [], "n": [[[]], {"x": [{}]}]}"#,
            br#"[1, "two", {"three": [3]}]"#,
            br#""just a string""#,
            b"42",
            br#"{"a": 1, "a": 2}"#,
            br#"{"a": [1, 2,]}"#,
            br#"{"a": "unterminated}"#,
            b"{\"ctl\": \"a\x01b\"}",
            br#"{"a": 1} trailing"#,
            br#"[[[[[[[[[[1]]]]]]]]]]"#,
        ];
        for doc in docs {
            for depth in [4, 64] {
                let want = Value::parse(doc, depth).map(|v| {
                    let text = v.to_compact();
                    (v, text)
                });
                let got = Value::parse_compact(doc, depth);
                let shown = String::from_utf8_lossy(doc);
                assert_eq!(want, got, "{shown} at depth {depth}");
            }
        }
    }
}
