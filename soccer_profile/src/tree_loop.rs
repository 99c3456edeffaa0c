//! What runs around the tree each tick, chosen by the parameter `behavior_node.brain` or the
//! tree file (`<root brain="booster">`), never guessed from the nodes a tree uses:
//!
//! * [`SoccerLoop`], the soccer behaviour's: the striker hysteresis before the tick; only a
//!   tick that succeeds moves the robot; the first root branch that succeeded is reported,
//!   and the robot plays while that branch is `playing`.
//! * [`BoosterLoop`], the Booster RoboCup demo's C++ brain: its blackboard keys written before
//!   the tick; running and skipped roots still move the robot (a kick, a turn); the last root
//!   branch that ran is reported, and the robot plays while the game is in `playing`.

use crate::booster::cooperation::{Keys, cooperate};
use crate::context::{Role, SoccerContext};
use crate::frame::PrimaryState;
use crate::motion::MotionCommand;
use crate::world::has_reached;
use decision_core::engine::Status;
use decision_core::engine::blackboard::Blackboards;

/// The rules around the tree's tick that differ between brains.
pub trait TreeLoop: Send {
    /// Prepares the context and the tree's blackboard for this tick.
    fn before_tick(&mut self, ctx: &mut SoccerContext, blackboards: &mut Blackboards);

    /// The motion of a tick whose root returned `status`; leaves the memory the next tick
    /// reads.
    fn motion(&self, status: Status, ctx: &mut SoccerContext) -> MotionCommand;

    /// Whether a node (the root, a branch) that returned `status` ran this tick.
    fn ran(&self, status: Option<Status>) -> bool;

    /// Whether the branch reported is the last root branch that ran (else the first).
    fn reports_last_branch(&self) -> bool;

    /// Whether the robot plays (and reports a role) when `branch` is reported.
    fn playing(&self, branch: &str, ctx: &SoccerContext) -> bool;

    /// The last error of the loop's own work before a tick, if any (Booster's keys).
    fn fault(&self) -> Option<&str> {
        None
    }
}

/// The soccer behaviour's loop: the striker hysteresis and success-only motion.
#[derive(Debug, Default)]
pub struct SoccerLoop {
    started: bool,
    last_raw: bool,
    raw_since: f64,
}

impl SoccerLoop {
    /// The raw "owns the ball's cell" answer must hold `enter_duration` to make a striker
    /// (at once while nobody claims the role, with `enter_at_once_when_unclaimed`); a
    /// striker stays one until it has been false for `exit_duration`. With
    /// `hold_without_pose`, a frame without a pose changes nothing.
    fn update_striker_hysteresis(&mut self, ctx: &mut SoccerContext) {
        if ctx
            .params
            .behavior_node
            .ball
            .closest_to_ball
            .hold_without_pose
            && ctx.world.pose.is_none()
        {
            return;
        }
        let raw = ctx.owns_ball_cell();
        let now = ctx.world.now;
        if !self.started {
            self.started = true;
            self.last_raw = false;
            self.raw_since = now;
        }
        if raw != self.last_raw {
            self.last_raw = raw;
            self.raw_since = now;
        }
        let hysteresis = &ctx.params.behavior_node.ball.closest_to_ball;
        let held = now - self.raw_since;
        let (enter, exit) = (hysteresis.enter_duration, hysteresis.exit_duration);
        // Nobody holds the role: nothing to hand over, so no reason to wait. Asked only of a
        // robot about to become striker, once the wait has not decided already.
        let enters = raw
            && !ctx.world.is_striker
            && (has_reached(held, enter)
                || (hysteresis.striker_claim
                    && hysteresis.enter_at_once_when_unclaimed
                    && ctx.claimed_striker().is_none()));
        let world = &mut ctx.world;
        world.owns_ball_cell = raw;
        if enters {
            world.is_striker = true;
        } else if !raw && world.is_striker && has_reached(held, exit) {
            world.is_striker = false;
        }
    }
}

impl TreeLoop for SoccerLoop {
    fn before_tick(&mut self, ctx: &mut SoccerContext, _blackboards: &mut Blackboards) {
        self.update_striker_hysteresis(ctx);
    }

    fn motion(&self, status: Status, ctx: &mut SoccerContext) -> MotionCommand {
        let motion = if status == Status::Success {
            MotionCommand::assemble(ctx.out.body.take(), ctx.out.head.take())
        } else {
            MotionCommand::STAND
        };
        if ctx.out.role != Some(Role::Searcher) || status != Status::Success {
            ctx.memory.search_direction = None;
        }
        ctx.memory.last_body = Some(motion.body.clone());
        motion
    }

    fn ran(&self, status: Option<Status>) -> bool {
        status == Some(Status::Success)
    }

    fn reports_last_branch(&self) -> bool {
        false
    }

    fn playing(&self, branch: &str, _ctx: &SoccerContext) -> bool {
        branch == "playing"
    }
}

/// Booster's brain: its root blackboard keys, written before every tick.
#[derive(Debug)]
pub struct BoosterLoop {
    keys: Keys,
    fault: Option<String>,
}

impl BoosterLoop {
    /// The loop writing `keys` (created in the tree's root blackboard before compiling).
    pub fn new(keys: Keys) -> Self {
        Self { keys, fault: None }
    }
}

impl TreeLoop for BoosterLoop {
    fn before_tick(&mut self, ctx: &mut SoccerContext, blackboards: &mut Blackboards) {
        // The keys were created with the types written here; a key a tree script re-typed
        // keeps its value, and the error is kept for the caller to report.
        self.fault = cooperate(ctx, blackboards, &self.keys)
            .err()
            .map(|e| format!("Booster blackboard keys: {e}"));
    }

    fn motion(&self, status: Status, ctx: &mut SoccerContext) -> MotionCommand {
        // Booster's loop ticks a running tree on and on: RUNNING (a kick, a turn) and
        // SKIPPED (every branch off) still carry this tick's motion.
        let motion = if status == Status::Failure {
            MotionCommand::STAND
        } else {
            MotionCommand::assemble(ctx.out.body.take(), ctx.out.head.take())
        };
        ctx.memory.last_body = Some(motion.body.clone());
        motion
    }

    fn ran(&self, status: Option<Status>) -> bool {
        matches!(status, Some(Status::Success | Status::Running))
    }

    fn reports_last_branch(&self) -> bool {
        true
    }

    fn playing(&self, _branch: &str, ctx: &SoccerContext) -> bool {
        ctx.world.primary_state == PrimaryState::Playing
    }

    fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Frame;
    use crate::leaves::test_support::with_params;
    use crate::params::Parameters;

    /// Robot 3 at (-1, 0) facing +x, next to the ball at (-0.8, 0); teammate 2 at (2, 0)
    /// facing -x, its message claiming the striker role or not; at time `t`.
    fn scene(t: f64, mate_claims: bool) -> Frame {
        let text = format!(
            r#"{{"t": {t}, "player_number": 3, "pose": {{"x": -1, "y": 0, "yaw": 0}},
                "ball": {{"x": -0.8, "y": 0}},
                "teammate_messages": [{{"player": 2, "pose": {{"x": 2, "y": 0, "yaw": 3.14159}},
                    "striker": {mate_claims}}}]}}"#
        );
        Frame::parse(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn params(at_once: bool) -> Parameters {
        let mut p = Parameters::default();
        let choice = &mut p.behavior_node.ball.closest_to_ball;
        choice.striker_claim = true;
        choice.enter_at_once_when_unclaimed = at_once;
        choice.enter_duration = 0.3;
        p
    }

    /// Whether robot 3 is striker after each of `times`, deciding with `params` on the frame
    /// `frame_at` gives for that time.
    fn striker_over(
        params: Parameters,
        frame_at: impl Fn(f64) -> Frame,
        times: &[f64],
    ) -> Vec<bool> {
        let mut ctx = with_params(&frame_at(times[0]), params);
        let mut blackboards = Blackboards::new();
        let mut soccer = SoccerLoop::default();
        let params = ctx.params.clone();
        times
            .iter()
            .map(|&t| {
                ctx.world.update(&frame_at(t), &params);
                soccer.before_tick(&mut ctx, &mut blackboards);
                ctx.world.is_striker
            })
            .collect()
    }

    /// Whether robot 3 is striker after each of `times` (the same scene at each time).
    fn striker_after(at_once: bool, mate_claims: bool, times: &[f64]) -> Vec<bool> {
        striker_over(params(at_once), |t| scene(t, mate_claims), times)
    }

    #[test]
    fn nobody_claiming_the_role_the_owner_takes_it_at_once_only_with_the_parameter() {
        let times = [10.0, 10.1, 10.2, 10.3];
        assert_eq!(striker_after(true, false, &times), [true, true, true, true]);
        // The contract's rule: the raw answer must hold enter_duration (0.3 s).
        assert_eq!(
            striker_after(false, false, &times),
            [false, false, false, true]
        );
    }

    /// Whether robot 3 (at first striker, unclaimed by others) is striker after each of
    /// `times`, where the frames from 11.0 on have no pose.
    fn striker_without_pose_after(hold_without_pose: bool, times: &[f64]) -> Vec<bool> {
        let mut params = params(true);
        params.behavior_node.ball.closest_to_ball.exit_duration = 0.15;
        params.behavior_node.ball.closest_to_ball.hold_without_pose = hold_without_pose;
        let frame_at = |t: f64| {
            let mut frame = scene(t, false);
            if t >= 11.0 {
                frame.pose = None;
            }
            frame
        };
        striker_over(params, frame_at, times)
    }

    #[test]
    fn without_a_pose_the_striker_keeps_the_role_only_with_hold_without_pose() {
        let times = [10.0, 11.0, 11.1, 11.2, 14.0, 14.1];
        assert_eq!(
            striker_without_pose_after(true, &times),
            [true, true, true, true, true, true]
        );
        // The contract's rule: no pose, raw false; the role goes once that held 0.15 s.
        assert_eq!(
            striker_without_pose_after(false, &times),
            [true, true, true, false, false, false]
        );
    }

    #[test]
    fn a_teammate_claiming_the_role_makes_the_owner_wait_enter_duration() {
        let times = [10.0, 10.1, 10.2, 10.3];
        assert_eq!(
            striker_after(true, true, &times),
            [false, false, false, true]
        );
    }
}
