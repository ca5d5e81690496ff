//! Streamed instances: a value validated as its bytes arrive in chunks (a model's
//! tool-call arguments, as the provider streams them), refused as soon as no
//! continuation of the bytes read so far can be valid.
//!
//! [`Schema::stream`] gives a [`SchemaStream`]: each [`SchemaStream::feed`] says
//! [`Feed::Incomplete`] or [`Feed::Refused`], and [`SchemaStream::finish`] returns
//! exactly what [`Schema::validate_json`] returns for the whole bytes. A refusal is
//! final: later feeds, and `finish`, give the same one. Each byte fed is read once by
//! an incremental reader; the values it completes are checked against their schemas
//! with the same walk `validate_json` runs, so a refusal's errors are the validator's
//! own (same texts, paths and schema locations).
//!
//! # When a rule refuses
//!
//! A refusal comes before `finish` only when no continuation can be valid. Each rule is
//! decided at the earliest byte below; what is not listed (and everything under the
//! in-place applicators) is decided when its value closes or at `finish`.
//!
//! | Rule | Refused at |
//! |------|------------|
//! | malformed JSON (bad byte, trailing comma, nesting over the limit, data after the value) | that byte |
//! | invalid UTF-8 in a string (the reader judges a string's UTF-8 once it has read it) | the string's closing quote |
//! | duplicate property | the `:` after its second name |
//! | `type` of a string, object, array, boolean or null; `false` | the value's first byte |
//! | `type` of a number (`integer` or `number`) | when the number closes |
//! | `additionalProperties: false` (no `properties` name, no `patternProperties` match) | the closing quote of the name |
//! | `enum`/`const` of strings only | the first character no listed string continues with (while the string has no escape), else at its close |
//! | `enum`/`const` of other values | when the value closes |
//! | `maxLength` | the character past the bound |
//! | `maxItems` | the first byte of the element past the bound |
//! | `maxProperties` | the closing quote of the name past the bound |
//! | `minimum`, `maximum`, `exclusive*`, `multipleOf` | when the number closes |
//! | `minLength`, `pattern`, `format` | when the string closes |
//! | `required`, `minItems`, `minProperties`, `contains`, `uniqueItems`, `dependent*`, `propertyNames` | when the object or array closes |
//! | `anyOf`, `oneOf`, `allOf`, `not`, `if`, `$ref` beside other keywords | when the value they apply to closes |
//! | `unevaluatedProperties`, `unevaluatedItems`, a dynamic `$dynamicRef` | when the enclosing value closes, or at `finish` |
//!
//! The keywords under an in-place applicator (a branch of `anyOf`, the target of a
//! `$ref` that sits beside other keywords) are never decided on their own: their value
//! is checked whole, when it closes.
//!
//! # What a refusal says
//!
//! A refusal lists the validator's errors for the value it is about. Most rules are
//! decided on a complete value (a closed string, number or object), and then these
//! errors are exactly among those [`Schema::validate_json`] reports for the whole
//! bytes. A few are decided on a value still open, and say what is known when they
//! are: `maxLength`, `maxItems` and `maxProperties` count what was read (`expected at
//! most 3 items, got 4` where the whole array may have 9), and a string refused by
//! `enum` or `const` quotes the characters read so far; their path, keyword and schema
//! location are the whole value's. One more case: bytes after a refusal can make the
//! whole malformed, and then `validate_json` reports only the malformed JSON: the
//! whole is invalid all the same.
//!
//! # Work
//!
//! Each byte fed is examined once, whatever the chunks (plain string content a run at
//! a time). A name, or a string whose schema has no string keywords, read to its
//! closing quote as plain ASCII among the bytes fed is taken at once, as one token:
//! nothing about it is decided before that quote. So is a literal whose schema checks
//! nothing but its type, when it is whole among the bytes fed, and such a number up to
//! the byte after it (a number's bytes are read in one loop in any case). A scalar is
//! walked again when it closes if its schema checks more than its type; an object or
//! array when it closes only if its schema has rules the stream does not count as it
//! reads (the in-place applicators, `enum`/`const`, the full profile's object and
//! array keywords), so the extra work is at most the bytes times the nesting of such
//! schemas.
//!
//! A value that may be whole in the bytes fed when its first byte is read is walked
//! at once, as `validate_json` walks it: an object or array when the bytes fed end
//! with a closing bracket of its kind, a string the stream would walk again at its
//! close when its closing quote may be among them, such a number when a byte follows
//! it. When it passes, the stream reads on after it: no byte of a value that is valid
//! whole can be one no continuation makes valid. When it is still open, or refused,
//! the stream reads it byte by byte to find the byte that decides, and the walk was
//! spent in vain; such walks stop once they add up to the bytes fed, so they at most
//! double the work. A valid call fed in one piece is thus walked once, as
//! `validate_json` walks it; one fed in small pieces is mostly read byte by byte.
//!
//! A stream keeps the bytes fed, up to a refusal. When the whole value was read and
//! nothing refused it, every rule was decided on the way, and `finish` returns at
//! once; it validates the bytes whole only where the stream left the verdict to it (a
//! program with a dynamic `$dynamicRef`, or bytes the stream's reading and the
//! reader's judged differently).

use std::collections::HashSet;
use std::ops::Deref;

use crate::json::{
    plain_ascii_end, utf8_sequence_len, JsonStr, Reader, SyntaxError, SyntaxErrorKind,
};

use super::keywords::array::ArrayGroup;
use super::keywords::choice::Choices;
use super::keywords::count::{self, Bounds};
use super::keywords::object::{self, Marks, Seen};
use super::keywords::types::{T_ARRAY, T_BOOLEAN, T_NULL, T_NUMBER, T_OBJECT, T_STRING};
use super::path::Seg;
use super::program::{Node, Program, SpecialKind, NONE};
use super::sink::{Collect, FirstError, Sink, W};
use super::walk::{walk_value, Cx};
use super::{syntax_error, Schema, ValidationError};

/// What a stream says after a feed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feed<'s> {
    /// No rule is broken yet by every continuation: feed more, or finish.
    Incomplete,
    /// No continuation can be valid: the errors (sorted as `validate_json` sorts
    /// them). Final: later feeds and `finish` give the same.
    Refused(&'s [ValidationError]),
}

impl Feed<'_> {
    /// True for [`Feed::Refused`].
    pub fn is_refused(&self) -> bool {
        matches!(self, Feed::Refused(_))
    }
}

/// An instance validated as its bytes arrive: see the [module](self) for when each
/// rule refuses. Dropping it does nothing.
///
/// The stream [`Schema::stream`] gives, which borrows its schema.
pub type SchemaStream<'s> = SchemaStreamOf<&'s Schema>;

/// A [`SchemaStream`] over any handle to its schema: `&Schema` (what
/// [`Schema::stream`] gives) or one that owns it, such as `Arc<Schema>`, for a host
/// that keeps the stream where no borrow can reach (a binding's object).
///
/// ```
/// use std::sync::Arc;
/// use toolgate_core::schema::{Feed, SchemaStreamOf};
/// use toolgate_core::Schema;
/// let schema = Arc::new(Schema::compile(br#"{"type":"array","maxItems":1}"#).unwrap());
/// let mut stream = SchemaStreamOf::new(Arc::clone(&schema));
/// drop(schema);
/// assert_eq!(stream.feed(b"[1,"), Feed::Incomplete);
/// assert!(stream.feed(b"2]").is_refused());
/// ```
pub struct SchemaStreamOf<S: Deref<Target = Schema>> {
    schema: S,
    engine: Engine,
}

impl Schema {
    /// A stream of this schema: feed it an instance's bytes in chunks of any size.
    ///
    /// ```
    /// use toolgate_core::schema::Feed;
    /// use toolgate_core::Schema;
    /// let schema = Schema::compile(br#"{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}"#).unwrap();
    /// let mut stream = schema.stream();
    /// assert_eq!(stream.feed(br#"{"n":"#), Feed::Incomplete);
    /// let Feed::Refused(errors) = stream.feed(br#" "five"}"#) else { panic!() };
    /// assert_eq!(errors[0].message, "expected integer, got string");
    /// assert_eq!(stream.bytes_before_refusal(), Some(7));
    /// ```
    pub fn stream(&self) -> SchemaStream<'_> {
        SchemaStreamOf::new(self)
    }
}

impl<S: Deref<Target = Schema>> SchemaStreamOf<S> {
    /// A stream of the schema `schema` leads to (what [`Schema::stream`] gives, for a
    /// handle that may own the schema).
    pub fn new(schema: S) -> Self {
        let engine = Engine::new(&schema);
        SchemaStreamOf { schema, engine }
    }

    /// This stream listing at most `max` violations, as
    /// [`Schema::validate_json_at_most`]: a refusal lists the first `max` and then, when
    /// there were more, the `violations` error that says so (its walk stopping there),
    /// and [`SchemaStreamOf::finish`] returns exactly what `validate_json_at_most` returns
    /// for the whole bytes. For untrusted bytes whose errors go back to a model or a
    /// log; a stream lists every violation unless told.
    ///
    /// ```
    /// use toolgate_core::schema::Feed;
    /// use toolgate_core::Schema;
    /// let schema = Schema::compile(br#"{"type":"object","required":["a","b"]}"#).unwrap();
    /// let mut stream = schema.stream().at_most(1);
    /// assert_eq!(stream.feed(b"{"), Feed::Incomplete);
    /// assert!(stream.feed(b"}").is_refused());
    /// let lines: Vec<String> = stream.finish().iter().map(|e| e.to_string()).collect();
    /// assert_eq!(lines, [
    ///     "$: missing required property \"a\"",
    ///     "$: more violations not listed (the first 1 are)",
    /// ]);
    /// ```
    pub fn at_most(mut self, max: usize) -> Self {
        self.engine = self.engine.listing_at_most(max);
        self
    }

    /// Reads `bytes`, the next part of the instance.
    pub fn feed(&mut self, bytes: &[u8]) -> Feed<'_> {
        self.engine.feed(&self.schema, bytes);
        self.engine.verdict()
    }

    /// What the stream says now, without feeding.
    pub fn verdict(&self) -> Feed<'_> {
        self.engine.verdict()
    }

    /// The verdict on the whole bytes: exactly [`Schema::validate_json`]'s (or
    /// [`Schema::validate_json_at_most`]'s, for a stream [`SchemaStreamOf::at_most`]),
    /// unless the stream was refused, and then its refusal.
    pub fn finish(mut self) -> Vec<ValidationError> {
        match self.engine.refusal.take() {
            Some(errors) => errors,
            // The stream checked every rule as the value was read: the walk of the
            // whole bytes would find nothing.
            None if self.engine.verified() => Vec::new(),
            None => self
                .schema
                .validate_json_at_most(&self.engine.buf, self.engine.limit),
        }
    }

    /// How many bytes were fed.
    pub fn bytes_read(&self) -> usize {
        self.engine.fed
    }

    /// How many bytes had been read when the stream was refused (the refusal was
    /// decided at the last of them), or `None`.
    pub fn bytes_before_refusal(&self) -> Option<usize> {
        self.engine.refusal.as_ref().map(|_| self.engine.refused_at)
    }

    /// The bytes fed so far (up to the refusal, when refused).
    pub fn bytes(&self) -> &[u8] {
        &self.engine.buf
    }

    /// The work done so far: bytes read (by the incremental reader, or by the walk of a
    /// value fed whole), and bytes walked again (values walked when they closed, walks
    /// of values fed whole that decided nothing). For tests bounding the work.
    #[doc(hidden)]
    pub fn work(&self) -> (u64, u64) {
        (self.engine.scanned, self.engine.rewalked)
    }
}

/// The stream's state, apart from the schema (so a stream that owns its schema's
/// holder can keep one).
pub(crate) struct Engine {
    pub(crate) buf: Vec<u8>,
    pub(crate) fed: usize,
    pub(crate) refusal: Option<Vec<ValidationError>>,
    pub(crate) refused_at: usize,
    /// Early checks given up (the reader and this one disagree): `finish` decides.
    off: bool,
    state: State,
    frames: Vec<Frame>,
    /// The names of the open objects' members that their schemas do not list (a
    /// listed name's duplicate shows in the object's marks), the innermost object's
    /// last: their spans in the bytes (between the quotes) and whether they hold an
    /// escape. One list for every level, so an object costs no allocation of its own.
    keys: Vec<(usize, usize, bool)>,
    /// Where the scalar or key being read starts, and its schema.
    tok_start: usize,
    tok_node: Option<Node>,
    tok_res: Option<Node>,
    /// The opening quote of a name just read that repeats another of its object.
    dup_key: Option<usize>,
    text: Text,
    num: Num,
    lit: (&'static [u8], usize),
    root: Option<Node>,
    scanned: u64,
    rewalked: u64,
    /// Bytes walked by whole-value walks that could not decide (the value still open,
    /// or refused): they may not outgrow the bytes fed, which keeps the work linear.
    unsettled: usize,
    /// Where reading goes on after a value the walk settled whole.
    jump: Option<usize>,
    /// The last byte fed that is not whitespace (0 before any).
    last_token: u8,
    /// The most violations a refusal lists (see [`Schema::validate_json_at_most`]):
    /// unlimited in a [`SchemaStream`], the registry's listing in a streamed call.
    limit: usize,
    /// True when a walk for a refusal stopped past `limit`.
    more: std::cell::Cell<bool>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// A value (the whole one, after `:`, after `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    FirstValue,
    /// After `{`: a name or `}`.
    FirstKey,
    /// After `,` in an object: a name.
    Key,
    Colon,
    /// After a value in a container: `,` or its close.
    After,
    Text,
    Number,
    Literal,
    /// After the whole value: whitespace only.
    Done,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Esc {
    None,
    Backslash,
    /// In `\u` after `n` digits of value `v`.
    U(u8, u32),
    /// After a high surrogate: `\` then `u` must follow.
    LowBackslash,
    LowU,
}

/// The string (value or name) being read.
struct Text {
    key: bool,
    esc: Esc,
    high: bool,
    /// UTF-8 continuation bytes still due, and the range of the next.
    need: u8,
    lo: u8,
    hi: u8,
    chars: u64,
    max: u64,
    /// Bytes of content read, while plain (no escape).
    plain_len: usize,
    /// The `enum` and `const` strings still possible, while the string is plain.
    /// Where the string's first invalid UTF-8 sequence starts: the reader reads a string
    /// to its end before it judges its UTF-8, so that is refused at the closing quote
    /// (an error found before it, a control character, a bad escape, comes first).
    bad_utf8: Option<usize>,
    /// Where the UTF-8 sequence being read starts.
    seq_start: usize,
    /// (A bit per listed string, for lists of up to 64.)
    enum_alive: Option<u64>,
    const_alive: Option<u64>,
}

struct Frame {
    obj: bool,
    node: Option<Node>,
    res: Option<Node>,
    start: usize,
    count: u64,
    /// The opening quote of the current member's name.
    key: usize,
    child: Option<Node>,
    /// Where the unlisted members' names so far start on [`Engine::keys`], for the
    /// duplicate check; past [`KEYS_LISTED`] names, the set of them decoded instead.
    keys_from: usize,
    key_set: Option<HashSet<Box<[u8]>>>,
    seen: Option<Seen>,
}

impl Text {
    /// True when the next characters decide nothing but the count: no escape or
    /// UTF-8 sequence under way, no `enum` or `const` prefix to follow.
    #[inline(always)]
    fn counts_only(&self) -> bool {
        self.esc == Esc::None
            && self.need == 0
            && self.enum_alive.is_none()
            && self.const_alive.is_none()
    }

    /// The sequence at `seq_start` is not UTF-8: the string is malformed, which its
    /// closing quote decides; until then nothing else about it is decided early.
    fn invalid_utf8(&mut self) {
        self.bad_utf8.get_or_insert(self.seq_start);
        self.enum_alive = None;
        self.const_alive = None;
        self.max = u64::MAX;
    }
}

/// Why a step stopped reading.
enum Halt {
    Refused,
    Off,
}

type Step = Result<(), Halt>;

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// String content that is one character and decides nothing but a count: printable
/// ASCII, not a quote or backslash.
fn is_plain(b: u8) -> bool {
    (0x20..0x80).contains(&b) && b != b'"' && b != b'\\'
}

/// The node whose groups apply to a value of `node`, or `None` when the dynamic scope
/// decides it (left to the walk of an enclosing value, or to `finish`).
fn resolve(prog: &Program, mut node: Node) -> Option<Node> {
    while node.special {
        let special = prog.special_of(&node);
        if special.kind == SpecialKind::Dynamic {
            return None;
        }
        node = *prog.node(special.inner);
    }
    Some(node)
}

/// True when a closed scalar (whose first byte is `first`) has more to check against
/// `node` than its type, which its first byte decided (a number's waits for its close).
fn needs_walk(n: &Node, first: u8) -> bool {
    if n.special || n.rereads {
        return true;
    }
    match first {
        b'"' => n.string != NONE,
        b't' | b'f' | b'n' => false,
        _ => n.number != NONE || n.types & T_NUMBER == 0,
    }
}

/// The rules a closing container's frame counted as it was read: `required` of an
/// object (when the stream kept which names it saw), `minItems`/`maxItems` of an array.
fn counted<'a, S: Sink<'a>>(prog: &Program, res: &Node, f: &Frame, sink: &mut S) -> W {
    if f.obj {
        match (prog.objects.get(res.object as usize), &f.seen) {
            (Some(g), Some(seen)) => object::check_required(g, seen, sink),
            _ => Ok(()),
        }
    } else {
        match prog.arrays.get(res.array as usize) {
            Some(g) => count::check(
                sink,
                g.at,
                f.count,
                &g.count,
                ("minItems", "maxItems"),
                ("item", "items"),
            ),
            None => Ok(()),
        }
    }
}

/// How many names an object's duplicate check compares one by one before it keeps
/// them in a set.
const KEYS_LISTED: usize = 16;

/// Whether the name `key`, read from `buf[start..=end]` (its quotes), repeats one of
/// `keys` (or `set`); else it joins them.
fn repeated(
    buf: &[u8],
    keys: &mut Vec<(usize, usize, bool)>,
    from: usize,
    set: &mut Option<HashSet<Box<[u8]>>>,
    start: usize,
    end: usize,
    key: crate::json::JsonStr<'_>,
) -> bool {
    let decode = |s: usize| {
        Reader::new(buf, 1)
            .at(s - 1)
            .read_string()
            .map(|k| k.to_cow().into_owned().into_bytes().into_boxed_slice())
            .unwrap_or_default()
    };
    if let Some(set) = set {
        return !set.insert(key.to_cow().as_bytes().into());
    }
    let raw = &buf[start + 1..end];
    let escaped = key.has_escapes();
    for &(s, e, other_escaped) in &keys[from..] {
        let same = match escaped || other_escaped {
            false => &buf[s..e] == raw,
            true => *decode(s) == *key.to_cow().as_bytes(),
        };
        if same {
            return true;
        }
    }
    if keys.capacity() == 0 {
        // The first name of the stream: room for the names of a typical call's
        // objects in one allocation.
        keys.reserve(KEYS_LISTED);
    }
    keys.push((start + 1, end, escaped));
    if keys.len() - from > KEYS_LISTED {
        *set = Some(keys.drain(from..).map(|(s, _, _)| decode(s)).collect());
    }
    false
}

/// The buffers of a stream (its bytes, its open containers, the unlisted names), kept
/// emptied for the thread's next stream: a stream per tool call made and freed them
/// each time, about a tenth of streaming a small call in 16-byte chunks.
#[derive(Default)]
struct Buffers {
    buf: Vec<u8>,
    frames: Vec<Frame>,
    keys: Vec<(usize, usize, bool)>,
}

thread_local! {
    static SPARE_BUFFERS: std::cell::Cell<Option<Buffers>> = const { std::cell::Cell::new(None) };
}

/// The most bytes of buffers a thread keeps between streams (a stream that grew more
/// frees them).
const SPARE_BUFFERS_MAX: usize = 64 * 1024;

impl Drop for Engine {
    fn drop(&mut self) {
        let mut kept = Buffers {
            buf: std::mem::take(&mut self.buf),
            frames: std::mem::take(&mut self.frames),
            keys: std::mem::take(&mut self.keys),
        };
        let room = kept.buf.capacity()
            + kept.frames.capacity() * std::mem::size_of::<Frame>()
            + kept.keys.capacity() * std::mem::size_of::<(usize, usize, bool)>();
        if room <= SPARE_BUFFERS_MAX {
            kept.buf.clear();
            kept.frames.clear();
            kept.keys.clear();
            crate::spare::keep(&SPARE_BUFFERS, kept);
        }
    }
}

impl Engine {
    pub(crate) fn new(schema: &Schema) -> Engine {
        let Buffers { buf, frames, keys } = crate::spare::take(&SPARE_BUFFERS);
        Engine {
            buf,
            fed: 0,
            refusal: None,
            refused_at: 0,
            off: false,
            state: State::Value,
            frames,
            keys,
            tok_start: 0,
            tok_node: None,
            tok_res: None,
            dup_key: None,
            text: Text {
                key: false,
                esc: Esc::None,
                high: false,
                need: 0,
                lo: 0,
                hi: 0,
                chars: 0,
                max: u64::MAX,
                plain_len: 0,
                bad_utf8: None,
                seq_start: 0,
                enum_alive: None,
                const_alive: None,
            },
            num: Num::Int,
            lit: (b"", 0),
            root: (!schema.prog.dynamic).then_some(schema.root),
            scanned: 0,
            rewalked: 0,
            unsettled: 0,
            jump: None,
            last_token: 0,
            limit: usize::MAX,
            more: std::cell::Cell::new(false),
        }
    }

    /// True when the whole value was read, nothing refused, and every rule that
    /// applies to it was decided as it was read: each value, when it closed, was
    /// checked against its schema for what its first byte, its names and its counts
    /// did not decide (see [`Engine::close`] and `needs_walk`). Not in a program with
    /// a dynamic `$dynamicRef`, whose scope only the walk of the whole knows, nor once
    /// early checks were given up (`off`). Then `validate_json` of the bytes is empty.
    pub(crate) fn verified(&self) -> bool {
        self.refusal.is_none() && !self.off && self.state == State::Done && self.root.is_some()
    }

    pub(crate) fn verdict(&self) -> Feed<'_> {
        match &self.refusal {
            Some(errors) => Feed::Refused(errors),
            None => Feed::Incomplete,
        }
    }

    /// A refusal decided outside the reader (a registry's size limit).
    pub(crate) fn refuse_with(&mut self, errors: Vec<ValidationError>) {
        if self.refusal.is_none() {
            self.refusal = Some(errors);
            self.refused_at = self.fed;
        }
    }

    pub(crate) fn feed(&mut self, s: &Schema, bytes: &[u8]) {
        if self.refusal.is_some() {
            self.fed += bytes.len();
            return;
        }
        let from = self.buf.len();
        if self.buf.capacity() == 0 {
            self.buf.reserve(bytes.len().max(256));
        }
        self.buf.extend_from_slice(bytes);
        self.fed += bytes.len();
        if let Some(&b) = bytes.iter().rev().find(|&&b| !is_ws(b)) {
            self.last_token = b;
        }
        if self.off {
            return;
        }
        let end = self.buf.len();
        let mut pos = from;
        let halt = loop {
            if pos >= end {
                break None;
            }
            // One look at the state per turn: past the run of bytes from `pos` that
            // change nothing but a count, then the step at the byte that ends it.
            let (at, stepped) = self.turn(s, pos, end);
            pos = at;
            let Some(stepped) = stepped else {
                break None;
            };
            if let Err(halt) = stepped {
                // A token read at once halts at its last byte, where reading went on.
                if let Some(to) = self.jump.take() {
                    pos = to - 1;
                }
                break Some(halt);
            }
            pos = match self.jump.take() {
                Some(to) => to,
                None => pos + 1,
            };
        };
        // Every byte up to the one that halted the reading was examined once.
        let examined = if halt.is_some() { pos + 1 } else { end };
        self.scanned += (examined - from) as u64;
        match halt {
            None => {}
            Some(Halt::Refused) => {
                self.refused_at = pos + 1;
                self.buf.truncate(pos + 1);
            }
            Some(Halt::Off) => self.off = true,
        }
    }

    /// A turn of the feed loop from `pos` (before `end`), with one look at the state:
    /// past the bytes that change nothing but a count (plain string content, see
    /// [`Engine::plain_run`]; a number's digits; whitespace between tokens), then the
    /// state's step at the byte that ends them, at the position returned; no step
    /// (`None`) when the bytes fed end first. Most runs are empty (compact JSON,
    /// one-digit numbers): the first byte decides that before any loop.
    #[inline(always)]
    fn turn(&mut self, s: &Schema, pos: usize, end: usize) -> (usize, Option<Step>) {
        let b = self.buf[pos];
        match self.state {
            State::Text => {
                let at = if is_plain(b) {
                    self.plain_run(pos, end)
                } else if b >= 0x80 && self.text.counts_only() {
                    self.non_ascii_run(pos, end)
                } else {
                    return (pos, Some(self.text_byte(s, pos, b)));
                };
                match self.buf[..end].get(at) {
                    Some(&b) => (at, Some(self.text_byte(s, at, b))),
                    None => (at, None),
                }
            }
            State::Number
                if b.is_ascii_digit() && matches!(self.num, Num::Int | Num::Frac | Num::Exp) =>
            {
                let digits = self.buf[pos..end].iter().take_while(|b| b.is_ascii_digit());
                let at = pos + digits.count();
                match self.buf[..end].get(at) {
                    Some(&b) => (at, Some(self.number_byte(s, at, b))),
                    None => (at, None),
                }
            }
            State::Number => (pos, Some(self.number_byte(s, pos, b))),
            State::Literal => (pos, Some(self.literal_byte(s, pos, b))),
            _ if is_ws(b) => {
                let spaces = self.buf[pos..end].iter().take_while(|&&b| is_ws(b));
                let at = pos + spaces.count();
                match self.buf[..end].get(at) {
                    Some(&b) => (at, Some(self.token(s, at, b))),
                    None => (at, None),
                }
            }
            _ => (pos, Some(self.token(s, pos, b))),
        }
    }

    /// Inside a string with nothing to decide per character (no escape or UTF-8
    /// sequence under way, no `enum` prefix to follow, the length bound not reached):
    /// past the bytes from `pos` that are plain printable ASCII, read at once.
    // Always inlined: the feed loop's string content goes through here, and a second
    // caller (`non_ascii_run`) must not turn it into a call there.
    #[inline(always)]
    fn plain_run(&mut self, pos: usize, end: usize) -> usize {
        if !self.text.counts_only() {
            return pos;
        }
        let t = &mut self.text;
        let room = usize::try_from(t.max.saturating_sub(t.chars)).unwrap_or(usize::MAX);
        let limit = end.min(pos.saturating_add(room));
        // Whole words at once: the reader's scan.
        let at = plain_ascii_end(&self.buf[..limit], pos);
        let run = at - pos;
        t.chars += run as u64;
        t.plain_len += run;
        at
    }

    /// [`Engine::plain_run`] from a non-ASCII byte (when the characters decide nothing
    /// but the count): past the whole well-formed characters from `pos` (each counted
    /// as one) and the plain ASCII between them.
    /// Those are what the byte-by-byte path would count and decide nothing about; a
    /// character cut off by the end of the bytes fed, a malformed sequence, and the
    /// character past the bound are left to it. Out of line: ASCII text never comes
    /// here.
    #[inline(never)]
    fn non_ascii_run(&mut self, pos: usize, end: usize) -> usize {
        let mut at = pos;
        // (After a malformed sequence the byte path counts no more non-ASCII bytes:
        // the string is refused at its close whatever follows.)
        while self.text.chars < self.text.max && self.text.bad_utf8.is_none() {
            // Cut off by the end of the bytes fed, or malformed: `None`.
            let Some(len) = utf8_sequence_len(&self.buf[..end], at) else {
                break;
            };
            self.text.chars += 1;
            self.text.plain_len += len;
            at = self.plain_run(at + len, end);
            if self.buf[..end].get(at).is_none_or(|&b| b < 0x80) {
                break;
            }
        }
        at
    }

    /// A refusal that lists at most `limit` violations (see
    /// [`Schema::validate_json_at_most`]); a stream's own refusals list every one.
    pub(crate) fn listing_at_most(mut self, limit: usize) -> Engine {
        self.limit = limit;
        self
    }

    fn refuse(&mut self, mut errors: Vec<ValidationError>) -> Step {
        super::close_listing(&mut errors, self.more.get(), self.limit);
        self.refusal = Some(errors);
        Err(Halt::Refused)
    }

    /// Malformed JSON at byte `pos`: the reader's own error for the bytes up to it,
    /// when the reader agrees they cannot be completed; else early checks stop.
    fn malformed(&mut self, s: &Schema, pos: usize) -> Step {
        // No violation is listed (the first stops the walk): only malformed JSON counts.
        let errors = s.validate_json_at_most(&self.buf[..=pos], 0);
        let agreed = matches!(errors.as_slice(), [e] if e.keyword == "json"
            && !e.message.ends_with("unexpected end of input")
            && !e.message.ends_with("found end of input"));
        if agreed {
            self.refuse(errors)
        } else {
            Err(Halt::Off)
        }
    }

    fn step(&mut self, s: &Schema, pos: usize, b: u8) -> Step {
        match self.state {
            State::Text => self.text_byte(s, pos, b),
            State::Number => self.number_byte(s, pos, b),
            State::Literal => self.literal_byte(s, pos, b),
            _ if is_ws(b) => Ok(()),
            _ => self.token(s, pos, b),
        }
    }

    fn literal_byte(&mut self, s: &Schema, pos: usize, b: u8) -> Step {
        let (want, i) = self.lit;
        if want[i] != b {
            return self.malformed(s, pos);
        }
        self.lit.1 += 1;
        if self.lit.1 == want.len() {
            self.scalar_done(s, pos + 1)?;
        }
        Ok(())
    }

    /// A byte between values (no whitespace): a value's first, a name's opening
    /// quote, a `:`, a `,` or a closing bracket.
    #[inline(always)]
    fn token(&mut self, s: &Schema, pos: usize, b: u8) -> Step {
        match self.state {
            State::Value => self.begin_value(s, pos, b),
            State::FirstValue if b == b']' => self.close(s, pos, false),
            State::FirstValue => self.begin_value(s, pos, b),
            State::FirstKey if b == b'}' => self.close(s, pos, true),
            State::FirstKey | State::Key if b == b'"' => self.begin_key(s, pos),
            State::Colon if b == b':' => {
                self.state = State::Value;
                match self.dup_key {
                    Some(start) => {
                        let e = SyntaxError::new(SyntaxErrorKind::DuplicateKey, start);
                        let error = syntax_error(&e, &self.buf[..=pos], s.prog.masked);
                        self.refuse(vec![error])
                    }
                    None => Ok(()),
                }
            }
            State::After => {
                let obj = self.frames.last().is_some_and(|f| f.obj);
                // The name or value right after a `,` is read in the same turn.
                match (b, obj) {
                    (b',', true) => {
                        self.state = State::Key;
                        if self.buf.get(pos + 1) == Some(&b'"') {
                            return self.begin_key(s, pos + 1);
                        }
                    }
                    (b',', false) => {
                        self.state = State::Value;
                        if self.buf.get(pos + 1).is_some_and(|&b| !is_ws(b)) {
                            return self.value_at(s, pos + 1);
                        }
                    }
                    (b'}', true) => return self.close(s, pos, true),
                    (b']', false) => return self.close(s, pos, false),
                    _ => return self.malformed(s, pos),
                }
                Ok(())
            }
            _ => self.malformed(s, pos),
        }
    }

    /// The path to the values at nesting `upto` (the segments of the first `upto`
    /// containers' current members).
    fn segs<'b>(&self, buf: &'b [u8], upto: usize) -> Vec<Seg<'b>> {
        self.frames[..upto]
            .iter()
            .map(|f| {
                if f.obj {
                    let key = Reader::new(buf, 1)
                        .at(f.key)
                        .read_string()
                        .expect("a name the stream has read");
                    Seg::Key(key)
                } else {
                    Seg::Index(f.count.saturating_sub(1) as usize)
                }
            })
            .collect()
    }

    /// A collecting sink at the path of nesting `upto`.
    fn sink_at<'s>(&'s self, s: &'s Schema, upto: usize) -> Collect<'s, 's> {
        let mut sink = Collect::new(&s.prog);
        for seg in self.segs(&self.buf, upto) {
            sink.push(seg);
        }
        sink
    }

    /// The walk's errors for `input[start..]` (one whole value) against `node`, at
    /// the path of nesting `depth`: at most `limit` of them (the walk stops past it and
    /// notes that there were more).
    #[allow(clippy::too_many_arguments)]
    fn walk_errors(
        &self,
        s: &Schema,
        input: &[u8],
        start: usize,
        node: &Node,
        depth: usize,
        limit: usize,
    ) -> Result<Vec<ValidationError>, Halt> {
        let mut cx = Cx::new(&s.prog);
        let mut sink = Collect::new(&s.prog).at_most(limit);
        let buf = &self.buf;
        for seg in self.segs(buf, depth) {
            sink.push(seg);
        }
        let mut r = Reader::new(input, s.max_depth).at(start);
        match walk_value(&mut cx, node, &mut r, depth, &mut sink) {
            Err(super::sink::Stop::Syntax(_)) => Err(Halt::Off),
            _ => {
                if sink.more {
                    self.more.set(true);
                }
                Ok(sink.errors)
            }
        }
    }

    /// Checks the whole value `buf[start..end]` against `node` at nesting `depth`.
    fn check_value(
        &mut self,
        s: &Schema,
        start: usize,
        end: usize,
        node: &Node,
        depth: usize,
    ) -> Step {
        self.rewalked += (end - start) as u64;
        let mut cx = Cx::new(&s.prog);
        let mut r = Reader::new(&self.buf[..end], s.max_depth).at(start);
        match walk_value(&mut cx, node, &mut r, depth, &mut FirstError) {
            Ok(()) => return Ok(()),
            Err(super::sink::Stop::Syntax(_)) => return Err(Halt::Off),
            Err(super::sink::Stop::Invalid) => {}
        }
        drop(cx);
        let errors = self.walk_errors(s, &self.buf[..end], start, node, depth, self.limit)?;
        // None listed and none past the listing: the two walks disagree. (A listing of
        // at most 0 lists none, and says there were more.)
        if errors.is_empty() && !self.more.get() {
            return Err(Halt::Off);
        }
        self.refuse(errors)
    }

    fn value_node(&self) -> Option<Node> {
        match self.frames.last() {
            None => self.root,
            Some(f) => f.child,
        }
    }

    fn begin_value(&mut self, s: &Schema, pos: usize, b: u8) -> Step {
        let prog = &s.prog;
        let depth = self.frames.len();
        let bit = match b {
            b'"' => T_STRING,
            b'{' => T_OBJECT,
            b'[' => T_ARRAY,
            b't' | b'f' => T_BOOLEAN,
            b'n' => T_NULL,
            // A number's type is decided when it closes (`integer` or `number`).
            b'-' | b'0'..=b'9' => 0,
            _ => return self.malformed(s, pos),
        };
        if matches!(b, b'{' | b'[') && depth >= s.max_depth {
            return self.malformed(s, pos);
        }
        // An array's element: counted as it starts, against `maxItems`.
        let mut over = None;
        if let Some(f) = self.frames.last_mut() {
            if !f.obj {
                f.count += 1;
                self.set_element_node(s);
                let f = self.frames.last().expect("an array");
                let group = f.res.and_then(|r| prog.arrays.get(r.array as usize));
                over = group
                    .filter(|g| g.count.max.is_some_and(|m| f.count > m))
                    .map(|g| (g, f.count));
            }
        }
        let node = self.value_node();
        let res = node.and_then(|n| resolve(prog, n));
        // `false` refuses any value at once, as does a `type` without this one's.
        let refused = res.is_some_and(|r| match bit {
            0 => r.is_never(),
            bit => r.types & bit == 0,
        });
        if over.is_some() || refused {
            return self.refuse_at_start(s, b, over, refused.then_some(node).flatten());
        }
        // A container, or a scalar the stream would walk again at its close, may be
        // whole in the bytes fed already (not when this is the last of them).
        let whole_worth = match b {
            b'{' | b'[' => true,
            _ => node.is_some_and(|n| needs_walk(&n, b)),
        };
        if whole_worth && self.may_settle(s, pos) {
            if let Some(end) = self.settle_whole(s, pos, node.as_ref(), depth) {
                self.value_done();
                self.jump = Some(end);
                return Ok(());
            }
        }
        match b {
            b'"' if !whole_worth => {
                // No rule of the string's own (its schema has no string keywords, or
                // there is none): plain ASCII up to its closing quote decides nothing.
                match self.plain_text_end(pos) {
                    Ok(close) => {
                        self.value_done();
                        self.jump = Some(close + 1);
                    }
                    Err(at) => self.begin_text_past(s, pos, at, node, res, false),
                }
            }
            b'"' => self.begin_text(s, pos, node, res, false),
            b'{' | b'[' => {
                let obj = b == b'{';
                // Marks for the schema's names: for `required` at the close, and for
                // the duplicate check of a name the schema lists.
                let seen = res.and_then(|r| {
                    let g = prog.objects.get(r.object as usize)?;
                    obj.then(|| Seen::with_room(g.names.len()))
                });
                if self.frames.capacity() == 0 {
                    self.frames.reserve(4);
                }
                self.frames.push(Frame {
                    obj,
                    node,
                    res,
                    start: pos,
                    count: 0,
                    key: 0,
                    child: None,
                    keys_from: self.keys.len(),
                    key_set: None,
                    seen,
                });
                self.state = if obj {
                    State::FirstKey
                } else {
                    State::FirstValue
                };
            }
            b't' | b'f' | b'n' => {
                let want: &'static [u8] = match b {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                // Whole among the bytes fed, with nothing to check but its type (which
                // its first byte decided): read at once.
                if !whole_worth && self.buf[pos..].starts_with(want) {
                    self.value_done();
                    self.jump = Some(pos + want.len());
                    return Ok(());
                }
                self.tok_start = pos;
                self.tok_node = node;
                self.lit = (want, 1);
                self.state = State::Literal;
            }
            _ => self.begin_number(pos, b, node, whole_worth),
        }
        Ok(())
    }

    /// A number starts at `pos` (its first byte `b`), a value of `node`, which is
    /// walked again when it closes if `walked_at_close` (it has more to check than its
    /// type). Its bytes fed are read in one loop: up to its close (the byte after it,
    /// which the container reads), a byte that cannot go on (which `number_byte`
    /// refuses), or the end of the bytes fed.
    fn begin_number(&mut self, pos: usize, b: u8, node: Option<Node>, walked_at_close: bool) {
        self.tok_start = pos;
        self.tok_node = node;
        self.state = State::Number;
        let mut num = match b {
            b'-' => Num::Minus,
            b'0' => Num::Zero,
            _ => Num::Int,
        };
        let mut at = pos + 1;
        while let Some(&c) = self.buf.get(at) {
            match next_num(num, c) {
                Ok(Some(next)) => num = next,
                Ok(None) if !walked_at_close => {
                    // Closed, with nothing to check but its type.
                    self.value_done();
                    self.jump = Some(at);
                    return;
                }
                Ok(None) | Err(()) => break,
            }
            at += 1;
        }
        self.num = num;
        self.jump = Some(at);
    }

    /// The refusal of a value at its first byte `b`: the element past `maxItems` of
    /// the array it starts in (`over`: the array's group and its count of elements),
    /// and the type its schema `node` refuses it for.
    #[cold]
    #[inline(never)]
    fn refuse_at_start(
        &mut self,
        s: &Schema,
        b: u8,
        over: Option<(&ArrayGroup, u64)>,
        node: Option<Node>,
    ) -> Step {
        let depth = self.frames.len();
        let mut errors = Vec::new();
        if let Some((g, count)) = over {
            let bounds = Bounds {
                min: None,
                max: g.count.max,
            };
            let mut sink = self.sink_at(s, depth - 1);
            let _ = count::check(
                &mut sink,
                g.at,
                count,
                &bounds,
                ("minItems", "maxItems"),
                ("item", "items"),
            );
            errors.extend(sink.errors);
        }
        if let Some(n) = node {
            let synth: &[u8] = match b {
                b'"' => b"\"\"",
                b'{' => b"{}",
                b'[' => b"[]",
                b't' => b"true",
                b'f' => b"false",
                b'n' => b"null",
                _ => b"0",
            };
            // A value of a few bytes: every error, which decides; the refusal then
            // lists at most the limit.
            errors.extend(self.walk_errors(s, synth, 0, &n, depth, usize::MAX)?);
        }
        self.refuse(errors)
    }

    /// Whether the value that starts at `start` may be whole in the bytes fed, and is
    /// worth walking at once (see [`Engine::settle_whole`]): not in a program with a
    /// dynamic `$dynamicRef` (the scope is the whole walk's), nor once the walks that
    /// settled nothing add up to the bytes fed, nor while the byte that would close it
    /// is not fed yet. A container is tried only when the bytes fed end with a closer of
    /// its kind: that is where a whole call ends, and a container closed further back
    /// in a chunk is not worth a search of the chunk at every container's start (small
    /// chunks seldom hold one). Inlined, so most values that are not worth it cost no
    /// call.
    #[inline(always)]
    fn may_settle(&self, s: &Schema, start: usize) -> bool {
        let fed = self.buf.len();
        if s.prog.dynamic || self.unsettled >= fed || start + 1 >= fed {
            return false;
        }
        match self.buf[start] {
            b'{' => self.last_token == b'}',
            b'[' => self.last_token == b']',
            b'"' => self.buf[start + 1..].contains(&b'"'),
            _ => true,
        }
    }

    /// A value that starts at `start` and may be whole in the bytes fed
    /// ([`Engine::may_settle`]), walked at once against its schema (`node`, or none:
    /// well-formed JSON) as `validate_json` walks it: when it passes, where it ends.
    /// Reading goes on there, since no byte of a value that passes whole can be one no
    /// continuation makes valid (its container's rules, counted at its first byte and
    /// at its close, are not its own). Else (the value is still open, or refused),
    /// `None`: the stream reads it byte by byte, to find the byte that decides.
    #[inline(never)]
    fn settle_whole(
        &mut self,
        s: &Schema,
        start: usize,
        node: Option<&Node>,
        depth: usize,
    ) -> Option<usize> {
        let fed = self.buf.len();
        let mut r = Reader::new(&self.buf, s.max_depth).at(start);
        let passed = match node {
            Some(n) => walk_value(&mut Cx::new(&s.prog), n, &mut r, depth, &mut FirstError).is_ok(),
            None => r.skip_value(depth).is_ok(),
        };
        let end = r.pos();
        // A number read to the last byte fed may go on with more digits.
        let open = end >= fed && matches!(self.buf[start], b'-' | b'0'..=b'9');
        if passed && !open {
            return Some(end);
        }
        let walked = end.max(start + 1) - start;
        self.unsettled += walked;
        self.rewalked += walked as u64;
        None
    }

    /// The schema of the array's element that just started (elements are counted as
    /// they start: it is element `count - 1`).
    fn set_element_node(&mut self, s: &Schema) {
        let prog = &s.prog;
        let f = self.frames.last_mut().expect("an array");
        let n = f.count as usize - 1;
        f.child = f
            .res
            .and_then(|r| prog.arrays.get(r.array as usize))
            .and_then(|g| match &g.extra {
                Some(e) => e.prefix.get(n).or(g.items.as_ref()).copied(),
                None => g.items,
            });
    }

    /// `Ok` with where the string that starts at `pos` closes, when its content up to
    /// its closing quote is among the bytes fed and plain printable ASCII (no escape,
    /// no control byte, nothing to check as UTF-8): the names and most values of a
    /// call. Else `Err` with where that plain content stops (at an escape, a non-ASCII
    /// byte, the end of the bytes fed).
    #[inline(always)]
    fn plain_text_end(&self, pos: usize) -> Result<usize, usize> {
        let at = plain_ascii_end(&self.buf, pos + 1);
        match self.buf.get(at) {
            Some(b'"') => Ok(at),
            _ => Err(at),
        }
    }

    /// A member's name starts at `pos`: read at once when [`Engine::plain_text_end`]
    /// finds its close (and decided there, as the byte-by-byte reading decides it at
    /// its closing quote: plain content decides nothing before), else read on from
    /// where its plain content stops.
    #[inline(always)]
    fn begin_key(&mut self, s: &Schema, pos: usize) -> Step {
        match self.plain_text_end(pos) {
            Ok(close) => {
                self.tok_start = pos;
                self.text.plain_len = close - pos - 1;
                self.jump = Some(close + 1);
                self.key_done(s, close)
            }
            Err(at) => {
                self.begin_text_past(s, pos, at, None, None, true);
                Ok(())
            }
        }
    }

    /// A member's name that the object's schema lists with a subschema, found by its
    /// first bytes (`NameTable::known_key`, the look-up `validate_json` reads names
    /// with): the name's mark, the member count and the member's schema, as the
    /// general path of [`Engine::key_done`] sets them, without decoding the name or
    /// hashing it. `None` (nothing done) for any other name, for one past
    /// `maxProperties`, which the general path refuses, and while fewer than the four
    /// bytes `known_key` reads after the opening quote are fed.
    #[inline(always)]
    fn listed_key(&mut self, s: &Schema, start: usize) -> Option<()> {
        let f = self.frames.last_mut()?;
        let g = f.res.and_then(|r| s.prog.objects.get(r.object as usize))?;
        let (i, _, &Some(child)) = g.names.known_key(self.buf.get(start + 1..)?)? else {
            return None;
        };
        let count = f.count + 1;
        let extra = g.extra.as_deref();
        if extra.is_some_and(|e| e.count.max.is_some_and(|m| count > m)) {
            return None;
        }
        if !f.seen.as_mut()?.set(i) {
            // The `:` after the name refuses the repeat (see `key_done`).
            self.dup_key = Some(start);
            return Some(());
        }
        f.key = start;
        f.count = count;
        f.child = Some(child);
        Some(())
    }

    /// [`Engine::begin_text`] for a string with nothing to decide per character (no
    /// length bound, no `enum` or `const` prefix), whose plain content was read up to
    /// `at`: reading goes on there, with that content counted.
    fn begin_text_past(
        &mut self,
        s: &Schema,
        pos: usize,
        at: usize,
        node: Option<Node>,
        res: Option<Node>,
        key: bool,
    ) {
        self.begin_text(s, pos, node, res, key);
        debug_assert!(self.text.counts_only() && self.text.max == u64::MAX);
        let run = at - pos - 1;
        self.text.chars = run as u64;
        self.text.plain_len = run;
        self.jump = Some(at);
    }

    /// A string starts at `pos`: a member's name (`key`), or a value of `node`, whose
    /// groups are `res`'s.
    fn begin_text(
        &mut self,
        s: &Schema,
        pos: usize,
        node: Option<Node>,
        res: Option<Node>,
        key: bool,
    ) {
        let prog = &s.prog;
        self.tok_start = pos;
        self.tok_node = node;
        self.state = State::Text;
        self.tok_res = res;
        let strings = res.and_then(|r| prog.strings.get(r.string as usize));
        let choices = res
            .filter(|r| r.rereads)
            .and_then(|r| prog.choices.get(r.choice as usize));
        let alive = |c: Option<&Choices>| {
            c.and_then(|c| c.strings())
                .filter(|list| list.len() <= 64)
                .map(|list| match list.len() {
                    0 => 0,
                    n => u64::MAX >> (64 - n),
                })
        };
        self.text = Text {
            key,
            esc: Esc::None,
            high: false,
            need: 0,
            lo: 0,
            hi: 0,
            chars: 0,
            max: strings.and_then(|g| g.length.max).unwrap_or(u64::MAX),
            plain_len: 0,
            bad_utf8: None,
            seq_start: 0,
            enum_alive: alive(choices.and_then(|c| c.enum_.as_ref())),
            const_alive: alive(choices.and_then(|c| c.const_.as_ref())),
        };
    }

    fn text_byte(&mut self, s: &Schema, pos: usize, b: u8) -> Step {
        let t = &mut self.text;
        if t.need > 0 && (b < t.lo || b > t.hi) {
            // Not a continuation: the sequence is invalid, and this byte is read anew.
            t.need = 0;
            t.invalid_utf8();
        }
        if t.need > 0 {
            t.need -= 1;
            t.lo = 0x80;
            t.hi = 0xBF;
            self.plain_byte(s, b);
            if self.text.need == 0 {
                return self.char_done(s, pos);
            }
            return Ok(());
        }
        match t.esc {
            Esc::None => {}
            Esc::Backslash => {
                return match b {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                        t.esc = Esc::None;
                        self.char_done(s, pos)
                    }
                    b'u' => {
                        t.esc = Esc::U(0, 0);
                        Ok(())
                    }
                    _ => self.malformed(s, pos),
                };
            }
            Esc::U(n, v) => {
                let Some(d) = (b as char).to_digit(16) else {
                    return self.malformed(s, pos);
                };
                let v = v * 16 + d;
                if n < 3 {
                    t.esc = Esc::U(n + 1, v);
                    return Ok(());
                }
                t.esc = Esc::None;
                let high = (0xD800..0xDC00).contains(&v);
                let low = (0xDC00..0xE000).contains(&v);
                if t.high {
                    if !low {
                        return self.malformed(s, pos);
                    }
                    t.high = false;
                    return self.char_done(s, pos);
                }
                if low {
                    return self.malformed(s, pos);
                }
                if high {
                    t.high = true;
                    t.esc = Esc::LowBackslash;
                    return Ok(());
                }
                return self.char_done(s, pos);
            }
            Esc::LowBackslash => {
                if b != b'\\' {
                    return self.malformed(s, pos);
                }
                t.esc = Esc::LowU;
                return Ok(());
            }
            Esc::LowU => {
                if b != b'u' {
                    return self.malformed(s, pos);
                }
                t.esc = Esc::U(0, 0);
                return Ok(());
            }
        }
        match b {
            b'"' => {
                self.state = State::After;
                if let Some(at) = self.text.bad_utf8 {
                    let e = SyntaxError::new(SyntaxErrorKind::InvalidUtf8, at);
                    let error = syntax_error(&e, &self.buf[..=pos], s.prog.masked);
                    return self.refuse(vec![error]);
                }
                if self.text.key {
                    self.key_done(s, pos)
                } else {
                    self.scalar_done(s, pos + 1)
                }
            }
            b'\\' => {
                t.esc = Esc::Backslash;
                // An escape: the plain prefix checks stop (the value is checked whole
                // when it closes).
                t.enum_alive = None;
                t.const_alive = None;
                Ok(())
            }
            0..=0x1F => self.malformed(s, pos),
            0x20..=0x7F => {
                self.plain_byte(s, b);
                self.char_done(s, pos)
            }
            _ if t.bad_utf8.is_some() => Ok(()),
            _ => {
                t.seq_start = pos;
                let (need, lo, hi) = match b {
                    0xC2..=0xDF => (1, 0x80, 0xBF),
                    0xE0 => (2, 0xA0, 0xBF),
                    0xE1..=0xEC | 0xEE..=0xEF => (2, 0x80, 0xBF),
                    0xED => (2, 0x80, 0x9F),
                    0xF0 => (3, 0x90, 0xBF),
                    0xF1..=0xF3 => (3, 0x80, 0xBF),
                    0xF4 => (3, 0x80, 0x8F),
                    _ => {
                        t.invalid_utf8();
                        return Ok(());
                    }
                };
                let t = &mut self.text;
                t.need = need;
                t.lo = lo;
                t.hi = hi;
                self.plain_byte(s, b);
                Ok(())
            }
        }
    }

    /// A content byte of a plain string: the `enum`/`const` strings that continue
    /// with it stay possible.
    fn plain_byte(&mut self, s: &Schema, b: u8) {
        let t = &mut self.text;
        let at = t.plain_len;
        t.plain_len += 1;
        if t.enum_alive.is_none() && t.const_alive.is_none() {
            return;
        }
        let prog = &s.prog;
        let Some(c) = self
            .tok_res
            .and_then(|r| prog.choices.get(r.choice as usize))
        else {
            return;
        };
        let keep = |alive: &mut Option<u64>, choices: Option<&Choices>| {
            if let (Some(alive), Some(list)) = (alive.as_mut(), choices.and_then(|c| c.strings())) {
                let mut rest = *alive;
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if list[i].as_bytes().get(at) != Some(&b) {
                        *alive &= !(1u64 << i);
                    }
                }
            }
        };
        keep(&mut t.enum_alive, c.enum_.as_ref());
        keep(&mut t.const_alive, c.const_.as_ref());
    }

    /// A character of the string completed at byte `pos`.
    fn char_done(&mut self, s: &Schema, pos: usize) -> Step {
        let prog = &s.prog;
        let t = &mut self.text;
        t.chars += 1;
        let depth = self.frames.len();
        let mut errors = Vec::new();
        if t.chars > t.max {
            let n = t.chars;
            if let Some(g) = self
                .tok_res
                .and_then(|r| prog.strings.get(r.string as usize))
            {
                let bounds = Bounds {
                    min: None,
                    max: g.length.max,
                };
                let mut sink = self.sink_at(s, depth);
                let _ = count::check(
                    &mut sink,
                    g.at,
                    n,
                    &bounds,
                    ("minLength", "maxLength"),
                    ("character", "characters"),
                );
                errors.extend(sink.errors);
            }
        }
        let t = &self.text;
        let gone = |alive: &Option<u64>| *alive == Some(0);
        let (no_enum, no_const) = (gone(&t.enum_alive), gone(&t.const_alive));
        if no_enum || no_const {
            let node = self.tok_node.expect("a string with choices has a node");
            let mut synth = Vec::with_capacity(pos + 2 - self.tok_start);
            synth.extend_from_slice(&self.buf[self.tok_start..=pos]);
            synth.push(b'"');
            // A string read so far: every error, which decides (the refusal lists at
            // most the limit).
            let found = self.walk_errors(s, &synth, 0, &node, depth, usize::MAX)?;
            let before = errors.len();
            errors.extend(found.into_iter().filter(|e| {
                (no_enum && e.keyword == "enum") || (no_const && e.keyword == "const")
            }));
            if errors.len() == before {
                return Err(Halt::Off);
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            self.refuse(errors)
        }
    }

    /// A member's name closed (its closing quote at `pos`; it starts at `tok_start`):
    /// its rules decided, and in compact JSON the `:` right after it taken with it
    /// (unless the name repeats, which that `:` refuses).
    fn key_done(&mut self, s: &Schema, pos: usize) -> Step {
        self.state = State::Colon;
        if self.listed_key(s, self.tok_start).is_none() {
            self.name_rules(s, pos)?;
        }
        if self.dup_key.is_none() && self.buf.get(pos + 1) == Some(&b':') {
            self.state = State::Value;
            // The value right after the `:`, in the same turn.
            if self.buf.get(pos + 2).is_some_and(|&b| !is_ws(b)) {
                return self.value_at(s, pos + 2);
            }
            self.jump = Some(pos + 2);
        }
        Ok(())
    }

    /// [`Engine::begin_value`] at `at`, from a step that read the bytes before it:
    /// reading goes on where the value's start leaves it (past a token it read at
    /// once), else at the byte after `at`, which is also where a refusal halts.
    /// (`begin_value` calls back into no step, so these chains stay a few calls deep.)
    #[inline(always)]
    fn value_at(&mut self, s: &Schema, at: usize) -> Step {
        self.jump = None;
        let b = self.buf[at];
        let stepped = self.begin_value(s, at, b);
        if self.jump.is_none() {
            self.jump = Some(at + 1);
        }
        stepped
    }

    /// What a name decides, read in full: whether it repeats, the member's schema
    /// (`properties`, `patternProperties`, `additionalProperties`), and the refusals
    /// of `additionalProperties: false` and `maxProperties`.
    fn name_rules(&mut self, s: &Schema, pos: usize) -> Step {
        let prog = &s.prog;
        let depth = self.frames.len();
        let start = self.tok_start;
        let raw = &self.buf[start + 1..pos];
        let key = if self.text.plain_len == raw.len() {
            // No escape (each would have left content bytes uncounted), and every
            // byte read as UTF-8 (a bad sequence was refused at the quote): the
            // name is its bytes.
            JsonStr::new(raw, false, raw.is_ascii())
        } else {
            Reader::new(&self.buf[..=pos], 1)
                .at(start)
                .read_string()
                .map_err(|_| Halt::Off)?
        };
        let f = self.frames.last_mut().expect("an object");
        let group = f.res.and_then(|r| prog.objects.get(r.object as usize));
        let found = group.and_then(|g| g.names.find(&key));
        // A name the schema lists repeats when its mark is set already; the others are
        // compared with the object's other unlisted names.
        let repeats = match (f.seen.as_mut(), found) {
            (Some(seen), Some((i, _))) => !seen.set(i),
            _ => repeated(
                &self.buf,
                &mut self.keys,
                f.keys_from,
                &mut f.key_set,
                start,
                pos,
                key,
            ),
        };
        if repeats {
            // The reader reads a name's `:` before it looks for the name among the
            // others: the duplicate is reported there (and a missing `:` first).
            self.dup_key = Some(start);
            return Ok(());
        }
        f.key = start;
        f.count += 1;
        let count = f.count;
        f.child = None;
        let Some(g) = group else {
            return Ok(());
        };
        let named = found.and_then(|(_, n)| *n);
        let extra = g.extra.as_deref();
        let pattern = extra.and_then(|e| {
            e.patterns
                .iter()
                .find(|(p, _)| p.is_match(key))
                .map(|p| p.1)
        });
        let mut unexpected = false;
        f.child = match (named.or(pattern), &g.additional) {
            (Some(n), _) => Some(n),
            (None, Some(n)) if n.is_never() => {
                unexpected = true;
                None
            }
            (None, Some(n)) => Some(*n),
            // Left to `unevaluatedProperties` (or nothing): the object's walk at its
            // close decides.
            (None, None) => None,
        };
        let too_many = extra.and_then(|e| e.count.max.filter(|&m| count > m).map(|_| e));
        if !unexpected && too_many.is_none() {
            return Ok(());
        }
        let mut sink = self.sink_at(s, depth - 1);
        if let Some(e) = too_many {
            let bounds = Bounds {
                min: None,
                max: e.count.max,
            };
            let _ = count::check(
                &mut sink,
                g.at,
                count,
                &bounds,
                ("minProperties", "maxProperties"),
                ("property", "properties"),
            );
        }
        if unexpected {
            let _ = object::unexpected(g, "additionalProperties", key, &mut sink);
        }
        let errors = sink.errors;
        self.refuse(errors)
    }

    /// A string, number or literal closed: `end` is just past it.
    fn scalar_done(&mut self, s: &Schema, end: usize) -> Step {
        self.value_done();
        let first = self.buf[self.tok_start];
        match self.tok_node {
            Some(node) if needs_walk(&node, first) => {
                let depth = self.frames.len();
                self.check_value(s, self.tok_start, end, &node, depth)
            }
            _ => Ok(()),
        }
    }

    /// After a value: the next state of its container.
    fn value_done(&mut self) {
        self.state = if self.frames.is_empty() {
            State::Done
        } else {
            State::After
        };
    }

    /// A container closes at `pos`.
    fn close(&mut self, s: &Schema, pos: usize, obj: bool) -> Step {
        let prog = &s.prog;
        let f = self.frames.pop().expect("an open container");
        self.keys.truncate(f.keys_from);
        debug_assert_eq!(f.obj, obj);
        self.value_done();
        let depth = self.frames.len();
        let (Some(node), Some(res)) = (f.node, f.res) else {
            return Ok(());
        };
        let whole = node.special
            || res.rereads
            || (obj
                && prog
                    .objects
                    .get(res.object as usize)
                    .is_some_and(|g| g.extra.is_some()))
            || (!obj
                && prog
                    .arrays
                    .get(res.array as usize)
                    .is_some_and(|g| g.extra.is_some()));
        if whole {
            return self.check_value(s, f.start, pos + 1, &node, depth);
        }
        // The common case, passing, costs no collecting sink (whose path is made from
        // the bytes).
        if counted(prog, &res, &f, &mut FirstError).is_ok() {
            return Ok(());
        }
        let mut sink = self.sink_at(s, depth);
        let _ = counted(prog, &res, &f, &mut sink);
        let errors = sink.errors;
        if errors.is_empty() {
            return Ok(());
        }
        self.refuse(errors)
    }

    fn number_byte(&mut self, s: &Schema, pos: usize, b: u8) -> Step {
        match next_num(self.num, b) {
            Ok(Some(state)) => {
                self.num = state;
                Ok(())
            }
            Ok(None) => {
                // The number closed before this byte, which belongs to what follows.
                self.scalar_done(s, pos)?;
                self.step(s, pos, b)
            }
            Err(()) => self.malformed(s, pos),
        }
    }
}

/// A number's state after byte `b`: `Ok(None)` when the number closed before `b`
/// (which belongs to what follows), `Err` when `b` cannot go on from `num`.
#[inline(always)]
fn next_num(num: Num, b: u8) -> Result<Option<Num>, ()> {
    let digit = b.is_ascii_digit();
    Ok(Some(match (num, b) {
        (Num::Minus, b'0') => Num::Zero,
        (Num::Minus, _) if digit => Num::Int,
        (Num::Zero, _) if digit => return Err(()),
        (Num::Int, _) if digit => Num::Int,
        (Num::Zero | Num::Int, b'.') => Num::Dot,
        (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::E,
        (Num::Dot | Num::Frac, _) if digit => Num::Frac,
        (Num::E, b'+' | b'-') => Num::ESign,
        (Num::E | Num::ESign | Num::Exp, _) if digit => Num::Exp,
        (Num::Zero | Num::Int | Num::Frac | Num::Exp, _) => return Ok(None),
        _ => return Err(()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Options, Profile};

    /// Feeds `input` byte by byte; the bytes read when refused, and the first error.
    /// Fed in two pieces, cut at any byte (the whole at once among them), it is refused
    /// at the same byte with the same first error: the names and strings read at once
    /// when a piece holds them whole, and the values walked whole, decide at the byte
    /// the byte-by-byte reading decides at.
    fn refusal(schema: &str, full: bool, input: &str) -> Option<(usize, ValidationError)> {
        let opts = if full {
            Options::default().with_profile(Profile::Full)
        } else {
            Options::default()
        };
        let schema = Schema::compile_with(schema.as_bytes(), &opts).unwrap();
        let byte_by_byte = refusal_in(&schema, input.as_bytes().chunks(1));
        let bytes = input.as_bytes();
        for cut in 0..=bytes.len() {
            let pieces = [&bytes[..cut], &bytes[cut..]];
            assert_eq!(
                refusal_in(&schema, pieces.into_iter()),
                byte_by_byte,
                "{input} cut at {cut}"
            );
        }
        byte_by_byte
    }

    /// Feeds the pieces in turn; the bytes read when refused, and the first error.
    fn refusal_in<'a>(
        schema: &Schema,
        pieces: impl Iterator<Item = &'a [u8]>,
    ) -> Option<(usize, ValidationError)> {
        let mut stream = schema.stream();
        for b in pieces {
            if let Feed::Refused(errors) = stream.feed(b) {
                let first = errors[0].clone();
                let at = stream.bytes_before_refusal().unwrap();
                // Final: more bytes, and finish, say the same.
                assert!(matches!(stream.feed(b"]}"), Feed::Refused(e) if e[0] == first));
                let errors = stream.finish();
                assert_eq!(errors[0], first);
                return Some((at, first));
            }
        }
        None
    }

    fn at(schema: &str, input: &str, byte: usize, keyword: &str, message: &str) {
        at_in(schema, false, input, byte, keyword, message);
    }

    fn at_in(schema: &str, full: bool, input: &str, byte: usize, keyword: &str, message: &str) {
        let (got, e) = refusal(schema, full, input)
            .unwrap_or_else(|| panic!("{input} is not refused under {schema}"));
        assert_eq!(
            (got, e.keyword, e.message.as_str()),
            (byte, keyword, message),
            "{input} under {schema}"
        );
    }

    const N_INT: &str = r#"{"type":"object","properties":{"n":{"type":"integer","minimum":3}},"additionalProperties":false,"required":["n"]}"#;

    /// A stream leaves its buffers, emptied, for the thread's next one, which starts
    /// with their room and none of their bytes; a stream whose buffers grew past the
    /// bound frees them instead.
    #[test]
    fn a_stream_leaves_its_buffers_empty_for_the_next_one() {
        std::thread::spawn(|| {
            let schema = Schema::compile(N_INT.as_bytes()).unwrap();
            let mut first = schema.stream();
            assert_eq!(first.feed(br#"{"n":"#), Feed::Incomplete);
            assert_eq!(first.feed(b"4}"), Feed::Incomplete);
            assert!(first.finish().is_empty());
            let kept = crate::spare::take(&SPARE_BUFFERS);
            assert!(kept.buf.capacity() >= 7 && kept.frames.capacity() >= 1);
            assert!(kept.buf.is_empty() && kept.frames.is_empty() && kept.keys.is_empty());
            crate::spare::keep(&SPARE_BUFFERS, kept);
            // The next stream starts from them, with none of the bytes before.
            let mut second = schema.stream();
            assert!(second.bytes().is_empty() && second.engine.buf.capacity() >= 7);
            assert!(second.feed(br#"{"n":1}"#).is_refused());
            assert_eq!(second.bytes(), br#"{"n":1}"#);
            drop(second);
            // A stream fed more than the bound keeps nothing.
            let long = format!(r#"{{"n":4{}}}"#, " ".repeat(SPARE_BUFFERS_MAX));
            let mut large = schema.stream();
            assert_eq!(large.feed(long.as_bytes()), Feed::Incomplete);
            assert!(large.finish().is_empty());
            let kept = crate::spare::take(&SPARE_BUFFERS);
            assert_eq!(kept.buf.capacity(), 0, "the large buffer was kept");
        })
        .join()
        .unwrap();
    }

    #[test]
    fn malformed_json_at_its_byte() {
        at(
            N_INT,
            r#"{"n":3,}"#,
            8,
            "json",
            "malformed JSON at line 1 column 8: trailing comma",
        );
        at(
            N_INT,
            r#"{"n":03"#,
            7,
            "json",
            "malformed JSON at line 1 column 6: leading zero in a number",
        );
        at(
            N_INT,
            r#"{"n":3} x"#,
            9,
            "json",
            "malformed JSON at line 1 column 9: unexpected data after the value, found 'x'",
        );
        at(
            "{}",
            "\"\u{1}",
            2,
            "json",
            "malformed JSON at line 1 column 2: unescaped control character in string",
        );
        assert!(refusal(N_INT, false, r#"{"n":3"#).is_none());
    }

    /// Numbers and literals with nothing to check but their type are read at once
    /// when the bytes fed hold them whole: malformed ones are refused at the byte the
    /// byte-by-byte reading refuses (`at` also feeds each input cut at every byte).
    #[test]
    fn numbers_and_literals_read_at_once_refused_at_their_byte() {
        let invalid_number =
            |column: usize| format!("malformed JSON at line 1 column {column}: invalid number");
        at("{}", r#"{"a":-x"#, 7, "json", &invalid_number(7));
        at("{}", r#"{"a":-}"#, 7, "json", &invalid_number(7));
        at("{}", r#"{"a":1.}"#, 8, "json", &invalid_number(8));
        at("{}", r#"{"a":1e}"#, 8, "json", &invalid_number(8));
        at("{}", r#"{"a":0.5e+,"#, 11, "json", &invalid_number(11));
        at(
            "{}",
            r#"{"a":01}"#,
            7,
            "json",
            "malformed JSON at line 1 column 6: leading zero in a number",
        );
        let invalid_literal = "malformed JSON at line 1 column 6: invalid literal";
        at("{}", r#"{"a":tru}"#, 9, "json", invalid_literal);
        at("{}", r#"{"a":nul,"#, 9, "json", invalid_literal);
        at("{}", r#"{"a":falsy"#, 10, "json", invalid_literal);
        at(
            "{}",
            r#"{"a":truex}"#,
            10,
            "json",
            "malformed JSON at line 1 column 10: expected ',' or '}', found 'x'",
        );
        at(
            "{}",
            r#"{"a":1 2}"#,
            8,
            "json",
            "malformed JSON at line 1 column 8: expected ',' or '}', found '2'",
        );
        at(
            "{}",
            r#"[1,-0.5e+3,true,null,false,2E-1]x"#,
            33,
            "json",
            "malformed JSON at line 1 column 33: unexpected data after the value, found 'x'",
        );
        // A number's type and bounds still decide when it closes, a literal's type at
        // its first byte, whatever was fed with them.
        at(
            N_INT,
            r#"{"n":2,"m":true}"#,
            7,
            "minimum",
            "2 is less than the minimum 3",
        );
        at(
            r#"{"items":{"type":"number"}}"#,
            r#"[1,2.5,null]"#,
            8,
            "type",
            "expected number, got null",
        );
        at(
            r#"{"properties":{"b":{"enum":[false,null]}}}"#,
            r#"{"b":true,"c":1}"#,
            9,
            "enum",
            "true is not one of [false,null]",
        );
        // An `integer` with no other rule: walked when it closes (`2.0` is one).
        let integer = r#"{"properties":{"i":{"type":"integer"}}}"#;
        at(
            integer,
            r#"{"i":1.5,"j":1}"#,
            9,
            "type",
            "expected integer, got number",
        );
        at(
            integer,
            r#"{"i":-7e-1}"#,
            11,
            "type",
            "expected integer, got number",
        );
        for valid in [
            r#"{"i":12,"j":1.5}"#,
            r#"{"i":-0}"#,
            r#"{"i":2.0}"#,
            r#"{"i":1e2}"#,
        ] {
            assert!(refusal(integer, false, valid).is_none(), "{valid}");
        }
        for valid in [
            r#"[1,-0.5e+3,true,null,false,2E-1,0,-0]"#,
            r#"{"a":10,"b":[false]}"#,
        ] {
            assert!(refusal("{}", false, valid).is_none(), "{valid}");
        }
    }

    /// Feeds raw bytes one at a time: the bytes read when refused, and the errors.
    fn refused_bytes(schema: &str, input: &[u8]) -> Option<(usize, Vec<ValidationError>)> {
        let schema = Schema::compile(schema.as_bytes()).unwrap();
        let mut stream = schema.stream();
        for b in input.chunks(1) {
            if let Feed::Refused(errors) = stream.feed(b) {
                let errors = errors.to_vec();
                return Some((stream.bytes_before_refusal().unwrap(), errors));
            }
        }
        None
    }

    #[test]
    fn nesting_past_the_limit_at_the_bracket_that_passes_it() {
        let opts = Options::default().with_max_depth(2);
        let schema = Schema::compile_with(b"{}", &opts).unwrap();
        let mut stream = schema.stream();
        assert_eq!(stream.feed(b"[["), Feed::Incomplete);
        let Feed::Refused(errors) = stream.feed(b"{") else {
            panic!("too deep");
        };
        assert_eq!(errors, schema.validate_json(b"[[{}]]"));
        assert_eq!(stream.bytes_before_refusal(), Some(3));
    }

    #[test]
    fn invalid_utf8_when_its_string_closes() {
        // The reader judges a string's UTF-8 once it has read the string: a control
        // character or a bad escape later in it is the error, and the end of input.
        for (input, byte) in [
            (&b"[\"a\xc3(b\""[..], 7),
            (b"[\"\xff\"", 4),
            (b"{\"\xe2\x82\":1}", 5),
            (b"[\"\xc3\x01", 4),
            (b"[\"\xc3\\x", 5),
        ] {
            let (at, errors) = refused_bytes("{}", input).expect("refused");
            assert_eq!(at, byte, "{input:x?}");
            let schema = Schema::compile(b"{}").unwrap();
            assert_eq!(errors, schema.validate_json(input), "{input:x?}");
        }
        assert!(refused_bytes("{}", b"[\"\xc3(").is_none());
        assert!(refused_bytes("{}", b"[\"\xc3\xa9").is_none());
    }

    #[test]
    fn a_duplicate_name_at_the_colon_after_it() {
        // Without the colon, the reader's error is the missing colon.
        assert!(refusal(N_INT, false, r#"{"n":3,"n""#).is_none());
        at(
            N_INT,
            r#"{"n":3,"n"}"#,
            11,
            "json",
            "malformed JSON at line 1 column 11: expected ':', found '}'",
        );
        at(
            N_INT,
            r#"{"n":3,"n":"#,
            11,
            "json",
            "malformed JSON at line 1 column 8: duplicate property \"n\"",
        );
    }

    #[test]
    fn a_duplicate_name_by_value_and_past_the_listed_names() {
        at(
            "{}",
            r#"{"a":1,"\u0061" :"#,
            17,
            "json",
            "malformed JSON at line 1 column 8: duplicate property \"a\"",
        );
        let mut many = String::from("{");
        for i in 0..40 {
            many.push_str(&format!("\"k{i}\":{i},"));
        }
        let first = many.len();
        many.push_str("\"k\\u0033\":");
        let (byte, e) = refusal("{}", false, &many).expect("refused");
        assert_eq!((byte, e.keyword), (many.len(), "json"));
        assert!(
            e.message.ends_with("duplicate property \"k3\""),
            "{}",
            e.message
        );
        assert!(
            e.message.contains(&format!("column {}", first + 1)),
            "{}",
            e.message
        );
        many.truncate(first);
        many.push_str("\"k40\":1}");
        assert!(refusal("{}", false, &many).is_none());
    }

    #[test]
    fn a_duplicate_of_a_listed_name_and_of_an_unlisted_one() {
        // A name the schema lists is told apart by its mark, an unlisted one by the
        // names read before it: both repeat by value, escapes or not.
        let listed = r#"{"properties":{"a":{},"b":{},"location":{}}}"#;
        for (input, name, at) in [
            (r#"{"a":1,"c":2,"a":"#, "a", 17),
            (r#"{"c":1,"a":2,"c":"#, "c", 17),
            (r#"{"b":1,"c":2,"a":3,"c":"#, "c", 23),
            // With the bytes after it fed, a listed name is found by its first bytes:
            // the repeat is refused at its `:` all the same.
            (r#"{"a":1,"a":2}"#, "a", 11),
            (r#"{"location":"x","location":"y"}"#, "location", 27),
        ] {
            let (byte, e) = refusal(listed, false, input).expect("refused");
            assert_eq!((byte, e.keyword), (at, "json"), "{input}");
            assert!(
                e.message
                    .ends_with(&format!("duplicate property \"{name}\"")),
                "{input}: {}",
                e.message
            );
        }
        assert!(refusal(listed, false, r#"{"a":1,"c":2,"b":3,"d":4}"#).is_none());
    }

    #[test]
    fn a_wrong_type_at_the_first_byte_and_a_number_when_it_closes() {
        at(
            N_INT,
            r#"{"n":""#,
            6,
            "type",
            "expected integer, got string",
        );
        at(N_INT, r#"{"n":["#, 6, "type", "expected integer, got array");
        at(
            N_INT,
            r#"{"n":t"#,
            6,
            "type",
            "expected integer, got boolean",
        );
        at(N_INT, r#"["#, 1, "type", "expected object, got array");
        at(
            N_INT,
            r#"{"n":4.5}"#,
            9,
            "type",
            "expected integer, got number",
        );
        at(
            r#"{"properties":{"a":false}}"#,
            r#"{"a":1"#,
            6,
            "false",
            "no value is allowed here",
        );
    }

    #[test]
    fn an_unexpected_property_at_its_closing_quote() {
        at(
            N_INT,
            r#"{"x""#,
            4,
            "additionalProperties",
            "unexpected property \"x\"; did you mean \"n\"?",
        );
        let patterned = r#"{"patternProperties":{"^a":{}},"additionalProperties":false}"#;
        assert!(refusal(patterned, true, r#"{"ab":1"#).is_none());
        at_in(
            patterned,
            true,
            r#"{"ab":1,"b""#,
            11,
            "additionalProperties",
            "unexpected property \"b\"",
        );
    }

    #[test]
    fn enum_and_const_once_no_member_can_match() {
        let colours = r#"{"enum":["red","green"]}"#;
        at(
            colours,
            r#""gx"#,
            3,
            "enum",
            r#""gx" is not one of ["red","green"]"#,
        );
        assert!(refusal(colours, false, r#""gree"#).is_none());
        at(
            colours,
            r#""greens""#,
            7,
            "enum",
            r#""greens" is not one of ["red","green"]"#,
        );
        at(
            r#"{"const":"on"}"#,
            r#""of"#,
            3,
            "const",
            r#""of" is not equal to "on""#,
        );
        at(
            r#"{"enum":[1,2]}"#,
            "3 ",
            2,
            "enum",
            "3 is not one of [1,2]",
        );
        // An escape stops the prefix check: the string is decided when it closes.
        assert!(refusal(colours, false, r#""\u0067x"#).is_none());
    }

    #[test]
    fn non_ascii_text_in_any_chunks_as_byte_by_byte() {
        // A run of whole non-ASCII characters is read at once; one cut off by the end
        // of the bytes fed, a malformed one, or the one past `maxLength` is left to
        // the byte-by-byte path. Every split of the bytes into two feeds (and three,
        // around each character) must refuse at the byte, with the errors, that one
        // byte at a time does, and finish the same.
        let cases: &[(&str, &[u8])] = &[
            (r#"{"maxLength":4}"#, "\"Zür東😀\"".as_bytes()),
            (r#"{"maxLength":4}"#, "\"Zür東😀!\"".as_bytes()),
            (
                r#"{"type":"object","properties":{"café":{"maxLength":2}},"additionalProperties":false}"#,
                "{\"café\":\"éé\",\"naïve\":1}".as_bytes(),
            ),
            (
                r#"{"type":"object","properties":{"café":{"maxLength":2}}}"#,
                "{\"café\":\"ééé\"}".as_bytes(),
            ),
            // Malformed UTF-8 after whole characters: refused at the closing quote.
            (r#"{"type":"string"}"#, b"\"\xc3\xa9\xe6\x9d\xb1\xe6\x9d\"x"),
            (r#"{"type":"string"}"#, b"\"\xc3\xa9\xed\xa0\x80\xc3\xa9\""),
            (
                r#"{"type":"string"}"#,
                b"\"\xc3\xa9\xf0\x9f\x98\x80\xc3\xa9\"",
            ),
            (r#"{"enum":["héllo","hélas"]}"#, "\"hé€\"".as_bytes()),
        ];
        for &(schema_text, input) in cases {
            let schema = Schema::compile(schema_text.as_bytes()).unwrap();
            let feed_all = |cuts: &[usize]| {
                let mut stream = schema.stream();
                let mut from = 0;
                let mut refused = None;
                for &to in cuts.iter().chain([&input.len()]) {
                    if let Feed::Refused(errors) = stream.feed(&input[from..to]) {
                        let errors = errors.to_vec();
                        refused = Some((stream.bytes_before_refusal(), errors));
                        break;
                    }
                    from = to;
                }
                (refused, stream.finish())
            };
            let by_byte: Vec<usize> = (1..input.len()).collect();
            let want = feed_all(&by_byte);
            for a in 0..=input.len() {
                assert_eq!(feed_all(&[a]), want, "{schema_text}: cut at {a}");
                for b in a..=input.len().min(a + 5) {
                    assert_eq!(feed_all(&[a, b]), want, "{schema_text}: cuts {a}, {b}");
                }
            }
        }
    }

    #[test]
    fn counts_on_overflow() {
        at(
            r#"{"maxLength":3}"#,
            r#""abcdef""#,
            5,
            "maxLength",
            "expected at most 3 characters, got 4",
        );
        at(
            r#"{"maxLength":1}"#,
            "\"\u{e9}\u{e9}",
            5,
            "maxLength",
            "expected at most 1 character, got 2",
        );
        at(
            r#"{"maxItems":1}"#,
            "[1, 2, 3]",
            5,
            "maxItems",
            "expected at most 1 item, got 2",
        );
        at_in(
            r#"{"maxProperties":1}"#,
            true,
            r#"{"a":1,"b":2}"#,
            10,
            "maxProperties",
            "expected at most 1 property, got 2",
        );
        // The same with names the schema lists (found by their first bytes when the
        // bytes after them are fed).
        at_in(
            r#"{"properties":{"a":{},"b":{}},"maxProperties":1}"#,
            true,
            r#"{"a":1,"b":2}"#,
            10,
            "maxProperties",
            "expected at most 1 property, got 2",
        );
    }

    #[test]
    fn bounds_and_closing_rules_when_their_value_closes() {
        at(
            N_INT,
            r#"{"n":2}"#,
            7,
            "minimum",
            "2 is less than the minimum 3",
        );
        at(
            N_INT,
            r#"{}"#,
            2,
            "required",
            "missing required property \"n\"",
        );
        at(
            r#"{"minItems":2}"#,
            "[1]",
            3,
            "minItems",
            "expected at least 2 items, got 1",
        );
        at(
            r#"{"minLength":2}"#,
            r#""a""#,
            3,
            "minLength",
            "expected at least 2 characters, got 1",
        );
        let choice = r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#;
        assert!(refusal(choice, false, "[1").is_none());
        assert_eq!(refusal(choice, false, "[1]").unwrap().0, 3);
    }

    #[test]
    fn prefixes_of_valid_instances_are_never_refused() {
        let schema = Schema::compile(N_INT.as_bytes()).unwrap();
        let valid = br#" { "n" : 30 } "#;
        let mut stream = schema.stream();
        for b in valid.chunks(1) {
            assert_eq!(stream.feed(b), Feed::Incomplete);
        }
        assert!(stream.finish().is_empty());
        // Empty input is malformed for validate_json: decided at finish.
        assert_eq!(schema.stream().finish(), schema.validate_json(b""));
    }
}
