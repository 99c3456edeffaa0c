//! The sample scenarios: they load, run the whole match, and drive the sample decisions they
//! were written for (closed loop with the real decider).

mod common;

use common::{Tick, closed_loop, sample_dir, tables};
use fake_publisher::{Simulation, load_scenario};

fn open_loop(name: &str, seed: u64) -> Simulation {
    let path = sample_dir().join("scenarios").join(name);
    let scenario = load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&scenario, tables(&scenario.config_path(&path)), seed)
        .unwrap_or_else(|e| panic!("{e}"));
    let period = sim.publish_period();
    while !sim.finished() {
        sim.step(period);
        let _ = sim.frame();
    }
    sim
}

fn first(ticks: &[Tick], decision: u8) -> Option<&Tick> {
    ticks.iter().find(|t| t.decision == Some(decision))
}

#[test]
fn both_samples_run_the_whole_match() {
    for name in ["hp_retreat.json5", "outpost_loss.json5"] {
        for seed in [0, 1, 2] {
            let sim = open_loop(name, seed);
            assert!(sim.finished());
            assert!(
                (sim.time() - 420.0).abs() < 0.05,
                "{name}: ended at {}",
                sim.time()
            );
            assert_eq!(sim.frame().game_info.game_stage, 5);
        }
    }
}

#[test]
fn outpost_loss_outpost_reaches_zero_and_decision_11_takes_over() {
    let sim = open_loop("outpost_loss.json5", 0);
    assert_eq!(sim.hp()[6], 0);
    let ticks = closed_loop(&sample_dir().join("scenarios/outpost_loss.json5"), 0, 420.0);
    let zero = ticks
        .iter()
        .find(|t| t.outpost == 0)
        .unwrap_or_else(|| panic!("the outpost never fell"));
    assert!((zero.t - 120.0).abs() < 1.0, "outpost at 0 at {} s", zero.t);
    assert!(
        ticks
            .iter()
            .filter(|t| t.t < 119.0)
            .all(|t| t.decision != Some(11))
    );
    let defend = first(&ticks, 11).unwrap_or_else(|| panic!("decision 11 never chosen"));
    assert!(
        defend.t >= zero.t && defend.t < zero.t + 0.5,
        "11 at {} s",
        defend.t
    );
    // It reaches the base front (waypoint 2 at (10.45, 2.45)) and holds it (12) to the end.
    let hold = first(&ticks, 12).unwrap_or_else(|| panic!("decision 12 never chosen"));
    assert!(
        hold.t > defend.t && hold.t < defend.t + 15.0,
        "12 at {} s",
        hold.t
    );
    // (The very last frame is the settlement stage, where the decider skips.)
    let last = ticks
        .iter()
        .rev()
        .find(|t| t.t < 419.95)
        .unwrap_or_else(|| panic!("no ticks"));
    assert_eq!(last.decision, Some(12));
    assert!(
        (last.x - 10.45).abs() < 0.01 && (last.y - 2.45).abs() < 0.01,
        "{last:?}"
    );
    // The story before: start -> outpost (0), hold (1), follow our hero (7).
    for d in [0, 1, 7] {
        assert!(
            first(&ticks, d).is_some_and(|t| t.t < zero.t),
            "decision {d} before the outpost fell"
        );
    }
}

#[test]
fn hp_retreat_hp_drops_under_200_and_decision_13_then_regeneration() {
    let ticks = closed_loop(&sample_dir().join("scenarios/hp_retreat.json5"), 0, 420.0);
    let low = ticks
        .iter()
        .find(|t| t.hp < 200)
        .unwrap_or_else(|| panic!("HP never under 200"));
    assert!((low.t - 75.0).abs() < 0.2, "HP under 200 at {} s", low.t);
    let retreat = first(&ticks, 13).unwrap_or_else(|| panic!("decision 13 never chosen"));
    assert!(
        retreat.t >= low.t && retreat.t < low.t + 0.5,
        "13 at {} s",
        retreat.t
    );
    // It reaches the supply zone (waypoint 1 at (11.1, 7.2)) and heals there.
    let at_supply = ticks
        .iter()
        .filter(|t| t.t > retreat.t)
        .find(|t| (t.x - 11.1).hypot(t.y - 7.2) < 1.0)
        .unwrap_or_else(|| panic!("never reached the supply zone"));
    let healed = ticks
        .iter()
        .filter(|t| t.t > at_supply.t)
        .find(|t| t.hp > 350)
        .unwrap_or_else(|| panic!("never healed above 350"));
    assert!(
        healed.t < at_supply.t + 25.0,
        "healed at {} s, arrived at {} s",
        healed.t,
        at_supply.t
    );
    assert!(
        first(&ticks, 14).is_some_and(|t| t.t > at_supply.t),
        "14 heal_at_supply"
    );
    // Second wave: under 200 again after 258 s, retreat again.
    assert!(
        ticks
            .iter()
            .any(|t| t.t > 258.0 && t.t < 259.0 && t.hp < 200 && t.decision == Some(13))
    );
    // The mode follows the decisions (13 says 7 spin, unless auto-aim sees a target: 8).
    assert!(
        ticks
            .iter()
            .filter(|t| t.decision == Some(13))
            .all(|t| matches!(t.mode, Some(7 | 8)))
    );
}

#[test]
fn closed_loop_runs_are_deterministic() {
    let path = sample_dir().join("scenarios/hp_retreat.json5");
    assert_eq!(closed_loop(&path, 3, 120.0), closed_loop(&path, 3, 120.0));
}

/// under_fire.json5 for 420 s: our sentry drives from the start zone to the fire point and
/// stands there, or (`retreat`) drives back to the start zone behind the wall once its HP is
/// 400 or less. Gives its HP at the end.
fn under_fire(seed: u64, retreat: bool) -> f64 {
    let path = sample_dir().join("scenarios/under_fire.json5");
    let scenario = load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
    let tables = tables(&scenario.config_path(&path));
    let at = |id: i32| {
        tables
            .graph
            .get(id)
            .map(|w| (w.x, w.y, 0.0))
            .unwrap_or_else(|| panic!("waypoint {id}"))
    };
    let (start_zone, fire_point) = (at(0), at(4));
    let mut sim = Simulation::new(&scenario, tables, seed).unwrap_or_else(|e| panic!("{e}"));
    assert!(sim.combat_enabled());
    let period = sim.publish_period();
    sim.on_goal(&common::goal(1, &[fire_point]));
    let mut sent = false;
    while !sim.finished() {
        if retreat && !sent && sim.hp()[5] <= 400 {
            sim.on_goal(&common::goal(2, &[start_zone]));
            sent = true;
        }
        sim.step(period);
    }
    sim.combat_stats().own_hp
}

#[test]
fn under_fire_retreating_beats_standing_for_most_seeds() {
    let seeds = 0..10u64;
    let better = seeds
        .clone()
        .filter(|&seed| under_fire(seed, true) > under_fire(seed, false))
        .count();
    assert!(
        better >= 9,
        "retreating kept more HP in only {better} of 10 matches"
    );
}
