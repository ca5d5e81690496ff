//! Schemas: compiled once into a tree of small keyword validators, then run many times.
//!
//! `compile` reads a schema with the strict reader and turns every keyword into a
//! node of the tree; anything the profile does not implement is a compile error.
//! Validation walks the instance bytes and the tree together, so no tree of the
//! instance is ever built.

use std::fmt;

mod compile;
mod node;
mod pattern;
mod validate;

use crate::json::{Reader, Value};
use node::{Node, T_OBJECT};
use validate::{walk, Collect, FirstError, Stop};

/// Options for [`Schema::compile_with`].
#[derive(Clone, Debug)]
pub struct Options {
    /// Deepest nesting accepted, for schemas at compile time and for instances at
    /// validation time. Default 128; values above [`Options::MAX_DEPTH_LIMIT`] are
    /// clamped to it.
    pub max_depth: usize,
}

impl Options {
    /// The largest nesting limit that may be configured (recursion is bounded by it).
    pub const MAX_DEPTH_LIMIT: usize = 1024;
    /// The default nesting limit.
    pub const DEFAULT_MAX_DEPTH: usize = 128;
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_depth: Self::DEFAULT_MAX_DEPTH,
        }
    }
}

/// A compiled schema: immutable, `Send + Sync`.
pub struct Schema {
    root: Node,
    /// Compact JSON of the schema, keys in the author's order.
    json: String,
    max_depth: usize,
}

/// One violation: where, which keyword, and a terse message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Seed 000 path: `$`, `$.name`, `$["a.b"]`, `$[3]`.
    pub path: String,
    /// RFC 6901 pointer to where the fix goes (the member itself for `required` and
    /// unexpected properties). The whole value is the empty string.
    pub pointer: String,
    /// The schema keyword that failed (`json` for malformed input).
    pub keyword: &'static str,
    /// Terse message, e.g. `expected integer, got string`.
    pub message: String,
}

/// Why a schema was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// RFC 6901 pointer into the schema document, to the offending keyword.
    pub pointer: String,
    /// The offending keyword (empty when the schema itself is not JSON or not a schema).
    pub keyword: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}: {}", self.pointer, self.message)
    }
}

impl std::error::Error for CompileError {}
impl std::error::Error for ValidationError {}

impl Schema {
    /// Compiles a schema (core profile, default options).
    pub fn compile(json: &[u8]) -> Result<Schema, CompileError> {
        Self::compile_with(json, &Options::default())
    }

    /// Compiles a schema with explicit options.
    pub fn compile_with(json: &[u8], opts: &Options) -> Result<Schema, CompileError> {
        let max_depth = opts.max_depth.min(Options::MAX_DEPTH_LIMIT);
        let value = Value::parse(json, max_depth).map_err(|e| CompileError {
            pointer: String::new(),
            keyword: String::new(),
            message: format!("schema is not valid JSON: {}", e.message(json)),
        })?;
        if !matches!(value, Value::Object(_)) {
            // Booleans are schemas only below the root: a tool's parameters, and any
            // schema handed to compile, must say what they accept.
            return Err(CompileError {
                pointer: String::new(),
                keyword: String::new(),
                message: format!("a schema must be a JSON object, got {}", value.type_name()),
            });
        }
        let root = compile::compile_node(&value, &mut String::new())?;
        Ok(Schema {
            root,
            json: value.to_compact(),
            max_depth,
        })
    }

    /// Validates instance bytes, returning every violation sorted by path then
    /// message. Empty means valid. Malformed JSON is a single error at `$` (keyword
    /// `json`) that says what and where. Empty input (no bytes, or only whitespace)
    /// is read as `{}`.
    pub fn validate_json(&self, instance: &[u8]) -> Vec<ValidationError> {
        let input = crate::json::arguments_or_empty_object(instance);
        let mut sink = Collect {
            path: validate::PathStack::new(),
            errors: Vec::new(),
        };
        let mut r = Reader::new(input, self.max_depth);
        let outcome = walk(&self.root, &mut r, 0, &mut sink).and_then(|()| Ok(r.finish()?));
        match outcome {
            Err(Stop::Syntax(e)) => vec![ValidationError {
                path: "$".to_string(),
                pointer: String::new(),
                keyword: "json",
                message: e.message(input),
            }],
            _ => {
                sort_errors(&mut sink.errors);
                sink.errors
            }
        }
    }

    /// The fast path: true when the instance is well-formed and valid.
    /// Allocates nothing on valid input.
    pub fn is_valid(&self, instance: &[u8]) -> bool {
        let mut r = Reader::new(
            crate::json::arguments_or_empty_object(instance),
            self.max_depth,
        );
        walk(&self.root, &mut r, 0, &mut FirstError).is_ok() && r.finish().is_ok()
    }

    /// True when the root schema accepts only objects (`"type": "object"` or
    /// `["object"]`): what a tool's parameters must declare.
    pub fn requires_object(&self) -> bool {
        matches!(&self.root, Node::Rules(r) if r.types.as_ref().is_some_and(|t| t.mask == T_OBJECT))
    }

    /// The schema as compact JSON (no insignificant whitespace), keys in the
    /// author's order: what a tool definition sends to the model.
    pub fn to_json(&self) -> &str {
        &self.json
    }
}

/// Sorted by path, then message (byte order): the same input always gets the same bytes.
pub(crate) fn sort_errors(errors: &mut [ValidationError]) {
    let order = |a: &ValidationError, b: &ValidationError| {
        a.path.cmp(&b.path).then_with(|| a.message.cmp(&b.message))
    };
    // No check for "already sorted" first: the sort finds that in as many comparisons.
    errors.sort_by(order);
}

// Compile once, validate from many threads: the tree is immutable after compile.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Schema>();
};

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema").field("json", &self.json).finish()
    }
}
