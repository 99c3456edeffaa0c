//! The soccer node core: what it does with good, stale and malformed inputs, the frame it
//! assembles, and what it publishes.

use super::*;
use bus::soccer::MotionCommandMsg;
use serde_json::json;

fn node(player: u8) -> SoccerNode {
    let spec = soccer_profile::tree::default_spec().expect("default tree");
    let sources = SoccerSources {
        params_dir: PathBuf::from("nowhere"),
        location: None,
        robot: None,
        tree: None,
    };
    SoccerNode::new(sources, player, Arc::new(Parameters::default()), spec).expect("node")
}

fn stamp(t: f64) -> serde_json::Value {
    json!({ "stamp": { "sec": t.floor() as i64, "nanosec": ((t - t.floor()) * 1e9).round() as u64 } })
}

fn send(
    node: &mut SoccerNode,
    topic: &str,
    body: serde_json::Value,
    now: f64,
) -> Ingested<SoccerOutput> {
    let topic = if topic == topics::TEAM_STATE {
        topic.to_string()
    } else {
        robot_topic(node.player(), topic)
    };
    node.ingest(&topic, body.to_string().as_bytes(), now)
}

fn playing(node: &mut SoccerNode, t: f64) {
    let game = json!({ "header": stamp(t), "primary_state": "playing", "game": {} });
    assert!(matches!(
        send(node, topics::GAME_STATE, game, t),
        Ingested::Stored
    ));
    let pose =
        json!({ "header": stamp(t), "pose": { "x": -1.0, "y": 0.5, "yaw": 0.0 }, "head_yaw": 0.1 });
    assert!(matches!(
        send(node, topics::LOCALIZATION, pose, t),
        Ingested::Stored
    ));
}

#[test]
fn fresh_inputs_make_the_frame() {
    let mut n = node(3);
    let t = 1000.0;
    playing(&mut n, t);
    let ball = json!({ "header": stamp(t), "ball": { "x": 1.0, "y": 2.0 } });
    assert!(matches!(
        send(&mut n, topics::BALL, ball, t),
        Ingested::Stored
    ));
    let obstacles =
        json!({ "header": stamp(t), "obstacles": [{ "x": 0.5, "y": 0.0, "radius": 0.3 }] });
    assert!(matches!(
        send(&mut n, topics::OBSTACLES, obstacles, t),
        Ingested::Stored
    ));
    let fall = json!({ "header": stamp(t), "fallen": true, "stand_up_available": true });
    assert!(matches!(
        send(&mut n, topics::FALL_STATE, fall, t),
        Ingested::Stored
    ));
    let frame = n.frame(t + 0.02);
    assert_eq!(frame.t, t + 0.02);
    assert_eq!(frame.player_number, 3);
    assert_eq!(frame.primary_state, PrimaryState::Playing);
    assert!(frame.game.is_some());
    assert_eq!(frame.pose.map(|p| (p.x, p.y)), Some((-1.0, 0.5)));
    assert_eq!(frame.head_yaw, 0.1);
    assert_eq!(frame.ball.map(|b| (b.x, b.y)), Some((1.0, 2.0)));
    assert_eq!(frame.obstacles.len(), 1);
    assert!(frame.fallen && frame.stand_up_available);
}

#[test]
fn inputs_expire_after_their_validity() {
    let mut n = node(2);
    let t = 50.0;
    playing(&mut n, t);
    let ball = json!({ "header": stamp(t), "ball": { "x": 1.0, "y": 2.0 } });
    send(&mut n, topics::BALL, ball, t);
    // The ball is this frame's only briefly; the pose a little longer; the game state longest.
    let later = n.frame(t + BALL_VALIDITY + 0.01);
    assert!(later.ball.is_none());
    assert!(later.pose.is_some());
    let lost = n.frame(t + POSE_VALIDITY + 0.01);
    assert!(lost.pose.is_none(), "not localized any more");
    assert!(lost.game.is_some());
    let no_gc = n.frame(t + GAME_STATE_VALIDITY + 0.01);
    assert!(no_gc.game.is_none());
    assert_eq!(
        no_gc.primary_state,
        PrimaryState::Initial,
        "waits without a game controller"
    );
}

#[test]
fn stale_and_malformed_inputs_are_counted_and_change_nothing() {
    let mut n = node(4);
    let t = 200.0;
    playing(&mut n, t);
    let old = json!({ "header": stamp(t - 5.0), "pose": { "x": 3.0, "y": 3.0, "yaw": 0.0 } });
    assert!(
        matches!(send(&mut n, topics::LOCALIZATION, old, t), Ingested::Stale { age } if (age - 5.0).abs() < 1e-6)
    );
    for (topic, body) in [
        (
            topics::GAME_STATE,
            json!({ "header": stamp(t), "primary_state": "sleeping" }),
        ),
        (
            topics::LOCALIZATION,
            json!({ "header": stamp(t), "pose": { "x": 1.0 } }),
        ),
        (topics::BALL, json!({ "header": stamp(t), "bal": null })),
        (
            topics::OBSTACLES,
            json!({ "header": stamp(t), "obstacles": [{ "x": 1.0, "y": 1.0, "radius": "big" }] }),
        ),
        (
            topics::FALL_STATE,
            json!({ "header": stamp(t), "fallen": 1 }),
        ),
        (
            topics::TEAM_STATE,
            json!({ "header": stamp(t), "message": { "player": 9 } }),
        ),
    ] {
        match send(&mut n, topic, body, t) {
            Ingested::Malformed(message) => assert!(message.contains(topic), "{message}"),
            other => panic!("{topic}: {other:?}"),
        }
    }
    let garbage = n.ingest(&robot_topic(4, topics::BALL), b"{not json", t);
    assert!(matches!(garbage, Ingested::Malformed(_)));
    let stats = NodeProfile::stats(&n);
    assert_eq!(stats.stale_messages, 1);
    assert_eq!(stats.malformed[&robot_topic(4, topics::BALL)], 2);
    assert_eq!(stats.malformed[topics::TEAM_STATE], 1);
    // The last good pose is still the one in use.
    assert_eq!(n.frame(t).pose.map(|p| p.x), Some(-1.0));
    // Another robot's topics are not ours.
    assert!(matches!(
        n.ingest(&robot_topic(5, topics::BALL), b"{}", t),
        Ingested::Ignored
    ));
}

#[test]
fn team_messages_reach_the_frame_once_and_our_own_is_dropped() {
    let mut n = node(2);
    let t = 10.0;
    let mate = json!({ "header": stamp(t), "message": { "player": 4, "pose": { "x": 1.0, "y": 1.0, "yaw": 0.0 } } });
    let own = json!({ "header": stamp(t), "message": { "player": 2 } });
    send(&mut n, topics::TEAM_STATE, mate, t);
    send(&mut n, topics::TEAM_STATE, own, t);
    let frame = n.frame(t);
    assert_eq!(frame.teammate_messages.len(), 1);
    assert_eq!(frame.teammate_messages[0].player, 4);
    assert!(n.frame(t + 0.02).teammate_messages.is_empty());
}

#[test]
fn a_tick_publishes_the_command_trace_blackboard_and_search_outputs() {
    let mut n = node(3);
    let t = 300.0;
    playing(&mut n, t);
    let output = n.clock_tick(t).expect("a tick");
    let all = n.outgoing(&output, &|_| true);
    let names: Vec<&str> = all.iter().map(|(topic, _)| topic.as_str()).collect();
    for topic in [
        topics::MOTION_COMMAND,
        topics::SEND_INTERVAL,
        topics::SUGGESTED_SEARCH_POSITION,
        topics::SEARCH_CELL_SIZE,
        topics::HEATMAP,
        topics::TRACE,
        topics::BLACKBOARD,
    ] {
        assert!(
            names.contains(&robot_topic(3, topic).as_str()),
            "{topic} missing in {names:?}"
        );
    }
    // The heatmap only when someone listens; the cell size again only a second later.
    let second = n.clock_tick(t + 0.02).expect("a tick");
    let quiet = n.outgoing(&second, &|_| false);
    let names: Vec<&str> = quiet.iter().map(|(topic, _)| topic.as_str()).collect();
    assert!(!names.contains(&robot_topic(3, topics::HEATMAP).as_str()));
    assert!(!names.contains(&robot_topic(3, topics::SEARCH_CELL_SIZE).as_str()));
    let later = n.clock_tick(t + 1.1).expect("a tick");
    assert!(later.cell_size.is_some());
    // The payloads read back as the wire contract says.
    let (_, command) = &all[0];
    let command: MotionCommandMsg = serde_json::from_slice(command).expect("motion command");
    assert_eq!(command.player, 3);
    let trace = all
        .iter()
        .find(|(t, _)| t.ends_with(topics::TRACE))
        .expect("trace");
    let trace: trace::SoccerTraceRecord = serde_json::from_slice(&trace.1).expect("trace");
    assert_eq!(trace.tick, 0);
    assert_eq!(trace.branch(), "playing");
    assert!(!trace.nodes.is_empty());
    let board = all
        .iter()
        .find(|(t, _)| t.ends_with(topics::BLACKBOARD))
        .expect("board");
    let board: trace::BlackboardRecord = serde_json::from_slice(&board.1).expect("board");
    assert_eq!(board.frame.t, t);
}

#[test]
fn a_rejected_reload_keeps_the_node_deciding() {
    let mut n = node(1);
    let event = n.apply_reload(
        Err(vec!["base/behavior_node.json5:3:4: error: bad".into()]),
        5.0,
    );
    assert_eq!(event.kind, "reload_rejected");
    assert!(
        event.message.contains("behavior_node.json5:3:4"),
        "{}",
        event.message
    );
    playing(&mut n, 5.0);
    assert!(n.clock_tick(5.0).is_some());
    let spec = soccer_profile::tree::default_spec().expect("tree");
    let event = n.apply_reload(Ok((Arc::new(Parameters::default()), spec)), 6.0);
    assert_eq!(event.kind, "reload_accepted");
}

#[test]
fn player_numbers_outside_one_to_seven_are_refused() {
    let spec = soccer_profile::tree::default_spec().expect("tree");
    let sources = SoccerSources {
        params_dir: PathBuf::new(),
        location: None,
        robot: None,
        tree: None,
    };
    let err = SoccerNode::new(sources, 8, Arc::new(Parameters::default()), spec).err();
    assert!(err.is_some_and(|e| e.contains("1..=7")));
}
