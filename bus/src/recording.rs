//! MCAP recordings of the bus: a crash-safe writer (one JSON channel per topic with its JSON
//! Schema, attachments, metadata, chunks flushed whole) and a lenient reader that keeps
//! everything before a cut or damaged record. Foxglove and Lichtblick open the files.

use crate::messages::Header;
use mcap::records::Metadata;
use mcap::{Attachment, WriteOptions, Writer};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Name of the metadata record the node runtime writes (the run's facts).
pub const METADATA_NAME: &str = "robot_decision";
/// Message encoding of every channel.
pub const MESSAGE_ENCODING: &str = "json";
/// Schema encoding of every channel.
pub const SCHEMA_ENCODING: &str = "jsonschema";

/// Seconds to MCAP nanoseconds (negative and non-finite times become 0).
pub fn to_nanos(t: f64) -> u64 {
    if t.is_finite() && t > 0.0 {
        // Saturates at u64::MAX for absurd times.
        (t * 1e9).round() as u64
    } else {
        0
    }
}

/// MCAP nanoseconds to seconds: the `now` that replay passes to the node.
pub fn from_nanos(ns: u64) -> f64 {
    ns as f64 / 1e9
}

/// Just the header of any message, for the publish time.
#[derive(Deserialize)]
struct HeaderOnly {
    #[serde(default)]
    header: Option<Header>,
}

/// The header stamp of a JSON payload in nanoseconds, when it has one.
pub fn header_stamp_nanos(payload: &[u8]) -> Option<u64> {
    let h: HeaderOnly = serde_json::from_slice(payload).ok()?;
    let stamp = h.header?.stamp;
    u64::try_from(stamp.sec)
        .ok()
        .map(|s| s * 1_000_000_000 + u64::from(stamp.nanosec))
}

/// One message of a recording.
#[derive(Debug, Clone)]
pub struct RecordedMessage {
    /// Topic (channel) name.
    pub topic: String,
    /// Receive time in nanoseconds.
    pub log_time: u64,
    /// Header stamp in nanoseconds.
    pub publish_time: u64,
    /// The JSON payload.
    pub data: Vec<u8>,
}

/// One attachment of a recording.
#[derive(Debug, Clone)]
pub struct RecordedAttachment {
    /// File name.
    pub name: String,
    /// Media type.
    pub media_type: String,
    /// Content.
    pub data: Vec<u8>,
}

/// A channel of a recording.
#[derive(Debug, Clone, Default)]
pub struct ChannelInfo {
    /// Schema name.
    pub schema_name: String,
    /// Schema encoding (`jsonschema`).
    pub schema_encoding: String,
    /// Message encoding (`json`).
    pub message_encoding: String,
    /// Schema bytes as stored: JSON Schema text for our channels, empty for a schemaless one.
    pub schema: Vec<u8>,
}

/// What could be read of an MCAP file, up to its end or to the first damaged record.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// Messages in file order.
    pub messages: Vec<RecordedMessage>,
    /// Channels by topic.
    pub channels: BTreeMap<String, ChannelInfo>,
    /// Attachments in file order.
    pub attachments: Vec<RecordedAttachment>,
    /// Metadata records by name.
    pub metadata: BTreeMap<String, BTreeMap<String, String>>,
    /// Set when the file is cut or damaged: what was read stops there.
    pub warning: Option<String>,
}

impl Recording {
    /// The metadata record the node runtime writes, if present.
    pub fn facts(&self) -> Option<&BTreeMap<String, String>> {
        self.metadata.get(METADATA_NAME)
    }

    /// Log-time span `(first, last)` of the messages in seconds.
    pub fn span(&self) -> Option<(f64, f64)> {
        let first = self.messages.iter().map(|m| m.log_time).min()?;
        let last = self.messages.iter().map(|m| m.log_time).max()?;
        Some((from_nanos(first), from_nanos(last)))
    }

    /// The messages recorded on `topic`, in file order.
    pub fn on_topic<'a>(
        &'a self,
        topic: &'a str,
    ) -> impl Iterator<Item = &'a RecordedMessage> + 'a {
        self.messages.iter().filter(move |m| m.topic == topic)
    }
}

/// Whether `bytes` start like an MCAP file.
pub fn is_mcap(bytes: &[u8]) -> bool {
    bytes.starts_with(mcap::MAGIC)
}

/// Reads an MCAP file leniently: a cut or damaged file yields everything before the damage
/// and a warning. Fails only when the file cannot be read or is not MCAP at all.
pub fn read_mcap(path: &Path) -> Result<Recording, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    read_mcap_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Largest record (and record inside a chunk) read, in bytes, unless the file itself is larger:
/// a corrupt length is an error instead of an allocation of that size (a fuzzed file asked for
/// 4 EB and aborted). Our recordings' records are kilobytes, attached maps a few megabytes.
const RECORD_LENGTH_LIMIT: usize = 64 << 20;

/// `bytes` up to the first uncompressed chunk whose records overrun the chunk (all of it when
/// there is none). The mcap reader subtracts such a record's length from the chunk's remaining
/// size unchecked (a panic with overflow checks, a wrap-around without), so a file damaged there
/// is read as cut at that chunk instead. Compressed chunks are checked by the decompressor.
fn intact_prefix(bytes: &[u8]) -> &[u8] {
    const CHUNK: u8 = 0x06;
    let u64_at = |b: &[u8], at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(
            b.get(at..at.checked_add(8)?)?.try_into().ok()?,
        ))
    };
    let u32_at = |b: &[u8], at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(
            b.get(at..at.checked_add(4)?)?.try_into().ok()?,
        ))
    };
    // Whether the chunk body `body` is uncompressed with a record overrunning it.
    let overruns = |body: &[u8]| -> bool {
        // start time, end time, uncompressed size (8 each), CRC (4), compression string.
        // Only uncompressed chunks (an empty compression name); their records start at 32.
        if u32_at(body, 28) != Some(0) {
            return false;
        }
        let Some(len) = u64_at(body, 32).and_then(|n| usize::try_from(n).ok()) else {
            return false;
        };
        let records = body
            .get(40..)
            .and_then(|r| r.get(..len))
            .unwrap_or_default();
        let mut at = 0usize;
        while at < records.len() {
            let fits = u64_at(records, at + 1)
                .and_then(|n| usize::try_from(n).ok())
                .and_then(|n| n.checked_add(9))
                .and_then(|n| n.checked_add(at))
                .filter(|end| *end <= records.len());
            match fits {
                Some(end) => at = end,
                None => return true,
            }
        }
        false
    };
    let mut at = mcap::MAGIC.len();
    while let Some(len) = u64_at(bytes, at + 1).and_then(|n| usize::try_from(n).ok()) {
        let body_at = at + 9;
        let Some(body) = body_at
            .checked_add(len)
            .and_then(|end| bytes.get(body_at..end))
        else {
            break; // a cut file: the reader reports it
        };
        if bytes.get(at) == Some(&CHUNK) && overruns(body) {
            return bytes.get(..at).unwrap_or_default();
        }
        at = body_at + len;
    }
    bytes
}

/// The records of an MCAP file in order, chunks unpacked, with [`RECORD_LENGTH_LIMIT`].
fn records(
    bytes: &[u8],
) -> impl Iterator<Item = mcap::McapResult<mcap::records::Record<'static>>> + '_ {
    use mcap::sans_io::linear_reader::{LinearReadEvent, LinearReader, LinearReaderOptions};
    // A record may be as long as the file (a large attachment), never longer than both.
    let limit = RECORD_LENGTH_LIMIT.max(bytes.len());
    let mut reader = LinearReader::new_with_options(
        LinearReaderOptions::default().with_record_length_limit(limit),
    );
    let mut rest = bytes;
    std::iter::from_fn(move || {
        while let Some(event) = reader.next_event() {
            match event {
                Ok(LinearReadEvent::ReadRequest(need)) => {
                    let (now, later) = rest.split_at(need.min(rest.len()));
                    reader.insert(now.len()).copy_from_slice(now);
                    reader.notify_read(now.len());
                    rest = later;
                }
                Ok(LinearReadEvent::Record { data, opcode }) => {
                    return Some(mcap::parse_record(opcode, data).map(|r| r.into_owned()));
                }
                Err(e) => return Some(Err(e)),
            }
        }
        None
    })
}

/// [`read_mcap`] on bytes in memory.
pub fn read_mcap_bytes(bytes: &[u8]) -> Result<Recording, String> {
    use mcap::records::Record;
    if !is_mcap(bytes) {
        return Err("not an MCAP file (no MCAP magic at the start)".into());
    }
    let reader = records(intact_prefix(bytes));
    let mut recording = Recording::default();
    let mut schemas: BTreeMap<u16, ChannelInfo> = BTreeMap::new();
    let mut channels: BTreeMap<u16, String> = BTreeMap::new();
    let mut complete = false;
    for record in reader {
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                recording.warning = Some(cut_warning(&recording, &e.to_string()));
                break;
            }
        };
        match record {
            Record::Schema { header, data } => {
                schemas.insert(
                    header.id,
                    ChannelInfo {
                        schema_name: header.name,
                        schema_encoding: header.encoding,
                        message_encoding: String::new(),
                        schema: data.into_owned(),
                    },
                );
            }
            Record::Channel(channel) => {
                let mut info = schemas.get(&channel.schema_id).cloned().unwrap_or_default();
                info.message_encoding = channel.message_encoding;
                recording.channels.insert(channel.topic.clone(), info);
                channels.insert(channel.id, channel.topic);
            }
            Record::Message { header, data } => {
                let Some(topic) = channels.get(&header.channel_id) else {
                    recording.warning = Some(cut_warning(
                        &recording,
                        &format!("message on unknown channel {}", header.channel_id),
                    ));
                    break;
                };
                recording.messages.push(RecordedMessage {
                    topic: topic.clone(),
                    log_time: header.log_time,
                    publish_time: header.publish_time,
                    data: data.into_owned(),
                });
            }
            Record::Attachment { header, data, .. } => {
                recording.attachments.push(RecordedAttachment {
                    name: header.name,
                    media_type: header.media_type,
                    data: data.into_owned(),
                });
            }
            Record::Metadata(m) => {
                recording.metadata.insert(m.name, m.metadata);
            }
            // The summary after it repeats what was read.
            Record::DataEnd(_) => {
                complete = true;
                break;
            }
            _ => {}
        }
    }
    if !complete && recording.warning.is_none() {
        recording.warning = Some(cut_warning(
            &recording,
            "the file ends without its data end",
        ));
    }
    Ok(recording)
}

fn cut_warning(recording: &Recording, error: &str) -> String {
    let last = recording
        .messages
        .iter()
        .map(|m| m.log_time)
        .max()
        .map_or("no message".to_string(), |t| {
            format!("the last at log time {:.3} s", from_nanos(t))
        });
    format!(
        "the file is cut or damaged ({error}); using the {} message(s) before the damage, {last}",
        recording.messages.len()
    )
}

/// A chunk is closed and flushed after this many seconds of log time.
pub const FLUSH_PERIOD: f64 = 1.0;
/// A chunk is closed and flushed after this many messages.
pub const FLUSH_MESSAGES: usize = 1000;

/// A failure to write a recording.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file could not be created or written.
    #[error("{path}: cannot write the recording: {message}")]
    Io {
        /// The MCAP file being written.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A message could not be encoded.
    #[error("cannot encode a message on `{topic}`: {message}")]
    Encode {
        /// Topic the message was to be recorded on.
        topic: String,
        /// What went wrong.
        message: String,
    },
}

/// Counts of a finished recording.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecordSummary {
    /// Messages written.
    pub messages: u64,
    /// Chunks written.
    pub chunks: u64,
}

/// Writes an MCAP file of JSON messages, crash-safe: messages go to small chunks that are
/// written whole at [`poll`](Self::poll) points, so a file cut by a crash or a kill is
/// readable up to its last complete chunk.
pub struct McapWriter {
    writer: Writer<BufWriter<File>>,
    path: PathBuf,
    channels: HashMap<String, u16>,
    sequence: u32,
    chunk_start: Option<f64>,
    chunk_messages: usize,
    summary: RecordSummary,
}

impl McapWriter {
    /// Creates `path`; `library` names the writing program in the file header.
    pub fn create(path: &Path, library: &str) -> Result<Self, RecordError> {
        let io = |e: &dyn std::fmt::Display| RecordError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let file = File::create(path).map_err(|e| io(&e))?;
        // Seeking disabled: a chunk is built in memory and written whole, so a kill leaves at
        // most one partial chunk at the end of the file.
        let options = WriteOptions::new()
            .profile("")
            .library(format!("{library} {}", mcap::LIBRARY_IDENTIFIER))
            .chunk_size(None)
            .disable_seeking(true)
            .compression_threads(0);
        let writer = options
            .create(BufWriter::with_capacity(1 << 16, file))
            .map_err(|e| io(&e))?;
        Ok(Self {
            writer,
            path: path.to_path_buf(),
            channels: HashMap::new(),
            sequence: 0,
            chunk_start: None,
            chunk_messages: 0,
            summary: RecordSummary::default(),
        })
    }

    fn io_error(&self, e: &dyn std::fmt::Display) -> RecordError {
        RecordError::Io {
            path: self.path.clone(),
            message: e.to_string(),
        }
    }

    /// Declares the channel of `topic` with its schema name and JSON Schema.
    pub fn add_channel(
        &mut self,
        topic: &str,
        name: &str,
        schema: &serde_json::Value,
    ) -> Result<u16, RecordError> {
        let data = serde_json::to_vec(schema).map_err(|e| self.io_error(&e))?;
        let schema_id = self
            .writer
            .add_schema(name, SCHEMA_ENCODING, &data)
            .map_err(|e| self.io_error(&e))?;
        let id = self
            .writer
            .add_channel(schema_id, topic, MESSAGE_ENCODING, &BTreeMap::new())
            .map_err(|e| self.io_error(&e))?;
        self.channels.insert(topic.to_string(), id);
        Ok(id)
    }

    /// Attaches a file (log time 0).
    pub fn attach(
        &mut self,
        name: &str,
        media_type: &str,
        data: Vec<u8>,
    ) -> Result<(), RecordError> {
        self.writer
            .attach(&Attachment {
                log_time: 0,
                create_time: 0,
                name: name.to_string(),
                media_type: media_type.to_string(),
                data: Cow::Owned(data),
            })
            .map_err(|e| self.io_error(&e))
    }

    /// Writes a metadata record.
    pub fn write_metadata(
        &mut self,
        name: &str,
        metadata: BTreeMap<String, String>,
    ) -> Result<(), RecordError> {
        self.writer
            .write_metadata(&Metadata {
                name: name.into(),
                metadata,
            })
            .map_err(|e| self.io_error(&e))
    }

    /// Records one message at `log_time` seconds; the publish time is the payload's header
    /// stamp (the log time without one). An undeclared topic gets a schemaless channel.
    pub fn record(
        &mut self,
        topic: &str,
        payload: &[u8],
        log_time: f64,
    ) -> Result<(), RecordError> {
        let channel_id = match self.channels.get(topic) {
            Some(id) => *id,
            None => self.add_channel(topic, "", &serde_json::Value::Bool(true))?,
        };
        let log_ns = to_nanos(log_time);
        let header = mcap::records::MessageHeader {
            channel_id,
            sequence: self.sequence,
            log_time: log_ns,
            publish_time: header_stamp_nanos(payload).unwrap_or(log_ns),
        };
        self.sequence = self.sequence.wrapping_add(1);
        self.writer
            .write_to_known_channel(&header, payload)
            .map_err(|e| self.io_error(&e))?;
        self.summary.messages += 1;
        self.chunk_messages += 1;
        self.chunk_start.get_or_insert(log_time);
        // Chunks end at safe points (see `poll`); this only bounds memory if nobody polls.
        if self.chunk_messages >= 64 * FLUSH_MESSAGES {
            self.flush()?;
        }
        Ok(())
    }

    /// Records a message struct, encoded as the bus encodes it.
    pub fn record_message<T: serde::Serialize>(
        &mut self,
        topic: &str,
        message: &T,
        log_time: f64,
    ) -> Result<(), RecordError> {
        let payload = serde_json::to_vec(message).map_err(|e| RecordError::Encode {
            topic: topic.to_string(),
            message: e.to_string(),
        })?;
        self.record(topic, &payload, log_time)
    }

    /// Closes the open chunk when it holds [`FLUSH_MESSAGES`] messages or is older than
    /// [`FLUSH_PERIOD`] at `now`. Callers poll at safe points, after an input and the outputs
    /// of its tick, so that a file cut at a chunk boundary never holds an input whose tick is
    /// missing (and replay of a cut file matches the recorded ticks).
    pub fn poll(&mut self, now: f64) -> Result<(), RecordError> {
        match self.chunk_start {
            Some(start) if now - start >= FLUSH_PERIOD || self.chunk_messages >= FLUSH_MESSAGES => {
                self.flush()
            }
            _ => Ok(()),
        }
    }

    /// Writes the open chunk whole and flushes the file.
    pub fn flush(&mut self) -> Result<(), RecordError> {
        if self.chunk_messages > 0 {
            self.summary.chunks += 1;
        }
        self.chunk_start = None;
        self.chunk_messages = 0;
        self.writer.flush().map_err(|e| self.io_error(&e))
    }

    /// Writes the summary and closes the file.
    pub fn finish(mut self) -> Result<RecordSummary, RecordError> {
        self.flush()?;
        self.writer.finish().map_err(|e| self.io_error(&e))?;
        let mut inner = self.writer.into_inner();
        std::io::Write::flush(&mut inner).map_err(|e| RecordError::Io {
            path: self.path.clone(),
            message: e.to_string(),
        })?;
        Ok(self.summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An MCAP file: the magic and one uncompressed chunk holding `inner` as its records.
    fn with_uncompressed_chunk(inner: &[u8]) -> Vec<u8> {
        let mut body = Vec::new();
        body.extend_from_slice(&0u64.to_le_bytes()); // message start time
        body.extend_from_slice(&0u64.to_le_bytes()); // message end time
        body.extend_from_slice(&(inner.len() as u64).to_le_bytes()); // uncompressed size
        body.extend_from_slice(&0u32.to_le_bytes()); // CRC: not checked
        body.extend_from_slice(&0u32.to_le_bytes()); // compression "" (none)
        body.extend_from_slice(&(inner.len() as u64).to_le_bytes());
        body.extend_from_slice(inner);
        let mut file = mcap::MAGIC.to_vec();
        file.push(0x06);
        file.extend_from_slice(&(body.len() as u64).to_le_bytes());
        file.extend_from_slice(&body);
        file
    }

    #[test]
    fn a_record_overrunning_its_uncompressed_chunk_reads_as_a_cut_file() {
        // A record of opcode 0x03 (schema) claiming 100 bytes in a 12-byte chunk.
        let mut inner = vec![0x03];
        inner.extend_from_slice(&100u64.to_le_bytes());
        inner.extend_from_slice(&[0; 3]);
        let mut file = with_uncompressed_chunk(&inner);
        // More file after the chunk, so the overrun reads into it (an unknown record, 200 bytes).
        file.push(0x7f);
        file.extend_from_slice(&191u64.to_le_bytes());
        file.extend_from_slice(&[0; 191]);
        assert_eq!(intact_prefix(&file), mcap::MAGIC);
        let recording = read_mcap_bytes(&file).expect("still MCAP");
        assert!(recording.messages.is_empty());
        assert!(recording.warning.is_some(), "reported as cut");
    }

    #[test]
    fn intact_chunks_are_read_whole() {
        // One empty record (opcode 0x7f, length 0) fits its chunk.
        let mut inner = vec![0x7f];
        inner.extend_from_slice(&0u64.to_le_bytes());
        let file = with_uncompressed_chunk(&inner);
        assert_eq!(intact_prefix(&file).len(), file.len());
        // Not MCAP records at all after the magic: left to the reader.
        let mut odd = mcap::MAGIC.to_vec();
        odd.extend_from_slice(&[0xff; 5]);
        assert_eq!(intact_prefix(&odd).len(), odd.len());
    }
}
