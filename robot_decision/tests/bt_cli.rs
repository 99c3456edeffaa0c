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

/// Writes `tree` into a temporary folder as `name` and runs `bt` on it with `input`.
fn run_tree(name: &str, tree: &str, input: &str) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, tree).unwrap();
    let p = path.display().to_string();
    (run(&["bt", &p, "--input", "-"], Some(input)), dir)
}

/// An XML document with one tree `Main` whose body is `body`.
fn xml(body: &str) -> String {
    format!(
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n  <BehaviorTree ID=\"Main\">\n{body}\n  </BehaviorTree>\n</root>\n"
    )
}

/// The trace lines of a successful run.
#[track_caller]
fn traces(o: &Output) -> Vec<String> {
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    text(&o.stdout).lines().map(str::to_owned).collect()
}

#[test]
fn a_loop_pops_one_value_per_tick_and_answers_if_empty_after() {
    let tree = xml(
        r#"    <LoopInt queue="1;2;3" value="{v}" if_empty="FAILURE" name="loop">
      <ScriptCondition code="v &lt; 3" name="small"/>
    </LoopInt>"#,
    );
    let (o, _dir) = run_tree("loop.xml", &tree, "{}\n{}\n{}\n");
    assert_eq!(
        traces(&o),
        [
            r#"{"tick": 0, "status": "RUNNING", "trace": [["small", "SUCCESS"], ["loop", "RUNNING"]]}"#,
            r#"{"tick": 1, "status": "RUNNING", "trace": [["small", "SUCCESS"], ["loop", "RUNNING"]]}"#,
            r#"{"tick": 2, "status": "FAILURE", "trace": [["small", "FAILURE"], ["loop", "FAILURE"]]}"#,
        ]
    );
    let tree = xml(r#"    <LoopString queue="{q}" value="{s}" name="loop">
      <Noop name="n"/>
    </LoopString>"#);
    let (o, _dir) = run_tree("loop.xml", &tree, "{\"set\": {\"q\": \"a;b\"}}\n{}\n{}\n");
    assert_eq!(
        traces(&o),
        [
            r#"{"tick": 0, "status": "RUNNING", "trace": [["n", "SUCCESS"], ["loop", "RUNNING"]]}"#,
            r#"{"tick": 1, "status": "RUNNING", "trace": [["n", "SUCCESS"], ["loop", "RUNNING"]]}"#,
            r#"{"tick": 2, "status": "SUCCESS", "trace": [["loop", "SUCCESS"]]}"#,
        ]
    );
}

#[test]
fn entry_updates_count_every_write_of_an_input_line() {
    let tree = xml(r#"    <WasEntryUpdated entry="{k}" name="upd"/>"#);
    let input = "{\"set\": {\"k\": 1}}\n{}\n{\"set\": {\"k\": 1}}\n{}\n";
    let (o, _dir) = run_tree("upd.xml", &tree, input);
    let statuses: Vec<String> = traces(&o)
        .iter()
        .map(|l| l.split('"').nth(5).unwrap_or_default().to_owned())
        .collect();
    assert_eq!(statuses, ["SUCCESS", "FAILURE", "SUCCESS", "FAILURE"]);
    let tree = xml(r#"    <SkipUnlessUpdated entry="k" name="skip">
      <Work ticks="1" name="w"/>
    </SkipUnlessUpdated>"#);
    let (o, _dir) = run_tree("skip.xml", &tree, "{}\n{\"set\": {\"k\": 2}}\n{}\n{}\n");
    assert_eq!(
        traces(&o),
        [
            r#"{"tick": 0, "status": "SKIPPED", "trace": [["skip", "SKIPPED"]]}"#,
            r#"{"tick": 1, "status": "RUNNING", "trace": [["w", "RUNNING"], ["skip", "RUNNING"]]}"#,
            r#"{"tick": 2, "status": "SUCCESS", "trace": [["w", "SUCCESS"], ["skip", "SUCCESS"]]}"#,
            r#"{"tick": 3, "status": "SKIPPED", "trace": [["skip", "SKIPPED"]]}"#,
        ]
    );
}

#[test]
fn try_catch_runs_its_catch_when_a_reactive_parent_halts_it() {
    let tree = xml(r#"    <ReactiveSequence name="rs">
      <CheckKey key="go" expect="1" name="guard"/>
      <TryCatch catch_on_halt="true" name="tc">
        <Work ticks="5" name="work"/>
        <Noop name="cleanup"/>
      </TryCatch>
    </ReactiveSequence>"#);
    let input = "{\"set\": {\"go\": 1}}\n{\"set\": {\"go\": 0}}\n";
    let (o, _dir) = run_tree("tc.xml", &tree, input);
    assert_eq!(
        traces(&o),
        [
            r#"{"tick": 0, "status": "RUNNING", "trace": [["guard", "SUCCESS"], ["work", "RUNNING"], ["tc", "RUNNING"], ["rs", "RUNNING"]]}"#,
            r#"{"tick": 1, "status": "FAILURE", "trace": [["guard", "FAILURE"], ["cleanup", "SUCCESS"], ["rs", "FAILURE"]]}"#,
        ]
    );
}

#[test]
fn async_sequence_yields_and_a_raw_less_than_loads() {
    let tree = xml(r#"    <AsyncSequence name="as">
      <Noop name="n1" _skipIf="A<2"/>
      <Noop name="n2"/>
    </AsyncSequence>"#);
    let (o, _dir) = run_tree(
        "as.xml",
        &tree,
        "{\"set\": {\"A\": 3}}\n{}\n{\"set\": {\"A\": 1}}\n",
    );
    assert_eq!(
        traces(&o),
        [
            r#"{"tick": 0, "status": "RUNNING", "trace": [["n1", "SUCCESS"], ["as", "RUNNING"]]}"#,
            r#"{"tick": 1, "status": "SUCCESS", "trace": [["n2", "SUCCESS"], ["as", "SUCCESS"]]}"#,
            r#"{"tick": 2, "status": "SUCCESS", "trace": [["n1", "SKIPPED"], ["n2", "SUCCESS"], ["as", "SUCCESS"]]}"#,
        ]
    );
}

#[test]
fn check_knows_the_new_nodes_in_xml_and_json5() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.json5");
    std::fs::write(
        &good,
        r#"{ type: 'Sequence', children: [
  { type: 'LoopDouble', ports: { queue: '0.5;1', value: '{x}' }, children: [{ type: 'Noop' }] },
  { type: 'LoopBool', ports: { queue: 'true' }, children: [{ type: 'Noop' }] },
  { type: 'WaitValueUpdate', ports: { entry: '{x}' }, children: [{ type: 'Noop' }] },
  { type: 'AsyncFallback', children: [{ type: 'Noop' }] },
  { type: 'TryCatch', children: [{ type: 'Noop' }, { type: 'Noop' }] },
] }"#,
    )
    .unwrap();
    let p = good.display().to_string();
    let o = run(&["check", &p], None);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = run(&["bt", &p, "--input", "-"], Some("{}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).starts_with(r#"{"tick": 0, "status": "RUNNING""#));

    let bad = dir.path().join("bad.xml");
    std::fs::write(
        &bad,
        xml(r#"    <Sequence>
      <SequenceStar><Noop/></SequenceStar>
      <ReactiveSequence>
        <AsyncSequence><Noop/></AsyncSequence>
        <AsyncSequence><Noop/></AsyncSequence>
      </ReactiveSequence>
      <LoopInt queue="1;;3"><Noop/></LoopInt>
      <TryCatch><Noop/></TryCatch>
    </Sequence>"#),
    )
    .unwrap();
    let p = bad.display().to_string();
    let o = run(&["check", &p], None);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    for expected in [
        format!("{p}:4:7: error: unknown node type `SequenceStar`"),
        "did you mean `SequenceWithMemory`?".to_owned(),
        format!("{p}:5:7: error: `ReactiveSequence` cannot have more than one asynchronous child"),
        format!("{p}:9:7: error: port `queue`: element 1 of [1;;3]"),
        format!("{p}:10:7: error: `TryCatch` needs at least 2 children, found 1"),
    ] {
        assert!(err.contains(&expected), "{expected}\n{err}");
    }
}

#[test]
fn an_on_halted_script_that_fails_when_the_tree_is_destroyed_is_reported_not_an_abort() {
    // BT.CPP halts every node when the tree is destroyed and aborts when an `_onHalted`
    // script throws there; we print every tick, then report the error and exit 1.
    let dir = tempfile::tempdir().expect("tempdir");
    let tree = dir.path().join("halted.xml");
    std::fs::write(
        &tree,
        r#"<root BTCPP_format="4"><BehaviorTree ID="M">
  <Sequence>
    <AlwaysSuccess name="quiet" _onHalted="missing = 1"/>
    <Noop/>
  </Sequence>
</BehaviorTree></root>"#,
    )
    .expect("write tree");
    let tree = tree.to_str().expect("utf-8 path");
    let o = run(
        &["bt", tree, "--leaves", "bench", "--input", "-"],
        Some("{}\n{}\n"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).lines().count(), 2, "{}", text(&o.stdout));
    let stderr = text(&o.stderr);
    assert!(
        stderr
            .contains("halted.xml: error: when the tree is destroyed: quiet: script `missing = 1`"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
