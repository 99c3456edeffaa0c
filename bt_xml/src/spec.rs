//! From the XML model to the engine's [`TreeSpec`]: the tag is the node's `type`, the `name`
//! attribute its label (BT.CPP's default label is the registration ID, for a `SubTree` its
//! `ID`), every other attribute a port (as text) with its position.

use crate::{Diagnostic, Document, Position, XmlNode};
use decision_core::engine::{SourceSpan, TreeSpec};
use std::path::Path;

fn span(p: &Position) -> SourceSpan {
    SourceSpan {
        file: p.file.display().to_string(),
        line: p.line,
        column: p.column,
    }
}

/// The spec of an (expanded) XML node and its subtree.
pub fn to_tree_spec(node: &XmlNode) -> TreeSpec {
    let mut spec = TreeSpec::new(node.tag.clone()).at(Some(span(&node.position)));
    for a in &node.attributes {
        if a.name == "name" {
            spec.name = a.value.clone();
            continue;
        }
        spec.ports
            .insert(a.name.clone(), serde_json::Value::String(a.value.clone()));
        spec.port_spans.insert(a.name.clone(), span(&a.position));
    }
    if spec.name.is_empty()
        && node.tag == "SubTree"
        && let Some(id) = node.attribute("ID")
    {
        spec.name = id.to_owned();
    }
    spec.children = node.children.iter().map(to_tree_spec).collect();
    spec
}

/// Loads `path` with its includes and expands the main tree (`requested`, else
/// `main_tree_to_execute`, else the only tree) into a spec.
pub fn load_tree(path: &Path, requested: Option<&str>) -> Result<TreeSpec, Vec<Diagnostic>> {
    let document = crate::load_file(path)?;
    main_spec(&document, requested, path)
}

/// The expanded main tree of a loaded document as a spec.
pub fn main_spec(
    document: &Document,
    requested: Option<&str>,
    path: &Path,
) -> Result<TreeSpec, Vec<Diagnostic>> {
    let id = document.main_tree_id(requested).map_err(|message| {
        vec![Diagnostic {
            position: Position {
                file: path.to_path_buf(),
                line: 1,
                column: 1,
            },
            message,
        }]
    })?;
    let root = document.expand(id)?;
    Ok(to_tree_spec(&root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_names_ports_and_subtree_labels() {
        let xml = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="top">
      <CheckKey key="a" expect="1"/>
      <SubTree ID="Inner" x="{y}" _autoremap="true"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Inner"><Noop/></BehaviorTree>
</root>"#;
        let doc = crate::load_str(xml, "t.xml", Path::new(".")).expect("loads");
        let spec = main_spec(&doc, None, Path::new("t.xml")).expect("expands");
        assert_eq!(
            (spec.kind.as_str(), spec.name.as_str()),
            ("Sequence", "top")
        );
        let check = &spec.children[0];
        assert_eq!(
            (check.kind.as_str(), check.label()),
            ("CheckKey", "CheckKey")
        );
        assert_eq!(check.ports["expect"], serde_json::json!("1"));
        assert_eq!(check.port_spans["expect"].line, 4);
        let sub = &spec.children[1];
        assert_eq!((sub.kind.as_str(), sub.label()), ("SubTree", "Inner"));
        assert_eq!(sub.ports["x"], serde_json::json!("{y}"));
        assert_eq!(sub.children[0].kind, "Noop");
        assert_eq!(spec.span.as_ref().map(|s| (s.line, s.column)), Some((3, 5)));
    }
}
