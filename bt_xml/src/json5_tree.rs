//! The JSON5 front-end: a [`TreeSpec`] written as a file (`type`, `name`, `ports`,
//! `children`), so a team can write trees without XML.

use crate::{Diagnostic, Position};
use decision_core::engine::{SourceSpan, TreeSpec};
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
    let text = std::fs::read_to_string(path).map_err(|e| at(1, 1, format!("cannot read: {e}")))?;
    parse_json5(&text, path)
}

/// Parses JSON5 tree text (`path` names the file in diagnostics and spans).
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
    let value: serde_json::Value = json5::from_str(text).map_err(|e| {
        // json5 counts lines and columns from 0.
        let (line, column) = e
            .position()
            .map_or((1, 1), |p| (p.line as u32 + 1, p.column as u32 + 1));
        let message = e.to_string();
        let message = message
            .split(" at line ")
            .next()
            .unwrap_or(&message)
            .to_owned();
        at(line, column, format!("JSON5 syntax: {message}"))
    })?;
    let mut spec: TreeSpec = serde_path_to_error::deserialize(value).map_err(|e| {
        let field = e.path().to_string();
        at(1, 1, format!("`{field}`: {}", e.into_inner()))
    })?;
    let file = path.display().to_string();
    mark_file(&mut spec, &file);
    Ok(spec)
}

/// Gives every node without a span the file (line 1), so diagnostics name it.
fn mark_file(spec: &mut TreeSpec, file: &str) {
    if spec.span.is_none() {
        spec.span = Some(SourceSpan {
            file: file.to_owned(),
            line: 1,
            column: 1,
        });
    }
    for child in &mut spec.children {
        mark_file(child, file);
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
    }
}
