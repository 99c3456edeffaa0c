//! Loading valid files: includes, normalisation, tinyxml2 leniency, positions.

mod common;

use bt_xml::{Position, XmlNode};
use common::{fixture, load_ok};

fn tags(n: &XmlNode) -> Vec<&str> {
    n.children.iter().map(|c| c.tag.as_str()).collect()
}

#[test]
fn explicit_forms_are_normalised_and_models_ignored() {
    let doc = load_ok("simple.xml");
    assert_eq!(doc.format.as_deref(), Some("4"));
    assert_eq!(doc.main_tree, None);
    let ids: Vec<&str> = doc.trees.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["MainTree", "Other"]);
    let root = &doc.trees[0].root;
    assert_eq!(root.tag, "Sequence");
    assert_eq!(
        tags(root),
        [
            "CheckKey", "Work", "IsReady", "Inverter", "Fallback", "SubTree"
        ]
    );
    let work = &root.children[1];
    let names: Vec<&str> = work.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["ticks", "name"], "ID is dropped, order kept");
    assert_eq!(work.attribute("ticks"), Some("3"));
    assert!(root.children[2].attributes.is_empty());
    assert_eq!(tags(&root.children[3]), ["Noop"]);
    assert_eq!(tags(&root.children[4]), ["Noop", "Noop"]);
    let sub = &root.children[5];
    assert_eq!(sub.attribute("ID"), Some("Other"));
    assert_eq!(sub.attribute("_autoremap"), Some("true"));
}

#[test]
fn positions_of_elements_and_attributes() {
    let doc = load_ok("simple.xml");
    let file = fixture("simple.xml");
    let at = |line, column| Position {
        file: file.clone(),
        line,
        column,
    };
    let tree = &doc.trees[0];
    assert_eq!(tree.position, at(8, 3));
    assert_eq!(tree.root.position, at(9, 5));
    assert_eq!(tree.root.attributes[0].position, at(9, 15));
    let check = &tree.root.children[0];
    assert_eq!(check.position, at(11, 7));
    assert_eq!(check.attributes[0].position, at(11, 17));
    assert_eq!(check.attributes[1].position, at(11, 25));
    let work = &tree.root.children[1];
    assert_eq!(work.attributes[0].position, at(12, 25));
    assert_eq!(work.attributes[1].position, at(12, 35));
    assert_eq!(doc.trees[1].position, at(19, 3));
}

#[test]
fn nested_repeated_and_diamond_includes_load_once() {
    let doc = load_ok("includes/main.xml");
    let ids: Vec<&str> = doc.trees.iter().map(|t| t.id.as_str()).collect();
    // Includes first (recursively), then the including file's own trees, as BT.CPP does.
    assert_eq!(ids, ["Shared", "Left", "Nested", "Right", "Main"]);
    let files: Vec<_> = doc.files.iter().map(|f| f.to_path_buf()).collect();
    assert_eq!(
        files,
        [
            fixture("includes/main.xml"),
            fixture("includes/left.xml"),
            fixture("includes/shared.xml"),
            fixture("includes/sub/right.xml"),
            fixture("includes/sub/nested.xml"),
        ]
    );
    assert_eq!(doc.main_tree.as_deref(), Some("Main"));
    assert_eq!(doc.format.as_deref(), Some("4"));
    let nested = doc.tree("Nested").map(|t| t.root.position.clone());
    assert_eq!(
        nested,
        Some(Position {
            file: fixture("includes/sub/nested.xml"),
            line: 3,
            column: 5
        })
    );
}

#[test]
fn raw_ampersands_are_kept() {
    let doc = load_ok("ampersand.xml");
    let seq = &doc.trees[0].root;
    assert_eq!(seq.attribute("_skipIf"), Some("a && b"));
    assert_eq!(seq.attribute("code"), Some("x && y"));
    let noop = &seq.children[2];
    // tinyxml2 keeps newlines and tabs in attribute values (strict XML would make them spaces).
    assert_eq!(noop.attribute("multi"), Some("line one\n\tline two"));
    // Positions after a rewritten value still refer to the original text.
    assert_eq!(seq.attributes[1].position.column, 32);
    assert_eq!(noop.attributes[1].position.line, 7);
    assert_eq!(noop.attributes[1].position.column, 12);
}

#[test]
fn raw_less_than_signs_are_kept_as_tinyxml2_does() {
    let doc = load_ok("lt_in_attribute.xml");
    let seq = &doc.trees[0].root;
    assert_eq!(seq.attribute("_skipIf"), Some("A<2"));
    assert_eq!(seq.children[0].attribute("code"), Some("x < 3 && y <= 4"));
    // Positions after a rewritten value still refer to the original text.
    assert_eq!(seq.attributes[1].position.line, 3);
    assert_eq!(seq.attributes[1].position.column, 29);
    assert_eq!(seq.children[0].attributes[1].position.column, 38);
}

#[test]
fn tinyxml2_quirk_after_an_entity() {
    let doc = load_ok("ampersand.xml");
    let seq = &doc.trees[0].root;
    let first = &seq.children[0];
    // `&lt;` shortens the text by 3 bytes; each later raw `&` then leaves the stale byte
    // 3 places back ("x &lt;= y && z": the two `&` become " " and "y").
    assert_eq!(first.attribute("code"), Some("x <= y  y z"));
    assert_eq!(first.attribute("other"), Some("AB6foo;"));
    let second = &seq.children[1];
    assert_eq!(second.attribute("code"), Some("p && q > r  r s"));
    assert_eq!(second.attribute("more"), Some("first<l"));
    assert_eq!(second.attributes[1].position.column, 41);
}

#[test]
fn load_str_resolves_includes_against_base_dir() {
    let text = r#"<root BTCPP_format="4" main_tree_to_execute="M">
  <include path="includes/sub/nested.xml"/>
  <BehaviorTree ID="M"><SubTree ID="Nested"/></BehaviorTree>
</root>"#;
    let base = fixture("");
    let doc = bt_xml::load_str(text, "inline.xml", &base);
    let doc = doc.unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(doc.files[0], std::path::PathBuf::from("inline.xml"));
    assert_eq!(doc.trees.len(), 2);
    assert_eq!(doc.main_tree_id(None), Ok("M"));
    assert_eq!(doc.trees[1].root.position.file.as_os_str(), "inline.xml");
}

#[test]
fn absolute_include_paths_and_one_file_under_two_names() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        sub.join("x.xml"),
        r#"<root BTCPP_format="4"><BehaviorTree ID="X"><Noop/></BehaviorTree></root>"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let main = format!(
        r#"<root BTCPP_format="4">
  <include path="{}"/>
  <include path="sub/../sub/x.xml"/>
  <BehaviorTree ID="Main"><SubTree ID="X"/></BehaviorTree>
</root>"#,
        sub.join("x.xml").display()
    );
    let main_path = dir.path().join("main.xml");
    std::fs::write(&main_path, main).unwrap_or_else(|e| panic!("{e}"));
    let doc = bt_xml::load_file(&main_path).unwrap_or_else(|d| panic!("{d:#?}"));
    let ids: Vec<&str> = doc.trees.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["X", "Main"]);
    assert_eq!(doc.files, [main_path, sub.join("x.xml")]);
}

#[test]
fn sole_unnamed_tree_gets_btcpp_name() {
    let doc = bt_xml::load_str(
        "<root BTCPP_format=\"4\"><BehaviorTree><Noop/></BehaviorTree></root>",
        "anon.xml",
        std::path::Path::new("."),
    )
    .unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(doc.trees[0].id, "BehaviorTree_0");
    assert_eq!(doc.main_tree_id(None), Ok("BehaviorTree_0"));
}

#[test]
fn document_serializes() {
    fn is_serialize<T: serde::Serialize>(_: &T) {}
    is_serialize(&load_ok("simple.xml"));
}
