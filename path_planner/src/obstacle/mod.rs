//! Obstacles behind one trait: signed distance at time t and "closest point outside".
//!
//! All distances are in metres; `<= 0` means collision. The robot's own radius is part of
//! each obstacle's size (e.g. robot–robot radius 0.18 m), the velocity-dependent margin is
//! applied by the collision search, not here.

pub mod ball;
pub mod field;
pub mod grid;
pub mod robots;
pub mod shapes;

pub use ball::{BALL_CLEARANCE, BallObstacle};
pub use field::{FieldBorder, PenaltyArea};
pub use grid::{GridError, GridObstacle};
pub use robots::{
    ConstVelocityRobot, OpponentModel, OpponentObstacle, OpponentShape, TrajectoryRobot,
};
pub use shapes::{Circle, Rectangle, Tube};

use crate::aabb::Aabb;
use geometry::Vec2;

/// `x` limited to `[lo, hi]` exactly as `f64::clamp` limits it, without its panic when a
/// bound is NaN or `lo > hi` (obstacles built from bad input): a bound that does not
/// compare is then not applied, and a NaN `x` stays NaN, so a bad value reaches the
/// planner's NaN handling instead of aborting the plan.
#[inline(always)]
pub(crate) fn clamp_lenient(x: f64, lo: f64, hi: f64) -> f64 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// Sort key of opponents (checked and adapted first).
pub const ORDER_OPPONENT: u8 = 20;
/// Sort key of own robots.
pub const ORDER_OWN_BOT: u8 = 30;
/// Sort key of the ball.
pub const ORDER_BALL: u8 = 40;
/// Sort key of everything else (field, penalty areas, walls, shapes).
pub const ORDER_OTHER: u8 = 50;

/// Clearance of "closest point outside" when adapting a destination (1 mm).
pub const DEST_CLEARANCE: f64 = 0.001;
/// Clearance of "closest point outside" when the robot itself is inside (100 mm).
pub const ROBOT_CLEARANCE: f64 = 0.1;

/// The robot state an obstacle is asked about.
#[derive(Clone, Copy, Debug)]
pub struct Query {
    /// Time on the planned path (s).
    pub t: f64,
    /// Robot position.
    pub pos: Vec2,
    /// Robot velocity.
    pub vel: Vec2,
}

impl Query {
    /// A robot at rest at `pos` at time `t`.
    pub fn at_rest(pos: Vec2, t: f64) -> Self {
        Self {
            t,
            pos,
            vel: Vec2::ZERO,
        }
    }
}

/// Common interface of all obstacles.
pub trait Obstacle {
    /// Signed distance (m) between the robot centre and the obstacle at `q.t`; `<= 0` is a collision.
    fn distance(&self, q: &Query) -> f64;

    /// Closest point at t = 0 with at least `clearance` distance, `None` if not defined.
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2>;

    /// Upper bound of the obstacle's speed (m/s), used for the dynamic step.
    fn max_speed(&self) -> f64 {
        0.0
    }

    /// True for static obstacles (checked first, motionless acceptor).
    fn is_motionless(&self) -> bool {
        true
    }

    /// The obstacle is ignored after this path time (s).
    fn active_until(&self) -> f64 {
        f64::INFINITY
    }

    /// Whether a collision at `(t, p)` is likely to really happen (slow ball/opponent, own bots).
    fn collision_likely(&self, _t: f64, _p: Vec2) -> bool {
        true
    }

    /// Priority obstacles are never collided with deliberately and used for destination adaptation.
    fn has_priority(&self) -> bool {
        true
    }

    /// Sort key for input processing (lower first).
    fn order_id(&self) -> u8 {
        ORDER_OTHER
    }

    /// Whether the velocity-dependent margin applies.
    fn use_dynamic_margin(&self) -> bool {
        true
    }

    /// How much the reported distance may under-run a 1-Lipschitz bound (discretised obstacles).
    fn distance_slack(&self) -> f64 {
        0.0
    }

    /// A lower bound of [`distance`](Self::distance) for every query with its position in
    /// `area` and its time in `[t_from, t_to]` (`0 ≤ t_from ≤ t_to ≤ active_until`), exact up
    /// to rounding (the caller keeps a safety gap); `None` when there is no cheap one.
    fn distance_lower_bound(&self, _area: &Aabb, _t_from: f64, _t_to: f64) -> Option<f64> {
        None
    }

    /// True if `p` collides at t = 0.
    fn is_colliding_at(&self, p: Vec2) -> bool {
        self.distance(&Query::at_rest(p, 0.0)) <= 0.0
    }

    /// Destination adaptation: the closest point outside plus 1 mm.
    fn adapt_destination(&self, dest: Vec2) -> Option<Vec2> {
        self.closest_point_outside(dest, DEST_CLEARANCE)
    }

    /// Escape target for a robot inside: the closest point outside plus 100 mm.
    fn adapt_destination_for_robot_pos(&self, robot: Vec2) -> Option<Vec2> {
        self.closest_point_outside(robot, ROBOT_CLEARANCE)
    }
}
