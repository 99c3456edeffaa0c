//! The Booster vocabulary: the custom nodes of the Booster RoboCup demo's BehaviorTree.CPP
//! tree (`game.xml` and its subtrees) mapped onto the soccer world and
//! motions, so such a tree loads unchanged and drives a robot of ours.
//!
//! * Nodes by area: [`head`] (camera), [`walking`] (body velocities, chasing, standing up),
//!   [`kicking`] (kick direction and kicks), [`decisions`] (striker / goalie decisions),
//!   [`positioning`] (ready, blocking, assisting, free-kick slots), [`locating`] (the
//!   self-localisation nodes, which our world model already answers).
//! * [`cooperation`]: the root blackboard keys Booster's brain creates (`initEntry`) and
//!   writes before every tick (game controller, ball memory, team ball, lead, kick-off wait).
//! * Each area registers its nodes through the engine's [`NodeModel`] (BT.CPP's typed ports
//!   with defaults, ranges and choices, and the node's one-line doc); a node reads its ports
//!   by name through [`PortValues`], which checks an entry-bound port's value as the compiler
//!   checks a literal.
//!
//! Nodes read the blackboard through their ports only; what Booster's C++ brain keeps beside
//! the tree (kick direction, lead, striker rank) lives in [`BrainState`] in the context's
//! memory. Body motions follow BT.CPP's "last command wins" within a tick, except that a
//! stand-up chosen by `CheckAndStandUp` is never overridden.

pub mod cooperation;
pub mod decisions;
pub mod head;
pub mod kicking;
pub mod locating;
pub mod positioning;
pub mod walking;

use crate::context::SoccerContext;
use crate::motion::{Body, Head};
use crate::params::FieldDimensions;
use decision_core::engine::{
    Behavior, Children, NodeBuilder, NodeModel, PortDecl, PortValues, Registry, TreeSpec,
};
use geometry::{Field, Point2, Pose2, Vector2};

/// Builds a Booster node from its resolved ports; an `Err` is a compile error of the node.
type MakeNode = fn(PortValues) -> Result<Box<dyn Behavior<SoccerContext>>, String>;

/// Registers Booster leaf `id` with its declared `ports` and its one-line `doc`; `make`
/// builds the node from its resolved ports (an `Err` is a compile error of the node).
fn leaf(
    registry: &mut Registry<SoccerContext>,
    id: &'static str,
    doc: &'static str,
    ports: Vec<PortDecl>,
    make: MakeNode,
) {
    // `Registry::register` replaces an earlier kind of the same id; a Booster node must not.
    debug_assert!(!registry.has(id), "node `{id}` is registered twice");
    let model = NodeModel::new(Children::None, ports).described(doc);
    registry.register(id, model, move |b: &mut NodeBuilder<'_>| {
        make(PortValues::of(b))
    });
}

/// Registers every Booster node, by area.
pub fn register(registry: &mut Registry<SoccerContext>) {
    head::register(registry);
    walking::register(registry);
    kicking::register(registry);
    decisions::register(registry);
    positioning::register(registry);
    locating::register(registry);
}

/// The ids of the Booster nodes, sorted.
pub fn node_ids() -> &'static [String] {
    static IDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    IDS.get_or_init(|| {
        let mut registry = Registry::new();
        register(&mut registry);
        registry.names().map(str::to_owned).collect()
    })
}

/// Whether `id` is a Booster node.
pub fn is_booster_node(id: &str) -> bool {
    node_ids().binary_search_by(|k| k.as_str().cmp(id)).is_ok()
}

/// Whether `spec` uses a Booster node anywhere (such a tree needs Booster's brain).
pub fn uses_booster_nodes(spec: &TreeSpec) -> bool {
    is_booster_node(&spec.kind) || spec.children.iter().any(uses_booster_nodes)
}

/// One compile error per Booster node in `spec`, for a tree compiled without Booster's brain:
/// the node, and how to choose the brain (the parameter or the tree file).
pub fn booster_nodes_without_brain(spec: &TreeSpec) -> Vec<decision_core::engine::CompileError> {
    fn walk(spec: &TreeSpec, path: String, out: &mut Vec<decision_core::engine::CompileError>) {
        if is_booster_node(&spec.kind) {
            out.push(decision_core::engine::CompileError {
                span: spec.span.clone(),
                node_path: path.clone(),
                message: format!(
                    "`{}` is a node of Booster's vocabulary, which runs with Booster's brain: \
                     choose it with `brain: 'booster'` in behavior_node.json5 or \
                     `<root BTCPP_format=\"4\" brain=\"booster\">` in the tree file",
                    spec.kind
                ),
            });
        }
        for (i, child) in spec.children.iter().enumerate() {
            walk(child, format!("{path}/{}[{i}]", child.label()), out);
        }
    }
    let mut out = Vec::new();
    walk(spec, spec.label().to_owned(), &mut out);
    out
}

/// What Booster's brain keeps beside the tree (its `data` struct), per robot.
#[derive(Debug, Clone, Default)]
pub struct BrainState {
    /// Whether the Booster brain runs (a Booster tree is loaded).
    pub active: bool,
    /// Playing as the goalkeeper (`player_role == "goal_keeper"`), else striker.
    pub goalkeeper: bool,
    /// The own ball was seen within `ball_memory_timeout`.
    pub ball_known: bool,
    /// A teammate's ball is reliable (`tm_ball_pos_reliable`).
    pub team_ball_reliable: bool,
    /// When a reliable team ball was last found.
    pub team_ball_at: Option<f64>,
    /// The lead (cheapest to reach the ball) of the team.
    pub is_lead: bool,
    /// This robot's cost to kick (seconds-equivalent).
    pub cost: f64,
    /// How many alive teammates have a lower cost.
    pub cost_rank: usize,
    /// How many alive striker teammates have a lower player number.
    pub striker_rank: usize,
    /// The field direction the ball should go (rad), set by `CalcKickDir`.
    pub kick_dir: f64,
    /// Where the ball should go.
    pub kick_target: Option<Point2<Field>>,
    /// The kind of kick `CalcKickDir` chose.
    pub kick_type: KickType,
    /// Our team kicks off / takes the set play.
    pub kickoff_side: bool,
    /// A set play is in progress against us.
    pub defending_set_play: bool,
    /// Waiting for the opponent's kick-off (`wait_for_opponent_kickoff`).
    pub waiting_for_kickoff: bool,
    /// Where the ball was when the kick-off wait started.
    pub kickoff_ball: Option<Point2<Field>>,
    /// When the kick-off wait started.
    pub kickoff_wait_since: Option<f64>,
    /// The game-controller state written last (`gc_game_state`).
    pub game_state: &'static str,
    /// When the current set play started (our own, to place before playing it).
    pub set_play_since: Option<f64>,
    /// Stand-up attempts of the current fall.
    pub stand_up_attempts: u32,
    /// Whether the stand-up motion was available on the previous tick (attempts count its
    /// rising edges).
    pub stand_up_was_available: bool,
    /// `WaveHand`'s state.
    pub waving: bool,
    /// The last `PrintMsg` text.
    pub message: Option<String>,
    /// The pose a `CalibrateOdom` set.
    pub odometry_reset: Option<Pose2<Field>>,
    /// The primary state of the previous tick (to map the stop button once).
    pub last_primary: Option<crate::frame::PrimaryState>,
}

/// The kick `CalcKickDir` chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KickType {
    /// At the goal.
    #[default]
    Shoot,
    /// A cross in front of the goal.
    Cross,
    /// Away from the own goal (defending a set play).
    Block,
}

/// Shorthand for the parameters' field dimensions (`c.params.field`).
pub(crate) fn field(c: &SoccerContext) -> &FieldDimensions {
    &c.params.field
}

/// The ball the nodes use (own, remembered, or a teammate's).
pub(crate) fn ball(c: &SoccerContext) -> Option<Point2<Field>> {
    c.world.ball.map(|b| b.position)
}

/// Chooses a body motion, unless a stand-up was chosen this tick.
pub(crate) fn drive(c: &mut SoccerContext, body: Body) {
    if !matches!(c.out.body, Some(Body::StandUp)) {
        c.out.body = Some(body);
    }
}

/// Chooses a head motion.
pub(crate) fn look(c: &mut SoccerContext, head: Head) {
    c.out.head = Some(head);
}

/// Looks `yaw` to the side of the body (0 = forward): a point 3 m away in that direction
/// when localized, else forward.
pub(crate) fn look_at_angle(c: &mut SoccerContext, yaw: f64) {
    let head = match c.world.pose {
        Some(pose) if yaw.abs() > 1e-3 => {
            let dir = Vector2::<Field>::from_angle(pose.yaw + yaw);
            Head::LookAt(pose.position + dir * 3.0)
        }
        _ => Head::LookForward,
    };
    look(c, head);
}

/// A velocity command towards `target` (robot-frame P-control, each axis clamped), turning
/// towards `face` (a field heading) at up to `vtheta_limit`.
pub(crate) fn velocity_to(
    pose: &Pose2<Field>,
    target: Point2<Field>,
    face: f64,
    [vx_limit, vy_limit, vtheta_limit]: [f64; 3],
) -> Body {
    let local = pose.to_robot(target);
    let gain = 1.5;
    let mut vx = (local.x * gain).clamp(-vx_limit, vx_limit);
    let mut vy = (local.y * gain).clamp(-vy_limit, vy_limit);
    let turn = geometry::wrap_pi(face - pose.yaw);
    // Slow down forward walking while the turn is large (a smooth step, as Booster's sigmoid).
    let slow = 1.0 / (1.0 + (6.0 * (turn.abs() - 0.8)).exp());
    vx *= slow.max(0.1);
    if !vx.is_finite() || !vy.is_finite() {
        vx = 0.0;
        vy = 0.0;
    }
    let vyaw = (turn * 2.0).clamp(-vtheta_limit, vtheta_limit);
    Body::WalkVelocity { vx, vy, vyaw }
}

/// Whether `p` is on the field (inside the lines, widened by `margin`).
pub(crate) fn on_field(f: &FieldDimensions, p: Point2<Field>, margin: f64) -> bool {
    p.x.abs() <= f.half_length() + margin && p.y.abs() <= f.half_width() + margin
}

/// The own goal's centre.
pub(crate) fn own_goal(f: &FieldDimensions) -> Point2<Field> {
    Point2::new(-f.half_length(), 0.0)
}

/// The opponent goal's centre.
pub(crate) fn opponent_goal(f: &FieldDimensions) -> Point2<Field> {
    Point2::new(f.half_length(), 0.0)
}

/// Elapsed seconds since `since`.
pub(crate) fn elapsed(now: f64, since: f64) -> f64 {
    (now - since).max(0.0)
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Ticking one Booster node against a context.
    use super::*;
    use crate::leaves::test_support as soccer;
    use decision_core::engine::{Status, Tree, compile};

    pub use soccer::{context, frame};

    /// Compiles a one-node tree of `id` with string `ports` (as XML gives them).
    pub fn compile_node(id: &str, ports: &[(&str, &str)]) -> Result<Tree<SoccerContext>, String> {
        let mut spec = TreeSpec::new(id);
        for (k, v) in ports {
            spec.ports
                .insert((*k).to_owned(), serde_json::Value::String((*v).to_owned()));
        }
        compile(&spec, &crate::tree::registry()).map_err(|errors| {
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
    }

    /// A compiled one-node tree (panics when it does not compile: test data only).
    pub fn node(id: &str, ports: &[(&str, &str)]) -> Tree<SoccerContext> {
        match compile_node(id, ports) {
            Ok(t) => t,
            Err(e) => panic!("{id}: {e}"),
        }
    }

    /// Ticks `tree` at the context's time with fresh choices.
    pub fn tick(tree: &mut Tree<SoccerContext>, ctx: &mut SoccerContext) -> Status {
        ctx.out = crate::context::TickChoices::default();
        let now = ctx.world.now;
        tree.tick(ctx, now)
    }

    /// A localized context at `pose` with the ball at `ball` (or none), Booster brain on.
    pub fn at(pose: [f64; 3], ball: Option<[f64; 2]>) -> SoccerContext {
        let ball = match ball {
            Some([x, y]) => format!(r#", "ball": {{"x": {x}, "y": {y}}}"#),
            None => String::new(),
        };
        let json = format!(
            r#"{{"player_number": 3, "pose": {{"x": {}, "y": {}, "yaw": {}}}{ball}}}"#,
            pose[0], pose[1], pose[2]
        );
        let mut ctx = context(&frame(&json));
        ctx.memory.booster.active = true;
        ctx.memory.booster.ball_known = ball_known(&ctx);
        ctx
    }

    fn ball_known(ctx: &SoccerContext) -> bool {
        ctx.world.ball.is_some()
    }

    /// The chosen walk velocity `(vx, vy, vyaw)`, if any.
    pub fn velocity(ctx: &SoccerContext) -> Option<(f64, f64, f64)> {
        match ctx.out.body {
            Some(Body::WalkVelocity { vx, vy, vyaw }) => Some((vx, vy, vyaw)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use decision_core::engine::Status;

    #[test]
    fn every_node_has_a_doc_and_described_ports() {
        let mut registry = Registry::new();
        register(&mut registry);
        let all: Vec<(&str, &NodeModel)> = registry.models().collect();
        assert!(all.len() >= 35, "{}", all.len());
        assert_eq!(all.len(), node_ids().len());
        for (id, model) in all {
            assert!(!model.description.trim().is_empty(), "{id} has no doc");
            for p in &model.ports {
                assert!(
                    !p.description.trim().is_empty(),
                    "{id}.{} has no description",
                    p.name
                );
            }
            // Every node compiles with its defaults alone (required ports aside).
            let required: Vec<(&str, &str)> = model
                .ports
                .iter()
                .filter(|p| {
                    p.default.is_none()
                        && p.direction == decision_core::engine::PortDirection::Input
                })
                .map(|p| (p.name, "x"))
                .collect();
            if let Err(e) = compile_node(id, &required) {
                panic!("{id}: {e}");
            }
        }
    }

    #[test]
    fn a_port_bound_to_an_entry_gets_the_checks_of_a_literal_when_read() {
        use decision_core::engine::blackboard::Value;
        let mut ctx = at([0.0, 0.0, 0.0], None);
        let mut scan = node("CamScanField", &[("msec_cycle", "{cycle}")]);
        let set = |tree: &mut decision_core::engine::Tree<SoccerContext>, key, value| {
            let root = tree.root_scope();
            tree.blackboard_mut()
                .set(root, key, value)
                .unwrap_or_else(|e| panic!("{e}"));
        };
        set(&mut scan, "cycle", Value::Int(0));
        let error = scan.try_tick(&mut ctx, 1.0).err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("CamScanField: port `msec_cycle`: must be > 0, got 0")
        );
        set(&mut scan, "cycle", Value::Int(4000));
        assert_eq!(scan.try_tick(&mut ctx, 1.0), Ok(Status::Success));
        let mut slot = node("GoToFreekickPosition", &[("side", "{side}")]);
        set(&mut slot, "side", Value::Str("atack".into()));
        let error = slot.try_tick(&mut ctx, 1.0).err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some(
                "GoToFreekickPosition: port `side`: `atack` is not one of attack, defense \
                 (did you mean `attack`?)"
            )
        );
    }

    #[test]
    fn every_custom_node_of_the_booster_files_is_in_the_vocabulary() {
        let used = [
            "SimpleChase",
            "Kick",
            "CamScanField",
            "SelfLocateEnterField",
            "SetVelocity",
            "MoveHead",
            "GoToReadyPosition",
            "CamTrackBall",
            "CamFindBall",
            "CheckAndStandUp",
            "GoBackInField",
            "CamFastScan",
            "TurnOnSpot",
            "GoToGoalBlockingPosition",
            "SelfLocate",
            "GoalieDecide",
            "Chase",
            "Adjust",
            "SelfLocate1M",
            "SelfLocate2T",
            "SelfLocatePT",
            "SelfLocateLT",
            "SelfLocate2X",
            "SelfLocateBorder",
            "CalcKickDir",
            "GoToFreekickPosition",
            "StrikerDecide",
            "Assist",
            "RLVisionKick",
        ];
        for id in used {
            assert!(is_booster_node(id), "{id}");
        }
        assert!(!is_booster_node("Sequence") && !is_booster_node("walk_to_target"));
    }

    #[test]
    fn an_unknown_port_and_a_bad_literal_name_the_node_and_the_port() {
        let e = compile_node("Chase", &[("vx_limt", "0.5")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("Chase") && e.contains("vx_limt"), "{e}");
        assert!(e.contains("did you mean `vx_limit`"), "{e}");
        let e = compile_node("Chase", &[("vx_limit", "fast")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("Chase") && e.contains("port `vx_limit`"), "{e}");
        // Ranges and choices are the ports' own, checked by the compiler with its messages.
        let e = compile_node("Chase", &[("vx_limit", "-1")]).err();
        assert_eq!(
            e.as_deref(),
            Some("Chase: port `vx_limit`: must be >= 0, got -1")
        );
        let e = compile_node("CamScanField", &[("msec_cycle", "0")]).err();
        assert_eq!(
            e.as_deref(),
            Some("CamScanField: port `msec_cycle`: must be > 0, got 0")
        );
        let e = compile_node("GoToFreekickPosition", &[("side", "atack")]).err();
        assert_eq!(
            e.as_deref(),
            Some(
                "GoToFreekickPosition: port `side`: `atack` is not one of attack, defense \
                 (did you mean `attack`?)"
            )
        );
        assert!(compile_node("Chase", &[("vx_limit", "0")]).is_ok());
    }

    #[test]
    fn velocity_to_walks_forward_to_a_point_ahead_and_turns_to_face() {
        let pose = Pose2::new(0.0, 0.0, 0.0);
        let Body::WalkVelocity { vx, vy, vyaw } =
            velocity_to(&pose, Point2::new(2.0, 0.0), 0.0, [0.5, 0.3, 1.0])
        else {
            panic!("not a velocity");
        };
        assert_eq!((vx, vy, vyaw), (0.5 / (1.0 + (-4.8f64).exp()), 0.0, 0.0));
        let Body::WalkVelocity { vyaw, .. } =
            velocity_to(&pose, Point2::new(0.0, 1.0), 1.5, [0.5, 0.3, 1.0])
        else {
            panic!("not a velocity");
        };
        assert_eq!(vyaw, 1.0, "clamped to the limit");
    }
}
