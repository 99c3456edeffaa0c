//! Replay of soccer recordings (`soccer run --record`, `soccer sim --record`): every robot's
//! recorded frames (its `behavior/blackboard`) go through a fresh [`SoccerNode`] with the
//! recorded parameters and tree ([`replay_node`], as for RoboMaster), and the traces must come
//! out byte for byte as recorded; with `--config PARAMS_DIR` the same frames are decided with
//! other parameters and the spans of time where branch, role or motion differ are listed per
//! robot ([`differing_runs`] over the ticks paired by stamp).

use super::align::align;
use super::feed::{Tick, replay_node};
use super::runs::{Pair, differing_runs};
use crate::runtime::record::{SOCCER_PARAMETERS, SOCCER_TREE};
use crate::soccer::SoccerNode;
use crate::soccer::sources::SoccerSources;
use crate::soccer::trace::{BlackboardRecord, SoccerTraceRecord};
use bus::recording::{RecordedMessage, Recording};
use bus::soccer as topics;
use decision_core::engine::TreeSpec;
use serde::Serialize;
use soccer_profile::frame::Frame;
use soccer_profile::params::Parameters;
use std::path::PathBuf;
use std::sync::Arc;

/// Whether a recording comes from the soccer profile.
pub fn is_soccer(recording: &Recording) -> bool {
    recording
        .facts()
        .is_some_and(|f| f.get("profile").is_some_and(|p| p == "soccer"))
}

/// The parameters and tree a soccer recording was made with (its attachments).
pub fn recorded_setup(recording: &Recording) -> Result<(Arc<Parameters>, TreeSpec), String> {
    let attachment = |name: &str| {
        recording
            .attachments
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.data.as_slice())
            .ok_or_else(|| format!("the recording has no `{name}` attachment"))
    };
    let params: Parameters =
        decision_core::strict_serde::from_slice(attachment(SOCCER_PARAMETERS)?)
            .map_err(|e| format!("{SOCCER_PARAMETERS}: {e}"))?;
    let spec: TreeSpec = decision_core::strict_serde::from_slice(attachment(SOCCER_TREE)?)
        .map_err(|e| format!("{SOCCER_TREE}: {e}"))?;
    Ok((Arc::new(params), spec))
}

/// One robot's part of a recording: its topic prefix, frames and recorded traces.
#[derive(Debug, Clone)]
pub struct RecordedRobot {
    /// The topic prefix (`player_3/`, `home/player_3/`).
    pub prefix: String,
    /// The robot's number.
    pub player: u8,
    /// Its `behavior/blackboard` messages whose frame reads, in file order: what replay feeds.
    pub inputs: Vec<RecordedMessage>,
    /// The traces as recorded (unreadable ones are skipped).
    pub traces: Vec<Tick<SoccerTraceRecord>>,
}

impl RecordedRobot {
    /// The recorded frames, in tick order.
    pub fn frames(&self) -> Vec<Frame> {
        self.inputs
            .iter()
            .filter_map(|m| {
                decision_core::strict_serde::from_slice::<BlackboardRecord>(&m.data).ok()
            })
            .map(|record| record.frame)
            .collect()
    }

    /// Decides the robot's recorded frames again with `params` and `spec`: the traces.
    pub fn decide_again(
        &self,
        params: &Arc<Parameters>,
        spec: &TreeSpec,
    ) -> Result<Vec<Tick<SoccerTraceRecord>>, String> {
        let sources = SoccerSources {
            params_dir: PathBuf::new(),
            location: None,
            robot: None,
            tree: None,
        };
        let mut node = SoccerNode::new(sources, self.player, Arc::clone(params), spec.clone())?;
        let inputs: Vec<&RecordedMessage> = self.inputs.iter().collect();
        Ok(replay_node(&mut node, &inputs, &|_, _| {}))
    }
}

/// The robots of a recording, by prefix in name order; unreadable frames are skipped.
pub fn recorded_robots(recording: &Recording) -> Vec<RecordedRobot> {
    let mut robots: Vec<RecordedRobot> = Vec::new();
    for m in &recording.messages {
        let (prefix, is_frame) = if let Some(p) = m.topic.strip_suffix(topics::BLACKBOARD) {
            (p, true)
        } else if let Some(p) = m.topic.strip_suffix(topics::TRACE) {
            (p, false)
        } else {
            continue;
        };
        let index = match robots.iter().position(|r| r.prefix == prefix) {
            Some(i) => i,
            None => {
                robots.push(RecordedRobot {
                    prefix: prefix.to_string(),
                    player: 0,
                    inputs: Vec::new(),
                    traces: Vec::new(),
                });
                robots.len() - 1
            }
        };
        let Some(robot) = robots.get_mut(index) else {
            continue;
        };
        if is_frame {
            if let Ok(record) = decision_core::strict_serde::from_slice::<BlackboardRecord>(&m.data)
            {
                robot.player = record.frame.player_number;
                robot.inputs.push(m.clone());
            }
        } else {
            robot.traces.extend(Tick::from_bytes(m.data.clone()));
        }
    }
    robots.sort_by(|a, b| a.prefix.cmp(&b.prefix));
    robots
}

/// What decided differently over a stretch of time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SoccerSpan {
    /// First tick time that differs.
    pub from: f64,
    /// Last tick time that differs.
    pub to: f64,
    /// `branch / role / motion` of the old side.
    pub old: String,
    /// `branch / role / motion` of the new side.
    pub new: String,
}

/// One robot's replay.
#[derive(Debug, Clone, Serialize)]
pub struct RobotReport {
    /// The robot's topic prefix in the recording (`player_3/`, `home/player_3/`).
    pub robot: String,
    /// Ticks compared.
    pub ticks: usize,
    /// Ticks whose trace is byte for byte the recorded one (replay without `--config`).
    pub identical_ticks: usize,
    /// Spans where branch, role or motion differ.
    pub spans: Vec<SoccerSpan>,
}

/// What a soccer replay found: each robot's comparison and the overall verdict.
#[derive(Debug, Clone, Serialize)]
pub struct SoccerReport {
    /// `recorded` or the other parameters folder.
    pub compared_with: String,
    /// Per robot.
    pub robots: Vec<RobotReport>,
    /// No tick differs.
    pub identical: bool,
    /// Warnings (a cut file); printed, not part of the JSON report.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// A trace's decision without the explanations (what the robot does, not why).
fn decided(trace: &SoccerTraceRecord) -> serde_json::Value {
    let mut decision = trace.decision.clone();
    if let Some(map) = decision.as_object_mut() {
        map.remove("explain");
        map.remove("path_next");
    }
    decision
}

/// `branch / role / motion` of a trace.
fn summary(trace: &SoccerTraceRecord) -> String {
    format!(
        "{} / {} / {}",
        trace.branch(),
        trace.role().unwrap_or("-"),
        trace.motion_kind()
    )
}

/// Whether the two sides of a pair decided differently (branch, role, motion, ball,
/// message, ...); a tick only one side has is counted, not compared.
fn decided_differently((a, b): &Pair<'_, Tick<SoccerTraceRecord>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.bytes != b.bytes && decided(&a.record) != decided(&b.record),
        _ => false,
    }
}

/// Compares two runs of a robot's ticks, paired by stamp: identical bytes, and the spans of
/// consecutive ticks whose decisions differ, each described by its first tick.
fn compare(
    robot: &str,
    old: &[Tick<SoccerTraceRecord>],
    new: &[Tick<SoccerTraceRecord>],
) -> RobotReport {
    let pairs = align(old, new);
    let identical_ticks = pairs
        .iter()
        .filter(|pair| matches!(pair, (Some(a), Some(b)) if a.bytes == b.bytes))
        .count();
    let time =
        |(a, b): &Pair<'_, Tick<SoccerTraceRecord>>| a.or(*b).map_or(0.0, |t| t.record.time());
    let describe = |tick: Option<&Tick<SoccerTraceRecord>>| {
        tick.map_or_else(String::new, |t| summary(&t.record))
    };
    let spans = differing_runs(&pairs, decided_differently, |_, _| true)
        .iter()
        .filter_map(|run| {
            let (first, last) = (pairs.get(run.first)?, pairs.get(run.last)?);
            Some(SoccerSpan {
                from: time(first),
                to: time(last),
                old: describe(first.0),
                new: describe(first.1),
            })
        })
        .collect();
    RobotReport {
        robot: robot.to_string(),
        ticks: pairs.len(),
        identical_ticks,
        spans,
    }
}

/// Replays a soccer recording against its own traces, or (with `other`) decides its frames
/// with the recorded and the other parameters and compares those.
pub fn replay(
    recording: &Recording,
    other: Option<(&str, Arc<Parameters>, TreeSpec)>,
) -> Result<SoccerReport, String> {
    let (params, spec) = recorded_setup(recording)?;
    let robots = recorded_robots(recording);
    if robots.iter().all(|r| r.inputs.is_empty()) {
        return Err("the recording has no soccer frames (behavior/blackboard)".into());
    }
    let mut reports = Vec::new();
    for robot in &robots {
        let replayed = robot.decide_again(&params, &spec)?;
        let report = match &other {
            None => compare(&robot.prefix, &robot.traces, &replayed),
            Some((_, other_params, other_spec)) => {
                let decided = robot.decide_again(other_params, other_spec)?;
                compare(&robot.prefix, &replayed, &decided)
            }
        };
        reports.push(report);
    }
    let identical = reports.iter().all(|r| match &other {
        None => r.identical_ticks == r.ticks,
        Some(_) => r.spans.is_empty(),
    });
    Ok(SoccerReport {
        compared_with: other
            .as_ref()
            .map_or("recorded".into(), |o| o.0.to_string()),
        robots: reports,
        identical,
        warnings: recording.warning.iter().cloned().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::{Tick, compare};
    use crate::soccer::trace::SoccerTraceRecord;

    /// A robot's tick at `t` seconds in `branch` walking or kicking, with a why-not text.
    fn tick(t: f64, branch: &str, motion: &str, explain: &str) -> Tick<SoccerTraceRecord> {
        let bytes = serde_json::to_vec(&serde_json::json!({
            "header": bus::messages::Header::at(t),
            "player": 3,
            "decision": {
                "t": t,
                "branch": branch,
                "role": "striker",
                "motion": {"body": {"kind": motion}},
                "explain": [[explain, "failed"]],
            },
        }))
        .unwrap_or_default();
        match Tick::from_bytes(bytes) {
            Some(tick) => tick,
            None => panic!("a soccer trace reads back"),
        }
    }

    #[test]
    fn consecutive_differing_ticks_are_one_span_described_by_its_first_tick() {
        let old: Vec<_> = (0..5)
            .map(|i| tick(f64::from(i) * 0.02, "playing", "walk_to", "x"))
            .collect();
        let mut new = old.clone();
        new[1] = tick(0.02, "playing", "kick", "x");
        new[2] = tick(0.04, "ready", "stand", "x");
        // Only the why-not differs: not a different decision, but not identical either.
        new[4] = tick(0.08, "playing", "walk_to", "y");
        let report = compare("home/player_3/", &old, &new);
        assert_eq!((report.ticks, report.identical_ticks), (5, 2));
        assert_eq!(report.spans.len(), 1);
        let span = &report.spans[0];
        assert_eq!((span.from, span.to), (0.02, 0.04));
        assert_eq!(
            (span.old.as_str(), span.new.as_str()),
            ("playing / striker / walk_to", "playing / striker / kick")
        );
    }

    #[test]
    fn ticks_pair_by_stamp_and_a_tick_one_side_lacks_is_counted_not_compared() {
        let old: Vec<_> = [0.0, 0.02, 0.04]
            .iter()
            .map(|&t| tick(t, "playing", "walk_to", "x"))
            .collect();
        // The recording was cut before the last trace: the replay has one tick more.
        let new: Vec<_> = [0.0, 0.02, 0.04, 0.06]
            .iter()
            .map(|&t| tick(t, "playing", "walk_to", "x"))
            .collect();
        let report = compare("player_3/", &old[..2], &new);
        assert_eq!((report.ticks, report.identical_ticks), (4, 2));
        assert!(report.spans.is_empty());
        // A frame missing in the middle does not shift the pairing of the later ticks.
        let gap = [old[0].clone(), old[2].clone()];
        let report = compare("player_3/", &gap, &new[..3]);
        assert_eq!((report.ticks, report.identical_ticks), (3, 2));
    }
}
