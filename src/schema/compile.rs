//! Schema document → [`Program`]. Every keyword is checked here, once: a schema that
//! uses a keyword outside the profile, or a keyword with an invalid value, is refused
//! with the pointer to the keyword, so no schema promises more than it checks. Every
//! problem is recorded and compiling goes on, so one refusal names them all.

use crate::json::Value;

use super::error::{CompileError, SchemaProblem};
use super::keywords::applicator::MAX_ALTERNATIVES;
use super::keywords::{Keyword, NodeBuilder};
use super::message::quoted;
use super::path::push_pointer_token;
use super::program::{Node, Program};

/// The state of one compile: the program so far, the pointer to where it is in the
/// document, and the problems found.
pub(crate) struct Compiler<'o> {
    pub prog: Program,
    problems: Vec<SchemaProblem>,
    /// RFC 6901 pointer to the current location in the schema document.
    ptr: String,
    /// Where `ptr` was before each `enter`.
    marks: Vec<usize>,
    _options: &'o super::Options,
}

impl<'o> Compiler<'o> {
    pub(crate) fn new(options: &'o super::Options) -> Self {
        Compiler {
            prog: Program::default(),
            problems: Vec::new(),
            ptr: String::new(),
            marks: Vec::new(),
            _options: options,
        }
    }

    /// Records a problem with `keyword` at the current location.
    pub(crate) fn problem(&mut self, keyword: &str, message: impl Into<String>) {
        self.problems.push(SchemaProblem {
            pointer: self.ptr.clone(),
            keyword: keyword.to_owned(),
            message: message.into(),
        });
    }

    /// Moves the location into the member or element `token`.
    pub(crate) fn enter(&mut self, token: &str) {
        self.marks.push(self.ptr.len());
        push_pointer_token(&mut self.ptr, token);
    }

    /// Undoes the last [`Compiler::enter`].
    pub(crate) fn leave(&mut self) {
        let mark = self.marks.pop().expect("leave matches an enter");
        self.ptr.truncate(mark);
    }

    /// Compiles the subschema `v` at the current location and returns its node, which
    /// is also kept in the program under the next [`NodeId`].
    pub(crate) fn subschema(&mut self, v: &Value) -> Node {
        let id = self.prog.nodes.len();
        self.prog.nodes.push(Node::ANY);
        let node = self.node(v);
        self.prog.nodes[id] = node;
        node
    }

    /// The node of the schema `v`.
    fn node(&mut self, v: &Value) -> Node {
        let members = match v {
            Value::Bool(true) => return Node::ANY,
            Value::Bool(false) => return Node::NEVER,
            Value::Object(m) => m,
            other => {
                self.problem(
                    "",
                    format!(
                        "a schema must be an object or a boolean, got {}",
                        other.type_name()
                    ),
                );
                return Node::ANY;
            }
        };
        let mut builder = NodeBuilder::default();
        for (key, val) in members {
            self.enter(key);
            match Keyword::lookup(key) {
                Some(kw) => builder.keyword(self, kw, val),
                None => self.problem(key, format!("unsupported keyword {}", quoted(key))),
            }
            self.leave();
        }
        let node = builder.finish(self);
        if self.prog.alternatives(&node) > MAX_ALTERNATIVES {
            self.problem(
                "anyOf",
                format!("anyOf nesting asks for more than {MAX_ALTERNATIVES} alternatives to be tried for one value"),
            );
        }
        node
    }

    /// The program, or every problem found.
    pub(crate) fn finish(self) -> Result<Program, CompileError> {
        if self.problems.is_empty() {
            Ok(self.prog)
        } else {
            Err(CompileError::new(self.problems))
        }
    }
}

/// An ECMA group name we can pass on: an ASCII identifier.
pub(crate) fn is_group_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
