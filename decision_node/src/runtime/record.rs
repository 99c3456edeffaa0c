//! `--record FILE.mcap` of `run` and `sim`: every input the node reads and every output it
//! publishes, in an MCAP file that Foxglove and Lichtblick open (one channel per topic, JSON
//! messages, a JSON Schema per channel), with the config files in use as attachments and the
//! run's facts as metadata.
//!
//! Crash safety: messages go to small chunks that are written whole and flushed to the file
//! every [`FLUSH_PERIOD`] seconds of log time or [`FLUSH_MESSAGES`] messages (at a tick
//! boundary, see [`Recorder::poll`]), so a file cut by a crash or a kill is readable up to its
//! last complete chunk (see `replay` and
//! `record-info`, which warn about the cut and use everything before it).

use crate::node::{NodeOutput, TraceMsg};
use bus::messages::{
    Autoaim, CarPos, DecisionMsg, DetectionArray, Float32, GameInfo, GoalStatusArray, Header,
    NavCancel, NavFeedback, NavGoal, ObjHp, PoseMsg, Serial,
};
use bus::recording::McapWriter;
pub use bus::recording::{
    FLUSH_MESSAGES, FLUSH_PERIOD, METADATA_NAME, RecordError, RecordSummary, from_nanos,
    header_stamp_nanos, to_nanos,
};
use bus::topics;
use decision_core::engine::TreeSpec;
use decision_core::robomaster::Tables;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One tick's trace as read back from `robot_decision/trace`: the mirror of [`TraceMsg`]
/// with the fields typed for the diff and the viewer (and the channel's JSON Schema derived
/// from it); tolerant: absent fields take their defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct TraceRecord {
    /// Stamp of the tick (absent in traces of snapshot files).
    #[serde(default)]
    pub header: Header,
    /// Elapsed game seconds.
    pub game_time: f64,
    /// Tick index from 0.
    pub tick: u64,
    /// Why nothing was published, or null.
    pub skipped: Option<String>,
    /// Our current waypoint id, or null.
    pub waypoint: Option<i32>,
    /// Ids of the decisions whose guards held.
    pub available: Vec<i32>,
    /// Id of the best available decision, or null.
    pub best: Option<i32>,
    /// Id of the decision in effect after the tick, or null.
    pub chosen: Option<i32>,
    /// What the navigation did (`none`, `send`, `hold`, `continue`, `preempt`).
    pub action: String,
    /// Waypoint ids of the chosen path.
    pub path: Vec<i32>,
    /// `[x, y, heading]` of each path waypoint.
    pub poses: Vec<[f32; 3]>,
    /// Absolute aim yaw, or null.
    pub aim_yaw: Option<f32>,
    /// The Decision message published, or null.
    pub decision: Option<TraceDecision>,
    /// Id of the decision whose goal was cancelled this tick, or null.
    pub cancelled: Option<i32>,
    /// For each unavailable decision id, its first failing guard in words.
    pub why_not: BTreeMap<String, String>,
}

impl TraceRecord {
    /// Parses a trace payload (JSON).
    pub fn from_json(payload: &[u8]) -> Result<Self, String> {
        decision_core::strict_serde::from_slice(payload).map_err(|e| format!("trace: {e}"))
    }

    /// Converts an in-process trace.
    pub fn from_trace(trace: &TraceMsg) -> Self {
        serde_json::to_value(trace)
            .and_then(serde_json::from_value)
            .unwrap_or_default()
    }

    /// The first failing guard of decision `id`, if it was unavailable.
    pub fn why_not_of(&self, id: i32) -> Option<&str> {
        self.why_not.get(&id.to_string()).map(String::as_str)
    }
}

/// The Decision message inside a trace.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TraceDecision {
    /// The decision's id on the wire.
    pub decision_id: u8,
    /// Mode for the lower computer.
    pub mode: u8,
    /// Final target x.
    pub x: f32,
    /// Final target y.
    pub y: f32,
    /// Gimbal yaw relative to the chassis.
    pub theta: f32,
}

/// The shape of a `robot_decision/events` message, for its channel schema.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct EventRecord {
    /// Stamp.
    pub header: Header,
    /// `start`, `reload_accepted`, `reload_rejected`, `malformed`, `stats`, `stop`.
    pub kind: String,
    /// In words.
    pub message: String,
    /// Diagnostics of a reload.
    #[serde(default)]
    pub diagnostics: Vec<serde_json::Value>,
    /// Counters, on `stats`.
    #[serde(default)]
    pub stats: Option<serde_json::Value>,
}

/// A JSON Schema (draft 7, sub-schemas inlined, as Foxglove reads them) for `T`.
fn schema_of<T: JsonSchema>() -> serde_json::Value {
    let generator = SchemaSettings::draft07()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    generator.into_root_schema_for::<T>().to_value()
}

/// Every topic this crate records, with its schema name and JSON Schema.
pub fn channel_schemas() -> Vec<(&'static str, &'static str, serde_json::Value)> {
    vec![
        (topics::OBJ_HP, "ObjHp", schema_of::<ObjHp>()),
        (topics::CAR_POS, "CarPos", schema_of::<CarPos>()),
        (topics::GAME_INFO, "GameInfo", schema_of::<GameInfo>()),
        (topics::SERIAL_MSG, "Serial", schema_of::<Serial>()),
        (topics::POSE, "PoseMsg", schema_of::<PoseMsg>()),
        (topics::AUTOAIM, "Autoaim", schema_of::<Autoaim>()),
        (
            topics::PERCEPTION,
            "DetectionArray",
            schema_of::<DetectionArray>(),
        ),
        (
            topics::NAV_STATUS,
            "GoalStatusArray",
            schema_of::<GoalStatusArray>(),
        ),
        (
            topics::NAV_FEEDBACK,
            "NavFeedback",
            schema_of::<NavFeedback>(),
        ),
        (topics::NAV_GOAL, "NavGoal", schema_of::<NavGoal>()),
        (topics::NAV_CANCEL, "NavCancel", schema_of::<NavCancel>()),
        (topics::DECISION, "Decision", schema_of::<DecisionMsg>()),
        (topics::AIM_YAW, "Float32", schema_of::<Float32>()),
        (topics::TREE_LAYOUT, "TreeSpec", schema_of::<TreeSpec>()),
        (topics::TRACE, "Trace", schema_of::<TraceRecord>()),
        (topics::EVENTS, "Event", schema_of::<EventRecord>()),
    ]
}

/// The attachment of a soccer recording holding the effective parameters (JSON).
pub const SOCCER_PARAMETERS: &str = "parameters.json";
/// The attachment of a soccer recording holding the tree (a `TreeSpec` as JSON).
pub const SOCCER_TREE: &str = "tree.json";

/// The per-robot topics of a soccer recording with their schema names and JSON Schemas
/// (`true`, any JSON, where the payload has no derived schema).
pub fn soccer_channel_schemas() -> Vec<(&'static str, &'static str, serde_json::Value)> {
    use bus::soccer::{self as s};
    let any = serde_json::Value::Bool(true);
    vec![
        (
            s::GAME_STATE,
            "GameStateMsg",
            schema_of::<s::GameStateMsg>(),
        ),
        (
            s::LOCALIZATION,
            "LocalizationMsg",
            schema_of::<s::LocalizationMsg>(),
        ),
        (s::BALL, "BallMsg", schema_of::<s::BallMsg>()),
        (s::OBSTACLES, "ObstaclesMsg", schema_of::<s::ObstaclesMsg>()),
        (
            s::FALL_STATE,
            "FallStateMsg",
            schema_of::<s::FallStateMsg>(),
        ),
        (s::MOTION_COMMAND, "MotionCommandMsg", any.clone()),
        (s::TREE_LAYOUT, "TreeSpec", schema_of::<TreeSpec>()),
        (s::TRACE, "SoccerTrace", any.clone()),
        (s::BLACKBOARD, "Blackboard", any),
        (
            s::SEND_INTERVAL,
            "SendIntervalMsg",
            schema_of::<s::SendIntervalMsg>(),
        ),
        (s::HEATMAP, "HeatmapMsg", schema_of::<s::HeatmapMsg>()),
        (
            s::SUGGESTED_SEARCH_POSITION,
            "SearchPositionMsg",
            schema_of::<s::SearchPositionMsg>(),
        ),
        (
            s::SEARCH_CELL_SIZE,
            "CellSizeMsg",
            schema_of::<s::CellSizeMsg>(),
        ),
    ]
}

/// What a recording says about the run it comes from (the metadata record).
#[derive(Debug, Clone, Default)]
pub struct RunFacts {
    /// `run` or `sim`.
    pub command: String,
    /// Seed of the simulated match (sim only).
    pub seed: Option<u64>,
    /// The config path as given on the command line.
    pub config_path: PathBuf,
    /// The scenario file (sim only).
    pub scenario: Option<PathBuf>,
    /// More key / value pairs (e.g. the bus namespace).
    pub extra: BTreeMap<String, String>,
}

/// Writes the MCAP recording of one run.
pub struct Recorder {
    writer: McapWriter,
}

impl Recorder {
    /// Creates `path`, writes the metadata, attaches the files of `tables` (and the scenario,
    /// if any), and declares one channel per known topic.
    pub fn create(path: &Path, facts: &RunFacts, tables: &Tables) -> Result<Self, RecordError> {
        let writer = McapWriter::create(
            path,
            &format!("robot_decision/{}", env!("CARGO_PKG_VERSION")),
        )?;
        let mut recorder = Self { writer };
        recorder.write_files(facts, tables)?;
        for (topic, name, schema) in channel_schemas() {
            recorder.writer.add_channel(topic, name, &schema)?;
        }
        recorder.writer.flush()?;
        Ok(recorder)
    }

    /// Creates the recording of soccer robots: the metadata (`profile` = `soccer`), the
    /// effective parameters and the tree as attachments (replay decides with them), and the
    /// channels of every robot prefix in `robots` (`player_3/`, `home/player_3/`).
    pub fn create_soccer(
        path: &Path,
        facts: &RunFacts,
        params: &soccer_profile::params::Parameters,
        spec: &TreeSpec,
        robots: &[String],
    ) -> Result<Self, RecordError> {
        let writer = McapWriter::create(
            path,
            &format!("robot_decision/{}", env!("CARGO_PKG_VERSION")),
        )?;
        let mut recorder = Self { writer };
        let encode = |what: &str, e: serde_json::Error| RecordError::Encode {
            topic: what.to_string(),
            message: e.to_string(),
        };
        let params_json =
            serde_json::to_vec_pretty(params).map_err(|e| encode(SOCCER_PARAMETERS, e))?;
        let tree_json = serde_json::to_vec_pretty(spec).map_err(|e| encode(SOCCER_TREE, e))?;
        recorder
            .writer
            .attach(SOCCER_PARAMETERS, "application/json", params_json)?;
        recorder
            .writer
            .attach(SOCCER_TREE, "application/json", tree_json)?;
        let mut meta = BTreeMap::new();
        meta.insert("crate_version".into(), env!("CARGO_PKG_VERSION").into());
        meta.insert("profile".into(), "soccer".into());
        meta.insert("command".into(), facts.command.clone());
        meta.insert(
            "config_path".into(),
            facts.config_path.display().to_string(),
        );
        if let Some(seed) = facts.seed {
            meta.insert("seed".into(), seed.to_string());
        }
        if let Some(scenario) = &facts.scenario {
            meta.insert("scenario".into(), scenario.display().to_string());
        }
        for (k, v) in &facts.extra {
            meta.insert(k.clone(), v.clone());
        }
        recorder.writer.write_metadata(METADATA_NAME, meta)?;
        for prefix in robots {
            for (topic, name, schema) in soccer_channel_schemas() {
                recorder
                    .writer
                    .add_channel(&format!("{prefix}{topic}"), name, &schema)?;
            }
        }
        recorder.writer.flush()?;
        Ok(recorder)
    }

    /// The attachments (config, decisions, waypoints, map, scenario) and the metadata.
    fn write_files(&mut self, facts: &RunFacts, tables: &Tables) -> Result<(), RecordError> {
        let files = &tables.files;
        let config = &tables.config;
        let mut roles: Vec<(&str, PathBuf, &str, Option<&str>)> = vec![
            ("config", files.config.clone(), "application/json", None),
            (
                "decisions",
                files.decisions.clone(),
                "application/json",
                Some(config.decisions_path.as_str()),
            ),
            (
                "waypoints",
                files.waypoints.clone(),
                "application/json",
                Some(config.waypoints_path.as_str()),
            ),
            (
                "map",
                files.map.clone(),
                "image/png",
                Some(config.map_path.as_str()),
            ),
        ];
        if let Some(scenario) = &facts.scenario {
            roles.push(("scenario", scenario.clone(), "application/json5", None));
        }
        let mut meta = BTreeMap::new();
        meta.insert("crate_version".into(), env!("CARGO_PKG_VERSION").into());
        meta.insert("command".into(), facts.command.clone());
        meta.insert(
            "config_path".into(),
            facts.config_path.display().to_string(),
        );
        if let Ok(abs) = files.config.canonicalize() {
            meta.insert("config_resolved".into(), abs.display().to_string());
        }
        if let Some(seed) = facts.seed {
            meta.insert("seed".into(), seed.to_string());
        }
        if let Some(scenario) = &facts.scenario {
            meta.insert("scenario".into(), scenario.display().to_string());
        }
        for (k, v) in &facts.extra {
            meta.insert(k.clone(), v.clone());
        }
        let mut used_names: Vec<String> = Vec::new();
        for (role, path, media_type, declared) in roles {
            let data = match std::fs::read(&path) {
                Ok(data) => data,
                Err(e) => {
                    tracing::warn!("{}: not attached: {e}", path.display());
                    continue;
                }
            };
            let base = path
                .file_name()
                .map_or_else(|| role.to_string(), |n| n.to_string_lossy().into_owned());
            let name = if used_names.contains(&base) {
                format!("{role}-{base}")
            } else {
                base
            };
            used_names.push(name.clone());
            meta.insert(format!("file.{role}"), name.clone());
            meta.insert(format!("path.{role}"), path.display().to_string());
            if let Some(declared) = declared {
                meta.insert(format!("declared.{role}"), declared.to_string());
            }
            self.writer.attach(&name, media_type, data)?;
        }
        self.writer.write_metadata(METADATA_NAME, meta)
    }

    /// Records one message received (input) or published (output) at `log_time` seconds; the
    /// publish time is the payload's header stamp (the log time without one).
    pub fn record(
        &mut self,
        topic: &str,
        payload: &[u8],
        log_time: f64,
    ) -> Result<(), RecordError> {
        self.writer.record(topic, payload, log_time)
    }

    /// Records a message struct, encoded as the bus encodes it.
    pub fn record_message<T: Serialize>(
        &mut self,
        topic: &str,
        message: &T,
        log_time: f64,
    ) -> Result<(), RecordError> {
        self.writer.record_message(topic, message, log_time)
    }

    /// Records what a tick published, in publish order: cancel, goal, decision, aim, trace.
    pub fn record_output(&mut self, output: &NodeOutput, log_time: f64) -> Result<(), RecordError> {
        if let Some(cancel) = &output.cancel {
            self.record_message(topics::NAV_CANCEL, cancel, log_time)?;
        }
        if let Some(goal) = &output.goal {
            self.record_message(topics::NAV_GOAL, goal, log_time)?;
        }
        if let Some(decision) = &output.decision {
            self.record_message(topics::DECISION, decision, log_time)?;
        }
        if let Some(aim) = &output.aim_yaw {
            self.record_message(topics::AIM_YAW, aim, log_time)?;
        }
        self.record_message::<TraceMsg>(topics::TRACE, &output.trace, log_time)
    }

    /// Closes the open chunk at a safe point (see [`McapWriter::poll`]).
    pub fn poll(&mut self, now: f64) -> Result<(), RecordError> {
        self.writer.poll(now)
    }

    /// Writes the open chunk whole and flushes the file.
    pub fn flush(&mut self) -> Result<(), RecordError> {
        self.writer.flush()
    }

    /// Writes the summary and closes the file.
    pub fn finish(self) -> Result<RecordSummary, RecordError> {
        self.writer.finish()
    }
}
