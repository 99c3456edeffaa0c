//! What a robot perceives: its pose with noise (none while down), the ball when it is in the
//! camera's cone and range and not hidden behind a robot (with noise and misses), the other
//! robots as obstacles, and where its head points.

use super::scenario::Perception;
use super::world::{Ball, Body, ROBOT_RADIUS};
use crate::rng::SplitMix64;
use geometry::{Field, Point2, Pose2, wrap_pi};
use soccer_profile::motion::Head;

/// The head yaw a head motion produces at time `now` (scans sweep side to side).
pub fn head_yaw(head: Head, pose: &Pose2<Field>, now: f64) -> f64 {
    match head {
        Head::LookForward => 0.0,
        Head::LookAt(target) => pose.bearing_to(target).clamp(-2.0, 2.0),
        Head::LookAround => 1.5 * (1.2 * now).sin(),
        Head::Search => 1.2 * (1.8 * now).sin(),
    }
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(a: Point2<Field>, b: Point2<Field>, p: Point2<Field>) -> f64 {
    let ab = b - a;
    let l2 = ab.norm_squared();
    if l2 <= 0.0 {
        return a.distance(p);
    }
    let s = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    (a + ab * s).distance(p)
}

/// Whether `viewer` sees the ball (world frame) past the `others`.
pub fn sees_ball(
    viewer: &Body,
    ball: &Ball,
    others: &[Point2<Field>],
    p: &Perception,
    rng: &mut SplitMix64,
) -> bool {
    if viewer.is_down() {
        return false;
    }
    let pose = viewer.pose;
    let d = pose.position.distance(ball.position);
    if d > p.ball_range {
        return false;
    }
    let view = pose.yaw + viewer.head_yaw;
    let bearing = (ball.position - pose.position).angle();
    if wrap_pi(bearing - view).abs() > p.view_half_angle {
        return false;
    }
    let hidden = others.iter().any(|o| {
        o.distance(ball.position) > ROBOT_RADIUS
            && segment_distance(pose.position, ball.position, *o) < ROBOT_RADIUS * 0.8
    });
    !hidden && !rng.chance(p.ball_miss_rate)
}

/// A noisy copy of `p`: `sigma` metres of Gaussian noise on each axis.
pub fn noisy(p: Point2<Field>, sigma: f64, rng: &mut SplitMix64) -> Point2<Field> {
    Point2::new(p.x + rng.normal() * sigma, p.y + rng.normal() * sigma)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ball_is_seen_only_in_the_cone_in_range_and_unhidden() {
        let p = Perception {
            ball_miss_rate: 0.0,
            ..Perception::default()
        };
        let mut rng = SplitMix64::new(1);
        let viewer = Body::at(Pose2::new(0.0, 0.0, 0.0));
        let ahead = Ball::at(Point2::new(2.0, 0.0));
        assert!(sees_ball(&viewer, &ahead, &[], &p, &mut rng));
        let behind = Ball::at(Point2::new(-2.0, 0.0));
        assert!(!sees_ball(&viewer, &behind, &[], &p, &mut rng));
        let far = Ball::at(Point2::new(6.0, 0.0));
        assert!(!sees_ball(&viewer, &far, &[], &p, &mut rng));
        assert!(
            !sees_ball(&viewer, &ahead, &[Point2::new(1.0, 0.0)], &p, &mut rng),
            "hidden"
        );
        let mut down = viewer.clone();
        down.fall(0.0);
        assert!(!sees_ball(&down, &ahead, &[], &p, &mut rng));
    }

    #[test]
    fn heads_sweep_or_point() {
        let pose = Pose2::<Field>::new(0.0, 0.0, 0.0);
        assert_eq!(head_yaw(Head::LookForward, &pose, 3.0), 0.0);
        assert!(
            (head_yaw(Head::LookAt(Point2::new(0.0, 1.0)), &pose, 0.0)
                - std::f64::consts::FRAC_PI_2)
                .abs()
                < 1e-12
        );
        assert!(head_yaw(Head::Search, &pose, 0.5).abs() <= 1.2);
    }
}
