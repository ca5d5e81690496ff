//! A schema of the core profile and an instance built together from the fuzzer's
//! bytes: the instance is drawn mostly from what the schema names (its types, its
//! properties, its enum values, strings its pattern takes, numbers at its bounds) so
//! that both verdicts come up, and sometimes from anything at all.
//!
//! The instance is checked against the `jsonschema` crate unless it or the schema has
//! a number that crate compares through `f64` where toolgate compares exactly: more
//! than 15 significant digits, or a magnitude near or past the ends of `f64`
//! ([`Case::f64_exact`] is false). Strings use no line terminator but `\n`, and the
//! patterns no `.`, `\d`, `\w`, `\s` or negated class, so the two regex dialects
//! (ECMA-262 here, Rust's there) mean the same on them.
//!
//! [`Case::generate_full`] builds full-profile schemas (draft 2020-12) the same way,
//! adding the applicators and assertions the core lacks: `allOf`, `oneOf`, `not`,
//! `if`/`then`/`else`, `$ref` to `$defs`, `prefixItems`, `contains` with its bounds,
//! `uniqueItems`, `multipleOf`, the exclusive bounds, the property counts,
//! `dependentRequired`, `dependentSchemas`, `propertyNames`, `patternProperties` and
//! `unevaluatedProperties`/`unevaluatedItems`. Its arrays repeat earlier items, numbers
//! respelled (`1`, `1.0`, `10e-1`; `0`, `-0`, `0e5`), so that `uniqueItems` meets
//! equal values written apart. Numbers are compared through `f64` only where it is
//! exact: every number f64-exact, and with a `multipleOf` (whose divisors f64 holds
//! exactly) no number past 15 integer digits or 6 fraction digits, where `f64`
//! division stops telling a multiple from a near one ([`Case::f64_exact`] false).
//! References point at `$defs` entries without references, so every case's work is
//! bounded by its size.

use arbitrary::{Result, Unstructured};

/// A generated schema and instance, as JSON text.
#[derive(Debug)]
pub struct Case {
    pub schema: String,
    pub instance: String,
    /// Every number in both is one `f64` compares exactly (see the module doc).
    pub f64_exact: bool,
}

/// Property names, some of which need escaping in a path or a pointer.
const NAMES: &[&str] = &[
    "a", "b", "city", "_x1", "a.b", "x y", "", "é", "~/", "0", "\"q", "😀",
];

/// Patterns both dialects read alike, with strings to try on them.
const PATTERNS: &[(&str, &[&str])] = &[
    ("^a", &["a", "ab", "ba"]),
    ("b$", &["b", "ab", "ba", "b\n"]),
    ("^[a-c]*$", &["", "abc", "abd", "a\nb"]),
    ("^(a|bc)+$", &["a", "bca", "b", "abca"]),
    ("[0-9]", &["1", "x", "x9"]),
    ("^x?y{1,2}$", &["y", "xyy", "xyyy", "x"]),
    ("é", &["é", "e", "aéb"]),
    ("^$", &["", " "]),
    ("\\\\", &["\\", "a"]),
    ("^a\\.b$", &["a.b", "axb"]),
    ("^[a-z]{2,3}$", &["ab", "abcd", "a"]),
    ("😀|c", &["😀", "c", "a"]),
    ("^(?:ab){2}$", &["abab", "ab"]),
];

/// The characters strings are made of (no line terminator but `\n`).
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'x', 'y', '1', '9', 'é', '😀', ' ', '\n', '"', '\\', '/', 'A', '\u{7f}',
];

const TYPES: &[&str] = &[
    "null", "boolean", "integer", "number", "string", "array", "object",
];

/// Deeper than this, schemas are leaves and instances scalars.
const MAX_DEPTH: u32 = 4;

/// A schema as built, kept to guide the instance.
#[derive(Debug, Default)]
struct Rules {
    /// A boolean schema (`true`/`false`) instead of an object.
    boolean: Option<bool>,
    types: Vec<&'static str>,
    /// `type` written as a list even with one name.
    type_list: bool,
    enumeration: Vec<String>,
    constant: Option<String>,
    properties: Vec<(&'static str, Rules)>,
    required: Vec<&'static str>,
    additional: Option<Box<Rules>>,
    items: Option<Box<Rules>>,
    min_items: Option<u8>,
    max_items: Option<u8>,
    min_length: Option<u8>,
    max_length: Option<u8>,
    pattern: Option<usize>,
    minimum: Option<String>,
    maximum: Option<String>,
    any_of: Vec<Rules>,
    title: bool,
    /// The full profile's keywords; all empty for a core case.
    full: Full,
}

/// The keywords only a full-profile case has.
/// An `if` with its `then` and `else`, when present.
type IfThenElse = (Rules, Option<Rules>, Option<Rules>);

#[derive(Debug, Default)]
struct Full {
    all_of: Vec<Rules>,
    one_of: Vec<Rules>,
    not: Option<Box<Rules>>,
    if_then_else: Option<Box<IfThenElse>>,
    /// `$ref` to `#/$defs/d<N>`.
    reference: Option<usize>,
    /// At the root only: the `$defs` entries, which hold no reference.
    defs: Vec<Rules>,
    prefix_items: Vec<Rules>,
    contains: Option<Box<Rules>>,
    min_contains: Option<u8>,
    max_contains: Option<u8>,
    unique_items: Option<bool>,
    multiple_of: Option<&'static str>,
    exclusive_minimum: Option<String>,
    exclusive_maximum: Option<String>,
    min_properties: Option<u8>,
    max_properties: Option<u8>,
    dependent_required: Vec<(&'static str, Vec<&'static str>)>,
    dependent_schemas: Vec<(&'static str, Rules)>,
    /// A pattern (index into [`PATTERNS`]) or a `maxLength` for every name.
    property_names: Option<Result<usize, u8>>,
    pattern_properties: Vec<(usize, Rules)>,
    unevaluated_properties: Option<bool>,
    unevaluated_items: Option<bool>,
}

/// Divisors `f64` holds exactly, so that its division tells a multiple apart.
const DIVISORS: &[&str] = &[
    "1", "2", "3", "5", "10", "0.5", "0.25", "2.5", "1e1", "5E-1",
];

struct Gen<'u, 'a> {
    u: &'u mut Unstructured<'a>,
    f64_exact: bool,
    /// Generating a full-profile case.
    full: bool,
    /// `$defs` entries a reference may name (0 while they are being built).
    defs: usize,
    /// A `multipleOf` was generated.
    divides: bool,
    /// A number past what `f64` division is exact on was generated.
    wide: bool,
}

impl Case {
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Case> {
        Case::build(u, false)
    }

    /// A full-profile case (draft 2020-12), for [`check_full`].
    pub fn generate_full(u: &mut Unstructured<'_>) -> Result<Case> {
        Case::build(u, true)
    }

    fn build(u: &mut Unstructured<'_>, full: bool) -> Result<Case> {
        let mut g = Gen {
            u,
            f64_exact: true,
            full,
            defs: 0,
            divides: false,
            wide: false,
        };
        let mut defs = Vec::new();
        if full && g.chance(1, 3)? {
            for _ in 0..=g.small(2)? {
                defs.push(g.rules(MAX_DEPTH - 1)?);
            }
        }
        g.defs = defs.len();
        let mut rules = g.rules(0)?;
        rules.full.defs = defs;
        let mut schema = String::new();
        render(&rules, &mut schema);
        let mut instance = String::new();
        g.value(0, Some(&rules), &mut instance)?;
        Ok(Case {
            schema,
            instance,
            f64_exact: g.f64_exact && !(g.divides && g.wide),
        })
    }
}

impl Gen<'_, '_> {
    fn chance(&mut self, num: u8, den: u8) -> Result<bool> {
        self.u.ratio(num, den)
    }

    fn pick<T: Copy>(&mut self, from: &[T]) -> Result<T> {
        Ok(*self.u.choose(from)?)
    }

    fn small(&mut self, max: u8) -> Result<u8> {
        self.u.int_in_range(0..=max)
    }

    /// Whether a schema at `depth` has no subschemas. Past the fuzzer's bytes every
    /// choice is the same, which would give a full-profile schema every applicator at
    /// every level: a full case stops nesting there, keeping each input's work small.
    fn leaf(&mut self, depth: u32) -> bool {
        depth >= MAX_DEPTH || (self.full && self.u.is_empty())
    }

    fn rules(&mut self, depth: u32) -> Result<Rules> {
        let mut r = Rules::default();
        // A boolean schema only below the root, where the profile allows one.
        if depth > 0 && self.chance(1, 10)? {
            r.boolean = Some(self.u.arbitrary()?);
            return Ok(r);
        }
        let leaf = self.leaf(depth);
        if self.chance(2, 3)? {
            for _ in 0..=self.small(2)? {
                let t = self.pick(TYPES)?;
                if !r.types.contains(&t) {
                    r.types.push(t);
                }
            }
            r.type_list = r.types.len() > 1 || self.chance(1, 8)?;
        }
        if self.chance(1, 8)? {
            for _ in 0..=self.small(3)? {
                let mut v = String::new();
                self.value(MAX_DEPTH - 1, None, &mut v)?;
                r.enumeration.push(v);
            }
        }
        if self.chance(1, 10)? {
            let mut v = String::new();
            self.value(MAX_DEPTH - 1, None, &mut v)?;
            r.constant = Some(v);
        }
        if !leaf && self.chance(1, 2)? {
            for _ in 0..self.small(4)? {
                let name = self.pick(NAMES)?;
                if r.properties.iter().all(|(n, _)| *n != name) {
                    let sub = self.rules(depth + 1)?;
                    r.properties.push((name, sub));
                }
            }
        }
        if self.chance(1, 3)? {
            for _ in 0..self.small(3)? {
                let name = if !r.properties.is_empty() && self.chance(3, 4)? {
                    r.properties[self.u.choose_index(r.properties.len())?].0
                } else {
                    self.pick(NAMES)?
                };
                if !r.required.contains(&name) {
                    r.required.push(name);
                }
            }
        }
        if !leaf && self.chance(1, 4)? {
            r.additional = Some(Box::new(self.rules(depth + 1)?));
        }
        if !leaf && self.chance(1, 3)? {
            r.items = Some(Box::new(self.rules(depth + 1)?));
        }
        if self.chance(1, 6)? {
            r.min_items = Some(self.small(4)?);
        }
        if self.chance(1, 6)? {
            r.max_items = Some(self.small(4)?);
        }
        if self.chance(1, 5)? {
            r.min_length = Some(self.small(5)?);
        }
        if self.chance(1, 5)? {
            r.max_length = Some(self.small(5)?);
        }
        if self.chance(1, 4)? {
            r.pattern = Some(self.u.choose_index(PATTERNS.len())?);
        }
        if self.chance(1, 4)? {
            r.minimum = Some(self.number()?);
        }
        if self.chance(1, 4)? {
            r.maximum = Some(self.number()?);
        }
        if !leaf && self.chance(1, 5)? {
            for _ in 0..=self.small(2)? {
                r.any_of.push(self.rules(depth + 1)?);
            }
        }
        r.title = self.chance(1, 16)?;
        if self.full {
            r.full = self.full_rules(depth)?;
        }
        Ok(r)
    }

    fn full_rules(&mut self, depth: u32) -> Result<Full> {
        let mut f = Full::default();
        let leaf = self.leaf(depth);
        let subs = |g: &mut Gen<'_, '_>, n: u8| -> Result<Vec<Rules>> {
            let mut v = Vec::new();
            for _ in 0..=g.small(n)? {
                v.push(g.rules(depth + 1)?);
            }
            Ok(v)
        };
        if !leaf && self.chance(1, 6)? {
            f.all_of = subs(self, 1)?;
        }
        if !leaf && self.chance(1, 6)? {
            f.one_of = subs(self, 2)?;
        }
        if !leaf && self.chance(1, 8)? {
            f.not = Some(Box::new(self.rules(depth + 1)?));
        }
        if !leaf && self.chance(1, 6)? {
            let cond = self.rules(depth + 1)?;
            let then = if self.chance(3, 4)? {
                Some(self.rules(depth + 1)?)
            } else {
                None
            };
            let other = if self.chance(1, 2)? {
                Some(self.rules(depth + 1)?)
            } else {
                None
            };
            f.if_then_else = Some(Box::new((cond, then, other)));
        }
        if self.defs > 0 && self.chance(1, 4)? {
            f.reference = Some(self.u.choose_index(self.defs)?);
        }
        if !leaf && self.chance(1, 5)? {
            f.prefix_items = subs(self, 2)?;
        }
        if !leaf && self.chance(1, 5)? {
            f.contains = Some(Box::new(self.rules(depth + 1)?));
            if self.chance(1, 3)? {
                f.min_contains = Some(self.small(3)?);
            }
            if self.chance(1, 3)? {
                f.max_contains = Some(self.small(3)?);
            }
        }
        if self.chance(1, 4)? {
            f.unique_items = Some(self.chance(4, 5)?);
        }
        if self.chance(1, 10)? {
            f.multiple_of = Some(self.pick(DIVISORS)?);
            self.divides = true;
        }
        if self.chance(1, 8)? {
            f.exclusive_minimum = Some(self.number()?);
        }
        if self.chance(1, 8)? {
            f.exclusive_maximum = Some(self.number()?);
        }
        if self.chance(1, 8)? {
            f.min_properties = Some(self.small(3)?);
        }
        if self.chance(1, 8)? {
            f.max_properties = Some(self.small(3)?);
        }
        if self.chance(1, 6)? {
            let name = self.pick(NAMES)?;
            let mut needs = Vec::new();
            for _ in 0..=self.small(1)? {
                let need = self.pick(NAMES)?;
                if !needs.contains(&need) {
                    needs.push(need);
                }
            }
            f.dependent_required.push((name, needs));
        }
        if !leaf && self.chance(1, 8)? {
            let name = self.pick(NAMES)?;
            f.dependent_schemas.push((name, self.rules(depth + 1)?));
        }
        if self.chance(1, 8)? {
            f.property_names = Some(if self.chance(1, 2)? {
                Ok(self.u.choose_index(PATTERNS.len())?)
            } else {
                Err(self.small(3)?)
            });
        }
        if !leaf && self.chance(1, 6)? {
            let p = self.u.choose_index(PATTERNS.len())?;
            f.pattern_properties.push((p, self.rules(depth + 1)?));
        }
        if self.chance(1, 8)? {
            f.unevaluated_properties = Some(self.u.arbitrary()?);
        }
        if self.chance(1, 10)? {
            f.unevaluated_items = Some(self.u.arbitrary()?);
        }
        Ok(f)
    }

    /// A number in one of many spellings; marks the case when `f64` cannot compare it.
    fn number(&mut self) -> Result<String> {
        // Numbers f64 cannot compare exactly (the 19-digit integers, the exotic list,
        // exponents past ±290) are one draw in sixteen, so that most cases still reach
        // the peer.
        // A full case has many more numbers: it leaves out the wide exponents (28 and
        // up) and makes the numbers f64 cannot hold (12, 27) rarer, or too few cases
        // would reach the peer.
        let mut choice = self.small(if self.full { 27 } else { 31 })?;
        if self.full && matches!(choice, 12 | 27) && self.chance(7, 8)? {
            choice = 0;
        }
        let text = match choice {
            0..=11 => self.u.int_in_range(-20i64..=20)?.to_string(),
            12 => self.u.arbitrary::<i64>()?.to_string(),
            13 => self
                .u
                .int_in_range(-999_999_999_999_999i64..=999_999_999_999_999)?
                .to_string(),
            14..=17 => {
                let int = self.u.int_in_range(-999i64..=999)?;
                let frac = self.u.int_in_range(0u32..=999)?;
                let sign = if int == 0 && self.chance(1, 2)? {
                    "-"
                } else {
                    ""
                };
                format!("{sign}{int}.{frac}")
            }
            18..=21 => {
                let mant = self.u.int_in_range(-99i64..=99)?;
                let exp = self.u.int_in_range(-5i32..=5)?;
                let e = self.pick(&["e", "E"])?;
                let plus = if exp >= 0 && self.chance(1, 2)? {
                    "+"
                } else {
                    ""
                };
                format!("{mant}{e}{plus}{exp}")
            }
            22..=26 => self
                .pick(&[
                    "-0", "0.0", "1.0", "1e0", "10e-1", "0.5", "5e-1", "2.50", "-1.5", "1e2",
                    "0e5", "-0e0", "0E-3", "0.00",
                ])?
                .to_owned(),
            27 => self
                .pick(&[
                    "1e400",
                    "-1e400",
                    "1e-400",
                    "1e4503599627370497",
                    "0.1e4503599627370497",
                    "123456789012345678901234567890",
                    "9223372036854775808",
                    "-9223372036854775809",
                    "1.0000000000000000001",
                    "0.30000000000000000001",
                ])?
                .to_owned(),
            28 => {
                let mant = self.u.int_in_range(1i64..=9)?;
                let exp = self.u.int_in_range(-330i32..=330)?;
                format!("{mant}e{exp}")
            }
            _ => {
                let mant = self.u.int_in_range(1i64..=9)?;
                let exp = self.u.int_in_range(-40i32..=40)?;
                format!("{mant}e{exp}")
            }
        };
        self.f64_exact &= f64_exact(&text);
        self.wide |= !divides_exactly(&text);
        Ok(text)
    }

    fn string(&mut self, pattern: Option<usize>, out: &mut String) -> Result<()> {
        let mut s = String::new();
        match pattern {
            Some(p) if self.chance(1, 2)? => s.push_str(self.pick(PATTERNS[p].1)?),
            _ => {
                for _ in 0..self.small(6)? {
                    s.push(self.pick(ALPHABET)?);
                }
            }
        }
        self.quote(&s, out)
    }

    /// Writes `s` as a JSON string, some characters as `\u` escapes (surrogate pairs
    /// beyond the BMP), so that the reader's escape paths are taken.
    fn quote(&mut self, s: &str, out: &mut String) -> Result<()> {
        out.push('"');
        for c in s.chars() {
            if self.chance(1, 8)? {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            } else {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    c => out.push(c),
                }
            }
        }
        out.push('"');
        Ok(())
    }

    /// A value for `rules` (anything, when `None`) at nesting `depth`.
    fn value(&mut self, depth: u32, rules: Option<&Rules>, out: &mut String) -> Result<()> {
        let r = rules.filter(|r| r.boolean.is_none());
        if let Some(r) = r {
            let listed = r.constant.iter().chain(&r.enumeration).count();
            if listed > 0 && self.chance(1, 3)? {
                let i = self.u.choose_index(listed)?;
                out.push_str(r.constant.iter().chain(&r.enumeration).nth(i).unwrap());
                return Ok(());
            }
            if !r.any_of.is_empty() && self.chance(1, 3)? {
                let i = self.u.choose_index(r.any_of.len())?;
                return self.value(depth, Some(&r.any_of[i]), out);
            }
        }
        let ty = match r {
            Some(r) if !r.types.is_empty() && self.chance(3, 4)? => self.pick(&r.types)?,
            Some(r) if r.pattern.is_some() && self.chance(1, 2)? => "string",
            _ => self.pick(TYPES)?,
        };
        let ty = if depth >= MAX_DEPTH && matches!(ty, "array" | "object") {
            "null"
        } else {
            ty
        };
        match ty {
            "null" => out.push_str("null"),
            "boolean" => out.push_str(if self.u.arbitrary()? { "true" } else { "false" }),
            "integer" | "number" => {
                let bounds: Vec<&String> = r
                    .map(|r| r.minimum.iter().chain(&r.maximum).collect())
                    .unwrap_or_default();
                if !bounds.is_empty() && self.chance(1, 2)? {
                    let b = self.pick(&bounds)?.clone();
                    out.push_str(&self.respell(&b)?);
                } else {
                    out.push_str(&self.number()?);
                }
            }
            "string" => self.string(r.and_then(|r| r.pattern), out)?,
            "array" => {
                out.push('[');
                let mut items: Vec<String> = Vec::new();
                for i in 0..self.small(5)? {
                    if i > 0 {
                        out.push(',');
                    }
                    let mut item = String::new();
                    if self.full && !items.is_empty() && self.chance(1, 3)? {
                        // An earlier item again, a number respelled: what uniqueItems
                        // must see as equal.
                        let earlier = items[self.u.choose_index(items.len())?].clone();
                        let number = earlier.starts_with(|c: char| c == '-' || c.is_ascii_digit());
                        item = if number {
                            self.respell(&earlier)?
                        } else {
                            earlier
                        };
                    } else {
                        let sub = match r {
                            Some(r) if (i as usize) < r.full.prefix_items.len() => {
                                Some(&r.full.prefix_items[i as usize])
                            }
                            Some(r) if r.full.contains.is_some() && self.chance(1, 3)? => {
                                r.full.contains.as_deref()
                            }
                            _ => r.and_then(|r| r.items.as_deref()),
                        };
                        self.value(depth + 1, sub, &mut item)?;
                    }
                    out.push_str(&item);
                    items.push(item);
                }
                out.push(']');
            }
            _ => {
                let mut seen: Vec<&str> = Vec::new();
                out.push('{');
                if let Some(r) = r {
                    for (name, sub) in &r.properties {
                        if self.chance(3, 4)? {
                            member(self, &mut seen, name, out)?;
                            self.value(depth + 1, Some(sub), out)?;
                        }
                    }
                    for name in &r.required {
                        if !seen.contains(name) && self.chance(1, 2)? {
                            member(self, &mut seen, name, out)?;
                            self.value(depth + 1, None, out)?;
                        }
                    }
                }
                for _ in 0..self.small(2)? {
                    let name = self.pick(NAMES)?;
                    if !seen.contains(&name) {
                        member(self, &mut seen, name, out)?;
                        self.value(depth + 1, r.and_then(|r| r.additional.as_deref()), out)?;
                    }
                }
                out.push('}');
            }
        }
        Ok(())
    }

    /// The bound itself, or the same value spelled another way.
    fn respell(&mut self, bound: &str) -> Result<String> {
        let plain = !bound.contains(['.', 'e', 'E']);
        let zero = bound.trim_start_matches('-') == "0";
        Ok(match self.small(if self.full { 5 } else { 3 })? {
            1 if plain => format!("{bound}.0"),
            2 if plain && !bound.trim_start_matches('-').starts_with('0') => format!("{bound}0e-1"),
            3 => self.number()?,
            4 if plain => format!("{bound}e0"),
            5 if zero => self.pick(&["0e5", "-0.0", "0E-3", "0.00e10"])?.to_owned(),
            _ => bound.to_owned(),
        })
    }
}

/// Every check on one generated case. Panics on any disagreement.
pub fn check(case: &Case) {
    let schema = toolgate_core::Schema::compile(case.schema.as_bytes()).unwrap_or_else(|e| {
        panic!(
            "a generated schema does not compile: {e:?}\n{}",
            case.schema
        )
    });
    let doc: serde_json::Value =
        serde_json::from_str(&case.instance).expect("a generated instance is JSON");
    let verdict = crate::errors::check_schema_on(&schema, case.instance.as_bytes(), Some(&doc));
    if !case.f64_exact {
        return;
    }
    let schema_doc: serde_json::Value =
        serde_json::from_str(&case.schema).expect("a generated schema is JSON");
    let peer = jsonschema::validator_for(&schema_doc).unwrap_or_else(|e| {
        panic!(
            "jsonschema refuses a generated schema: {e}\n{}",
            case.schema
        )
    });
    assert_eq!(
        verdict,
        peer.is_valid(&doc),
        "toolgate and jsonschema differ\nschema:   {}\ninstance: {}\ntoolgate errors: {:?}",
        case.schema,
        case.instance,
        schema.validate_json(case.instance.as_bytes())
    );
}

/// Every check on one full-profile case ([`Case::generate_full`]): the invariants of
/// its violations, then its verdict against the `jsonschema` crate where `f64` compares
/// its numbers exactly. Panics on any disagreement.
pub fn check_full(case: &Case) {
    let opts = toolgate_core::Options::default().with_profile(toolgate_core::Profile::Full);
    let schema =
        toolgate_core::Schema::compile_with(case.schema.as_bytes(), &opts).unwrap_or_else(|e| {
            panic!(
                "a generated schema does not compile: {e:?}\n{}",
                case.schema
            )
        });
    let doc: serde_json::Value =
        serde_json::from_str(&case.instance).expect("a generated instance is JSON");
    let verdict = crate::errors::check_schema_on(&schema, case.instance.as_bytes(), Some(&doc));
    if !case.f64_exact {
        return;
    }
    let schema_doc: serde_json::Value =
        serde_json::from_str(&case.schema).expect("a generated schema is JSON");
    let peer = jsonschema::draft202012::new(&schema_doc).unwrap_or_else(|e| {
        panic!(
            "jsonschema refuses a generated schema: {e}\n{}",
            case.schema
        )
    });
    assert_eq!(
        verdict,
        peer.is_valid(&doc),
        "toolgate and jsonschema differ (full profile)\nschema:   {}\ninstance: {}\ntoolgate errors: {:?}",
        case.schema,
        case.instance,
        schema.validate_json(case.instance.as_bytes())
    );
}

/// Writes `,"name":` (no comma first) and records the name.
fn member<'n>(
    g: &mut Gen<'_, '_>,
    seen: &mut Vec<&'n str>,
    name: &'n str,
    out: &mut String,
) -> Result<()> {
    if !seen.is_empty() {
        out.push(',');
    }
    seen.push(name);
    g.quote(name, out)?;
    out.push(':');
    Ok(())
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

fn render(r: &Rules, out: &mut String) {
    if let Some(b) = r.boolean {
        out.push_str(if b { "true" } else { "false" });
        return;
    }
    let mut parts: Vec<String> = Vec::new();
    if r.title {
        parts.push(r#""title":"t","description":"d""#.to_owned());
    }
    match (r.types.as_slice(), r.type_list) {
        ([], _) => {}
        ([one], false) => parts.push(format!(r#""type":"{one}""#)),
        (many, _) => {
            let names: Vec<String> = many.iter().map(|t| format!("\"{t}\"")).collect();
            parts.push(format!(r#""type":[{}]"#, names.join(",")));
        }
    }
    if !r.enumeration.is_empty() {
        parts.push(format!(r#""enum":[{}]"#, r.enumeration.join(",")));
    }
    if let Some(c) = &r.constant {
        parts.push(format!(r#""const":{c}"#));
    }
    if !r.properties.is_empty() {
        let props: Vec<String> = r
            .properties
            .iter()
            .map(|(name, sub)| {
                let mut s = format!("{}:", json_string(name));
                render(sub, &mut s);
                s
            })
            .collect();
        parts.push(format!(r#""properties":{{{}}}"#, props.join(",")));
    }
    if !r.required.is_empty() {
        let names: Vec<String> = r.required.iter().map(|n| json_string(n)).collect();
        parts.push(format!(r#""required":[{}]"#, names.join(",")));
    }
    for (key, sub) in [("additionalProperties", &r.additional), ("items", &r.items)] {
        if let Some(sub) = sub {
            let mut s = format!("\"{key}\":");
            render(sub, &mut s);
            parts.push(s);
        }
    }
    for (key, n) in [
        ("minItems", r.min_items),
        ("maxItems", r.max_items),
        ("minLength", r.min_length),
        ("maxLength", r.max_length),
    ] {
        if let Some(n) = n {
            parts.push(format!("\"{key}\":{n}"));
        }
    }
    if let Some(p) = r.pattern {
        parts.push(format!(r#""pattern":{}"#, json_string(PATTERNS[p].0)));
    }
    for (key, b) in [("minimum", &r.minimum), ("maximum", &r.maximum)] {
        if let Some(b) = b {
            parts.push(format!("\"{key}\":{b}"));
        }
    }
    if !r.any_of.is_empty() {
        let subs: Vec<String> = r
            .any_of
            .iter()
            .map(|sub| {
                let mut s = String::new();
                render(sub, &mut s);
                s
            })
            .collect();
        parts.push(format!(r#""anyOf":[{}]"#, subs.join(",")));
    }
    render_full(&r.full, &mut parts);
    out.push('{');
    out.push_str(&parts.join(","));
    out.push('}');
}

fn rendered(r: &Rules) -> String {
    let mut s = String::new();
    render(r, &mut s);
    s
}

fn rendered_list(rules: &[Rules]) -> String {
    rules.iter().map(rendered).collect::<Vec<_>>().join(",")
}

fn render_full(f: &Full, parts: &mut Vec<String>) {
    for (key, list) in [
        ("allOf", &f.all_of),
        ("oneOf", &f.one_of),
        ("prefixItems", &f.prefix_items),
    ] {
        if !list.is_empty() {
            parts.push(format!(r#""{key}":[{}]"#, rendered_list(list)));
        }
    }
    if let Some(not) = &f.not {
        parts.push(format!(r#""not":{}"#, rendered(not)));
    }
    if let Some(ite) = &f.if_then_else {
        let (cond, then, other) = &**ite;
        parts.push(format!(r#""if":{}"#, rendered(cond)));
        if let Some(then) = then {
            parts.push(format!(r#""then":{}"#, rendered(then)));
        }
        if let Some(other) = other {
            parts.push(format!(r#""else":{}"#, rendered(other)));
        }
    }
    if let Some(n) = f.reference {
        parts.push(format!(r##""$ref":"#/$defs/d{n}""##));
    }
    if !f.defs.is_empty() {
        let defs: Vec<String> = f
            .defs
            .iter()
            .enumerate()
            .map(|(n, d)| format!(r#""d{n}":{}"#, rendered(d)))
            .collect();
        parts.push(format!(r#""$defs":{{{}}}"#, defs.join(",")));
    }
    if let Some(c) = &f.contains {
        parts.push(format!(r#""contains":{}"#, rendered(c)));
    }
    for (key, n) in [
        ("minContains", f.min_contains),
        ("maxContains", f.max_contains),
        ("minProperties", f.min_properties),
        ("maxProperties", f.max_properties),
    ] {
        if let Some(n) = n {
            parts.push(format!("\"{key}\":{n}"));
        }
    }
    if let Some(u) = f.unique_items {
        parts.push(format!(r#""uniqueItems":{u}"#));
    }
    if let Some(d) = f.multiple_of {
        parts.push(format!(r#""multipleOf":{d}"#));
    }
    for (key, b) in [
        ("exclusiveMinimum", &f.exclusive_minimum),
        ("exclusiveMaximum", &f.exclusive_maximum),
    ] {
        if let Some(b) = b {
            parts.push(format!("\"{key}\":{b}"));
        }
    }
    if !f.dependent_required.is_empty() {
        let deps: Vec<String> = f
            .dependent_required
            .iter()
            .map(|(name, needs)| {
                let needs: Vec<String> = needs.iter().map(|n| json_string(n)).collect();
                format!("{}:[{}]", json_string(name), needs.join(","))
            })
            .collect();
        parts.push(format!(r#""dependentRequired":{{{}}}"#, deps.join(",")));
    }
    if !f.dependent_schemas.is_empty() {
        let deps: Vec<String> = f
            .dependent_schemas
            .iter()
            .map(|(name, sub)| format!("{}:{}", json_string(name), rendered(sub)))
            .collect();
        parts.push(format!(r#""dependentSchemas":{{{}}}"#, deps.join(",")));
    }
    match f.property_names {
        Some(Ok(p)) => parts.push(format!(
            r#""propertyNames":{{"pattern":{}}}"#,
            json_string(PATTERNS[p].0)
        )),
        Some(Err(n)) => parts.push(format!(r#""propertyNames":{{"maxLength":{n}}}"#)),
        None => {}
    }
    if !f.pattern_properties.is_empty() {
        let props: Vec<String> = f
            .pattern_properties
            .iter()
            .map(|(p, sub)| format!("{}:{}", json_string(PATTERNS[*p].0), rendered(sub)))
            .collect();
        parts.push(format!(r#""patternProperties":{{{}}}"#, props.join(",")));
    }
    for (key, u) in [
        ("unevaluatedProperties", f.unevaluated_properties),
        ("unevaluatedItems", f.unevaluated_items),
    ] {
        if let Some(u) = u {
            parts.push(format!(r#""{key}":{u}"#));
        }
    }
}

/// True when dividing the number `text` by one of [`DIVISORS`] in `f64` says exactly
/// whether it is a multiple: at most 15 integer digits (so it is an exact integer part)
/// and at most 6 fraction digits (so a near multiple stays visibly near).
fn divides_exactly(text: &str) -> bool {
    let t = text.strip_prefix('-').unwrap_or(text);
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => match t[i + 1..].parse::<i64>() {
            Ok(e) => (&t[..i], e),
            Err(_) => return false,
        },
        None => (t, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    if int.is_empty() && frac.is_empty() {
        return true;
    }
    let int_digits = int.len() as i64 + exp;
    let frac_digits = frac.len() as i64 - exp;
    int_digits <= 15 && frac_digits <= 6
}

/// True when `f64` compares the number `text` exactly with any other such number:
/// at most 15 significant digits (so two different values stay different after
/// rounding) and a magnitude well inside the normal range of `f64`.
pub fn f64_exact(text: &str) -> bool {
    let t = text.strip_prefix('-').unwrap_or(text);
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => match t[i + 1..].parse::<i64>() {
            Ok(e) => (&t[..i], e),
            Err(_) => return false,
        },
        None => (t, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits: String = format!("{int}{frac}");
    let lead = digits.bytes().take_while(|&b| b == b'0').count();
    let sig = digits[lead..].trim_end_matches('0');
    if sig.is_empty() {
        return true;
    }
    // The value is 0.sig × 10^magnitude.
    let magnitude = int.len() as i64 - lead as i64 + exp;
    sig.len() <= 15 && (-290..=290).contains(&magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f64_exactness() {
        for t in [
            "0",
            "-0.0",
            "1e280",
            "123456789012345",
            "0.1",
            "1.5e-280",
            "0e99999",
        ] {
            assert!(f64_exact(t), "{t}");
        }
        for t in [
            "1234567890123456",
            "1e400",
            "1e-300",
            "1.0000000000000000001",
            "1e4503599627370497999999",
        ] {
            assert!(!f64_exact(t), "{t}");
        }
    }

    #[test]
    fn generated_cases_are_json_and_compile() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let (mut compared, mut valid) = (0, 0);
        for n in 0..2000 {
            let bytes = crate::xorshift_bytes(&mut seed, 512);
            let case = Case::generate(&mut Unstructured::new(&bytes)).unwrap();
            let schema: serde_json::Value = serde_json::from_str(&case.schema)
                .unwrap_or_else(|e| panic!("case {n}: schema {}: {e}", case.schema));
            assert!(schema.is_object() || schema.is_boolean());
            serde_json::from_str::<serde_json::Value>(&case.instance)
                .unwrap_or_else(|e| panic!("case {n}: instance {}: {e}", case.instance));
            check(&case);
            compared += usize::from(case.f64_exact);
            valid += usize::from(
                toolgate_core::Schema::compile(case.schema.as_bytes())
                    .unwrap()
                    .is_valid(case.instance.as_bytes()),
            );
        }
        // Most cases reach the peer, and both verdicts come up often.
        assert!(compared > 1000, "{compared} of 2000 compared");
        assert!((400..1600).contains(&valid), "{valid} of 2000 valid");
    }

    #[test]
    fn full_profile_cases_agree_with_the_peer() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let opts = toolgate_core::Options::default().with_profile(toolgate_core::Profile::Full);
        let (mut compared, mut valid, mut unique) = (0, 0, 0);
        for n in 0..2000 {
            let bytes = crate::xorshift_bytes(&mut seed, 768);
            let case = Case::generate_full(&mut Unstructured::new(&bytes)).unwrap();
            serde_json::from_str::<serde_json::Value>(&case.schema)
                .unwrap_or_else(|e| panic!("case {n}: schema {}: {e}", case.schema));
            check_full(&case);
            compared += usize::from(case.f64_exact);
            unique += usize::from(case.schema.contains(r#""uniqueItems":true"#));
            valid += usize::from(
                toolgate_core::Schema::compile_with(case.schema.as_bytes(), &opts)
                    .unwrap()
                    .is_valid(case.instance.as_bytes()),
            );
        }
        assert!(compared > 1000, "{compared} of 2000 compared");
        assert!(unique > 100, "{unique} of 2000 with uniqueItems");
        // Full schemas hold more assertions: fewer instances pass, both verdicts come up.
        assert!((100..1900).contains(&valid), "{valid} of 2000 valid");
    }

    #[test]
    fn division_exactness() {
        for t in [
            "0",
            "0e99",
            "123456789012345",
            "1.000001",
            "2.5e-5",
            "-7.25",
        ] {
            assert!(divides_exactly(t), "{t}");
        }
        for t in [
            "1e40",
            "1234567890123456",
            "0.0000001",
            "9223372036854775807",
        ] {
            assert!(!divides_exactly(t), "{t}");
        }
    }
}
