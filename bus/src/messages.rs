//! Message structs of the wire contract: the original `global_interface` messages field by
//! field, the Nav2 goal / status / feedback, our pose, and the viewer topics. Every message has
//! a `header` with a stamp; JSON field names are the .msg field names.

use robomaster_msgs::{game_stage, nav_status};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `builtin_interfaces/Time`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize, JsonSchema,
)]
pub struct Stamp {
    /// Whole seconds.
    pub sec: i32,
    /// Nanoseconds, 0..1e9.
    pub nanosec: u32,
}

impl Stamp {
    /// A stamp from seconds (simulated or wall-clock time).
    pub fn from_secs_f64(t: f64) -> Self {
        let sec = t.floor();
        let nanosec = ((t - sec) * 1e9).round().clamp(0.0, 999_999_999.0) as u32;
        Self {
            sec: sec.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32,
            nanosec,
        }
    }

    /// Seconds as f64.
    pub fn as_secs_f64(self) -> f64 {
        f64::from(self.sec) + f64::from(self.nanosec) * 1e-9
    }
}

/// `std_msgs/Header`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Header {
    /// When the message was stamped.
    pub stamp: Stamp,
    /// Coordinate frame (`map` for positions).
    #[serde(default)]
    pub frame_id: String,
}

impl Header {
    /// A header stamped at `t` seconds.
    pub fn at(t: f64) -> Self {
        Self {
            stamp: Stamp::from_secs_f64(t),
            frame_id: String::new(),
        }
    }
}

/// `global_interface/Point2f`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Point2f {
    /// x in metres; `null` is NaN (an invalid position, as CDR can carry and JSON cannot).
    #[serde(deserialize_with = "nan_if_null")]
    pub x: f32,
    /// y in metres; `null` is NaN.
    #[serde(deserialize_with = "nan_if_null")]
    pub y: f32,
}

/// A coordinate that JSON wrote as `null` (serde_json's text of a NaN) reads back as NaN.
fn nan_if_null<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f32, D::Error> {
    Ok(Option::<f32>::deserialize(deserializer)?.unwrap_or(f32::NAN))
}

/// `global_interface/ObjHP` on `obj_hp`: red 0..7 (hero, engineer, infantry 3..5, sentry,
/// outpost, base), blue 8..15.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct ObjHp {
    /// Stamp.
    pub header: Header,
    /// 16 HP values.
    pub hp: Vec<u16>,
}

/// `global_interface/CarPos` on `car_pos`: red 0..5 (R1..R5, R7), blue 6..11.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct CarPos {
    /// Stamp.
    pub header: Header,
    /// 12 positions in metres; x == 0 or y == 0 means unknown.
    pub pos: Vec<Point2f>,
}

/// `global_interface/GameInfo` on `game_info`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct GameInfo {
    /// Stamp.
    pub header: Header,
    /// Remaining seconds of the match.
    pub timestamp: f64,
    /// Game stage ([`GameInfo::STAGE_BATTLE`] in battle).
    pub game_stage: u8,
}

impl GameInfo {
    /// `game_stage` while the match is fought.
    pub const STAGE_BATTLE: u8 = game_stage::IN_BATTLE;
    /// `game_stage` after the match has ended (settlement).
    pub const STAGE_SETTLEMENT: u8 = game_stage::SETTLEMENT;
}

/// `global_interface/Serial` on `serial_msg`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Serial {
    /// Stamp.
    pub header: Header,
    /// The lower computer's current mode.
    pub mode: u8,
    /// Bullet speed in m/s (informational).
    #[serde(default)]
    pub bullet_speed: f32,
}

/// `global_interface/Decision` on `robot_decision/decision`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct DecisionMsg {
    /// Stamp.
    pub header: Header,
    /// The decision's id.
    pub decision_id: u8,
    /// Mode for the lower computer.
    pub mode: u8,
    /// Map x of the last waypoint of the decision's path (m).
    pub x: f32,
    /// Map y of the last waypoint of the decision's path (m).
    pub y: f32,
    /// Gimbal yaw to the aimed enemy relative to the chassis (rad, [-pi, pi]; 0 without target).
    pub theta: f32,
}

/// `global_interface/Detection`: one perceived robot.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Detection {
    /// Global unit index (car_pos order).
    pub id: u8,
    /// Position in the map.
    pub position: Point2f,
    /// Confidence 0..1.
    #[serde(default)]
    pub confidence: f32,
}

/// `global_interface/DetectionArray` on `perception_detector/perception_array`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct DetectionArray {
    /// Stamp.
    pub header: Header,
    /// One entry per robot seen (recorded only; not an input of the node).
    pub detections: Vec<Detection>,
}

/// `global_interface/Autoaim` on `armor_detector/armor_msg`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Autoaim {
    /// Stamp.
    pub header: Header,
    /// Gimbal yaw to the armour (radians).
    #[serde(default)]
    pub yaw: f32,
    /// Gimbal pitch to the armour (radians).
    #[serde(default)]
    pub pitch: f32,
    /// Whether the target is lost.
    pub is_target_lost: bool,
}

/// `std_msgs/Float32` on `robot_decision/aim_yaw`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Float32 {
    /// Stamp (ours; the original had none).
    pub header: Header,
    /// Absolute yaw from us to the aimed enemy (rad, [0, 2 pi) from +x toward +y).
    pub data: f32,
}

/// A planar pose: our `pose` topic (TF map <- base_link), and goal poses.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Pose2 {
    /// x in metres.
    pub x: f32,
    /// y in metres.
    pub y: f32,
    /// Yaw in radians.
    pub yaw: f32,
}

/// Our pose on `pose`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct PoseMsg {
    /// Stamp.
    pub header: Header,
    /// x in metres.
    pub x: f32,
    /// y in metres.
    pub y: f32,
    /// Chassis yaw in radians.
    pub yaw: f32,
}

/// The Nav2 `NavigateThroughPoses` goal on `navigate_through_poses/goal`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct NavGoal {
    /// Stamp.
    pub header: Header,
    /// Increments with every goal sent.
    pub goal_id: u64,
    /// The poses to drive through.
    pub poses: Vec<Pose2>,
}

/// A cancel request on `navigate_through_poses/cancel`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct NavCancel {
    /// Stamp.
    pub header: Header,
    /// The goal to cancel; [`NavCancel::ANY_GOAL`] cancels whatever goal Nav2 runs (a goal
    /// that is not ours).
    pub goal_id: u64,
}

impl NavCancel {
    /// The `goal_id` that cancels whatever goal runs.
    pub const ANY_GOAL: u64 = 0;
}

/// One `action_msgs/GoalStatus`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct GoalStatus {
    /// 0 unknown, 1 accepted, 2 executing, 3 canceling, 4 succeeded, 5 canceled, 6 aborted.
    pub status: u8,
    /// The goal it belongs to (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal_id: Option<u64>,
}

/// The codes are `robomaster_msgs`' ([`nav_status`]): defined once, for the bus and the
/// decisions that read them.
impl GoalStatus {
    /// `status` of a goal in no known state (also the value before any goal).
    pub const UNKNOWN: u8 = nav_status::UNKNOWN;
    /// `status` of an accepted goal that is not executing yet.
    pub const ACCEPTED: u8 = nav_status::ACCEPTED;
    /// `status` of an executing goal.
    pub const EXECUTING: u8 = nav_status::EXECUTING;
    /// `status` of a goal whose cancel was requested but has not finished.
    pub const CANCELING: u8 = nav_status::CANCELING;
    /// `status` of a goal that reached its last pose.
    pub const SUCCEEDED: u8 = nav_status::SUCCEEDED;
    /// `status` of a goal cancelled by a cancel request or a preempting goal.
    pub const CANCELED: u8 = nav_status::CANCELED;
    /// `status` of a goal aborted by the navigation (it cannot be reached or run).
    pub const ABORTED: u8 = nav_status::ABORTED;

    /// Whether `status` is a final one (succeeded, canceled, aborted): the goal is over.
    pub fn is_final(status: u8) -> bool {
        status == Self::SUCCEEDED || nav_status::ended_without_success(status)
    }
}

/// `action_msgs/GoalStatusArray` on `navigate_through_poses/_action/status`; the last entry counts.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct GoalStatusArray {
    /// Stamp (optional on the wire).
    #[serde(default)]
    pub header: Header,
    /// Statuses; the last entry counts.
    pub status_list: Vec<GoalStatus>,
}

/// Nav2 feedback on `navigate_through_poses/_action/feedback`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct NavFeedback {
    /// Stamp.
    pub header: Header,
    /// Where the robot is.
    pub current_pose: Pose2,
    /// Poses not yet reached.
    pub number_of_poses_remaining: u32,
    /// Metres left.
    pub distance_remaining: f32,
}
