//! Record / replay / decision diff end to end: `sim --record` then `replay` gives the same
//! decisions; an edited weight shows up as exactly the affected spans; a cut or killed
//! recording replays up to the cut with a warning; the file opens with the `mcap` crate and its
//! channel schemas validate its messages; `record-info` tells what the file holds.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_robot-decision"));
    c.current_dir(repo());
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("record_tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One 120 s recording of the sample scenario, with the sim's own `--json` traces.
struct Recorded {
    mcap: PathBuf,
    sim_json: String,
}

fn recorded() -> &'static Recorded {
    static ONCE: OnceLock<Recorded> = OnceLock::new();
    ONCE.get_or_init(|| {
        let dir = scratch("shared");
        let mcap = dir.join("hp_retreat.mcap");
        let o = run(&[
            "sim",
            "sample/config.json",
            "--scenario",
            "sample/scenarios/hp_retreat.json5",
            "--seconds",
            "120",
            "--json",
            "--record",
            mcap.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        Recorded {
            mcap,
            sim_json: stdout(&o),
        }
    })
}

/// The trace messages of a recording, read with the `mcap` crate (stops at damage).
fn recorded_traces(bytes: &[u8]) -> Vec<Value> {
    let mut out = Vec::new();
    for m in mcap::MessageStream::new(bytes).unwrap() {
        let Ok(m) = m else { break };
        if m.channel.topic == "robot_decision/trace" {
            out.push(serde_json::from_slice(&m.data).unwrap());
        }
    }
    out
}

#[test]
fn sim_record_then_replay_gives_identical_decisions() {
    let rec = recorded();
    let dir = scratch("round_trip");
    let out = dir.join("replayed.jsonl");
    let o = run(&[
        "replay",
        rec.mcap.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["identical"], true);
    assert_eq!(report["traces_identical"], true);
    assert_eq!(report["spans"], Value::Array(vec![]));
    assert_eq!(report["old_ticks"], 1201);
    assert_eq!(report["new_ticks"], 1201);
    // Byte for byte what the simulation itself printed, tick by tick.
    let replayed = std::fs::read_to_string(&out).unwrap();
    assert_eq!(replayed.lines().count(), 1201);
    assert!(
        replayed == rec.sim_json,
        "replayed traces differ from sim --json"
    );
    // And the decisions match the recorded trace channel.
    let traces = recorded_traces(&std::fs::read(&rec.mcap).unwrap());
    let chosen = |v: &[Value]| v.iter().map(|t| t["chosen"].clone()).collect::<Vec<_>>();
    let replayed: Vec<Value> = replayed
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(chosen(&traces), chosen(&replayed));
    // Text mode says so too.
    let o = run(&["replay", rec.mcap.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("identical decisions"), "{}", stdout(&o));
}

/// A copy of the sample whose `hold_fire_point` (id 3) weighs 50 instead of 300.
fn edited_config(dir: &Path) -> PathBuf {
    let sample = repo().join("sample");
    for f in ["config.json", "waypoints.json"] {
        std::fs::copy(sample.join(f), dir.join(f)).unwrap();
    }
    std::fs::copy(repo().join("resources/RMUL.png"), dir.join("RMUL.png")).unwrap();
    let text = std::fs::read_to_string(sample.join("decisions.json")).unwrap();
    let at = text.find("\"name\" : \"hold_fire_point\"").unwrap();
    let w = at + text[at..].find("\"weight\" : 300").unwrap();
    let edited = format!(
        "{}\"weight\" : 50{}",
        &text[..w],
        &text[w + "\"weight\" : 300".len()..]
    );
    std::fs::write(dir.join("decisions.json"), edited).unwrap();
    dir.join("config.json")
}

#[test]
fn diff_reports_exactly_the_span_of_the_changed_weight() {
    let rec = recorded();
    let dir = scratch("diff");
    let config = edited_config(&dir);
    let traces = recorded_traces(&std::fs::read(&rec.mcap).unwrap());
    // The effect, stated from the recorded ticks: decision 3 (300 -> 50) only matters where
    // its guards hold. There, in the recording, 3 preempted the running 16 (weight 100) and
    // held; with 50 < 100 it can never preempt 16, and 16's guards hold throughout, so 16
    // stays in effect: the span is exactly the ticks where the recording chose 3.
    let ids = |t: &Value, k: &str| -> Vec<i64> {
        t[k].as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect()
    };
    let first = traces
        .iter()
        .position(|t| ids(t, "available").contains(&3))
        .unwrap();
    assert_eq!(traces[first - 1]["chosen"], 16, "16 runs before 3 appears");
    let affected: Vec<&Value> = traces[first..].iter().collect();
    for t in &affected {
        assert_eq!(t["chosen"], 3);
        assert_eq!(ids(t, "available"), vec![3, 16]);
    }
    let o = run(&[
        "replay",
        rec.mcap.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["identical"], false);
    let spans = report["spans"].as_array().unwrap();
    assert_eq!(spans.len(), 1, "{spans:#?}");
    let s = &spans[0];
    assert_eq!(s["start"], affected[0]["game_time"]);
    assert_eq!(s["end"], affected[affected.len() - 1]["game_time"]);
    assert_eq!(s["ticks"], affected.len());
    assert_eq!(s["first_tick"], affected[0]["tick"]);
    assert_eq!(s["old"]["id"], 3);
    assert_eq!(s["old"]["name"], "hold_fire_point");
    assert_eq!(s["new"]["id"], 16);
    assert_eq!(s["new"]["name"], "fallback_to_fire_point");
    let why = s["new"]["why_not_other"].as_str().unwrap();
    assert!(why.contains("weight is 50"), "{why}");
    // The text form names both decisions and both why-nots.
    let o = run(&[
        "replay",
        rec.mcap.to_str().unwrap(),
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.contains("decision 3 \"hold_fire_point\" -> 16 \"fallback_to_fire_point\""),
        "{text}"
    );
    assert!(text.contains("old, why not 16:") && text.contains("new, why not 3:"));
}

#[test]
fn snapshot_file_diff_matches_decide() {
    let dir = scratch("snapshots");
    let config = edited_config(&dir);
    let decide = |cfg: &str| -> Vec<Value> {
        let o = run(&["decide", cfg, "--input", "sample/snapshots.jsonl"]);
        assert!(o.status.success());
        stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let old = decide("sample/config.json");
    let new = decide(config.to_str().unwrap());
    // Expected spans from `decide`: runs of ticks with the same differing (old, new) pair.
    let mut expected: Vec<(i64, i64, Value, Value)> = Vec::new();
    let mut open = false;
    for (i, (a, b)) in old.iter().zip(&new).enumerate() {
        let i = i as i64;
        if a["chosen"] == b["chosen"] {
            open = false;
            continue;
        }
        match expected.last_mut() {
            Some(last)
                if open && last.1 == i - 1 && last.2 == a["chosen"] && last.3 == b["chosen"] =>
            {
                last.1 = i;
            }
            _ => expected.push((i, i, a["chosen"].clone(), b["chosen"].clone())),
        }
        open = true;
    }
    assert!(
        !expected.is_empty(),
        "the edit changes some snapshot decision"
    );
    let o = run(&[
        "replay",
        "sample/snapshots.jsonl",
        "--base",
        "sample/config.json",
        "--config",
        config.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let got: Vec<(i64, i64, Value, Value)> = report["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["first_tick"].as_i64().unwrap(),
                s["last_tick"].as_i64().unwrap(),
                s["old"]["id"].clone(),
                s["new"]["id"].clone(),
            )
        })
        .collect();
    assert_eq!(got, expected);
    // Against itself: identical, exit 0; no --base for snapshots is a usage error.
    let o = run(&[
        "replay",
        "sample/snapshots.jsonl",
        "--base",
        "sample/config.json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = run(&["replay", "sample/snapshots.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--base"));
}

/// Offsets and lengths of the top-level chunk records of an MCAP file.
fn chunks(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 8;
    while at + 9 <= bytes.len() {
        let op = bytes[at];
        let len = u64::from_le_bytes(bytes[at + 1..at + 9].try_into().unwrap()) as usize;
        if op == 0x06 {
            out.push((at, 9 + len));
        }
        if op == 0x0F {
            break; // data end
        }
        at += 9 + len;
    }
    out
}

#[test]
fn cut_file_replays_up_to_the_cut_with_a_warning() {
    let rec = recorded();
    let dir = scratch("cut");
    let bytes = std::fs::read(&rec.mcap).unwrap();
    let all = chunks(&bytes);
    assert!(all.len() > 50, "small chunks: {} of them", all.len());
    let (start, len) = all[all.len() / 2];
    let cut = dir.join("cut.mcap");
    std::fs::write(&cut, &bytes[..start + len / 2]).unwrap();
    // What the complete chunks hold, read with the mcap crate.
    let expected = recorded_traces(&bytes[..start + len / 2]);
    assert!(!expected.is_empty() && expected.len() < 1201);
    let out = dir.join("replayed.jsonl");
    let o = run(&[
        "replay",
        cut.to_str().unwrap(),
        "--format",
        "json",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("warning:") && stderr(&o).contains("cut"),
        "{}",
        stderr(&o)
    );
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["identical"], true);
    assert_eq!(report["traces_identical"], true);
    assert_eq!(report["old_ticks"], expected.len());
    assert_eq!(report["new_ticks"], expected.len());
    let replayed: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replayed, expected);
    // record-info says the file is incomplete.
    let o = run(&["record-info", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("INCOMPLETE"), "{}", stdout(&o));
}

#[test]
fn killed_recording_is_readable_up_to_the_kill() {
    let dir = scratch("killed");
    let mcap = dir.join("killed.mcap");
    let mut child = bin()
        .args([
            "sim",
            "sample/config.json",
            "--scenario",
            "sample/scenarios/hp_retreat.json5",
            // Real time: the match lasts about 25 s, so the kill below lands mid-match even
            // when each `record-info` poll takes seconds on a loaded machine (at 10 x the
            // match could end between two polls, leaving a complete file to "recover").
            "--speed",
            "1",
            "--record",
            mcap.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once more than 50 ticks are on disk (the partial file reads up to its last
    // chunk), instead of after a fixed sleep that a loaded machine may not fill.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let o = run(&["record-info", mcap.to_str().unwrap(), "--format", "json"]);
        let ticks = serde_json::from_str::<Value>(&stdout(&o))
            .ok()
            .and_then(|info| info["ticks"].as_u64())
            .unwrap_or(0);
        if ticks > 50 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the recording did not reach 50 ticks: {ticks}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        matches!(child.try_wait(), Ok(None)),
        "the match ended before it could be killed"
    );
    child.kill().unwrap();
    let _ = child.wait();
    let o = run(&["replay", mcap.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("warning:"), "{}", stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // About 25 s of match in real time; at least a few seconds made it to disk.
    assert!(report["old_ticks"].as_u64().unwrap() > 50, "{report}");
    assert_eq!(report["traces_identical"], true);
}

#[test]
fn recording_opens_with_the_mcap_reader_and_schemas_validate() {
    let rec = recorded();
    let bytes = std::fs::read(&rec.mcap).unwrap();
    let summary = mcap::Summary::read(&bytes).unwrap().unwrap();
    let topics: Vec<&str> = summary
        .channels
        .values()
        .map(|c| c.topic.as_str())
        .collect();
    for t in [
        "obj_hp",
        "car_pos",
        "game_info",
        "serial_msg",
        "pose",
        "navigate_through_poses/_action/status",
        "robot_decision/decision",
        "robot_decision/trace",
    ] {
        assert!(topics.contains(&t), "{t} missing from {topics:?}");
    }
    let mut validators = std::collections::HashMap::new();
    let mut checked = 0;
    for m in mcap::MessageStream::new(&bytes).unwrap() {
        let m = m.unwrap();
        assert_eq!(m.channel.message_encoding, "json");
        let schema = m.channel.schema.as_ref().unwrap();
        assert_eq!(schema.encoding, "jsonschema");
        let v = validators.entry(m.channel.id).or_insert_with(|| {
            let doc: Value = serde_json::from_slice(&schema.data).unwrap();
            jsonschema::validator_for(&doc).unwrap()
        });
        let msg: Value = serde_json::from_slice(&m.data).unwrap();
        // Publish time = the header stamp (sim time here, like the log time).
        if let Some(stamp) = msg.get("header").map(|h| &h["stamp"]) {
            let ns =
                stamp["sec"].as_u64().unwrap() * 1_000_000_000 + stamp["nanosec"].as_u64().unwrap();
            assert_eq!(m.publish_time, ns, "{}", m.channel.topic);
        }
        if let Err(e) = v.validate(&msg) {
            panic!("{} does not match its schema: {e}: {msg}", m.channel.topic);
        }
        checked += 1;
    }
    assert_eq!(checked, summary.stats.as_ref().unwrap().message_count);
    // Attachments and metadata, through the summary's indexes.
    let names: Vec<&str> = summary
        .attachment_indexes
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "config.json",
            "decisions.json",
            "waypoints.json",
            "RMUL.png",
            "hp_retreat.json5"
        ]
    );
    let png = mcap::read::attachment(&bytes, &summary.attachment_indexes[3]).unwrap();
    assert_eq!(
        png.data[..],
        std::fs::read(repo().join("resources/RMUL.png")).unwrap()[..]
    );
    let meta = mcap::read::metadata(&bytes, &summary.metadata_indexes[0]).unwrap();
    assert_eq!(meta.name, "robot_decision");
    assert_eq!(meta.metadata["seed"], "1");
    assert_eq!(meta.metadata["command"], "sim");
    assert_eq!(meta.metadata["crate_version"], env!("CARGO_PKG_VERSION"));
    assert!(meta.metadata["scenario"].ends_with("hp_retreat.json5"));
}

#[test]
fn record_info_tells_what_the_file_holds() {
    let rec = recorded();
    let traces = recorded_traces(&std::fs::read(&rec.mcap).unwrap());
    let changes = traces
        .windows(2)
        .filter(|w| w[0]["chosen"] != w[1]["chosen"])
        .count();
    let o = run(&[
        "record-info",
        rec.mcap.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let info: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(info["complete"], true);
    assert_eq!(info["ticks"], 1201);
    assert_eq!(info["decision_changes"], changes);
    assert_eq!(info["start"], 0.0);
    assert_eq!(info["end"], 120.0);
    let obj_hp = info["topics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["topic"] == "obj_hp")
        .unwrap();
    assert_eq!(obj_hp["messages"], 1201);
    assert_eq!(obj_hp["schema"], "ObjHp");
    let o = run(&["record-info", rec.mcap.to_str().unwrap()]);
    let text = stdout(&o);
    for needle in [
        "complete",
        "time span: 0.000 s .. 120.000 s",
        "1201 ticks",
        &format!("{changes} decision changes"),
        "robot_decision/trace",
        "decisions.json",
        "RMUL.png",
        "seed = 1",
    ] {
        assert!(text.contains(needle), "`{needle}` not in:\n{text}");
    }
    // Not an MCAP file: exit 2.
    let o = run(&["record-info", "sample/config.json"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["replay", "/nonexistent.mcap"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn run_record_replays_with_the_recorded_wall_clock() {
    use bus::messages::{CarPos, GameInfo, Header, ObjHp, Point2f, Serial};
    use bus::{Bus, topics};
    use decision_node::node::NodeCore;
    use decision_node::runtime::record::{Recorder, RunFacts};
    use decision_node::runtime::run::{run_node_recorded, wall_clock};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let dir = scratch("run");
    let mcap = dir.join("run.mcap");
    let config = repo().join("sample/config.json");
    let tables = Arc::new(
        decision_core::robomaster::load::load(&config)
            .tables
            .unwrap(),
    );
    let facts = RunFacts {
        command: "run".into(),
        config_path: config.clone(),
        ..RunFacts::default()
    };
    let mut recorder = Recorder::create(&mcap, &facts, &tables).unwrap();
    let node = NodeCore::new(Arc::clone(&tables)).unwrap();
    let bus = Bus::in_process();
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let node_thread = s.spawn(|| {
            run_node_recorded(&config, node, &bus, &stop, false, Some(&mut recorder)).unwrap()
        });
        // Publish once the node listens to every synchronised input, and stop once it has
        // answered all 30 sets: waits on conditions, not on the clock.
        for topic in topics::SYNCED_INPUTS {
            assert!(
                bus.wait_for_subscriber(topic, std::time::Duration::from_secs(30)),
                "the node never subscribed to {topic}"
            );
        }
        let decisions = bus.subscribe(&[topics::DECISION]).unwrap();
        // The sentry at start_zone, the enemies far away, 30 ticks.
        let mut pos = vec![Point2f { x: 0.8, y: 1.0 }; 12];
        pos[5] = Point2f { x: 8.8, y: 2.55 };
        for i in 0..30 {
            let header = Header::at(wall_clock());
            bus.publish(
                topics::OBJ_HP,
                &ObjHp {
                    header: header.clone(),
                    hp: vec![500; 16],
                },
            )
            .unwrap();
            bus.publish(
                topics::CAR_POS,
                &CarPos {
                    header: header.clone(),
                    pos: pos.clone(),
                },
            )
            .unwrap();
            bus.publish(
                topics::GAME_INFO,
                &GameInfo {
                    header: header.clone(),
                    timestamp: 420.0 - f64::from(i),
                    game_stage: 4,
                },
            )
            .unwrap();
            bus.publish(
                topics::SERIAL_MSG,
                &Serial {
                    header,
                    mode: 6,
                    bullet_speed: 0.0,
                },
            )
            .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let mut answered = 0;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while answered < 30 && std::time::Instant::now() < deadline {
            if decisions
                .recv_timeout(std::time::Duration::from_millis(100))
                .is_some()
            {
                answered += 1;
            }
        }
        assert_eq!(answered, 30, "decisions received before the deadline");
        stop.store(true, Ordering::Relaxed);
        node_thread.join().unwrap();
    });
    recorder.finish().unwrap();
    let o = run(&["record-info", mcap.to_str().unwrap(), "--format", "json"]);
    let info: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(info["complete"], true);
    assert_eq!(info["ticks"], 30, "{info:#}");
    assert_eq!(info["metadata"]["robot_decision"]["command"], "run");
    let count = |topic: &str| {
        info["topics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["topic"] == topic)
            .unwrap()["messages"]
            .as_u64()
            .unwrap()
    };
    assert!(count("robot_decision/events") >= 2, "start and stop");
    assert!(count("robot_decision/tree_layout") >= 1);
    assert_eq!(count("robot_decision/decision"), 30);
    let o = run(&["replay", mcap.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["traces_identical"], true);
    assert_eq!(report["new_ticks"], 30);
}
