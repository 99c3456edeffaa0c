//! A ROS 2 client (`--ros2 --client`) waits for its router and retries, as a JSON client waits
//! for its listener, instead of failing at once; once the router is up it joins the graph and
//! hears a typed soccer input from another node.

#![cfg(feature = "ros2")]

use bus::messages::Header;
use bus::ros2::router::Router;
use bus::soccer::{FALL_STATE, FallStateMsg, robot_topic};
use bus::{Bus, Mode, Ros2Options, ZenohOptions};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn free_endpoint() -> String {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    format!("tcp/127.0.0.1:{port}")
}

#[test]
fn a_ros2_client_waits_for_its_router_then_joins_the_graph() {
    let endpoint = free_endpoint();
    let client_options = Ros2Options {
        zenoh: ZenohOptions {
            mode: Mode::Client,
            listen: Vec::new(),
            connect: vec![endpoint.clone()],
            namespace: String::new(),
            config_file: None,
            multicast_scouting: false,
        },
        ..Ros2Options::via_router(&endpoint, "waiting_client")
    };
    let (opened, waiting) = mpsc::channel();
    let client = std::thread::spawn(move || {
        let bus = Bus::ros2(&client_options);
        let failed = bus.as_ref().err().map(ToString::to_string);
        let _ = opened.send(failed);
        bus
    });
    // Nothing listens yet: a client that gave up would have answered by now.
    if let Ok(answer) = waiting.recv_timeout(Duration::from_millis(500)) {
        panic!("the client returned before its router was up: {answer:?}");
    }
    let _router = Router::start(std::slice::from_ref(&endpoint)).expect("router");
    let answer = waiting
        .recv_timeout(Duration::from_secs(60))
        .expect("the client joins once its router is up");
    assert_eq!(answer, None, "the client opened");
    let client = client.join().expect("client thread").expect("client bus");

    let topic = robot_topic(1, FALL_STATE);
    let inputs = client.subscribe(&[topic.as_str()]).expect("subscribe");
    let robot = Bus::ros2(&Ros2Options::via_router(&endpoint, "robot")).expect("robot node");
    assert!(
        robot.wait_for_subscriber(&topic, Duration::from_secs(60)),
        "the client's subscription reached the graph"
    );
    let sent = FallStateMsg {
        header: Header::at(2.5),
        fallen: true,
        stand_up_available: true,
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    let received = loop {
        assert!(Instant::now() < deadline, "no fall state arrived");
        robot.publish(&topic, &sent).expect("publish");
        if let Some(r) = inputs.recv_timeout(Duration::from_millis(200)) {
            break r;
        }
    };
    assert_eq!(received.decode::<FallStateMsg>(), Ok(sent));
}
