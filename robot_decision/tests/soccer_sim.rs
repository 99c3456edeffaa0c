//! `robot-decision soccer sim` end to end: JSON lines per robot per tick with the keys in
//! order, the same seed twice gives the same bytes, the timeline ends with the score, and a
//! bad scenario is refused with its field.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sim(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .current_dir(repo())
        .arg("soccer")
        .arg("sim")
        .args(args)
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn json_lines_carry_every_robot_every_tick_and_repeat_for_a_seed() {
    let args = [
        "--scenario",
        "sample/soccer/scenarios/corner_kick.json5",
        "--seconds",
        "3",
        "--json",
        "--seed",
        "3",
    ];
    let (a, err, code) = sim(&args);
    assert_eq!(code, 0, "{err}");
    let (b, _, _) = sim(&args);
    assert_eq!(a, b, "same seed, same output");
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines.len(), 150 * 10, "3 s of 20 ms ticks, ten robots");
    let first: serde_json::Value = serde_json::from_str(lines[0]).expect("json");
    let keys: Vec<&str> = first
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    // serde_json's map is sorted here; the order on the wire is checked on the raw text.
    assert_eq!(keys.len(), 8, "{keys:?}");
    let order = [
        "\"t\"",
        "\"team\"",
        "\"player\"",
        "\"role\"",
        "\"branch\"",
        "\"motion\"",
        "\"ball\"",
        "\"score\"",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|k| lines[0].find(k).unwrap_or(usize::MAX))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{}", lines[0]);
    assert_eq!(first["score"], serde_json::json!({"home": 0, "away": 0}));
    assert_eq!(first["branch"], "playing");
}

#[test]
fn the_timeline_ends_with_the_score_and_counts() {
    let (out, err, code) = sim(&[
        "--scenario",
        "sample/soccer/scenarios/corner_kick.json5",
        "--seconds",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("CornerKick for home"), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.contains("end: home") && last.contains("messages sent"),
        "{last}"
    );
}

#[test]
fn a_bad_scenario_is_refused_with_its_field() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.json5");
    std::fs::write(&path, "{ home: { players: [1, 1] } }").expect("write");
    let (out, err, code) = sim(&["--scenario", path.to_str().unwrap_or_default()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("home.players"), "{err}");
}

fn replay(args: &[&std::ffi::OsStr]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .current_dir(repo())
        .arg("replay")
        .args(args)
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Copies a folder tree.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn a_recorded_match_replays_identically_and_diffs_against_other_parameters() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("soccer_record");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kickoff.mcap");
    let (_, err, code) = sim(&[
        "--scenario",
        "sample/soccer/scenarios/kickoff.json5",
        "--seconds",
        "20",
        "--record",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("recorded"), "{err}");

    // Replayed with the recorded parameters and tree: every tick of every robot, byte for byte.
    let (out, err, code) = replay(&[file.as_os_str()]);
    assert_eq!(code, 0, "{out}\n{err}");
    let robots: Vec<&str> = out.lines().filter(|l| l.contains(" ticks, ")).collect();
    assert_eq!(robots.len(), 10, "{out}");
    for line in &robots {
        assert!(
            line.contains(": 1000 ticks, 1000 identical to recorded, 0 span(s) differ"),
            "{line}"
        );
    }
    assert!(out.ends_with("identical decisions\n"), "{out}");

    // Other parameters: slower walking to the kick-off positions changes the motion commands.
    let other = dir.join("slow");
    copy_dir(&repo().join("sample/soccer/parameters"), &other);
    let behavior = other.join("base/behavior_node.json5");
    let text = std::fs::read_to_string(&behavior).unwrap();
    assert!(text.contains("walk_to_kickoff: 0.5"));
    std::fs::write(
        &behavior,
        text.replace("walk_to_kickoff: 0.5", "walk_to_kickoff: 0.2"),
    )
    .unwrap();
    let (out, err, code) = replay(&[
        file.as_os_str(),
        std::ffi::OsStr::new("--config"),
        other.as_os_str(),
    ]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.ends_with("decisions differ\n"), "{out}");
    let spans = out.lines().filter(|l| l.contains("  ->  ")).count();
    assert!(spans >= 10, "{out}");
    assert!(out.contains("walk_to"), "{out}");

    // A parameter folder that does not load is a usage error naming the file.
    std::fs::write(&behavior, "{ walking: 3 ").unwrap();
    let (_, err, code) = replay(&[
        file.as_os_str(),
        std::ffi::OsStr::new("--config"),
        other.as_os_str(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("behavior_node.json5"), "{err}");
}

/// The play figures agree with the match they summarise: the role changes counted are the
/// timeline's changes from one role to another (not from `-`), and the last JSON line of the
/// same seeded match carries the same figures.
#[test]
fn the_play_figures_count_the_role_changes_of_the_timeline() {
    let args = [
        "--scenario",
        "sample/soccer/scenarios/kickoff.json5",
        "--seconds",
        "40",
        "--seed",
        "5",
    ];
    let (timeline, err, code) = sim(&args);
    assert_eq!(code, 0, "{err}");
    let roles = ["goalkeeper", "striker", "supporter", "searcher"];
    let changes = |team: &str| {
        timeline
            .lines()
            .filter(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                // "  12.34 s  home 3 striker -> supporter"
                words.len() == 7
                    && words[2] == team
                    && roles.contains(&words[4])
                    && words[5] == "->"
                    && roles.contains(&words[6])
            })
            .count() as u64
    };
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (lines, err, code) = sim(&json_args);
    assert_eq!(code, 0, "{err}");
    let last: serde_json::Value =
        serde_json::from_str(lines.lines().last().unwrap_or_default()).expect("json");
    let figures = &last["play_figures"];
    for team in ["home", "away"] {
        assert_eq!(
            figures[team]["role_changes"].as_u64(),
            Some(changes(team)),
            "{team}: {figures}"
        );
        let line = timeline
            .lines()
            .find(|l| l.contains(&format!("play {team}: role changes")))
            .unwrap_or_else(|| panic!("no play figures for {team}:\n{timeline}"));
        assert!(line.contains(&format!("({} in ", changes(team))), "{line}");
    }
    let first: serde_json::Value =
        serde_json::from_str(lines.lines().next().unwrap_or_default()).expect("json");
    assert!(first.get("play_figures").is_none(), "only the last line");
}
