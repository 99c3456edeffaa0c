//! Shared helpers of the integration tests: fields, scenario files, and a closed loop with the
//! real decider (the `robot-decision sim` wiring in miniature).

#![allow(dead_code, reason = "each test binary uses a different subset")]

use bus::messages::{DecisionMsg, NavGoal, Pose2};
use decision_core::robomaster::context::NavAction;
use decision_core::robomaster::{Decider, Point2, Pose, Tables, TickInput};
use fake_publisher::{Frame, Scenario, Simulation, load_scenario};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The crate's folder.
pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's sample folder.
pub fn sample_dir() -> PathBuf {
    manifest_dir().join("../sample")
}

/// The 12 m x 8 m test field with a wall at x 5.9..6.1 m, y 2.5..5.5 m.
pub fn wall_config() -> PathBuf {
    manifest_dir().join("../decision_core/tests/fixtures/field/JsonFile/config.json")
}

/// Loads a field, failing the test with its diagnostics.
pub fn tables(config: &Path) -> Arc<Tables> {
    let outcome = decision_core::robomaster::load(config);
    match outcome.tables {
        Some(t) => Arc::new(t),
        None => panic!(
            "{} does not load: {:?}",
            config.display(),
            outcome.diagnostics
        ),
    }
}

/// Writes `text` as `name` into a fresh temporary folder (kept alive by the returned guard).
pub fn scenario_file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("write: {e}"));
    (dir, path)
}

/// A scenario on the wall field, with `body` spliced into the object.
pub fn wall_scenario(body: &str) -> (tempfile::TempDir, PathBuf, Scenario) {
    let config = wall_config();
    let text = format!(
        "{{field: {:?}, side: 'red', {body}}}",
        config.display().to_string()
    );
    let (dir, path) = scenario_file("s.json5", &text);
    let scenario = load_scenario(&path).unwrap_or_else(|e| panic!("scenario does not load:\n{e}"));
    (dir, path, scenario)
}

/// A simulation of a scenario on the wall field.
pub fn wall_sim(body: &str, seed: u64) -> Simulation {
    let (_dir, _path, scenario) = wall_scenario(body);
    Simulation::new(&scenario, tables(&wall_config()), seed).unwrap_or_else(|e| panic!("{e}"))
}

/// Steps `sim` by `dt` until `until` seconds (within half a step).
pub fn run_until(sim: &mut Simulation, until: f64, dt: f64) {
    while sim.time() + dt / 2.0 < until && !sim.finished() {
        sim.step(dt);
    }
}

/// A goal through `poses` (x, y, yaw).
pub fn goal(id: u64, poses: &[(f32, f32, f32)]) -> NavGoal {
    NavGoal {
        goal_id: id,
        poses: poses
            .iter()
            .map(|&(x, y, yaw)| Pose2 { x, y, yaw })
            .collect(),
        ..NavGoal::default()
    }
}

/// The decider's view of a frame.
pub fn tick_input(frame: &Frame) -> TickInput {
    let mut input = TickInput::default();
    for (slot, v) in input.hp.iter_mut().zip(&frame.obj_hp.hp) {
        *slot = *v;
    }
    for (slot, p) in input.positions.iter_mut().zip(&frame.car_pos.pos) {
        *slot = Point2 { x: p.x, y: p.y };
    }
    input.remaining_time = frame.game_info.timestamp;
    input.game_stage = frame.game_info.game_stage;
    input.mode = frame.serial.mode;
    input.nav_status = frame.nav_status.status_list.last().map_or(0, |s| s.status);
    input.pose = Some(Pose {
        x: frame.pose.x,
        y: frame.pose.y,
        yaw: frame.pose.yaw,
    });
    input.autoaim_target_lost = frame.autoaim.as_ref().map(|a| a.is_target_lost);
    input
}

/// One tick of a closed-loop run.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// Simulated time.
    pub t: f64,
    /// Our HP.
    pub hp: u16,
    /// Our outpost's HP.
    pub outpost: u16,
    /// Our position.
    pub x: f64,
    /// Our position.
    pub y: f64,
    /// The decision in effect (id), if any.
    pub decision: Option<u8>,
    /// The mode published to the lower computer.
    pub mode: Option<u8>,
    /// The Nav2 status.
    pub nav: u8,
}

/// Runs a sample scenario against the sample decisions for `seconds`, one decider tick per frame.
pub fn closed_loop(scenario_path: &Path, seed: u64, seconds: f64) -> Vec<Tick> {
    let scenario = load_scenario(scenario_path).unwrap_or_else(|e| panic!("{e}"));
    let tables = tables(&scenario.config_path(scenario_path));
    let mut decider = Decider::new(Arc::clone(&tables)).unwrap_or_else(|e| panic!("{e:?}"));
    let mut sim = Simulation::new(&scenario, tables, seed).unwrap_or_else(|e| panic!("{e}"));
    let period = sim.publish_period();
    let ours = sim.own_index();
    let mut goal_id = 0;
    let mut out = Vec::new();
    loop {
        let frame = sim.frame();
        let summary = decider.tick(&tick_input(&frame));
        if matches!(summary.action, NavAction::Send | NavAction::Preempt) {
            goal_id += 1;
            let poses: Vec<(f32, f32, f32)> = decider
                .context()
                .out
                .poses
                .iter()
                .map(|p| (p[0], p[1], p[2]))
                .collect();
            sim.on_goal(&goal(goal_id, &poses));
        }
        if let Some(d) = summary.decision {
            sim.on_decision(&DecisionMsg {
                decision_id: d.decision_id,
                mode: d.mode,
                x: d.x,
                y: d.y,
                theta: d.theta,
                ..DecisionMsg::default()
            });
        }
        let me = &sim.robots()[ours];
        out.push(Tick {
            t: sim.time(),
            hp: me.hp,
            outpost: sim.hp()[6],
            x: me.x,
            y: me.y,
            decision: summary.decision.map(|d| d.decision_id),
            mode: summary.decision.map(|d| d.mode),
            nav: sim.nav_status(),
        });
        if sim.finished() || sim.time() + period / 2.0 >= seconds {
            break;
        }
        sim.step(period);
    }
    out
}
