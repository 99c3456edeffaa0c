//! Runs inputs through a fresh node (recordings) or decider (snapshot files) and collects
//! the traces of the ticks, keyed for alignment. [`replay_node`] is the one feed of every
//! profile: each recorded message goes to [`NodeProfile::replay_message`] at its log time.

use super::ReplayError;
use crate::node::NodeCore;
use crate::profile::NodeProfile;
use crate::runtime::record::TraceRecord;
use bus::messages::Header;
use bus::recording::{RecordedMessage, Recording, from_nanos};
use bus::topics;
use decision_core::robomaster::snapshot::parse_line;
use decision_core::robomaster::{Decider, Tables, TickInput, TickResult};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;
use std::sync::Arc;

/// The recorded traces, in file order (unparseable ones are skipped).
pub fn traces(recording: &Recording) -> Vec<Tick> {
    recording
        .on_topic(topics::TRACE)
        .filter_map(|m| Tick::from_bytes(m.data.clone()))
        .collect()
}

/// A profile's published trace record as replay reads it back: what pairs two runs' ticks.
pub trait ReplayRecord: DeserializeOwned {
    /// The header of the tick (its stamp is the alignment key).
    fn header(&self) -> &Header;
}

impl ReplayRecord for TraceRecord {
    fn header(&self) -> &Header {
        &self.header
    }
}

/// One tick's trace, parsed for the diff and kept as bytes for exact comparison.
#[derive(Debug, Clone)]
pub struct Tick<R = TraceRecord> {
    /// The trace parsed, for the diff (decision in effect, why-not, time).
    pub record: R,
    /// The JSON line as written.
    pub bytes: Vec<u8>,
    /// Alignment key: header stamp in nanoseconds (MCAP) or line index (snapshots).
    pub key: u64,
}

impl<R: ReplayRecord> Tick<R> {
    /// Parses a trace payload; `None` when it is not a trace.
    pub fn from_bytes(bytes: Vec<u8>) -> Option<Self> {
        let record: R = decision_core::strict_serde::from_slice(&bytes).ok()?;
        let s = record.header().stamp;
        let key = u64::try_from(s.sec).unwrap_or(0) * 1_000_000_000 + u64::from(s.nanosec);
        Some(Self { record, bytes, key })
    }
}

/// Feeds `messages`, in the order given, through `node` with `now` = each message's log
/// time, and returns the traces of the ticks it made (as the node publishes them).
/// `progress(done, total)` is told every few thousand messages and at the end.
pub fn replay_node<P: NodeProfile>(
    node: &mut P,
    messages: &[&RecordedMessage],
    progress: &dyn Fn(u64, u64),
) -> Vec<Tick<P::Trace>> {
    let total = messages.len() as u64;
    let mut ticks = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        if let Some(output) = node.replay_message(&m.topic, &m.data, from_nanos(m.log_time))
            && let Some(tick) = Tick::from_bytes(node.trace_bytes(&output))
        {
            ticks.push(tick);
        }
        if i % 4096 == 0 {
            progress(i as u64, total);
        }
    }
    progress(total, total);
    ticks
}

/// Feeds the node inputs among `messages` through a fresh RoboMaster node for `tables`, in
/// log-time order (stable for equal times), `now` = log time; returns the traces of the ticks.
/// `progress(done, total)` is told every few thousand inputs and at the end.
pub fn replay_messages(
    tables: Arc<Tables>,
    messages: &[RecordedMessage],
    progress: &dyn Fn(u64, u64),
) -> Result<Vec<Tick>, ReplayError> {
    let mut node = NodeCore::new(tables).map_err(ReplayError::Compile)?;
    let mut inputs: Vec<&RecordedMessage> = messages
        .iter()
        .filter(|m| topics::NODE_INPUTS.contains(&m.topic.as_str()))
        .collect();
    inputs.sort_by_key(|m| m.log_time);
    Ok(replay_node(&mut node, &inputs, progress))
}

/// A snapshot tick's trace line: the `decide` result plus the game time.
#[derive(Serialize)]
struct SnapshotTrace<'a> {
    game_time: f64,
    #[serde(flatten)]
    result: &'a TickResult,
}

/// Parses a JSON Lines snapshot file; malformed lines are skipped with a warning each.
pub fn read_snapshots(path: &Path) -> Result<(Vec<TickInput>, Vec<String>), ReplayError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReplayError::Read {
        path: path.to_path_buf(),
        source,
    })?;
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
pub fn decide_snapshots(
    tables: Arc<Tables>,
    inputs: &[TickInput],
) -> Result<Vec<Tick>, ReplayError> {
    let mut decider = Decider::new(tables).map_err(ReplayError::Compile)?;
    let mut ticks = Vec::with_capacity(inputs.len());
    for (index, input) in inputs.iter().enumerate() {
        decider.tick(input);
        let mut result = decider.result();
        result.tick = index as u64;
        let line = SnapshotTrace {
            game_time: decider.context().world.elapsed,
            result: &result,
        };
        let bytes = serde_json::to_vec(&line)?;
        let record: TraceRecord = decision_core::strict_serde::from_slice(&bytes)?;
        ticks.push(Tick {
            record,
            bytes,
            key: index as u64,
        });
    }
    Ok(ticks)
}
