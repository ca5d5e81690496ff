//! The `regex` crate's syntax for a tree, for the patterns the own matchers do not
//! take: every set is spelled as its code point ranges (`[\x{30}-\x{39}]`), so the
//! `regex` crate's own meanings of `\d`, `\w`, `\s`, `.` and of its property names
//! never enter; `\b` is `regex`'s ASCII word boundary, which is ECMA's; `^` and `$`
//! are its text anchors (no `m` flag, which ECMA's are too).

use std::fmt::Write;

use regex::{Regex, RegexBuilder};

use super::tree::{Node, NodeId, Tree};
use super::SIZE_LIMIT;

/// Tree nesting written out; past it, the pattern is refused (the recursion below is
/// bounded by it, and `regex`'s own nesting limit, 250, is never what refuses).
const MAX_DEPTH: usize = 100;

/// The `regex` syntax of `tree`, or why it cannot be written.
pub(super) fn regex_text(tree: &Tree) -> Result<String, String> {
    let mut out = String::new();
    write_node(tree, tree.root(), 0, &mut out)?;
    Ok(out)
}

/// Builds the regex for `tree`; the error is the one a schema author sees.
pub(super) fn build(tree: &Tree) -> Result<Regex, String> {
    let text = regex_text(tree)?;
    RegexBuilder::new(&text)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => "pattern is too large".to_string(),
            // The text is written from a valid tree: any other refusal is regex's own
            // limit; keep its last line, not the text it quotes.
            other => {
                let text = other.to_string();
                let reason = text
                    .lines()
                    .rev()
                    .find_map(|l| l.trim_start().strip_prefix("error:"))
                    .map_or_else(|| text.clone(), |l| l.trim().to_string());
                format!("not a valid ECMA-262 pattern ({reason})")
            }
        })
}

fn write_node(tree: &Tree, id: NodeId, depth: usize, out: &mut String) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err("pattern nests too deeply".into());
    }
    match tree.node(id) {
        Node::Empty => out.push_str("(?:)"),
        Node::Set { start, end } => write_set(tree.ranges(start, end), out),
        Node::Concat { first } => {
            out.push_str("(?:");
            for child in tree.siblings(first) {
                write_node(tree, child, depth + 1, out)?;
            }
            out.push(')');
        }
        Node::Alt { first } => {
            out.push_str("(?:");
            for (k, child) in tree.siblings(first).enumerate() {
                if k > 0 {
                    out.push('|');
                }
                write_node(tree, child, depth + 1, out)?;
            }
            out.push(')');
        }
        Node::Repeat { node, min, max } => {
            out.push_str("(?:");
            write_node(tree, node, depth + 1, out)?;
            let _ = match max {
                Some(max) => write!(out, "){{{min},{max}}}"),
                None => write!(out, "){{{min},}}"),
            };
        }
        Node::Start => out.push('^'),
        Node::End => out.push('$'),
        Node::WordBoundary { negated: false } => out.push_str(r"(?-u:\b)"),
        Node::WordBoundary { negated: true } => out.push_str(r"(?-u:\B)"),
        // Refused before a tree gets here (`Parsed::unsupported`).
        Node::Look { .. } | Node::BackReference | Node::Modified { .. } => {
            return Err("lookaround and backreferences are not supported".into())
        }
    }
    Ok(())
}

/// A set as a class of ranges; the empty set as a class nothing is in.
fn write_set(ranges: &[(u32, u32)], out: &mut String) {
    if ranges.is_empty() {
        out.push_str(r"[^\x{0}-\x{10FFFF}]");
        return;
    }
    if let [(lo, hi)] = ranges {
        if lo == hi {
            let _ = write!(out, r"\x{{{lo:X}}}");
            return;
        }
    }
    out.push('[');
    for &(lo, hi) in ranges {
        let _ = if lo == hi {
            write!(out, r"\x{{{lo:X}}}")
        } else {
            write!(out, r"\x{{{lo:X}}}-\x{{{hi:X}}}")
        };
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::regex_text;
    use crate::schema::pattern::ecma::parse;

    fn text(p: &str) -> String {
        regex_text(&parse(p).expect(p).tree).expect(p)
    }

    /// ECMA's meanings are spelled out as ranges: nothing of `regex`'s own `\d`, `\w`,
    /// `\s`, `.` or property names reaches it.
    #[test]
    fn meanings_are_spelled_out() {
        assert_eq!(text(r"^\d{2}$"), r"(?:^(?:[\x{30}-\x{39}]){2,2}$)");
        assert_eq!(
            text(r"\w"),
            r"[\x{30}-\x{39}\x{41}-\x{5A}\x{5F}\x{61}-\x{7A}]"
        );
        assert_eq!(
            text("."),
            r"[\x{0}-\x{9}\x{B}-\x{C}\x{E}-\x{2027}\x{202A}-\x{D7FF}\x{E000}-\x{10FFFF}]"
        );
        assert_eq!(
            text(r"\bé+|[]"),
            r"(?:(?:(?-u:\b)(?:\x{E9}){1,})|[^\x{0}-\x{10FFFF}])"
        );
        assert_eq!(text(r"a*?(?:)"), r"(?:(?:\x{61}){0,}(?:))");
        assert!(!text(r"\p{L}\s\S").contains(r"\p"));
    }
}
