//! The soccer behaviour's inputs as ROS 2 messages of our package `soccer_decision_msgs`
//! (`ros2/soccer_decision_msgs/` in the repository, field for field): the game-controller
//! state, the localization, the ball, the obstacles and the fall state; and their conversions
//! to and from the runtime's messages ([`crate::soccer`]).
//!
//! An optional value of the runtime (`pose: null`, no ball, no game-controller state) is a
//! `has_*` flag with zeroed fields; an enum is a `uint8` with the `.msg` file's constants, and
//! a code outside them is an error naming the field. Floats pass as they are: a NaN reaches
//! the runtime's JSON as JSON writes it (`null`), so the node refuses it exactly as a NaN a
//! JSON publisher sent, naming the topic and the field.

use super::msg::RosMessage;
use crate::messages::Header;
use crate::soccer::{BallMsg, FallStateMsg, GameStateMsg, LocalizationMsg, ObstaclesMsg};
use serde::{Deserialize, Serialize};
use soccer_msgs::{BallJson, GameState, ObstacleJson, PointJson, PoseJson, PrimaryState};

/// `soccer_decision_msgs/GameControllerState`: the game controller's state and the robot's
/// primary state.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct GameControllerState {
    /// When the state was valid.
    pub header: Header,
    /// One of the `PRIMARY_*` states.
    pub primary_state: u8,
    /// Whether the fields below hold a game-controller state.
    pub has_game: bool,
    /// One of the `PHASE_*` phases.
    pub phase: u8,
    /// One of the `KICKING_TEAM_*` teams.
    pub kicking_team: u8,
    /// One of the `SUB_STATE_*` set plays.
    pub sub_state: u8,
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

/// `soccer_decision_msgs/Localization`: the field pose, if localized, and the head yaw.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Localization {
    /// When the pose was estimated.
    pub header: Header,
    /// Whether `x`, `y`, `yaw` hold a pose.
    pub has_pose: bool,
    /// Field x (m).
    pub x: f64,
    /// Field y (m).
    pub y: f64,
    /// Heading (rad).
    pub yaw: f64,
    /// Head yaw relative to the body (rad).
    pub head_yaw: f64,
}

/// `soccer_decision_msgs/BallState`: the ball perceived this cycle and the rule ball.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BallState {
    /// When the ball was seen.
    pub header: Header,
    /// Whether `x`, `y`, `vx`, `vy` hold a perceived ball.
    pub has_ball: bool,
    /// Ball x (m).
    pub x: f64,
    /// Ball y (m).
    pub y: f64,
    /// Ball velocity x (m/s).
    pub vx: f64,
    /// Ball velocity y (m/s).
    pub vy: f64,
    /// Whether `rule_x`, `rule_y` hold a rule ball.
    pub has_rule_ball: bool,
    /// Rule ball x (m).
    pub rule_x: f64,
    /// Rule ball y (m).
    pub rule_y: f64,
}

/// `soccer_decision_msgs/Obstacle`: a robot or post as a circle.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Obstacle {
    /// Centre x (m).
    pub x: f64,
    /// Centre y (m).
    pub y: f64,
    /// Radius (m).
    pub radius: f64,
}

/// `soccer_decision_msgs/Obstacles`: the obstacles perceived this cycle.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Obstacles {
    /// When they were seen.
    pub header: Header,
    /// The circles.
    pub obstacles: Vec<Obstacle>,
}

/// `soccer_decision_msgs/FallState`: whether the robot lies on the ground.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FallState {
    /// When it was measured.
    pub header: Header,
    /// The robot lies on the ground.
    pub fallen: bool,
    /// Fall recovery is available now.
    pub stand_up_available: bool,
}

impl RosMessage for GameControllerState {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/GameControllerState";
}
impl RosMessage for Localization {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/Localization";
}
impl RosMessage for BallState {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/BallState";
}
impl RosMessage for Obstacle {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/Obstacle";
}
impl RosMessage for Obstacles {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/Obstacles";
}
impl RosMessage for FallState {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/FallState";
}

/// The enum codes of `GameControllerState.msg`, each list in the order of its constants.
pub mod codes {
    use soccer_msgs::{GamePhase, PrimaryState, SubState, Team};

    /// `PRIMARY_*`: the code of each primary state is its index here.
    pub const PRIMARY_STATES: [PrimaryState; 9] = [
        PrimaryState::Damping,
        PrimaryState::Prepare,
        PrimaryState::Stop,
        PrimaryState::Initial,
        PrimaryState::Ready,
        PrimaryState::Set,
        PrimaryState::Playing,
        PrimaryState::Finished,
        PrimaryState::Penalized,
    ];
    /// `PHASE_*`: the code of each phase is its index here.
    pub const PHASES: [GamePhase; 2] = [GamePhase::Normal, GamePhase::PenaltyShootout];
    /// `KICKING_TEAM_*`: `None` (unknown) is 0, then each team at its index here.
    pub const KICKING_TEAMS: [Option<Team>; 3] = [None, Some(Team::Own), Some(Team::Opponent)];
    /// `SUB_STATE_*`: `None` (no set play) is 0, then each set play at its index here.
    pub const SUB_STATES: [Option<SubState>; 7] = [
        None,
        Some(SubState::FreeKick),
        Some(SubState::GoalKick),
        Some(SubState::CornerKick),
        Some(SubState::ThrowIn),
        Some(SubState::PenaltyKick),
        Some(SubState::PushingFreeKick),
    ];
}

/// The code of `value` in `table` (its index; every value of the enum is listed).
fn code_of<T: PartialEq>(table: &[T], value: &T) -> u8 {
    table.iter().position(|v| v == value).unwrap_or_default() as u8
}

/// The value of `code` in `table`, or an error naming the field and the constants.
fn value_of<T: Copy>(table: &[T], code: u8, field: &str, constants: &str) -> Result<T, String> {
    table.get(usize::from(code)).copied().ok_or_else(|| {
        format!(
            "{}.{field}: {code} is no {constants}_* code (0..={})",
            GameControllerState::TYPE_NAME,
            table.len() - 1
        )
    })
}

impl From<&GameStateMsg> for GameControllerState {
    fn from(m: &GameStateMsg) -> Self {
        let mut out = Self {
            header: m.header.clone(),
            primary_state: code_of(&codes::PRIMARY_STATES, &m.primary_state),
            ..Self::default()
        };
        if let Some(game) = &m.game {
            out.has_game = true;
            out.phase = code_of(&codes::PHASES, &game.phase);
            out.kicking_team = code_of(&codes::KICKING_TEAMS, &game.kicking_team);
            out.sub_state = code_of(&codes::SUB_STATES, &game.sub_state);
            out.first_half = game.first_half;
            out.remaining_time_in_half = game.remaining_time_in_half;
            out.half_duration = game.half_duration;
            out.remaining_messages = game.remaining_messages;
            out.sending_suspended = game.sending_suspended;
            out.players = game.players.clone();
            out.penalized = game.penalized.clone();
        }
        out
    }
}

impl TryFrom<&GameControllerState> for GameStateMsg {
    type Error = String;

    fn try_from(m: &GameControllerState) -> Result<Self, String> {
        let primary_state: PrimaryState = value_of(
            &codes::PRIMARY_STATES,
            m.primary_state,
            "primary_state",
            "PRIMARY",
        )?;
        let game = if m.has_game {
            Some(GameState {
                phase: value_of(&codes::PHASES, m.phase, "phase", "PHASE")?,
                kicking_team: value_of(
                    &codes::KICKING_TEAMS,
                    m.kicking_team,
                    "kicking_team",
                    "KICKING_TEAM",
                )?,
                sub_state: value_of(&codes::SUB_STATES, m.sub_state, "sub_state", "SUB_STATE")?,
                first_half: m.first_half,
                remaining_time_in_half: m.remaining_time_in_half,
                half_duration: m.half_duration,
                remaining_messages: m.remaining_messages,
                sending_suspended: m.sending_suspended,
                players: m.players.clone(),
                penalized: m.penalized.clone(),
            })
        } else {
            None
        };
        Ok(Self {
            header: m.header.clone(),
            primary_state,
            game,
        })
    }
}

impl From<&LocalizationMsg> for Localization {
    fn from(m: &LocalizationMsg) -> Self {
        let pose = m.pose.unwrap_or_default();
        Self {
            header: m.header.clone(),
            has_pose: m.pose.is_some(),
            x: pose.x,
            y: pose.y,
            yaw: pose.yaw,
            head_yaw: m.head_yaw,
        }
    }
}

impl From<&Localization> for LocalizationMsg {
    fn from(m: &Localization) -> Self {
        Self {
            header: m.header.clone(),
            pose: m.has_pose.then_some(PoseJson {
                x: m.x,
                y: m.y,
                yaw: m.yaw,
            }),
            head_yaw: m.head_yaw,
        }
    }
}

impl From<&BallMsg> for BallState {
    fn from(m: &BallMsg) -> Self {
        let ball = m.ball.unwrap_or(BallJson {
            x: 0.0,
            y: 0.0,
            vx: 0.0,
            vy: 0.0,
        });
        let rule = m.rule_ball.unwrap_or(PointJson { x: 0.0, y: 0.0 });
        Self {
            header: m.header.clone(),
            has_ball: m.ball.is_some(),
            x: ball.x,
            y: ball.y,
            vx: ball.vx,
            vy: ball.vy,
            has_rule_ball: m.rule_ball.is_some(),
            rule_x: rule.x,
            rule_y: rule.y,
        }
    }
}

impl From<&BallState> for BallMsg {
    fn from(m: &BallState) -> Self {
        Self {
            header: m.header.clone(),
            ball: m.has_ball.then_some(BallJson {
                x: m.x,
                y: m.y,
                vx: m.vx,
                vy: m.vy,
            }),
            rule_ball: m.has_rule_ball.then_some(PointJson {
                x: m.rule_x,
                y: m.rule_y,
            }),
        }
    }
}

impl From<&ObstaclesMsg> for Obstacles {
    fn from(m: &ObstaclesMsg) -> Self {
        Self {
            header: m.header.clone(),
            obstacles: m
                .obstacles
                .iter()
                .map(|o| Obstacle {
                    x: o.x,
                    y: o.y,
                    radius: o.radius,
                })
                .collect(),
        }
    }
}

impl From<&Obstacles> for ObstaclesMsg {
    fn from(m: &Obstacles) -> Self {
        Self {
            header: m.header.clone(),
            obstacles: m
                .obstacles
                .iter()
                .map(|o| ObstacleJson {
                    x: o.x,
                    y: o.y,
                    radius: o.radius,
                })
                .collect(),
        }
    }
}

impl From<&FallStateMsg> for FallState {
    fn from(m: &FallStateMsg) -> Self {
        Self {
            header: m.header.clone(),
            fallen: m.fallen,
            stand_up_available: m.stand_up_available,
        }
    }
}

impl From<&FallState> for FallStateMsg {
    fn from(m: &FallState) -> Self {
        Self {
            header: m.header.clone(),
            fallen: m.fallen,
            stand_up_available: m.stand_up_available,
        }
    }
}

#[cfg(test)]
mod tests;
