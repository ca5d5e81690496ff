#!/usr/bin/env python3
"""Generates crates/toolgate-core/src/schema/format/idna_tables.rs: the Unicode data that the IDNA2008
checks of the `idn-hostname` and `idn-email` formats read.

    python3 scripts/gen-idna-tables.py [UCD_DIR] > crates/toolgate-core/src/schema/format/idna_tables.rs

UCD_DIR is a Unicode Character Database directory (default /usr/share/unicode, which
Debian's `unicode-data` package installs; bookworm's is Unicode 15.0.0). Every table
comes from that one directory, so the derived property, the bidi classes, the joining
types and the scripts all describe one Unicode version, named in the output.

What is computed, and from where:

* the IDNA2008 derived property of every code point, by the algorithm of RFC 5892
  section 3 over the categories of its section 2 (A LetterDigits .. K LDH, with the
  Exceptions of 2.6; BackwardCompatible, 2.7, is empty). Only the code points whose
  property lets them into a label are kept (PVALID, CONTEXTJ, CONTEXTO); the rest are
  DISALLOWED or UNASSIGNED, which both refuse the label. PVALID code points of General
  Category M (Mn, Mc, Me) are marked apart, for the leading-mark rule (RFC 5891
  4.2.3.2).
  Unstable (2.2) is RFC 5892's `toNFKC(toCaseFold(toNFKC(cp))) != cp`. That is the
  UCD's Changes_When_NFKC_Casefolded (DerivedNormalizationProps.txt) for every code point that is not
  Default_Ignorable: NFKC output is NFKC-normal, so a code point that NFKC changes
  differs from both results, and for one that NFKC keeps both compute
  NFKC(CaseFold(cp)) (case folding never yields a default-ignorable). The
  default-ignorable ones are DISALLOWED by IgnorableProperties (2.3) either way, and
  the rules that come before Unstable (Exceptions, Unassigned, LDH, JoinControl) are
  applied first, as section 3 orders them.
* Bidi_Class (extracted/DerivedBidiClass.txt) for RFC 5893 section 2;
* Joining_Type (extracted/DerivedJoiningType.txt) and Canonical_Combining_Class
  Virama (9, extracted/DerivedCombiningClass.txt) for the CONTEXTJ rules of RFC 5892
  appendix A.1 and A.2;
* Script (Scripts.txt) Greek, Hebrew, Hiragana, Katakana and Han for the CONTEXTO
  rules of appendix A.4 to A.7.
"""

import os
import re
import sys

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
MAX = 0x110000


def path(*parts):
    return os.path.join(UCD, *parts)


def version():
    with open(path("DerivedCoreProperties.txt"), encoding="utf-8") as f:
        m = re.match(r"# DerivedCoreProperties-(\d+\.\d+\.\d+)\.txt", f.readline())
    if not m:
        sys.exit("cannot read the Unicode version of " + path("DerivedCoreProperties.txt"))
    return m.group(1)


def records(name):
    """(first, last, fields) for each data line of a UCD property file."""
    with open(path(name), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = [x.strip() for x in line.split(";")]
            cps = fields[0].split("..")
            first = int(cps[0], 16)
            last = int(cps[-1], 16)
            yield first, last, fields[1:]


def missing(name):
    """The @missing default lines of a UCD property file, in file order."""
    with open(path(name), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"# @missing: ([0-9A-F]+)\.\.([0-9A-F]+); (\S+)", line)
            if m:
                yield int(m.group(1), 16), int(m.group(2), 16), m.group(3)


def general_categories():
    gc = ["Cn"] * MAX
    first = None
    with open(path("UnicodeData.txt"), encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            cp = int(fields[0], 16)
            name, cat = fields[1], fields[2]
            if name.endswith(", First>"):
                first = cp
                continue
            if name.endswith(", Last>"):
                for c in range(first, cp + 1):
                    gc[c] = cat
                continue
            gc[cp] = cat
    return gc


def binary_property(name, prop):
    s = bytearray(MAX)
    for first, last, fields in records(name):
        if fields[0] == prop:
            for c in range(first, last + 1):
                s[c] = 1
    if not any(s):
        sys.exit(f"no code point has {prop} in {path(name)}")
    return s


def derived_properties():
    gc = general_categories()
    nonchar = binary_property("PropList.txt", "Noncharacter_Code_Point")
    white = binary_property("PropList.txt", "White_Space")
    ignorable = binary_property("DerivedCoreProperties.txt", "Default_Ignorable_Code_Point")
    unstable = binary_property("DerivedNormalizationProps.txt", "Changes_When_NFKC_Casefolded")
    join_control = binary_property("PropList.txt", "Join_Control")
    blocks = {}
    for first, last, fields in records("Blocks.txt"):
        blocks[fields[0]] = (first, last)
    ignorable_blocks = [
        blocks["Combining Diacritical Marks for Symbols"],
        blocks["Musical Symbols"],
        blocks["Ancient Greek Musical Notation"],
    ]
    old_jamo = bytearray(MAX)
    for first, last, fields in records("HangulSyllableType.txt"):
        if fields[0] in ("L", "V", "T"):
            for c in range(first, last + 1):
                old_jamo[c] = 1

    # RFC 5892 2.6.
    exceptions = {}
    for c in (0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007):
        exceptions[c] = "PVALID"
    for c in [0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB] + list(range(0x0660, 0x066A)) + list(
        range(0x06F0, 0x06FA)
    ):
        exceptions[c] = "CONTEXTO"
    for c in [0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B]:
        exceptions[c] = "DISALLOWED"
    ldh = {0x2D} | set(range(0x30, 0x3A)) | set(range(0x61, 0x7B))

    prop = [None] * MAX
    for c in range(MAX):
        if c in exceptions:
            p = exceptions[c]
        elif gc[c] == "Cn" and not nonchar[c]:
            p = "UNASSIGNED"
        elif c in ldh:
            p = "PVALID"
        elif join_control[c]:
            p = "CONTEXTJ"
        elif unstable[c]:
            p = "DISALLOWED"
        elif ignorable[c] or white[c] or nonchar[c]:
            p = "DISALLOWED"
        elif any(a <= c <= b for a, b in ignorable_blocks):
            p = "DISALLOWED"
        elif old_jamo[c]:
            p = "DISALLOWED"
        elif gc[c] in ("Ll", "Lu", "Lo", "Nd", "Lm", "Mn", "Mc"):
            p = "PVALID"
        else:
            p = "DISALLOWED"
        if p == "PVALID" and gc[c] in ("Mn", "Mc", "Me"):
            p = "PVALID_MARK"
        prop[c] = p
    return prop


def ranges(values, keep):
    """Maximal runs (first, last, value) of equal values for which keep(value)."""
    out = []
    start = None
    for c in range(MAX + 1):
        v = values[c] if c < MAX else None
        if start is not None and v != values[start]:
            out.append((start, c - 1, values[start]))
            start = None
        if start is None and v is not None and keep(v):
            start = c
    return out


def bidi_classes():
    bc = ["L"] * MAX
    short = {}
    with open(path("PropertyValueAliases.txt"), encoding="utf-8") as f:
        for line in f:
            fields = [x.strip() for x in line.split("#", 1)[0].split(";")]
            if len(fields) >= 3 and fields[0] == "bc":
                short[fields[2]] = fields[1]
    for first, last, long in missing(os.path.join("extracted", "DerivedBidiClass.txt")):
        for c in range(first, last + 1):
            bc[c] = short[long]
    for first, last, fields in records(os.path.join("extracted", "DerivedBidiClass.txt")):
        for c in range(first, last + 1):
            bc[c] = fields[0]
    return bc


def joining_types():
    jt = ["U"] * MAX
    for first, last, fields in records(os.path.join("extracted", "DerivedJoiningType.txt")):
        for c in range(first, last + 1):
            jt[c] = fields[0]
    return jt


def viramas():
    out = []
    for first, last, fields in records(os.path.join("extracted", "DerivedCombiningClass.txt")):
        if fields[0] == "9":
            out.extend(range(first, last + 1))
    return sorted(out)


def scripts():
    sc = [None] * MAX
    wanted = {"Greek", "Hebrew", "Hiragana", "Katakana", "Han"}
    for first, last, fields in records("Scripts.txt"):
        if fields[0] in wanted:
            for c in range(first, last + 1):
                sc[c] = fields[0]
    return sc


def emit_ranges(name, doc, rows, kind_type, kind_names):
    print(doc)
    print(f"pub(super) static {name}: [(u32, u32, {kind_type}); {len(rows)}] = [")
    line = "   "
    for first, last, v in rows:
        item = f" (0x{first:X}, 0x{last:X}, {kind_names[v]}),"
        if len(line) + len(item) > 92:
            print(line)
            line = "   "
        line += item
    print(line)
    print("];")
    print()


def main():
    ver = version()
    prop = derived_properties()
    bc = bidi_classes()
    jt = joining_types()
    sc = scripts()
    vir = viramas()

    # Only the values of code points that a label may hold are ever looked up: the
    # other tables give those, and treat every other code point as "don't care", so
    # runs may be merged across them.
    allowed = [p in ("PVALID", "PVALID_MARK", "CONTEXTJ", "CONTEXTO") for p in prop]

    def merged(values, default):
        out = list(values)
        last = default
        for c in range(MAX):
            if allowed[c]:
                last = out[c]
            else:
                out[c] = last
        return out

    print(f"// @generated by scripts/gen-idna-tables.py from the Unicode Character Database {ver}.")
    print("// Do not edit: regenerate (see the script's notes for what each table holds).")
    print()
    print("use super::idna::{Bidi, Derived, Joining, Script};")
    print()
    print('/// The Unicode version every table below describes.')
    print(f'pub(super) const UNICODE_VERSION: &str = "{ver}";')
    print()
    emit_ranges(
        "DERIVED",
        "/// RFC 5892 derived property of the code points a label may hold (PVALID,\n"
        "/// CONTEXTJ, CONTEXTO; PVALID marks of General Category M apart). Every code\n"
        "/// point not in a range is DISALLOWED or UNASSIGNED.",
        ranges(prop, lambda v: v in ("PVALID", "PVALID_MARK", "CONTEXTJ", "CONTEXTO")),
        "Derived",
        {
            "PVALID": "Derived::Pvalid",
            "PVALID_MARK": "Derived::PvalidMark",
            "CONTEXTJ": "Derived::ContextJ",
            "CONTEXTO": "Derived::ContextO",
        },
    )
    bidi_names = {
        "R": "Bidi::RightToLeft",
        "AL": "Bidi::ArabicLetter",
        "AN": "Bidi::ArabicNumber",
        "EN": "Bidi::EuropeanNumber",
        "ES": "Bidi::EuropeanSeparator",
        "CS": "Bidi::CommonSeparator",
        "ET": "Bidi::EuropeanTerminator",
        "ON": "Bidi::OtherNeutral",
        "BN": "Bidi::BoundaryNeutral",
        "NSM": "Bidi::NonspacingMark",
    }
    bidi = merged([b if b in bidi_names or b == "L" else "OTHER" for b in bc], "L")
    bidi_names["OTHER"] = "Bidi::OtherClass"
    emit_ranges(
        "BIDI",
        "/// Bidi_Class of the code points a label may hold, where it is not L (the\n"
        "/// classes RFC 5893 names; any other class is `OtherClass`). Runs are merged across\n"
        "/// code points that no label can hold.",
        ranges(bidi, lambda v: v != "L"),
        "Bidi",
        bidi_names,
    )
    join_names = {
        "L": "Joining::Left",
        "D": "Joining::Dual",
        "R": "Joining::Right",
        "T": "Joining::Transparent",
    }
    join = merged([j if j in join_names else "U" for j in jt], "U")
    emit_ranges(
        "JOINING",
        "/// Joining_Type L, D, R or T (RFC 5892 A.1) of the code points a label may hold;\n"
        "/// any other is U or C, which the rule treats alike.",
        ranges(join, lambda v: v != "U"),
        "Joining",
        join_names,
    )
    script_names = {
        "Greek": "Script::Greek",
        "Hebrew": "Script::Hebrew",
        "Hiragana": "Script::Hiragana",
        "Katakana": "Script::Katakana",
        "Han": "Script::Han",
    }
    emit_ranges(
        "SCRIPTS",
        "/// Script Greek, Hebrew, Hiragana, Katakana or Han (RFC 5892 A.4 to A.7).",
        ranges(sc, lambda v: v is not None),
        "Script",
        script_names,
    )
    print("/// Canonical_Combining_Class Virama (9), for RFC 5892 A.1 and A.2.")
    print(f"pub(super) static VIRAMA: [u32; {len(vir)}] = [")
    line = "   "
    for c in vir:
        item = f" 0x{c:X},"
        if len(line) + len(item) > 92:
            print(line)
            line = "   "
        line += item
    print(line)
    print("];")


main()
