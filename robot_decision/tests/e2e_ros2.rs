//! End-to-end on ROS 2 (rmw_zenoh wire format) on 127.0.0.1 with real processes: a Zenoh
//! router (as rmw_zenohd), `robot-decision run --ros2`, and this test as the rest of the robot
//! (referee, localisation, auto-aim and Nav2) on the same crate's ROS 2 transport. The test
//! publishes the sample's snapshots as CDR messages and a TF, serves the
//! `NavigateThroughPoses` action, and checks every tick's trace against `robot-decision
//! decide` on the same inputs with the statuses the node saw; preemption cancels the old goal
//! through the action; malformed CDR on every input topic is counted, and the node goes on.

#![cfg(feature = "ros2")]

use bus::messages::{
    Autoaim, CarPos, GameInfo, GoalStatus, GoalStatusArray, Header, NavCancel, NavGoal, ObjHp,
    Point2f, PoseMsg, Serial,
};
use bus::ros2::msg::Quaternion;
use bus::ros2::router::Router;
use bus::{Bus, Distro, Received, Subscription, topics};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{Killed, fake_publisher_bin, free_port, repo};
use decision_node::runtime::clock::wall_clock;

/// The sample's TIME_THR (s): inputs older than this no longer count.
const TIME_THR: Duration = Duration::from_millis(1000);

fn start_node(endpoint: &str) -> Killed {
    start_node_on(endpoint, Distro::Humble)
}

fn start_node_on(endpoint: &str, distro: Distro) -> Killed {
    Killed(
        Command::new(env!("CARGO_BIN_EXE_robot-decision"))
            .args([
                "run",
                "sample/config.json",
                "--ros2",
                "--ros-distro",
                distro.as_str(),
                "--connect",
                endpoint,
                "--no-reload",
            ])
            .current_dir(repo())
            .stdout(Stdio::null())
            .stderr(match std::env::var_os("E2E_ROS2_NODE_LOG") {
                Some(path) => std::fs::File::create(path).map_or(Stdio::null(), Stdio::from),
                None => Stdio::null(),
            })
            .spawn()
            .expect("robot-decision starts"),
    )
}

fn ros2_client(endpoint: &str) -> Bus {
    ros2_client_on(endpoint, Distro::Humble, "e2e_robot")
}

fn ros2_client_on(endpoint: &str, distro: Distro, name: &str) -> Bus {
    common::ros2_client(endpoint, distro, name, "")
}

/// The test's side of the robot: what it received, and the Nav2 it plays.
struct Robot {
    bus: Bus,
    sub: Subscription,
    traces: Vec<Value>,
    goals: Vec<NavGoal>,
    cancels: Vec<NavCancel>,
    statuses: Vec<GoalStatusArray>,
    events: Vec<Value>,
    /// The goal Nav2 executes now (its server-side id).
    active_goal: Option<u64>,
    /// The status the node sees now.
    status: u8,
}

impl Robot {
    /// Takes one message, if one comes within `timeout`.
    fn take(&mut self, timeout: Duration) -> Option<String> {
        let r: Received = self.sub.recv_timeout(timeout)?;
        match r.topic.as_str() {
            topics::TRACE => self
                .traces
                .push(serde_json::from_slice(&r.payload).expect("trace JSON")),
            topics::NAV_GOAL => {
                let goal: NavGoal = r.decode().expect("goal");
                self.active_goal = Some(goal.goal_id);
                // Accepted and executing: active, whichever of the two the node saw last.
                self.status = GoalStatus::EXECUTING;
                self.goals.push(goal);
            }
            topics::NAV_CANCEL => {
                let cancel: NavCancel = r.decode().expect("cancel");
                // Nav2 cancels the goal at once (a goal it already ended stays as it is).
                self.report(cancel.goal_id, GoalStatus::CANCELED);
                if self.active_goal == Some(cancel.goal_id) {
                    self.active_goal = None;
                    self.status = GoalStatus::CANCELED;
                }
                self.cancels.push(cancel);
            }
            // The garbage this test sends on the status topic comes back here too.
            topics::NAV_STATUS => self.statuses.extend(r.decode().ok()),
            topics::EVENTS => self
                .events
                .push(serde_json::from_slice(&r.payload).expect("event JSON")),
            _ => {}
        }
        Some(r.topic)
    }

    /// Waits until `done` holds, taking messages meanwhile.
    fn until(&mut self, what: &str, timeout: Duration, done: impl Fn(&Self) -> bool) {
        let deadline = Instant::now() + timeout;
        while !done(self) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {} traces, {} goals, {} cancels, last trace {:?}",
                self.traces.len(),
                self.goals.len(),
                self.cancels.len(),
                self.traces
                    .last()
                    .map(|t| (&t["action"], &t["chosen"], &t["cancelled"]))
            );
            self.take(Duration::from_millis(20));
        }
    }

    /// Ends goal `id` with `status` as Nav2 would, and waits until the status is on the
    /// action's status topic (where the node reads it too), plus a margin for the node.
    fn finish(&mut self, id: u64, status: u8) {
        self.report(id, status);
        if self.active_goal == Some(id) {
            self.active_goal = None;
            self.status = status;
        }
        self.until(
            "the final status on the status topic",
            Duration::from_secs(10),
            |r| {
                r.statuses.iter().any(|s| {
                    s.status_list
                        .iter()
                        .any(|e| e.goal_id == Some(id) && e.status == status)
                })
            },
        );
        let settle = Instant::now() + Duration::from_millis(150);
        while Instant::now() < settle {
            self.take(Duration::from_millis(10));
        }
    }

    /// Tells the simulated Nav2 to end goal `id` with `status`.
    fn report(&self, id: u64, status: u8) {
        let report = GoalStatusArray {
            header: Header::default(),
            status_list: vec![GoalStatus {
                status,
                goal_id: Some(id),
            }],
        };
        self.bus
            .publish(topics::NAV_STATUS, &report)
            .expect("status report");
    }

    /// Publishes one snapshot line as the robot's messages, stamped now: pose (TF) and
    /// auto-aim first, then the four the node joins.
    fn publish_snapshot(&self, snapshot: &Value) {
        let header = Header::at(wall_clock());
        let bus = &self.bus;
        if let Some(p) = snapshot.get("pose").filter(|p| !p.is_null()) {
            let f = |k: &str| p[k].as_f64().expect("pose field") as f32;
            let pose = PoseMsg {
                header: header.clone(),
                x: f("x"),
                y: f("y"),
                yaw: f("yaw"),
            };
            bus.publish(topics::POSE, &pose).expect("pose");
        }
        if let Some(a) = snapshot.get("autoaim") {
            let aim = Autoaim {
                header: header.clone(),
                is_target_lost: a["is_target_lost"].as_bool().expect("is_target_lost"),
                ..Autoaim::default()
            };
            bus.publish(topics::AUTOAIM, &aim).expect("autoaim");
        }
        let hp: Vec<u16> = snapshot["obj_hp"]["hp"]
            .as_array()
            .expect("hp")
            .iter()
            .map(|v| v.as_u64().expect("hp value") as u16)
            .collect();
        let pos: Vec<Point2f> = snapshot["car_pos"]["pos"]
            .as_array()
            .expect("pos")
            .iter()
            .map(|p| Point2f {
                // null (an invalid position) travels as NaN in the CDR.
                x: p["x"].as_f64().map_or(f32::NAN, |v| v as f32),
                y: p["y"].as_f64().map_or(f32::NAN, |v| v as f32),
            })
            .collect();
        let info = &snapshot["game_info"];
        bus.publish(
            topics::OBJ_HP,
            &ObjHp {
                header: header.clone(),
                hp,
            },
        )
        .expect("obj_hp");
        bus.publish(
            topics::CAR_POS,
            &CarPos {
                header: header.clone(),
                pos,
            },
        )
        .expect("car_pos");
        bus.publish(
            topics::GAME_INFO,
            &GameInfo {
                header: header.clone(),
                timestamp: info["timestamp"].as_f64().expect("timestamp"),
                game_stage: info["game_stage"].as_u64().expect("stage") as u8,
            },
        )
        .expect("game_info");
        bus.publish(
            topics::SERIAL_MSG,
            &Serial {
                header,
                mode: snapshot["serial_msg"]["mode"].as_u64().expect("mode") as u8,
                ..Serial::default()
            },
        )
        .expect("serial_msg");
    }
}

/// The ROS graph as rmw_zenoh_cpp reads it: every liveliness token under `@ros2_lv/`.
fn graph_tokens(endpoint: &str) -> Vec<String> {
    use zenoh::Wait;
    let mut config = zenoh::Config::default();
    for (key, value) in [
        ("mode", "\"client\"".to_owned()),
        ("connect/endpoints", format!("[\"{endpoint}\"]")),
        ("scouting/multicast/enabled", "false".to_owned()),
    ] {
        config.insert_json5(key, &value).expect("zenoh config");
    }
    let session = zenoh::open(config).wait().expect("graph session");
    let replies = session
        .liveliness()
        .get("@ros2_lv/**")
        .timeout(Duration::from_secs(5))
        .wait()
        .expect("liveliness query");
    let mut tokens = Vec::new();
    while let Ok(reply) = replies.recv() {
        if let Ok(sample) = reply.result() {
            tokens.push(sample.key_expr().as_str().to_owned());
        }
    }
    let _ = session.close().wait();
    tokens
}

/// Whether one of `tokens` contains `part`.
fn has_token(tokens: &[String], part: &str) -> bool {
    tokens.iter().any(|t| t.contains(part))
}

/// `robot-decision decide` on `lines`: one result per line.
fn decide(lines: &[String]) -> Vec<Value> {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("snapshots.jsonl");
    let mut file = std::fs::File::create(&input).expect("input file");
    for line in lines {
        writeln!(file, "{line}").expect("write");
    }
    drop(file);
    let out = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args(["decide", "sample/config.json", "--input"])
        .arg(&input)
        .current_dir(repo())
        .output()
        .expect("decide runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("result JSON"))
        .collect()
}

/// A trace without what `decide` has no equivalent of (stamp, game time, tick number).
fn comparable(result: &Value) -> Value {
    let mut v = result.clone();
    if let Some(map) = v.as_object_mut() {
        for key in ["header", "game_time", "tick"] {
            map.remove(key);
        }
    }
    v
}

#[test]
fn the_node_on_ros2_decides_as_decide_and_drives_nav2_through_the_action() {
    let endpoint = format!("tcp/127.0.0.1:{}", free_port());
    let _router = Router::start(std::slice::from_ref(&endpoint)).expect("router");
    let _node = start_node(&endpoint);
    let bus = ros2_client(&endpoint);
    let sub = bus
        .subscribe(&[
            topics::TRACE,
            topics::NAV_GOAL,
            topics::NAV_CANCEL,
            topics::NAV_STATUS,
            topics::EVENTS,
        ])
        .expect("subscribe");
    let mut robot = Robot {
        bus,
        sub,
        traces: Vec::new(),
        goals: Vec::new(),
        cancels: Vec::new(),
        statuses: Vec::new(),
        events: Vec::new(),
        active_goal: None,
        status: GoalStatus::UNKNOWN,
    };
    // The node is up when it subscribes every input on the ROS graph and its events reach us.
    for topic in [
        topics::OBJ_HP,
        topics::CAR_POS,
        topics::GAME_INFO,
        topics::SERIAL_MSG,
        topics::AUTOAIM,
        topics::POSE,
    ] {
        assert!(
            robot
                .bus
                .wait_for_subscriber(topic, Duration::from_secs(60)),
            "the node never subscribed `{topic}` on ROS 2"
        );
    }
    robot.until("the node's first event", Duration::from_secs(30), |r| {
        !r.events.is_empty()
    });

    let sample = std::fs::read_to_string(repo().join("sample/snapshots.jsonl")).expect("sample");
    let snapshots: Vec<Value> = sample
        .lines()
        .map(|l| serde_json::from_str(l).expect("snapshot"))
        .collect();
    let mut seen_lines = Vec::new();
    let mut had_autoaim = false;
    let (mut sends, mut preempts) = (0, 0);
    for (i, snapshot) in snapshots.iter().enumerate() {
        // Play Nav2: end the running goal as the sample's status says.
        let wanted = snapshot["nav_status"].as_u64().expect("nav_status") as u8;
        if GoalStatus::is_final(wanted)
            && let Some(goal) = robot.active_goal
        {
            robot.finish(goal, wanted);
        }
        // An auto-aim message or pose left out of a line must be stale when it is decided.
        let has_autoaim = snapshot.get("autoaim").is_some();
        let has_pose = snapshot.get("pose").is_some_and(|p| !p.is_null());
        if (had_autoaim && !has_autoaim) || !has_pose {
            std::thread::sleep(TIME_THR + Duration::from_millis(150));
        }
        had_autoaim = has_autoaim;
        // The line as the node sees it: the status it has.
        let mut seen = snapshot.clone();
        seen["nav_status"] = Value::from(robot.status);
        // The heading comes back from TF's quaternion (in (-pi, pi], rounded as f32).
        if let Some(yaw) = snapshot["pose"]["yaw"].as_f64() {
            let through_tf = Quaternion::from_yaw(f64::from(yaw as f32)).yaw() as f32;
            seen["pose"]["yaw"] = Value::from(f64::from(through_tf));
        }
        seen_lines.push(seen.to_string());
        let active_before = robot.active_goal;
        robot.publish_snapshot(snapshot);
        robot.until(
            &format!("the trace of line {i}"),
            Duration::from_secs(20),
            |r| r.traces.len() > i,
        );
        // A goal sent on this tick: the node counts it as accepted at once; wait until Nav2
        // has it (and, for a preemption, the cancel of the one it replaces).
        match robot.traces[i]["action"].as_str() {
            Some("send") => {
                sends += 1;
                robot.status = GoalStatus::EXECUTING;
            }
            Some("preempt") => {
                sends += 1;
                // Nav2 cancels only a goal it still executes.
                if active_before.is_some() {
                    preempts += 1;
                }
                robot.status = GoalStatus::EXECUTING;
            }
            _ => {}
        }
        robot.until("the goal at Nav2", Duration::from_secs(10), |r| {
            r.goals.len() >= sends && r.cancels.len() >= preempts
        });
    }

    // Every tick's result is decide's on the same inputs.
    let expected = decide(&seen_lines);
    assert_eq!(robot.traces.len(), expected.len(), "one trace per line");
    for (i, (got, want)) in robot.traces.iter().zip(&expected).enumerate() {
        assert_eq!(
            comparable(got),
            comparable(want),
            "line {i}: {}",
            seen_lines[i]
        );
    }
    // The goals went through the action: one per `send` / `preempt`, and a preemption
    // cancelled the goal it replaced.
    assert!(sends >= 3, "the sample sends goals: {sends}");
    assert_eq!(
        robot.goals.len(),
        sends,
        "goals received by the action server"
    );
    assert!(
        robot.goals.iter().all(|g| !g.poses.is_empty()),
        "every goal has poses"
    );
    assert!(
        preempts >= 2,
        "the sample preempts running goals: {preempts}"
    );
    assert_eq!(
        robot.cancels.len(),
        preempts,
        "a cancel through the action for each preemption of a running goal"
    );

    // The node is in the ROS graph as rmw_zenoh_cpp lists it (`ros2 node list`, `ros2 topic
    // list`): liveliness tokens in rmw_zenoh's format with Humble's hash placeholder.
    let tokens = graph_tokens(&endpoint);
    let hash = "TypeHashNotSupported";
    for part in [
        "/NN/%/%/robot_decision".to_owned(),
        format!(
            "/MP/%/%/robot_decision/%robot_decision%decision/global_interface::msg::dds_::Decision_/{hash}/"
        ),
        format!("/MS/%/%/robot_decision/%obj_hp/global_interface::msg::dds_::ObjHP_/{hash}/"),
        format!("/MS/%/%/robot_decision/%tf/tf2_msgs::msg::dds_::TFMessage_/{hash}/"),
        format!(
            "/SC/%/%/robot_decision/%navigate_through_poses%_action%send_goal/nav2_msgs::action::dds_::NavigateThroughPoses_SendGoal_/{hash}/"
        ),
    ] {
        assert!(
            has_token(&tokens, &part),
            "no graph token with `{part}` among {tokens:#?}"
        );
    }
    assert!(
        tokens
            .iter()
            .filter(|t| t.contains("/MS/%/%/robot_decision/%obj_hp/"))
            .all(|t| t.ends_with(&format!("/{hash}/2::,1:,:,:,,"))),
        "the inputs are best effort, keep last 1: {tokens:#?}"
    );

    // Malformed CDR on every input topic is counted; the node goes on.
    let garbage: [&[u8]; 2] = [&[0x00, 0x01, 0x00, 0x00, 0xff], &[0x07]];
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let stats = robot
            .events
            .iter()
            .rev()
            .find(|e| e["kind"] == "stats")
            .cloned()
            .unwrap_or(Value::Null);
        let short = common::inputs_short_of_malformed(&stats, 2);
        if short.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "malformed CDR not counted on every input: {stats}"
        );
        for topic in short {
            for payload in garbage {
                robot.bus.publish_cdr(topic, payload).expect("raw CDR");
            }
        }
        let until = Instant::now() + Duration::from_millis(1500);
        while Instant::now() < until {
            robot.take(Duration::from_millis(20));
        }
    }
    let before = robot.traces.len();
    robot.publish_snapshot(&snapshots[1]);
    robot.until("a tick after the garbage", Duration::from_secs(20), |r| {
        r.traces.len() > before
    });
}

/// The offline loop on the ROS 2 wire format: the fake publisher's referee, localisation and
/// Nav2 (serving the action) drive the node; its decisions and Nav2's statuses flow.
#[test]
fn the_fake_publisher_drives_the_node_over_ros2() {
    offline_loop_on(Distro::Humble);
}

/// The same loop in Jazzy's wire format: every key carries its type's RIHS01 hash (the node,
/// the fake publisher's Nav2 with Jazzy's result layout, and this watcher all agree), and a
/// Humble peer on the same router hears none of it.
#[test]
fn the_offline_loop_runs_on_jazzy_with_type_hashes() {
    let running = offline_loop_on(Distro::Jazzy);
    let tokens = graph_tokens(&running.endpoint);
    for part in [
        "/MP/%/%/robot_decision/%robot_decision%decision/global_interface::msg::dds_::Decision_/RIHS01_",
        "/MS/%/%/robot_decision/%tf/tf2_msgs::msg::dds_::TFMessage_/RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087/",
        "/SC/%/%/robot_decision/%navigate_through_poses%_action%send_goal/nav2_msgs::action::dds_::NavigateThroughPoses_SendGoal_/RIHS01_",
        "/SS/%/%/fake_publisher/%navigate_through_poses%_action%send_goal/nav2_msgs::action::dds_::NavigateThroughPoses_SendGoal_/RIHS01_",
        "/MS/%/%/robot_decision/%navigate_through_poses%_action%status/action_msgs::msg::dds_::GoalStatusArray_/RIHS01_6c1684b00f177d37438febe6e709fc4e2b0d4248dca4854946f9ed8b30cda83e/",
    ] {
        assert!(
            has_token(&tokens, part),
            "no graph token with `{part}` among {tokens:#?}"
        );
    }
    // The Jazzy nodes' own tokens (the Humble peers of the check above may linger).
    let jazzy_nodes: Vec<&String> = tokens
        .iter()
        .filter(|t| t.contains("/%/%/robot_decision/") || t.contains("/%/%/fake_publisher/"))
        .collect();
    assert!(
        jazzy_nodes.len() > 10,
        "the nodes' endpoints in the graph: {jazzy_nodes:#?}"
    );
    assert!(
        !jazzy_nodes
            .iter()
            .any(|t| t.contains("TypeHashNotSupported")),
        "a Humble placeholder in the Jazzy graph: {jazzy_nodes:#?}"
    );
}

/// Runs the fake publisher against the node in `distro`'s wire format until 20 decisions
/// and a succeeded goal were seen; the processes and the router stay up until the result is
/// dropped.
fn offline_loop_on(distro: Distro) -> RunningLoop {
    let endpoint = format!("tcp/127.0.0.1:{}", free_port());
    let router = Router::start(std::slice::from_ref(&endpoint)).expect("router");
    let node = start_node_on(&endpoint, distro);
    let watcher = ros2_client_on(&endpoint, distro, "e2e_watcher");
    let sub = watcher
        .subscribe(&[topics::DECISION, topics::NAV_STATUS])
        .expect("subscribe");
    // A peer of the other distribution on the same router: its keys differ, it hears nothing.
    let other = match distro {
        Distro::Humble => Distro::Jazzy,
        Distro::Jazzy => Distro::Humble,
    };
    let stranger = ros2_client_on(&endpoint, other, "e2e_stranger");
    let stranger_sub = stranger.subscribe(&[topics::DECISION]).expect("subscribe");
    assert!(
        watcher.wait_for_subscriber(topics::OBJ_HP, Duration::from_secs(60)),
        "the node never subscribed on ROS 2"
    );
    let fake = Killed(
        Command::new(fake_publisher_bin())
            .args([
                "sample/scenarios/hp_retreat.json5",
                "--ros2",
                "--ros-distro",
                distro.as_str(),
                "--connect",
                &endpoint,
                "--speed",
                "4",
            ])
            .current_dir(repo())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("fake-publisher starts"),
    );
    let (mut decisions, mut succeeded) = (0, false);
    let deadline = Instant::now() + Duration::from_secs(60);
    while decisions < 20 || !succeeded {
        assert!(
            Instant::now() < deadline,
            "{distro:?}: {decisions} decisions, a goal succeeded: {succeeded}"
        );
        let Some(r) = sub.recv_timeout(Duration::from_millis(100)) else {
            continue;
        };
        match r.topic.as_str() {
            topics::DECISION => {
                let d: bus::messages::DecisionMsg = r.decode().expect("decision");
                assert!(d.x.is_finite() && d.y.is_finite());
                decisions += 1;
            }
            topics::NAV_STATUS => {
                let s: GoalStatusArray = r.decode().expect("status");
                succeeded |= s
                    .status_list
                    .iter()
                    .any(|e| e.status == GoalStatus::SUCCEEDED);
            }
            _ => {}
        }
    }
    // The stranger does hear its own distribution: a marker decision from a peer of it
    // arrives, and nothing else ever did.
    let marker = bus::messages::DecisionMsg {
        decision_id: 250,
        ..bus::messages::DecisionMsg::default()
    };
    let stranger_peer = ros2_client_on(&endpoint, other, "e2e_stranger_peer");
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut heard = Vec::new();
    while !heard.contains(&250) {
        assert!(
            Instant::now() < deadline,
            "the {other:?} peer never heard its own kind: {heard:?}"
        );
        stranger_peer
            .publish(topics::DECISION, &marker)
            .expect("marker decision");
        while let Some(r) = stranger_sub.recv_timeout(Duration::from_millis(100)) {
            let d: bus::messages::DecisionMsg = r.decode().expect("decision");
            heard.push(d.decision_id);
        }
    }
    assert!(
        heard.iter().all(|id| *id == 250),
        "a {other:?} peer heard the {distro:?} node's decisions: {heard:?}"
    );
    RunningLoop {
        endpoint,
        _processes: (node, fake),
        _router: router,
    }
}

/// A loop still running after [`offline_loop_on`], so that its graph can be read.
struct RunningLoop {
    endpoint: String,
    _processes: (Killed, Killed),
    _router: Router,
}
