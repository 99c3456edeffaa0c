//! The soccer node on ROS 2 (rmw_zenoh wire format) on 127.0.0.1: a Zenoh router,
//! `robot-decision soccer run --ros2 --ros-namespace home` and this test as the robot's
//! perception and game controller. The inputs go in as our package's messages
//! (`soccer_decision_msgs/GameControllerState`, `Localization`, `BallState`); the motion
//! command comes back as `soccer_decision_msgs/MotionCommand` (and turns towards the ball once
//! the game is on), a viewer in the root namespace follows the team by prefix, and malformed
//! CDR on an input is counted; in Humble's wire format and in Jazzy's (type hashes in the keys).

#![cfg(feature = "ros2")]

use bus::Distro;
use bus::ros2::router::Router;
use bus::soccer::{self as topics, MotionCommandMsg, robot_topic};
use serde_json::{Value, json};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

// The soccer node needs no fake publisher: this test is its robot.
#[allow(dead_code)]
mod common;
use common::{Killed, free_port};

const PLAYER: u8 = 1;

fn start_soccer_node(endpoint: &str, distro: Distro) -> Killed {
    common::soccer_node(
        PLAYER,
        &[
            "--ros2",
            "--ros-distro",
            distro.as_str(),
            "--ros-namespace",
            "home",
            "--connect",
            endpoint,
        ],
    )
}

fn stamp() -> Value {
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    json!({ "stamp": { "sec": t.floor() as i64, "nanosec": ((t - t.floor()) * 1e9) as u64 } })
}

#[test]
fn a_soccer_node_on_ros2_commands_the_motion_layer_in_our_message_package() {
    soccer_node_on(Distro::Humble);
}

#[test]
fn the_soccer_node_speaks_jazzy_too() {
    soccer_node_on(Distro::Jazzy);
}

fn soccer_node_on(distro: Distro) {
    let endpoint = format!("tcp/127.0.0.1:{}", free_port());
    let _router = Router::start(std::slice::from_ref(&endpoint)).expect("router");
    let _node = start_soccer_node(&endpoint, distro);
    let team = common::ros2_client(&endpoint, distro, "e2e_team", "home");
    let motion = robot_topic(PLAYER, topics::MOTION_COMMAND);
    let events = robot_topic(PLAYER, topics::EVENTS);
    let trace = robot_topic(PLAYER, topics::TRACE);
    let sub = team
        .subscribe(&[motion.as_str(), events.as_str(), trace.as_str()])
        .expect("subscribe");
    // A viewer in the root namespace follows the team by prefix.
    let viewer = common::ros2_client(&endpoint, distro, "e2e_viewer", "");
    let followed = format!("home/{motion}");
    let viewer_sub = viewer.subscribe(&[followed.as_str()]).expect("subscribe");
    let game = robot_topic(PLAYER, topics::GAME_STATE);
    assert!(
        team.wait_for_subscriber(&game, Duration::from_secs(60)),
        "the soccer node never subscribed on ROS 2"
    );

    // The game is on, we stand behind the ball: the striker goes for it.
    let localization = robot_topic(PLAYER, topics::LOCALIZATION);
    let ball = robot_topic(PLAYER, topics::BALL);
    let mut bodies = Vec::new();
    let mut malformed_counted = false;
    // The ball the decision used is the one sent (the inputs were decoded, not only the game
    // state: a robot without a ball searches, which moves too).
    let mut ball_decided = false;
    let deadline = Instant::now() + Duration::from_secs(60);
    let moving = |kind: &str| matches!(kind, "walk_to" | "walk_velocity" | "turn" | "kick");
    while !(bodies.iter().any(|k: &String| moving(k)) && malformed_counted && ball_decided) {
        assert!(
            Instant::now() < deadline,
            "{distro:?}: {} bodies, the last {:?}, malformed counted: {malformed_counted}, \
             the ball sent decided: {ball_decided}",
            bodies.len(),
            &bodies[bodies.len().saturating_sub(3)..]
        );
        let inputs = [
            (
                &game,
                json!({ "header": stamp(), "primary_state": "playing", "game": {} }),
            ),
            (
                &localization,
                json!({ "header": stamp(), "pose": { "x": -1.0, "y": 0.5, "yaw": 0.0 }, "head_yaw": 0.0 }),
            ),
            (
                &ball,
                json!({ "header": stamp(), "ball": { "x": 1.0, "y": 0.0 } }),
            ),
        ];
        for (topic, body) in inputs {
            team.publish_raw(topic, body.to_string().as_bytes())
                .expect("input");
        }
        // Garbage CDR on an input: counted, and the node goes on.
        team.publish_cdr(&ball, &[0x00, 0x01, 0x00, 0x00, 0xff])
            .expect("raw CDR");
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            let Some(r) = sub.recv_timeout(Duration::from_millis(20)) else {
                continue;
            };
            if r.topic == motion {
                let command: MotionCommandMsg = r.decode().expect("a typed motion command");
                assert_eq!(command.player, PLAYER);
                bodies.push(command.command.body.kind().to_owned());
            } else if r.topic == trace {
                let t: Value = serde_json::from_slice(&r.payload).expect("trace JSON");
                let used = &t["decision"]["ball"];
                ball_decided |= used["x"] == 1.0 && used["y"] == 0.0 && used["source"] == "local";
            } else if r.topic == events {
                let event: Value = serde_json::from_slice(&r.payload).expect("event JSON");
                malformed_counted |= event["stats"]["malformed"][&ball]
                    .as_u64()
                    .is_some_and(|n| n > 0);
            }
        }
    }
    let r = viewer_sub
        .recv_timeout(Duration::from_secs(10))
        .expect("the viewer follows the team's motion commands");
    assert_eq!(r.topic, followed);
    let command: MotionCommandMsg = r.decode().expect("a typed motion command");
    assert_eq!(command.player, PLAYER);
}
