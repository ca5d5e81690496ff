use std::borrow::Cow;

use super::{utf8, JsonStr, KeySet, Kind, Reader, Stack, SyntaxError};

/// A receiver of a JSON document's values, in the document's order, that builds its
/// own tree from them: [`Value`] is built this way, and so are the Python module's
/// dicts and lists. The strict reader drives it through [`Build::read`]; what reaches it has
/// passed every rule of the reader (RFC 8259, UTF-8, escapes, no duplicate keys, the
/// depth limit). The reader itself stays private: a receiver sees values, never the
/// cursor.
///
/// [`Value`]: super::Value
pub trait Build {
    /// A finished value.
    type Value;
    /// An array being filled.
    type Array;
    /// An object being filled.
    type Object;
    /// Why building stopped: the receiver's own failure or malformed input.
    type Error: From<SyntaxError>;

    /// `null`.
    fn null(&mut self) -> Result<Self::Value, Self::Error>;
    /// `true` or `false`.
    fn bool(&mut self, value: bool) -> Result<Self::Value, Self::Error>;
    /// A number, its text as written (RFC 8259 grammar, checked).
    fn number(&mut self, text: &str) -> Result<Self::Value, Self::Error>;
    /// A string, unescaped.
    fn string(&mut self, value: &str) -> Result<Self::Value, Self::Error>;
    /// An array opens.
    fn array(&mut self) -> Result<Self::Array, Self::Error>;
    /// The array's next element.
    fn push(&mut self, array: &mut Self::Array, item: Self::Value) -> Result<(), Self::Error>;
    /// The array closes.
    fn end_array(&mut self, array: Self::Array) -> Result<Self::Value, Self::Error>;
    /// An object opens.
    fn object(&mut self) -> Result<Self::Object, Self::Error>;
    /// The object's next member (keys are unique).
    fn member(
        &mut self,
        object: &mut Self::Object,
        key: &str,
        value: Self::Value,
    ) -> Result<(), Self::Error>;
    /// The object closes.
    fn end_object(&mut self, object: Self::Object) -> Result<Self::Value, Self::Error>;

    /// Reads the complete document `input` strictly, refusing containers nested
    /// deeper than `max_depth`, and hands its values to this builder; returns the
    /// top-level value it made. Malformed input stops it with the reader's [`SyntaxError`]
    /// (converted to the builder's error), the builder's own errors stop it as they are.
    ///
    /// ```
    /// use toolgate_core::value::{Build, SyntaxError};
    ///
    /// /// Counts the strings of a document, keys included, and keeps nothing else.
    /// struct Strings(usize);
    ///
    /// impl Build for Strings {
    ///     type Value = ();
    ///     type Array = ();
    ///     type Object = ();
    ///     type Error = SyntaxError;
    ///     fn null(&mut self) -> Result<(), SyntaxError> { Ok(()) }
    ///     fn bool(&mut self, _: bool) -> Result<(), SyntaxError> { Ok(()) }
    ///     fn number(&mut self, _: &str) -> Result<(), SyntaxError> { Ok(()) }
    ///     fn string(&mut self, _: &str) -> Result<(), SyntaxError> { self.0 += 1; Ok(()) }
    ///     fn array(&mut self) -> Result<(), SyntaxError> { Ok(()) }
    ///     fn push(&mut self, _: &mut (), _: ()) -> Result<(), SyntaxError> { Ok(()) }
    ///     fn end_array(&mut self, _: ()) -> Result<(), SyntaxError> { Ok(()) }
    ///     fn object(&mut self) -> Result<(), SyntaxError> { Ok(()) }
    ///     fn member(&mut self, _: &mut (), _: &str, _: ()) -> Result<(), SyntaxError> {
    ///         self.0 += 1;
    ///         Ok(())
    ///     }
    ///     fn end_object(&mut self, _: ()) -> Result<(), SyntaxError> { Ok(()) }
    /// }
    ///
    /// let mut count = Strings(0);
    /// count.read(br#"{"city": "Paris", "tags": ["a", "b"]}"#, 16).unwrap();
    /// assert_eq!(count.0, 5);
    /// // The reader's rules hold: a duplicate key is refused before the builder sees it.
    /// assert!(Strings(0).read(br#"{"a": 1, "a": 2}"#, 16).is_err());
    /// ```
    fn read(&mut self, input: &[u8], max_depth: usize) -> Result<Self::Value, Self::Error>
    where
        Self: Sized,
    {
        let mut r = Reader::new(input, max_depth);
        let v = read_tree(&mut r, &mut Built(self))?;
        r.finish()?;
        Ok(v)
    }
}

/// What [`read_tree`] hands a document's values to: a [`Build`] (through [`Built`]),
/// or the compact tree of a schema, which also writes the document's compact text
/// (hence the names and separators it is told of).
pub(crate) trait Gather<'a> {
    type Value;
    type Array;
    type Object;
    type Error: From<SyntaxError>;

    fn null(&mut self) -> Result<Self::Value, Self::Error>;
    fn bool(&mut self, value: bool) -> Result<Self::Value, Self::Error>;
    /// A number's text (its grammar checked, so ASCII).
    fn number(&mut self, text: &'a str) -> Result<Self::Value, Self::Error>;
    fn string(&mut self, value: JsonStr<'a>) -> Result<Self::Value, Self::Error>;
    fn array(&mut self) -> Result<Self::Array, Self::Error>;
    fn push(&mut self, array: &mut Self::Array, item: Self::Value) -> Result<(), Self::Error>;
    fn end_array(&mut self, array: Self::Array) -> Result<Self::Value, Self::Error>;
    fn object(&mut self) -> Result<Self::Object, Self::Error>;
    /// A member's name, read (with its colon) and found unique in its object.
    fn name(&mut self, key: JsonStr<'a>) -> Cow<'a, str>;
    fn member(
        &mut self,
        object: &mut Self::Object,
        name: Cow<'a, str>,
        value: Self::Value,
    ) -> Result<(), Self::Error>;
    fn end_object(&mut self, object: Self::Object) -> Result<Self::Value, Self::Error>;
    /// The comma before a container's next item.
    fn separator(&mut self) {}
}

/// A container being filled: an array, or an object with the name of the member being
/// read.
enum Filling<'a, G: Gather<'a>> {
    Array(G::Array),
    Object(G::Object, Cow<'a, str>),
}

/// The value at the cursor, handed to `g` in the document's order, read in a loop:
/// the open containers are on a stack of their own (inline for the first levels), so
/// no nesting within the limit deepens the call stack. The reader is called in the
/// order a recursive reading calls it, so malformed input stops at the same byte with
/// the same error.
#[inline]
pub(crate) fn read_tree<'a, G: Gather<'a>>(
    r: &mut Reader<'a>,
    g: &mut G,
) -> Result<G::Value, G::Error> {
    let mut open: Stack<Filling<'a, G>, 16> = Stack::new();
    // The key sets of the open objects (`keys[objects - 1]` the innermost's), and past
    // them those of closed ones, emptied for the next object at their level: a key set
    // is large, so it is made once per level rather than once per object. Eight
    // inline: a schema nests two objects per level of subschemas (`properties`, then a
    // property's schema), and with four most tool schemas spilled the sets to the heap
    // (an allocation, and copies of 312-byte sets as it grew): 1% of compiling
    // openai-node's schemas.
    let mut keys: Stack<KeySet<'a>, 8> = Stack::new();
    let mut objects = 0;
    'value: loop {
        let mut value = match r.peek_kind()? {
            Kind::Null => {
                r.read_literal(Kind::Null)?;
                g.null()?
            }
            k @ (Kind::True | Kind::False) => {
                r.read_literal(k)?;
                g.bool(k == Kind::True)?
            }
            // The reader checked the number's grammar: its text is ASCII.
            Kind::Number => g.number(utf8(r.read_number()?.text).unwrap_or("0"))?,
            Kind::String => g.string(r.read_string()?)?,
            Kind::Array => {
                let array = g.array()?;
                if r.begin_array(open.len())? {
                    open.push(Filling::Array(array));
                    continue 'value;
                }
                g.end_array(array)?
            }
            Kind::Object => {
                let object = g.object()?;
                if r.begin_object(open.len())? {
                    let set = match keys.get_mut(objects) {
                        Some(set) => {
                            set.clear();
                            set
                        }
                        None => {
                            keys.push(KeySet::new());
                            keys.last_mut().expect("just pushed")
                        }
                    };
                    objects += 1;
                    let name = g.name(r.read_key(set)?);
                    open.push(Filling::Object(object, name));
                    continue 'value;
                }
                g.end_object(object)?
            }
        };
        // The value joins its container; then the container's next item, or its
        // close, which finishes the container's own value.
        loop {
            match open.last_mut() {
                None => return Ok(value),
                Some(Filling::Array(array)) => {
                    g.push(array, value)?;
                    if r.next_element()? {
                        g.separator();
                        continue 'value;
                    }
                }
                Some(Filling::Object(object, name)) => {
                    g.member(object, std::mem::take(name), value)?;
                    if r.next_member()? {
                        g.separator();
                        let set = keys.get_mut(objects - 1).expect("an open object's key set");
                        *name = g.name(r.read_key(set)?);
                        continue 'value;
                    }
                    objects -= 1;
                }
            }
            value = match open.pop() {
                Some(Filling::Array(array)) => g.end_array(array)?,
                Some(Filling::Object(object, _)) => g.end_object(object)?,
                None => unreachable!("the container was just read"),
            };
        }
    }
}

/// A [`Build`] as [`read_tree`] drives it.
struct Built<'b, B>(&'b mut B);

impl<'a, B: Build> Gather<'a> for Built<'_, B> {
    type Value = B::Value;
    type Array = B::Array;
    type Object = B::Object;
    type Error = B::Error;

    #[inline]
    fn null(&mut self) -> Result<B::Value, B::Error> {
        self.0.null()
    }
    #[inline]
    fn bool(&mut self, value: bool) -> Result<B::Value, B::Error> {
        self.0.bool(value)
    }
    #[inline]
    fn number(&mut self, text: &'a str) -> Result<B::Value, B::Error> {
        self.0.number(text)
    }
    #[inline]
    fn string(&mut self, value: JsonStr<'a>) -> Result<B::Value, B::Error> {
        self.0.string(&value.to_cow())
    }
    #[inline]
    fn array(&mut self) -> Result<B::Array, B::Error> {
        self.0.array()
    }
    #[inline]
    fn push(&mut self, array: &mut B::Array, item: B::Value) -> Result<(), B::Error> {
        self.0.push(array, item)
    }
    #[inline]
    fn end_array(&mut self, array: B::Array) -> Result<B::Value, B::Error> {
        self.0.end_array(array)
    }
    #[inline]
    fn object(&mut self) -> Result<B::Object, B::Error> {
        self.0.object()
    }
    #[inline]
    fn name(&mut self, key: JsonStr<'a>) -> Cow<'a, str> {
        key.to_cow()
    }
    #[inline]
    fn member(
        &mut self,
        object: &mut B::Object,
        name: Cow<'a, str>,
        value: B::Value,
    ) -> Result<(), B::Error> {
        self.0.member(object, &name, value)
    }
    #[inline]
    fn end_object(&mut self, object: B::Object) -> Result<B::Value, B::Error> {
        self.0.end_object(object)
    }
}
