//! The `evaluate` report: the JSON document (`robot-decision schema evaluation`) and the
//! table printed for people.

use super::stats::{Difference, Summary};
use schemars::JsonSchema;
use serde::Serialize;
use std::fmt::Write;

/// The whole evaluation, as `--json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Evaluation {
    /// `robomaster` or `soccer`.
    pub profile: String,
    /// Matches per config.
    pub matches: usize,
    /// Seed of match 0 (match i uses seed + i).
    pub seed: u64,
    /// Seconds per match, or null for whole matches.
    pub seconds: Option<f64>,
    /// The statistical method of the intervals.
    pub method: String,
    /// Config A, then config B when compared.
    pub configs: Vec<String>,
    /// One entry per metric.
    pub metrics: Vec<MetricReport>,
    /// Per decision (or tree node): in how many matches it was chosen and its share of time.
    pub coverage: PerConfig<Vec<CoverageEntry>>,
    /// Ids never chosen in any match.
    pub never_chosen: PerConfig<Vec<i32>>,
}

/// A value for config A and, when compared, for config B.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct PerConfig<T> {
    /// Config A's.
    pub a: T,
    /// Config B's, or null without `--against`.
    pub b: Option<T>,
}

/// One metric over the matches.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct MetricReport {
    /// Its name.
    pub name: String,
    /// Its unit.
    pub unit: String,
    /// `higher` or `lower`: which is better.
    pub better: String,
    /// Config A's values.
    pub a: Summary,
    /// Config B's values, or null.
    pub b: Option<Summary>,
    /// B - A, paired by match, or null.
    pub difference: Option<Difference>,
}

/// How often one decision was in effect.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CoverageEntry {
    /// The decision's id.
    pub id: i32,
    /// Its name.
    pub name: String,
    /// Matches in which it was in effect on at least one tick.
    pub chosen_matches: usize,
    /// Its share of all ticks of all matches.
    pub time_share: f64,
}

/// How many never-chosen ids the table lists (the JSON has all).
const NEVER_LISTED: usize = 24;

/// A number with up to three significant decimals, without float noise.
fn num(v: f64) -> String {
    if v.is_nan() {
        return "-".to_owned();
    }
    let text = format!("{v:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

fn summary_cell(s: &Summary) -> String {
    format!("{} [{}, {}]", num(s.mean), num(s.ci95[0]), num(s.ci95[1]))
}

fn difference_cell(d: &Difference) -> String {
    let sign = if d.mean > 0.0 { "+" } else { "" };
    format!(
        "{sign}{} [{}, {}]{}",
        num(d.mean),
        num(d.ci95[0]),
        num(d.ci95[1]),
        if d.significant { " *" } else { "" }
    )
}

/// The table for people: one row per metric, then the decisions never chosen.
pub fn table(e: &Evaluation) -> String {
    let mut out = String::new();
    let length = match e.seconds {
        Some(s) => format!("{} s each", num(s)),
        None => "whole matches".to_owned(),
    };
    let _ = writeln!(
        out,
        "{} matches per config (seeds {}..{}, {length}); {}",
        e.matches,
        e.seed,
        e.seed.wrapping_add(e.matches as u64 - 1),
        e.method
    );
    let _ = writeln!(out, "A: {}", e.configs[0]);
    if let Some(b) = e.configs.get(1) {
        let _ = writeln!(out, "B: {b}");
    }
    let mut rows = vec![[
        "metric".to_owned(),
        "A mean [95% CI]".to_owned(),
        "B mean [95% CI]".to_owned(),
        "B - A [95% CI]".to_owned(),
    ]];
    for m in &e.metrics {
        rows.push([
            format!("{} ({}, {} is better)", m.name, m.unit, m.better),
            summary_cell(&m.a),
            m.b.as_ref().map_or("-".to_owned(), summary_cell),
            m.difference
                .as_ref()
                .map_or("-".to_owned(), difference_cell),
        ]);
    }
    let compared = e.configs.len() > 1;
    let columns = if compared { 4 } else { 2 };
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let cells: Vec<String> = (0..columns)
            .map(|c| format!("{:<w$}", row[c], w = widths[c]))
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    if compared {
        let _ = writeln!(out, "* significant at 5%");
    }
    let never = |ids: &[i32], coverage: &[CoverageEntry]| -> String {
        if ids.is_empty() {
            return "none".to_owned();
        }
        let mut text = ids
            .iter()
            .take(NEVER_LISTED)
            .map(|id| {
                let name = coverage
                    .iter()
                    .find(|c| c.id == *id)
                    .map_or("", |c| c.name.as_str());
                format!("{id} ({name})")
            })
            .collect::<Vec<_>>()
            .join(", ");
        if ids.len() > NEVER_LISTED {
            let _ = write!(
                text,
                " and {} more (--json lists all)",
                ids.len() - NEVER_LISTED
            );
        }
        text
    };
    let _ = writeln!(
        out,
        "never chosen in {} matches: A: {}",
        e.matches,
        never(&e.never_chosen.a, &e.coverage.a)
    );
    if let (Some(ids), Some(coverage)) = (&e.never_chosen.b, &e.coverage.b) {
        let _ = writeln!(
            out,
            "never chosen in {} matches: B: {}",
            e.matches,
            never(ids, coverage)
        );
    }
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_without_float_noise() {
        assert_eq!(num(10.899999999999977), "10.9");
        assert_eq!(num(3.0), "3");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(0.125), "0.125");
        assert_eq!(num(f64::NAN), "-");
    }
}
