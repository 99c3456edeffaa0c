//! The events topic: start, reloads (accepted / rejected with diagnostics), errors and the
//! periodic counters, as JSON objects with a header.

use crate::node::NodeStats;
use bus::messages::Header;
use decision_core::robomaster::Diagnostic;
use serde::Serialize;

/// One message on `robot_decision/events`.
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    /// Stamp.
    pub header: Header,
    /// `start`, `reload_accepted`, `reload_rejected`, `malformed`, `stats`, `stop`.
    pub kind: &'static str,
    /// In words.
    pub message: String,
    /// Diagnostics of a reload.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
    /// Counters, on `stats`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<NodeStats>,
}

impl Event {
    /// An event without diagnostics or counters.
    pub fn new(now: f64, kind: &'static str, message: impl Into<String>) -> Self {
        Self {
            header: Header::at(now),
            kind,
            message: message.into(),
            diagnostics: Vec::new(),
            stats: None,
        }
    }
}
