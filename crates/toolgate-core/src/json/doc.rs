//! The schema document as compiling reads it: a tree whose containers are slices and
//! whose strings are borrowed, all in one arena that is freed at once.
//!
//! A compile reads every member of a schema once and keeps none of them (the program
//! holds what it needs, in its own block), so the public [`Value`] tree, a heap
//! allocation per string, array and object and as many frees, cost more than the
//! compiler itself. [`Doc`] is the same tree with its containers made in a bump arena
//! and its strings borrowed from the input unless they had escapes: building it costs
//! a copy of each container's members, dropping it nothing.

use std::borrow::Cow;

use bumpalo::collections::Vec as BumpVec;
use bumpalo::Bump;

use super::build::{read_tree, Gather};
use super::write::{write_compact_tree, JsonTree, TreeNode};
use super::{write_json_string, Decimal, JsonStr, Reader, SyntaxError, Value};

/// A JSON value in an arena (see the module docs): the shape of [`Value`], borrowed.
/// (Compared only in tests: a derived comparison recurses per level.)
#[derive(Clone, Copy)]
#[cfg_attr(test, derive(PartialEq))]
pub(crate) enum Doc<'d> {
    Null,
    Bool(bool),
    /// The number's text as written (validated RFC 8259 grammar).
    Number(&'d str),
    /// A string, unescaped.
    String(&'d str),
    Array(&'d [Doc<'d>]),
    /// An object's members in the author's order (keys are unique).
    Object(&'d [(&'d str, Doc<'d>)]),
}

/// Members and items the reader's stacks of open containers start with room for.
const OPEN_ROOM: usize = 16;

impl<'d> Doc<'d> {
    /// The arena room reading a document of `len` bytes takes: its tree (a tool
    /// schema's takes up to about four times its text) and the reader's stacks, which
    /// a small schema's text alone does not pay for; a huge document's arena starts at
    /// 4 MiB and grows as it needs. Short of it, the arena's first allocations past its
    /// room each made a new chunk, two of them for most small schemas.
    pub(crate) fn arena_room(len: usize) -> usize {
        let stacks = OPEN_ROOM * (size_of::<(&str, Doc<'_>)>() + size_of::<Doc<'_>>());
        len.saturating_mul(4).saturating_add(stacks).min(4 << 20)
    }

    /// Reads `input` strictly (as [`Value::parse`] does, with the same errors) into a
    /// tree in `arena`, and writes the document's compact text (what
    /// [`Value::to_compact`] writes) in the same pass: a schema is read once for both
    /// its tree and the text a tool definition sends.
    pub(crate) fn parse_compact(
        input: &'d [u8],
        max_depth: usize,
        arena: &'d Bump,
    ) -> Result<(Doc<'d>, String), SyntaxError> {
        let mut p = CompactDoc::<false> {
            arena,
            // Compact text is rarely longer than the input (only a re-escaped string
            // can be), so one allocation is the usual cost.
            out: String::with_capacity(input.len()),
            // The stacks of open containers' items, in the arena too: a tree's
            // temporary vectors cost no allocation of their own.
            members: BumpVec::with_capacity_in(OPEN_ROOM, arena),
            items: BumpVec::with_capacity_in(OPEN_ROOM, arena),
        };
        let mut r = Reader::new(input, max_depth);
        let v = read_tree(&mut r, &mut p)?;
        r.finish()?;
        Ok((v, p.out))
    }

    /// A copy of `v` in `arena` (a document handed in as a [`Value`]: an OpenAPI
    /// schema's translation). Through its text: both ways are loops, so no nesting
    /// deepens the call stack.
    pub(crate) fn from_value(v: &Value, arena: &'d Bump) -> Doc<'d> {
        let text = arena.alloc_str(&v.to_compact());
        match Doc::parse_compact(text.as_bytes(), usize::MAX, arena) {
            Ok((doc, _)) => doc,
            Err(_) => unreachable!("a value's compact text is JSON"),
        }
    }

    /// The same value as a [`Value`] (what a program keeps of an `enum` or `const`),
    /// through its text as [`Doc::from_value`].
    pub(crate) fn to_value(self) -> Value {
        match Value::parse(self.to_compact().as_bytes(), usize::MAX) {
            Ok(v) => v,
            Err(_) => unreachable!("a document's compact text is JSON"),
        }
    }

    /// The member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&'d Doc<'d>> {
        match *self {
            Doc::Object(m) => m.iter().find(|(k, _)| *k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A number's exact decimal value.
    pub(crate) fn as_decimal(&self) -> Option<Decimal<'d>> {
        match *self {
            Doc::Number(t) => Decimal::parse(t.as_bytes()),
            _ => None,
        }
    }

    /// The JSON type's name, `integer` for a number with no fractional part.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Doc::Null => "null",
            Doc::Bool(_) => "boolean",
            Doc::Number(_) if self.as_decimal().is_some_and(|d| d.is_integer()) => "integer",
            Doc::Number(_) => "number",
            Doc::String(_) => "string",
            Doc::Array(_) => "array",
            Doc::Object(_) => "object",
        }
    }

    /// Appends the value as compact JSON (as [`Value::write_compact`] does, through
    /// the same writer).
    pub(crate) fn write_compact(&self, out: &mut String) {
        write_compact_tree(self, out);
    }

    /// Compact JSON text.
    pub(crate) fn to_compact(self) -> String {
        let mut s = String::new();
        self.write_compact(&mut s);
        s
    }
}

/// A document read once into an arena of its own, kept beside it: a registered
/// resource or a built-in meta-schema, which many compiles read.
pub(crate) struct OwnedDoc {
    /// Borrows from `_arena` (never handed out as `'static`: see [`OwnedDoc::root`]).
    root: Doc<'static>,
    /// Holds the tree; never read, only dropped (after `root`, declared before it).
    _arena: Bump,
}

impl OwnedDoc {
    /// Reads `input` as [`Doc::parse_compact`] does (without the text).
    pub(crate) fn parse(input: &[u8], max_depth: usize) -> Result<OwnedDoc, SyntaxError> {
        let arena = Bump::new();
        let root = {
            let mut p = CompactDoc::<true> {
                arena: &arena,
                // Its text is written and dropped: a document is read once.
                out: String::new(),
                members: BumpVec::new_in(&arena),
                items: BumpVec::new_in(&arena),
            };
            let mut r = Reader::new(input, max_depth);
            let v = read_tree(&mut r, &mut p)?;
            r.finish()?;
            v
        };
        // SAFETY: `root` points only into the arena's chunks (`CompactDoc::<true>`
        // copies every string and number, so nothing borrows `input`). The chunks are heap blocks that stay
        // where they are when the `Bump` value moves, and are freed only when it
        // drops, with this struct. The `'static` never escapes: `root` hands the tree
        // out borrowed for as long as `self` is.
        let root = unsafe { std::mem::transmute::<Doc<'_>, Doc<'static>>(root) };
        Ok(OwnedDoc {
            root,
            _arena: arena,
        })
    }

    /// The document's root, for as long as `self` is borrowed.
    pub(crate) fn root(&self) -> &Doc<'_> {
        &self.root
    }
}

/// What is left of a [`Doc`] container's children, in order (see [`JsonTree`]).
pub(crate) enum DocChildren<'t, 'd> {
    Items(std::slice::Iter<'t, Doc<'d>>),
    Members(std::slice::Iter<'t, (&'d str, Doc<'d>)>),
}

impl<'t, 'd> Iterator for DocChildren<'t, 'd> {
    type Item = (Option<&'t str>, &'t Doc<'d>);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            DocChildren::Items(items) => items.next().map(|v| (None, v)),
            DocChildren::Members(members) => members.next().map(|(k, v)| (Some(*k), v)),
        }
    }
}

impl<'d> JsonTree for Doc<'d> {
    type Children<'t>
        = DocChildren<'t, 'd>
    where
        Self: 't;

    fn node(&self) -> TreeNode<'_, Self> {
        match self {
            Doc::Null => TreeNode::Literal("null"),
            Doc::Bool(b) => TreeNode::Literal(if *b { "true" } else { "false" }),
            Doc::Number(t) => TreeNode::Literal(t),
            Doc::String(s) => TreeNode::String(s),
            Doc::Array(items) => TreeNode::Array(DocChildren::Items(items.iter())),
            Doc::Object(members) => TreeNode::Object(DocChildren::Members(members.iter())),
        }
    }
}

/// Shown as its compact text, written in a loop: no nesting deepens the call stack.
impl std::fmt::Debug for Doc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_compact())
    }
}

impl std::fmt::Debug for OwnedDoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.root.fmt(f)
    }
}

// SAFETY: after `OwnedDoc::parse`, nothing allocates in the arena or reads its
// bookkeeping (the `Cell`s that make `Bump` neither `Send` nor `Sync`): the only
// access is to the tree, which is plain immutable data (slices and strings). Moving
// or sharing it between threads therefore shares only immutable bytes; the arena is
// freed once, by whichever thread drops the last owner.
unsafe impl Send for OwnedDoc {}
// SAFETY: as for `Send`.
unsafe impl Sync for OwnedDoc {}

/// The [`Gather`] of [`Doc`] trees that also writes the compact text. With `OWN`,
/// every string and number is copied into the arena, for a tree that outlives its
/// input ([`OwnedDoc`]); else they are borrowed from the input unless escaped.
struct CompactDoc<'d, const OWN: bool> {
    arena: &'d Bump,
    out: String,
    /// The members of the open objects, each object's from where it opened.
    members: BumpVec<'d, (&'d str, Doc<'d>)>,
    /// The elements of the open arrays, likewise.
    items: BumpVec<'d, Doc<'d>>,
}

impl<'d, const OWN: bool> CompactDoc<'d, OWN> {
    /// A string of the input as the tree keeps it: borrowed when it had no escapes.
    #[inline]
    fn keep(&self, s: Cow<'d, str>) -> &'d str {
        match s {
            Cow::Borrowed(s) if !OWN => s,
            s => self.arena.alloc_str(&s),
        }
    }

    /// Appends the string `text` as [`write_json_string`] does, without its
    /// reservation and escape scan for the usual token: one without escapes, which the
    /// reader has checked for quotes, backslashes and control bytes, so only DEL is left
    /// to look for (`needs_escape`, which looks for all four, cost a compile 4% more
    /// instructions: `bash benches/instructions.sh cycle_compile`).
    #[inline]
    fn push_string(&mut self, escaped: bool, text: &str) {
        if escaped || has_del(text.as_bytes()) {
            write_json_string(&mut self.out, text);
        } else {
            self.out.push('"');
            self.out.push_str(text);
            self.out.push('"');
        }
    }
}

impl<'d, const OWN: bool> Gather<'d> for CompactDoc<'d, OWN> {
    type Value = Doc<'d>;
    type Array = usize;
    type Object = usize;
    type Error = SyntaxError;

    #[inline]
    fn null(&mut self) -> Result<Doc<'d>, SyntaxError> {
        self.out.push_str("null");
        Ok(Doc::Null)
    }

    #[inline]
    fn bool(&mut self, b: bool) -> Result<Doc<'d>, SyntaxError> {
        self.out.push_str(if b { "true" } else { "false" });
        Ok(Doc::Bool(b))
    }

    #[inline]
    fn number(&mut self, text: &'d str) -> Result<Doc<'d>, SyntaxError> {
        self.out.push_str(text);
        Ok(Doc::Number(self.keep(Cow::Borrowed(text))))
    }

    #[inline]
    fn string(&mut self, s: JsonStr<'d>) -> Result<Doc<'d>, SyntaxError> {
        let text = plain_or_decoded(s);
        self.push_string(s.has_escapes(), &text);
        Ok(Doc::String(self.keep(text)))
    }

    #[inline]
    fn array(&mut self) -> Result<usize, SyntaxError> {
        self.out.push('[');
        Ok(self.items.len())
    }

    #[inline]
    fn push(&mut self, _: &mut usize, item: Doc<'d>) -> Result<(), SyntaxError> {
        self.items.push(item);
        Ok(())
    }

    #[inline]
    fn end_array(&mut self, start: usize) -> Result<Doc<'d>, SyntaxError> {
        self.out.push(']');
        let items = self.arena.alloc_slice_copy(&self.items[start..]);
        self.items.truncate(start);
        Ok(Doc::Array(items))
    }

    #[inline]
    fn object(&mut self) -> Result<usize, SyntaxError> {
        self.out.push('{');
        Ok(self.members.len())
    }

    #[inline]
    fn name(&mut self, key: JsonStr<'d>) -> Cow<'d, str> {
        let name = plain_or_decoded(key);
        self.push_string(key.has_escapes(), &name);
        self.out.push(':');
        name
    }

    #[inline]
    fn member(&mut self, _: &mut usize, name: Cow<'d, str>, v: Doc<'d>) -> Result<(), SyntaxError> {
        let name = self.keep(name);
        self.members.push((name, v));
        Ok(())
    }

    #[inline]
    fn end_object(&mut self, start: usize) -> Result<Doc<'d>, SyntaxError> {
        self.out.push('}');
        let members = self.arena.alloc_slice_copy(&self.members[start..]);
        self.members.truncate(start);
        Ok(Doc::Object(members))
    }

    #[inline]
    fn separator(&mut self) {
        self.out.push(',');
    }
}

/// `s` decoded, borrowed when it has no escape (most of a schema's names and strings),
/// without a call for those: `JsonStr::to_cow` stays out of line, since inlining it
/// costs the validating walk, which calls it for strings, 15 instructions a call.
#[inline(always)]
fn plain_or_decoded(s: JsonStr<'_>) -> Cow<'_, str> {
    match s.as_plain_str() {
        Some(plain) => Cow::Borrowed(plain),
        None => s.to_cow(),
    }
}

/// Whether `bytes` holds a DEL (0x7F), eight bytes at a time and inline: most of a
/// schema's strings are short keys, for which a call of `memchr` cost more than the
/// rest of writing them. A word holds a DEL exactly when `w ^ 0x7F…7F` has a zero
/// byte, which `(x - 0x01…01) & !x & 0x80…80` detects (the "haszero" of Sean
/// Anderson's Bit Twiddling Hacks: it may misplace the zero byte, never miss or invent
/// one).
#[inline]
fn has_del(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().expect("eight bytes")) ^ (ONES * 0x7F);
        if x.wrapping_sub(ONES) & !x & (ONES * 0x80) != 0 {
            return true;
        }
    }
    words.remainder().contains(&0x7F)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass reader gives the tree and the text that `Value::parse` then
    /// `to_compact` give, and refuses what `parse` refuses, with the same error.
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
                let shown = String::from_utf8_lossy(doc);
                let want = Value::parse(doc, depth).map(|v| {
                    let text = v.to_compact();
                    (v, text)
                });
                let arena = Bump::new();
                let got = Doc::parse_compact(doc, depth, &arena).map(|(d, text)| {
                    assert_eq!(d.to_compact(), text, "{shown}");
                    (d.to_value(), text)
                });
                assert_eq!(want, got, "{shown} at depth {depth}");
                // The owned reading, and the copy of a `Value`, are the same tree.
                let owned = OwnedDoc::parse(doc, depth);
                assert_eq!(
                    want.as_ref().map(|(v, _)| v.clone()).ok(),
                    owned.as_ref().map(|o| o.root().to_value()).ok(),
                    "{shown}"
                );
                if let Ok((v, _)) = &want {
                    assert_eq!(&Doc::from_value(v, &arena).to_value(), v, "{shown}");
                }
            }
        }
    }

    /// A DEL anywhere in a string, at every length and place, and only then.
    #[test]
    fn a_del_is_found_wherever_it_is() {
        for len in 0..40 {
            let plain = vec![b'a'; len];
            assert!(!has_del(&plain), "{len}");
            // Bytes around DEL: a neighbour must not hide it or be taken for it.
            for near in [0x7E, 0x80, 0xFF, 0x00] {
                assert!(!has_del(&vec![near; len]), "{len} {near:#x}");
            }
            for at in 0..len {
                let mut with = plain.clone();
                with[at] = 0x7F;
                assert!(has_del(&with), "{len} at {at}");
            }
        }
    }

    /// An owned document outlives its input and moves between threads with its tree.
    #[test]
    fn an_owned_document_keeps_its_tree_when_moved() {
        let text = String::from(r#"{"a\n": ["x", 1.50, {"b": null}]}"#);
        let owned = OwnedDoc::parse(text.as_bytes(), 8).unwrap();
        drop(text);
        let owned = std::sync::Arc::new(owned);
        let other = std::sync::Arc::clone(&owned);
        let seen = std::thread::spawn(move || other.root().to_compact())
            .join()
            .unwrap();
        assert_eq!(seen, r#"{"a\n":["x",1.50,{"b":null}]}"#);
        assert_eq!(owned.root().get("a\n").map(Doc::type_name), Some("array"));
    }
}
