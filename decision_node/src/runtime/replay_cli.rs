//! The `robot-decision replay` command: replays a recording (RoboMaster or soccer) or a
//! snapshot file and reports the differences, with a progress bar on a terminal. Only in the
//! `cli` feature (the viewer does not link the terminal and temp-dir crates).

use super::replay::*;
use bus::topics;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// A progress bar on stderr when it is a terminal, hidden otherwise.
pub fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} replay [{bar:40}] {pos}/{len} messages ({eta})")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// [`replay_messages`] with a progress bar.
pub fn replay_with_progress(
    tables: Arc<decision_core::robomaster::Tables>,
    messages: &[RecordedMessage],
) -> Result<Vec<Tick>, ReplayError> {
    let bar = progress(0);
    let ticks = replay_messages(tables, messages, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    ticks
}

/// Options of `robot-decision replay`.
#[derive(Debug, Clone, Default)]
pub struct ReplayArgs {
    /// The recording (MCAP) or snapshot file (JSON Lines).
    pub file: PathBuf,
    /// The edited config to compare with.
    pub config: Option<PathBuf>,
    /// The config of the old side (snapshots: required; MCAP: instead of the recorded one).
    pub base: Option<PathBuf>,
    /// Where to write the replayed traces (JSON Lines).
    pub output: Option<PathBuf>,
    /// Print the report as JSON.
    pub json: bool,
}

/// Everything `replay` computed, before printing.
pub struct ReplayOutcome {
    /// The decision diff of the old and the new side.
    pub report: DiffReport,
    /// The new side's traces (what `--output` writes).
    pub replayed: Vec<Tick>,
    /// Inputs fed (messages or snapshot lines).
    pub inputs: usize,
    /// Seconds of log time (MCAP) covered.
    pub recorded_seconds: f64,
    /// Wall seconds the replay of the new side took.
    pub replay_seconds: f64,
}

/// Runs a replay: `Err` is a usage error or an unreadable file (exit code 2).
pub fn replay(args: &ReplayArgs) -> Result<ReplayOutcome, ReplayError> {
    match detect(&args.file)? {
        InputKind::Mcap => replay_mcap(args),
        InputKind::Snapshots => replay_snapshots(args),
    }
}

fn replay_mcap(args: &ReplayArgs) -> Result<ReplayOutcome, ReplayError> {
    let recording = read_mcap(&args.file)?;
    let mut warnings: Vec<String> = recording.warning.iter().cloned().collect();
    // The recorded config: the attachments, else the path it was recorded with.
    let temp = tempfile::tempdir().map_err(ReplayError::TempDir)?;
    let recorded_config = match extract_config(&recording, temp.path()) {
        Ok(path) => Some(path),
        Err(e) => {
            let fallback = recording
                .facts()
                .and_then(|f| f.get("config_resolved").or(f.get("config_path")))
                .map(PathBuf::from)
                .filter(|p| p.is_file());
            if let Some(path) = &fallback {
                warnings.push(format!(
                    "{e}; using the recorded path {} (it may have changed since)",
                    path.display()
                ));
            }
            fallback
        }
    };
    let recorded_tables = match &recorded_config {
        Some(path) => match load_tables(path) {
            Ok(t) => Some(t),
            Err(e) => {
                warnings.push(format!("the recorded config does not load: {e}"));
                None
            }
        },
        None => None,
    };
    let (old_ticks, old_tables, old_name) = match &args.base {
        Some(base) => {
            let tables = load_tables(base)?;
            let ticks = replay_with_progress(Arc::clone(&tables), &recording.messages)?;
            (ticks, Some(tables), base.display().to_string())
        }
        None => (
            traces(&recording),
            recorded_tables.clone(),
            "recorded".to_string(),
        ),
    };
    let (new_tables, new_name) = match (&args.config, &recorded_tables) {
        (Some(config), _) => (load_tables(config)?, config.display().to_string()),
        (None, Some(tables)) => (Arc::clone(tables), "recorded config".to_string()),
        (None, None) => {
            return Err(ReplayError::NoUsableConfig {
                file: args.file.clone(),
            });
        }
    };
    let started = Instant::now();
    let replayed = replay_with_progress(Arc::clone(&new_tables), &recording.messages)?;
    let replay_seconds = started.elapsed().as_secs_f64();
    let mut report = diff(
        &old_ticks,
        &replayed,
        old_tables.as_deref(),
        Some(&new_tables),
    );
    report.old = old_name;
    report.new = new_name;
    report.warnings = warnings;
    let inputs = recording
        .messages
        .iter()
        .filter(|m| topics::NODE_INPUTS.contains(&m.topic.as_str()))
        .count();
    Ok(ReplayOutcome {
        report,
        replayed,
        inputs,
        recorded_seconds: recording.span().map_or(0.0, |(a, b)| b - a),
        replay_seconds,
    })
}

fn replay_snapshots(args: &ReplayArgs) -> Result<ReplayOutcome, ReplayError> {
    let base = args.base.as_ref().ok_or(ReplayError::SnapshotsNeedBase)?;
    let (inputs, warnings) = read_snapshots(&args.file)?;
    let old_tables = load_tables(base)?;
    let new_tables = match &args.config {
        Some(config) => load_tables(config)?,
        None => Arc::clone(&old_tables),
    };
    let old = decide_snapshots(Arc::clone(&old_tables), &inputs)?;
    let started = Instant::now();
    let replayed = decide_snapshots(Arc::clone(&new_tables), &inputs)?;
    let replay_seconds = started.elapsed().as_secs_f64();
    let mut report = diff(&old, &replayed, Some(&old_tables), Some(&new_tables));
    report.old = base.display().to_string();
    report.new = args.config.as_ref().unwrap_or(base).display().to_string();
    report.warnings = warnings;
    Ok(ReplayOutcome {
        report,
        replayed,
        inputs: inputs.len(),
        recorded_seconds: 0.0,
        replay_seconds,
    })
}

/// `robot-decision replay`: exit 0 identical, 1 different, 2 usage / unreadable file.
pub fn replay_command(args: &ReplayArgs) -> u8 {
    if matches!(detect(&args.file), Ok(InputKind::Mcap)) {
        match read_mcap(&args.file) {
            Ok(recording) if soccer::is_soccer(&recording) => {
                return match replay_soccer(args, &recording) {
                    Ok(report) => print_report(&report, args.json),
                    Err(lines) => {
                        for line in lines {
                            eprintln!("{line}");
                        }
                        2
                    }
                };
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        }
    }
    let outcome = match replay(args) {
        Ok(outcome) => outcome,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    if let Some(path) = &args.output
        && let Err(e) = write_traces(path, &outcome.replayed)
    {
        eprintln!("{}: cannot write: {e}", path.display());
        return 2;
    }
    let code = print_report(&outcome.report, args.json);
    if code != 2 && outcome.recorded_seconds > 0.0 && outcome.replay_seconds > 0.0 {
        eprintln!(
            "replayed {} inputs ({:.1} s recorded) in {:.3} s: {:.0} x real time",
            outcome.inputs,
            outcome.recorded_seconds,
            outcome.replay_seconds,
            outcome.recorded_seconds / outcome.replay_seconds
        );
    }
    code
}

/// Prints a report of either profile (pretty JSON or words) and its warnings; the exit code:
/// 0 identical, 1 different, 2 when the report cannot be rendered.
fn print_report(report: &impl ReplayReport, json: bool) -> u8 {
    if json {
        match serde_json::to_string_pretty(report) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("cannot render the report: {e}");
                return 2;
            }
        }
    } else {
        print!("{}", report.text());
    }
    for w in report.warnings() {
        eprintln!("warning: {w}");
    }
    u8::from(!report.identical())
}

/// Writes traces as JSON Lines.
pub fn write_traces(path: &Path, ticks: &[Tick]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for tick in ticks {
        out.write_all(&tick.bytes)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// `replay` of a soccer recording: `--config` is another parameters folder (with the
/// recorded location and robot overrides); `Err` is the lines to print (exit code 2).
fn replay_soccer(
    args: &ReplayArgs,
    recording: &Recording,
) -> Result<soccer::SoccerReport, Vec<String>> {
    if args.base.is_some() || args.output.is_some() {
        return Err(vec![
            "--base and --output are not used with soccer recordings".into(),
        ]);
    }
    let in_file = |e: String| vec![format!("{}: {e}", args.file.display())];
    let other = match &args.config {
        None => None,
        Some(dir) => {
            let facts = recording.facts();
            let sources = crate::soccer::sources::SoccerSources {
                params_dir: dir.clone(),
                location: facts.and_then(|f| f.get("location")).cloned(),
                robot: facts.and_then(|f| f.get("robot")).cloned(),
                tree: None,
            };
            let (_, spec) = soccer::recorded_setup(recording).map_err(in_file)?;
            let (params, _) = sources.load()?;
            Some((dir.display().to_string(), params, spec))
        }
    };
    soccer::replay(
        recording,
        other
            .as_ref()
            .map(|(name, p, s)| (name.as_str(), Arc::clone(p), s.clone())),
    )
    .map_err(in_file)
}
