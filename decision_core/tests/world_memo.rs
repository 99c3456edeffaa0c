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
    let mut memo = NearestMemo::default();
    let (mut memoised, mut fresh) = (World::default(), World::default());
    for (i, input) in inputs.iter().enumerate() {
        let a = memoised.update_with_memo(input, config, graph, &mut memo);
        let b = fresh.update(input, config, graph);
        assert_eq!(a, b, "input {i}");
        assert_eq!(format!("{memoised:?}"), format!("{fresh:?}"), "input {i}");
    }
}
