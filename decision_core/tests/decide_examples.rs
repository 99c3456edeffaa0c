//! Worked examples of the RoboMaster rules (`docs/src/formats/decisions.md`), on our own fixture field:
//! guard bounds, current waypoint, DFS paths, ties and weight <= 0, preemption and
//! commitment, aim with and without a wall, headings, the Decision message, blue side, skips.

mod common;

use common::*;
use decision_core::robomaster::context::NavAction;
use decision_core::robomaster::{Skip, TickInput};
use serde_json::json;
use std::f32::consts::{FRAC_PI_2, PI};

fn available_ids(field: &Field, input: &TickInput) -> Vec<i32> {
    let mut decider = field.decider();
    tick(&mut decider, input).available
}

/// One guard field at its bound: (extra decision fields, inputs that pass, inputs that fail).
fn bound_case(extra: serde_json::Value, pass: TickInput, fail: TickInput, why: &str) {
    let field = Field::new().decisions(&[decision(0, 100, 1, extra.clone())]);
    assert_eq!(available_ids(&field, &pass), vec![0], "{extra} should pass");
    let mut decider = field.decider();
    let result = tick(&mut decider, &fail);
    assert!(result.available.is_empty(), "{extra} should fail");
    assert_eq!(result.why_not.0, vec![(0, why.to_string())], "{extra}");
    assert_eq!(result.skipped, Some(Skip::NoDecision));
}

fn with_hp(hp: u16) -> TickInput {
    let mut s = at_waypoint(0);
    s.hp[5] = hp;
    s
}

fn at_elapsed(elapsed: f64) -> TickInput {
    let mut s = at_waypoint(0);
    s.remaining_time = 420.0 - elapsed;
    s
}

#[test]
fn hp_bounds_lower_exclusive_upper_inclusive() {
    bound_case(
        json!({"minHP": 300}),
        with_hp(301),
        with_hp(300),
        "minHP: HP 300 <= minHP 300",
    );
    bound_case(
        json!({"maxHP": 300}),
        with_hp(300),
        with_hp(301),
        "maxHP: HP 301 > maxHP 300",
    );
}

#[test]
fn time_bounds_lower_exclusive_upper_inclusive() {
    bound_case(
        json!({"start_time": 30}),
        at_elapsed(31.0),
        at_elapsed(30.0),
        "start_time: game time 30 s <= start_time 30 s",
    );
    bound_case(
        json!({"end_time": 100}),
        at_elapsed(100.0),
        at_elapsed(101.0),
        "end_time: game time 101 s > end_time 100 s",
    );
}

#[test]
fn outpost_base_and_mode_bounds() {
    let outpost = |hp: u16| {
        let mut s = at_waypoint(0);
        s.hp[6] = hp;
        s
    };
    bound_case(
        json!({"out_post_HP_min": 500}),
        outpost(500),
        outpost(499),
        "out_post_HP_min: outpost HP 499 < out_post_HP_min 500",
    );
    bound_case(
        json!({"out_post_HP_max": 0}),
        outpost(0),
        outpost(1),
        "out_post_HP_max: outpost HP 1 > out_post_HP_max 0",
    );
    let base = |hp: u16| {
        let mut s = at_waypoint(0);
        s.hp[7] = hp;
        s
    };
    bound_case(
        json!({"base_HP_min": 1000}),
        base(1000),
        base(999),
        "base_HP_min: base HP 999 < base_HP_min 1000",
    );
    let mode = |m: u8| {
        let mut s = at_waypoint(0);
        s.mode = m;
        s
    };
    bound_case(
        json!({"robot_mode": 3}),
        mode(3),
        mode(2),
        "robot_mode: mode 2 != robot_mode 3",
    );
}

#[test]
fn waypoint_and_position_guards() {
    bound_case(
        json!({"wayPointID": [1, 2]}),
        at_waypoint(2),
        at_waypoint(0),
        "wayPointID: current waypoint 0 not in [1, 2]",
    );
    // friend hero (red index 0) and enemy sentry (blue index 11)
    bound_case(
        json!({"friendPosition": [[3], [-1], [-1], [-1], [-1], [-1]]}),
        place(at_waypoint(0), 0, WAYPOINTS[3]),
        place(at_waypoint(0), 0, WAYPOINTS[4]),
        "friendPosition[0]: friend hero at waypoint 4, not in [3]",
    );
    bound_case(
        json!({"enemyPosition": [[-1], [-1], [-1], [-1], [-1], [4]]}),
        place(at_waypoint(0), 11, WAYPOINTS[4]),
        at_waypoint(0),
        "enemyPosition[5]: enemy sentry position unknown, need one of [4]",
    );
    // friend sentry = ourselves when we are the sentry
    bound_case(
        json!({"friendPosition": [[-1], [-1], [-1], [-1], [-1], [2]]}),
        at_waypoint(2),
        at_waypoint(1),
        "friendPosition[5]: friend sentry at waypoint 1, not in [2]",
    );
}

#[test]
fn guards_are_checked_in_the_spec_order_and_the_first_failure_is_explained() {
    let field = Field::new().decisions(&[decision(
        0,
        100,
        1,
        json!({"wayPointID": [2], "minHP": 700, "end_time": 10}),
    )]);
    let mut decider = field.decider();
    let r = tick(&mut decider, &at_waypoint(0));
    assert_eq!(
        r.why_not.0,
        vec![(0, "wayPointID: current waypoint 0 not in [2]".to_string())]
    );
    let r = tick(&mut decider, &at_waypoint(2));
    assert_eq!(
        r.why_not.0,
        vec![(0, "minHP: HP 600 <= minHP 700".to_string())]
    );
}

#[test]
fn current_waypoint_threshold_equality_and_ties() {
    let field = Field::new();
    let mut decider = field.decider();
    // exactly INIT_DISTANCE_THR (1.0) from waypoint 1 counts as at it
    assert_eq!(tick(&mut decider, &snapshot((3.0, 3.0))).waypoint, Some(1));
    assert_eq!(tick(&mut decider, &snapshot((3.0, 3.01))).waypoint, None);
    // equidistant waypoints: the earlier in the file wins
    let wp = |id: i32, x: f32| json!({"id": id, "name": format!("w{id}"), "x": x, "y": 2.0, "angle": 0.0, "connect": []});
    let field = Field::new()
        .waypoints(&[wp(7, 2.0), wp(8, 4.0)])
        .decisions(&[decision(0, 1, -1, json!({}))]);
    assert_eq!(
        tick(&mut field.decider(), &snapshot((3.0, 2.0))).waypoint,
        Some(7)
    );
    let field = Field::new()
        .waypoints(&[wp(8, 4.0), wp(7, 2.0)])
        .decisions(&[decision(0, 1, -1, json!({}))]);
    assert_eq!(
        tick(&mut field.decider(), &snapshot((3.0, 2.0))).waypoint,
        Some(8)
    );
}

#[test]
fn succession_paths_follow_the_original_dfs_order() {
    let field = Field::new().decisions(&[decision(0, 100, 4, json!({"if_succession": true}))]);
    let mut decider = field.decider();
    assert_eq!(tick(&mut decider, &at_waypoint(3)).path, vec![1, 0, 2, 4]);
    let mut decider = field.decider();
    assert_eq!(tick(&mut decider, &at_waypoint(0)).path, vec![2, 4]);
    let mut decider = field.decider();
    let r = tick(&mut decider, &at_waypoint(4));
    assert_eq!(r.path, vec![4], "start == target gives [target]");
    // direct decisions go straight to the target
    let field = Field::new().decisions(&[decision(0, 100, 4, json!({}))]);
    assert_eq!(tick(&mut field.decider(), &at_waypoint(3)).path, vec![4]);
}

#[test]
fn unreachable_targets_and_no_waypoint_are_not_executable() {
    let field = Field::new().decisions(&[decision(0, 100, 5, json!({"if_succession": true}))]);
    let mut decider = field.decider();
    let r = tick(&mut decider, &at_waypoint(0));
    assert_eq!(r.skipped, Some(Skip::Unreachable));
    assert_eq!((r.best, r.chosen, r.decision), (Some(0), None, None));
    assert!(r.path.is_empty());
    // succession without a current waypoint
    let field = Field::new().decisions(&[decision(0, 100, 4, json!({"if_succession": true}))]);
    let r = tick(&mut field.decider(), &snapshot((4.5, 4.0)));
    assert_eq!((r.waypoint, r.skipped), (None, Some(Skip::Unreachable)));
}

#[test]
fn shortest_path_option() {
    let wp = |id: i32, x: f32, y: f32, connect: Vec<i32>| json!({"id": id, "name": format!("w{id}"), "x": x, "y": y, "angle": 0.0, "connect": connect});
    let waypoints = [
        wp(0, 1.0, 1.0, vec![1, 2]),
        wp(1, 1.0, 7.0, vec![3]),
        wp(2, 3.0, 1.0, vec![3]),
        wp(3, 5.0, 1.5, vec![]),
    ];
    let d = [decision(0, 100, 3, json!({"if_succession": true}))];
    let field = Field::new().waypoints(&waypoints).decisions(&d);
    assert_eq!(
        tick(&mut field.decider(), &snapshot((1.0, 1.0))).path,
        vec![1, 3]
    );
    let field = Field::new()
        .waypoints(&waypoints)
        .decisions(&d)
        .config(&[("PATH_PLANNING", json!("shortest"))]);
    assert_eq!(
        tick(&mut field.decider(), &snapshot((1.0, 1.0))).path,
        vec![2, 3]
    );
}

#[test]
fn ties_go_to_the_earlier_decision_and_weight_zero_is_never_chosen() {
    let field = Field::new().decisions(&[
        decision(0, 0, 2, json!({})),
        decision(1, 100, 1, json!({})),
        decision(2, 100, 2, json!({})),
    ]);
    let r = tick(&mut field.decider(), &at_waypoint(0));
    assert_eq!(r.available, vec![0, 1, 2]);
    assert_eq!((r.best, r.chosen), (Some(1), Some(1)));
    let field =
        Field::new().decisions(&[decision(0, 0, 2, json!({})), decision(1, -5, 1, json!({}))]);
    let r = tick(&mut field.decider(), &at_waypoint(0));
    assert_eq!(r.available, vec![0, 1]);
    assert_eq!(
        (r.best, r.chosen, r.skipped),
        (None, None, Some(Skip::NoDecision))
    );
    assert!(r.decision.is_none());
}

#[test]
fn preemption_and_commitment_follow_the_nav2_status() {
    let field = Field::new().decisions(&[
        decision(0, 100, 1, json!({"wayPointID": [0]})),
        decision(1, 100, 2, json!({})),
        decision(2, 200, 3, json!({"maxHP": 200, "decide_mode": 7})),
    ]);
    let mut decider = field.decider();
    let mut step = |input: TickInput, nav: u8| {
        let mut input = input;
        input.nav_status = nav;
        tick(&mut decider, &input)
    };
    let r = step(at_waypoint(0), 0);
    assert_eq!(
        (r.best, r.chosen, r.action, r.path.clone()),
        (Some(0), Some(0), NavAction::Send, vec![1])
    );
    // executing, off every waypoint: decision 0's guard fails, equal-weight 1 is best: keep 0
    let r = step(snapshot((4.5, 1.75)), 2);
    assert_eq!(
        (r.available.clone(), r.best, r.chosen, r.action),
        (vec![1], Some(1), Some(0), NavAction::Continue)
    );
    assert_eq!(r.path, vec![1]);
    assert_eq!(
        r.decision.map(|d| d.decision_id),
        Some(0),
        "the running decision's message is re-published"
    );
    // strictly heavier decision 2 preempts
    let mut low = snapshot((4.5, 1.75));
    low.hp[5] = 150;
    let r = step(low.clone(), 2);
    assert_eq!(
        (r.chosen, r.action, r.cancelled, r.path.clone()),
        (Some(2), NavAction::Preempt, Some(0), vec![3])
    );
    assert_eq!(r.decision.map(|d| (d.decision_id, d.mode)), Some((2, 7)));
    let r = step(low, 1);
    assert_eq!((r.chosen, r.action), (Some(2), NavAction::Continue));
    // arrived: succeeded, the same goal is held, not re-sent
    let mut arrived = at_waypoint(3);
    arrived.hp[5] = 150;
    let r = step(arrived.clone(), 4);
    assert_eq!((r.chosen, r.action), (Some(2), NavAction::Hold));
    assert!(
        r.decision.is_some(),
        "the message is published on every tick with a decision"
    );
    // the goal ended without success: sent again
    let r = step(arrived, 6);
    assert_eq!((r.chosen, r.action), (Some(2), NavAction::Send));
}

#[test]
fn finished_goal_lets_the_best_candidate_in() {
    let field = Field::new().decisions(&[
        decision(0, 100, 1, json!({"wayPointID": [0]})),
        decision(1, 50, 2, json!({})),
    ]);
    let mut decider = field.decider();
    tick(&mut decider, &at_waypoint(0));
    let mut arrived = at_waypoint(1);
    arrived.nav_status = 4;
    let r = tick(&mut decider, &arrived);
    assert_eq!(
        (r.chosen, r.action, r.path.clone()),
        (Some(1), NavAction::Send, vec![2])
    );
}

#[test]
fn minus_one_target_and_mode_resolve_every_tick() {
    let field = Field::new().decisions(&[decision(0, 100, -1, json!({"decide_mode": -1}))]);
    let mut decider = field.decider();
    let mut s = at_waypoint(2);
    s.mode = 3;
    let r = tick(&mut decider, &s);
    assert_eq!(
        (r.path.clone(), r.decision.map(|d| d.mode)),
        (vec![2], Some(3))
    );
    let mut s = at_waypoint(4);
    s.mode = 5;
    s.nav_status = 4;
    let r = tick(&mut decider, &s);
    assert_eq!(
        (r.path.clone(), r.decision.map(|d| d.mode), r.action),
        (vec![4], Some(5), NavAction::Send)
    );
}

#[test]
fn aim_picks_the_nearest_visible_enemy_and_the_wall_occludes() {
    let field = Field::new().decisions(&[decision(0, 100, 1, json!({}))]);
    let me = snapshot((4.0, 4.0));
    // enemy hero straight across the wall: occluded
    let behind_wall = place(me.clone(), 6, (8.0, 4.0));
    let r = tick(&mut field.decider(), &behind_wall);
    assert_eq!(r.aim_yaw, None);
    assert_eq!(r.decision.map(|d| d.theta), Some(0.0));
    // the same distance with no wall between: seen
    let clear = place(me.clone(), 6, (4.0, 8.0 - 0.5));
    let r = tick(&mut field.decider(), &clear);
    assert_eq!(r.aim_yaw, Some(FRAC_PI_2));
    // nearest visible of several: blue 3 at 3 m clear, blue 4 at 4.24 m clear, hero behind the wall
    let many = place(place(behind_wall, 8, (4.0, 7.0)), 9, (7.0, 1.0));
    let r = tick(&mut field.decider(), &many);
    assert_eq!(r.aim_yaw, Some(FRAC_PI_2));
    let r = tick(&mut field.decider(), &place(many, 8, (0.0, 0.0)));
    let expected = (-3.0f32).atan2(3.0).rem_euclid(2.0 * PI);
    assert!((r.aim_yaw.unwrap() - expected).abs() < 1e-6);
    // out of the seek circle (5 m)
    let far = place(me, 6, (4.0 + 5.1, 4.0 + 3.0));
    assert_eq!(tick(&mut field.decider(), &far).aim_yaw, None);
}

#[test]
fn exact_occlusion_option_also_sees_the_wall() {
    let field = Field::new()
        .decisions(&[decision(0, 100, 1, json!({}))])
        .config(&[("OCCLUSION_TEST", json!("exact"))]);
    let r = tick(
        &mut field.decider(),
        &place(snapshot((4.0, 4.0)), 6, (8.0, 4.0)),
    );
    assert_eq!(r.aim_yaw, None);
    let r = tick(
        &mut field.decider(),
        &place(snapshot((4.0, 4.0)), 6, (4.0, 7.5)),
    );
    assert_eq!(r.aim_yaw, Some(FRAC_PI_2));
}

#[test]
fn headings_theta_and_autoaim_mode() {
    let field = Field::new().decisions(&[
        decision(0, 100, 1, json!({})),
        decision(1, 50, 1, json!({"if_reverse": true, "decide_mode": 9})),
    ]);
    // no target: the waypoint's angle (1.5)
    let r = tick(&mut field.decider(), &at_waypoint(0));
    assert_eq!(r.poses, vec![[3.0, 2.0, 1.5]]);
    // a target: the aim yaw; theta relative to the chassis yaw from the pose
    let seen = posed(place(snapshot((4.0, 4.0)), 6, (4.0, 7.0)), 4.0, 4.0, 0.5);
    let r = tick(&mut field.decider(), &seen);
    assert_eq!(r.poses, vec![[3.0, 2.0, FRAC_PI_2]]);
    let d = r.decision.unwrap();
    assert!((d.theta - (FRAC_PI_2 - 0.5)).abs() < 1e-6);
    assert_eq!((d.decision_id, d.mode, d.x, d.y), (0, 6, 3.0, 2.0));
    // fresh auto-aim with a target and decide_mode < 8: mode 8
    let mut aiming = seen.clone();
    aiming.autoaim_target_lost = Some(false);
    assert_eq!(
        tick(&mut field.decider(), &aiming).decision.map(|d| d.mode),
        Some(8)
    );
    aiming.autoaim_target_lost = Some(true);
    assert_eq!(
        tick(&mut field.decider(), &aiming).decision.map(|d| d.mode),
        Some(6)
    );
    // reverse adds pi; decide_mode 9 is not lowered to 8
    let field = Field::new().decisions(&[decision(
        1,
        50,
        1,
        json!({"if_reverse": true, "decide_mode": 9}),
    )]);
    let mut aiming = at_waypoint(0);
    aiming.autoaim_target_lost = Some(false);
    let r = tick(&mut field.decider(), &aiming);
    assert_eq!(r.poses, vec![[3.0, 2.0, 1.5 + PI]]);
    assert_eq!(r.decision.map(|d| d.mode), Some(9));
}

#[test]
fn blue_side_uses_offset_indices() {
    let field = Field::new()
        .decisions(&[decision(0, 100, 1, json!({"minHP": 300, "out_post_HP_max": 0, "enemyPosition": [[2], [-1], [-1], [-1], [-1], [-1]]}))])
        .config(&[("INIT_ISBLUE", json!(true))]);
    let mut s = TickInput {
        hp: [600; 16],
        ..TickInput::default()
    };
    s.positions[11].x = 6.0; // blue sentry = us, at waypoint 0
    s.positions[11].y = 1.5;
    s.positions[0].x = 9.0; // red hero = enemy slot 0, at waypoint 2
    s.positions[0].y = 2.0;
    s.hp[14] = 0; // blue outpost destroyed
    s.hp[5] = 100; // red sentry HP must not matter
    let r = tick(&mut field.decider(), &s);
    assert_eq!((r.waypoint, r.available.clone()), (Some(0), vec![0]));
    s.hp[13] = 250; // our HP
    let r = tick(&mut field.decider(), &s);
    assert_eq!(
        r.why_not.0,
        vec![(0, "minHP: HP 250 <= minHP 300".to_string())]
    );
}

#[test]
fn ticks_are_skipped_for_invalid_inputs() {
    let field = Field::new();
    let mut decider = field.decider();
    let mut s = at_waypoint(0);
    s.positions[3].x = f32::NAN;
    assert_eq!(tick(&mut decider, &s).skipped, Some(Skip::InvalidPosition));
    let mut s = at_waypoint(0);
    s.game_stage = 2;
    let r = tick(&mut decider, &s);
    assert_eq!((r.skipped, r.decision), (Some(Skip::NotInBattle), None));
    let debug = Field::new().config(&[("Debug", json!(true))]);
    assert_eq!(tick(&mut debug.decider(), &s).skipped, None);
    // unknown car_pos (x == 0): the pose is used; without one there is no position
    let unknown = snapshot((0.0, 1.5));
    assert_eq!(tick(&mut decider, &unknown).skipped, Some(Skip::NoPosition));
    let r = tick(&mut decider, &posed(unknown, 3.0, 2.0, 0.0));
    assert_eq!((r.skipped, r.waypoint), (None, Some(1)));
}

#[test]
fn the_running_decision_survives_skipped_ticks() {
    let field = Field::new().decisions(&[
        decision(0, 100, 1, json!({})),
        decision(1, 100, 2, json!({})),
    ]);
    let mut decider = field.decider();
    tick(&mut decider, &at_waypoint(0));
    let mut paused = at_waypoint(0);
    paused.game_stage = 5;
    tick(&mut decider, &paused);
    let mut executing = at_waypoint(0);
    executing.nav_status = 2;
    let r = tick(&mut decider, &executing);
    assert_eq!((r.chosen, r.action), (Some(0), NavAction::Continue));
}

#[test]
fn ids_above_255_wrap_in_the_uint8_decision_id_with_a_warning() {
    let field = Field::new().decisions(&[decision(300, 100, 1, json!({}))]);
    let outcome = decision_core::robomaster::load::load(&field.config_path());
    let warning = outcome
        .diagnostics
        .warnings()
        .find(|d| d.field.as_deref() == Some("id"))
        .expect("a warning on the id");
    assert!(
        warning.message.contains("published as 44"),
        "{}",
        warning.message
    );
    let r = tick(&mut field.decider(), &at_waypoint(0));
    assert_eq!(
        (r.chosen, r.decision.map(|d| d.decision_id)),
        (Some(300), Some(44))
    );
}

#[test]
fn a_held_goal_is_re_sent_only_when_its_heading_turns_noticeably() {
    let field = Field::new().decisions(&[decision(0, 100, -1, json!({}))]);
    let mut decider = field.decider();
    let enemy_at = |x: f32| place(at_waypoint(1), 6, (x, 5.0));
    let mut s = enemy_at(3.0);
    s.nav_status = 4;
    assert_eq!(tick(&mut decider, &s).action, NavAction::Send);
    // the enemy moves a little: same goal
    let mut s = enemy_at(3.3);
    s.nav_status = 4;
    assert_eq!(tick(&mut decider, &s).action, NavAction::Hold);
    // the enemy moves a lot: the heading turns by more than the tolerance
    let mut s = enemy_at(5.5);
    s.nav_status = 4;
    assert_eq!(tick(&mut decider, &s).action, NavAction::Send);
}
