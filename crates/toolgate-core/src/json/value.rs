use super::write::{write_compact_tree, JsonTree, TreeNode};
use super::{Build, Decimal, Stack, SyntaxError};

/// An owned JSON tree, used for schemas only. Object members keep the author's
/// order (tool definitions are sent to the model in that order) and numbers keep
/// their exact text.
///
/// Nothing done to a whole tree recurses per level (reading, writing, cloning,
/// comparing, dropping): each keeps its open arrays and objects on a heap stack, so a
/// tree nested to the deepest limit needs no more call stack than a flat one.
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
        use crate::schema::resolve::{array_index, unescape_token};
        if pointer.is_empty() {
            return Some(self);
        }
        let mut v = self;
        for raw in pointer.strip_prefix('/')?.split('/') {
            let token = unescape_token(raw)?;
            v = match v {
                Value::Object(members) => &members.iter().find(|(k, _)| *k == token)?.1,
                Value::Array(items) => items.get(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(v)
    }

    /// Whether this value can be a schema: an object, or a boolean (`true` accepts
    /// everything, `false` nothing).
    pub fn is_schema(&self) -> bool {
        matches!(self, Value::Object(_) | Value::Bool(_))
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
        write_compact_tree(self, out);
    }

    /// Compact JSON text.
    pub fn to_compact(&self) -> String {
        let mut s = String::new();
        self.write_compact(&mut s);
        s
    }
}

/// What is left of a container's children, in order: an array's elements, or an
/// object's members with their names.
pub(crate) enum Children<'v> {
    Items(std::slice::Iter<'v, Value>),
    Members(std::slice::Iter<'v, (String, Value)>),
}

impl<'v> Children<'v> {
    /// The children of `v`, when it is a container.
    fn of(v: &'v Value) -> Option<Self> {
        match v {
            Value::Array(items) => Some(Children::Items(items.iter())),
            Value::Object(members) => Some(Children::Members(members.iter())),
            _ => None,
        }
    }

    fn is_object(&self) -> bool {
        matches!(self, Children::Members(_))
    }

    fn len(&self) -> usize {
        match self {
            Children::Items(items) => items.len(),
            Children::Members(members) => members.len(),
        }
    }
}

/// The next child, with its name in an object.
impl<'v> Iterator for Children<'v> {
    type Item = (Option<&'v str>, &'v Value);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Children::Items(items) => items.next().map(|v| (None, v)),
            Children::Members(members) => members.next().map(|(k, v)| (Some(k.as_str()), v)),
        }
    }
}

impl JsonTree for Value {
    type Children<'t> = Children<'t>;

    fn node(&self) -> TreeNode<'_, Self> {
        match self {
            Value::Null => TreeNode::Literal("null"),
            Value::Bool(b) => TreeNode::Literal(if *b { "true" } else { "false" }),
            Value::Number(t) => TreeNode::Literal(t),
            Value::String(s) => TreeNode::String(s),
            Value::Array(items) => TreeNode::Array(Children::Items(items.iter())),
            Value::Object(members) => TreeNode::Object(Children::Members(members.iter())),
        }
    }
}

/// A copy being made of a container: its originals left, the copies so far, and the
/// name it has in its own container (an object's member).
struct Copying<'v> {
    children: Children<'v>,
    name: Option<&'v str>,
    items: Vec<Value>,
    members: Vec<(String, Value)>,
}

impl<'v> Copying<'v> {
    fn new(children: Children<'v>, name: Option<&'v str>) -> Self {
        let (items, members) = match children.is_object() {
            false => (children.len(), 0),
            true => (0, children.len()),
        };
        Copying {
            children,
            name,
            items: Vec::with_capacity(items),
            members: Vec::with_capacity(members),
        }
    }

    fn add(&mut self, name: Option<&str>, copy: Value) {
        match name {
            Some(name) => self.members.push((name.to_owned(), copy)),
            None => self.items.push(copy),
        }
    }

    fn finish(self) -> Value {
        match self.children.is_object() {
            true => Value::Object(self.members),
            false => Value::Array(self.items),
        }
    }
}

impl Value {
    /// A copy of a scalar; `null` for a container (which [`Clone`] copies by parts).
    fn copy_scalar(&self) -> Value {
        match self {
            Value::Bool(b) => Value::Bool(*b),
            Value::Number(t) => Value::Number(t.clone()),
            Value::String(s) => Value::String(s.clone()),
            Value::Null | Value::Array(_) | Value::Object(_) => Value::Null,
        }
    }
}

impl Clone for Value {
    fn clone(&self) -> Self {
        let Some(children) = Children::of(self) else {
            return self.copy_scalar();
        };
        let mut open = vec![Copying::new(children, None)];
        while let Some(top) = open.last_mut() {
            match top.children.next() {
                Some((name, v)) => match Children::of(v) {
                    Some(children) => open.push(Copying::new(children, name)),
                    None => top.add(name, v.copy_scalar()),
                },
                None => {
                    let Some(done) = open.pop() else { break };
                    let name = done.name;
                    let copy = done.finish();
                    match open.last_mut() {
                        Some(parent) => parent.add(name, copy),
                        None => return copy,
                    }
                }
            }
        }
        unreachable!("the copy is returned when its outermost container closes")
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        // The pairs still to compare; a container's children are pushed once its own
        // shape (type, length, names in order) matched.
        let mut pending: Stack<(&Value, &Value), 8> = Stack::new();
        pending.push((self, other));
        while let Some(pair) = pending.pop() {
            match pair {
                (Value::Null, Value::Null) => {}
                (Value::Bool(a), Value::Bool(b)) if a == b => {}
                (Value::Number(a), Value::Number(b)) if a == b => {}
                (Value::String(a), Value::String(b)) if a == b => {}
                (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
                    a.iter().zip(b).for_each(|pair| pending.push(pair));
                }
                (Value::Object(a), Value::Object(b)) if a.len() == b.len() => {
                    for ((ka, va), (kb, vb)) in a.iter().zip(b) {
                        if ka != kb {
                            return false;
                        }
                        pending.push((va, vb));
                    }
                }
                _ => return false,
            }
        }
        true
    }
}

impl Drop for Value {
    fn drop(&mut self) {
        // A container whose children hold nothing is left to the drop glue, which
        // recurses no further. Otherwise the nested containers are moved out onto a
        // heap stack and dropped from there, each after its own nested ones were
        // moved out, so no drop recurses more than a level.
        if !self.holds_nested() {
            return;
        }
        let mut nested = Vec::new();
        self.drain_children(&mut nested);
        while let Some(mut v) = nested.pop() {
            if v.holds_nested() {
                v.drain_children(&mut nested);
            }
        }
    }
}

/// True for a non-empty container.
fn holds_more(v: &Value) -> bool {
    match v {
        Value::Array(items) => !items.is_empty(),
        Value::Object(members) => !members.is_empty(),
        _ => false,
    }
}

impl Value {
    /// True when a child of this container is itself a non-empty container.
    fn holds_nested(&self) -> bool {
        match self {
            Value::Array(items) => items.iter().any(holds_more),
            Value::Object(members) => members.iter().any(|(_, v)| holds_more(v)),
            _ => false,
        }
    }

    /// Empties this container: its children that are non-empty containers go to
    /// `nested`, the others are dropped.
    fn drain_children(&mut self, nested: &mut Vec<Value>) {
        match self {
            Value::Array(items) => {
                nested.extend(items.drain(..).filter(holds_more));
            }
            Value::Object(members) => {
                nested.extend(members.drain(..).map(|(_, v)| v).filter(holds_more));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Doc, OwnedDoc};

    /// Every operation on a whole tree, on trees nested to the largest depth limit,
    /// runs on a 64 KiB thread: none recurses per level of the tree.
    #[test]
    fn the_deepest_trees_need_no_deep_stack() {
        const LIMIT: usize = crate::schema::Options::MAX_DEPTH_LIMIT;
        // `open` a level (or `levels`) at a time, to the limit, around `inner`.
        let nested_by = |levels: usize, open: &str, inner: &str, close: &str| {
            let n = LIMIT / levels;
            format!("{}{inner}{}", open.repeat(n), close.repeat(n))
        };
        let nested = move |open: &str, inner: &str, close: &str| nested_by(1, open, inner, close);
        let docs = [
            nested("[", "", "]"),
            nested(r#"{"a":"#, "0", "}"),
            nested_by(2, r#"[true,{"a":null,"b":"#, r#""é""#, r#"}]"#),
        ];
        let done = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                let mut trees = Vec::new();
                for doc in &docs {
                    let tree = Value::parse(doc.as_bytes(), LIMIT).unwrap();
                    // The compile's document, read, written, and made from and into a
                    // `Value`, and an owned one.
                    let arena = bumpalo::Bump::new();
                    let (tree_doc, text) =
                        Doc::parse_compact(doc.as_bytes(), LIMIT, &arena).unwrap();
                    assert_eq!(&text, doc);
                    assert_eq!(tree.to_compact(), text);
                    assert_eq!(tree_doc.to_compact(), text);
                    assert!(tree == tree_doc.to_value());
                    assert_eq!(Doc::from_value(&tree, &arena).to_compact(), text);
                    let owned = OwnedDoc::parse(doc.as_bytes(), LIMIT).unwrap();
                    assert_eq!(owned.root().to_compact(), text);
                    let copy = tree.clone();
                    assert!(copy == tree);
                    drop(copy);
                    trees.push(tree);
                    // One level more is refused, by both readers.
                    let deeper = format!("[{doc}]");
                    assert!(Value::parse(deeper.as_bytes(), LIMIT).is_err());
                    assert!(Doc::parse_compact(deeper.as_bytes(), LIMIT, &arena).is_err());
                    assert!(OwnedDoc::parse(deeper.as_bytes(), LIMIT).is_err());
                }
                // Trees that differ only at their innermost value are unequal.
                let (a, b) = (nested("[", "1", "]"), nested("[", "2", "]"));
                let a = Value::parse(a.as_bytes(), LIMIT).unwrap();
                let b = Value::parse(b.as_bytes(), LIMIT).unwrap();
                assert!(a != b);
                assert!(trees[0] != trees[1] && trees[1] != trees[2]);
            })
            .unwrap()
            .join();
        assert!(done.is_ok(), "a whole-tree operation overflowed 64 KiB");
    }
}
