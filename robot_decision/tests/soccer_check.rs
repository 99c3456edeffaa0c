//! End-to-end tests of `robot-decision check PARAMS_DIR` on soccer parameter folders and of
//! `robot-decision schema soccer`, running the real binary.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run robot-decision")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A copy of `sample/soccer/parameters` in a temporary folder, for tests that break it.
fn sample_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(
        &repo().join("sample/soccer/parameters"),
        &dir.path().join("parameters"),
    );
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

#[test]
fn the_sample_folder_checks_clean() {
    let o = run(&["check", "sample/soccer/parameters"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("sample/soccer/parameters: 0 error(s), 0 warning(s)"),
        "{}",
        text(&o)
    );
    let o = run(&[
        "check",
        "sample/soccer/parameters",
        "--location",
        "competition_hall",
        "--robot",
        "tor_3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains(": 0 error(s), 0 warning(s)"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_broken_copy_reports_every_problem_with_its_position_and_exits_1() {
    let dir = sample_copy();
    let params = dir.path().join("parameters");
    let base = params.join("base/behavior_node.json5");
    let original = std::fs::read_to_string(&base).expect("read");
    assert!(original.contains("last_ball_timeout: 2.0"));
    std::fs::write(
        &base,
        original.replacen("last_ball_timeout: 2.0", "last_bal_timeout: 2.0", 1),
    )
    .expect("write");
    std::fs::write(
        params.join("location/competition_hall/field.json5"),
        "// broken\n{\n  length: Infinity,\n  width: -1,\n}\n",
    )
    .expect("write");
    let line = original
        .lines()
        .position(|l| l.contains("last_ball_timeout: 2.0"))
        .expect("line")
        + 1;
    let column = original
        .lines()
        .nth(line - 1)
        .and_then(|l| l.find("last_ball_timeout"))
        .expect("column")
        + 1;
    let o = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args([
            "check",
            "parameters",
            "--location",
            "competition_hall",
            "--robot",
            "tor_3",
        ])
        .current_dir(dir.path())
        .output()
        .expect("run robot-decision");
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(&format!(
            "parameters/base/behavior_node.json5:{line}:{column}: error: \
             `ball.last_bal_timeout`: unknown key, did you mean `last_ball_timeout`?"
        )),
        "{out}"
    );
    assert!(
        out.contains(
            "parameters/location/competition_hall/field.json5:3:11: error: `length`: \
             must be finite, found Infinity"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "parameters/location/competition_hall/field.json5:4:3: error: `width`: \
             must be finite and > 0"
        ),
        "{out}"
    );
    assert!(
        out.contains("parameters: 3 error(s), 0 warning(s)"),
        "{out}"
    );

    // The same as one JSON document.
    let o = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args([
            "check",
            "parameters",
            "--location",
            "competition_hall",
            "--format",
            "json",
        ])
        .current_dir(dir.path())
        .output()
        .expect("run robot-decision");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(doc["errors"], 3);
    assert_eq!(doc["diagnostics"][0]["field"], "ball.last_bal_timeout");
    assert_eq!(doc["diagnostics"][0]["line"], line);
    assert_eq!(doc["diagnostics"][2]["message"], "must be finite and > 0");
}

#[test]
fn a_missing_override_folder_exits_1_and_overrides_need_a_soccer_folder() {
    let o = run(&["check", "sample/soccer/parameters", "--robot", "tor_4"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains(
            "sample/soccer/parameters/robot/tor_4:1:1: error: the --robot folder `tor_4` \
             does not exist; did you mean `tor_3`?"
        ),
        "{}",
        text(&o)
    );
    let o = run(&["check", "sample/config.json", "--robot", "tor_3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn the_soccer_schema_is_json_and_names_the_parameters() {
    let o = run(&["schema", "soccer"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let schema: Value = serde_json::from_slice(&o.stdout).expect("schema json");
    assert!(schema["$schema"].is_string());
    let out = String::from_utf8_lossy(&o.stdout);
    for key in [
        "last_ball_timeout",
        "minimum_search_priority",
        "goal_inner_width",
    ] {
        assert!(
            out.contains(&format!("\"{key}\"")),
            "the schema lacks {key}"
        );
    }
}
