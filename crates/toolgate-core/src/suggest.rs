//! Near misses: the list of available names an unknown-tool refusal shows and, when
//! one name is close to what was asked for, a `did you mean` that can be acted on in
//! one round trip (for an unknown tool, and for an unknown schema keyword).

/// How many names the refusal lists before `... (N more)`: enough for any prompt
/// a model can use, bounded so 10,000 tools do not flood its context.
pub(crate) const LISTED_NAMES: usize = 64;

/// The largest edit distance still worth suggesting. Beyond 2 edits on names of a
/// few characters, "close" stops meaning "probably a typo".
const MAX_DISTANCE: u8 = 2;

/// Every accepted name is ASCII and at most 128 bytes (the MCP policy), so one
/// row of the distance table never needs more cells than this.
const MAX_CANDIDATE: usize = 128;
const ROW: usize = MAX_CANDIDATE + 2;

/// `a, b, c` from names already in byte order; `(none)` for an empty registry; past
/// [`LISTED_NAMES`] names, `, ... (N more)`.
pub(crate) fn available_list<'a, I>(sorted_names: I) -> String
where
    I: ExactSizeIterator<Item = &'a str>,
{
    let total = sorted_names.len();
    if total == 0 {
        return "(none)".to_owned();
    }
    let mut out = String::new();
    for (i, name) in sorted_names.take(LISTED_NAMES).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(name);
    }
    if total > LISTED_NAMES {
        out.push_str(&format!(", ... ({} more)", total - LISTED_NAMES));
    }
    out
}

/// The registered name closest to `wanted`, if any is close: equal ignoring ASCII
/// case, or within [`MAX_DISTANCE`] edits (insertions, deletions, substitutions and
/// swaps of two adjacent characters, i.e. optimal-string-alignment Damerau distance,
/// which is never more than plain Levenshtein). A case-only difference ranks first,
/// then the smaller distance; `candidates` come in byte order and the first of equals
/// wins, so ties go to the smallest name.
pub(crate) fn closest<'a, I>(wanted: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let wanted = decoded(wanted)?;
    let mut best: Option<(u8, &'a str)> = None;
    for name in candidates {
        let Some(score) = rank(&wanted, name) else {
            continue;
        };
        if best.is_none_or(|(s, _)| score < s) {
            best = Some((score, name));
        }
    }
    best.map(|(_, name)| name)
}

/// The one candidate closest to `wanted` by the rule of [`closest`], when no other is
/// as close: with two equally close (`cit` for `city` and `cite`), which was meant
/// cannot be told, and nothing is suggested. For an unexpected property among the
/// declared ones, which come in the author's order (so a tie has no natural winner).
/// One pass, `wanted` decoded once: this runs for every unexpected property of a
/// refused call.
pub(crate) fn closest_unambiguous<'a, I>(wanted: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let wanted = decoded(wanted)?;
    let (mut best, mut ties): (Option<(u8, &'a str)>, usize) = (None, 0);
    for name in candidates {
        let Some(score) = rank(&wanted, name) else {
            continue;
        };
        match best {
            Some((s, _)) if score > s => {}
            Some((s, _)) if score == s => ties += 1,
            _ => (best, ties) = (Some((score, name)), 1),
        }
    }
    best.filter(|_| ties == 1).map(|(_, name)| name)
}

/// `wanted` as characters, or `None` when it is too long to be close to any name:
/// names are at most 128 characters, so a request longer than that plus the allowed
/// edits cannot be close to any, and the rest of it is not even decoded.
fn decoded(wanted: &str) -> Option<Vec<char>> {
    const LONGEST: usize = MAX_CANDIDATE + MAX_DISTANCE as usize;
    // Sized once (a `take` of `chars` gives `collect` no size to start from, and the
    // vector grew from nothing: most of this function's cost).
    let mut chars = Vec::with_capacity(wanted.len().min(LONGEST + 1));
    chars.extend(wanted.chars().take(LONGEST + 1));
    (chars.len() <= LONGEST).then_some(chars)
}

/// The rank [`closest`] gives a candidate: 0 for a case-only difference, else the
/// distance plus one (so a case-only match outranks a real edit at distance 1);
/// `None` when the candidate is not close.
fn rank(wanted: &[char], name: &str) -> Option<u8> {
    if eq_ignore_ascii_case(wanted, name) {
        Some(0)
    } else {
        osa_distance_at_most(wanted, name.as_bytes(), MAX_DISTANCE).map(|d| d + 1)
    }
}

fn eq_ignore_ascii_case(wanted: &[char], name: &str) -> bool {
    wanted.len() == name.len()
        && wanted
            .iter()
            .zip(name.bytes())
            .all(|(&c, b)| c.is_ascii() && (c as u8).eq_ignore_ascii_case(&b))
}

/// The optimal-string-alignment distance between `a` and the ASCII name `b`, or
/// `None` when it exceeds `max`.
///
/// Only the diagonal band `|i - j| <= max` of the table can hold a value `<= max`,
/// so only that band is computed (O(len * max) rather than O(len^2)), and the walk
/// stops as soon as a whole row exceeds `max`. With 10,000 registered tools an
/// unknown name therefore costs a few milliseconds at most, not seconds.
fn osa_distance_at_most(a: &[char], b: &[u8], max: u8) -> Option<u8> {
    let (n, m) = (a.len(), b.len());
    let k = usize::from(max);
    if n.abs_diff(m) > k || m > MAX_CANDIDATE || n > MAX_CANDIDATE + k {
        return None;
    }
    let big = max + 1;
    // Three rows (i-2, i-1, i) in one flat array, rotated by index. Cells outside the
    // band hold `big`: the band edges are reset on every row, which is all the next
    // two rows ever read outside their own band.
    let mut rows = [big; 3 * ROW];
    for (j, cell) in rows.iter_mut().enumerate().take(m.min(k) + 1) {
        *cell = j as u8;
    }
    let eq = |i: usize, j: usize| a[i].is_ascii() && a[i] as u8 == b[j];
    for i in 1..=n {
        let cur = (i % 3) * ROW;
        let prev = ((i + 2) % 3) * ROW;
        let prev2 = ((i + 1) % 3) * ROW;
        let lo = i.saturating_sub(k).max(1);
        let hi = (i + k).min(m);
        rows[cur] = if i <= k { i as u8 } else { big };
        if lo > 1 {
            rows[cur + lo - 1] = big;
        }
        let mut row_min = rows[cur];
        for j in lo..=hi {
            let cost = u8::from(!eq(i - 1, j - 1));
            let mut v = (rows[prev + j - 1] + cost)
                .min(rows[prev + j] + 1)
                .min(rows[cur + j - 1] + 1);
            if i > 1 && j > 1 && eq(i - 1, j - 2) && eq(i - 2, j - 1) {
                v = v.min(rows[prev2 + j - 2] + 1);
            }
            let v = v.min(big);
            rows[cur + j] = v;
            row_min = row_min.min(v);
        }
        if hi < m {
            rows[cur + hi + 1] = big;
        }
        if row_min > max {
            return None;
        }
    }
    let d = rows[(n % 3) * ROW + m];
    (d <= max).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unambiguous_suggestion_needs_one_closest_candidate() {
        assert_eq!(closest_unambiguous("cty", ["city", "days"]), Some("city"));
        assert_eq!(closest_unambiguous("cit", ["city", "cite"]), None);
        // A case-only match outranks an edit, so it is not a tie.
        assert_eq!(closest_unambiguous("City", ["city", "cite"]), Some("city"));
        assert_eq!(closest_unambiguous("zzzz", ["city"]), None);
    }

    fn dist(a: &str, b: &str) -> Option<u8> {
        let a: Vec<char> = a.chars().collect();
        osa_distance_at_most(&a, b.as_bytes(), 2)
    }

    /// Full-table OSA distance, the reference the banded version must agree with.
    fn reference(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        d[a.len()][b.len()]
    }

    #[test]
    fn distances() {
        assert_eq!(dist("get_weather", "get_weather"), Some(0));
        assert_eq!(dist("get_weathr", "get_weather"), Some(1));
        assert_eq!(dist("gte_weather", "get_weather"), Some(1));
        assert_eq!(dist("get_wether_", "get_weather"), Some(2));
        assert_eq!(dist("weather", "get_weather"), None);
        assert_eq!(dist("", "ab"), Some(2));
        assert_eq!(dist("", "abc"), None);
        assert_eq!(dist("gét_weather", "get_weather"), Some(1));
    }

    #[test]
    fn banded_agrees_with_full_table() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "acb",
            "bca",
            "abcd",
            "abdc",
            "xbcd",
            "abcde",
            "get",
            "gte",
            "tge",
            "get_user",
            "get_usr",
            "git_user",
            "getuser",
            "db.get_user",
            "db.get_usre",
            "aaaa",
            "aaa",
            "aaaaa",
            "abab",
            "baba",
        ];
        for a in words {
            for b in words {
                let full = reference(a, b);
                let expect = (full <= 2).then_some(full as u8);
                assert_eq!(dist(a, b), expect, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn picks_closest_then_smallest() {
        let names = ["get_time", "get_weather", "set_weather"];
        assert_eq!(closest("get_wheather", names), Some("get_weather"));
        assert_eq!(closest("Get_Weather", names), Some("get_weather"));
        // "xet_weather" is one edit from both: byte order decides.
        assert_eq!(closest("xet_weather", names), Some("get_weather"));
        assert_eq!(closest("delete_everything", names), None);
        assert_eq!(closest(&"x".repeat(10_000), names), None);
    }

    #[test]
    fn list_is_bounded() {
        assert_eq!(available_list(Vec::<&str>::new().into_iter()), "(none)");
        assert_eq!(available_list(["a", "b"].into_iter()), "a, b");
        let names: Vec<String> = (0..70).map(|i| format!("t{i:02}")).collect();
        let list = available_list(names.iter().map(String::as_str));
        assert!(list.starts_with("t00, t01, "));
        assert!(list.ends_with(", t63, ... (6 more)"), "{list}");
    }
}
