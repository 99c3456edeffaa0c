//! The ROS 2 message types, each a struct whose fields are the `.msg` fields in order with
//! the CDR types of the ROS IDL mapping (`uint16[16]` is `[u16; 16]`, without a length;
//! `Detection[]` a `Vec`, with one). `std_msgs/Header` is [`crate::messages::Header`], whose
//! layout (`builtin_interfaces/Time stamp`, `string frame_id`) is already the ROS one.

use crate::messages::Header;
use serde::{Deserialize, Serialize};

/// `geometry_msgs/Point`: a position in metres.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Point {
    /// x in metres.
    pub x: f64,
    /// y in metres.
    pub y: f64,
    /// z in metres.
    pub z: f64,
}

/// `geometry_msgs/Vector3`: a free vector (m/s, rad/s, m/s^2 by use).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Vector3 {
    /// x component.
    pub x: f64,
    /// y component.
    pub y: f64,
    /// z component.
    pub z: f64,
}

/// `geometry_msgs/Quaternion`: an orientation; the default is the identity (`w` = 1, as the
/// ROS 2 definition declares).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Quaternion {
    /// x of the vector part.
    pub x: f64,
    /// y of the vector part.
    pub y: f64,
    /// z of the vector part.
    pub z: f64,
    /// The scalar part.
    pub w: f64,
}

impl Default for Quaternion {
    fn default() -> Self {
        Self::from_yaw(0.0)
    }
}

impl Quaternion {
    /// The rotation by `yaw` radians about +z (a planar heading).
    pub fn from_yaw(yaw: f64) -> Self {
        let (s, c) = (yaw / 2.0).sin_cos();
        Self {
            x: 0.0,
            y: 0.0,
            z: s,
            w: c,
        }
    }

    /// The heading about +z of this rotation, radians in [-pi, pi].
    pub fn yaw(&self) -> f64 {
        let siny_cosp = 2.0 * (self.w * self.z + self.x * self.y);
        let cosy_cosp = 1.0 - 2.0 * (self.y * self.y + self.z * self.z);
        siny_cosp.atan2(cosy_cosp)
    }
}

/// `geometry_msgs/Pose`: position and orientation.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Pose {
    /// Where, in metres.
    pub position: Point,
    /// Which way it faces.
    pub orientation: Quaternion,
}

/// `geometry_msgs/PoseStamped`: a pose in the header's frame (Nav2 goal poses, frame
/// `map_decision`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PoseStamped {
    /// Stamp and frame of the pose.
    pub header: Header,
    /// The pose.
    pub pose: Pose,
}

/// `sensor_msgs/Imu`: orientation, angular velocity and linear acceleration with their
/// covariances (row-major 3 x 3; -1 in the first element: not provided).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Imu {
    /// Stamp and frame of the measurement.
    pub header: Header,
    /// Orientation estimate.
    pub orientation: Quaternion,
    /// Its covariance.
    pub orientation_covariance: [f64; 9],
    /// Angular velocity, rad/s.
    pub angular_velocity: Vector3,
    /// Its covariance.
    pub angular_velocity_covariance: [f64; 9],
    /// Linear acceleration, m/s^2.
    pub linear_acceleration: Vector3,
    /// Its covariance.
    pub linear_acceleration_covariance: [f64; 9],
}

/// `global_interface/Point2f`: a point on the field map, metres.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Point2f {
    /// x in metres.
    pub x: f32,
    /// y in metres.
    pub y: f32,
}

/// `global_interface/ObjHP` (topic `/obj_hp`): every robot's and structure's hit points,
/// 0-7 red (hero, engineer, infantry 3, 4, 5, sentry, outpost, base), 8-15 blue.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ObjHP {
    /// Stamp of the referee reading.
    pub header: Header,
    /// Hit points by slot.
    pub hp: [u16; 16],
}

/// `global_interface/CarPos` (topic `/car_pos`): robot positions, 0-5 red R1-R5, R7; 6-11
/// blue B1-B5, B7; `(0, 0)` is unknown.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CarPos {
    /// Stamp of the positions.
    pub header: Header,
    /// Positions by slot.
    pub pos: [Point2f; 12],
}

/// `global_interface/GameInfo` (topic `/game_info`): the match clock and stage.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct GameInfo {
    /// Stamp of the referee reading.
    pub header: Header,
    /// Remaining seconds of the stage.
    pub timestamp: u16,
    /// 0 not started, 1 preparation, 2 self-check, 3 countdown, 4 in battle, 5 end.
    pub game_stage: u16,
}

/// `global_interface/Serial` (topic `/serial_msg`): what the lower computer reports.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Serial {
    /// Stamp of the report.
    pub header: Header,
    /// The gimbal IMU.
    pub imu: Imu,
    /// Robot mode (8: auto-aim).
    pub mode: u8,
    /// Gimbal angle the lower computer reports, radians.
    pub theta: f32,
    /// Measured bullet speed, m/s.
    pub bullet_speed: f32,
}

/// `global_interface/Decision` (topic `robot_decision/decision`): the decision in effect and
/// the aim.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Decision {
    /// Stamp of the tick.
    pub header: Header,
    /// The decision's id.
    pub decision_id: u8,
    /// Target waypoint x, metres.
    pub x: f32,
    /// Target waypoint y, metres.
    pub y: f32,
    /// Gimbal yaw relative to the chassis, radians (0 without a target).
    pub theta: f32,
    /// The decision's robot mode.
    pub mode: u8,
}

/// `global_interface/Detection`: one detected robot.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Detection {
    /// Stamp of the frame.
    pub header: Header,
    /// Confidence, 0 to 1.
    pub conf: f32,
    /// The detector's class name.
    #[serde(rename = "type")]
    pub kind: String,
    /// Where the robot is.
    pub center: Pose,
}

/// `global_interface/DetectionArray` (topic `perception_detector/perception_array`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DetectionArray {
    /// Stamp of the frame.
    pub header: Header,
    /// Every detection of the frame.
    pub detections: Vec<Detection>,
}

/// `global_interface/Autoaim` (topic `/armor_detector/armor_msg`): the auto-aim detector's
/// state; the decision reads `is_target_lost`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Autoaim {
    /// Stamp of the frame.
    pub header: Header,
    /// Aim mode.
    pub mode: u8,
    /// Target key (armour class).
    pub key: String,
    /// Target hit points.
    pub hp: u16,
    /// Spin period, s.
    pub period: f64,
    /// Bullet speed, m/s.
    pub bullet_speed: f64,
    /// Detector timestamp.
    pub timestamp: i64,
    /// Armour corners in the image, pixels.
    pub point2d: [Point2f; 4],
    /// The target spins clockwise.
    pub clockwise: bool,
    /// The target spins.
    pub is_spinning: bool,
    /// The gimbal is under auto-aim control.
    pub is_controlled: bool,
    /// No target in view.
    pub is_target_lost: bool,
    /// The target changed this frame.
    pub target_switched: bool,
    /// The spin state changed this frame.
    pub spinning_switched: bool,
    /// Still spinning.
    pub is_still_spinning: bool,
    /// IMU orientation at the frame.
    pub quat_imu: Quaternion,
    /// Aim point in the world frame, metres.
    pub aiming_point_world: Point,
    /// Aim point in the camera frame, metres.
    pub aiming_point_cam: Point,
}

/// `global_interface/ModeSet` (later versions of the original): a mode request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ModeSet {
    /// Stamp of the request.
    pub header: Header,
    /// Requested mode.
    pub mode: u16,
    /// x, metres.
    pub x: f32,
    /// y, metres.
    pub y: f32,
}

/// `global_interface/StrikeLicensing` (later versions of the original, topic
/// `robot_decision/strikeLicensing`): per-target strike weights.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StrikeLicensing {
    /// Stamp of the tick.
    pub header: Header,
    /// One weight per enemy unit.
    pub weights: [f32; 6],
}

/// `builtin_interfaces/Duration`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RosDuration {
    /// Whole seconds.
    pub sec: i32,
    /// Nanoseconds, 0..1e9.
    pub nanosec: u32,
}

/// `geometry_msgs/Transform`: where a child frame is in its parent.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Transform {
    /// The child's origin in the parent, metres.
    pub translation: Vector3,
    /// The child's orientation in the parent.
    pub rotation: Quaternion,
}

/// `geometry_msgs/TransformStamped`: `header.frame_id` is the parent, `child_frame_id` the
/// child.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TransformStamped {
    /// Stamp and parent frame.
    pub header: Header,
    /// The child frame.
    pub child_frame_id: String,
    /// The child's pose in the parent.
    pub transform: Transform,
}

/// `tf2_msgs/TFMessage` (topics `/tf` and `/tf_static`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TfMessage {
    /// The transforms of the message.
    pub transforms: Vec<TransformStamped>,
}

/// `std_msgs/String`: the runtime's own topics (trace, layout, events) carry their JSON in it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StringMsg {
    /// The text.
    pub data: String,
}

/// `std_msgs/Float32` (topic `robot_decision/aim_yaw`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Float32Msg {
    /// The value.
    pub data: f32,
}

/// `unique_identifier_msgs/UUID`: 16 bytes naming an action goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Uuid {
    /// The bytes.
    pub uuid: [u8; 16],
}

/// `action_msgs/GoalInfo`: a goal's UUID and when it was accepted.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct GoalInfo {
    /// The goal's UUID.
    pub goal_id: Uuid,
    /// When the server accepted it.
    pub stamp: crate::messages::Stamp,
}

/// `action_msgs/GoalStatus`: one goal's state (0 unknown .. 6 aborted, as
/// [`crate::messages::GoalStatus`]).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct GoalStatusEntry {
    /// Which goal.
    pub goal_info: GoalInfo,
    /// Its state.
    pub status: i8,
}

/// `action_msgs/GoalStatusArray` (an action's `_action/status` topic).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct GoalStatusList {
    /// Every goal the server tracks.
    pub status_list: Vec<GoalStatusEntry>,
}

/// The goal of `nav2_msgs/action/NavigateThroughPoses` (Humble and Jazzy).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NavigateThroughPosesGoal {
    /// The poses to drive through, in order.
    pub poses: Vec<PoseStamped>,
    /// The behaviour tree to use; empty for Nav2's default.
    pub behavior_tree: String,
}

/// The result of `NavigateThroughPoses` in Humble: `std_msgs/Empty`, which CDR carries as one
/// placeholder byte.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct NavigateThroughPosesResult {
    /// The IDL's placeholder member of an empty structure.
    pub structure_needs_at_least_one_member: u8,
}

/// The result of `NavigateThroughPoses` in Jazzy: Nav2's error code (0: none) and message.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NavigateThroughPosesResultJazzy {
    /// `NONE` (0) or one of Nav2's error codes.
    pub error_code: u16,
    /// What went wrong, empty without an error.
    pub error_msg: String,
}

/// The feedback of `NavigateThroughPoses` (Humble and Jazzy).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NavigateThroughPosesFeedback {
    /// Where the robot is.
    pub current_pose: PoseStamped,
    /// Time since the goal started.
    pub navigation_time: RosDuration,
    /// Nav2's estimate of the time left.
    pub estimated_time_remaining: RosDuration,
    /// Recoveries run so far.
    pub number_of_recoveries: i16,
    /// Metres left along the path.
    pub distance_remaining: f32,
    /// Poses not yet reached.
    pub number_of_poses_remaining: i16,
}

/// `NavigateThroughPoses_FeedbackMessage`: the feedback with its goal's UUID, as the action's
/// `_action/feedback` topic carries it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NavigateThroughPosesFeedbackMessage {
    /// The goal's UUID.
    pub goal_id: Uuid,
    /// The feedback.
    pub feedback: NavigateThroughPosesFeedback,
}

/// A ROS 2 message type: its fully qualified name (`global_interface/msg/ObjHP`), as rmw key
/// expressions and type descriptions name it.
pub trait RosMessage: Serialize + for<'de> Deserialize<'de> {
    /// `package/msg/Name`.
    const TYPE_NAME: &'static str;
}

macro_rules! ros_types {
    ($($ty:ty => $name:literal),* $(,)?) => {
        $(impl RosMessage for $ty {
            const TYPE_NAME: &'static str = $name;
        })*
    };
}

ros_types! {
    Point => "geometry_msgs/msg/Point",
    Vector3 => "geometry_msgs/msg/Vector3",
    Quaternion => "geometry_msgs/msg/Quaternion",
    Pose => "geometry_msgs/msg/Pose",
    PoseStamped => "geometry_msgs/msg/PoseStamped",
    Imu => "sensor_msgs/msg/Imu",
    Point2f => "global_interface/msg/Point2f",
    ObjHP => "global_interface/msg/ObjHP",
    CarPos => "global_interface/msg/CarPos",
    GameInfo => "global_interface/msg/GameInfo",
    Serial => "global_interface/msg/Serial",
    Decision => "global_interface/msg/Decision",
    Detection => "global_interface/msg/Detection",
    DetectionArray => "global_interface/msg/DetectionArray",
    Autoaim => "global_interface/msg/Autoaim",
    ModeSet => "global_interface/msg/ModeSet",
    StrikeLicensing => "global_interface/msg/StrikeLicensing",
    RosDuration => "builtin_interfaces/msg/Duration",
    Transform => "geometry_msgs/msg/Transform",
    TransformStamped => "geometry_msgs/msg/TransformStamped",
    TfMessage => "tf2_msgs/msg/TFMessage",
    StringMsg => "std_msgs/msg/String",
    Float32Msg => "std_msgs/msg/Float32",
    Uuid => "unique_identifier_msgs/msg/UUID",
    GoalInfo => "action_msgs/msg/GoalInfo",
    GoalStatusEntry => "action_msgs/msg/GoalStatus",
    GoalStatusList => "action_msgs/msg/GoalStatusArray",
    NavigateThroughPosesGoal => "nav2_msgs/action/NavigateThroughPoses_Goal",
    NavigateThroughPosesResult => "nav2_msgs/action/NavigateThroughPoses_Result",
    NavigateThroughPosesResultJazzy => "nav2_msgs/action/NavigateThroughPoses_Result",
    NavigateThroughPosesFeedback => "nav2_msgs/action/NavigateThroughPoses_Feedback",
    NavigateThroughPosesFeedbackMessage => "nav2_msgs/action/NavigateThroughPoses_FeedbackMessage",
}

/// The DDS name of a ROS type as rmw key expressions carry it:
/// `global_interface/msg/ObjHP` -> `global_interface::msg::dds_::ObjHP_`.
pub fn dds_type_name(type_name: &str) -> String {
    match type_name.rsplit_once('/') {
        Some((package_and_kind, name)) => {
            format!("{}::dds_::{name}_", package_and_kind.replace('/', "::"))
        }
        None => format!("{type_name}_"),
    }
}
