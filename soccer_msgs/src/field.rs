//! Positions on the field as the inputs carry them (field frame of the own team, own goal at
//! negative x; metres and radians): poses, points, the ball and obstacles.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A pose in field coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct PoseJson {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
    /// Heading (rad).
    pub yaw: f64,
}

/// A ball perceived this frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BallJson {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
    /// Velocity x (m/s).
    #[serde(default)]
    pub vx: f64,
    /// Velocity y (m/s).
    #[serde(default)]
    pub vy: f64,
}

/// A position without velocity.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PointJson {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
}

/// One of `obstacles`: a robot or post as a circle in field coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObstacleJson {
    /// Centre x (m).
    pub x: f64,
    /// Centre y (m).
    pub y: f64,
    /// Radius (m).
    pub radius: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ball_without_velocity_is_at_rest_and_unknown_keys_are_refused() {
        let ball: BallJson = serde_json::from_str(r#"{"x": 1.5, "y": -2}"#).expect("parses");
        assert_eq!((ball.x, ball.y, ball.vx, ball.vy), (1.5, -2.0, 0.0, 0.0));
        let bad = serde_json::from_str::<ObstacleJson>(r#"{"x": 0, "y": 0, "r": 1}"#);
        assert!(bad.is_err_and(|e| e.to_string().contains("`r`")));
        assert!(serde_json::from_str::<PoseJson>(r#"{"x": 0, "y": 0}"#).is_err());
    }
}
