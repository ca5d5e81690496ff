//! Instances generated from a schema: a valid one (required properties, `enum` and
//! `const` values, types, bounds, formats, simple patterns), then mutants of it that
//! break one rule each (wrong type, missing required property, extra property, out of
//! bounds, bad format, bad enum value, a duplicate key, a number beyond f64's
//! precision at a bound). Deterministic: everything comes from an [`Rng`] started at a fixed value.
//!
//! The generator is best effort: a schema it does not understand fully (a `not`, an
//! `if`, a pattern outside the subset it writes) may get an instance that is not
//! valid. The differential test compares verdicts, so such an instance is still a
//! case; the cycling benchmark keeps only instances every contender accepts.

use serde_json::{Map, Value};

/// SplitMix64: small, fast, and the same sequence on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Which strings free-form text gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strings {
    Ascii,
    /// Accented Latin, Greek, Cyrillic, CJK and emoji: what UTF-8 checking costs.
    NonAscii,
}

const ASCII_WORDS: &[&str] = &[
    "alpha",
    "Paris",
    "quarterly report",
    "main",
    "fix the login bug",
    "octocat",
    "README.md",
    "hello world",
    "v1.2.3",
    "search term",
];

const NON_ASCII_WORDS: &[&str] = &[
    "Zürich Hauptbahnhof",
    "東京タワー",
    "naïve café",
    "Ελληνικά κείμενα",
    "Москва, Россия",
    "São Paulo 🚀",
    "Łódź — Kraków",
    "résumé für François",
    "北京 上海 广州",
    "emoji 😀👍",
];

/// One step of a path into an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// A value of a generated instance and what its schema said about it: where a mutant
/// can break a rule.
#[derive(Clone, Debug, Default)]
pub struct Site {
    pub path: Vec<Step>,
    /// The types `type` allowed here (empty: no `type`).
    pub types: Vec<String>,
    /// The value came from `enum` (the values listed).
    pub enum_values: Option<Vec<Value>>,
    pub format: Option<String>,
    /// Inclusive bounds, as written in the schema (their text).
    pub minimum: Option<serde_json::Number>,
    pub maximum: Option<serde_json::Number>,
    pub max_length: Option<u64>,
    pub min_length: Option<u64>,
    pub max_items: Option<u64>,
    pub min_items: Option<u64>,
    /// For objects: required names, and whether other properties are refused.
    pub required: Vec<String>,
    pub closed: bool,
    /// The value sits in a branch of `anyOf`/`oneOf` (a mutant may still match
    /// another branch).
    pub in_choice: bool,
}

/// A generated instance and its sites.
#[derive(Clone, Debug)]
pub struct Generated {
    pub value: Value,
    pub sites: Vec<Site>,
}

impl Generated {
    /// The instance as compact JSON.
    pub fn bytes(&self) -> Vec<u8> {
        serde_json::to_vec(&self.value).expect("serialize")
    }
}

/// How deep the generator follows nested objects and references before it chooses the
/// smallest value a schema allows (`null`, no optional property, no element), so that
/// recursive schemas end.
const DEEP: usize = 6;

struct Gen<'a> {
    root: &'a Value,
    rng: Rng,
    strings: Strings,
    sites: Vec<Site>,
}

/// A valid instance of `schema` (best effort; see the module's documentation).
pub fn generate(schema: &Value, seed: u64, strings: Strings) -> Generated {
    let mut g = Gen {
        root: schema,
        rng: Rng::new(seed),
        strings,
        sites: Vec::new(),
    };
    let mut path = Vec::new();
    let value = g.value(schema, &mut path, 0, false);
    Generated {
        value,
        sites: g.sites,
    }
}

/// The value `pointer` (a `#` fragment, RFC 6901, percent-decoded) names in `root`.
fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    let decoded = percent_decode(fragment);
    if decoded.is_empty() {
        return Some(root);
    }
    root.pointer(&decoded)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn number_bound(v: Option<&Value>) -> Option<serde_json::Number> {
    match v {
        Some(Value::Number(n)) => Some(n.clone()),
        _ => None,
    }
}

fn as_count(v: Option<&Value>) -> Option<u64> {
    v.and_then(|v| v.as_u64().or_else(|| v.as_f64().map(|f| f as u64)))
}

impl Gen<'_> {
    /// `schema` with `$ref` followed and `allOf` merged in, as one object.
    fn effective(&self, schema: &Value, depth: usize) -> Map<String, Value> {
        let Value::Object(map) = schema else {
            return Map::new();
        };
        let mut out = map.clone();
        if let Some(Value::String(r)) = map.get("$ref") {
            if depth < 32 {
                if let Some(target) = resolve(self.root, r) {
                    let target = self.effective(target, depth + 1);
                    out.remove("$ref");
                    for (k, v) in target {
                        out.entry(k).or_insert(v);
                    }
                }
            }
        }
        if let Some(Value::Array(parts)) = out.remove("allOf") {
            for part in &parts {
                let part = self.effective(part, depth + 1);
                for (k, v) in part {
                    match (k.as_str(), out.get_mut(&k)) {
                        ("properties", Some(Value::Object(mine))) => {
                            if let Value::Object(theirs) = v {
                                for (name, s) in theirs {
                                    mine.entry(name).or_insert(s);
                                }
                            }
                        }
                        ("required", Some(Value::Array(mine))) => {
                            if let Value::Array(theirs) = v {
                                for name in theirs {
                                    if !mine.contains(&name) {
                                        mine.push(name);
                                    }
                                }
                            }
                        }
                        (_, Some(_)) => {}
                        (_, None) => {
                            out.insert(k, v);
                        }
                    }
                }
            }
        }
        out
    }

    fn value(
        &mut self,
        schema: &Value,
        path: &mut Vec<Step>,
        depth: usize,
        in_choice: bool,
    ) -> Value {
        if let Value::Bool(_) = schema {
            return Value::String(self.word(None, None));
        }
        let s = self.effective(schema, 0);
        let mut site = Site {
            path: path.clone(),
            in_choice,
            ..Site::default()
        };
        site.types = match s.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        if let Some(c) = s.get("const") {
            self.sites.push(site);
            return c.clone();
        }
        if let Some(Value::Array(values)) = s.get("enum") {
            if !values.is_empty() {
                let v = self.rng.pick(values).clone();
                site.enum_values = Some(values.clone());
                self.sites.push(site);
                return v;
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = s.get(key) {
                if branches.is_empty() {
                    continue;
                }
                // Deep down, a branch that is only `null` ends a recursion.
                let null_branch = branches.iter().position(|b| {
                    self.effective(b, 0).get("type") == Some(&Value::String("null".into()))
                });
                let i = match null_branch {
                    Some(n) if depth >= DEEP => n,
                    // Mostly a non-null branch: null is the easy case.
                    Some(n) if branches.len() > 1 && !self.rng.chance(15) => {
                        let mut i = self.rng.below(branches.len() - 1);
                        if i >= n {
                            i += 1;
                        }
                        i
                    }
                    _ => self.rng.below(branches.len()),
                };
                let branch = branches[i].clone();
                // The branch's own keywords and the outer ones together.
                let mut merged = self.effective(&branch, 0);
                for (k, v) in &s {
                    if k != key {
                        merged.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
                return self.value(&Value::Object(merged), path, depth + 1, true);
            }
        }
        let ty = self.choose_type(&s, &site.types, depth);
        let v = match ty.as_str() {
            "null" => Value::Null,
            "boolean" => Value::Bool(self.rng.chance(50)),
            "integer" | "number" => self.number(&s, &mut site, ty == "integer"),
            "array" => {
                self.sites.push(site);
                return self.array(&s, path, depth);
            }
            "object" => {
                site.required = s
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| {
                        r.iter()
                            .filter_map(|n| n.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                site.closed = s.get("additionalProperties") == Some(&Value::Bool(false))
                    || s.get("unevaluatedProperties") == Some(&Value::Bool(false));
                self.sites.push(site);
                return self.object(&s, path, depth);
            }
            _ => self.string(&s, &mut site),
        };
        self.sites.push(site);
        v
    }

    fn choose_type(&mut self, s: &Map<String, Value>, types: &[String], depth: usize) -> String {
        if !types.is_empty() {
            if depth >= DEEP && types.iter().any(|t| t == "null") {
                return "null".to_string();
            }
            let non_null: Vec<&String> = types.iter().filter(|t| *t != "null").collect();
            if !non_null.is_empty() && (non_null.len() == types.len() || !self.rng.chance(15)) {
                return (*self.rng.pick(&non_null)).clone();
            }
            return self.rng.pick(types).clone();
        }
        let has = |k: &str| s.contains_key(k);
        if has("properties") || has("required") || has("additionalProperties") {
            "object"
        } else if has("items") || has("prefixItems") || has("minItems") || has("maxItems") {
            "array"
        } else if has("minimum") || has("maximum") || has("exclusiveMinimum") || has("multipleOf") {
            "number"
        } else {
            "string"
        }
        .to_string()
    }

    fn number(&mut self, s: &Map<String, Value>, site: &mut Site, integer: bool) -> Value {
        site.minimum = number_bound(s.get("minimum"));
        site.maximum = number_bound(s.get("maximum"));
        let f = |k: &str| s.get(k).and_then(Value::as_f64);
        let step = if integer { 1.0 } else { 0.5 };
        let mut lo = f("minimum").unwrap_or(f64::NEG_INFINITY);
        if let Some(x) = f("exclusiveMinimum") {
            lo = lo.max(if integer { x.floor() + 1.0 } else { x + step });
        }
        let mut hi = f("maximum").unwrap_or(f64::INFINITY);
        if let Some(x) = f("exclusiveMaximum") {
            hi = hi.min(if integer { x.ceil() - 1.0 } else { x - step });
        }
        // With no bound, small numbers as a model writes them; else inside the bounds.
        let (lo, hi) = match (lo.is_finite(), hi.is_finite()) {
            (true, true) => (lo, hi),
            (true, false) => (lo, lo + 100.0),
            (false, true) => (hi - 100.0, hi),
            (false, false) => (0.0, 100.0),
        };
        if hi < lo {
            return Value::from(lo);
        }
        let (lo_i, hi_i) = (lo.ceil() as i64, hi.floor() as i64);
        if let Some(m) = f("multipleOf").filter(|m| *m > 0.0) {
            let k_lo = (lo / m).ceil() as i64;
            let k_hi = (hi / m).floor() as i64;
            if k_hi >= k_lo {
                let k = k_lo + self.rng.below((k_hi - k_lo + 1).min(1000) as usize) as i64;
                let x = k as f64 * m;
                return if x.fract() == 0.0 && x.abs() < 1e15 {
                    Value::from(x as i64)
                } else {
                    Value::from(x)
                };
            }
        }
        if hi_i >= lo_i {
            let span = (hi_i - lo_i).min(1_000_000) as usize + 1;
            let n = lo_i + self.rng.below(span) as i64;
            if !integer && self.rng.chance(40) && (n as f64 + 0.25) <= hi {
                return Value::from(n as f64 + 0.25);
            }
            return Value::from(n);
        }
        Value::from((lo + hi) / 2.0)
    }

    fn word(&mut self, min: Option<u64>, max: Option<u64>) -> String {
        let pool = match self.strings {
            Strings::Ascii => ASCII_WORDS,
            Strings::NonAscii => NON_ASCII_WORDS,
        };
        let mut w = self.rng.pick(pool).to_string();
        let min = min.unwrap_or(0) as usize;
        while w.chars().count() < min {
            w.push(' ');
            let more = *self.rng.pick(pool);
            w.push_str(more);
        }
        if let Some(max) = max {
            let max = (max as usize).max(min);
            if w.chars().count() > max {
                w = w.chars().take(max).collect();
            }
        }
        w
    }

    fn string(&mut self, s: &Map<String, Value>, site: &mut Site) -> Value {
        site.min_length = as_count(s.get("minLength"));
        site.max_length = as_count(s.get("maxLength"));
        if let Some(Value::String(fmt)) = s.get("format") {
            site.format = Some(fmt.clone());
            if let Some(v) = self.formatted(fmt) {
                return Value::String(v);
            }
        }
        if let Some(Value::String(p)) = s.get("pattern") {
            for candidate in ["examples", "default"] {
                let found = match s.get(candidate) {
                    Some(Value::Array(xs)) => xs.iter().find_map(|x| x.as_str()),
                    Some(Value::String(x)) => Some(x.as_str()),
                    _ => None,
                };
                if let Some(x) = found.filter(|x| pattern_matches(p, x)) {
                    return Value::String(x.to_string());
                }
            }
            for _ in 0..8 {
                if let Some(x) = pattern_string(p, &mut self.rng) {
                    if pattern_matches(p, &x) {
                        return Value::String(x);
                    }
                }
            }
        }
        Value::String(self.word(site.min_length, site.max_length))
    }

    fn formatted(&mut self, fmt: &str) -> Option<String> {
        let r = &mut self.rng;
        let (mo, d, h, mi) = (1 + r.below(12), 1 + r.below(28), r.below(24), r.below(60));
        Some(match fmt {
            "date-time" => format!("2025-{mo:02}-{d:02}T{h:02}:{mi:02}:00Z"),
            "date" => format!("2025-{mo:02}-{d:02}"),
            "time" => format!("{h:02}:{mi:02}:00Z"),
            "duration" => format!("P{d}DT{h}H"),
            "email" | "idn-email" => format!("user{}@example.com", r.below(1000)),
            "hostname" | "idn-hostname" => format!("host{}.example.com", r.below(100)),
            "ipv4" => format!("192.168.{}.{}", r.below(256), 1 + r.below(254)),
            "ipv6" => format!("2001:db8::{:x}", 1 + r.below(0xfffe)),
            "uri" | "iri" => format!("https://example.com/items/{}", r.below(10_000)),
            "uri-reference" | "iri-reference" => format!("/items/{}", r.below(10_000)),
            "uri-template" => "https://example.com/items/{id}".to_string(),
            "uuid" => format!(
                "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                r.next_u64() as u32,
                r.next_u64() as u16,
                r.next_u64() as u16 & 0xfff,
                r.next_u64() as u16 & 0xfff,
                r.next_u64() & 0xffff_ffff_ffff
            ),
            "json-pointer" => "/items/0".to_string(),
            "relative-json-pointer" => "1/name".to_string(),
            "regex" => "^[a-z]+$".to_string(),
            _ => return None,
        })
    }

    fn array(&mut self, s: &Map<String, Value>, path: &mut Vec<Step>, depth: usize) -> Value {
        let min = as_count(s.get("minItems")).unwrap_or(0) as usize;
        let max = as_count(s.get("maxItems")).map(|m| m as usize);
        if let Some(site) = self.sites.last_mut() {
            site.min_items = as_count(s.get("minItems"));
            site.max_items = as_count(s.get("maxItems"));
        }
        let prefix: Vec<Value> = match (s.get("prefixItems"), s.get("items")) {
            (Some(Value::Array(p)), _) => p.clone(),
            (_, Some(Value::Array(p))) => p.clone(),
            _ => Vec::new(),
        };
        let items = match s.get("items") {
            Some(v @ (Value::Object(_) | Value::Bool(true))) => Some(v.clone()),
            _ => None,
        };
        let extra = if depth >= DEEP { 0 } else { self.rng.below(3) };
        let mut n = (min + extra).max(if depth >= DEEP { min } else { min.max(1) });
        if let Some(max) = max {
            n = n.min(max);
        }
        if items.is_none() {
            n = n.min(
                prefix
                    .len()
                    .max(if s.contains_key("items") { 0 } else { n }),
            );
        }
        let unique = s.get("uniqueItems") == Some(&Value::Bool(true));
        let mut out: Vec<Value> = Vec::with_capacity(n);
        let mut tries = 0;
        while out.len() < n && tries < n * 4 + 4 {
            tries += 1;
            let i = out.len();
            let sub = prefix.get(i).cloned().or_else(|| items.clone());
            path.push(Step::Index(i));
            let mark = self.sites.len();
            let v = match &sub {
                Some(sub) => self.value(sub, path, depth + 1, false),
                None => Value::String(self.word(None, None)),
            };
            path.pop();
            if unique && out.contains(&v) {
                self.sites.truncate(mark);
                continue;
            }
            out.push(v);
        }
        Value::Array(out)
    }

    fn object(&mut self, s: &Map<String, Value>, path: &mut Vec<Step>, depth: usize) -> Value {
        let props = s
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let required: Vec<String> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(|n| n.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let min_props = as_count(s.get("minProperties")).unwrap_or(0) as usize;
        let mut out = Map::new();
        // In name order, whatever order serde_json's map keeps (its `preserve_order`
        // feature differs between a workspace build and this crate's own): the same
        // seed then gives the same instance in both.
        let mut props: Vec<(&String, &Value)> = props.iter().collect();
        props.sort_by(|a, b| a.0.cmp(b.0));
        for (name, sub) in props.iter().copied() {
            let take = required.contains(name)
                || (depth < DEEP && self.rng.chance(60))
                || out.len() < min_props;
            if take {
                path.push(Step::Key(name.clone()));
                let v = self.value(sub, path, depth + 1, false);
                path.pop();
                out.insert(name.clone(), v);
            }
        }
        // A required name with no `properties` entry: any value will do.
        for name in &required {
            if !out.contains_key(name) {
                out.insert(name.clone(), Value::String(self.word(None, None)));
            }
        }
        // A map (`additionalProperties` a schema, no `properties`): one entry.
        if props.is_empty() && depth < DEEP {
            if let Some(extra @ Value::Object(_)) = s.get("additionalProperties") {
                let extra = extra.clone();
                path.push(Step::Key("key1".to_string()));
                let v = self.value(&extra, path, depth + 1, false);
                path.pop();
                out.insert("key1".to_string(), v);
            }
        }
        Value::Object(out)
    }
}

/// Whether the regex crate finds `pattern` in `text` (the patterns the generator
/// writes are in the subset where ECMA-262 and the regex crate agree).
fn pattern_matches(pattern: &str, text: &str) -> bool {
    regex::Regex::new(pattern)
        .map(|re| re.is_match(text))
        .unwrap_or(false)
}

/// A string for a simple pattern: literals, `\d \w \s .`, classes, groups with `|`,
/// and the quantifiers `? * + {n} {n,} {n,m}`. `None` for anything else.
pub fn pattern_string(pattern: &str, rng: &mut Rng) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut pos = 0;
    let mut out = String::new();
    alternation(&chars, &mut pos, rng, &mut out)?;
    (pos == chars.len()).then_some(out)
}

fn alternation(c: &[char], pos: &mut usize, rng: &mut Rng, out: &mut String) -> Option<()> {
    // Choose a branch by generating each into its own buffer and keeping one.
    let mut branches = vec![String::new()];
    loop {
        match c.get(*pos) {
            None | Some(')') => break,
            Some('|') => {
                *pos += 1;
                branches.push(String::new());
            }
            _ => {
                let b = branches.last_mut().expect("a branch");
                term(c, pos, rng, b)?;
            }
        }
    }
    let chosen = rng.pick(&branches).clone();
    out.push_str(&chosen);
    Some(())
}

fn term(c: &[char], pos: &mut usize, rng: &mut Rng, out: &mut String) -> Option<()> {
    // Each atom leaves the characters it may write in `pool`, or writes a group itself.
    let (pool, atom_end): (Vec<char>, usize) = match c[*pos] {
        '^' | '$' => {
            *pos += 1;
            return Some(());
        }
        '(' => return group(c, pos, rng, out),
        '[' => class(c, *pos)?,
        '\\' => {
            let pool = match *c.get(*pos + 1)? {
                'd' => ('0'..='9').collect(),
                'w' => ('a'..='z').chain(['_', 'Q', '7']).collect(),
                's' => vec![' '],
                other if other.is_ascii_alphanumeric() => return None,
                other => vec![other],
            };
            (pool, *pos + 2)
        }
        '.' => (vec!['a', 'b', 'x', '1'], *pos + 1),
        '*' | '+' | '?' | '{' | '|' | ')' => return None,
        ch => (vec![ch], *pos + 1),
    };
    let reps = quantifier(c, atom_end, pos, rng)?;
    for _ in 0..reps {
        out.push(*rng.pick(&pool));
    }
    Some(())
}

/// A group `(…)` or `(?:…)` at `pos`, with its quantifier.
fn group(c: &[char], pos: &mut usize, rng: &mut Rng, out: &mut String) -> Option<()> {
    let mut start = *pos + 1;
    if c.get(start) == Some(&'?') {
        if c.get(start + 1) != Some(&':') {
            return None;
        }
        start += 2;
    }
    let mut depth = 0;
    let mut j = start;
    while j < c.len() {
        match c[j] {
            '\\' => j += 1,
            '(' => depth += 1,
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            _ => {}
        }
        j += 1;
    }
    if j >= c.len() {
        return None;
    }
    let inner = &c[start..j];
    let reps = quantifier(c, j + 1, pos, rng)?;
    for _ in 0..reps {
        let mut p = 0;
        alternation(inner, &mut p, rng, out)?;
        if p != inner.len() {
            return None;
        }
    }
    Some(())
}

/// The characters a class `[…]` at `at` may write, and where it ends.
fn class(c: &[char], at: usize) -> Option<(Vec<char>, usize)> {
    let mut j = at + 1;
    let negated = c.get(j) == Some(&'^');
    if negated {
        j += 1;
    }
    let mut set: Vec<char> = Vec::new();
    let mut first = true;
    while j < c.len() && (c[j] != ']' || first) {
        first = false;
        let ch = if c[j] == '\\' {
            j += 1;
            let shorthand: Option<Vec<char>> = match c.get(j)? {
                'd' => Some(('0'..='9').collect()),
                'w' => Some(('a'..='z').chain(['_']).collect()),
                's' => Some(vec![' ']),
                _ => None,
            };
            if let Some(chars) = shorthand {
                set.extend(chars);
                j += 1;
                continue;
            }
            c[j]
        } else {
            c[j]
        };
        if c.get(j + 1) == Some(&'-') && c.get(j + 2).is_some_and(|e| *e != ']') {
            let end = c[j + 2];
            if end < ch {
                return None;
            }
            set.extend(ch..=end);
            j += 3;
        } else {
            set.push(ch);
            j += 1;
        }
    }
    if j >= c.len() {
        return None;
    }
    let pool: Vec<char> = if negated {
        "aZ0_-x. q".chars().filter(|ch| !set.contains(ch)).collect()
    } else {
        set
    };
    (!pool.is_empty()).then_some((pool, j + 1))
}

/// Reads the quantifier after the atom ending at `at`, moves `pos` past it, and returns
/// how many times to repeat the atom.
fn quantifier(c: &[char], at: usize, pos: &mut usize, rng: &mut Rng) -> Option<usize> {
    let (lo, hi, end) = match c.get(at) {
        Some('?') => (0, 1, at + 1),
        Some('*') => (0, 2, at + 1),
        Some('+') => (1, 3, at + 1),
        Some('{') => {
            let close = c[at..].iter().position(|ch| *ch == '}')? + at;
            let inner: String = c[at + 1..close].iter().collect();
            let (lo, hi) = match inner.split_once(',') {
                None => {
                    let n = inner.trim().parse().ok()?;
                    (n, n)
                }
                Some((a, "")) => {
                    let n: usize = a.trim().parse().ok()?;
                    (n, n + 2)
                }
                Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            };
            if hi < lo || hi > 1000 {
                return None;
            }
            (lo, hi, close + 1)
        }
        _ => (1, 1, at),
    };
    // A lazy quantifier's `?` changes nothing for a generator.
    let end = if end > at && c.get(end) == Some(&'?') {
        end + 1
    } else {
        end
    };
    *pos = end;
    Some(lo + rng.below(hi - lo + 1))
}

// ---------------------------------------------------------------------------------
// Mutants
// ---------------------------------------------------------------------------------

/// What a mutant breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MutantKind {
    WrongType,
    MissingRequired,
    ExtraProperty,
    OutOfBounds,
    BadFormat,
    BadEnum,
    /// The first member of the root object written twice, the first time with a value
    /// of the wrong type: a parser that keeps the last value sees a valid object.
    DuplicateKey,
    /// A number at a bound, written with more digits than an f64 holds (`100` as
    /// `100.0000000000000000001`): exact comparison says out of bounds, f64 says equal.
    BeyondF64,
}

impl MutantKind {
    pub const ALL: [MutantKind; 8] = [
        MutantKind::WrongType,
        MutantKind::MissingRequired,
        MutantKind::ExtraProperty,
        MutantKind::OutOfBounds,
        MutantKind::BadFormat,
        MutantKind::BadEnum,
        MutantKind::DuplicateKey,
        MutantKind::BeyondF64,
    ];

    pub fn label(self) -> &'static str {
        match self {
            MutantKind::WrongType => "wrong type",
            MutantKind::MissingRequired => "missing required",
            MutantKind::ExtraProperty => "extra property",
            MutantKind::OutOfBounds => "out of bounds",
            MutantKind::BadFormat => "bad format",
            MutantKind::BadEnum => "bad enum",
            MutantKind::DuplicateKey => "duplicate key",
            MutantKind::BeyondF64 => "beyond f64",
        }
    }
}

/// A mutant: its bytes, and for [`MutantKind::BeyondF64`] the same instance with that
/// number rounded through f64 (what a validator comparing f64 sees).
#[derive(Clone, Debug)]
pub struct Mutant {
    pub kind: MutantKind,
    pub bytes: Vec<u8>,
    pub rounded: Option<Vec<u8>>,
    /// The path of the value changed, as `$.a[0]`.
    pub at: String,
}

fn get_mut<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut cur = v;
    for s in path {
        cur = match (s, cur) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k)?,
            (Step::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

pub fn path_text(path: &[Step]) -> String {
    let mut s = "$".to_string();
    for p in path {
        match p {
            Step::Key(k) => {
                s.push('.');
                s.push_str(k);
            }
            Step::Index(i) => {
                s.push_str(&format!("[{i}]"));
            }
        }
    }
    s
}

/// A value of another JSON type than every one of `types` (and than `current`).
fn other_type_value(types: &[String], current: &Value) -> Value {
    let candidates = [
        ("string", Value::String("not the right type".into())),
        ("integer", Value::from(12345)),
        ("boolean", Value::Bool(true)),
        ("object", Value::Object(Map::new())),
        ("array", Value::Array(vec![Value::from(1)])),
        ("null", Value::Null),
    ];
    let allowed = |t: &str| {
        types
            .iter()
            .any(|a| a == t || (a == "number" && t == "integer"))
    };
    let same_kind = |v: &Value| std::mem::discriminant(v) == std::mem::discriminant(current);
    candidates
        .into_iter()
        .find(|(t, v)| !allowed(t) && !same_kind(v))
        .map(|(_, v)| v)
        .unwrap_or(Value::String("not the right type".into()))
}

fn bad_format_text(fmt: &str) -> Option<&'static str> {
    Some(match fmt {
        "date-time" => "2025-13-01T25:61:00Z",
        "date" => "2025-02-30",
        "time" => "25:61:00",
        "duration" => "P1Y2",
        "email" | "idn-email" => "not an email",
        "hostname" | "idn-hostname" => "-bad-.example..com",
        "ipv4" => "256.1.1.1",
        "ipv6" => "2001:db8:::1::",
        "uri" | "iri" => "no scheme here",
        "uri-reference" | "iri-reference" => "\\\\bad reference",
        "uri-template" => "https://example.com/{unclosed",
        "uuid" => "123e4567-e89b-12d3-a456-42661417400",
        "json-pointer" => "no-leading-slash",
        "relative-json-pointer" => "-1/a",
        "regex" => "[unclosed",
        _ => return None,
    })
}

/// The text of a number just past `bound` in `direction` (+1 above, -1 below) by less
/// than an f64 can tell (it parses to the bound's own f64), or `None` when there is no
/// such text the generator writes (an exponent, a bound near zero, a huge bound).
fn beyond_f64(bound: &serde_json::Number, direction: i32) -> Option<String> {
    let text = bound.to_string();
    if text.contains(['e', 'E']) {
        return None;
    }
    let f: f64 = text.parse().ok()?;
    if f.abs() >= 1e12 {
        return None;
    }
    let (int_part, frac) = match text.split_once('.') {
        Some((i, f)) => (i.to_string(), f.to_string()),
        None => (text.clone(), String::new()),
    };
    let negative = int_part.starts_with('-');
    let away_from_zero = (direction > 0) != negative;
    let out = if away_from_zero {
        // |bound| + 1e-22, written exactly.
        let mut frac = frac;
        while frac.len() < 21 {
            frac.push('0');
        }
        frac.push('1');
        format!("{int_part}.{frac}")
    } else {
        // |bound| - 1e-22: written for integers only, as (|b| - 1).999…9.
        if !frac.is_empty() {
            return None;
        }
        let abs: i64 = int_part.trim_start_matches('-').parse().ok()?;
        if abs == 0 {
            return None;
        }
        let sign = if negative { "-" } else { "" };
        format!("{sign}{}.{}", abs - 1, "9".repeat(22))
    };
    (out.parse::<f64>().ok()? == f).then_some(out)
}

const PLACEHOLDER: &str = "@@tg-number@@";

/// The mutants of `g`: at most one of each kind, at a site chosen by `rng`.
pub fn mutants(g: &Generated, rng: &mut Rng) -> Vec<Mutant> {
    let mut out = Vec::new();
    for kind in MutantKind::ALL {
        let candidates: Vec<&Site> = g
            .sites
            .iter()
            .filter(|s| get_mut(&mut g.value.clone(), &s.path).is_some())
            .filter(|s| applies(kind, s, &g.value))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let site = *rng.pick(&candidates);
        if let Some(m) = apply(kind, site, g, rng) {
            out.push(m);
        }
    }
    out
}

fn applies(kind: MutantKind, s: &Site, root: &Value) -> bool {
    let mut copy = root.clone();
    let v = get_mut(&mut copy, &s.path).cloned().unwrap_or(Value::Null);
    match kind {
        MutantKind::WrongType => !s.types.is_empty(),
        MutantKind::MissingRequired => v
            .as_object()
            .is_some_and(|o| s.required.iter().any(|r| o.contains_key(r))),
        MutantKind::ExtraProperty => v.is_object() && s.closed,
        MutantKind::OutOfBounds => {
            (v.is_number() && (s.minimum.is_some() || s.maximum.is_some()))
                || (v.is_string() && (s.max_length.is_some() || s.min_length.unwrap_or(0) > 0))
                || (v.is_array() && (s.max_items.is_some() || s.min_items.unwrap_or(0) > 0))
        }
        MutantKind::BadFormat => {
            v.is_string() && s.format.as_deref().and_then(bad_format_text).is_some()
        }
        MutantKind::BadEnum => s.enum_values.is_some(),
        MutantKind::DuplicateKey => {
            s.path.is_empty() && v.as_object().is_some_and(|o| !o.is_empty())
        }
        MutantKind::BeyondF64 => {
            v.is_number()
                && (s
                    .maximum
                    .as_ref()
                    .is_some_and(|b| beyond_f64(b, 1).is_some())
                    || s.minimum
                        .as_ref()
                        .is_some_and(|b| beyond_f64(b, -1).is_some()))
        }
    }
}

fn apply(kind: MutantKind, s: &Site, g: &Generated, rng: &mut Rng) -> Option<Mutant> {
    let mut value = g.value.clone();
    let at = path_text(&s.path);
    let target = get_mut(&mut value, &s.path)?;
    let mut rounded = None;
    match kind {
        MutantKind::WrongType => *target = other_type_value(&s.types, target),
        MutantKind::MissingRequired => {
            let o = target.as_object_mut()?;
            let present: Vec<&String> = s.required.iter().filter(|r| o.contains_key(*r)).collect();
            let name = (*rng.pick(&present)).clone();
            o.remove(&name);
        }
        MutantKind::ExtraProperty => {
            target
                .as_object_mut()?
                .insert("unexpected_extra_property".into(), Value::from(1));
        }
        MutantKind::OutOfBounds => match target {
            Value::Number(_) => {
                *target = match (&s.maximum, &s.minimum) {
                    (Some(max), _) => Value::from(max.as_f64()? + 1.0),
                    (None, Some(min)) => Value::from(min.as_f64()? - 1.0),
                    _ => return None,
                };
                if let Value::Number(n) = &*target {
                    if n.as_f64()
                        .is_some_and(|f| f.fract() == 0.0 && f.abs() < 1e15)
                    {
                        *target = Value::from(n.as_f64()? as i64);
                    }
                }
            }
            Value::String(text) => {
                *text = match (s.max_length, s.min_length) {
                    (Some(max), _) => "x".repeat(max as usize + 1),
                    (None, Some(min)) if min > 0 => "x".repeat(min as usize - 1),
                    _ => return None,
                };
            }
            Value::Array(items) => match (s.max_items, s.min_items) {
                (Some(max), _) => {
                    let filler = items.first().cloned().unwrap_or(Value::Null);
                    while items.len() <= max as usize {
                        items.push(filler.clone());
                    }
                }
                (None, Some(min)) if min > 0 => items.truncate(min as usize - 1),
                _ => return None,
            },
            _ => return None,
        },
        MutantKind::BadFormat => {
            *target = Value::String(bad_format_text(s.format.as_deref()?)?.to_string())
        }
        MutantKind::BadEnum => *target = Value::String("__not_one_of_the_values__".into()),
        MutantKind::DuplicateKey => {
            let o = target.as_object()?;
            let (k, v) = o.iter().next()?;
            let wrong = other_type_value(&[], v);
            let rest = serde_json::to_vec(&g.value).ok()?;
            let mut bytes = b"{".to_vec();
            bytes.extend(serde_json::to_vec(&Value::String(k.clone())).ok()?);
            bytes.push(b':');
            bytes.extend(serde_json::to_vec(&wrong).ok()?);
            bytes.push(b',');
            bytes.extend_from_slice(&rest[1..]);
            return Some(Mutant {
                kind,
                bytes,
                rounded: Some(rest),
                at,
            });
        }
        MutantKind::BeyondF64 => {
            let text = match (&s.maximum, &s.minimum) {
                (Some(max), _) if beyond_f64(max, 1).is_some() => beyond_f64(max, 1)?,
                (_, Some(min)) => beyond_f64(min, -1)?,
                _ => return None,
            };
            let as_f64: f64 = text.parse().ok()?;
            *target = Value::String(PLACEHOLDER.into());
            let template = serde_json::to_string(&value).ok()?;
            let quoted = format!("\"{PLACEHOLDER}\"");
            let bytes = template.replacen(&quoted, &text, 1).into_bytes();
            let f64_text = if as_f64.fract() == 0.0 && as_f64.abs() < 1e15 {
                format!("{}", as_f64 as i64)
            } else {
                format!("{as_f64:?}")
            };
            rounded = Some(template.replacen(&quoted, &f64_text, 1).into_bytes());
            return Some(Mutant {
                kind,
                bytes,
                rounded,
                at,
            });
        }
    }
    Some(Mutant {
        kind,
        bytes: serde_json::to_vec(&value).ok()?,
        rounded,
        at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_same_start_gives_the_same_instance() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer", "minimum": 3, "maximum": 9}}, "required": ["a"]});
        let a = generate(&schema, 7, Strings::Ascii).bytes();
        let b = generate(&schema, 7, Strings::Ascii).bytes();
        assert_eq!(a, b);
        let v: Value = serde_json::from_slice(&a).unwrap();
        assert!(v["a"].is_string());
        if let Some(b) = v.get("b") {
            let b = b.as_i64().unwrap();
            assert!((3..=9).contains(&b), "{b}");
        }
    }

    #[test]
    fn patterns_of_the_subset_get_a_matching_string() {
        let mut rng = Rng::new(1);
        for p in [
            r"^\(\d{3}\) \d{3}-\d{4}$",
            r"^\d{4}-\d{2}-\d{2}$",
            r"^[A-Z]{3}$",
            r"^(foo|bar)+[a-f0-9]{2,4}$",
            r"^#[0-9a-fA-F]{6}$",
        ] {
            let s = pattern_string(p, &mut rng).unwrap_or_else(|| panic!("{p}"));
            assert!(pattern_matches(p, &s), "{p}: {s:?}");
        }
        assert!(pattern_string(r"^(?=a)b$", &mut rng).is_none());
    }

    #[test]
    fn beyond_f64_texts_round_to_the_bound() {
        for (bound, dir, text) in [
            (json!(100), 1, "100.0000000000000000000001"),
            (json!(1), -1, "0.9999999999999999999999"),
            (json!(-5), 1, "-4.9999999999999999999999"),
            (json!(2.5), 1, "2.5000000000000000000001"),
        ] {
            let Value::Number(n) = bound else {
                unreachable!()
            };
            let got = beyond_f64(&n, dir).unwrap();
            assert_eq!(got, text);
            assert_eq!(got.parse::<f64>().unwrap(), n.as_f64().unwrap());
        }
        // Near zero, 1e-22 is an f64 of its own.
        assert_eq!(beyond_f64(&serde_json::Number::from(0), 1), None);
        assert_eq!(beyond_f64(&serde_json::Number::from(0), -1), None);
    }

    #[test]
    fn mutants_break_what_they_say() {
        let schema = json!({"type": "object", "properties": {
            "when": {"type": "string", "format": "date-time"},
            "n": {"type": "integer", "minimum": 1, "maximum": 10},
            "kind": {"enum": ["a", "b"]}
        }, "required": ["when", "n", "kind"], "additionalProperties": false});
        let g = generate(&schema, 3, Strings::Ascii);
        let ms = mutants(&g, &mut Rng::new(3));
        let kinds: Vec<MutantKind> = ms.iter().map(|m| m.kind).collect();
        for k in [
            MutantKind::WrongType,
            MutantKind::MissingRequired,
            MutantKind::ExtraProperty,
            MutantKind::OutOfBounds,
            MutantKind::BadFormat,
            MutantKind::BadEnum,
            MutantKind::DuplicateKey,
            MutantKind::BeyondF64,
        ] {
            assert!(kinds.contains(&k), "no {k:?} in {kinds:?}");
        }
        let dup = ms
            .iter()
            .find(|m| m.kind == MutantKind::DuplicateKey)
            .unwrap();
        let text = String::from_utf8(dup.bytes.clone()).unwrap();
        let first = g.value.as_object().unwrap().keys().next().unwrap();
        assert_eq!(text.matches(&format!("\"{first}\":")).count(), 2, "{text}");
        // Without the first occurrence, it is the valid instance again.
        assert_eq!(dup.rounded.as_deref(), Some(&g.bytes()[..]));
    }

    /// The generator follows `$ref` into `$defs` and `definitions`, picks `oneOf`
    /// branches by their `const`, writes formats and exclusive bounds: jsonschema (with
    /// formats on) accepts what it writes for the full-profile benchmark schemas.
    #[test]
    fn generated_instances_of_the_full_profile_schemas_are_valid() {
        for case in crate::full::FULL_CASES.iter().filter(|c| c.valid) {
            let schema: Value = serde_json::from_str(case.schema).unwrap();
            let v = crate::jsonschema_formats(&schema).unwrap();
            for seed in 0..20 {
                for strings in [Strings::Ascii, Strings::NonAscii] {
                    let g = generate(&schema, seed, strings);
                    let errors: Vec<String> =
                        v.iter_errors(&g.value).map(|e| e.to_string()).collect();
                    assert!(errors.is_empty(), "{}: {} {errors:?}", case.name, g.value);
                }
            }
        }
    }
}
