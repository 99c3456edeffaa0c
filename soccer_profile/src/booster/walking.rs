//! Body nodes: velocities, standing, walking to a pose, turning, finding the ball with the
//! body, walking back into the field, standing up, chasing and adjusting around the ball.
//!
//! Booster's `setVelocity` is our `walk_velocity` (robot frame, m/s and rad/s); a zero
//! velocity is `stand`; its pose walks (`moveToPoseOnField`) are our `walk_to` through the
//! path planner.

use super::{ball, drive, elapsed, field, leaf, on_field, velocity_to};
use crate::context::SoccerContext;
use crate::leaves::walking::walk_to;
use crate::motion::{Body, TurnDirection};
use decision_core::engine::blackboard::EntryType::{Bool, Double, Int, Str};
use decision_core::engine::{
    Behavior, Cx, Fault, NodeState, PortDecl, PortValues, Registry, Status,
};
use geometry::{Field, Point2, Pose2, Vector2, wrap_pi};
use std::f64::consts::FRAC_PI_2;

/// Registers the body nodes, `SetVelocity` through `Adjust`.
pub fn register(registry: &mut Registry<SoccerContext>) {
    leaf(
        registry,
        "SetVelocity",
        "Walks with a body velocity (robot frame); all zero stands.",
        vec![
            PortDecl::input_or("x", Double, "0", "forward velocity (m/s)"),
            PortDecl::input_or("y", Double, "0", "leftward velocity (m/s)"),
            PortDecl::input_or("theta", Double, "0", "turn rate (rad/s, left positive)"),
        ],
        |ports| Ok(Box::new(SetVelocity { ports })),
    );
    leaf(
        registry,
        "StepOnSpot",
        "Steps on the spot (a tiny forward velocity alternating in sign every second).",
        vec![],
        |_| Ok(Box::new(StepOnSpot)),
    );
    leaf(
        registry,
        "StandStill",
        "Stands for `msecs`, RUNNING until then, then SUCCESS.",
        vec![PortDecl::input_or("msecs", Int, "1000", "how long to stand (ms)").at_least(0.0)],
        |ports| Ok(Box::new(StandStill { ports, since: 0.0 })),
    );
    leaf(
        registry,
        "MoveToPoseOnField",
        "Walks to a field pose (through the path planner); stands within the tolerances.",
        vec![
            PortDecl::input_or("x", Double, "0", "target x on the field (m)"),
            PortDecl::input_or("y", Double, "0", "target y on the field (m)"),
            PortDecl::input_or("theta", Double, "0", "target heading (rad)"),
            PortDecl::input_or(
                "long_range_threshold",
                Double,
                "1.5",
                "beyond this distance walk facing the target (m; the planner decides)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "turn_threshold",
                Double,
                "0.4",
                "turn first above this heading error (rad; the planner decides)",
            )
            .at_least(0.0),
            PortDecl::input_or("vx_limit", Double, "0.8", "walking speed limit (m/s)")
                .at_least(0.0),
            PortDecl::input_or("vy_limit", Double, "0.5", "sideways speed limit (m/s)")
                .at_least(0.0),
            PortDecl::input_or("vtheta_limit", Double, "0.2", "turn rate limit (rad/s)")
                .at_least(0.0),
            PortDecl::input_or(
                "x_tolerance",
                Double,
                "0.5",
                "arrived within this x error (m)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "y_tolerance",
                Double,
                "0.5",
                "arrived within this y error (m)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "theta_tolerance",
                Double,
                "0.5",
                "arrived within this heading error (rad)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "avoid_obstacle",
                Bool,
                "false",
                "walk around obstacles (the planner always does)",
            ),
        ],
        |ports| Ok(Box::new(MoveToPoseOnField { ports })),
    );
    leaf(
        registry,
        "TurnOnSpot",
        "Turns on the spot by `rad` (towards the ball's side if asked), at most 5 s; RUNNING until done.",
        vec![
            PortDecl::input_or("rad", Double, "0", "angle to turn (rad, left positive)"),
            PortDecl::input_or(
                "towards_ball",
                Bool,
                "false",
                "turn towards the side of the last seen ball",
            ),
        ],
        |ports| {
            Ok(Box::new(TurnOnSpot {
                ports,
                ..TurnOnSpot::default()
            }))
        },
    );
    leaf(
        registry,
        "RobotFindBall",
        "Turns the body towards the side of the last seen ball until a ball is known; RUNNING until then.",
        vec![PortDecl::input_or("vyaw_limit", Double, "1.0", "turn rate (rad/s)").at_least(0.0)],
        |ports| Ok(Box::new(RobotFindBall { ports })),
    );
    leaf(
        registry,
        "GoBackInField",
        "Outside the field by more than `valve`: walks back in at 0.4 m/s.",
        vec![
            PortDecl::input_or(
                "valve",
                Double,
                "0.5",
                "margin outside the lines that still counts as in (m)",
            )
            .at_least(0.0),
        ],
        |ports| Ok(Box::new(GoBackInField { ports })),
    );
    leaf(
        registry,
        "CheckAndStandUp",
        "Fallen and able to: stands up (at most 2 attempts per fall); nothing else may move the body then.",
        vec![],
        |_| Ok(Box::new(CheckAndStandUp)),
    );
    leaf(
        registry,
        "WaveHand",
        "Starts or stops waving (kept in the brain state; our motions have no arm).",
        vec![
            PortDecl::input_or("action", Str, "start", "`start` or `stop`")
                .one_of(&["start", "stop"]),
        ],
        |ports| Ok(Box::new(WaveHand { ports })),
    );
    leaf(
        registry,
        "SimpleChase",
        "Walks straight at the ball and stops within `stop_dist`; stands without a ball.",
        vec![
            PortDecl::input_or(
                "stop_dist",
                Double,
                "1.0",
                "stop walking within this distance of the ball (m)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "stop_angle",
                Double,
                "0.1",
                "stop turning within this bearing of the ball (rad)",
            )
            .at_least(0.0),
            PortDecl::input_or("vy_limit", Double, "0.2", "sideways speed limit (m/s)")
                .at_least(0.0),
            PortDecl::input_or("vx_limit", Double, "0.6", "forward speed limit (m/s)")
                .at_least(0.0),
        ],
        |ports| Ok(Box::new(SimpleChase { ports })),
    );
    leaf(
        registry,
        "Chase",
        "Walks behind the ball along the kick direction, circling back at `safe_dist` when on the wrong side.",
        vec![
            PortDecl::input_or("vx_limit", Double, "0.6", "forward speed limit (m/s)")
                .at_least(0.0),
            PortDecl::input_or("vy_limit", Double, "0.4", "sideways speed limit (m/s)")
                .at_least(0.0),
            PortDecl::input_or("vtheta_limit", Double, "1.0", "turn rate limit (rad/s)")
                .at_least(0.0),
            PortDecl::input_or(
                "dist",
                Double,
                "0.1",
                "distance behind the ball to aim at (m)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "safe_dist",
                Double,
                "4.0",
                "radius of the circle back around the ball (m)",
            )
            .at_least(0.0),
        ],
        |ports| {
            Ok(Box::new(Chase {
                ports,
                direct: false,
            }))
        },
    );
    leaf(
        registry,
        "Adjust",
        "Orbits the ball at `range` until behind it along the kick direction, facing the ball.",
        vec![
            PortDecl::input_or(
                "turn_threshold",
                Double,
                "3.25",
                "largest kick-direction error still adjusted (rad)",
            )
            .at_least(0.0),
            PortDecl::input_or("vx_limit", Double, "0.05", "forward speed limit (m/s)")
                .at_least(0.0),
            PortDecl::input_or("vy_limit", Double, "0.05", "sideways speed limit (m/s)")
                .at_least(0.0),
            PortDecl::input_or("vtheta_limit", Double, "0.1", "turn rate limit (rad/s)")
                .at_least(0.0),
            PortDecl::input_or(
                "range",
                Double,
                "2.25",
                "distance to hold from the ball (m)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "vtheta_factor",
                Double,
                "3.0",
                "turn rate per rad of ball bearing",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "tangential_speed_far",
                Double,
                "0.2",
                "orbit speed while far from the kick direction (m/s)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "tangential_speed_near",
                Double,
                "0.15",
                "orbit speed near the kick direction (m/s)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "near_threshold",
                Double,
                "0.8",
                "kick-direction error below which the orbit is `near` (rad)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "no_turn_threshold",
                Double,
                "0.1",
                "kick-direction error below which the robot stops orbiting (rad)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "turn_first_threshold",
                Double,
                "0.5",
                "ball bearing above which the robot turns before moving (rad)",
            )
            .at_least(0.0),
        ],
        |ports| Ok(Box::new(Adjust { ports })),
    );
}

/// Reads the `[vx_limit, vy_limit, vtheta_limit]` ports.
fn limits(p: &PortValues, cx: &Cx<'_, SoccerContext>) -> Result<[f64; 3], Fault> {
    Ok([
        p.f64(cx, "vx_limit")?.abs(),
        p.f64(cx, "vy_limit")?.abs(),
        p.f64(cx, "vtheta_limit")?.abs(),
    ])
}

/// A velocity, or a stand when it is zero.
fn velocity(vx: f64, vy: f64, vyaw: f64) -> Body {
    if vx == 0.0 && vy == 0.0 && vyaw == 0.0 {
        Body::Stand
    } else {
        Body::WalkVelocity { vx, vy, vyaw }
    }
}

/// `SetVelocity`: the given body velocity.
struct SetVelocity {
    ports: PortValues,
}

impl Behavior<SoccerContext> for SetVelocity {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let (x, y, theta) = (p.f64(cx, "x")?, p.f64(cx, "y")?, p.f64(cx, "theta")?);
        drive(cx.ctx_mut(), velocity(x, y, theta));
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `StepOnSpot`: ±0.01 m/s forward, the sign flipping every second of the injected clock.
struct StepOnSpot;

impl Behavior<SoccerContext> for StepOnSpot {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let vx = if cx.now().floor() as i64 % 2 == 0 {
            0.01
        } else {
            -0.01
        };
        drive(
            cx.ctx_mut(),
            Body::WalkVelocity {
                vx,
                vy: 0.0,
                vyaw: 0.0,
            },
        );
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `StandStill` (stateful): stands for `msecs`.
struct StandStill {
    ports: PortValues,
    since: f64,
}

impl Behavior<SoccerContext> for StandStill {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let msecs = p.f64(cx, "msecs")?;
        let now = cx.now();
        if cx.state() != NodeState::Running {
            self.since = now;
        }
        drive(cx.ctx_mut(), Body::Stand);
        Ok(if elapsed(now, self.since) * 1000.0 >= msecs {
            Status::Success
        } else {
            Status::Running
        })
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `MoveToPoseOnField`: walks to the pose; stands once within the tolerances. Not
/// localized: stands.
struct MoveToPoseOnField {
    ports: PortValues,
}

impl Behavior<SoccerContext> for MoveToPoseOnField {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let target = Pose2::new(p.f64(cx, "x")?, p.f64(cx, "y")?, p.f64(cx, "theta")?);
        let tol = [
            p.f64(cx, "x_tolerance")?,
            p.f64(cx, "y_tolerance")?,
            p.f64(cx, "theta_tolerance")?,
        ];
        let speed = p.f64(cx, "vx_limit")?.abs();
        let c = cx.ctx_mut();
        walk_to_pose(c, target, tol, speed);
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// Walks to `target` at `speed`, or stands within `[x, y, theta]` tolerances (or without a
/// pose); returns whether it arrived.
pub(crate) fn walk_to_pose(
    c: &mut SoccerContext,
    target: Pose2<Field>,
    [tx, ty, tt]: [f64; 3],
    speed: f64,
) -> bool {
    let Some(pose) = c.world.pose else {
        drive(c, Body::Stand);
        return false;
    };
    let arrived = (pose.position.x - target.position.x).abs() <= tx
        && (pose.position.y - target.position.y).abs() <= ty
        && wrap_pi(pose.yaw - target.yaw).abs() <= tt;
    if arrived {
        drive(c, Body::Stand);
    } else if !matches!(c.out.body, Some(Body::StandUp)) {
        walk_to(c, target, speed.max(0.05));
    }
    arrived
}

/// `TurnOnSpot` (stateful): turns until the integrated heading change reaches `rad`, or 5 s.
#[derive(Default)]
struct TurnOnSpot {
    ports: PortValues,
    since: f64,
    goal: f64,
    turned: f64,
    last_yaw: Option<f64>,
}

impl Behavior<SoccerContext> for TurnOnSpot {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let now = cx.now();
        if cx.state() != NodeState::Running {
            let rad = p.f64(cx, "rad")?;
            let towards = p.bool(cx, "towards_ball")?;
            let c = cx.ctx();
            self.goal = if towards {
                let side = match (c.world.pose, c.world.last_local_ball.or(c.world.ball)) {
                    (Some(pose), Some(b)) => pose.bearing_to(b.position),
                    _ => 1.0,
                };
                if side < 0.0 { -rad.abs() } else { rad.abs() }
            } else {
                rad
            };
            self.since = now;
            self.turned = 0.0;
            self.last_yaw = c.world.pose.map(|p| p.yaw);
        }
        let c = cx.ctx_mut();
        match (c.world.pose, self.last_yaw) {
            (Some(pose), Some(last)) => self.turned += wrap_pi(pose.yaw - last),
            // Not localized: count the commanded rate (1 rad/s).
            _ => self.turned += self.goal.signum() * (now - self.since).min(0.1),
        }
        self.last_yaw = c.world.pose.map(|p| p.yaw);
        let done = self.goal.abs() < 1e-3
            || self.turned.abs() >= self.goal.abs() - 0.05
            || elapsed(now, self.since) >= 5.0;
        if done {
            drive(c, Body::Stand);
            return Ok(Status::Success);
        }
        let direction = if self.goal > 0.0 {
            TurnDirection::Left
        } else {
            TurnDirection::Right
        };
        drive(c, Body::Turn(direction));
        Ok(Status::Running)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `RobotFindBall` (stateful): turns towards the last ball's side until a ball is known.
struct RobotFindBall {
    ports: PortValues,
}

impl Behavior<SoccerContext> for RobotFindBall {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let rate = p.f64(cx, "vyaw_limit")?.abs();
        let c = cx.ctx_mut();
        if ball(c).is_some() {
            drive(c, Body::Stand);
            return Ok(Status::Success);
        }
        let right = matches!(
            (c.world.pose, c.world.last_local_ball),
            (Some(pose), Some(b)) if pose.bearing_to(b.position) < 0.0
        );
        let vyaw = if right { -rate } else { rate };
        drive(
            c,
            Body::WalkVelocity {
                vx: 0.0,
                vy: 0.0,
                vyaw,
            },
        );
        Ok(Status::Running)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `GoBackInField`: walks to the nearest point `valve` inside the lines when outside by more
/// than `valve`.
struct GoBackInField {
    ports: PortValues,
}

impl Behavior<SoccerContext> for GoBackInField {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let valve = p.f64(cx, "valve")?.abs();
        let c = cx.ctx_mut();
        let Some(pose) = c.world.pose else {
            return Ok(Status::Success);
        };
        let f = field(c).clone();
        if !on_field(&f, pose.position, valve) {
            let inside = Point2::new(
                pose.position
                    .x
                    .clamp(-f.half_length() + valve, f.half_length() - valve),
                pose.position
                    .y
                    .clamp(-f.half_width() + valve, f.half_width() - valve),
            );
            let yaw = (inside - pose.position).angle();
            walk_to(
                c,
                Pose2 {
                    position: inside,
                    yaw,
                },
                0.4,
            );
        }
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `CheckAndStandUp`: stands up after a fall when the motion is available (2 attempts).
struct CheckAndStandUp;

impl Behavior<SoccerContext> for CheckAndStandUp {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let c = cx.ctx_mut();
        let penalized = c.world.primary_state == crate::frame::PrimaryState::Penalized;
        let b = &mut c.memory.booster;
        if !c.world.fallen || penalized {
            b.stand_up_attempts = 0;
            b.stand_up_was_available = false;
            return Ok(Status::Success);
        }
        // Each time the stand-up becomes available is one attempt; at most two per fall.
        let available = c.world.stand_up_available;
        if available && !b.stand_up_was_available {
            b.stand_up_attempts += 1;
        }
        b.stand_up_was_available = available;
        if available && b.stand_up_attempts <= 2 {
            c.out.body = Some(Body::StandUp);
        }
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `WaveHand`: remembers whether the robot waves.
struct WaveHand {
    ports: PortValues,
}

impl Behavior<SoccerContext> for WaveHand {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let action = p.text(cx, "action")?;
        let waving = match action.as_str() {
            "start" => true,
            "stop" => false,
            other => {
                return Err(Fault::from(format!(
                    "port `action`: unknown value `{other}`"
                )));
            }
        };
        cx.ctx_mut().memory.booster.waving = waving;
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `SimpleChase`: straight at the ball.
struct SimpleChase {
    ports: PortValues,
}

impl Behavior<SoccerContext> for SimpleChase {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let stop_dist = p.f64(cx, "stop_dist")?;
        let stop_angle = p.f64(cx, "stop_angle")?;
        let vx_limit = p.f64(cx, "vx_limit")?.abs();
        let vy_limit = p.f64(cx, "vy_limit")?.abs();
        let c = cx.ctx_mut();
        let (Some(pose), Some(b)) = (c.world.pose, ball(c)) else {
            drive(c, Body::Stand);
            return Ok(Status::Success);
        };
        let local = pose.to_robot(b);
        let range = pose.position.distance(b);
        let bearing = pose.bearing_to(b);
        let (mut vx, mut vy) = (0.0, 0.0);
        if range > stop_dist {
            vx = (local.x).clamp(-vx_limit, vx_limit);
            vy = (local.y).clamp(-vy_limit, vy_limit);
        }
        let vyaw = if bearing.abs() > stop_angle {
            bearing.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        drive(c, velocity(vx, vy, vyaw));
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `Chase`: behind the ball along the kick direction.
struct Chase {
    ports: PortValues,
    /// The last tick went straight behind the ball (wider cone next time).
    direct: bool,
}

impl Behavior<SoccerContext> for Chase {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let lim = limits(p, cx)?;
        let dist = p.f64(cx, "dist")?;
        let safe_dist = p.f64(cx, "safe_dist")?;
        let c = cx.ctx_mut();
        let (Some(pose), Some(b)) = (c.world.pose, ball(c)) else {
            drive(c, Body::Stand);
            return Ok(Status::Success);
        };
        let kd = Vector2::<Field>::from_angle(c.memory.booster.kick_dir);
        let to_ball = b - pose.position;
        let off = wrap_pi(to_ball.angle() - c.memory.booster.kick_dir).abs();
        let cone = if self.direct {
            0.6 * std::f64::consts::PI
        } else {
            FRAC_PI_2
        };
        self.direct = off < cone || to_ball.norm() < 1e-6;
        let target = if self.direct {
            b - kd * dist
        } else {
            // Circle back: a point behind and to the robot's side of the ball.
            let side = if kd.cross(pose.position - b) >= 0.0 {
                1.0
            } else {
                -1.0
            };
            b + (-kd).rotated(-side * std::f64::consts::FRAC_PI_3) * safe_dist.max(dist)
        };
        let face = to_ball.angle();
        drive(c, velocity_to(&pose, target, face, lim));
        Ok(Status::Success)
    }

    fn halt(&mut self, _cx: &mut Cx<'_, SoccerContext>) {
        self.direct = false;
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `Adjust`: orbits the ball at `range` towards the kick direction.
struct Adjust {
    ports: PortValues,
}

impl Behavior<SoccerContext> for Adjust {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let [vx_limit, vy_limit, vtheta_limit] = limits(p, cx)?;
        let range = p.f64(cx, "range")?;
        let factor = p.f64(cx, "vtheta_factor")?;
        let far = p.f64(cx, "tangential_speed_far")?;
        let near = p.f64(cx, "tangential_speed_near")?;
        let near_threshold = p.f64(cx, "near_threshold")?;
        let no_turn = p.f64(cx, "no_turn_threshold")?;
        let turn_first = p.f64(cx, "turn_first_threshold")?;
        let c = cx.ctx_mut();
        let (Some(pose), Some(b)) = (c.world.pose, ball(c)) else {
            drive(c, Body::Stand);
            return Ok(Status::Success);
        };
        let distance = pose.position.distance(b);
        let bearing = pose.bearing_to(b);
        // Where the robot is around the ball, and where it should be (behind it).
        let around = (pose.position - b).angle();
        let wanted = wrap_pi(c.memory.booster.kick_dir + std::f64::consts::PI);
        let error = wrap_pi(wanted - around);
        let vyaw = (bearing * factor).clamp(-vtheta_limit, vtheta_limit);
        if bearing.abs() > turn_first {
            drive(c, velocity(0.0, 0.0, vyaw));
            return Ok(Status::Success);
        }
        let vx = (distance - range).clamp(-vx_limit, vx_limit);
        let speed = if error.abs() > near_threshold {
            far
        } else {
            near
        };
        // Facing the ball, going round it counter-clockwise (a larger `around`) is a step
        // to the right.
        let vy = if error.abs() < no_turn {
            0.0
        } else {
            (-error.signum() * speed).clamp(-vy_limit, vy_limit)
        };
        drive(c, velocity(vx, vy, vyaw));
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use crate::motion::{Body, TurnDirection};
    use decision_core::engine::Status;

    #[test]
    fn set_velocity_walks_and_zero_stands() {
        let mut ctx = at([0.0, 0.0, 0.0], None);
        let mut t = node("SetVelocity", &[("x", "0.3"), ("theta", "-0.2")]);
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        assert_eq!(velocity(&ctx), Some((0.3, 0.0, -0.2)));
        tick(&mut node("SetVelocity", &[]), &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand));
        let e = compile_node("SetVelocity", &[("z", "1")])
            .err()
            .unwrap_or_default();
        assert!(
            e.contains("SetVelocity") && e.contains("no port `z`"),
            "{e}"
        );
    }

    #[test]
    fn stand_still_runs_for_its_msecs() {
        let mut ctx = at([0.0, 0.0, 0.0], None);
        let mut t = node("StandStill", &[("msecs", "500")]);
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        assert_eq!(ctx.out.body, Some(Body::Stand));
        ctx.world.now = 0.5;
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        assert!(compile_node("StandStill", &[("msecs", "-1")]).is_err());
    }

    #[test]
    fn move_to_pose_walks_there_then_stands() {
        let mut ctx = at([0.0, 0.0, 0.0], None);
        let mut t = node(
            "MoveToPoseOnField",
            &[("x", "2"), ("y", "1"), ("vx_limit", "0.6")],
        );
        tick(&mut t, &mut ctx);
        match &ctx.out.body {
            Some(Body::WalkTo { target, speed }) => {
                assert_eq!(
                    (target.position.x, target.position.y, *speed),
                    (2.0, 1.0, 0.6)
                );
            }
            other => panic!("{other:?}"),
        }
        let mut ctx = at([1.8, 0.9, 0.1], None);
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand));
        let mut ctx = context(&frame(r#"{"pose": null}"#));
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand), "not localized");
    }

    #[test]
    fn turn_on_spot_turns_towards_the_ball_until_the_angle_is_reached() {
        let mut ctx = at([0.0, 0.0, 0.0], Some([0.0, -2.0]));
        let mut t = node("TurnOnSpot", &[("rad", "1.0"), ("towards_ball", "true")]);
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        assert_eq!(ctx.out.body, Some(Body::Turn(TurnDirection::Right)));
        ctx.world.now = 0.5;
        ctx.world.pose = Some(geometry::Pose2::new(0.0, 0.0, -0.5));
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        ctx.world.now = 1.0;
        ctx.world.pose = Some(geometry::Pose2::new(0.0, 0.0, -0.97));
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        // The 5 s limit.
        let mut ctx = at([0.0, 0.0, 0.0], None);
        let mut t = node("TurnOnSpot", &[("rad", "3.14")]);
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        assert_eq!(ctx.out.body, Some(Body::Turn(TurnDirection::Left)));
        ctx.world.now = 5.0;
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        assert!(compile_node("TurnOnSpot", &[("towards_ball", "maybe")]).is_err());
    }

    #[test]
    fn robot_find_ball_turns_until_a_ball_is_known() {
        let mut ctx = at([0.0, 0.0, 0.0], None);
        let mut t = node("RobotFindBall", &[("vyaw_limit", "0.8")]);
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        assert_eq!(velocity(&ctx), Some((0.0, 0.0, 0.8)));
        let mut ctx = at([0.0, 0.0, 0.0], Some([1.0, 0.0]));
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
    }

    #[test]
    fn go_back_in_field_walks_in_only_from_outside() {
        let mut t = node("GoBackInField", &[]);
        let mut ctx = at([0.0, 3.8, 0.0], None);
        tick(&mut t, &mut ctx);
        match &ctx.out.body {
            Some(Body::WalkTo { target, speed }) => {
                assert_eq!((target.position.y, *speed), (2.5, 0.4));
            }
            other => panic!("{other:?}"),
        }
        let mut ctx = at([0.0, 3.2, 0.0], None);
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, None, "within the valve");
    }

    #[test]
    fn check_and_stand_up_stands_up_once_per_fall_and_nothing_overrides_it() {
        let mut ctx = context(&frame(
            r#"{"fallen": true, "stand_up_available": true, "pose": null}"#,
        ));
        let mut t = node("CheckAndStandUp", &[]);
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::StandUp));
        super::super::drive(&mut ctx, Body::Stand);
        assert_eq!(ctx.out.body, Some(Body::StandUp), "not overridden");
        // Two attempts per fall: the third time the motion becomes available is refused.
        for (available, stands_up) in [(false, false), (true, true), (false, false), (true, false)]
        {
            ctx.world.stand_up_available = available;
            tick(&mut t, &mut ctx);
            assert_eq!(
                ctx.out.body == Some(Body::StandUp),
                stands_up,
                "{available}"
            );
        }
        let mut ctx = at([0.0, 0.0, 0.0], None);
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, None, "standing");
    }

    #[test]
    fn wave_hand_checks_its_action() {
        let mut ctx = at([0.0, 0.0, 0.0], None);
        tick(&mut node("WaveHand", &[]), &mut ctx);
        assert!(ctx.memory.booster.waving);
        tick(&mut node("WaveHand", &[("action", "stop")]), &mut ctx);
        assert!(!ctx.memory.booster.waving);
        let e = compile_node("WaveHand", &[("action", "jump")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("WaveHand") && e.contains("port `action`"), "{e}");
    }

    #[test]
    fn simple_chase_walks_at_the_ball_and_stops_near_it() {
        let mut t = node(
            "SimpleChase",
            &[
                ("stop_dist", "0.5"),
                ("vx_limit", "1.5"),
                ("vy_limit", "0.1"),
            ],
        );
        let mut ctx = at([0.0, 0.0, 0.0], Some([3.0, 0.0]));
        tick(&mut t, &mut ctx);
        assert_eq!(velocity(&ctx), Some((1.5, 0.0, 0.0)));
        let mut ctx = at([0.0, 0.0, 0.0], Some([0.3, 0.0]));
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand));
        let mut ctx = at([0.0, 0.0, 0.0], None);
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand), "no ball");
    }

    #[test]
    fn chase_goes_straight_behind_the_ball_or_circles_back() {
        let mut t = node("Chase", &[("vx_limit", "0.9"), ("safe_dist", "0.5")]);
        // Behind the ball (kick direction +x): forward.
        let mut ctx = at([-2.0, 0.0, 0.0], Some([0.0, 0.0]));
        tick(&mut t, &mut ctx);
        let (vx, vy, _) = velocity(&ctx).unwrap_or_default();
        assert!(vx > 0.5 && vy.abs() < 1e-9, "{vx} {vy}");
        // In front of the ball: circles back, not straight through it.
        let mut t = node("Chase", &[("safe_dist", "0.5")]);
        let mut ctx = at([2.0, 0.1, std::f64::consts::PI], Some([0.0, 0.0]));
        tick(&mut t, &mut ctx);
        let (_, vy, _) = velocity(&ctx).unwrap_or_default();
        assert!(vy.abs() > 0.1, "steps aside: {vy}");
        assert!(compile_node("Chase", &[("dist", "-0.1")]).is_err());
    }

    #[test]
    fn adjust_orbits_towards_the_kick_direction() {
        let mut t = node(
            "Adjust",
            &[
                ("range", "0.4"),
                ("vy_limit", "0.6"),
                ("tangential_speed_far", "0.7"),
            ],
        );
        // Beside the ball (ball at +y of the robot, kick direction +x): the robot faces the
        // ball (+y) and must go round to -x of the ball, i.e. step left (its +y is field -x).
        let mut ctx = at([0.0, -0.4, std::f64::consts::FRAC_PI_2], Some([0.0, 0.0]));
        tick(&mut t, &mut ctx);
        let (vx, vy, _) = velocity(&ctx).unwrap_or_default();
        assert!(vy > 0.5 && vx.abs() < 1e-6, "{vx} {vy}");
        // Behind the ball: no orbit.
        let mut ctx = at([-0.4, 0.0, 0.0], Some([0.0, 0.0]));
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand));
        // Ball far to the side: turn first.
        let mut ctx = at([0.0, 0.0, 0.0], Some([0.0, 1.0]));
        tick(&mut t, &mut ctx);
        let (vx, vy, vyaw) = velocity(&ctx).unwrap_or_default();
        assert!(vx == 0.0 && vy == 0.0 && vyaw > 0.0);
    }
}
