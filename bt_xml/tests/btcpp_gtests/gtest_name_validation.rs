//! `tests/gtest_name_validation.cpp`. `findForbiddenChar` and `IsAllowedPortName` are
//! `bt_xml::find_forbidden_char` (`None` for C++'s `'\0'` "nothing found") and
//! `bt_xml::is_allowed_port_name`; the XML tests load with the standard library.

use bt_xml::{find_forbidden_char, is_allowed_port_name};

use crate::harness::*;

#[test]
fn name_validation_forbidden_char_detection_valid_names() {
    for name in [
        "ValidName",
        "my_action",
        "My-Action",
        "action123",
        "CamelCaseNode",
        "snake_case_node",
        "kebab-case-node",
    ] {
        assert_eq!(find_forbidden_char(name), None, "{name}");
    }
}

#[test]
fn name_validation_forbidden_char_detection_unicode() {
    for name in [
        "检查门状态",
        "ドアを開ける",
        "Tür_öffnen",
        "проверка",
        "действие",
    ] {
        assert_eq!(find_forbidden_char(name), None, "{name}");
    }
}

#[test]
fn name_validation_forbidden_char_detection_forbidden_chars() {
    for (name, c) in [
        ("My Action", ' '),
        ("with\ttab", '\t'),
        ("with\nnewline", '\n'),
        ("with\rcarriage", '\r'),
        ("My<Node>", '<'),
        ("Node>End", '>'),
        ("A&B", '&'),
        ("say\"hello\"", '"'),
        ("it's", '\''),
        ("path/to/node", '/'),
        ("path\\to\\node", '\\'),
        ("C:drive", ':'),
        ("wild*card", '*'),
        ("what?", '?'),
        ("pipe|char", '|'),
        ("request.name", '.'),
        ("file.ext", '.'),
    ] {
        assert_eq!(find_forbidden_char(name), Some(c), "{name:?}");
    }
}

#[test]
fn name_validation_forbidden_char_detection_control_chars() {
    // C++ returns '\0' both for "found NUL" and for "nothing found"; here NUL is found.
    assert_eq!(find_forbidden_char("test\0name"), Some('\0'));
    assert_eq!(find_forbidden_char("test\x07bell"), Some('\x07'));
    assert_eq!(find_forbidden_char("test\x7Fdel"), Some('\x7F'));
}

#[test]
fn name_validation_is_allowed_port_name_valid() {
    for name in ["input", "output_value", "myPort123", "Port_With_Underscore"] {
        assert!(is_allowed_port_name(name), "{name}");
    }
}

#[test]
fn name_validation_is_allowed_port_name_invalid() {
    for name in [
        "",
        "1port",
        "123",
        "_private",
        "name",
        "ID",
        "_failureIf",
        "_successIf",
        "_skipIf",
        "_while",
        "_onSuccess",
        "_onFailure",
        "_onHalted",
        "_post",
        "_autoremap",
        "port name",
        "port.name",
        "port<T>",
    ] {
        assert!(!is_allowed_port_name(name), "{name:?}");
    }
}

fn loads(xml: &str) -> bool {
    Bench::new().try_tree(xml).is_ok()
}

fn single(id: &str, body: &str) -> String {
    format!(
        r#"
    <root BTCPP_format="4">
      <BehaviorTree ID="{id}">
        {body}
      </BehaviorTree>
    </root>"#
    )
}

#[test]
fn name_validation_xml_test_valid_behavior_tree_id() {
    assert!(loads(&single("MainTree", "<AlwaysSuccess/>")));
}

#[test]
fn name_validation_xml_test_valid_behavior_tree_id_with_underscore() {
    assert!(loads(&single("My_Main_Tree", "<AlwaysSuccess/>")));
}

#[test]
fn name_validation_xml_test_invalid_behavior_tree_id_root() {
    assert!(!loads(&single("Root", "<AlwaysSuccess/>")));
}

#[test]
fn name_validation_xml_test_invalid_behavior_tree_id_root_lowercase() {
    assert!(!loads(&single("root", "<AlwaysSuccess/>")));
}

#[test]
fn name_validation_xml_test_invalid_behavior_tree_id_with_space() {
    assert!(!loads(&single("Main Tree", "<AlwaysSuccess/>")));
}

#[test]
fn name_validation_xml_test_invalid_behavior_tree_id_with_period() {
    assert!(!loads(&single("Main.Tree", "<AlwaysSuccess/>")));
}

#[test]
fn name_validation_xml_test_valid_instance_name() {
    assert!(loads(&single(
        "MainTree",
        r#"<AlwaysSuccess name="my_success_node"/>"#
    )));
}

#[test]
fn name_validation_xml_test_valid_instance_name_with_space() {
    assert!(loads(&single(
        "MainTree",
        r#"<AlwaysSuccess name="my success node"/>"#
    )));
}

#[test]
fn name_validation_xml_test_valid_instance_name_with_period() {
    assert!(loads(&single(
        "MainTree",
        r#"<AlwaysSuccess name="node.name"/>"#
    )));
}

fn with_subtree(id: &str) -> String {
    format!(
        r#"
    <root BTCPP_format="4" main_tree_to_execute="MainTree">
      <BehaviorTree ID="MainTree">
        <SubTree ID="{id}"/>
      </BehaviorTree>
      <BehaviorTree ID="{id}">
        <AlwaysSuccess/>
      </BehaviorTree>
    </root>"#
    )
}

#[test]
fn name_validation_xml_test_valid_sub_tree_id() {
    assert!(loads(&with_subtree("SubTree1")));
}

#[test]
fn name_validation_xml_test_invalid_sub_tree_id_with_space() {
    assert!(!loads(&with_subtree("Sub Tree")));
}

#[test]
fn name_validation_xml_test_unicode_tree_id_chinese() {
    assert!(loads(&single("检查门", "<AlwaysSuccess/>")));
}

#[test]
fn name_validation_xml_test_unicode_instance_name_japanese() {
    assert!(loads(&single(
        "MainTree",
        r#"<AlwaysSuccess name="成功ノード"/>"#
    )));
}

#[test]
fn name_validation_xml_test_unicode_tree_id_german() {
    assert!(loads(&single("Türöffner", "<AlwaysSuccess/>")));
}

#[test]
fn name_validation_xml_test_valid_sub_tree_port_name() {
    assert!(loads(
        r#"
    <root BTCPP_format="4" main_tree_to_execute="MainTree">
      <BehaviorTree ID="MainTree">
        <SubTree ID="MySubTree" input_value="{value}"/>
      </BehaviorTree>
      <BehaviorTree ID="MySubTree">
        <AlwaysSuccess/>
      </BehaviorTree>
      <TreeNodesModel>
        <SubTree ID="MySubTree">
          <input_port name="input_value"/>
        </SubTree>
      </TreeNodesModel>
    </root>"#
    ));
}

fn model_port(name: &str) -> String {
    format!(
        r#"
    <root BTCPP_format="4" main_tree_to_execute="MainTree">
      <BehaviorTree ID="MainTree">
        <AlwaysSuccess/>
      </BehaviorTree>
      <TreeNodesModel>
        <SubTree ID="MySubTree">
          <input_port name="{name}"/>
        </SubTree>
      </TreeNodesModel>
    </root>"#
    )
}

#[test]
fn name_validation_xml_test_invalid_sub_tree_port_name_with_space() {
    assert!(!loads(&model_port("input value")));
}

#[test]
fn name_validation_xml_test_invalid_sub_tree_port_name_reserved() {
    assert!(!loads(&model_port("ID")));
}

#[test]
fn name_validation_xml_test_invalid_sub_tree_port_name_starts_with_digit() {
    assert!(!loads(&model_port("1port")));
}
