//! "Did you mean ...?": the one rule by which every error of every file type (trees, configs,
//! parameters, scenarios) suggests a name for a misspelt one.

/// The candidate nearest to `wanted` when it is close enough to be a typo: at most one edit
/// per three characters of the longer name (at least one), counted without regard to case
/// and with swapped neighbours as one edit; never `wanted` itself. On a tie, the first
/// candidate wins.
pub fn nearest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = wanted.to_lowercase();
    let wanted_len = wanted.chars().count();
    candidates
        .into_iter()
        .filter(|c| *c != wanted)
        .map(|c| (edit_distance(&lower, &c.to_lowercase()), c))
        .filter(|&(d, c)| d <= (wanted_len.max(c.chars().count()) / 3).max(1))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Edit distance over characters counting insertions, deletions, substitutions and swaps of
/// neighbours (optimal string alignment), so `flga` is one edit from `flag`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j] = distance between a[..i] and b[..j]
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
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("flga", "flag"), 1);
        assert_eq!(edit_distance("Striker", "Striker"), 0);
    }

    #[test]
    fn only_close_names_are_suggested() {
        let names = ["last_ball_timeout", "team_ball_timeout", "interception"];
        assert_eq!(
            nearest("last_bal_timeout", names),
            Some("last_ball_timeout")
        );
        assert_eq!(nearest("intercepton", names), Some("interception"));
        assert_eq!(nearest("speed", names), None);
        assert_eq!(
            nearest("Stricker", ["Striker", "GoalKeeper"]),
            Some("Striker")
        );
        assert_eq!(
            nearest("sequence", ["Sequence", "Fallback"]),
            Some("Sequence")
        );
        assert_eq!(nearest("flga", ["flag"]), Some("flag"));
        assert_eq!(nearest("Zzzzzz", ["Striker", "Locate"]), None);
        // One edit per three characters: two in a six-letter name, not three.
        assert_eq!(nearest("abcdef", ["abcxyf"]), Some("abcxyf"));
        assert_eq!(nearest("abcdef", ["axcxyf"]), None);
        // Never the name itself.
        assert_eq!(nearest("state", ["state"]), None);
    }
}
