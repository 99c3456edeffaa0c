//! Kicking nodes: the kick direction, the kick, the vision kick.
//!
//! Booster's kick crab-walks through the ball and its `RLVisionKick` hands over to an SDK
//! kick; both are our `kick` motion towards the target `CalcKickDir` chose (the simulator
//! walks up to the ball and kicks it when it is within reach).

use super::{
    BrainState, KickType, ball, drive, elapsed, field, leaf, look, on_field, opponent_goal,
    own_goal,
};
use crate::context::SoccerContext;
use crate::frame::Foot;
use crate::motion::{Body, Head};
use crate::params::FieldDimensions;
use decision_core::engine::blackboard::EntryType::{Double, Int};
use decision_core::engine::{
    Behavior, Cx, Fault, NodeState, PortDecl, PortValues, Registry, Status,
};
use geometry::{Field, Point2, Pose2};

/// Registers `CalcKickDir`, `Kick` and `RLVisionKick`.
pub fn register(registry: &mut Registry<SoccerContext>) {
    leaf(
        registry,
        "CalcKickDir",
        "Chooses where the ball goes: at the goal, a cross in front of it when the goal looks narrow, or away from the own goal when defending a set play.",
        vec![
            PortDecl::input_or(
                "cross_threshold",
                Double,
                "0.2",
                "cross when the goal posts span less than this angle from the ball (rad)",
            )
            .at_least(0.0),
        ],
        |ports| Ok(Box::new(CalcKickDir { ports })),
    );
    leaf(
        registry,
        "Kick",
        "Kicks the ball towards the kick target; RUNNING for min_msec_kick plus the walk to the ball, FAILURE when the ball is lost for 1 s.",
        vec![
            PortDecl::input_or("min_msec_kick", Int, "500", "shortest kick (ms)").at_least(0.0),
            PortDecl::input_or(
                "msecs_stablize",
                Int,
                "1000",
                "settling time after the kick, added to the shortest kick (ms)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "speed_limit",
                Double,
                "0.8",
                "walking speed through the ball (m/s)",
            )
            .above(0.0),
        ],
        |ports| {
            Ok(Box::new(Kick {
                ports,
                ..Kick::default()
            }))
        },
    );
    leaf(
        registry,
        "RLVisionKick",
        "The vision kick: kicks towards the kick target while looking at the ball; SUCCESS after max_msec_kick or once the ball is far after min_msec_kick, FAILURE when the ball is lost or out or the robot falls.",
        vec![
            PortDecl::input_or("max_msec_kick", Int, "10000", "longest kick (ms)").at_least(0.0),
            PortDecl::input_or("min_msec_kick", Int, "3000", "shortest kick (ms)").at_least(0.0),
            PortDecl::input_or(
                "range",
                Double,
                "1.5",
                "ball range within which the kick keeps going after the shortest time (m)",
            )
            .at_least(0.0),
        ],
        |ports| {
            if let (Some(min), Some(max)) = (
                ports.literal_f64("min_msec_kick"),
                ports.literal_f64("max_msec_kick"),
            ) && min > max
            {
                return Err(format!(
                    "port `min_msec_kick`: {min} is more than max_msec_kick {max}"
                ));
            }
            Ok(Box::new(RLVisionKick {
                ports,
                ..RLVisionKick::default()
            }))
        },
    );
}

/// The angle the goal posts span seen from `from`.
fn goal_span(f: &FieldDimensions, from: Point2<Field>) -> f64 {
    let left = Point2::new(f.half_length(), f.goal_inner_width / 2.0) - from;
    let right = Point2::new(f.half_length(), -f.goal_inner_width / 2.0) - from;
    geometry::wrap_pi(left.angle() - right.angle()).abs()
}

/// Sets the kick direction for a ball at `b` (Booster's `CalcKickDir`).
pub(crate) fn calc_kick_dir(
    state: &mut BrainState,
    f: &FieldDimensions,
    b: Point2<Field>,
    cross_threshold: f64,
) {
    let threshold = cross_threshold
        + if state.kick_type == KickType::Cross {
            0.1
        } else {
            0.0
        };
    let (kind, target) = if state.defending_set_play {
        let away = b - own_goal(f);
        let dir = away
            .normalized()
            .unwrap_or(geometry::Vector2::new(1.0, 0.0));
        (KickType::Block, b + dir * 3.0)
    } else if goal_span(f, b) < threshold && b.x > f.center_circle_diameter / 2.0 {
        let cross = Point2::new(f.half_length() - f.penalty_marker_distance / 2.0, 0.0);
        (KickType::Cross, cross)
    } else {
        (KickType::Shoot, opponent_goal(f))
    };
    state.kick_type = kind;
    state.kick_target = Some(target);
    state.kick_dir = if b.x >= f.half_length() {
        0.0
    } else {
        (target - b).angle()
    };
}

/// `CalcKickDir`: the kick direction for the known ball (nothing without one).
struct CalcKickDir {
    ports: PortValues,
}

impl Behavior<SoccerContext> for CalcKickDir {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let threshold = p.f64(cx, "cross_threshold")?;
        let c = cx.ctx_mut();
        if let Some(b) = ball(c) {
            let f = field(c).clone();
            calc_kick_dir(&mut c.memory.booster, &f, b, threshold);
        }
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// The kick motion towards the brain's kick target (the opponent goal before any
/// `CalcKickDir`), with the foot on the ball's side.
fn kick_motion(c: &SoccerContext, pose: &Pose2<Field>, b: Point2<Field>) -> Body {
    let target = c
        .memory
        .booster
        .kick_target
        .unwrap_or_else(|| opponent_goal(field(c)));
    let foot = if pose.bearing_to(b) >= 0.0 {
        Foot::Left
    } else {
        Foot::Right
    };
    Body::Kick { foot, target }
}

/// `Kick` (stateful): kicks for `min_msec_kick` + `msecs_stablize` + range / speed.
#[derive(Default)]
struct Kick {
    ports: PortValues,
    since: f64,
    duration: f64,
    start_ball: Option<Point2<Field>>,
    last_seen: f64,
}

impl Behavior<SoccerContext> for Kick {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let now = cx.now();
        if cx.state() != NodeState::Running {
            let min = p.f64(cx, "min_msec_kick")? / 1000.0;
            let settle = p.f64(cx, "msecs_stablize")? / 1000.0;
            let speed = p.f64(cx, "speed_limit")?.abs().max(0.05);
            let c = cx.ctx();
            let range = match (c.world.pose, ball(c)) {
                (Some(pose), Some(b)) => pose.position.distance(b),
                _ => 0.0,
            };
            self.since = now;
            self.last_seen = now;
            self.duration = min + settle + range / speed;
            self.start_ball = ball(c);
        }
        let c = cx.ctx_mut();
        let (Some(pose), Some(b)) = (c.world.pose, ball(c)) else {
            drive(c, Body::Stand);
            return Ok(if elapsed(now, self.last_seen) >= 1.0 {
                Status::Failure
            } else {
                Status::Running
            });
        };
        if c.world.current_ball.is_some() {
            self.last_seen = now;
        }
        // The ball went: kicked (or taken); the kick is over either way.
        let moved = self.start_ball.is_some_and(|s| s.distance(b) > 0.3);
        if moved || elapsed(now, self.since) >= self.duration {
            drive(c, Body::Stand);
            return Ok(Status::Success);
        }
        let motion = kick_motion(c, &pose, b);
        drive(c, motion);
        Ok(Status::Running)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `RLVisionKick` (stateful): the vision kick.
#[derive(Default)]
struct RLVisionKick {
    ports: PortValues,
    since: f64,
}

impl Behavior<SoccerContext> for RLVisionKick {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let now = cx.now();
        let min = p.f64(cx, "min_msec_kick")? / 1000.0;
        let max = p.f64(cx, "max_msec_kick")? / 1000.0;
        let range = p.f64(cx, "range")?;
        if cx.state() != NodeState::Running {
            self.since = now;
        }
        let c = cx.ctx_mut();
        let f = field(c).clone();
        let (Some(pose), Some(b)) = (c.world.pose, ball(c)) else {
            drive(c, Body::Stand);
            return Ok(Status::Failure);
        };
        if c.world.fallen || !on_field(&f, b, 0.0) {
            drive(c, Body::Stand);
            return Ok(Status::Failure);
        }
        let t = elapsed(now, self.since);
        let far = pose.position.distance(b) > range.max(5.0) || c.memory.booster.cost > 8.0;
        if t >= max || (t >= min && far) {
            drive(c, Body::Stand);
            return Ok(Status::Success);
        }
        look(c, Head::LookAt(b));
        let motion = kick_motion(c, &pose, b);
        drive(c, motion);
        Ok(Status::Running)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn calc_kick_dir_shoots_crosses_and_blocks() {
        let f = FieldDimensions::default();
        let mut s = BrainState::default();
        calc_kick_dir(&mut s, &f, Point2::new(0.0, 0.0), 0.2);
        assert_eq!((s.kick_type, s.kick_dir), (KickType::Shoot, 0.0));
        // Near the corner the goal looks narrow: a cross to x = 4.5 - 0.75.
        calc_kick_dir(&mut s, &f, Point2::new(4.2, 2.8), 0.2);
        assert_eq!(s.kick_type, KickType::Cross);
        assert_eq!(s.kick_target, Some(Point2::new(3.75, 0.0)));
        s.defending_set_play = true;
        calc_kick_dir(&mut s, &f, Point2::new(-3.0, 1.0), 0.2);
        assert_eq!(s.kick_type, KickType::Block);
        assert!(s.kick_dir > 0.0 && s.kick_dir < 1.0, "{}", s.kick_dir);
    }

    #[test]
    fn calc_kick_dir_node_needs_a_ball() {
        let mut t = node("CalcKickDir", &[]);
        let mut ctx = at([0.0, 0.0, 0.0], None);
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        assert_eq!(ctx.memory.booster.kick_target, None);
        let mut ctx = at([0.0, 0.0, 0.0], Some([1.0, 1.0]));
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.memory.booster.kick_target, Some(Point2::new(4.5, 0.0)));
        assert!(compile_node("CalcKickDir", &[("cross_threshold", "-1")]).is_err());
    }

    #[test]
    fn kick_kicks_at_the_target_until_done_or_the_ball_moves() {
        let mut t = node("Kick", &[("min_msec_kick", "600"), ("msecs_stablize", "0")]);
        let mut ctx = at([-0.3, 0.0, 0.0], Some([0.0, 0.0]));
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        assert!(
            matches!(ctx.out.body, Some(Body::Kick { target, .. }) if target == Point2::new(4.5, 0.0)),
            "{:?}",
            ctx.out.body
        );
        // 0.6 s + 0.3 m / 0.8 m/s = 0.975 s
        ctx.world.now = 0.9;
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        ctx.world.now = 0.98;
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        // The ball rolled away: done.
        let mut ctx = at([-0.3, 0.0, 0.0], Some([0.0, 0.0]));
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        ctx.world.ball = ctx.world.ball.map(|mut b| {
            b.position = Point2::new(1.0, 0.0);
            b
        });
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        // Lost for a second: failure.
        let mut ctx = at([-0.3, 0.0, 0.0], Some([0.0, 0.0]));
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        ctx.world.ball = None;
        ctx.world.now = 0.5;
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        ctx.world.now = 1.0;
        assert_eq!(tick(&mut t, &mut ctx), Status::Failure);
        let e = compile_node("Kick", &[("speed_limit", "0")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("Kick") && e.contains("speed_limit"), "{e}");
    }

    #[test]
    fn the_vision_kick_runs_between_its_times_and_fails_without_a_ball() {
        let mut t = node(
            "RLVisionKick",
            &[("min_msec_kick", "1500"), ("max_msec_kick", "7000")],
        );
        let mut ctx = at([-0.5, 0.0, 0.0], Some([0.0, 0.0]));
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        assert_eq!(ctx.out.body.as_ref().map(Body::kind), Some("kick"));
        assert_eq!(ctx.out.head, Some(Head::LookAt(Point2::new(0.0, 0.0))));
        ctx.world.now = 7.0;
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        let mut ctx = at([-0.5, 0.0, 0.0], None);
        assert_eq!(tick(&mut t, &mut ctx), Status::Failure);
        let e = compile_node(
            "RLVisionKick",
            &[("min_msec_kick", "9000"), ("max_msec_kick", "100")],
        )
        .err()
        .unwrap_or_default();
        assert!(
            e.contains("RLVisionKick") && e.contains("min_msec_kick"),
            "{e}"
        );
    }
}
