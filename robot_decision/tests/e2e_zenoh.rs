//! End-to-end over Zenoh on 127.0.0.1 with real processes: `robot-decision run` (listening),
//! `fake-publisher` (client) and this test (client). Decisions received match a node core fed
//! the same inputs; a fake publisher killed and restarted leaves the node ticking; garbage on
//! every input topic is counted and ignored.

use bus::messages::DecisionMsg;
use bus::{Bus, Mode, Received, ZenohOptions, topics};
use decision_core::robomaster::load;
use decision_node::node::{Ingested, NodeCore};
use serde_json::Value;

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod common;
use common::{Killed, fake_publisher_bin, free_port, repo};

fn start_node(endpoint: &str, ns: &str) -> Killed {
    Killed(
        Command::new(env!("CARGO_BIN_EXE_robot-decision"))
            .args([
                "run",
                "sample/config.json",
                "--listen",
                endpoint,
                "--namespace",
                ns,
                "--no-reload",
            ])
            .current_dir(repo())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    )
}

fn start_fake_publisher(endpoint: &str, ns: &str, seed: &str) -> Killed {
    Killed(
        Command::new(fake_publisher_bin())
            .args([
                "sample/scenarios/hp_retreat.json5",
                "--connect",
                endpoint,
                "--namespace",
                ns,
                "--speed",
                "4",
                "--seed",
                seed,
            ])
            .current_dir(repo())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    )
}

fn client(endpoint: &str, ns: &str) -> Bus {
    Bus::zenoh(&ZenohOptions {
        mode: Mode::Client,
        listen: vec![],
        connect: vec![endpoint.to_string()],
        namespace: ns.into(),
        ..ZenohOptions::default()
    })
    .unwrap()
}

/// Collects everything for `duration`.
fn collect(sub: &bus::Subscription, duration: Duration) -> Vec<Received> {
    let end = Instant::now() + duration;
    let mut out = Vec::new();
    while Instant::now() < end {
        if let Some(r) = sub.recv_timeout(Duration::from_millis(20)) {
            out.push(r);
        }
    }
    out
}

fn stamp_of(payload: &[u8]) -> Option<(i64, u64)> {
    let v: Value = serde_json::from_slice(payload).ok()?;
    Some((
        v["header"]["stamp"]["sec"].as_i64()?,
        v["header"]["stamp"]["nanosec"].as_u64()?,
    ))
}

#[test]
fn node_and_fake_publisher_over_zenoh() {
    let port = free_port();
    let endpoint = format!("tcp/127.0.0.1:{port}");
    let ns = format!("e2e{port}");
    let _node = start_node(&endpoint, &ns);
    let test_bus = client(&endpoint, &ns);
    let mut watched: Vec<&str> = topics::NODE_INPUTS.to_vec();
    watched.extend([topics::DECISION, topics::EVENTS, topics::TRACE]);
    let sub = test_bus.subscribe(&watched).unwrap();
    let publisher = start_fake_publisher(&endpoint, &ns, "5");
    let first = collect(&sub, Duration::from_secs(6));

    // 1. the node's decisions equal a node core fed the same inputs in the same order
    let tables = load::load(&repo().join("sample/config.json"))
        .tables
        .unwrap();
    let mut local = NodeCore::new(Arc::new(tables)).unwrap();
    let mut expected: Vec<((i64, u64), (u8, u8))> = Vec::new();
    let mut received: Vec<((i64, u64), (u8, u8))> = Vec::new();
    let mut seen_input = false;
    for r in &first {
        if topics::NODE_INPUTS.contains(&r.topic.as_str()) {
            seen_input = true;
            // judge freshness against the message's own stamp, as the node does on a synced clock
            let now = stamp_of(&r.payload).map_or(0.0, |(s, n)| s as f64 + n as f64 * 1e-9) + 0.05;
            if let Ingested::Tick(out) = local.ingest(&r.topic, &r.payload, now)
                && let Some(d) = out.decision
            {
                {
                    expected.push((
                        (
                            i64::from(d.header.stamp.sec),
                            u64::from(d.header.stamp.nanosec),
                        ),
                        (d.decision_id, d.mode),
                    ));
                }
            }
        } else if r.topic == topics::DECISION && seen_input {
            let d: DecisionMsg = r.decode().unwrap();
            received.push((
                (
                    i64::from(d.header.stamp.sec),
                    u64::from(d.header.stamp.nanosec),
                ),
                (d.decision_id, d.mode),
            ));
        }
    }
    assert!(
        received.len() > 20,
        "only {} decisions in 6 s",
        received.len()
    );
    let matched = received.iter().filter(|r| expected.contains(r)).count();
    // a message or two can be lost while routes form; everything else must agree
    assert!(
        matched * 100 >= received.len() * 95,
        "{matched} of {} decisions match",
        received.len()
    );

    // 2. kill the fake publisher, restart it: the node ticks again
    drop(publisher);
    collect(&sub, Duration::from_millis(1000)); // what was in flight at the kill
    let quiet = collect(&sub, Duration::from_millis(1000));
    let late = quiet.iter().filter(|r| r.topic == topics::DECISION).count();
    assert_eq!(late, 0, "decisions without a publisher");
    let _publisher = start_fake_publisher(&endpoint, &ns, "6");
    let again = collect(&sub, Duration::from_secs(4));
    assert!(
        again.iter().filter(|r| r.topic == topics::DECISION).count() > 10,
        "the node did not resume"
    );

    // 3. garbage on every input topic is counted and ignored. A test publisher's first
    // messages on a key can be lost while its route forms, so garbage is re-sent on the
    // topics not yet counted until every topic is, or a deadline passes.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut stats = Value::Null;
    let mut decisions_after = 0;
    loop {
        for topic in common::inputs_short_of_malformed(&stats, 2) {
            test_bus.publish_raw(topic, b"{not json").unwrap();
            test_bus.publish_raw(topic, br#"{"header": 5}"#).unwrap();
        }
        let after = collect(&sub, Duration::from_secs(2));
        decisions_after += after.iter().filter(|r| r.topic == topics::DECISION).count();
        if let Some(latest) = after
            .iter()
            .rev()
            .filter(|r| r.topic == topics::EVENTS)
            .filter_map(|r| serde_json::from_slice::<Value>(&r.payload).ok())
            .find(|e| e["kind"] == "stats")
        {
            stats = latest;
        }
        if common::inputs_short_of_malformed(&stats, 2).is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "garbage not counted on every input topic: {stats}"
        );
    }
    assert!(decisions_after > 5, "the node stopped after garbage");
}
