//! Replay of soccer recordings (`soccer run --record`, `soccer sim --record`): every robot's
//! recorded frames (its `behavior/blackboard`) go through a fresh node with the recorded
//! parameters and tree, and the traces must come out byte for byte as recorded; with
//! `--config PARAMS_DIR` the same frames are decided with other parameters and the spans of
//! time where branch, role or motion differ are listed per robot.

use super::sources::SoccerSources;
use super::trace::{BlackboardRecord, SoccerTraceRecord};
use super::{SoccerNode, SoccerOutput};
use crate::runtime::record::{SOCCER_PARAMETERS, SOCCER_TREE};
use bus::recording::Recording;
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
    /// The frames, in tick order.
    pub frames: Vec<Frame>,
    /// The traces as recorded.
    pub traces: Vec<Vec<u8>>,
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
                    frames: Vec::new(),
                    traces: Vec::new(),
                });
                robots.len() - 1
            }
        };
        let robot = &mut robots[index];
        if is_frame {
            if let Ok(record) = decision_core::strict_serde::from_slice::<BlackboardRecord>(&m.data)
            {
                robot.player = record.frame.player_number;
                robot.frames.push(record.frame);
            }
        } else {
            robot.traces.push(m.data.clone());
        }
    }
    robots.sort_by(|a, b| a.prefix.cmp(&b.prefix));
    robots
}

/// Decides a robot's frames again with `params` and `spec`.
pub fn decide_frames(
    params: &Arc<Parameters>,
    spec: &TreeSpec,
    player: u8,
    frames: &[Frame],
) -> Result<Vec<SoccerOutput>, String> {
    let sources = SoccerSources {
        params_dir: PathBuf::new(),
        location: None,
        robot: None,
        tree: None,
    };
    let mut node = SoccerNode::new(sources, player, Arc::clone(params), spec.clone())?;
    Ok(frames.iter().map(|f| node.decide(f.clone())).collect())
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

/// Compares two robots' traces tick by tick: identical bytes, and the spans of consecutive
/// ticks whose decisions (branch, role, motion, ball, message, ...) differ, each described by
/// its first tick.
fn compare(robot: &str, times: &[f64], old: &[Vec<u8>], new: &[Vec<u8>]) -> RobotReport {
    let ticks = old.len().min(new.len());
    let mut spans: Vec<SoccerSpan> = Vec::new();
    let mut identical_ticks = 0;
    let mut open = false;
    for i in 0..ticks {
        if old[i] == new[i] {
            identical_ticks += 1;
            open = false;
            continue;
        }
        let parse = |bytes: &[u8]| {
            decision_core::strict_serde::from_slice::<SoccerTraceRecord>(bytes).unwrap_or_default()
        };
        let (a, b) = (parse(&old[i]), parse(&new[i]));
        let t = times.get(i).copied().unwrap_or(0.0);
        if decided(&a) == decided(&b) {
            open = false;
            continue;
        }
        match spans.last_mut() {
            Some(span) if open => span.to = t,
            _ => spans.push(SoccerSpan {
                from: t,
                to: t,
                old: summary(&a),
                new: summary(&b),
            }),
        }
        open = true;
    }
    RobotReport {
        robot: robot.to_string(),
        ticks,
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
    if robots.iter().all(|r| r.frames.is_empty()) {
        return Err("the recording has no soccer frames (behavior/blackboard)".into());
    }
    let mut reports = Vec::new();
    for robot in &robots {
        let times: Vec<f64> = robot.frames.iter().map(|f| f.t).collect();
        let replayed: Vec<Vec<u8>> = decide_frames(&params, &spec, robot.player, &robot.frames)?
            .into_iter()
            .map(|o| o.trace)
            .collect();
        let report = match &other {
            None => {
                let mut report = compare(&robot.prefix, &times, &robot.traces, &replayed);
                if robot.traces.len() != replayed.len() {
                    report.ticks = robot.traces.len().max(replayed.len());
                }
                report
            }
            Some((_, other_params, other_spec)) => {
                let decided: Vec<Vec<u8>> =
                    decide_frames(other_params, other_spec, robot.player, &robot.frames)?
                        .into_iter()
                        .map(|o| o.trace)
                        .collect();
                compare(&robot.prefix, &times, &replayed, &decided)
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
    })
}

/// The report in words.
pub fn render_text(report: &SoccerReport) -> String {
    let mut text = String::new();
    for robot in &report.robots {
        text.push_str(&format!(
            "{}: {} ticks, {} identical to {}, {} span(s) differ\n",
            robot.robot.trim_end_matches('/'),
            robot.ticks,
            robot.identical_ticks,
            report.compared_with,
            robot.spans.len()
        ));
        for span in robot.spans.iter().take(20) {
            text.push_str(&format!(
                "  {:.2}-{:.2}  {}  ->  {}\n",
                span.from, span.to, span.old, span.new
            ));
        }
        if robot.spans.len() > 20 {
            text.push_str(&format!("  ... {} more\n", robot.spans.len() - 20));
        }
    }
    text.push_str(if report.identical {
        "identical decisions\n"
    } else {
        "decisions differ\n"
    });
    text
}
