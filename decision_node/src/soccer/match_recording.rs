//! The recording of an in-process soccer match (`soccer sim --record`): per tick, every
//! in-process robot's records as its node publishes them (blackboard frame, motion command,
//! trace) at simulated time, under its team's prefix, so replay and the viewer read a match
//! as they read a team of `soccer run` nodes.

use super::trace::{blackboard_payload, motion_command_payload, trace_payload};
use crate::runtime::record::{RecordSummary, Recorder, RunFacts};
use bus::soccer::{BLACKBOARD, MOTION_COMMAND, TRACE, robot_topic};
use decision_core::engine::TreeSpec;
use fake_publisher::soccer::{Player, SoccerMatch};
use soccer_profile::params::Parameters;
use std::path::Path;

/// An MCAP recording of a [`SoccerMatch`] being played (its robots' frames need
/// [`SoccerMatch::set_recording`]).
pub struct MatchRecording {
    recorder: Recorder,
    ticks: Vec<u64>,
}

impl MatchRecording {
    /// Creates `path` for `game`, described by `facts`, with the parameters and tree its
    /// robots decide with.
    pub fn create(
        path: &Path,
        facts: &RunFacts,
        params: &Parameters,
        spec: &TreeSpec,
        game: &SoccerMatch,
    ) -> Result<Self, String> {
        let prefixes: Vec<String> = game
            .players
            .iter()
            .filter(|p| p.brain().is_some())
            .map(|p| prefix(game, p))
            .collect();
        let recorder = Recorder::create_soccer(path, facts, params, spec, &prefixes)
            .map_err(|e| e.to_string())?;
        Ok(Self {
            recorder,
            ticks: vec![0; game.players.len()],
        })
    }

    /// Records the step `game` just took.
    pub fn record_step(&mut self, game: &SoccerMatch) -> Result<(), String> {
        let now = game.now;
        for (i, p) in game.players.iter().enumerate() {
            let (Some(brain), Some(frame), Some(decision)) =
                (p.brain(), &p.recorded_frame, &p.decision)
            else {
                continue;
            };
            let prefix = prefix(game, p);
            let tick = self.ticks[i];
            self.ticks[i] += 1;
            let r = &mut self.recorder;
            r.record(
                &format!("{prefix}{BLACKBOARD}"),
                &blackboard_payload(p.number, frame),
                now,
            )
            .and_then(|()| {
                r.record(
                    &format!("{prefix}{MOTION_COMMAND}"),
                    &motion_command_payload(p.number, frame, decision),
                    now,
                )
            })
            .and_then(|()| {
                r.record(
                    &format!("{prefix}{TRACE}"),
                    &trace_payload(brain, p.number, tick, decision),
                    now,
                )
            })
            .map_err(|e| e.to_string())?;
        }
        self.recorder.poll(now).map_err(|e| e.to_string())
    }

    /// Writes the file's summary and closes it.
    pub fn finish(self) -> Result<RecordSummary, String> {
        self.recorder.finish().map_err(|e| e.to_string())
    }
}

/// The topic prefix of robot `p`'s records: `<team>/player_<N>/`.
fn prefix(game: &SoccerMatch, p: &Player) -> String {
    format!("{}/{}", game.team_name(p.side), robot_topic(p.number, ""))
}
