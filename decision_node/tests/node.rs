//! The node core on real files: bus messages in, the same decisions as `decide` out; malformed
//! and stale inputs; goals and cancels; hot reload with a watcher on real files.

use bus::topics;
use decision_core::robomaster::context::NavAction;
use decision_core::robomaster::{Decider, Skip, load};
use decision_node::node::{Ingested, NodeCore, NodeOutput};
use decision_node::runtime::reload::{Reload, ReloadWatcher};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sample_node() -> NodeCore {
    let outcome = load::load(&repo().join("sample/config.json"));
    NodeCore::new(Arc::new(outcome.tables.expect("sample loads"))).expect("compiles")
}

fn header(t: f64) -> Value {
    json!({"stamp": {"sec": t.floor() as i64, "nanosec": ((t - t.floor()) * 1e9).round() as u64}, "frame_id": ""})
}

/// The four synchronised messages of a decide snapshot line, stamped at `t`.
fn messages_of(snapshot: &Value, t: f64) -> Vec<(&'static str, Value)> {
    let hp = snapshot["obj_hp"]["hp"].clone();
    let pos: Vec<Value> = snapshot["car_pos"]["pos"]
        .as_array()
        .map(|a| a.iter().map(|p| json!({"x": p["x"].as_f64().unwrap_or(f64::NAN), "y": p["y"].as_f64().unwrap_or(f64::NAN)})).collect())
        .unwrap_or_default();
    let info = &snapshot["game_info"];
    let mut extra = Vec::new();
    if let Some(pose) = snapshot.get("pose") {
        extra.push((
            topics::POSE,
            json!({"header": header(t), "x": pose["x"], "y": pose["y"], "yaw": pose["yaw"]}),
        ));
    }
    if let Some(aim) = snapshot.get("autoaim") {
        extra.push((
            topics::AUTOAIM,
            json!({"header": header(t), "is_target_lost": aim["is_target_lost"]}),
        ));
    }
    let synced = vec![
        (topics::OBJ_HP, json!({"header": header(t), "hp": hp})),
        (topics::CAR_POS, json!({"header": header(t), "pos": pos})),
        (
            topics::GAME_INFO,
            json!({"header": header(t), "timestamp": info["timestamp"], "game_stage": info["game_stage"]}),
        ),
        (
            topics::SERIAL_MSG,
            json!({"header": header(t), "mode": snapshot["serial_msg"]["mode"]}),
        ),
    ];
    extra.into_iter().chain(synced).collect()
}

fn feed(node: &mut NodeCore, messages: &[(&str, Value)], now: f64) -> Option<Box<NodeOutput>> {
    let mut out = None;
    for (topic, msg) in messages {
        if let Ingested::Tick(o) = node.ingest(topic, msg.to_string().as_bytes(), now) {
            out = Some(o);
        }
    }
    out
}

fn snapshots() -> Vec<Value> {
    let text = std::fs::read_to_string(repo().join("sample/snapshots.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn node_ticks_once_per_joined_set_and_matches_decide() {
    let mut node = sample_node();
    let tables = Arc::clone(node.decider().tables());
    let mut reference = Decider::new(tables).unwrap();
    // snapshots without NaN (JSON has none); ticks 2 s apart so that a pose or auto-aim
    // message is fresh (TIME_THR 1 s) exactly in the tick whose snapshot has it
    let plain: Vec<Value> = snapshots()
        .into_iter()
        .filter(|s| !s.to_string().contains("null"))
        .collect();
    assert!(plain.len() > 30);
    assert!(
        plain.iter().any(|s| s.get("autoaim").is_some())
            && plain.iter().any(|s| s.get("pose").is_some())
    );
    for (i, snap) in plain.iter().enumerate() {
        let t = 1000.0 + i as f64 * 2.0;
        let mut messages = messages_of(snap, t);
        let nav = snap["nav_status"].as_u64().unwrap_or(0);
        let status = json!({"status_list": [{"status": nav}]});
        node.ingest(topics::NAV_STATUS, status.to_string().as_bytes(), t);
        // only the last of the four completes the set
        let last = messages.pop().unwrap();
        assert!(feed(&mut node, &messages, t).is_none());
        let out = feed(&mut node, &[last], t).expect("a tick per set");
        let input = decision_core::robomaster::snapshot::parse_line(&snap.to_string()).unwrap();
        let mut input = input;
        // the node counts a goal it just sent as accepted until Nav2 reports on it
        input.nav_status = nav as u8;
        reference.tick(&input);
        let expected = reference.result();
        assert_eq!(out.trace.result.chosen, expected.chosen, "tick {i}");
        assert_eq!(out.trace.result.available, expected.available, "tick {i}");
        assert_eq!(out.trace.result.path, expected.path, "tick {i}");
        assert_eq!(out.trace.result.aim_yaw, expected.aim_yaw, "tick {i}");
        assert_eq!(out.trace.result.waypoint, expected.waypoint, "tick {i}");
        let published = out
            .decision
            .as_ref()
            .map(|d| (d.decision_id, d.mode, d.x, d.y, d.theta));
        assert_eq!(
            published,
            expected
                .decision
                .map(|d| (d.decision_id, d.mode, d.x, d.y, d.theta)),
            "tick {i}"
        );
        assert_eq!(
            out.goal.is_some(),
            matches!(expected.action, NavAction::Send | NavAction::Preempt),
            "tick {i}"
        );
    }
    assert_eq!(node.stats().ticks, plain.len() as u64);
}

#[test]
fn malformed_payloads_are_counted_and_ignored() {
    let mut node = sample_node();
    let snap = &snapshots()[1];
    let good = messages_of(snap, 10.0);
    let garbage: [(&str, &[u8]); 9] = [
        (topics::OBJ_HP, b"not json"),
        (
            topics::OBJ_HP,
            br#"{"header": {"stamp": {"sec": 1, "nanosec": 0}}, "hp": [1, 2]}"#,
        ),
        (topics::CAR_POS, br#"{"pos": "x"}"#),
        (
            topics::GAME_INFO,
            br#"{"timestamp": "soon", "game_stage": 4}"#,
        ),
        (topics::SERIAL_MSG, br#"{"mode": 999}"#),
        (topics::POSE, br#"{"x": 1}"#),
        (topics::AUTOAIM, br#"[]"#),
        (
            topics::NAV_STATUS,
            br#"{"status_list": [{"status": "done"}]}"#,
        ),
        (topics::NAV_FEEDBACK, b"\xff\xfe"),
    ];
    for (topic, payload) in garbage {
        match node.ingest(topic, payload, 10.0) {
            Ingested::Malformed(message) => assert!(message.contains(topic), "{message}"),
            other => panic!("{topic}: {other:?}"),
        }
    }
    let stats = node.stats();
    assert_eq!(stats.malformed.values().sum::<u64>(), 9);
    assert_eq!(stats.ticks, 0);
    // good messages still make a tick
    assert!(feed(&mut node, &good, 10.0).is_some());
}

#[test]
fn stale_sets_are_skipped() {
    let mut node = sample_node();
    let snap = &snapshots()[1];
    // TIME_THR is 1 s in the sample
    for (topic, msg) in messages_of(snap, 10.0) {
        let r = node.ingest(topic, msg.to_string().as_bytes(), 12.0);
        if topic == topics::SERIAL_MSG {
            assert!(
                matches!(r, Ingested::Stale { age } if (age - 2.0).abs() < 1e-9),
                "{r:?}"
            );
        }
    }
    assert_eq!(node.stats().stale_sets, 1);
}

#[test]
fn preemption_sends_a_cancel_then_the_new_goal() {
    let mut node = sample_node();
    let snaps = snapshots();
    let start = &snaps[1];
    let out = feed(&mut node, &messages_of(start, 1.0), 1.0).unwrap();
    let first = out.goal.clone().expect("first goal");
    assert_eq!(first.goal_id, 1);
    // Nav2 executes goal 1; then our HP drops to 150: the retreat preempts
    node.ingest(
        topics::NAV_STATUS,
        br#"{"status_list": [{"status": 2, "goal_id": 1}]}"#,
        1.1,
    );
    let mut low = start.clone();
    low["obj_hp"]["hp"][5] = json!(150);
    let out = feed(&mut node, &messages_of(&low, 1.2), 1.2).unwrap();
    assert_eq!(out.cancel.as_ref().map(|c| c.goal_id), Some(1));
    assert_eq!(out.goal.as_ref().map(|g| g.goal_id), Some(2));
    assert_eq!(out.trace.result.chosen, Some(13));
    // a late status of the cancelled goal 1 does not end goal 2
    node.ingest(
        topics::NAV_STATUS,
        br#"{"status_list": [{"status": 5, "goal_id": 1}]}"#,
        1.25,
    );
    let out = feed(&mut node, &messages_of(&low, 1.3), 1.3).unwrap();
    assert_eq!(
        (out.trace.result.chosen, out.trace.result.action),
        (Some(13), NavAction::Continue)
    );
}

#[test]
fn an_executing_goal_that_is_not_ours_is_cancelled_and_nothing_published() {
    let mut node = sample_node();
    let start = &snapshots()[1];
    // Nav2 already runs a goal (untagged status) before the node sent any (rule 5, no
    // running decision).
    node.ingest(
        topics::NAV_STATUS,
        br#"{"status_list": [{"status": 2}]}"#,
        0.9,
    );
    let out = feed(&mut node, &messages_of(start, 1.0), 1.0).unwrap();
    assert_eq!(
        out.cancel.as_ref().map(|c| c.goal_id),
        Some(bus::messages::NavCancel::ANY_GOAL)
    );
    assert!(out.goal.is_none() && out.decision.is_none());
    assert_eq!(out.trace.result.skipped, Some(Skip::ForeignGoalActive));
}

/// A copy of the sample in a temp dir, a node on it and a watcher.
fn watched_sample() -> (tempfile::TempDir, PathBuf, NodeCore, ReloadWatcher) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("sample")).unwrap();
    std::fs::create_dir_all(dir.path().join("resources")).unwrap();
    for name in ["config.json", "decisions.json", "waypoints.json"] {
        std::fs::copy(
            repo().join("sample").join(name),
            dir.path().join("sample").join(name),
        )
        .unwrap();
    }
    std::fs::copy(
        repo().join("resources/RMUL.png"),
        dir.path().join("resources/RMUL.png"),
    )
    .unwrap();
    let config = dir.path().join("sample/config.json");
    let tables = load::load(&config).tables.unwrap();
    let files = tables.files.clone();
    let node = NodeCore::new(Arc::new(tables)).unwrap();
    let watcher = ReloadWatcher::start(&config, &files.all()).unwrap();
    (dir, config, node, watcher)
}

/// Ticks every 20 ms until a reload result arrives (at most 10 s); every set must tick.
fn tick_until_reload(
    node: &mut NodeCore,
    watcher: &ReloadWatcher,
    snap: &Value,
    t: &mut f64,
) -> Reload {
    for _ in 0..500 {
        *t += 0.02;
        let before = node.stats().ticks;
        let out = feed(node, &messages_of(snap, *t), *t);
        assert!(out.is_some(), "a tick was missed");
        assert_eq!(node.stats().ticks, before + 1);
        if let Some(reload) = watcher.wait(Duration::from_millis(20)) {
            return reload;
        }
    }
    panic!("no reload seen");
}

#[test]
fn hot_reload_rejects_bad_edits_and_applies_good_ones() {
    let (dir, config, mut node, watcher) = watched_sample();
    let decisions = dir.path().join("sample/decisions.json");
    let original = std::fs::read_to_string(&decisions).unwrap();
    let snap = snapshots()[1].clone();
    let mut t = 100.0;
    let out = feed(&mut node, &messages_of(&snap, t), t).unwrap();
    assert_eq!(out.trace.result.chosen, Some(0));
    let apply = |node: &mut NodeCore, reload: Reload| {
        decision_node::runtime::reload::apply_reload(node, reload, &|_| {})
    };

    // 1. syntax error: rejected, decision 0 keeps being chosen
    std::fs::write(
        &decisions,
        original.replacen("\"weight\"", "\"weight\" 1,", 1),
    )
    .unwrap();
    let reload = tick_until_reload(&mut node, &watcher, &snap, &mut t);
    match &reload {
        Reload::Rejected { diagnostics } => assert!(
            diagnostics.to_string().contains("syntax error"),
            "{diagnostics}"
        ),
        other => panic!("{other:?}"),
    }
    apply(&mut node, reload);
    let out = feed(&mut node, &messages_of(&snap, t + 0.01), t + 0.01).unwrap();
    t += 0.01;
    assert_eq!(out.trace.result.chosen, Some(0));

    // 2. dangling waypoint id: rejected
    std::fs::write(
        &decisions,
        original.replacen("\"decide_wayPoint\" : 3", "\"decide_wayPoint\" : 77", 1),
    )
    .unwrap();
    let reload = tick_until_reload(&mut node, &watcher, &snap, &mut t);
    match &reload {
        Reload::Rejected { diagnostics } => assert!(
            diagnostics.to_string().contains("unknown waypoint id 77"),
            "{diagnostics}"
        ),
        other => panic!("{other:?}"),
    }
    apply(&mut node, reload);
    assert!(
        node.decider()
            .tables()
            .decisions
            .iter()
            .all(|d| d.decision.decide_waypoint != 77)
    );

    // 3. valid edit: decision 16 (fallback, anywhere) becomes the heaviest: it is chosen
    let heavier = original.replacen("\"weight\" : 100", "\"weight\" : 5000", 1);
    assert_ne!(heavier, original, "the sample's fallback has weight 100");
    std::fs::write(&decisions, heavier).unwrap();
    let reload = tick_until_reload(&mut node, &watcher, &snap, &mut t);
    assert!(matches!(reload, Reload::Accepted { .. }));
    apply(&mut node, reload);
    let out = feed(&mut node, &messages_of(&snap, t + 0.01), t + 0.01).unwrap();
    assert_eq!(out.trace.result.chosen, Some(16));
    drop(config);
}

#[test]
fn reload_keeps_a_running_decision_that_still_exists() {
    let (dir, _config, mut node, watcher) = watched_sample();
    let snap = snapshots()[1].clone();
    let mut t = 100.0;
    let out = feed(&mut node, &messages_of(&snap, t), t).unwrap();
    assert_eq!(
        (out.trace.result.chosen, out.trace.result.action),
        (Some(0), NavAction::Send)
    );
    node.ingest(
        topics::NAV_STATUS,
        br#"{"status_list": [{"status": 2, "goal_id": 1}]}"#,
        t,
    );
    // make an equal-weight rival of decision 0 (leave_start_to_outpost, 300) win ties: it is
    // not chosen while 0 runs; renaming keeps the id
    let decisions = dir.path().join("sample/decisions.json");
    let text = std::fs::read_to_string(&decisions).unwrap();
    std::fs::write(
        &decisions,
        text.replacen("leave_start_to_outpost", "leave_start_renamed", 1),
    )
    .unwrap();
    let reload = tick_until_reload(&mut node, &watcher, &snap, &mut t);
    decision_node::runtime::reload::apply_reload(&mut node, reload, &|_| {});
    let out = feed(&mut node, &messages_of(&snap, t + 0.01), t + 0.01).unwrap();
    assert_eq!(
        (out.trace.result.chosen, out.trace.result.action),
        (Some(0), NavAction::Continue)
    );
    assert!(out.goal.is_none(), "the running goal is not re-sent");
}
