//! The two team frames of the simulation: the world frame is the home team's field frame
//! (own goal at -x); the away team sees the field turned by pi.

use super::scenario::Side;
use geometry::{Field, Point2, Pose2, wrap_pi};

/// A world point in `side`'s field frame (and back: the map is its own inverse).
pub fn point_for(side: Side, p: Point2<Field>) -> Point2<Field> {
    match side {
        Side::Home => p,
        Side::Away => Point2::new(-p.x, -p.y),
    }
}

/// A world pose in `side`'s field frame (and back).
pub fn pose_for(side: Side, p: Pose2<Field>) -> Pose2<Field> {
    match side {
        Side::Home => p,
        Side::Away => Pose2 {
            position: Point2::new(-p.position.x, -p.position.y),
            yaw: wrap_pi(p.yaw + std::f64::consts::PI),
        },
    }
}

/// A world velocity in `side`'s frame (and back).
pub fn velocity_for(side: Side, v: [f64; 2]) -> [f64; 2] {
    match side {
        Side::Home => v,
        Side::Away => [-v[0], -v[1]],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_away_frame_is_turned_by_pi_and_its_own_inverse() {
        let p = Pose2::<Field>::new(1.0, 2.0, 0.5);
        let a = pose_for(Side::Away, p);
        assert_eq!((a.position.x, a.position.y), (-1.0, -2.0));
        let back = pose_for(Side::Away, a);
        assert!((back.yaw - 0.5).abs() < 1e-12);
        assert_eq!(point_for(Side::Home, p.position), p.position);
    }
}
