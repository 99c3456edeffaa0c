//! `robot-decision evaluate`: is my edit better? Plays many seeded matches of a config (and,
//! with `--against`, exactly the same matches of a second one), then reports per metric the
//! mean with its 95% interval, the paired difference B - A with its interval and whether it
//! is significant, and which decisions were in effect how often (the ones never chosen are a
//! lint from evidence).
//!
//! Match `i` (0..N) uses seed `S + i` and the scenarios in turn. Matches run in parallel
//! (`--threads`), and the numbers are the same bit for bit whatever the thread count: every
//! match is independent and the results are combined in match order.

mod html;
mod report;
mod robomaster;
pub mod stats;

use decision_core::robomaster::{Tables, load};
use fake_publisher::Scenario;
use rayon::prelude::*;
use report::{CoverageEntry, Evaluation, MetricReport, PerConfig};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub use report::Evaluation as EvaluationDocument;

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

/// Default number of matches.
pub const DEFAULT_MATCHES: usize = 20;

/// What `evaluate` was asked to do (RoboMaster).
#[derive(Debug, Clone)]
pub struct EvaluateArgs {
    /// Config A.
    pub config: PathBuf,
    /// Config B, played on the same matches.
    pub against: Option<PathBuf>,
    /// Scenarios, in turn (empty: every scenario of the sample).
    pub scenarios: Vec<PathBuf>,
    /// Number of matches.
    pub matches: usize,
    /// Seed of match 0 (match i uses seed + i).
    pub seed: u64,
    /// Seconds per match (None: whole matches).
    pub seconds: Option<f64>,
    /// Worker threads (None: every core).
    pub threads: Option<usize>,
    /// One JSON document instead of the table.
    pub json: bool,
    /// Write `index.html` with plots into this folder.
    pub report: Option<PathBuf>,
}

/// An evaluation with the matches it was made of.
pub struct Played {
    /// The report.
    pub evaluation: Evaluation,
    /// Config A's matches, in match order.
    pub a: Vec<robomaster::MatchResult>,
    /// Config B's matches, when compared.
    pub b: Option<Vec<robomaster::MatchResult>>,
}

/// The sample's scenarios, sorted by name.
fn sample_scenarios(sample: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(sample.join("scenarios"))
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

/// Runs `evaluate`; `sample` is the repository's sample folder (default scenarios).
pub fn run(args: &EvaluateArgs, sample: &Path) -> ExitCode {
    if args.matches == 0 {
        eprintln!("error: --matches must be at least 1");
        return ExitCode::from(2);
    }
    if let Some(s) = args.seconds
        && !(s.is_finite() && s > 0.0)
    {
        eprintln!("error: --seconds must be a positive number of seconds, found {s}");
        return ExitCode::from(2);
    }
    if args.threads == Some(0) {
        eprintln!("error: --threads must be at least 1");
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
        sample_scenarios(sample)
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
    let played = match evaluate(args, &a, b.as_ref(), &scenarios) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(dir) = &args.report
        && let Err(e) = html::write_report(dir, &played.evaluation, &played.a, played.b.as_deref())
    {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    let evaluation = played.evaluation;
    let text = if args.json {
        match serde_json::to_string_pretty(&evaluation) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot render the evaluation: {e}");
                return ExitCode::from(1);
            }
        }
    } else {
        report::table(&evaluation)
    };
    println!("{text}");
    ExitCode::SUCCESS
}

/// Plays every match for `a` (and `b`) and builds the report.
pub fn evaluate(
    args: &EvaluateArgs,
    a: &Arc<Tables>,
    b: Option<&Arc<Tables>>,
    scenarios: &[Scenario],
) -> Result<Played, String> {
    let sides = 1 + usize::from(b.is_some());
    let jobs: Vec<(usize, usize)> = (0..args.matches)
        .flat_map(|i| (0..sides).map(move |side| (i, side)))
        .collect();
    let progress = Progress::new(jobs.len() as u64);
    let play = |&(i, side): &(usize, usize)| {
        let tables = if side == 0 { a } else { b.unwrap_or(a) };
        let scenario = &scenarios[i % scenarios.len()];
        let seed = args.seed.wrapping_add(i as u64);
        let result = robomaster::play(tables, scenario, seed, args.seconds)
            .map_err(|e| format!("match {i} (seed {seed}): {e}"));
        progress.advance();
        result
    };
    let results: Vec<Result<robomaster::MatchResult, String>> = match args.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?
            .install(|| jobs.par_iter().map(play).collect()),
        None => jobs.par_iter().map(play).collect(),
    };
    progress.finish();
    let results: Vec<robomaster::MatchResult> = results.into_iter().collect::<Result<_, _>>()?;
    let mut a_results = Vec::with_capacity(args.matches);
    let mut b_results = b.map(|_| Vec::with_capacity(args.matches));
    for (k, result) in results.into_iter().enumerate() {
        match (k % sides, b_results.as_mut()) {
            (1, Some(bs)) => bs.push(result),
            _ => a_results.push(result),
        }
    }
    let metrics = robomaster::METRICS
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
    let a_coverage = coverage(a, &a_results);
    let b_coverage = b.zip(b_results.as_ref()).map(|(t, rs)| coverage(t, rs));
    let never = |c: &[CoverageEntry]| -> Vec<i32> {
        c.iter()
            .filter(|e| e.chosen_matches == 0)
            .map(|e| e.id)
            .collect()
    };
    let mut configs = vec![args.config.display().to_string()];
    if let Some(path) = &args.against {
        configs.push(path.display().to_string());
    }
    let evaluation = Evaluation {
        profile: "robomaster".to_owned(),
        matches: args.matches,
        seed: args.seed,
        seconds: args.seconds,
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
    })
}

/// Per decision of `tables`: in how many matches it was in effect and its share of all ticks.
fn coverage(tables: &Tables, results: &[robomaster::MatchResult]) -> Vec<CoverageEntry> {
    let total: u64 = results.iter().map(|r| r.ticks).sum();
    tables
        .decisions
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let ticks: u64 = results.iter().map(|r| r.ticks_in_effect[k]).sum();
            CoverageEntry {
                id: d.decision.id,
                name: d.decision.name.clone(),
                chosen_matches: results.iter().filter(|r| r.ticks_in_effect[k] > 0).count(),
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
    done: AtomicU64,
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
        Self {
            bar,
            done: AtomicU64::new(0),
        }
    }

    fn advance(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
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
