//! The soccer profile's wire contract: topic names (the behaviour node's outputs as RoboCup soccer stacks name them, our inputs) and the
//! JSON payloads, each with a header stamp. A team shares one bus namespace (`home`); each
//! robot's topics live under `player_<N>/` ([`robot_topic`]) and the team's State messages on
//! one key every robot of the team subscribes to ([`TEAM_STATE`]).

use crate::messages::Header;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use soccer_msgs::{
    BallJson, GameState, MotionCommand, ObstacleJson, PointJson, PoseJson, PrimaryState,
    TeammateMessage,
};

/// Input: the game controller's state as this robot sees it, with its primary state.
pub const GAME_STATE: &str = "game_controller_state";
/// Input: the robot's field pose and head yaw.
pub const LOCALIZATION: &str = "localization";
/// Input: the ball perceived this cycle, and the rule ball.
pub const BALL: &str = "ball_state";
/// Input: perceived obstacles.
pub const OBSTACLES: &str = "obstacles";
/// Input: whether the robot lies on the ground and can get up.
pub const FALL_STATE: &str = "fall_state";
/// Input and output, team-wide: the State messages of every robot of the team.
pub const TEAM_STATE: &str = "team/state_message";
/// Output: the assembled motion command.
pub const MOTION_COMMAND: &str = "behavior/motion_command";
/// Output: the tree layout, published at start, on reload and every few seconds.
pub const TREE_LAYOUT: &str = "behavior/tree_layout";
/// Output: the result of each tree tick.
pub const TRACE: &str = "behavior/trace";
/// Output: the inputs and state the tree used (the frame: replay decides from it).
pub const BLACKBOARD: &str = "behavior/blackboard";
/// Output: node events (start, reload, malformed input, counters).
pub const EVENTS: &str = "behavior/events";
/// Output: the current State message send interval (`null` when not sending).
pub const SEND_INTERVAL: &str = "hsl_state_message_send_interval";
/// Output: the search heatmap, only while someone subscribes.
pub const HEATMAP: &str = "ball_search_heatmap";
/// Output: the search suggestor's target.
pub const SUGGESTED_SEARCH_POSITION: &str = "suggested_search_position";
/// Output: the heatmap's cell size (re-published every second and on change).
pub const SEARCH_CELL_SIZE: &str = "search_cell_size";

/// Every per-robot input topic (without the robot prefix).
pub const ROBOT_INPUTS: [&str; 5] = [GAME_STATE, LOCALIZATION, BALL, OBSTACLES, FALL_STATE];

/// Every per-robot output topic (without the robot prefix).
pub const ROBOT_OUTPUTS: [&str; 9] = [
    MOTION_COMMAND,
    TREE_LAYOUT,
    TRACE,
    BLACKBOARD,
    EVENTS,
    SEND_INTERVAL,
    HEATMAP,
    SUGGESTED_SEARCH_POSITION,
    SEARCH_CELL_SIZE,
];

/// The topic of robot `player`: `player_<N>/<topic>`.
pub fn robot_topic(player: u8, topic: &str) -> String {
    format!("player_{player}/{topic}")
}

/// The robot and the topic of a per-robot key (`player_3/ball_state` -> `(3, "ball_state")`).
pub fn split_robot_topic(topic: &str) -> Option<(u8, &str)> {
    let rest = topic.strip_prefix("player_")?;
    let (number, topic) = rest.split_once('/')?;
    Some((number.parse().ok()?, topic))
}

/// [`GAME_STATE`]: the game controller's state (`null` = none received) and the robot's
/// primary state.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameStateMsg {
    /// When the state was valid.
    pub header: Header,
    /// The robot's primary state.
    pub primary_state: PrimaryState,
    /// The filtered game-controller state.
    #[serde(default)]
    pub game: Option<GameState>,
}

/// [`LOCALIZATION`]: the field pose (`null` = not localized) and the head yaw.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LocalizationMsg {
    /// When the pose was estimated.
    pub header: Header,
    /// The pose in the field frame of the own team (own goal at negative x).
    #[serde(default)]
    pub pose: Option<PoseJson>,
    /// The head yaw relative to the body (rad).
    #[serde(default)]
    pub head_yaw: f64,
}

/// [`BALL`]: the ball perceived this cycle (`null` = none seen) and the rule ball.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BallMsg {
    /// When the ball was seen.
    pub header: Header,
    /// The ball in field coordinates.
    #[serde(default)]
    pub ball: Option<BallJson>,
    /// A ball position the rules imply (set plays, ready / set).
    #[serde(default)]
    pub rule_ball: Option<PointJson>,
}

/// [`OBSTACLES`]: the obstacles perceived this cycle.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObstaclesMsg {
    /// When they were seen.
    pub header: Header,
    /// Circles in field coordinates.
    #[serde(default)]
    pub obstacles: Vec<ObstacleJson>,
}

/// [`FALL_STATE`]: the robot's fall state.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FallStateMsg {
    /// When it was measured.
    pub header: Header,
    /// The robot lies on the ground.
    #[serde(default)]
    pub fallen: bool,
    /// Fall recovery is available now.
    #[serde(default)]
    pub stand_up_available: bool,
}

/// [`TEAM_STATE`]: one robot's State message to its team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamStateMsg {
    /// When it was sent.
    pub header: Header,
    /// The message (sender number, pose, head yaw, ball, ball age).
    pub message: TeammateMessage,
}

/// [`MOTION_COMMAND`]: the command for the motion layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MotionCommandMsg {
    /// The tick's time.
    pub header: Header,
    /// The sender's number.
    pub player: u8,
    /// Body and head motion.
    pub command: MotionCommand,
}

/// [`SEND_INTERVAL`]: the State message interval in seconds (`null` = not sending).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct SendIntervalMsg {
    /// The tick's time.
    pub header: Header,
    /// Seconds between State messages.
    pub interval: Option<f64>,
}

/// [`HEATMAP`]: the search heatmap, `length` x `width` cells, row-major values.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct HeatmapMsg {
    /// The tick's time.
    pub header: Header,
    /// Cells along the field's length (x).
    pub length: usize,
    /// Cells along its width (y).
    pub width: usize,
    /// Priorities, row by row (cell `(i, j)` at `j * length + i`).
    pub values: Vec<f64>,
}

/// [`SUGGESTED_SEARCH_POSITION`]: the search target (`null` = none).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct SearchPositionMsg {
    /// The tick's time.
    pub header: Header,
    /// The chosen cell's centre `[x, y]`.
    pub position: Option<[f64; 2]>,
}

/// [`SEARCH_CELL_SIZE`]: the heatmap's cell size in metres.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct CellSizeMsg {
    /// When it was published.
    pub header: Header,
    /// Cell length (x) and width (y).
    pub cell_size: [f64; 2],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robot_topics_split_back() {
        let topic = robot_topic(3, BALL);
        assert_eq!(topic, "player_3/ball_state");
        assert_eq!(split_robot_topic(&topic), Some((3, BALL)));
        assert_eq!(split_robot_topic("player_x/ball_state"), None);
        assert_eq!(split_robot_topic(TEAM_STATE), None);
    }

    #[test]
    fn inputs_refuse_unknown_fields() {
        let bad = crate::decode::<FallStateMsg>(
            FALL_STATE,
            br#"{"header":{"stamp":{"sec":1,"nanosec":0}},"falen":true}"#,
        );
        assert!(bad.is_err_and(|e| e.to_string().contains("falen")));
    }
}
