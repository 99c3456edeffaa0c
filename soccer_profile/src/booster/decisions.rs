//! The decision nodes: what the striker or the goalkeeper does next, written into
//! `decision_out` (usually `{decision}`, which the tree's `_while` switches read).
//!
//! Striker: `find` → `auto_visual_kick` → `assist` → `chase` → `kick` / `cross` →
//! `adjust`. Goalkeeper: `find` → `retreat` → `chase` → `kick` → `adjust`.

use super::{BrainState, KickType, ball, field, leaf, on_field};
use crate::context::SoccerContext;
use crate::params::FieldDimensions;
use decision_core::engine::blackboard::EntryType::{Double, Str};
use decision_core::engine::blackboard::Value;
use decision_core::engine::{Behavior, Cx, Fault, PortDecl, PortValues, Registry, Status};
use geometry::{Field, Point2, Pose2, wrap_pi};
use std::f64::consts::FRAC_PI_2;

/// Booster's `enableAutoVisualKick` range (m) and angle factor.
const AUTO_VISUAL_KICK_DIST: [f64; 2] = [0.2, 4.0];
/// `autoVisualKickEnableAngle` (rad).
const AUTO_VISUAL_KICK_ANGLE: f64 = 0.8;
/// Kick-direction error within which the robot stands right for a kick (rad).
const KICK_ANGLE_TOLERANCE: f64 = 0.25;

/// The `chase_threshold` port of both decisions.
const CHASE_THRESHOLD: PortDecl = PortDecl::input_or(
    "chase_threshold",
    Double,
    "1.0",
    "chase while the ball is farther than this (m; x0.9 while chasing)",
)
.at_least(0.0);

/// Registers `StrikerDecide` and `GoalieDecide`.
pub fn register(registry: &mut Registry<SoccerContext>) {
    leaf(
        registry,
        "StrikerDecide",
        "The striker's next step: find, auto_visual_kick, assist, chase, kick, cross or adjust.",
        vec![
            CHASE_THRESHOLD,
            PortDecl::input_or("decision_in", Str, "", "the previous decision (hysteresis)"),
            PortDecl::input_or(
                "position",
                Str,
                "offense",
                "`offense` or `defense` (kept for Booster's files)",
            )
            .one_of(&["offense", "defense"]),
            PortDecl::output("decision_out", Str, "the decision taken"),
        ],
        |ports| Ok(Box::new(StrikerDecide { ports })),
    );
    leaf(
        registry,
        "GoalieDecide",
        "The goalkeeper's next step: find, retreat, chase, kick or adjust.",
        vec![
            CHASE_THRESHOLD,
            PortDecl::input_or(
                "adjust_angle_tolerance",
                Double,
                "0.1",
                "kick-direction error still good for a kick (rad)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "adjust_y_tolerance",
                Double,
                "0.1",
                "sideways ball offset still good for a kick (m)",
            )
            .at_least(0.0),
            PortDecl::input_or("decision_in", Str, "", "the previous decision (hysteresis)"),
            PortDecl::output("decision_out", Str, "the decision taken"),
        ],
        |ports| Ok(Box::new(GoalieDecide { ports })),
    );
}

/// The striker's decision (`None` ball = `find`).
pub(crate) fn striker_decision(
    s: &BrainState,
    f: &FieldDimensions,
    pose: Option<Pose2<Field>>,
    b: Option<Point2<Field>>,
    seen: bool,
    chase_threshold: f64,
    last: &str,
) -> &'static str {
    let (Some(pose), Some(b)) = (pose, b) else {
        return "find";
    };
    let range = pose.position.distance(b);
    let bearing = pose.bearing_to(b);
    let on = on_field(f, b, 0.0) && on_field(f, pose.position, 0.0);
    if s.is_lead
        && s.cost_rank == 0
        && seen
        && on
        && s.cost < 7.0
        && (AUTO_VISUAL_KICK_DIST[0]..=AUTO_VISUAL_KICK_DIST[1]).contains(&range)
        && bearing.abs() < 1.3 * AUTO_VISUAL_KICK_ANGLE
    {
        return "auto_visual_kick";
    }
    if !s.is_lead {
        return "assist";
    }
    let threshold = if last == "chase" {
        chase_threshold * 0.9
    } else {
        chase_threshold
    };
    if range > threshold {
        return "chase";
    }
    let off = wrap_pi((b - pose.position).angle() - s.kick_dir).abs();
    let tolerance = if last == "kick" || last == "cross" {
        KICK_ANGLE_TOLERANCE + 0.1
    } else {
        KICK_ANGLE_TOLERANCE
    };
    if off < tolerance && bearing.abs() < FRAC_PI_2 && range < 1.5 {
        return if s.kick_type == KickType::Cross {
            "cross"
        } else {
            "kick"
        };
    }
    "adjust"
}

/// The goalkeeper's decision.
pub(crate) fn goalie_decision(
    s: &BrainState,
    pose: Option<Pose2<Field>>,
    b: Option<Point2<Field>>,
    chase_threshold: f64,
    angle_tolerance: f64,
    last: &str,
) -> &'static str {
    let (Some(pose), Some(b)) = (pose, b) else {
        return "find";
    };
    let retreat_x = if last == "retreat" { -1.0 } else { 0.0 };
    if b.x > retreat_x {
        return "retreat";
    }
    let range = pose.position.distance(b);
    let threshold = if last == "chase" {
        chase_threshold * 0.9
    } else {
        chase_threshold
    };
    if range > threshold {
        return "chase";
    }
    let to_ball = (b - pose.position).angle();
    let off = wrap_pi(to_ball - s.kick_dir).abs();
    if to_ball.abs() < FRAC_PI_2 && off < FRAC_PI_2.max(angle_tolerance) {
        return "kick";
    }
    "adjust"
}

/// `StrikerDecide`.
struct StrikerDecide {
    ports: PortValues,
}

impl Behavior<SoccerContext> for StrikerDecide {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let threshold = p.f64(cx, "chase_threshold")?;
        let last = p.text(cx, "decision_in")?;
        let c = cx.ctx();
        let decision = striker_decision(
            &c.memory.booster,
            field(c),
            c.world.pose,
            ball(c),
            c.world.current_ball.is_some(),
            threshold,
            &last,
        );
        p.set(cx, "decision_out", Value::Str(decision.to_owned()))?;
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `GoalieDecide`.
struct GoalieDecide {
    ports: PortValues,
}

impl Behavior<SoccerContext> for GoalieDecide {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let threshold = p.f64(cx, "chase_threshold")?;
        let tolerance = p.f64(cx, "adjust_angle_tolerance")?;
        let last = p.text(cx, "decision_in")?;
        let c = cx.ctx();
        let decision = goalie_decision(
            &c.memory.booster,
            c.world.pose,
            ball(c),
            threshold,
            tolerance,
            &last,
        );
        p.set(cx, "decision_out", Value::Str(decision.to_owned()))?;
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booster::test_support::*;
    use decision_core::engine::{TreeSpec, compile_with};

    fn lead() -> BrainState {
        BrainState {
            is_lead: true,
            cost: 20.0,
            ..BrainState::default()
        }
    }

    #[test]
    fn the_striker_finds_assists_chases_kicks_and_adjusts() {
        let f = FieldDimensions::default();
        let s = lead();
        let pose = Some(Pose2::new(-2.0, 0.0, 0.0));
        let ball = |x, y| Some(Point2::new(x, y));
        assert_eq!(striker_decision(&s, &f, pose, None, false, 1.0, ""), "find");
        assert_eq!(
            striker_decision(&s, &f, pose, ball(0.0, 0.0), true, 1.0, ""),
            "chase"
        );
        // 0.95 m: chase goes on with the hysteresis, else the robot is close enough.
        assert_eq!(
            striker_decision(&s, &f, pose, ball(-1.05, 0.0), true, 1.0, "chase"),
            "chase"
        );
        assert_eq!(
            striker_decision(&s, &f, pose, ball(-1.05, 0.0), true, 1.0, ""),
            "kick"
        );
        assert_eq!(
            striker_decision(&s, &f, pose, ball(-2.0, 0.5), true, 1.0, ""),
            "adjust"
        );
        let assistant = BrainState::default();
        assert_eq!(
            striker_decision(&assistant, &f, pose, ball(0.0, 0.0), true, 1.0, ""),
            "assist"
        );
        let cheap = BrainState {
            cost: 3.0,
            ..lead()
        };
        let near = Some(Pose2::new(0.5, 0.0, 0.0));
        assert_eq!(
            striker_decision(&cheap, &f, near, ball(2.0, 0.0), true, 1.0, ""),
            "auto_visual_kick"
        );
        let cross = BrainState {
            kick_type: KickType::Cross,
            ..lead()
        };
        assert_eq!(
            striker_decision(&cross, &f, pose, ball(-1.5, 0.0), true, 1.0, ""),
            "cross"
        );
    }

    #[test]
    fn the_goalie_retreats_chases_kicks_and_adjusts() {
        let s = BrainState::default();
        let pose = Some(Pose2::new(-4.0, 0.0, 0.0));
        let ball = |x, y| Some(Point2::new(x, y));
        assert_eq!(goalie_decision(&s, pose, None, 3.0, 0.1, ""), "find");
        assert_eq!(
            goalie_decision(&s, pose, ball(1.0, 0.0), 3.0, 0.1, ""),
            "retreat"
        );
        assert_eq!(
            goalie_decision(&s, pose, ball(-0.5, 0.0), 3.0, 0.1, "retreat"),
            "retreat"
        );
        assert_eq!(
            goalie_decision(&s, pose, ball(-0.5, 0.0), 3.0, 0.1, ""),
            "chase"
        );
        assert_eq!(
            goalie_decision(&s, pose, ball(-3.0, 0.5), 3.0, 0.1, ""),
            "kick"
        );
        assert_eq!(
            goalie_decision(&s, pose, ball(-4.5, 0.5), 3.0, 0.1, ""),
            "adjust"
        );
    }

    #[test]
    fn decide_nodes_write_their_output_port() {
        let xml_like = |kind: &str| {
            let mut spec = TreeSpec::new(kind);
            spec.ports
                .insert("decision_in".into(), serde_json::json!("{decision}"));
            spec.ports
                .insert("decision_out".into(), serde_json::json!("{decision}"));
            spec
        };
        for (kind, expected) in [("StrikerDecide", "assist"), ("GoalieDecide", "retreat")] {
            let mut bbs = decision_core::engine::blackboard::Blackboards::new();
            let root = bbs.new_root();
            let mut tree = match compile_with(&xml_like(kind), &crate::tree::registry(), bbs, root)
            {
                Ok(t) => t,
                Err(e) => panic!("{e:?}"),
            };
            let mut ctx = at([0.0, 0.0, 0.0], Some([1.0, 0.0]));
            assert_eq!(tick(&mut tree, &mut ctx), Status::Success);
            let root = tree.root_scope();
            assert_eq!(
                tree.blackboard().get(root, "decision"),
                Some(&Value::Str(expected.to_owned())),
                "{kind}"
            );
        }
        let e = compile_node("StrikerDecide", &[("decision_out", "kick")])
            .err()
            .unwrap_or_default();
        assert!(
            e.contains("StrikerDecide") && e.contains("decision_out"),
            "{e}"
        );
        let e = compile_node("StrikerDecide", &[("position", "midfield")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("port `position`"), "{e}");
    }
}
