//! End-to-end tests of the `robot-decision` binary on real files: `check`, `decide`, `schema`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robot-decision"))
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run robot-decision")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A copy of our sample in a temporary folder (with the map beside it) for tests that edit it.
fn sample_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let sample = dir.path().join("sample");
    std::fs::create_dir_all(&sample).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("resources")).expect("mkdir");
    for name in ["config.json", "decisions.json", "waypoints.json"] {
        std::fs::copy(repo().join("sample").join(name), sample.join(name)).expect("copy");
    }
    std::fs::copy(
        repo().join("resources/RMUL.png"),
        dir.path().join("resources/RMUL.png"),
    )
    .expect("copy map");
    dir
}

#[test]
fn check_passes_on_our_sample() {
    let o = run(&["check", "sample/config.json"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains(": 0 error(s)"), "{}", stdout(&o));
}

#[test]
fn check_reports_errors_with_position_and_exit_1() {
    let dir = sample_copy();
    let decisions = dir.path().join("sample/decisions.json");
    let text = std::fs::read_to_string(&decisions).unwrap();
    // the first decision's target becomes a dangling waypoint id
    let broken = text.replacen(
        "\"decide_wayPoint\"",
        "\"decide_wayPoint\" : 99, \"x_old\"",
        1,
    );
    std::fs::write(&decisions, broken).unwrap();
    let config = dir.path().join("sample/config.json");
    let o = run(&["check", config.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.contains("unknown waypoint id 99"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("decisions.json:"), "{line}");
    assert!(line.contains("`decide_wayPoint`"), "{line}");
    assert!(line.contains("decision 0 \""), "{line}");
    let o = run(&["check", config.to_str().unwrap(), "--format", "json"]);
    let doc: Value = serde_json::from_slice(&o.stdout).expect("json output");
    let diag = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"] == "unknown waypoint id 99")
        .expect("diag");
    assert_eq!(diag["severity"], "error");
    assert_eq!(diag["field"], "decide_wayPoint");
    assert!(diag["line"].as_u64().unwrap() > 1 && diag["column"].as_u64().unwrap() > 1);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["check"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(run(&["schema", "nope"]).status.code(), Some(2));
    let o = run(&["check", "sample/config.json", "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Bad ROS 2 flags: a clear error before any network, never a panic.
#[test]
fn bad_ros2_flags_are_clear_errors() {
    let cases: [(&[&str], i32, &str); 3] = [
        (
            &["--ros2", "--domain", "300"],
            1,
            "ROS domain id 300 is out of range",
        ),
        (&["--domain", "3"], 2, "--ros2"),
        (&["--ros2", "--ros-distro", "iron"], 2, "iron"),
    ];
    for (flags, code, message) in cases {
        let mut args = vec!["run", "sample/config.json", "--no-reload"];
        args.extend_from_slice(flags);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(code), "{flags:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(message),
            "{flags:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn missing_config_is_an_error_not_a_panic() {
    let o = run(&["check", "does/not/exist.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("does/not/exist.json:0:0: error: cannot read"),
        "{}",
        stdout(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
}

const RESULT_KEYS: [&str; 13] = [
    "tick",
    "skipped",
    "waypoint",
    "available",
    "best",
    "chosen",
    "action",
    "path",
    "poses",
    "aim_yaw",
    "decision",
    "cancelled",
    "why_not",
];

fn key_order(line: &str) -> Vec<&'static str> {
    let mut found: Vec<(usize, &'static str)> = RESULT_KEYS
        .iter()
        .filter_map(|k| line.find(&format!("\"{k}\":")).map(|at| (at, *k)))
        .collect();
    found.sort();
    found.into_iter().map(|(_, k)| k).collect()
}

#[test]
fn decide_on_the_sample_snapshots() {
    let o = run(&[
        "decide",
        "sample/config.json",
        "--input",
        "sample/snapshots.jsonl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let input_lines = std::fs::read_to_string(repo().join("sample/snapshots.jsonl")).unwrap();
    let inputs = input_lines.lines().filter(|l| !l.trim().is_empty()).count();
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), inputs);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(key_order(line), RESULT_KEYS.to_vec(), "line {i}: {line}");
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["tick"], i as u64);
    }
    let results: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // before the match: nothing
    assert_eq!(results[0]["skipped"], "not_in_battle");
    // the first tick of the match sends decision 0 along its succession path
    assert_eq!(results[1]["action"], "send");
    assert_eq!(results[1]["chosen"], 0);
    // at some point HP drops and the retreat to supply (13) preempts
    assert!(
        results
            .iter()
            .any(|r| r["chosen"] == 13 && r["action"] == "preempt"),
        "{out}"
    );
    // every unavailable decision has a why-not
    for r in results
        .iter()
        .filter(|r| r["skipped"].is_null() || r["skipped"] == "no_decision")
    {
        let available = r["available"].as_array().unwrap().len();
        assert_eq!(
            available + r["why_not"].as_object().unwrap().len(),
            17,
            "{r}"
        );
    }
}

#[test]
fn decide_is_deterministic_and_reads_stdin() {
    let a = run(&[
        "decide",
        "sample/config.json",
        "--input",
        "sample/snapshots.jsonl",
    ]);
    let input = std::fs::read(repo().join("sample/snapshots.jsonl")).unwrap();
    let mut child = bin()
        .args(["decide", "sample/config.json", "--input", "-"])
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let b = child.wait_with_output().unwrap();
    assert!(b.status.success());
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn decide_skips_malformed_lines_and_keeps_going() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.jsonl");
    let good = std::fs::read_to_string(repo().join("sample/snapshots.jsonl")).unwrap();
    let good: Vec<&str> = good.lines().filter(|l| !l.trim().is_empty()).collect();
    let text = format!(
        "{}\n{{\"obj_hp\": {{\"hp\": [1, \"x\"]}}}}\nnot json\n{}\n",
        good[1], good[2]
    );
    std::fs::write(&path, text).unwrap();
    let o = run(&[
        "decide",
        "sample/config.json",
        "--input",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("in.jsonl:2:") && err.contains("`obj_hp.hp[1]`"),
        "{err}"
    );
    assert!(err.contains("in.jsonl:3:"), "{err}");
    let out = stdout(&o);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1]["skipped"], "malformed_input");
    assert_eq!(lines[2]["skipped"], "malformed_input");
    assert_eq!(lines[3]["tick"], 3);
    // the state carried over the bad lines: the running decision continues
    let expected = run(&[
        "decide",
        "sample/config.json",
        "--input",
        "sample/snapshots.jsonl",
    ]);
    let expected: Vec<Value> = stdout(&expected)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[3]["chosen"], expected[2]["chosen"]);
    assert_eq!(lines[3]["action"], expected[2]["action"]);
}

#[test]
fn schemas_are_generated_from_the_types() {
    for (which, must_have) in [
        (
            "decisions",
            vec![
                "wayPointID",
                "decide_wayPoint",
                "out_post_HP_min",
                "out_post_HP_max",
                "base_HP_min",
                "enemyPosition",
            ],
        ),
        ("waypoints", vec!["connect", "angle", "enemyWeights"]),
        (
            "config",
            vec![
                "WayPointsPATH",
                "INIT_SEEK_THR",
                "STEP_DISTANCE",
                "PATH_PLANNING",
            ],
        ),
        (
            "snapshot",
            vec!["obj_hp", "car_pos", "nav_status", "autoaim"],
        ),
    ] {
        let o = run(&["schema", which]);
        assert!(o.status.success());
        let text = stdout(&o);
        let schema: Value = serde_json::from_str(&text).expect("schema json");
        assert!(schema["$schema"].is_string(), "{which}");
        for key in must_have {
            assert!(text.contains(&format!("\"{key}\"")), "{which} lacks {key}");
        }
    }
}

/// Files of the original package, when `../shared` is beside the clone.
fn shared_config(version: &str) -> Option<PathBuf> {
    let path = repo()
        .join("../shared/original_sample")
        .join(version)
        .join("JsonFile/config.json");
    if path.is_file() {
        Some(path)
    } else if std::env::var_os("REQUIRE_SHARED").is_some() {
        panic!("REQUIRE_SHARED is set but {} is missing", path.display());
    } else {
        eprintln!("skipped: {} not present", path.display());
        None
    }
}

#[test]
fn shared_check_passes_on_the_original_v12a_files() {
    let Some(config) = shared_config("v1.2a_2faf49c") else {
        return;
    };
    let o = run(&["check", config.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains(": 0 error(s)"));
}

#[test]
fn shared_check_passes_on_the_original_head_files() {
    let Some(config) = shared_config("head_5c67397") else {
        return;
    };
    let o = run(&["check", config.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains(": 0 error(s)"), "{}", stdout(&o));
}

#[test]
fn shared_check_warns_about_the_head_sample_templates_lacking_fields() {
    let Some(config) = shared_config("head_5c67397") else {
        return;
    };
    let head = config.parent().unwrap().parent().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(&config).unwrap();
    let text = text
        .replace(
            "\"waypoints_0.json\"",
            &format!(
                "{:?}",
                head.join("sample/waypoints.json").canonicalize().unwrap()
            ),
        )
        .replace(
            "\"decisions.json\"",
            &format!(
                "{:?}",
                head.join("sample/decisions.json").canonicalize().unwrap()
            ),
        )
        .replace(
            "\"RMUL.png\"",
            &format!(
                "{:?}",
                head.join("resources/RMUL.png").canonicalize().unwrap()
            ),
        );
    let path = dir.path().join("config.json");
    std::fs::write(&path, text).unwrap();
    let o = run(&["check", path.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    // the README's templates give five unit slots and lack base_HP_min / if_reverse
    assert!(out.contains("5 of 6 unit slots given"), "{out}");
    assert!(out.contains("`base_HP_min`: missing, reads as 0"), "{out}");
}
