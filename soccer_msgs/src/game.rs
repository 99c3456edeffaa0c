//! The game controller's state as the behaviour needs it (topic `game_controller_state`, and
//! the frame's `game`), and the robot's primary state above it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The robot's primary state (the state machine above the game states).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum PrimaryState {
    /// Joints soft.
    Damping,
    /// Getting ready to stand.
    Prepare,
    /// Stopped by the operator.
    Stop,
    /// Game state initial.
    Initial,
    /// Walking to the kick-off positions.
    Ready,
    /// Waiting for the kick-off.
    Set,
    /// The game is on.
    #[default]
    Playing,
    /// Half or game over.
    Finished,
    /// Sent off the field for a while.
    Penalized,
}

/// `game.phase`: normal play or a penalty shootout (`normal` when absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum GamePhase {
    /// Normal play.
    #[default]
    Normal,
    /// A penalty shootout (`penalty_shootout`); `is_penalty_shootout` holds.
    PenaltyShootout,
}

/// Which team kicks off or takes the current set play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Team {
    /// Our team.
    Own,
    /// The other team (`opponent`).
    Opponent,
}

/// A set play in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SubState {
    /// Free kick.
    FreeKick,
    /// Goal kick.
    GoalKick,
    /// Corner kick.
    CornerKick,
    /// Throw-in (kick-in).
    ThrowIn,
    /// Penalty kick.
    PenaltyKick,
    /// Free kick for pushing.
    PushingFreeKick,
}

/// The game controller's state as the behaviour needs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct GameState {
    /// Normal or penalty shootout.
    pub phase: GamePhase,
    /// Kick-off team, or the team of the current set play (`null` = unknown).
    pub kicking_team: Option<Team>,
    /// The set play in progress, if any.
    pub sub_state: Option<SubState>,
    /// Whether the first half is being played.
    pub first_half: bool,
    /// Seconds left in this half.
    pub remaining_time_in_half: f64,
    /// Length of a half (s).
    pub half_duration: f64,
    /// The team's remaining message budget.
    pub remaining_messages: i64,
    /// The game controller suspended team messages.
    pub sending_suspended: bool,
    /// Own team's players in the match.
    pub players: Vec<u8>,
    /// Own players currently penalized.
    pub penalized: Vec<u8>,
}

impl Default for GameState {
    fn default() -> Self {
        Self {
            phase: GamePhase::Normal,
            kicking_team: Some(Team::Own),
            sub_state: None,
            first_half: true,
            remaining_time_in_half: 600.0,
            half_duration: 600.0,
            remaining_messages: 1200,
            sending_suspended: false,
            players: vec![1, 2, 3, 4, 5],
            penalized: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absent_key_takes_the_default_and_an_unknown_one_is_refused() {
        let game: GameState =
            serde_json::from_str(r#"{"sub_state": "throw_in", "kicking_team": "opponent"}"#)
                .expect("parses");
        assert_eq!(game.sub_state, Some(SubState::ThrowIn));
        assert_eq!(game.kicking_team, Some(Team::Opponent));
        assert_eq!(game.phase, GamePhase::Normal);
        assert_eq!((game.remaining_messages, game.players.len()), (1200, 5));
        let bad = serde_json::from_str::<GameState>(r#"{"phase": "normal", "halftime": 1}"#);
        assert!(bad.is_err_and(|e| e.to_string().contains("halftime")));
        assert_eq!(
            serde_json::to_string(&PrimaryState::Penalized)
                .ok()
                .as_deref(),
            Some(r#""penalized""#)
        );
    }
}
