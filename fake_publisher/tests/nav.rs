//! The simulated Nav2: accepted -> executing -> succeeded, cancel, preemption, rejected goals.

mod common;

use bus::messages::NavCancel;
use common::{goal, run_until, wall_sim};
use std::f32::consts::FRAC_PI_2;

const START: &str = "start: {self: 1}"; // waypoint 1 "left" at (3, 2)

fn last_status(sim: &fake_publisher::Simulation) -> Vec<(u8, Option<u64>)> {
    sim.frame()
        .nav_status
        .status_list
        .iter()
        .map(|s| (s.status, s.goal_id))
        .collect()
}

/// Straight-line Nav2 (`nav.planner: false`), for exact timings.
const STRAIGHT: &str = "start: {self: 1}, nav: {planner: false}";

#[test]
fn goal_is_accepted_executed_and_succeeds_at_the_last_pose() {
    let mut sim = wall_sim(STRAIGHT, 0);
    assert!(sim.frame().nav_status.status_list.is_empty());
    assert_eq!(sim.nav_status(), 0);
    // 3 m to (3, 5), then 1 m to (4, 5): 4 m at 1.5 m/s = 2.67 s after the 0.1 s accept delay.
    sim.on_goal(&goal(1, &[(3.0, 5.0, 0.5), (4.0, 5.0, FRAC_PI_2)]));
    assert_eq!(last_status(&sim), vec![(1, Some(1))]);
    sim.step(0.05);
    assert_eq!(sim.nav_status(), 1, "still within the accept delay");
    assert!(sim.frame().nav_feedback.is_none());
    sim.step(0.1);
    assert_eq!(sim.nav_status(), 2);
    let feedback = sim
        .frame()
        .nav_feedback
        .unwrap_or_else(|| panic!("feedback while executing"));
    assert_eq!(feedback.number_of_poses_remaining, 2);
    assert!(
        (feedback.distance_remaining - (4.0 - 0.075)).abs() < 1e-3,
        "{feedback:?}"
    );
    run_until(&mut sim, 2.5, 0.05);
    assert_eq!(sim.nav_status(), 2);
    let me = &sim.robots()[sim.own_index()];
    assert!(
        me.y > 4.9 && me.x > 3.0 && me.x < 4.0,
        "on the second leg: {me:?}"
    );
    run_until(&mut sim, 3.0, 0.05);
    assert_eq!(last_status(&sim), vec![(4, Some(1))]);
    let frame = sim.frame();
    assert_eq!((frame.pose.x, frame.pose.y), (4.0, 5.0));
    assert!(
        (frame.pose.yaw - FRAC_PI_2).abs() < 1e-6,
        "heading = the last pose's yaw"
    );
    assert_eq!((frame.car_pos.pos[5].x, frame.car_pos.pos[5].y), (4.0, 5.0));
    assert!(frame.nav_feedback.is_none());
}

#[test]
fn cancel_stops_the_robot() {
    let mut sim = wall_sim(START, 0);
    sim.on_goal(&goal(7, &[(3.0, 7.0, 0.0)]));
    run_until(&mut sim, 1.0, 0.1);
    sim.on_cancel(&NavCancel {
        goal_id: 6,
        ..NavCancel::default()
    });
    assert_eq!(sim.nav_status(), 2, "a cancel for another goal is ignored");
    sim.on_cancel(&NavCancel {
        goal_id: 7,
        ..NavCancel::default()
    });
    assert_eq!(last_status(&sim), vec![(5, Some(7))]);
    let y = sim.robots()[5].y;
    assert!(y > 2.5 && y < 4.0, "{y}");
    run_until(&mut sim, 3.0, 0.1);
    assert_eq!(sim.robots()[5].y, y, "stopped");
}

#[test]
fn a_cancel_of_any_goal_cancels_the_running_one() {
    let mut sim = wall_sim(START, 0);
    sim.on_goal(&goal(9, &[(3.0, 7.0, 0.0)]));
    run_until(&mut sim, 1.0, 0.1);
    assert_eq!(sim.nav_status(), 2);
    sim.on_cancel(&NavCancel {
        goal_id: NavCancel::ANY_GOAL,
        ..NavCancel::default()
    });
    assert_eq!(last_status(&sim), vec![(5, Some(9))]);
}

#[test]
fn a_new_goal_preempts_the_running_one() {
    let mut sim = wall_sim(START, 0);
    sim.on_goal(&goal(1, &[(3.0, 7.0, 0.0)]));
    run_until(&mut sim, 1.0, 0.1);
    sim.on_goal(&goal(2, &[(1.0, 2.0, 3.0)]));
    assert_eq!(last_status(&sim), vec![(5, Some(1)), (1, Some(2))]);
    run_until(&mut sim, 5.0, 0.1);
    assert_eq!(last_status(&sim), vec![(5, Some(1)), (4, Some(2))]);
    let me = &sim.robots()[5];
    assert_eq!((me.x, me.y), (f64::from(1.0f32), f64::from(2.0f32)));
}

#[test]
fn status_history_is_bounded_and_newest_last() {
    let mut sim = wall_sim(START, 0);
    for id in 1..=20 {
        sim.on_goal(&goal(id, &[(3.0, 7.0, 0.0)]));
    }
    let list = last_status(&sim);
    assert_eq!(list.len(), 8);
    assert_eq!(list.last(), Some(&(1, Some(20))));
    assert!(list[..7].iter().all(|(s, _)| *s == 5));
}

#[test]
fn goals_without_poses_or_with_nan_are_ignored() {
    let mut sim = wall_sim(START, 0);
    sim.on_goal(&goal(1, &[]));
    sim.on_goal(&goal(2, &[(f32::NAN, 1.0, 0.0)]));
    assert_eq!(sim.rejected_goals(), 2);
    assert_eq!(sim.nav_status(), 0);
}

#[test]
fn a_dead_robot_aborts_its_goal_and_stays() {
    let mut sim = wall_sim(
        "start: {self: 1}, hp_events: [{at: 1, target: 'self', set: 0}]",
        0,
    );
    sim.on_goal(&goal(1, &[(3.0, 7.0, 0.0)]));
    run_until(&mut sim, 1.0, 0.1);
    assert_eq!(sim.nav_status(), 6);
    let me = sim.robots()[5].clone();
    assert!(!me.alive);
    sim.on_goal(&goal(2, &[(3.0, 2.0, 0.0)]));
    assert_eq!(sim.nav_status(), 6);
    run_until(&mut sim, 3.0, 0.1);
    assert_eq!((sim.robots()[5].x, sim.robots()[5].y), (me.x, me.y));
    assert!(sim.frame().autoaim.is_none());
}

#[test]
fn decisions_set_the_lower_computer_mode() {
    let mut sim = wall_sim("mode: 6", 0);
    assert_eq!(sim.frame().serial.mode, 6);
    sim.on_decision(&bus::messages::DecisionMsg {
        mode: 8,
        ..Default::default()
    });
    assert_eq!(sim.frame().serial.mode, 8);
}
