use std::borrow::Cow;

use super::events::{Event, Events};
use super::{utf8, Reader, SyntaxError};

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
        let v = read_value(&mut r, self)?;
        r.finish()?;
        Ok(v)
    }
}

/// A container being filled, with the name of the member being read for an object.
enum Open<'a, B: Build> {
    Array(B::Array),
    Object(B::Object, Cow<'a, str>),
}

/// The value at the cursor, built from the reader's [`Events`] in a loop: the open
/// containers are on a heap stack, so no nesting within the limit deepens the call
/// stack.
fn read_value<'a, B: Build>(r: &mut Reader<'a>, b: &mut B) -> Result<B::Value, B::Error> {
    let mut events = Events::new(r);
    let mut open: Vec<Open<'a, B>> = Vec::new();
    loop {
        // `Events` ends only after the document's value, which returns below.
        let Some(event) = events.next()? else {
            unreachable!("the value is returned before its events end")
        };
        let value = match event {
            Event::Null => b.null()?,
            Event::Bool(v) => b.bool(v)?,
            // The reader checked the number's grammar: its text is ASCII.
            Event::Number(text) => b.number(utf8(text).unwrap_or("0"))?,
            Event::String(s) => b.string(&s.to_cow())?,
            Event::Array => {
                open.push(Open::Array(b.array()?));
                continue;
            }
            Event::Object => {
                open.push(Open::Object(b.object()?, Cow::Borrowed("")));
                continue;
            }
            Event::Key(key) => {
                if let Some(Open::Object(_, name)) = open.last_mut() {
                    *name = key.to_cow();
                }
                continue;
            }
            Event::End => match open.pop() {
                Some(Open::Array(array)) => b.end_array(array)?,
                Some(Open::Object(object, _)) => b.end_object(object)?,
                None => unreachable!("an end closes an open container"),
            },
        };
        // The finished value joins its container, or is the document's.
        match open.last_mut() {
            Some(Open::Array(array)) => b.push(array, value)?,
            Some(Open::Object(object, name)) => b.member(object, name, value)?,
            None => return Ok(value),
        }
    }
}
