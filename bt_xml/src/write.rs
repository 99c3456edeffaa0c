//! From the engine's [`TreeSpec`] and node models back to BehaviorTree.CPP 4 XML: a tree as a
//! document that BT.CPP (and this crate's loader) runs, and a `<TreeNodesModel>` palette that
//! Groot2 imports.
//!
//! A spec's ports become attributes: strings as they are, numbers and booleans in their JSON
//! text, a list of integers as BT.CPP writes a vector (`1;2;3`). A `SubTree` node becomes a
//! `<SubTree ID=".."/>` reference and its (inlined) child a `<BehaviorTree>` of that ID,
//! written once per ID.

use decision_core::engine::blackboard::EntryType;
use decision_core::engine::{Category, NodeModel, PortDecl, PortDirection, TreeSpec};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The ID of the exported main tree.
pub const EXPORTED_MAIN_TREE: &str = "MainTree";

/// A node kind as the palette lists it: its id and model.
pub type KindModel = (String, NodeModel);

/// A whole document: `spec` as the main tree (its SubTrees as trees of their own), then the
/// models of `kinds` (the non-standard kinds it uses); `root_attributes` go on `<root>` after
/// the format and the main tree (a profile's own, such as `brain`).
pub fn tree_document(
    spec: &TreeSpec,
    kinds: &[KindModel],
    root_attributes: &[(&str, &str)],
) -> String {
    let mut trees: BTreeMap<String, String> = BTreeMap::new();
    let mut main = String::new();
    write_node(spec, 2, &mut main, &mut trees);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = write!(
        out,
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"{EXPORTED_MAIN_TREE}\""
    );
    for (name, value) in root_attributes {
        let _ = write!(out, " {name}=\"{}\"", escape(value));
    }
    out.push_str(">\n");
    let _ = writeln!(out, "  <BehaviorTree ID=\"{EXPORTED_MAIN_TREE}\">");
    out.push_str(&main);
    out.push_str("  </BehaviorTree>\n");
    for (id, body) in &trees {
        let _ = writeln!(out, "  <BehaviorTree ID=\"{}\">", escape(id));
        out.push_str(body);
        out.push_str("  </BehaviorTree>\n");
    }
    if !kinds.is_empty() {
        write_models(kinds, 1, &mut out);
    }
    out.push_str("</root>\n");
    out
}

/// A document holding only the `<TreeNodesModel>` of `kinds` (what Groot2 imports as a
/// palette).
pub fn models_document(kinds: &[KindModel]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<root BTCPP_format=\"4\">\n");
    write_models(kinds, 1, &mut out);
    out.push_str("</root>\n");
    out
}

/// The XML element of a category (`Action`, `Condition`, `Control`, `Decorator`, `SubTree`).
pub fn category_element(category: Category) -> &'static str {
    match category {
        Category::Action => "Action",
        Category::Condition => "Condition",
        Category::Control => "Control",
        Category::Decorator => "Decorator",
        Category::SubTree => "SubTree",
    }
}

/// The C++ type name BT.CPP writes for a port type (`None`: any type).
pub fn cpp_type(ty: EntryType) -> Option<&'static str> {
    match ty {
        EntryType::Any => None,
        EntryType::Int => Some("int"),
        EntryType::Double => Some("double"),
        EntryType::Bool => Some("bool"),
        EntryType::Str => Some("std::string"),
    }
}

/// The element of a port's direction.
fn port_element(direction: PortDirection) -> &'static str {
    match direction {
        PortDirection::Input => "input_port",
        PortDirection::Output => "output_port",
        PortDirection::InOut => "inout_port",
    }
}

/// Writes `<TreeNodesModel>` of `kinds` at `depth` (two spaces per level).
fn write_models(kinds: &[KindModel], depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let _ = writeln!(out, "{pad}<TreeNodesModel>");
    for (id, model) in kinds {
        let element = category_element(model.category);
        if model.ports.is_empty() {
            let _ = writeln!(out, "{pad}  <{element} ID=\"{}\"/>", escape(id));
            continue;
        }
        let _ = writeln!(out, "{pad}  <{element} ID=\"{}\">", escape(id));
        for port in &model.ports {
            let tag = port_element(port.direction);
            let _ = write!(out, "{pad}    <{tag} name=\"{}\"", escape(port.name));
            if let Some(ty) = cpp_type(port.ty) {
                let _ = write!(out, " type=\"{ty}\"");
            }
            if let Some(default) = port.default {
                let _ = write!(out, " default=\"{}\"", escape(default));
            }
            let description = port_description(port);
            if description.is_empty() {
                out.push_str("/>\n");
            } else {
                let _ = writeln!(out, ">{}</{tag}>", escape(&description));
            }
        }
        let _ = writeln!(out, "{pad}  </{element}>");
    }
    let _ = writeln!(out, "{pad}</TreeNodesModel>");
}

/// A port's description with its choices and its range, if it has them.
pub fn port_description(port: &PortDecl) -> String {
    let mut out = port.description.to_owned();
    let mut add = |text: String| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("({text})"));
    };
    if !port.choices.is_empty() {
        add(format!("one of: {}", port.choices.join(", ")));
    }
    if let Some(rule) = port.minimum_text() {
        add(rule);
    }
    out
}

/// Writes `spec` at `depth`; a SubTree's child goes to `trees` under its ID.
fn write_node(
    spec: &TreeSpec,
    depth: usize,
    out: &mut String,
    trees: &mut BTreeMap<String, String>,
) {
    let pad = "  ".repeat(depth);
    let _ = write!(out, "{pad}<{}", spec.kind);
    let subtree_id = (spec.kind == "SubTree").then(|| subtree_id(spec));
    if let Some(id) = &subtree_id {
        let _ = write!(out, " ID=\"{}\"", escape(id));
        // An unnamed SubTree is labelled with its ID; writing that label back as a `name`
        // would make two unnamed instances one duplicate path.
        if !spec.name.is_empty() && spec.name != *id {
            let _ = write!(out, " name=\"{}\"", escape(&spec.name));
        }
    } else if !spec.name.is_empty() && spec.name != spec.kind {
        let _ = write!(out, " name=\"{}\"", escape(&spec.name));
    }
    for (key, value) in &spec.ports {
        if subtree_id.is_some() && key == "ID" {
            continue;
        }
        let _ = write!(out, " {key}=\"{}\"", escape(&attribute_text(value)));
    }
    match (&subtree_id, spec.children.as_slice()) {
        (Some(id), children) => {
            out.push_str("/>\n");
            if !trees.contains_key(id) {
                // Reserve the ID first: a tree that (wrongly) contains itself ends here.
                trees.insert(id.clone(), String::new());
                let mut body = String::new();
                for child in children {
                    write_node(child, 2, &mut body, trees);
                }
                trees.insert(id.clone(), body);
            }
        }
        (None, []) => out.push_str("/>\n"),
        (None, children) => {
            out.push_str(">\n");
            for child in children {
                write_node(child, depth + 1, out, trees);
            }
            let _ = writeln!(out, "{pad}</{}>", spec.kind);
        }
    }
}

/// The tree ID of a SubTree spec: its `ID` port, else its label.
fn subtree_id(spec: &TreeSpec) -> String {
    match spec.ports.get("ID").and_then(|v| v.as_str()) {
        Some(id) => id.to_owned(),
        None => spec.label().to_owned(),
    }
}

/// A port value as attribute text: strings as they are, numbers and booleans in their JSON
/// text, a list of integers joined by `;` (BT.CPP's vector form), anything else as JSON.
pub fn attribute_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) if items.iter().all(|v| v.as_i64().is_some()) => items
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(";"),
        other => other.to_string(),
    }
}

/// `text` escaped for an attribute value or element text (`&`, `<`, `>`, `"`, and line
/// breaks and tabs as character references, so that scripts keep them).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use decision_core::engine::Children;
    use serde_json::json;

    #[test]
    fn a_tree_is_written_as_btcpp_xml_with_its_subtrees_once() {
        let inner = TreeSpec::new("Sequence").with_children([TreeSpec::new("Noop")]);
        let spec = TreeSpec::new("Fallback").named("root").with_children([
            TreeSpec::new("CheckKey")
                .port("key", "a")
                .port("expect", 1)
                .port("_skipIf", "x < 2 && y == \"q\""),
            TreeSpec::new("SubTree")
                .named("Inner")
                .port("ID", "Inner")
                .port("_autoremap", true)
                .with_children([inner.clone()]),
            TreeSpec::new("SubTree")
                .named("second")
                .port("ID", "Inner")
                .with_children([inner]),
            TreeSpec::new("at_waypoint").port("ids", json!([1, 2, 3])),
        ]);
        let text = tree_document(&spec, &[], &[("brain", "booster")]);
        assert_eq!(
            text,
            r#"<?xml version="1.0" encoding="UTF-8"?>
<root BTCPP_format="4" main_tree_to_execute="MainTree" brain="booster">
  <BehaviorTree ID="MainTree">
    <Fallback name="root">
      <CheckKey _skipIf="x &lt; 2 &amp;&amp; y == &quot;q&quot;" expect="1" key="a"/>
      <SubTree ID="Inner" _autoremap="true"/>
      <SubTree ID="Inner" name="second"/>
      <at_waypoint ids="1;2;3"/>
    </Fallback>
  </BehaviorTree>
  <BehaviorTree ID="Inner">
    <Sequence>
      <Noop/>
    </Sequence>
  </BehaviorTree>
</root>
"#
        );
    }

    #[test]
    fn models_list_category_ports_types_defaults_and_choices() {
        let kinds = vec![
            (
                "is_state".to_owned(),
                NodeModel::new(
                    Children::None,
                    vec![
                        PortDecl::input("state", EntryType::Str, "the state").one_of(&["a", "b"]),
                        PortDecl::input_or("n", EntryType::Int, "2", "how many").at_least(1.0),
                        PortDecl::output("out", EntryType::Any, ""),
                    ],
                )
                .condition(),
            ),
            (
                "stand".to_owned(),
                NodeModel::new(Children::None, Vec::new()),
            ),
        ];
        assert_eq!(
            models_document(&kinds),
            r#"<?xml version="1.0" encoding="UTF-8"?>
<root BTCPP_format="4">
  <TreeNodesModel>
    <Condition ID="is_state">
      <input_port name="state" type="std::string">the state (one of: a, b)</input_port>
      <input_port name="n" type="int" default="2">how many (&gt;= 1)</input_port>
      <output_port name="out"/>
    </Condition>
    <Action ID="stand"/>
  </TreeNodesModel>
</root>
"#
        );
    }

    #[test]
    fn attribute_texts() {
        assert_eq!(attribute_text(&json!("x")), "x");
        assert_eq!(attribute_text(&json!(1.5)), "1.5");
        assert_eq!(attribute_text(&json!(true)), "true");
        assert_eq!(attribute_text(&json!([4])), "4");
        assert_eq!(attribute_text(&json!([])), "");
        assert_eq!(attribute_text(&json!(["a"])), "[\"a\"]");
        assert_eq!(escape("a\nb\t<c>"), "a&#10;b&#9;&lt;c&gt;");
    }
}
