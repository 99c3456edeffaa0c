//! The stretches of aligned ticks where two runs decide differently: one rule for every
//! profile, which says what "differs" means and when a stretch splits.

/// Consecutive aligned pairs whose decisions differ: indices into the pairs, both inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Index of the first pair of the run.
    pub first: usize,
    /// Index of the last pair of the run.
    pub last: usize,
}

impl Run {
    /// Pairs in the run.
    pub fn len(&self) -> usize {
        self.last - self.first + 1
    }

    /// Whether the run is empty (never: a run holds at least its first pair).
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// An aligned pair: the old side's tick and the new side's, either missing.
pub type Pair<'a, T> = (Option<&'a T>, Option<&'a T>);

/// The runs of consecutive pairs for which `differs` holds; a pair that differs starts a new
/// run unless `continues(first pair of the open run, pair)` says it carries on that run.
pub fn differing_runs<T>(
    pairs: &[Pair<'_, T>],
    differs: impl Fn(&Pair<'_, T>) -> bool,
    continues: impl Fn(&Pair<'_, T>, &Pair<'_, T>) -> bool,
) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut open = false;
    for (index, pair) in pairs.iter().enumerate() {
        if !differs(pair) {
            open = false;
            continue;
        }
        if open
            && let Some(run) = runs.last_mut()
            && pairs
                .get(run.first)
                .is_some_and(|first| continues(first, pair))
        {
            run.last = index;
            continue;
        }
        runs.push(Run {
            first: index,
            last: index,
        });
        open = true;
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::{Pair, Run, differing_runs};

    fn pairs<'a>(old: &'a [i32], new: &'a [i32]) -> Vec<Pair<'a, i32>> {
        old.iter()
            .zip(new)
            .map(|(a, b)| (Some(a), Some(b)))
            .collect()
    }

    fn runs(pairs: &[Pair<'_, i32>], split: bool) -> Vec<(usize, usize, usize)> {
        differing_runs(
            pairs,
            |(a, b)| a != b,
            |first, pair| !split || first == pair,
        )
        .iter()
        .map(|r: &Run| (r.first, r.last, r.len()))
        .collect()
    }

    #[test]
    fn equal_pairs_close_a_run_and_differing_ones_open_it() {
        let (old, new) = ([1, 1, 1, 1, 1, 1], [1, 2, 2, 1, 3, 3]);
        assert_eq!(runs(&pairs(&old, &new), false), [(1, 2, 2), (4, 5, 2)]);
        assert!(runs(&pairs(&old, &old), false).is_empty());
    }

    #[test]
    fn a_run_splits_where_the_continuation_rule_says_so() {
        let (old, new) = ([1, 1, 1, 1], [2, 2, 3, 3]);
        assert_eq!(runs(&pairs(&old, &new), false), [(0, 3, 4)]);
        assert_eq!(runs(&pairs(&old, &new), true), [(0, 1, 2), (2, 3, 2)]);
    }

    #[test]
    fn a_missing_side_is_for_the_differs_rule_to_judge() {
        let one = 1;
        let pairs: Vec<Pair<'_, i32>> = vec![(Some(&one), None), (None, Some(&one))];
        let missing_differs = differing_runs(&pairs, |(a, b)| a != b, |_, _| true);
        assert_eq!(missing_differs, [Run { first: 0, last: 1 }]);
        let only_paired = differing_runs(&pairs, |(a, b)| a.zip(*b).is_some(), |_, _| true);
        assert!(only_paired.is_empty());
    }
}
