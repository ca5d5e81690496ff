//! Every matcher against the `regex` crate's verdict on the text written from the same
//! tree, and the engine each kind of pattern gets.

use super::{compile, compile_matcher, Matcher};

/// The verdict of the `regex` engine, checked against the matcher the pattern gets.
fn m(p: &str, s: &str) -> bool {
    let verdict = compile(p)
        .unwrap_or_else(|e| panic!("{p}: {e}"))
        .is_match(s);
    assert_eq!(
        compile_matcher(p).unwrap().is_match(s),
        verdict,
        "{p} on {s:?}"
    );
    verdict
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
    let patterns = [
        r"^[A-Z]{3}$",
        r"^\d{4}-\d{2}-\d{2}$",
        r"^\d{2}:\d{2}$",
        r"^[A-Z0-9]{2}$",
        r"^ab\.c$",
        r"^[a-c_\d]{2}x$",
        r"^\w{3}$",
        r"^(?<year>\d{4})$",
        r"^(?:ab){2}\.c$",
        r"^\x41\u0042[^\W_]$",
        r"^((?:a)b{0}[b]){2}$",
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
        "2025",
        "abab.c",
        "abab.",
        "ABz",
        "AB_",
        "abab",
        "ab",
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
            !matches!(compile_matcher(p).unwrap(), Matcher::Fixed(_)),
            "{p} is not fixed"
        );
    }
}

/// Patterns on both sides of the automaton's limits, and which engine they get.
#[test]
fn automaton_shapes() {
    for p in [
        r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$",
        r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$",
        r"[0-9]{3}",
        r"^a|b$",
        r"^^a$$|^$|b",
        r"",
        r"a*",
        r"^[a-z0-9_-]{1,64}$",
        r"^[^\D]\W[\S\d]?\.$",
        r"^[^]$",
        r"^[]$",
        r"a(?:){100}",
        r"^\p{Letter}cole$",
        r"\p{L}",
        r"^(?<word>\w+)-(?<n>\d+)$",
        r"(^a|b)",
    ] {
        let m = compile_matcher(p).unwrap();
        let Some(d) = automaton(&m, p) else {
            panic!("{p} should take the automaton");
        };
        d.assert_pairs_are_two_steps(p);
    }
    for p in [
        r"\bfoo\b",
        r"(^a|b)c",
        r"a^b",
        r"(a$)b",
        r"$^",
        r"(a|b)*a(a|b){12}",
        r"\p{Letter}{24}",
        r"a{1000}",
        r"(?:(?:){100}){100}",
    ] {
        assert!(
            matches!(compile_matcher(p).unwrap(), Matcher::Regex(_)),
            "{p} should go to the regex engine"
        );
    }
    // Past the automaton's positions, a counted set between fixed-width ends is
    // counted, not spelled out a copy per count.
    for p in [
        r"^[a-z]{1,200}$",
        r"^.{1,1000}$",
        r"^\p{L}{1,64}$",
        r"^[\p{L} ]{1,100}$",
        r"^\S{1,2000}$",
        r"^[^\n]{1,5000}$",
    ] {
        assert!(
            matches!(compile_matcher(p).unwrap(), Matcher::Counted(_)),
            "{p} should be counted"
        );
    }
    // A class of a thousand CJK characters: a few copies are more than the
    // automaton takes on (left to `regex`), forty are too large for `regex` and
    // stay refused with its reason.
    let class: String = (0..1000u32)
        .map(|k| format!("\\u{:04x}", 0x4E00 + 2 * k))
        .collect();
    let few = format!("^[{class}]{{3}}$");
    assert!(matches!(compile_matcher(&few).unwrap(), Matcher::Regex(_)));
    let many = format!("^[{class}]{{40}}$");
    assert_eq!(
        compile_matcher(&many).err().as_deref(),
        Some("pattern is too large")
    );
}

/// The automaton of a matcher that has one (the shuffles keep theirs, and are
/// checked against it here: each byte's mask holds the row a step leads to).
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn automaton<'m>(m: &'m Matcher, p: &str) -> Option<&'m super::Dfa> {
    match m {
        Matcher::Dfa(d) => Some(d),
        #[cfg(target_arch = "x86_64")]
        Matcher::Shapes(shapes) => Some(&shapes.dfa),
        #[cfg(target_arch = "x86_64")]
        Matcher::Sheng(sheng) => {
            let d = sheng.dfa();
            for row in 0..d.trans().len() / d.stride() {
                for b in 0..=255u8 {
                    let want = if b < 0x80 {
                        d.step(row * d.stride(), d.ascii_class(b)) / d.stride()
                    } else {
                        row
                    };
                    assert_eq!(sheng.after(row, b), want, "{p}: sheng, row {row}, byte {b}");
                }
            }
            Some(d)
        }
        _ => None,
    }
}

/// Around the automaton walks' edges (runs of eight, the last few bytes, a
/// non-ASCII character handed to the character-at-a-time walk), for each of the
/// three walks (shuffles, two-character table, one-character table): strings of
/// every length to 40, matching or failing at every position, agree with the
/// `regex` engine.
#[test]
fn automata_agree_at_every_length() {
    let local_at = |len: usize| {
        format!(
            "{}@{}.org",
            "a".repeat(len / 2 + 1),
            "b".repeat(len - len / 2 + 1)
        )
    };
    #[derive(Debug, PartialEq)]
    enum Walk {
        Shuffles,
        Pairs,
        Singles,
    }
    /// A pattern, a string of about the given length it matches, its walk.
    type Case<'f> = (&'static str, &'f dyn Fn(usize) -> String, Walk);
    let cases: [Case; 6] = [
        (
            r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$",
            &local_at,
            Walk::Shuffles,
        ),
        (r"^[a-z]*$", &|len| "q".repeat(len), Walk::Shuffles),
        (
            r"^(ab)*c?$",
            &|len| "ab".repeat(len / 2) + "c",
            Walk::Shuffles,
        ),
        (
            r"x[0-9]+",
            &|len| format!("x{}", "7".repeat(len + 1)),
            Walk::Shuffles,
        ),
        (
            r"^[a-z]{0,20}x$",
            &|len| "q".repeat(len.min(20)) + "x",
            Walk::Pairs,
        ),
        (
            r"^[a-e][f-j][k-o][p-t][u-y]{1,80}$",
            &|len| "afkp".to_string() + &"u".repeat(len.clamp(1, 80)),
            Walk::Singles,
        ),
    ];
    for (p, make, walk) in cases {
        let (fast, reference) = (compile_matcher(p).unwrap(), compile(p).unwrap());
        let took = match &fast {
            Matcher::Dfa(d) if !d.has_pairs() => Walk::Singles,
            Matcher::Dfa(_) => Walk::Pairs,
            _ => Walk::Shuffles,
        };
        #[cfg(target_arch = "x86_64")]
        let shuffles = std::arch::is_x86_feature_detected!("ssse3");
        #[cfg(not(target_arch = "x86_64"))]
        let shuffles = false;
        if walk != Walk::Shuffles || shuffles {
            assert_eq!(took, walk, "{p}");
        }
        let check = |s: &str| assert_eq!(fast.is_match(s), reference.is_match(s), "{p} on {s:?}");
        for len in 0..=40 {
            let base = make(len);
            assert!(reference.is_match(&base), "{p} on {base:?}");
            check(&base);
            for at in 0..base.len() {
                for c in ['é', ' ', 'Z', '@', '\u{2003}', '\u{80}'] {
                    let mut s = base.clone();
                    s.replace_range(at..=at, c.encode_utf8(&mut [0; 4]));
                    check(&s);
                }
            }
        }
    }
}

/// Random patterns and inputs: the matcher `compile_matcher` picks agrees with
/// the `regex` engine on every one.
#[test]
fn automaton_agrees_with_the_regex_engine() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    const ATOMS: [&str; 34] = [
        "a",
        "b",
        "é",
        ".",
        r"\s",
        r"\S",
        r"\d",
        r"\D",
        r"\w",
        r"\W",
        r"[^a\s]",
        "[a-cé]",
        "[^]",
        "[]",
        r"\u2003",
        " ",
        "1",
        "^",
        "$",
        r"[\D_]",
        r"[^\W\s]",
        r"[\S-]",
        r"\.",
        r"\-",
        "{",
        "}",
        r"[\b\t]",
        r"\x41",
        r"\cJ",
        "-",
        r"[^\u00e0-\u{1F600}]",
        r"\b",
        "ǅ",
        "٣",
    ];
    const CHARS: [&str; 23] = [
        "a", "b", "c", "é", "1", " ", "\u{A0}", "\u{2003}", "\n", "\u{2028}", "_", "Z", "🐲",
        "\u{FEFF}", "-", ".", "{", "\t", "A", "٣", "\u{FFFD}", "\r", "\u{E000}",
    ];
    const ASCII: [&str; 14] = [
        "a", "b", "c", "1", " ", "\n", "_", "Z", "-", ".", "{", "\t", "A", "\r",
    ];
    fn pattern(next: &mut dyn FnMut(usize) -> usize, depth: usize) -> String {
        let mut out = String::new();
        for _ in 0..1 + next(4) {
            let atom = match next(8) {
                0 if depth < 3 => format!("({})", pattern(next, depth + 1)),
                1 if depth < 3 => {
                    format!(
                        "(?:{}|{})",
                        pattern(next, depth + 1),
                        pattern(next, depth + 1)
                    )
                }
                _ => ATOMS[next(ATOMS.len())].to_string(),
            };
            let quantifiable = atom != "^" && atom != "$";
            out.push_str(&atom);
            if quantifiable {
                let quantifiers = [
                    "", "", "", "?", "*", "+", "{2}", "{1,3}", "{2,}", "+?", "{0}",
                ];
                out.push_str(quantifiers[next(quantifiers.len())]);
            }
        }
        out
    }
    let mut dfas = 0;
    // Counted on x86-64 only, where the shuffles exist.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut shengs = 0;
    for _ in 0..3000 {
        let mut p = pattern(&mut next, 0);
        if next(3) == 0 {
            p = format!("{p}|{}", pattern(&mut next, 1));
        }
        p = match next(6) {
            0 | 1 => format!("^{p}$"),
            2 => format!("^{p}"),
            3 => format!("{p}$"),
            _ => p,
        };
        let (Ok(fast), Ok(reference)) = (compile_matcher(&p), compile(&p)) else {
            assert_eq!(compile_matcher(&p).err(), compile(&p).err(), "{p}");
            continue;
        };
        if let Some(d) = automaton(&fast, &p) {
            dfas += 1;
            #[cfg(target_arch = "x86_64")]
            {
                shengs += usize::from(matches!(fast, Matcher::Sheng(_)));
            }
            d.assert_pairs_are_two_steps(&p);
        }
        for k in 0..30 {
            // Every third input plain ASCII, so that runs of eight (the two-character
            // table's path) are common, not rare.
            let alphabet = if k % 3 == 0 { &CHARS[..1] } else { &CHARS[..] };
            let s: String = (0..next(20))
                .map(|_| match alphabet.len() {
                    1 => ASCII[next(ASCII.len())],
                    n => CHARS[next(n)],
                })
                .collect();
            assert_eq!(fast.is_match(&s), reference.is_match(&s), "{p} on {s:?}");
        }
    }
    assert!(dfas > 1000, "only {dfas} patterns took the automaton");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("ssse3") {
        assert!(
            shengs > 500,
            "only {shengs} automata were walked by shuffles"
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    assert_eq!(shengs, 0, "no shuffles off x86-64");
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

/// Groups nested a hundred thousand deep mean their contents (an automaton); a
/// hundred thousand nested repetitions are refused as too deep, without overflowing
/// any stack.
#[test]
fn deep_patterns() {
    let n = 100_000;
    let groups = format!("^{}ab{}$", "(".repeat(n), ")".repeat(n));
    let m = compile_matcher(&groups).expect("deep groups");
    assert!(matches!(m, Matcher::Fixed(_)));
    assert!(m.is_match("ab") && !m.is_match("abc"));
    let repeats = format!("{}a{}", "(?:".repeat(n), ")*".repeat(n));
    assert_eq!(
        compile_matcher(&repeats).err().as_deref(),
        Some("pattern nests too deeply")
    );
    let alternatives = vec!["ab"; n].join("|");
    assert!(compile_matcher(&alternatives).unwrap().is_match("xaby"));
}
