//! The ECMA-262 pattern grammar in Unicode mode (the `u` flag JSON Schema assumes),
//! read once into a [`Tree`]: all of it, lookaround, backreferences, named groups and
//! flag modifiers included, with its early errors (a backreference to no group, a
//! duplicate group name both of whose groups can take part in a match, a quantifier
//! range out of order, an unknown property name). What the matchers cannot give its
//! exact meaning is parsed all the same, and named as what [`parse_into`] returns.
//!
//! The parser is a loop with an explicit stack of open groups, not a recursion, so
//! no nesting makes it overflow the call stack.

use std::collections::HashMap;

use super::tree::{Node, NodeId, Tree, DIGIT, DOT, NONE, SPACE, WORD};
use super::unicode;

/// Which patterns are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// ECMA-262's grammar in Unicode mode, exactly: what `"format": "regex"` accepts.
    Unicode,
    /// Unicode mode and two leniencies of ECMA-262's web-compatibility grammar
    /// (Annex B) that patterns in tool schemas use, each with one meaning: an escaped
    /// character that is not an ASCII letter or digit is that character (`\-`, `\@`),
    /// and a `{`, `}` or `]` that cannot be syntax there is itself (`a{`, `x]`).
    Matching,
}

/// A pattern read into its tree.
#[cfg(test)]
pub(crate) struct Parsed {
    pub(crate) tree: Tree,
    /// Why no matcher can give the pattern its exact meaning: the first construct,
    /// left to right, that none supports.
    pub(crate) unsupported: Option<String>,
}

const NOTHING_TO_REPEAT: &str = "nothing to repeat before a quantifier";
const UNTERMINATED_CLASS: &str = "unterminated character class";
const TRAILING_BACKSLASH: &str = "pattern ends with a backslash";
/// Ranges a pattern's sets may hold in all (8 MB): past it, a pattern of many
/// property escapes is refused as too large instead of taking the memory.
const MAX_RANGES: usize = 1 << 20;

/// Reads `src` for matching: its tree, or why it is not a pattern.
#[cfg(test)]
pub(crate) fn parse(src: &str) -> Result<Parsed, String> {
    let mut tree = Tree::with_capacity(src.len());
    let unsupported = parse_into(src, &mut tree)?;
    Ok(Parsed { tree, unsupported })
}

/// Reads `src` for matching into `tree` (a new one): why no matcher can give it its
/// exact meaning, if anything (the first construct none supports), or why it is not
/// a pattern.
pub(crate) fn parse_into(src: &str, tree: &mut Tree) -> Result<Option<String>, String> {
    let mut p = Parser::new(src, Syntax::Matching, true, tree);
    let root = p.run()?;
    let unsupported = p.unsupported;
    tree.set_root(root);
    Ok(unsupported)
}

/// Whether `src` is a pattern in `syntax`, or why not (the code points of property
/// escapes are not looked up: only their names are checked).
pub(crate) fn check(src: &str, syntax: Syntax) -> Result<(), String> {
    let mut tree = Tree::with_capacity(0);
    Parser::new(src, syntax, false, &mut tree).run().map(|_| ())
}

/// A list of sibling nodes being built.
#[derive(Clone, Copy)]
struct List {
    first: NodeId,
    last: NodeId,
    len: u32,
}

impl List {
    const EMPTY: List = List {
        first: NONE,
        last: NONE,
        len: 0,
    };

    fn push(&mut self, tree: &mut Tree, id: NodeId) {
        if self.len == 0 {
            self.first = id;
        } else {
            tree.link(self.last, id);
        }
        self.last = id;
        self.len += 1;
    }
}

/// What a `(` opened.
#[derive(Clone, Copy)]
enum Open {
    /// The pattern itself (the bottom of the stack, never closed by `)`).
    Top,
    /// A group, capturing or not: it means its contents.
    Group,
    Look {
        behind: bool,
        negated: bool,
    },
    /// A modifier group that turns a flag on (`(?i:…)`).
    Modified,
}

/// An open group: the alternatives read so far and the items of the current one.
struct Frame {
    open: Open,
    alternatives: List,
    items: List,
    /// Which of its alternatives is being read.
    alternative: u32,
    /// Its [`Place`] in [`Parser::places`], once a group name needs one.
    place: u32,
}

/// Where a group is, for the duplicate-name rule: kept for the groups open when a
/// named group is read, and for every group after it.
struct Place {
    /// The group around it (or, once the walk of `open_around` has gone past it, the
    /// nearest group still open around it), and which alternative of that group it is
    /// in.
    parent: u32,
    parent_alternative: u32,
    open: bool,
    /// Which of its own alternatives is being read, while it is open.
    alternative: u32,
}

struct Parser<'s, 't> {
    src: &'s str,
    at: usize,
    syntax: Syntax,
    /// Whether property escapes get their code points (not needed to check syntax).
    resolve: bool,
    tree: &'t mut Tree,
    /// Capturing groups so far.
    groups: u32,
    /// Each group name, with where its last group is: the place of the group it is in
    /// and which alternative of it. Made at the first name: most patterns have none.
    names: Option<HashMap<String, (u32, u32)>>,
    places: Vec<Place>,
    /// Names that `\k<…>` refers to, checked once every group is known.
    name_refs: Vec<String>,
    /// The highest `\N`.
    max_ref: u32,
    unsupported: Option<String>,
}

/// A class member: one character, or a set already added to the class's ranges.
enum ClassAtom {
    Char(u32),
    Set,
}

impl<'s, 't> Parser<'s, 't> {
    fn new(src: &'s str, syntax: Syntax, resolve: bool, tree: &'t mut Tree) -> Parser<'s, 't> {
        Parser {
            src,
            at: 0,
            syntax,
            resolve,
            tree,
            groups: 0,
            names: None,
            places: Vec::new(),
            name_refs: Vec::new(),
            max_ref: 0,
            unsupported: None,
        }
    }

    fn peek(&self) -> Option<char> {
        match *self.src.as_bytes().get(self.at)? {
            b if b < 0x80 => Some(char::from(b)),
            _ => self.src[self.at..].chars().next(),
        }
    }

    fn peek_byte(&self, k: usize) -> Option<u8> {
        self.src.as_bytes().get(self.at + k).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, b: u8) -> bool {
        let found = self.peek_byte(0) == Some(b);
        self.at += usize::from(found);
        found
    }

    fn lenient(&self) -> bool {
        self.syntax == Syntax::Matching
    }

    fn refuse(&mut self, why: impl Into<String>) {
        if self.unsupported.is_none() {
            self.unsupported = Some(why.into());
        }
    }

    /// A group opened in `parent` (none for the pattern itself).
    fn frame(&mut self, open: Open, parent: Option<&Frame>) -> Frame {
        let place = match parent {
            Some(parent) if parent.place != NONE => self.place(parent.place, parent.alternative),
            _ => NONE,
        };
        Frame {
            open,
            alternatives: List::EMPTY,
            items: List::EMPTY,
            alternative: 0,
            place,
        }
    }

    fn place(&mut self, parent: u32, parent_alternative: u32) -> u32 {
        self.places.push(Place {
            parent,
            parent_alternative,
            open: true,
            alternative: 0,
        });
        (self.places.len() - 1) as u32
    }

    /// The whole pattern: its root node.
    fn run(&mut self) -> Result<NodeId, String> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut cur = self.frame(Open::Top, None);
        while let Some(c) = self.peek() {
            match c {
                '|' => {
                    self.at += 1;
                    let alt = self.sequence(cur.items);
                    cur.alternatives.push(self.tree, alt);
                    cur.items = List::EMPTY;
                    cur.alternative += 1;
                    if cur.place != NONE {
                        self.places[cur.place as usize].alternative += 1;
                    }
                }
                '(' => {
                    self.at += 1;
                    let open = self.group_open(&mut stack, &mut cur)?;
                    let inner = self.frame(open, Some(&cur));
                    stack.push(std::mem::replace(&mut cur, inner));
                }
                ')' => {
                    let Some(outer) = stack.pop() else {
                        return Err("unmatched ) in the pattern".into());
                    };
                    self.at += 1;
                    if cur.place != NONE {
                        self.places[cur.place as usize].open = false;
                    }
                    let inner = self.disjunction(&cur);
                    let open = cur.open;
                    cur = outer;
                    let (node, quantifiable) = match open {
                        Open::Top | Open::Group => (inner, true),
                        Open::Look { behind, negated } => {
                            let look = Node::Look {
                                node: inner,
                                behind,
                                negated,
                            };
                            (self.tree.push(look), false)
                        }
                        Open::Modified => (self.tree.push(Node::Modified { node: inner }), true),
                    };
                    self.term(&mut cur, node, quantifiable)?;
                }
                c => {
                    let start = self.at;
                    self.at += c.len_utf8();
                    let (node, quantifiable) = self.atom(c, start)?;
                    self.term(&mut cur, node, quantifiable)?;
                }
            }
        }
        if !stack.is_empty() {
            return Err("unterminated group".into());
        }
        let root = self.disjunction(&cur);
        self.check_references()?;
        Ok(root)
    }

    /// The node of a finished sequence of items.
    fn sequence(&mut self, items: List) -> NodeId {
        match items.len {
            0 => self.tree.push(Node::Empty),
            1 => items.first,
            _ => self.tree.push(Node::Concat { first: items.first }),
        }
    }

    /// The node of a finished group's alternatives.
    fn disjunction(&mut self, frame: &Frame) -> NodeId {
        let last = self.sequence(frame.items);
        if frame.alternatives.len == 0 {
            return last;
        }
        let mut alternatives = frame.alternatives;
        alternatives.push(self.tree, last);
        self.tree.push(Node::Alt {
            first: alternatives.first,
        })
    }

    /// `node` with its quantifier if one follows, added to the current alternative.
    #[inline(always)]
    fn term(&mut self, cur: &mut Frame, node: NodeId, quantifiable: bool) -> Result<(), String> {
        if matches!(self.peek_byte(0), Some(b'*' | b'+' | b'?' | b'{')) {
            return self.quantified(cur, node, quantifiable);
        }
        cur.items.push(self.tree, node);
        Ok(())
    }

    /// [`Parser::term`] when a quantifier may follow.
    fn quantified(
        &mut self,
        cur: &mut Frame,
        node: NodeId,
        quantifiable: bool,
    ) -> Result<(), String> {
        let node = match self.quantifier()? {
            Some((min, max)) => {
                if !quantifiable {
                    return Err(NOTHING_TO_REPEAT.into());
                }
                // Lazy or greedy: the same strings match.
                self.eat(b'?');
                self.tree.push(Node::Repeat { node, min, max })
            }
            None => node,
        };
        cur.items.push(self.tree, node);
        Ok(())
    }

    /// A quantifier at the cursor, read; `None` (nothing read) when there is none,
    /// including a `{` that does not start one.
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, String> {
        let q = match self.peek_byte(0) {
            Some(b'*') => (0, None),
            Some(b'+') => (1, None),
            Some(b'?') => (0, Some(1)),
            Some(b'{') => return self.braced_quantifier(),
            _ => return Ok(None),
        };
        self.at += 1;
        Ok(Some(q))
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor. Counts past `u32::MAX` are read as
    /// `u32::MAX`: no string here is that long, so no verdict changes.
    fn braced_quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, String> {
        let rest = &self.src.as_bytes()[self.at + 1..];
        let digits = |from: usize| {
            rest[from..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count()
        };
        let n = digits(0);
        if n == 0 {
            return Ok(None);
        }
        let (max_at, m) = match rest.get(n) {
            Some(b'}') => (None, 0),
            Some(b',') => (Some(n + 1), digits(n + 1)),
            _ => return Ok(None),
        };
        let close = max_at.map_or(n, |at| at + m);
        if rest.get(close) != Some(&b'}') {
            return Ok(None);
        }
        let min_text = &rest[..n];
        let max_text = max_at.map(|at| &rest[at..at + m]);
        let (min, max) = match max_text {
            None => (count(min_text), Some(count(min_text))),
            Some([]) => (count(min_text), None),
            Some(max_text) => {
                if out_of_order(min_text, max_text) {
                    return Err("quantifier range out of order".into());
                }
                (count(min_text), Some(count(max_text)))
            }
        };
        self.at += close + 2;
        Ok(Some((min, max)))
    }

    /// The atom or assertion `c` (not `(`, `)` or `|`) read at `start`, up to the
    /// cursor just after `c`, and whether a quantifier may follow it.
    fn atom(&mut self, c: char, start: usize) -> Result<(NodeId, bool), String> {
        Ok(match c {
            '^' => (self.tree.push(Node::Start), false),
            '$' => (self.tree.push(Node::End), false),
            '.' => {
                let start = self.tree.set_start();
                self.tree.add_set(DOT, false);
                let end = self.tree.set_start();
                (self.tree.push(Node::Set { start, end }), true)
            }
            '[' => (self.class()?, true),
            '\\' => return self.atom_escape(),
            '*' | '+' | '?' => return Err(NOTHING_TO_REPEAT.into()),
            '{' => {
                self.at = start;
                if self.braced_quantifier()?.is_some() {
                    return Err(NOTHING_TO_REPEAT.into());
                }
                self.at = start + 1;
                if !self.lenient() {
                    return Err("lone { outside a quantifier".into());
                }
                (self.char_node('{' as u32), true)
            }
            '}' | ']' if !self.lenient() => return Err(format!("lone {c} in the pattern")),
            c => (self.char_node(c as u32), true),
        })
    }

    /// The set of one character.
    fn char_node(&mut self, c: u32) -> NodeId {
        let s = self.tree.set_start();
        self.tree.add_range(c, c);
        let set = if (0xD800..=0xDFFF).contains(&c) {
            self.tree.finish_set(s, false)
        } else {
            Node::Set {
                start: s,
                end: s + 1,
            }
        };
        self.tree.push(set)
    }

    /// After a `\` outside a class.
    fn atom_escape(&mut self) -> Result<(NodeId, bool), String> {
        let Some(e) = self.next() else {
            return Err(TRAILING_BACKSLASH.into());
        };
        Ok(match e {
            'b' | 'B' => {
                let negated = e == 'B';
                (self.tree.push(Node::WordBoundary { negated }), false)
            }
            'd' | 'w' | 's' => {
                // Already sorted and disjoint: no need to normalize.
                let start = self.tree.set_start();
                self.class_escape(e)?;
                let end = self.tree.set_start();
                (self.tree.push(Node::Set { start, end }), true)
            }
            'D' | 'W' | 'S' | 'p' | 'P' => {
                let s = self.tree.set_start();
                self.class_escape(e)?;
                let set = self.tree.finish_set(s, false);
                (self.tree.push(set), true)
            }
            '1'..='9' => {
                let digits = self.src[self.at..]
                    .bytes()
                    .take_while(u8::is_ascii_digit)
                    .count();
                let n = count(&self.src.as_bytes()[self.at - 1..self.at + digits]);
                self.at += digits;
                self.max_ref = self.max_ref.max(n);
                self.refuse("backreferences are not supported");
                (self.tree.push(Node::BackReference), true)
            }
            'k' => {
                if !self.eat(b'<') {
                    return Err("\\k must name a group: \\k<name>".into());
                }
                let name = self.group_name()?;
                self.name_refs.push(name);
                self.refuse("named backreferences are not supported");
                (self.tree.push(Node::BackReference), true)
            }
            e => {
                let c = self.character_escape(e, false)?;
                (self.char_node(c), true)
            }
        })
    }

    /// An escape that stands for one character (after the `\` and `e`).
    fn character_escape(&mut self, e: char, in_class: bool) -> Result<u32, String> {
        Ok(match e {
            't' => 0x09,
            'n' => 0x0A,
            'v' => 0x0B,
            'f' => 0x0C,
            'r' => 0x0D,
            '0' => {
                if self.peek_byte(0).is_some_and(|b| b.is_ascii_digit()) {
                    return Err("\\0 cannot be followed by a digit".into());
                }
                0
            }
            'c' => match self.peek_byte(0) {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.at += 1;
                    u32::from(l) % 32
                }
                _ => return Err("invalid \\c escape".into()),
            },
            'x' => {
                let v = self.hex_digits(2).ok_or("invalid \\x escape")?;
                self.at += 2;
                v
            }
            'u' => self.unicode_escape()?,
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => e as u32,
            '-' if in_class => e as u32,
            e if self.lenient() && !e.is_ascii_alphanumeric() => e as u32,
            e if in_class => return Err(format!("invalid escape \\{e} in a character class")),
            e => return Err(format!("invalid escape \\{e}")),
        })
    }

    /// The value of the `n` hex digits at the cursor, if they are.
    fn hex_digits(&self, n: usize) -> Option<u32> {
        let digits = self.src.as_bytes().get(self.at..self.at + n)?;
        digits
            .iter()
            .try_fold(0u32, |v, &d| Some(v * 16 + char::from(d).to_digit(16)?))
    }

    /// After `\u`: `{X…}`, or four hex digits, a surrogate pair of two escapes
    /// standing for one code point. A lone surrogate is its own code point (which no
    /// string here holds).
    fn unicode_escape(&mut self) -> Result<u32, String> {
        if self.eat(b'{') {
            let rest = &self.src.as_bytes()[self.at..];
            let n = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            if n == 0 || rest.get(n) != Some(&b'}') {
                return Err("invalid \\u{...} escape".into());
            }
            let v = rest[..n].iter().try_fold(0u32, |v, &d| {
                let v = v * 16 + char::from(d).to_digit(16).unwrap_or(0);
                (v <= 0x10_FFFF).then_some(v)
            });
            self.at += n + 1;
            return v.ok_or_else(|| "\\u{...} escape above 10FFFF".into());
        }
        let hi = self.hex_digits(4).ok_or("invalid \\u escape")?;
        self.at += 4;
        if (0xD800..0xDC00).contains(&hi) && self.src[self.at..].starts_with("\\u") {
            self.at += 2;
            match self.hex_digits(4) {
                Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                    self.at += 4;
                    return Ok(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                }
                _ => self.at -= 2,
            }
        }
        Ok(hi)
    }

    /// `\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `\p{…}`, `\P{…}` (after the `\`): adds the
    /// set to the ranges being collected.
    fn class_escape(&mut self, e: char) -> Result<(), String> {
        let negated = e.is_ascii_uppercase();
        let set = match e.to_ascii_lowercase() {
            'd' => DIGIT,
            'w' => WORD,
            's' => SPACE,
            _ => return self.property(negated),
        };
        self.tree.add_set(set, negated);
        Ok(())
    }

    /// `{name}`, `{name=value}` after `\p` or `\P`.
    fn property(&mut self, negated: bool) -> Result<(), String> {
        if !self.eat(b'{') {
            return Err("invalid \\p escape: \\p{...} expected".into());
        }
        let rest = &self.src[self.at..];
        let close = rest.find('}').ok_or("unterminated \\p{...} escape")?;
        let text = &rest[..close];
        self.at += close + 1;
        let p = unicode::property(text)?;
        if !self.resolve {
            return Ok(());
        }
        let from = self.tree.set_start();
        if let Err(why) = unicode::add_ranges(p, self.tree.ranges_mut()) {
            self.refuse(why);
        }
        if negated {
            self.tree.complement_from(from);
        }
        // Only property escapes add many ranges at once.
        if self.tree.range_count() > MAX_RANGES {
            return Err("pattern is too large".into());
        }
        Ok(())
    }

    /// A character class (after `[`).
    fn class(&mut self) -> Result<NodeId, String> {
        let negated = self.eat(b'^');
        let start = self.tree.set_start();
        loop {
            match self.peek_byte(0) {
                None => return Err(UNTERMINATED_CLASS.into()),
                Some(b']') => {
                    self.at += 1;
                    break;
                }
                _ => {}
            }
            let first = self.class_atom()?;
            let range =
                self.peek_byte(0) == Some(b'-') && self.peek_byte(1).is_some_and(|b| b != b']');
            if !range {
                if let ClassAtom::Char(c) = first {
                    self.tree.add_range(c, c);
                }
                continue;
            }
            self.at += 1;
            let last = self.class_atom()?;
            match (first, last) {
                (ClassAtom::Char(lo), ClassAtom::Char(hi)) => {
                    if lo > hi {
                        return Err("range out of order in character class".into());
                    }
                    self.tree.add_range(lo, hi);
                }
                (ClassAtom::Set, _) => return Err("a class escape cannot start a range".into()),
                (_, ClassAtom::Set) => return Err("a class escape cannot end a range".into()),
            }
        }
        let set = self.tree.finish_set(start, negated);
        Ok(self.tree.push(set))
    }

    fn class_atom(&mut self) -> Result<ClassAtom, String> {
        let c = self.next().ok_or(UNTERMINATED_CLASS)?;
        if c != '\\' {
            return Ok(ClassAtom::Char(c as u32));
        }
        let e = self.next().ok_or(TRAILING_BACKSLASH)?;
        Ok(match e {
            'b' => ClassAtom::Char(0x08),
            'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'p' | 'P' => {
                self.class_escape(e)?;
                ClassAtom::Set
            }
            'B' | 'k' | '1'..='9' => {
                return Err(format!("invalid escape \\{e} in a character class"))
            }
            e => ClassAtom::Char(self.character_escape(e, true)?),
        })
    }

    /// What follows a `(`; a named group's name is recorded with where it is.
    fn group_open(&mut self, stack: &mut [Frame], cur: &mut Frame) -> Result<Open, String> {
        if !self.eat(b'?') {
            self.groups += 1;
            return Ok(Open::Group);
        }
        let open = match self.peek_byte(0) {
            Some(b':') => Open::Group,
            Some(b'=') => Open::Look {
                behind: false,
                negated: false,
            },
            Some(b'!') => Open::Look {
                behind: false,
                negated: true,
            },
            Some(b'<') if matches!(self.peek_byte(1), Some(b'=' | b'!')) => {
                self.at += 1;
                Open::Look {
                    behind: true,
                    negated: self.peek_byte(0) == Some(b'!'),
                }
            }
            Some(b'<') => {
                self.at += 1;
                let name = self.group_name()?;
                self.groups += 1;
                self.named_group(name, stack, cur)?;
                return Ok(Open::Group);
            }
            _ => return self.modifiers(),
        };
        self.at += 1;
        if let Open::Look { .. } = open {
            self.refuse("lookaround assertions are not supported");
        }
        Ok(open)
    }

    /// `(?ims-ims:` after the `?`: flags turned on, then off, each at most once.
    fn modifiers(&mut self) -> Result<Open, String> {
        const INVALID: &str = "invalid group";
        let mut seen = 0u8;
        let mut flags = |p: &mut Parser<'_, '_>| -> Result<u8, String> {
            let mut these = 0u8;
            while let Some(bit) = match p.peek_byte(0) {
                Some(b'i') => Some(1),
                Some(b'm') => Some(2),
                Some(b's') => Some(4),
                _ => None,
            } {
                if seen & bit != 0 {
                    return Err("a flag repeated in a modifier group".into());
                }
                seen |= bit;
                these |= bit;
                p.at += 1;
            }
            Ok(these)
        };
        let on = flags(self)?;
        let off_part = self.eat(b'-');
        let off = if off_part { flags(self)? } else { 0 };
        if !self.eat(b':') || (on == 0 && !off_part) {
            return Err(INVALID.into());
        }
        if off_part && on == 0 && off == 0 {
            return Err("a modifier group without flags".into());
        }
        // Turning off a flag the pattern never has changes nothing.
        if on == 0 {
            return Ok(Open::Group);
        }
        self.refuse("flag modifiers are not supported");
        Ok(Open::Modified)
    }

    /// A group name up to its `>` (after the `<`): an identifier, `\u` escapes
    /// allowed.
    fn group_name(&mut self) -> Result<String, String> {
        const INVALID: &str = "invalid group name";
        let mut name = String::new();
        loop {
            let c = self.next().ok_or("unterminated group name")?;
            if c == '>' {
                break;
            }
            let c = if c == '\\' {
                if !self.eat(b'u') {
                    return Err(INVALID.into());
                }
                char::from_u32(self.unicode_escape()?).ok_or(INVALID)?
            } else {
                c
            };
            let valid = if name.is_empty() {
                unicode::is_name_start(c)
            } else {
                unicode::is_name_part(c)
            };
            if !valid {
                return Err(INVALID.into());
            }
            name.push(c);
        }
        if name.is_empty() {
            return Err(INVALID.into());
        }
        Ok(name)
    }

    /// Records a group named `name` in `cur`; an error when an earlier group of that
    /// name can take part in the same match. It is enough to compare it with the last
    /// one: of three groups of a name in the order they open, the first and the last
    /// are in different alternatives of the disjunction around both whenever the
    /// first two or the last two are.
    fn named_group(
        &mut self,
        name: String,
        stack: &mut [Frame],
        cur: &mut Frame,
    ) -> Result<(), String> {
        if cur.place == NONE {
            // The first name: the groups open now get their places, outermost first.
            for frame in stack.iter_mut().chain([&mut *cur]) {
                let parent = self.places.len().checked_sub(1).map_or(NONE, |p| p as u32);
                let parent_alternative = self.places.last().map_or(0, |p| p.alternative);
                frame.place = self.place(parent, parent_alternative);
                self.places[frame.place as usize].alternative = frame.alternative;
            }
        }
        let here = (cur.place, cur.alternative);
        let last = self
            .names
            .get_or_insert_with(HashMap::new)
            .get(&name)
            .copied();
        if let Some((place, alternative)) = last {
            let (around, alternative) = self.open_around(place, alternative);
            if self.places[around as usize].alternative == alternative {
                return Err(format!("duplicate group name \"{name}\""));
            }
        }
        self.names
            .get_or_insert_with(HashMap::new)
            .insert(name, here);
        Ok(())
    }

    /// The nearest group still open around the place `place` (itself when open), and
    /// which of its alternatives that place is in. The places walked are skipped to
    /// it, so that no walk goes over a closed group twice.
    fn open_around(&mut self, place: u32, alternative: u32) -> (u32, u32) {
        let (mut at, mut alt) = (place, alternative);
        while !self.places[at as usize].open {
            let p = &self.places[at as usize];
            (at, alt) = (p.parent, p.parent_alternative);
        }
        let mut walk = place;
        while walk != at && !self.places[walk as usize].open {
            let p = &mut self.places[walk as usize];
            let next = p.parent;
            (p.parent, p.parent_alternative) = (at, alt);
            walk = next;
        }
        (at, alt)
    }

    /// The early errors that need the whole pattern: backreferences to no group.
    fn check_references(&self) -> Result<(), String> {
        if self.max_ref > self.groups {
            let n = self.max_ref;
            return Err(format!("no group {n} for the backreference \\{n}"));
        }
        let named = |r: &String| self.names.as_ref().is_some_and(|n| n.contains_key(r));
        if let Some(name) = self.name_refs.iter().find(|r| !named(r)) {
            return Err(format!("no group named \"{name}\" for \\k<{name}>"));
        }
        Ok(())
    }
}

/// A decimal count, `u32::MAX` past it.
fn count(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |v, &d| {
        v.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    })
}

/// Whether the decimal `min` is greater than the decimal `max`, however long.
fn out_of_order(min: &[u8], max: &[u8]) -> bool {
    if min.len() <= 9 && max.len() <= 9 {
        return count(min) > count(max);
    }
    fn strip(d: &[u8]) -> &[u8] {
        let zeros = d.iter().take_while(|&&b| b == b'0').count();
        &d[zeros..]
    }
    let (min, max) = (strip(min), strip(max));
    (min.len(), min) > (max.len(), max)
}

#[cfg(test)]
mod tests {
    use super::{check, parse, Syntax};

    /// Valid in Unicode mode, each for a rule of the grammar or an early error it
    /// passes.
    const VALID: &[&str] = &[
        "",
        "a",
        "a|b",
        "a||",
        "|",
        "()",
        "(?:)",
        "(a)(b)\\2",
        "(a)\\1",
        "\\0",
        "[\\0]",
        "\\cA",
        "\\cz",
        "[\\cA]",
        "\\x41",
        "\\u0041",
        "\\u{41}",
        "\\u{0000041}",
        "\\u{10FFFF}",
        "\\uD83D\\uDC32",
        "\\uD800",
        "\\u{D800}",
        "[\\uD83D\\uDC32-\\uD83D\\uDC3F]",
        "\\t\\n\\v\\f\\r",
        "\\/",
        "\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|",
        "[\\-]",
        "[-a]",
        "[a-]",
        "[a-b-c]",
        "[--a]",
        "[\\b]",
        "[]",
        "[^]",
        "[[]",
        "[\\d-]",
        "[-\\d]",
        "\\d\\D\\w\\W\\s\\S",
        "\\p{L}",
        "\\P{L}",
        "\\p{Letter}",
        "\\p{digit}",
        "\\p{gc=Lu}",
        "\\p{General_Category=Uppercase_Letter}",
        "\\p{sc=Grek}",
        "\\p{Script=Greek}",
        "\\p{scx=Grek}",
        "\\p{Script_Extensions=Latin}",
        "\\p{ASCII}",
        "\\p{Any}",
        "\\p{Assigned}",
        "\\p{space}",
        "\\p{CWKCF}",
        "[\\p{L}\\d]",
        "[^\\P{L}]",
        "a{1}",
        "a{1,}",
        "a{1,2}",
        "a{0}",
        "a{2,2}",
        "a{007,7}",
        "a{99999999999999999999}",
        "a{1,99999999999999999999}",
        "a{99999999999999999998,99999999999999999999}",
        "a*?",
        "a+?",
        "a??",
        "a{2}?",
        "(?=a)",
        "(?!a)",
        "(?<=a)",
        "(?<!a)",
        "(?<=a+)b",
        "(?<n>a)\\k<n>",
        "\\k<n>(?<n>a)",
        "(?<$>a)",
        "(?<_a1$>a)",
        "(?<é>a)",
        "(?<a\u{200C}b>a)",
        "(?<\\u0061>a)\\k<a>",
        "(?<\\u{61}b>a)\\k<ab>",
        "(?<a>x)|(?<a>y)",
        "((?<a>x))|((?<a>y))",
        "(?:(?<a>x)|(?<a>y))|(?<a>z)",
        "(?<a>x)(?:(?<b>y)|(?<b>z))",
        "(?i:a)",
        "(?-i:a)",
        "(?i-m:a)",
        "(?ims:a)",
        "(?-ims:a)",
        "^$",
        "\\b\\B",
        ".",
        "a/b",
        "\n",
        "(((a)))\\3",
        "[\\s\\S]",
        "\\u{1F600}",
        "🐲+",
        "[🐲-🐵]",
        "([abc])+\\s+$",
    ];

    /// Invalid in Unicode mode.
    const INVALID: &[&str] = &[
        "\\a",
        "\\e",
        "\\z",
        "\\Z",
        "\\A",
        "\\g",
        "\\h",
        "\\-",
        "\\@",
        "\\_",
        "\\ ",
        "\\é",
        "\\",
        "a\\",
        "(",
        ")",
        "a)",
        "(a",
        "((a)",
        "[",
        "[a",
        "[\\",
        "[a-",
        "]",
        "}",
        "{",
        "a{",
        "a{1",
        "a{,1}",
        "a{1,2",
        "x{2,1}",
        "a{99999999999999999999,1}",
        "a{99999999999999999999,99999999999999999998}",
        "*",
        "+",
        "?",
        "a**",
        "a+*",
        "a???",
        "{1}",
        "a|*",
        "(*)",
        "^*",
        "$+",
        "\\b*",
        "\\B{2}",
        "(?=a)*",
        "(?<=a)?",
        "(?P<n>x)",
        "(?P<n>a)(?P=n)",
        "(?#c)a",
        "(?i)",
        "(?i)abc",
        "(?ims)abc",
        "(?x:a)",
        "(?ii:a)",
        "(?i-i:a)",
        "(?-:a)",
        "(?",
        "(?<n>a)(?<n>b)",
        "(?<n>(?<n>b))",
        "(?:(?<a>x)|y)(?<a>z)",
        "((?<a>x)|(?<a>y))(?<a>z)",
        "(?<a>x)|(?<a>y)(?<a>z)",
        "(?<1a>x)",
        "(?<>x)",
        "(?<a",
        "(?<a-b>x)",
        "(?<\\u0031>x)",
        "\\k<n>",
        "\\k",
        "\\k<n",
        "(?<a>x)\\k<b>",
        "(a)\\2",
        "\\1",
        "\\8",
        "\\00",
        "\\01",
        "[\\01]",
        "\\c",
        "\\c1",
        "[\\c1]",
        "\\x4",
        "\\xG0",
        "\\u004",
        "\\u{}",
        "\\u{110000}",
        "\\u{G}",
        "\\u{41",
        "[b-a]",
        "[\\d-a]",
        "[a-\\d]",
        "[\\B]",
        "[\\k]",
        "[\\1]",
        "\\p{letter}",
        "\\p{Greek}",
        "\\p{sc=greek}",
        "\\p{L",
        "\\p",
        "\\pL",
        "\\p{}",
        "\\p{WSpace}",
        "\\p{gc=Alphabetic}",
        "\\p{Alphabetic=Yes}",
        "\\P{EComp}",
        "a{1}{2}",
        "^(abc]",
    ];

    #[test]
    fn unicode_mode_validity() {
        for src in VALID {
            assert_eq!(check(src, Syntax::Unicode), Ok(()), "{src:?}");
            assert!(parse(src).is_ok(), "{src:?} for matching");
        }
        for src in INVALID {
            assert!(
                check(src, Syntax::Unicode).is_err(),
                "{src:?} is not ECMA-262"
            );
        }
    }

    /// What matching reads besides Unicode mode: only the two leniencies.
    #[test]
    fn matching_leniencies() {
        for src in [
            "\\-", "\\@", "\\_", "\\ ", "\\é", "[\\@]", "a{", "a}", "]", "{,1}", "x{1,2", "a{1}{",
        ] {
            assert!(check(src, Syntax::Unicode).is_err(), "{src:?}");
            assert_eq!(check(src, Syntax::Matching), Ok(()), "{src:?}");
        }
        for src in INVALID
            .iter()
            .filter(|s| !matches!(**s, "\\-" | "\\@" | "\\_" | "\\ " | "\\é"))
        {
            let lenient_only = ["]", "}", "{", "a{", "a{1", "a{,1}", "a{1,2", "^(abc]"];
            if !lenient_only.contains(src) {
                assert!(parse(src).is_err(), "{src:?} for matching");
            }
        }
    }

    /// Messages: terse, naming the construct.
    #[test]
    fn reasons() {
        for (src, why) in [
            ("(a", "unterminated group"),
            ("a)", "unmatched ) in the pattern"),
            ("[a", "unterminated character class"),
            ("a\\", "pattern ends with a backslash"),
            ("a**", "nothing to repeat before a quantifier"),
            ("x{2,1}", "quantifier range out of order"),
            ("[b-a]", "range out of order in character class"),
            ("[\\d-a]", "a class escape cannot start a range"),
            ("\\a", "invalid escape \\a"),
            ("(a)\\2", "no group 2 for the backreference \\2"),
            ("\\k<n>", "no group named \"n\" for \\k<n>"),
            ("(?<n>a)(?<n>b)", "duplicate group name \"n\""),
            ("\\p{letter}", "unknown Unicode property \\p{letter}"),
            ("(?i)a", "invalid group"),
            ("\\u{110000}", "\\u{...} escape above 10FFFF"),
        ] {
            assert_eq!(
                check(src, Syntax::Matching).err().as_deref(),
                Some(why),
                "{src:?}"
            );
        }
        let unsupported = |src: &str| parse(src).expect(src).unsupported;
        assert_eq!(
            unsupported("(a)\\1").as_deref(),
            Some("backreferences are not supported")
        );
        assert_eq!(
            unsupported("(?<n>a)\\k<n>").as_deref(),
            Some("named backreferences are not supported")
        );
        assert_eq!(
            unsupported("a(?<=b)").as_deref(),
            Some("lookaround assertions are not supported")
        );
        assert_eq!(
            unsupported("(?i:a)").as_deref(),
            Some("flag modifiers are not supported")
        );
        assert_eq!(
            unsupported("(?-i:a)"),
            None,
            "turning off a flag that is off"
        );
        assert_eq!(
            unsupported("\\p{CWKCF}").as_deref(),
            Some("Unicode property \\p{Changes_When_NFKC_Casefolded} is not supported")
        );
        assert_eq!(unsupported("[a-z]+\\b"), None);
    }

    /// Nesting a hundred thousand deep, in groups or repetitions, is read without
    /// recursion; so are a hundred thousand named groups in as many alternatives.
    #[test]
    fn deep_and_wide_patterns() {
        let n = 100_000;
        let deep = format!("{}a{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(check(&deep, Syntax::Unicode), Ok(()));
        let repeats = format!("{}a{}", "(?:".repeat(n), ")*".repeat(n));
        assert_eq!(check(&repeats, Syntax::Unicode), Ok(()));
        assert!(parse(&repeats).is_ok());
        let named: Vec<String> = (0..n).map(|_| "(?<a>x)".to_string()).collect();
        assert_eq!(check(&named.join("|"), Syntax::Unicode), Ok(()));
        let nested_names = format!("{}{}", "(?:(?<a>x)|".repeat(n), ")".repeat(n));
        assert_eq!(check(&nested_names, Syntax::Unicode), Ok(()));
        let closed = |after: &str| format!("{}(?<a>x){}{after}", "(".repeat(n), ")".repeat(n));
        assert!(
            check(&closed("(?<a>y)"), Syntax::Unicode).is_err(),
            "an a closed deep inside, then an a beside it"
        );
        assert_eq!(check(&closed("|(?<a>y)"), Syntax::Unicode), Ok(()));
        let ladder = format!(
            "{}(?<a>y){}",
            "(?:(?<a>x)|(".repeat(1000),
            "))".repeat(1000)
        );
        assert_eq!(
            check(&ladder, Syntax::Unicode),
            Ok(()),
            "each a is in an alternative of its own"
        );
    }

    /// Random strings of pattern syntax: no panic, and Unicode mode never accepts
    /// what matching refuses.
    #[test]
    fn random_syntax_never_panics() {
        const PIECES: [&str; 40] = [
            "a", "é", "🐲", "(", ")", "(?:", "(?=", "(?<=", "(?<n>", "(?<m>", "\\k<n>", "[", "]",
            "[^", "-", "{", "}", "{2}", "{1,", ",", "*", "+", "?", "|", "^", "$", "\\", "\\d",
            "\\p{L}", "\\p{", "\\u", "\\u{", "D83D", "\\uDC32", "\\x4", "1", "\\1", "\\c", ".",
            "(?i:",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut valid = 0;
        for _ in 0..20_000 {
            let src: String = (0..1 + next(12))
                .map(|_| PIECES[next(PIECES.len())])
                .collect();
            let unicode = check(&src, Syntax::Unicode);
            let matching = parse(&src);
            if unicode.is_ok() {
                valid += 1;
                assert!(matching.is_ok(), "{src:?}: {:?}", matching.err());
            }
            if let Ok(parsed) = matching {
                if parsed.unsupported.is_none() {
                    let _ = super::super::compile_matcher(&src);
                }
            }
        }
        assert!(valid > 1000, "only {valid} valid patterns");
    }
}
