//! The two kinds of error a schema gives: why it was refused ([`CompileError`], every
//! problem at once) and what is wrong with an instance ([`ValidationError`]).

use std::fmt;

use crate::json::write_json_string;

/// One violation: where, which keyword, and a terse message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Where the value whose rule failed is: `$` the whole value, `$.name` a
    /// property, `$["a.b"]` a property whose name is not an identifier, `$[3]` an
    /// element. For `required` and an unexpected property it is the object.
    pub path: String,
    /// RFC 6901 pointer to where the fix goes (the member itself for `required` and
    /// unexpected properties). The whole value is the empty string.
    pub pointer: String,
    /// The schema keyword that failed (`json` for malformed input).
    pub keyword: &'static str,
    /// Terse message, e.g. `expected integer, got string`.
    pub message: String,
    /// Where the failing rule is written in the schema: `#` and the RFC 6901 pointer
    /// to the keyword in the schema document (`#/properties/days/type`, `#/required`,
    /// `#/$defs/x/minimum` for a rule reached through `$ref`; the pointer's tokens
    /// escaped with `~0` and `~1`, not percent-encoded). A `false` schema is its own
    /// location (`#/properties/x`). A rule in another document (a registered
    /// resource) is that document's URI followed by `#` and the pointer. Malformed
    /// input and the size limit, which no keyword states, are `#`: the whole schema.
    pub schema_location: String,
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
    /// `{"path":..,"pointer":..,"keyword":..,"message":..,"schemaLocation":..}` objects.
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
            out.push_str(",\"schemaLocation\":");
            write_json_string(&mut out, &e.schema_location);
            out.push('}');
        }
        out.push(']');
        out
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ValidationError {}

/// One reason a schema was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaProblem {
    /// RFC 6901 pointer into the schema document, to the offending keyword.
    pub pointer: String,
    /// The offending keyword (empty when the schema itself is not JSON or not a schema).
    pub keyword: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}: {}", self.pointer, self.message)
    }
}

/// Why a schema was refused: every problem found, in the order of the document. The
/// first one's location and text are also the error's own fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// RFC 6901 pointer into the schema document, to the first offending keyword.
    pub pointer: String,
    /// The first offending keyword (empty when the schema itself is not JSON or not a
    /// schema).
    pub keyword: String,
    /// What is wrong there.
    pub message: String,
    /// Every problem, the first included: a schema with four problems is refused once,
    /// with four lines, not four times.
    pub problems: Vec<SchemaProblem>,
}

impl CompileError {
    /// The error of `problems` (at least one).
    pub(crate) fn new(problems: Vec<SchemaProblem>) -> CompileError {
        let first = problems
            .first()
            .cloned()
            .expect("a compile error has a problem");
        CompileError {
            pointer: first.pointer,
            keyword: first.keyword,
            message: first.message,
            problems,
        }
    }

    /// An error of one problem.
    pub(crate) fn single(pointer: &str, keyword: &str, message: impl Into<String>) -> CompileError {
        CompileError::new(vec![SchemaProblem {
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            message: message.into(),
        }])
    }
}

impl fmt::Display for CompileError {
    /// `#/pointer: message`, one line per problem.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CompileError {}
