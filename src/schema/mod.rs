//! Schemas: compiled once into a tree of small keyword validators, then run many times.
//!
//! `compile` reads a schema with the strict reader and turns every keyword into a
//! node of the tree; anything the profile does not implement is a compile error.
//! Validation walks the instance bytes and the tree together, so no tree of the
//! instance is ever built.

use std::fmt;

mod compile;
pub(crate) mod format;
mod node;
mod pattern;
mod validate;

use crate::json::{write_json_string, Reader, Value};
use node::{Node, T_OBJECT};
use validate::{walk, Collect, FirstError, Stop};

/// Options for [`Schema::compile_with`], built from [`Options::default`] with the
/// `with_*` methods, so that options added later never break a caller.
///
/// ```
/// use toolgate::{Options, Schema};
/// let opts = Options::default().with_max_depth(16);
/// let schema = Schema::compile_with(br#"{"type":"object"}"#, &opts).unwrap();
/// assert!(schema.is_valid(br#"{"a":{}}"#));
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    max_depth: usize,
}

impl Options {
    /// The largest nesting limit that may be configured (recursion is bounded by it).
    pub const MAX_DEPTH_LIMIT: usize = 1024;
    /// The default nesting limit.
    pub const DEFAULT_MAX_DEPTH: usize = 128;

    /// The deepest nesting accepted, for schemas at compile time and for instances at
    /// validation time. Default 128; 0 means the default, and values above
    /// [`Options::MAX_DEPTH_LIMIT`] are clamped to it.
    pub fn with_max_depth(mut self, max_depth: usize) -> Options {
        self.max_depth = match max_depth {
            0 => Self::DEFAULT_MAX_DEPTH,
            n => n.min(Self::MAX_DEPTH_LIMIT),
        };
        self
    }

    /// The nesting limit these options set.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }
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

impl ValidationError {
    /// The violations as text: one `path: message` line each, joined by `\n` (no
    /// trailing newline).
    pub fn join_lines(errors: &[ValidationError]) -> String {
        let mut out = String::new();
        for (i, e) in errors.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&e.path);
            out.push_str(": ");
            out.push_str(&e.message);
        }
        out
    }

    /// The violations as a compact JSON array of
    /// `{"path":..,"pointer":..,"keyword":..,"message":..}` objects.
    pub fn json_array(errors: &[ValidationError]) -> String {
        let mut out = String::from("[");
        for (i, e) in errors.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"path\":");
            write_json_string(&mut out, &e.path);
            out.push_str(",\"pointer\":");
            write_json_string(&mut out, &e.pointer);
            out.push_str(",\"keyword\":");
            write_json_string(&mut out, e.keyword);
            out.push_str(",\"message\":");
            write_json_string(&mut out, &e.message);
            out.push('}');
        }
        out.push(']');
        out
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
        let max_depth = opts.max_depth;
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

    /// Validates a JSON document, returning every violation sorted by path then
    /// message. Empty means valid. Malformed JSON is a single error at `$` (keyword
    /// `json`) that says what and where; empty input (no bytes, or only whitespace) is
    /// malformed too (`unexpected end of input`). For tool-call arguments, where empty
    /// means `{}`, use [`Schema::validate_arguments`].
    pub fn validate_json(&self, instance: &[u8]) -> Vec<ValidationError> {
        let mut sink = Collect {
            path: validate::PathStack::new(),
            errors: Vec::new(),
        };
        let mut r = Reader::new(instance, self.max_depth);
        let outcome = walk(&self.root, &mut r, 0, &mut sink).and_then(|()| Ok(r.finish()?));
        match outcome {
            Err(Stop::Syntax(e)) => vec![ValidationError {
                path: "$".to_string(),
                pointer: String::new(),
                keyword: "json",
                message: e.message(instance),
            }],
            _ => {
                sort_errors(&mut sink.errors);
                sink.errors
            }
        }
    }

    /// The fast path of [`Schema::validate_json`]: true when the document is
    /// well-formed and valid (so never for empty input). Allocates nothing on valid
    /// input.
    pub fn is_valid(&self, instance: &[u8]) -> bool {
        let mut r = Reader::new(instance, self.max_depth);
        walk(&self.root, &mut r, 0, &mut FirstError).is_ok() && r.finish().is_ok()
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
        matches!(&self.root, Node::Rules(r) if r.types.as_ref().is_some_and(|t| t.mask == T_OBJECT))
    }

    /// The schema as compact JSON (no insignificant whitespace), keys in the
    /// author's order: what a tool definition sends to the model.
    pub fn to_json(&self) -> &str {
        &self.json
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
