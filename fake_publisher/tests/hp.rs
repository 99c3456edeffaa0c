//! HP: defaults, events, regeneration at the supply waypoint, structure damage, the match end.

mod common;

use common::{goal, run_until, wall_sim};

#[test]
fn defaults_and_overrides() {
    let sim = wall_sim("hp: {R1: 300, self: 550, blue_base: 4000}", 0);
    let hp = sim.hp();
    assert_eq!(
        hp,
        [
            300, 500, 400, 400, 400, 550, 1500, 5000, 500, 500, 400, 400, 400, 600, 1500, 4000
        ]
    );
    assert_eq!(sim.frame().obj_hp.hp, hp.to_vec());
}

#[test]
fn events_set_damage_and_heal_in_time_order() {
    let mut sim = wall_sim(
        "hp_events: [{at: 2, target: 'self', damage: 250}, {at: 1, target: 'B3', set: 10},
                     {at: 3, target: 5, heal: 50}, {at: 4, target: 'red_outpost', damage: 2000}]",
        0,
    );
    run_until(&mut sim, 1.0, 0.1);
    assert_eq!(sim.hp()[10], 10);
    assert_eq!(sim.hp()[5], 600);
    run_until(&mut sim, 2.0, 0.1);
    assert_eq!(sim.hp()[5], 350);
    run_until(&mut sim, 3.0, 0.1);
    assert_eq!(sim.hp()[5], 400);
    run_until(&mut sim, 4.0, 0.1);
    assert_eq!(sim.hp()[6], 0, "not below 0");
}

#[test]
fn regeneration_only_at_the_waypoint_and_up_to_max() {
    // Waypoint 3 "left_low" at (3, 6); we start at waypoint 1 (3, 2), 4 m away. Straight-line
    // Nav2 (`planner: false`) for the exact arrival time.
    let mut sim = wall_sim(
        "start: {self: 1}, hp: {self: 100}, nav: {planner: false},
         regeneration: {waypoint: 3, hp_per_second: 20, max: 300}",
        0,
    );
    run_until(&mut sim, 5.0, 0.1);
    assert_eq!(sim.hp()[5], 100, "no healing away from the waypoint");
    sim.on_goal(&goal(1, &[(3.0, 6.0, 0.0)]));
    // Within 1 m of (3, 6) after 0.1 s accept delay + 3 m / 1.5 m/s = 2.1 s, i.e. at 7.1 s.
    run_until(&mut sim, 7.0, 0.1);
    assert_eq!(sim.hp()[5], 100);
    run_until(&mut sim, 8.0, 0.1);
    let healed = sim.hp()[5];
    assert!((116..=120).contains(&healed), "{healed}");
    run_until(&mut sim, 30.0, 0.1);
    assert_eq!(sim.hp()[5], 300, "capped at max");
}

#[test]
fn structure_damage_reaches_zero_and_a_base_at_zero_ends_the_match() {
    let mut sim = wall_sim(
        "structure_damage: [{target: 'outpost', from: 10, to: 40, hp_per_second: 100},
                            {target: 'base', side: 'blue', from: 0, to: 1000, hp_per_second: 50}]",
        0,
    );
    run_until(&mut sim, 10.0, 0.1);
    assert_eq!(sim.hp()[6], 1500);
    run_until(&mut sim, 20.0, 0.1);
    assert_eq!(sim.hp()[6], 500);
    run_until(&mut sim, 25.0, 0.1);
    assert_eq!(sim.hp()[6], 0);
    assert!(!sim.finished());
    run_until(&mut sim, 200.0, 0.1);
    assert!(sim.finished(), "blue base destroyed at 100 s");
    assert!((sim.time() - 100.0).abs() < 0.11, "{}", sim.time());
    assert_eq!(sim.hp()[15], 0);
    assert_eq!(sim.frame().game_info.game_stage, 5);
    let t = sim.time();
    sim.step(1.0);
    assert_eq!(sim.time(), t, "frozen after the end");
}

#[test]
fn the_match_ends_when_time_is_up() {
    let mut sim = wall_sim("game_time: 30", 0);
    assert_eq!(sim.frame().game_info.timestamp, 30.0);
    run_until(&mut sim, 29.9, 0.1);
    assert!(!sim.finished());
    assert_eq!(sim.frame().game_info.game_stage, 4);
    sim.step(0.1);
    assert!(sim.finished());
    assert_eq!(sim.frame().game_info.timestamp, 0.0);
}

#[test]
fn stages_and_the_match_clock() {
    let mut sim = wall_sim(
        "game_time: 100, stages: [{at: 0, stage: 1}, {at: 5, stage: 3}, {at: 10, stage: 4}]",
        0,
    );
    assert_eq!(sim.stage(), 1);
    run_until(&mut sim, 7.0, 0.5);
    assert_eq!(sim.stage(), 3);
    assert_eq!(sim.remaining(), 100.0);
    run_until(&mut sim, 30.0, 0.5);
    assert_eq!(sim.stage(), 4);
    assert!((sim.remaining() - 80.0).abs() < 1e-9);
    run_until(&mut sim, 200.0, 0.5);
    assert!(sim.finished());
    assert!((sim.time() - 110.0).abs() < 1e-6);
}
