//! Timing shared by the benchmark binaries: medians, and two contenders timed in
//! alternating passes so that a change in the machine's load between them stays out
//! of their ratio.

use std::time::{Duration, Instant};

/// The middle sample (of an even count, the upper of the two middle ones).
pub fn median<T: Copy + PartialOrd>(mut samples: Vec<T>) -> T {
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    samples[samples.len() / 2]
}

/// Two contenders timed in alternating passes.
#[derive(Clone, Copy, Debug)]
pub struct Paired {
    /// The median time of `ours`'s passes.
    pub ours: Duration,
    /// The median time of `theirs`'s passes.
    pub theirs: Duration,
    /// The median of the passes' ratios, each `theirs ÷ ours` of one pair.
    pub ratio: f64,
}

/// `rounds` pairs of passes, `ours` then `theirs` in each. The ratio is taken within
/// each pair and its median reported: timing all of one contender's rounds and then
/// the other's puts any change in the machine's load between the two blocks into the
/// ratio.
pub fn paired(rounds: usize, mut ours: impl FnMut(), mut theirs: impl FnMut()) -> Paired {
    let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds.max(1) {
        let t = Instant::now();
        ours();
        let ta = t.elapsed();
        let t = Instant::now();
        theirs();
        let tb = t.elapsed();
        ratios.push(tb.as_secs_f64() / ta.as_secs_f64());
        a.push(ta);
        b.push(tb);
    }
    Paired {
        ours: median(a),
        theirs: median(b),
        ratio: median(ratios),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_is_the_middle_sample_whatever_the_order() {
        assert_eq!(median(vec![3, 1, 2]), 2);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 3.0);
    }

    #[test]
    fn paired_times_each_contender_once_per_round_in_turn() {
        let order = std::cell::RefCell::new(Vec::new());
        paired(
            3,
            || order.borrow_mut().push('a'),
            || order.borrow_mut().push('b'),
        );
        assert_eq!(order.into_inner(), ['a', 'b', 'a', 'b', 'a', 'b']);
    }
}
