//! `robot-decision record-info FILE.mcap`: what a recording holds: topics with message
//! counts, the log-time span, decisions taken and decision changes, attachments, metadata,
//! and whether the file is complete.

use super::replay::{Recording, read_mcap};
use bus::topics;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One topic of a recording.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopicInfo {
    /// Topic name.
    pub topic: String,
    /// Messages on it.
    pub messages: usize,
    /// Schema name.
    pub schema: String,
    /// Schema encoding.
    pub schema_encoding: String,
    /// Message encoding.
    pub message_encoding: String,
}

/// One attachment of a recording.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttachmentInfo {
    /// File name.
    pub name: String,
    /// Media type.
    pub media_type: String,
    /// Size in bytes.
    pub bytes: usize,
}

/// The summary `record-info` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordInfo {
    /// File size in bytes.
    pub file_bytes: u64,
    /// False when the file is cut or damaged.
    pub complete: bool,
    /// The reader's warning for a cut or damaged file.
    pub warning: Option<String>,
    /// All messages.
    pub messages: usize,
    /// First log time in seconds.
    pub start: Option<f64>,
    /// Last log time in seconds.
    pub end: Option<f64>,
    /// Ticks (trace messages).
    pub ticks: usize,
    /// Decision messages published (ticks with a decision in effect).
    pub decisions_taken: usize,
    /// Times the decision in effect changed between two consecutive ticks.
    pub decision_changes: usize,
    /// Topics in name order.
    pub topics: Vec<TopicInfo>,
    /// Attachments in file order.
    pub attachments: Vec<AttachmentInfo>,
    /// Metadata records by name.
    pub metadata: BTreeMap<String, BTreeMap<String, String>>,
}

/// Summarises a recording read by [`read_mcap`].
pub fn summarise(recording: &Recording, file_bytes: u64) -> RecordInfo {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &recording.messages {
        *counts.entry(m.topic.as_str()).or_default() += 1;
    }
    let topics = recording
        .channels
        .iter()
        .map(|(topic, c)| TopicInfo {
            topic: topic.clone(),
            messages: counts.get(topic.as_str()).copied().unwrap_or(0),
            schema: c.schema_name.clone(),
            schema_encoding: c.schema_encoding.clone(),
            message_encoding: c.message_encoding.clone(),
        })
        .collect();
    let (ticks, decisions_taken, decision_changes) = if super::replay::soccer::is_soccer(recording)
    {
        soccer_counts(recording)
    } else {
        let traces = super::replay::traces(recording);
        let changes = traces
            .windows(2)
            .filter(|w| matches!(w, [a, b] if a.record.chosen != b.record.chosen))
            .count();
        (
            traces.len(),
            counts.get(topics::DECISION).copied().unwrap_or(0),
            changes,
        )
    };
    let span = recording.span();
    RecordInfo {
        file_bytes,
        complete: recording.warning.is_none(),
        warning: recording.warning.clone(),
        messages: recording.messages.len(),
        start: span.map(|s| s.0),
        end: span.map(|s| s.1),
        ticks,
        decisions_taken,
        decision_changes,
        topics,
        attachments: recording
            .attachments
            .iter()
            .map(|a| AttachmentInfo {
                name: a.name.clone(),
                media_type: a.media_type.clone(),
                bytes: a.data.len(),
            })
            .collect(),
        metadata: recording.metadata.clone(),
    }
}

/// A soccer recording's ticks (traces of every robot), motion commands, and changes of a
/// robot's branch or role from one of its ticks to the next.
fn soccer_counts(recording: &Recording) -> (usize, usize, usize) {
    use crate::soccer::trace::SoccerTraceRecord;
    let mut last: BTreeMap<&str, (String, Option<String>)> = BTreeMap::new();
    let (mut ticks, mut commands, mut changes) = (0, 0, 0);
    for m in &recording.messages {
        if m.topic.ends_with(bus::soccer::MOTION_COMMAND) {
            commands += 1;
        }
        let Some(prefix) = m.topic.strip_suffix(bus::soccer::TRACE) else {
            continue;
        };
        let Ok(trace) = decision_core::strict_serde::from_slice::<SoccerTraceRecord>(&m.data)
        else {
            continue;
        };
        ticks += 1;
        let now = (trace.branch().to_string(), trace.role().map(str::to_string));
        if last.get(prefix).is_some_and(|before| *before != now) {
            changes += 1;
        }
        last.insert(prefix, now);
    }
    (ticks, commands, changes)
}

/// The summary in words.
pub fn render_text(path: &Path, info: &RecordInfo) -> String {
    let mut out = format!("file: {} ({} bytes)", path.display(), info.file_bytes);
    out.push_str(if info.complete {
        ", complete\n"
    } else {
        ", INCOMPLETE\n"
    });
    if let Some(w) = &info.warning {
        out.push_str(&format!("warning: {w}\n"));
    }
    match (info.start, info.end) {
        (Some(a), Some(b)) => out.push_str(&format!(
            "time span: {a:.3} s .. {b:.3} s ({:.3} s of log time), {} messages\n",
            b - a,
            info.messages
        )),
        _ => out.push_str("time span: no message\n"),
    }
    out.push_str(&format!(
        "decisions: {} ticks, {} decisions taken, {} decision changes\n",
        info.ticks, info.decisions_taken, info.decision_changes
    ));
    out.push_str("topics:\n");
    let width = info.topics.iter().map(|t| t.topic.len()).max().unwrap_or(0);
    for t in &info.topics {
        out.push_str(&format!(
            "  {:width$}  {:7} msgs  {} ({}, {})\n",
            t.topic, t.messages, t.schema, t.schema_encoding, t.message_encoding
        ));
    }
    out.push_str("attachments:\n");
    for a in &info.attachments {
        out.push_str(&format!(
            "  {}  {}  {} bytes\n",
            a.name, a.media_type, a.bytes
        ));
    }
    for (name, entries) in &info.metadata {
        out.push_str(&format!("metadata {name}:\n"));
        for (k, v) in entries {
            out.push_str(&format!("  {k} = {v}\n"));
        }
    }
    out
}

/// `robot-decision record-info`: exit 0, or 2 when the file cannot be read as MCAP.
pub fn record_info_command(path: &Path, json: bool) -> u8 {
    let recording = match read_mcap(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    let info = summarise(&recording, bytes);
    if json {
        match serde_json::to_string_pretty(&info) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("cannot render: {e}");
                return 2;
            }
        }
    } else {
        print!("{}", render_text(path, &info));
    }
    if json && let Some(w) = &info.warning {
        eprintln!("warning: {}: {w}", path.display());
    }
    0
}
