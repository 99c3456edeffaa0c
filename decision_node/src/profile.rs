//! What the runtime needs of a profile: a node core that takes bus messages (and, for
//! clock-driven profiles, its own ticks) and says what to publish. The live loop
//! ([`crate::runtime::run::run_profile`]) and the recorder are written once against it;
//! RoboMaster ([`crate::node::NodeCore`], message-driven) and soccer
//! ([`crate::soccer::SoccerNode`], a 20 ms clock) implement it.

use crate::node::{Ingested, NodeStats};
use crate::runtime::events::Event;
use crate::runtime::replay::ReplayRecord;
use decision_core::engine::TreeSpec;
use std::path::PathBuf;
use std::time::Duration;

/// One message to publish: the topic (bus-relative) and its JSON payload.
pub type Outgoing = (String, Vec<u8>);

/// A node core of one profile, without transport or clock of its own.
pub trait NodeProfile {
    /// What one tick asks to publish.
    type Output;
    /// A finished reload attempt, made off the tick loop by [`reload_files`](Self::reload_files).
    type Reload: Send + 'static;
    /// The trace record the node publishes each tick, as replay reads it back.
    type Trace: ReplayRecord;

    /// The topics to subscribe to.
    fn input_topics(&self) -> Vec<String>;
    /// Takes one message received at `now` (seconds on the caller's clock).
    fn ingest(&mut self, topic: &str, payload: &[u8], now: f64) -> Ingested<Self::Output>;
    /// The period of the node's own clock; `None` for a profile that ticks on messages.
    fn tick_period(&self) -> Option<Duration> {
        None
    }
    /// A tick of the node's own clock at `now`.
    fn clock_tick(&mut self, _now: f64) -> Option<Self::Output> {
        None
    }
    /// Replays one recorded message at its log time `now`: the tick it makes, if any. By
    /// default the message is an input ([`ingest`](Self::ingest)); a clock-driven profile
    /// decides the frame it recorded of each tick instead.
    fn replay_message(&mut self, topic: &str, payload: &[u8], now: f64) -> Option<Self::Output> {
        match self.ingest(topic, payload, now) {
            Ingested::Tick(output) => Some(*output),
            _ => None,
        }
    }
    /// The trace of `output` as published (what replay compares byte for byte).
    fn trace_bytes(&self, output: &Self::Output) -> Vec<u8>;
    /// The messages of `output` in publish order; `wanted(topic)` says whether anyone
    /// listens, for outputs that are costly and only published on demand.
    fn outgoing(&self, output: &Self::Output, wanted: &dyn Fn(&str) -> bool) -> Vec<Outgoing>;
    /// The topic of the tree layout.
    fn layout_topic(&self) -> String;
    /// The tree layout for viewers.
    fn layout(&self) -> &TreeSpec;
    /// The topic of node events.
    fn events_topic(&self) -> String;
    /// The counters so far.
    fn stats(&self) -> NodeStats;
    /// What the node decides with, in words, for the start event and the log.
    fn describe(&self) -> String;
    /// The files whose edits trigger a reload.
    fn watched_files(&self) -> Vec<PathBuf>;
    /// A loader run in the background when a watched file changed.
    fn reload_files(&self) -> Box<dyn Fn() -> Self::Reload + Send>;
    /// Swaps a reload in at a tick boundary, or keeps the last good state; the event says which.
    fn apply_reload(&mut self, reload: Self::Reload, now: f64) -> Event;
}
