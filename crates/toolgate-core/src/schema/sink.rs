//! Where a walk's violations go. The walk is generic over a [`Sink`]: [`FirstError`]
//! stops at the first violation and tracks nothing (the allocation-free `is_valid`
//! path); [`Collect`] tracks the path and gathers every violation (the `validate_json`
//! path).

use crate::json::{JsonStr, SyntaxError};

use super::path::{render_path_and_pointer, PathStack, Seg};
use super::program::{Loc, Program};
use super::ValidationError;

/// Why the walk stopped early.
pub(crate) enum Stop {
    /// The input is not well-formed JSON: that is the only error reported.
    Syntax(SyntaxError),
    /// A violation, in first-error mode.
    Invalid,
}

impl From<SyntaxError> for Stop {
    fn from(e: SyntaxError) -> Self {
        Stop::Syntax(e)
    }
}

/// What a step of the walk returns.
pub(crate) type W = Result<(), Stop>;

/// Where in the schema the rule a violation breaks is written, for its
/// `schema_location`.
#[derive(Clone, Copy)]
pub(crate) enum At<'s> {
    /// In the schema object at this place of the program's locations: the rule is the
    /// reported keyword there, or, for `false`, the schema itself.
    Object(Loc),
    /// In the schema object at this location (`#`), as [`At::Object`].
    Schema(&'s str),
    /// Exactly this location (a violation passed on from a subschema's walk).
    Rule(&'s str),
}

/// A message being written: the text, and whether instance values must be left out
/// of it (see [`Options::with_masked_values`](super::Options::with_masked_values)).
/// It reads and writes as the `String` it holds.
pub(crate) struct Msg {
    pub text: String,
    pub masked: bool,
}

impl std::ops::Deref for Msg {
    type Target = String;
    fn deref(&self) -> &String {
        &self.text
    }
}

impl std::ops::DerefMut for Msg {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.text
    }
}

/// The member a pointer should name, for errors whose fix goes inside the object.
pub(crate) enum Member<'s, 'a> {
    None,
    /// A name from the schema (`required`).
    Name(&'s str),
    /// A key from the instance (an unexpected property).
    Key(JsonStr<'a>),
}

/// `Send`: a walk that nests past its stack's room goes on on a thread of its own,
/// with its sink (see `crate::stack`).
pub(crate) trait Sink<'a>: Send {
    /// True when the sink gathers errors (and so needs paths and messages).
    const COLLECT: bool;
    fn push(&mut self, seg: Seg<'a>);
    fn pop(&mut self);
    /// Records a violation of the rule `at` at the current path. `message` writes the
    /// message into the buffer it is given (with room for `capacity` bytes), and runs
    /// only when collecting.
    fn report(
        &mut self,
        keyword: &'static str,
        at: At<'_>,
        member: Member<'_, 'a>,
        capacity: usize,
        message: impl FnOnce(&mut Msg),
    ) -> W;
    /// The current path, for walking a branch again to explain a failure.
    fn path(&self) -> Vec<Seg<'a>>;
    /// Where a collecting sink keeps the (node, position) pairs it has walked already,
    /// with where each value ends (a recursive schema's memo; see `SpecialKind::Memo`).
    fn walked(&mut self) -> Option<&mut Walked> {
        None
    }
    /// True when a failed `anyOf`/`oneOf` should say what each branch wanted: in the
    /// main collecting walk, not inside such an explanation (whose own nested failures
    /// would each walk their branches again, level after level).
    fn explains(&self) -> bool {
        false
    }
}

/// (node id, value position, dynamic scope id) → where the value ends.
pub(crate) type Walked = super::memo::MemoMap<(u32, usize, u32), usize>;

/// First-error mode: no paths, no messages, no allocation.
pub(crate) struct FirstError;

impl<'a> Sink<'a> for FirstError {
    const COLLECT: bool = false;
    #[inline]
    fn push(&mut self, _: Seg<'a>) {}
    #[inline]
    fn pop(&mut self) {}
    #[inline]
    fn report(
        &mut self,
        _: &'static str,
        _: At<'_>,
        _: Member<'_, 'a>,
        _: usize,
        _: impl FnOnce(&mut Msg),
    ) -> W {
        Err(Stop::Invalid)
    }
    fn path(&self) -> Vec<Seg<'a>> {
        Vec::new()
    }
}

/// Collect mode: every violation, with its path and pointer.
pub(crate) struct Collect<'a, 'p> {
    /// The program walked: where its schema objects' locations are written.
    prog: &'p Program,
    pub path: PathStack<'a>,
    pub errors: Vec<ValidationError>,
    /// The recursive nodes already walked at a position: walking one again would only
    /// report the same violations again.
    /// Made on first use.
    walked: Option<Walked>,
    /// False in a sink that explains a failure (see [`Sink::explains`]).
    explains: bool,
    /// The most violations it keeps: a report past them stops the walk.
    limit: usize,
    /// True when a report came past the limit.
    pub more: bool,
}

impl<'a, 'p> Collect<'a, 'p> {
    /// A sink for a walk of `prog`.
    pub(crate) fn new(prog: &'p Program) -> Self {
        Collect {
            prog,
            path: PathStack::new(),
            errors: Vec::new(),
            walked: None,
            explains: true,
            limit: usize::MAX,
            more: false,
        }
    }

    /// The sink keeps at most `limit` violations; the next stops the walk (see
    /// [`Collect::more`]).
    pub(crate) fn at_most(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// A sink that explains a failure: its path starts at `path` (to walk a branch
    /// again at the same place), and it does not explain failures of its own.
    pub(crate) fn explaining(path: &[Seg<'a>], prog: &'p Program) -> Self {
        Collect {
            prog,
            path: PathStack::from_slice(path),
            errors: Vec::new(),
            walked: None,
            explains: false,
            limit: usize::MAX,
            more: false,
        }
    }
}

/// What a violation is to a [`Collect`] at its limit.
enum AtLimit {
    /// There is room for it after all (repeats of kept violations were dropped).
    Room,
    /// The same (path, message) as one kept: identical violations count once.
    Repeat,
    /// One more than the limit.
    More,
}

impl Collect<'_, '_> {
    /// What the violation is to the list at its limit: repeats are dropped first, so
    /// the list stops with `limit` distinct violations, as the whole list keeps one of
    /// each (by [`same_violation`](super::same_violation), the whole list's own test:
    /// comparing the place and message alone took a second keyword's violation of the
    /// same member for a repeat, and a listing past its limit then said nothing of the
    /// ones it left out).
    #[cold]
    fn at_limit(&mut self, path: &str, pointer: &str, keyword: &str, message: &str) -> AtLimit {
        super::sort_errors(&mut self.errors);
        if self.errors.len() < self.limit {
            AtLimit::Room
        } else if self
            .errors
            .iter()
            .any(|e| super::same_violation(e, path, pointer, keyword, message))
        {
            AtLimit::Repeat
        } else {
            AtLimit::More
        }
    }
}

impl<'a> Sink<'a> for Collect<'a, '_> {
    const COLLECT: bool = true;
    fn push(&mut self, seg: Seg<'a>) {
        self.path.push(seg);
    }
    fn pop(&mut self) {
        self.path.pop();
    }
    fn report(
        &mut self,
        keyword: &'static str,
        at: At<'_>,
        member: Member<'_, 'a>,
        capacity: usize,
        message: impl FnOnce(&mut Msg),
    ) -> W {
        let extra = match &member {
            Member::None => None,
            Member::Name(n) => Some(std::borrow::Cow::Borrowed(*n)),
            Member::Key(k) => Some(k.to_cow()),
        };
        let (path, pointer) = render_path_and_pointer(self.path.as_slice(), extra.as_deref());
        let mut text = Msg {
            text: String::with_capacity(capacity),
            // Instance values are left out of the messages of a masked program.
            masked: self.prog.masked,
        };
        message(&mut text);
        if self.errors.len() >= self.limit {
            match self.at_limit(&path, &pointer, keyword, &text.text) {
                AtLimit::Room => {}
                AtLimit::Repeat => return Ok(()),
                AtLimit::More => {
                    self.more = true;
                    return Err(Stop::Invalid);
                }
            }
        }
        let schema_location = schema_location(self.prog, at, keyword);
        if self.errors.capacity() == 0 {
            // A refused call rarely has one error: room for several at once spares
            // the copies of growing 4 -> 8.
            self.errors.reserve_exact(8);
        }
        self.errors.push(ValidationError {
            path,
            pointer,
            keyword,
            message: text.text,
            schema_location,
        });
        Ok(())
    }
    fn path(&self) -> Vec<Seg<'a>> {
        self.path.as_slice().to_vec()
    }
    fn walked(&mut self) -> Option<&mut Walked> {
        Some(self.walked.get_or_insert_with(Walked::default))
    }
    fn explains(&self) -> bool {
        self.explains
    }
}

/// The location of the rule `keyword` reported `at`: the schema object's location and
/// the keyword (`#/properties/days` and `type` → `#/properties/days/type`), the
/// schema's own for `false`.
fn schema_location(prog: &Program, at: At<'_>, keyword: &str) -> String {
    let object = match at {
        At::Rule(location) => return location.to_owned(),
        At::Object(loc) => prog.location(loc),
        At::Schema(object) => object,
    };
    if keyword == "false" {
        return object.to_owned();
    }
    let mut out = String::with_capacity(object.len() + 1 + keyword.len());
    out.push_str(object);
    out.push('/');
    out.push_str(keyword);
    out
}
