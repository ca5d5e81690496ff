//! The validating walk: the reader and the compiled tree advance together, so the
//! instance is checked while it is read and never built into a tree.
//!
//! The walk is generic over a [`Sink`]: [`FirstError`] stops at the first violation
//! and tracks nothing (the allocation-free `is_valid` path); [`Collect`] tracks the
//! path and gathers every violation (the `validate_json` path).

use std::borrow::Cow;
use std::fmt::Write;

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
    /// Records a violation at the current path; `message` runs only when collecting.
    fn report(
        &mut self,
        keyword: &'static str,
        member: Member<'_, 'a>,
        message: impl FnOnce() -> String,
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
    fn report(&mut self, _: &'static str, _: Member<'_, 'a>, _: impl FnOnce() -> String) -> W {
        Err(Stop::Invalid)
    }
    fn path(&self) -> Vec<Seg<'a>> {
        Vec::new()
    }
}

/// Collect mode: every violation, with its path and pointer.
pub(crate) struct Collect<'a> {
    pub path: Vec<Seg<'a>>,
    pub errors: Vec<ValidationError>,
}

impl<'a> Sink<'a> for Collect<'a> {
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
        member: Member<'_, 'a>,
        message: impl FnOnce() -> String,
    ) -> W {
        let mut pointer = render_pointer(&self.path);
        match member {
            Member::None => {}
            Member::Name(n) => super::compile::push_pointer_token(&mut pointer, n),
            Member::Key(k) => super::compile::push_pointer_token(&mut pointer, &k.to_cow()),
        }
        self.errors.push(ValidationError {
            path: render_path(&self.path),
            pointer,
            keyword: keyword.to_string(),
            message: message(),
        });
        Ok(())
    }
    fn path(&self) -> Vec<Seg<'a>> {
        self.path.clone()
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Seed 000 form: `$`, `.name`, `["a.b"]`, `[3]`.
pub(crate) fn render_path(segs: &[Seg<'_>]) -> String {
    let mut out = String::with_capacity(1 + segs.len() * 12);
    out.push('$');
    for s in segs {
        match s {
            Seg::Key(k) => {
                let name = k.to_cow();
                if is_identifier(&name) {
                    out.push('.');
                    out.push_str(&name);
                } else {
                    out.push('[');
                    write_json_string(&mut out, &name);
                    out.push(']');
                }
            }
            Seg::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

/// RFC 6901 pointer; the whole value is the empty string.
pub(crate) fn render_pointer(segs: &[Seg<'_>]) -> String {
    let mut out = String::with_capacity(segs.len() * 12 + 16);
    for s in segs {
        match s {
            Seg::Key(k) => super::compile::push_pointer_token(&mut out, &k.to_cow()),
            Seg::Index(i) => {
                let _ = write!(out, "/{i}");
            }
        }
    }
    out
}

/// Longest rendering of an instance value quoted in a message; a model can send
/// megabytes, and the refusal must stay readable.
const QUOTE_LIMIT: usize = 80;

/// The instance value `span` as compact JSON, cut to a readable length.
fn quote_value(span: &[u8]) -> String {
    let mut s = String::with_capacity(span.len().min(QUOTE_LIMIT + 8));
    write_compact_span(&mut s, span);
    if s.len() > QUOTE_LIMIT {
        let mut cut = QUOTE_LIMIT;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str("...");
    }
    s
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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

/// Validates the value at the cursor against `node`, consuming it.
pub(crate) fn walk<'a, S: Sink<'a>>(
    node: &Node,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let rules = match node {
        Node::True => return Ok(r.skip_value(depth)?),
        Node::False => {
            r.peek_kind()?;
            sink.report("false", Member::None, || {
                "no value is allowed here".to_string()
            })?;
            return Ok(r.skip_value(depth)?);
        }
        Node::Rules(rules) => rules,
    };
    let kind = r.peek_kind()?;
    let start = r.pos();
    let mut number: Option<Number<'a>> = None;
    let mut string: Option<JsonStr<'a>> = None;
    match kind {
        Kind::Number => number = Some(r.read_number()?),
        Kind::String => string = Some(r.read_string()?),
        Kind::True | Kind::False | Kind::Null => r.read_literal(kind)?,
        Kind::Object | Kind::Array => {}
    }

    if let Some(types) = &rules.types {
        let is_integer = number.is_some_and(|n| n.is_integer());
        if !types.accepts(kind, is_integer) {
            // One error per type mismatch: the other keywords would only repeat it.
            sink.report("type", Member::None, || {
                format!("expected {}, got {}", types.text, got_name(kind, number))
            })?;
            if matches!(kind, Kind::Object | Kind::Array) {
                r.skip_value(depth)?;
            }
            return Ok(());
        }
    }

    match kind {
        Kind::Object => match &rules.object {
            Some(o) => walk_object(o, r, depth, sink)?,
            None => r.skip_value(depth)?,
        },
        Kind::Array => match &rules.array {
            Some(a) => walk_array(a, r, depth, sink)?,
            None => r.skip_value(depth)?,
        },
        Kind::String => {
            if let (Some(sr), Some(s)) = (&rules.string, string) {
                check_string(sr, s, &r.input()[start..r.pos()], sink)?;
            }
        }
        Kind::Number => {
            if let (Some(nr), Some(n)) = (&rules.number, number) {
                check_number(nr, n, sink)?;
            }
        }
        _ => {}
    }

    let span = &r.input()[start..r.pos()];
    if let Some(c) = &rules.const_ {
        if !matches_choice(c, r, start, string) {
            sink.report("const", Member::None, || {
                format!("{} is not equal to {}", quote_value(span), c.text)
            })?;
        }
    }
    if let Some(e) = &rules.enum_ {
        if !matches_choice(e, r, start, string) {
            sink.report("enum", Member::None, || {
                format!("{} is not one of {}", quote_value(span), e.text)
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
            sink.report("anyOf", Member::None, || msg)?;
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
            path: path.clone(),
            errors: Vec::new(),
        };
        let _ = walk(b, &mut r.at(start), depth, &mut c);
        super::sort_errors(&mut c.errors);
        if let Some(e) = c.errors.first() {
            if i > 0 {
                msg.push(';');
            }
            if e.path == here {
                let _ = write!(msg, " [{i}] {}", e.message);
            } else {
                let _ = write!(msg, " [{i}] {}: {}", e.path, e.message);
            }
        }
    }
    msg
}

/// Tracks which known properties an object had, without allocating for up to 256.
enum Seen {
    Inline([u64; 4]),
    Heap(Vec<bool>),
}

impl Seen {
    fn new(n: usize) -> Seen {
        if n <= 256 {
            Seen::Inline([0; 4])
        } else {
            Seen::Heap(vec![false; n])
        }
    }
    /// Marks `i`; false when it was already marked (a duplicate key).
    #[inline]
    fn set(&mut self, i: usize) -> bool {
        match self {
            Seen::Inline(bits) => {
                let bit = 1u64 << (i % 64);
                let fresh = bits[i / 64] & bit == 0;
                bits[i / 64] |= bit;
                fresh
            }
            Seen::Heap(v) => !std::mem::replace(&mut v[i], true),
        }
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        match self {
            Seen::Inline(bits) => bits[i / 64] & (1 << (i % 64)) != 0,
            Seen::Heap(v) => v[i],
        }
    }
}

fn walk_object<'a, S: Sink<'a>>(
    o: &ObjectRules,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let mut seen = Seen::new(o.props.len());
    // Keys the schema does not name; built on the first such key, so an object with
    // only known properties never pays for it.
    let mut others: Option<KeySet<'a>> = None;
    if r.begin_object(depth)? {
        loop {
            let key_at = r.pos_after_ws();
            let key = r.read_key_unchecked()?;
            let found = o.find(&key);
            let fresh = match found {
                // A known name: the seen bits are its duplicate check.
                Some(i) => seen.set(i),
                None => others.get_or_insert_with(KeySet::new).insert(key),
            };
            if !fresh {
                return Err(Stop::Syntax(SyntaxError::new(
                    SyntaxErrorKind::DuplicateKey,
                    key_at,
                )));
            }
            match found.and_then(|i| o.props[i].node.as_ref()) {
                Some(node) => {
                    sink.push(Seg::Key(key));
                    walk(node, r, depth + 1, sink)?;
                    sink.pop();
                }
                None => match &o.additional {
                    None => r.skip_value(depth + 1)?,
                    Some(Node::False) => {
                        r.peek_kind()?;
                        sink.report("additionalProperties", Member::Key(key), || {
                            let mut m = String::from("unexpected property ");
                            write_json_string(&mut m, &key.to_cow());
                            m
                        })?;
                        r.skip_value(depth + 1)?;
                    }
                    Some(node) => {
                        sink.push(Seg::Key(key));
                        walk(node, r, depth + 1, sink)?;
                        sink.pop();
                    }
                },
            }
            if !r.next_member()? {
                break;
            }
        }
    }
    for &i in &o.required {
        if !seen.get(i) {
            let name = &o.props[i].name;
            sink.report("required", Member::Name(name), || {
                let mut m = String::from("missing required property ");
                write_json_string(&mut m, name);
                m
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
                    walk(items, r, depth + 1, sink)?;
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
    if let Some(min) = a.min {
        if count < min {
            sink.report("minItems", Member::None, || {
                format!(
                    "expected at least {}, got {count}",
                    plural(min, "item", "items")
                )
            })?;
        }
    }
    if let Some(max) = a.max {
        if count > max {
            sink.report("maxItems", Member::None, || {
                format!(
                    "expected at most {}, got {count}",
                    plural(max, "item", "items")
                )
            })?;
        }
    }
    Ok(())
}

fn check_string<'a, S: Sink<'a>>(sr: &StringRules, s: JsonStr<'a>, span: &[u8], sink: &mut S) -> W {
    if sr.min.is_some() || sr.max.is_some() {
        let n = s.char_count() as u64;
        if let Some(min) = sr.min {
            if n < min {
                sink.report("minLength", Member::None, || {
                    format!(
                        "expected at least {}, got {n}",
                        plural(min, "character", "characters")
                    )
                })?;
            }
        }
        if let Some(max) = sr.max {
            if n > max {
                sink.report("maxLength", Member::None, || {
                    format!(
                        "expected at most {}, got {n}",
                        plural(max, "character", "characters")
                    )
                })?;
            }
        }
    }
    if let Some(p) = &sr.pattern {
        let text: Cow<'_, str> = s.to_cow();
        if !p.matcher.is_match(&text) {
            sink.report("pattern", Member::None, || {
                let mut m = quote_value(span);
                m.push_str(" does not match pattern ");
                write_json_string(&mut m, &p.source);
                m
            })?;
        }
    }
    Ok(())
}

fn check_number<'a, S: Sink<'a>>(nr: &NumberRules, n: Number<'_>, sink: &mut S) -> W {
    let shown = || String::from_utf8_lossy(n.text).into_owned();
    if let Some(min) = &nr.minimum {
        if min.compare(n).is_lt() {
            sink.report("minimum", Member::None, || {
                format!("{} is less than the minimum {}", shown(), min.text)
            })?;
        }
    }
    if let Some(max) = &nr.maximum {
        if max.compare(n).is_gt() {
            sink.report("maximum", Member::None, || {
                format!("{} is greater than the maximum {}", shown(), max.text)
            })?;
        }
    }
    Ok(())
}

/// Whether the value at `start` equals one of the choices (by value: numbers
/// numerically, objects regardless of member order).
fn matches_choice(c: &Choices, r: &Reader<'_>, start: usize, string: Option<JsonStr<'_>>) -> bool {
    if c.all_strings {
        // The common enum of strings: compare the token directly.
        return string.is_some_and(|s| {
            c.values
                .iter()
                .any(|v| matches!(v, crate::json::Value::String(t) if s.eq_str(t)))
        });
    }
    c.values.iter().any(|v| equals(&mut r.at(start), v, 0))
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
