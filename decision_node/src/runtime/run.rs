//! `robot-decision run` and `soccer run`: a node on the bus. Subscribes to the profile's
//! inputs, ticks (RoboMaster once per joined set, soccer on its own 20 ms clock), publishes
//! the outputs, the tree layout (at start, on reload, and every few seconds for late viewers)
//! and events; reloads edited files; stops cleanly on Ctrl-C.

use super::events::Event;
use super::record::{RecordError, Recorder};
use super::reload::ReloadWatcher;
use crate::node::{Ingested, NodeCore};
use crate::profile::NodeProfile;
use bus::Bus;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use super::clock::wall_clock;

/// How often the counters and the layout are re-published.
const STATS_PERIOD: Duration = Duration::from_secs(1);
const LAYOUT_PERIOD: Duration = Duration::from_secs(5);
/// At most one log line per topic per this period for malformed messages.
const LOG_PERIOD: Duration = Duration::from_secs(1);

/// Runs the RoboMaster node until `stop` is set. `config` is the checked configuration the
/// node was built from.
pub fn run_node(
    config: &Path,
    node: NodeCore,
    bus: &Bus,
    stop: &AtomicBool,
    watch: bool,
) -> Result<(), String> {
    run_node_recorded(config, node, bus, stop, watch, None)
}

/// The recorder of a live node: a write failure is logged and ends the recording, never the
/// node.
struct LiveRecorder<'a>(RefCell<Option<&'a mut Recorder>>);

impl LiveRecorder<'_> {
    fn with(&self, f: impl FnOnce(&mut Recorder) -> Result<(), RecordError>) {
        let mut slot = self.0.borrow_mut();
        let failed = slot.as_deref_mut().and_then(|r| f(r).err());
        if let Some(e) = failed {
            tracing::error!("recording stopped: {e}");
            *slot = None;
        }
    }
}

/// [`run_node`], also recording every input, output, layout and event to `recorder` (receive
/// time = the wall clock the node uses).
pub fn run_node_recorded(
    _config: &Path,
    node: NodeCore,
    bus: &Bus,
    stop: &AtomicBool,
    watch: bool,
    recorder: Option<&mut Recorder>,
) -> Result<(), String> {
    run_profile(node, bus, stop, watch, recorder)
}

/// The live loop of any profile until `stop` is set: subscribes to its inputs, feeds them to
/// the node core, ticks its own clock when it has one, publishes (and records) the outputs,
/// the tree layout (at start, on reload and every few seconds for late viewers) and events,
/// and swaps in reloads of edited files at tick boundaries.
pub fn run_profile<P: NodeProfile>(
    mut node: P,
    bus: &Bus,
    stop: &AtomicBool,
    watch: bool,
    recorder: Option<&mut Recorder>,
) -> Result<(), String> {
    let recorder = LiveRecorder(RefCell::new(recorder));
    let topics = node.input_topics();
    let topic_refs: Vec<&str> = topics.iter().map(String::as_str).collect();
    let subscription = bus
        .subscribe(&topic_refs)
        .map_err(|e| format!("subscribe: {e}"))?;
    let watcher = if watch {
        match ReloadWatcher::start_with(&node.watched_files(), node.reload_files()) {
            Ok(w) => Some(w),
            Err(e) => {
                tracing::warn!("hot reload disabled: cannot watch the files: {e}");
                None
            }
        }
    } else {
        None
    };
    let events_topic = node.events_topic();
    let layout_topic = node.layout_topic();
    let publish_event = |event: &Event| {
        if let Err(e) = bus.publish(&events_topic, event) {
            tracing::warn!("cannot publish an event: {e}");
        }
        recorder.with(|r| r.record_message(&events_topic, event, wall_clock()));
    };
    let publish_layout = |node: &P| {
        if let Err(e) = bus.publish(&layout_topic, node.layout()) {
            tracing::warn!("cannot publish the tree layout: {e}");
        }
        recorder.with(|r| r.record_message(&layout_topic, node.layout(), wall_clock()));
    };
    let wanted = |topic: &str| bus.has_subscriber(topic) || recorder.0.borrow().is_some();
    let publish_output = |node: &P, output: &P::Output, now: f64| {
        for (topic, payload) in node.outgoing(output, &wanted) {
            if let Err(e) = bus.publish_raw(&topic, &payload) {
                tracing::warn!("cannot publish on `{topic}`: {e}");
            }
            recorder.with(|r| r.record(&topic, &payload, now));
        }
    };
    let description = node.describe();
    publish_event(&Event::new(wall_clock(), "start", description.clone()));
    publish_layout(&node);
    tracing::info!(
        "node running on namespace `{}`: {description}",
        bus.namespace()
    );
    let period = node.tick_period();
    let mut next_tick = period.map(|p| Instant::now() + p);
    let mut last_stats = Instant::now();
    let mut last_layout = Instant::now();
    let mut last_log: HashMap<String, Instant> = HashMap::new();
    while !stop.load(Ordering::Relaxed) {
        let wait = next_tick.map_or(Duration::from_millis(50), |t| {
            t.saturating_duration_since(Instant::now())
                .min(Duration::from_millis(50))
        });
        if let Some(received) = subscription.recv_timeout(wait) {
            let now = wall_clock();
            recorder.with(|r| r.record(&received.topic, &received.payload, now));
            match node.ingest(&received.topic, &received.payload, now) {
                Ingested::Tick(output) => publish_output(&node, &output, now),
                Ingested::Malformed(message) => {
                    let due = last_log
                        .get(&received.topic)
                        .is_none_or(|t| t.elapsed() >= LOG_PERIOD);
                    if due {
                        tracing::warn!("malformed message ignored: {message}");
                        publish_event(&Event::new(wall_clock(), "malformed", message));
                        last_log.insert(received.topic.clone(), Instant::now());
                    }
                }
                Ingested::Stale { age } => {
                    tracing::debug!("stale input skipped ({age:.3} s old)")
                }
                Ingested::Stored | Ingested::Ignored => {}
            }
        }
        if let (Some(due), Some(period)) = (next_tick, period)
            && Instant::now() >= due
        {
            let now = wall_clock();
            if let Some(output) = node.clock_tick(now) {
                publish_output(&node, &output, now);
            }
            // A late tick is not repeated: the next one is a period after this one.
            next_tick = Some((due + period).max(Instant::now()));
        }
        recorder.with(|r| r.poll(wall_clock()));
        // Reloads are swapped in here, between two messages, i.e. at a tick boundary.
        if let Some(reload) = watcher.as_ref().and_then(ReloadWatcher::poll) {
            let event = node.apply_reload(reload, wall_clock());
            publish_event(&event);
            publish_layout(&node);
        }
        if last_stats.elapsed() >= STATS_PERIOD {
            let mut event = Event::new(wall_clock(), "stats", "counters");
            event.stats = Some(node.stats());
            publish_event(&event);
            last_stats = Instant::now();
        }
        if last_layout.elapsed() >= LAYOUT_PERIOD {
            publish_layout(&node);
            last_layout = Instant::now();
        }
    }
    publish_event(&Event::new(wall_clock(), "stop", "node stopped"));
    tracing::info!("node stopped: {:?}", node.stats());
    Ok(())
}

pub use super::reload::apply_reload;
