//! End-to-end soccer over Zenoh on 127.0.0.1 with real processes: `fake-publisher --soccer`
//! (the game controller, world and perception; it listens) and five `robot-decision soccer
//! run` nodes (clients), watched by this test (a client). Every robot gets a role, mostly
//! exactly one striker, home scores from the kick-off, a killed and restarted robot rejoins,
//! garbage on every topic is counted and ignored, and the lost ball is found.

use bus::soccer::{self as topics, robot_topic};
use bus::{Bus, Mode, ZenohOptions};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

mod common;
use common::{Killed, fake_publisher_bin, free_port, repo};

/// Held by every test here that starts node processes: the five-node real-time match on a
/// two-core machine must not share the cores with another test's nodes and simulator (with
/// the record and reload tests running beside it, one run had exactly one striker in only
/// 56% of its moments; the match alone stays above the 60% bar).
static REAL_TIME_MATCH: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The match lock, also after a test that held it failed.
fn one_match_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    REAL_TIME_MATCH
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The game-controller simulation; its timeline lines arrive on the receiver.
fn start_match(endpoint: &str, scenario: &Path, seconds: u32) -> (Killed, Receiver<String>) {
    let mut child = Command::new(fake_publisher_bin())
        .arg("--soccer")
        .arg(scenario)
        .args(["--seconds", &seconds.to_string(), "--listen", endpoint])
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (Killed(child), rx)
}

fn start_robot(endpoint: &str, player: u8) -> Killed {
    start_robot_with(endpoint, player, &[])
}

fn start_robot_with(endpoint: &str, player: u8, extra: &[&str]) -> Killed {
    let mut flags = vec!["--namespace", "home", "--connect", endpoint];
    flags.extend_from_slice(extra);
    common::soccer_node(player, &flags)
}

fn client(endpoint: &str) -> Bus {
    Bus::zenoh(&ZenohOptions {
        mode: Mode::Client,
        listen: vec![],
        connect: vec![endpoint.to_string()],
        namespace: String::new(),
        ..ZenohOptions::default()
    })
    .unwrap()
}

fn scenario_file(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("soccer_zenoh");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Reads lines until one satisfies `done` or the deadline passes; returns all lines read.
fn lines_until(
    rx: &Receiver<String>,
    deadline: Instant,
    done: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut lines = Vec::new();
    while Instant::now() < deadline {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(100)) {
            let finished = done(&line);
            lines.push(line);
            if finished {
                break;
            }
        }
    }
    lines
}

/// One trace as this test needs it: time, robot, role, ball.
#[derive(Debug, Clone)]
struct Seen {
    t: f64,
    player: u8,
    branch: String,
    role: Option<String>,
    ball: Option<(f64, f64, String)>,
}

fn seen(payload: &[u8]) -> Option<Seen> {
    let v: Value = serde_json::from_slice(payload).ok()?;
    let d = &v["decision"];
    Some(Seen {
        t: d["t"].as_f64()?,
        player: u8::try_from(v["player"].as_u64()?).ok()?,
        branch: d["branch"].as_str()?.to_string(),
        role: d["role"].as_str().map(str::to_string),
        ball: d["ball"].as_object().and_then(|b| {
            Some((
                b.get("x")?.as_f64()?,
                b.get("y")?.as_f64()?,
                b.get("source")?.as_str()?.to_string(),
            ))
        }),
    })
}

#[test]
fn five_soccer_nodes_play_a_kickoff_over_zenoh() {
    let _one = one_match_at_a_time();
    let port = free_port();
    let endpoint = format!("tcp/127.0.0.1:{port}");
    let scenario = scenario_file(
        "kickoff_vs_scripted.json5",
        // Two scripted opponents, a keeper and a field player: with five the match outcome was
        // left to chance on a loaded machine (one CI run saw no home goal in 90 s).
        "{ kickoff_team: 'home', away: { name: 'away', kind: 'scripted', players: [1, 2] } }",
    );
    // Up to 150 simulated seconds at real time; the match is stopped (Ctrl-C, which prints
    // its end line) as soon as home has scored and the restart below has been watched for a
    // while, so the limit only matters when something is wrong.
    let (game, timeline) = start_match(&endpoint, &scenario, 150);
    let mut robots: BTreeMap<u8, Killed> =
        (1..=5).map(|p| (p, start_robot(&endpoint, p))).collect();
    let watcher = client(&endpoint);
    let mut watched: Vec<String> = (1..=5)
        .flat_map(|p| {
            [
                format!("home/{}", robot_topic(p, topics::TRACE)),
                format!("home/{}", robot_topic(p, topics::EVENTS)),
            ]
        })
        .collect();
    watched.push(format!("home/{}", topics::TEAM_STATE));
    let refs: Vec<&str> = watched.iter().map(String::as_str).collect();
    let sub = watcher.subscribe(&refs).unwrap();

    let mut traces: Vec<Seen> = Vec::new();
    let mut stats_of_3: Option<Value> = None;
    let mut team_messages = 0u32;
    let mut garbage_rounds = 0u32;
    // The garbage client lives to the end: a session dropped right after `put` may close
    // before its last messages leave (one run counted no bad team message).
    let mut garbage_client = None;
    let mut restarted_at: Option<f64> = None;
    let started = Instant::now();
    let deadline = started + Duration::from_secs(160);
    let mut interrupted = false;
    let mut lines: Vec<String> = Vec::new();
    while Instant::now() < deadline {
        while let Ok(line) = timeline.try_recv() {
            lines.push(line);
        }
        if lines.iter().any(|l| l.contains(" end: ")) {
            break;
        }
        let elapsed = started.elapsed().as_secs_f64();
        // Stop once everything asserted below has had its chance: home has scored, the
        // restart has been watched, and the State messages asserted on have been seen (a goal
        // pauses them through Ready and Set, so an early goal left too few by 22 s).
        if !interrupted
            && elapsed > 22.0
            && team_messages > 20
            && lines.iter().any(|l| l.contains("GOAL home"))
        {
            let status = Command::new("kill")
                .args(["-INT", &game.0.id().to_string()])
                .status()
                .unwrap();
            assert!(status.success());
            interrupted = true;
        }
        if garbage_rounds < 3 && elapsed > 8.0 + f64::from(garbage_rounds) {
            // Garbage on every input topic of robot 3, on the team key and on a command topic,
            // in three rounds a second apart: a put can be dropped under congestion (seen on a
            // loaded machine: only the first two topics of a round arrived).
            let garbage = garbage_client.get_or_insert_with(|| client(&endpoint));
            for topic in topics::ROBOT_INPUTS {
                garbage
                    .publish_raw(&format!("home/{}", robot_topic(3, topic)), b"{not json")
                    .unwrap();
            }
            garbage
                .publish_raw(&format!("home/{}", topics::TEAM_STATE), b"[1,2]")
                .unwrap();
            garbage
                .publish_raw(
                    &format!("home/{}", robot_topic(2, topics::MOTION_COMMAND)),
                    b"{\"body\":7}",
                )
                .unwrap();
            garbage_rounds += 1;
        }
        if restarted_at.is_none() && elapsed > 12.0 {
            // Robot 4 dies and comes back.
            robots.remove(&4);
            std::thread::sleep(Duration::from_millis(500));
            robots.insert(4, start_robot(&endpoint, 4));
            restarted_at = Some(traces.last().map_or(0.0, |s| s.t));
        }
        // Everything that arrived, not one message per pass: a watcher that falls behind
        // (a loaded machine) would see its bounded queue drop team messages.
        let first = sub.recv_timeout(Duration::from_millis(20));
        for r in first
            .into_iter()
            .chain(std::iter::from_fn(|| sub.try_recv()))
        {
            if r.topic.ends_with(topics::TRACE) {
                if let Some(s) = seen(&r.payload) {
                    traces.push(s);
                }
            } else if r.topic.ends_with(topics::TEAM_STATE) {
                team_messages += 1;
            } else if r.topic == format!("home/{}", robot_topic(3, topics::EVENTS)) {
                let v: Value = serde_json::from_slice(&r.payload).unwrap_or_default();
                if v["kind"] == "stats" {
                    stats_of_3 = Some(v["stats"].clone());
                }
            }
        }
    }
    lines.extend(lines_until(
        &timeline,
        Instant::now() + Duration::from_secs(5),
        |l| l.contains(" end: "),
    ));
    let text = lines.join("\n");

    // Every robot decided and got a role while playing.
    let roles: BTreeMap<u8, BTreeSet<String>> = traces.iter().fold(BTreeMap::new(), |mut m, s| {
        if let Some(role) = &s.role {
            m.entry(s.player).or_default().insert(role.clone());
        }
        m
    });
    assert_eq!(
        roles.keys().copied().collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5],
        "{roles:?}"
    );
    assert!(roles[&1].contains("goalkeeper"), "{roles:?}");

    // Exactly one striker most of the time: sample the latest role of each robot every
    // 100 ms of playing time.
    let mut latest: BTreeMap<u8, (f64, Option<String>)> = BTreeMap::new();
    let (mut moments, mut one_striker) = (0u32, 0u32);
    let mut next_sample = 0.0;
    for s in &traces {
        latest.insert(s.player, (s.t, s.role.clone()));
        let playing = latest
            .values()
            .filter(|(t, r)| s.t - t < 0.2 && r.is_some())
            .count();
        if s.t >= next_sample && playing == 5 {
            next_sample = s.t + 0.1;
            moments += 1;
            let strikers = latest
                .values()
                .filter(|(_, r)| r.as_deref() == Some("striker"))
                .count();
            one_striker += u32::from(strikers == 1);
        }
    }
    assert!(
        moments > 50,
        "only {moments} moments with five playing robots"
    );
    assert!(
        // The in-process match's bar: role changes take a State message round, and robot 4's
        // restart and the kick-offs start with several strikers for a moment.
        f64::from(one_striker) >= 0.6 * f64::from(moments),
        "exactly one striker in {one_striker} of {moments} moments"
    );

    // Home scores within the 150 simulated seconds.
    assert!(text.contains("GOAL home"), "no home goal:\n{text}");

    // The State messages flow between the nodes and the game controller counts them.
    assert!(team_messages > 20, "{team_messages} team messages");
    let end = lines
        .iter()
        .find(|l| l.contains(" end: "))
        .cloned()
        .unwrap_or_default();
    assert!(end.contains("team messages"), "{end}");

    // Robot 4 rejoined after its restart: it decides again and has a role.
    let restart = restarted_at.unwrap();
    let after: Vec<&Seen> = traces
        .iter()
        .filter(|s| s.player == 4 && s.t > restart + 2.0)
        .collect();
    assert!(
        after.len() > 100,
        "robot 4 after restart: {} ticks",
        after.len()
    );
    assert!(
        after.iter().any(|s| s.role.is_some()),
        "robot 4 has no role after restart"
    );
    assert!(after.iter().all(|s| !s.branch.is_empty()));

    // Garbage was counted per topic by robot 3 (and it kept deciding).
    drop(garbage_client);
    let stats = stats_of_3.expect("no stats event of robot 3");
    for topic in topics::ROBOT_INPUTS {
        let key = robot_topic(3, topic);
        let counted = stats["malformed"][&key].as_u64().unwrap_or(0);
        assert!((1..=3).contains(&counted), "{key}: {stats}");
    }
    let counted = stats["malformed"][topics::TEAM_STATE].as_u64().unwrap_or(0);
    assert!((1..=3).contains(&counted), "{stats}");
    assert!(traces.iter().filter(|s| s.player == 3).count() > 1000);
    // ... and the game controller counted the bad motion command.
    assert!(
        end.contains("home/player_2/behavior/motion_command"),
        "{end}"
    );
}

#[test]
fn soccer_nodes_find_the_lost_ball_over_zenoh() {
    let _one = one_match_at_a_time();
    let port = free_port();
    let endpoint = format!("tcp/127.0.0.1:{port}");
    let scenario = scenario_file(
        "lost_ball.json5",
        "{ start: 'playing', ball: [3.9, -2.6], away: { name: 'away', players: [1], kind: 'scripted' } }",
    );
    // Up to 90 simulated seconds at real time; the test ends as soon as the ball is seen
    // (usually within 20 s; a loaded machine slows every node down).
    let (_game, _timeline) = start_match(&endpoint, &scenario, 90);
    let _robots: Vec<Killed> = (1..=5).map(|p| start_robot(&endpoint, p)).collect();
    let watcher = client(&endpoint);
    let watched: Vec<String> = (1..=5)
        .map(|p| format!("home/{}", robot_topic(p, topics::TRACE)))
        .collect();
    let refs: Vec<&str> = watched.iter().map(String::as_str).collect();
    let sub = watcher.subscribe(&refs).unwrap();
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut searched = false;
    let mut found: Option<Seen> = None;
    while Instant::now() < deadline && found.is_none() {
        let Some(r) = sub.recv_timeout(Duration::from_millis(50)) else {
            continue;
        };
        let Some(s) = seen(&r.payload) else { continue };
        searched |= s.role.as_deref() == Some("searcher");
        if let Some((x, y, source)) = &s.ball
            && source == "local"
            && (x - 3.9).hypot(y + 2.6) < 1.0
        {
            found = Some(s);
        }
    }
    assert!(searched, "nobody searched");
    let found = found.expect("no robot saw the ball in the corner");
    assert!((1..=5).contains(&found.player));
}

#[test]
fn a_recorded_soccer_node_replays_identically() {
    let _one = one_match_at_a_time();
    let port = free_port();
    let endpoint = format!("tcp/127.0.0.1:{port}");
    let scenario = scenario_file(
        "record.json5",
        "{ start: 'playing', ball: [1.0, 0.5], home: { name: 'home', players: [1, 2] }, away: { name: 'away', players: [1], kind: 'scripted' } }",
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("soccer_zenoh");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("player2_{port}.mcap"));
    let (_game, timeline) = start_match(&endpoint, &scenario, 8);
    let _keeper = start_robot(&endpoint, 1);
    let mut robot = start_robot_with(&endpoint, 2, &["--record", file.to_str().unwrap()]);
    lines_until(&timeline, Instant::now() + Duration::from_secs(20), |l| {
        l.contains(" end: ")
    });
    // Ctrl-C: the node finishes its recording.
    let status = Command::new("kill")
        .args(["-INT", &robot.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    while robot.0.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .arg("replay")
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("player_2:"))
        .unwrap_or_default();
    let ticks: usize = line
        .split(' ')
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(ticks > 200, "{text}");
    assert!(
        line.contains(&format!("{ticks} identical to recorded")),
        "{text}"
    );
}

#[test]
fn a_soccer_node_reloads_edited_parameters_and_keeps_the_last_good_ones() {
    let _one = one_match_at_a_time();
    let port = free_port();
    let endpoint = format!("tcp/127.0.0.1:{port}");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("soccer_reload_{port}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("base")).unwrap();
    for stem in ["behavior_node", "field", "search_suggestor"] {
        std::fs::copy(
            repo().join(format!("sample/soccer/parameters/base/{stem}.json5")),
            dir.join(format!("base/{stem}.json5")),
        )
        .unwrap();
    }
    let (_hub, watcher) = hub_and_client(&endpoint);
    let events = watcher
        .subscribe(&[&format!("home/{}", robot_topic(1, topics::EVENTS))])
        .unwrap();
    let _robot = Killed(
        Command::new(env!("CARGO_BIN_EXE_robot-decision"))
            .args(["soccer", "run"])
            .arg(&dir)
            .args([
                "--player",
                "1",
                "--namespace",
                "home",
                "--connect",
                &endpoint,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let next_event = |kind: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Some(r) = events.recv_timeout(Duration::from_millis(100)) {
                let v: Value = serde_json::from_slice(&r.payload).unwrap_or_default();
                if v["kind"] == kind {
                    return Some(v);
                }
            }
        }
        None
    };
    assert!(next_event("start").is_some() || next_event("stats").is_some());
    let file = dir.join("base/behavior_node.json5");
    let good = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        good.replace("walk_to_kickoff: 0.5", "walk_to_kickoff: 0.4"),
    )
    .unwrap();
    let accepted = next_event("reload_accepted").expect("no reload_accepted");
    assert!(
        accepted["message"]
            .as_str()
            .unwrap_or("")
            .contains("reloaded")
    );
    std::fs::write(&file, "{ walking: { speed: { kicking: -1 } } }").unwrap();
    let rejected = next_event("reload_rejected").expect("no reload_rejected");
    let message = rejected["message"].as_str().unwrap_or("");
    assert!(message.contains("behavior_node.json5:"), "{message}");
    // Still deciding with the last good parameters.
    assert!(next_event("stats").is_some_and(|v| v["stats"]["ticks"].as_u64() > Some(10)));
}

/// For tests that need no game controller: a listening peer (the hub robots connect to) and
/// a client of it.
fn hub_and_client(endpoint: &str) -> (Bus, Bus) {
    let hub = Bus::zenoh(&ZenohOptions {
        mode: Mode::Peer,
        listen: vec![endpoint.to_string()],
        connect: vec![],
        namespace: String::new(),
        ..ZenohOptions::default()
    })
    .unwrap();
    (hub, client(endpoint))
}
