//! `World::update_with_memo` (nearest waypoints of unmoved robots from the last tick) gives the
//! world `World::update` derives afresh, tick after tick, whether robots move or stay.

mod common;

use common::*;
use decision_core::robomaster::world::{NearestMemo, World};

#[test]
fn memoised_updates_equal_fresh_updates() {
    let tables = Field::new().tables();
    let (config, graph) = (&tables.config, &tables.graph);
    // Robots that stay, move onto and off waypoints, become unknown and come back, and an
    // input skipped in between (which must not disturb the memo).
    let mut inputs = vec![
        place(at_waypoint(0), 0, WAYPOINTS[1]),
        place(at_waypoint(0), 0, WAYPOINTS[1]),
        place(at_waypoint(2), 0, WAYPOINTS[3]),
        place(place(at_waypoint(2), 0, (0.0, 3.0)), 7, WAYPOINTS[4]),
        place(place(at_waypoint(2), 0, (7.5, 4.0)), 7, WAYPOINTS[4]),
        place(at_waypoint(5), 11, (-0.0, 1.5)),
        place(at_waypoint(5), 11, (0.0, 1.5)),
        posed(snapshot((0.0, 0.0)), 3.0, 2.0, 0.5),
        posed(snapshot((0.0, 0.0)), 9.0, 6.0, 0.5),
    ];
    let mut not_in_battle = at_waypoint(1);
    not_in_battle.game_stage = 2;
    inputs.insert(3, not_in_battle);
    assert_memoised_updates_equal_fresh_ones(&inputs, config, graph);
}

/// A position slot holding a non-finite coordinate skips the tick whatever the other slots
/// hold, and only then: the update's lane-wise check agrees with `is_finite` per coordinate.
#[test]
fn any_non_finite_coordinate_skips_the_tick() {
    use decision_core::robomaster::world::InputSkip;
    let tables = Field::new().tables();
    let (config, graph) = (&tables.config, &tables.graph);
    let odd = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        f32::MIN,
        -0.0,
        f32::MIN_POSITIVE / 4.0,
        1.5,
    ];
    for slot in 0..12 {
        for (k, &value) in odd.iter().enumerate() {
            for y in [false, true] {
                let mut input = at_waypoint(slot % 6);
                let p = &mut input.positions[slot];
                if y {
                    p.y = value;
                } else {
                    p.x = value;
                }
                let skipped = World::default().update(&input, config, graph)
                    == Err(InputSkip::InvalidPosition);
                assert_eq!(skipped, !value.is_finite(), "slot {slot}, value {k}, y {y}");
            }
        }
    }
}

/// The same `car_pos` as the last tick (every unit taken from the memo) with our pose
/// moving, ourselves at another slot's position, and positions that differ only in the sign of
/// a zero: still the fresh world.
#[test]
fn unmoved_units_with_a_moving_pose_equal_fresh_updates() {
    let tables = Field::new().tables();
    let (config, graph) = (&tables.config, &tables.graph);
    let base = place(snapshot((0.0, 0.0)), 8, WAYPOINTS[2]);
    let inputs = vec![
        posed(base.clone(), 3.0, 2.0, 0.5),
        posed(base.clone(), 3.0, 2.0, 0.5),
        posed(base.clone(), 9.0, 6.0, 0.5),
        posed(base.clone(), WAYPOINTS[2].0, WAYPOINTS[2].1, 0.1),
        place(base.clone(), 0, WAYPOINTS[4]),
        place(base.clone(), 0, WAYPOINTS[4]),
        place(place(base.clone(), 0, WAYPOINTS[4]), 9, (-0.0, 2.0)),
        place(place(base.clone(), 0, WAYPOINTS[4]), 9, (0.0, 2.0)),
        place(place(base, 0, WAYPOINTS[4]), 9, (0.0, 2.0)),
    ];
    assert_memoised_updates_equal_fresh_ones(&inputs, config, graph);
}

/// Random walks of every slot (staying, moving, on and off waypoints, unknown) for both
/// colours and several of our own slots: the memo, which keeps each slot's unit apart and
/// skips our own, must agree with fresh updates on every tick.
#[test]
fn random_walks_for_both_colours_and_every_own_slot_equal_fresh_updates() {
    let tables = Field::new().tables();
    let graph = &tables.graph;
    let mut rng = geometry::rng::SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    let mut next = move |below: usize| rng.below(below);
    for is_blue in [false, true] {
        for self_index in [0, 3, 5, 7, -2] {
            let mut config = tables.config.clone();
            config.is_blue = is_blue;
            config.self_index = self_index;
            let mut input = at_waypoint(0);
            let mut inputs = Vec::new();
            for _ in 0..200 {
                // About two slots change per tick; a change puts the robot on a waypoint,
                // somewhere between them, or nowhere (an unknown position).
                for _ in 0..next(4) {
                    let slot = next(12);
                    let at = match next(3) {
                        0 => WAYPOINTS[next(6)],
                        1 => (next(1200) as f32 / 100.0, next(800) as f32 / 100.0),
                        _ => (0.0, next(800) as f32 / 100.0),
                    };
                    input = place(input, slot, at);
                }
                input.pose = (next(4) == 0).then(|| decision_core::robomaster::Pose {
                    x: next(1200) as f32 / 100.0,
                    y: next(800) as f32 / 100.0,
                    yaw: 0.5,
                });
                inputs.push(input.clone());
            }
            assert_memoised_updates_equal_fresh_ones(&inputs, &config, graph);
        }
    }
}

/// Updates one world through a memo and another afresh with each of `inputs` in turn: both
/// must give the same result and the same world after every input.
fn assert_memoised_updates_equal_fresh_ones(
    inputs: &[decision_core::robomaster::TickInput],
    config: &decision_core::robomaster::config::RmConfig,
    graph: &waypoint_graph::WaypointGraph,
) {
    // Without and with the grid of nearest waypoints.
    for mut memo in [
        NearestMemo::default(),
        NearestMemo::new(graph, config.distance_thr),
    ] {
        let (mut memoised, mut fresh) = (World::default(), World::default());
        for (i, input) in inputs.iter().enumerate() {
            let a = memoised.update_with_memo(input, config, graph, &mut memo);
            let b = fresh.update(input, config, graph);
            assert_eq!(a, b, "input {i}");
            assert_eq!(format!("{memoised:?}"), format!("{fresh:?}"), "input {i}");
        }
    }
}
