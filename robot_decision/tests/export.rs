//! `robot-decision export --xml` and `robot-decision nodes`, end to end with the real binary:
//! every sample tree and the sample decisions come back from their BT.CPP XML export as the
//! same tree, and the exported trees decide exactly as the originals.

use decision_core::engine::TreeSpec;
use decision_core::robomaster::{Decider, load, snapshot};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `robot-decision ARGS` in the repository: stdout, stderr, exit code.
fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .current_dir(repo())
        .args(args)
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Exports `input` (relative to the repository) into `dir`; the path of the XML.
fn export(input: &str, dir: &Path) -> PathBuf {
    let name = Path::new(input)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("tree");
    let out = dir.join(format!("{name}.xml"));
    let out_text = out.display().to_string();
    let (stdout, stderr, code) = run(&["export", input, "--xml", "-o", &out_text]);
    assert_eq!(code, 0, "export {input}: {stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    out
}

/// `spec` as the XML loader sees it: every port as its attribute text, no source positions,
/// a label instead of a name (a node named as its type is unnamed in XML), and a SubTree's
/// `ID` its label when the tree file gave none (as JSON5 trees do).
fn normalized(spec: &TreeSpec) -> Value {
    let mut ports: serde_json::Map<String, Value> = spec
        .ports
        .iter()
        .map(|(k, v)| {
            let text = bt_xml::write::attribute_text(v);
            (k.clone(), Value::String(text))
        })
        .collect();
    if spec.kind == "SubTree" && !ports.contains_key("ID") {
        ports.insert("ID".into(), Value::String(spec.label().to_owned()));
    }
    serde_json::json!({
        "type": spec.kind,
        "label": spec.label(),
        "ports": ports,
        "children": spec.children.iter().map(normalized).collect::<Vec<_>>(),
    })
}

fn load_xml(path: &Path) -> TreeSpec {
    match bt_xml::load_tree(path, None) {
        Ok(spec) => spec,
        Err(e) => panic!("{}: {e:?}", path.display()),
    }
}

#[test]
fn every_sample_tree_comes_back_from_its_xml_export() {
    let dir = tempfile::tempdir().expect("temp dir");
    for input in [
        "sample/soccer/behavior_tree.json5",
        "sample/trees/patrol.json5",
        // Includes `booster_style_play.xml`, a file of subtrees without a main tree.
        "sample/soccer/trees/booster_style.xml",
    ] {
        let original = match soccer_profile::tree::load_spec(&repo().join(input)) {
            Ok(spec) => spec,
            Err(e) => panic!("{input}: {e:?}"),
        };
        let exported = load_xml(&export(input, dir.path()));
        assert_eq!(normalized(&exported), normalized(&original), "{input}");
    }
}

#[test]
fn the_sample_decisions_come_back_from_their_xml_export_and_decide_the_same() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xml = export("sample/config.json", dir.path());
    let text = std::fs::read_to_string(&xml).expect("reads the export");
    assert!(text.contains("<weighted_selection"), "{text}");
    assert!(text.contains("<Condition ID=\"hp_above\">"), "{text}");

    let tables = match load::load(&repo().join("sample/config.json")).tables {
        Some(t) => Arc::new(t),
        None => panic!("the sample config loads"),
    };
    let (spec, _) = decision_core::robomaster::tree::decision_tree(&tables);
    let exported = load_xml(&xml);
    assert_eq!(normalized(&exported), normalized(&spec));

    let mut original = Decider::new(Arc::clone(&tables)).expect("compiles");
    let mut from_xml = match Decider::with_spec(tables, &exported) {
        Ok(d) => d,
        Err(e) => panic!("{e:?}"),
    };
    let snapshots =
        std::fs::read_to_string(repo().join("sample/snapshots.jsonl")).expect("snapshots");
    let mut ticks = 0;
    let mut decided = std::collections::BTreeSet::new();
    for line in snapshots.lines().filter(|l| !l.trim().is_empty()) {
        let input = snapshot::parse_line(line).expect("a sample snapshot");
        let a = original.tick(&input);
        let b = from_xml.tick(&input);
        assert_eq!(a, b, "tick {ticks}");
        if let Some(d) = a.decision {
            decided.insert(format!("{d:?}"));
        }
        ticks += 1;
    }
    assert!(ticks >= 10, "{ticks} snapshots");
    assert!(
        decided.len() >= 2,
        "the snapshots exercise several decisions"
    );
}

#[test]
fn the_exported_soccer_trees_play_the_same_matches() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (tree, original_args) in [
        ("sample/soccer/behavior_tree.json5", vec![]),
        (
            "sample/soccer/trees/booster_style.xml",
            vec!["--tree", "sample/soccer/trees/booster_style.xml"],
        ),
    ] {
        let xml = export(tree, dir.path());
        let xml_text = xml.display().to_string();
        let args = ["soccer", "sim", "--json", "--seconds", "20", "--seed", "7"];
        let mut with_original = args.to_vec();
        with_original.extend(original_args);
        let (original, stderr, code) = run(&with_original);
        assert_eq!(code, 0, "{stderr}");
        let mut with_export = args.to_vec();
        with_export.extend(["--tree", &xml_text]);
        let (exported, stderr, code) = run(&with_export);
        assert_eq!(code, 0, "{stderr}");
        assert!(original.lines().count() > 1000, "a real match");
        assert!(
            original == exported,
            "the export of {tree} decides differently"
        );
    }
}

#[test]
fn an_unreadable_or_broken_input_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = dir.path().join("broken.json5");
    std::fs::write(&broken, "{ type: 'Sequence', children: [ { type: 'stand' ").expect("write");
    let broken_text = broken.display().to_string();
    let (stdout, stderr, code) = run(&["export", &broken_text, "--xml"]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(stderr.contains("broken.json5:1:"), "{stderr}");
    let (_, stderr, code) = run(&["export", "sample/soccer/behavior_tree.json5"]);
    assert_eq!(code, 2, "--xml is required: {stderr}");
}

#[test]
fn nodes_lists_every_profile_as_text_json_and_a_groot2_palette() {
    let (text, stderr, code) = run(&["nodes"]);
    assert_eq!(code, 0, "{stderr}");
    for title in ["standard: ", "robomaster: ", "soccer: ", "booster: "] {
        assert!(text.contains(title), "{title}");
    }
    let (json, _, code) = run(&["nodes", "--profile", "robomaster", "--format", "json"]);
    assert_eq!(code, 0);
    let list: Vec<Value> = serde_json::from_str(&json).expect("a JSON list");
    let ids: Vec<&str> = list.iter().filter_map(|k| k["id"].as_str()).collect();
    assert_eq!(
        ids,
        [
            "at_waypoint",
            "base_hp_at_least",
            "enemy_at",
            "friend_at",
            "guards",
            "hp_above",
            "hp_at_most",
            "navigate",
            "outpost_hp_at_least",
            "outpost_hp_at_most",
            "robot_mode_is",
            "time_after",
            "time_until",
            "weighted_rule",
            "weighted_selection"
        ]
    );
    for kind in &list {
        let keys: Vec<&String> = kind.as_object().expect("an object").keys().collect();
        assert_eq!(keys, ["category", "id", "ports"]);
    }
    let (xml, _, code) = run(&["nodes", "--profile", "soccer", "--format", "groot2"]);
    assert_eq!(code, 0);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root BTCPP_format=\"4\">\n  <TreeNodesModel>\n"));
    assert!(xml.contains("    <Action ID=\"stand\"/>\n"), "{xml}");
    // The palette is a BT.CPP document our own loader reads.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("palette.xml");
    std::fs::write(&path, &xml).expect("write");
    assert!(bt_xml::load_file(&path).is_ok());
}
