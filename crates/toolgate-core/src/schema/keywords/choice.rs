//! `enum` and `const`: the value equals one of the listed values (`const` is a list of
//! one), by value (see [`equals`]).

use crate::json::{same_bytes, write_json_string, Doc, JsonStr, Reader, Value};

use super::super::compile::Compiler;
use super::super::equal::equals;
use super::super::message::{push_value, quoted_len};
use super::super::program::Loc;
use super::super::sink::{At, Member, Sink, W};
use crate::arena::{with_place, Arena, Building, Frozen, Plan, Reserved, Store, TableStr};

/// The allowed values and their rendering.
///
/// Built with texts of its own ([`Building`]); a compiled program keeps a group's texts
/// and listed strings in its block ([`Frozen`]), so an `enum` of strings costs no
/// allocation of its own.
pub(crate) struct Choices<S: Store = Frozen> {
    /// The values, compared by value, when some is not a string (else empty: the
    /// strings are compared directly).
    values: Vec<Value>,
    /// `["c","f"]` for enum, `"c"` for const.
    text: S::Text,
    /// The allowed values when every one is a string (the common enum): an instance
    /// string is compared with them directly.
    strings: Option<S::Table<S::Text>>,
}

/// The `enum` and `const` of one schema.
pub(crate) struct ChoiceGroup<S: Store = Frozen> {
    pub enum_: Option<Choices<S>>,
    pub const_: Option<Choices<S>>,
    /// Where the schema object is (for the violations' schema location).
    pub at: Loc,
}

impl Default for ChoiceGroup<Building> {
    fn default() -> Self {
        ChoiceGroup {
            enum_: None,
            const_: None,
            at: Loc::default(),
        }
    }
}

impl<S: Store> ChoiceGroup<S> {
    pub(crate) fn is_empty(&self) -> bool {
        self.enum_.is_none() && self.const_.is_none()
    }
}

impl<S: Store> Choices<S> {
    /// The allowed values when every one is a string.
    pub(crate) fn strings(&self) -> Option<&[S::Text]> {
        self.strings.as_deref()
    }
}

/// The choices of `values`; `whole` is what the keyword holds (the array of an `enum`,
/// the value of a `const`), whose compact text the violations quote.
fn choices(values: &[Doc<'_>], whole: &Doc<'_>) -> Choices<Building> {
    if let Some(choices) = string_choices(values, matches!(whole, Doc::Array(_))) {
        return choices;
    }
    // Compared by value, since some value is not a string.
    Choices {
        values: values.iter().map(|v| v.to_value()).collect(),
        text: whole.to_compact(),
        strings: None,
    }
}

/// The common choices, strings only (else `None`): their text (an array when
/// `listed`) is written here, sized once, rather than by the tree's writer, which
/// grew it a few times.
fn string_choices(values: &[Doc<'_>], listed: bool) -> Option<Choices<Building>> {
    let mut strings = Vec::with_capacity(values.len());
    let mut room = 2;
    for v in values {
        let Doc::String(s) = v else {
            return None;
        };
        room += s.len() + 3;
        strings.push((*s).to_owned());
    }
    let mut text = String::with_capacity(room);
    if listed {
        text.push('[');
    }
    for (i, s) in strings.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        write_json_string(&mut text, s);
    }
    if listed {
        text.push(']');
    }
    Some(Choices {
        values: Vec::new(),
        text,
        strings: Some(strings),
    })
}

impl ChoiceGroup<Building> {
    /// Reserves room for the group's texts and strings in `plan` (see
    /// [`ChoiceGroup::freeze`]).
    pub(crate) fn reserve(&self, plan: &mut Plan) -> ChoicePlaces {
        let mut reserve = |c: &Option<Choices<Building>>| {
            c.as_ref().map(|c| ChoicePlace {
                text: plan.reserve(c.text.len()),
                strings: c.strings.as_ref().map(|list| {
                    let table = plan.reserve(list.len());
                    (list.iter().map(|t| plan.reserve(t.len())).collect(), table)
                }),
            })
        };
        ChoicePlaces {
            enum_: reserve(&self.enum_),
            const_: reserve(&self.const_),
        }
    }

    /// The group with its texts and strings moved into `arena`, where `at` reserved.
    ///
    /// # Safety
    ///
    /// As [`Arena::fill`]: the group returned is not read once the arena is dropped.
    pub(crate) unsafe fn freeze(self, arena: &mut Arena, at: ChoicePlaces) -> ChoiceGroup {
        // SAFETY: as the caller promised; each part is filled where it was reserved,
        // in the order it was.
        let mut freeze = |c: Option<Choices<Building>>, at: Option<ChoicePlace>| unsafe {
            let (c, at) = with_place(c, at)?;
            let text = TableStr::fill(arena, at.text, c.text);
            let strings = with_place(c.strings, at.strings).map(|(list, (texts, table))| {
                let mut texts = list.into_iter().zip(texts);
                arena.fill_with(table, |arena| {
                    let (t, at) = texts.next().expect("one place per string");
                    TableStr::fill(arena, at, t)
                })
            });
            Some(Choices {
                values: c.values,
                text,
                strings,
            })
        };
        let enum_ = freeze(self.enum_, at.enum_);
        let const_ = freeze(self.const_, at.const_);
        ChoiceGroup {
            enum_,
            const_,
            at: self.at,
        }
    }
}

/// Where a choice's text and its strings go in an arena: the text, then the table of
/// the strings, then each string's text.
struct ChoicePlace {
    text: Reserved<u8>,
    strings: Option<(Vec<Reserved<u8>>, Reserved<TableStr>)>,
}

/// Where a choice group's texts and strings go in an arena.
pub(crate) struct ChoicePlaces {
    enum_: Option<ChoicePlace>,
    const_: Option<ChoicePlace>,
}

/// Compiles `enum` into `group`.
/// An empty `enum` is refused in the core profile; the full profile takes it as the
/// drafts do (an array that matches nothing).
pub(crate) fn compile_enum(c: &mut Compiler<'_>, group: &mut ChoiceGroup<Building>, v: &Doc<'_>) {
    match v {
        Doc::Array(vals) if !vals.is_empty() || c.is_full() => {
            group.enum_ = Some(choices(vals, v));
        }
        _ if c.is_full() => c.problem("enum", "\"enum\" must be an array"),
        _ => c.problem("enum", "\"enum\" must be a non-empty array"),
    }
}

/// Compiles `const` into `group`.
pub(crate) fn compile_const(group: &mut ChoiceGroup<Building>, v: &Doc<'_>) {
    group.const_ = Some(choices(std::slice::from_ref(v), v));
}

const NOT_EQUAL: &str = " is not equal to ";
const NOT_ONE_OF: &str = " is not one of ";

/// Checks the value that spans `start..r.pos()` (`string` when it is a string).
#[inline(always)]
pub(crate) fn check<'a, S: Sink<'a>>(
    g: &ChoiceGroup,
    r: &Reader<'a>,
    start: usize,
    string: Option<JsonStr<'a>>,
    sink: &mut S,
) -> W {
    let span = &r.input()[start..r.pos()];
    if let Some(c) = &g.const_ {
        if !matches(c, r, start, string) {
            let capacity = quoted_len(span.len()) + NOT_EQUAL.len() + c.text.len();
            sink.report("const", At::Object(g.at), Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(NOT_EQUAL);
                m.push_str(&c.text);
            })?;
        }
    }
    if let Some(e) = &g.enum_ {
        if !matches(e, r, start, string) {
            let capacity = quoted_len(span.len()) + NOT_ONE_OF.len() + e.text.len();
            sink.report("enum", At::Object(g.at), Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(NOT_ONE_OF);
                m.push_str(&e.text);
            })?;
        }
    }
    Ok(())
}

/// Whether the value at `start` equals one of the choices.
#[inline(always)]
fn matches(c: &Choices, r: &Reader<'_>, start: usize, string: Option<JsonStr<'_>>) -> bool {
    let Some(strings) = &c.strings else {
        return c.values.iter().any(|v| equals(&mut r.at(start), v, 0));
    };
    // The common enum of strings: the token is compared directly. A plain loop, not
    // `any` with a closure: the closure was left out of line, which cost 2-3% of a
    // realistic call (callgrind).
    let Some(s) = string else {
        return false;
    };
    let Some(plain) = s.as_plain_str() else {
        return strings.iter().any(|t| s.eq_str(t));
    };
    for t in strings.iter() {
        if same_bytes(plain.as_bytes(), t.as_bytes()) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use bumpalo::Bump;

    /// The text of an `enum` or `const` of strings, written here, is the one the
    /// tree's writer gives (which the other choices keep): escapes, DEL, non-ASCII,
    /// the empty string; and the strings listed are the values, decoded.
    #[test]
    fn a_choice_of_strings_is_written_as_the_tree_writes_it() {
        let docs = [
            r#"["bar","multiBar","line"]"#,
            r#"["quote \" and \\ back","tab\tnew\nline","\u007f del","\u0001"]"#,
            r#"["caf\u00e9","日本","😀",""]"#,
            r#""just one""#,
            r#""esc\"aped""#,
            r#"["a",1,null]"#,
            r#"[]"#,
        ];
        for doc in docs {
            let arena = Bump::new();
            let (v, _) = Doc::parse_compact(doc.as_bytes(), 64, &arena).unwrap();
            let values = match v {
                Doc::Array(items) => items,
                _ => std::slice::from_ref(&v),
            };
            let c = choices(values, &v);
            assert_eq!(c.text, v.to_compact(), "{doc}");
            let want: Option<Vec<String>> = values
                .iter()
                .map(|v| match v {
                    Doc::String(s) => Some((*s).to_owned()),
                    _ => None,
                })
                .collect();
            assert_eq!(c.strings, want, "{doc}");
            assert_eq!(c.values.is_empty(), want.is_some(), "{doc}");
        }
    }
}
