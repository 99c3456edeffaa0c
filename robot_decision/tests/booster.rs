//! Booster-vocabulary trees end to end: our own `booster_style.xml` through the real
//! `robot-decision soccer decide` and `soccer sim`, and Booster's original `game.xml` (from
//! the shared folder, when present) in a short simulated match: the robots walk to the ball
//! and kick it, not merely run.

use fake_publisher::soccer::{Side, SoccerMatch, parse_soccer_scenario};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const TREE: &str = "sample/soccer/trees/booster_style.xml";

/// Home plays with the tree against one scripted away robot, from kick-off positions, the
/// ball off-centre in the away half.
const SCENARIO: &str = "{ description: 'booster trees drive the home team', seconds: 12, \
     start: 'playing', ball: [2.0, 1.5], \
     away: { name: 'away', players: [1], kind: 'scripted' } }";

/// Runs `robot-decision ARGS` with `stdin`; returns stdout, stderr, exit code.
fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .current_dir(repo())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("writes stdin");
    }
    let out = child.wait_with_output().expect("finishes");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

#[test]
fn decide_with_the_booster_style_tree_chases_a_far_ball_and_kicks_a_near_one() {
    let frames = [
        // Playing, the ball 5 m ahead: chase (walk forward at it, looking at it).
        r#"{"t": 0.0, "player_number": 3, "pose": {"x": -3, "y": 0, "yaw": 0}, "ball": {"x": 2, "y": 0}}"#,
        // 0.6 m behind the ball, facing the goal: kick at the goal.
        r#"{"t": 0.02, "player_number": 3, "pose": {"x": -0.6, "y": 0, "yaw": 0}, "ball": {"x": 0, "y": 0}}"#,
        // Ready: walk to the ready slot.
        r#"{"t": 0.04, "player_number": 3, "primary_state": "ready", "pose": {"x": -4, "y": 2, "yaw": 0}}"#,
        // Penalized: stand.
        r#"{"t": 0.06, "player_number": 3, "primary_state": "penalized", "pose": {"x": -4, "y": 2, "yaw": 0}}"#,
    ]
    .join("\n");
    let (out, err, code) = run(
        &[
            "soccer",
            "decide",
            "sample/soccer/parameters",
            "--tree",
            TREE,
            "--input",
            "-",
        ],
        &frames,
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(json).collect();
    assert_eq!(lines.len(), 4, "{out}");
    let chase = &lines[0]["motion"];
    assert_eq!(chase["body"]["kind"], "walk_velocity", "{chase}");
    assert!(chase["body"]["vx"].as_f64().unwrap_or(0.0) > 0.3, "{chase}");
    assert!(
        chase["body"]["vy"].as_f64().unwrap_or(1.0).abs() < 1e-9,
        "{chase}"
    );
    assert_eq!(
        chase["head"],
        serde_json::json!({"kind": "look_at", "x": 2.0, "y": 0.0})
    );
    assert_eq!(lines[0]["role"], "striker");
    let kick = &lines[1]["motion"]["body"];
    assert_eq!(kick["kind"], "kick", "{kick}");
    assert_eq!(kick["target"], serde_json::json!([4.5, 0.0]));
    let ready = &lines[2]["motion"]["body"];
    assert_eq!(ready["kind"], "walk_to", "{ready}");
    assert_eq!(
        (ready["x"].as_f64(), ready["y"].as_f64()),
        (Some(-1.25), Some(0.0))
    );
    assert_eq!(lines[3]["motion"]["body"]["kind"], "stand");
}

#[test]
fn sim_with_the_booster_style_tree_walks_to_the_ball_and_kicks_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = dir.path().join("booster.json5");
    std::fs::write(&scenario, SCENARIO).expect("writes the scenario");
    let scenario = scenario.to_string_lossy().into_owned();
    // The timeline: a home robot kicks.
    let (out, err, code) = run(
        &["soccer", "sim", "--tree", TREE, "--scenario", &scenario],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines()
            .any(|l| l.contains("home") && l.ends_with("kicks")),
        "no home kick:\n{out}"
    );
    // The JSON lines: home strikers walk (velocities), kick, and the ball they see moves.
    let (out, err, code) = run(
        &[
            "soccer",
            "sim",
            "--tree",
            TREE,
            "--scenario",
            &scenario,
            "--seconds",
            "8",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let home: Vec<serde_json::Value> = out
        .lines()
        .map(json)
        .filter(|l| l["team"] == "home")
        .collect();
    assert_eq!(home.len(), 400 * 5, "8 s of 20 ms ticks, five home robots");
    let kinds = |kind: &str| {
        home.iter()
            .filter(|l| l["motion"]["body"]["kind"] == kind)
            .count()
    };
    assert!(kinds("walk_velocity") > 50, "chasing");
    assert!(kinds("kick") > 0, "kicking");
    let seen: Vec<[f64; 2]> = home
        .iter()
        .filter_map(|l| Some([l["ball"]["x"].as_f64()?, l["ball"]["y"].as_f64()?]))
        .collect();
    let (first, last) = (seen.first().copied(), seen.last().copied());
    let moved = match (first, last) {
        (Some(a), Some(b)) => (a[0] - b[0]).hypot(a[1] - b[1]),
        _ => 0.0,
    };
    assert!(moved > 1.0, "the ball moved {moved} m");
}

/// Home robots' distance to the ball, the nearest field player's.
fn nearest_home_distance(game: &SoccerMatch) -> f64 {
    game.players
        .iter()
        .filter(|p| p.side == Side::Home && p.number != 1)
        .map(|p| p.body.pose.position.distance(game.ball.position))
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn shared_booster_original_game_xml_loads_and_drives_the_robot() {
    let path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/original_sample/booster_game.xml"
    ));
    if !path.exists() {
        assert!(
            std::env::var("REQUIRE_SHARED").as_deref() != Ok("1"),
            "REQUIRE_SHARED=1 but {} is missing",
            path.display()
        );
        eprintln!("skipped: {} is absent", path.display());
        return;
    }
    // The original loads unchanged: raw `&&`, includes relative to it, MainTree chosen.
    let spec = soccer_profile::tree::load_spec(path).unwrap_or_else(|d| panic!("{d:#?}"));
    assert!(soccer_profile::booster::uses_booster_nodes(&spec));
    let mut params = soccer_profile::params::load(
        &repo().join("sample/soccer/parameters"),
        Some("simulation"),
        None,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    // Booster's own file does not choose a brain: the parameter does.
    params.behavior_node.brain = soccer_profile::params::BrainKind::Booster;
    let scenario = parse_soccer_scenario(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    let mut game = SoccerMatch::new(scenario, Arc::new(params), &spec, Some(7))
        .unwrap_or_else(|e| panic!("{e}"));
    let start = nearest_home_distance(&game);
    let mut nearest = start;
    let mut walked = false;
    while !game.is_over() && game.kicks()[0] == 0 {
        game.step();
        nearest = nearest.min(nearest_home_distance(&game));
        walked |= game.players.iter().any(|p| {
            p.side == Side::Home
                && matches!(
                    p.motion.body,
                    soccer_profile::motion::Body::WalkVelocity { vx, .. } if vx > 0.1
                )
        });
    }
    assert!(
        walked,
        "a home robot walked forward (Chase / SimpleChase velocities)"
    );
    assert!(
        nearest < start - 1.0 && nearest < 0.5,
        "the nearest home robot came from {start:.2} m to {nearest:.2} m of the ball"
    );
    assert!(
        game.kicks()[0] > 0,
        "a home robot kicked within {} s",
        game.now
    );
}

/// Runs `soccer decide` on one empty frame with the tree `xml`, written to a file `name`:
/// stdout, stderr, exit code.
fn decide_with_tree(name: &str, xml: &str) -> (String, String, i32) {
    let dir = tempfile::tempdir().expect("temp dir");
    let tree = dir.path().join(name);
    std::fs::write(&tree, xml).expect("writes the tree");
    let tree = tree.to_string_lossy().into_owned();
    run(
        &[
            "soccer",
            "decide",
            "sample/soccer/parameters",
            "--tree",
            &tree,
            "--input",
            "-",
        ],
        "{}\n",
    )
}

#[test]
fn a_booster_tree_without_the_brain_is_refused_naming_the_nodes_and_the_choice() {
    let (out, err, code) = decide_with_tree(
        "no_brain.xml",
        "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"MainTree\">\n    <Sequence>\n      \
         <Chase/>\n      <Kick min_msec_kick=\"-5\" />\n    </Sequence>\n  \
         </BehaviorTree>\n</root>\n",
    );
    assert_eq!(code, 1, "{out}");
    let choice = "is a node of Booster's vocabulary, which runs with Booster's brain: choose it \
                  with `brain: 'booster'` in behavior_node.json5 or \
                  `<root BTCPP_format=\"4\" brain=\"booster\">` in the tree file";
    assert!(
        err.contains(&format!(
            "no_brain.xml:4:7: error: Sequence/Chase[0]: `Chase` {choice}"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "no_brain.xml:5:7: error: Sequence/Kick[1]: `Kick` {choice}"
        )),
        "{err}"
    );
    // The port error is reported in the same run.
    assert!(err.contains("min_msec_kick"), "{err}");
}

#[test]
fn a_bad_booster_port_is_refused_with_its_file_line_column_node_and_port() {
    let (out, err, code) = decide_with_tree(
        "bad.xml",
        "<root BTCPP_format=\"4\" brain=\"booster\">\n  <BehaviorTree ID=\"MainTree\">\n    \
         <Sequence>\n      <Chase vx_limit=\"fast\" />\n      <Kick min_msec_kick=\"-5\" />\n    </Sequence>\n  \
         </BehaviorTree>\n</root>\n",
    );
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("bad.xml:4:14") && err.contains("Chase") && err.contains("vx_limit"),
        "{err}"
    );
    assert!(
        err.contains("bad.xml:5:13") && err.contains("Kick") && err.contains("min_msec_kick"),
        "{err}"
    );
}
