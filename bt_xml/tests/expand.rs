//! Main tree selection and SubTree expansion.

mod common;

use bt_xml::XmlNode;
use common::{assert_diag, fixture, load_ok};

fn shape(n: &XmlNode) -> String {
    if n.children.is_empty() {
        n.tag.clone()
    } else {
        let kids: Vec<String> = n.children.iter().map(shape).collect();
        format!("{}({})", n.tag, kids.join(","))
    }
}

#[test]
fn main_tree_from_main_tree_to_execute() {
    let doc = load_ok("includes/main.xml");
    assert_eq!(doc.main_tree_id(None), Ok("Main"));
    assert_eq!(doc.main_tree_id(Some("Left")), Ok("Left"));
}

#[test]
fn main_tree_explicit_only_and_ambiguous() {
    let doc = load_ok("simple.xml");
    assert_eq!(doc.main_tree_id(Some("Other")), Ok("Other"));
    assert_eq!(
        doc.main_tree_id(None),
        Err(
            "several BehaviorTrees and no main_tree_to_execute: choose one of \"MainTree\", \"Other\""
                .to_string()
        )
    );
    assert_eq!(
        doc.main_tree_id(Some("MainTre")),
        Err(
            "no BehaviorTree with ID \"MainTre\"; did you mean \"MainTree\"?; the trees are: \"MainTree\", \"Other\""
                .to_string()
        )
    );
    let only = load_ok("includes/sub/nested.xml");
    assert_eq!(only.main_tree_id(None), Ok("Nested"));
}

#[test]
fn main_tree_to_execute_naming_nothing() {
    let doc = bt_xml::load_str(
        r#"<root BTCPP_format="4" main_tree_to_execute="Nope"><BehaviorTree ID="A"><Noop/></BehaviorTree></root>"#,
        "m.xml",
        std::path::Path::new("."),
    )
    .unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(
        doc.main_tree_id(None),
        Err(
            "main_tree_to_execute=\"Nope\" names no BehaviorTree; the trees are: \"A\"".to_string()
        )
    );
}

#[test]
fn subtrees_are_inlined() {
    let doc = load_ok("includes/main.xml");
    let tree = doc.expand("Main").unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(
        shape(&tree),
        "Sequence(SubTree(Sequence(SubTree(Noop),Noop)),SubTree(Fallback(SubTree(AlwaysFailure),SubTree(Noop))))"
    );
    assert_eq!(tree.node_count(), 12);
    let left = &tree.children[0];
    assert_eq!(left.attribute("ID"), Some("Left"));
    // The inlined root keeps its own position (in the included file).
    assert_eq!(left.children[0].position.file, fixture("includes/left.xml"));
    assert_eq!(left.children[0].position.line, 4);
}

#[test]
fn unknown_subtree_with_suggestion() {
    let doc = load_ok("subtrees.xml");
    let d = doc.expand("Main").err().unwrap_or_default();
    let f = fixture("subtrees.xml");
    assert_eq!(d.len(), 2, "{d:#?}");
    assert_diag(
        &d[0],
        &f,
        5,
        7,
        "unknown SubTree ID \"Stirker\"; did you mean \"Striker\"?",
    );
    assert_diag(
        &d[1],
        &f,
        6,
        7,
        "unknown SubTree ID \"Completely_Different\"",
    );
    assert!(doc.expand("Striker").is_ok());
}

#[test]
fn recursive_subtrees_are_errors() {
    let doc = load_ok("subtrees.xml");
    let f = fixture("subtrees.xml");
    let d = doc.expand("Loop").err().unwrap_or_default();
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_diag(&d[0], &f, 13, 5, "recursive SubTree: Loop -> Loop");
    let d = doc.expand("Ping").err().unwrap_or_default();
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_diag(&d[0], &f, 19, 22, "recursive SubTree: Ping -> Pong -> Ping");
}

#[test]
fn expanding_an_unknown_tree() {
    let doc = load_ok("subtrees.xml");
    // `Pnog` is one swap from `Pong`, two edits from `Ping`.
    let d = doc.expand("Pnog").err().unwrap_or_default();
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_diag(
        &d[0],
        &f(),
        1,
        1,
        "no BehaviorTree with ID \"Pnog\"; did you mean \"Pong\"?; the trees are: \"Main\", \"Striker\", \"Loop\", \"Ping\", \"Pong\"",
    );
    fn f() -> std::path::PathBuf {
        fixture("subtrees.xml")
    }
}

#[test]
fn exponential_expansion_is_bounded() {
    // T0 uses T1 twice, T1 uses T2 twice, ...: 2^25 leaves would not fit in memory.
    let mut text = String::from("<root BTCPP_format=\"4\" main_tree_to_execute=\"T0\">\n");
    for i in 0..25 {
        text.push_str(&format!(
            "<BehaviorTree ID=\"T{i}\"><Sequence><SubTree ID=\"T{n}\"/><SubTree ID=\"T{n}\"/></Sequence></BehaviorTree>\n",
            n = i + 1
        ));
    }
    text.push_str("<BehaviorTree ID=\"T25\"><Noop/></BehaviorTree>\n</root>\n");
    let doc = bt_xml::load_str(&text, "big.xml", std::path::Path::new("."))
        .unwrap_or_else(|d| panic!("{d:#?}"));
    let d = doc.expand("T0").err().unwrap_or_default();
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(
        d[0].message.starts_with("the expanded tree is too large"),
        "{}",
        d[0].message
    );
}
