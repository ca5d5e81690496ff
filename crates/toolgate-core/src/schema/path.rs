//! Where a violation is: the path from the whole value to the value whose rule failed,
//! kept while walking, and rendered in both forms a violation carries.

use crate::json::{write_json_string, JsonStr};

use super::message::push_u64;

/// A path step: an object member or an array element.
#[derive(Clone, Copy)]
pub(crate) enum Seg<'a> {
    Key(JsonStr<'a>),
    Index(usize),
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

    pub(crate) fn new() -> Self {
        PathStack {
            inline: [Seg::Index(0); Self::INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    pub(crate) fn from_slice(segs: &[Seg<'a>]) -> Self {
        let mut path = Self::new();
        for &seg in segs {
            path.push(seg);
        }
        path
    }

    #[inline]
    pub(crate) fn push(&mut self, seg: Seg<'a>) {
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
    pub(crate) fn pop(&mut self) {
        if self.len > Self::INLINE {
            self.spill.pop();
            if self.len == Self::INLINE + 1 {
                self.spill.clear();
            }
        }
        self.len = self.len.saturating_sub(1);
    }

    pub(crate) fn as_slice(&self) -> &[Seg<'a>] {
        if self.len <= Self::INLINE {
            &self.inline[..self.len]
        } else {
            &self.spill
        }
    }
}

/// Appends a reference token to a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`).
pub fn push_pointer_token(ptr: &mut String, token: &str) {
    ptr.push('/');
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        ptr.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => ptr.push_str("~0"),
            '/' => ptr.push_str("~1"),
            c => ptr.push(c),
        }
    }
}

fn is_identifier(s: &[u8]) -> bool {
    matches!(s.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        && s.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Bytes a rendering of `segs` will roughly need (room for one more key), so it is
/// allocated once.
fn rendered_len(segs: &[Seg<'_>]) -> usize {
    const ROOT_AND_SPARE: usize = 24;
    segs.iter()
        .map(|s| match s {
            // `["` + key + `"]`
            Seg::Key(k) => k.raw().len() + 4,
            // `[` + digits + `]`, most indexes short
            Seg::Index(_) => 6,
        })
        .sum::<usize>()
        + ROOT_AND_SPARE
}

/// The path form: `$`, `.name`, `["a.b"]`, `[3]`.
pub(crate) fn render_path(segs: &[Seg<'_>]) -> String {
    render_path_and_pointer(segs, None).0
}

/// Both forms of a path in one pass: the path (`$`, `.name`, `["a.b"]`, `[3]`) and the
/// RFC 6901 pointer, extended by `member` when the fix goes inside the value. The
/// whole value's pointer is the empty string, which needs no allocation.
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
                if is_identifier(name.as_bytes()) {
                    path.push('.');
                    path.push_str(&name);
                } else {
                    path.push('[');
                    write_json_string(&mut path, &name);
                    path.push(']');
                }
                push_pointer_token(&mut pointer, &name);
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
        push_pointer_token(&mut pointer, name);
    }
    (path, pointer)
}
