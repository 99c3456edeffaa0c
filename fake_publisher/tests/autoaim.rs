//! Auto-aim: a target when an enemy is within INIT_SEEK_THR and visible on the map.
//! The wall field has a wall at x 5.9..6.1 m, y 2.5..5.5 m.

mod common;

use common::{run_until, wall_sim};

fn aim(body: &str) -> (bool, f32) {
    let sim = wall_sim(body, 0);
    let a = sim
        .frame()
        .autoaim
        .unwrap_or_else(|| panic!("auto-aim runs while we are alive"));
    (a.is_target_lost, a.yaw)
}

#[test]
fn a_visible_enemy_in_range_is_a_target() {
    // 2.5 m straight south of us, nothing in between; we face east (heading 0).
    let (lost, yaw) = aim("start: {self: {x: 4.5, y: 4.0}, B3: {x: 4.5, y: 6.5}}");
    assert!(!lost);
    assert!(
        (yaw - std::f32::consts::FRAC_PI_2).abs() < 1e-5,
        "relative gimbal yaw {yaw}"
    );
}

#[test]
fn an_enemy_behind_the_wall_is_occluded() {
    // 3 m east, straight through the wall at x = 6.
    assert!(aim("start: {self: {x: 4.5, y: 4.0}, B3: {x: 7.5, y: 4.0}}").0);
    // The same distance above the wall's end is visible.
    assert!(!aim("start: {self: {x: 4.5, y: 1.5}, B3: {x: 7.5, y: 1.5}}").0);
}

#[test]
fn out_of_range_dead_friendly_and_off_field_units_are_not_targets() {
    assert!(
        aim("start: {self: {x: 1.0, y: 7.0}, B3: {x: 6.5, y: 7.0}}").0,
        "5.5 m > INIT_SEEK_THR 5 m"
    );
    assert!(
        aim("start: {self: {x: 4.5, y: 4.0}, R3: {x: 4.5, y: 6.5}}").0,
        "friends are not targets"
    );
    assert!(
        aim("start: {self: {x: 4.5, y: 4.0}, B3: {x: 4.5, y: 6.5}}, hp: {B3: 0}").0,
        "dead"
    );
    assert!(
        aim("start: {self: {x: 4.5, y: 4.0}}").0,
        "nobody on the field"
    );
}

#[test]
fn the_target_appears_when_an_enemy_walks_out_from_behind_the_wall() {
    let mut sim = wall_sim(
        "start: {self: {x: 4.5, y: 4.0}},
         robots: {B1: {script: [{at: 0, x: 7.5, y: 4.0}, {at: 10, x: 7.5, y: 7.5}]}}",
        0,
    );
    let lost = |s: &fake_publisher::Simulation| s.frame().autoaim.is_some_and(|a| a.is_target_lost);
    assert!(lost(&sim));
    run_until(&mut sim, 10.0, 0.1);
    // At (7.5, 7.5): 4.6 m away, the line passes below the wall's end (y 5.5 at x 6 -> y ~6.1).
    assert!(!lost(&sim));
}
