//! `robot-decision run`: the node on the bus. Subscribes to the inputs, ticks once per joined
//! set, publishes the outputs, the tree layout (at start, on reload, and every few seconds for
//! late viewers) and events; reloads edited files; stops cleanly on Ctrl-C.

use super::events::Event;
use super::record::{RecordError, Recorder};
use super::reload::{Reload, ReloadWatcher};
use crate::node::{Ingested, NodeCore};
use bus::{Bus, topics};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Seconds since the UNIX epoch: the node's clock for message ages.
pub fn wall_clock() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// How often the counters and the layout are re-published.
const STATS_PERIOD: Duration = Duration::from_secs(1);
const LAYOUT_PERIOD: Duration = Duration::from_secs(5);
/// At most one log line per topic per this period for malformed messages.
const LOG_PERIOD: Duration = Duration::from_secs(1);

/// Runs the node until `stop` is set. `tables` are the first, already checked tables.
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
    config: &Path,
    mut node: NodeCore,
    bus: &Bus,
    stop: &AtomicBool,
    watch: bool,
    recorder: Option<&mut Recorder>,
) -> Result<(), String> {
    let recorder = LiveRecorder(RefCell::new(recorder));
    let subscription = bus
        .subscribe(&topics::NODE_INPUTS)
        .map_err(|e| format!("subscribe: {e}"))?;
    let watcher = if watch {
        let files = node.decider().tables().files.clone();
        match ReloadWatcher::start(config, &files.all()) {
            Ok(w) => Some(w),
            Err(e) => {
                tracing::warn!("hot reload disabled: cannot watch the files: {e}");
                None
            }
        }
    } else {
        None
    };
    let publish_event = |event: &Event| {
        if let Err(e) = bus.publish(topics::EVENTS, event) {
            tracing::warn!("cannot publish an event: {e}");
        }
        recorder.with(|r| r.record_message(topics::EVENTS, event, wall_clock()));
    };
    let publish_layout = |node: &NodeCore| {
        if let Err(e) = bus.publish(topics::TREE_LAYOUT, node.layout()) {
            tracing::warn!("cannot publish the tree layout: {e}");
        }
        recorder.with(|r| r.record_message(topics::TREE_LAYOUT, node.layout(), wall_clock()));
    };
    publish_event(&Event::new(
        wall_clock(),
        "start",
        format!("deciding with {}", config.display()),
    ));
    publish_layout(&node);
    tracing::info!(
        "node running on namespace `{}` with {}",
        bus.namespace(),
        config.display()
    );
    let mut last_stats = Instant::now();
    let mut last_layout = Instant::now();
    let mut last_log: HashMap<String, Instant> = HashMap::new();
    while !stop.load(Ordering::Relaxed) {
        if let Some(received) = subscription.recv_timeout(Duration::from_millis(50)) {
            let now = wall_clock();
            recorder.with(|r| r.record(&received.topic, &received.payload, now));
            match node.ingest(&received.topic, &received.payload, now) {
                Ingested::Tick(output) => {
                    if let Err(e) = output.publish(bus) {
                        tracing::warn!("cannot publish the tick's outputs: {e}");
                    }
                    recorder.with(|r| r.record_output(&output, now));
                }
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
                    tracing::debug!("stale input set skipped ({age:.3} s old)")
                }
                Ingested::Stored | Ingested::Ignored => {}
            }
        }
        recorder.with(|r| r.poll(wall_clock()));
        // Reloads are swapped in here, between two messages, i.e. at a tick boundary.
        if let Some(reload) = watcher.as_ref().and_then(ReloadWatcher::poll) {
            apply_reload(&mut node, reload, &publish_event);
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

/// Swaps accepted tables into the node, or reports the rejected files; both go to the log and
/// the events topic.
pub fn apply_reload(node: &mut NodeCore, reload: Reload, publish_event: &dyn Fn(&Event)) {
    match reload {
        Reload::Accepted { tables, warnings } => {
            let shown = tables.files.config.display().to_string();
            match node.reload(Arc::clone(&tables)) {
                Ok(()) => {
                    tracing::info!(
                        "reloaded {shown} ({} warning(s))",
                        warnings.warnings().count()
                    );
                    let mut event =
                        Event::new(wall_clock(), "reload_accepted", format!("reloaded {shown}"));
                    event.diagnostics = warnings.items().to_vec();
                    publish_event(&event);
                }
                Err(errors) => {
                    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    tracing::error!(
                        "reload rejected, the tree does not compile: {}",
                        text.join("; ")
                    );
                    publish_event(&Event::new(
                        wall_clock(),
                        "reload_rejected",
                        text.join("; "),
                    ));
                }
            }
        }
        Reload::Rejected { diagnostics } => {
            tracing::error!("reload rejected, the last good files keep running:\n{diagnostics}");
            let mut event = Event::new(
                wall_clock(),
                "reload_rejected",
                "files have errors; the last good files keep running",
            );
            event.diagnostics = diagnostics.items().to_vec();
            publish_event(&event);
        }
    }
}
