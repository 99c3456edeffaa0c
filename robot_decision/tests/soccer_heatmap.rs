//! End-to-end tests of `robot-decision soccer heatmap` (`docs/src/commands/soccer-heatmap.md`), running the real
//! binary on the frame files of `tests/fixtures/heatmap/` with the repository's sample
//! parameters (`sample/soccer/parameters`: a 9 x 6 m field, 18 cells along it).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const FIXTURES: &str = "robot_decision/tests/fixtures/heatmap";
const SAMPLE: &str = "sample/soccer/parameters";

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run robot-decision")
}

fn run(args: &[&str]) -> Output {
    run_in(&repo(), args)
}

fn heatmap(params: &str, extra: &[&str], frames: &str) -> Output {
    let input = format!("{FIXTURES}/{frames}");
    let mut args = vec!["soccer", "heatmap", params];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--input", &input]);
    run(&args)
}

fn stdout_lines(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn parsed(o: &Output) -> Vec<Value> {
    stdout_lines(o)
        .iter()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn all_values(line: &Value) -> Vec<f64> {
    line["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| v.as_f64().expect("a number"))
        .collect()
}

fn all_near(line: &Value, expected: f64) -> bool {
    all_values(line).iter().all(|v| (v - expected).abs() < 1e-9)
}

/// A copy of the sample parameters in a temporary folder, for tests that change them.
fn sample_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo().join(SAMPLE), &dir.path().join("parameters"));
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

/// The position of each of `keys` in `line`, which must increase.
fn in_order(line: &str, keys: &[&str]) {
    let mut last = 0;
    for key in keys {
        let at = line[last..]
            .find(&format!("\"{key}\":"))
            .unwrap_or_else(|| panic!("`{key}` missing or out of order in {line}"));
        last += at + key.len();
    }
}

#[test]
fn each_line_has_the_documented_keys_in_order_and_cells_x_times_cells_y_values() {
    let o = heatmap(SAMPLE, &[], "growth.jsonl");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = stdout_lines(&o);
    assert_eq!(lines.len(), 3);
    for line in &lines {
        assert!(line.starts_with("{\"t\":"), "{line}");
        in_order(
            line,
            &[
                "t",
                "grid",
                "cells_x",
                "cells_y",
                "cell_length",
                "cell_width",
                "values",
                "target",
                "fallback",
                "cell_size",
            ],
        );
        let v: Value = serde_json::from_str(line).expect("json");
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            ["cell_size", "fallback", "grid", "t", "target", "values"],
            "no other keys"
        );
        assert_eq!(
            v["grid"],
            serde_json::json!({"cells_x": 18, "cells_y": 12, "cell_length": 0.5, "cell_width": 0.5})
        );
        assert_eq!(all_values(&v).len(), 18 * 12);
        assert_eq!(v["cell_size"], serde_json::json!([0.5, 0.5]));
    }
}

#[test]
fn the_map_grows_and_an_observed_ball_becomes_the_target() {
    let o = heatmap(SAMPLE, &[], "growth.jsonl");
    let out = parsed(&o);
    assert!(all_near(&out[0], 0.0));
    assert_eq!(out[0]["target"], Value::Null);
    assert!(all_near(&out[1], 0.1), "3 s / 30 s");
    assert_eq!(
        (out[1]["target"].clone(), out[1]["fallback"].clone()),
        (Value::Null, Value::Bool(false))
    );
    // t = 6: the ball at (1.1, 0.1) is current: no growth from 3 to 6, its cell (index
    // 6 * 18 + 11) is 1, far cells keep 0.1, the target is the ball cell's centre.
    let values = all_values(&out[2]);
    assert_eq!(values[6 * 18 + 11], 1.0);
    assert!((values[0] - 0.1).abs() < 1e-9);
    assert_eq!(out[2]["target"], serde_json::json!([1.25, 0.25]));
    assert_eq!(out[2]["t"], serde_json::json!(6.0));
}

#[test]
fn a_malformed_line_is_skipped_with_its_position_and_field_and_the_run_goes_on() {
    let o = heatmap(SAMPLE, &[], "malformed.jsonl");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines = stdout_lines(&o);
    assert_eq!(lines.len(), 6);
    for (i, line) in lines.iter().enumerate().skip(1).take(4) {
        assert_eq!(line, r#"{"skipped":"malformed_input"}"#, "line {}", i + 1);
    }
    let err = stderr(&o);
    let file = format!("{FIXTURES}/malformed.jsonl");
    for (line, field) in [(2, "bogus"), (3, "colour"), (4, "pose.x")] {
        let at = err
            .lines()
            .find(|l| l.starts_with(&format!("{file}:{line}:")))
            .unwrap_or_else(|| panic!("no diagnostic for line {line}: {err}"));
        // FILE:LINE:COL: error: ... naming the field.
        let rest = &at[file.len() + format!(":{line}:").len()..];
        let (col, message) = rest.split_once(':').expect("a column");
        assert!(col.parse::<u32>().is_ok_and(|c| c >= 1), "{at}");
        assert!(message.starts_with(" error: "), "{at}");
        assert!(at.contains(field), "line {line} names `{field}`: {at}");
    }
    assert!(err.contains(&format!("{file}:5:")), "{err}");
    // The state was kept over the bad lines: t = 3 grew by 3 / 30 since t = 0.
    let last: Value = serde_json::from_str(&lines[5]).expect("json");
    assert!(all_near(&last, 0.1), "{}", lines[5]);
}

#[test]
fn an_invalid_runtime_parameter_is_skipped_and_the_old_parameters_are_kept() {
    let o = heatmap(SAMPLE, &[], "parameters.jsonl");
    // Ambiguity: a refused parameter change is an error for its line like a malformed one,
    // so the run exits 1 at the end.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines = stdout_lines(&o);
    assert_eq!(lines.len(), 7);
    for line in &lines[1..4] {
        assert_eq!(line, r#"{"skipped":"invalid_parameters"}"#);
    }
    let err = stderr(&o);
    let file = format!("{FIXTURES}/parameters.jsonl");
    for (line, key) in [
        (2, "minimum_search_priority"),
        (3, "fallback_minimum_search_priority"),
        // Unknown keys are errors, in `parameters` too.
        (4, "unseen_priority_rise_tme"),
    ] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("{file}:{line}:"))
                    && l.contains(" error: ")
                    && l.contains(key)),
            "line {line}, `{key}`: {err}"
        );
    }
    let out: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    // Line 5 (t = 6): 30 s rise time kept, growth counted from the last accepted frame.
    assert!(all_near(&out[4], 0.2), "{}", lines[4]);
    // Line 6: the accepted change resamples to 9 x 6 cells of 1 m; values kept.
    assert_eq!(
        out[5]["grid"],
        serde_json::json!({"cells_x": 9, "cells_y": 6, "cell_length": 1.0, "cell_width": 1.0})
    );
    assert_eq!(out[5]["cell_size"], serde_json::json!([1.0, 1.0]));
    assert_eq!(all_values(&out[5]).len(), 54);
    assert!(all_near(&out[5], 0.2));
    // Line 7: the new rise time of 15 s: +1.5 / 15.
    assert!(all_near(&out[6], 0.3), "{}", lines[6]);
}

#[test]
fn location_and_robot_overrides_apply() {
    let o = heatmap(SAMPLE, &["--location", "competition_hall"], "plain.jsonl");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = parsed(&o);
    // The hall's 8.95 x 5.95 m field: 18 x round(11.97) = 12 cells.
    assert_eq!(out[0]["grid"]["cells_x"], 18);
    assert_eq!(out[0]["grid"]["cells_y"], 12);
    assert_eq!(out[0]["grid"]["cell_length"].as_f64(), Some(8.95 / 18.0));
    assert_eq!(out[0]["cell_size"][1].as_f64(), Some(5.95 / 12.0));

    let dir = sample_copy();
    let robot = dir.path().join("parameters/robot/fine_bot");
    std::fs::create_dir_all(&robot).expect("mkdir");
    std::fs::write(
        robot.join("search_suggestor.json5"),
        "// finer cells\n{ cells_along_field_length: 36 }\n",
    )
    .expect("write");
    let input = repo().join(FIXTURES).join("plain.jsonl");
    let input = input.to_str().expect("utf-8");
    let o = run_in(
        dir.path(),
        &[
            "soccer",
            "heatmap",
            "parameters",
            "--location",
            "competition_hall",
            "--robot",
            "fine_bot",
            "--input",
            input,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = parsed(&o);
    assert_eq!(out[0]["grid"]["cells_x"], 36);
    assert_eq!(out[0]["grid"]["cells_y"], 24);
    assert_eq!(out[0]["grid"]["cell_length"].as_f64(), Some(8.95 / 36.0));
    assert_eq!(all_values(&out[0]).len(), 36 * 24);
}

/// Writes `replacement` over `original` in the copy's search_suggestor.json5 and returns the
/// copy, the 1-based line of the change and its file's path relative to the copy.
fn broken(original: &str, replacement: &str) -> (tempfile::TempDir, usize) {
    let dir = sample_copy();
    let file = dir.path().join("parameters/base/search_suggestor.json5");
    let text = std::fs::read_to_string(&file).expect("read");
    assert!(text.contains(original), "{original}");
    std::fs::write(&file, text.replacen(original, replacement, 1)).expect("write");
    let line = text
        .lines()
        .position(|l| l.contains(original))
        .expect("line")
        + 1;
    (dir, line)
}

#[test]
fn bad_search_priorities_in_the_parameter_files_stop_heatmap_and_check() {
    let input = repo().join(FIXTURES).join("plain.jsonl");
    let input = input.to_str().expect("utf-8").to_owned();
    for (original, replacement, key) in [
        (
            "minimum_search_priority: 0.2,",
            "minimum_search_priority: 1.5,",
            "minimum_search_priority",
        ),
        (
            "fallback_minimum_search_priority: 0.05,",
            "fallback_minimum_search_priority: 0.3,",
            "fallback_minimum_search_priority",
        ),
        (
            "disable_heatmap_search: false,",
            "disable_heatmap_serch: false,",
            "disable_heatmap_serch",
        ),
    ] {
        let (dir, line) = broken(original, replacement);
        let expected = format!("parameters/base/search_suggestor.json5:{line}:");
        for args in [
            vec!["soccer", "heatmap", "parameters", "--input", &input],
            vec!["check", "parameters"],
        ] {
            let o = run_in(dir.path(), &args);
            let err = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
            assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
            let at = err
                .lines()
                .find(|l| l.contains(&expected))
                .unwrap_or_else(|| panic!("{args:?}: no `{expected}COL: error:` in {err}"));
            let rest = &at[at.find(&expected).unwrap() + expected.len()..];
            let (col, message) = rest.split_once(':').expect("a column");
            assert!(col.parse::<u32>().is_ok_and(|c| c >= 1), "{at}");
            assert!(
                message.starts_with(&format!(" error: `{key}`: ")),
                "{args:?}: {at}"
            );
            if args[0] == "soccer" {
                assert!(o.stdout.is_empty(), "no frame is run");
            }
        }
    }
}
