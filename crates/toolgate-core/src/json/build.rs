use super::{utf8, KeySet, Kind, Reader, SyntaxError};

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
        let v = value(&mut r, 0, self)?;
        r.finish()?;
        Ok(v)
    }
}

/// One value; every [`GUARD_EVERY`] levels the rest of the recursion makes sure of
/// room on the stack (a level's frame is small, so this many fit the red zone).
#[inline]
fn value<B: Build>(r: &mut Reader<'_>, depth: usize, b: &mut B) -> Result<B::Value, B::Error> {
    if depth.is_multiple_of(GUARD_EVERY) {
        crate::stack::guarded(|| value_here(r, depth, b))
    } else {
        value_here(r, depth, b)
    }
}

/// How many levels share one check for stack room.
const GUARD_EVERY: usize = 16;

fn value_here<B: Build>(r: &mut Reader<'_>, depth: usize, b: &mut B) -> Result<B::Value, B::Error> {
    match r.peek_kind()? {
        Kind::Null => {
            r.read_literal(Kind::Null)?;
            b.null()
        }
        k @ (Kind::True | Kind::False) => {
            r.read_literal(k)?;
            b.bool(k == Kind::True)
        }
        Kind::Number => {
            let n = r.read_number()?;
            // The reader checked the number's grammar: its text is ASCII.
            b.number(utf8(n.text).unwrap_or("0"))
        }
        Kind::String => b.string(&r.read_string()?.to_cow()),
        Kind::Array => {
            let mut array = b.array()?;
            if r.begin_array(depth)? {
                loop {
                    let item = value(r, depth + 1, b)?;
                    b.push(&mut array, item)?;
                    if !r.next_element()? {
                        break;
                    }
                }
            }
            b.end_array(array)
        }
        Kind::Object => {
            let mut object = b.object()?;
            if r.begin_object(depth)? {
                let mut keys = KeySet::new();
                loop {
                    let key = r.read_key(&mut keys)?.to_cow();
                    let item = value(r, depth + 1, b)?;
                    b.member(&mut object, &key, item)?;
                    if !r.next_member()? {
                        break;
                    }
                }
            }
            b.end_object(object)
        }
    }
}
