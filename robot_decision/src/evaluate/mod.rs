//! `robot-decision evaluate` and `robot-decision soccer evaluate`: is my edit better? Plays
//! many seeded matches of a config (and, with `--against`, exactly the same matches of a
//! second one), then reports per metric the mean with its 95% interval, the paired difference
//! B - A with its interval and whether it is significant, and which decisions (RoboMaster) or
//! tree nodes (soccer) were in effect how often: the ones never chosen are a lint from
//! evidence.
//!
//! Match `i` (0..N) uses seed `S + i` and the scenarios in turn. Matches run in parallel
//! (`--threads`), and the numbers are the same bit for bit whatever the thread count: every
//! match is independent and the results are combined in match order.

mod html;
mod report;
mod robomaster;
mod soccer;
pub mod stats;

use decision_core::robomaster::{Tables, load};
use rayon::prelude::*;
use report::{CoverageEntry, Evaluation, MetricReport, PerConfig};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

pub use report::Evaluation as EvaluationDocument;
pub use soccer::{SoccerEvaluateArgs, run as run_soccer};

/// One metric's name, unit and which direction is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metric {
    /// Name in the output.
    pub name: &'static str,
    /// Unit in the output.
    pub unit: &'static str,
    /// Whether higher values are better.
    pub higher_is_better: bool,
}

impl Metric {
    const fn higher(name: &'static str, unit: &'static str) -> Self {
        Self {
            name,
            unit,
            higher_is_better: true,
        }
    }

    const fn lower(name: &'static str, unit: &'static str) -> Self {
        Self {
            name,
            unit,
            higher_is_better: false,
        }
    }
}

/// What one match measured, whatever the profile.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchResult {
    /// The values of the profile's metrics, in their order.
    pub values: Vec<f64>,
    /// Per coverage subject (decision or tree node): ticks on which it was in effect.
    pub ticks_in_effect: Vec<u64>,
    /// Ticks observed (robot ticks for soccer: one per robot per tick).
    pub ticks: u64,
    /// What was in effect over time, one lane per robot (RoboMaster: one).
    pub lanes: Vec<Lane>,
}

/// One strip of the report: which legend entry was in effect when.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// The strip's label suffix (a robot number; empty for the only lane).
    pub label: String,
    /// The stretches, in time order.
    pub segments: Vec<Segment>,
}

/// A stretch of simulated time with one legend entry in effect (`None`: none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// Start (s).
    pub from: f64,
    /// End (s).
    pub to: f64,
    /// Position in the legend, or `None`.
    pub item: Option<usize>,
}

/// Extends the last segment to `now` when `item` is still in effect, else starts one.
pub fn extend(segments: &mut Vec<Segment>, item: Option<usize>, now: f64) {
    match segments.last_mut() {
        Some(last) if last.item == item => last.to = now,
        Some(last) => {
            last.to = now;
            segments.push(Segment {
                from: now,
                to: now,
                item,
            });
        }
        None => segments.push(Segment {
            from: now,
            to: now,
            item,
        }),
    }
}

/// Default number of matches.
pub const DEFAULT_MATCHES: usize = 20;

/// What both profiles' `evaluate` share (flattened into both commands' flags).
#[derive(Debug, Clone, clap::Args)]
pub struct Common {
    /// Matches per config.
    #[arg(long, default_value_t = DEFAULT_MATCHES)]
    pub matches: usize,
    /// Seed of match 0; match i uses seed + i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds per match (default: whole matches, or each soccer scenario's length).
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Worker threads (default: every core); the numbers do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// One JSON document (`robot-decision schema evaluation`) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write DIR/index.html: plots of every metric per match, the paired differences
    /// and what was in effect over time (readable offline).
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
}

impl Common {
    /// The usage errors of the shared flags (exit code 2), before anything is loaded.
    fn check(&self) -> Result<(), String> {
        if self.matches == 0 {
            return Err("--matches must be at least 1".to_owned());
        }
        if let Some(s) = self.seconds
            && !(s.is_finite() && s > 0.0)
        {
            return Err(format!(
                "--seconds must be a positive number of seconds, found {s}"
            ));
        }
        if self.threads == Some(0) {
            return Err("--threads must be at least 1".to_owned());
        }
        Ok(())
    }
}

/// What `evaluate` was asked to do (RoboMaster; its command-line flags).
#[derive(Debug, Clone, clap::Args)]
pub struct EvaluateArgs {
    /// Config A (config.json).
    pub config: PathBuf,
    /// Config B, played on the same matches (same seeds and scenarios).
    #[arg(long, value_name = "CONFIG_B")]
    pub against: Option<PathBuf>,
    /// A scenario (repeatable; match i plays them in turn; default: every scenario of
    /// the sample).
    #[arg(long = "scenario", value_name = "FILE")]
    pub scenarios: Vec<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

/// An evaluation with the matches it was made of.
pub struct Played {
    /// The report.
    pub evaluation: Evaluation,
    /// Config A's matches, in match order.
    pub a: Vec<MatchResult>,
    /// Config B's matches, when compared.
    pub b: Option<Vec<MatchResult>>,
    /// Names of what the strips show (decisions or roles), by position.
    pub legend: Vec<String>,
}

/// One profile's matches to play: its metrics, what coverage counts and how to play match
/// `i` of config `side` (0 = A, 1 = B).
pub struct Setup<'a> {
    /// `robomaster` or `soccer`.
    pub profile: &'static str,
    /// The metrics, in output order.
    pub metrics: &'static [Metric],
    /// Coverage subjects (id, name) of A, and of B when compared.
    pub subjects: PerConfig<Vec<(i32, String)>>,
    /// Names of what the strips show.
    pub legend: Vec<String>,
    /// Plays match `i` of side `side`.
    pub play: Box<dyn Fn(usize, usize) -> Result<MatchResult, String> + Sync + 'a>,
}

/// The `*.json5` files of `folder`, sorted by name.
fn json5_files(folder: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json5"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// Loads a config for evaluation, printing its diagnostics (as `check` does) on errors.
fn load_config(path: &Path) -> Option<Arc<Tables>> {
    let outcome = load::load(path);
    match outcome.tables {
        Some(tables) => Some(Arc::new(tables)),
        None => {
            eprint!("{}", outcome.diagnostics);
            eprintln!(
                "{}: not loaded, fix the errors above (robot-decision check shows all)",
                path.display()
            );
            None
        }
    }
}

/// Runs `evaluate` (RoboMaster); `sample` is the repository's sample folder.
pub fn run(args: &EvaluateArgs, sample: &Path) -> ExitCode {
    if let Err(e) = args.common.check() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let Some(a) = load_config(&args.config) else {
        return ExitCode::from(1);
    };
    let b = match &args.against {
        Some(path) => match load_config(path) {
            Some(b) => Some(b),
            None => return ExitCode::from(1),
        },
        None => None,
    };
    let scenario_paths = if args.scenarios.is_empty() {
        json5_files(&sample.join("scenarios"))
    } else {
        args.scenarios.clone()
    };
    if scenario_paths.is_empty() {
        eprintln!("error: no scenario: give one with --scenario FILE");
        return ExitCode::from(2);
    }
    let mut scenarios = Vec::with_capacity(scenario_paths.len());
    for path in &scenario_paths {
        match fake_publisher::load_scenario(path) {
            Ok(s) => scenarios.push(s),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(1);
            }
        }
    }
    // Every scenario must fit both fields before any match runs.
    for (path, scenario) in scenario_paths.iter().zip(&scenarios) {
        for tables in std::iter::once(&a).chain(b.as_ref()) {
            if let Err(e) = fake_publisher::check_against(scenario, tables) {
                eprintln!("{}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
    }
    let subjects = |tables: &Tables| -> Vec<(i32, String)> {
        tables
            .decisions
            .iter()
            .map(|d| (d.decision.id, d.decision.name.clone()))
            .collect()
    };
    let common = &args.common;
    let setup = Setup {
        profile: "robomaster",
        metrics: &robomaster::METRICS,
        subjects: PerConfig {
            a: subjects(&a),
            b: b.as_deref().map(subjects),
        },
        legend: a
            .decisions
            .iter()
            .map(|d| format!("{} {}", d.decision.id, d.decision.name))
            .collect(),
        play: Box::new(|i, side| {
            let tables = if side == 0 {
                &a
            } else {
                b.as_ref().unwrap_or(&a)
            };
            let scenario = &scenarios[i % scenarios.len()];
            let seed = common.seed.wrapping_add(i as u64);
            robomaster::play(tables, scenario, seed, common.seconds)
        }),
    };
    let mut configs = vec![args.config.display().to_string()];
    configs.extend(args.against.iter().map(|p| p.display().to_string()));
    finish(common, setup, configs)
}

/// Plays the matches of `setup`, then prints the table or the JSON and writes the report.
fn finish(common: &Common, setup: Setup<'_>, configs: Vec<String>) -> ExitCode {
    let played = match evaluate(common, setup, configs) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(dir) = &common.report
        && let Err(e) = html::write_report(dir, &played)
    {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    let text = if common.json {
        match serde_json::to_string_pretty(&played.evaluation) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot render the evaluation: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        report::table(&played.evaluation)
    };
    println!("{text}");
    ExitCode::SUCCESS
}

/// Plays every match of `setup` for A (and B) and builds the report.
pub fn evaluate(common: &Common, setup: Setup<'_>, configs: Vec<String>) -> Result<Played, String> {
    let compared = setup.subjects.b.is_some();
    let sides = 1 + usize::from(compared);
    let jobs: Vec<(usize, usize)> = (0..common.matches)
        .flat_map(|i| (0..sides).map(move |side| (i, side)))
        .collect();
    let progress = Progress::new(jobs.len() as u64);
    let play = |&(i, side): &(usize, usize)| {
        let result = (setup.play)(i, side).map_err(|e| {
            let seed = common.seed.wrapping_add(i as u64);
            format!("match {i} (seed {seed}): {e}")
        });
        progress.advance();
        result
    };
    let results: Vec<Result<MatchResult, String>> = match common.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?
            .install(|| jobs.par_iter().map(play).collect()),
        None => jobs.par_iter().map(play).collect(),
    };
    progress.finish();
    let results: Vec<MatchResult> = results.into_iter().collect::<Result<_, _>>()?;
    let mut a_results = Vec::with_capacity(common.matches);
    let mut b_results = compared.then(|| Vec::with_capacity(common.matches));
    for (k, result) in results.into_iter().enumerate() {
        match (k % sides, b_results.as_mut()) {
            (1, Some(bs)) => bs.push(result),
            _ => a_results.push(result),
        }
    }
    let metrics = setup
        .metrics
        .iter()
        .enumerate()
        .map(|(k, metric)| {
            let a_values: Vec<f64> = a_results.iter().map(|r| r.values[k]).collect();
            let b_values: Option<Vec<f64>> = b_results
                .as_ref()
                .map(|rs| rs.iter().map(|r| r.values[k]).collect());
            MetricReport {
                name: metric.name.to_owned(),
                unit: metric.unit.to_owned(),
                better: if metric.higher_is_better {
                    "higher"
                } else {
                    "lower"
                }
                .to_owned(),
                a: stats::summarize(&a_values),
                b: b_values.as_deref().map(stats::summarize),
                difference: b_values
                    .as_deref()
                    .map(|bv| stats::paired_difference(&a_values, bv)),
            }
        })
        .collect();
    let a_coverage = coverage(&setup.subjects.a, &a_results);
    let b_coverage = setup
        .subjects
        .b
        .as_ref()
        .zip(b_results.as_ref())
        .map(|(subjects, rs)| coverage(subjects, rs));
    let never = |c: &[CoverageEntry]| -> Vec<i32> {
        c.iter()
            .filter(|e| e.chosen_matches == 0)
            .map(|e| e.id)
            .collect()
    };
    let evaluation = Evaluation {
        profile: setup.profile.to_owned(),
        matches: common.matches,
        seed: common.seed,
        seconds: common.seconds,
        method: stats::METHOD.to_owned(),
        configs,
        metrics,
        never_chosen: PerConfig {
            a: never(&a_coverage),
            b: b_coverage.as_deref().map(never),
        },
        coverage: PerConfig {
            a: a_coverage,
            b: b_coverage,
        },
    };
    Ok(Played {
        evaluation,
        a: a_results,
        b: b_results,
        legend: setup.legend,
    })
}

/// Per subject: in how many matches it was in effect and its share of all ticks.
fn coverage(subjects: &[(i32, String)], results: &[MatchResult]) -> Vec<CoverageEntry> {
    let total: u64 = results.iter().map(|r| r.ticks).sum();
    subjects
        .iter()
        .enumerate()
        .map(|(k, (id, name))| {
            let in_effect = |r: &MatchResult| r.ticks_in_effect.get(k).copied().unwrap_or(0);
            let ticks: u64 = results.iter().map(in_effect).sum();
            CoverageEntry {
                id: *id,
                name: name.clone(),
                chosen_matches: results.iter().filter(|r| in_effect(r) > 0).count(),
                time_share: if total > 0 {
                    ticks as f64 / total as f64
                } else {
                    0.0
                },
            }
        })
        .collect()
}

/// A progress bar on a terminal (standard error), nothing otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn new(total: u64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(total);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{spinner} matches {pos}/{len} [{bar:30}] {elapsed_precise}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Self { bar }
    }

    fn advance(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_merge_while_the_item_stays() {
        let mut s = Vec::new();
        extend(&mut s, Some(2), 0.0);
        extend(&mut s, Some(2), 0.1);
        extend(&mut s, None, 0.2);
        extend(&mut s, Some(0), 0.3);
        let d = |from, to, item| Segment { from, to, item };
        assert_eq!(
            s,
            [
                d(0.0, 0.2, Some(2)),
                d(0.2, 0.3, None),
                d(0.3, 0.3, Some(0))
            ]
        );
    }

    #[test]
    fn coverage_counts_matches_and_the_share_of_ticks() {
        let result = |ticks_in_effect: Vec<u64>, ticks| MatchResult {
            values: Vec::new(),
            ticks_in_effect,
            ticks,
            lanes: Vec::new(),
        };
        let results = [result(vec![3, 0], 10), result(vec![1, 0], 30)];
        let subjects = [(7, "seven".to_owned()), (9, "nine".to_owned())];
        let c = coverage(&subjects, &results);
        assert_eq!((c[0].id, c[0].chosen_matches, c[0].time_share), (7, 2, 0.1));
        assert_eq!((c[1].id, c[1].chosen_matches, c[1].time_share), (9, 0, 0.0));
    }
}
