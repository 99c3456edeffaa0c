//! The `navigate` action: plans a decision's path and poses, sends the goal to Nav2 (or holds
//! an identical one), keeps running while Nav2 reports the goal accepted or executing, and
//! records a cancellation when a heavier decision halts it. Whether its goal is in flight lives
//! in the context's memory, so a reload can carry a running goal over to new tables.

use super::config::PathPlanning;
use super::context::{GoalPose, NavAction, RmContext, SentGoal};
use super::decisions::SKIP;
use super::load::Tables;
use super::world::nav_status;
use crate::engine::{Action, ParamError, Registry, Status};
use std::f32::consts::PI;
use std::sync::Arc;

/// Leaf name of the navigation action.
pub const NAVIGATE: &str = "navigate";

/// Navigation toward one decision's target.
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
            let heading = ctx.aim.map_or(w.angle, |a| a.yaw) + reverse;
            out.poses.push([w.x, w.y, heading]);
        }
        true
    }

    /// Whether the goal planned in `ctx.out` is the one already sent and need not be re-sent.
    fn same_goal_holds(ctx: &RmContext) -> bool {
        let Some(sent) = &ctx.memory.sent else {
            return false;
        };
        let same = sent.path == ctx.out.path
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
        && super::aim::wrap_pi(ah - bh).abs() <= HEADING_RESEND_TOLERANCE
}

impl Action<RmContext> for Navigate {
    fn tick(&mut self, ctx: &mut RmContext, _now: f64) -> Status {
        if ctx.memory.in_flight == Some(self.decision) {
            if nav_status::is_active(ctx.world.nav_status) {
                ctx.out.action = NavAction::Continue;
                ctx.out.chosen = Some(self.decision);
                if let Some(sent) = &ctx.memory.sent {
                    ctx.out.path.clone_from(&sent.path);
                    ctx.out.poses.clone_from(&sent.poses);
                }
                return Status::Running;
            }
            ctx.memory.in_flight = None;
            return if ctx.world.nav_status == nav_status::SUCCEEDED {
                Status::Success
            } else {
                Status::Failure
            };
        }
        if !self.plan(ctx) {
            ctx.out.unreachable = Some(self.decision);
            ctx.out.path.clear();
            ctx.out.poses.clear();
            return Status::Failure;
        }
        ctx.out.chosen = Some(self.decision);
        if Self::same_goal_holds(ctx) {
            ctx.out.action = NavAction::Hold;
            return Status::Success;
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
        ctx.memory.in_flight = Some(self.decision);
        Status::Running
    }

    fn halt(&mut self, ctx: &mut RmContext) {
        if ctx.memory.in_flight == Some(self.decision) {
            ctx.memory.in_flight = None;
            ctx.out.cancelled = Some(self.decision);
        }
    }
}

/// Registers the navigation action for `tables`.
pub fn register(registry: &mut crate::engine::Registry<RmContext>, tables: &Arc<Tables>) {
    let tables = Arc::clone(tables);
    let registry: &mut Registry<RmContext> = registry;
    registry.action(NAVIGATE, move |p| {
        let index = p.i64("decision")?;
        let decision = usize::try_from(index)
            .ok()
            .filter(|i| *i < tables.decisions.len())
            .ok_or(ParamError {
                param: "decision".into(),
                message: format!("no decision #{index}"),
            })?;
        Ok(Box::new(Navigate {
            tables: Arc::clone(&tables),
            decision,
        }))
    });
}
