//! The toolgate core: a tool registry for LLM agents.
//!
//! The bytes a model sends as tool arguments are untrusted. toolgate parses them
//! strictly (with its own JSON reader), validates them against a compiled schema
//! ([`schema`]) while reading, and dispatches valid calls through a [`registry`]. The
//! C library (`toolgate`), the provider dialects (`toolgate-dialect`), the command and
//! the Python module are built on this crate, so every host sees identical bytes.
//!
//! Arguments a model streams can be checked as they arrive: [`Schema::stream`] and
//! [`Registry::stream_call`] refuse a value at the first byte after which no
//! continuation can be valid, and their `finish` gives what [`Schema::validate_json`]
//! and [`Registry::call`] give for the whole bytes. When each rule refuses is in
//! [`schema::stream`] (and `docs/streaming.md`).
//!
//! The reader is private to the crate: its fast paths trust what the crate has checked
//! (that a key equal to a known name is valid UTF-8, for one), and nothing outside the
//! crate can reach them to make them trust anything else.
//!
//! ```compile_fail,E0603
//! // The reader is not part of the API: this does not compile.
//! let mut r = toolgate_core::json::Reader::new(b"{\"\xff\xfe\":1}", 8);
//! ```

mod arena;
pub(crate) mod json;
pub mod registry;

/// Owned JSON trees, for schemas and tool lists (read once, not per call): the strict
/// reader's rules apply (duplicate keys, depth, RFC 8259), numbers keep their text and
/// objects the author's member order. [`value::Build`] hands a document's values to a
/// receiver that makes a tree of its own (the Python module's dicts and lists).
pub mod value {
    pub use crate::json::{write_json_string, Build, Decimal, SyntaxError, SyntaxErrorKind, Value};
    pub use crate::schema::path::push_pointer_token;
}
/// The unit-test binary's global allocator, counting allocations per thread (the one
/// copy, shared with the C library's allocation tests).
#[cfg(test)]
#[path = "../tests/support/counting_alloc.rs"]
pub(crate) mod counting_alloc;
pub mod schema;
mod spare;
mod stack;
mod status;
mod suggest;
/// Where the test data outside the repository is, and the loud skip when it is missing:
/// the same file the integration tests use, so the unit tests find the suite alike.
#[cfg(test)]
#[path = "../tests/support/test_data.rs"]
pub(crate) mod test_data;

/// What the fuzz targets (`fuzz/`) drive below the API. Not part of it: compiled only
/// with the `fuzz-internals` feature, which nothing but the fuzz crate enables, and
/// free to change in any release.
#[cfg(feature = "fuzz-internals")]
#[doc(hidden)]
pub mod fuzz_internals {
    /// One of a pattern's matchers.
    pub struct PatternMatcher(crate::schema::Matcher);

    impl PatternMatcher {
        /// Whether the pattern matches somewhere in `s`.
        pub fn is_match(&self, s: &str) -> bool {
            self.0.is_match(s)
        }
    }

    /// Runs `f` and returns what it returned with how many values the walk took
    /// against a node meanwhile, on this thread: the work a validation did.
    pub fn walk_visits<T>(f: impl FnOnce() -> T) -> (T, u64) {
        let before = crate::schema::VISITS.with(|v| v.get());
        let out = f();
        (out, crate::schema::VISITS.with(|v| v.get()) - before)
    }

    /// Runs `f` with the validation's skips and `uniqueItems` hashes remembering where
    /// containers end (and their hashes) from each call's first byte, on this thread,
    /// as they do past a few times a call's input: what they remember may change no
    /// verdict and no error.
    pub fn remembering<T>(f: impl FnOnce() -> T) -> T {
        crate::schema::REMEMBER_FROM_THE_START.with(|r| r.set(true));
        let out = f();
        crate::schema::REMEMBER_FROM_THE_START.with(|r| r.set(false));
        out
    }

    /// Every matcher `pattern` can be given, named, the one compiling chooses first;
    /// `Err` says why the pattern has no ECMA meaning here.
    pub fn pattern_matchers(pattern: &str) -> Result<Vec<(&'static str, PatternMatcher)>, String> {
        crate::schema::every_matcher(pattern).map(|all| {
            all.into_iter()
                .map(|(n, m)| (n, PatternMatcher(m)))
                .collect()
        })
    }
}

#[doc(hidden)]
pub use registry::CallDetails;
pub use registry::{
    CallContext, CallFeed, CallOutcome, CallResult, CallStream, CallStreamOf, Handler,
    HandlerFailure, NamePolicy, PreparedCall, RegisterError, RegisterErrorKind, Registry,
    RegistryOptions, ToolInfo, ToolSpec, Written,
};
pub use schema::{
    CompileError, Draft, Feed, Options, Profile, Schema, SchemaDialect, SchemaProblem,
    SchemaStream, SchemaStreamOf, UnknownName, ValidationError,
};
pub use status::Status;

/// The library version, `MAJOR.MINOR.PATCH`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
