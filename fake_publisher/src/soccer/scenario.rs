//! Soccer scenarios (JSON5): the teams, how the match starts, what happens when, and the
//! simulation's sensor and network settings. Every key has a default, so `{}` is a whole
//! match of two teams of five.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Which side of the field a team defends at kick-off (home: the left goal, -x).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The team whose own goal is at -x of the simulation's world frame.
    Home,
    /// The team whose own goal is at +x.
    Away,
}

impl Side {
    /// The opposing side: `Home` <-> `Away`.
    pub fn other(self) -> Side {
        match self {
            Side::Home => Side::Away,
            Side::Away => Side::Home,
        }
    }
}

/// Who plays a team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum TeamKind {
    /// Our soccer behaviour on every robot (one decider and one search suggestor each).
    #[default]
    Nodes,
    /// Simple scripted opponents: walk to the ball and kick it at our goal.
    Scripted,
}

/// One team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct TeamSpec {
    /// The team's name in the output.
    pub name: String,
    /// Player numbers (1..=7).
    pub players: Vec<u8>,
    /// Who plays it.
    pub kind: TeamKind,
}

/// How the match starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// Initial, then ready for the kick-off.
    #[default]
    Kickoff,
    /// Straight into playing with the ball where `ball` says.
    Playing,
    /// Straight into a penalty shootout, `kickoff_team` kicking first.
    PenaltyShootout,
}

/// A set play the scenario starts at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SetPlay {
    /// Corner kick for the team.
    CornerKick,
    /// Goal kick for the team.
    GoalKick,
    /// Throw-in for the team.
    ThrowIn,
    /// Free kick for the team.
    FreeKick,
}

/// Something that happens at a time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// Simulated time (s).
    pub at: f64,
    /// What happens.
    #[serde(flatten)]
    pub what: EventKind,
}

/// The kinds of events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The ball is put at `[x, y]` (world frame) and stops.
    Ball([f64; 2]),
    /// A set play for a team, the ball placed where the rules put it.
    SetPlay {
        /// Which set play.
        kind: SetPlay,
        /// For whom.
        team: Side,
    },
    /// A player is penalized for some seconds.
    Penalize {
        /// Side of the penalized player.
        team: Side,
        /// Its number in that team's `players`; an unknown number does nothing.
        player: u8,
        /// How long (s).
        seconds: f64,
    },
    /// A robot falls over where it stands; it stays down until its motion command stands it up.
    Fall {
        /// Side of the falling player.
        team: Side,
        /// Its number in that team's `players`; an unknown number does nothing.
        player: u8,
    },
}

/// Sensors and the team network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Perception {
    /// Half the camera's horizontal field of view (rad).
    pub view_half_angle: f64,
    /// Farthest distance the ball is seen at (m).
    pub ball_range: f64,
    /// Chance to miss a visible ball in a frame.
    pub ball_miss_rate: f64,
    /// Ball position noise per metre of distance (m/m).
    pub ball_noise: f64,
    /// Localization noise (m).
    pub pose_noise: f64,
    /// Farthest distance other robots are seen at as obstacles (m).
    pub obstacle_range: f64,
    /// Shortest delay of a team message (s).
    pub message_delay_min: f64,
    /// Longest delay of a team message (s).
    pub message_delay_max: f64,
    /// Chance that a team message is lost.
    pub message_loss_rate: f64,
    /// Robots whose messages are all lost, as `home:3`.
    pub silent_robots: Vec<String>,
}

impl Default for Perception {
    fn default() -> Self {
        Self {
            view_half_angle: 0.8,
            ball_range: 5.0,
            ball_miss_rate: 0.05,
            ball_noise: 0.02,
            pose_noise: 0.02,
            obstacle_range: 3.0,
            message_delay_min: 0.05,
            message_delay_max: 0.2,
            message_loss_rate: 0.05,
            silent_robots: Vec::new(),
        }
    }
}

/// A soccer scenario file (JSON5); every key has a default, so `{}` is a whole match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SoccerScenario {
    /// What the scenario shows (for people).
    pub description: String,
    /// Seed of the match (the command line's `--seed` replaces it).
    pub seed: u64,
    /// Length of a half (s).
    pub half_duration: f64,
    /// Stop after this many simulated seconds (default: the whole match).
    pub seconds: Option<f64>,
    /// The team at -x.
    pub home: TeamSpec,
    /// The team at +x.
    pub away: TeamSpec,
    /// How the match starts.
    pub start: Start,
    /// Who kicks off first.
    pub kickoff_team: Side,
    /// The ball's start position with `start: playing` (world frame).
    pub ball: [f64; 2],
    /// Scripted events.
    pub events: Vec<Event>,
    /// Sensors and network.
    pub perception: Perception,
}

impl Default for TeamSpec {
    fn default() -> Self {
        Self {
            name: String::new(),
            players: vec![1, 2, 3, 4, 5],
            kind: TeamKind::Nodes,
        }
    }
}

impl Default for SoccerScenario {
    fn default() -> Self {
        Self {
            description: String::new(),
            seed: 1,
            half_duration: 300.0,
            seconds: None,
            home: TeamSpec {
                name: "home".into(),
                ..TeamSpec::default()
            },
            away: TeamSpec {
                name: "away".into(),
                ..TeamSpec::default()
            },
            start: Start::Kickoff,
            kickoff_team: Side::Home,
            ball: [0.0, 0.0],
            events: Vec::new(),
            perception: Perception::default(),
        }
    }
}

impl SoccerScenario {
    /// The team on `side`.
    pub fn team(&self, side: Side) -> &TeamSpec {
        match side {
            Side::Home => &self.home,
            Side::Away => &self.away,
        }
    }

    /// Rules the types cannot express; each problem names its field.
    pub fn check(&self) -> Result<(), String> {
        if !(self.half_duration.is_finite() && self.half_duration > 0.0) {
            return Err("`half_duration`: must be finite and > 0".into());
        }
        for (side, team) in [("home", &self.home), ("away", &self.away)] {
            if team.players.is_empty() || team.players.len() > 7 {
                return Err(format!("`{side}.players`: 1 to 7 players"));
            }
            if let Some(p) = team.players.iter().find(|p| !(1..=7).contains(*p)) {
                return Err(format!(
                    "`{side}.players`: {p} is not a player number 1..=7"
                ));
            }
            let mut sorted = team.players.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != team.players.len() {
                return Err(format!("`{side}.players`: a number appears twice"));
            }
        }
        if let Some((i, _)) = self
            .events
            .iter()
            .enumerate()
            .find(|(_, e)| !(e.at.is_finite() && e.at >= 0.0))
        {
            return Err(format!("`events[{i}].at`: must be finite and >= 0"));
        }
        let p = &self.perception;
        if !(p.message_delay_min >= 0.0 && p.message_delay_max >= p.message_delay_min) {
            return Err(
                "`perception.message_delay_min`/`message_delay_max`: 0 <= min <= max".into(),
            );
        }
        for (name, v) in [
            ("ball_miss_rate", p.ball_miss_rate),
            ("message_loss_rate", p.message_loss_rate),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("`perception.{name}`: must be in [0, 1]"));
            }
        }
        Ok(())
    }
}

/// Reads a scenario file (JSON5); errors name the file and the field.
pub fn load_soccer_scenario(path: &Path) -> Result<SoccerScenario, String> {
    let text = decision_core::jsonc::read_text(path).map_err(|e| match e.pos() {
        Some(pos) => format!("{}:{pos}: {e}", path.display()),
        None => format!("{}: {e}", path.display()),
    })?;
    parse_soccer_scenario(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses scenario text (JSON5).
pub fn parse_soccer_scenario(text: &str) -> Result<SoccerScenario, String> {
    let json = decision_core::jsonc::parse_json5(text)
        .map_err(|e| format!("{}:{}: {}", e.pos.line, e.pos.column, e.message))?;
    let scenario: SoccerScenario = decision_core::strict_serde::deserialize(json.to_serde())
        .map_err(|e| {
            let path = e.path().to_string();
            format!("`{path}`: {}", e.into_inner())
        })?;
    scenario.check()?;
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_scenario_is_a_whole_match_of_two_fives() {
        let s = parse_soccer_scenario("{}").expect("parses");
        assert_eq!(s.home.players, [1, 2, 3, 4, 5]);
        assert_eq!(s.away.name, "away");
        assert_eq!(s.start, Start::Kickoff);
    }

    #[test]
    fn events_and_errors() {
        let s = parse_soccer_scenario(
            "{ events: [ { at: 3, set_play: { kind: 'corner_kick', team: 'away' } }, { at: 1, ball: [1, 2] } ] }",
        )
        .expect("parses");
        assert_eq!(s.events.len(), 2);
        assert!(
            parse_soccer_scenario("{ home: { players: [1, 9] } }")
                .is_err_and(|e| e.contains("home.players"))
        );
        assert!(parse_soccer_scenario("{ hom: {} }").is_err_and(|e| e.contains("hom")));
        assert!(parse_soccer_scenario("{ events: [ { at: -1, ball: [0, 0] } ] }").is_err());
    }
}
