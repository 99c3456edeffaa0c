//! `SoccerDecider`: one frame in, one decision out. Updates the world model, runs the
//! striker hysteresis, ticks the tree, assembles the motion command and sends the team
//! message (contract section B).

use crate::booster::cooperation::{Keys, cooperate};
use crate::context::{Role, SoccerContext, TickChoices};
use crate::frame::{Frame, PrimaryState};
use crate::messages::{MessageSender, StateMessage};
use crate::motion::MotionCommand;
use crate::params::Parameters;
use crate::world::{BallSource, BallState, has_reached};
use decision_core::engine::blackboard::Blackboards;
use decision_core::engine::{CompileError, NodeId, Status, Tree, TreeSpec, compile, compile_with};
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
    /// The planned path's next destination of a `walk_to` (only with `--explain`; `null`
    /// when the planner brakes or nothing walks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_next: Option<Option<[f64; 2]>>,
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
    /// Set for a Booster-vocabulary tree: the root keys its brain writes before each tick.
    booster: Option<Keys>,
}

impl SoccerDecider {
    /// Compiles `spec` against the soccer registry. A tree using a Booster node gets
    /// Booster's brain around it: the root blackboard keys with their initial values, the
    /// cooperation before each tick, and RUNNING / SKIPPED roots that still move the robot.
    pub fn new(spec: &TreeSpec, params: Arc<Parameters>) -> Result<Self, Vec<CompileError>> {
        let registry = crate::tree::registry();
        let (tree, booster) = if crate::booster::uses_booster_nodes(spec) {
            let mut blackboards = Blackboards::new();
            let root = blackboards.new_root();
            let keys = Keys::create(&mut blackboards, root).map_err(|e| {
                vec![CompileError {
                    span: spec.span.clone(),
                    node_path: spec.label().to_owned(),
                    message: format!("Booster blackboard keys: {e}"),
                }]
            })?;
            (
                compile_with(spec, &registry, blackboards, root)?,
                Some(keys),
            )
        } else {
            (compile(spec, &registry)?, None)
        };
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
            booster,
        })
    }

    /// Whether the tree uses the Booster vocabulary (and Booster's brain runs around it).
    pub fn is_booster(&self) -> bool {
        self.booster.is_some()
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
        let playing = if self.booster.is_some() {
            self.ctx.world.primary_state == PrimaryState::Playing
        } else {
            branch == "playing"
        };
        let role = if playing {
            self.ctx.out.role.map(Role::name)
        } else {
            None
        };
        let message = self.sender.maybe_send(
            &self.ctx.world,
            &motion,
            &params,
            role == Some(Role::Striker.name()),
        );
        if let Some(m) = &message {
            let now = self.ctx.world.now;
            self.ctx.memory.last_sent_pose =
                Some((now, geometry::Pose2::new(m.pose.x, m.pose.y, m.pose.yaw)));
            self.ctx.memory.last_sent_claim = m.striker.map(|claims| (now, claims));
            self.ctx.memory.last_sent_ball = m
                .ball
                .zip(m.ball_age)
                .map(|(b, age)| (geometry::Point2::new(b.x, b.y), now - age));
        }
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
            path_next: self
                .explain
                .then(|| self.ctx.out.path_next.map(|p| p.to_array())),
        }
    }

    /// Updates the world, runs the hysteresis and ticks the tree; returns the root's status
    /// and the assembled command (the safe stand when the root did not succeed).
    pub fn tick(&mut self, frame: &Frame) -> (Status, MotionCommand) {
        let params = self.ctx.params.clone();
        self.ctx.world.update(frame, &params);
        self.ctx.out = TickChoices::default();
        self.ctx.memory.voronoi_fresh = false;
        if let Some(keys) = &self.booster {
            // The keys were created with the types written here; a tree script that re-typed
            // one (`:=` cannot) is the only way this fails, and then the key keeps its value.
            let _ = cooperate(&mut self.ctx, self.tree.blackboard_mut(), keys);
        } else {
            self.update_striker_hysteresis();
        }
        let now = self.ctx.world.now;
        let status = self.tree.tick(&mut self.ctx, now);
        if self.booster.is_some() {
            // Booster's loop ticks a running tree on and on: RUNNING (a kick, a turn) and
            // SKIPPED (every branch off) still carry this tick's motion.
            let motion = if status == Status::Failure {
                MotionCommand::STAND
            } else {
                MotionCommand::assemble(self.ctx.out.body.take(), self.ctx.out.head.take())
            };
            self.ctx.memory.last_body = Some(motion.body.clone());
            return (status, motion);
        }
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
        let booster = self.booster.is_some();
        let ran = |s: Option<Status>| {
            s == Some(Status::Success) || (booster && s == Some(Status::Running))
        };
        if !ran(Some(status)) {
            return "fallback".to_owned();
        }
        let trace = self.tree.trace();
        self.branches
            .iter()
            .rev()
            .filter(|_| booster)
            .chain(self.branches.iter().filter(|_| !booster))
            .find(|b| ran(trace.status_of(b.node)))
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
    use crate::frame::{BallJson, PoseJson, TeammateMessage};

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

    /// Robot 3 at (-1, 0) and teammate 2 at `mate_x`, ball at (0, 0): 3 owns the ball's
    /// cell while the teammate is farther from the ball.
    fn frame(t: f64, mate_x: f64) -> Frame {
        Frame {
            t,
            player_number: 3,
            pose: Some(PoseJson {
                x: -1.0,
                y: 0.0,
                yaw: 0.0,
            }),
            ball: Some(BallJson {
                x: 0.0,
                y: 0.0,
                vx: 0.0,
                vy: 0.0,
            }),
            teammate_messages: vec![TeammateMessage {
                player: 2,
                pose: Some(PoseJson {
                    x: mate_x,
                    y: 0.0,
                    yaw: std::f64::consts::PI,
                }),
                head_yaw: 0.0,
                ball: None,
                ball_age: 0.0,
                striker: None,
            }],
            ..Frame::default()
        }
    }

    #[test]
    fn the_striker_hysteresis_switches_on_the_exact_frames() {
        let mut d = decider();
        let mut roles = Vec::new();
        // 0.00-0.10: the teammate is nearer (supporter); from 0.12 this robot is nearer.
        for i in 0..=30 {
            let t = f64::from(i) * 0.02;
            let mate_x = if i <= 5 { 0.5 } else { 2.0 };
            roles.push((i, d.decide(&frame(t, mate_x)).role));
        }
        // Raw true from frame 6 (t = 0.12): striker once it held 0.3 s, at frame 21 (0.42).
        assert!(
            roles[..21].iter().all(|(_, r)| *r == Some("supporter")),
            "{roles:?}"
        );
        assert!(
            roles[21..].iter().all(|(_, r)| *r == Some("striker")),
            "{roles:?}"
        );
        // Raw false from t = 0.70: still striker until it has been false for 0.15 s (0.85).
        let mut later = Vec::new();
        for i in 35..=45 {
            let t = f64::from(i) * 0.02;
            later.push((i, d.decide(&frame(t, 0.5)).role));
        }
        let first_supporter = later
            .iter()
            .find(|(_, r)| *r == Some("supporter"))
            .map(|(i, _)| *i);
        // frames 35 (0.70) .. 42 (0.84) stay striker; 43 (0.86) >= 0.70 + 0.15.
        assert_eq!(first_supporter, Some(43), "{later:?}");
    }

    /// Robot 3 starts at (-3, 0), far from the ball, then stands at (-0.5, 0), nearer than
    /// teammate 2 at (1.5, 0); returns the first frame (20 ms each) at which it is striker.
    fn first_striker_frame_after_moving(own_pose: crate::params::OwnPose) -> Option<usize> {
        let mut params = Parameters::default();
        params.behavior_node.ball.closest_to_ball.own_pose = own_pose;
        params.behavior_node.team.maximum_player_state_age = 6.0;
        let spec = crate::tree::default_spec().unwrap_or_else(|e| panic!("{e:?}"));
        let mut d = SoccerDecider::new(&spec, Arc::new(params)).unwrap_or_else(|e| panic!("{e:?}"));
        (0..400).find(|&i| {
            let mut f = frame(i as f64 * 0.02, 1.5);
            if let Some(pose) = &mut f.pose {
                pose.x = if i == 0 { -3.0 } else { -0.5 };
            }
            let out = d.decide(&f);
            assert_eq!(out.message.is_some(), i == 0 || i == 255, "frame {i}");
            out.role == Some("striker")
        })
    }

    #[test]
    fn with_own_pose_last_sent_the_partition_uses_the_pose_teammates_know() {
        use crate::params::OwnPose;
        // This frame's pose: nearer from frame 1 (0.02 s), striker after 0.3 s.
        assert_eq!(first_striker_frame_after_moving(OwnPose::Current), Some(16));
        // The last sent pose (-3, 0) stays in force until the next message, 5.0847 s later at
        // frame 255 (5.10 s); nearer from frame 256, striker after 0.3 s at frame 271.
        assert_eq!(
            first_striker_frame_after_moving(OwnPose::LastSent),
            Some(271)
        );
    }

    #[test]
    fn ready_without_a_pose_falls_back_to_standing() {
        let mut d = decider();
        let f = Frame {
            primary_state: PrimaryState::Ready,
            pose: None,
            ..Frame::default()
        };
        let out = d.decide(&f);
        assert_eq!(out.branch, "fallback");
        assert_eq!(out.motion, MotionCommand::STAND);
        assert!(
            out.kickoff_pose.is_some(),
            "the formation pose is still reported"
        );
    }

    #[test]
    fn messages_go_out_at_once_then_every_interval() {
        let mut d = decider();
        let mut sent = Vec::new();
        for i in 0..400 {
            let t = f64::from(i) * 0.05;
            let mut f = frame(t, 2.0);
            f.teammate_messages.clear();
            if d.decide(&f).message.is_some() {
                sent.push(t);
            }
        }
        // (600 + 600) s * 5 / (1200 - 20) = 5.0847 s
        assert_eq!(sent.len(), 4, "{sent:?}");
        assert_eq!(sent[0], 0.0);
        for pair in sent.windows(2) {
            assert!(
                pair[1] - pair[0] >= 5.0847 && pair[1] - pair[0] < 5.0847 + 0.05,
                "{sent:?}"
            );
        }
    }

    #[test]
    fn explain_lists_the_failed_branches_in_order() {
        let mut d = decider();
        d.set_explain(true);
        let out = d.decide(&Frame {
            primary_state: PrimaryState::Initial,
            ..Frame::default()
        });
        let names: Vec<&str> = out
            .explain
            .iter()
            .flatten()
            .map(|(b, _)| b.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "damping",
                "prepare",
                "stop",
                "remote_control",
                "injected",
                "finished",
                "penalized"
            ]
        );
        let first = out
            .explain
            .as_ref()
            .and_then(|e| e.first())
            .map(|(_, why)| why.as_str());
        assert_eq!(
            first,
            Some("is_primary_state: primary state is initial, not damping")
        );
    }
}

#[cfg(test)]
mod without_pose {
    use super::*;

    fn decide(json: &str) -> Decision {
        let spec = match crate::tree::default_spec() {
            Ok(s) => s,
            Err(e) => panic!("{e:?}"),
        };
        let mut d = match SoccerDecider::new(&spec, Arc::new(Parameters::default())) {
            Ok(d) => d,
            Err(e) => panic!("{e:?}"),
        };
        match Frame::parse(json) {
            Ok(f) => d.decide(&f),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn playing_without_a_pose_keeps_the_role_and_stands() {
        let striker = decide(r#"{"player_number": 3, "pose": null, "ball": {"x": 1, "y": 0}}"#);
        assert_eq!(
            (striker.branch.as_str(), striker.role),
            ("playing", Some("striker"))
        );
        assert_eq!(striker.motion.body, crate::motion::Body::Stand);
        let keeper = decide(
            r#"{"player_number": 1, "pose": null, "ball": {"x": 1, "y": 0},
                "teammate_messages": [{"player": 2}]}"#,
        );
        assert_eq!(
            (keeper.branch.as_str(), keeper.role),
            ("playing", Some("goalkeeper"))
        );
        let searcher = decide(r#"{"player_number": 3, "pose": null}"#);
        assert_eq!(searcher.role, Some("searcher"));
        assert!(matches!(searcher.motion.body, crate::motion::Body::Turn(_)));
    }
}

#[cfg(test)]
mod booster {
    use super::*;
    use crate::motion::Body;

    fn decider(xml: &str) -> SoccerDecider {
        let doc = match bt_xml::load_str(xml, "t.xml", std::path::Path::new(".")) {
            Ok(d) => d,
            Err(e) => panic!("{e:?}"),
        };
        let spec = match bt_xml::main_spec(&doc, None, std::path::Path::new("t.xml")) {
            Ok(s) => s,
            Err(e) => panic!("{e:?}"),
        };
        match SoccerDecider::new(&spec, Arc::new(Parameters::default())) {
            Ok(d) => d,
            Err(e) => panic!("{e:?}"),
        }
    }

    fn frame(json: &str) -> Frame {
        match Frame::parse(json) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn a_booster_tree_reads_the_brain_keys_and_moves_while_running() {
        // The keys exist before the first tick (a script reading them compiles and runs),
        // and a RUNNING root still carries its motion.
        let mut d = decider(
            r#"<root BTCPP_format="4"><BehaviorTree ID="M">
              <ReactiveSequence>
                <ScriptCondition code="gc_game_state == 'PLAY' &amp;&amp; ball_location_known" />
                <CalcKickDir />
                <Kick min_msec_kick="1000" />
              </ReactiveSequence>
            </BehaviorTree></root>"#,
        );
        assert!(d.is_booster());
        let out = d.decide(&frame(
            r#"{"player_number": 3, "pose": {"x": -1, "y": 0, "yaw": 0}, "ball": {"x": 0, "y": 0}}"#,
        ));
        assert!(
            matches!(out.motion.body, Body::Kick { .. }),
            "{:?}",
            out.motion
        );
        assert_eq!(out.role, Some("striker"));
        assert_ne!(out.branch, "fallback");
        // Not playing: the condition fails, the robot stands.
        let out = d.decide(&frame(
            r#"{"t": 0.02, "player_number": 3, "primary_state": "ready",
                "pose": {"x": -1, "y": 0, "yaw": 0}, "ball": {"x": 0, "y": 0}}"#,
        ));
        assert_eq!(out.motion, MotionCommand::STAND);
        assert_eq!(out.branch, "fallback");
    }

    #[test]
    fn a_tree_without_booster_nodes_runs_without_the_brain() {
        let d = decider(
            r#"<root BTCPP_format="4"><BehaviorTree ID="M"><stand/></BehaviorTree></root>"#,
        );
        assert!(!d.is_booster());
    }
}
