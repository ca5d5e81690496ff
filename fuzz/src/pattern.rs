//! A generated ECMA-262 pattern and strings: every matcher toolgate can give the
//! pattern (the fixed-width byte sets, the automaton, its shuffle walk, the shape
//! checker, the `regex` crate on the translated text) agrees with the others, and all
//! agree with the `regex` crate run on the same pattern written in its own syntax.
//!
//! The generator writes only what the two languages can say alike, each in its own
//! spelling: ASCII literals, classes and their negations, `.` (in ECMA every code point
//! but the four line terminators, written out as a class for `regex`), `\d`, `\w` and
//! `\s` (ASCII digits and word characters and ECMA's white space, written out for
//! `regex`, whose classes are Unicode), `^` and `$` (no multiline flag in either),
//! groups, alternation, and every quantifier, greedy and lazy. One input in eight is
//! the length-bound shape instead (`^`, fixed sets, one set counted up to a few
//! hundred times, fixed sets, `$`), with strings of one character repeated to around
//! its bounds: the counting matcher's shape, past what the automaton takes on.

use toolgate_core::fuzz_internals::pattern_matchers;

/// The fuzzer's bytes, read as choices; past the end every choice is 0.
struct Choices<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn below(&mut self, n: u8) -> u8 {
        self.byte() % n
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }
}

/// A pattern in both spellings.
#[derive(Default)]
struct Written {
    ecma: String,
    regex: String,
}

impl Written {
    fn both(&mut self, s: &str) {
        self.ecma.push_str(s);
        self.regex.push_str(s);
    }

    fn each(&mut self, ecma: &str, regex: &str) {
        self.ecma.push_str(ecma);
        self.regex.push_str(regex);
    }
}

/// Characters the literals and classes draw on: letters, digits and the punctuation
/// that is syntax in neither language outside a class.
const LITERALS: &[u8] = b"abcxyzAB019_ -,:@";

/// ECMA's `\s`: WhiteSpace and LineTerminator (ECMA-262, 22.2.2.9 CharacterClassEscape).
const ECMA_SPACE: &str = "[\\t\\n\\x0B\\x0C\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}]";
/// ECMA's `.` without the `s` flag: every code point but the line terminators.
const ECMA_DOT: &str = "[^\\n\\r\\x{2028}\\x{2029}]";

fn class_item(c: &mut Choices, w: &mut Written) {
    match c.below(5) {
        0 => {
            let (a, b) = (c.below(26), c.below(26));
            let (lo, hi) = (b'a' + a.min(b), b'a' + a.max(b));
            let s = format!("{}-{}", lo as char, hi as char);
            w.both(&s);
        }
        1 => w.each("\\d", "0-9"),
        2 => w.each("\\w", "A-Za-z0-9_"),
        3 => w.each("\\.", "\\."),
        _ => {
            let ch = LITERALS[c.below(LITERALS.len() as u8) as usize];
            if ch == b'-' {
                w.both("\\-");
            } else {
                w.both(&(ch as char).to_string());
            }
        }
    }
}

/// An atom: something a quantifier may follow.
fn atom(c: &mut Choices, w: &mut Written, depth: u32) {
    match c.below(if depth > 3 { 7 } else { 9 }) {
        7 => {
            w.both(if c.below(2) == 0 { "(?:" } else { "(" });
            alternation(c, w, depth + 1);
            w.both(")");
        }
        8 => {
            // An anchor inside a group, which ECMA lets a quantifier follow.
            w.both("(?:");
            w.both(if c.below(2) == 0 { "^" } else { "$" });
            w.both(")");
        }
        choice => set(choice, c, w),
    }
}

/// One set, an atom of one character: choices 0 to 6 (a literal, `.`, `\d`, `\w`,
/// `\s`, a class).
fn set(choice: u8, c: &mut Choices, w: &mut Written) {
    match choice {
        0 | 1 => {
            let ch = LITERALS[c.below(LITERALS.len() as u8) as usize];
            w.both(&(ch as char).to_string());
        }
        2 => w.each(".", ECMA_DOT),
        3 => w.each("\\d", "[0-9]"),
        4 => w.each("\\w", "[A-Za-z0-9_]"),
        5 => w.each("\\s", ECMA_SPACE),
        _ => {
            let negated = c.below(3) == 0;
            w.both(if negated { "[^" } else { "[" });
            for _ in 0..=c.below(3) {
                class_item(c, w);
            }
            w.both("]");
        }
    }
}

fn set_atom(c: &mut Choices, w: &mut Written) {
    let choice = c.below(7);
    set(choice, c, w);
}

fn quantifier(c: &mut Choices, w: &mut Written) {
    let q = match c.below(10) {
        0 => "*".to_owned(),
        1 => "+".to_owned(),
        2 => "?".to_owned(),
        3 => format!("{{{}}}", c.below(4)),
        4 => format!("{{{},}}", c.below(4)),
        5 => {
            let lo = c.below(4);
            format!("{{{},{}}}", lo, lo + c.below(4))
        }
        _ => return,
    };
    w.both(&q);
    if c.below(4) == 0 {
        w.both("?");
    }
}

fn sequence(c: &mut Choices, w: &mut Written, depth: u32) {
    if c.below(6) == 0 {
        w.both("^");
    }
    for _ in 0..c.below(5) {
        atom(c, w, depth);
        quantifier(c, w);
    }
    if c.below(6) == 0 {
        w.both("$");
    }
}

fn alternation(c: &mut Choices, w: &mut Written, depth: u32) {
    sequence(c, w, depth);
    while depth < 4 && !c.done() && c.below(5) == 0 {
        w.both("|");
        sequence(c, w, depth);
    }
}

/// The length-bound shape (`^.{1,1000}$`): `^`, a few sets, one set repeated from
/// `lo` to `hi` times (or unbounded), a few sets, `$`, with bounds past what the
/// automaton takes on; the strings are runs of one character around the bounds, some
/// with one other character put in.
fn bounded(c: &mut Choices, w: &mut Written) -> Vec<String> {
    w.both("^");
    let head = c.below(3);
    for _ in 0..head {
        set_atom(c, w);
    }
    set_atom(c, w);
    let lo = usize::from(c.below(4)) * 60 + usize::from(c.below(8));
    let hi = match c.below(4) {
        0 => None,
        k => Some(lo + usize::from(k) * 70 + usize::from(c.below(8))),
    };
    w.both(&match hi {
        Some(hi) => format!("{{{lo},{hi}}}"),
        None => format!("{{{lo},}}"),
    });
    let tail = c.below(3);
    for _ in 0..tail {
        set_atom(c, w);
    }
    w.both("$");
    let ends = usize::from(head + tail);
    let mut strings = vec![String::new()];
    while !c.done() && strings.len() < 12 {
        let ch = STRING_CHARS[c.below(STRING_CHARS.len() as u8) as usize];
        let bound = match c.below(3) {
            0 => lo,
            1 => hi.unwrap_or(lo + 300),
            _ => usize::from(c.below(32)),
        };
        let len = (bound + ends + usize::from(c.below(3))).saturating_sub(1);
        let mut text: Vec<char> = std::iter::repeat_n(ch, len).collect();
        if c.below(3) == 0 && !text.is_empty() {
            let at = usize::from(c.byte()) % text.len();
            text[at] = STRING_CHARS[c.below(STRING_CHARS.len() as u8) as usize];
        }
        strings.push(text.into_iter().collect());
    }
    strings
}

/// Characters the strings draw on: the literals' neighbours, the line terminators,
/// ECMA white space beyond ASCII, and non-ASCII letters of two, three and four bytes.
const STRING_CHARS: &[char] = &[
    'a',
    'b',
    'c',
    'x',
    'z',
    'A',
    'B',
    '0',
    '1',
    '9',
    '_',
    ' ',
    '-',
    ',',
    ':',
    '@',
    '.',
    '\n',
    '\r',
    '\t',
    '\u{0B}',
    '\u{A0}',
    '\u{2028}',
    '\u{2029}',
    '\u{FEFF}',
    '\u{3000}',
    'é',
    'ß',
    '日',
    '\u{1F600}',
    'K',
    '\u{212A}',
];

fn string(c: &mut Choices) -> String {
    let len = c.below(24);
    (0..len)
        .map(|_| STRING_CHARS[c.below(STRING_CHARS.len() as u8) as usize])
        .collect()
}

/// Every check on one generated pattern and its strings. Panics on any disagreement;
/// returns how many strings were checked and how many of them matched.
pub fn check(data: &[u8]) -> (usize, usize) {
    let mut c = Choices { bytes: data, at: 0 };
    let mut w = Written::default();
    let bounded_shape = c.below(8) == 0;
    let mut strings = if bounded_shape {
        bounded(&mut c, &mut w)
    } else {
        alternation(&mut c, &mut w, 0);
        vec![String::new()]
    };
    let Ok(reference) = regex::Regex::new(&w.regex) else {
        return (0, 0); // beyond the regex crate's size limit
    };
    let matchers = match pattern_matchers(&w.ecma) {
        Ok(m) => m,
        // Only what is too large may be refused: everything generated has ECMA meaning.
        Err(why) => {
            assert!(
                why.contains("too large") || why.contains("too big") || why.contains("limit"),
                "{:?} refused: {why}",
                w.ecma
            );
            return (0, 0);
        }
    };
    while !bounded_shape && !c.done() && strings.len() < 16 {
        strings.push(string(&mut c));
    }
    let mut matched = 0;
    for s in &strings {
        let want = reference.is_match(s);
        matched += usize::from(want);
        for (name, m) in &matchers {
            assert_eq!(
                m.is_match(s),
                want,
                "pattern {:?} (regex {:?}), {name} on {s:?}",
                w.ecma,
                w.regex
            );
        }
    }
    (strings.len(), matched)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_choices_agree() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let (mut checked, mut matched) = (0, 0);
        for _ in 0..2000 {
            let bytes = crate::xorshift_bytes(&mut seed, 96);
            let (c, m) = check(&bytes);
            checked += c;
            matched += m;
        }
        // Not vacuous: most strings are checked, and both verdicts are common.
        assert!(checked > 10_000, "{checked} strings checked");
        assert!(
            matched > checked / 10 && matched < checked * 9 / 10,
            "{matched} of {checked}"
        );
    }

    /// The length-bound inputs all have the counting matcher among those compared,
    /// and their strings reach both verdicts.
    #[test]
    fn bounded_shapes_are_counted() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let (mut counted, mut checked, mut matched) = (0, 0, 0);
        for _ in 0..300 {
            let mut bytes = crate::xorshift_bytes(&mut seed, 64);
            bytes[0] = 0;
            let mut w = Written::default();
            bounded(
                &mut Choices {
                    bytes: &bytes[1..],
                    at: 0,
                },
                &mut w,
            );
            let matchers = pattern_matchers(&w.ecma).unwrap();
            counted += usize::from(matchers.iter().any(|(n, _)| *n == "counted"));
            let (c, m) = check(&bytes);
            checked += c;
            matched += m;
        }
        assert_eq!(counted, 300, "every bounded shape has the counting matcher");
        // A run of one character rarely fits the fixed ends' sets too: a few percent
        // match, enough to reach the bounds from both sides.
        assert!(
            matched > checked / 50 && matched < checked / 2,
            "{matched} of {checked}"
        );
    }

    #[test]
    fn both_spellings_of_a_known_choice() {
        let mut w = Written::default();
        atom(&mut Choices { bytes: &[2], at: 0 }, &mut w, 0);
        assert_eq!(w.ecma, ".");
        assert_eq!(w.regex, ECMA_DOT);
        let dot = regex::Regex::new(&format!("^{ECMA_DOT}$")).unwrap();
        for (s, want) in [("a", true), ("\n", false), ("\u{2028}", false), ("é", true)] {
            assert_eq!(dot.is_match(s), want, "{s:?}");
        }
    }
}
