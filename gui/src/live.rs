//! The live source: the viewer's [`BusLink`] subscribed to the node's trace, tree layout and
//! events and to the input topics. The inputs feed a local shadow node so the map and the
//! tree statuses can be drawn; the decision shown is the one the node published.

use crate::link::BusLink;
pub use crate::link::LinkState;
use crate::model::{FlatTree, TickView, View};
use bus::messages::GameInfo;
use bus::{BusOptions, topics};
use decision_core::engine::TreeSpec;
use decision_core::robomaster::Tables;
use decision_node::node::{Ingested, NodeCore};
use decision_node::runtime::clock::wall_clock;
use std::sync::Arc;
use std::time::Instant;

/// At most this many messages are taken per frame.
const MAX_MESSAGES_PER_FRAME: usize = 20_000;

/// A node followed over Zenoh, with a shadow node fed its inputs for the map and tree.
pub struct LiveSource {
    /// Endpoint connected to.
    pub endpoint: String,
    /// Robot namespace.
    pub namespace: String,
    link: BusLink,
    shadow: Option<NodeCore>,
    last_message: Option<Instant>,
    last_trace: Option<Instant>,
    rate_window: (Instant, std::collections::BTreeMap<String, u64>),
}

impl LiveSource {
    /// Connects in the background to `endpoint` (e.g. `tcp/127.0.0.1:7447`) under `namespace`,
    /// or with `ros2` joins the ROS 2 graph through the rmw_zenoh router at `endpoint`;
    /// `tables` give the map and waypoints to draw.
    pub fn connect(
        endpoint: &str,
        namespace: &str,
        tables: Arc<Tables>,
        ros2: bool,
    ) -> (Self, View) {
        let options = BusOptions::follower(endpoint, namespace, ros2.then_some("decision_viewer"));
        let keys: Vec<String> = [topics::TRACE, topics::TREE_LAYOUT, topics::EVENTS]
            .iter()
            .chain(topics::NODE_INPUTS.iter())
            .map(|topic| (*topic).to_owned())
            .collect();
        let link = BusLink::connect(options, keys, "viewer-zenoh");
        let shadow = NodeCore::new(Arc::clone(&tables)).ok();
        let layout = shadow
            .as_ref()
            .map(|n| n.layout().clone())
            .unwrap_or_else(|| TreeSpec::new("Sequence").named("no layout yet"));
        let mut view = View::new(tables, &layout);
        view.push_event(
            wall_clock(),
            "connect",
            format!("{endpoint} namespace `{namespace}`"),
        );
        let source = Self {
            endpoint: endpoint.to_owned(),
            namespace: namespace.to_owned(),
            link,
            shadow,
            last_message: None,
            last_trace: None,
            rate_window: (Instant::now(), Default::default()),
        };
        (source, view)
    }

    /// Connecting, connected, or the last failure while the bus thread retries.
    pub fn link(&self) -> LinkState {
        self.link.state()
    }

    /// Seconds since the last message of any topic, and of the trace.
    pub fn ages(&self) -> (Option<f64>, Option<f64>) {
        (
            self.last_message.map(|t| t.elapsed().as_secs_f64()),
            self.last_trace.map(|t| t.elapsed().as_secs_f64()),
        )
    }

    /// Takes the messages received since the last frame into `view`.
    pub fn poll(&mut self, view: &mut View) {
        let mut observed = false;
        for _ in 0..MAX_MESSAGES_PER_FRAME {
            let Some(received) = self.link.try_recv() else {
                break;
            };
            self.last_message = Some(Instant::now());
            let now = wall_clock();
            match received.topic.as_str() {
                topics::TRACE => match TickView::from_json(&received.payload) {
                    Ok(tick) => {
                        self.last_trace = Some(Instant::now());
                        view.take_tick(now, tick);
                    }
                    Err(e) => {
                        view.health.bad_traces += 1;
                        view.push_event(now, "malformed", e);
                    }
                },
                topics::TREE_LAYOUT => {
                    if let Ok(spec) =
                        decision_core::strict_serde::from_slice::<TreeSpec>(&received.payload)
                    {
                        let flat = FlatTree::new(&spec);
                        if flat.len() != view.tree.len() {
                            view.statuses.clear();
                        }
                        view.tree = flat;
                    }
                }
                topics::EVENTS => {
                    if let Ok(value) =
                        serde_json::from_slice::<serde_json::Value>(&received.payload)
                    {
                        let kind = value["kind"].as_str().unwrap_or("event").to_owned();
                        let message = value["message"].as_str().unwrap_or("").to_owned();
                        match kind.as_str() {
                            "reload_accepted" => view.health.reloads.0 += 1,
                            "reload_rejected" => view.health.reloads.1 += 1,
                            _ => {}
                        }
                        if kind != "stats" {
                            view.push_event(now, &kind, message);
                        }
                    }
                }
                topic => {
                    if topic == topics::GAME_INFO
                        && let Ok(info) = received.decode::<GameInfo>()
                    {
                        view.stage = Some(info.game_stage);
                        view.remaining = Some(info.timestamp);
                    }
                    if let Some(shadow) = self.shadow.as_mut() {
                        let started = Instant::now();
                        if let Ingested::Tick(_) = shadow.ingest(topic, &received.payload, now) {
                            view.health.tick_micros = Some(started.elapsed().as_secs_f64() * 1e6);
                            observed = true;
                        }
                    }
                }
            }
        }
        if let Some(shadow) = &self.shadow {
            if observed {
                view.observe_node(shadow);
            } else {
                view.health.stats = shadow.stats();
            }
            let (since, counts) = &self.rate_window;
            let dt = since.elapsed().as_secs_f64();
            if dt >= 1.0 {
                let stats = shadow.stats();
                view.health.rates = stats
                    .received
                    .iter()
                    .map(|(t, n)| {
                        let before = counts.get(t).copied().unwrap_or(0);
                        (t.clone(), n.saturating_sub(before) as f64 / dt)
                    })
                    .collect();
                self.rate_window = (Instant::now(), stats.received);
            }
        }
    }
}
