//! The recording source: an MCAP file written by `robot-decision` (`record`), scrubbed to any
//! log time. The decision shown is the recorded trace at that time; the map and the tree
//! statuses come from a shadow node fed the recorded inputs up to that time (the node is
//! deterministic, so this is the recorded world).

use crate::model::{FlatTree, TickView, View};
use bus::messages::GameInfo;
use bus::topics;
use decision_core::engine::TreeSpec;
use decision_core::robomaster::Tables;
use decision_node::node::{Ingested, NodeCore};
use decision_node::runtime::record::from_nanos;
use decision_node::runtime::replay::{RecordedMessage, extract_config, read_mcap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A recording opened for scrubbing.
pub struct RecordingSource {
    /// The MCAP file, as opened.
    pub path: PathBuf,
    messages: Vec<RecordedMessage>,
    traces: Vec<(f64, TickView)>,
    tables: Arc<Tables>,
    shadow: NodeCore,
    cursor: usize,
    time: f64,
    start: f64,
    end: f64,
    /// Whether time advances with the wall clock.
    pub playing: bool,
    /// Recorded seconds per wall second.
    pub speed: f64,
    extracted: Option<PathBuf>,
}

fn compile(tables: &Arc<Tables>) -> Result<NodeCore, String> {
    NodeCore::new(Arc::clone(tables)).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })
}

impl RecordingSource {
    /// Opens `path`; the tables come from the recording's attached files, else from
    /// `fallback_config`.
    pub fn open(path: &Path, fallback_config: &Path) -> Result<(Self, View), String> {
        let recording = read_mcap(path).map_err(|e| e.to_string())?;
        let dir = std::env::temp_dir().join(format!(
            "decision-viewer-{}-{}",
            std::process::id(),
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        ));
        let mut warnings = Vec::new();
        if let Some(w) = &recording.warning {
            warnings.push(w.clone());
        }
        let mut extracted = None;
        let from_recording = std::fs::create_dir_all(&dir)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                extracted = Some(dir.clone());
                extract_config(&recording, &dir).map_err(|e| e.to_string())
            })
            .and_then(|config| crate::sim::load_tables(&config));
        let tables = match from_recording {
            Ok(t) => t,
            Err(e) => {
                warnings.push(format!("using {} ({e})", fallback_config.display()));
                crate::sim::load_tables(fallback_config)?
            }
        };
        let mut messages = recording.messages;
        messages.sort_by_key(|m| m.log_time);
        let traces: Vec<(f64, TickView)> = messages
            .iter()
            .filter(|m| m.topic == topics::TRACE)
            .filter_map(|m| {
                TickView::from_json(&m.data)
                    .ok()
                    .map(|t| (from_nanos(m.log_time), t))
            })
            .collect();
        let (start, end) = match (messages.first(), messages.last()) {
            (Some(a), Some(b)) => (from_nanos(a.log_time), from_nanos(b.log_time)),
            _ => (0.0, 0.0),
        };
        let shadow = compile(&tables)?;
        let mut view = View::new(Arc::clone(&tables), shadow.layout());
        view.push_event(
            start,
            "open",
            format!(
                "{}: {} messages, {} ticks, {:.1} s",
                path.display(),
                messages.len(),
                traces.len(),
                end - start
            ),
        );
        for w in warnings {
            view.push_event(start, "warning", w);
        }
        let mut source = Self {
            path: path.to_path_buf(),
            messages,
            traces,
            tables,
            shadow,
            cursor: 0,
            time: start,
            start,
            end,
            playing: false,
            speed: 1.0,
            extracted,
        };
        source.seek(start, &mut view);
        Ok((source, view))
    }

    /// The log-time span `(start, end)` in seconds.
    pub fn span(&self) -> (f64, f64) {
        (self.start, self.end)
    }

    /// The current log time in seconds.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Number of recorded ticks.
    pub fn tick_count(&self) -> usize {
        self.traces.len()
    }

    /// Log times of the recorded ticks.
    pub fn tick_times(&self) -> impl Iterator<Item = f64> + '_ {
        self.traces.iter().map(|(t, _)| *t)
    }

    /// Shows the recording at log time `t` (clamped to the span).
    pub fn seek(&mut self, t: f64, view: &mut View) {
        let t = if t.is_finite() {
            t.clamp(self.start, self.end)
        } else {
            self.start
        };
        if t < self.time || self.cursor == 0 {
            // Back in time: start the shadow over.
            if let Ok(fresh) = compile(&self.tables) {
                self.shadow = fresh;
            }
            self.cursor = 0;
            view.world = None;
            view.aim = None;
            view.robots.clear();
            view.statuses.clear();
        }
        let mut ticked = false;
        while let Some(m) = self.messages.get(self.cursor) {
            let at = from_nanos(m.log_time);
            if at > t {
                break;
            }
            self.cursor += 1;
            match m.topic.as_str() {
                topics::TRACE => {}
                topics::TREE_LAYOUT => {
                    if let Ok(spec) = decision_core::strict_serde::from_slice::<TreeSpec>(&m.data) {
                        view.tree = FlatTree::new(&spec);
                    }
                }
                topic => {
                    if topic == topics::GAME_INFO
                        && let Ok(info) = bus::decode::<GameInfo>(topic, &m.data)
                    {
                        view.stage = Some(info.game_stage);
                        view.remaining = Some(info.timestamp);
                    }
                    if let Ingested::Tick(_) = self.shadow.ingest(topic, &m.data, at) {
                        ticked = true;
                    }
                }
            }
        }
        if ticked {
            view.observe_node(&self.shadow);
        }
        view.health.stats = self.shadow.stats();
        let n = self.traces.partition_point(|(at, _)| *at <= t);
        view.tick = n
            .checked_sub(1)
            .and_then(|i| self.traces.get(i))
            .map(|(_, tick)| tick.clone());
        self.time = t;
    }

    /// Moves to the next recorded tick.
    pub fn next_tick(&mut self, view: &mut View) {
        let n = self.traces.partition_point(|(at, _)| *at <= self.time);
        if let Some((at, _)) = self.traces.get(n) {
            let at = *at;
            self.seek(at, view);
        }
    }

    /// Advances by `wall_seconds * speed` when playing.
    pub fn advance(&mut self, wall_seconds: f64, view: &mut View) {
        if !self.playing {
            return;
        }
        let t = self.time + (wall_seconds * self.speed).max(0.0);
        self.seek(t, view);
        if self.time >= self.end {
            self.playing = false;
        }
    }
}

impl Drop for RecordingSource {
    fn drop(&mut self) {
        if let Some(dir) = &self.extracted {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}
