//! The live source against a Zenoh peer on loopback that publishes a trace and a layout.

use bus::{Bus, Mode, ZenohOptions, topics};
use gui::live::{LinkState, LiveSource};
use gui::sim::SimSource;
use std::time::{Duration, Instant};

#[test]
fn live_source_connects_and_shows_the_published_trace() {
    // A trace to publish: the sample's first tick.
    let (mut sim, mut sim_view) =
        SimSource::open(&gui::sample_config(), &gui::sample_scenario(), 0).expect("sample");
    assert!(sim.step_tick(&mut sim_view));
    let tick = sim_view.tick.clone().expect("tick");
    let layout = sim.node().layout().clone();
    let trace = serde_json::json!({
        "header": {"stamp": {"sec": 1, "nanosec": 0}, "frame_id": ""},
        "game_time": tick.game_time, "tick": tick.tick, "skipped": null,
        "waypoint": tick.waypoint, "available": tick.available, "best": tick.best,
        "chosen": tick.chosen, "action": tick.action, "path": tick.path, "poses": tick.poses,
        "aim_yaw": tick.aim_yaw, "decision": null, "cancelled": null, "why_not": tick.why_not,
    });

    let endpoint = "tcp/127.0.0.1:17893";
    let hub = Bus::zenoh(&ZenohOptions {
        mode: Mode::Peer,
        listen: vec![endpoint.to_owned()],
        connect: Vec::new(),
        namespace: "viewer_test".into(),
        config_file: None,
        multicast_scouting: false,
    })
    .expect("listener");
    let (mut live, mut view) =
        LiveSource::connect(endpoint, "viewer_test", sim_view.tables.clone(), false);
    let deadline = Instant::now() + Duration::from_secs(20);
    while view.tick.is_none() && Instant::now() < deadline {
        let _ = hub.publish(topics::TREE_LAYOUT, &layout);
        let _ = hub.publish(topics::TRACE, &trace);
        std::thread::sleep(Duration::from_millis(100));
        live.poll(&mut view);
    }
    assert_eq!(live.link(), LinkState::Connected);
    let shown = view.tick.clone().expect("a trace arrived");
    assert_eq!(shown.chosen, tick.chosen);
    assert_eq!(shown.available, tick.available);
    assert_eq!(view.tree.len(), FlatLen::of(&layout));
    let (any, trace_age) = live.ages();
    assert!(any.is_some() && trace_age.is_some_and(|a| a < 5.0));

    // A malformed trace is counted, not a panic.
    // Polled until counted (a deadline, not a fixed sleep: a loaded machine may take longer).
    let _ = hub.publish_raw(topics::TRACE, b"{not json");
    let deadline = Instant::now() + Duration::from_secs(20);
    while view.health.bad_traces == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        live.poll(&mut view);
    }
    assert!(
        view.health.bad_traces >= 1,
        "the malformed trace was not counted"
    );
    hub.close();
}

struct FlatLen;

impl FlatLen {
    fn of(spec: &decision_core::engine::TreeSpec) -> usize {
        1 + spec.children.iter().map(Self::of).sum::<usize>()
    }
}
