//! The keywords, one module per group; each owns its compile step, its check and its
//! messages:
//!
//! | module | keywords |
//! |---|---|
//! | [`types`] | `type` |
//! | [`choice`] | `enum`, `const` |
//! | [`object`] | `properties`, `required`, `additionalProperties` |
//! | [`array`] | `items`, `minItems`, `maxItems` |
//! | [`string`] | `minLength`, `maxLength`, `pattern` |
//! | [`number`] | `minimum`, `maximum` |
//! | [`applicator`] | `anyOf` |
//! | [`annotation`] | `title`, `description`, `default`, `examples`, `$schema`, `$comment` |
//!
//! [`count`] holds the count bounds that `minItems`/`maxItems` and
//! `minLength`/`maxLength` share. [`Keyword::lookup`] is the table of what a profile
//! knows; [`NodeBuilder`] gathers one schema object's keywords and builds its node.

pub(crate) mod annotation;
pub(crate) mod applicator;
pub(crate) mod array;
pub(crate) mod choice;
pub(crate) mod count;
pub(crate) mod number;
pub(crate) mod object;
pub(crate) mod string;
pub(crate) mod types;

use crate::json::Value;

use super::compile::Compiler;
use super::program::{push, Node};
use applicator::ApplicatorGroup;
use array::ArrayBuilder;
use choice::ChoiceGroup;
use number::NumberGroup;
use object::ObjectBuilder;
use string::StringGroup;

/// A keyword the compiler knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keyword {
    Type,
    Enum,
    Const,
    Properties,
    Required,
    AdditionalProperties,
    Items,
    MinItems,
    MaxItems,
    MinLength,
    MaxLength,
    Pattern,
    Minimum,
    Maximum,
    AnyOf,
    /// A keyword that asserts nothing (its value's shape is still checked).
    Annotation(annotation::Annotation),
}

impl Keyword {
    /// The keyword `name` is in the core profile, if it is one.
    pub(crate) fn lookup(name: &str) -> Option<Keyword> {
        Some(match name {
            "type" => Keyword::Type,
            "enum" => Keyword::Enum,
            "const" => Keyword::Const,
            "properties" => Keyword::Properties,
            "required" => Keyword::Required,
            "additionalProperties" => Keyword::AdditionalProperties,
            "items" => Keyword::Items,
            "minItems" => Keyword::MinItems,
            "maxItems" => Keyword::MaxItems,
            "minLength" => Keyword::MinLength,
            "maxLength" => Keyword::MaxLength,
            "pattern" => Keyword::Pattern,
            "minimum" => Keyword::Minimum,
            "maximum" => Keyword::Maximum,
            "anyOf" => Keyword::AnyOf,
            other => Keyword::Annotation(annotation::Annotation::lookup(other)?),
        })
    }
}

/// One schema object's keywords as they are read, per group.
#[derive(Default)]
pub(crate) struct NodeBuilder<'v> {
    types: Option<(u8, String)>,
    choice: ChoiceGroup,
    object: ObjectBuilder<'v>,
    array: ArrayBuilder,
    string: StringGroup,
    number: NumberGroup,
    applicator: ApplicatorGroup,
}

impl<'v> NodeBuilder<'v> {
    /// Reads keyword `kw` with value `v` (the compiler's pointer is at the keyword).
    pub(crate) fn keyword(&mut self, c: &mut Compiler<'_>, kw: Keyword, v: &'v Value) {
        match kw {
            Keyword::Type => self.types = types::compile(c, v),
            Keyword::Enum => choice::compile_enum(c, &mut self.choice, v),
            Keyword::Const => choice::compile_const(&mut self.choice, v),
            Keyword::Properties => self.object.properties(c, v),
            Keyword::Required => self.object.required(c, v),
            Keyword::AdditionalProperties => self.object.additional(c, v),
            Keyword::Items => self.array.items(c, v),
            Keyword::MinItems => self.array.count.min = count::compile(c, "minItems", v),
            Keyword::MaxItems => self.array.count.max = count::compile(c, "maxItems", v),
            Keyword::MinLength => self.string.length.min = count::compile(c, "minLength", v),
            Keyword::MaxLength => self.string.length.max = count::compile(c, "maxLength", v),
            Keyword::Pattern => string::compile_pattern(c, &mut self.string, v),
            Keyword::Minimum => self.number.minimum = number::compile_bound(c, "minimum", v),
            Keyword::Maximum => self.number.maximum = number::compile_bound(c, "maximum", v),
            Keyword::AnyOf => applicator::compile_any_of(c, &mut self.applicator, v),
            Keyword::Annotation(a) => a.check(c, v),
        }
    }

    /// Builds the node (the compiler's pointer is back at the schema object): the
    /// deferred subschemas are compiled, each group that has keywords goes into its
    /// table, and a schema with no assertion at all is `Any`.
    pub(crate) fn finish(self, c: &mut Compiler<'_>) -> Node {
        let object = (!self.object.is_empty()).then(|| self.object.finish(c));
        let prog = &mut c.prog;
        let mut node = Node::ANY;
        if let Some((mask, text)) = self.types {
            node.types = mask;
            node.types_text = push(&mut prog.texts, text.into_boxed_str());
        }
        if let Some(o) = object {
            node.object = push(&mut prog.objects, o);
        }
        if !self.array.is_empty() {
            node.array = push(&mut prog.arrays, self.array.finish());
        }
        if !self.string.is_empty() {
            node.string = push(&mut prog.strings, self.string);
        }
        if !self.number.is_empty() {
            node.number = push(&mut prog.numbers, self.number);
        }
        if !self.choice.is_empty() {
            node.choice = push(&mut prog.choices, self.choice);
            node.rereads = true;
        }
        if !self.applicator.is_empty() {
            node.applicator = push(&mut prog.applicators, self.applicator);
            node.rereads = true;
        }
        node
    }
}
