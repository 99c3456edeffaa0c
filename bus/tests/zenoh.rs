//! Zenoh on 127.0.0.1 only, multicast and gossip scouting off: a peer listening on a free port
//! (the node) and clients connecting to it (the fake publisher, the viewer). Every wait is
//! bounded by a timeout of a few seconds.

use std::error::Error;
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

use bus::messages::{GoalStatus, GoalStatusArray, Header, ObjHp, Stamp};
use bus::{Bus, BusError, Mode, ZenohOptions, topics};
use zenoh::Wait;

type TestResult = Result<(), Box<dyn Error + Send + Sync>>;

/// How long a test waits for a route, a message or a session.
const WAIT: Duration = Duration::from_secs(10);
/// How long a test waits for something that must not arrive.
const QUIET: Duration = Duration::from_millis(300);

/// A port that was free a moment ago on 127.0.0.1.
fn free_port() -> Result<u16, std::io::Error> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

fn endpoint(port: u16) -> String {
    format!("tcp/127.0.0.1:{port}")
}

/// The node: a peer listening on `port`.
fn node(port: u16, namespace: &str) -> Result<Bus, BusError> {
    Bus::zenoh(&ZenohOptions {
        mode: Mode::Peer,
        listen: vec![endpoint(port)],
        connect: Vec::new(),
        namespace: namespace.to_owned(),
        config_file: None,
        multicast_scouting: false,
    })
}

fn client_options(port: u16, namespace: &str) -> ZenohOptions {
    ZenohOptions {
        mode: Mode::Client,
        listen: Vec::new(),
        connect: vec![endpoint(port)],
        namespace: namespace.to_owned(),
        ..ZenohOptions::default()
    }
}

/// Opens a session on a thread so a test cannot hang on a client waiting for its listener.
fn open_in_background(options: ZenohOptions) -> mpsc::Receiver<Result<Bus, BusError>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(Bus::zenoh(&options));
    });
    rx
}

/// A client (fake publisher, viewer) connected to the node on `port`.
fn client(port: u16, namespace: &str) -> Result<Bus, Box<dyn Error + Send + Sync>> {
    Ok(open_in_background(client_options(port, namespace)).recv_timeout(WAIT)??)
}

fn hp_msg(t: f64) -> ObjHp {
    ObjHp {
        header: Header::at(t),
        hp: (0..16).map(|i| 100 * i).collect(),
    }
}

#[test]
fn typed_round_trip_both_directions() -> TestResult {
    let port = free_port()?;
    let node = node(port, "red")?;
    assert_eq!(node.namespace(), "red");
    let inputs = node.subscribe(&[topics::OBJ_HP, topics::NAV_STATUS])?;
    let fake = client(port, "red")?;
    assert!(
        fake.wait_for_subscriber(topics::OBJ_HP, WAIT),
        "route to the node's obj_hp subscriber"
    );
    assert!(fake.wait_for_subscriber(topics::NAV_STATUS, WAIT));

    let sent = hp_msg(12.25);
    let status = GoalStatusArray {
        header: Header::at(12.3),
        status_list: vec![
            GoalStatus {
                status: 2,
                goal_id: Some(1),
            },
            GoalStatus {
                status: 4,
                goal_id: Some(1),
            },
        ],
    };
    fake.publish(topics::OBJ_HP, &sent)?;
    fake.publish(topics::NAV_STATUS, &status)?;
    fake.publish(topics::OBJ_HP, &hp_msg(12.5))?;

    let first = inputs.recv_timeout(WAIT).ok_or("no obj_hp")?;
    assert_eq!(first.topic, topics::OBJ_HP, "topic without the namespace");
    assert_eq!(first.decode::<ObjHp>()?, sent);
    let json: serde_json::Value = serde_json::from_slice(&first.payload)?;
    assert!(json.is_object());
    assert_eq!(json["header"]["stamp"]["sec"], 12);
    assert_eq!(json["header"]["stamp"]["nanosec"], 250_000_000);
    let second = inputs.recv_timeout(WAIT).ok_or("no status")?;
    assert_eq!(second.topic, topics::NAV_STATUS);
    assert_eq!(
        second
            .decode::<GoalStatusArray>()?
            .status_list
            .last()
            .map(|s| s.status),
        Some(4)
    );
    let third = inputs.recv_timeout(WAIT).ok_or("no second obj_hp")?;
    assert_eq!(
        third.decode::<ObjHp>()?.header.stamp,
        Stamp {
            sec: 12,
            nanosec: 500_000_000
        }
    );

    // Node -> viewer.
    let viewer = client(port, "red")?;
    let trace = viewer.subscribe(&[topics::TRACE])?;
    assert!(
        node.wait_for_subscriber(topics::TRACE, WAIT),
        "route to the viewer's subscriber"
    );
    node.publish(
        topics::TRACE,
        &serde_json::json!({"header": {"stamp": {"sec": 1, "nanosec": 0}}, "tick": 7}),
    )?;
    let got = trace.recv_timeout(WAIT).ok_or("no trace")?;
    assert_eq!(got.topic, topics::TRACE);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&got.payload)?["tick"],
        7
    );
    Ok(())
}

#[test]
fn wire_contract_key_and_encoding() -> TestResult {
    let port = free_port()?;
    let node = node(port, "red")?;
    // An independent plain Zenoh client, configured by hand.
    let mut config = zenoh::Config::default();
    config.insert_json5("mode", r#""client""#)?;
    config.insert_json5(
        "connect/endpoints",
        &serde_json::json!([endpoint(port)]).to_string(),
    )?;
    config.insert_json5("listen/endpoints", "[]")?;
    config.insert_json5("scouting/multicast/enabled", "false")?;
    config.insert_json5("scouting/gossip/enabled", "false")?;
    let raw = zenoh::open(config).wait()?;
    let sub = raw
        .declare_subscriber("red/navigate_through_poses/_action/status")
        .with(zenoh::handlers::FifoChannel::new(16))
        .wait()?;
    assert!(node.wait_for_subscriber(topics::NAV_STATUS, WAIT));
    let status = GoalStatusArray {
        header: Header::at(5.0),
        status_list: vec![GoalStatus {
            status: 6,
            goal_id: None,
        }],
    };
    node.publish(topics::NAV_STATUS, &status)?;
    let sample = sub.recv_timeout(WAIT)?.ok_or("no sample")?;
    assert_eq!(
        sample.key_expr().as_str(),
        "red/navigate_through_poses/_action/status"
    );
    assert_eq!(sample.encoding(), &zenoh::bytes::Encoding::APPLICATION_JSON);
    let json: serde_json::Value = serde_json::from_slice(&sample.payload().to_bytes())?;
    assert_eq!(json["status_list"][0]["status"], 6);
    assert_eq!(json["header"]["stamp"]["sec"], 5);
    raw.close().wait()?;
    Ok(())
}

#[test]
fn namespaces_are_isolated() -> TestResult {
    let port = free_port()?;
    let node = node(port, "red")?;
    let node_inputs = node.subscribe(&[topics::OBJ_HP])?;
    let blue = client(port, "blue")?;
    let red = client(port, "red")?;

    // blue -> red node: no route at all (the clients have no local subscribers yet).
    assert!(
        !blue.wait_for_subscriber(topics::OBJ_HP, QUIET),
        "blue must not match red's subscriber"
    );
    assert!(red.wait_for_subscriber(topics::OBJ_HP, WAIT));
    blue.publish_raw(topics::OBJ_HP, b"\"from blue\"")?;
    red.publish_raw(topics::OBJ_HP, b"\"from red\"")?;
    let got = node_inputs.recv_timeout(WAIT).ok_or("nothing from red")?;
    assert_eq!(got.payload, b"\"from red\"");
    assert_eq!(
        node_inputs.recv_timeout(QUIET),
        None,
        "blue's message must not reach the red node"
    );

    // red node -> clients: the red client hears it, the blue one does not.
    let blue_sub = blue.subscribe(&[topics::OBJ_HP])?;
    let red_sub = red.subscribe(&[topics::OBJ_HP])?;
    let mut heard = None;
    for _ in 0..100 {
        node.publish(topics::OBJ_HP, &hp_msg(1.0))?;
        heard = red_sub.recv_timeout(Duration::from_millis(100));
        if heard.is_some() {
            break;
        }
    }
    assert!(heard.is_some(), "the red client hears the red node");
    assert_eq!(blue_sub.recv_timeout(QUIET), None, "blue does not see red");
    Ok(())
}

#[test]
fn client_started_before_the_listener_connects_later() -> TestResult {
    let port = free_port()?;
    let pending = open_in_background(client_options(port, "red"));
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        matches!(pending.try_recv(), Err(mpsc::TryRecvError::Empty)),
        "the client waits for its listener"
    );
    let node = node(port, "red")?;
    let inputs = node.subscribe(&[topics::GAME_INFO])?;
    let fake = pending.recv_timeout(WAIT)??;
    assert!(fake.wait_for_subscriber(topics::GAME_INFO, WAIT));
    fake.publish(
        topics::GAME_INFO,
        &bus::messages::GameInfo {
            header: Header::at(3.0),
            timestamp: 417.0,
            game_stage: 4,
        },
    )?;
    let got = inputs.recv_timeout(WAIT).ok_or("no game_info")?;
    assert_eq!(got.decode::<bus::messages::GameInfo>()?.game_stage, 4);
    Ok(())
}

#[test]
fn garbage_over_zenoh_names_the_topic() -> TestResult {
    let port = free_port()?;
    let node = node(port, "red")?;
    let inputs = node.subscribe(&[topics::CAR_POS, topics::OBJ_HP])?;
    let fake = client(port, "red")?;
    assert!(fake.wait_for_subscriber(topics::OBJ_HP, WAIT));
    fake.publish_raw(topics::OBJ_HP, b"{\"header\": 42, garbage")?;
    let got = inputs.recv_timeout(WAIT).ok_or("no garbage")?;
    let err = got.decode::<ObjHp>().err().ok_or("garbage decoded")?;
    assert_eq!(err.topic, topics::OBJ_HP);
    assert_eq!(err.field, "header");
    assert!(
        err.to_string()
            .starts_with("topic `obj_hp`: field `header`: invalid type: integer `42`"),
        "{err}"
    );
    Ok(())
}

#[test]
fn config_file_is_the_base_and_flags_override() -> TestResult {
    let port = free_port()?;
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("node.json5");
    std::fs::write(
        &path,
        format!(
            "// the node, listening on loopback\n{{\n  mode: \"peer\",\n  listen: {{ endpoints: [\"{}\"] }},\n  \
             scouting: {{ multicast: {{ enabled: false }}, gossip: {{ enabled: false }} }},\n}}\n",
            endpoint(port)
        ),
    )?;
    let from_file = ZenohOptions {
        listen: Vec::new(),
        config_file: Some(path),
        namespace: "red".to_owned(),
        ..ZenohOptions::default()
    };
    let node = Bus::zenoh(&from_file)?;
    let inputs = node.subscribe(&[topics::SERIAL_MSG])?;
    let fake = client(port, "red")?;
    assert!(
        fake.wait_for_subscriber(topics::SERIAL_MSG, WAIT),
        "the node listens where the file says"
    );
    fake.publish(
        topics::SERIAL_MSG,
        &bus::messages::Serial {
            header: Header::at(1.0),
            mode: 8,
            bullet_speed: 0.0,
        },
    )?;
    assert_eq!(
        inputs
            .recv_timeout(WAIT)
            .ok_or("no serial")?
            .decode::<bus::messages::Serial>()?
            .mode,
        8
    );

    let broken = dir.path().join("broken.json5");
    std::fs::write(&broken, "{ mode: ")?;
    let err = Bus::zenoh(&ZenohOptions {
        config_file: Some(broken),
        ..ZenohOptions::default()
    })
    .err();
    assert!(matches!(err, Some(BusError::Config(_))), "{err:?}");
    Ok(())
}

#[test]
fn bad_namespace_is_rejected_before_opening() {
    for ns in ["red/", "/red", "r*", "a?b"] {
        let err = Bus::zenoh(&ZenohOptions {
            namespace: ns.to_owned(),
            ..ZenohOptions::default()
        })
        .err();
        assert!(matches!(err, Some(BusError::Config(_))), "{ns}: {err:?}");
    }
}

#[test]
fn clients_hear_each_other_through_the_node() -> TestResult {
    let port = free_port()?;
    let _node = node(port, "red")?;
    let fake = client(port, "red")?;
    let viewer = client(port, "red")?;
    let inputs = viewer.subscribe(&[topics::CAR_POS])?;
    assert!(
        fake.wait_for_subscriber(topics::CAR_POS, WAIT),
        "the node routes between its clients"
    );
    fake.publish_raw(topics::CAR_POS, b"{}")?;
    assert_eq!(
        inputs.recv_timeout(WAIT).map(|r| r.payload),
        Some(b"{}".to_vec())
    );
    Ok(())
}
