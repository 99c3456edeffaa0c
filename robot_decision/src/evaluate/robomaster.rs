//! One RoboMaster match of `evaluate`: the node and the fake publisher in one process (as
//! `sim` plays it, without output), observed tick by tick into the per-match metrics and the
//! time each decision was in effect.

use super::{Lane, MatchResult, Metric, extend};
use decision_core::robomaster::Tables;
use decision_node::node::Ingested;
use decision_node::runtime::sim::{InProcessMatch, deliver_to_simulation};
use fake_publisher::Scenario;
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

/// Plays one match of `scenario` with `seed` for `seconds` (None: the whole match).
pub fn play(
    tables: &Arc<Tables>,
    scenario: &Scenario,
    seed: u64,
    seconds: Option<f64>,
) -> Result<MatchResult, String> {
    let InProcessMatch {
        mut node,
        mut sim,
        bus,
        node_inputs,
        sim_inputs,
    } = InProcessMatch::new(tables, scenario, seed)?;
    let period = sim.publish_period();
    let ids: Vec<i32> = tables.decisions.iter().map(|d| d.decision.id).collect();
    let mut ticks_in_effect = vec![0u64; ids.len()];
    let (mut ticks, mut changes, mut cancelled) = (0u64, 0u64, 0u64);
    let (mut sight_ticks, mut aimed_ticks) = (0u64, 0u64);
    let mut previous: Option<Option<i32>> = None;
    let mut lane = Lane {
        label: String::new(),
        segments: Vec::new(),
    };
    loop {
        if sim.finished() || seconds.is_some_and(|s| sim.time() >= s) {
            break;
        }
        sim.frame().publish(&bus).map_err(|e| e.to_string())?;
        while let Some(received) = node_inputs.try_recv() {
            let now = sim.time();
            let Ingested::Tick(output) = node.ingest(&received.topic, &received.payload, now)
            else {
                continue;
            };
            output.publish(&bus).map_err(|e| e.to_string())?;
            let result = &output.trace.result;
            ticks += 1;
            if previous.is_some_and(|p| p != result.chosen) {
                changes += 1;
            }
            previous = Some(result.chosen);
            let in_effect = result
                .chosen
                .and_then(|chosen| ids.iter().position(|&id| id == chosen));
            if let Some(at) = in_effect {
                ticks_in_effect[at] += 1;
            }
            extend(&mut lane.segments, in_effect, now);
            cancelled += u64::from(result.cancelled.is_some());
            if sim.enemy_in_sight() {
                sight_ticks += 1;
                aimed_ticks += u64::from(result.aim_yaw.is_some());
            }
        }
        while let Some(received) = sim_inputs.try_recv() {
            deliver_to_simulation(&mut sim, &received);
        }
        sim.step(period);
    }
    if let Some(last) = lane.segments.last_mut() {
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
            changes as f64 / minutes
        } else {
            0.0
        },
        cancelled as f64,
        if sight_ticks > 0 {
            aimed_ticks as f64 / sight_ticks as f64
        } else {
            1.0
        },
    ];
    Ok(MatchResult {
        values,
        ticks_in_effect,
        ticks,
        lanes: vec![lane],
    })
}
