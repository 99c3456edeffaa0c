//! Frame::publish puts every message on its topic, decodable as the bus's message structs.

mod common;

use bus::messages::{
    Autoaim, CarPos, GameInfo, GoalStatusArray, NavFeedback, ObjHp, PoseMsg, Serial,
};
use bus::{Bus, topics};
use common::{goal, wall_sim};
use std::time::Duration;

#[test]
fn every_message_goes_to_its_topic() {
    let bus = Bus::in_process();
    let all = [
        topics::OBJ_HP,
        topics::CAR_POS,
        topics::GAME_INFO,
        topics::SERIAL_MSG,
        topics::POSE,
        topics::NAV_STATUS,
        topics::NAV_FEEDBACK,
        topics::AUTOAIM,
    ];
    let sub = bus.subscribe(&all).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = wall_sim("start: {self: 1, B3: {x: 3, y: 4}}", 0);
    sim.on_goal(&goal(1, &[(3.0, 7.0, 0.0)]));
    sim.step(0.5);
    let frame = sim.frame();
    frame.publish(&bus).unwrap_or_else(|e| panic!("{e}"));
    let mut seen = Vec::new();
    while let Some(r) = sub.recv_timeout(Duration::from_millis(100)) {
        match r.topic.as_str() {
            topics::OBJ_HP => assert_eq!(r.decode::<ObjHp>().ok().as_ref(), Some(&frame.obj_hp)),
            topics::CAR_POS => assert_eq!(r.decode::<CarPos>().ok().as_ref(), Some(&frame.car_pos)),
            topics::GAME_INFO => {
                assert_eq!(r.decode::<GameInfo>().ok().as_ref(), Some(&frame.game_info))
            }
            topics::SERIAL_MSG => {
                assert_eq!(r.decode::<Serial>().ok().as_ref(), Some(&frame.serial))
            }
            topics::POSE => assert_eq!(r.decode::<PoseMsg>().ok().as_ref(), Some(&frame.pose)),
            topics::NAV_STATUS => assert_eq!(
                r.decode::<GoalStatusArray>().ok().as_ref(),
                Some(&frame.nav_status)
            ),
            topics::NAV_FEEDBACK => assert_eq!(r.decode::<NavFeedback>().ok(), frame.nav_feedback),
            topics::AUTOAIM => assert_eq!(r.decode::<Autoaim>().ok(), frame.autoaim),
            other => panic!("unexpected topic {other}"),
        }
        seen.push(r.topic);
    }
    assert_eq!(seen, all.map(String::from).to_vec());
    assert!(
        frame.autoaim.is_some_and(|a| !a.is_target_lost),
        "B3 is 2 m away in the open"
    );
}

#[test]
fn restamp_sets_every_header() {
    let mut sim = wall_sim("start: {self: 1, B3: {x: 3, y: 4}}", 0);
    sim.on_goal(&goal(1, &[(3.0, 7.0, 0.0)]));
    sim.step(0.5);
    let mut frame = sim.frame();
    assert!((frame.pose.header.stamp.as_secs_f64() - 0.5).abs() < 1e-9);
    frame.restamp(1_700_000_000.25);
    let stamps = [
        frame.obj_hp.header.stamp,
        frame.car_pos.header.stamp,
        frame.game_info.header.stamp,
        frame.serial.header.stamp,
        frame.pose.header.stamp,
        frame.nav_status.header.stamp,
        frame
            .nav_feedback
            .map(|f| f.header.stamp)
            .unwrap_or_default(),
        frame.autoaim.map(|a| a.header.stamp).unwrap_or_default(),
    ];
    assert!(
        stamps
            .iter()
            .all(|s| s.sec == 1_700_000_000 && s.nanosec == 250_000_000),
        "{stamps:?}"
    );
    assert_eq!(
        frame.game_info.timestamp, 419.5,
        "remaining time is not a stamp"
    );
}
