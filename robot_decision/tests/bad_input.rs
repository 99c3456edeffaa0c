//! Bad input on the soccer and tree side, one test per class, running the real binary: deep
//! nesting, absurd sizes, a closed stdout, arrays where objects belong, out-of-range number
//! literals, JSON Lines that are not one JSON object each, and the positions of UTF-8 and range
//! errors. Every case must end in a clear error (file, line, column, field) and never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn bin() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_robot-decision"));
    command.current_dir(repo());
    command
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run robot-decision")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn no_panic(o: &Output) {
    assert!(
        !stderr(o).contains("panicked") && o.status.code().is_some(),
        "status {:?}, stderr {}",
        o.status,
        stderr(o)
    );
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write fixture");
    path
}

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

/// A copy of the sample's soccer parameters whose `base/FILE` has `from` replaced by `to`.
fn params_with(file: &str, from: &str, to: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let params = dir.path();
    for sub in ["base", "location/simulation", "location/competition_hall"] {
        let from_dir = repo().join("sample/soccer/parameters").join(sub);
        if !from_dir.is_dir() {
            continue;
        }
        std::fs::create_dir_all(params.join(sub)).expect("mkdir");
        for entry in std::fs::read_dir(&from_dir).expect("read_dir") {
            let entry = entry.expect("entry");
            std::fs::copy(entry.path(), params.join(sub).join(entry.file_name())).expect("copy");
        }
    }
    let target = params.join("base").join(file);
    let text = std::fs::read_to_string(&target).expect("read base file");
    assert!(text.contains(from), "{file} has no `{from}`");
    std::fs::write(&target, text.replacen(from, to, 1)).expect("write base file");
    dir
}

/// Line (1-based) and column (1-based, in bytes) of the first occurrence of `needle`.
fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).expect("needle in text");
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

const FRAME: &str = r#"{"t": 0.0, "player_number": 4, "primary_state": "initial", "pose": {"x": -1.0, "y": 2.9, "yaw": -1.57}}"#;

// ---- 1. crashes ----------------------------------------------------------------------------

#[test]
fn a_deeply_nested_script_is_a_load_error_with_its_position() {
    let dir = tempfile::tempdir().expect("tempdir");
    let depth = 100_000;
    let parens = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
    let bangs = format!("{}true", "!".repeat(depth));
    let xml_code = write(
        dir.path(),
        "code.xml",
        format!(
            "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"M\">\n  <Script code=\"x := {parens}\"/>\n</BehaviorTree>\n</root>\n"
        )
        .as_bytes(),
    );
    let xml_skip = write(
        dir.path(),
        "skip.xml",
        format!(
            "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"M\">\n  <AlwaysSuccess _skipIf=\"{bangs}\"/>\n</BehaviorTree>\n</root>\n"
        )
        .as_bytes(),
    );
    let json5 = write(
        dir.path(),
        "skip.json5",
        format!("{{type: 'AlwaysSuccess',\n ports: {{_skipIf: '{bangs}'}}}}\n").as_bytes(),
    );
    for (tree, position) in [
        (&xml_code, "3:3: error: port `code`"),
        (&xml_skip, "3:18: error: `_skipIf`"),
        (&json5, "2:19: error: `_skipIf`"),
    ] {
        let o = run(&["check", s(tree)]);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert!(
            all.contains(position) && all.contains("nested deeper than 256 levels"),
            "{all}"
        );
        // Loading it to run it is refused the same way, before any line is read.
        let input = write(dir.path(), "in.jsonl", b"{\"set\": {}}\n");
        let o = run(&["bt", s(tree), "--leaves", "bench", "--input", s(&input)]);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).contains("nested deeper than 256 levels"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn deep_json_nesting_in_a_tree_or_a_frame_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().expect("tempdir");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let tree = write(
        dir.path(),
        "deep.json5",
        format!("{{type: 'AlwaysSuccess', name: {deep}}}").as_bytes(),
    );
    let o = run(&["check", s(&tree)]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("nesting deeper than 128 levels"),
        "{}",
        stderr(&o)
    );
    let frames = write(
        dir.path(),
        "frames.jsonl",
        format!("{FRAME}\n{{\"t\": 1, \"obstacles\": {deep}}}\n").as_bytes(),
    );
    let o = run(&[
        "soccer",
        "decide",
        "sample/soccer/parameters",
        "--input",
        s(&frames),
    ]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
    assert!(
        stderr(&o).contains("frames.jsonl:2:") && stderr(&o).contains("`obstacles"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn absurd_sizes_are_refused_at_load_with_the_key_position() {
    let dir = params_with("field.json5", "length: 9.0,", "length: 1e300,");
    let field = dir.path().join("base/field.json5");
    let (line, column) = line_col(&std::fs::read_to_string(&field).expect("read"), "length:");
    let o = run(&["check", s(dir.path())]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    let want = format!(
        "{}:{line}:{column}: error: `length`: must be at most 100 m",
        field.display()
    );
    assert!(stdout(&o).contains(&want), "{}\nwant {want}", stdout(&o));
    // The commands that build the grids refuse it before building them.
    let frames = write(dir.path(), "frames.jsonl", format!("{FRAME}\n").as_bytes());
    for command in ["decide", "heatmap"] {
        let o = run(&["soccer", command, s(dir.path()), "--input", s(&frames)]);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{command}");
        assert!(stderr(&o).contains(&want), "{command}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{command}");
    }
    // A long thin field with many cells along it would make a huge heatmap.
    let dir = params_with("field.json5", "width: 6.0,", "width: 100.0,");
    let suggestor = dir.path().join("base/search_suggestor.json5");
    let text = std::fs::read_to_string(&suggestor).expect("read");
    let text = text.replacen("{", "{\n  cells_along_field_length: 1000,", 1);
    let text = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("cells_along_field_length: ") || l.contains("1000"))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&suggestor, text).expect("write");
    let o = run(&["check", s(dir.path())]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("error: `cells_along_field_length`: gives 1000 x 11111 heatmap cells"),
        "{}",
        stdout(&o)
    );
}

#[cfg(unix)]
#[test]
fn every_printing_command_stops_quietly_when_its_reader_goes_away() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let frames = write(
        dir.path(),
        "frames.jsonl",
        format!("{FRAME}\n").repeat(2000).as_bytes(),
    );
    let bt_input = write(
        dir.path(),
        "in.jsonl",
        "{\"set\": {\"ball_close\": 0, \"hold\": 0, \"rounds\": 0}}\n"
            .repeat(2000)
            .as_bytes(),
    );
    let frames = s(&frames);
    let commands: Vec<Vec<&str>> = vec![
        vec!["check", "sample/config.json"],
        vec!["check", "sample/soccer/parameters"],
        vec!["schema", "soccer"],
        vec![
            "decide",
            "sample/config.json",
            "--input",
            "sample/snapshots.jsonl",
        ],
        vec![
            "bt",
            "sample/trees/patrol.json5",
            "--leaves",
            "bench",
            "--input",
            s(&bt_input),
        ],
        vec![
            "soccer",
            "decide",
            "sample/soccer/parameters",
            "--input",
            frames,
        ],
        vec![
            "soccer",
            "heatmap",
            "sample/soccer/parameters",
            "--input",
            frames,
        ],
        vec!["sim", "--seconds", "30"],
    ];
    for args in commands {
        // The read end is closed before the command starts: its first write meets a closed pipe.
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let o = bin()
            .args(&args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("run robot-decision");
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        assert_eq!(
            o.status.signal(),
            Some(libc_sigpipe()),
            "{args:?}: {:?} {}",
            o.status,
            stderr(&o)
        );
    }
}

/// SIGPIPE's number on the platforms we build for.
#[cfg(unix)]
fn libc_sigpipe() -> i32 {
    13
}

// ---- 2. accepted, should be refused ----------------------------------------------------------

#[test]
fn arrays_where_objects_belong_are_refused_everywhere() {
    // Parameters.
    let dir = params_with(
        "behavior_node.json5",
        "ready: { arrival_distance: 0.15, arrival_yaw: 0.2 },",
        "ready: [0.15, 0.2],",
    );
    let file = dir.path().join("base/behavior_node.json5");
    let (line, column) = line_col(&std::fs::read_to_string(&file).expect("read"), "[0.15");
    let o = run(&["check", s(dir.path())]);
    assert_eq!(o.status.code(), Some(1));
    let want = format!(
        "{}:{line}:{column}: error: `ready`: invalid type: sequence, expected struct Ready written as an object",
        file.display()
    );
    assert!(stdout(&o).contains(&want), "{}\nwant {want}", stdout(&o));

    // Frames: a pose and a whole line as arrays.
    let frames = write(
        dir.path(),
        "frames.jsonl",
        format!(
            "{FRAME}\n{}\n[0.2, 4, \"initial\"]\n{FRAME}\n",
            FRAME.replace("0.0", "0.1").replace(
                r#"{"x": -1.0, "y": 2.9, "yaw": -1.57}"#,
                "[-1.0, 2.9, -1.57]"
            )
        )
        .as_bytes(),
    );
    let o = run(&[
        "soccer",
        "decide",
        "sample/soccer/parameters",
        "--input",
        s(&frames),
    ]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{}", stdout(&o));
    assert_eq!(lines[1], r#"{"skipped":"malformed_input"}"#);
    assert_eq!(lines[2], r#"{"skipped":"malformed_input"}"#);
    let err = stderr(&o);
    assert!(
        err.contains(":2:") && err.contains("`pose`: invalid type: sequence, expected struct"),
        "{err}"
    );
    assert!(
        err.contains(
            ":3:1: error: `.`: invalid type: sequence, expected struct Frame written as an object"
        ),
        "{err}"
    );

    // Trees: a node written as an array.
    let tree = write(
        dir.path(),
        "tree.json5",
        b"{type: 'Sequence', children: [\n  ['AlwaysSuccess'],\n]}\n",
    );
    let o = run(&["check", s(&tree)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("tree.json5:2:3: error: `children[0]`: invalid type: sequence, expected struct TreeSpec written as an object"),
        "{}",
        stderr(&o)
    );

    // RoboMaster snapshots: a pose as an array.
    let snapshots = write(
        dir.path(),
        "snapshots.jsonl",
        b"{\"game_info\": {\"timestamp\": 300, \"game_stage\": 4}, \"pose\": [8.96, 2.79, 0.0]}\n",
    );
    let o = run(&["decide", "sample/config.json", "--input", s(&snapshots)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("\"skipped\":\"malformed_input\""),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("`pose`: invalid type: sequence, expected struct"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_scenario_point_written_as_an_array_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(repo().join("sample/scenarios/hp_retreat.json5"))
        .expect("read scenario");
    let config = repo().join("sample/config.json");
    let text = text.replace(
        "\"../config.json\"",
        &format!("{:?}", config.display().to_string()),
    );
    let broken = text.replace("B1: {x: 2.0, y: 1.6},", "B1: [2.0, 1.6],");
    assert_ne!(broken, text, "the scenario places B1 at a point");
    let scenario = write(dir.path(), "scenario.json5", broken.as_bytes());
    let o = run(&[
        "sim",
        s(&config),
        "--scenario",
        s(&scenario),
        "--seconds",
        "1",
    ]);
    no_panic(&o);
    assert_ne!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("scenario.json5:23:13")
            && stderr(&o).contains("a waypoint id or a point {x, y} in metres"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_out_of_range_number_literal_is_refused_at_the_attribute() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tree = write(
        dir.path(),
        "tree.xml",
        b"<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"M\">\n  <SetVelocity theta=\"1e999\"/>\n</BehaviorTree>\n</root>\n",
    );
    let o = run(&["check", s(&tree)]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        all.contains("tree.xml:3:16:") && all.contains("can't convert [1e999] to double"),
        "{all}"
    );
}

// ---- 3. lines that go unanswered -----------------------------------------------------------

/// Runs `args` on `input` and checks the JSON Lines rule: one answer per input line, the bad
/// ones answered as malformed and reported at their line and column, exit 1.
fn one_answer_per_line(args: &[&str], input: &[u8], good: &[usize], bad: &[(usize, &str)]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = write(dir.path(), "in.jsonl", input);
    let mut args = args.to_vec();
    args.extend(["--input", s(&file)]);
    let o = run(&args);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), good.len() + bad.len(), "{args:?}: {out}");
    for (number, position) in bad {
        assert!(
            lines[number - 1].contains("\"skipped\"")
                && lines[number - 1].contains("malformed_input"),
            "{args:?} line {number}: {}",
            lines[number - 1]
        );
        let want = format!("in.jsonl:{number}:{position}");
        assert!(
            stderr(&o).contains(&want),
            "{args:?}: want {want} in {}",
            stderr(&o)
        );
    }
    for number in good {
        assert!(
            !lines[number - 1].contains("malformed_input"),
            "{args:?} line {number}"
        );
    }
}

#[test]
fn blank_and_non_utf8_lines_are_answered_as_malformed_by_every_json_lines_command() {
    let snapshot = std::fs::read_to_string(repo().join("sample/snapshots.jsonl"))
        .expect("snapshots")
        .lines()
        .next()
        .expect("one snapshot")
        .to_owned();
    let heat = r#"{"t": 0.0}"#;
    let cases: Vec<(Vec<&str>, String, &str)> = vec![
        (vec!["decide", "sample/config.json"], snapshot, "1:"),
        (
            vec!["bt", "sample/trees/patrol.json5", "--leaves", "bench"],
            "{\"set\": {\"ball_close\": 0, \"hold\": 0, \"rounds\": 0}}".to_owned(),
            "1:",
        ),
        (
            vec!["soccer", "decide", "sample/soccer/parameters"],
            FRAME.to_owned(),
            "1:",
        ),
        (
            vec!["soccer", "heatmap", "sample/soccer/parameters"],
            heat.to_owned(),
            "1:",
        ),
    ];
    for (args, good, _) in &cases {
        // line 2 empty, 3 blank, 4 not UTF-8 at byte 7, 5 good.
        let mut input = Vec::new();
        input.extend_from_slice(good.as_bytes());
        input.extend_from_slice(b"\n\n   \t\n{\"t\": \xff}\n");
        input.extend_from_slice(good.as_bytes());
        input.push(b'\n');
        one_answer_per_line(args, &input, &[1, 5], &[(2, "1:"), (3, "1:"), (4, "7:")]);
    }
}

// ---- 4. positions ----------------------------------------------------------------------------

#[test]
fn invalid_utf8_in_a_json5_file_is_reported_at_the_bad_byte() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tree = write(
        dir.path(),
        "tree.json5",
        b"// a tree\n{type: 'AlwaysSuccess', name: 'caf\xe9'}\n",
    );
    let o = run(&["check", s(&tree)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("tree.json5:2:35: error: not UTF-8 text: byte 0xE9"),
        "{}",
        stderr(&o)
    );
    let dir = params_with("field.json5", "width: 6.0,", "width: 6.0, // caf\u{e9}");
    let field = dir.path().join("base/field.json5");
    let text = std::fs::read_to_string(&field).expect("read");
    let (line, column) = line_col(&text, "\u{e9}");
    let bytes: Vec<u8> = text
        .replacen('\u{e9}', "\u{1}", 1)
        .bytes()
        .map(|b| if b == 1 { 0xE9 } else { b })
        .collect();
    std::fs::write(&field, bytes).expect("write");
    let o = run(&["check", s(dir.path())]);
    assert_eq!(o.status.code(), Some(1));
    let want = format!("{}:{line}:{column}: error: not UTF-8 text", field.display());
    assert!(stdout(&o).contains(&want), "{}\nwant {want}", stdout(&o));
}

#[test]
fn a_player_number_out_of_range_points_at_the_value() {
    let line = FRAME.replace("\"player_number\": 4", "\"player_number\": 9");
    let column = line.find(": 9").expect("value") + 3;
    let mut input = line.clone();
    input.push('\n');
    let players = FRAME.replace(
        "\"primary_state\"",
        "\"game\": {\"players\": [1, 2, 8]}, \"primary_state\"",
    );
    let players_column = players.find("8]").expect("value") + 1;
    input.push_str(&players);
    input.push('\n');
    let dir = tempfile::tempdir().expect("tempdir");
    let frames = write(dir.path(), "frames.jsonl", input.as_bytes());
    let o = run(&[
        "soccer",
        "decide",
        "sample/soccer/parameters",
        "--input",
        s(&frames),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let want = format!("frames.jsonl:1:{column}: error: `player_number`: must be in 1..=7");
    assert!(stderr(&o).contains(&want), "{}\nwant {want}", stderr(&o));
    let want = format!("frames.jsonl:2:{players_column}: error: `game.players[2]`");
    assert!(stderr(&o).contains(&want), "{}\nwant {want}", stderr(&o));
}
