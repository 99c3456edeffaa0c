//! One input frame of `soccer decide` (`docs/src/formats/soccer-frame.md`): the whole state the behaviour
//! sees, as JSON. Absent keys take their defaults; an explicit `null` for `game` or
//! `pose` means "none" (no game-controller state, not localized).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
/// The frame's parts are the soccer messages' types (the topics carry them as they are).
pub use soccer_msgs::{
    BallJson, Foot, GamePhase, GameState, ObstacleJson, PointJson, PoseJson, PrimaryState,
    SubState, Team, TeammateMessage,
};

/// A remote-control command from the operator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum RemoteCommand {
    /// Walk with `[vx, vy, vyaw]`.
    Walk([f64; 3]),
    /// Kick with this foot.
    Kick(Foot),
}

/// One input frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Frame {
    /// Frame time (s), non-decreasing.
    pub t: f64,
    /// Own player number, 1..=7.
    pub player_number: u8,
    /// The robot's state machine above the game states (`playing` when absent).
    pub primary_state: PrimaryState,
    /// False while the current motion may not yet be left.
    pub motion_switch_allowed: bool,
    /// The robot lies on the ground.
    pub fallen: bool,
    /// Fall recovery is available now.
    pub stand_up_available: bool,
    /// An operator's command (used only when enabled in the parameters).
    pub remote_control: Option<RemoteCommand>,
    /// The game controller's state (`null` = none).
    #[serde(default = "default_game")]
    pub game: Option<GameState>,
    /// The robot's field pose (`null` = not localized).
    #[serde(default = "default_pose")]
    pub pose: Option<PoseJson>,
    /// The current head yaw relative to the body.
    pub head_yaw: f64,
    /// The ball perceived this frame (local).
    pub ball: Option<BallJson>,
    /// A ball position generated from the rules.
    pub rule_ball: Option<PointJson>,
    /// Obstacles (robots, posts) as circles.
    pub obstacles: Vec<ObstacleJson>,
    /// State messages received since the previous frame.
    pub teammate_messages: Vec<TeammateMessage>,
    /// The search suggestor's target.
    pub search_target: Option<[f64; 2]>,
    /// The suggestor's `[cell_length, cell_width]` (retained).
    pub search_cell_size: Option<[f64; 2]>,
}

fn default_game() -> Option<GameState> {
    Some(GameState::default())
}

fn default_pose() -> Option<PoseJson> {
    Some(PoseJson::default())
}

impl Default for Frame {
    fn default() -> Self {
        Self {
            t: 0.0,
            player_number: 1,
            primary_state: PrimaryState::Playing,
            motion_switch_allowed: true,
            fallen: false,
            stand_up_available: false,
            remote_control: None,
            game: default_game(),
            pose: default_pose(),
            head_yaw: 0.0,
            ball: None,
            rule_ball: None,
            obstacles: Vec::new(),
            teammate_messages: Vec::new(),
            search_target: None,
            search_cell_size: None,
        }
    }
}

/// A frame line that cannot be used: where and which field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: `{field}`: {message}")]
pub struct FrameError {
    /// 1-based column in the line (0 when not known yet: see [`FrameError::located_in`]).
    pub column: usize,
    /// The offending field's path (`game.players[2]`).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl FrameError {
    /// The error with its column found in `line` when it has none: a range rule names the
    /// field (`game.players[2]`), and the column is where that value stands in the line (else
    /// where its deepest existing parent stands).
    pub fn located_in(mut self, line: &str) -> Self {
        if self.column == 0 {
            let path = field_path(&self.field);
            self.column = decision_core::jsonc::parse(line)
                .map(|json| json.deepest(&path).0.pos.column as usize)
                .unwrap_or(1);
        }
        self
    }
}

/// The steps of a field path as written in errors (`game.players[2]`, `pose`).
fn field_path(field: &str) -> Vec<decision_core::jsonc::PathSeg> {
    use decision_core::jsonc::PathSeg;
    let mut path = Vec::new();
    for part in field.split('.').filter(|p| !p.is_empty()) {
        let mut pieces = part.split('[');
        if let Some(key) = pieces.next().filter(|k| !k.is_empty()) {
            path.push(PathSeg::Key(key.to_owned()));
        }
        for index in pieces {
            if let Ok(i) = index.trim_end_matches(']').parse() {
                path.push(PathSeg::Index(i));
            }
        }
    }
    path
}

impl Frame {
    /// Parses one JSON line; errors name the column and the field.
    pub fn parse(line: &str) -> Result<Frame, FrameError> {
        let frame: Frame = parse_json_line(line)?;
        frame.check().map_err(|e| e.located_in(line))?;
        Ok(frame)
    }

    /// Value rules the types cannot express (player numbers, finite own state).
    pub fn check(&self) -> Result<(), FrameError> {
        let bad = |field: &str, message: &str| {
            Err(FrameError {
                column: 0,
                field: field.to_owned(),
                message: message.to_owned(),
            })
        };
        if !self.t.is_finite() {
            return bad("t", "must be finite");
        }
        if !(1..=7).contains(&self.player_number) {
            return bad("player_number", "must be in 1..=7");
        }
        if let Some(game) = &self.game {
            for (name, list) in [
                ("game.players", &game.players),
                ("game.penalized", &game.penalized),
            ] {
                if let Some(i) = list.iter().position(|p| !(1..=7).contains(p)) {
                    return bad(&format!("{name}[{i}]"), "player numbers are 1..=7");
                }
            }
            if !game.remaining_time_in_half.is_finite() || !game.half_duration.is_finite() {
                return bad("game.remaining_time_in_half", "times must be finite");
            }
        }
        if let Some(pose) = &self.pose
            && !(pose.x.is_finite() && pose.y.is_finite() && pose.yaw.is_finite())
        {
            return bad("pose", "must be finite");
        }
        if !self.head_yaw.is_finite() {
            return bad("head_yaw", "must be finite");
        }
        if let Some(b) = &self.ball
            && !(b.x.is_finite() && b.y.is_finite() && b.vx.is_finite() && b.vy.is_finite())
        {
            return bad("ball", "must be finite");
        }
        if let Some((i, _)) = self.obstacles.iter().enumerate().find(|(_, o)| {
            !(o.x.is_finite() && o.y.is_finite() && o.radius.is_finite() && o.radius >= 0.0)
        }) {
            return bad(
                &format!("obstacles[{i}]"),
                "must be finite with radius >= 0",
            );
        }
        if let Some(i) = self
            .teammate_messages
            .iter()
            .position(|m| !(1..=7).contains(&m.player))
        {
            return bad(
                &format!("teammate_messages[{i}].player"),
                "must be in 1..=7",
            );
        }
        if let Some(size) = self.search_cell_size
            && !size.iter().all(|s| s.is_finite() && *s > 0.0)
        {
            return bad("search_cell_size", "cell sides must be finite and > 0");
        }
        if let Some(target) = self.search_target
            && !target.iter().all(|c| c.is_finite())
        {
            return bad("search_target", "must be finite");
        }
        Ok(())
    }
}

/// Deserialises one JSON line into `T`; errors name the column and the field path.
pub fn parse_json_line<T: serde::de::DeserializeOwned>(line: &str) -> Result<T, FrameError> {
    let value: T =
        decision_core::strict_serde::from_json_line(line.as_bytes()).map_err(|e| FrameError {
            column: e.column,
            field: e.field,
            message: e.message,
        })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_error_points_at_the_value() {
        let line = r#"{"t": 0, "player_number": 8, "primary_state": "initial"}"#;
        let e = Frame::parse(line).unwrap_err();
        assert_eq!((e.field.as_str(), e.column), ("player_number", 27));
        let line = r#"{"t": 0, "player_number": 2, "primary_state": "initial", "game": {"players": [1, 9]}}"#;
        let e = Frame::parse(line).unwrap_err();
        assert_eq!(e.field, "game.players[1]");
        assert_eq!(e.column, line.find('9').map(|i| i + 1).unwrap_or(0));
    }

    #[test]
    fn absent_keys_take_the_defaults_and_null_means_none() {
        let f = Frame::parse(r#"{"t": 1.5}"#).expect("parses");
        assert_eq!(f.player_number, 1);
        assert_eq!(f.primary_state, PrimaryState::Playing);
        assert!(f.motion_switch_allowed);
        assert_eq!(f.game.as_ref().map(|g| g.players.len()), Some(5));
        assert_eq!(f.pose, Some(PoseJson::default()));
        let f = Frame::parse(r#"{"t": 1.5, "game": null, "pose": null}"#).expect("parses");
        assert!(f.game.is_none() && f.pose.is_none());
        let f = Frame::parse(r#"{"game": {"sub_state": "corner_kick", "kicking_team": null}}"#)
            .expect("parses");
        let g = f.game.expect("game");
        assert_eq!(g.sub_state, Some(SubState::CornerKick));
        assert_eq!(g.kicking_team, None);
        assert_eq!(g.remaining_messages, 1200);
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_field() {
        let e = Frame::parse(r#"{"t": 0, "bal": null}"#).expect_err("unknown key");
        assert!(e.message.contains("unknown field `bal`"), "{e}");
        let e = Frame::parse(r#"{"game": {"players": [1, "two"]}}"#).expect_err("type");
        assert_eq!(e.field, "game.players[1]");
        let e = Frame::parse(r#"{"primary_state": "dancing"}"#).expect_err("variant");
        assert_eq!(e.field, "primary_state");
        let e = Frame::parse(r#"{"player_number": 9}"#).expect_err("range");
        assert_eq!(e.field, "player_number");
        let e = Frame::parse(r#"{"t": 1e999}"#).expect_err("non-finite literal");
        assert_eq!(e.field, "t");
        let e = Frame::parse(r#"{"t": 0} x"#).expect_err("trailing");
        assert!(e.column > 0);
        let e = Frame::parse(r#"{"remote_control": {"walk": [1, 2]}}"#).expect_err("arity");
        assert_eq!(e.field, "remote_control.walk");
    }

    #[test]
    fn remote_commands_parse() {
        let f = Frame::parse(r#"{"remote_control": {"kick": "left"}}"#).expect("parses");
        assert_eq!(f.remote_control, Some(RemoteCommand::Kick(Foot::Left)));
        let f = Frame::parse(r#"{"remote_control": {"walk": [0.2, 0, 0.1]}}"#).expect("parses");
        assert_eq!(f.remote_control, Some(RemoteCommand::Walk([0.2, 0.0, 0.1])));
    }
}
