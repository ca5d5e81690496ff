//! ECMA-262 patterns (`pattern`, and `"format": "regex"`), with their ECMA meaning.
//!
//! A pattern is parsed once ([`ecma`]) into a typed tree ([`tree`]) whose sets already
//! mean what ECMA says: `\d` is `[0-9]` (not every Unicode digit), `\w` is
//! `[A-Za-z0-9_]`, `\s` is ECMA's whitespace and line terminators, `.` excludes the
//! four line terminators, `\p{…}` names exactly the properties ECMA lists. Every
//! matcher is derived from that tree: a fully anchored fixed-width pattern is a
//! byte-set sequence ([`fixed`], in vectors on x86-64); another small one a
//! deterministic automaton ([`automaton`]), walked by byte shuffles when it has at
//! most 16 rows ([`sheng`]) or, when it accepts a few fixed shapes of ASCII text (a
//! date-time with optional seconds), checked shape by shape instead ([`shapes`]);
//! a fully anchored one whose only variable part is one counted set (`^.{1,1000}$`)
//! is read once, counting ([`counted`]); the rest goes to the `regex` crate as text
//! written from the tree ([`regex_text`]),
//! where `\b` is its ASCII word boundary, which is ECMA's. What none of them can give
//! its exact meaning (backreferences, lookaround, flag modifiers) is refused, never
//! approximated.

use regex::Regex;

mod automaton;
mod counted;
mod ecma;
mod fixed;
mod regex_text;
#[cfg(target_arch = "x86_64")]
mod shapes;
#[cfg(target_arch = "x86_64")]
mod sheng;
mod tree;
mod unicode;

#[cfg(test)]
mod suite_tests;
#[cfg(test)]
mod tests;

use automaton::Dfa;
use counted::Counted;
use fixed::FixedPattern;
use tree::Tree;

/// Compiled programs larger than this are refused (a schema must not be able to make
/// the host build an enormous automaton).
const SIZE_LIMIT: usize = 1 << 20;

/// A compiled pattern: the common fully anchored fixed-width shape (`^[A-Z]{3}$`,
/// `^\d{4}-\d{2}-\d{2}$`) is matched by a byte-set sequence (in vectors on x86-64),
/// other small patterns by a [`Dfa`], walked by shuffles when it is small enough or
/// checked shape by shape when its language is a few fixed shapes (each boxed: the
/// enum keeps its size, and with it the layout of every schema node), everything
/// else by the `regex` crate. All have exactly the ECMA meaning.
pub(crate) enum Matcher {
    Fixed(FixedPattern),
    Dfa(Box<Dfa>),
    #[cfg(target_arch = "x86_64")]
    Sheng(Box<sheng::Sheng>),
    #[cfg(target_arch = "x86_64")]
    Shapes(Box<shapes::Shapes>),
    Counted(Box<Counted>),
    Regex(Regex),
}

impl Matcher {
    /// The automaton and the regex engine are called out of line: inlined, their
    /// register and stack needs cost the fixed-width check (most tool patterns) a
    /// heavier prologue on every call.
    #[inline]
    pub(crate) fn is_match(&self, s: &str) -> bool {
        #[cfg(test)]
        crate::schema::adversarial_tests::count_scan(s.len());
        match self {
            Matcher::Fixed(f) => f.is_match(s),
            Matcher::Dfa(d) => d.is_match(s),
            #[cfg(target_arch = "x86_64")]
            Matcher::Sheng(d) => d.is_match(s),
            #[cfg(target_arch = "x86_64")]
            Matcher::Shapes(d) => d.is_match(s),
            Matcher::Counted(c) => c.is_match(s),
            Matcher::Regex(r) => regex_is_match(r, s),
        }
    }
}

#[inline(never)]
fn regex_is_match(r: &Regex, s: &str) -> bool {
    r.is_match(s)
}

/// Compiles `src` into the cheapest matcher with its ECMA meaning; the error says why
/// it cannot be given that meaning. Besides ECMA-262's Unicode-mode grammar, an
/// escaped character that is not an ASCII letter or digit stands for itself (`\-`,
/// `\@`), and a `{`, `}` or `]` that cannot be syntax for itself (`a{`), as ECMA-262's
/// web-compatibility grammar reads them.
pub(crate) fn compile_matcher(src: &str) -> Result<Matcher, String> {
    let mut tree = Tree::with_capacity(src.len());
    if let Some(why) = ecma::parse_into(src, &mut tree)? {
        return Err(why);
    }
    if let Some(f) = FixedPattern::from_tree(&tree) {
        return Ok(Matcher::Fixed(f));
    }
    derived(&tree)
}

/// The matcher of a pattern that is not fixed-width.
fn derived(tree: &Tree) -> Result<Matcher, String> {
    let dfa = Dfa::new(tree);
    #[cfg(target_arch = "x86_64")]
    if let Some(shapes) = dfa.as_ref().and_then(shapes::Shapes::new) {
        return Ok(Matcher::Shapes(Box::new(shapes)));
    }
    let Some(dfa) = dfa else {
        // A counted set costs the automaton and `regex` a copy of the set per count;
        // here it costs one set and its bounds.
        if let Some(counted) = Counted::from_tree(tree) {
            return Ok(Matcher::Counted(Box::new(counted)));
        }
        return regex_text::build(tree).map(Matcher::Regex);
    };
    let dfa = Box::new(dfa);
    #[cfg(target_arch = "x86_64")]
    let dfa = match sheng::Sheng::new(dfa) {
        Ok(sheng) => return Ok(Matcher::Sheng(Box::new(sheng))),
        Err(dfa) => dfa,
    };
    Ok(Matcher::Dfa(dfa))
}

/// Whether `src` is a syntactically valid ECMA-262 pattern in Unicode mode (the `u`
/// flag): the check behind `"format": "regex"`. True for what the matchers refuse
/// (lookaround, backreferences, flag modifiers); false for what only the
/// web-compatibility grammar reads (`\a`, a lone `{`), for other dialects (`(?P<n>`,
/// `(?i)`) and for early errors (`\2` with one group, `[b-a]`, `\p{letter}`).
// Dead outside the tests until the `format` keyword's check calls it instead of its
// stand-in (`compile_matcher`).
pub(crate) fn is_valid_ecma_regex(src: &str) -> bool {
    ecma::check(src, ecma::Syntax::Unicode).is_ok()
}

/// Compiles `src` with the `regex` crate alone (the reference the other matchers are
/// tested against); the error says why it cannot be given ECMA meaning.
#[cfg(test)]
pub(crate) fn compile(src: &str) -> Result<Regex, String> {
    let parsed = ecma::parse(src)?;
    if let Some(why) = parsed.unsupported {
        return Err(why);
    }
    regex_text::build(&parsed.tree)
}

/// Every matcher `src` can be given, each built on its own from the same tree and
/// named, first the one [`compile_matcher`] chooses: the pattern fuzz target checks
/// that they all agree. `Err` when the pattern has no ECMA meaning here.
#[cfg(feature = "fuzz-internals")]
pub(crate) fn every_matcher(src: &str) -> Result<Vec<(&'static str, Matcher)>, String> {
    let mut tree = Tree::with_capacity(src.len());
    if let Some(why) = ecma::parse_into(src, &mut tree)? {
        return Err(why);
    }
    let mut all = vec![("chosen", compile_matcher(src)?)];
    if let Some(f) = FixedPattern::from_tree(&tree) {
        all.push(("fixed", Matcher::Fixed(f)));
    }
    if let Some(dfa) = Dfa::new(&tree) {
        #[cfg(target_arch = "x86_64")]
        if let Some(shapes) = shapes::Shapes::new(&dfa) {
            all.push(("shapes", Matcher::Shapes(Box::new(shapes))));
        }
        all.push(("automaton", Matcher::Dfa(Box::new(dfa))));
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(dfa) = Dfa::new(&tree) {
        if let Ok(sheng) = sheng::Sheng::new(Box::new(dfa)) {
            all.push(("shuffles", Matcher::Sheng(Box::new(sheng))));
        }
    }
    if let Some(counted) = Counted::from_tree(&tree) {
        all.push(("counted", Matcher::Counted(Box::new(counted))));
    }
    if let Ok(r) = regex_text::build(&tree) {
        all.push(("regex", Matcher::Regex(r)));
    }
    Ok(all)
}
