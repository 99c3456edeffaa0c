//! One input frame of `soccer heatmap` (`docs/src/commands/soccer-heatmap.md`). Absent keys take the defaults
//! shown there; `"game": null` / `"pose": null` mean none.

use crate::frame::{ObstacleJson, PointJson, PoseJson, SubState, Team};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The game state as the suggestor needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum GameStateName {
    /// Before the game.
    Initial,
    /// Walking to positions.
    Ready,
    /// Waiting for the kick-off.
    Set,
    /// Playing.
    #[default]
    Playing,
    /// Over.
    Finished,
}

/// The game controller's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields, default)]
pub struct HeatmapGame {
    /// `initial` .. `finished`; `playing` when absent.
    pub state: GameStateName,
    /// The set play in progress.
    pub sub_state: Option<SubState>,
    /// Kick-off or set-play team.
    pub kicking_team: Option<Team>,
    /// Own players penalized.
    pub penalized: Vec<u8>,
}

/// A local ball estimate, observed `age` seconds before the frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgedBall {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
    /// Age (s).
    #[serde(default)]
    pub age: f64,
}

/// A ball filter hypothesis.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HypotheticalBall {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
    /// Validity in [0, 1].
    pub validity: f64,
}

/// A teammate's last received State message with its time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeammateState {
    /// The teammate's number.
    pub player: u8,
    /// When the state was received (s).
    pub t: f64,
    /// Its pose.
    #[serde(default)]
    pub pose: Option<PoseJson>,
    /// Its head yaw relative to the body.
    #[serde(default)]
    pub head_yaw: f64,
    /// Its ball.
    #[serde(default)]
    pub ball: Option<PointJson>,
}

/// One heatmap input frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct HeatmapFrame {
    /// Frame time (s), non-decreasing.
    pub t: f64,
    /// Own number.
    pub player_number: u8,
    /// The goalkeeper's number from the behaviour (`null` = not yet assigned).
    #[serde(default = "default_keeper")]
    pub goalkeeper_player_number: Option<u8>,
    /// The game controller's state (`null` = none).
    #[serde(default = "default_game")]
    pub game: Option<HeatmapGame>,
    /// Own pose (`null` = not localized).
    #[serde(default = "default_pose")]
    pub pose: Option<PoseJson>,
    /// Head yaw relative to the body.
    pub head_yaw: f64,
    /// A local ball estimate.
    pub ball: Option<AgedBall>,
    /// Rule hypotheses `[x, y]`.
    pub rule_balls: Vec<[f64; 2]>,
    /// Ball filter hypotheses.
    pub hypothetical_balls: Vec<HypotheticalBall>,
    /// Obstacles.
    pub obstacles: Vec<ObstacleJson>,
    /// `last_received_player_states`.
    pub teammates: Vec<TeammateState>,
    /// `hsl_state_message_send_interval` (`null` = teammates not used).
    #[serde(default = "default_interval")]
    pub message_interval: Option<f64>,
    /// Parameters changed from this frame on.
    pub parameters: Option<serde_json::Map<String, serde_json::Value>>,
}

fn default_keeper() -> Option<u8> {
    Some(1)
}

fn default_game() -> Option<HeatmapGame> {
    Some(HeatmapGame::default())
}

fn default_pose() -> Option<PoseJson> {
    Some(PoseJson::default())
}

fn default_interval() -> Option<f64> {
    Some(3.0)
}

impl Default for HeatmapFrame {
    fn default() -> Self {
        Self {
            t: 0.0,
            player_number: 2,
            goalkeeper_player_number: default_keeper(),
            game: default_game(),
            pose: default_pose(),
            head_yaw: 0.0,
            ball: None,
            rule_balls: Vec::new(),
            hypothetical_balls: Vec::new(),
            obstacles: Vec::new(),
            teammates: Vec::new(),
            message_interval: default_interval(),
            parameters: None,
        }
    }
}

impl HeatmapFrame {
    /// Parses one JSON line; errors name the column and the field.
    pub fn parse(line: &str) -> Result<HeatmapFrame, crate::frame::FrameError> {
        let frame: HeatmapFrame = crate::frame::parse_json_line(line)?;
        frame.check().map_err(|e| e.located_in(line))?;
        Ok(frame)
    }

    /// Value rules the types cannot express.
    pub fn check(&self) -> Result<(), crate::frame::FrameError> {
        let bad = |field: &str, message: &str| {
            Err(crate::frame::FrameError {
                column: 0,
                field: field.to_owned(),
                message: message.to_owned(),
            })
        };
        let finite = |v: f64| v.is_finite();
        if !finite(self.t) {
            return bad("t", "must be finite");
        }
        if !(1..=7).contains(&self.player_number) {
            return bad("player_number", "must be in 1..=7");
        }
        if self
            .goalkeeper_player_number
            .is_some_and(|g| !(1..=7).contains(&g))
        {
            return bad("goalkeeper_player_number", "must be in 1..=7");
        }
        if let Some(p) = self.pose
            && !(finite(p.x) && finite(p.y) && finite(p.yaw))
        {
            return bad("pose", "must be finite");
        }
        if !finite(self.head_yaw) {
            return bad("head_yaw", "must be finite");
        }
        if let Some(b) = self.ball
            && !(finite(b.x) && finite(b.y) && finite(b.age) && b.age >= 0.0)
        {
            return bad("ball", "must be finite with age >= 0");
        }
        if let Some(i) = self
            .rule_balls
            .iter()
            .position(|b| !(finite(b[0]) && finite(b[1])))
        {
            return bad(&format!("rule_balls[{i}]"), "must be finite");
        }
        if let Some(i) = self.hypothetical_balls.iter().position(|h| {
            !(finite(h.x) && finite(h.y) && finite(h.validity) && (0.0..=1.0).contains(&h.validity))
        }) {
            return bad(
                &format!("hypothetical_balls[{i}]"),
                "must be finite with validity in [0, 1]",
            );
        }
        if let Some(i) = self
            .obstacles
            .iter()
            .position(|o| !(finite(o.x) && finite(o.y) && finite(o.radius) && o.radius >= 0.0))
        {
            return bad(
                &format!("obstacles[{i}]"),
                "must be finite with radius >= 0",
            );
        }
        if let Some(i) = self
            .teammates
            .iter()
            .position(|m| !(1..=7).contains(&m.player) || !finite(m.t))
        {
            return bad(
                &format!("teammates[{i}]"),
                "player must be in 1..=7 and t finite",
            );
        }
        if self
            .message_interval
            .is_some_and(|m| !(finite(m) && m >= 0.0))
        {
            return bad("message_interval", "must be finite and >= 0");
        }
        Ok(())
    }
}
