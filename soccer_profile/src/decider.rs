//! `SoccerDecider`: one frame in, one decision out. Updates the world model, runs the
//! striker hysteresis, ticks the tree, assembles the motion command and sends the team
//! message (`robot-decision soccer decide`).

use crate::booster::cooperation::Keys;
use crate::context::{Role, SoccerContext, TickChoices};
use crate::frame::{Frame, PrimaryState};
use crate::messages::{MessageSender, StateMessage};
use crate::motion::MotionCommand;
use crate::params::{BrainKind, Parameters};
use crate::tree_loop::{BoosterLoop, SoccerLoop, TreeLoop};
use crate::world::{BallSource, BallState};
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

/// One output line of `soccer decide`, keys in their documented order.
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
    explain: bool,
    /// The brain chosen for the tree: what runs around each tick.
    brain: BrainKind,
    tree_loop: Box<dyn TreeLoop>,
}

impl SoccerDecider {
    /// Compiles `spec` against the soccer registry, with the brain the parameters choose
    /// (`behavior_node.brain`).
    pub fn new(spec: &TreeSpec, params: Arc<Parameters>) -> Result<Self, Vec<CompileError>> {
        let brain = params.behavior_node.brain;
        Self::with_brain(spec, params, brain)
    }

    /// Compiles `spec` with `brain` around it. Booster's brain creates its root blackboard
    /// keys with their initial values before the tree is built; a Booster node in a tree
    /// without Booster's brain is a compile error saying how to choose it.
    pub fn with_brain(
        spec: &TreeSpec,
        params: Arc<Parameters>,
        brain: BrainKind,
    ) -> Result<Self, Vec<CompileError>> {
        let registry = crate::tree::registry();
        let (tree, tree_loop): (_, Box<dyn TreeLoop>) = match brain {
            BrainKind::Booster => {
                let mut blackboards = Blackboards::new();
                let root = blackboards.new_root();
                let keys = Keys::create(&mut blackboards, root).map_err(|e| {
                    vec![CompileError {
                        span: spec.span.clone(),
                        node_path: spec.label().to_owned(),
                        message: format!("Booster blackboard keys: {e}"),
                    }]
                })?;
                let tree = compile_with(spec, &registry, blackboards, root)?;
                (tree, Box::new(BoosterLoop::new(keys)))
            }
            BrainKind::Soccer => {
                // Every error at once: the Booster nodes, then what the compiler finds.
                let mut errors = crate::booster::booster_nodes_without_brain(spec);
                match compile(spec, &registry) {
                    Ok(tree) if errors.is_empty() => (tree, Box::new(SoccerLoop::default())),
                    Ok(_) => return Err(errors),
                    Err(more) => {
                        errors.extend(more);
                        return Err(errors);
                    }
                }
            }
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
            explain: false,
            brain,
            tree_loop,
        })
    }

    /// The brain running around the tree.
    pub fn brain(&self) -> BrainKind {
        self.brain
    }

    /// The last error of the brain's own work before a tick (Booster's keys), if any.
    pub fn brain_fault(&self) -> Option<&str> {
        self.tree_loop.fault()
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
        let playing = self.tree_loop.playing(&branch, &self.ctx);
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

    /// Updates the world, runs the brain's work before the tick and ticks the tree; returns
    /// the root's status and the assembled command (the brain's rule decides when the robot
    /// stands).
    pub fn tick(&mut self, frame: &Frame) -> (Status, MotionCommand) {
        let params = self.ctx.params.clone();
        self.ctx.world.update(frame, &params);
        self.ctx.out = TickChoices::default();
        self.tree_loop
            .before_tick(&mut self.ctx, self.tree.blackboard_mut());
        let now = self.ctx.world.now;
        let status = self.tree.tick(&mut self.ctx, now);
        let motion = self.tree_loop.motion(status, &mut self.ctx);
        (status, motion)
    }

    /// The label of the root branch the brain reports for this tick, or `fallback`.
    fn branch_of(&self, status: Status) -> String {
        let tree_loop = &self.tree_loop;
        if !tree_loop.ran(Some(status)) {
            return "fallback".to_owned();
        }
        let trace = self.tree.trace();
        let ran = |b: &&Branch| tree_loop.ran(trace.status_of(b.node));
        let found = if tree_loop.reports_last_branch() {
            self.branches.iter().rev().find(ran)
        } else {
            self.branches.iter().find(ran)
        };
        found.map_or_else(|| "fallback".to_owned(), |b| b.label.clone())
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
            let failed_leaf = trace.entries().find(|e| {
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
    fn a_supporter_kicks_a_ball_in_reach_only_with_kick_ball_in_reach() {
        // Robot 3 at (-1, 0) facing +x, the ball 0.35 m ahead at (-0.65, 0); teammate 2 at
        // (-0.5, 0) facing the ball owns its cell, so 3 is supporter.
        let json = r#"{"player_number": 3, "pose": {"x": -1, "y": 0, "yaw": 0},
            "ball": {"x": -0.65, "y": 0},
            "teammate_messages": [{"player": 2, "pose": {"x": -0.5, "y": 0, "yaw": 3.141592653589793}}]}"#;
        let frame = Frame::parse(json).unwrap_or_else(|e| panic!("{e}"));
        let decide_with = |kick_ball_in_reach: bool| {
            let mut params = Parameters::default();
            params.behavior_node.support.kick_ball_in_reach = kick_ball_in_reach;
            let spec = crate::tree::default_spec().unwrap_or_else(|e| panic!("{e:?}"));
            let mut d =
                SoccerDecider::new(&spec, Arc::new(params)).unwrap_or_else(|e| panic!("{e:?}"));
            d.decide(&frame)
        };
        let kicking = decide_with(true);
        assert_eq!(kicking.role, Some("supporter"));
        // The striker's kick: left foot (the ball is straight ahead), at the goal centre.
        assert_eq!(
            kicking.motion.body,
            crate::motion::Body::Kick {
                foot: crate::frame::Foot::Left,
                target: geometry::Point2::new(4.5, 0.0),
            }
        );
        let walking = decide_with(false);
        assert_eq!(walking.role, Some("supporter"));
        assert!(
            matches!(walking.motion.body, crate::motion::Body::WalkTo { .. }),
            "{:?}",
            walking.motion.body
        );
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
        let mut params = Parameters::default();
        params.behavior_node.brain = BrainKind::Booster;
        match SoccerDecider::new(&spec, Arc::new(params)) {
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
        assert_eq!(d.brain(), BrainKind::Booster);
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
    fn the_brain_is_chosen_not_inferred() {
        // A tree without Booster nodes runs with the brain chosen, Booster's too.
        let d = decider(
            r#"<root BTCPP_format="4"><BehaviorTree ID="M"><stand/></BehaviorTree></root>"#,
        );
        assert_eq!(d.brain(), BrainKind::Booster);
        // A Booster node under the soccer brain is a compile error naming it and the choice.
        let doc = bt_xml::load_str(
            r#"<root BTCPP_format="4"><BehaviorTree ID="M">
                 <Sequence name="s"><stand/><CalcKickDir/></Sequence>
               </BehaviorTree></root>"#,
            "t.xml",
            std::path::Path::new("."),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let spec = bt_xml::main_spec(&doc, None, std::path::Path::new("t.xml"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        let errors = match SoccerDecider::new(&spec, Arc::new(Parameters::default())) {
            Ok(_) => panic!("a Booster node compiled under the soccer brain"),
            Err(e) => e,
        };
        assert_eq!(
            errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [
                "t.xml:2:45: s/CalcKickDir[1]: `CalcKickDir` is a node of Booster's vocabulary, \
                 which runs with Booster's brain: choose it with `brain: 'booster'` in \
                 behavior_node.json5 or `<root BTCPP_format=\"4\" brain=\"booster\">` in the \
                 tree file"
            ]
        );
    }
}
