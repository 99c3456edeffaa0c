//! The topic catalogue: names without the leading slash; on Zenoh the key is
//! `<namespace>/<topic>`.

/// HP of every unit and structure.
pub const OBJ_HP: &str = "obj_hp";
/// Positions of every robot.
pub const CAR_POS: &str = "car_pos";
/// Remaining time and stage.
pub const GAME_INFO: &str = "game_info";
/// The lower computer's state.
pub const SERIAL_MSG: &str = "serial_msg";
/// Our pose in the map.
pub const POSE: &str = "pose";
/// Auto-aim detections.
pub const AUTOAIM: &str = "armor_detector/armor_msg";
/// Perceived robots.
pub const PERCEPTION: &str = "perception_detector/perception_array";
/// Nav2 goal status.
pub const NAV_STATUS: &str = "navigate_through_poses/_action/status";
/// Nav2 feedback.
pub const NAV_FEEDBACK: &str = "navigate_through_poses/_action/feedback";
/// Nav2 goal (ours: the action's goal request as a topic).
pub const NAV_GOAL: &str = "navigate_through_poses/goal";
/// Nav2 cancel (ours: the action's cancel request as a topic).
pub const NAV_CANCEL: &str = "navigate_through_poses/cancel";
/// The Decision message for the lower computer.
pub const DECISION: &str = "robot_decision/decision";
/// The absolute aim yaw.
pub const AIM_YAW: &str = "robot_decision/aim_yaw";
/// The tree layout (TreeSpec), published once and on change.
pub const TREE_LAYOUT: &str = "robot_decision/tree_layout";
/// The per-tick trace with why-not explanations (the `decide` result).
pub const TRACE: &str = "robot_decision/trace";
/// Node events: start, reload accepted / rejected, errors, counters.
pub const EVENTS: &str = "robot_decision/events";

/// The four topics the node joins with the approximate-time synchroniser.
pub const SYNCED_INPUTS: [&str; 4] = [OBJ_HP, CAR_POS, GAME_INFO, SERIAL_MSG];

/// Every input topic of the node.
pub const NODE_INPUTS: [&str; 8] = [
    OBJ_HP,
    CAR_POS,
    GAME_INFO,
    SERIAL_MSG,
    POSE,
    AUTOAIM,
    NAV_STATUS,
    NAV_FEEDBACK,
];

/// Every output topic of the node.
pub const NODE_OUTPUTS: [&str; 7] = [
    DECISION,
    AIM_YAW,
    NAV_GOAL,
    NAV_CANCEL,
    TREE_LAYOUT,
    TRACE,
    EVENTS,
];
