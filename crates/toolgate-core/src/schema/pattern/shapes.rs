//! Patterns whose language is a few fixed shapes of ASCII text, such as an RFC 3339
//! date-time with optional seconds and offset (`^\d{4}-…T\d{2}:\d{2}(:\d{2})?(Z|…)$`:
//! four shapes, of 17, 20, 22 and 25 characters). Such a string is checked like a
//! fixed-width pattern, all positions at once in vectors
//! ([`super::fixed::vector::Lanes`]), against the shapes of its length, instead of
//! being walked character by character through the automaton: a walk is a chain of
//! dependent loads, about a nanosecond per character, where a shape is a few
//! instructions whatever its length.
//!
//! The shapes are read off the automaton itself, so they mean exactly what it means:
//! every path from the start to a row that accepts at the end of input, with the rows
//! it passes through fixed, is the product of the byte sets that lead from each row to
//! the next. Patterns whose paths do not all stay in ASCII, run past 32 characters,
//! loop, accept before the end (unanchored), or make more than [`MAX_SHAPES`] shapes
//! stay automata.

use super::automaton::Dfa;
use super::fixed::vector::{Lanes, MAX_LEN};

/// Shapes checked one after another (those of the string's length only).
const MAX_SHAPES: usize = 8;
/// Paths collected before they are merged into shapes: the automaton is not minimal,
/// so `(a|b|c)` leads to three rows and so three paths that differ in one set.
const MAX_PATHS: usize = 64;
/// Steps of the search for shapes before it gives up: the paths of an automaton can
/// be exponentially many.
const MAX_STEPS: usize = 4096;

pub(crate) struct Shapes {
    /// Each shape's length and its check.
    shapes: Box<[(usize, Lanes)]>,
    /// The automaton the shapes were read from, for the tests.
    #[cfg(test)]
    pub(super) dfa: Dfa,
}

impl Shapes {
    /// The shapes of `d`'s language, or `None` when it is not a few fixed shapes of
    /// ASCII text of 1 to 32 characters.
    pub(super) fn new(d: &Dfa) -> Option<Shapes> {
        let classes = d.stride() - 1;
        // The ASCII bytes of each class, and whether it holds any other character.
        let mut ascii = vec![0u128; classes];
        for b in 0..128u8 {
            ascii[usize::from(d.ascii_class(b))] |= 1 << b;
        }
        let mut wide = vec![false; classes];
        for &(_, class) in d.wide() {
            wide[usize::from(class)] = true;
        }
        let mut search = Search {
            d,
            ascii,
            wide,
            path: Vec::new(),
            found: Vec::new(),
            steps: 0,
        };
        search.from(d.start())?;
        let found = merged(search.found);
        if found.len() > MAX_SHAPES {
            return None;
        }
        let shapes = found
            .iter()
            .map(|sets| Some((sets.len(), Lanes::new(sets)?)))
            .collect::<Option<Box<[_]>>>()?;
        Some(Shapes {
            shapes,
            #[cfg(test)]
            dfa: d.clone(),
        })
    }

    #[inline(never)]
    pub(super) fn is_match(&self, s: &str) -> bool {
        let bytes = s.as_bytes();
        self.shapes
            .iter()
            .any(|(len, lanes)| *len == bytes.len() && lanes.is_match(bytes))
    }
}

/// `paths` with every two that differ in one position only made one, whose set there
/// is the union of theirs (the same strings), until no two do.
fn merged(mut paths: Vec<Vec<u128>>) -> Vec<Vec<u128>> {
    'again: loop {
        for i in 0..paths.len() {
            for j in i + 1..paths.len() {
                let (a, b) = (&paths[i], &paths[j]);
                if a.len() != b.len() {
                    continue;
                }
                let mut differ = (0..a.len()).filter(|&k| a[k] != b[k]);
                match (differ.next(), differ.next()) {
                    (None, _) => {}
                    (Some(k), None) => paths[i][k] |= paths[j][k],
                    _ => continue,
                }
                paths.swap_remove(j);
                continue 'again;
            }
        }
        return paths;
    }
}

/// The depth-first search for shapes.
struct Search<'d> {
    d: &'d Dfa,
    /// Per class, its ASCII bytes.
    ascii: Vec<u128>,
    /// Per class, whether it holds a non-ASCII character.
    wide: Vec<bool>,
    /// The byte sets from the start to the current row.
    path: Vec<u128>,
    found: Vec<Vec<u128>>,
    steps: usize,
}

impl Search<'_> {
    /// Every shape that continues `path` from the row at offset `row`; `None` gives up.
    fn from(&mut self, row: usize) -> Option<()> {
        let (d, stride) = (self.d, self.d.stride());
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return None;
        }
        if d.trans()[row + stride - 1] != 0 {
            // Accepts here at the end of input. The empty string is no shape.
            if self.path.is_empty() || self.found.len() == MAX_PATHS {
                return None;
            }
            self.found.push(self.path.clone());
        }
        // The next rows, each with the bytes that lead there (more than sixteen
        // ways on from one row is not a few shapes either).
        let mut next = [(0usize, 0u128); 16];
        let mut ways = 0;
        for class in 0..stride - 1 {
            let to = usize::from(d.trans()[row + class]);
            if to == 0 {
                continue;
            }
            // Matched before the end (any rest is accepted), a character a byte set
            // cannot hold, or a path past the vectors' length: not a few shapes.
            if to == stride || self.wide[class] || self.path.len() == MAX_LEN {
                return None;
            }
            match next[..ways].iter_mut().find(|(r, _)| *r == to) {
                Some((_, set)) => *set |= self.ascii[class],
                None => {
                    *next.get_mut(ways)? = (to, self.ascii[class]);
                    ways += 1;
                }
            }
        }
        for &(to, set) in &next[..ways] {
            self.path.push(set);
            self.from(to)?;
            self.path.pop();
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{compile_matcher, Matcher};
    use super::Shapes;

    fn shapes(p: &str) -> Option<Box<Shapes>> {
        match compile_matcher(p).unwrap() {
            Matcher::Shapes(s) => Some(s),
            _ => None,
        }
    }

    fn lengths(s: &Shapes) -> Vec<usize> {
        s.shapes.iter().map(|(len, _)| *len).collect()
    }

    /// The calendar's date-time: four shapes, and at each position of each, every
    /// ASCII byte and a two-byte character give the automaton's verdict.
    #[test]
    fn date_time_is_four_shapes() {
        let p = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$";
        let s = shapes(p).expect("shapes");
        let mut found = lengths(&s);
        found.sort_unstable();
        assert_eq!(found, [17, 20, 22, 25], "{p}");
        for example in [
            "2025-07-01T09:30Z",
            "2025-07-01T09:30:00Z",
            "2025-07-01T09:30+02:00",
            "2025-07-01T09:30:00-02:00",
        ] {
            assert!(s.is_match(example), "{example}");
            for at in 0..example.len() {
                for b in (0..128u8).map(char::from).chain(['é']) {
                    let mut t = example.to_string();
                    t.replace_range(at..=at, b.encode_utf8(&mut [0; 4]));
                    assert_eq!(s.is_match(&t), s.dfa.is_match(&t), "{p} on {t:?}");
                }
            }
            assert!(!s.is_match(&example[1..]) && !s.is_match(&format!("{example}0")));
        }
    }

    /// Small finite languages against their automaton, on every string of up to five
    /// characters from an alphabet that covers their bytes, a neighbour of each, and
    /// a non-ASCII character.
    #[test]
    fn shapes_agree_with_the_automaton_on_every_short_string() {
        let cases: [(&str, &[usize]); 8] = [
            (r"^(ab|cd)$", &[2, 2]),
            (r"^a?b$", &[1, 2]),
            (r"^(x|yz)(1|23)$", &[2, 3, 3, 4]),
            (r"^[+-]?\d{1,3}$", &[1, 2, 3, 4]),
            (r"^(a|ab)(c|bcd)$", &[2, 4, 3, 5]),
            (r"^(?:a|b|c)(?:d|e)?:$", &[2, 3]),
            (r"^(Z|[+-]\d:\d)$", &[1, 4]),
            (r"^[]$", &[]),
        ];
        let alphabet = [
            'a', 'b', 'c', 'd', 'e', 'x', 'y', 'z', '1', '2', '3', '+', '-', ':', 'é',
        ];
        // Every string of up to five characters: each length from the one before.
        let (mut strings, mut shorter) = (vec![String::new()], vec![String::new()]);
        for _ in 0..5 {
            shorter = shorter
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            strings.extend_from_slice(&shorter);
        }
        assert_eq!(
            strings.len(),
            (0..=5).map(|k| 15usize.pow(k)).sum::<usize>()
        );
        for (p, want) in cases {
            let s = shapes(p).unwrap_or_else(|| panic!("{p} should be shapes"));
            let mut found = lengths(&s);
            found.sort_unstable();
            let mut want = want.to_vec();
            want.sort_unstable();
            assert_eq!(found, want, "{p}: shape lengths");
            for t in &strings {
                assert_eq!(s.is_match(t), s.dfa.is_match(t), "{p} on {t:?}");
            }
        }
    }

    /// What stays an automaton: too many shapes, too long, non-ASCII, a loop, an
    /// unanchored end.
    #[test]
    fn other_patterns_stay_automata() {
        for p in [
            r"^[a-z]{0,20}x$",
            r"^(a|b)\d{32}$",
            r"^(é|x)$",
            r"^[^a]b$",
            r"^a+b$",
            r"^ab",
            r"ab$",
            r"^$",
            r"^a?$",
        ] {
            assert!(shapes(p).is_none(), "{p} should not be shapes");
        }
    }
}
