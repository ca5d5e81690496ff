//! What a `pattern` costs on top of the strings it checks: the calendar tool's three
//! patterns (`create_calendar_event` in `benches/inputs.jsonl`), each on an array of three
//! strings of different lengths (the call's three e-mails; three date-times with and without
//! seconds and offset; three colours), against the same array whose items are checked
//! by `{"type":"string","minLength":1}`. Three lengths, as in a real call: a single
//! string repeated lets the branch predictor learn where every loop ends. The two
//! contenders run moments apart in each round; the figures are medians of the rounds'
//! own differences and ratios, so a drift of the machine's speed mostly cancels.
//!
//! A peer runs beside them: the plain array, then the `regex` crate's `is_match` on
//! each of its strings (what a validator that hands its patterns to `regex` adds;
//! jsonschema does). Our pattern's cost divided by the regex crate's on the same
//! strings says whether the matcher or the work itself is what a pattern costs.
//!
//! `cargo run -p toolgate-bench --release --bin pattern_cost`
//! (run it at two commits to compare matchers).

use std::hint::black_box;
use std::time::Instant;
use toolgate_core::Schema;

const ROUNDS: usize = 31;
const CALLS: u32 = 200_000;

/// The time of one `op`, averaged over `CALLS`.
fn ns_per_call(mut op: impl FnMut() -> bool) -> f64 {
    let t = Instant::now();
    for _ in 0..CALLS {
        black_box(op());
    }
    t.elapsed().as_nanos() as f64 / f64::from(CALLS)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let cases = [
        (
            "e-mail (automaton, 9 rows)",
            r#"{"type":"string","pattern":"^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$"}"#,
            r#"["ada@example.com","grace.hopper@navy.example.org","linus@kernel.example"]"#,
        ),
        (
            "date-time (four shapes)",
            r#"{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2})?(Z|[+-]\\d{2}:\\d{2})$"}"#,
            r#"["2025-07-01T09:30:00+02:00","2025-07-01T09:30Z","2025-07-01T09:30:00Z"]"#,
        ),
        (
            "colour (fixed width)",
            r#"{"type":"string","pattern":"^#[0-9a-fA-F]{6}$"}"#,
            r##"["#3366ff","#000000","#FFFFFF"]"##,
        ),
    ];
    let plain = Schema::compile(br#"{"type":"array","items":{"type":"string","minLength":1}}"#)
        .expect("compiles");
    println!("| pattern | array | plain strings, ns | with the pattern, ns | the pattern (3 strings), ns | with ÷ plain | plain + `regex`, ns | `regex` (3 strings), ns | the pattern ÷ `regex` |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, schema, input) in cases {
        let with = Schema::compile(format!(r#"{{"type":"array","items":{schema}}}"#).as_bytes())
            .expect("compiles");
        let strings: Vec<&str> = serde_json::from_str(input).expect("an array of strings");
        let pattern = serde_json::from_str::<serde_json::Value>(schema).expect("JSON")["pattern"]
            .as_str()
            .expect("a pattern")
            .to_owned();
        let re = regex::Regex::new(&pattern).expect("regex compiles");
        let input = input.as_bytes();
        assert!(with.is_valid(input) && plain.is_valid(input), "{name}");
        assert!(strings.iter().all(|s| re.is_match(s)), "{name}: regex");
        let (mut a, mut b, mut diff, mut ratio) = (vec![], vec![], vec![], vec![]);
        let (mut c, mut peer_diff, mut peer_ratio) = (vec![], vec![], vec![]);
        for _ in 0..ROUNDS {
            let p = ns_per_call(|| plain.is_valid(black_box(input)));
            let w = ns_per_call(|| with.is_valid(black_box(input)));
            let r = ns_per_call(|| {
                let mut ok = plain.is_valid(black_box(input));
                for s in &strings {
                    ok &= re.is_match(black_box(s));
                }
                ok
            });
            a.push(p);
            b.push(w);
            c.push(r);
            diff.push(w - p);
            ratio.push(w / p);
            peer_diff.push(r - p);
            peer_ratio.push((w - p) / (r - p));
        }
        println!(
            "| {name} | {} bytes | {:.1} | {:.1} | {:.1} | {:.2}x | {:.1} | {:.1} | {:.2}x |",
            input.len(),
            median(a),
            median(b),
            median(diff),
            median(ratio),
            median(c),
            median(peer_diff),
            median(peer_ratio)
        );
    }
}
