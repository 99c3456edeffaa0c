//! Conversions between the runtime's messages ([`crate::messages`]) and the ROS 2 types
//! ([`super::msg`]): `From` where every value fits, `TryFrom` with a [`ConvertError`] naming
//! the field where it may not (a slot count other than the fixed array's, a stage or clock
//! outside `uint16`, a goal pose that is not finite).

use super::msg;
use crate::messages;

/// A runtime message that has no faithful ROS 2 form.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{type_name}.{field}: {reason}")]
pub struct ConvertError {
    /// The ROS type being made or read.
    pub type_name: &'static str,
    /// The offending field.
    pub field: &'static str,
    /// What is wrong with its value.
    pub reason: String,
}

fn error(type_name: &'static str, field: &'static str, reason: String) -> ConvertError {
    ConvertError {
        type_name,
        field,
        reason,
    }
}

/// The fixed-size array of `values`, or an error when the count differs.
fn exact<T: Copy + Default, const N: usize>(
    values: &[T],
    type_name: &'static str,
    field: &'static str,
) -> Result<[T; N], ConvertError> {
    <[T; N]>::try_from(values).map_err(|_| {
        error(
            type_name,
            field,
            format!("{} values where the message has exactly {N}", values.len()),
        )
    })
}

impl From<messages::Point2f> for msg::Point2f {
    fn from(p: messages::Point2f) -> Self {
        Self { x: p.x, y: p.y }
    }
}

impl From<msg::Point2f> for messages::Point2f {
    fn from(p: msg::Point2f) -> Self {
        Self { x: p.x, y: p.y }
    }
}

impl TryFrom<&messages::ObjHp> for msg::ObjHP {
    type Error = ConvertError;
    fn try_from(m: &messages::ObjHp) -> Result<Self, ConvertError> {
        Ok(Self {
            header: m.header.clone(),
            hp: exact(&m.hp, "global_interface/msg/ObjHP", "hp")?,
        })
    }
}

impl From<&msg::ObjHP> for messages::ObjHp {
    fn from(m: &msg::ObjHP) -> Self {
        Self {
            header: m.header.clone(),
            hp: m.hp.to_vec(),
        }
    }
}

impl TryFrom<&messages::CarPos> for msg::CarPos {
    type Error = ConvertError;
    fn try_from(m: &messages::CarPos) -> Result<Self, ConvertError> {
        let pos: [messages::Point2f; 12] = exact(&m.pos, "global_interface/msg/CarPos", "pos")?;
        Ok(Self {
            header: m.header.clone(),
            pos: pos.map(msg::Point2f::from),
        })
    }
}

impl From<&msg::CarPos> for messages::CarPos {
    fn from(m: &msg::CarPos) -> Self {
        Self {
            header: m.header.clone(),
            pos: m.pos.iter().copied().map(messages::Point2f::from).collect(),
        }
    }
}

impl TryFrom<&messages::GameInfo> for msg::GameInfo {
    type Error = ConvertError;
    /// The remaining time is rounded to whole seconds, as the referee system counts.
    fn try_from(m: &messages::GameInfo) -> Result<Self, ConvertError> {
        const NAME: &str = "global_interface/msg/GameInfo";
        let seconds = m.timestamp.round();
        if !(0.0..=f64::from(u16::MAX)).contains(&seconds) {
            return Err(error(
                NAME,
                "timestamp",
                format!("{} s is outside uint16", m.timestamp),
            ));
        }
        Ok(Self {
            header: m.header.clone(),
            // In range by the check above.
            timestamp: seconds as u16,
            game_stage: u16::from(m.game_stage),
        })
    }
}

impl TryFrom<&msg::GameInfo> for messages::GameInfo {
    type Error = ConvertError;
    fn try_from(m: &msg::GameInfo) -> Result<Self, ConvertError> {
        let game_stage = u8::try_from(m.game_stage).map_err(|_| {
            error(
                "global_interface/msg/GameInfo",
                "game_stage",
                format!(
                    "{} does not fit the runtime's stage byte (0 to 255)",
                    m.game_stage
                ),
            )
        })?;
        Ok(Self {
            header: m.header.clone(),
            timestamp: f64::from(m.timestamp),
            game_stage,
        })
    }
}

impl From<&messages::Serial> for msg::Serial {
    /// The runtime has no IMU reading: the IMU says so (-1 as the first element of each
    /// covariance, `sensor_msgs/Imu`'s "not provided"); `theta` is 0.
    fn from(m: &messages::Serial) -> Self {
        let mut imu = msg::Imu::default();
        imu.orientation_covariance[0] = -1.0;
        imu.angular_velocity_covariance[0] = -1.0;
        imu.linear_acceleration_covariance[0] = -1.0;
        Self {
            header: m.header.clone(),
            imu,
            mode: m.mode,
            theta: 0.0,
            bullet_speed: m.bullet_speed,
        }
    }
}

impl From<&msg::Serial> for messages::Serial {
    fn from(m: &msg::Serial) -> Self {
        Self {
            header: m.header.clone(),
            mode: m.mode,
            bullet_speed: m.bullet_speed,
        }
    }
}

impl From<&messages::DecisionMsg> for msg::Decision {
    fn from(m: &messages::DecisionMsg) -> Self {
        Self {
            header: m.header.clone(),
            decision_id: m.decision_id,
            x: m.x,
            y: m.y,
            theta: m.theta,
            mode: m.mode,
        }
    }
}

impl From<&msg::Decision> for messages::DecisionMsg {
    fn from(m: &msg::Decision) -> Self {
        Self {
            header: m.header.clone(),
            decision_id: m.decision_id,
            mode: m.mode,
            x: m.x,
            y: m.y,
            theta: m.theta,
        }
    }
}

impl From<&msg::Autoaim> for messages::Autoaim {
    /// Only `is_target_lost` is read by the decision; yaw and pitch are ours and stay 0.
    fn from(m: &msg::Autoaim) -> Self {
        Self {
            header: m.header.clone(),
            yaw: 0.0,
            pitch: 0.0,
            is_target_lost: m.is_target_lost,
        }
    }
}

impl From<&messages::Autoaim> for msg::Autoaim {
    fn from(m: &messages::Autoaim) -> Self {
        Self {
            header: m.header.clone(),
            is_target_lost: m.is_target_lost,
            ..Self::default()
        }
    }
}

/// The Nav2 goal poses of `goal` as `PoseStamped`s in `frame` (the original uses
/// `map_decision`), each heading as a rotation about +z.
pub fn goal_poses(
    goal: &messages::NavGoal,
    frame: &str,
) -> Result<Vec<msg::PoseStamped>, ConvertError> {
    goal.poses
        .iter()
        .map(|p| {
            if !(p.x.is_finite() && p.y.is_finite() && p.yaw.is_finite()) {
                return Err(error(
                    "geometry_msgs/msg/PoseStamped",
                    "pose",
                    format!("({}, {}, {}) is not finite", p.x, p.y, p.yaw),
                ));
            }
            Ok(pose_stamped(p, goal.header.stamp, frame))
        })
        .collect()
}

/// A planar pose as a `PoseStamped` in `frame` at `stamp`, the heading a rotation about +z.
pub fn pose_stamped(p: &messages::Pose2, stamp: messages::Stamp, frame: &str) -> msg::PoseStamped {
    msg::PoseStamped {
        header: messages::Header {
            stamp,
            frame_id: frame.to_owned(),
        },
        pose: msg::Pose {
            position: msg::Point {
                x: f64::from(p.x),
                y: f64::from(p.y),
                z: 0.0,
            },
            orientation: msg::Quaternion::from_yaw(f64::from(p.yaw)),
        },
    }
}

/// The planar part of a pose: x, y and the heading of its orientation.
pub fn planar(p: &msg::Pose) -> messages::Pose2 {
    messages::Pose2 {
        x: p.position.x as f32,
        y: p.position.y as f32,
        yaw: p.orientation.yaw() as f32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::Header;

    #[test]
    fn runtime_messages_round_trip_through_the_ros_types() {
        let hp = messages::ObjHp {
            header: Header::at(2.5),
            hp: (0..16).map(|i| i * 10).collect(),
        };
        let ros = msg::ObjHP::try_from(&hp).expect("16 slots");
        assert_eq!(messages::ObjHp::from(&ros), hp);
        let cars = messages::CarPos {
            header: Header::at(2.5),
            pos: (0..12)
                .map(|i| messages::Point2f {
                    x: i as f32,
                    y: 1.0,
                })
                .collect(),
        };
        let ros = msg::CarPos::try_from(&cars).expect("12 slots");
        assert_eq!(messages::CarPos::from(&ros), cars);
        let decision = messages::DecisionMsg {
            header: Header::at(1.0),
            decision_id: 13,
            mode: 8,
            x: 1.0,
            y: 2.0,
            theta: -0.5,
        };
        assert_eq!(
            messages::DecisionMsg::from(&msg::Decision::from(&decision)),
            decision
        );
    }

    #[test]
    fn a_serial_without_imu_says_the_imu_is_not_provided() {
        let serial = msg::Serial::from(&messages::Serial {
            header: Header::at(1.0),
            mode: 8,
            bullet_speed: 27.0,
        });
        assert_eq!(serial.imu.orientation_covariance[0], -1.0);
        assert_eq!(serial.imu.angular_velocity_covariance[0], -1.0);
        assert_eq!(serial.imu.linear_acceleration_covariance[0], -1.0);
        assert_eq!(messages::Serial::from(&serial).mode, 8);
    }

    #[test]
    fn values_without_a_ros_form_name_the_field() {
        let short = messages::ObjHp {
            header: Header::default(),
            hp: vec![1; 15],
        };
        let e = msg::ObjHP::try_from(&short).expect_err("15 slots");
        assert_eq!(
            e.to_string(),
            "global_interface/msg/ObjHP.hp: 15 values where the message has exactly 16"
        );
        let late = messages::GameInfo {
            header: Header::default(),
            timestamp: 70_000.0,
            game_stage: 4,
        };
        assert_eq!(
            msg::GameInfo::try_from(&late).expect_err("too long").field,
            "timestamp"
        );
        let nan = messages::GameInfo {
            timestamp: f64::NAN,
            ..late
        };
        assert!(msg::GameInfo::try_from(&nan).is_err());
        let odd_stage = msg::GameInfo {
            game_stage: 300,
            ..msg::GameInfo::default()
        };
        assert_eq!(
            messages::GameInfo::try_from(&odd_stage)
                .expect_err("stage")
                .field,
            "game_stage"
        );
        let rounded = msg::GameInfo::try_from(&messages::GameInfo {
            header: Header::default(),
            timestamp: 419.6,
            game_stage: 4,
        })
        .expect("in range");
        assert_eq!(rounded.timestamp, 420);
    }

    #[test]
    fn goal_poses_carry_the_frame_and_the_heading() {
        let goal = messages::NavGoal {
            header: Header::at(4.0),
            goal_id: 1,
            poses: vec![messages::Pose2 {
                x: 1.0,
                y: 2.0,
                yaw: 1.5,
            }],
        };
        let poses = goal_poses(&goal, "map_decision").expect("finite");
        assert_eq!(poses[0].header.frame_id, "map_decision");
        assert!((poses[0].pose.orientation.yaw() - 1.5).abs() < 1e-9);
        assert_eq!(poses[0].pose.position.y, 2.0);
        let bad = messages::NavGoal {
            poses: vec![messages::Pose2 {
                x: f32::NAN,
                y: 0.0,
                yaw: 0.0,
            }],
            ..goal
        };
        assert!(goal_poses(&bad, "map_decision").is_err());
    }
}
