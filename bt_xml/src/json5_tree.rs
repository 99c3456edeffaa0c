//! The JSON5 front-end: a [`TreeSpec`] written as a file (`type`, `name`, `ports`,
//! `children`), so a team can write trees without XML.

use crate::{Diagnostic, Position};
use decision_core::engine::{SourceSpan, TreeSpec};
use decision_core::jsonc::{self, Json, JsonValue, Pos};
use std::path::Path;

/// Reads a JSON5 tree file; syntax and shape errors name the file, line and column (shape
/// errors: of the offending field's path).
pub fn load_json5(path: &Path) -> Result<TreeSpec, Vec<Diagnostic>> {
    let at = |line: u32, column: u32, message: String| {
        vec![Diagnostic {
            position: Position {
                file: path.to_path_buf(),
                line,
                column,
            },
            message,
        }]
    };
    let text = jsonc::read_text(path).map_err(|e| {
        let pos = e.pos().unwrap_or(Pos { line: 1, column: 1 });
        at(pos.line, pos.column, e.to_string())
    })?;
    parse_json5(&text, path)
}

/// Parses JSON5 tree text (`path` names the file in diagnostics and spans). Every node and
/// port value keeps its line and column, so compile errors point into the file.
pub fn parse_json5(text: &str, path: &Path) -> Result<TreeSpec, Vec<Diagnostic>> {
    let at = |line: u32, column: u32, message: String| {
        vec![Diagnostic {
            position: Position {
                file: path.to_path_buf(),
                line,
                column,
            },
            message,
        }]
    };
    let json = jsonc::parse_json5(text).map_err(|e| {
        at(
            e.pos.line,
            e.pos.column,
            format!("JSON5 syntax: {}", e.message),
        )
    })?;
    if let Some(bad) = first_non_finite(&json) {
        return Err(at(
            bad.line,
            bad.column,
            "numbers must be finite".to_owned(),
        ));
    }
    let mut spec: TreeSpec = decision_core::strict_serde::from_document(&json).map_err(|e| {
        at(
            e.pos.line,
            e.pos.column,
            format!("`{}`: {}", e.field(), e.message),
        )
    })?;
    let file = path.display().to_string();
    mark_positions(&mut spec, &json, &file);
    Ok(spec)
}

/// The position of the first non-finite number (`Infinity`, `NaN`).
fn first_non_finite(json: &Json) -> Option<Pos> {
    match &json.value {
        JsonValue::Number { value, .. } if !value.is_finite() => Some(json.pos),
        JsonValue::Array(items) => items.iter().find_map(first_non_finite),
        JsonValue::Object(members) => members.iter().find_map(|m| first_non_finite(&m.value)),
        _ => None,
    }
}

/// Gives every node the position of its object and every port the position of its value.
fn mark_positions(spec: &mut TreeSpec, json: &Json, file: &str) {
    let span = |pos: Pos| SourceSpan {
        file: file.to_owned(),
        line: pos.line,
        column: pos.column,
    };
    if spec.span.is_none() {
        spec.span = Some(span(json.pos));
    }
    let ports = json.get("ports").or_else(|| json.get("params"));
    if let Some(JsonValue::Object(members)) = ports.map(|m| &m.value.value) {
        for m in members {
            spec.port_spans
                .entry(m.key.clone())
                .or_insert_with(|| span(m.value.pos));
        }
    }
    if let Some(JsonValue::Array(children)) = json.get("children").map(|m| &m.value.value) {
        for (child, child_json) in spec.children.iter_mut().zip(children) {
            mark_positions(child, child_json, file);
        }
    }
}

/// Loads a tree from `.xml` (BT.CPP, with includes; `main_tree` selects the tree) or from
/// `.json5` / `.json`.
pub fn load_any(path: &Path, main_tree: Option<&str>) -> Result<TreeSpec, Vec<Diagnostic>> {
    let is_xml = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"));
    if is_xml {
        crate::load_tree(path, main_tree)
    } else {
        load_json5(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json5_tree_reads_into_a_spec() {
        let text = r#"{
            // comments and unquoted keys, as JSON5 allows
            type: 'Sequence', name: 'top',
            children: [
                { type: 'CheckKey', ports: { key: 'a', expect: 1 } },
                { type: 'Noop', },
            ],
        }"#;
        let spec = parse_json5(text, Path::new("t.json5")).expect("parses");
        assert_eq!(spec.children.len(), 2);
        assert_eq!(spec.children[0].ports["expect"], serde_json::json!(1));
        assert_eq!(spec.span.as_ref().map(|s| s.file.as_str()), Some("t.json5"));
        let leaf = spec.children[0].span.as_ref().map(|s| (s.line, s.column));
        assert_eq!(leaf, Some((5, 17)), "the child's object");
        let port = spec.children[0]
            .port_spans
            .get("expect")
            .map(|s| (s.line, s.column));
        assert_eq!(port, Some((5, 64)), "the port's value");
    }

    #[test]
    fn json5_errors_name_line_column_and_field() {
        let e = parse_json5("{ type: 'A',\n  children: [ {, ] }", Path::new("bad.json5"))
            .expect_err("syntax error");
        assert_eq!((e[0].position.line, e[0].position.column), (2, 16), "{e:?}");
        let e = parse_json5("{ type: 'A', kids: [] }", Path::new("shape.json5"))
            .expect_err("unknown field");
        assert!(e[0].message.contains("kids"), "{e:?}");
        let e = parse_json5(
            "{ type: 'A', children: [ { name: 'x' } ] }",
            Path::new("s.json5"),
        )
        .expect_err("missing type");
        assert!(e[0].message.contains("children[0]"), "{e:?}");
        assert_eq!((e[0].position.line, e[0].position.column), (1, 26), "{e:?}");
    }
}
