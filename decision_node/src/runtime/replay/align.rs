//! Pairs the ticks of two runs over the same inputs by their keys (stamp or line index).

use super::Tick;
use super::runs::Pair;

/// Aligns two tick sequences on their keys (merge by key, in order).
pub(super) fn align<'a, R>(old: &'a [Tick<R>], new: &'a [Tick<R>]) -> Vec<Pair<'a, Tick<R>>> {
    let mut pairs = Vec::with_capacity(old.len().max(new.len()));
    let (mut i, mut j) = (0, 0);
    loop {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a.key == b.key => {
                pairs.push((Some(a), Some(b)));
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a.key < b.key => {
                pairs.push((Some(a), None));
                i += 1;
            }
            (Some(_), Some(b)) => {
                pairs.push((None, Some(b)));
                j += 1;
            }
            (Some(a), None) => {
                pairs.push((Some(a), None));
                i += 1;
            }
            (None, Some(b)) => {
                pairs.push((None, Some(b)));
                j += 1;
            }
            (None, None) => break,
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::align;
    use crate::runtime::record::TraceRecord;
    use crate::runtime::replay::Tick;

    fn ticks(keys: &[u64]) -> Vec<Tick> {
        keys.iter()
            .map(|&key| Tick {
                record: Default::default(),
                bytes: Vec::new(),
                key,
            })
            .collect()
    }

    fn keys(pairs: &[(Option<&Tick>, Option<&Tick>)]) -> Vec<(Option<u64>, Option<u64>)> {
        pairs
            .iter()
            .map(|(a, b)| (a.map(|t| t.key), b.map(|t| t.key)))
            .collect()
    }

    #[test]
    fn equal_keys_pair_up_and_the_others_stand_alone_in_key_order() {
        let (old, new) = (ticks(&[1, 2, 4, 7]), ticks(&[2, 3, 4, 8, 9]));
        assert_eq!(
            keys(&align(&old, &new)),
            [
                (Some(1), None),
                (Some(2), Some(2)),
                (None, Some(3)),
                (Some(4), Some(4)),
                (Some(7), None),
                (None, Some(8)),
                (None, Some(9)),
            ]
        );
    }

    #[test]
    fn an_empty_side_leaves_every_tick_of_the_other_unpaired() {
        let some = ticks(&[5, 6]);
        assert_eq!(keys(&align(&some, &[])), [(Some(5), None), (Some(6), None)]);
        assert_eq!(keys(&align(&[], &some)), [(None, Some(5)), (None, Some(6))]);
        assert!(align::<TraceRecord>(&[], &[]).is_empty());
    }

    #[test]
    fn repeated_keys_pair_in_order() {
        let (old, new) = (ticks(&[3, 3, 3]), ticks(&[3, 3]));
        assert_eq!(
            keys(&align(&old, &new)),
            [(Some(3), Some(3)), (Some(3), Some(3)), (Some(3), None)]
        );
    }
}
