//! Schemas: compiled once into a `Program` of small keyword
//! groups, then run many times.
//!
//! The layout, by what each module owns:
//!
//! - `compile`: schema document → program; the pointer into the document and the
//!   problems found; `keywords::NodeBuilder` does one schema object;
//! - `keywords`: one module per keyword group (its compile step, its check, its
//!   messages), and the table of what each profile knows;
//! - `program`: the compiled form, nodes addressed by index in one vector;
//! - `walk`: the one pass over the instance bytes, dispatching each value to the
//!   groups of its node;
//! - `sink`, `path`, `message`: where violations go, their paths and pointers,
//!   the pieces their texts are made of; `equal`: equality by value;
//! - `error`: [`CompileError`] and [`ValidationError`]; `options`: [`Options`];
//! - `pattern`: ECMA-262 patterns and their matchers.

use std::fmt;

#[cfg(test)]
mod adversarial_tests;
mod bits;
mod compile;
mod equal;
mod error;
pub(crate) mod format;
mod keywords;
mod memo;
mod message;
mod openapi;
mod options;
pub(crate) mod path;
#[cfg(test)]
mod report_tests;
pub(crate) use path::push_pointer_token;
mod pattern;
mod program;
pub(crate) mod resolve;
mod sink;
pub mod stream;
mod walk;
#[cfg(test)]
mod work_tests;

pub use error::{CompileError, SchemaProblem, ValidationError};
pub use options::{Draft, Options, Profile, SchemaDialect, UnknownName};
#[cfg(feature = "fuzz-internals")]
pub(crate) use pattern::{every_matcher, Matcher};
pub use resolve::positions::{subschemas_of, Holds};
pub use stream::{Feed, SchemaStream, SchemaStreamOf};
#[cfg(feature = "fuzz-internals")]
pub(crate) use walk::REMEMBER_FROM_THE_START;
#[cfg(feature = "fuzz-internals")]
pub(crate) use walk::VISITS;

/// The work counted on a thread in tests and fuzz targets (what the adversarial tests
/// bound): a recursion that moves to a new thread (`crate::stack`) carries them along.
#[cfg(any(test, feature = "fuzz-internals"))]
pub(crate) fn thread_counters(
) -> impl Iterator<Item = &'static std::thread::LocalKey<std::cell::Cell<u64>>> {
    let fuzzed = [&walk::VISITS];
    #[cfg(test)]
    let tested = [
        &keywords::object::NAME_COMPARISONS,
        &keywords::number::LIMB_OPS,
        &resolve::MEMBER_STEPS,
        &compile::LINK_STEPS,
        &equal::COMPARISONS,
        &crate::json::SKIPPED,
        &crate::json::QUOTED,
    ];
    #[cfg(not(test))]
    let tested = [];
    fuzzed.into_iter().chain(tested)
}

/// The switches tests and fuzz targets set on a thread, carried as
/// [`thread_counters`] are.
#[cfg(any(test, feature = "fuzz-internals"))]
pub(crate) fn thread_switches(
) -> impl Iterator<Item = &'static std::thread::LocalKey<std::cell::Cell<bool>>> {
    let fuzzed = [&walk::REMEMBER_FROM_THE_START];
    #[cfg(test)]
    let tested = [&compile::LOCATIONS_COLLIDE];
    #[cfg(not(test))]
    let tested = [];
    fuzzed.into_iter().chain(tested)
}

use crate::json::{Doc, Reader, Value};
use program::{Building, Node, Program};
use sink::{Collect, FirstError, Stop};
use walk::{walk, walk_value, Cx};

/// A compiled schema: immutable, `Send + Sync`.
// `repr(C)`: what a call reads first (the depth limit, the root node, the program's
// flags and first tables) is together at the front, the schema's text last.
#[repr(C)]
pub struct Schema {
    max_depth: usize,
    root: Node,
    prog: Program,
    /// Compact JSON of the schema, keys in the author's order.
    json: String,
}

impl Schema {
    /// Compiles a schema (core profile, default options).
    pub fn compile(json: &[u8]) -> Result<Schema, CompileError> {
        Self::compile_with(json, &Options::default())
    }

    /// Compiles a schema with explicit options.
    pub fn compile_with(json: &[u8], opts: &Options) -> Result<Schema, CompileError> {
        let max_depth = opts.max_depth();
        // The tree lives in this arena for the compile, and goes with it at once.
        let arena = compile::CompileArena::with_room(Doc::arena_room(json.len()));
        let input = json;
        let (value, mut json) = Doc::parse_compact(input, max_depth, &arena).map_err(|e| {
            CompileError::single(
                "",
                "",
                format!("schema is not valid JSON: {}", e.message(input)),
            )
        })?;
        let boolean_root = matches!(value, Doc::Bool(_)) && opts.profile() == Profile::Full;
        if !matches!(value, Doc::Object(_)) && !boolean_root {
            // Booleans are schemas only below the root in the core profile: a tool's
            // parameters, and any schema handed to compile, must say what they accept.
            // The full profile takes them as the drafts do.
            return Err(CompileError::single(
                "",
                "",
                format!("a schema must be a JSON object, got {}", value.type_name()),
            ));
        }
        json.shrink_to_fit();
        let (mut prog, root) = if opts.schema_dialect() == SchemaDialect::OpenApi3_0 {
            // The author's text stays what `to_json` gives; the translation is compiled.
            let authored = Value::parse(json.as_bytes(), usize::MAX)
                .expect("the compact text of a schema is JSON");
            let translated = openapi::to_json_schema(&authored).map_err(CompileError::new)?;
            let full = opts.clone().with_profile(Profile::Full);
            compile_full(Doc::from_value(&translated, &arena), None, &full, &arena)?
        } else if opts.profile() == Profile::Full {
            compile_full(value, Some(&json), opts, &arena)?
        } else {
            let mut compiler =
                compile::Compiler::new(opts, None, opts.default_draft(), json.len(), &arena);
            let mut root = compiler.root(&value);
            (compiler.finish(&mut root)?, root)
        };
        prog.masked = opts.masked_values();
        prog.find_tags();
        let frozen = prog.freeze();
        prog.keep();
        Ok(Schema {
            prog: frozen,
            root,
            json,
            max_depth,
        })
    }

    /// Validates a JSON document, returning every violation sorted by path then
    /// message. Empty means valid. Malformed JSON is a single error at `$` (keyword
    /// `json`, schema location `#`) that says what and where; empty input (no bytes, or only whitespace) is
    /// malformed too (`unexpected end of input`). For tool-call arguments, where empty
    /// means `{}`, use [`Schema::validate_arguments`].
    pub fn validate_json(&self, instance: &[u8]) -> Vec<ValidationError> {
        self.validate_json_at_most(instance, usize::MAX)
    }

    /// [`Schema::validate_json`] listing at most `max` violations, for a refusal that
    /// someone reads: the first `max` the walk meets (in the order of the document),
    /// sorted, then, when there were more, one last error at `$` (keyword
    /// `violations`, schema location `#`) that says so. The walk stops at the first
    /// violation past `max`, so arguments that break a rule a million times cost no
    /// more than a valid call's walk (every violation, each with its path, is the
    /// length of the arguments times their nesting). Malformed JSON is still the one
    /// error, wherever it is. The registry lists at most
    /// [`Schema::LISTED_VIOLATIONS`] in a refusal.
    ///
    /// ```
    /// use toolgate_core::schema::Schema;
    /// let schema = Schema::compile(br#"{"type":"array","items":{"type":"string"}}"#).unwrap();
    /// let errors = schema.validate_json_at_most(b"[1,2,3]", 2);
    /// let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    /// assert_eq!(lines, [
    ///     "$[0]: expected string, got integer",
    ///     "$[1]: expected string, got integer",
    ///     "$: more violations not listed (the first 2 are)",
    /// ]);
    /// ```
    pub fn validate_json_at_most(&self, instance: &[u8], max: usize) -> Vec<ValidationError> {
        let mut sink = Collect::new(&self.prog).at_most(max);
        let mut cx = Cx::new(&self.prog);
        let mut r = Reader::new(instance, self.max_depth);
        let outcome =
            walk(&mut cx, &self.root, &mut r, 0, &mut sink).and_then(|()| Ok(r.finish()?));
        drop(cx);
        if let Err(Stop::Syntax(e)) = outcome {
            return vec![syntax_error(&e, instance, self.prog.masked)];
        }
        if sink.more {
            // The walk stopped early: the rest must still be well-formed JSON, since
            // malformed input gets that one error.
            let mut whole = Reader::new(instance, self.max_depth);
            if let Err(e) = whole.skip_value(0).and_then(|()| whole.finish()) {
                return vec![syntax_error(&e, instance, self.prog.masked)];
            }
        }
        close_listing(&mut sink.errors, sink.more, max);
        sink.errors
    }

    /// The most violations the registry lists in a refusal (see
    /// [`Schema::validate_json_at_most`]).
    pub const LISTED_VIOLATIONS: usize = 100;

    /// [`Schema::validate_arguments`] listing at most `max` violations, as
    /// [`Schema::validate_json_at_most`].
    pub fn validate_arguments_at_most(&self, args: &[u8], max: usize) -> Vec<ValidationError> {
        self.validate_json_at_most(arguments_or_empty_object(args), max)
    }

    /// The fast path of [`Schema::validate_json`]: true when the document is
    /// well-formed and valid (so never for empty input). Allocates nothing on valid
    /// input.
    pub fn is_valid(&self, instance: &[u8]) -> bool {
        let mut cx = Cx::new(&self.prog);
        let mut r = Reader::new(instance, self.max_depth);
        walk_value(&mut cx, &self.root, &mut r, 0, &mut FirstError).is_ok() && r.finish().is_ok()
    }

    /// Validates tool-call arguments: as [`Schema::validate_json`], except that empty
    /// arguments (no bytes, or only whitespace) mean `{}`, because some providers send
    /// `""` for a call without parameters. The registry's `call` and `validate` apply
    /// this rule; a host that validates arguments outside a registry calls this.
    pub fn validate_arguments(&self, args: &[u8]) -> Vec<ValidationError> {
        self.validate_json(arguments_or_empty_object(args))
    }

    /// The fast path of [`Schema::validate_arguments`]: true when the arguments (empty
    /// meaning `{}`) are valid. Allocates nothing on valid input.
    pub fn is_valid_arguments(&self, args: &[u8]) -> bool {
        self.is_valid(arguments_or_empty_object(args))
    }

    /// True when the root schema accepts only objects (`"type": "object"` or
    /// `["object"]`): what a tool's parameters must declare.
    pub fn requires_object(&self) -> bool {
        self.prog.requires_object(&self.root)
    }

    /// The schema as compact JSON (no insignificant whitespace), keys in the
    /// author's order: what a tool definition sends to the model.
    pub fn to_json(&self) -> &str {
        &self.json
    }
}

/// The full profile's compile: the root's draft (its `$schema`, else the default),
/// every document its references may reach indexed, then the program.
/// `text` is the schema's compact text, when it is the text of `value`.
fn compile_full(
    value: Doc<'_>,
    text: Option<&str>,
    opts: &Options,
    arena: &bumpalo::Bump,
) -> Result<(Program<Building>, Node), CompileError> {
    let draft = match value.get("$schema") {
        Some(Doc::String(uri)) => Draft::from_uri(uri).ok_or_else(|| {
            CompileError::single(
                "/$schema",
                "$schema",
                format!(
                    "unsupported $schema {} (supported: {} and {})",
                    message::quoted(uri),
                    Draft::Draft2020_12.uri(),
                    Draft::Draft7.uri()
                ),
            )
        })?,
        _ => opts.default_draft(),
    };
    let text_len = text.map_or(0, str::len);
    let keys = text.map(resolve::index_keys);
    let plain = keys == Some(resolve::IndexKeys::Nothing) || try_without_documents();
    if opts.resources().is_empty() && plain {
        // No reference, identifier or anchor in the text (most tool schemas, `$schema`
        // and `$defs` or not): nothing to index and nothing a reference could reach.
        let mut compiler = compile::Compiler::new(opts, None, draft, text_len, arena);
        let mut root = compiler.root(&value);
        if !compiler.needs_documents() {
            let prog = compiler.finish(&mut root)?;
            return Ok((prog, root));
        }
        // The text check is cautious (a key is always spelled out in the compact
        // text), so this is only a net: a keyword that needs the index was met after
        // all, and the schema is compiled again with it.
    }
    let plain_text = text.filter(|_| keys < Some(resolve::IndexKeys::Identifiers));
    let docs = resolve::Documents::new(
        value,
        plain_text,
        draft,
        opts.default_draft(),
        opts.resources(),
    )
    .map_err(|problems| {
        CompileError::new(
            problems
                .into_iter()
                .map(|p| SchemaProblem {
                    pointer: p.at.pointer,
                    keyword: p.keyword.to_owned(),
                    message: p.message,
                })
                .collect(),
        )
    })?;
    let root_value = docs
        .value(&resolve::Location::root())
        .expect("the schema is document 0");
    let mut compiler = compile::Compiler::new(opts, Some(&docs), draft, text_len, arena);
    let mut root = compiler.root(root_value);
    let prog = compiler.finish(&mut root)?;
    Ok((prog, root))
}

#[cfg(test)]
thread_local! {
    /// In tests: a full-profile compile starts without the document index whatever
    /// its text, so the tests can check that the net in [`compile_full`] catches what
    /// needs the index.
    pub(crate) static TRY_WITHOUT_DOCUMENTS: std::cell::Cell<bool> =
        const { std::cell::Cell::new(false) };
}

/// See [`TRY_WITHOUT_DOCUMENTS`]; false outside tests.
#[inline(always)]
fn try_without_documents() -> bool {
    #[cfg(test)]
    if TRY_WITHOUT_DOCUMENTS.with(|t| t.get()) {
        return true;
    }
    false
}

/// The one error of malformed input: at `$`, keyword `json`, schema location `#`.
/// Sorts a listing of at most `max` violations and, when there were more (`more`, or
/// a list longer than `max`), cuts it to `max` and ends it with the error that says so.
pub(crate) fn close_listing(errors: &mut Vec<ValidationError>, more: bool, max: usize) {
    sort_errors(errors);
    if more || errors.len() > max {
        errors.truncate(max);
        errors.push(more_violations(max));
    }
}

/// The last error of a list cut to `max` violations.
fn more_violations(max: usize) -> ValidationError {
    let mut message = String::from("more violations not listed (the first ");
    message::push_u64(&mut message, max as u64);
    message.push_str(" are)");
    ValidationError {
        path: "$".to_string(),
        pointer: String::new(),
        keyword: "violations",
        message,
        schema_location: "#".to_string(),
    }
}

pub(crate) fn syntax_error(
    e: &crate::json::SyntaxError,
    input: &[u8],
    masked: bool,
) -> ValidationError {
    ValidationError {
        path: "$".to_string(),
        pointer: String::new(),
        keyword: "json",
        message: e.message_masked(input, masked),
        schema_location: "#".to_string(),
    }
}

/// The argument rule: empty tool-call arguments (no bytes, or only whitespace) mean
/// `{}`, because some providers send `""` for a call without parameters. The schema's
/// argument functions and the registry both go through here, so a handler runs on
/// exactly the bytes that were validated.
#[inline]
pub(crate) fn arguments_or_empty_object(args: &[u8]) -> &[u8] {
    if args
        .iter()
        .all(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
    {
        b"{}"
    } else {
        args
    }
}

/// Sorted by path, then message (byte order): the same input always gets the same
/// bytes. A violation reported twice (two schemas that apply to one value asking for
/// the same thing) is kept once.
pub(crate) fn sort_errors(errors: &mut Vec<ValidationError>) {
    let order = |a: &ValidationError, b: &ValidationError| {
        a.path.cmp(&b.path).then_with(|| a.message.cmp(&b.message))
    };
    // No check for "already sorted" first: the sort finds that in as many comparisons.
    errors.sort_by(order);
    dedup_sorted_errors(errors);
}

/// Drops each error equal to an earlier one: in a list sorted by (path, message) the
/// equal ones are in one run of equal (path, message), whose length is the number of
/// keywords that said the same at one place (the sort is stable, so the first of each
/// is kept). Where in the schema a rule is written does not count: two schemas that
/// ask the same of one value are one violation, located at the first.
fn dedup_sorted_errors(errors: &mut Vec<ValidationError>) {
    let mut kept = 0;
    for i in 0..errors.len() {
        let run_start = {
            let mut s = kept;
            while s > 0
                && errors[s - 1].path == errors[i].path
                && errors[s - 1].message == errors[i].message
            {
                s -= 1;
            }
            s
        };
        let e = &errors[i];
        let duplicate = errors[run_start..kept]
            .iter()
            .any(|k| same_violation(k, &e.path, &e.pointer, e.keyword, &e.message));
        if !duplicate {
            errors.swap(kept, i);
            kept += 1;
        }
    }
    errors.truncate(kept);
}

/// Whether `kept` and the violation (`path`, `pointer`, `keyword`, `message`) are one
/// violation to a list: the same place, keyword and message (where in the schema the
/// rule is written does not count). The whole list drops such repeats, and a listing
/// at its limit counts them once by this same test, so that both agree on how many
/// violations there are.
pub(crate) fn same_violation(
    kept: &ValidationError,
    path: &str,
    pointer: &str,
    keyword: &str,
    message: &str,
) -> bool {
    kept.path == path
        && kept.pointer == pointer
        && kept.keyword == keyword
        && kept.message == message
}

// Compile once, validate from many threads: the program is immutable after compile.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Schema>();
};

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema").field("json", &self.json).finish()
    }
}
