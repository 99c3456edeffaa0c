//! `robot-decision replay`: feeds a recording's inputs through a fresh node, in log-time order
//! with `now` = the recorded log time (no wall clock, as fast as possible), and compares the
//! decisions with the recorded ones, or with another config's (`--config`): the spans of game
//! time where the decision in effect differs, with each side's why-not. Also takes a JSON
//! Lines snapshot file (the `decide` input) and compares `--base` against `--config`.

use super::record::TraceRecord;
use crate::node::{Ingested, NodeCore};
pub use bus::recording::{
    ChannelInfo, RecordedAttachment, RecordedMessage, Recording, from_nanos, is_mcap, read_mcap,
    read_mcap_bytes,
};
use bus::topics;
use decision_core::robomaster::snapshot::parse_line;
use decision_core::robomaster::{Decider, Tables, TickInput, TickResult, load};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The recorded traces, in file order (unparseable ones are skipped).
pub fn traces(recording: &Recording) -> Vec<Tick> {
    recording
        .on_topic(topics::TRACE)
        .filter_map(|m| Tick::from_bytes(m.data.clone()))
        .collect()
}

/// One tick's trace, parsed for the diff and kept as bytes for exact comparison.
#[derive(Debug, Clone)]
pub struct Tick {
    /// The parsed trace.
    pub record: TraceRecord,
    /// The JSON line as written.
    pub bytes: Vec<u8>,
    /// Alignment key: header stamp in nanoseconds (MCAP) or line index (snapshots).
    pub key: u64,
}

impl Tick {
    /// Parses a trace payload; `None` when it is not a trace.
    pub fn from_bytes(bytes: Vec<u8>) -> Option<Self> {
        let record: TraceRecord = serde_json::from_slice(&bytes).ok()?;
        let s = record.header.stamp;
        let key = u64::try_from(s.sec).unwrap_or(0) * 1_000_000_000 + u64::from(s.nanosec);
        Some(Self { record, bytes, key })
    }
}

/// Feeds the node inputs among `messages` through a fresh node for `tables`, in log-time
/// order (stable for equal times), `now` = log time; returns the traces of the ticks.
/// `progress(done, total)` is told every few thousand inputs and at the end.
pub fn replay_messages(
    tables: Arc<Tables>,
    messages: &[RecordedMessage],
    progress: &dyn Fn(u64, u64),
) -> Result<Vec<Tick>, String> {
    let mut node = NodeCore::new(tables).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    let mut inputs: Vec<&RecordedMessage> = messages
        .iter()
        .filter(|m| topics::NODE_INPUTS.contains(&m.topic.as_str()))
        .collect();
    inputs.sort_by_key(|m| m.log_time);
    let total = inputs.len() as u64;
    let mut ticks = Vec::new();
    for (i, m) in inputs.iter().enumerate() {
        if let Ingested::Tick(output) = node.ingest(&m.topic, &m.data, from_nanos(m.log_time)) {
            let bytes = serde_json::to_vec(&output.trace).map_err(|e| e.to_string())?;
            if let Some(tick) = Tick::from_bytes(bytes) {
                ticks.push(tick);
            }
        }
        if i % 4096 == 0 {
            progress(i as u64, total);
        }
    }
    progress(total, total);
    Ok(ticks)
}

/// A snapshot tick's trace line: the `decide` result plus the game time.
#[derive(Serialize)]
struct SnapshotTrace<'a> {
    game_time: f64,
    #[serde(flatten)]
    result: &'a TickResult,
}

/// Parses a JSON Lines snapshot file; malformed lines are skipped with a warning each.
pub fn read_snapshots(path: &Path) -> Result<(Vec<TickInput>, Vec<String>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut inputs = Vec::new();
    let mut warnings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(line) {
            Ok(input) => inputs.push(input),
            Err(e) => warnings.push(format!(
                "{}:{}:{}: `{}`: {} (line skipped)",
                path.display(),
                index + 1,
                e.column,
                e.field,
                e.message
            )),
        }
    }
    Ok((inputs, warnings))
}

/// Decides every snapshot with `tables`, carrying state from line to line like `decide`.
pub fn decide_snapshots(tables: Arc<Tables>, inputs: &[TickInput]) -> Result<Vec<Tick>, String> {
    let mut decider = Decider::new(tables).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    let mut ticks = Vec::with_capacity(inputs.len());
    for (index, input) in inputs.iter().enumerate() {
        decider.tick(input);
        let mut result = decider.result();
        result.tick = index as u64;
        let line = SnapshotTrace {
            game_time: decider.context().world.elapsed,
            result: &result,
        };
        let bytes = serde_json::to_vec(&line).map_err(|e| e.to_string())?;
        let record: TraceRecord = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
        ticks.push(Tick {
            record,
            bytes,
            key: index as u64,
        });
    }
    Ok(ticks)
}

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

/// Aligns two tick sequences on their keys (merge by key, in order).
fn align<'a>(old: &'a [Tick], new: &'a [Tick]) -> Vec<(Option<&'a Tick>, Option<&'a Tick>)> {
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

/// Compares two runs tick by tick: the spans where the decision in effect (`chosen`) differs,
/// split where either side's decision changes; and whether the whole traces are equal.
pub fn diff(
    old: &[Tick],
    new: &[Tick],
    old_tables: Option<&Tables>,
    new_tables: Option<&Tables>,
) -> DiffReport {
    let pairs = align(old, new);
    let mut spans: Vec<Span> = Vec::new();
    let mut trace_mismatches = 0;
    let mut open = false;
    for (a, b) in pairs {
        let same_trace = match (a, b) {
            (Some(a), Some(b)) => a.bytes == b.bytes || a.record == b.record,
            _ => false,
        };
        if !same_trace {
            trace_mismatches += 1;
        }
        let old_side = a.map(|t| t.record.chosen);
        let new_side = b.map(|t| t.record.chosen);
        if old_side == new_side {
            open = false;
            continue;
        }
        let time = a.or(b).map_or(0.0, |t| t.record.game_time);
        let index = a.or(b).map_or(0, |t| t.record.tick);
        if open
            && let Some(last) = spans.last_mut()
            && last.old.ticked == a.is_some()
            && last.new.ticked == b.is_some()
            && last.old.id == old_side.flatten()
            && last.new.id == new_side.flatten()
        {
            last.end = time;
            last.last_tick = index;
            last.ticks += 1;
            continue;
        }
        spans.push(Span {
            start: time,
            end: time,
            ticks: 1,
            first_tick: index,
            last_tick: index,
            old: side(a, b, old_tables),
            new: side(b, a, new_tables),
        });
        open = true;
    }
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

/// The report in words, one span per paragraph (warnings are not included).
pub fn render_text(report: &DiffReport) -> String {
    let mut out = String::new();
    let who = |s: &SpanSide| {
        if !s.ticked {
            return "(no tick)".to_string();
        }
        match (s.id, &s.name) {
            (Some(id), Some(name)) => format!("{id} \"{name}\""),
            (Some(id), None) => id.to_string(),
            (None, _) => "none".to_string(),
        }
    };
    for span in &report.spans {
        out.push_str(&format!(
            "{:7.1} s .. {:7.1} s ({} tick(s)): decision {} -> {}\n",
            span.start,
            span.end,
            span.ticks,
            who(&span.old),
            who(&span.new)
        ));
        if let (Some(reason), Some(id)) = (&span.old.why_not_other, span.new.id) {
            out.push_str(&format!("    old, why not {id}: {reason}\n"));
        }
        if let (Some(reason), Some(id)) = (&span.new.why_not_other, span.old.id) {
            out.push_str(&format!("    new, why not {id}: {reason}\n"));
        }
    }
    let verdict = if report.identical {
        "identical decisions".to_string()
    } else {
        format!("{} span(s) with different decisions", report.spans.len())
    };
    out.push_str(&format!(
        "{verdict}: old {} ({} ticks), new {} ({} ticks); traces {}\n",
        report.old,
        report.old_ticks,
        report.new,
        report.new_ticks,
        if report.traces_identical {
            "identical".to_string()
        } else {
            format!("differ at {} tick(s)", report.trace_mismatches)
        }
    ));
    out
}

/// Writes the recorded config files (the attachments) to `dir`, so that the config finds
/// the others; returns the config's path there.
pub fn extract_config(recording: &Recording, dir: &Path) -> Result<PathBuf, String> {
    let facts = recording
        .facts()
        .ok_or("the recording has no robot_decision metadata")?;
    let attachment = |name: &str| recording.attachments.iter().find(|a| a.name == name);
    let config_name = facts
        .get("file.config")
        .ok_or("the recording has no config attachment")?;
    let config = attachment(config_name)
        .ok_or_else(|| format!("attachment `{config_name}` is missing (cut file?)"))?;
    let mut text = String::from_utf8_lossy(&config.data).into_owned();
    for role in ["decisions", "waypoints", "map"] {
        let Some(name) = facts.get(&format!("file.{role}")) else {
            return Err(format!("the recording has no {role} attachment"));
        };
        let file = attachment(name)
            .ok_or_else(|| format!("attachment `{name}` is missing (cut file?)"))?;
        write_inside(dir, name, &file.data)?;
        // A config naming the file elsewhere (`../x/`, an absolute path) is pointed at the copy.
        if let Some(declared) = facts.get(&format!("declared.{role}"))
            && declared != name
            && let (Ok(from), Ok(to)) =
                (serde_json::to_string(declared), serde_json::to_string(name))
        {
            text = text.replace(&from, &to);
        }
    }
    write_inside(dir, config_name, text.as_bytes())
}

/// Writes `data` as `dir/name`, refusing names that would leave `dir`.
fn write_inside(dir: &Path, name: &str, data: &[u8]) -> Result<PathBuf, String> {
    let plain = Path::new(name)
        .file_name()
        .is_some_and(|f| f == std::ffi::OsStr::new(name));
    if !plain {
        return Err(format!("attachment name `{name}` is not a plain file name"));
    }
    let path = dir.join(name);
    std::fs::write(&path, data).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    Ok(path)
}

/// Loads a config for replay; the error text includes the diagnostics.
pub fn load_tables(config: &Path) -> Result<Arc<Tables>, String> {
    let outcome = load::load(config);
    match outcome.tables {
        Some(tables) => Ok(Arc::new(tables)),
        None => Err(format!(
            "{}{}: not loaded, fix the errors above",
            outcome.diagnostics,
            config.display()
        )),
    }
}

/// What the file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// An MCAP recording.
    Mcap,
    /// JSON Lines snapshots.
    Snapshots,
}

/// MCAP by magic bytes (or a `.mcap` name), else JSON Lines.
pub fn detect(path: &Path) -> Result<InputKind, String> {
    let mut head = [0u8; 8];
    let mut file =
        std::fs::File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let n = std::io::Read::read(&mut file, &mut head)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let by_name = path.extension().is_some_and(|e| e == "mcap");
    if is_mcap(head.get(..n).unwrap_or_default()) || by_name {
        Ok(InputKind::Mcap)
    } else {
        Ok(InputKind::Snapshots)
    }
}
