//! `robot-decision bt` against traces recorded from BehaviorTree.CPP 4.10 itself
//! (`tests/fixtures/bt_oracle/`, recorded with `tools/btcpp_oracle/driver.cpp`): random trees
//! over the standard nodes with pre/post conditions and the benchmark leaves (`random/`), the
//! same over the nodes BT.CPP 4.10 added to its default set (`default_lib/`: `TryCatch`,
//! `AsyncSequence`, `AsyncFallback`, `Loop*`, `WasEntryUpdated`, `SkipUnlessUpdated`,
//! `WaitValueUpdate`), keys of the first input line read through ports of another type
//! (`first_line/`), the shared benchmark trees on their schedule, and error cases. Every trace
//! line must be identical; for an error line, the tick must be the same (messages are ours).
//! A tree BT.CPP refuses to load (an empty `.out.jsonl` beside a `.err`) must print nothing
//! and exit 1.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bt_oracle")
}

fn bt(tree: &Path, input: &Path) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .arg("bt")
        .arg(tree)
        .arg("--input")
        .arg(input)
        .output()
        .expect("run robot-decision");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Compares our output with BT.CPP's: equal lines, except that an error line only has to
/// name the same tick.
fn same_run(ours: &str, theirs: &str) -> Result<(), String> {
    let ours: Vec<&str> = ours.lines().collect();
    let theirs: Vec<&str> = theirs.lines().collect();
    for (i, expected) in theirs.iter().enumerate() {
        let Some(got) = ours.get(i) else {
            return Err(format!("line {i}: missing, expected {expected}"));
        };
        if expected.contains("\"error\"") {
            let tick = |l: &str| l.split(',').next().map(str::to_owned);
            if !got.contains("\"error\"") || tick(got) != tick(expected) {
                return Err(format!(
                    "line {i}: expected an error ({expected}), got {got}"
                ));
            }
        } else if got != expected {
            return Err(format!("line {i}:\n  ours:   {got}\n  BT.CPP: {expected}"));
        }
    }
    if ours.len() != theirs.len() {
        return Err(format!(
            "{} lines, BT.CPP printed {}",
            ours.len(),
            theirs.len()
        ));
    }
    Ok(())
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut xml: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    xml.sort();
    xml
}

#[test]
fn random_trees_trace_exactly_as_btcpp() {
    let mut failures = Vec::new();
    let all = cases(&fixtures().join("random"));
    assert!(all.len() >= 100, "fixtures missing");
    for tree in &all {
        let input = tree.with_extension("in.jsonl");
        let expected = std::fs::read_to_string(tree.with_extension("out.jsonl")).expect("golden");
        let (ours, code) = bt(tree, &input);
        if let Err(e) = same_run(&ours, &expected) {
            failures.push(format!("{}: {e}", tree.display()));
        } else if code != 0 {
            failures.push(format!("{}: exit {code}", tree.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} trees differ from BT.CPP:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn benchmark_trees_trace_exactly_as_btcpp_on_the_schedule() {
    let bench = fixtures().join("bench");
    let shared_trees = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bt_xml/benches/trees");
    for (tree, input, golden) in [
        ("deep.xml", "schedule_300.in.jsonl", "deep.60.out.jsonl"),
        (
            "wide_fallback.xml",
            "schedule_300.in.jsonl",
            "wide_fallback.20.out.jsonl",
        ),
        (
            "game_like.xml",
            "schedule_strkeys_300.in.jsonl",
            "game_like.strkeys_300.out.jsonl",
        ),
        (
            "game_like_while.xml",
            "schedule_strkeys_300.in.jsonl",
            "game_like_while.strkeys_300.out.jsonl",
        ),
    ] {
        let expected = std::fs::read_to_string(bench.join(golden)).expect("golden");
        let (ours, code) = bt(&shared_trees.join(tree), &bench.join(input));
        assert_eq!(code, 0, "{tree}");
        let n = expected.lines().count();
        let ours: String = ours.lines().take(n).map(|l| format!("{l}\n")).collect();
        if let Err(e) = same_run(&ours, &expected) {
            panic!("{tree}: {e}");
        }
    }
}

#[test]
fn game_like_with_int_switch_keys_traces_as_with_string_keys() {
    // The schedule's first line holds `game_state` and `role` as ints. They exist untyped
    // before the tree is built (as `robot-decision bt` documents), so the Switch's string port does not clash with
    // them and compares their string form: the trace is BT.CPP's for the string schedule.
    let bench = fixtures().join("bench");
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bt_xml/benches/trees/game_like.xml");
    let expected =
        std::fs::read_to_string(bench.join("game_like.strkeys_300.out.jsonl")).expect("golden");
    let (ours, code) = bt(&tree, &bench.join("schedule_300.in.jsonl"));
    assert_eq!(code, 0, "{ours}");
    let n = expected.lines().count();
    let ours: String = ours.lines().take(n).map(|l| format!("{l}\n")).collect();
    if let Err(e) = same_run(&ours, &expected) {
        panic!("game_like with int keys: {e}");
    }
}

#[test]
fn error_cases_stop_at_the_same_tick_as_btcpp() {
    let dir = fixtures().join("errors");
    // BT.CPP reports these only when the node first ticks; `robot-decision bt` makes them load
    // errors (`missing required port`, a Parallel threshold above its children).
    let load_errors_here = [
        "checkkey_missing_port",
        "work_missing_port",
        "parallel_threshold",
    ];
    for tree in cases(&dir) {
        let name = tree
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let expected = std::fs::read_to_string(tree.with_extension("out.jsonl")).expect("golden");
        let (ours, code) = bt(&tree, &tree.with_extension("in.jsonl"));
        let fails = expected.is_empty() || expected.contains("\"error\"");
        assert_eq!(code, i32::from(fails), "{name}: exit code");
        if expected.is_empty() {
            assert!(
                ours.is_empty(),
                "{name}: a load error prints nothing, got {ours}"
            );
        } else if load_errors_here.contains(&name.as_str()) && ours.is_empty() {
            // Reported at load time, as `robot-decision bt` documents.
        } else if let Err(e) = same_run(&ours, &expected) {
            panic!("{name}: {e}");
        }
    }
}

/// Runs every tree of a fixture folder; returns the differing ones and how many there were.
fn run_folder(name: &str, at_least: usize) -> (Vec<String>, usize) {
    let dir = fixtures().join(name);
    let mut trees: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    trees.sort();
    assert!(trees.len() >= at_least, "{name}: fixtures missing");
    let mut failures = Vec::new();
    for tree in &trees {
        let expected = std::fs::read_to_string(tree.with_extension("out.jsonl")).expect("golden");
        let (ours, code) = bt(tree, &tree.with_extension("in.jsonl"));
        let fails = expected.is_empty() || expected.contains("\"error\"");
        let verdict = if expected.is_empty() {
            if ours.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "BT.CPP refuses to load it ({}), we ran:\n  {}",
                    std::fs::read_to_string(tree.with_extension("err"))
                        .unwrap_or_default()
                        .trim(),
                    ours.lines().next().unwrap_or_default()
                ))
            }
        } else {
            same_run(&ours, &expected)
        };
        match verdict {
            Err(e) => failures.push(format!("{}: {e}", tree.display())),
            Ok(()) if code != i32::from(fails) => {
                failures.push(format!("{}: exit {code}", tree.display()));
            }
            Ok(()) => {}
        }
    }
    (failures, trees.len())
}

fn check_folder(name: &str, at_least: usize) {
    let (failures, total) = run_folder(name, at_least);
    assert!(
        failures.is_empty(),
        "{} of {total} trees in {name}/ differ from BT.CPP:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn default_lib_trees_trace_exactly_as_btcpp() {
    check_folder("default_lib", 150);
}

/// First-line keys exist untyped until their first write (an int behind `Switch`'s string
/// port loads); a first-line string key becomes a string entry, so a later int write into it
/// is an error, as in BT.CPP.
#[test]
fn first_line_keys_behind_other_port_types_as_in_btcpp() {
    check_folder("first_line", 20);
}
