//! End-to-end scenarios of `robot-decision soccer decide` (`docs/src/commands/soccer-decide.md`): the real binary
//! on frame files in `tests/fixtures/soccer/` and on parameter folders copied from
//! `sample/soccer/parameters` (edited in a temporary folder where a case needs other values).

use serde_json::{Value, json};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/soccer")
        .join(name)
}

fn sample_params() -> PathBuf {
    repo().join("sample/soccer/parameters")
}

/// A copy of the sample parameters with textual edits: `(file under the folder, from, to)`.
fn params_copy(edits: &[(&str, &str, &str)]) -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    copy(&sample_params(), dir.path());
    for (file, from, to) in edits {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no `{from}`");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }
    dir
}

/// Runs `soccer decide PARAMS_DIR ARGS --input FRAMES`: the parsed stdout lines, stderr and
/// the exit code.
fn decide(params_dir: &Path, frames: &Path, args: &[&str]) -> (Vec<Value>, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args(["soccer", "decide"])
        .arg(params_dir)
        .args(args)
        .arg("--input")
        .arg(frames)
        .current_dir(repo())
        .output()
        .expect("run robot-decision");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (lines, stderr, out.status.code().unwrap_or(-1))
}

/// `decide` on the sample parameters, expecting a clean run.
fn run(frames: &str) -> Vec<Value> {
    run_with(&sample_params(), frames, &[])
}

fn run_with(params_dir: &Path, frames: &str, args: &[&str]) -> Vec<Value> {
    let (lines, stderr, code) = decide(params_dir, &fixture(frames), args);
    assert_eq!(code, 0, "{frames}: {stderr}");
    lines
}

/// Whether `a` matches `e`: numbers within 1e-9, everything else equal.
fn near(a: &Value, e: &Value) -> bool {
    match (a, e) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() < 1e-9
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, e)| near(a, e))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|e| near(a, e)))
        }
        _ => a == e,
    }
}

#[track_caller]
fn assert_near(actual: &Value, expected: Value) {
    assert!(
        near(actual, &expected),
        "\n  actual: {actual}\nexpected: {expected}"
    );
}

fn body(line: &Value) -> &Value {
    &line["motion"]["body"]
}

fn head(line: &Value) -> &Value {
    &line["motion"]["head"]
}

fn branches(lines: &[Value]) -> Vec<&str> {
    lines
        .iter()
        .map(|l| l["branch"].as_str().unwrap_or("?"))
        .collect()
}

fn roles(lines: &[Value]) -> Vec<&str> {
    lines
        .iter()
        .map(|l| l["role"].as_str().unwrap_or("null"))
        .collect()
}

const STAND: &str = "stand";

fn kind(v: &Value) -> &str {
    v["kind"].as_str().unwrap_or("?")
}

// 1. Root branches -------------------------------------------------------------------------

#[test]
fn each_root_branch_gives_its_motion() {
    let l = run("root_branches.jsonl");
    assert_eq!(
        branches(&l),
        [
            "damping",
            "prepare",
            "prepare",
            "stop",
            "finished",
            "penalized",
            "initial",
            "stand_up",
            "set",
            "set",
            "ready",
            "playing"
        ]
    );
    let motions = [
        ("damping", "look_forward"),
        ("prepare", "look_forward"),
        (STAND, "look_forward"),
        (STAND, "look_forward"),
        (STAND, "look_forward"),
        (STAND, "look_forward"),
        (STAND, "look_around"),
        ("stand_up", "look_forward"),
    ];
    for (line, (b, h)) in l.iter().zip(motions) {
        assert_eq!(
            json!([kind(body(line)), kind(head(line))]),
            json!([b, h]),
            "{line}"
        );
    }
    // set: stand, looking at the retained ball, or searching with the head without one
    assert_near(
        &l[8]["motion"],
        json!({"body": {"kind": "stand"}, "head": {"kind": "look_at", "x": 1.0, "y": 0.5}}),
    );
    assert_near(
        &l[9]["motion"],
        json!({"body": {"kind": "stand"}, "head": {"kind": "search"}}),
    );
    // ready (the goalkeeper from the centre spot) and playing
    assert_near(
        &l[10]["motion"],
        json!({"body": {"kind": "walk_to", "x": -4.185, "y": 0.0, "yaw": 0.0, "speed": 0.5}, "head": {"kind": "look_around"}}),
    );
    assert_eq!(l[11]["role"], "searcher");
    for line in &l[..11] {
        assert_eq!(line["role"], Value::Null, "role only while playing: {line}");
        assert_eq!(line["goalkeeper_player_number"], 1);
    }
}

#[test]
fn precedence_damping_over_fall_stand_up_over_set_ready_playing_and_fallback_without_pose() {
    let l = run("precedence.jsonl");
    assert_eq!(
        branches(&l),
        [
            "damping", "stand_up", "stand_up", "stand_up", "playing", "ready", "fallback",
            "initial"
        ]
    );
    assert_eq!(kind(body(&l[0])), "damping");
    for line in &l[1..4] {
        assert_eq!(kind(body(line)), "stand_up");
        assert_eq!(line["role"], Value::Null);
    }
    // fallen without stand_up_available is not enough
    assert_eq!(l[4]["role"], "searcher");
    assert_eq!(kind(body(&l[5])), "walk_to");
    // ready without a pose: the fallback stands and looks forward
    assert_near(
        &l[6]["motion"],
        json!({"body": {"kind": "stand"}, "head": {"kind": "look_forward"}}),
    );
}

#[test]
fn remote_control_walks_kicks_three_metres_ahead_and_beats_finished_only_when_enabled() {
    let off = run("remote_control.jsonl");
    assert_eq!(branches(&off), ["finished", "playing", "finished"]);
    let params = params_copy(&[(
        "base/behavior_node.json5",
        "enable: false,",
        "enable: true,",
    )]);
    let l = run_with(params.path(), "remote_control.jsonl", &[]);
    assert_eq!(
        branches(&l),
        ["remote_control", "remote_control", "finished"]
    );
    assert_near(
        &l[0]["motion"],
        json!({"body": {"kind": "walk_velocity", "vx": 0.2, "vy": -0.1, "vyaw": 0.3}, "head": {"kind": "look_forward"}}),
    );
    // pose (1, 1) facing +y: 3 m ahead is (1, 4)
    assert_near(
        &l[1]["motion"],
        json!({"body": {"kind": "kick", "foot": "right", "target": [1.0, 4.0]}, "head": {"kind": "look_at", "x": 1.2, "y": 1.5}}),
    );
    assert_eq!(l[1]["role"], Value::Null);
}

#[test]
fn an_injected_motion_command_is_sent_verbatim_before_finished_but_after_damping() {
    let params = params_copy(&[(
        "base/behavior_node.json5",
        "injected_motion_command: null,",
        "injected_motion_command: { kind: 'custom_dance', speed: 2, steps: [1, 'a'] },",
    )]);
    let l = run_with(params.path(), "injected.jsonl", &[]);
    assert_eq!(branches(&l), ["injected", "injected", "damping"]);
    for line in &l[..2] {
        assert_eq!(
            line["motion"],
            json!({"body": {"kind": "custom_dance", "speed": 2, "steps": [1, "a"]}, "head": {"kind": "look_forward"}})
        );
        assert_eq!(line["role"], Value::Null);
    }
}

// 2. Ready formations ----------------------------------------------------------------------

/// The pose facing the centre spot from (x, y).
fn facing_centre(x: f64, y: f64) -> Value {
    let yaw = if x == 0.0 && y == 0.0 {
        0.0
    } else {
        (-y).atan2(-x)
    };
    json!({"x": x, "y": y, "yaw": yaw})
}

#[track_caller]
fn assert_kickoff_poses(lines: &[Value], expected: &[Option<(f64, f64)>]) {
    assert_eq!(lines.len(), expected.len());
    for (line, e) in lines.iter().zip(expected) {
        assert_eq!(line["branch"], "ready", "{line}");
        assert_eq!(kind(head(line)), "look_around");
        match e {
            Some((x, y)) => {
                let pose = facing_centre(*x, *y);
                assert_near(&line["kickoff_pose"], pose.clone());
                let mut walk = pose;
                walk["kind"] = json!("walk_to");
                walk["speed"] = json!(0.5);
                assert_near(body(line), walk);
            }
            None => {
                assert_eq!(line["kickoff_pose"], Value::Null, "{line}");
                assert_eq!(body(line), &json!({"kind": "stand"}));
            }
        }
    }
}

#[test]
fn own_kickoff_highest_field_player_is_striker_others_aggressive_by_descending_number() {
    // players 5, 4, 3, 2, 1 in that order
    let l = run("ready_own_kickoff.jsonl");
    assert_kickoff_poses(
        &l,
        &[
            Some((-0.585, 0.0)),
            Some((-1.71, 1.5)),
            Some((-1.71, -1.5)),
            Some((-3.015, 0.0)),
            Some((-4.185, 0.0)),
        ],
    );
}

#[test]
fn opponent_and_unknown_kickoff_take_the_defensive_positions() {
    let l = run("ready_defensive.jsonl");
    let one = [
        Some((-1.8, 0.0)),
        Some((-2.79, 1.59)),
        Some((-2.79, -1.59)),
        Some((-3.195, 0.0)),
        Some((-4.185, 0.0)),
    ];
    assert_kickoff_poses(&l, &[one, one].concat());
}

#[test]
fn without_game_state_the_robot_alone_takes_the_first_defensive_or_the_goalkeeper_position() {
    let l = run("ready_no_game.jsonl");
    assert_kickoff_poses(&l, &[Some((-1.8, 0.0)), Some((-4.185, 0.0))]);
}

#[test]
fn penalized_players_leave_the_slots_and_a_player_without_a_slot_stands() {
    let l = run("ready_penalized_and_no_slot.jsonl");
    assert_kickoff_poses(
        &l,
        &[
            // 5 penalized: 4 is the highest field player, 3 and 2 take the first aggressive slots
            Some((-0.585, 0.0)),
            Some((-1.71, 1.5)),
            Some((-1.71, -1.5)),
            // seven players, four defensive slots for 7, 6, 5, 4: 3 and 2 stand
            Some((-1.8, 0.0)),
            Some((-3.195, 0.0)),
            None,
            None,
        ],
    );
}

#[test]
fn a_changed_goalkeeper_number_keeps_goal_and_the_old_one_plays_the_field() {
    let params = params_copy(&[(
        "base/behavior_node.json5",
        "player_number: 1,",
        "player_number: 3,",
    )]);
    // 3, 5, 4, 2, 1 against the opponent's kick-off, then the same for our kick-off
    let l = run_with(params.path(), "ready_goalkeeper_three.jsonl", &[]);
    assert_kickoff_poses(
        &l,
        &[
            Some((-4.185, 0.0)),
            Some((-1.8, 0.0)),
            Some((-2.79, 1.59)),
            Some((-2.79, -1.59)),
            Some((-3.195, 0.0)),
            Some((-4.185, 0.0)),
            Some((-0.585, 0.0)),
            Some((-1.71, 1.5)),
            Some((-1.71, -1.5)),
            Some((-3.015, 0.0)),
        ],
    );
    assert!(l.iter().all(|line| line["goalkeeper_player_number"] == 3));
}

#[test]
fn the_robot_override_tor_3_makes_player_3_the_goalkeeper() {
    let l = run_with(
        &sample_params(),
        "ready_goalkeeper_three.jsonl",
        &["--robot", "tor_3"],
    );
    assert_eq!(l[0]["goalkeeper_player_number"], 3);
    assert_near(&l[0]["kickoff_pose"], facing_centre(-4.185, 0.0));
    assert_near(&l[4]["kickoff_pose"], facing_centre(-3.195, 0.0));
}

#[test]
fn ready_stands_within_arrival_distance_and_yaw_and_walks_otherwise() {
    let l = run("ready_arrival.jsonl");
    // 0.14 m and 0.19 rad away: stand; 0.16 m: walk; 0.21 rad: walk; 0.1 m and 0.1 rad: stand
    let kinds: Vec<&str> = l.iter().map(|line| kind(body(line))).collect();
    assert_eq!(kinds, ["stand", "walk_to", "walk_to", "stand"]);
    assert_near(
        body(&l[1]),
        json!({"kind": "walk_to", "x": -4.185, "y": 0.0, "yaw": 0.0, "speed": 0.5}),
    );
    for line in &l {
        assert_near(&line["kickoff_pose"], facing_centre(-4.185, 0.0));
    }
}

// 3. Roles ---------------------------------------------------------------------------------

#[test]
fn the_goalkeeper_keeps_its_role_with_or_without_a_ball() {
    let l = run("roles.jsonl");
    assert_eq!(roles(&l), ["goalkeeper", "goalkeeper"]);
}

#[test]
fn a_field_player_without_a_ball_searches() {
    assert_eq!(roles(&run("roles_searcher.jsonl")), ["searcher"]);
}

#[test]
fn the_last_active_robot_is_striker_with_a_ball_and_searcher_without() {
    let l = run("roles_last_active.jsonl");
    assert_eq!(roles(&l), ["striker", "searcher", "striker"]);
}

#[test]
fn simple_mode_makes_even_the_goalkeeper_striker_or_searcher() {
    let default = run("roles_simple_mode.jsonl");
    assert_eq!(roles(&default), ["goalkeeper", "goalkeeper"]);
    let params = params_copy(&[(
        "base/behavior_node.json5",
        "simple_mode: false,",
        "simple_mode: true,",
    )]);
    let l = run_with(params.path(), "roles_simple_mode.jsonl", &[]);
    assert_eq!(roles(&l), ["striker", "searcher"]);
}

/// (t, role) of each line.
fn timeline(lines: &[Value]) -> Vec<(f64, &str)> {
    lines
        .iter()
        .map(|l| {
            (
                l["t"].as_f64().unwrap(),
                l["role"].as_str().unwrap_or("null"),
            )
        })
        .collect()
}

#[test]
fn the_voronoi_owner_becomes_striker_at_the_first_frame_held_for_enter_duration() {
    // Frames every 0.02 s; the ball moves into this robot's cell at 0.28 (0.58 - 0.28 is
    // 0.3 s, though not in binary floating point).
    let l = run("striker_enter.jsonl");
    for (t, role) in timeline(&l) {
        let expected = if t < 0.579 { "supporter" } else { "striker" };
        assert_eq!(role, expected, "t = {t}");
    }
    // the striker walks behind the ball; the supporter looks at it
    assert_eq!(kind(body(&l[29])), "walk_to");
    assert_near(head(&l[0]), json!({"kind": "look_at", "x": 0.5, "y": 0.0}));
}

#[test]
fn a_striker_stays_striker_until_the_raw_answer_was_false_for_exit_duration() {
    // Frames every 0.05 s; the raw answer is true from the first frame (striker at 0.3) and
    // false from 0.55 (supporter at 0.70).
    let l = run("striker_exit.jsonl");
    for (t, role) in timeline(&l) {
        let expected = if (0.299..0.699).contains(&t) {
            "striker"
        } else {
            "supporter"
        };
        assert_eq!(role, expected, "t = {t}");
    }
}

// 4. Ball retention ------------------------------------------------------------------------

#[test]
fn the_local_ball_is_kept_for_last_ball_timeout_then_a_team_ball_then_none() {
    let l = run("ball_retention.jsonl");
    let local = |age: f64| json!({"x": 1.0, "y": 0.0, "source": "local", "age": age});
    // the teammate saw (2, 2) at 1.75 - 0.25 = 1.5
    let team = |age: f64| json!({"x": 2.0, "y": 2.0, "source": "team", "age": age});
    let expected = [
        local(0.0),
        local(1.0),
        local(1.75),
        local(2.0),
        team(0.75),
        team(1.0),
        Value::Null,
        // a rule ball is never used as or retained as the ball
        Value::Null,
        Value::Null,
    ];
    assert_eq!(l.len(), expected.len());
    for (line, e) in l.iter().zip(expected) {
        assert_near(&line["ball"], e);
    }
    assert_eq!(l[6]["role"], "searcher");
}

// 5. Team messages -------------------------------------------------------------------------

#[test]
fn message_interval_follows_the_budget_formula_and_is_null_otherwise() {
    let l = run("message_interval.jsonl");
    let intervals: Vec<&Value> = l.iter().map(|line| &line["message_interval"]).collect();
    // (300 + 600) * 4 / (920 - 20) = 4; second half 300 * 4 / 900; then no game, ready,
    // suspended, usable 0, usable -1, usable 1
    assert_near(
        &json!(intervals),
        json!([
            4.0,
            300.0 * 4.0 / 900.0,
            null,
            null,
            null,
            null,
            null,
            900.0 * 4.0
        ]),
    );
}

#[test]
fn messages_go_out_at_once_then_after_the_interval_with_a_pose_and_their_content() {
    // interval 4 s; the robot is alone (striker with a ball, searcher without)
    let l = run("messages_sent.jsonl");
    let pose = json!({"x": 0.0, "y": 0.0, "yaw": 0.0});
    let msg = |head_yaw: f64, ball: Value, age: Value| json!({"player": 2, "pose": pose, "head_yaw": head_yaw, "ball": ball, "ball_age": age});
    let expected = [
        // first at once; looking at (1, 1): bearing pi/4
        msg(FRAC_PI_4, json!({"x": 1.0, "y": 1.0}), json!(0.0)),
        Value::Null,
        Value::Null,
        // 4 s later; the ball behind: the bearing is clamped to head.maximum_yaw
        msg(2.0, json!({"x": -1.0, "y": 0.1}), json!(0.0)),
        // no pose: nothing
        Value::Null,
        // searching (head search): the frame's head yaw; no ball
        msg(0.7, Value::Null, Value::Null),
        msg(0.7, Value::Null, Value::Null),
        Value::Null,
        // the last local ball, 1.5 s old, at bearing -pi/4
        msg(-FRAC_PI_4, json!({"x": 1.0, "y": -1.0}), json!(1.5)),
        Value::Null,
    ];
    assert_eq!(l.len(), expected.len());
    for (line, e) in l.iter().zip(expected) {
        assert_near(&line["message"], e);
        assert_near(&line["message_interval"], json!(4.0));
    }
}

#[test]
fn a_message_while_looking_forward_carries_head_yaw_zero() {
    let params = params_copy(&[(
        "base/behavior_node.json5",
        "enable: false,",
        "enable: true,",
    )]);
    let l = run_with(params.path(), "messages_remote_walk.jsonl", &[]);
    assert_eq!(l[0]["branch"], "remote_control");
    assert_eq!(kind(head(&l[0])), "look_forward");
    assert_near(&l[0]["message"]["head_yaw"], json!(0.0));
}

#[test]
fn messages_of_penalized_players_are_ignored() {
    let l = run("messages_penalized_sender.jsonl");
    // player 3 penalized: its ball is not used, the robot is alone and searches
    assert_eq!(l[0]["ball"], Value::Null);
    assert_eq!(l[0]["role"], "searcher");
    // the same message from an unpenalized player 3 gives a team ball
    assert_near(
        &l[1]["ball"],
        json!({"x": 2.0, "y": 2.0, "source": "team", "age": 0.0}),
    );
}

// 6. Motion defaults -----------------------------------------------------------------------

#[test]
fn an_action_that_chooses_no_body_or_no_head_leaves_stand_and_look_forward() {
    let frames = fixture("roles_searcher.jsonl");
    let tree = fixture("only_head.json5");
    let (l, stderr, code) = decide(
        &sample_params(),
        &frames,
        &["--tree", tree.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        l[0]["motion"],
        json!({"body": {"kind": "stand"}, "head": {"kind": "look_around"}})
    );
    let tree = fixture("only_body.json5");
    let (l, stderr, code) = decide(
        &sample_params(),
        &frames,
        &["--tree", tree.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        l[0]["motion"],
        json!({"body": {"kind": "turn", "direction": "left"}, "head": {"kind": "look_forward"}})
    );
}

// 7. Search --------------------------------------------------------------------------------

#[test]
fn the_searcher_walks_to_the_target_until_the_arrival_distance_then_turns() {
    let l = run("search.jsonl");
    assert!(
        l.iter()
            .all(|line| line["role"] == "searcher" && *head(line) == json!({"kind": "search"}))
    );
    let walk = |x: f64, y: f64| json!({"kind": "walk_to", "x": x, "y": y, "yaw": y.atan2(x), "speed": 0.4});
    let turn = json!({"kind": "turn", "direction": "left"});
    let expected = [
        walk(2.0, 1.0),
        // cells 0.5 x 0.6: arrival max(0.5 * 0.5, 0.2) = 0.25 m
        walk(0.26, 0.0),
        turn.clone(),
        // cells 0.2 x 0.3: arrival max(0.1, 0.2) = 0.2 m
        walk(0.0, 0.21),
        turn.clone(),
        // no target, no pose
        turn.clone(),
        turn,
    ];
    for (line, e) in l.iter().zip(expected) {
        assert_near(body(line), e);
    }
}

#[test]
fn the_searcher_walks_beyond_the_arrival_distance_even_after_standing() {
    // set (stand), then a search target 0.3 m away with an arrival distance of 0.25 m
    let l = run("search_after_standing.jsonl");
    assert_eq!(l[1]["role"], "searcher");
    assert_near(
        body(&l[1]),
        json!({"kind": "walk_to", "x": 0.3, "y": 0.0, "yaw": 0.0, "speed": 0.4}),
    );
    assert_near(
        body(&l[2]),
        json!({"kind": "walk_to", "x": 0.0, "y": -0.3, "yaw": -FRAC_PI_2, "speed": 0.4}),
    );
}

#[test]
fn the_search_turns_towards_the_last_ball_side_chosen_at_the_start_and_kept() {
    let l = run("search_direction.jsonl");
    let turns: Vec<Value> = l
        .iter()
        .map(|line| body(line)["direction"].clone())
        .collect();
    assert_eq!(
        turns,
        [
            // no ball seen yet: left
            json!("left"),
            Value::Null,
            // the last ball (1, -1) was on the right of heading 0
            json!("right"),
            // the pose turns to -2 rad (the old ball now on the left): still right
            json!("right"),
            json!("right"),
            Value::Null,
            // a new search after the ball at (1, -1) seen facing -2 rad: on the left
            json!("left"),
        ]
    );
    assert_eq!(
        roles(&l),
        [
            "searcher", "striker", "searcher", "searcher", "searcher", "striker", "searcher"
        ]
    );
}

// 8. Role motions --------------------------------------------------------------------------

#[test]
fn striker_walks_behind_the_ball_or_kicks_inside_the_goal_goalkeeper_stays_home_supporter_looks() {
    let l = run("role_motions.jsonl");
    assert_eq!(
        roles(&l),
        [
            "striker",
            "striker",
            "striker",
            "goalkeeper",
            "goalkeeper",
            "supporter"
        ]
    );
    // behind the ball at (2, 0) on the line from the goal target (4.5, 0)
    assert_near(
        body(&l[0]),
        json!({"kind": "walk_to", "x": 1.7, "y": 0.0, "yaw": 0.0, "speed": 1.0}),
    );
    // ball (2, 0.5): the target (4.5, 1.0) keeps 0.3 m inside the post; 0.3 m behind the ball
    let (bx, by) = (2.0, 0.5);
    let (dx, dy) = (4.5 - bx, 1.0 - by);
    let n = f64::hypot(dx, dy);
    assert_near(
        body(&l[1]),
        json!({"kind": "walk_to", "x": bx - 0.3 * dx / n, "y": by - 0.3 * dy / n, "yaw": dy.atan2(dx), "speed": 1.0}),
    );
    for line in &l {
        let ball = &line["ball"];
        assert_near(
            head(line),
            json!({"kind": "look_at", "x": ball["x"], "y": ball["y"]}),
        );
    }
    // a close ball on the left: kick with the left foot at the goal line
    let kick = body(&l[2]);
    assert_eq!((kind(kick), &kick["foot"]), ("kick", &json!("left")));
    assert_eq!(kick["target"][0], 4.5);
    assert!(kick["target"][1].as_f64().unwrap().abs() < 1.3, "{kick}");
    // the goalkeeper walks to / stands at its position in front of the own goal
    assert_eq!(kind(body(&l[3])), "walk_to");
    assert!(
        body(&l[3])["x"].as_f64().unwrap() <= -3.0,
        "{}",
        body(&l[3])
    );
    assert_eq!(kind(body(&l[4])), "stand");
    assert_eq!(kind(body(&l[5])), "walk_to");
}

// 9. Malformed input and bad files ---------------------------------------------------------

#[test]
fn a_malformed_line_is_skipped_with_its_position_and_the_state_goes_on() {
    let frames = fixture("malformed.jsonl");
    let (l, stderr, code) = decide(&sample_params(), &frames, &[]);
    assert_eq!(code, 1);
    assert_eq!(l.len(), 4);
    assert_eq!(l[1], json!({"skipped": "malformed_input"}));
    assert_eq!(l[2], json!({"skipped": "malformed_input"}));
    // the ball of line 1 is still retained on line 4
    assert_near(
        &l[3]["ball"],
        json!({"x": 1.0, "y": 0.0, "source": "local", "age": 1.5}),
    );
    let file = frames.display().to_string();
    assert!(stderr.contains(&format!("{file}:2:")), "{stderr}");
    assert!(
        stderr.contains("`ball.z`") && stderr.contains("unknown field `z`"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{file}:3:")) && stderr.contains("`player_number`"),
        "{stderr}"
    );
    let position = |line: u32| {
        stderr
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{file}:{line}:")))
            .and_then(|rest| rest.split_once(": error: "))
            .map(|(col, _)| col.parse::<u32>().is_ok())
    };
    assert_eq!(
        (position(2), position(3)),
        (Some(true), Some(true)),
        "{stderr}"
    );
}

#[test]
fn a_clean_file_exits_0() {
    let (l, stderr, code) = decide(&sample_params(), &fixture("root_branches.jsonl"), &[]);
    assert_eq!((code, l.len()), (0, 12), "{stderr}");
}

#[track_caller]
fn assert_params_rejected(params: &tempfile::TempDir, key: &str) {
    let (l, stderr, code) = decide(params.path(), &fixture("roles_searcher.jsonl"), &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(l.is_empty(), "nothing on stdout");
    let line = stderr
        .lines()
        .find(|l| l.contains(": error: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    let (position, message) = line.split_once(": error: ").unwrap();
    let mut parts = position.rsplitn(3, ':');
    let (col, row) = (parts.next().unwrap(), parts.next().unwrap());
    assert!(
        col.parse::<u32>().is_ok() && row.parse::<u32>().is_ok(),
        "{line}"
    );
    assert!(message.contains(key), "{line}");
}

#[test]
fn a_parameter_file_with_an_unknown_key_or_a_wrong_type_is_refused() {
    let unknown = params_copy(&[(
        "base/behavior_node.json5",
        "simple_mode: false,",
        "simple_mode: false, simple_mood: 1,",
    )]);
    assert_params_rejected(&unknown, "simple_mood");
    let wrong = params_copy(&[(
        "base/behavior_node.json5",
        "last_ball_timeout: 2.0,",
        "last_ball_timeout: 'long',",
    )]);
    assert_params_rejected(&wrong, "long");
}

#[test]
fn a_parameter_error_names_the_file_and_the_position_of_the_key() {
    let unknown = params_copy(&[(
        "base/behavior_node.json5",
        "simple_mode: false,",
        "simple_mode: false, simple_mood: 1,",
    )]);
    let (_, stderr, _) = decide(unknown.path(), &fixture("roles_searcher.jsonl"), &[]);
    assert!(stderr.contains("behavior_node.json5:6:"), "{stderr}");
    assert!(stderr.contains("`control.simple_mood`"), "{stderr}");
}

#[test]
fn a_tree_with_an_unknown_node_type_fails_to_load_at_the_node() {
    let tree = fixture("unknown_node.xml");
    let (l, stderr, code) = decide(
        &sample_params(),
        &fixture("roles_searcher.jsonl"),
        &["--tree", tree.to_str().unwrap()],
    );
    assert_eq!(code, 1);
    assert!(l.is_empty());
    assert!(
        stderr.contains(&format!("{}:5:7:", tree.display())),
        "{stderr}"
    );
    assert!(
        stderr.contains("unknown node type `dance_wildly`"),
        "{stderr}"
    );
}

// 10. --explain ----------------------------------------------------------------------------

#[test]
fn explain_adds_the_why_of_each_earlier_branch_and_changes_nothing_else() {
    let plain = run("root_branches.jsonl");
    let explained = run_with(&sample_params(), "root_branches.jsonl", &["--explain"]);
    assert_eq!(plain.len(), explained.len());
    let order = [
        "damping",
        "prepare",
        "stop",
        "remote_control",
        "injected",
        "finished",
        "penalized",
        "initial",
        "stand_up",
        "set",
        "ready",
        "playing",
    ];
    for (p, e) in plain.iter().zip(&explained) {
        let mut rest = e.clone();
        let why = rest
            .as_object_mut()
            .unwrap()
            .remove("explain")
            .expect("explain");
        // `--explain` also reports the planned path's next destination.
        assert!(rest.as_object_mut().unwrap().remove("path_next").is_some());
        assert_eq!(&rest, p);
        let chosen = order.iter().position(|b| *b == p["branch"]).unwrap();
        let named: Vec<&str> = why
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                assert_eq!(pair.as_array().map(Vec::len), Some(2), "{pair}");
                assert!(pair[1].as_str().is_some_and(|s| !s.is_empty()));
                pair[0].as_str().unwrap()
            })
            .collect();
        assert_eq!(named, order[..chosen], "{e}");
    }
}
