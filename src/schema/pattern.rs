//! ECMA-262 patterns, translated into the `regex` crate's syntax with their ECMA
//! meaning. Where the meanings differ the translation spells ECMA's out: `\d` is
//! `[0-9]` (not every Unicode digit), `\w` is `[A-Za-z0-9_]`, `\s` is ECMA's
//! whitespace set, `\b` is the ASCII word boundary, `.` excludes the four line
//! terminators. Every literal character is emitted as `\x{..}`, so nothing ECMA reads
//! literally can turn into `regex` syntax. What `regex` cannot express with ECMA's
//! meaning (backreferences, lookaround) is refused, never approximated.

use regex::{Regex, RegexBuilder};

/// ECMA-262 WhiteSpace and LineTerminator code points.
const ECMA_SPACE: &str = r"\x{9}-\x{D}\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const ECMA_DIGIT: &str = r"0-9";
const ECMA_WORD: &str = r"0-9A-Za-z_";

/// Compiled programs larger than this are refused (a schema must not be able to make
/// the host build an enormous automaton).
const SIZE_LIMIT: usize = 1 << 20;

/// A compiled pattern: the common fully anchored fixed-width shape (`^[A-Z]{3}$`,
/// `^\d{4}-\d{2}-\d{2}$`) is matched by a byte-set sequence, everything else by
/// the `regex` crate. Both have exactly the ECMA meaning.
pub(crate) enum Matcher {
    Fixed(FixedPattern),
    Regex(Regex),
}

impl Matcher {
    #[inline]
    pub(crate) fn is_match(&self, s: &str) -> bool {
        match self {
            Matcher::Fixed(f) => f.is_match(s),
            Matcher::Regex(r) => r.is_match(s),
        }
    }
}

/// `^ item{n} item{n} ... $` where every item is a set of ASCII characters: the
/// string matches when it has exactly `len` characters, each in its item's set. A
/// non-ASCII character is in no set, so a byte-wise check is the ECMA meaning.
pub(crate) struct FixedPattern {
    /// One set per character position (`[u128]` bitmaps of ASCII).
    sets: Vec<u128>,
}

impl FixedPattern {
    #[inline]
    fn is_match(&self, s: &str) -> bool {
        s.len() == self.sets.len()
            && s.bytes()
                .zip(&self.sets)
                .all(|(b, set)| b < 128 && set & (1u128 << b) != 0)
    }

    /// Recognizes the fixed shape; `None` sends the pattern to the regex engine.
    fn parse(src: &str) -> Option<FixedPattern> {
        let body = src.strip_prefix('^')?.strip_suffix('$')?;
        let b = body.as_bytes();
        if !body.is_ascii() || b.last() == Some(&b'\\') {
            return None;
        }
        let mut sets = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let (set, next) = Self::atom(b, i)?;
            i = next;
            let mut count = 1usize;
            if b.get(i) == Some(&b'{') {
                let close = i + b[i..].iter().position(|&c| c == b'}')?;
                let digits = &body[i + 1..close];
                if digits.is_empty()
                    || digits.len() > 3
                    || !digits.bytes().all(|c| c.is_ascii_digit())
                {
                    return None;
                }
                count = digits.parse().ok()?;
                i = close + 1;
            }
            if matches!(b.get(i), Some(b'?' | b'*' | b'+' | b'{')) {
                return None;
            }
            sets.extend(std::iter::repeat(set).take(count));
        }
        (sets.len() <= 256).then_some(FixedPattern { sets })
    }

    /// One atom at `i`: a literal, `\d`/`\w`, an escaped punctuation character, or a
    /// non-negated class of those and ranges.
    fn atom(b: &[u8], i: usize) -> Option<(u128, usize)> {
        let one = |c: u8| 1u128 << c;
        match b[i] {
            b'[' => {
                let mut set = 0u128;
                let mut j = i + 1;
                if matches!(b.get(j), Some(b'^' | b']')) {
                    return None;
                }
                while *b.get(j)? != b']' {
                    let (lo, next) = Self::class_item(b, j)?;
                    j = next;
                    if b.get(j) == Some(&b'-') && b.get(j + 1).is_some_and(|&c| c != b']') {
                        let (hi, next) = Self::class_item(b, j + 1)?;
                        let (lo, hi) = (single(lo)?, single(hi)?);
                        if lo > hi {
                            return None;
                        }
                        set |= (lo..=hi).fold(0, |acc, c| acc | one(c));
                        j = next;
                    } else {
                        set |= lo;
                    }
                }
                Some((set, j + 1))
            }
            b'\\' => Some((Self::escape(*b.get(i + 1)?)?, i + 2)),
            b'.' | b'|' | b'(' | b')' | b'^' | b'$' | b'*' | b'+' | b'?' | b'{' | b'}' | b']' => {
                None
            }
            c => Some((one(c), i + 1)),
        }
    }

    fn class_item(b: &[u8], j: usize) -> Option<(u128, usize)> {
        match *b.get(j)? {
            b'\\' => Some((Self::escape(*b.get(j + 1)?)?, j + 2)),
            b'[' => None,
            c => Some((1u128 << c, j + 1)),
        }
    }

    fn escape(c: u8) -> Option<u128> {
        let range = |lo: u8, hi: u8| (lo..=hi).fold(0u128, |acc, c| acc | (1u128 << c));
        match c {
            b'd' => Some(range(b'0', b'9')),
            b'w' => Some(range(b'0', b'9') | range(b'A', b'Z') | range(b'a', b'z') | (1 << b'_')),
            c if c.is_ascii_punctuation() => Some(1u128 << c),
            _ => None,
        }
    }
}

/// The one character a set holds, for range ends.
fn single(set: u128) -> Option<u8> {
    (set.count_ones() == 1).then(|| set.trailing_zeros() as u8)
}

/// Compiles `src` into the cheapest matcher with its ECMA meaning; the error says why
/// it cannot be given that meaning.
pub(crate) fn compile_matcher(src: &str) -> Result<Matcher, String> {
    match FixedPattern::parse(src) {
        Some(f) => Ok(Matcher::Fixed(f)),
        None => compile(src).map(Matcher::Regex),
    }
}

/// Translates and compiles `src`; the error says why it cannot be given ECMA meaning.
pub(crate) fn compile(src: &str) -> Result<Regex, String> {
    let translated = translate(src)?;
    RegexBuilder::new(&translated)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => "pattern is too large".to_string(),
            other => {
                // The regex error quotes the translated pattern; keep only its last line.
                let text = other.to_string();
                let reason = text
                    .lines()
                    .rev()
                    .find(|l| l.trim_start().starts_with("error:"))
                    .map(|l| {
                        l.trim_start()
                            .trim_start_matches("error:")
                            .trim()
                            .to_string()
                    })
                    .unwrap_or(text);
                format!("not a valid ECMA-262 pattern ({reason})")
            }
        })
}

fn lit(out: &mut String, c: char) {
    use std::fmt::Write;
    let _ = write!(out, "\\x{{{:X}}}", c as u32);
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

/// An item inside a character class.
enum ClassAtom {
    Char(char),
    /// A class escape (`\d`, `\W`, ...), already translated into class syntax.
    Set(String),
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn hex(&mut self, n: usize) -> Option<u32> {
        let mut v = 0u32;
        for k in 0..n {
            v = v * 16 + self.peek_at(k)?.to_digit(16)?;
        }
        self.i += n;
        Some(v)
    }

    /// `\u` escapes (cursor after `u`): `XXXX`, a surrogate pair, or `{X..}`.
    fn unicode_escape(&mut self) -> Result<char, String> {
        if self.peek() == Some('{') {
            let close = self.chars[self.i..]
                .iter()
                .position(|&c| c == '}')
                .ok_or("unterminated \\u{...} escape")?;
            let digits: String = self.chars[self.i + 1..self.i + close].iter().collect();
            self.i += close + 1;
            let cp = u32::from_str_radix(&digits, 16).map_err(|_| "invalid \\u{...} escape")?;
            return char::from_u32(cp).ok_or_else(|| "invalid code point in \\u{...}".into());
        }
        let hi = self.hex(4).ok_or("invalid \\u escape")?;
        if (0xD800..0xDC00).contains(&hi)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let save = self.i;
            self.i += 2;
            if let Some(lo) = self.hex(4) {
                if (0xDC00..0xE000).contains(&lo) {
                    let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return char::from_u32(cp).ok_or_else(|| "invalid surrogate pair".into());
                }
            }
            self.i = save;
        }
        char::from_u32(hi).ok_or_else(|| "a lone surrogate cannot be matched".into())
    }

    /// An escape (cursor after `\`) that stands for one character, shared by both
    /// contexts; `None` when the escape is not a character escape.
    fn char_escape(&mut self, c: char) -> Result<Option<char>, String> {
        Ok(Some(match c {
            't' => '\t',
            'n' => '\n',
            'v' => '\u{B}',
            'f' => '\u{C}',
            'r' => '\r',
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => '\0',
            'c' => {
                let l = self
                    .peek()
                    .filter(char::is_ascii_alphabetic)
                    .ok_or("invalid \\c escape")?;
                self.i += 1;
                char::from_u32(l as u32 % 32).unwrap_or('\0')
            }
            'x' => {
                let v = self.hex(2).ok_or("invalid \\x escape")?;
                char::from_u32(v).unwrap_or('\0')
            }
            'u' => self.unicode_escape()?,
            c if c.is_ascii_alphanumeric() => return Ok(None),
            // Identity escape of a syntax character or other punctuation.
            c => c,
        }))
    }

    /// `\p{..}` / `\P{..}` (cursor after `p`/`P`): the property text, checked to be
    /// a plain name so it cannot smuggle syntax.
    fn property(&mut self, negated: bool) -> Result<String, String> {
        if self.peek() != Some('{') {
            return Err("invalid \\p escape".into());
        }
        let close = self.chars[self.i..]
            .iter()
            .position(|&c| c == '}')
            .ok_or("unterminated \\p{...}")?;
        let name: String = self.chars[self.i + 1..self.i + close].iter().collect();
        self.i += close + 1;
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=')
        {
            return Err(format!("invalid property name \\p{{{name}}}"));
        }
        Ok(format!("\\{}{{{name}}}", if negated { 'P' } else { 'p' }))
    }

    fn class_atom(&mut self) -> Result<ClassAtom, String> {
        let c = self.peek().ok_or("unterminated character class")?;
        self.i += 1;
        if c != '\\' {
            return Ok(ClassAtom::Char(c));
        }
        let e = self.peek().ok_or("pattern ends with a backslash")?;
        self.i += 1;
        Ok(match e {
            'd' => ClassAtom::Set(ECMA_DIGIT.into()),
            'D' => ClassAtom::Set(format!("[^{ECMA_DIGIT}]")),
            'w' => ClassAtom::Set(ECMA_WORD.into()),
            'W' => ClassAtom::Set(format!("[^{ECMA_WORD}]")),
            's' => ClassAtom::Set(ECMA_SPACE.into()),
            'S' => ClassAtom::Set(format!("[^{ECMA_SPACE}]")),
            'p' => ClassAtom::Set(self.property(false)?),
            'P' => ClassAtom::Set(self.property(true)?),
            'b' => ClassAtom::Char('\u{8}'),
            '-' => ClassAtom::Char('-'),
            other => match self.char_escape(other)? {
                Some(ch) => ClassAtom::Char(ch),
                None => return Err(format!("unsupported escape \\{other} in a character class")),
            },
        })
    }

    /// A character class (cursor after `[`).
    fn class(&mut self, out: &mut String) -> Result<(), String> {
        let negated = self.peek() == Some('^');
        if negated {
            self.i += 1;
        }
        if self.peek() == Some(']') {
            // ECMA: `[]` matches nothing, `[^]` matches any character.
            self.i += 1;
            out.push_str(if negated {
                r"[\x{0}-\x{10FFFF}]"
            } else {
                r"[^\x{0}-\x{10FFFF}]"
            });
            return Ok(());
        }
        out.push('[');
        if negated {
            out.push('^');
        }
        loop {
            match self.peek() {
                None => return Err("unterminated character class".into()),
                Some(']') => {
                    self.i += 1;
                    break;
                }
                _ => {}
            }
            let first = self.class_atom()?;
            let is_range = self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']');
            match (first, is_range) {
                (ClassAtom::Char(a), true) => {
                    self.i += 1;
                    match self.class_atom()? {
                        ClassAtom::Char(b) if a <= b => {
                            lit(out, a);
                            out.push('-');
                            lit(out, b);
                        }
                        ClassAtom::Char(_) => {
                            return Err("range out of order in character class".into())
                        }
                        ClassAtom::Set(_) => return Err("a class escape cannot end a range".into()),
                    }
                }
                (ClassAtom::Set(_), true) => {
                    return Err("a class escape cannot start a range".into())
                }
                (ClassAtom::Char(a), false) => lit(out, a),
                (ClassAtom::Set(s), false) => out.push_str(&s),
            }
        }
        out.push(']');
        Ok(())
    }

    /// `n}`, `n,}` or `n,m}` at the cursor (just after `{`): its length when well formed.
    fn quantifier_len(&self) -> Option<usize> {
        let rest = &self.chars[self.i..];
        let close = rest.iter().position(|&c| c == '}')?;
        let body: String = rest[..close].iter().collect();
        let (a, b) = match body.split_once(',') {
            Some((a, b)) => (a, Some(b)),
            None => (body.as_str(), None),
        };
        let ok = !a.is_empty()
            && a.chars().all(|c| c.is_ascii_digit())
            && b.map_or(true, |b| b.chars().all(|c| c.is_ascii_digit()));
        ok.then_some(close + 1)
    }

    /// A `?` after a quantifier makes it lazy; same meaning in both dialects.
    fn lazy_suffix(&mut self, out: &mut String) {
        if self.peek() == Some('?') {
            self.i += 1;
            out.push('?');
        }
    }

    fn run(&mut self) -> Result<String, String> {
        let mut out = String::with_capacity(self.chars.len() * 2);
        // Whether the last thing read is an atom a quantifier may follow (ECMA
        // refuses `a**`, `^*`, `(*)`, `\b+`; `regex` would accept some of them).
        let mut quantifiable = false;
        while let Some(c) = self.peek() {
            self.i += 1;
            let opens_group = c == '(';
            match c {
                '\\' => {
                    let e = self.peek().ok_or("pattern ends with a backslash")?;
                    self.i += 1;
                    match e {
                        'd' => out.push_str(&format!("[{ECMA_DIGIT}]")),
                        'D' => out.push_str(&format!("[^{ECMA_DIGIT}]")),
                        'w' => out.push_str(&format!("[{ECMA_WORD}]")),
                        'W' => out.push_str(&format!("[^{ECMA_WORD}]")),
                        's' => out.push_str(&format!("[{ECMA_SPACE}]")),
                        'S' => out.push_str(&format!("[^{ECMA_SPACE}]")),
                        'b' => out.push_str(r"(?-u:\b)"),
                        'B' => out.push_str(r"(?-u:\B)"),
                        'p' => out.push_str(&self.property(false)?),
                        'P' => out.push_str(&self.property(true)?),
                        '1'..='9' => return Err("backreferences are not supported".into()),
                        'k' => return Err("named backreferences are not supported".into()),
                        other => match self.char_escape(other)? {
                            Some(ch) => lit(&mut out, ch),
                            None => return Err(format!("unsupported escape \\{other}")),
                        },
                    }
                }
                '.' => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
                '[' => self.class(&mut out)?,
                '(' => {
                    if self.peek() == Some('?') {
                        match (self.peek_at(1), self.peek_at(2)) {
                            (Some(':'), _) => {
                                self.i += 2;
                                out.push_str("(?:");
                            }
                            (Some('<'), Some(n)) if n != '=' && n != '!' => {
                                self.i += 2;
                                let close = self.chars[self.i..]
                                    .iter()
                                    .position(|&c| c == '>')
                                    .ok_or("unterminated group name")?;
                                let name: String =
                                    self.chars[self.i..self.i + close].iter().collect();
                                if !super::compile::is_group_name(&name) {
                                    return Err(format!("invalid group name {name:?}"));
                                }
                                self.i += close + 1;
                                out.push_str("(?P<");
                                out.push_str(&name);
                                out.push('>');
                            }
                            (Some('=' | '!'), _) | (Some('<'), _) => {
                                return Err("lookaround assertions are not supported".into())
                            }
                            _ => return Err("invalid group".into()),
                        }
                    } else {
                        out.push('(');
                    }
                }
                '{' => match self.quantifier_len() {
                    Some(len) => {
                        if !quantifiable {
                            return Err("nothing to repeat before a quantifier".into());
                        }
                        out.push('{');
                        out.extend(&self.chars[self.i..self.i + len]);
                        self.i += len;
                        self.lazy_suffix(&mut out);
                        quantifiable = false;
                        continue;
                    }
                    None => lit(&mut out, '{'),
                },
                '}' | ']' => lit(&mut out, c),
                '*' | '+' | '?' => {
                    if !quantifiable {
                        return Err("nothing to repeat before a quantifier".into());
                    }
                    out.push(c);
                    self.lazy_suffix(&mut out);
                    quantifiable = false;
                    continue;
                }
                '|' | '^' | '$' => {
                    out.push(c);
                    quantifiable = false;
                    continue;
                }
                ')' => out.push(c),
                c if c.is_alphanumeric() => out.push(c),
                c => lit(&mut out, c),
            }
            quantifiable = !opens_group && !out.ends_with(r"\b)") && !out.ends_with(r"\B)");
        }
        Ok(out)
    }
}

/// The `regex` syntax with the same meaning as the ECMA-262 pattern `src`.
pub(crate) fn translate(src: &str) -> Result<String, String> {
    Parser {
        chars: src.chars().collect(),
        i: 0,
    }
    .run()
}

#[cfg(test)]
mod tests {
    use super::compile;

    fn m(p: &str, s: &str) -> bool {
        compile(p)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
            .is_match(s)
    }

    #[test]
    fn ecma_meanings() {
        assert!(m(r"^\d$", "7"));
        assert!(!m(r"^\d$", "\u{07C0}"), "NKO digit is not \\d in ECMA");
        assert!(!m(r"^\w$", "é"));
        assert!(m(r"^\s$", "\u{FEFF}"));
        assert!(m(r"^\s$", "\u{2029}"));
        assert!(!m(r"^\S$", "\u{A0}"));
        assert!(!m(r"^.$", "\n") && !m(r"^.$", "\r") && !m(r"^.$", "\u{2028}"));
        assert!(m(r"^\cC$", "\u{3}"));
        assert!(m(r"^\cc$", "\u{3}"));
        assert!(m(r"[0-9]{3}", "ab123cd"), "unanchored");
        assert!(!m("^abc$", "abc\n"));
        assert!(m(r"\bfoo\b", "a foo b"));
        assert!(m(r"\bfoo\b", "éfooé"), "é is not a word character in ECMA");
        assert!(m(r"^[\d-]+$", "1-2"));
        assert!(m(r"^[^]$", "x") && !m(r"^[]$", "x"));
        assert!(m(r"^a{2}$", "aa") && m(r"^a{$", "a{"));
        assert!(m(r"^\p{Letter}cole$", "école"));
        assert!(m(r"^🐲*$", "🐲🐲"));
        assert!(m(r"^\u00e9$", "é") && m(r"^\ud83d\udc32$", "🐲"));
        assert!(m(r"^[#&~-]+$", "#&~-"));
        assert!(m(r"^(?<year>\d{4})$", "2024"));
    }

    #[test]
    fn fixed_patterns_agree_with_the_regex_engine() {
        use super::{compile_matcher, Matcher};
        let patterns = [
            r"^[A-Z]{3}$",
            r"^\d{4}-\d{2}-\d{2}$",
            r"^\d{2}:\d{2}$",
            r"^[A-Z0-9]{2}$",
            r"^ab\.c$",
            r"^[a-c_\d]{2}x$",
            r"^\w{3}$",
        ];
        let inputs = [
            "CDG",
            "cdg",
            "CDGX",
            "",
            "2025-06-14",
            "2025-6-14",
            "12:30",
            "1230",
            "AF",
            "A1",
            "a1",
            "ab.c",
            "abxc",
            "b_x",
            "9ax",
            "é_x",
            "abc",
            "ab_",
            "ÉCD",
            "CD\u{0}",
            "１２:３０",
        ];
        for p in patterns {
            let fixed = compile_matcher(p).unwrap();
            assert!(
                matches!(fixed, Matcher::Fixed(_)),
                "{p} should take the fixed path"
            );
            let regex = compile(p).unwrap();
            for s in inputs {
                assert_eq!(fixed.is_match(s), regex.is_match(s), "{p} on {s:?}");
            }
        }
        for p in [
            r"^[A-Z]+$",
            r"[A-Z]{3}",
            r"^[^a]{2}$",
            r"^a|b$",
            r"^.{2}$",
            r"^\s{2}$",
            r"^é$",
            r"^a{2,3}$",
        ] {
            assert!(
                matches!(compile_matcher(p).unwrap(), Matcher::Regex(_)),
                "{p} is not fixed"
            );
        }
    }

    #[test]
    fn refusals() {
        for p in [
            r"(a)\1", r"(?=a)", r"(?!a)", r"(?<=a)b", r"\k<n>", r"\a", r"[", r"(", r"a**", r"\",
            r"[b-a]", r"(?i)a",
        ] {
            assert!(compile(p).is_err(), "{p} should be refused");
        }
    }
}
