//! One robot of ours: the behaviour ([`SoccerDecider`]) and the ball-search suggestor fed the
//! same frame each tick, in the order of the RoboCup behaviour node (the suggestor's last target goes into the
//! frame, the tree decides, then the heatmap takes the tick's observations and the decided
//! message interval). `soccer run`, the simulation and replay all drive robots through it, so
//! they decide alike.

use crate::decider::{Decision, SoccerDecider};
use crate::frame::{Frame, PrimaryState};
use crate::params::Parameters;
use crate::search::{
    AgedBall, GameStateName, HeatmapFrame, HeatmapGame, SearchSuggestor, TeammateState,
};
use decision_core::engine::{CompileError, TreeSpec};
use std::sync::Arc;

/// Player numbers index the teammate table modulo this size.
const TEAMMATE_SLOTS: usize = 8;

/// A robot's decider and search suggestor, with the teammates' last State messages.
pub struct SoccerBrain {
    decider: SoccerDecider,
    suggestor: SearchSuggestor,
    last_received: [Option<TeammateState>; TEAMMATE_SLOTS],
}

impl SoccerBrain {
    /// A robot deciding with the tree `spec` and `params`.
    pub fn new(spec: &TreeSpec, params: Arc<Parameters>) -> Result<Self, Vec<CompileError>> {
        let suggestor = SearchSuggestor::new(params.search_suggestor.clone(), params.field.clone());
        Ok(Self {
            decider: SoccerDecider::new(spec, params)?,
            suggestor,
            last_received: [None; TEAMMATE_SLOTS],
        })
    }

    /// The behaviour half: world model, tree and the trace of the last step.
    pub fn decider(&self) -> &SoccerDecider {
        &self.decider
    }

    /// The behaviour, for switches such as `--explain`.
    pub fn decider_mut(&mut self) -> &mut SoccerDecider {
        &mut self.decider
    }

    /// The ball-search suggestor.
    pub fn suggestor(&self) -> &SearchSuggestor {
        &self.suggestor
    }

    /// Whether a State message of teammate `number` has been received.
    pub fn has_heard_from(&self, number: u8) -> bool {
        self.last_received[usize::from(number) % TEAMMATE_SLOTS].is_some()
    }

    /// The teammates' last State messages, as the suggestor sees them.
    pub fn teammates(&self) -> impl Iterator<Item = &TeammateState> {
        self.last_received.iter().flatten()
    }

    /// One tick: `frame` without the search fields (they are filled here from the
    /// suggestor), then the heatmap update.
    pub fn step(&mut self, mut frame: Frame) -> Decision {
        for message in &frame.teammate_messages {
            if message.player != frame.player_number {
                self.last_received[usize::from(message.player) % TEAMMATE_SLOTS] =
                    Some(TeammateState {
                        player: message.player,
                        t: frame.t,
                        pose: message.pose,
                        head_yaw: message.head_yaw,
                        ball: message.ball,
                    });
            }
        }
        frame.search_target = self.suggestor.target().map(|p| p.to_array());
        frame.search_cell_size = Some(self.suggestor.cell_size());
        let decision = self.decider.decide(&frame);
        let heat = HeatmapFrame {
            t: frame.t,
            player_number: frame.player_number,
            goalkeeper_player_number: decision.goalkeeper_player_number,
            game: frame.game.as_ref().map(|game| HeatmapGame {
                state: game_state_name(frame.primary_state),
                sub_state: game.sub_state,
                kicking_team: game.kicking_team,
                penalized: game.penalized.clone(),
            }),
            pose: frame.pose,
            head_yaw: frame.head_yaw,
            ball: frame.ball.map(|b| AgedBall {
                x: b.x,
                y: b.y,
                age: 0.0,
            }),
            rule_balls: frame
                .rule_ball
                .map(|p| vec![[p.x, p.y]])
                .unwrap_or_default(),
            hypothetical_balls: Vec::new(),
            obstacles: std::mem::take(&mut frame.obstacles),
            teammates: self.last_received.iter().flatten().copied().collect(),
            message_interval: decision.message_interval,
            parameters: None,
        };
        // The suggestor refuses only parameter changes, and this frame carries none.
        let _ = self.suggestor.update(&heat);
        decision
    }
}

/// The heatmap's game state for a primary state (everything else counts as playing).
fn game_state_name(primary: PrimaryState) -> GameStateName {
    match primary {
        PrimaryState::Initial => GameStateName::Initial,
        PrimaryState::Ready => GameStateName::Ready,
        PrimaryState::Set => GameStateName::Set,
        PrimaryState::Finished => GameStateName::Finished,
        _ => GameStateName::Playing,
    }
}
