//! The decision diff of two runs: spans of game time where the decision in effect differs,
//! with each side's why-not, and whether the whole traces agree.

use super::Tick;
use super::align::align;
use super::runs::{Pair, differing_runs};
use crate::runtime::record::TraceRecord;
use decision_core::robomaster::Tables;
use serde::Serialize;
use std::collections::BTreeMap;

/// One side of a differing span.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpanSide {
    /// Whether this side ticked at all in the span (false: no tick with that stamp).
    pub ticked: bool,
    /// The decision in effect, or null.
    pub id: Option<i32>,
    /// Its name, when the side's config is known.
    pub name: Option<String>,
    /// Why this side did not take the other side's decision (at the span's first tick).
    pub why_not_other: Option<String>,
    /// This side's whole why-not at the span's first tick (decision id -> first failing guard).
    pub why_not: BTreeMap<String, String>,
}

/// A span of game time during which the two sides' decisions differ.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Span {
    /// Game time of the first differing tick.
    pub start: f64,
    /// Game time of the last differing tick.
    pub end: f64,
    /// Ticks in the span.
    pub ticks: usize,
    /// Tick index (`tick` of the trace) of the first differing tick.
    pub first_tick: u64,
    /// Tick index of the last differing tick.
    pub last_tick: u64,
    /// The old side (recorded, or `--base`).
    pub old: SpanSide,
    /// The new side (`--config`).
    pub new: SpanSide,
}

/// The comparison of two runs over the same inputs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffReport {
    /// True when the decision in effect is the same at every tick.
    pub identical: bool,
    /// What the old side is.
    pub old: String,
    /// What the new side is.
    pub new: String,
    /// Ticks of the old side.
    pub old_ticks: usize,
    /// Ticks of the new side.
    pub new_ticks: usize,
    /// True when every trace (the whole `decide` result) is byte for byte the same.
    pub traces_identical: bool,
    /// Aligned ticks whose traces differ in any field.
    pub trace_mismatches: usize,
    /// The spans where the decision differs.
    pub spans: Vec<Span>,
    /// Warnings (a cut file, skipped lines, a missing config).
    pub warnings: Vec<String>,
}

fn decision_name(tables: Option<&Tables>, id: i32) -> Option<String> {
    tables?
        .decisions
        .iter()
        .find(|d| d.decision.id == id)
        .map(|d| d.decision.name.clone())
}

fn weight(tables: Option<&Tables>, id: i32) -> Option<i32> {
    tables?
        .decisions
        .iter()
        .find(|d| d.decision.id == id)
        .map(|d| d.decision.weight)
}

/// Why `tick`'s side did not take decision `other`.
fn why_not_other(
    tick: &TraceRecord,
    other: Option<i32>,
    tables: Option<&Tables>,
) -> Option<String> {
    let other = other?;
    if let Some(reason) = tick.why_not.get(&other.to_string()) {
        return Some(reason.clone());
    }
    if !tick.available.contains(&other) {
        return tick
            .skipped
            .as_ref()
            .map(|s| format!("nothing decided: {s}"));
    }
    let w = |id: i32| weight(tables, id).map_or("?".to_string(), |w| w.to_string());
    Some(match tick.chosen {
        Some(chosen) => format!(
            "its guards held, but decision {chosen} (weight {}) was in effect; its weight is {}",
            w(chosen),
            w(other)
        ),
        None => format!(
            "its guards held (weight {}), but nothing was decided{}",
            w(other),
            tick.skipped
                .as_ref()
                .map_or(String::new(), |s| format!(": {s}"))
        ),
    })
}

fn side(mine: Option<&Tick>, other: Option<&Tick>, tables: Option<&Tables>) -> SpanSide {
    let id = mine.and_then(|t| t.record.chosen);
    let other_id = other.and_then(|t| t.record.chosen);
    SpanSide {
        ticked: mine.is_some(),
        id,
        name: id.and_then(|id| decision_name(tables, id)),
        why_not_other: mine.and_then(|t| why_not_other(&t.record, other_id, tables)),
        why_not: mine.map(|t| t.record.why_not.clone()).unwrap_or_default(),
    }
}

/// The decision in effect of each side of a pair (`None`: that side did not tick).
fn decisions(pair: &Pair<'_, Tick>) -> (Option<Option<i32>>, Option<Option<i32>>) {
    (
        pair.0.map(|t| t.record.chosen),
        pair.1.map(|t| t.record.chosen),
    )
}

/// Compares two runs tick by tick: the spans where the decision in effect (`chosen`) differs,
/// split where either side's decision changes; and whether the whole traces are equal.
pub fn diff(
    old: &[Tick],
    new: &[Tick],
    old_tables: Option<&Tables>,
    new_tables: Option<&Tables>,
) -> DiffReport {
    let pairs = align(old, new);
    let trace_mismatches = pairs
        .iter()
        .filter(|pair| match pair {
            (Some(a), Some(b)) => !(a.bytes == b.bytes || a.record == b.record),
            _ => true,
        })
        .count();
    let runs = differing_runs(
        &pairs,
        |pair| {
            let (old, new) = decisions(pair);
            old != new
        },
        |first, pair| decisions(first) == decisions(pair),
    );
    let time = |(a, b): &Pair<'_, Tick>| a.or(*b).map_or(0.0, |t| t.record.game_time);
    let index = |(a, b): &Pair<'_, Tick>| a.or(*b).map_or(0, |t| t.record.tick);
    let spans = runs
        .iter()
        .filter_map(|run| {
            let (first, last) = (pairs.get(run.first)?, pairs.get(run.last)?);
            Some(Span {
                start: time(first),
                end: time(last),
                ticks: run.len(),
                first_tick: index(first),
                last_tick: index(last),
                old: side(first.0, first.1, old_tables),
                new: side(first.1, first.0, new_tables),
            })
        })
        .collect::<Vec<_>>();
    DiffReport {
        identical: spans.is_empty(),
        old: String::new(),
        new: String::new(),
        old_ticks: old.len(),
        new_ticks: new.len(),
        traces_identical: trace_mismatches == 0,
        trace_mismatches,
        spans,
        warnings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::diff;
    use crate::runtime::record::TraceRecord;
    use crate::runtime::replay::Tick;

    /// A tick at `key` (also its index and game time in tenths) with decision `chosen`.
    fn tick(key: u64, chosen: Option<i32>) -> Tick {
        let record = TraceRecord {
            tick: key,
            game_time: key as f64 / 10.0,
            chosen,
            available: chosen.into_iter().collect(),
            ..TraceRecord::default()
        };
        let bytes = serde_json::to_vec(&record).unwrap_or_default();
        Tick { record, bytes, key }
    }

    fn run(decisions: &[Option<i32>]) -> Vec<Tick> {
        decisions
            .iter()
            .enumerate()
            .map(|(i, d)| tick(i as u64, *d))
            .collect()
    }

    #[test]
    fn the_same_runs_are_identical_with_no_span() {
        let a = run(&[Some(1), Some(1), None, Some(2)]);
        let report = diff(&a, &a.clone(), None, None);
        assert!(report.identical && report.traces_identical);
        assert_eq!((report.spans.len(), report.trace_mismatches), (0, 0));
        assert_eq!((report.old_ticks, report.new_ticks), (4, 4));
    }

    #[test]
    fn a_differing_stretch_is_one_span_split_where_either_side_changes() {
        let old = run(&[Some(1), Some(1), Some(1), Some(1), Some(1), Some(1)]);
        let new = run(&[Some(1), Some(2), Some(2), Some(3), Some(1), Some(2)]);
        let report = diff(&old, &new, None, None);
        assert!(!report.identical);
        let spans: Vec<_> = report
            .spans
            .iter()
            .map(|s| (s.first_tick, s.last_tick, s.ticks, s.old.id, s.new.id))
            .collect();
        assert_eq!(
            spans,
            [
                (1, 2, 2, Some(1), Some(2)),
                (3, 3, 1, Some(1), Some(3)),
                (5, 5, 1, Some(1), Some(2)),
            ]
        );
        assert_eq!((report.spans[0].start, report.spans[0].end), (0.1, 0.2));
        assert_eq!(report.trace_mismatches, 4);
    }

    #[test]
    fn a_tick_only_one_side_has_is_a_span_with_the_other_side_not_ticked() {
        let old = run(&[Some(1), Some(1), Some(1)]);
        let new = vec![tick(0, Some(1)), tick(2, Some(1))];
        let report = diff(&old, &new, None, None);
        assert_eq!(report.spans.len(), 1);
        let span = &report.spans[0];
        assert_eq!(
            (span.first_tick, span.old.ticked, span.new.ticked),
            (1, true, false)
        );
        assert_eq!(span.new.id, None);
    }

    #[test]
    fn traces_that_differ_outside_the_decision_count_but_make_no_span() {
        let old = run(&[Some(1), Some(1)]);
        let mut new = old.clone();
        new[1]
            .record
            .why_not
            .insert("4".into(), "HP 100 <= minHP 200".into());
        new[1].bytes = serde_json::to_vec(&new[1].record).unwrap_or_default();
        let report = diff(&old, &new, None, None);
        assert!(report.identical);
        assert!(!report.traces_identical);
        assert_eq!(report.trace_mismatches, 1);
    }

    #[test]
    fn why_not_the_other_decision_comes_from_the_guard_or_the_weights() {
        let mut old = run(&[Some(1)]);
        let new = run(&[Some(2)]);
        old[0].record.why_not.insert(
            "2".into(),
            "wayPointID: current waypoint 0 not in [3]".into(),
        );
        let report = diff(&old, &new, None, None);
        let span = &report.spans[0];
        assert_eq!(
            span.old.why_not_other.as_deref(),
            Some("wayPointID: current waypoint 0 not in [3]")
        );
        // Decision 1 is not available on the new side and nothing was skipped: no reason.
        assert_eq!(span.new.why_not_other, None);
        let mut held = run(&[Some(2)]);
        held[0].record.available = vec![1, 2];
        let report = diff(&run(&[Some(1)]), &held, None, None);
        assert_eq!(
            report.spans[0].new.why_not_other.as_deref(),
            Some("its guards held, but decision 2 (weight ?) was in effect; its weight is ?")
        );
    }
}
