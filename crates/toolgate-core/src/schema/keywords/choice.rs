//! `enum` and `const`: the value equals one of the listed values (`const` is a list of
//! one), by value (see [`equals`]).

use crate::json::{same_bytes, Doc, JsonStr, Reader, Value};

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

fn choices(values: &[Doc<'_>], text: String) -> Choices<Building> {
    let strings: Option<Vec<String>> = values
        .iter()
        .map(|v| match v {
            Doc::String(s) => Some((*s).to_owned()),
            _ => None,
        })
        .collect();
    Choices {
        // Compared by value only when some value is not a string.
        values: if strings.is_some() {
            Vec::new()
        } else {
            values.iter().map(|v| v.to_value()).collect()
        },
        text,
        strings,
    }
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
            group.enum_ = Some(choices(vals, v.to_compact()));
        }
        _ if c.is_full() => c.problem("enum", "\"enum\" must be an array"),
        _ => c.problem("enum", "\"enum\" must be a non-empty array"),
    }
}

/// Compiles `const` into `group`.
pub(crate) fn compile_const(group: &mut ChoiceGroup<Building>, v: &Doc<'_>) {
    group.const_ = Some(choices(std::slice::from_ref(v), v.to_compact()));
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
