//! How the other robots move: patrol, random walk, script, stationary, off the field.

mod common;

use common::{run_until, tables, wall_config, wall_sim};

/// Waypoints as (id, x, y).
type Points = Vec<(i32, f64, f64)>;
/// Directed edges as (from, to).
type Edges = Vec<(i32, i32)>;

/// Waypoints of the wall field and its connect edges.
fn field() -> (Points, Edges) {
    let t = tables(&wall_config());
    let points = t
        .graph
        .waypoints()
        .iter()
        .map(|w| (w.id, f64::from(w.x), f64::from(w.y)))
        .collect();
    let edges = t
        .graph
        .waypoints()
        .iter()
        .flat_map(|w| w.connect.iter().map(move |c| (w.id, *c)))
        .collect();
    (points, edges)
}

fn distance_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let k = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.0 - a.0 - k * dx).hypot(p.1 - a.1 - k * dy)
}

#[test]
fn patrol_visits_its_waypoints_in_order_at_its_speed() {
    // 1 (3, 2) -> 3 (3, 6) -> 4 (9, 6) -> back to 1; starts at 1.
    let mut sim = wall_sim("robots: {B3: {patrol: [1, 3, 4], speed: 2}}", 0);
    let b3 =
        |s: &fake_publisher::Simulation| (s.robots()[8].x, s.robots()[8].y, s.robots()[8].heading);
    assert_eq!(b3(&sim), (3.0, 2.0, 1.5));
    run_until(&mut sim, 1.0, 0.1);
    let (x, y, h) = b3(&sim);
    assert!(
        (x - 3.0).abs() < 1e-9
            && (y - 4.0).abs() < 1e-9
            && (h - std::f64::consts::FRAC_PI_2).abs() < 1e-9
    );
    run_until(&mut sim, 2.0, 0.1);
    assert!((b3(&sim).1 - 6.0).abs() < 1e-9);
    run_until(&mut sim, 5.0, 0.1); // 6 m east at 2 m/s
    assert!((b3(&sim).0 - 9.0).abs() < 1e-9, "{:?}", b3(&sim));
    // A lap is 4 + 6 + 7.21 m = 8.6 s at 2 m/s; a huge step does not hang and stays on the loop.
    sim.step(1.0e6);
    let (x, y, _) = b3(&sim);
    let on_loop = [
        ((3.0, 2.0), (3.0, 6.0)),
        ((3.0, 6.0), (9.0, 6.0)),
        ((9.0, 6.0), (3.0, 2.0)),
    ]
    .iter()
    .any(|(a, b)| distance_to_segment((x, y), *a, *b) < 1e-6);
    assert!(on_loop, "({x}, {y})");
}

#[test]
fn random_walk_stays_on_connect_edges() {
    let (points, edges) = field();
    let at = |id: i32| {
        points
            .iter()
            .find(|p| p.0 == id)
            .map(|p| (p.1, p.2))
            .unwrap_or_default()
    };
    for seed in 0..5 {
        let mut sim = wall_sim("robots: {B7: {random_walk: {speed: 2.5}}}", seed);
        let mut visited = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            sim.step(0.1);
            let r = &sim.robots()[11];
            let p = (r.x, r.y);
            assert!(
                edges
                    .iter()
                    .any(|(a, b)| distance_to_segment(p, at(*a), at(*b)) < 1e-6),
                "seed {seed}: {p:?} off the graph"
            );
            if let Some(w) = points.iter().find(|w| (w.1 - p.0).hypot(w.2 - p.1) < 0.3) {
                visited.insert(w.0);
            }
        }
        assert!(visited.len() >= 3, "seed {seed}: visited {visited:?}");
    }
}

#[test]
fn random_walk_from_a_point_goes_to_the_nearest_waypoint_first() {
    let mut sim = wall_sim(
        "start: {B7: {x: 10.5, y: 6.5}}, robots: {B7: {random_walk: {speed: 1}}}",
        3,
    );
    run_until(&mut sim, 1.0, 0.1);
    let r = &sim.robots()[11];
    // Nearest is waypoint 5 (11, 7) or 4 (9, 6): 0.71 m vs 1.58 m.
    assert!((r.x - 11.0).abs() < 0.3 && (r.y - 7.0).abs() < 0.3, "{r:?}");
}

#[test]
fn stationary_off_field_and_script() {
    let sim = wall_sim(
        "start: {B1: 2, B2: 0, R2: {x: 1, y: 1}}, robots: {B1: 'stationary', B2: {stationary: true}, R3: {script: [{at: 5, x: 2, y: 2}]}}",
        0,
    )
    .frame();
    assert_eq!((sim.car_pos.pos[6].x, sim.car_pos.pos[6].y), (9.0, 2.0));
    assert_eq!(
        (sim.car_pos.pos[1].x, sim.car_pos.pos[1].y),
        (1.0, 1.0),
        "a start alone: stationary"
    );
    assert_eq!(
        (sim.car_pos.pos[2].x, sim.car_pos.pos[2].y),
        (2.0, 2.0),
        "before the first point: at it"
    );
    assert_eq!((sim.car_pos.pos[7].x, sim.car_pos.pos[7].y), (6.0, 1.5));
    for i in [0, 3, 4, 8, 9, 10, 11] {
        assert_eq!(
            (sim.car_pos.pos[i].x, sim.car_pos.pos[i].y),
            (0.0, 0.0),
            "robot {i} is off the field"
        );
    }
}

#[test]
fn stationary_without_start_is_an_error() {
    let text = format!(
        "{{field: {:?}, side: 'red', robots: {{B2: {{stationary: true}}}}}}",
        wall_config().display().to_string()
    );
    let (_dir, path) = common::scenario_file("s.json5", &text);
    let e = fake_publisher::load_scenario(&path)
        .err()
        .unwrap_or_else(|| panic!("must fail"));
    assert_eq!(e.problems[0].field, "robots.B2");
}

#[test]
fn dead_robots_stay_where_they_are() {
    let mut sim = wall_sim(
        "robots: {B3: {patrol: [1, 3], speed: 1}}, hp_events: [{at: 1, target: 'B3', set: 0}, {at: 3, target: 'B3', set: 100}]",
        0,
    );
    run_until(&mut sim, 1.0, 0.1);
    let p = (sim.robots()[8].x, sim.robots()[8].y);
    assert!(!sim.robots()[8].alive);
    run_until(&mut sim, 3.0, 0.1);
    assert_eq!((sim.robots()[8].x, sim.robots()[8].y), p);
    run_until(&mut sim, 4.0, 0.1);
    assert!(
        sim.robots()[8].alive && sim.robots()[8].y > p.1,
        "revived and moving again"
    );
}
