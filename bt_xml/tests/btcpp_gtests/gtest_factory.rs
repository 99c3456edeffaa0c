//! `tests/gtest_factory.cpp`: the tests that load trees (rejected or accepted) and run them.
//! The tree files of `tests/trees/` are copied into `trees/`. Trees registered from several
//! texts share one document.

use std::path::{Path, PathBuf};

use decision_core::engine::blackboard::{EntryType, ScopeId, Value};

use crate::harness::*;

const XML_TEXT: &str = r#"

<root BTCPP_format="4" >

    <BehaviorTree ID="MainTree">
        <Fallback name="root_selector">

            <Sequence name="door_open_sequence">
                <Action ID="IsDoorOpen" />
                <Action ID="PassThroughDoor" />
            </Sequence>

            <Sequence name="door_closed_sequence">
                <Decorator ID="Inverter">
                     <Action ID="IsDoorOpen" />
                </Decorator>
                <Action ID="OpenDoor" />
                <Action ID="PassThroughDoor" />
                <Action ID="CloseDoor" />
            </Sequence>

            <Action ID="PassThroughWindow" />

        </Fallback>
    </BehaviorTree>

    <!-- TreeNodesModel is used only by the Graphic interface -->
    <TreeNodesModel>
        <Action ID="IsDoorOpen" />
        <Action ID="PassThroughDoor" />
        <Action ID="CloseDoor" />
        <Action ID="OpenDoor" />
        <Action ID="PassThroughWindow" />
    </TreeNodesModel>
</root>
        "#;

const XML_TEXT_SUBTREE: &str = r#"

<root BTCPP_format="4" main_tree_to_execute="MainTree" >

    <BehaviorTree ID="MainTree">
        <Sequence>
            <Fallback>
                <Inverter>
                    <IsDoorClosed/>
                </Inverter>
                <SubTree ID="DoorClosedSubtree"/>
            </Fallback>
            <PassThroughDoor/>
        </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="DoorClosedSubtree">
        <Fallback>
            <OpenDoor/>
            <RetryUntilSuccessful num_attempts="5">
                <PickLock/>
            </RetryUntilSuccessful>
            <SmashDoor/>
        </Fallback>
    </BehaviorTree>

</root>  "#;

/// The sample `CrossDoor` nodes (their behaviour does not matter to these tests).
fn cross_door() -> Bench {
    let mut b = Bench::new();
    for id in [
        "IsDoorClosed",
        "IsDoorOpen",
        "PassThroughDoor",
        "PassThroughWindow",
        "OpenDoor",
        "CloseDoor",
        "PickLock",
        "SmashDoor",
    ] {
        b.constant(id, Success);
    }
    b
}

#[test]
fn behavior_tree_factory_not_registered_node() {
    assert!(Bench::new().try_tree(XML_TEXT).is_err());
    assert!(cross_door().try_tree(XML_TEXT).is_ok());
}

/// The tags of `node` in preorder, a SubTree's expansion included.
fn preorder(node: &bt_xml::XmlNode, out: &mut Vec<String>) {
    out.push(node.tag.clone());
    for c in &node.children {
        preorder(c, out);
    }
}

#[test]
fn behavior_tree_factory_subtree() {
    // `tree.subtrees[0]->nodes` and `[1]->nodes` are the expanded main tree, in preorder.
    let doc = bt_xml::load_str(XML_TEXT_SUBTREE, "tree.xml", Path::new("/gtest")).unwrap();
    let root = doc.expand("MainTree").unwrap();
    let mut tags = Vec::new();
    preorder(&root, &mut tags);
    assert_eq!(
        tags,
        [
            "Sequence",
            "Fallback",
            "Inverter",
            "IsDoorClosed",
            "SubTree",
            "Fallback",
            "OpenDoor",
            "RetryUntilSuccessful",
            "PickLock",
            "SmashDoor",
            "PassThroughDoor",
        ]
    );
    cross_door().tree(XML_TEXT_SUBTREE);
}

#[test]
fn behavior_tree_factory_issue7() {
    Bench::new().load_error(
        r#"
<root BTCPP_format="4">
    <BehaviorTree ID="ReceiveGuest">
    </BehaviorTree>
</root> "#,
    );
}

#[test]
fn behavior_tree_factory_sub_tree_with_remapping() {
    let mut b = Bench::new();
    b.say_something("SaySomething", false);
    let mut t = b.tree(
        r#"

<root BTCPP_format="4" main_tree_to_execute="MainTree">

  <BehaviorTree ID="TalkToMe">
    <Sequence>
      <SaySomething message="{hello_msg}" />
      <SaySomething message="{bye_msg}" />
      <Script code=" output:='done!' " />
    </Sequence>
  </BehaviorTree>

  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code = " talk_hello:='hello' " />
      <Script code = " talk_bye:='bye bye' " />
      <SubTree ID="TalkToMe" hello_msg="{talk_hello}"
                             bye_msg="{talk_bye}"
                             output="{talk_out}" />
      <SaySomething message="{talk_out}" />
    </Sequence>
  </BehaviorTree>

</root> "#,
    );
    t.tick_while_running();
    let talk = ScopeId(1);
    let bb = t.tree.blackboard();
    for key in ["bye_msg", "hello_msg", "output"] {
        assert_eq!(
            bb.get(talk, key).map(Value::entry_type),
            Some(EntryType::Str),
            "{key}"
        );
    }
    assert_eq!(t.get_str("talk_hello"), "hello");
    assert_eq!(t.get_str("talk_bye"), "bye bye");
    assert_eq!(t.get_str("talk_out"), "done!");
    for key in ["talk_hello", "talk_bye", "talk_out"] {
        assert!(!bb.contains(talk, key), "{key}");
    }
}

fn tree_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/btcpp_gtests/trees")
        .join(relative)
}

fn run_file(relative: &str) -> Status {
    match Bench::new().try_file(&tree_file(relative)) {
        Ok(mut t) => t.tick_while_running(),
        Err(e) => panic!("{relative} should load:\n{e}"),
    }
}

#[test]
fn behavior_tree_factory_create_tree_from_file() {
    assert_eq!(run_file("parent_no_include.xml"), Success);
}

#[test]
fn behavior_tree_factory_create_tree_from_file_which_includes_file_from_same_directory() {
    assert_eq!(run_file("child/child_include_sibling.xml"), Success);
}

#[test]
fn behavior_tree_factory_create_tree_from_file_which_includes_file_from_child_directory() {
    assert_eq!(run_file("parent_include_child.xml"), Success);
}

#[test]
fn behavior_tree_factory_create_tree_from_file_which_includes_file_from_child_directory_which_includes_file_from_same_directory()
 {
    assert_eq!(
        run_file("parent_include_child_include_sibling.xml"),
        Success
    );
}

#[test]
fn behavior_tree_factory_create_tree_from_file_which_includes_file_from_child_directory_which_includes_file_from_child_directory()
 {
    assert_eq!(run_file("parent_include_child_include_child.xml"), Success);
}

#[test]
fn behavior_tree_factory_create_tree_from_file_which_includes_file_from_child_directory_which_includes_file_from_parent_directory()
 {
    assert_eq!(run_file("parent_include_child_include_parent.xml"), Success);
}

#[test]
fn behavior_tree_factory_wrong_tree_name() {
    let xml = r#"
  <root BTCPP_format="4" >
    <BehaviorTree ID="MainTree">
      <AlwaysSuccess/>
    </BehaviorTree>
  </root> "#;
    let b = Bench::new();
    assert!(b.try_tree_main(xml, Some("Wrong Name"), |_, _| {}).is_err());
}

#[test]
fn behavior_tree_factory_create_tree_from_text_finds_registered_subtree() {
    let mut t = Bench::new().tree_main(
        r#"
  <root BTCPP_format="4">
    <BehaviorTree ID="MyTree">
      <AlwaysSuccess/>
    </BehaviorTree>
    <BehaviorTree ID="TestTree">
      <SubTree ID="MyTree"/>
    </BehaviorTree>
  </root>"#,
        "TestTree",
    );
    assert_eq!(t.tick_while_running(), Success);
}

#[test]
fn behavior_tree_factory_malformed_xml_invalid_root() {
    Bench::new().load_error("<not valid xml!!!");
}

#[test]
fn behavior_tree_factory_malformed_xml_missing_root_element() {
    Bench::new().load_error(
        r#"
  <something BTCPP_format="4">
    <BehaviorTree ID="Main">
      <AlwaysSuccess/>
    </BehaviorTree>
  </something>"#,
    );
}

#[test]
fn behavior_tree_factory_malformed_xml_empty_behavior_tree() {
    Bench::new().load_error(
        r#"
  <root BTCPP_format="4">
    <BehaviorTree ID="Main">
    </BehaviorTree>
  </root>"#,
    );
}

#[test]
fn behavior_tree_factory_malformed_xml_empty_behavior_tree_id() {
    Bench::new().load_error(
        r#"
  <root BTCPP_format="4">
    <BehaviorTree ID="">
      <AlwaysSuccess/>
    </BehaviorTree>
    <BehaviorTree ID="Other">
      <AlwaysSuccess/>
    </BehaviorTree>
  </root>"#,
    );
}

#[test]
fn behavior_tree_factory_malformed_xml_missing_behavior_tree_id() {
    Bench::new().load_error(
        r#"
  <root BTCPP_format="4">
    <BehaviorTree>
      <AlwaysSuccess/>
    </BehaviorTree>
    <BehaviorTree>
      <AlwaysFailure/>
    </BehaviorTree>
  </root>"#,
    );
}

fn nested(depth: usize) -> String {
    format!(
        r#"<root BTCPP_format="4"><BehaviorTree ID="Main">{}<AlwaysSuccess/>{}</BehaviorTree></root>"#,
        "<Sequence>".repeat(depth),
        "</Sequence>".repeat(depth)
    )
}

#[test]
fn behavior_tree_factory_malformed_xml_deeply_nested_elements() {
    Bench::new().load_error(&nested(300));
}

#[test]
fn behavior_tree_factory_malformed_xml_moderate_nesting_is_ok() {
    Bench::new().tree(&nested(50));
}

#[test]
fn behavior_tree_factory_malformed_xml_multiple_bt_child_elements() {
    Bench::new().load_error(
        r#"
  <root BTCPP_format="4">
    <BehaviorTree ID="Main">
      <AlwaysSuccess/>
      <AlwaysFailure/>
    </BehaviorTree>
  </root>"#,
    );
}

#[test]
fn behavior_tree_factory_malformed_xml_completely_empty() {
    Bench::new().load_error("");
}

#[test]
fn behavior_tree_factory_malformed_xml_empty_root() {
    let b = Bench::new();
    let xml = r#"<root BTCPP_format="4"></root>"#;
    assert!(bt_xml::load_str(xml, "tree.xml", Path::new("/gtest")).is_ok());
    assert!(b.try_tree_main(xml, Some("MainTree"), |_, _| {}).is_err());
}

#[test]
fn behavior_tree_factory_malformed_xml_unknown_node_type() {
    Bench::new().load_error(
        r#"
  <root BTCPP_format="4">
    <BehaviorTree ID="Main">
      <NonExistentNodeType/>
    </BehaviorTree>
  </root>"#,
    );
}
