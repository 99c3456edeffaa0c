//! Soak of `robot-decision run` over Zenoh on 127.0.0.1: inputs at 50 Hz for 10 real minutes
//! (`SOAK_MINUTES` to change), while a viewer-like session (the viewer's subscriptions: trace,
//! layout, events and the inputs) attaches and detaches every 30 s. Every input set must give
//! a tick (a trace), and the node's resident set must stay flat after the first minute.
//!
//! Ignored by default for its length:
//! `cargo test --release -p robot_decision --test run_soak -- --ignored --nocapture`.

use bus::messages::{CarPos, GameInfo, Header, ObjHp, Point2f, Serial};
use bus::{Bus, Mode, ZenohOptions, topics};
use decision_node::runtime::run::wall_clock;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[allow(dead_code)]
mod common;
use common::{Killed, free_port, repo};

const NS: &str = "soak";

fn session(endpoint: &str) -> Bus {
    Bus::zenoh(&ZenohOptions {
        mode: Mode::Client,
        listen: vec![],
        connect: vec![endpoint.to_string()],
        namespace: NS.into(),
        ..ZenohOptions::default()
    })
    .expect("client session")
}

/// Resident set of process `pid` in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Publishes one synchronised input set: our sentry at the sample's start, in battle, with
/// the remaining time `remaining` and enemy positions moving with `i`.
fn publish_set(bus: &Bus, i: u64, remaining: f64) {
    let header = Header::at(wall_clock());
    let mut pos = vec![Point2f::default(); 12];
    pos[5] = Point2f { x: 8.8, y: 2.55 };
    pos[0] = Point2f {
        x: 9.0 + (i % 100) as f32 * 0.01,
        y: 5.0,
    };
    let mut hp = vec![600u16; 16];
    hp[6] = 1500;
    hp[7] = 5000;
    hp[5] = 600 - (i % 400) as u16;
    bus.publish(
        topics::OBJ_HP,
        &ObjHp {
            header: header.clone(),
            hp,
        },
    )
    .expect("publish");
    bus.publish(
        topics::CAR_POS,
        &CarPos {
            header: header.clone(),
            pos,
        },
    )
    .expect("publish");
    bus.publish(
        topics::GAME_INFO,
        &GameInfo {
            header: header.clone(),
            timestamp: remaining,
            game_stage: 4,
        },
    )
    .expect("publish");
    bus.publish(
        topics::SERIAL_MSG,
        &Serial {
            header,
            mode: 6,
            bullet_speed: 0.0,
        },
    )
    .expect("publish");
}

/// A viewer's session for as long as `attached` holds, draining what it receives.
fn viewer(endpoint: String, attached: Arc<AtomicBool>, received: Arc<AtomicU64>) {
    let bus = session(&endpoint);
    let mut wanted: Vec<&str> = vec![topics::TRACE, topics::TREE_LAYOUT, topics::EVENTS];
    wanted.extend(topics::NODE_INPUTS);
    let sub = bus.subscribe(&wanted).expect("viewer subscribes");
    while attached.load(Ordering::Relaxed) {
        if sub.recv_timeout(Duration::from_millis(50)).is_some() {
            received.fetch_add(1, Ordering::Relaxed);
        }
    }
    bus.close();
}

#[test]
#[ignore = "runs for 10 minutes; see the module doc"]
fn run_for_ten_minutes_with_a_viewer_coming_and_going() {
    let minutes: f64 = std::env::var("SOAK_MINUTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10.0);
    let endpoint = format!("tcp/127.0.0.1:{}", free_port());
    let node = Killed(
        Command::new(env!("CARGO_BIN_EXE_robot-decision"))
            .args(["run", "sample/config.json", "--listen", &endpoint])
            .args(["--namespace", NS, "--no-reload"])
            .current_dir(repo())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("node starts"),
    );
    let pid = node.0.id();
    let client = session(&endpoint);
    let traces = client.subscribe(&[topics::TRACE]).expect("subscribe");
    for topic in topics::SYNCED_INPUTS {
        assert!(
            client.wait_for_subscriber(topic, Duration::from_secs(20)),
            "no route to the node for {topic}"
        );
    }
    let traced = Arc::new(AtomicU64::new(0));
    let counter = {
        let traced = Arc::clone(&traced);
        std::thread::spawn(move || {
            let mut idle_since = Instant::now();
            while idle_since.elapsed() < Duration::from_secs(3) {
                if traces.recv_timeout(Duration::from_millis(100)).is_some() {
                    traced.fetch_add(1, Ordering::Relaxed);
                    idle_since = Instant::now();
                }
            }
        })
    };

    let period = Duration::from_millis(20);
    let total = Duration::from_secs_f64(minutes * 60.0);
    let started = Instant::now();
    let (mut published, mut next_toggle, mut attached_viewer) = (0u64, Duration::ZERO, None);
    let viewer_received = Arc::new(AtomicU64::new(0));
    let (mut attaches, mut rss) = (0u32, Vec::new());
    while started.elapsed() < total {
        let now = started.elapsed();
        if now >= next_toggle {
            match attached_viewer.take() {
                None => {
                    let flag = Arc::new(AtomicBool::new(true));
                    let (e, f, r) = (
                        endpoint.clone(),
                        Arc::clone(&flag),
                        Arc::clone(&viewer_received),
                    );
                    attached_viewer = Some((flag, std::thread::spawn(move || viewer(e, f, r))));
                    attaches += 1;
                }
                Some((flag, handle)) => {
                    flag.store(false, Ordering::Relaxed);
                    handle.join().expect("viewer thread");
                }
            }
            rss.push((now.as_secs(), rss_kib(pid)));
            next_toggle += Duration::from_secs(30);
        }
        publish_set(
            &client,
            published,
            420.0 - (published as f64 * 0.02) % 400.0,
        );
        published += 1;
        // Paced on the schedule, not on the previous send (no drift).
        if let Some(wait) = (period * published as u32).checked_sub(started.elapsed()) {
            std::thread::sleep(wait);
        }
    }
    if let Some((flag, handle)) = attached_viewer.take() {
        flag.store(false, Ordering::Relaxed);
        handle.join().expect("viewer thread");
    }
    rss.push((started.elapsed().as_secs(), rss_kib(pid)));
    counter.join().expect("trace counter");
    let traced = traced.load(Ordering::Relaxed);
    for (second, kib) in &rss {
        println!("t = {second:>4} s: node RSS {kib} KiB");
    }
    let after_warmup = rss
        .iter()
        .find(|(s, _)| *s >= 60)
        .or(rss.first())
        .map_or(0, |r| r.1);
    let last = rss.last().map_or(0, |r| r.1);
    println!(
        "{published} input sets at 50 Hz, {traced} ticks traced, {attaches} viewer attaches ({} messages to the viewer); RSS {after_warmup} -> {last} KiB after the first minute",
        viewer_received.load(Ordering::Relaxed)
    );
    assert_eq!(traced, published, "every input set gives one tick");
    assert!(
        viewer_received.load(Ordering::Relaxed) > 0,
        "the viewer received"
    );
    assert!(
        last <= after_warmup + 2048,
        "the node's resident set grew from {after_warmup} to {last} KiB"
    );
}
