//! Bus payloads of every input topic (both profiles) and MCAP recordings given to `replay`.

use bus::{soccer, topics};
use decision_core::robomaster::{Tables, load};
use decision_node::node::NodeCore;
use decision_node::profile::NodeProfile;
use decision_node::runtime::replay::soccer::{recorded_robots, recorded_setup};
use decision_node::runtime::replay::{replay_messages, traces};
use decision_node::soccer::SoccerNode;
use decision_node::soccer::sources::SoccerSources;
use std::sync::{Arc, OnceLock};

/// The sample's tables, loaded once per process.
fn sample_tables() -> Arc<Tables> {
    static TABLES: OnceLock<Arc<Tables>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let outcome = load(&crate::repository().join("sample/config.json"));
            Arc::new(outcome.tables.expect("the sample configuration loads"))
        })
        .clone()
}

/// A sequence of messages (see [`crate::messages`]) to the RoboMaster node: the selector
/// picks the input topic, time advances 10 ms per message, and a completed set ticks.
pub fn robomaster_inputs(data: &[u8]) {
    let Ok(mut node) = NodeCore::new(sample_tables()) else {
        return;
    };
    for (i, (selector, payload)) in crate::messages(data).enumerate() {
        let topic = topics::NODE_INPUTS[usize::from(selector) % topics::NODE_INPUTS.len()];
        let _ = node.ingest(topic, payload, 1.0 + i as f64 * 0.01);
    }
    let _ = node.stats();
}

/// A sequence of messages to soccer robot 3: the selector picks the topic (its five robot
/// inputs and the team channel); every message is followed by a 10 ms clock tick, whose
/// output is encoded as the node would publish it.
pub fn soccer_inputs(data: &[u8]) {
    let Ok(spec) = soccer_profile::tree::default_spec() else {
        return;
    };
    let sources = SoccerSources {
        params_dir: std::path::PathBuf::from("unused"),
        location: None,
        robot: None,
        tree: None,
    };
    let params = Arc::new(soccer_profile::params::Parameters::default());
    let Ok(mut node) = SoccerNode::new(sources, 3, params, spec) else {
        return;
    };
    let topics: Vec<String> = node.input_topics();
    for (i, (selector, payload)) in crate::messages(data).enumerate() {
        let topic = &topics[usize::from(selector) % topics.len()];
        let now = 1.0 + i as f64 * 0.01;
        let _ = node.ingest(topic, payload, now);
        if let Some(output) = node.clock_tick(now) {
            let _ = node.outgoing(&output, &|_| true);
        }
    }
    debug_assert!(topics.iter().any(|t| t == soccer::TEAM_STATE));
}

/// A recording as `replay` reads it: read leniently, then its traces, its node inputs fed
/// through the sample's tables, and a soccer recording's setup and robots decided again.
pub fn mcap(data: &[u8]) {
    let Ok(recording) = bus::recording::read_mcap_bytes(data) else {
        return;
    };
    let _ = traces(&recording);
    let _ = replay_messages(sample_tables(), &recording.messages, &|_, _| {});
    let robots = recorded_robots(&recording);
    if let Ok((params, spec)) = recorded_setup(&recording) {
        for robot in robots.iter().take(2) {
            let mut robot = robot.clone();
            robot.inputs.truncate(50);
            let _ = robot.decide_again(&params, &spec);
        }
    }
}

/// The ROS 2 message types of [`ros2_cdr`], in selector order.
pub const ROS2_TYPES: [&str; 12] = [
    "global_interface/msg/Point2f",
    "global_interface/msg/ObjHP",
    "global_interface/msg/CarPos",
    "global_interface/msg/GameInfo",
    "global_interface/msg/Serial",
    "global_interface/msg/Decision",
    "global_interface/msg/Detection",
    "global_interface/msg/DetectionArray",
    "global_interface/msg/Autoaim",
    "global_interface/msg/ModeSet",
    "global_interface/msg/StrikeLicensing",
    "geometry_msgs/msg/PoseStamped",
];

/// ROS 2 CDR payloads: the first byte picks the type ([`ROS2_TYPES`], modulo their count),
/// the rest is the payload. Whatever decodes must re-encode to bytes that decode again and
/// encode identically.
pub fn ros2_cdr(data: &[u8]) {
    use bus::ros2::msg;
    let Some((&selector, payload)) = data.split_first() else {
        return;
    };
    match usize::from(selector) % ROS2_TYPES.len() {
        0 => cdr_round_trip::<msg::Point2f>(payload),
        1 => cdr_round_trip::<msg::ObjHP>(payload),
        2 => cdr_round_trip::<msg::CarPos>(payload),
        3 => cdr_round_trip::<msg::GameInfo>(payload),
        4 => cdr_round_trip::<msg::Serial>(payload),
        5 => cdr_round_trip::<msg::Decision>(payload),
        6 => cdr_round_trip::<msg::Detection>(payload),
        7 => cdr_round_trip::<msg::DetectionArray>(payload),
        8 => cdr_round_trip::<msg::Autoaim>(payload),
        9 => cdr_round_trip::<msg::ModeSet>(payload),
        10 => cdr_round_trip::<msg::StrikeLicensing>(payload),
        _ => cdr_round_trip::<msg::PoseStamped>(payload),
    }
}

fn cdr_round_trip<T: bus::ros2::msg::RosMessage>(payload: &[u8]) {
    use bus::ros2::cdr::{decode, encode};
    let Ok(message) = decode::<T>(payload) else {
        return;
    };
    let once = encode(&message);
    let again = decode::<T>(&once)
        .unwrap_or_else(|e| panic!("our own {} payload does not decode: {e}", T::TYPE_NAME));
    assert_eq!(
        encode(&again),
        once,
        "{} re-encodes differently",
        T::TYPE_NAME
    );
}
