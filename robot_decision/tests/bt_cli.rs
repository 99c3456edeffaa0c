//! `robot-decision bt` and `check` on tree files, as a user runs them: the JSON5 sample, bad
//! input lines, runtime errors, `--bench`, and broken trees.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args(args)
        .current_dir(repo())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    if let Some(text) = stdin
        && let Some(mut pipe) = child.stdin.take()
    {
        pipe.write_all(text.as_bytes()).expect("stdin");
    }
    child.wait_with_output().expect("wait")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_json5_sample_prints_the_documented_traces() {
    let o = run(
        &[
            "bt",
            "sample/trees/patrol.json5",
            "--input",
            "sample/trees/patrol.in.jsonl",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let expected = std::fs::read_to_string(repo().join("sample/trees/patrol.out.jsonl")).unwrap();
    assert_eq!(text(&o.stdout), expected);
    assert!(
        expected.contains(r#"{"tick": 5, "status": "RUNNING", "trace": [["attack", "SKIPPED"]"#)
    );
}

#[test]
fn malformed_lines_are_answered_and_the_run_goes_on() {
    let input = "{\"set\": {\"ball_close\": 0, \"hold\": 0, \"rounds\": 0}}\n{\"sett\": {}}\nnot json\n{\"set\": {\"x\": [1]}}\n{}\n";
    let o = run(
        &["bt", "sample/trees/patrol.json5", "--input", "-"],
        Some(input),
    );
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with(r#"{"tick": 0, "status": "RUNNING""#));
    for l in &lines[1..4] {
        assert_eq!(*l, r#"{"skipped": "malformed_input"}"#);
    }
    assert!(lines[4].starts_with(r#"{"tick": 1, "#), "{}", lines[4]);
    let err = text(&o.stderr);
    assert!(err.contains("-:2:0: `sett`: unknown key"), "{err}");
    assert!(err.contains("-:3:"), "{err}");
    assert!(err.contains("`set.x`: expected an int"), "{err}");
}

#[test]
fn a_runtime_error_stops_with_the_tick_and_exit_1() {
    // `rounds` is a string: `rounds += 1` in the post-condition cannot add to it.
    let input = "{\"set\": {\"ball_close\": 0, \"hold\": 0, \"rounds\": \"many\"}}\n{}\n{}\n{}\n";
    let o = run(
        &["bt", "sample/trees/patrol.json5", "--input", "-"],
        Some(input),
    );
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with(r#"{"tick": 3, "error": "#), "{out}");
}

#[test]
fn bench_prints_one_line_with_ticks_time_and_visits() {
    let o = run(
        &[
            "bt",
            "bt_xml/benches/trees/deep.xml",
            "--leaves",
            "bench",
            "--bench",
            "--ticks",
            "2000",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let line: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("json");
    assert_eq!(line["ticks"], 2000);
    assert!(line["ns_per_tick"].as_f64().is_some_and(|v| v > 0.0));
    // 200 nested sequences over one Noop: 201 visits every tick.
    assert_eq!(line["visits_per_tick"].as_f64(), Some(201.0));
}

#[test]
fn check_reports_every_error_of_a_broken_tree() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.xml");
    std::fs::write(
        &path,
        "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"Main\">\n    <Sequence>\n      <Nop/>\n      <Work tick=\"1\"/>\n    </Sequence>\n  </BehaviorTree>\n</root>\n",
    )
    .unwrap();
    let p = path.display().to_string();
    let o = run(&["check", &p], None);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!(
            "{p}:4:7: error: unknown node type `Nop` (did you mean `Noop`?)"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{p}:5:13: error: `Work` has no port `tick` (did you mean `ticks`?)"
        )),
        "{err}"
    );
    assert!(text(&o.stdout).contains("3 error(s)"));
    let o = run(&["bt", &p, "--input", "-"], Some("{}\n"));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(text(&o.stderr).contains(":4:7: error:"));
    let o = run(&["check", "sample/trees/patrol.json5"], None);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}
