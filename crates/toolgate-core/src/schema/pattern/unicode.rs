//! `\p{…}` and `\P{…}`: the Unicode property names ECMA-262 accepts, spelled exactly
//! as it lists them (no loose matching: `\p{letter}` and `\p{Greek}` are errors), and
//! the code points of each, which `regex-syntax`'s Unicode tables supply. Also what
//! a group name may be made of (ID_Start and ID_Continue).
//!
//! The General_Category and Script values are Unicode's PropertyValueAliases.txt
//! (every alias), the binary properties ECMA-262's own table; the scripts are the
//! ones of the Unicode version `regex-syntax` carries (16.0), so that a name accepted
//! here always has its code points.

use regex_syntax::hir::{Class, HirKind};

/// A property escape's meaning, resolved from its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Property {
    /// `General_Category=…`, `gc=…` or a lone category value: its long name.
    General(&'static str),
    /// `Script=…`, `sc=…`: its long name.
    Script(&'static str),
    /// `Script_Extensions=…`, `scx=…`: its long name.
    ScriptExtensions(&'static str),
    /// A lone binary property: its long name.
    Binary(&'static str),
}

/// The property `\p{text}` names, or why ECMA-262 refuses it.
pub(super) fn property(text: &str) -> Result<Property, String> {
    let lookup = |table: &[(&'static str, &'static str)], name: &str| {
        table
            .binary_search_by_key(&name, |&(alias, _)| alias)
            .ok()
            .map(|k| table[k].1)
    };
    let unknown = || format!("unknown Unicode property \\p{{{text}}}");
    match text.split_once('=') {
        Some((name, value)) => {
            let make = match name {
                "General_Category" | "gc" => Property::General,
                "Script" | "sc" => Property::Script,
                "Script_Extensions" | "scx" => Property::ScriptExtensions,
                _ => return Err(unknown()),
            };
            let table = if name.starts_with('G') || name == "gc" {
                GENERAL_CATEGORY
            } else {
                SCRIPT
            };
            lookup(table, value).map(make).ok_or_else(unknown)
        }
        None => lookup(GENERAL_CATEGORY, text)
            .map(Property::General)
            .or_else(|| lookup(BINARY, text).map(Property::Binary))
            .ok_or_else(unknown),
    }
}

/// Appends the code points of `p` to `out` as ranges (sorted, disjoint). `Err` for
/// the few properties ECMA-262 names whose code points `regex-syntax` does not carry.
pub(super) fn add_ranges(p: Property, out: &mut Vec<(u32, u32)>) -> Result<(), String> {
    let query = match p {
        // No scalar value is a surrogate, and Script=Katakana_Or_Hiragana (a value
        // kept for compatibility) is no character's script or script extension.
        Property::General("Surrogate") => return Ok(()),
        Property::Script("Katakana_Or_Hiragana")
        | Property::ScriptExtensions("Katakana_Or_Hiragana") => return Ok(()),
        // Unknown: every code point no script lists.
        Property::Script("Unknown") | Property::ScriptExtensions("Unknown") => {
            let known: String = SCRIPT
                .iter()
                .filter(|(alias, long)| {
                    alias == long && !matches!(*long, "Unknown" | "Katakana_Or_Hiragana")
                })
                .map(|(_, long)| format!("\\p{{sc={long}}}"))
                .collect();
            format!("[^{known}]")
        }
        Property::General(long) => format!("\\p{{gc={long}}}"),
        Property::Script(long) => format!("\\p{{sc={long}}}"),
        Property::ScriptExtensions(long) => format!("\\p{{scx={long}}}"),
        Property::Binary(long) => format!("\\p{{{long}}}"),
    };
    let hir = regex_syntax::Parser::new()
        .parse(&query)
        .map_err(|_| format!("Unicode property {query} is not supported"))?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => {
            out.extend(
                class
                    .ranges()
                    .iter()
                    .map(|r| (u32::from(r.start()), u32::from(r.end()))),
            );
            Ok(())
        }
        // A property of one character (Line_Separator) comes back as that character.
        HirKind::Literal(lit) => {
            let text = std::str::from_utf8(&lit.0).map_err(|e| e.to_string())?;
            out.extend(text.chars().map(|c| (u32::from(c), u32::from(c))));
            Ok(())
        }
        _ => Err(format!("Unicode property {query} is not supported")),
    }
}

/// Whether `c` may start a group name (ID_Start, `$`, `_`).
pub(super) fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '$' || c == '_' || (!c.is_ascii() && has(c, "ID_Start"))
}

/// Whether `c` may continue a group name (ID_Continue, `$`, ZWNJ, ZWJ).
pub(super) fn is_name_part(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || c == '$'
        || c == '_'
        || c == '\u{200C}'
        || c == '\u{200D}'
        || (!c.is_ascii() && has(c, "ID_Continue"))
}

/// Whether the binary property `name` holds `c` (for the rare non-ASCII group name).
fn has(c: char, name: &'static str) -> bool {
    let mut ranges = Vec::new();
    add_ranges(Property::Binary(name), &mut ranges).is_ok()
        && ranges
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&u32::from(c)))
}

/// General_Category values and their aliases, each with its long name.
pub(super) const GENERAL_CATEGORY: &[(&str, &str)] = &[
    ("C", "Other"),
    ("Cased_Letter", "Cased_Letter"),
    ("Cc", "Control"),
    ("Cf", "Format"),
    ("Close_Punctuation", "Close_Punctuation"),
    ("Cn", "Unassigned"),
    ("Co", "Private_Use"),
    ("Combining_Mark", "Mark"),
    ("Connector_Punctuation", "Connector_Punctuation"),
    ("Control", "Control"),
    ("Cs", "Surrogate"),
    ("Currency_Symbol", "Currency_Symbol"),
    ("Dash_Punctuation", "Dash_Punctuation"),
    ("Decimal_Number", "Decimal_Number"),
    ("Enclosing_Mark", "Enclosing_Mark"),
    ("Final_Punctuation", "Final_Punctuation"),
    ("Format", "Format"),
    ("Initial_Punctuation", "Initial_Punctuation"),
    ("L", "Letter"),
    ("LC", "Cased_Letter"),
    ("Letter", "Letter"),
    ("Letter_Number", "Letter_Number"),
    ("Line_Separator", "Line_Separator"),
    ("Ll", "Lowercase_Letter"),
    ("Lm", "Modifier_Letter"),
    ("Lo", "Other_Letter"),
    ("Lowercase_Letter", "Lowercase_Letter"),
    ("Lt", "Titlecase_Letter"),
    ("Lu", "Uppercase_Letter"),
    ("M", "Mark"),
    ("Mark", "Mark"),
    ("Math_Symbol", "Math_Symbol"),
    ("Mc", "Spacing_Mark"),
    ("Me", "Enclosing_Mark"),
    ("Mn", "Nonspacing_Mark"),
    ("Modifier_Letter", "Modifier_Letter"),
    ("Modifier_Symbol", "Modifier_Symbol"),
    ("N", "Number"),
    ("Nd", "Decimal_Number"),
    ("Nl", "Letter_Number"),
    ("No", "Other_Number"),
    ("Nonspacing_Mark", "Nonspacing_Mark"),
    ("Number", "Number"),
    ("Open_Punctuation", "Open_Punctuation"),
    ("Other", "Other"),
    ("Other_Letter", "Other_Letter"),
    ("Other_Number", "Other_Number"),
    ("Other_Punctuation", "Other_Punctuation"),
    ("Other_Symbol", "Other_Symbol"),
    ("P", "Punctuation"),
    ("Paragraph_Separator", "Paragraph_Separator"),
    ("Pc", "Connector_Punctuation"),
    ("Pd", "Dash_Punctuation"),
    ("Pe", "Close_Punctuation"),
    ("Pf", "Final_Punctuation"),
    ("Pi", "Initial_Punctuation"),
    ("Po", "Other_Punctuation"),
    ("Private_Use", "Private_Use"),
    ("Ps", "Open_Punctuation"),
    ("Punctuation", "Punctuation"),
    ("S", "Symbol"),
    ("Sc", "Currency_Symbol"),
    ("Separator", "Separator"),
    ("Sk", "Modifier_Symbol"),
    ("Sm", "Math_Symbol"),
    ("So", "Other_Symbol"),
    ("Space_Separator", "Space_Separator"),
    ("Spacing_Mark", "Spacing_Mark"),
    ("Surrogate", "Surrogate"),
    ("Symbol", "Symbol"),
    ("Titlecase_Letter", "Titlecase_Letter"),
    ("Unassigned", "Unassigned"),
    ("Uppercase_Letter", "Uppercase_Letter"),
    ("Z", "Separator"),
    ("Zl", "Line_Separator"),
    ("Zp", "Paragraph_Separator"),
    ("Zs", "Space_Separator"),
    ("cntrl", "Control"),
    ("digit", "Decimal_Number"),
    ("punct", "Punctuation"),
];
/// Binary properties and their aliases, each with its long name.
pub(super) const BINARY: &[(&str, &str)] = &[
    ("AHex", "ASCII_Hex_Digit"),
    ("ASCII", "ASCII"),
    ("ASCII_Hex_Digit", "ASCII_Hex_Digit"),
    ("Alpha", "Alphabetic"),
    ("Alphabetic", "Alphabetic"),
    ("Any", "Any"),
    ("Assigned", "Assigned"),
    ("Bidi_C", "Bidi_Control"),
    ("Bidi_Control", "Bidi_Control"),
    ("Bidi_M", "Bidi_Mirrored"),
    ("Bidi_Mirrored", "Bidi_Mirrored"),
    ("CI", "Case_Ignorable"),
    ("CWCF", "Changes_When_Casefolded"),
    ("CWCM", "Changes_When_Casemapped"),
    ("CWKCF", "Changes_When_NFKC_Casefolded"),
    ("CWL", "Changes_When_Lowercased"),
    ("CWT", "Changes_When_Titlecased"),
    ("CWU", "Changes_When_Uppercased"),
    ("Case_Ignorable", "Case_Ignorable"),
    ("Cased", "Cased"),
    ("Changes_When_Casefolded", "Changes_When_Casefolded"),
    ("Changes_When_Casemapped", "Changes_When_Casemapped"),
    ("Changes_When_Lowercased", "Changes_When_Lowercased"),
    (
        "Changes_When_NFKC_Casefolded",
        "Changes_When_NFKC_Casefolded",
    ),
    ("Changes_When_Titlecased", "Changes_When_Titlecased"),
    ("Changes_When_Uppercased", "Changes_When_Uppercased"),
    ("DI", "Default_Ignorable_Code_Point"),
    ("Dash", "Dash"),
    (
        "Default_Ignorable_Code_Point",
        "Default_Ignorable_Code_Point",
    ),
    ("Dep", "Deprecated"),
    ("Deprecated", "Deprecated"),
    ("Dia", "Diacritic"),
    ("Diacritic", "Diacritic"),
    ("Emoji", "Emoji"),
    ("Emoji_Component", "Emoji_Component"),
    ("Emoji_Modifier", "Emoji_Modifier"),
    ("Emoji_Modifier_Base", "Emoji_Modifier_Base"),
    ("Emoji_Presentation", "Emoji_Presentation"),
    ("Ext", "Extender"),
    ("Extended_Pictographic", "Extended_Pictographic"),
    ("Extender", "Extender"),
    ("Gr_Base", "Grapheme_Base"),
    ("Gr_Ext", "Grapheme_Extend"),
    ("Grapheme_Base", "Grapheme_Base"),
    ("Grapheme_Extend", "Grapheme_Extend"),
    ("Hex", "Hex_Digit"),
    ("Hex_Digit", "Hex_Digit"),
    ("IDC", "ID_Continue"),
    ("IDS", "ID_Start"),
    ("IDSB", "IDS_Binary_Operator"),
    ("IDST", "IDS_Trinary_Operator"),
    ("IDS_Binary_Operator", "IDS_Binary_Operator"),
    ("IDS_Trinary_Operator", "IDS_Trinary_Operator"),
    ("ID_Continue", "ID_Continue"),
    ("ID_Start", "ID_Start"),
    ("Ideo", "Ideographic"),
    ("Ideographic", "Ideographic"),
    ("Join_C", "Join_Control"),
    ("Join_Control", "Join_Control"),
    ("LOE", "Logical_Order_Exception"),
    ("Logical_Order_Exception", "Logical_Order_Exception"),
    ("Lower", "Lowercase"),
    ("Lowercase", "Lowercase"),
    ("Math", "Math"),
    ("NChar", "Noncharacter_Code_Point"),
    ("Noncharacter_Code_Point", "Noncharacter_Code_Point"),
    ("Pat_Syn", "Pattern_Syntax"),
    ("Pat_WS", "Pattern_White_Space"),
    ("Pattern_Syntax", "Pattern_Syntax"),
    ("Pattern_White_Space", "Pattern_White_Space"),
    ("QMark", "Quotation_Mark"),
    ("Quotation_Mark", "Quotation_Mark"),
    ("RI", "Regional_Indicator"),
    ("Radical", "Radical"),
    ("Regional_Indicator", "Regional_Indicator"),
    ("SD", "Soft_Dotted"),
    ("STerm", "Sentence_Terminal"),
    ("Sentence_Terminal", "Sentence_Terminal"),
    ("Soft_Dotted", "Soft_Dotted"),
    ("Term", "Terminal_Punctuation"),
    ("Terminal_Punctuation", "Terminal_Punctuation"),
    ("UIdeo", "Unified_Ideograph"),
    ("Unified_Ideograph", "Unified_Ideograph"),
    ("Upper", "Uppercase"),
    ("Uppercase", "Uppercase"),
    ("VS", "Variation_Selector"),
    ("Variation_Selector", "Variation_Selector"),
    ("White_Space", "White_Space"),
    ("XIDC", "XID_Continue"),
    ("XIDS", "XID_Start"),
    ("XID_Continue", "XID_Continue"),
    ("XID_Start", "XID_Start"),
    ("space", "White_Space"),
];
/// Script values and their aliases, each with its long name.
pub(super) const SCRIPT: &[(&str, &str)] = &[
    ("Adlam", "Adlam"),
    ("Adlm", "Adlam"),
    ("Aghb", "Caucasian_Albanian"),
    ("Ahom", "Ahom"),
    ("Anatolian_Hieroglyphs", "Anatolian_Hieroglyphs"),
    ("Arab", "Arabic"),
    ("Arabic", "Arabic"),
    ("Armenian", "Armenian"),
    ("Armi", "Imperial_Aramaic"),
    ("Armn", "Armenian"),
    ("Avestan", "Avestan"),
    ("Avst", "Avestan"),
    ("Bali", "Balinese"),
    ("Balinese", "Balinese"),
    ("Bamu", "Bamum"),
    ("Bamum", "Bamum"),
    ("Bass", "Bassa_Vah"),
    ("Bassa_Vah", "Bassa_Vah"),
    ("Batak", "Batak"),
    ("Batk", "Batak"),
    ("Beng", "Bengali"),
    ("Bengali", "Bengali"),
    ("Bhaiksuki", "Bhaiksuki"),
    ("Bhks", "Bhaiksuki"),
    ("Bopo", "Bopomofo"),
    ("Bopomofo", "Bopomofo"),
    ("Brah", "Brahmi"),
    ("Brahmi", "Brahmi"),
    ("Brai", "Braille"),
    ("Braille", "Braille"),
    ("Bugi", "Buginese"),
    ("Buginese", "Buginese"),
    ("Buhd", "Buhid"),
    ("Buhid", "Buhid"),
    ("Cakm", "Chakma"),
    ("Canadian_Aboriginal", "Canadian_Aboriginal"),
    ("Cans", "Canadian_Aboriginal"),
    ("Cari", "Carian"),
    ("Carian", "Carian"),
    ("Caucasian_Albanian", "Caucasian_Albanian"),
    ("Chakma", "Chakma"),
    ("Cham", "Cham"),
    ("Cher", "Cherokee"),
    ("Cherokee", "Cherokee"),
    ("Chorasmian", "Chorasmian"),
    ("Chrs", "Chorasmian"),
    ("Common", "Common"),
    ("Copt", "Coptic"),
    ("Coptic", "Coptic"),
    ("Cpmn", "Cypro_Minoan"),
    ("Cprt", "Cypriot"),
    ("Cuneiform", "Cuneiform"),
    ("Cypriot", "Cypriot"),
    ("Cypro_Minoan", "Cypro_Minoan"),
    ("Cyrillic", "Cyrillic"),
    ("Cyrl", "Cyrillic"),
    ("Deseret", "Deseret"),
    ("Deva", "Devanagari"),
    ("Devanagari", "Devanagari"),
    ("Diak", "Dives_Akuru"),
    ("Dives_Akuru", "Dives_Akuru"),
    ("Dogr", "Dogra"),
    ("Dogra", "Dogra"),
    ("Dsrt", "Deseret"),
    ("Dupl", "Duployan"),
    ("Duployan", "Duployan"),
    ("Egyp", "Egyptian_Hieroglyphs"),
    ("Egyptian_Hieroglyphs", "Egyptian_Hieroglyphs"),
    ("Elba", "Elbasan"),
    ("Elbasan", "Elbasan"),
    ("Elym", "Elymaic"),
    ("Elymaic", "Elymaic"),
    ("Ethi", "Ethiopic"),
    ("Ethiopic", "Ethiopic"),
    ("Gara", "Garay"),
    ("Garay", "Garay"),
    ("Geor", "Georgian"),
    ("Georgian", "Georgian"),
    ("Glag", "Glagolitic"),
    ("Glagolitic", "Glagolitic"),
    ("Gong", "Gunjala_Gondi"),
    ("Gonm", "Masaram_Gondi"),
    ("Goth", "Gothic"),
    ("Gothic", "Gothic"),
    ("Gran", "Grantha"),
    ("Grantha", "Grantha"),
    ("Greek", "Greek"),
    ("Grek", "Greek"),
    ("Gujarati", "Gujarati"),
    ("Gujr", "Gujarati"),
    ("Gukh", "Gurung_Khema"),
    ("Gunjala_Gondi", "Gunjala_Gondi"),
    ("Gurmukhi", "Gurmukhi"),
    ("Guru", "Gurmukhi"),
    ("Gurung_Khema", "Gurung_Khema"),
    ("Han", "Han"),
    ("Hang", "Hangul"),
    ("Hangul", "Hangul"),
    ("Hani", "Han"),
    ("Hanifi_Rohingya", "Hanifi_Rohingya"),
    ("Hano", "Hanunoo"),
    ("Hanunoo", "Hanunoo"),
    ("Hatr", "Hatran"),
    ("Hatran", "Hatran"),
    ("Hebr", "Hebrew"),
    ("Hebrew", "Hebrew"),
    ("Hira", "Hiragana"),
    ("Hiragana", "Hiragana"),
    ("Hluw", "Anatolian_Hieroglyphs"),
    ("Hmng", "Pahawh_Hmong"),
    ("Hmnp", "Nyiakeng_Puachue_Hmong"),
    ("Hrkt", "Katakana_Or_Hiragana"),
    ("Hung", "Old_Hungarian"),
    ("Imperial_Aramaic", "Imperial_Aramaic"),
    ("Inherited", "Inherited"),
    ("Inscriptional_Pahlavi", "Inscriptional_Pahlavi"),
    ("Inscriptional_Parthian", "Inscriptional_Parthian"),
    ("Ital", "Old_Italic"),
    ("Java", "Javanese"),
    ("Javanese", "Javanese"),
    ("Kaithi", "Kaithi"),
    ("Kali", "Kayah_Li"),
    ("Kana", "Katakana"),
    ("Kannada", "Kannada"),
    ("Katakana", "Katakana"),
    ("Katakana_Or_Hiragana", "Katakana_Or_Hiragana"),
    ("Kawi", "Kawi"),
    ("Kayah_Li", "Kayah_Li"),
    ("Khar", "Kharoshthi"),
    ("Kharoshthi", "Kharoshthi"),
    ("Khitan_Small_Script", "Khitan_Small_Script"),
    ("Khmer", "Khmer"),
    ("Khmr", "Khmer"),
    ("Khoj", "Khojki"),
    ("Khojki", "Khojki"),
    ("Khudawadi", "Khudawadi"),
    ("Kirat_Rai", "Kirat_Rai"),
    ("Kits", "Khitan_Small_Script"),
    ("Knda", "Kannada"),
    ("Krai", "Kirat_Rai"),
    ("Kthi", "Kaithi"),
    ("Lana", "Tai_Tham"),
    ("Lao", "Lao"),
    ("Laoo", "Lao"),
    ("Latin", "Latin"),
    ("Latn", "Latin"),
    ("Lepc", "Lepcha"),
    ("Lepcha", "Lepcha"),
    ("Limb", "Limbu"),
    ("Limbu", "Limbu"),
    ("Lina", "Linear_A"),
    ("Linb", "Linear_B"),
    ("Linear_A", "Linear_A"),
    ("Linear_B", "Linear_B"),
    ("Lisu", "Lisu"),
    ("Lyci", "Lycian"),
    ("Lycian", "Lycian"),
    ("Lydi", "Lydian"),
    ("Lydian", "Lydian"),
    ("Mahajani", "Mahajani"),
    ("Mahj", "Mahajani"),
    ("Maka", "Makasar"),
    ("Makasar", "Makasar"),
    ("Malayalam", "Malayalam"),
    ("Mand", "Mandaic"),
    ("Mandaic", "Mandaic"),
    ("Mani", "Manichaean"),
    ("Manichaean", "Manichaean"),
    ("Marc", "Marchen"),
    ("Marchen", "Marchen"),
    ("Masaram_Gondi", "Masaram_Gondi"),
    ("Medefaidrin", "Medefaidrin"),
    ("Medf", "Medefaidrin"),
    ("Meetei_Mayek", "Meetei_Mayek"),
    ("Mend", "Mende_Kikakui"),
    ("Mende_Kikakui", "Mende_Kikakui"),
    ("Merc", "Meroitic_Cursive"),
    ("Mero", "Meroitic_Hieroglyphs"),
    ("Meroitic_Cursive", "Meroitic_Cursive"),
    ("Meroitic_Hieroglyphs", "Meroitic_Hieroglyphs"),
    ("Miao", "Miao"),
    ("Mlym", "Malayalam"),
    ("Modi", "Modi"),
    ("Mong", "Mongolian"),
    ("Mongolian", "Mongolian"),
    ("Mro", "Mro"),
    ("Mroo", "Mro"),
    ("Mtei", "Meetei_Mayek"),
    ("Mult", "Multani"),
    ("Multani", "Multani"),
    ("Myanmar", "Myanmar"),
    ("Mymr", "Myanmar"),
    ("Nabataean", "Nabataean"),
    ("Nag_Mundari", "Nag_Mundari"),
    ("Nagm", "Nag_Mundari"),
    ("Nand", "Nandinagari"),
    ("Nandinagari", "Nandinagari"),
    ("Narb", "Old_North_Arabian"),
    ("Nbat", "Nabataean"),
    ("New_Tai_Lue", "New_Tai_Lue"),
    ("Newa", "Newa"),
    ("Nko", "Nko"),
    ("Nkoo", "Nko"),
    ("Nshu", "Nushu"),
    ("Nushu", "Nushu"),
    ("Nyiakeng_Puachue_Hmong", "Nyiakeng_Puachue_Hmong"),
    ("Ogam", "Ogham"),
    ("Ogham", "Ogham"),
    ("Ol_Chiki", "Ol_Chiki"),
    ("Ol_Onal", "Ol_Onal"),
    ("Olck", "Ol_Chiki"),
    ("Old_Hungarian", "Old_Hungarian"),
    ("Old_Italic", "Old_Italic"),
    ("Old_North_Arabian", "Old_North_Arabian"),
    ("Old_Permic", "Old_Permic"),
    ("Old_Persian", "Old_Persian"),
    ("Old_Sogdian", "Old_Sogdian"),
    ("Old_South_Arabian", "Old_South_Arabian"),
    ("Old_Turkic", "Old_Turkic"),
    ("Old_Uyghur", "Old_Uyghur"),
    ("Onao", "Ol_Onal"),
    ("Oriya", "Oriya"),
    ("Orkh", "Old_Turkic"),
    ("Orya", "Oriya"),
    ("Osage", "Osage"),
    ("Osge", "Osage"),
    ("Osma", "Osmanya"),
    ("Osmanya", "Osmanya"),
    ("Ougr", "Old_Uyghur"),
    ("Pahawh_Hmong", "Pahawh_Hmong"),
    ("Palm", "Palmyrene"),
    ("Palmyrene", "Palmyrene"),
    ("Pau_Cin_Hau", "Pau_Cin_Hau"),
    ("Pauc", "Pau_Cin_Hau"),
    ("Perm", "Old_Permic"),
    ("Phag", "Phags_Pa"),
    ("Phags_Pa", "Phags_Pa"),
    ("Phli", "Inscriptional_Pahlavi"),
    ("Phlp", "Psalter_Pahlavi"),
    ("Phnx", "Phoenician"),
    ("Phoenician", "Phoenician"),
    ("Plrd", "Miao"),
    ("Prti", "Inscriptional_Parthian"),
    ("Psalter_Pahlavi", "Psalter_Pahlavi"),
    ("Qaac", "Coptic"),
    ("Qaai", "Inherited"),
    ("Rejang", "Rejang"),
    ("Rjng", "Rejang"),
    ("Rohg", "Hanifi_Rohingya"),
    ("Runic", "Runic"),
    ("Runr", "Runic"),
    ("Samaritan", "Samaritan"),
    ("Samr", "Samaritan"),
    ("Sarb", "Old_South_Arabian"),
    ("Saur", "Saurashtra"),
    ("Saurashtra", "Saurashtra"),
    ("Sgnw", "SignWriting"),
    ("Sharada", "Sharada"),
    ("Shavian", "Shavian"),
    ("Shaw", "Shavian"),
    ("Shrd", "Sharada"),
    ("Sidd", "Siddham"),
    ("Siddham", "Siddham"),
    ("SignWriting", "SignWriting"),
    ("Sind", "Khudawadi"),
    ("Sinh", "Sinhala"),
    ("Sinhala", "Sinhala"),
    ("Sogd", "Sogdian"),
    ("Sogdian", "Sogdian"),
    ("Sogo", "Old_Sogdian"),
    ("Sora", "Sora_Sompeng"),
    ("Sora_Sompeng", "Sora_Sompeng"),
    ("Soyo", "Soyombo"),
    ("Soyombo", "Soyombo"),
    ("Sund", "Sundanese"),
    ("Sundanese", "Sundanese"),
    ("Sunu", "Sunuwar"),
    ("Sunuwar", "Sunuwar"),
    ("Sylo", "Syloti_Nagri"),
    ("Syloti_Nagri", "Syloti_Nagri"),
    ("Syrc", "Syriac"),
    ("Syriac", "Syriac"),
    ("Tagalog", "Tagalog"),
    ("Tagb", "Tagbanwa"),
    ("Tagbanwa", "Tagbanwa"),
    ("Tai_Le", "Tai_Le"),
    ("Tai_Tham", "Tai_Tham"),
    ("Tai_Viet", "Tai_Viet"),
    ("Takr", "Takri"),
    ("Takri", "Takri"),
    ("Tale", "Tai_Le"),
    ("Talu", "New_Tai_Lue"),
    ("Tamil", "Tamil"),
    ("Taml", "Tamil"),
    ("Tang", "Tangut"),
    ("Tangsa", "Tangsa"),
    ("Tangut", "Tangut"),
    ("Tavt", "Tai_Viet"),
    ("Telu", "Telugu"),
    ("Telugu", "Telugu"),
    ("Tfng", "Tifinagh"),
    ("Tglg", "Tagalog"),
    ("Thaa", "Thaana"),
    ("Thaana", "Thaana"),
    ("Thai", "Thai"),
    ("Tibetan", "Tibetan"),
    ("Tibt", "Tibetan"),
    ("Tifinagh", "Tifinagh"),
    ("Tirh", "Tirhuta"),
    ("Tirhuta", "Tirhuta"),
    ("Tnsa", "Tangsa"),
    ("Todhri", "Todhri"),
    ("Todr", "Todhri"),
    ("Toto", "Toto"),
    ("Tulu_Tigalari", "Tulu_Tigalari"),
    ("Tutg", "Tulu_Tigalari"),
    ("Ugar", "Ugaritic"),
    ("Ugaritic", "Ugaritic"),
    ("Unknown", "Unknown"),
    ("Vai", "Vai"),
    ("Vaii", "Vai"),
    ("Vith", "Vithkuqi"),
    ("Vithkuqi", "Vithkuqi"),
    ("Wancho", "Wancho"),
    ("Wara", "Warang_Citi"),
    ("Warang_Citi", "Warang_Citi"),
    ("Wcho", "Wancho"),
    ("Xpeo", "Old_Persian"),
    ("Xsux", "Cuneiform"),
    ("Yezi", "Yezidi"),
    ("Yezidi", "Yezidi"),
    ("Yi", "Yi"),
    ("Yiii", "Yi"),
    ("Zanabazar_Square", "Zanabazar_Square"),
    ("Zanb", "Zanabazar_Square"),
    ("Zinh", "Inherited"),
    ("Zyyy", "Common"),
    ("Zzzz", "Unknown"),
];

#[cfg(test)]
mod tests {
    use super::{add_ranges, property, Property, BINARY, GENERAL_CATEGORY, SCRIPT};

    /// Every name in the tables is found by the lookup (they are sorted as it needs)
    /// and has its code points, but the one binary property `regex-syntax` lacks.
    #[test]
    fn every_listed_name_resolves() {
        for (table, make) in [
            (GENERAL_CATEGORY, "gc="),
            (SCRIPT, "sc="),
            (SCRIPT, "Script_Extensions="),
            (BINARY, ""),
        ] {
            assert!(table.windows(2).all(|w| w[0].0 < w[1].0), "{make}: sorted");
            for (alias, _) in table {
                let p = property(&format!("{make}{alias}")).expect(alias);
                let mut out = Vec::new();
                match add_ranges(p, &mut out) {
                    Ok(()) => {}
                    Err(e) => assert_eq!(
                        p,
                        Property::Binary("Changes_When_NFKC_Casefolded"),
                        "{alias}: {e}"
                    ),
                }
                assert!(out.windows(2).all(|w| w[0].1 < w[1].0), "{alias}: sorted");
            }
        }
    }

    #[test]
    fn names_are_exact() {
        assert_eq!(property("L"), Ok(Property::General("Letter")));
        assert_eq!(property("digit"), Ok(Property::General("Decimal_Number")));
        assert_eq!(property("gc=Lu"), Ok(Property::General("Uppercase_Letter")));
        assert_eq!(property("sc=Grek"), Ok(Property::Script("Greek")));
        assert_eq!(
            property("scx=Qaai"),
            Ok(Property::ScriptExtensions("Inherited"))
        );
        assert_eq!(property("space"), Ok(Property::Binary("White_Space")));
        for bad in [
            "letter",
            "Greek",
            "sc=greek",
            "gc=Alpha",
            "Script=L",
            "Alphabetic=Yes",
            "WSpace",
            "EComp",
            "General_Category",
            "",
            "=L",
            "sc=",
        ] {
            assert!(property(bad).is_err(), "{bad}");
        }
        let mut nd = Vec::new();
        add_ranges(property("Nd").unwrap(), &mut nd).unwrap();
        assert!(
            nd.iter().any(|&(lo, hi)| lo <= 0x9EA && 0x9EA <= hi),
            "Bengali four"
        );
        let mut unknown = Vec::new();
        add_ranges(property("sc=Zzzz").unwrap(), &mut unknown).unwrap();
        let holds = |c: u32| unknown.iter().any(|&(lo, hi)| lo <= c && c <= hi);
        assert!(holds(0xE000) && !holds(u32::from('a')) && !holds(0x0300));
    }
}
