//! Input published -> decision received latency on loopback, on both transports: JSON over
//! Zenoh (the node a peer listening on 127.0.0.1, the client connected to it) and ROS 2
//! (rmw_zenoh wire format: a Zenoh router as rmw_zenohd, node and client peers of it, CDR).
//! The client publishes the four inputs of a tick and waits for the Decision message. Prints
//! p50, p99 and max over the ticks of each.
//! `cargo bench -p decision_node --bench latency` (ROBOT_DECISION_LATENCY_TICKS to change
//! the count, default 10,000).

use bus::messages::{CarPos, GameInfo, Header, ObjHp, Point2f, Serial};
use bus::ros2::router::Router;
use bus::{Bus, Mode, Ros2Options, ZenohOptions, topics};
use decision_core::robomaster::load;
use decision_node::node::NodeCore;
use decision_node::runtime::run::{run_node, wall_clock};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(17447)
}

fn main() {
    // criterion-style flags (e.g. --bench) are accepted and ignored
    let ticks: usize = std::env::var("ROBOT_DECISION_LATENCY_TICKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let endpoint = format!("tcp/127.0.0.1:{}", free_port());
    let node_bus = Bus::zenoh(&ZenohOptions {
        listen: vec![endpoint.clone()],
        namespace: "bench".into(),
        ..ZenohOptions::default()
    })
    .expect("node session");
    let client = Bus::zenoh(&ZenohOptions {
        mode: Mode::Client,
        listen: vec![],
        connect: vec![endpoint],
        namespace: "bench".into(),
        ..ZenohOptions::default()
    })
    .expect("client session");
    measure("JSON over Zenoh", node_bus, &client, ticks);
    client.close();

    let endpoint = format!("tcp/127.0.0.1:{}", free_port());
    let _router = Router::start(std::slice::from_ref(&endpoint)).expect("router");
    let ros2 =
        |name: &str| Bus::ros2(&Ros2Options::via_router(&endpoint, name)).expect("ROS 2 session");
    let node_bus = ros2("robot_decision");
    let client = ros2("bench_client");
    measure(
        "ROS 2 (rmw_zenoh, CDR) via a router",
        node_bus,
        &client,
        ticks,
    );
    client.close();
}

/// Runs the sample's node on `node_bus` and times `ticks` input sets from `client`.
fn measure(label: &str, node_bus: Bus, client: &Bus, ticks: usize) {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample/config.json");
    let tables = load::load(&config).tables.expect("the sample loads");
    let node = NodeCore::new(Arc::new(tables)).expect("compiles");
    let stop = Arc::new(AtomicBool::new(false));
    let node_stop = Arc::clone(&stop);
    let node_config = config.clone();
    let node_thread = std::thread::spawn(move || {
        let result = run_node(&node_config, node, &node_bus, &node_stop, false);
        node_bus.close();
        result
    });
    let decisions = client.subscribe(&[topics::DECISION]).expect("subscribe");
    for topic in topics::SYNCED_INPUTS {
        assert!(
            client.wait_for_subscriber(topic, Duration::from_secs(30)),
            "no route to the node for {topic}"
        );
    }
    // our sentry at the sample's start waypoint in battle
    let mut pos = vec![Point2f::default(); 12];
    pos[5] = Point2f { x: 8.8, y: 2.55 };
    let mut hp = vec![600u16; 16];
    hp[6] = 1500;
    hp[7] = 5000;
    let mut latencies = Vec::with_capacity(ticks);
    let warmup = 200;
    let mut lost = 0usize;
    for i in 0..ticks + warmup {
        let header = Header::at(wall_clock());
        let started = Instant::now();
        client
            .publish(
                topics::OBJ_HP,
                &ObjHp {
                    header: header.clone(),
                    hp: hp.clone(),
                },
            )
            .expect("publish");
        client
            .publish(
                topics::CAR_POS,
                &CarPos {
                    header: header.clone(),
                    pos: pos.clone(),
                },
            )
            .expect("publish");
        client
            .publish(
                topics::GAME_INFO,
                &GameInfo {
                    header: header.clone(),
                    timestamp: 400.0,
                    game_stage: 4,
                },
            )
            .expect("publish");
        client
            .publish(
                topics::SERIAL_MSG,
                &Serial {
                    header,
                    mode: 6,
                    bullet_speed: 0.0,
                },
            )
            .expect("publish");
        match decisions.recv_timeout(Duration::from_secs(1)) {
            Some(_) if i >= warmup => latencies.push(started.elapsed()),
            Some(_) => {}
            None => lost += 1,
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = node_thread.join();
    latencies.sort();
    let pick = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or_default()
    };
    println!(
        "latency input published -> decision received, {label}, loopback, {} ticks ({} lost): p50 {:?}, p99 {:?}, max {:?}",
        latencies.len(),
        lost,
        pick(0.5),
        pick(0.99),
        latencies.last().copied().unwrap_or_default()
    );
}
