//! What the viewer shows, independent of where it came from: the tables, the last tick, the
//! world as the node saw it, the tree layout with per-node statuses, events and health.

use decision_core::engine::{NodeId, Status, TreeSpec};
use decision_core::robomaster::Tables;
use decision_core::robomaster::aim::AimTarget;
use decision_core::robomaster::world::World;
use decision_node::node::{NodeCore, NodeStats};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// How many events the viewer keeps.
pub const EVENT_CAPACITY: usize = 200;

/// One tick as published on `robot_decision/trace`.
pub use decision_node::runtime::record::TraceRecord as TickView;

/// One event line (reload, start, malformed input, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct EventLine {
    /// Seconds on the source's clock.
    pub time: f64,
    /// `start`, `reload_accepted`, ...
    pub kind: String,
    /// In words.
    pub message: String,
}

/// Counters and timings for the health panel.
#[derive(Debug, Clone, Default)]
pub struct Health {
    /// The node's counters.
    pub stats: NodeStats,
    /// Messages per second per input topic.
    pub rates: BTreeMap<String, f64>,
    /// CPU time of the last tick in microseconds.
    pub tick_micros: Option<f64>,
    /// Mean tick time in microseconds.
    pub mean_tick_micros: Option<f64>,
    /// Reloads accepted / rejected.
    pub reloads: (u64, u64),
    /// Trace payloads that could not be parsed (live).
    pub bad_traces: u64,
}

/// One robot on the map.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotMark {
    /// `R1`, `B7`, ...
    pub label: String,
    /// Position in metres.
    pub x: f32,
    /// Position in metres.
    pub y: f32,
    /// Ours (green) or theirs (red).
    pub friend: bool,
}

/// The tree layout flattened in preorder (node id = index).
#[derive(Debug, Clone, Default)]
pub struct FlatTree {
    /// Nodes in preorder.
    pub nodes: Vec<FlatNode>,
}

/// One node of a [`FlatTree`].
#[derive(Debug, Clone)]
pub struct FlatNode {
    /// Depth from the root (0).
    pub depth: usize,
    /// `kind name` as shown.
    pub label: String,
    /// One past the last preorder index of its subtree.
    pub end: usize,
}

impl FlatTree {
    /// Flattens `spec` in preorder.
    pub fn new(spec: &TreeSpec) -> Self {
        let mut nodes = Vec::new();
        // Iterative preorder, to stay safe on deep trees.
        let mut stack: Vec<(&TreeSpec, usize)> = vec![(spec, 0)];
        while let Some((node, depth)) = stack.pop() {
            let label = if node.name.is_empty() || node.name == node.kind {
                node.kind.clone()
            } else {
                format!("{} {}", node.kind, node.name)
            };
            nodes.push(FlatNode {
                depth,
                label,
                end: 0,
            });
            for child in node.children.iter().rev() {
                stack.push((child, depth + 1));
            }
        }
        // Fix up subtree ends: a node's subtree ends where the next node of depth <= its own starts.
        let len = nodes.len();
        let mut ends = vec![len; len];
        let mut pending: Vec<usize> = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            while let Some(&top) = pending.last() {
                if nodes.get(top).is_some_and(|t| t.depth >= n.depth) {
                    if let Some(e) = ends.get_mut(top) {
                        *e = i;
                    }
                    pending.pop();
                } else {
                    break;
                }
            }
            pending.push(i);
        }
        for (n, end) in nodes.iter_mut().zip(ends) {
            n.end = end;
        }
        Self { nodes }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// Times past this (one year in seconds) are wall-clock stamps, not match seconds.
const WALL_CLOCK_THRESHOLD: f64 = 365.0 * 86_400.0;

/// An event's time as a reader wants it: match time as `m:ss.s`, a wall-clock stamp (live
/// sources) as the UTC time of day `hh:mm:ss.s`.
pub fn event_time(t: f64) -> String {
    if !t.is_finite() {
        return "-".to_owned();
    }
    if t >= WALL_CLOCK_THRESHOLD {
        let tenths = ((t.rem_euclid(86_400.0)) * 10.0).round() as u64 % 864_000;
        let (hours, minutes) = (tenths / 36_000, tenths / 600 % 60);
        return format!(
            "{hours:02}:{minutes:02}:{:02}.{}",
            tenths / 10 % 60,
            tenths % 10
        );
    }
    let sign = if t < 0.0 { "-" } else { "" };
    let tenths = (t.abs() * 10.0).round() as u64;
    format!(
        "{sign}{}:{:02}.{}",
        tenths / 600,
        tenths / 10 % 60,
        tenths % 10
    )
}

/// Everything the panels draw.
pub struct View {
    /// The tables in use (map, waypoints, decisions, config).
    pub tables: Arc<Tables>,
    /// The node's trace of the last tick (a recording's: the one at the cursor); None before any.
    pub tick: Option<TickView>,
    /// The world of the last tick.
    pub world: Option<World>,
    /// The aim target of the last tick.
    pub aim: Option<AimTarget>,
    /// Game stage (4 = battle).
    pub stage: Option<u8>,
    /// Remaining match seconds.
    pub remaining: Option<f64>,
    /// Robots to draw.
    pub robots: Vec<RobotMark>,
    /// The node's tree flattened in preorder; `statuses` is indexed the same way.
    pub tree: FlatTree,
    /// Status of each node in the last tick (by preorder id).
    pub statuses: Vec<Option<Status>>,
    /// Events, newest last.
    pub events: VecDeque<EventLine>,
    /// Health counters.
    pub health: Health,
}

impl View {
    /// An empty view of `tables` with the tree `layout`.
    pub fn new(tables: Arc<Tables>, layout: &TreeSpec) -> Self {
        Self {
            tables,
            tick: None,
            world: None,
            aim: None,
            stage: None,
            remaining: None,
            robots: Vec::new(),
            tree: FlatTree::new(layout),
            statuses: Vec::new(),
            events: VecDeque::new(),
            health: Health::default(),
        }
    }

    /// The decision of the tables with this id, if any.
    pub fn decision(&self, id: i32) -> Option<&decision_core::robomaster::decisions::Decision> {
        self.tables
            .decisions
            .iter()
            .map(|d| &d.decision)
            .find(|d| d.id == id)
    }

    /// `3 hold_fire_point`: a decision id as the tables name it (`none` for no decision).
    pub fn decision_label(&self, id: Option<i32>) -> String {
        let Some(id) = id else {
            return "none".to_owned();
        };
        match self.decision(id) {
            Some(d) => format!("{id} {}", d.name),
            None => id.to_string(),
        }
    }

    /// Makes `tick` the last tick; when the decision in effect changed, an event says so in
    /// words (`3 hold_fire_point -> 13 retreat_to_supply (preempt)`).
    /// `time` stamps the event on the source's clock (match time, or wall clock when live).
    pub fn take_tick(&mut self, time: f64, tick: TickView) {
        if let Some(previous) = &self.tick
            && previous.chosen != tick.chosen
        {
            let text = format!(
                "{} -> {} ({})",
                self.decision_label(previous.chosen),
                self.decision_label(tick.chosen),
                tick.action
            );
            self.push_event(time, "decision", text);
        }
        self.tick = Some(tick);
    }

    /// Adds an event, dropping the oldest past [`EVENT_CAPACITY`].
    pub fn push_event(&mut self, time: f64, kind: &str, message: impl Into<String>) {
        if self.events.len() >= EVENT_CAPACITY {
            self.events.pop_front();
        }
        self.events.push_back(EventLine {
            time,
            kind: kind.to_owned(),
            message: message.into(),
        });
    }

    /// Takes the world, aim, robots and per-node statuses from `node` after a tick.
    pub fn observe_node(&mut self, node: &NodeCore) {
        let decider = node.decider();
        let ctx = decider.context();
        self.world = Some(ctx.world.clone());
        self.aim = ctx.aim;
        self.robots = robots_of(&ctx.world, decider.tables().config.is_blue);
        let count = decider.tree().node_count();
        if count == self.tree.len() {
            self.statuses.clear();
            // The decider's statuses: the trace's, and the guards' from the compact record
            // the decision selection keeps of them.
            self.statuses
                .extend((0..count).map(|i| decider.status_of(NodeId(i as u32))));
        } else {
            self.statuses.clear();
        }
        self.health.stats = node.stats();
    }
}

/// Robot numbers of the unit slots (hero, engineer, infantry 3, 4, 5, sentry).
const SLOT_NUMBERS: [u8; 6] = [1, 2, 3, 4, 5, 7];

/// Friends and enemies with a known position, labelled like the referee (`R1`, `B7`).
pub fn robots_of(world: &World, is_blue: bool) -> Vec<RobotMark> {
    let (ours, theirs) = if is_blue { ('B', 'R') } else { ('R', 'B') };
    let mut out = Vec::new();
    for (units, friend, side) in [
        (&world.friends, true, ours),
        (&world.enemies, false, theirs),
    ] {
        for (unit, number) in units.iter().zip(SLOT_NUMBERS) {
            let p = unit.position;
            if p.x == 0.0 || p.y == 0.0 || !p.x.is_finite() || !p.y.is_finite() {
                continue;
            }
            out.push(RobotMark {
                label: format!("{side}{number}"),
                x: p.x,
                y: p.y,
                friend,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_times_read_as_match_time_or_time_of_day() {
        assert_eq!(event_time(0.0), "0:00.0");
        assert_eq!(event_time(75.24), "1:15.2");
        assert_eq!(
            event_time(419.96),
            "7:00.0",
            "rounding carries into the minute"
        );
        // 2026-12-03 06:09:51.5 UTC
        assert_eq!(event_time(1_796_278_191.5), "06:09:51.5");
        assert_eq!(event_time(f64::NAN), "-");
    }
}
