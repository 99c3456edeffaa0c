//! One soccer path: a robot of the in-process match (`soccer sim`) and a `soccer run` node fed
//! the records the simulator publishes for that robot (`soccer sim --remote`) decide alike, tick
//! for tick and record for record.

use bus::messages::Header;
use bus::soccer::{TEAM_STATE, TeamStateMsg, robot_topic};
use decision_node::node::Ingested;
use decision_node::profile::NodeProfile;
use decision_node::soccer::SoccerNode;
use decision_node::soccer::sources::SoccerSources;
use decision_node::soccer::trace::trace_payload;
use fake_publisher::soccer::remote::frame_payloads;
use fake_publisher::soccer::{SoccerMatch, SoccerScenario};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Feeds `payload` on `topic` to `node` at `now`; it must be stored.
fn feed(node: &mut SoccerNode, topic: &str, payload: &[u8], now: f64) {
    match node.ingest(topic, payload, now) {
        Ingested::Stored => {}
        other => panic!("{topic} at {now}: not stored: {other:?}"),
    }
}

#[test]
fn an_in_process_robot_decides_as_a_node_fed_the_records_the_simulator_publishes() {
    let params_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample/soccer/parameters");
    let params = Arc::new(
        soccer_profile::params::load(&params_dir, Some("simulation"), None)
            .unwrap_or_else(|e| panic!("{e:?}")),
    );
    let spec = soccer_profile::tree::default_spec().unwrap_or_else(|e| panic!("{e:?}"));
    let scenario = SoccerScenario {
        seconds: Some(45.0),
        ..SoccerScenario::default()
    };
    let mut game = SoccerMatch::new(scenario, Arc::clone(&params), &spec, Some(11))
        .unwrap_or_else(|e| panic!("{e}"));
    game.set_recording(true);
    let sources = SoccerSources {
        params_dir: PathBuf::from("unused"),
        location: None,
        robot: None,
        tree: None,
    };
    let mut nodes: Vec<Option<SoccerNode>> = game
        .players
        .iter()
        .map(|p| {
            p.brain().map(|_| {
                SoccerNode::new(sources.clone(), p.number, Arc::clone(&params), spec.clone())
                    .unwrap_or_else(|e| panic!("{e}"))
            })
        })
        .collect();
    assert_eq!(nodes.iter().flatten().count(), 10, "both teams are ours");
    let mut ticks = vec![0u64; nodes.len()];
    let mut roles = BTreeSet::new();
    let mut messages = 0;
    while !game.is_over() {
        game.step();
        let now = game.now;
        for (i, p) in game.players.iter().enumerate() {
            let (Some(node), Some(brain), Some(frame), Some(decision)) = (
                nodes[i].as_mut(),
                p.brain(),
                p.recorded_frame.as_ref(),
                p.decision.as_ref(),
            ) else {
                panic!("robot {i} at {now}: an in-process robot decides every tick");
            };
            for (name, payload) in frame_payloads(frame, now) {
                feed(node, &robot_topic(p.number, name), &payload, now);
            }
            for message in &frame.teammate_messages {
                let record = TeamStateMsg {
                    header: Header::at(now),
                    message: *message,
                };
                let payload = serde_json::to_vec(&record).unwrap_or_else(|e| panic!("{e}"));
                feed(node, TEAM_STATE, &payload, now);
                messages += 1;
            }
            let output = node.clock_tick(now).expect("the node ticks on its clock");
            let who = format!("robot {} of side {:?} at {now}", p.number, p.side);
            assert_eq!(&output.frame, frame, "{who}: the frame");
            assert_eq!(&output.decision, decision, "{who}: the decision");
            assert_eq!(
                output.trace,
                trace_payload(brain, p.number, ticks[i], decision),
                "{who}: the trace"
            );
            assert_eq!(
                output.search_position,
                brain.suggestor().target().map(|t| t.to_array()),
                "{who}: the search position"
            );
            ticks[i] += 1;
            roles.insert(decision.role);
        }
    }
    // 45 s of 20 ms ticks for each of the ten robots, through kick-off and play.
    assert_eq!(ticks, vec![2250; 10]);
    for role in ["striker", "supporter", "goalkeeper"] {
        assert!(roles.contains(&Some(role)), "{role} in {roles:?}");
    }
    assert!(messages > 50, "teammate messages compared: {messages}");
}
