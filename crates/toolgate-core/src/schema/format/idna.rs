//! IDNA2008 label rules over code points: what makes a sequence of code points a
//! U-label (RFC 5890 2.3.2.1, RFC 5891 4.2 and 5.4), the contextual rules of RFC
//! 5892 appendix A, and the Bidi rule of RFC 5893 section 2. The Unicode data comes
//! from the generated `idna_tables` (one UCD version for every property).

use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

use super::idna_tables::{BIDI, DERIVED, JOINING, SCRIPTS, VIRAMA};

/// The RFC 5892 derived property of a code point a label may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Derived {
    Pvalid,
    /// PVALID, of General Category M: never first in a label (RFC 5891 4.2.3.2).
    PvalidMark,
    ContextJ,
    ContextO,
}

/// The Bidi_Class values RFC 5893 section 2 distinguishes. In Unicode 15.0 no code
/// point a label may hold is CS, ET or of another class; the rule names them, and
/// the tables of a later version may hold some.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub(super) enum Bidi {
    LeftToRight,
    RightToLeft,
    ArabicLetter,
    ArabicNumber,
    EuropeanNumber,
    EuropeanSeparator,
    CommonSeparator,
    EuropeanTerminator,
    OtherNeutral,
    BoundaryNeutral,
    NonspacingMark,
    /// Any class the Bidi rule admits in no label (WS, B, S, the embedding controls).
    OtherClass,
}

/// Joining_Type, as RFC 5892 A.1 reads it (C and U alike are neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Joining {
    Left,
    Dual,
    Right,
    Transparent,
}

/// The scripts the CONTEXTO rules of RFC 5892 A.4 to A.7 name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Script {
    Greek,
    Hebrew,
    Hiragana,
    Katakana,
    Han,
}

fn lookup<T: Copy>(table: &[(u32, u32, T)], c: char) -> Option<T> {
    let c = c as u32;
    let i = table.partition_point(|&(_, last, _)| last < c);
    match table.get(i) {
        Some(&(first, _, value)) if first <= c => Some(value),
        _ => None,
    }
}

/// None for DISALLOWED and UNASSIGNED.
pub(super) fn derived(c: char) -> Option<Derived> {
    lookup(&DERIVED, c)
}

/// Meaningful for code points a label may hold (see the table's note).
fn bidi(c: char) -> Bidi {
    lookup(&BIDI, c).unwrap_or(Bidi::LeftToRight)
}

fn joining(c: char) -> Option<Joining> {
    lookup(&JOINING, c)
}

fn script(c: char) -> Option<Script> {
    lookup(&SCRIPTS, c)
}

fn is_virama(c: char) -> bool {
    VIRAMA.binary_search(&(c as u32)).is_ok()
}

/// Whether `label` (code points, none a label separator) is a U-label, up to the
/// Bidi rule, which looks at the whole name ([`needs_bidi_rule`], [`bidi_rule`]).
/// The 63-octet limit on its A-label is the caller's (it knows the encoding).
pub(super) fn is_u_label(label: &[char]) -> bool {
    let (Some(&first), Some(&last)) = (label.first(), label.last()) else {
        return false;
    };
    // RFC 5891 4.2.3.1: no hyphen first or last, none in both the 3rd and 4th places.
    if first == '-' || last == '-' || (label.len() >= 4 && label[2] == '-' && label[3] == '-') {
        return false;
    }
    // RFC 5891 4.2.3.2: no leading combining mark.
    if derived(first) == Some(Derived::PvalidMark) {
        return false;
    }
    // RFC 5891 4.2.2 and 4.2.3.3: every code point PVALID, or contextual with its
    // rule satisfied.
    for (i, &c) in label.iter().enumerate() {
        let ok = match derived(c) {
            None => false,
            Some(Derived::Pvalid | Derived::PvalidMark) => true,
            Some(Derived::ContextJ) => context_j(label, i),
            Some(Derived::ContextO) => context_o(label, i),
        };
        if !ok {
            return false;
        }
    }
    // RFC 5890 2.3.2.1: a U-label is in NFC.
    is_nfc(label)
}

pub(super) fn is_nfc(s: &[char]) -> bool {
    match is_nfc_quick(s.iter().copied()) {
        IsNormalized::Yes => true,
        IsNormalized::No => false,
        IsNormalized::Maybe => s.iter().copied().nfc().eq(s.iter().copied()),
    }
}

/// RFC 5892 A.1 (ZERO WIDTH NON-JOINER) and A.2 (ZERO WIDTH JOINER).
fn context_j(label: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| label[j]);
    if before.is_some_and(is_virama) {
        return true;
    }
    if label[i] != '\u{200C}' {
        return false;
    }
    // (Joining_Type:{L,D})(Joining_Type:T)*\u200C(Joining_Type:T)*(Joining_Type:{R,D})
    let is_t = |c: &&char| joining(**c) == Some(Joining::Transparent);
    let left = label[..i].iter().rev().find(|c| !is_t(c));
    let right = label[i + 1..].iter().find(|c| !is_t(c));
    matches!(
        left.and_then(|&c| joining(c)),
        Some(Joining::Left | Joining::Dual)
    ) && matches!(
        right.and_then(|&c| joining(c)),
        Some(Joining::Right | Joining::Dual)
    )
}

/// RFC 5892 A.3 to A.9.
fn context_o(label: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| label[j]);
    let after = label.get(i + 1).copied();
    match label[i] {
        // A.3 MIDDLE DOT: between two 'l'.
        '\u{00B7}' => before == Some('l') && after == Some('l'),
        // A.4 GREEK LOWER NUMERAL SIGN (KERAIA): followed by Greek.
        '\u{0375}' => after.and_then(script) == Some(Script::Greek),
        // A.5, A.6 HEBREW PUNCTUATION GERESH and GERSHAYIM: preceded by Hebrew.
        '\u{05F3}' | '\u{05F4}' => before.and_then(script) == Some(Script::Hebrew),
        // A.7 KATAKANA MIDDLE DOT: somewhere in the label Hiragana, Katakana or Han.
        '\u{30FB}' => label.iter().any(|&c| {
            matches!(
                script(c),
                Some(Script::Hiragana | Script::Katakana | Script::Han)
            )
        }),
        // A.8 ARABIC-INDIC DIGITS: no EXTENDED ARABIC-INDIC DIGIT in the label.
        '\u{0660}'..='\u{0669}' => !label.iter().any(|c| matches!(c, '\u{06F0}'..='\u{06F9}')),
        // A.9 EXTENDED ARABIC-INDIC DIGITS: no ARABIC-INDIC DIGIT in the label.
        '\u{06F0}'..='\u{06F9}' => !label.iter().any(|c| matches!(c, '\u{0660}'..='\u{0669}')),
        _ => false,
    }
}

/// Whether a label makes its name a "Bidi domain name" (RFC 5893 section 1.4): it
/// holds a code point of Bidi class R, AL or AN.
pub(super) fn needs_bidi_rule(label: &[char]) -> bool {
    label.iter().any(|&c| {
        matches!(
            bidi(c),
            Bidi::RightToLeft | Bidi::ArabicLetter | Bidi::ArabicNumber
        )
    })
}

/// The Bidi rule (RFC 5893 section 2), which every label of a Bidi domain name
/// must satisfy (ASCII labels included).
pub(super) fn bidi_rule(label: &[char]) -> bool {
    use Bidi::*;
    let Some(&first) = label.first() else {
        return false;
    };
    // Condition 3 and 6 look at the last code point that is not NSM.
    let last = label
        .iter()
        .rev()
        .map(|&c| bidi(c))
        .find(|&b| b != NonspacingMark);
    match bidi(first) {
        // 1: an RTL label starts with R or AL.
        RightToLeft | ArabicLetter => {
            let mut european = false;
            let mut arabic = false;
            for &c in label {
                match bidi(c) {
                    EuropeanNumber => european = true,
                    ArabicNumber => arabic = true,
                    // 2: the classes an RTL label may hold.
                    RightToLeft | ArabicLetter | EuropeanSeparator | CommonSeparator
                    | EuropeanTerminator | OtherNeutral | BoundaryNeutral | NonspacingMark => {}
                    LeftToRight | OtherClass => return false,
                }
            }
            // 3: it ends with R, AL, EN or AN (then NSM); 4: not both EN and AN.
            matches!(
                last,
                Some(RightToLeft | ArabicLetter | EuropeanNumber | ArabicNumber)
            ) && !(european && arabic)
        }
        // 1: an LTR label starts with L.
        LeftToRight => {
            // 5: the classes an LTR label may hold; 6: it ends with L or EN (then NSM).
            label.iter().all(|&c| {
                matches!(
                    bidi(c),
                    LeftToRight
                        | EuropeanNumber
                        | EuropeanSeparator
                        | CommonSeparator
                        | EuropeanTerminator
                        | OtherNeutral
                        | BoundaryNeutral
                        | NonspacingMark
                )
            }) && matches!(last, Some(LeftToRight | EuropeanNumber))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn tables_name_their_unicode_version() {
        assert_eq!(super::super::idna_tables::UNICODE_VERSION, "15.0.0");
    }

    #[test]
    fn derived_property_of_sample_code_points() {
        // RFC 5892 appendix B's table, a few rows.
        assert_eq!(derived('a'), Some(Derived::Pvalid));
        assert_eq!(
            derived('A'),
            None,
            "upper case is unstable under case folding"
        );
        assert_eq!(
            derived('\u{00DF}'),
            Some(Derived::Pvalid),
            "exception: sharp s"
        );
        assert_eq!(derived('\u{0640}'), None, "exception: ARABIC TATWEEL");
        assert_eq!(derived('\u{0300}'), Some(Derived::PvalidMark));
        assert_eq!(derived('\u{200D}'), Some(Derived::ContextJ));
        assert_eq!(derived('\u{00B7}'), Some(Derived::ContextO));
        assert_eq!(derived('\u{212A}'), None, "KELVIN SIGN: NFKC changes it");
        assert_eq!(derived('\u{1100}'), None, "old Hangul jamo");
        assert_eq!(derived('\u{20D0}'), None, "combining marks for symbols");
        assert_eq!(derived('\u{E0100}'), None, "default ignorable");
        assert_eq!(derived('\u{0378}'), None, "unassigned");
        assert_eq!(derived('\u{4E08}'), Some(Derived::Pvalid));
    }

    #[test]
    fn bidi_classes_of_sample_code_points() {
        assert_eq!(bidi('a'), Bidi::LeftToRight);
        assert_eq!(bidi('0'), Bidi::EuropeanNumber);
        assert_eq!(bidi('-'), Bidi::EuropeanSeparator);
        assert_eq!(bidi('\u{05D0}'), Bidi::RightToLeft);
        assert_eq!(bidi('\u{0627}'), Bidi::ArabicLetter);
        assert_eq!(bidi('\u{0660}'), Bidi::ArabicNumber);
        assert_eq!(bidi('\u{06F0}'), Bidi::EuropeanNumber);
        assert_eq!(bidi('\u{0300}'), Bidi::NonspacingMark);
    }

    #[test]
    fn zero_width_non_joiner_between_joining_letters() {
        // BEH YEH ZWNJ BEH YEH: L/D before, R/D after.
        assert!(is_u_label(&chars(
            "\u{0628}\u{064A}\u{200C}\u{0628}\u{064A}"
        )));
        // After a virama.
        assert!(is_u_label(&chars("\u{0915}\u{094D}\u{200C}\u{0937}")));
        // Neither.
        assert!(!is_u_label(&chars("\u{0628}\u{200C}a")));
        assert!(!is_u_label(&chars("a\u{200C}\u{0628}")));
    }

    #[test]
    fn zero_width_joiner_only_after_a_virama() {
        assert!(is_u_label(&chars("\u{0915}\u{094D}\u{200D}\u{0937}")));
        assert!(!is_u_label(&chars("\u{0915}\u{200D}\u{0937}")));
    }

    #[test]
    fn contexto_rules() {
        // A.3 MIDDLE DOT between two 'l'.
        assert!(is_u_label(&chars("l\u{00B7}l")));
        assert!(!is_u_label(&chars("l\u{00B7}a")));
        // A.4 KERAIA before Greek.
        assert!(is_u_label(&chars("\u{03B1}\u{0375}\u{03B2}")));
        assert!(!is_u_label(&chars("\u{03B1}\u{0375}b")));
        // A.5, A.6 GERESH and GERSHAYIM after Hebrew.
        assert!(is_u_label(&chars("\u{05D0}\u{05F3}")));
        assert!(is_u_label(&chars("\u{05D0}\u{05F4}")));
        assert!(!is_u_label(&chars("a\u{05F3}")));
        // A.7 KATAKANA MIDDLE DOT with Hiragana, Katakana or Han anywhere.
        assert!(is_u_label(&chars("a\u{30FB}\u{4E08}")));
        assert!(!is_u_label(&chars("a\u{30FB}b")));
        // A.8, A.9 the two kinds of Arabic digits never mixed.
        assert!(is_u_label(&chars("\u{0628}\u{0661}\u{0662}")));
        assert!(is_u_label(&chars("\u{0628}\u{06F1}\u{06F2}")));
        assert!(!is_u_label(&chars("\u{0628}\u{0661}\u{06F2}")));
    }

    #[test]
    fn u_label_structure() {
        assert!(is_u_label(&chars("b\u{fc}cher")));
        assert!(!is_u_label(&chars("-b\u{fc}cher")));
        assert!(!is_u_label(&chars("b\u{fc}cher-")));
        assert!(!is_u_label(&chars("b\u{fc}--cher")), "hyphens 3rd and 4th");
        assert!(is_u_label(&chars("b\u{fc}c--her")), "hyphens elsewhere");
        assert!(!is_u_label(&chars("\u{0301}b\u{fc}cher")), "leading mark");
        assert!(!is_u_label(&chars("bu\u{0308}cher")), "not NFC");
        assert!(!is_u_label(&[]));
    }

    #[test]
    fn bidi_rule_conditions() {
        // 1: first R, AL or L.
        assert!(bidi_rule(&chars("\u{05D0}\u{05D1}")));
        assert!(!bidi_rule(&chars("0\u{05D0}")));
        // 2: an RTL label holds no L.
        assert!(!bidi_rule(&chars("\u{05D0}a\u{05D1}")));
        // 3: it ends with R, AL, EN or AN, then NSM.
        assert!(bidi_rule(&chars("\u{05D0}1")));
        assert!(bidi_rule(&chars("\u{0627}\u{064B}")));
        assert!(!bidi_rule(&chars("\u{05D0}-")));
        // 4: not both EN and AN.
        assert!(!bidi_rule(&chars("\u{05D0}1\u{0660}")));
        // 5: an LTR label holds no R.
        assert!(!bidi_rule(&chars("a\u{05D0}")));
        // 6: it ends with L or EN, then NSM.
        assert!(bidi_rule(&chars("a1")));
        assert!(!bidi_rule(&chars("a-")));
    }
}
