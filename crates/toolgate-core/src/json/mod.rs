//! The strict reader for the bytes a model sends (RFC 8259, no extensions).
//!
//! Two ways in: [`Reader`] is a cursor over untrusted bytes that the validator drives
//! token by token, so that validation happens while reading and no tree of the
//! instance is built; [`Build::read`] reads a whole document and hands its values to
//! a [`Build`] receiver, which makes its own tree of them: [`Value`], an owned tree
//! (what a caller hands in and gets back), or the Python module's objects. A compile
//! reads its schema into a crate-private tree instead (`doc`): slices in an arena,
//! strings borrowed from the schema's bytes, freed at once.
//!
//! Everything RFC 8259 forbids is refused, with the line and column of the offence:
//! invalid UTF-8, lone surrogate escapes, control characters in strings, trailing
//! commas, comments, `NaN`, leading zeros, trailing garbage. Duplicate object keys are
//! refused too: otherwise the validator may check one value while the tool's own
//! parser reads the other. Nesting is bounded, so depth can never exhaust the stack.

mod build;
mod doc;
mod error;
mod keys;
mod names;
mod number;
mod reader;
mod stack;
mod string;
mod utf8;
mod value;
mod write;

pub use build::Build;
pub(crate) use doc::{Doc, OwnedDoc};
pub use error::{SyntaxError, SyntaxErrorKind};
pub(crate) use keys::KeySet;
pub(crate) use names::{same_bytes, NamePlaces, NameTable};
pub use number::Decimal;
pub(crate) use number::Scale;
pub(crate) use reader::plain_ascii_end;
#[cfg(test)]
pub(crate) use reader::SKIPPED;
pub use reader::{Kind, Number, Reader};
pub(crate) use reader::{KnownEnds, Starts};
pub(crate) use stack::Stack;
pub use string::JsonStr;
pub(crate) use utf8::sequence_len as utf8_sequence_len;
pub use value::Value;
#[cfg(test)]
pub(crate) use write::QUOTED;
pub use write::{write_compact_prefix, write_json_string};

/// The bytes as `&str` when they are UTF-8 (what `str::from_utf8` accepts), with the
/// all-ASCII case (most names, ids and values a model sends) decided by one
/// word-at-a-time scan: on short text the general check costs more than the work
/// around it.
#[inline]
pub fn utf8(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() || utf8::is_valid(bytes) {
        // SAFETY: the bytes are ASCII, or `utf8::is_valid` accepted them, which it
        // does exactly for well-formed UTF-8 (what `str` requires): its automaton is
        // the Unicode Standard's table of well-formed sequences, its tests compare it
        // with `str::from_utf8` on every sequence of up to three bytes and on four-byte
        // sequences at every range's bounds, and debug builds compare every call.
        return Some(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    None
}
