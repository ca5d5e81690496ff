//! A union told apart by one property: `oneOf` whose every branch is an object schema
//! with the same property name bound to a string `const` of its own (zod's
//! discriminated unions, pydantic's tagged unions, `{"method": {"const": "card"},
//! ...}`). An object whose tag property holds a string can pass only the branch whose
//! `const` it equals: every other branch applies its own `const` to that property and
//! fails. So a first-error walk reads the tag and walks that one branch, where `oneOf`
//! would walk every branch to see that exactly one passes.
//!
//! Only the verdict uses this. A walk that collects violations still tries every
//! branch, since its message names what each one wanted; and when the tag cannot be
//! read (not an object, no such property before the first nested value, malformed
//! bytes before it), every branch is tried as before.
//!
//! `anyOf` does not use it: it stops at the first branch that passes, so when that is
//! the first branch tried, the tag's read is a second read of the object for nothing.
//! Measured on openai-node's `query` calls (an `anyOf` of objects whose tag comes
//! last), reading the tag made one call 6% cheaper and another 18% dearer; looking
//! for it in the first member only made both 5% to 8% dearer.

use crate::json::{JsonStr, Kind, Reader};

use super::super::program::{Node, NodeId, Program, SpecialKind, Store};
use super::object::ObjectGroup;

/// The most branches a tag is looked for in, and the most names of the first branch
/// tried as the tag: the search runs once per union at compile time and stays small.
const MAX_BRANCHES: usize = 256;
const MAX_CANDIDATES: usize = 16;

/// The property that tells a union's branches apart, and the value each branch
/// requires of it (`values[i]` is branch `i`'s, all distinct).
pub(crate) struct Tag {
    name: Box<str>,
    values: Box<[Box<str>]>,
}

/// What the tag of the value says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// Only this branch can pass.
    Branch(usize),
    /// No branch can pass: the tag's value is not one of theirs.
    Nothing,
}

impl Tag {
    /// The tag of `branches`, when they have one (see the module's text).
    pub(crate) fn of<S: Store>(prog: &Program<S>, branches: &[NodeId]) -> Option<Box<Tag>> {
        if branches.len() < 2 || branches.len() > MAX_BRANCHES {
            return None;
        }
        let first = branch_object(prog, branches[0])?;
        (0..first.names.len().min(MAX_CANDIDATES)).find_map(|i| {
            let name = first.names.name(i);
            let values: Vec<Box<str>> = branches
                .iter()
                .map(|&b| {
                    let o = branch_object(prog, b)?;
                    let node = property(o, name)?;
                    string_const(prog, node).map(Box::from)
                })
                .collect::<Option<_>>()?;
            let distinct = values
                .iter()
                .enumerate()
                .all(|(k, v)| !values[..k].contains(v));
            distinct.then(|| {
                Box::new(Tag {
                    name: Box::from(name),
                    values: values.into_boxed_slice(),
                })
            })
        })
    }

    /// Reads the tag of the value at `start` (without moving `r`): which branch it
    /// picks, or `None` when it cannot be read, and every branch must be tried.
    ///
    /// The tag is looked for among the members before the first whose value is an
    /// array or an object: the read never goes into a nested value. Were it to skip
    /// them, a tagged union nested in itself with the tag after the nested member
    /// would read each level's members again at every level above it, a work that
    /// grows with the depth times the size.
    pub(crate) fn pick(&self, r: &Reader<'_>, start: usize, depth: usize) -> Option<Pick> {
        let mut r = r.at(start);
        if r.peek_kind().ok()? != Kind::Object || !r.begin_object(depth).ok()? {
            return None;
        }
        loop {
            let key = r.read_key_unchecked().ok()?;
            if key.eq_str(&self.name) {
                return Some(self.pick_value(&mut r));
            }
            if matches!(r.peek_kind().ok()?, Kind::Object | Kind::Array) {
                return None;
            }
            r.skip_value(depth + 1).ok()?;
            if !r.next_member().ok()? {
                return None;
            }
        }
    }

    fn pick_value(&self, r: &mut Reader<'_>) -> Pick {
        let value: Option<JsonStr<'_>> = match r.peek_kind() {
            Ok(Kind::String) => r.read_string().ok(),
            _ => None,
        };
        value
            .and_then(|v| self.values.iter().position(|t| v.eq_str(t)))
            .map_or(Pick::Nothing, Pick::Branch)
    }
}

/// The object group of branch `b`, past references (but not a dynamic one, whose
/// target the walk decides).
fn branch_object<S: Store>(prog: &Program<S>, b: NodeId) -> Option<&ObjectGroup<S>> {
    let node = static_target(prog, prog.node(b))?;
    prog.objects.get(node.object as usize)
}

/// The node whose keywords apply to a value of `node`, when it does not depend on the
/// dynamic scope.
fn static_target<'p, S: Store>(prog: &'p Program<S>, mut node: &'p Node) -> Option<&'p Node> {
    // A chain of references is at most as long as the program has nodes.
    for _ in 0..=prog.nodes.len() {
        if !node.special {
            return Some(node);
        }
        let special = prog.special_of(node);
        if special.kind == SpecialKind::Dynamic {
            return None;
        }
        node = prog.node(special.inner);
    }
    None
}

/// The `properties` subschema of `name` in `o`, looked up in the group's table (so
/// finding a tag costs the same whatever the number of names). Only a name a key
/// writes without escapes is looked for: its bytes are then its token's.
fn property<'o, S: Store>(o: &'o ObjectGroup<S>, name: &str) -> Option<&'o Node> {
    if name.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        return None;
    }
    let key = JsonStr::new(name.as_bytes(), false, name.is_ascii());
    o.names.find(&key).and_then(|(_, node)| node.as_ref())
}

/// The string a node's `const` (or `enum` of one) requires, if it does.
fn string_const<'p, S: Store>(prog: &'p Program<S>, node: &'p Node) -> Option<&'p str> {
    let node = static_target(prog, node)?;
    let g = prog.choices.get(node.choice as usize)?;
    let only = |c: Option<&'p super::choice::Choices<S>>| match c?.strings()? {
        [s] => Some(&**s),
        _ => None,
    };
    only(g.const_.as_ref()).or_else(|| only(g.enum_.as_ref()))
}

#[cfg(test)]
mod tests {
    use crate::schema::{Options, Profile, Schema};

    fn full(json: &str) -> Schema {
        let opts = Options::default().with_profile(Profile::Full);
        Schema::compile_with(json.as_bytes(), &opts).unwrap()
    }

    const UNION: &str = r#"{"type":"object","properties":{"u":{"anyOf":[
        {"type":"object","properties":{"kind":{"const":"a"},"n":{"type":"integer"}},"required":["kind","n"]},
        {"type":"object","properties":{"kind":{"const":"b"},"s":{"type":"string"}},"required":["kind"]},
        {"type":"object","properties":{"kind":{"enum":["c"]},"k":{"type":"string"}},"additionalProperties":false}]}}}"#;

    /// The verdict is the same with the tag as without it: every value, under
    /// `anyOf` and `oneOf`, agrees with the collecting walk (which tries every branch).
    #[test]
    fn a_tagged_union_gives_the_verdict_of_every_branch() {
        let values = [
            r#"{"kind":"a","n":1}"#,
            r#"{"n":1,"kind":"a"}"#,
            r#"{"kind":"a","n":"1"}"#,
            r#"{"kind":"b"}"#,
            r#"{"kind":"b","s":2}"#,
            r#"{"kind":"c","k":"x"}"#,
            r#"{"kind":"c","k":"x","n":1}"#,
            r#"{"kind":"\u0061","n":1}"#,
            r#"{"kind":"d"}"#,
            r#"{"kind":7}"#,
            r#"{"kind":null,"n":1}"#,
            r#"{"n":1}"#,
            r#"{}"#,
            r#"{"x":[1,{"y":2}],"kind":"b"}"#,
            r#"{"kind":"a","kind":"b"}"#,
            r#"{"kind":"b","s":[1,}"#,
            r#"{"s":[1,},"kind":"b"}"#,
            r#"[1]"#,
            r#""a""#,
        ];
        for keyword in ["anyOf", "oneOf"] {
            let schema = full(&UNION.replace("anyOf", keyword));
            for value in values {
                let doc = format!(r#"{{"u":{value}}}"#);
                let errors = schema.validate_json(doc.as_bytes());
                assert_eq!(
                    schema.is_valid(doc.as_bytes()),
                    errors.is_empty(),
                    "{keyword} on {doc}: {errors:?}"
                );
            }
        }
    }

    /// Which unions have a tag, and what it picks.
    #[test]
    fn a_tag_is_a_name_every_branch_binds_to_a_string_of_its_own() {
        use super::{Pick, Tag};
        use crate::json::Reader;
        let tag_of = |json: &str| {
            let schema = full(json);
            let g = schema
                .prog
                .applicators
                .first()
                .expect("one applicator group");
            let branches = if g.any_of.is_empty() {
                &g.one_of
            } else {
                &g.any_of
            };
            Tag::of(&schema.prog, branches).map(|t| (t.name.to_string(), t.values.to_vec()))
        };
        let tagged = tag_of(UNION);
        assert_eq!(
            tagged,
            Some(("kind".to_string(), vec!["a".into(), "b".into(), "c".into()]))
        );
        // Two branches on the same value, a branch without the property, a number
        // const, an enum of two: no tag.
        for json in [
            r#"{"anyOf":[{"properties":{"t":{"const":"a"}}},{"properties":{"t":{"const":"a"}}}]}"#,
            r#"{"anyOf":[{"properties":{"t":{"const":"a"}}},{"properties":{"u":{"const":"b"}}}]}"#,
            r#"{"anyOf":[{"properties":{"t":{"const":1}}},{"properties":{"t":{"const":2}}}]}"#,
            r#"{"anyOf":[{"properties":{"t":{"enum":["a","b"]}}},{"properties":{"t":{"const":"c"}}}]}"#,
            r#"{"anyOf":[{"properties":{"t":{"const":"a"}}}]}"#,
        ] {
            assert_eq!(tag_of(json), None, "{json}");
        }
        // Through references, and on the second name of the first branch.
        let refs = r##"{"$defs":{"a":{"properties":{"x":{"type":"string"},"t":{"$ref":"#/$defs/ta"}}},"ta":{"const":"a"}},
            "oneOf":[{"$ref":"#/$defs/a"},{"properties":{"t":{"const":"b"},"x":{"const":"b"}}}]}"##;
        assert_eq!(
            tag_of(refs),
            Some(("t".to_string(), vec!["a".into(), "b".into()]))
        );
        let schema = full(UNION);
        let g = schema.prog.applicators.first().unwrap();
        let tag = Tag::of(&schema.prog, &g.any_of).unwrap();
        let pick = |doc: &str| tag.pick(&Reader::new(doc.as_bytes(), 16), 0, 0);
        assert_eq!(pick(r#"{"n":1,"s":"x","kind":"c"}"#), Some(Pick::Branch(2)));
        // Not past a nested value (whose own members may hold the same name).
        assert_eq!(pick(r#"{"n":[1,{"kind":"a"}],"kind":"c"}"#), None);
        assert_eq!(pick(r#"{"n":{"kind":"a"},"kind":"c"}"#), None);
        assert_eq!(
            pick(r#"{"kind":"c","n":{"kind":"a"}}"#),
            Some(Pick::Branch(2))
        );
        assert_eq!(pick(r#"{"kind":"\u0062"}"#), Some(Pick::Branch(1)));
        assert_eq!(pick(r#"{"kind":"z"}"#), Some(Pick::Nothing));
        assert_eq!(pick(r#"{"kind":{"a":1}}"#), Some(Pick::Nothing));
        assert_eq!(pick(r#"{"n":1}"#), None);
        assert_eq!(pick(r#"{"n":[1,}"#), None);
        assert_eq!(pick(r#"[1]"#), None);
    }
}
