//! Robot obstacles: own robots along their trajectory, constant-velocity robots, opponents.

use super::shapes::push_out;
use super::{ORDER_OPPONENT, ORDER_OWN_BOT, Obstacle, Query, clamp_lenient};
use crate::aabb::Aabb;
use crate::traj::{TrajPath, Trajectory};
use geometry::{Vec2, closest_on_segment};

/// Robot–robot collision radius (2 × 90 mm).
pub const ROBOT_ROBOT_RADIUS: f64 = 0.18;

/// Another (own) robot following its published path, sampled at `t + age`.
#[derive(Clone, Copy, Debug)]
pub struct TrajectoryRobot {
    path: TrajPath,
    age: f64,
    radius: f64,
    priority: bool,
    horizon: f64,
    max_speed: f64,
    /// Where the robot is now: its path at time `0.0 + age`, as `distance` computes it at t = 0.
    pos_now: Vec2,
    /// The box of its positions while it counts (path times `age` to `age + horizon`).
    reach: Aabb,
}

impl TrajectoryRobot {
    /// `path` was planned `age` seconds ago; `priority` = the other robot wins; `horizon` = ignore after.
    pub fn new(path: TrajPath, age: f64, priority: bool, horizon: f64) -> Self {
        Self {
            path,
            age,
            radius: ROBOT_ROBOT_RADIUS,
            priority,
            horizon,
            max_speed: path.max_speed(),
            pos_now: path.position(0.0 + age),
            reach: path.bounds(age.max(0.0), age.max(0.0) + horizon.max(0.0)),
        }
    }
}

impl Obstacle for TrajectoryRobot {
    fn distance(&self, q: &Query) -> f64 {
        q.pos.dist(self.path.position(q.t + self.age)) - self.radius
    }
    fn distance_lower_bound(&self, area: &Aabb, t_from: f64, t_to: f64) -> Option<f64> {
        let inside_window = t_from >= 0.0 && t_to <= self.horizon && self.age >= 0.0;
        inside_window.then(|| area.distance_to(&self.reach) - self.radius)
    }
    /// As the default (the distance at t = 0), with the position at t = 0 computed once.
    fn is_colliding_at(&self, p: Vec2) -> bool {
        p.dist(self.pos_now) - self.radius <= 0.0
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        Some(push_out(
            self.path.position(self.age),
            p,
            self.radius + clearance,
        ))
    }
    fn max_speed(&self) -> f64 {
        self.max_speed
    }
    fn is_motionless(&self) -> bool {
        false
    }
    fn active_until(&self) -> f64 {
        self.horizon
    }
    fn has_priority(&self) -> bool {
        self.priority
    }
    fn order_id(&self) -> u8 {
        ORDER_OWN_BOT
    }
}

/// A robot predicted at constant velocity up to `t_max`: `p0 + v·min(t, t_max)`.
#[derive(Clone, Copy, Debug)]
pub struct ConstVelocityRobot {
    /// Position now.
    pub pos: Vec2,
    /// Velocity now.
    pub vel: Vec2,
    /// Prediction horizon (s) (0.4 s default); stands still afterwards.
    pub t_max: f64,
    /// Collision radius.
    pub radius: f64,
    /// Sort key (opponent or own robot without trajectory).
    pub order: u8,
}

impl ConstVelocityRobot {
    /// Opponent-style constant-velocity robot with the defaults (0.4 s, 0.18 m).
    pub fn new(pos: Vec2, vel: Vec2) -> Self {
        Self {
            pos,
            vel,
            t_max: 0.4,
            radius: ROBOT_ROBOT_RADIUS,
            order: ORDER_OPPONENT,
        }
    }

    fn at(&self, t: f64) -> Vec2 {
        self.pos + self.vel * clamp_lenient(t, 0.0, self.t_max)
    }
}

impl Obstacle for ConstVelocityRobot {
    fn distance(&self, q: &Query) -> f64 {
        q.pos.dist(self.at(q.t)) - self.radius
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        Some(push_out(self.pos, p, self.radius + clearance))
    }
    fn max_speed(&self) -> f64 {
        self.vel.len()
    }
    fn is_motionless(&self) -> bool {
        false
    }
    fn collision_likely(&self, _t: f64, _p: Vec2) -> bool {
        self.vel.len() < 0.3
    }
    fn has_priority(&self) -> bool {
        self.order != ORDER_OPPONENT
    }
    fn order_id(&self) -> u8 {
        self.order
    }
}

/// Displacement after `t` s starting at speed `v`, accelerating at `a` towards `v_target`,
/// then cruising; the terms that do not depend on `t` are computed once.
#[derive(Clone, Copy, Debug)]
struct Run {
    v: f64,
    v_target: f64,
    /// Time to reach `v_target`.
    t_acc: f64,
    /// Half the signed acceleration.
    half_acc: f64,
    /// Displacement at `t_acc`.
    s_acc: f64,
}

impl Run {
    fn new(v: f64, v_target: f64, a: f64) -> Self {
        let dv = v_target - v;
        let t_acc = dv.abs() / a;
        let acc = a * dv.signum();
        let half_acc = 0.5 * acc;
        Self {
            v,
            v_target,
            t_acc,
            half_acc,
            s_acc: v * t_acc + half_acc * t_acc * t_acc,
        }
    }

    /// Displacement after `t` s (0 for `t <= 0`).
    #[inline]
    fn at(&self, t: f64) -> f64 {
        if t <= 0.0 {
            return 0.0;
        }
        if t <= self.t_acc {
            self.v * t + self.half_acc * t * t
        } else {
            self.s_acc + self.v_target * (t - self.t_acc)
        }
    }
}

/// Shape variant of the reachable-set opponent model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpponentShape {
    /// Tube along the move direction, width = robot–robot radius (the TIGERs planner's less pessimistic tweak).
    Tube,
    /// Circle of eqs. (5)–(8): centre mid-span, radius r_op + span/2.
    Circle,
}

/// Which set of positions the opponent interval describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpponentModel {
    /// Positions reachable at t (seed eqs. 5–8, R2024 NORMAL): f₊/f₋ towards ±∞.
    Accelerating,
    /// Positions where the opponent can be *at rest* at t (R2025 NORMAL), braking with `brk`.
    Stopping,
}

/// Largest displacement ending at rest at `t`, from speed `v ≥ 0`, accelerating with `a`,
/// braking with `b`, speed limit `vl ≥ v`; `None` if it cannot stop within `t`.
fn stop_forward(v: f64, a: f64, b: f64, vl: f64, t: f64) -> Option<f64> {
    if v / b > t {
        return None;
    }
    let vp = ((t + v / a) / (1.0 / a + 1.0 / b)).min(vl);
    let t1 = (vp - v) / a;
    let t2 = (t - t1 - vp / b).max(0.0);
    Some((v + vp) / 2.0 * t1 + vp * t2 + vp * vp / (2.0 * b))
}

/// Smallest displacement ending at rest at `t`: brake to 0, reverse as far as possible, stop.
fn stop_backward(v: f64, a: f64, b: f64, vl: f64, t: f64) -> Option<f64> {
    let t_brake = v / b;
    if t_brake > t {
        return None;
    }
    let back = stop_forward(0.0, a, b, vl, t - t_brake).unwrap_or(0.0);
    Some(v * v / (2.0 * b) - back)
}

/// Opponent as the set it can reach within `t_c = clamp(t, 0, t_max)` (bang-bang f₊ / f₋).
#[derive(Clone, Copy, Debug)]
pub struct OpponentObstacle {
    pos: Vec2,
    dir: Vec2,
    speed: f64,
    vmax: f64,
    amax: f64,
    /// Growth cut-off t_max (s).
    pub t_max: f64,
    /// Reaction time with constant velocity (s).
    pub reaction: f64,
    /// Robot–robot radius (m).
    pub radius: f64,
    /// Ignored after this path time (s) (LimitedTime wrapper).
    pub horizon: f64,
    /// Shape variant.
    pub shape: OpponentShape,
    /// Interval model.
    pub model: OpponentModel,
    /// Braking deceleration of the stopping model (m/s²).
    pub brk: f64,
    /// Accelerating model: the run forward towards `max(vmax, speed)`.
    run_forward: Run,
    /// Accelerating model: the run backward towards `-max(vmax, speed)`.
    run_backward: Run,
}

/// Speed below which an opponent counts as standing (small circle only).
pub const STANDING_SPEED: f64 = 0.5;

impl OpponentObstacle {
    /// Opponent at `pos` with `vel` and limits; defaults t_max 0.5 s, reaction 0.1 s, horizon 1 s, tube.
    pub fn new(pos: Vec2, vel: Vec2, vmax: f64, amax: f64) -> Self {
        let speed = vel.len();
        let standing = speed < STANDING_SPEED;
        let (v, vmax, amax) = (
            if standing { 0.0 } else { speed },
            vmax.max(1e-6),
            amax.max(1e-6),
        );
        let vm = vmax.max(v);
        Self {
            pos,
            dir: if standing {
                Vec2::ZERO
            } else {
                vel * (1.0 / speed)
            },
            speed: v,
            vmax,
            amax,
            t_max: 0.5,
            reaction: 0.1,
            radius: ROBOT_ROBOT_RADIUS,
            horizon: 1.0,
            shape: OpponentShape::Tube,
            model: OpponentModel::Accelerating,
            brk: amax,
            run_forward: Run::new(v, vm, amax),
            run_backward: Run::new(v, -vm, amax),
        }
    }

    /// (backward f₋, forward f₊) offsets along the move direction at time `t`.
    #[inline(always)]
    pub fn offsets(&self, t: f64) -> (f64, f64) {
        let tc = clamp_lenient(t, 0.0, self.t_max);
        let v = self.speed;
        let tr = tc.min(self.reaction);
        let rest = tc - tr;
        let vm = self.vmax.max(v);
        let base = v * tr;
        match self.model {
            OpponentModel::Accelerating => (
                base + self.run_backward.at(rest),
                base + self.run_forward.at(rest),
            ),
            OpponentModel::Stopping => {
                let (a, b) = (self.amax, self.brk);
                match (
                    stop_backward(v, a, b, vm, rest),
                    stop_forward(v, a, b, vm, rest),
                ) {
                    (Some(lo), Some(hi)) => (base + lo, base + hi),
                    _ => {
                        // Cannot stop within t: both ends collapse to the partial braking distance.
                        let d = v * rest - 0.5 * b * rest * rest;
                        (base + d, base + d)
                    }
                }
            }
        }
    }

    fn standing(&self) -> bool {
        self.dir == Vec2::ZERO
    }

    /// Whether the model's offsets stay within `max(vmax, speed)` per second: always for
    /// the accelerating model, and for the stopping model with a positive finite braking
    /// deceleration (a negative one pushes the forward end further).
    fn brakes(&self) -> bool {
        self.model == OpponentModel::Accelerating || (self.brk > 0.0 && self.brk.is_finite())
    }
}

impl Obstacle for OpponentObstacle {
    fn distance(&self, q: &Query) -> f64 {
        if self.standing() {
            return q.pos.dist(self.pos) - self.radius;
        }
        let (back, fwd) = self.offsets(q.t);
        match self.shape {
            OpponentShape::Tube => {
                let a = self.pos + self.dir * back;
                let b = self.pos + self.dir * fwd;
                q.pos.dist(closest_on_segment(a, b, q.pos)) - self.radius
            }
            OpponentShape::Circle => {
                let r_dyn = (fwd - back).abs() / 2.0;
                let c = self.pos + self.dir * (back + r_dyn);
                q.pos.dist(c) - (self.radius + r_dyn)
            }
        }
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        Some(push_out(self.pos, p, self.radius + clearance))
    }
    /// As the default (the distance at t = 0): with a non-negative growth cut-off and
    /// reaction time (and a positive finite braking deceleration for the stopping model)
    /// both offsets are 0 then, so the shape is the circle around `pos`.
    fn is_colliding_at(&self, p: Vec2) -> bool {
        if self.t_max >= 0.0 && self.reaction >= 0.0 && self.speed.is_finite() && self.brakes() {
            p.dist(self.pos) - self.radius <= 0.0
        } else {
            self.distance(&Query::at_rest(p, 0.0)) <= 0.0
        }
    }
    fn distance_lower_bound(&self, area: &Aabb, _t_from: f64, t_to: f64) -> Option<f64> {
        // Both offsets move at most max(vmax, speed) from the robot, for at most t_max
        // (t_c ≤ t_max); the circle reaches at most three times as far as the tube.
        // Written so that a NaN anywhere gives no bound.
        let sane = self.t_max >= 0.0
            && self.t_max.is_finite()
            && self.reaction >= 0.0
            && t_to >= 0.0
            && self.brakes();
        if !sane {
            return None;
        }
        let reach = self.vmax.max(self.speed) * t_to.min(self.t_max) * (1.0 + 1e-9);
        let reach = match self.shape {
            OpponentShape::Tube => reach,
            OpponentShape::Circle => 3.0 * reach,
        };
        Some(area.distance_to_point(self.pos) - self.radius - reach)
    }
    fn max_speed(&self) -> f64 {
        match self.shape {
            OpponentShape::Tube => self.vmax.max(self.speed),
            // centre moves at ≤ vmax and the radius grows at ≤ vmax.
            OpponentShape::Circle => 2.0 * self.vmax.max(self.speed),
        }
    }
    fn is_motionless(&self) -> bool {
        false
    }
    fn active_until(&self) -> f64 {
        self.horizon
    }
    fn collision_likely(&self, _t: f64, _p: Vec2) -> bool {
        self.speed < 0.3
    }
    fn has_priority(&self) -> bool {
        false
    }
    fn order_id(&self) -> u8 {
        ORDER_OPPONENT
    }
}
