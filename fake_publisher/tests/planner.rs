//! The planned Nav2 (`nav.planner`, the default): around the walls and the other robots.

mod common;

use common::{goal, run_until, wall_sim};
use fake_publisher::Simulation;
use std::f32::consts::FRAC_PI_2;

/// Whether (x, y) is on a wall pixel (grey < 10) of the field's map, or off the map.
fn on_wall(sim: &Simulation, x: f64, y: f64) -> bool {
    let map = &sim.tables().map;
    let (cols, rows) = (map.cols() as usize, map.rows() as usize);
    let (w, h) = (f64::from(map.real_width()), f64::from(map.real_height()));
    if !(x >= 0.0 && y >= 0.0 && x < w && y < h) {
        return true;
    }
    let c = ((x / w * cols as f64) as usize).min(cols - 1);
    let r = ((y / h * rows as f64) as usize).min(rows - 1);
    map.pixels()[r * cols + c] < 10
}

/// Steps at 10 Hz until the goal is over or `until`; our track.
fn drive(sim: &mut Simulation, until: f64) -> Vec<(f64, f64)> {
    let mut track = Vec::new();
    while sim.time() < until && sim.nav_status() != 4 {
        sim.step(0.1);
        let me = &sim.robots()[sim.own_index()];
        track.push((me.x, me.y));
    }
    track
}

#[test]
fn the_robot_drives_around_the_wall_without_entering_it() {
    // The wall is at x 5.9..6.1 m, y 2.5..5.5 m; the straight line from (4, 4) to (8, 4) crosses it.
    let mut sim = wall_sim("start: {self: {x: 4.0, y: 4.0}}", 0);
    assert!(on_wall(&sim, 6.0, 4.0), "the fixture has its wall");
    sim.on_goal(&goal(1, &[(8.0, 4.0, FRAC_PI_2)]));
    let track = drive(&mut sim, 30.0);
    for &(x, y) in &track {
        assert!(!on_wall(&sim, x, y), "on a wall pixel at ({x:.2}, {y:.2})");
        let inside = (5.9..=6.1).contains(&x) && (2.5..=5.5).contains(&y);
        assert!(!inside, "inside the wall at ({x:.2}, {y:.2})");
    }
    assert_eq!(
        sim.nav_status(),
        4,
        "not arrived by 30 s: {:?}",
        track.last()
    );
    let detour = track.iter().map(|p| (p.1 - 4.0).abs()).fold(0.0, f64::max);
    assert!(detour > 1.5, "went around the wall's end: {detour}");
    let frame = sim.frame();
    assert_eq!((frame.pose.x, frame.pose.y), (8.0, 4.0));
    assert!((frame.pose.yaw - FRAC_PI_2).abs() < 1e-6);
}

#[test]
fn the_robot_does_not_collide_with_a_robot_on_its_straight_line() {
    let mut sim = wall_sim("start: {self: {x: 2.0, y: 1.2}, B1: {x: 6.0, y: 1.2}}", 0);
    sim.on_goal(&goal(1, &[(10.0, 1.2, 0.0)]));
    let other = {
        let b1 = &sim.robots()[6];
        assert_eq!(b1.name, "B1");
        (b1.x, b1.y)
    };
    let track = drive(&mut sim, 30.0);
    assert_eq!(
        sim.nav_status(),
        4,
        "not arrived by 30 s: {:?}",
        track.last()
    );
    let closest = track
        .iter()
        .map(|p| (p.0 - other.0).hypot(p.1 - other.1))
        .fold(f64::INFINITY, f64::min);
    // Two robots of radius 0.3 m touch at 0.6 m.
    assert!(closest > 0.55, "came within {closest:.3} m of B1");
    for &(x, y) in &track {
        assert!(!on_wall(&sim, x, y), "on a wall pixel at ({x:.2}, {y:.2})");
    }
}

#[test]
fn a_planned_goal_passes_its_poses_and_succeeds_at_the_last() {
    let mut sim = wall_sim("start: {self: 1}", 0); // waypoint 1 at (3, 2)
    sim.on_goal(&goal(1, &[(3.0, 5.0, 0.5), (4.0, 5.0, FRAC_PI_2)]));
    sim.step(0.05);
    assert_eq!(sim.nav_status(), 1, "still within the accept delay");
    sim.step(0.1);
    assert_eq!(sim.nav_status(), 2);
    let feedback = sim.frame().nav_feedback;
    assert_eq!(feedback.map(|f| f.number_of_poses_remaining), Some(2));
    // Accelerating (3 m/s^2 up to 1.5 m/s): slower than the straight-line 1.5 m/s from the start.
    run_until(&mut sim, 1.0, 0.1);
    let me = &sim.robots()[5];
    assert!(me.y > 2.5 && me.y < 3.5, "{me:?}");
    run_until(&mut sim, 10.0, 0.1);
    assert_eq!(sim.nav_status(), 4);
    let frame = sim.frame();
    assert_eq!((frame.pose.x, frame.pose.y), (4.0, 5.0));
    assert!((frame.pose.yaw - FRAC_PI_2).abs() < 1e-6);
    assert!(frame.nav_feedback.is_none());
}

#[test]
fn planned_drives_are_deterministic() {
    let run = || {
        let mut sim = wall_sim(
            "start: {self: {x: 4.0, y: 4.0}, B1: {x: 7.0, y: 2.0}},
             robots: {B2: {patrol: [1, 3], speed: 1.0}}",
            7,
        );
        sim.on_goal(&goal(1, &[(8.0, 4.0, 0.0), (3.0, 6.0, 0.0)]));
        drive(&mut sim, 30.0)
    };
    assert_eq!(run(), run());
}

#[test]
fn sample_matches_never_put_our_robot_on_a_wall_and_goals_succeed() {
    for name in ["hp_retreat.json5", "outpost_loss.json5"] {
        let path = common::sample_dir().join("scenarios").join(name);
        let scenario = fake_publisher::load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
        let sim = Simulation::new(&scenario, common::tables(&scenario.config_path(&path)), 0)
            .unwrap_or_else(|e| panic!("{e}"));
        let ticks = common::closed_loop(&path, 0, 420.0);
        for t in &ticks {
            assert!(
                !on_wall(&sim, t.x, t.y),
                "{name}: on a wall pixel at {:.1} s: ({:.2}, {:.2})",
                t.t,
                t.x,
                t.y
            );
        }
        let succeeded = ticks
            .windows(2)
            .filter(|w| w[0].nav != 4 && w[1].nav == 4)
            .count();
        println!("{name}: {succeeded} goals succeeded");
        assert!(succeeded >= 3, "{name}: only {succeeded} goals succeeded");
    }
}
