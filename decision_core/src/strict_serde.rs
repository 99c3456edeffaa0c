//! Serde input in which a struct must be written as an object: the reader itself is the
//! `strict_serde` crate's ([`Strict`], [`deserialize`], [`from_slice`], shared with the bus);
//! this module adds what positioned loaders of our documents need ([`from_document`],
//! [`error_path`]), which knows the JSON-with-comments / JSON5 reader ([`crate::jsonc`]).

pub use ::strict_serde::{
    LineError, Strict, deserialize, from_json_line, from_slice, without_position,
};
use serde::de;

/// The path of a deserialisation error as steps into the document, for every positioned
/// loader (trees, scenarios, parameters): an enum variant is the key it is written under, and
/// the path stops at a step serde cannot name.
pub fn error_path(path: &serde_path_to_error::Path) -> Vec<crate::jsonc::PathSeg> {
    use crate::jsonc::PathSeg;
    use serde_path_to_error::Segment;
    path.iter()
        .map_while(|segment| match segment {
            Segment::Seq { index } => Some(PathSeg::Index(*index)),
            Segment::Map { key } => Some(PathSeg::Key(key.clone())),
            Segment::Enum { variant } => Some(PathSeg::Key(variant.clone())),
            Segment::Unknown => None,
        })
        .collect()
}

/// Deserialises `T` from a parsed document (JSON with comments, JSON5) with [`deserialize`];
/// an error comes with its path into the document and the position of the value there (or of
/// its deepest existing ancestor, for a missing field), so it names `file:line:col` and the
/// field.
pub fn from_document<T: de::DeserializeOwned>(
    document: &crate::jsonc::Json,
) -> Result<T, DocumentError> {
    deserialize(document.to_serde()).map_err(|e| {
        let path = error_path(e.path());
        let pos = document.deepest(&path).0.pos;
        DocumentError {
            path,
            pos,
            message: e.into_inner().to_string(),
        }
    })
}

/// A deserialisation error located in its document (see [`from_document`]).
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentError {
    /// The steps from the root to the offending field.
    pub path: Vec<crate::jsonc::PathSeg>,
    /// Where the offending value (or its deepest existing ancestor) is written.
    pub pos: crate::jsonc::Pos,
    /// What serde refused.
    pub message: String,
}

impl DocumentError {
    /// The field as written in errors: `children[2].ports.speed` (empty for the root).
    pub fn field(&self) -> String {
        use crate::jsonc::PathSeg;
        let mut out = String::new();
        for seg in &self.path {
            match seg {
                PathSeg::Key(k) if out.is_empty() => out.push_str(k),
                PathSeg::Key(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                PathSeg::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::from_document;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Robot {
        #[allow(dead_code)]
        name: String,
        #[allow(dead_code)]
        patrol: Vec<Waypoint>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Waypoint {
        #[allow(dead_code)]
        x: f64,
        #[allow(dead_code)]
        y: f64,
    }

    /// The field and `line:col` of the error reading `text` as a [`Robot`].
    fn located(text: &str) -> (String, u32, u32, String) {
        let document = match crate::jsonc::parse_json5(text) {
            Ok(d) => d,
            Err(e) => panic!("{e:?}"),
        };
        match from_document::<Robot>(&document) {
            Ok(_) => panic!("{text} read"),
            Err(e) => (e.field(), e.pos.line, e.pos.column, e.message),
        }
    }

    #[test]
    fn a_document_error_names_the_field_and_where_it_is_written() {
        // A wrong value: at the value itself.
        let (field, line, column, message) = located(
            "{\n  name: 'r',\n  patrol: [\n    { x: 1, y: 2 },\n    { x: 'a', y: 2 },\n  ],\n}",
        );
        assert_eq!((field.as_str(), line, column), ("patrol[1].x", 5, 10));
        assert!(message.contains("invalid type"), "{message}");
        // A missing field: at the object that lacks it.
        let (field, line, column, _) = located("{ name: 'r',\n  patrol: [ { x: 1 } ] }");
        assert_eq!((field.as_str(), line, column), ("patrol[0]", 2, 13));
        // An array where a struct is expected is refused, at the array.
        let (field, line, column, _) = located("{ name: 'r', patrol: [ [1, 2] ] }");
        assert_eq!((field.as_str(), line, column), ("patrol[0]", 1, 24));
    }
}
