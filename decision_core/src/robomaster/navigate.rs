//! The `navigate` action: rules 5 and 6 of the decision rules (`docs/src/formats/decisions.md`) for one decision. It plans the decision's
//! path and poses, sends the goal to Nav2 (or holds an identical one), keeps running while Nav2
//! reports the goal accepted or executing, and records a cancellation when a heavier decision
//! halts it. The running decision (the one last sent) lives in the context's memory, so a
//! reload can carry it over to new tables.

use super::config::PathPlanning;
use super::context::{GoalPose, NavAction, RmContext, SentGoal};
use super::decisions::SKIP;
use super::load::Tables;
use super::world::nav_status;
use crate::engine::blackboard::EntryType;
use crate::engine::{
    Behavior, Children, Cx, Fault, NodeModel, NodeState, PortDecl, Registry, Status,
};
use std::f32::consts::PI;
use std::sync::Arc;

/// Leaf name of the navigation action.
pub const NAVIGATE: &str = "navigate";

/// Navigation toward one decision's target; whether it is committed (running) is the
/// engine's state of the node.
struct Navigate {
    tables: Arc<Tables>,
    decision: usize,
}

impl Navigate {
    /// Plans this decision's path and poses into `ctx.out`; false when not executable now.
    fn plan(&self, ctx: &mut RmContext) -> bool {
        let Some(loaded) = self.tables.decisions.get(self.decision) else {
            return false;
        };
        let d = &loaded.decision;
        let current = ctx.world.waypoint;
        let target = if d.decide_waypoint == SKIP {
            current
        } else {
            Some(d.decide_waypoint)
        };
        let Some(target) = target else {
            return false;
        };
        let out = &mut ctx.out;
        out.path.clear();
        if d.if_succession {
            let Some(start) = current else {
                return false;
            };
            let graph = &self.tables.graph;
            let scratch = &mut ctx.memory.scratch;
            let found = match self.tables.config.path_planning {
                PathPlanning::Dfs => graph.dfs_chain_into(start, target, scratch, &mut out.path),
                PathPlanning::Shortest => {
                    graph.shortest_path_into(start, target, scratch, &mut out.path)
                }
            };
            if !found {
                return false;
            }
        } else {
            out.path.push(target);
        }
        out.poses.clear();
        let reverse = if d.if_reverse { PI } else { 0.0 };
        for id in &out.path {
            let Some(w) = self.tables.graph.get(*id) else {
                return false;
            };
            // With an aim target the heading is the aim yaw and `if_reverse` has no effect.
            let heading = ctx.aim.map_or(w.angle + reverse, |a| a.yaw);
            out.poses.push([w.x, w.y, heading]);
        }
        true
    }

    /// Whether the goal planned in `ctx.out` is the one already sent and need not be re-sent.
    fn same_goal_holds(ctx: &RmContext) -> bool {
        let Some(sent) = &ctx.memory.sent else {
            return false;
        };
        // The paths compared id by id: they are a few ids long, shorter than a call to
        // `memcmp` (which `==` on the slices makes).
        let same = sent.path.len() == ctx.out.path.len()
            && sent.path.iter().zip(&ctx.out.path).all(|(a, b)| a == b)
            && sent.poses.len() == ctx.out.poses.len()
            && sent
                .poses
                .iter()
                .zip(&ctx.out.poses)
                .all(|(a, b)| poses_match(a, b));
        if !same || nav_status::ended_without_success(ctx.world.nav_status) {
            return false;
        }
        // A goal that succeeded but whose target we have left is sent again.
        let at_target =
            ctx.world.waypoint.is_some() && ctx.world.waypoint == sent.path.last().copied();
        ctx.world.nav_status != nav_status::SUCCEEDED || at_target
    }
}

/// A goal is re-sent when a heading turns by more than this (radians). Headings follow the
/// aim, which moves with the enemy every tick; the gimbal already follows it through the
/// Decision message's `theta`, so small changes do not warrant a new Nav2 goal.
pub const HEADING_RESEND_TOLERANCE: f32 = 0.35;

fn poses_match(a: &GoalPose, b: &GoalPose) -> bool {
    let [ax, ay, ah] = *a;
    let [bx, by, bh] = *b;
    (ax - bx).abs() <= 1e-4
        && (ay - by).abs() <= 1e-4
        && geometry::wrap_pi_f32(ah - bh).abs() <= HEADING_RESEND_TOLERANCE
}

impl Navigate {
    /// Continues the running decision (the one last sent): its Decision is re-published with
    /// the goal as sent (rule 5, "stays in effect").
    fn continue_running(ctx: &mut RmContext) -> Status {
        // Only reached with a running decision (committed, or matched one in `start`); the
        // fallback keeps a release build choosing afresh should that ever break.
        debug_assert!(
            ctx.memory.running_decision.is_some(),
            "continue_running without a running decision"
        );
        let Some(running) = ctx.memory.running_decision else {
            return Status::Failure;
        };
        ctx.out.action = NavAction::Continue;
        ctx.out.chosen = Some(running);
        if let Some(sent) = &ctx.memory.sent {
            ctx.out.path.clone_from(&sent.path);
            ctx.out.poses.clone_from(&sent.poses);
        }
        Status::Running
    }

    /// Plans and sends (or holds) this decision's goal; it becomes the running decision.
    fn send(&self, ctx: &mut RmContext) -> Status {
        if !self.plan(ctx) {
            ctx.out.unreachable = Some(self.decision);
            ctx.out.path.clear();
            ctx.out.poses.clear();
            return Status::Failure;
        }
        ctx.out.chosen = Some(self.decision);
        ctx.memory.running_decision = Some(self.decision);
        if Self::same_goal_holds(ctx) {
            // Rule 6: the duplicate goal is not sent, but the decision runs all the same.
            ctx.out.action = NavAction::Hold;
            if let Some(sent) = ctx.memory.sent.as_mut() {
                sent.decision = self.decision;
            }
            return Status::Running;
        }
        ctx.out.action = if ctx.out.cancelled.is_some() {
            NavAction::Preempt
        } else {
            NavAction::Send
        };
        let sent = ctx.memory.sent.get_or_insert_with(SentGoal::default);
        sent.decision = self.decision;
        sent.path.clone_from(&ctx.out.path);
        sent.poses.clone_from(&ctx.out.poses);
        Status::Running
    }

    fn weight(&self, decision: usize) -> i64 {
        self.tables
            .decisions
            .get(decision)
            .map_or(i64::MIN, |d| i64::from(d.decision.weight))
    }

    /// This decision is the best candidate and was not running (rules 5 and 6 of the decision rules).
    fn start(&mut self, ctx: &mut RmContext) -> Status {
        if !nav_status::is_active(ctx.world.nav_status) {
            return self.send(ctx); // rule 6
        }
        if ctx.out.cancelled.is_some() {
            return self.send(ctx); // rule 5: preempting the running decision this tick
        }
        match ctx.memory.running_decision {
            // Rule 5, no running decision: the active goal is not ours; cancel it.
            None => {
                ctx.out.cancel_active_goal = true;
                Status::Failure
            }
            Some(running) if running == self.decision => Self::continue_running(ctx),
            // The running decision is not the engine's running child (its tick ended without
            // a goal, e.g. unreachable): rule 5 by the weights.
            Some(running) => {
                if self.weight(self.decision) > self.weight(running) {
                    ctx.out.cancelled = Some(running);
                    self.send(ctx)
                } else {
                    Self::continue_running(ctx)
                }
            }
        }
    }
}

impl Behavior<RmContext> for Navigate {
    fn tick(&mut self, cx: &mut Cx<'_, RmContext>) -> Result<Status, Fault> {
        let committed = cx.state() == NodeState::Running;
        let ctx = cx.ctx_mut();
        Ok(if committed {
            // Committed: continue while Nav2 runs the goal; once it ended, the parent
            // chooses afresh (rule 6), possibly this decision again.
            if nav_status::is_active(ctx.world.nav_status) {
                Self::continue_running(ctx)
            } else if ctx.world.nav_status == nav_status::SUCCEEDED {
                Status::Success
            } else {
                Status::Failure
            }
        } else {
            self.start(ctx)
        })
    }

    fn halt(&mut self, cx: &mut Cx<'_, RmContext>) {
        let ctx = cx.ctx_mut();
        // Preempted by a strictly heavier decision: its goal is cancelled while Nav2 runs it.
        if ctx.memory.running_decision == Some(self.decision)
            && nav_status::is_active(ctx.world.nav_status)
        {
            ctx.out.cancelled = Some(self.decision);
        }
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// The declared model of the navigation action.
pub fn model() -> NodeModel {
    let decision = PortDecl::input(
        "decision",
        EntryType::Int,
        "the decision (its position in decisions.json) whose waypoints the robot drives",
    );
    NodeModel::new(Children::None, vec![decision])
}

/// Registers the navigation action for `tables`.
pub fn register(registry: &mut Registry<RmContext>, tables: &Arc<Tables>) {
    let tables = Arc::clone(tables);
    registry.register(NAVIGATE, model(), move |b| {
        let index = b.params().i64("decision").map_err(|e| e.to_string())?;
        let decision = usize::try_from(index)
            .ok()
            .filter(|i| *i < tables.decisions.len())
            .ok_or_else(|| format!("param `decision`: no decision #{index}"))?;
        Ok(Box::new(Navigate {
            tables: Arc::clone(&tables),
            decision,
        }))
    });
}
