//! One RoboMaster match of `evaluate`: the node and the fake publisher in one process (as
//! `sim` plays it, without output), observed tick by tick into the per-match metrics and the
//! time each decision was in effect.

use super::{Lane, MatchResult, Metric, extend};
use decision_core::robomaster::Tables;
use decision_node::node::NodeOutput;
use decision_node::runtime::sim::{FrameWatcher, InProcessMatch};
use fake_publisher::{Scenario, Simulation};
use std::sync::Arc;

/// The RoboMaster metrics, in output order.
pub const METRICS: [Metric; 8] = [
    Metric::higher("own_hp_end", "HP"),
    Metric::higher("survival_time", "s"),
    Metric::higher("damage_dealt", "HP"),
    Metric::higher("outpost_hp_end", "HP"),
    Metric::higher("base_hp_end", "HP"),
    Metric::lower("decision_changes_per_min", "1/min"),
    Metric::lower("goals_cancelled", "goals"),
    Metric::higher("aim_on_target_share", "share"),
];

/// What one match's ticks add up to.
struct Tally {
    /// Decision ids in file order.
    ids: Vec<i32>,
    ticks_in_effect: Vec<u64>,
    ticks: u64,
    changes: u64,
    cancelled: u64,
    sight_ticks: u64,
    aimed_ticks: u64,
    /// The decision in effect on the previous tick (`None` before the first).
    previous: Option<Option<i32>>,
    lane: Lane,
}

impl FrameWatcher for Tally {
    fn tick(&mut self, output: &NodeOutput, sim: &Simulation) -> Result<(), String> {
        let result = &output.trace.result;
        self.ticks += 1;
        if self.previous.is_some_and(|p| p != result.chosen) {
            self.changes += 1;
        }
        self.previous = Some(result.chosen);
        let in_effect = result
            .chosen
            .and_then(|chosen| self.ids.iter().position(|&id| id == chosen));
        if let Some(at) = in_effect {
            self.ticks_in_effect[at] += 1;
        }
        extend(&mut self.lane.segments, in_effect, sim.time());
        self.cancelled += u64::from(result.cancelled.is_some());
        if sim.enemy_in_sight() {
            self.sight_ticks += 1;
            self.aimed_ticks += u64::from(result.aim_yaw.is_some());
        }
        Ok(())
    }
}

/// Plays one match of `scenario` with `seed` for `seconds` (None: the whole match).
pub fn play(
    tables: &Arc<Tables>,
    scenario: &Scenario,
    seed: u64,
    seconds: Option<f64>,
) -> Result<MatchResult, String> {
    let mut game = InProcessMatch::new(tables, scenario, seed)?;
    let ids: Vec<i32> = tables.decisions.iter().map(|d| d.decision.id).collect();
    let mut tally = Tally {
        ticks_in_effect: vec![0; ids.len()],
        ids,
        ticks: 0,
        changes: 0,
        cancelled: 0,
        sight_ticks: 0,
        aimed_ticks: 0,
        previous: None,
        lane: Lane {
            label: String::new(),
            segments: Vec::new(),
        },
    };
    while !(game.sim.finished() || seconds.is_some_and(|s| game.sim.time() >= s)) {
        game.play_frame(&mut tally)?;
    }
    let sim = &game.sim;
    if let Some(last) = tally.lane.segments.last_mut() {
        last.to = sim.time();
    }
    let combat = sim.combat_stats();
    let minutes = sim.time() / 60.0;
    let values = vec![
        combat.own_hp,
        combat.own_destroyed_at.unwrap_or(sim.time()),
        combat.damage_dealt,
        combat.outpost_hp,
        combat.base_hp,
        if minutes > 0.0 {
            tally.changes as f64 / minutes
        } else {
            0.0
        },
        tally.cancelled as f64,
        if tally.sight_ticks > 0 {
            tally.aimed_ticks as f64 / tally.sight_ticks as f64
        } else {
            1.0
        },
    ];
    Ok(MatchResult {
        values,
        ticks_in_effect: tally.ticks_in_effect,
        ticks: tally.ticks,
        lanes: vec![tally.lane],
    })
}
