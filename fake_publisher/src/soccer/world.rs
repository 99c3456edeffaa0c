//! The physical match: a ball that rolls with friction, is kicked and bounces off robots, and
//! robots that walk with bounded acceleration and turn rate, push each other apart, fall and
//! stand up. Everything in the world frame (the home team's field frame).

use crate::rng::SplitMix64;
use geometry::{Field, Point2, Pose2, Vec2, Vector2, wrap_pi};
use path_planner::traj::BangBang2D;

/// Radius of a robot's body (m).
pub const ROBOT_RADIUS: f64 = 0.2;
/// Radius of the ball (m).
pub const BALL_RADIUS: f64 = 0.07;
/// Rolling deceleration of the ball (m/s²).
pub const BALL_FRICTION: f64 = 0.5;
/// A kick reaches the ball from this far (centre to centre, m).
pub const KICK_REACH: f64 = 0.45;
/// Walking acceleration limit (m/s²).
pub const WALK_ACCELERATION: f64 = 0.8;
/// Turning rate limit (rad/s).
pub const TURN_RATE: f64 = 1.5;
/// Time a fallen robot lies before it can stand up (s).
pub const FALL_RECOVERY_DELAY: f64 = 1.0;
/// Time standing up takes (s).
pub const STAND_UP_DURATION: f64 = 2.0;

/// The simulated ball: it rolls with friction, is kicked and bounces off robots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball {
    /// Centre in the world frame (m).
    pub position: Point2<Field>,
    /// Velocity (m/s).
    pub velocity: Vector2<Field>,
}

impl Ball {
    /// A ball lying at `p`.
    pub fn at(p: Point2<Field>) -> Self {
        Self {
            position: p,
            velocity: Vector2::ZERO,
        }
    }

    /// Rolls for `dt` with friction.
    pub fn roll(&mut self, dt: f64) {
        let speed = self.velocity.norm();
        if speed <= 1e-9 {
            self.velocity = Vector2::ZERO;
            return;
        }
        let next = (speed - BALL_FRICTION * dt).max(0.0);
        let travelled = (speed + next) / 2.0 * dt;
        let direction = self.velocity * (1.0 / speed);
        self.position = self.position + direction * travelled;
        self.velocity = direction * next;
    }

    /// Whether the ball is (almost) at rest.
    pub fn is_still(&self) -> bool {
        self.velocity.norm() < 0.05
    }
}

/// A robot's body.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Pose.
    pub pose: Pose2<Field>,
    /// Velocity (m/s).
    pub velocity: Vector2<Field>,
    /// Head yaw relative to the body.
    pub head_yaw: f64,
    /// When it fell, while lying.
    pub fallen_since: Option<f64>,
    /// When standing up completes, while getting up.
    pub standing_up_until: Option<f64>,
    /// No kick before this time (one kick, then a short recovery).
    pub kick_ready_at: f64,
}

impl Body {
    /// A standing robot at `pose`.
    pub fn at(pose: Pose2<Field>) -> Self {
        Self {
            pose,
            velocity: Vector2::ZERO,
            head_yaw: 0.0,
            fallen_since: None,
            standing_up_until: None,
            kick_ready_at: 0.0,
        }
    }

    /// Whether the robot lies on the ground (or is getting up).
    pub fn is_down(&self) -> bool {
        self.fallen_since.is_some()
    }

    /// Whether it may stand up now.
    pub fn can_stand_up(&self, now: f64) -> bool {
        self.fallen_since
            .is_some_and(|since| now - since >= FALL_RECOVERY_DELAY)
            && self.standing_up_until.is_none()
    }

    /// Falls over.
    pub fn fall(&mut self, now: f64) {
        if self.fallen_since.is_none() {
            self.fallen_since = Some(now);
            self.standing_up_until = None;
            self.velocity = Vector2::ZERO;
        }
    }

    /// Starts getting up (when allowed) and finishes it after [`STAND_UP_DURATION`].
    pub fn stand_up(&mut self, now: f64) {
        if self.can_stand_up(now) {
            self.standing_up_until = Some(now + STAND_UP_DURATION);
        }
    }

    /// Advances getting up.
    pub fn recover(&mut self, now: f64) {
        if self.standing_up_until.is_some_and(|until| now >= until) {
            self.fallen_since = None;
            self.standing_up_until = None;
        }
    }

    /// Slows down to a stop.
    pub fn brake(&mut self, dt: f64) {
        let speed = self.velocity.norm();
        let next = (speed - WALK_ACCELERATION * dt).max(0.0);
        if speed > 1e-9 {
            self.velocity = self.velocity * (next / speed);
        }
        self.pose.position = self.pose.position + self.velocity * dt;
    }

    /// Walks towards `target` (bang-bang, bounded acceleration) at up to `speed`, turning
    /// towards `yaw` when near the target and towards the walking direction otherwise.
    pub fn walk_to(&mut self, target: Point2<Field>, yaw: f64, speed: f64, dt: f64) {
        let p0 = Vec2::from(self.pose.position);
        let p1 = Vec2::from(target);
        let v0 = Vec2::from(self.velocity);
        let trajectory = BangBang2D::new(p0, p1, v0, speed.max(0.05), WALK_ACCELERATION);
        let (p, v) = trajectory.pos_vel(dt);
        self.pose.position = Point2::from(p);
        self.velocity = Vector2::from(v);
        let remaining = self.pose.position.distance(target);
        let heading = if remaining > 0.5 {
            (target - self.pose.position).angle()
        } else {
            yaw
        };
        self.turn_towards(heading, dt);
    }

    /// Walks with a velocity in the robot frame.
    pub fn walk_velocity(&mut self, vx: f64, vy: f64, vyaw: f64, dt: f64) {
        let world = Vector2::<Field>::new(vx, vy).rotated(self.pose.yaw);
        self.velocity = world;
        self.pose.position = self.pose.position + world * dt;
        self.pose.yaw = wrap_pi(self.pose.yaw + vyaw.clamp(-TURN_RATE, TURN_RATE) * dt);
    }

    /// Turns in place at `rate` (rad/s, signed).
    pub fn turn(&mut self, rate: f64, dt: f64) {
        self.brake(dt);
        self.pose.yaw = wrap_pi(self.pose.yaw + rate.clamp(-TURN_RATE, TURN_RATE) * dt);
    }

    fn turn_towards(&mut self, yaw: f64, dt: f64) {
        let error = wrap_pi(yaw - self.pose.yaw);
        let step = TURN_RATE * dt;
        self.pose.yaw = wrap_pi(self.pose.yaw + error.clamp(-step, step));
    }

    /// Whether the ball is within kicking reach in front of the robot.
    pub fn reaches(&self, ball: &Ball) -> bool {
        self.pose.position.distance(ball.position) <= KICK_REACH
            && self.pose.bearing_to(ball.position).abs() < 1.3
    }
}

/// Kicks `ball` towards `target`: fast enough to roll about that far (within 1.5-5 m/s).
pub fn kick(ball: &mut Ball, target: Point2<Field>, rng: &mut SplitMix64) {
    let to_target = target - ball.position;
    let distance = to_target.norm();
    let direction = to_target.normalized().unwrap_or(Vector2::new(1.0, 0.0));
    // A little spread in direction, as real kicks have.
    let direction = direction.rotated(rng.normal() * 0.05);
    let speed = ((2.0 * BALL_FRICTION * distance).sqrt() + 0.3).clamp(1.5, 5.0);
    ball.velocity = direction * speed;
}

/// Pushes overlapping robots apart; returns the pairs that collided with a relative speed
/// above `hard` (m/s).
pub fn separate(bodies: &mut [&mut Body], hard: f64) -> Vec<(usize, usize)> {
    let mut hard_hits = Vec::new();
    for i in 0..bodies.len() {
        for j in (i + 1)..bodies.len() {
            let d = bodies[j].pose.position - bodies[i].pose.position;
            let distance = d.norm();
            let overlap = 2.0 * ROBOT_RADIUS - distance;
            if overlap <= 0.0 {
                continue;
            }
            let n = d.normalized().unwrap_or(Vector2::new(1.0, 0.0));
            let relative = (bodies[i].velocity - bodies[j].velocity).dot(n);
            if relative > hard {
                hard_hits.push((i, j));
            }
            bodies[i].pose.position = bodies[i].pose.position - n * (overlap / 2.0);
            bodies[j].pose.position = bodies[j].pose.position + n * (overlap / 2.0);
        }
    }
    hard_hits
}

/// Bounces the ball off a robot it runs into; true when it touched the robot.
pub fn bounce(ball: &mut Ball, body: &Body) -> bool {
    let d = ball.position - body.pose.position;
    let distance = d.norm();
    let contact = ROBOT_RADIUS + BALL_RADIUS;
    if distance >= contact {
        return false;
    }
    let n = d.normalized().unwrap_or(Vector2::new(1.0, 0.0));
    ball.position = body.pose.position + n * contact;
    let into = ball.velocity.dot(n);
    if into < 0.0 {
        ball.velocity = (ball.velocity - n * (2.0 * into)) * 0.3;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ball_rolls_out_with_friction() {
        let mut b = Ball {
            position: Point2::new(0.0, 0.0),
            velocity: Vector2::new(1.0, 0.0),
        };
        for _ in 0..200 {
            b.roll(0.02);
        }
        // v^2 / 2a = 1 m
        assert!((b.position.x - 1.0).abs() < 0.02, "{:?}", b.position);
        assert!(b.is_still());
    }

    #[test]
    fn walking_has_bounded_acceleration_and_arrives() {
        let mut body = Body::at(Pose2::new(0.0, 0.0, 0.0));
        body.walk_to(Point2::new(2.0, 0.0), 0.0, 0.5, 0.02);
        assert!(body.velocity.norm() <= WALK_ACCELERATION * 0.02 + 1e-9);
        for _ in 0..600 {
            body.walk_to(Point2::new(2.0, 0.0), 0.0, 0.5, 0.02);
        }
        assert!(body.pose.position.distance(Point2::new(2.0, 0.0)) < 0.01);
    }

    #[test]
    fn falls_recover_after_the_delay_and_stand_up() {
        let mut body = Body::at(Pose2::new(0.0, 0.0, 0.0));
        body.fall(1.0);
        assert!(!body.can_stand_up(1.5));
        assert!(body.can_stand_up(2.0));
        body.stand_up(2.0);
        body.recover(3.0);
        assert!(body.is_down());
        body.recover(4.0);
        assert!(!body.is_down());
    }

    #[test]
    fn robots_do_not_overlap_and_balls_bounce() {
        let mut a = Body::at(Pose2::new(0.0, 0.0, 0.0));
        let mut b = Body::at(Pose2::new(0.1, 0.0, 0.0));
        a.velocity = Vector2::new(1.0, 0.0);
        let hits = separate(&mut [&mut a, &mut b], 0.5);
        assert_eq!(hits, [(0, 1)]);
        assert!(a.pose.position.distance(b.pose.position) >= 2.0 * ROBOT_RADIUS - 1e-9);
        let mut ball = Ball {
            position: Point2::new(0.5, 0.0),
            velocity: Vector2::new(-2.0, 0.0),
        };
        let body = Body::at(Pose2::new(0.3, 0.0, 0.0));
        assert!(bounce(&mut ball, &body));
        assert!(ball.velocity.x > 0.0);
    }
}
