//! toolgate: a tool registry for LLM agents.
//!
//! The bytes a model sends as tool arguments are untrusted. toolgate parses them
//! strictly (with its own JSON reader), validates them against a compiled schema
//! ([`schema`]) while reading, and dispatches valid calls through a [`registry`]. The
//! [`ffi`] module is the C surface over the same core, so every host sees identical
//! bytes.
//!
//! The reader is private to the crate: its fast paths trust what the crate has checked
//! (that a key equal to a known name is valid UTF-8, for one), and nothing outside the
//! crate can reach them to make them trust anything else.
//!
//! ```compile_fail,E0603
//! // The reader is not part of the API: this does not compile.
//! let mut r = toolgate::json::Reader::new(b"{\"\xff\xfe\":1}", 8);
//! ```

pub mod dialect;
pub mod ffi;
pub(crate) mod json;
pub mod registry;
pub mod schema;
mod suggest;

pub use registry::{
    CallResult, Handler, HandlerFailure, NamePolicy, PreparedCall, RegisterError,
    RegisterErrorKind, Registry, RegistryOptions, ToolInfo, ToolSpec, Written,
};
pub use schema::{
    CompileError, Draft, Options, Profile, Schema, SchemaDialect, SchemaProblem, ValidationError,
};

/// The library version, `MAJOR.MINOR.PATCH`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

// The README's Rust snippets are doctests of this item (it exists only when rustdoc
// collects them), so the front page cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
