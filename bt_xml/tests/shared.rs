//! Loads the project's shared sample trees, when `../shared` exists next to the repository root
//! (each test returns early otherwise).

use std::path::{Path, PathBuf};

fn shared(rel: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if !root.is_dir() {
        eprintln!("skipped: no ../shared next to the repository");
        return None;
    }
    Some(root.join(rel))
}

fn load(path: &Path) -> bt_xml::Document {
    bt_xml::load_file(path).unwrap_or_else(|d| {
        let lines: Vec<String> = d.iter().map(ToString::to_string).collect();
        panic!("{}", lines.join("\n"))
    })
}

#[test]
fn shared_bench_trees_load_and_expand() {
    let cases = [
        ("bench/bt/game_like.xml", "Game", 53),
        ("bench/bt/game_like_while.xml", "Game", 47),
        ("bench/bt/deep.xml", "Deep", 201),
        ("bench/bt/wide_fallback.xml", "WideFallback", 3001),
    ];
    for (rel, main, nodes) in cases {
        let Some(path) = shared(rel) else { return };
        let doc = load(&path);
        assert_eq!(doc.format.as_deref(), Some("4"), "{rel}");
        assert_eq!(doc.main_tree_id(None), Ok(main), "{rel}");
        let tree = doc.expand(main).unwrap_or_else(|d| panic!("{rel}: {d:#?}"));
        assert_eq!(tree.node_count(), nodes, "{rel}");
    }
}

#[test]
fn shared_game_like_has_three_trees() {
    let Some(path) = shared("bench/bt/game_like.xml") else {
        return;
    };
    let doc = load(&path);
    let ids: Vec<&str> = doc.trees.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["Game", "StrikerPlay", "GoalkeeperPlay"]);
}

#[test]
fn shared_booster_game_loads_with_its_includes() {
    let Some(path) = shared("original_sample/booster_game.xml") else {
        return;
    };
    let doc = load(&path);
    assert_eq!(doc.files.len(), 9, "{:#?}", doc.files);
    let ids: Vec<&str> = doc.trees.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "CamFindAndTrackBall",
            "FindBall",
            "Locate",
            "StrikerPlay",
            "GoalKeeperPlay",
            "StrikerFreekick",
            "GoalKeeperFreekick",
            "AutoGetUpAndLocate",
            "MainTree"
        ]
    );
    // No main_tree_to_execute and nine trees: BT.CPP also needs the ID given explicitly.
    assert!(doc.main_tree_id(None).is_err());
    assert_eq!(doc.main_tree_id(Some("MainTree")), Ok("MainTree"));
    let tree = doc.expand("MainTree").unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(tree.node_count(), 332);
    // A raw `&&` in `_while` loads as written (line 27 of the sample).
    let main = doc.tree("MainTree").map(|t| &t.root);
    let guarded = main.and_then(|root| find(root, "control_state==3 && (!go_manual)"));
    let position = guarded.map(|a| (a.position.line, a.position.column));
    assert_eq!(position, Some((27, 31)));
}

fn find<'a>(node: &'a bt_xml::XmlNode, value: &str) -> Option<&'a bt_xml::Attribute> {
    node.attributes
        .iter()
        .find(|a| a.value == value)
        .or_else(|| node.children.iter().find_map(|c| find(c, value)))
}
