//! What a soccer robot publishes about each tick for viewers, recordings and replay: the
//! trace (the decision with its why-not and every node's status), the blackboard (the
//! frame the tree decided on; replay decides again from it) and the motion command; the node,
//! the in-process match's recording and the viewer's match build them with the same functions.

use bus::messages::Header;
use bus::soccer::MotionCommandMsg;
use decision_core::engine::{TickTrace, TraceEntry};
use serde::{Deserialize, Serialize};
use soccer_profile::brain::SoccerBrain;
use soccer_profile::decider::Decision;
use soccer_profile::frame::Frame;

/// `behavior/trace` as published.
#[derive(Debug, Clone, Serialize)]
pub struct SoccerTraceMsg<'a> {
    /// The tick's time.
    pub header: Header,
    /// The robot's number.
    pub player: u8,
    /// Tick index from 0.
    pub tick: u64,
    /// The decision (branch, role, motion, ball, message, why-not of the failed branches).
    pub decision: &'a Decision,
    /// Every node's status this tick, in tick order (the trace's entries).
    #[serde(serialize_with = "entries_in_order")]
    pub nodes: &'a TickTrace,
}

/// Serializes a trace as its list of entries.
fn entries_in_order<S: serde::Serializer>(trace: &&TickTrace, out: S) -> Result<S::Ok, S::Error> {
    out.collect_seq(trace.entries())
}

/// `behavior/trace` as read back (viewer, replay); absent fields take their defaults.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SoccerTraceRecord {
    /// The tick's time.
    pub header: Header,
    /// The robot's number.
    pub player: u8,
    /// Tick index from 0.
    pub tick: u64,
    /// The decision as JSON (keys of `soccer decide`).
    pub decision: serde_json::Value,
    /// Every node's status this tick.
    pub nodes: Vec<TraceEntry>,
}

impl crate::runtime::replay::ReplayRecord for SoccerTraceRecord {
    fn header(&self) -> &Header {
        &self.header
    }
}

impl SoccerTraceRecord {
    /// The frame time the tick decided at (the decision's `t`; 0 when absent).
    pub fn time(&self) -> f64 {
        self.decision
            .get("t")
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(0.0)
    }

    /// The root branch that succeeded.
    pub fn branch(&self) -> &str {
        self.decision
            .get("branch")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("")
    }

    /// The role while playing.
    pub fn role(&self) -> Option<&str> {
        self.decision
            .get("role")
            .and_then(serde_json::Value::as_str)
    }

    /// The body motion's kind (`walk_to`, `kick`, ...).
    pub fn motion_kind(&self) -> &str {
        self.decision
            .pointer("/motion/body/kind")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("")
    }
}

/// `behavior/blackboard` as published: the frame of the tick.
#[derive(Debug, Clone, Serialize)]
pub struct BlackboardMsg<'a> {
    /// The tick's time.
    pub header: Header,
    /// The robot's number.
    pub player: u8,
    /// Everything the tree saw (the input frame of `soccer decide`).
    pub frame: &'a Frame,
}

/// `behavior/blackboard` as read back.
#[derive(Debug, Clone, Deserialize)]
pub struct BlackboardRecord {
    /// The tick's time.
    #[serde(default)]
    pub header: Header,
    /// The robot's number.
    #[serde(default)]
    pub player: u8,
    /// The input frame the tree decided on; the one required field.
    pub frame: Frame,
}

/// The trace payload of a tick the brain just decided.
pub fn trace_payload(brain: &SoccerBrain, player: u8, tick: u64, decision: &Decision) -> Vec<u8> {
    let message = SoccerTraceMsg {
        header: Header::at(decision.t),
        player,
        tick,
        decision,
        nodes: brain.decider().tree().trace(),
    };
    serde_json::to_vec(&message).unwrap_or_default()
}

/// The motion command payload of a tick: `decision`'s motion for robot `player`, stamped with
/// the frame's time (what the node publishes and a recording of the match holds).
pub fn motion_command_payload(player: u8, frame: &Frame, decision: &Decision) -> Vec<u8> {
    let message = MotionCommandMsg {
        header: Header::at(frame.t),
        player,
        command: decision.motion.clone(),
    };
    serde_json::to_vec(&message).unwrap_or_default()
}

/// The blackboard payload of a tick's frame.
pub fn blackboard_payload(player: u8, frame: &Frame) -> Vec<u8> {
    let message = BlackboardMsg {
        header: Header::at(frame.t),
        player,
        frame,
    };
    serde_json::to_vec(&message).unwrap_or_default()
}
