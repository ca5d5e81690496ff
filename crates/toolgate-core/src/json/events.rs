//! A whole document read as a flat sequence of [`Event`]s, without recursion: the
//! open containers are kept on a [`Stack`] (an object with the keys it has had so far,
//! for the duplicate check), so a receiver that builds a tree of the document
//! (a [`Build`](super::Build), the compact tree of a schema) keeps its own open
//! containers in a loop too, and a document nested to the depth limit needs the same
//! small call stack as a flat one.

use super::{JsonStr, KeySet, Kind, Reader, Stack, SyntaxError};

/// One step of a document, in its order.
#[derive(Debug)]
pub(crate) enum Event<'a> {
    Null,
    Bool(bool),
    /// A number's text as written (its grammar checked, so ASCII).
    Number(&'a [u8]),
    String(JsonStr<'a>),
    /// An array opens: its elements follow, then [`Event::End`].
    Array,
    /// An object opens: its members follow (each a [`Event::Key`], then the value),
    /// then [`Event::End`].
    Object,
    /// The name of the open object's next member.
    Key(JsonStr<'a>),
    /// The innermost open container closes.
    End,
}

/// What the reader expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// A value.
    Value,
    /// The first name of the object just opened.
    FirstKey,
    /// The end of the container just opened, which is empty.
    EmptyEnd,
    /// After a value: a separator or the enclosing container's close.
    After,
    /// After the whole document's value.
    Done,
}

/// The events of the value at a reader's cursor; `None` once it is read. The caller
/// calls [`Reader::finish`] after, for the whole document.
pub(crate) struct Events<'r, 'a> {
    r: &'r mut Reader<'a>,
    /// The open containers, outermost first: true for an object.
    open: Stack<bool, 32>,
    /// The key sets of the open objects, outermost first, and past them those of
    /// closed ones kept for the next object at their level (emptied then): a key set
    /// is large, and moving a new one in for each object cost more than reading it.
    /// Inline for four levels, so a shallow document allocates nothing here.
    keys: Stack<KeySet<'a>, 4>,
    /// How many objects are open: the innermost one's key set is `keys[objects - 1]`.
    objects: usize,
    next: Next,
}

impl<'r, 'a> Events<'r, 'a> {
    pub(crate) fn new(r: &'r mut Reader<'a>) -> Self {
        Events {
            r,
            open: Stack::new(),
            keys: Stack::new(),
            objects: 0,
            next: Next::Value,
        }
    }

    /// The next event, in the order the recursive reading of the value would meet
    /// it, so malformed input stops at the same byte with the same error.
    #[inline]
    pub(crate) fn next(&mut self) -> Result<Option<Event<'a>>, SyntaxError> {
        let more = match self.next {
            Next::Value => return self.value().map(Some),
            Next::EmptyEnd => {
                self.next = self.after_value();
                return Ok(Some(Event::End));
            }
            Next::Done => return Ok(None),
            Next::FirstKey => true,
            Next::After => match self.open.last_mut() {
                Some(true) => self.r.next_member()?,
                Some(false) => self.r.next_element()?,
                None => {
                    self.next = Next::Done;
                    return Ok(None);
                }
            },
        };
        if !more {
            if self.open.pop() == Some(true) {
                self.objects -= 1;
            }
            self.next = self.after_value();
            return Ok(Some(Event::End));
        }
        self.next = Next::Value;
        if self.open.last_mut() != Some(&mut true) {
            return self.value().map(Some);
        }
        match self.keys.get_mut(self.objects.wrapping_sub(1)) {
            Some(keys) => Ok(Some(Event::Key(self.r.read_key(keys)?))),
            None => unreachable!("an open object has its key set"),
        }
    }

    /// What follows a complete value: more of its container, or nothing.
    fn after_value(&mut self) -> Next {
        if self.open.len() == 0 {
            Next::Done
        } else {
            Next::After
        }
    }

    /// The value at the cursor: a scalar whole, or a container's opening.
    #[inline]
    fn value(&mut self) -> Result<Event<'a>, SyntaxError> {
        let depth = self.open.len();
        let event = match self.r.peek_kind()? {
            Kind::Null => {
                self.r.read_literal(Kind::Null)?;
                Event::Null
            }
            k @ (Kind::True | Kind::False) => {
                self.r.read_literal(k)?;
                Event::Bool(k == Kind::True)
            }
            Kind::Number => Event::Number(self.r.read_number()?.text),
            Kind::String => Event::String(self.r.read_string()?),
            Kind::Array => {
                self.next = if self.r.begin_array(depth)? {
                    self.open.push(false);
                    Next::Value
                } else {
                    Next::EmptyEnd
                };
                return Ok(Event::Array);
            }
            Kind::Object => {
                self.next = if self.r.begin_object(depth)? {
                    self.open.push(true);
                    match self.keys.get_mut(self.objects) {
                        Some(keys) => keys.clear(),
                        None => self.keys.push(KeySet::new()),
                    }
                    self.objects += 1;
                    Next::FirstKey
                } else {
                    Next::EmptyEnd
                };
                return Ok(Event::Object);
            }
        };
        self.next = self.after_value();
        Ok(event)
    }
}
