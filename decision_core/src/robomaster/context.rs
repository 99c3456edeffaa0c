//! The RoboMaster profile's typed tick context: this tick's world, the aim, the memory carried
//! between ticks (the goal last sent to Nav2) and what the tick decided.

use super::aim::AimTarget;
use super::world::World;
use serde::Serialize;
use waypoint_graph::PathScratch;

/// What the navigation action did this tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NavAction {
    /// A new goal was sent.
    Send,
    /// A running goal was cancelled for a strictly heavier decision, whose goal was sent.
    Preempt,
    /// The running goal keeps running.
    Continue,
    /// The same goal was already sent; nothing new is sent.
    Hold,
    /// Nothing in effect.
    #[default]
    None,
}

/// A pose of the navigation goal: x, y in metres and the heading in radians.
pub type GoalPose = [f32; 3];

/// The goal last sent to Nav2.
#[derive(Debug, Clone, Default)]
pub struct SentGoal {
    /// Index of the decision that sent it.
    pub decision: usize,
    /// Waypoint ids of the path.
    pub path: Vec<i32>,
    /// Poses of the path.
    pub poses: Vec<GoalPose>,
}

/// State kept from tick to tick.
#[derive(Debug, Default)]
pub struct Memory {
    /// The last goal sent, if any.
    pub sent: Option<SentGoal>,
    /// Index of the running decision: the one last sent as a goal (or held as the same goal).
    /// It is never forgotten by a tick without candidates (rule 4 of the decision rules, `docs/src/formats/decisions.md`).
    pub running_decision: Option<usize>,
    /// Reused buffers for path search.
    pub scratch: PathScratch,
}

/// What this tick decided (cleared at the start of each tick).
#[derive(Debug, Clone, Default)]
pub struct TickOut {
    /// What the navigation did with the goal this tick (send, preempt, continue, hold, none).
    pub action: NavAction,
    /// Index of the decision in effect after the tick.
    pub chosen: Option<usize>,
    /// Its path (waypoint ids, without the start).
    pub path: Vec<i32>,
    /// Its poses.
    pub poses: Vec<GoalPose>,
    /// Index of a decision whose target could not be reached this tick.
    pub unreachable: Option<usize>,
    /// Index of a decision whose running goal was cancelled this tick.
    pub cancelled: Option<usize>,
    /// Nav2 runs a goal while we have no running decision: cancel it (rule 5 of the decision rules).
    pub cancel_active_goal: bool,
}

impl TickOut {
    /// Resets for a new tick, keeping the buffers.
    pub fn clear(&mut self) {
        self.action = NavAction::None;
        self.chosen = None;
        self.path.clear();
        self.poses.clear();
        self.unreachable = None;
        self.cancelled = None;
        self.cancel_active_goal = false;
    }
}

/// The context the RoboMaster leaves read and write.
#[derive(Debug, Default)]
pub struct RmContext {
    /// This tick's world.
    pub world: World,
    /// This tick's aim target.
    pub aim: Option<AimTarget>,
    /// What persists between ticks.
    pub memory: Memory,
    /// What this tick decided.
    pub out: TickOut,
}
