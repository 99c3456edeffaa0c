//! The ball along its rolling trajectory (constant deceleration until it stops).

use super::shapes::push_out;
use super::{ORDER_BALL, Obstacle, Query, clamp_lenient};
use crate::aabb::Aabb;
use geometry::Vec2;

/// Ball clearance: ball radius 21.5 mm + bot radius 90 mm + 50 mm.
pub const BALL_CLEARANCE: f64 = 0.1615;

/// A rolling ball: `p0 + dir·(v0·t − ½·d·t²)` until it stops.
#[derive(Clone, Copy, Debug)]
pub struct BallObstacle {
    pos: Vec2,
    vel: Vec2,
    decel: f64,
    /// Collision radius (m).
    pub radius: f64,
    /// The box of the segment the ball rolls along until it stops (`None` when the input is
    /// not finite: no bound then).
    track: Option<Aabb>,
}

impl BallObstacle {
    /// Ball at `pos` rolling with `vel`, decelerating with `decel` m/s².
    pub fn new(pos: Vec2, vel: Vec2, decel: f64) -> Self {
        let mut ball = Self {
            pos,
            vel,
            decel: decel.max(1e-6),
            radius: BALL_CLEARANCE,
            track: None,
        };
        // `state` clamps the time to the stop time, which a NaN speed makes NaN.
        if vel.len().is_finite() {
            let track = Aabb::segment(pos, ball.state(f64::INFINITY).0);
            ball.track = track.magnitude().is_finite().then_some(track);
        }
        ball
    }

    /// Ball position and speed at time `t`.
    pub fn state(&self, t: f64) -> (Vec2, f64) {
        let v0 = self.vel.len();
        let t_stop = v0 / self.decel;
        let t = clamp_lenient(t, 0.0, t_stop);
        let s = v0 * t - 0.5 * self.decel * t * t;
        (self.pos + self.vel.normalized() * s, v0 - self.decel * t)
    }
}

impl Obstacle for BallObstacle {
    fn distance(&self, q: &Query) -> f64 {
        q.pos.dist(self.state(q.t).0) - self.radius
    }
    fn distance_lower_bound(&self, area: &Aabb, _t_from: f64, _t_to: f64) -> Option<f64> {
        self.track
            .map(|track| area.distance_to(&track) - self.radius)
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
    fn collision_likely(&self, t: f64, _p: Vec2) -> bool {
        self.state(t).1 < 0.3
    }
    fn has_priority(&self) -> bool {
        false
    }
    fn order_id(&self) -> u8 {
        ORDER_BALL
    }
}
