//! `SoccerDecider`: one frame in, one decision out. Updates the world model, runs the
//! striker hysteresis, ticks the tree, assembles the motion command and sends the team
//! message (contract section B).

use crate::context::{Role, SoccerContext, TickChoices};
use crate::frame::{Frame, PrimaryState};
use crate::messages::{MessageSender, StateMessage};
use crate::motion::MotionCommand;
use crate::params::Parameters;
use crate::world::{BallSource, BallState, has_reached};
use decision_core::engine::{CompileError, NodeId, Status, Tree, TreeSpec, compile};
use serde::Serialize;
use std::sync::Arc;

/// The ball in the output: position, source and age.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OutputBall {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
    /// `local` or `team`.
    pub source: BallSource,
    /// Seconds since the observation.
    pub age: f64,
}

/// A pose in the output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OutputPose {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
    /// Heading (rad).
    pub yaw: f64,
}

/// One output line of `soccer decide`, keys in the contract's order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    /// Frame time.
    pub t: f64,
    /// The root branch that succeeded, or `fallback`.
    pub branch: String,
    /// The role while playing.
    pub role: Option<&'static str>,
    /// The assembled motion command.
    pub motion: MotionCommand,
    /// The retained ball the tree used.
    pub ball: Option<OutputBall>,
    /// The State message sent this frame.
    pub message: Option<StateMessage>,
    /// `hsl_state_message_send_interval`.
    pub message_interval: Option<f64>,
    /// What the search suggestor receives.
    pub goalkeeper_player_number: Option<u8>,
    /// The ready formation's pose.
    pub kickoff_pose: Option<OutputPose>,
    /// Why each branch before the chosen one failed (only with `--explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Vec<(String, String)>>,
}

/// A root branch: its label, its node, and the end of its preorder range.
#[derive(Debug, Clone)]
struct Branch {
    label: String,
    node: NodeId,
    end: u32,
}

/// Runs the soccer behaviour frame by frame.
pub struct SoccerDecider {
    tree: Tree<SoccerContext>,
    ctx: SoccerContext,
    branches: Vec<Branch>,
    is_leaf: Vec<bool>,
    sender: MessageSender,
    raw_since: f64,
    last_raw: bool,
    started: bool,
    explain: bool,
}

impl SoccerDecider {
    /// Compiles `spec` against the soccer registry.
    pub fn new(spec: &TreeSpec, params: Arc<Parameters>) -> Result<Self, Vec<CompileError>> {
        let tree = compile(spec, &crate::tree::registry())?;
        let mut branches = Vec::new();
        let mut next = 1u32;
        for child in &spec.children {
            let count = child.node_count() as u32;
            branches.push(Branch {
                label: child.label().to_owned(),
                node: NodeId(next),
                end: next + count,
            });
            next += count;
        }
        let mut is_leaf = Vec::with_capacity(spec.node_count());
        fn leaves(spec: &TreeSpec, out: &mut Vec<bool>) {
            out.push(spec.children.is_empty());
            for c in &spec.children {
                leaves(c, out);
            }
        }
        leaves(spec, &mut is_leaf);
        Ok(Self {
            tree,
            ctx: SoccerContext::new(params),
            branches,
            is_leaf,
            sender: MessageSender::default(),
            raw_since: 0.0,
            last_raw: false,
            started: false,
            explain: false,
        })
    }

    /// Adds the why-not of the failed branches to each decision.
    pub fn set_explain(&mut self, on: bool) {
        self.explain = on;
    }

    /// Turns the trace off (the benchmark's steady state; branches are then not reported).
    pub fn set_tracing(&mut self, on: bool) {
        self.tree.set_tracing(on);
    }

    /// The context (world, memory), for inspection.
    pub fn context(&self) -> &SoccerContext {
        &self.ctx
    }

    /// The compiled tree, for inspection.
    pub fn tree(&self) -> &Tree<SoccerContext> {
        &self.tree
    }

    /// Decides one frame.
    pub fn decide(&mut self, frame: &Frame) -> Decision {
        let (status, motion) = self.tick(frame);
        let params = self.ctx.params.clone();
        let branch = self.branch_of(status);
        let role = if branch == "playing" {
            self.ctx.out.role.map(Role::name)
        } else {
            None
        };
        let message = self.sender.maybe_send(&self.ctx.world, &motion, &params);
        let world = &self.ctx.world;
        let ball = world.ball.map(|b: BallState| OutputBall {
            x: b.position.x,
            y: b.position.y,
            source: b.source,
            age: b.age(world.now),
        });
        let kickoff_pose = if world.primary_state == PrimaryState::Ready {
            self.ctx.out.kickoff_pose.map(|p| OutputPose {
                x: p.position.x,
                y: p.position.y,
                yaw: p.yaw,
            })
        } else {
            None
        };
        let explain = self.explain.then(|| self.why_not(&branch));
        Decision {
            t: world.now,
            branch,
            role,
            motion,
            ball,
            message,
            message_interval: world.message_interval,
            goalkeeper_player_number: Some(params.behavior_node.goalkeeper.player_number),
            kickoff_pose,
            explain,
        }
    }

    /// Updates the world, runs the hysteresis and ticks the tree; returns the root's status
    /// and the assembled command (the safe stand when the root did not succeed).
    pub fn tick(&mut self, frame: &Frame) -> (Status, MotionCommand) {
        let params = self.ctx.params.clone();
        self.ctx.world.update(frame, &params);
        self.ctx.out = TickChoices::default();
        self.ctx.memory.voronoi_fresh = false;
        self.update_striker_hysteresis();
        let now = self.ctx.world.now;
        let status = self.tree.tick(&mut self.ctx, now);
        let motion = if status == Status::Success {
            MotionCommand::assemble(self.ctx.out.body.take(), self.ctx.out.head.take())
        } else {
            MotionCommand::STAND
        };
        if self.ctx.out.role != Some(Role::Searcher) || status != Status::Success {
            self.ctx.memory.search_direction = None;
        }
        self.ctx.memory.last_body = Some(motion.body.clone());
        (status, motion)
    }

    /// The raw "owns the ball's cell" answer must hold `enter_duration` to make a striker; a
    /// striker stays one until it has been false for `exit_duration`.
    fn update_striker_hysteresis(&mut self) {
        let raw = self.ctx.owns_ball_cell();
        let now = self.ctx.world.now;
        if !self.started {
            self.started = true;
            self.last_raw = false;
            self.raw_since = now;
        }
        if raw != self.last_raw {
            self.last_raw = raw;
            self.raw_since = now;
        }
        let hysteresis = &self.ctx.params.behavior_node.ball.closest_to_ball;
        let held = now - self.raw_since;
        let world = &mut self.ctx.world;
        world.owns_ball_cell = raw;
        if raw && !world.is_striker && has_reached(held, hysteresis.enter_duration) {
            world.is_striker = true;
        } else if !raw && world.is_striker && has_reached(held, hysteresis.exit_duration) {
            world.is_striker = false;
        }
    }

    /// The label of the root branch that succeeded this tick, or `fallback`.
    fn branch_of(&self, status: Status) -> String {
        if status != Status::Success {
            return "fallback".to_owned();
        }
        let trace = self.tree.trace();
        self.branches
            .iter()
            .find(|b| trace.status_of(b.node) == Some(Status::Success))
            .map_or_else(|| "fallback".to_owned(), |b| b.label.clone())
    }

    /// For each branch ticked before `chosen` (all of them for the fallback): the explanation
    /// of the first leaf that failed in it.
    fn why_not(&self, chosen: &str) -> Vec<(String, String)> {
        let trace = self.tree.trace();
        let now = self.ctx.world.now;
        let mut out = Vec::new();
        for b in &self.branches {
            if b.label == chosen {
                break;
            }
            let failed_leaf = trace.entries().iter().find(|e| {
                e.node.0 >= b.node.0
                    && e.node.0 < b.end
                    && e.status == Status::Failure
                    && self.is_leaf.get(e.node.index()).copied().unwrap_or(false)
            });
            let text = match failed_leaf {
                Some(e) => {
                    let name = self.tree.name(e.node).unwrap_or("?").to_owned();
                    match self.tree.explain(e.node, &self.ctx, now) {
                        Some(why) => format!("{name}: {why}"),
                        None => format!("{name} failed"),
                    }
                }
                None => "not ticked".to_owned(),
            };
            out.push((b.label.clone(), text));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decider() -> SoccerDecider {
        let spec = match crate::tree::default_spec() {
            Ok(s) => s,
            Err(e) => panic!("{e:?}"),
        };
        match SoccerDecider::new(&spec, Arc::new(Parameters::default())) {
            Ok(d) => d,
            Err(e) => panic!("{e:?}"),
        }
    }

    /// Player 2 at (-1, 0) and teammate 3 at (1, 0) facing it; the ball in 2's cell or not.
    fn frame(t: f64, owns: bool) -> Frame {
        let ball_x = if owns { -0.5 } else { 0.5 };
        let text = format!(
            r#"{{"t": {t}, "player_number": 2, "pose": {{"x": -1, "y": 0, "yaw": 0}},
                "ball": {{"x": {ball_x}, "y": 0}},
                "teammate_messages": [{{"player": 3, "pose": {{"x": 1, "y": 0, "yaw": 3.14}}}}]}}"#
        );
        match Frame::parse(&text) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn the_striker_hysteresis_switches_at_the_frame_that_reaches_the_duration() {
        let mut d = decider();
        let role = |d: &mut SoccerDecider, t: f64, owns: bool| d.decide(&frame(t, owns)).role;
        assert_eq!(role(&mut d, 0.26, false), Some("supporter"));
        // true from 0.28: 0.58 - 0.28 is 0.29999999999999993 in floating point, still 0.3 s
        assert_eq!(role(&mut d, 0.28, true), Some("supporter"));
        assert_eq!(role(&mut d, 0.56, true), Some("supporter"));
        assert_eq!(role(&mut d, 0.58, true), Some("striker"));
        // false from 0.55 (0.70 - 0.55 < 0.15 in floating point): striker until 0.70
        assert_eq!(role(&mut d, 0.55, false), Some("striker"));
        assert_eq!(role(&mut d, 0.65, false), Some("striker"));
        assert_eq!(role(&mut d, 0.70, false), Some("supporter"));
    }
}
