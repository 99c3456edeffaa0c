//! One RoboMaster match of `evaluate`: the node and the fake publisher in one process (as
//! `sim` plays it, without output), observed tick by tick into the per-match metrics and the
//! time each decision was in effect.

use super::{Lane, MatchResult, Metric, extend};
use decision_core::robomaster::Tables;
use decision_node::node::Ingested;
use decision_node::runtime::sim::{InProcessMatch, deliver_to_simulation};
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

/// `obj_hp` index of `car_pos` index `i` (the outpost and base of red sit at 6 and 7).
fn hp_index_of(i: usize) -> usize {
    if i < 6 { i } else { i + 2 }
}

/// Our side's `obj_hp` indices of the outpost and the base.
fn structures_of(own_index: usize) -> (usize, usize) {
    if own_index < 6 { (6, 7) } else { (14, 15) }
}

/// The HP of every enemy robot, summed (their `obj_hp` entries).
fn enemy_hp(sim: &Simulation) -> f64 {
    let own_red = sim.own_index() < 6;
    let hp = sim.hp();
    (0..12)
        .filter(|&i| (i < 6) != own_red)
        .map(|i| f64::from(hp[hp_index_of(i)]))
        .sum()
}

/// Whether an enemy is alive on the field within our seek circle and in sight on the map:
/// a moment on which the aim should be on one.
fn enemy_in_sight(sim: &Simulation, tables: &Tables) -> bool {
    let robots = sim.robots();
    let Some(us) = robots.get(sim.own_index()) else {
        return false;
    };
    let radius = f64::from(tables.config.seek_thr);
    robots.iter().any(|r| {
        r.side != us.side
            && r.alive
            && r.on_field
            && (r.x - us.x).hypot(r.y - us.y) <= radius
            && tables.map.visible_sampled(
                (us.x as f32, us.y as f32),
                (r.x as f32, r.y as f32),
                tables.config.step_distance,
            )
    })
}

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
    let own_hp_index = hp_index_of(sim.own_index());
    let (outpost, base) = structures_of(sim.own_index());
    let start_enemy_hp = enemy_hp(&sim);
    let mut lowest_enemy_hp = start_enemy_hp;
    let mut destroyed_at: Option<f64> = None;
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
            if enemy_in_sight(&sim, tables) {
                sight_ticks += 1;
                aimed_ticks += u64::from(result.aim_yaw.is_some());
            }
        }
        while let Some(received) = sim_inputs.try_recv() {
            deliver_to_simulation(&mut sim, &received);
        }
        sim.step(period);
        lowest_enemy_hp = lowest_enemy_hp.min(enemy_hp(&sim));
        if destroyed_at.is_none() && sim.hp()[own_hp_index] == 0 {
            destroyed_at = Some(sim.time());
        }
    }
    if let Some(last) = lane.segments.last_mut() {
        last.to = sim.time();
    }
    let hp = sim.hp();
    let minutes = sim.time() / 60.0;
    let values = vec![
        f64::from(hp[own_hp_index]),
        destroyed_at.unwrap_or(sim.time()),
        start_enemy_hp - lowest_enemy_hp,
        f64::from(hp[outpost]),
        f64::from(hp[base]),
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
