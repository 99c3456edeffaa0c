//! The RoboMaster map frame in single precision.
//!
//! The RoboMaster decisions must reproduce the original C++ package bit for bit, and it
//! computed in `f32`: its positions and poses are therefore [`MapPoint`] and [`MapPose`], plain
//! `f32` structs of the map frame (origin and axes of the competition map, metres, yaw from +x
//! towards +y), kept apart from the `f64` frame-typed [`Point2`](crate::Point2) of the soccer
//! code. With the `serde` feature they (de)serialise as `{"x", "y"}` and `{"x", "y", "yaw"}`.

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A position in the map frame in metres, single precision.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MapPoint {
    /// x in metres.
    pub x: f32,
    /// y in metres.
    pub y: f32,
}

impl MapPoint {
    /// From components.
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    /// The referee's "unknown position" marker (as the original reads it): x == 0 or y == 0.
    pub fn is_unknown(self) -> bool {
        self.x == 0.0 || self.y == 0.0
    }

    /// Euclidean distance in single precision: `sqrt(dx * dx + dy * dy)` with
    /// `d = other - self`, the original's operation order (not `hypot`).
    pub fn distance(self, other: MapPoint) -> f32 {
        let (dx, dy) = (other.x - self.x, other.y - self.y);
        (dx * dx + dy * dy).sqrt()
    }
}

/// A robot's pose in the map frame (TF map <- base_link), single precision.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize, schemars::JsonSchema),
    schemars(
        rename = "Pose",
        description = "Our pose in the map (TF map <- base_link)."
    )
)]
pub struct MapPose {
    /// x in metres.
    pub x: f32,
    /// y in metres.
    pub y: f32,
    /// Chassis yaw in radians.
    pub yaw: f32,
}

impl MapPose {
    /// From position and yaw.
    pub const fn new(x: f32, y: f32, yaw: f32) -> Self {
        Self { x, y, yaw }
    }

    /// The position without the yaw.
    pub fn position(self) -> MapPoint {
        MapPoint::new(self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_positions_and_distances() {
        assert!(MapPoint::new(0.0, 2.0).is_unknown());
        assert!(MapPoint::new(1.0, 0.0).is_unknown());
        assert!(!MapPoint::new(1.0, 2.0).is_unknown());
        assert_eq!(
            MapPoint::new(1.0, 1.0).distance(MapPoint::new(4.0, 5.0)),
            5.0
        );
        assert_eq!(
            MapPose::new(1.0, 2.0, 3.0).position(),
            MapPoint::new(1.0, 2.0)
        );
    }
}
