//! The `fake-publisher` binary: schema, errors, and a short run against a Zenoh peer on the
//! loopback that sends it a goal, a malformed goal and finally Ctrl-C.

mod common;

use bus::messages::{GameInfo, GoalStatusArray};
use bus::{Bus, Mode, ZenohOptions, topics};
use common::{goal, sample_dir, scenario_file};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fake-publisher"))
}

#[test]
fn schema_is_printed() {
    let out = bin()
        .arg("--schema")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success());
    let schema: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(schema["title"], "Scenario");
}

#[test]
fn a_bad_scenario_exits_2_with_positions() {
    let (_dir, path) = scenario_file(
        "bad.json5",
        "{field: '../nowhere.json',\n side: 'red', rate: }",
    );
    let out = bin().arg(&path).output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.json5:2:"), "{err}");
}

#[test]
fn bad_flags_exit_2() {
    let path = sample_dir().join("scenarios/hp_retreat.json5");
    for flags in [["--speed", "0"], ["--rate", "0"], ["--seconds", "-1"]] {
        let out = bin()
            .arg(&path)
            .args(flags)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
    }
    // The soccer match has no ROS 2 side: said, not ignored.
    let out = bin()
        .args(["--soccer", "--ros2", "--seconds", "1"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--soccer --ros2"), "{stderr}");
}

/// A publisher needs a listener: a peer on a free loopback port, and its endpoint.
fn listening_peer() -> (Bus, String) {
    let port = free_port();
    let endpoint = format!("tcp/127.0.0.1:{port}");
    let options = ZenohOptions {
        mode: Mode::Peer,
        listen: vec![endpoint.clone()],
        ..ZenohOptions::default()
    };
    let bus = Bus::zenoh(&options).unwrap_or_else(|e| panic!("{e}"));
    (bus, endpoint)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn publishes_over_zenoh_takes_goals_and_stops_on_ctrl_c() {
    let (bus, endpoint) = listening_peer();
    let sub = bus
        .subscribe(&[topics::GAME_INFO, topics::NAV_STATUS])
        .unwrap_or_else(|e| panic!("{e}"));
    let scenario = sample_dir().join("scenarios/hp_retreat.json5");
    let mut child = bin()
        .arg(&scenario)
        .args(["--connect", &endpoint, "--speed", "4", "--seed", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));

    let deadline = Instant::now() + Duration::from_secs(30);
    let mut game_info = 0;
    let mut goal_sent = false;
    let mut accepted = false;
    while Instant::now() < deadline && !accepted {
        let Some(r) = sub.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        match r.topic.as_str() {
            topics::GAME_INFO => {
                let info: GameInfo = r.decode().unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(info.game_stage, 4);
                game_info += 1;
                if !goal_sent && game_info >= 3 {
                    bus.publish_raw(topics::NAV_GOAL, b"{\"goal_id\": \"x\"}")
                        .unwrap_or_else(|e| panic!("{e}"));
                    bus.publish(topics::NAV_GOAL, &goal(41, &[(11.1, 7.2, 0.0)]))
                        .unwrap_or_else(|e| panic!("{e}"));
                    goal_sent = true;
                }
            }
            _ => {
                let status: GoalStatusArray = r.decode().unwrap_or_else(|e| panic!("{e}"));
                accepted = status
                    .status_list
                    .last()
                    .is_some_and(|s| s.goal_id == Some(41) && s.status >= 1);
            }
        }
    }
    assert!(
        accepted,
        "the goal was taken (game_info seen {game_info} times)"
    );
    let pid = child.id().to_string();
    let killed = Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(killed.success());
    let mut waited = None;
    for _ in 0..200 {
        if let Ok(Some(status)) = child.try_wait() {
            waited = Some(status);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let Some(status) = waited else {
        let _ = child.kill();
        panic!("fake-publisher did not stop on SIGINT");
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .map(|mut s| s.read_to_string(&mut stdout));
    child
        .stderr
        .take()
        .map(|mut s| s.read_to_string(&mut stderr));
    assert!(status.success(), "{status:?}\n{stdout}\n{stderr}");
    assert!(stdout.contains("interrupted at"), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("t ") && l.contains("stage 4")),
        "{stdout}"
    );
    assert!(stderr.contains("malformed message ignored"), "{stderr}");
    bus.close();
}

#[test]
fn stops_after_seconds() {
    let (bus, endpoint) = listening_peer();
    let scenario = sample_dir().join("scenarios/outpost_loss.json5");
    let out = bin()
        .arg(&scenario)
        .args([
            "--connect",
            &endpoint,
            "--speed",
            "100",
            "--seconds",
            "3",
            "--rate",
            "20",
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("stopped after 3.0 simulated seconds"),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("t ")).count(),
        4,
        "one line per second: {stdout}"
    );
    bus.close();
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    // `fake-publisher ... | head -n 0`: the status lines meet a closed pipe from the start.
    let (bus, endpoint) = listening_peer();
    let scenario = sample_dir().join("scenarios/outpost_loss.json5");
    for args in [
        vec!["--schema".to_owned()],
        vec![
            scenario.display().to_string(),
            "--connect".to_owned(),
            endpoint.clone(),
            "--speed".to_owned(),
            "100".to_owned(),
            "--seconds".to_owned(),
            "30".to_owned(),
        ],
    ] {
        let (reader, writer) = std::io::pipe().unwrap_or_else(|e| panic!("{e}"));
        drop(reader);
        let out = bin()
            .args(&args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        // Quietly: the schema dies of SIGPIPE as `grep` would, the publisher stops and exits 0.
        let quiet = out.status.success() || {
            use std::os::unix::process::ExitStatusExt;
            out.status.signal() == Some(13)
        };
        assert!(quiet, "{args:?}: {:?} {stderr}", out.status);
    }
    bus.close();
}
