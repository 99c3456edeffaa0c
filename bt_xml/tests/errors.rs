//! Files that must not load: every diagnostic's file, line, column and message.

mod common;

use common::{assert_diag, fixture, load_err};

#[test]
fn include_cycle_is_an_error() {
    let d = load_err("cycle/a.xml");
    assert_eq!(d.len(), 1, "{d:#?}");
    let a = fixture("cycle/a.xml");
    let b = fixture("cycle/b.xml");
    let msg = format!(
        "include cycle: {} -> {} -> {}",
        a.display(),
        b.display(),
        a.display()
    );
    assert_diag(&d[0], &b, 3, 5, &msg);
}

#[test]
fn self_include_is_a_cycle() {
    let d = load_err("cycle/self.xml");
    let f = fixture("cycle/self.xml");
    let msg = format!("include cycle: {} -> {}", f.display(), f.display());
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_diag(&d[0], &f, 2, 3, &msg);
}

#[test]
fn missing_include_ros_pkg_and_no_path() {
    let d = load_err("missing_include.xml");
    let f = fixture("missing_include.xml");
    assert_eq!(d.len(), 3, "{d:#?}");
    let missing = format!(
        "cannot open the included file \"does_not_exist.xml\" ({}): ",
        fixture("does_not_exist.xml").display()
    );
    assert_eq!((d[0].position.line, d[0].position.column), (3, 3));
    assert_eq!(d[0].position.file, f);
    assert!(d[0].message.starts_with(&missing), "{}", d[0].message);
    assert_diag(
        &d[1],
        &f,
        4,
        12,
        "<include ros_pkg=...> is not supported; use a path relative to this file",
    );
    assert_diag(&d[2], &f, 5, 3, "<include> needs the attribute path");
}

#[test]
fn duplicate_tree_ids_point_at_the_second() {
    let d = load_err("duplicate/main.xml");
    let main = fixture("duplicate/main.xml");
    assert_eq!(d.len(), 2, "{d:#?}");
    let first = format!("{}:2:3", fixture("duplicate/other.xml").display());
    assert_diag(
        &d[0],
        &main,
        4,
        3,
        &format!("duplicate BehaviorTree ID \"Twice\" (first defined at {first})"),
    );
    let first = format!("{}:3:3", main.display());
    assert_diag(
        &d[1],
        &main,
        5,
        3,
        &format!("duplicate BehaviorTree ID \"Unique\" (first defined at {first})"),
    );
}

#[test]
fn behavior_tree_children_reserved_id_and_missing_id() {
    let d = load_err("bt_children.xml");
    let f = fixture("bt_children.xml");
    assert_eq!(d.len(), 4, "{d:#?}");
    assert_diag(
        &d[0],
        &f,
        2,
        3,
        "<BehaviorTree ID=\"Empty\"> must have exactly 1 child element, found 0",
    );
    assert_diag(
        &d[1],
        &f,
        4,
        3,
        "<BehaviorTree ID=\"Two\"> must have exactly 1 child element, found 2",
    );
    assert_diag(&d[2], &f, 8, 17, "the BehaviorTree ID \"Root\" is reserved");
    assert_diag(
        &d[3],
        &f,
        9,
        3,
        "<BehaviorTree> needs the attribute ID when its file defines several trees",
    );
}

#[test]
fn text_inside_elements_is_an_error() {
    let d = load_err("text_content.xml");
    assert_eq!(d.len(), 1, "{d:#?}");
    let f = fixture("text_content.xml");
    assert_diag(
        &d[0],
        &f,
        4,
        17,
        "unexpected text \"stray words\" inside <Sequence>",
    );
}

#[test]
fn bad_format_and_wrong_root() {
    let d = load_err("bad_format.xml");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_diag(
        &d[0],
        &fixture("bad_format.xml"),
        2,
        7,
        "unsupported BTCPP_format=\"5\" (expected \"4\" or \"3\")",
    );
    let d = load_err("not_root.xml");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_diag(
        &d[0],
        &fixture("not_root.xml"),
        2,
        1,
        "the root element must be <root>, found <tree>",
    );
}

#[test]
fn explicit_forms_are_checked() {
    let d = load_err("explicit_errors.xml");
    let f = fixture("explicit_errors.xml");
    assert_eq!(d.len(), 5, "{d:#?}");
    assert_diag(&d[0], &f, 4, 7, "<Action> needs a non-empty attribute ID");
    assert_diag(
        &d[1],
        &f,
        5,
        7,
        "<Condition ID=\"C\"> must not have any child, found 1",
    );
    assert_diag(
        &d[2],
        &f,
        6,
        7,
        "<Decorator ID=\"D\"> must have exactly 1 child, found 0",
    );
    assert_diag(
        &d[3],
        &f,
        7,
        7,
        "<Control ID=\"Fallback\"> must have at least 1 child, found 0",
    );
    assert_diag(
        &d[4],
        &f,
        8,
        7,
        "<SubTree> must not have child elements (its tree is named by ID)",
    );
}

#[track_caller]
fn syntax(name: &str, line: u32, column: u32, message: &str) {
    let d = load_err(name);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_diag(&d[0], &fixture(name), line, column, message);
}

#[test]
fn syntax_error_mismatched_close_tag() {
    syntax(
        "syntax/unclosed.xml",
        5,
        3,
        "XML syntax error: expected 'Sequence' tag, not 'BehaviorTree'",
    );
}

#[test]
fn syntax_error_unexpected_end_points_at_the_end() {
    syntax(
        "syntax/eof.xml",
        5,
        1,
        "XML syntax error: the root node was opened but never closed",
    );
}

#[test]
fn syntax_error_after_a_rewritten_value_keeps_the_column() {
    syntax(
        "syntax/duplicate_attribute.xml",
        3,
        38,
        "XML syntax error: attribute 'code' is already defined",
    );
}

#[test]
fn syntax_error_unquoted_value() {
    syntax(
        "syntax/unquoted.xml",
        4,
        13,
        "XML syntax error: expected a quote not 'x'",
    );
}

#[test]
fn syntax_error_after_a_multiline_value_keeps_the_line() {
    syntax(
        "syntax/after_multiline_value.xml",
        5,
        11,
        "XML syntax error: expected 'Noop' tag, not 'Nop'",
    );
}

#[test]
fn syntax_error_empty_file() {
    syntax(
        "syntax/empty.xml",
        1,
        1,
        "XML syntax error: the document does not have a root node",
    );
}

#[test]
fn invalid_utf8_is_located() {
    syntax("syntax/latin1.xml", 2, 39, "the file is not valid UTF-8");
}

#[test]
fn missing_main_file() {
    let d = load_err("no_such_file.xml");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].position.file, fixture("no_such_file.xml"));
    assert_eq!((d[0].position.line, d[0].position.column), (1, 1));
    assert!(
        d[0].message.starts_with("cannot read the file: "),
        "{}",
        d[0].message
    );
}

#[test]
fn errors_in_included_files_are_located_there() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.path().join("broken.xml"),
        "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"B\"><Noop></BehaviorTree>\n</root>\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let text = "<root BTCPP_format=\"4\">\n<include path=\"broken.xml\"/>\n<BehaviorTree ID=\"A\"/>\n</root>";
    let d = match bt_xml::load_str(text, "main.xml", dir.path()) {
        Ok(doc) => panic!("{doc:#?}"),
        Err(d) => d,
    };
    assert_eq!(d.len(), 2, "{d:#?}");
    assert_diag(
        &d[0],
        &dir.path().join("broken.xml"),
        2,
        30,
        "XML syntax error: expected 'Noop' tag, not 'BehaviorTree'",
    );
    assert_diag(
        &d[1],
        std::path::Path::new("main.xml"),
        3,
        1,
        "<BehaviorTree ID=\"A\"> must have exactly 1 child element, found 0",
    );
}

#[test]
fn diagnostics_display_like_a_compiler() {
    let d = load_err("bad_format.xml");
    assert_eq!(
        d[0].to_string(),
        format!(
            "{}:2:7: error: unsupported BTCPP_format=\"5\" (expected \"4\" or \"3\")",
            fixture("bad_format.xml").display()
        )
    );
}
