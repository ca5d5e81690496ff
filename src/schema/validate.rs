//! The validating walk: the reader and the compiled tree advance together, so the
//! instance is checked while it is read and never built into a tree.
//!
//! The walk is generic over a [`Sink`]: [`FirstError`] stops at the first violation
//! and tracks nothing (the allocation-free `is_valid` path); [`Collect`] tracks the
//! path and gathers every violation (the `validate_json` path).
//!
//! Messages are built with `push_str` into one pre-sized buffer, never through
//! `format!`: on the error path the formatting machinery and regrowing strings cost
//! more than the validation itself.

use crate::json::{
    write_compact_span, write_json_string, Decimal, JsonStr, KeySet, Kind, Number, Reader,
    SyntaxError, SyntaxErrorKind,
};

use super::node::*;
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

type W = Result<(), Stop>;

/// A path step: an object member or an array element.
#[derive(Clone, Copy)]
pub(crate) enum Seg<'a> {
    Key(JsonStr<'a>),
    Index(usize),
}

/// The member a pointer should name, for errors whose fix goes inside the object.
pub(crate) enum Member<'s, 'a> {
    None,
    /// A name from the schema (`required`).
    Name(&'s str),
    /// A key from the instance (an unexpected property).
    Key(JsonStr<'a>),
}

pub(crate) trait Sink<'a> {
    /// True when the sink gathers errors (and so needs paths and messages).
    const COLLECT: bool;
    fn push(&mut self, seg: Seg<'a>);
    fn pop(&mut self);
    /// Records a violation at the current path; `message` writes the message into
    /// the buffer it is given, and runs only when collecting.
    #[inline]
    fn report(
        &mut self,
        keyword: &'static str,
        member: Member<'_, 'a>,
        message: impl FnOnce(&mut String),
    ) -> W {
        self.report_sized(keyword, member, 64, message)
    }
    /// [`Sink::report`] for a message of about `capacity` bytes.
    fn report_sized(
        &mut self,
        keyword: &'static str,
        member: Member<'_, 'a>,
        capacity: usize,
        message: impl FnOnce(&mut String),
    ) -> W;
    /// The current path, for walking `anyOf` branches to explain a failure.
    fn path(&self) -> Vec<Seg<'a>>;
}

/// First-error mode: no paths, no messages, no allocation.
pub(crate) struct FirstError;

impl<'a> Sink<'a> for FirstError {
    const COLLECT: bool = false;
    #[inline]
    fn push(&mut self, _: Seg<'a>) {}
    #[inline]
    fn pop(&mut self) {}
    #[inline]
    fn report_sized(
        &mut self,
        _: &'static str,
        _: Member<'_, 'a>,
        _: usize,
        _: impl FnOnce(&mut String),
    ) -> W {
        Err(Stop::Invalid)
    }
    fn path(&self) -> Vec<Seg<'a>> {
        Vec::new()
    }
}

/// Collect mode: every violation, with its path and pointer.
pub(crate) struct Collect<'a> {
    pub path: PathStack<'a>,
    pub errors: Vec<ValidationError>,
}

/// The path to the value being walked: on the stack up to [`PathStack::INLINE`] steps
/// deep (tool arguments rarely nest further), so collecting errors allocates only for
/// the errors themselves.
pub(crate) struct PathStack<'a> {
    inline: [Seg<'a>; PathStack::INLINE],
    len: usize,
    /// Every step, once the path is deeper than `inline` holds.
    spill: Vec<Seg<'a>>,
}

impl<'a> PathStack<'a> {
    const INLINE: usize = 8;

    pub fn new() -> Self {
        PathStack {
            inline: [Seg::Index(0); Self::INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    pub fn from_slice(segs: &[Seg<'a>]) -> Self {
        let mut path = Self::new();
        for &seg in segs {
            path.push(seg);
        }
        path
    }

    #[inline]
    fn push(&mut self, seg: Seg<'a>) {
        if self.len < Self::INLINE {
            self.inline[self.len] = seg;
        } else {
            if self.len == Self::INLINE {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(seg);
        }
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) {
        if self.len > Self::INLINE {
            self.spill.pop();
            if self.len == Self::INLINE + 1 {
                self.spill.clear();
            }
        }
        self.len = self.len.saturating_sub(1);
    }

    pub fn as_slice(&self) -> &[Seg<'a>] {
        if self.len <= Self::INLINE {
            &self.inline[..self.len]
        } else {
            &self.spill
        }
    }
}

impl<'a> Sink<'a> for Collect<'a> {
    const COLLECT: bool = true;
    fn push(&mut self, seg: Seg<'a>) {
        self.path.push(seg);
    }
    fn pop(&mut self) {
        self.path.pop();
    }
    fn report_sized(
        &mut self,
        keyword: &'static str,
        member: Member<'_, 'a>,
        capacity: usize,
        message: impl FnOnce(&mut String),
    ) -> W {
        let extra = match &member {
            Member::None => None,
            Member::Name(n) => Some(std::borrow::Cow::Borrowed(*n)),
            Member::Key(k) => Some(k.to_cow()),
        };
        let (path, pointer) = render_path_and_pointer(self.path.as_slice(), extra.as_deref());
        let mut text = String::with_capacity(capacity);
        message(&mut text);
        if self.errors.capacity() == 0 {
            // A refused call rarely has one error: room for several at once spares
            // the copies of growing 4 -> 8.
            self.errors.reserve_exact(8);
        }
        self.errors.push(ValidationError {
            path,
            pointer,
            keyword,
            message: text,
        });
        Ok(())
    }
    fn path(&self) -> Vec<Seg<'a>> {
        self.path.as_slice().to_vec()
    }
}

fn is_identifier(s: &[u8]) -> bool {
    matches!(s.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        && s.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

/// Bytes a rendering of `segs` will roughly need (room for one more key), so it is
/// allocated once.
fn rendered_len(segs: &[Seg<'_>]) -> usize {
    segs.iter()
        .map(|s| match s {
            Seg::Key(k) => k.raw().len() + 4,
            Seg::Index(_) => 6,
        })
        .sum::<usize>()
        + 24
}

/// Seed 000 form: `$`, `.name`, `["a.b"]`, `[3]`.
pub(crate) fn render_path(segs: &[Seg<'_>]) -> String {
    render_path_and_pointer(segs, None).0
}

/// Both forms of a path in one pass: the seed 000 path (`$`, `.name`, `["a.b"]`,
/// `[3]`) and the RFC 6901 pointer, extended by `member` when the fix goes inside
/// the value. The whole value's pointer is the empty string, which needs no
/// allocation.
pub(crate) fn render_path_and_pointer(segs: &[Seg<'_>], member: Option<&str>) -> (String, String) {
    let capacity = rendered_len(segs) + member.map_or(0, |m| m.len() + 1);
    let mut path = String::with_capacity(capacity);
    let mut pointer = if segs.is_empty() && member.is_none() {
        String::new()
    } else {
        String::with_capacity(capacity)
    };
    path.push('$');
    for s in segs {
        match s {
            Seg::Key(k) => {
                let name = k.to_cow();
                if k.as_plain_str().is_some() && is_identifier(name.as_bytes()) {
                    path.push('.');
                    path.push_str(&name);
                } else {
                    path.push('[');
                    write_json_string(&mut path, &name);
                    path.push(']');
                }
                super::compile::push_pointer_token(&mut pointer, &name);
            }
            Seg::Index(i) => {
                path.push('[');
                push_u64(&mut path, *i as u64);
                path.push(']');
                pointer.push('/');
                push_u64(&mut pointer, *i as u64);
            }
        }
    }
    if let Some(name) = member {
        super::compile::push_pointer_token(&mut pointer, name);
    }
    (path, pointer)
}

/// Longest rendering of an instance value quoted in a message; a model can send
/// megabytes, and the refusal must stay readable.
const QUOTE_LIMIT: usize = 80;

/// Appends the instance value `span` as compact JSON, cut to a readable length.
fn push_value(out: &mut String, span: &[u8]) {
    let from = out.len();
    write_compact_span(out, span);
    if out.len() - from > QUOTE_LIMIT {
        let mut cut = from + QUOTE_LIMIT;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push_str("...");
    }
}

/// Appends `n one` or `n many`.
fn push_count(out: &mut String, n: u64, one: &str, many: &str) {
    push_u64(out, n);
    out.push(' ');
    out.push_str(if n == 1 { one } else { many });
}

/// `integer` for a number with no fractional part, else the JSON type.
fn got_name(kind: Kind, number: Option<Number<'_>>) -> &'static str {
    match kind {
        Kind::Null => "null",
        Kind::True | Kind::False => "boolean",
        Kind::Object => "object",
        Kind::Array => "array",
        Kind::String => "string",
        Kind::Number => {
            if number.is_some_and(|n| n.is_integer()) {
                "integer"
            } else {
                "number"
            }
        }
    }
}

/// The one error of a value of the wrong type (the other keywords would only
/// repeat it); a container is skipped unread.
#[inline(never)]
fn type_mismatch<'a, S: Sink<'a>>(
    types: &Types,
    kind: Kind,
    number: Option<Number<'_>>,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    sink.report("type", Member::None, |m| {
        m.push_str("expected ");
        m.push_str(&types.text);
        m.push_str(", got ");
        m.push_str(got_name(kind, number));
    })?;
    if matches!(kind, Kind::Object | Kind::Array) {
        r.skip_value(depth)?;
    }
    Ok(())
}

/// Validates the value at the cursor against `node`, consuming it.
pub(crate) fn walk<'a, S: Sink<'a>>(
    node: &Node,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    walk_value(node, r, depth, sink)
}

/// The body of [`walk`], inlined into the object and array loops so that a scalar
/// member costs no call of its own (most members of a tool call are scalars).
#[inline(always)]
fn walk_value<'a, S: Sink<'a>>(node: &Node, r: &mut Reader<'a>, depth: usize, sink: &mut S) -> W {
    let rules = match node {
        Node::Rules(rules) => rules,
        Node::True => return Ok(r.skip_value(depth)?),
        Node::False => {
            r.peek_kind()?;
            sink.report("false", Member::None, |m| {
                m.push_str("no value is allowed here")
            })?;
            return Ok(r.skip_value(depth)?);
        }
    };
    let kind = r.peek_kind()?;
    let start = r.pos();
    let mut string = None;
    match kind {
        Kind::String => {
            let s = r.read_string()?;
            if let Some(t) = rules.type_refusing(T_STRING) {
                return type_mismatch(t, kind, None, r, depth, sink);
            }
            if let Some(sr) = &rules.string {
                check_string(sr, s, &r.input()[start..r.pos()], sink)?;
            }
            string = Some(s);
        }
        Kind::Number => {
            let n = r.read_number()?;
            if let Some(t) = &rules.types {
                if !t.accepts_number(&n) {
                    return type_mismatch(t, kind, Some(n), r, depth, sink);
                }
            }
            if let Some(nr) = &rules.number {
                check_number(nr, n, sink)?;
            }
        }
        Kind::Object => {
            if let Some(t) = rules.type_refusing(T_OBJECT) {
                return type_mismatch(t, kind, None, r, depth, sink);
            }
            match &rules.object {
                Some(o) => walk_object(o, r, depth, sink)?,
                None => r.skip_value(depth)?,
            }
        }
        Kind::Array => {
            if let Some(t) = rules.type_refusing(T_ARRAY) {
                return type_mismatch(t, kind, None, r, depth, sink);
            }
            match &rules.array {
                Some(a) => walk_array(a, r, depth, sink)?,
                None => r.skip_value(depth)?,
            }
        }
        Kind::True | Kind::False | Kind::Null => {
            r.read_literal(kind)?;
            let bit = if kind == Kind::Null {
                T_NULL
            } else {
                T_BOOLEAN
            };
            if let Some(t) = rules.type_refusing(bit) {
                return type_mismatch(t, kind, None, r, depth, sink);
            }
        }
    }
    if rules.checks_value {
        check_value(rules, r, start, string, depth, sink)?;
    }
    Ok(())
}

/// `const`, `enum` and `anyOf`: the keywords that look at the whole value again.
#[inline(always)]
fn check_value<'a, S: Sink<'a>>(
    rules: &Rules,
    r: &Reader<'a>,
    start: usize,
    string: Option<JsonStr<'a>>,
    depth: usize,
    sink: &mut S,
) -> W {
    let span = &r.input()[start..r.pos()];
    if let Some(c) = &rules.const_ {
        if !matches_choice(c, r, start, string) {
            let capacity = span.len().min(QUOTE_LIMIT + 3) + 17 + c.text.len();
            sink.report_sized("const", Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(" is not equal to ");
                m.push_str(&c.text);
            })?;
        }
    }
    if let Some(e) = &rules.enum_ {
        if !matches_choice(e, r, start, string) {
            let capacity = span.len().min(QUOTE_LIMIT + 3) + 15 + e.text.len();
            sink.report_sized("enum", Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(" is not one of ");
                m.push_str(&e.text);
            })?;
        }
    }
    if !rules.any_of.is_empty() {
        let matched = rules
            .any_of
            .iter()
            .any(|b| walk(b, &mut r.at(start), depth, &mut FirstError).is_ok());
        if !matched {
            let msg = if S::COLLECT {
                explain_any_of(&rules.any_of, r, start, depth, sink.path())
            } else {
                String::new()
            };
            sink.report("anyOf", Member::None, |m| *m = msg)?;
        }
    }
    Ok(())
}

/// Why no `anyOf` branch matched: each branch's first error, so the model sees
/// what each alternative wanted.
fn explain_any_of<'a>(
    branches: &[Node],
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    path: Vec<Seg<'a>>,
) -> String {
    let here = render_path(&path);
    let mut msg = String::from("does not match any schema in anyOf:");
    for (i, b) in branches.iter().enumerate() {
        let mut c = Collect {
            path: PathStack::from_slice(&path),
            errors: Vec::new(),
        };
        let _ = walk(b, &mut r.at(start), depth, &mut c);
        super::sort_errors(&mut c.errors);
        if let Some(e) = c.errors.first() {
            if i > 0 {
                msg.push(';');
            }
            msg.push_str(" [");
            push_u64(&mut msg, i as u64);
            msg.push_str("] ");
            if e.path != here {
                msg.push_str(&e.path);
                msg.push_str(": ");
            }
            msg.push_str(&e.message);
        }
    }
    msg
}

/// Which known properties an object had: their duplicate check and the `required`
/// check. Two kinds, chosen per object so that the common one costs a word and no
/// dispatch: [`u64`] bits for up to 64 properties, [`Seen`] beyond.
trait Marks {
    fn with_room(n: usize) -> Self;
    /// Marks `i`; false when it was already marked (a duplicate key).
    fn set(&mut self, i: usize) -> bool;
    fn get(&self, i: usize) -> bool;
}

impl Marks for u64 {
    #[inline(always)]
    fn with_room(_: usize) -> Self {
        0
    }
    #[inline(always)]
    fn set(&mut self, i: usize) -> bool {
        let bit = 1u64 << (i % 64);
        let fresh = *self & bit == 0;
        *self |= bit;
        fresh
    }
    #[inline(always)]
    fn get(&self, i: usize) -> bool {
        *self & (1 << (i % 64)) != 0
    }
}

/// Marks for more than 64 properties, without allocating for up to 256.
enum Seen {
    Wide([u64; 4]),
    Heap(Vec<bool>),
}

impl Marks for Seen {
    fn with_room(n: usize) -> Seen {
        match n {
            0..=256 => Seen::Wide([0; 4]),
            _ => Seen::Heap(vec![false; n]),
        }
    }
    fn set(&mut self, i: usize) -> bool {
        match self {
            Seen::Wide(words) => words[i / 64].set(i),
            Seen::Heap(v) => !std::mem::replace(&mut v[i], true),
        }
    }
    fn get(&self, i: usize) -> bool {
        match self {
            Seen::Wide(words) => words[i / 64].get(i),
            Seen::Heap(v) => v[i],
        }
    }
}

#[inline(always)]
fn walk_object<'a, S: Sink<'a>>(
    o: &ObjectRules,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    if o.props.len() <= 64 {
        walk_members::<S, u64>(o, r, depth, sink)
    } else {
        walk_members::<S, Seen>(o, r, depth, sink)
    }
}

fn walk_members<'a, S: Sink<'a>, M: Marks>(
    o: &ObjectRules,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let mut seen = M::with_room(o.props.len());
    // Keys the schema does not name; built on the first such key, so an object with
    // only known properties never pays for it.
    let mut others: Option<KeySet<'a>> = None;
    if r.begin_object(depth)? {
        loop {
            let (key, found) = match r.read_known_key(|rest| o.known_key(rest)) {
                Some(known) => {
                    let (key, i) = known?;
                    (key, Some(i))
                }
                None => {
                    let key = r.read_key_unchecked()?;
                    (key, o.find(&key))
                }
            };
            let fresh = match found {
                // A known name: the seen bits are its duplicate check.
                Some(i) => seen.set(i),
                None => others.get_or_insert_with(KeySet::new).insert(key),
            };
            if !fresh {
                return Err(Stop::Syntax(SyntaxError::new(
                    SyntaxErrorKind::DuplicateKey,
                    r.quote_before(key.raw()),
                )));
            }
            let (node, additional) = match found.and_then(|i| o.props[i].node.as_ref()) {
                Some(node) => (Some(node), false),
                None => (o.additional.as_ref(), true),
            };
            match node {
                None => r.skip_value(depth + 1)?,
                Some(Node::False) if additional => {
                    r.peek_kind()?;
                    sink.report("additionalProperties", Member::Key(key), |m| {
                        m.push_str("unexpected property ");
                        write_json_string(m, &key.to_cow());
                    })?;
                    r.skip_value(depth + 1)?;
                }
                Some(node) => {
                    sink.push(Seg::Key(key));
                    walk_value(node, r, depth + 1, sink)?;
                    sink.pop();
                }
            }
            if !r.next_member()? {
                break;
            }
        }
    }
    for required in &o.required {
        if !seen.get(required.index) {
            let name = &o.props[required.index].name;
            let message = &required.message;
            sink.report_sized("required", Member::Name(name), message.len(), |m| {
                m.push_str(message)
            })?;
        }
    }
    Ok(())
}

fn walk_array<'a, S: Sink<'a>>(
    a: &ArrayRules,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let mut count: u64 = 0;
    if r.begin_array(depth)? {
        loop {
            match &a.items {
                Some(items) => {
                    sink.push(Seg::Index(count as usize));
                    walk_value(items, r, depth + 1, sink)?;
                    sink.pop();
                }
                None => r.skip_value(depth + 1)?,
            }
            count += 1;
            if !r.next_element()? {
                break;
            }
        }
    }
    check_count(
        sink,
        count,
        (a.min, a.max),
        ("minItems", "maxItems"),
        ("item", "items"),
    )
}

/// A count against its bounds (`minItems`/`maxItems`, `minLength`/`maxLength`), with
/// the message `expected at least 2 items, got 1`.
#[inline(always)]
fn check_count<'a, S: Sink<'a>>(
    sink: &mut S,
    n: u64,
    (min, max): (Option<u64>, Option<u64>),
    (min_keyword, max_keyword): (&'static str, &'static str),
    (one, many): (&str, &str),
) -> W {
    let mut check = |keyword, bound: u64, fails: bool, relation| {
        if !fails {
            return Ok(());
        }
        sink.report(keyword, Member::None, |m| {
            m.push_str(relation);
            push_count(m, bound, one, many);
            m.push_str(", got ");
            push_u64(m, n);
        })
    };
    if let Some(min) = min {
        check(min_keyword, min, n < min, "expected at least ")?;
    }
    if let Some(max) = max {
        check(max_keyword, max, n > max, "expected at most ")?;
    }
    Ok(())
}

#[inline(always)]
fn check_string<'a, S: Sink<'a>>(sr: &StringRules, s: JsonStr<'a>, span: &[u8], sink: &mut S) -> W {
    if sr.min.is_some() || sr.max.is_some() {
        check_count(
            sink,
            s.char_count() as u64,
            (sr.min, sr.max),
            ("minLength", "maxLength"),
            ("character", "characters"),
        )?;
    }
    if let Some(p) = &sr.pattern {
        let matched = match s.as_plain_str() {
            Some(plain) => p.matcher.is_match(plain),
            None => p.matcher.is_match(&s.to_cow()),
        };
        if !matched {
            let capacity = span.len().min(QUOTE_LIMIT + 3) + 24 + p.quoted_source.len();
            sink.report_sized("pattern", Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(" does not match pattern ");
                m.push_str(&p.quoted_source);
            })?;
        }
    }
    Ok(())
}

#[inline(always)]
fn check_number<'a, S: Sink<'a>>(nr: &NumberRules, n: Number<'_>, sink: &mut S) -> W {
    let shown = |m: &mut String| m.push_str(&String::from_utf8_lossy(n.text));
    if let Some(min) = &nr.minimum {
        if min.compare(n).is_lt() {
            sink.report("minimum", Member::None, |m| {
                shown(m);
                m.push_str(" is less than the minimum ");
                m.push_str(&min.text);
            })?;
        }
    }
    if let Some(max) = &nr.maximum {
        if max.compare(n).is_gt() {
            sink.report("maximum", Member::None, |m| {
                shown(m);
                m.push_str(" is greater than the maximum ");
                m.push_str(&max.text);
            })?;
        }
    }
    Ok(())
}

/// Whether the value at `start` equals one of the choices (by value: numbers
/// numerically, objects regardless of member order).
#[inline(always)]
fn matches_choice(c: &Choices, r: &Reader<'_>, start: usize, string: Option<JsonStr<'_>>) -> bool {
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
    for t in strings {
        if same_bytes(plain.as_bytes(), t.as_bytes()) {
            return true;
        }
    }
    false
}

/// Reads one (well-formed) value and compares it with `v`.
fn equals(r: &mut Reader<'_>, v: &crate::json::Value, depth: usize) -> bool {
    use crate::json::Value as V;
    let Ok(kind) = r.peek_kind() else {
        return false;
    };
    match (kind, v) {
        (Kind::Null, V::Null) | (Kind::True, V::Bool(true)) | (Kind::False, V::Bool(false)) => {
            r.read_literal(kind).is_ok()
        }
        (Kind::Number, V::Number(t)) => match (
            r.read_number().ok().and_then(|n| Decimal::parse(n.text)),
            Decimal::parse(t.as_bytes()),
        ) {
            (Some(a), Some(b)) => a.cmp_value(&b).is_eq(),
            _ => false,
        },
        (Kind::String, V::String(t)) => r.read_string().is_ok_and(|s| s.eq_str(t)),
        (Kind::Array, V::Array(items)) => {
            let Ok(mut more) = r.begin_array(depth) else {
                return false;
            };
            let mut i = 0;
            while more {
                match items.get(i) {
                    Some(item) if equals(r, item, depth + 1) => {}
                    _ => return false,
                }
                i += 1;
                more = match r.next_element() {
                    Ok(m) => m,
                    Err(_) => return false,
                };
            }
            i == items.len()
        }
        (Kind::Object, V::Object(members)) => {
            let Ok(mut more) = r.begin_object(depth) else {
                return false;
            };
            let mut keys = KeySet::new();
            let mut n = 0;
            while more {
                let Ok(key) = r.read_key(&mut keys) else {
                    return false;
                };
                match members.iter().find(|(k, _)| key.eq_str(k)) {
                    Some((_, mv)) if equals(r, mv, depth + 1) => {}
                    _ => return false,
                }
                n += 1;
                more = match r.next_member() {
                    Ok(m) => m,
                    Err(_) => return false,
                };
            }
            n == members.len()
        }
        _ => false,
    }
}
