//! The soccer view on a recording (written here through the library, as `robot-decision soccer
//! sim --record` does) and on a live team over an in-process bus, driven with egui_kittest.

use decision_node::runtime::record::RunFacts;
use decision_node::soccer::match_recording::MatchRecording;
use decision_node::soccer::trace::blackboard_payload;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fake_publisher::soccer::SoccerMatch;
use gui::soccer::live::SoccerLive;
use gui::soccer::replay::SoccerReplay;
use gui::soccer::scene::{EventKind, TeamSide};
use gui::soccer::sim::{SoccerSimOptions, load};
use gui::soccer::view::SoccerApp;
use soccer_profile::frame::{Frame, PoseJson};
use std::path::Path;

fn harness(app: SoccerApp) -> Harness<'static, SoccerApp> {
    Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut SoccerApp| app.show(ui), app)
}

/// Records `seconds` of the sample match into `path` like `soccer sim --record`; returns the
/// simulated times at which some robot had a role (the match was playing).
fn record_sample(path: &Path, seconds: f64) -> Vec<f64> {
    let (params, scenario, spec) = load(&SoccerSimOptions::default()).expect("sample loads");
    let mut game = SoccerMatch::new(scenario, params.clone(), &spec, Some(7)).expect("match");
    game.set_recording(true);
    let facts = RunFacts {
        command: "soccer sim".into(),
        seed: Some(7),
        ..RunFacts::default()
    };
    let mut recording =
        MatchRecording::create(path, &facts, &params, &spec, &game).expect("recording");
    let mut playing_times = Vec::new();
    while game.now < seconds && !game.is_over() {
        game.step();
        if game.players.iter().any(|p| p.role.is_some()) {
            playing_times.push(game.now);
        }
        recording.record_step(&game).expect("step recorded");
    }
    recording.finish().expect("finish");
    playing_times
}

/// The middle of the longest run of consecutive ticks (20 ms apart) in `times`.
fn middle_of_longest_run(times: &[f64]) -> f64 {
    let mut best = (0.0, 0.0);
    let mut start = 0;
    for i in 0..times.len() {
        let run_ends = i + 1 == times.len() || times[i + 1] - times[i] > 0.03;
        if run_ends {
            if times[i] - times[start] > best.1 - best.0 {
                best = (times[start], times[i]);
            }
            start = i + 1;
        }
    }
    assert!(best.1 - best.0 > 2.0, "no playing stretch of 2 s: {best:?}");
    (best.0 + best.1) / 2.0
}

#[test]
fn a_recording_shows_robots_and_roles_and_seeks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("match.mcap");
    let playing_times = record_sample(&path, 30.0);
    // The middle of the longest playing stretch of the recording (the match's course depends
    // on the behaviour's tuning: a goal sends it back to ready).
    let late = middle_of_longest_run(&playing_times);
    assert!(late > 5.0, "playing only before 5 s");
    let replay = SoccerReplay::open(&path).expect("the recording opens");
    assert!(replay.duration() > 29.0, "{}", replay.duration());
    let mut app = SoccerApp::recording(replay);
    app.seek(late);
    assert!((app.time() - late).abs() < 0.05, "time {}", app.time());
    let at_late: Vec<(f64, f64)> = app.scene.robots.iter().map(|r| (r.x, r.y)).collect();
    let mut h = harness(app);
    h.run();
    h.get_by_label("soccer field");
    for team in ["home", "away"] {
        for number in 1..=5 {
            h.get_by_label(&format!("{team} {number}"));
        }
    }
    {
        let app = h.state();
        assert_eq!(app.scene.robots.len(), 10);
        assert!(!app.scene.ball_known);
        assert!(
            app.scene.robots.iter().any(|r| r.role.is_some()),
            "no robot has a role at {late} s"
        );
        assert!(
            app.scene.events.iter().any(|e| e.kind == EventKind::Role),
            "no role change in the timeline"
        );
        let detail = app.scene.detail.as_ref().expect("a selected robot");
        assert!(!detail.tree.is_empty(), "the recorded tree is shown");
        assert!(detail.statuses.iter().any(Option::is_some));
        assert!(detail.blackboard.iter().any(|(k, _)| k == "primary state"));
        // `soccer sim` records no team key: the messages come from the traces.
        assert!(
            !app.scene.messages.is_empty(),
            "no team message by {late} s"
        );
    }
    h.get_by_label("Step").click();
    h.run();
    assert!(h.state().time() > late);
    // Seeking back moves time and the robots.
    h.state_mut().seek(1.0);
    h.run();
    let app = h.state();
    assert!((app.time() - 1.0).abs() < 0.05, "time {}", app.time());
    let moved = app
        .scene
        .robots
        .iter()
        .zip(&at_late)
        .any(|(r, (x, y))| (r.x - x).hypot(r.y - y) > 0.1);
    assert!(moved, "nobody is elsewhere at 1 s than at {late} s");
    assert_eq!(app.replay().map(|r| r.feed().counts.bad), Some(0));
}

#[test]
fn a_missing_recording_is_an_error() {
    assert!(SoccerReplay::open(Path::new("/nonexistent/match.mcap")).is_err());
}

fn frame(player: u8, t: f64, x: f64, y: f64) -> Vec<u8> {
    let frame = Frame {
        t,
        player_number: player,
        pose: Some(PoseJson { x, y, yaw: 0.0 }),
        ..Frame::default()
    };
    blackboard_payload(player, &frame)
}

fn trace(player: u8, t: f64, role: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "header": bus::messages::Header::at(t),
        "player": player,
        "tick": 0,
        "decision": {
            "branch": "playing", "role": role,
            "motion": {"body": {"kind": "stand"}, "head": {"kind": "search"}},
            "ball": {"x": 1.0, "y": 0.0, "source": "local", "age": 0.0}
        },
        "nodes": []
    }))
    .unwrap_or_default()
}

#[test]
fn a_live_team_appears_as_it_is_heard() {
    let bus = bus::Bus::in_process();
    let teams = ["home".to_owned(), "away".to_owned()];
    let live = SoccerLive::with_bus(bus.clone(), &teams);
    let mut h = harness(SoccerApp::live(live));
    h.run();
    assert!(h.state().scene.robots.is_empty());
    let publish = |key: &str, payload: &[u8]| bus.publish_raw(key, payload).expect("published");
    publish(
        "home/player_3/behavior/blackboard",
        &frame(3, 1.0, 1.0, 2.0),
    );
    publish("home/player_3/behavior/trace", &trace(3, 1.0, "striker"));
    publish(
        "away/player_2/behavior/blackboard",
        &frame(2, 1.0, 1.0, 2.0),
    );
    publish("away/player_2/behavior/trace", &trace(2, 1.0, "keeper"));
    publish("home/player_3/behavior/trace", b"garbage");
    h.run();
    {
        let app = h.state();
        let robots = &app.scene.robots;
        assert_eq!(robots.len(), 2);
        let home = robots
            .iter()
            .find(|r| r.team == TeamSide::Home)
            .expect("home 3");
        assert_eq!((home.number, home.x, home.y), (3, 1.0, 2.0));
        assert_eq!(home.role.as_deref(), Some("striker"));
        let away = robots
            .iter()
            .find(|r| r.team == TeamSide::Away)
            .expect("away 2");
        assert_eq!((away.x, away.y), (-1.0, -2.0));
        assert_eq!(app.scene.selected, Some((TeamSide::Home, 3)));
    }
    h.get_by_label("home 3");
    h.get_by_label("away 2");
    h.get_by_label("Tree of home 3");
    // Only the selected robot's heatmap is asked for.
    assert!(bus.has_subscriber("home/player_3/ball_search_heatmap"));
    assert!(!bus.has_subscriber("away/player_2/ball_search_heatmap"));
    let heat =
        br#"{"header":{"stamp":{"sec":1,"nanosec":0}},"length":2,"width":1,"values":[0.5,1.0]}"#;
    publish("home/player_3/ball_search_heatmap", heat);
    h.run();
    let values = h
        .state()
        .scene
        .detail
        .as_ref()
        .and_then(|d| d.heatmap.as_ref())
        .map(|m| m.values.clone());
    assert_eq!(values, Some(vec![0.5, 1.0]));
    h.get_by_label("away 2").click();
    h.run();
    assert_eq!(h.state().scene.selected, Some((TeamSide::Away, 2)));
    assert!(bus.has_subscriber("away/player_2/ball_search_heatmap"));
    assert!(!bus.has_subscriber("home/player_3/ball_search_heatmap"));
    // Live has no step.
    assert!(!h.state_mut().step_tick());
    let app = h.state();
    if let gui::soccer::view::SoccerSource::Live(live) = &app.source {
        assert_eq!(live.feed.counts.bad, 1);
    }
}
