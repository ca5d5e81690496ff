//! The keywords, one module per group; each owns its compile step, its check and its
//! messages:
//!
//! | module | keywords |
//! |---|---|
//! | [`types`] | `type` |
//! | [`choice`] | `enum`, `const` |
//! | [`object`] | `properties`, `required`, `additionalProperties`; full profile: `patternProperties`, `propertyNames`, `minProperties`, `maxProperties`, `dependentRequired`, `dependentSchemas`, `unevaluatedProperties`, draft-07 `dependencies` |
//! | [`array`] | `items`, `minItems`, `maxItems`; full profile: `prefixItems`, `contains`, `minContains`, `maxContains`, `uniqueItems`, `unevaluatedItems`, draft-07 `additionalItems` and array `items` |
//! | [`string`] | `minLength`, `maxLength`, `pattern` |
//! | [`number`] | `minimum`, `maximum`; full profile: `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` |
//! | [`format`] | full profile: `format`, asserted |
//! | [`applicator`] | `anyOf`; full profile: `allOf`, `oneOf`, `not`, `if`/`then`/`else`, `$ref` beside other keywords |
//! | [`tag`] | the property that tells an `anyOf`'s or `oneOf`'s object branches apart |
//! | [`unevaluated`] | full profile: the annotations `unevaluated*` read |
//! | [`annotation`] | keywords that assert nothing (`title`, `description`, ...; full profile: `deprecated`, `readOnly`, `content*`, `x-*`, ...) |
//!
//! [`count`] holds the count bounds several groups share. [`Keyword::lookup`] is the
//! table of what each profile and draft knows; [`NodeBuilder`] gathers one schema
//! object's keywords and builds its node.

pub(crate) mod annotation;
pub(crate) mod applicator;
pub(crate) mod array;
pub(crate) mod choice;
pub(crate) mod count;
pub(crate) mod format;
pub(crate) mod number;
pub(crate) mod object;
pub(crate) mod string;
pub(crate) mod tag;
pub(crate) mod types;
pub(crate) mod unevaluated;

use crate::json::Doc;

use super::compile::Compiler;
use super::options::{Draft, Profile};
use super::program::{push, Node, NodeId, TypeRule};
use crate::arena::Building;
use annotation::Annotation;
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
    // The full profile's.
    AllOf,
    OneOf,
    Not,
    If,
    Then,
    Else,
    DependentSchemas,
    PrefixItems,
    Contains,
    MinContains,
    MaxContains,
    PatternProperties,
    PropertyNames,
    UnevaluatedItems,
    UnevaluatedProperties,
    MultipleOf,
    ExclusiveMaximum,
    ExclusiveMinimum,
    UniqueItems,
    MaxProperties,
    MinProperties,
    DependentRequired,
    Format,
    /// Draft-07's `items` (a schema, or an array of schemas for the first elements).
    ItemsDraft7,
    AdditionalItems,
    Dependencies,
    /// `$ref`, `$dynamicRef`, `$defs`, `$id` and the anchors: handled by the compiler
    /// itself, which knows the document and the resolver.
    Reference(Reference),
    /// A keyword that asserts nothing (its value's shape is still checked).
    Annotation(Annotation),
}

/// The keywords that locate schemas rather than check values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reference {
    Ref,
    DynamicRef,
    /// `$defs` and `definitions`: schemas for references to point into.
    Defs,
    Id,
    Anchor,
    DynamicAnchor,
    Vocabulary,
}

impl Keyword {
    /// The keyword `name` is in `profile` (and, in the full profile, in `draft`).
    pub(crate) fn lookup(name: &str, profile: Profile, draft: Draft) -> Option<Keyword> {
        let core = match name {
            "type" => Some(Keyword::Type),
            "enum" => Some(Keyword::Enum),
            "const" => Some(Keyword::Const),
            "properties" => Some(Keyword::Properties),
            "required" => Some(Keyword::Required),
            "additionalProperties" => Some(Keyword::AdditionalProperties),
            "items" if profile == Profile::Full && draft == Draft::Draft7 => {
                Some(Keyword::ItemsDraft7)
            }
            "items" => Some(Keyword::Items),
            "minItems" => Some(Keyword::MinItems),
            "maxItems" => Some(Keyword::MaxItems),
            "minLength" => Some(Keyword::MinLength),
            "maxLength" => Some(Keyword::MaxLength),
            "pattern" => Some(Keyword::Pattern),
            "minimum" => Some(Keyword::Minimum),
            "maximum" => Some(Keyword::Maximum),
            "anyOf" => Some(Keyword::AnyOf),
            _ => None,
        };
        if core.is_some() {
            return core;
        }
        if profile == Profile::Core {
            return Annotation::lookup(name, profile, draft).map(Keyword::Annotation);
        }
        let both = match name {
            "allOf" => Keyword::AllOf,
            "oneOf" => Keyword::OneOf,
            "not" => Keyword::Not,
            "if" => Keyword::If,
            "then" => Keyword::Then,
            "else" => Keyword::Else,
            "contains" => Keyword::Contains,
            "patternProperties" => Keyword::PatternProperties,
            "propertyNames" => Keyword::PropertyNames,
            "multipleOf" => Keyword::MultipleOf,
            "exclusiveMaximum" => Keyword::ExclusiveMaximum,
            "exclusiveMinimum" => Keyword::ExclusiveMinimum,
            "uniqueItems" => Keyword::UniqueItems,
            "maxProperties" => Keyword::MaxProperties,
            "minProperties" => Keyword::MinProperties,
            "format" => Keyword::Format,
            "$ref" => Keyword::Reference(Reference::Ref),
            "$id" => Keyword::Reference(Reference::Id),
            // Accepted in every draft as a container of subschemas: OpenAI's and zod's
            // converters write it without `$schema`.
            "definitions" => Keyword::Reference(Reference::Defs),
            _ => return Self::lookup_draft(name, draft),
        };
        Some(both)
    }

    /// The full profile's keywords that only one draft has.
    fn lookup_draft(name: &str, draft: Draft) -> Option<Keyword> {
        let kw = match (draft, name) {
            (Draft::Draft2020_12, "dependentSchemas") => Keyword::DependentSchemas,
            (Draft::Draft2020_12, "dependentRequired") => Keyword::DependentRequired,
            (Draft::Draft2020_12, "prefixItems") => Keyword::PrefixItems,
            (Draft::Draft2020_12, "minContains") => Keyword::MinContains,
            (Draft::Draft2020_12, "maxContains") => Keyword::MaxContains,
            (Draft::Draft2020_12, "unevaluatedItems") => Keyword::UnevaluatedItems,
            (Draft::Draft2020_12, "unevaluatedProperties") => Keyword::UnevaluatedProperties,
            (Draft::Draft2020_12, "$dynamicRef") => Keyword::Reference(Reference::DynamicRef),
            (Draft::Draft2020_12, "$defs") => Keyword::Reference(Reference::Defs),
            (Draft::Draft2020_12, "$anchor") => Keyword::Reference(Reference::Anchor),
            (Draft::Draft2020_12, "$dynamicAnchor") => Keyword::Reference(Reference::DynamicAnchor),
            (Draft::Draft2020_12, "$vocabulary") => Keyword::Reference(Reference::Vocabulary),
            (Draft::Draft7, "additionalItems") => Keyword::AdditionalItems,
            // Draft 2020-12 split it into dependentRequired and dependentSchemas; older
            // schemas still write it, and it means the same there.
            (_, "dependencies") => Keyword::Dependencies,
            _ => return Annotation::lookup(name, Profile::Full, draft).map(Keyword::Annotation),
        };
        Some(kw)
    }

    /// Every keyword name a profile and draft know, for "did you mean".
    pub(crate) fn names(profile: Profile, draft: Draft) -> Vec<&'static str> {
        const ALL: [&str; 58] = [
            "type",
            "enum",
            "const",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "pattern",
            "minimum",
            "maximum",
            "anyOf",
            "allOf",
            "oneOf",
            "not",
            "if",
            "then",
            "else",
            "dependentSchemas",
            "prefixItems",
            "contains",
            "minContains",
            "maxContains",
            "patternProperties",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties",
            "multipleOf",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "uniqueItems",
            "maxProperties",
            "minProperties",
            "dependentRequired",
            "format",
            "additionalItems",
            "dependencies",
            "$ref",
            "$dynamicRef",
            "$defs",
            "$id",
            "$anchor",
            "$dynamicAnchor",
            "$vocabulary",
            "definitions",
            "title",
            "description",
            "default",
            "examples",
            "$schema",
            "$comment",
            "deprecated",
            "readOnly",
            "writeOnly",
            "contentMediaType",
        ];
        ALL.iter()
            .copied()
            .chain(["contentEncoding", "contentSchema"])
            .filter(|n| Keyword::lookup(n, profile, draft).is_some())
            .collect()
    }
}

/// One schema object's keywords as they are read, per group.
#[derive(Default)]
pub(crate) struct NodeBuilder<'v> {
    types: Option<(u8, types::TypeNames)>,
    choice: ChoiceGroup<Building>,
    object: ObjectBuilder<'v>,
    array: ArrayBuilder,
    string: StringGroup,
    number: NumberGroup<Building>,
    applicator: ApplicatorGroup,
    /// `if`, `then` and `else` as read: `then` and `else` count only beside `if`.
    then_else: (Option<&'v Doc<'v>>, Option<&'v Doc<'v>>),
    /// The value of `$ref`, when the schema has one.
    pub reference: Option<&'v str>,
    pub dynamic_reference: Option<&'v str>,
}

impl<'v> NodeBuilder<'v> {
    /// Reads keyword `kw` with value `v` (the compiler's pointer is at the keyword).
    pub(crate) fn keyword(&mut self, c: &mut Compiler<'_>, kw: Keyword, v: &'v Doc<'v>) {
        match kw {
            Keyword::Type => self.types = types::compile(c, v),
            Keyword::Enum => choice::compile_enum(c, &mut self.choice, v),
            Keyword::Const => choice::compile_const(&mut self.choice, v),
            Keyword::Properties => self.object.properties(c, v),
            Keyword::Required => self.object.required(c, v),
            Keyword::AdditionalProperties => self.object.additional(c, v),
            Keyword::Items => self.array.items(c, v),
            Keyword::ItemsDraft7 => self.array.items_draft7(c, v),
            Keyword::MinItems => self.array.count.min = count::compile(c, "minItems", v),
            Keyword::MaxItems => self.array.count.max = count::compile(c, "maxItems", v),
            Keyword::MinLength => self.string.length.min = count::compile(c, "minLength", v),
            Keyword::MaxLength => self.string.length.max = count::compile(c, "maxLength", v),
            Keyword::Pattern => string::compile_pattern(c, &mut self.string, v),
            Keyword::Minimum => self.number.minimum = number::compile_bound(c, "minimum", v),
            Keyword::Maximum => self.number.maximum = number::compile_bound(c, "maximum", v),
            Keyword::AnyOf => self.applicator.any_of = applicator::compile_list(c, "anyOf", v),
            Keyword::AllOf => self.applicator.all_of = applicator::compile_list(c, "allOf", v),
            Keyword::OneOf => self.applicator.one_of = applicator::compile_list(c, "oneOf", v),
            Keyword::Not => self.applicator.not = Some(c.subschema_id(v)),
            Keyword::If => self.applicator.if_ = Some(c.subschema_id(v)),
            Keyword::Then => self.then_else.0 = Some(v),
            Keyword::Else => self.then_else.1 = Some(v),
            Keyword::DependentSchemas => self.object.dependent_schemas(c, v),
            Keyword::DependentRequired => self.object.dependent_required(c, v),
            Keyword::Dependencies => self.object.dependencies(c, v),
            Keyword::PrefixItems => self.array.prefix_items(c, v),
            Keyword::AdditionalItems => self.array.additional_items(c, v),
            Keyword::Contains => self.array.contains(c, v),
            Keyword::MinContains => {
                self.array.contains_count.min = count::compile(c, "minContains", v)
            }
            Keyword::MaxContains => {
                self.array.contains_count.max = count::compile(c, "maxContains", v)
            }
            Keyword::PatternProperties => self.object.pattern_properties(c, v),
            Keyword::PropertyNames => self.object.property_names(c, v),
            Keyword::UnevaluatedItems => self.array.unevaluated(c, v),
            Keyword::UnevaluatedProperties => self.object.unevaluated(c, v),
            Keyword::MultipleOf => number::compile_multiple_of(c, &mut self.number, v),
            Keyword::ExclusiveMaximum => {
                self.number.exclusive_maximum = number::compile_bound(c, "exclusiveMaximum", v)
            }
            Keyword::ExclusiveMinimum => {
                self.number.exclusive_minimum = number::compile_bound(c, "exclusiveMinimum", v)
            }
            Keyword::UniqueItems => self.array.unique(c, v),
            Keyword::MaxProperties => self.object.count.max = count::compile(c, "maxProperties", v),
            Keyword::MinProperties => self.object.count.min = count::compile(c, "minProperties", v),
            Keyword::Format => {
                if let Some(rule) = format::compile(c, v) {
                    if rule.format.applies_to_numbers() {
                        self.number.format = Some(rule);
                    } else {
                        self.string.format = Some(rule);
                    }
                }
            }
            Keyword::Reference(r) => c.reference_keyword(self, r, v),
            Keyword::Annotation(a) => {
                a.check(c, v);
                // Draft-07 lets the content keywords assert, and its suite expects it
                // of base64 and JSON; draft 2020-12 makes them annotations only.
                if c.is_full() && c.draft() == Draft::Draft7 {
                    match (a, v) {
                        (Annotation::ContentEncoding, Doc::String(e)) if *e == "base64" => {
                            self.string.content.base64 = true
                        }
                        (Annotation::ContentMediaType, Doc::String(m))
                            if *m == "application/json" =>
                        {
                            self.string.content.json = true
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// Adds a `$ref` target (beside other keywords: an `allOf` of one).
    pub(crate) fn add_ref(&mut self, target: NodeId) {
        let mut refs = std::mem::take(&mut self.applicator.refs).into_vec();
        refs.push(target);
        self.applicator.refs = refs.into_boxed_slice();
    }

    /// True when the builder holds no keyword that asserts anything (so a lone `$ref`
    /// can stand for its target).
    pub(crate) fn asserts_nothing(&self) -> bool {
        self.types.is_none()
            && self.choice.is_empty()
            && self.object.is_empty()
            && self.array.is_empty()
            && self.string.is_empty()
            && self.number.is_empty()
            && self.applicator.is_empty()
            && matches!(self.then_else, (None, None))
    }

    /// True when `unevaluatedProperties` or `unevaluatedItems` is present: the node
    /// must gather its applicators' annotations before its own walk.
    pub(crate) fn needs_annotations(&self) -> bool {
        self.object.has_unevaluated() || self.array.has_unevaluated()
    }

    /// Builds the node (the compiler's pointer is back at the schema object): the
    /// deferred subschemas are compiled, each group that has keywords goes into its
    /// table, and a schema with no assertion at all is `Any`. The builder is left
    /// emptied: it is lent rather than moved, since a move copied all of it (over a
    /// kilobyte) twice per schema object.
    pub(crate) fn finish(&mut self, c: &mut Compiler<'_>) -> Node {
        // `then` and `else` without `if` assert nothing (and are not compiled, as
        // annotations would not be); beside `if` they are its branches.
        if self.applicator.if_.is_some() {
            if let Some(v) = self.then_else.0 {
                c.enter("then");
                self.applicator.then_ = Some(c.subschema_id(v));
                c.leave();
            }
            if let Some(v) = self.then_else.1 {
                c.enter("else");
                self.applicator.else_ = Some(c.subschema_id(v));
                c.leave();
            }
        } else {
            for (keyword, v) in [("then", self.then_else.0), ("else", self.then_else.1)] {
                if let Some(v) = v {
                    // Still a schema: compiled for its problems, never applied.
                    c.enter(keyword);
                    c.subschema(v);
                    c.leave();
                }
            }
        }
        let asserts = self.types.is_some()
            || !self.object.is_empty()
            || !self.array.is_empty()
            || !self.string.is_empty()
            || !self.number.is_empty()
            || !self.choice.is_empty()
            || !self.applicator.is_empty();
        if !asserts {
            // No group to build, so no location to keep.
            return Node::ANY;
        }
        // Where this schema object is, for the violations of its keywords: written
        // once into the program's locations, each group keeping its place there.
        let at = c.location();
        let object =
            (!self.object.is_empty()).then(|| std::mem::take(&mut self.object).finish(c, at));
        let mut applicator = std::mem::take(&mut self.applicator);
        applicator.count_alternatives(&c.prog);
        let prog = &mut c.prog;
        let mut node = Node::ANY;
        if let Some((mask, names)) = self.types {
            node.types = mask;
            let rule = TypeRule { names, at };
            node.types_text = push(&mut prog.texts, rule);
        }
        if let Some(o) = object {
            node.object = push(&mut prog.objects, o);
        }
        if !self.array.is_empty() {
            node.array = push(&mut prog.arrays, std::mem::take(&mut self.array).finish(at));
        }
        if !self.string.is_empty() {
            let mut string = std::mem::take(&mut self.string);
            string.at = at;
            string.full = string.format.is_some() || string.content != string::Content::default();
            node.string = push(&mut prog.strings, string);
        }
        if !self.number.is_empty() {
            let mut number = std::mem::take(&mut self.number);
            number.at = at;
            number.full = number.exclusive_minimum.is_some()
                || number.exclusive_maximum.is_some()
                || number.multiple_of.is_some()
                || number.format.is_some();
            node.number = push(&mut prog.numbers, number);
        }
        if !self.choice.is_empty() {
            let mut choice = std::mem::take(&mut self.choice);
            choice.at = at;
            node.choice = push(&mut prog.choices, choice);
            node.rereads = true;
        }
        if !applicator.is_empty() {
            applicator.at = at;
            node.applicator = push(&mut prog.applicators, applicator);
            node.rereads = true;
        }
        node
    }
}
