//! `robot-decision bt` against traces recorded from BehaviorTree.CPP 4.10 with our driver
//! (`tools/btcpp_oracle/`): `default_lib/`, random trees over the nodes BT.CPP 4.10 added to
//! its default set (`TryCatch`, `AsyncSequence`, `AsyncFallback`, `Loop*`,
//! `WasEntryUpdated`, `SkipUnlessUpdated`, `WaitValueUpdate`) mixed with the older ones, and
//! `first_line/`, keys of the first input line read through ports of another type. Every
//! trace line must be identical; for an error line, the tick must be the same (messages are
//! ours). A tree BT.CPP refuses to load (an empty `.out.jsonl` beside a `.err`) must print
//! nothing and exit 1.

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

/// Pending: 9 trees load in BT.CPP (first-line keys are untyped until their first write)
/// and are refused here; in 2 more a first-line string key becomes a string entry in BT.CPP,
/// so a later int write (`work_ticks_string`) or SetBlackboard copy of an int
/// (`setblackboard_int_value_into_string`) is an error there.
#[test]
fn first_line_keys_behind_other_port_types_as_in_btcpp() {
    check_folder("first_line", 20);
}
