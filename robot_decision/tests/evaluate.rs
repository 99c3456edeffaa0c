//! `robot-decision evaluate` end to end: the real binary on the sample's config and
//! scenarios, with edited copies in temporary folders.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn evaluate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .arg("evaluate")
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run robot-decision")
}

fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "status {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

/// A copy of the sample config whose decisions file is the sample's with `from` replaced by
/// `to` (the waypoints and the map stay the sample's).
fn edited_config(from: &str, to: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let sample = repo().join("sample");
    let decisions = std::fs::read_to_string(sample.join("decisions.json")).expect("decisions");
    assert!(
        decisions.contains(from),
        "{from} not in the sample decisions"
    );
    std::fs::write(
        dir.path().join("decisions.json"),
        decisions.replacen(from, to, 1),
    )
    .expect("write decisions");
    let config = std::fs::read_to_string(sample.join("config.json")).expect("config");
    let absolute = |name: &str| sample.join(name).display().to_string();
    let config = config
        .replace(
            "\"waypoints.json\"",
            &format!("{:?}", absolute("waypoints.json")),
        )
        .replace(
            "\"RMUL.png\"",
            &format!(
                "{:?}",
                repo().join("resources/RMUL.png").display().to_string()
            ),
        );
    std::fs::write(dir.path().join("config.json"), config).expect("write config");
    dir
}

const SHORT: [&str; 6] = ["--matches", "3", "--seconds", "40", "--seed", "7"];

#[test]
fn a_config_against_itself_differs_by_exactly_nothing() {
    let mut args = vec![
        "sample/config.json",
        "--against",
        "sample/config.json",
        "--json",
    ];
    args.extend(SHORT);
    let doc = json_of(&evaluate(&args));
    assert_eq!(doc["profile"], "robomaster");
    assert_eq!(doc["matches"], 3);
    assert_eq!(doc["seed"], 7);
    assert_eq!(doc["seconds"], 40.0);
    let metrics = doc["metrics"].as_array().expect("metrics");
    let names: Vec<&str> = metrics.iter().filter_map(|m| m["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "own_hp_end",
            "survival_time",
            "damage_dealt",
            "outpost_hp_end",
            "base_hp_end",
            "decision_changes_per_min",
            "goals_cancelled",
            "aim_on_target_share"
        ]
    );
    for m in metrics {
        assert_eq!(m["a"], m["b"], "{}", m["name"]);
        let d = &m["difference"];
        assert_eq!(d["mean"], 0.0, "{}", m["name"]);
        assert_eq!(d["ci95"], serde_json::json!([0.0, 0.0]), "{}", m["name"]);
        assert_eq!(d["significant"], false, "{}", m["name"]);
    }
    assert_eq!(doc["never_chosen"]["a"], doc["never_chosen"]["b"]);
    // The document is what `schema evaluation` says.
    let schema = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args(["schema", "evaluation"])
        .output()
        .expect("schema");
    let schema: Value = serde_json::from_slice(&schema.stdout).expect("schema JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    if let Err(e) = validator.validate(&doc) {
        panic!("the evaluation does not match its schema: {e}");
    }
    // 40 s of the sample: the opening decisions are in effect, the late ones are not.
    let never: Vec<i64> = doc["never_chosen"]["a"]
        .as_array()
        .expect("ids")
        .iter()
        .filter_map(Value::as_i64)
        .collect();
    assert!(!never.contains(&0), "{never:?}");
    assert!(
        never.contains(&9),
        "late_game_push starts after 40 s: {never:?}"
    );
    let coverage = doc["coverage"]["a"].as_array().expect("coverage");
    assert_eq!(coverage.len(), 17);
    let share: f64 = coverage
        .iter()
        .filter_map(|c| c["time_share"].as_f64())
        .sum();
    assert!(share > 0.0 && share <= 1.0 + 1e-12, "{share}");
    for c in coverage {
        let chosen = c["chosen_matches"].as_u64().expect("count");
        assert_eq!(chosen == 0, c["time_share"] == 0.0, "{c}");
    }
}

#[test]
fn a_decision_made_impossible_in_b_is_never_chosen_there_only() {
    // Decision 0 (leave_start_to_outpost) needs more HP than any robot has in B.
    let b = edited_config("\"minHP\" : 200,", "\"minHP\" : 60000,");
    let b_config = b.path().join("config.json");
    let b_config = b_config.to_str().expect("utf-8 path");
    let mut args = vec!["sample/config.json", "--against", b_config, "--json"];
    args.extend(SHORT);
    let doc = json_of(&evaluate(&args));
    let ids = |side: &str| -> Vec<i64> {
        doc["never_chosen"][side]
            .as_array()
            .expect("ids")
            .iter()
            .filter_map(Value::as_i64)
            .collect()
    };
    assert!(ids("b").contains(&0), "{:?}", ids("b"));
    assert!(!ids("a").contains(&0), "{:?}", ids("a"));
    let zero = |side: &str| {
        doc["coverage"][side]
            .as_array()
            .expect("coverage")
            .iter()
            .find(|c| c["id"] == 0)
            .cloned()
            .expect("decision 0")
    };
    assert_eq!(zero("b")["chosen_matches"], 0);
    assert_eq!(zero("a")["chosen_matches"], 3);
    assert_eq!(zero("a")["name"], "leave_start_to_outpost");
}

#[test]
fn the_numbers_do_not_depend_on_the_thread_count() {
    let run = |threads: &str| {
        let mut args = vec!["sample/config.json", "--json", "--threads", threads];
        args.extend(SHORT);
        evaluate(&args)
    };
    let one = run("1");
    let two = run("2");
    json_of(&one);
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn the_table_names_the_method_and_the_metrics() {
    let mut args = vec!["sample/config.json", "--against", "sample/config.json"];
    args.extend(SHORT);
    let out = evaluate(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("3 matches per config (seeds 7..9, 40 s each); paired t interval"),
        "{text}"
    );
    assert!(lines[1].starts_with("A: sample/config.json"), "{text}");
    assert!(lines[3].starts_with("metric"), "{text}");
    let own_hp = lines
        .iter()
        .find(|l| l.starts_with("own_hp_end (HP, higher is better)"))
        .expect("an own_hp_end row");
    assert!(own_hp.ends_with("  0 [0, 0]"), "{own_hp}");
    assert!(text.contains("never chosen in 3 matches: A: "), "{text}");
    assert!(
        !text.contains(" *\n"),
        "nothing is significant against itself: {text}"
    );
}

#[test]
fn bad_arguments_and_files_are_refused_before_any_match() {
    let out = evaluate(&["sample/config.json", "--matches", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--matches must be at least 1"));

    let out = evaluate(&["sample/config.json", "--seconds", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--seconds must be a positive"));

    let out = evaluate(&["sample/config.json", "--scenario", "no/such/scenario.json5"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no/such/scenario.json5"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let broken = edited_config("\"weight\" : 300,", "\"weight\" : \"heavy\",");
    let config = broken.path().join("config.json");
    let out = evaluate(&[
        "sample/config.json",
        "--against",
        config.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("decisions.json:") && err.contains("weight"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "no match ran: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Chromium, when installed (`.ci/run` installs it, so CI always renders the report).
fn chromium() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var("CHROMIUM").unwrap_or("/usr/bin/chromium".into()));
    path.exists().then_some(path)
}

#[test]
fn the_report_is_a_page_of_plots_that_a_browser_renders() {
    let dir = tempfile::tempdir().expect("tempdir");
    let report = dir.path().join("report");
    let mut args = vec!["sample/config.json", "--against", "sample/config.json"];
    args.extend(SHORT);
    args.extend(["--report", report.to_str().expect("utf-8")]);
    let out = evaluate(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(report.join("index.html")).expect("index.html");
    // Per metric its values and its differences, then one strip plot.
    assert_eq!(html.matches("<svg").count(), 8 * 2 + 1);
    for name in ["own_hp_end", "aim_on_target_share", "B - A per match"] {
        assert!(html.contains(name), "{name} missing");
    }
    assert!(html.contains("0 leave_start_to_outpost"));
    assert!(html.contains(">\n2 B\n<"), "a strip per match and config");
    // Readable offline: nothing is fetched (the SVG namespace is a name, not a download).
    assert!(!html.contains("https://"));
    assert_eq!(
        html.matches("http://").count(),
        html.matches("http://www.w3.org/2000/svg").count()
    );

    let Some(chromium) = chromium() else {
        eprintln!("chromium is not installed: the page was not rendered (CI installs it)");
        return;
    };
    let shot = dir.path().join("shot.png");
    let profile = dir.path().join("chromium-profile");
    let status = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1000,2400",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", report.join("index.html").display()))
        .output()
        .expect("run chromium");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let image = image::open(&shot).expect("a PNG screenshot").to_rgb8();
    let pixels = image.pixels().count();
    let inked = image.pixels().filter(|p| p.0 != [255, 255, 255]).count();
    let colours: std::collections::HashSet<[u8; 3]> = image.pixels().map(|p| p.0).collect();
    assert!(
        inked * 20 > pixels,
        "mostly blank: {inked} of {pixels} pixels inked"
    );
    // The decision palette of the strips and the two configs' marks, at least.
    assert!(colours.len() > 12, "only {} colours", colours.len());
}

fn soccer_evaluate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args([
            "soccer",
            "evaluate",
            "sample/soccer/parameters",
            "--location",
            "simulation",
        ])
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run robot-decision")
}

const SOCCER_SHORT: [&str; 8] = [
    "--matches",
    "2",
    "--seconds",
    "15",
    "--seed",
    "3",
    "--scenario",
    "sample/soccer/scenarios/kickoff.json5",
];

#[test]
fn soccer_against_itself_differs_by_nothing_whatever_the_threads() {
    let run = |threads: &str| {
        let mut args = vec![
            "--against-location",
            "simulation",
            "--json",
            "--threads",
            threads,
        ];
        args.extend(SOCCER_SHORT);
        soccer_evaluate(&args)
    };
    let one = run("1");
    let doc = json_of(&one);
    assert_eq!(doc["profile"], "soccer");
    let names: Vec<&str> = doc["metrics"]
        .as_array()
        .expect("metrics")
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "goals_for",
            "goals_against",
            "role_changes_per_robot_min",
            "one_striker_share",
            "lost_balls",
            "time_to_find_ball",
            "falls",
            "messages_sent"
        ]
    );
    let metric = |name: &str| {
        doc["metrics"]
            .as_array()
            .and_then(|ms| ms.iter().find(|m| m["name"] == name))
            .unwrap_or_else(|| panic!("no metric {name}"))
            .clone()
    };
    // A match without a lost ball has no time to find one: with no ball lost in any match,
    // the time has no mean (not 0 s); with one lost, it has.
    let none_lost = metric("lost_balls")["a"]["max"] == 0.0;
    assert_eq!(
        metric("time_to_find_ball")["a"]["mean"].is_null(),
        none_lost,
        "{}",
        metric("time_to_find_ball")
    );
    for m in doc["metrics"].as_array().expect("metrics") {
        if m["a"]["mean"].is_null() {
            // No match lost a ball: no time to find one, and nothing to pair.
            assert_eq!(m["name"], "time_to_find_ball");
            assert!(m["difference"]["mean"].is_null(), "{m}");
        } else {
            assert_eq!(m["difference"]["mean"], 0.0, "{}", m["name"]);
        }
        assert_eq!(m["difference"]["significant"], false, "{}", m["name"]);
        let share = &m["a"]["mean"];
        if m["name"] == "one_striker_share" {
            let share = share.as_f64().expect("a share");
            assert!((0.0..=1.0).contains(&share), "{share}");
        }
    }
    // Tree nodes by preorder id: the root is node 0 and in effect on every tick.
    let root = &doc["coverage"]["a"][0];
    assert_eq!(root["id"], 0);
    assert_eq!(root["chosen_matches"], 2);
    assert!(
        doc["never_chosen"]["a"]
            .as_array()
            .is_some_and(|ids| !ids.is_empty()),
        "15 s of a kick-off never reach a penalty shootout node"
    );
    assert_eq!(run("2").stdout, one.stdout);
}

#[test]
fn soccer_bad_input_is_refused_before_any_match() {
    let out = soccer_evaluate(&["--against", "no/such/params"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/params"));
    let out = soccer_evaluate(&["--matches", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let out = soccer_evaluate(&["--against-tree", "no/such/tree.xml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/tree.xml"));
    assert!(out.stdout.is_empty());
}

#[test]
fn retreating_from_fire_is_significantly_better_than_standing_in_it() {
    // under_fire.json5 (opt-in combat): the enemy shoots our sentry where it holds the fire
    // point. The "stand" config holds it; the "retreat" config falls back out of sight.
    let fixtures = "robot_decision/tests/fixtures/under_fire";
    let stand = format!("{fixtures}/config_stand.json");
    let retreat = format!("{fixtures}/config_retreat.json");
    let args = [
        stand.as_str(),
        "--against",
        retreat.as_str(),
        "--scenario",
        "sample/scenarios/under_fire.json5",
        "--matches",
        "20",
        "--seconds",
        "60",
        "--json",
    ];
    let doc = json_of(&evaluate(&args));
    let metric = |name: &str| {
        doc["metrics"]
            .as_array()
            .expect("metrics")
            .iter()
            .find(|m| m["name"] == name)
            .cloned()
            .expect(name)
    };
    let hp = metric("own_hp_end");
    assert_eq!(hp["difference"]["significant"], true, "{hp}");
    assert!(
        hp["difference"]["ci95"][0].as_f64().expect("low") > 0.0,
        "{hp}"
    );
    let survival = metric("survival_time");
    assert!(
        survival["difference"]["mean"].as_f64().expect("mean") > 0.0,
        "{survival}"
    );
}

#[test]
fn soccer_b_plays_with_its_own_parameters() {
    // A: the base parameters; B: the simulation location's shared striker choice (issue 32).
    let out = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args(["soccer", "evaluate", "sample/soccer/parameters"])
        .args([
            "--against-location",
            "simulation",
            "--json",
            "--matches",
            "2",
        ])
        .args(["--seconds", "40", "--seed", "3"])
        .args(["--scenario", "sample/soccer/scenarios/kickoff.json5"])
        .current_dir(repo())
        .output()
        .expect("run robot-decision");
    let doc = json_of(&out);
    assert!(
        doc["configs"][1]
            .as_str()
            .is_some_and(|c| c.contains("--location simulation"))
    );
    let difference = |name: &str| {
        doc["metrics"]
            .as_array()
            .expect("metrics")
            .iter()
            .find(|m| m["name"] == name)
            .and_then(|m| m["difference"]["mean"].as_f64())
            .expect(name)
    };
    assert!(difference("role_changes_per_robot_min") < 0.0, "{doc}");
    assert!(difference("one_striker_share") > 0.0, "{doc}");
}
