//! Finds where a value stands in a scenario by its path (`robots.B1.patrol[2]`), so that
//! errors found after deserialising (unknown waypoint ids, negative speeds, ...) can name the
//! line and column. The scenario is read by the workspace's one lenient reader
//! ([`decision_core::jsonc`], JSON5 dialect), which keeps every key's and value's position;
//! this module only walks that tree.

use decision_core::jsonc::{Json, Pos};
use std::fmt;

/// One step of a path into a JSON5 document: `.key` or `[n]` in the written form.
pub use decision_core::jsonc::PathSeg as Seg;

/// A path into a JSON5 document, written like `robots.B1.patrol[2]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JsonPath(pub Vec<Seg>);

impl JsonPath {
    /// The empty path (the root).
    pub fn root() -> Self {
        Self(Vec::new())
    }

    /// This path followed by a member key.
    pub fn key(&self, key: &str) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Key(key.to_string()));
        p
    }

    /// This path followed by an array index.
    pub fn index(&self, index: usize) -> Self {
        let mut p = self.clone();
        p.0.push(Seg::Index(index));
        p
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(root)");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// Line and column (1-based) of the value at `path`; when the path does not exist in the
/// document (a defaulted value), of its deepest existing ancestor.
pub fn locate(doc: &Json, path: &JsonPath) -> (usize, usize) {
    line_column(doc.deepest(&path.0).0.pos)
}

/// As [`locate`], but of the last key itself when the path ends in an existing object member
/// (an unknown key is reported where the key is written).
pub fn locate_key(doc: &Json, path: &JsonPath) -> (usize, usize) {
    if let Some((Seg::Key(key), parent)) = path.0.split_last() {
        let (object, found) = doc.deepest(parent);
        if let Some(member) = object.get(key).filter(|_| found == parent.len()) {
            return line_column(member.key_pos);
        }
    }
    locate(doc, path)
}

/// Whether the document has a value at `path`.
pub fn contains(doc: &Json, path: &JsonPath) -> bool {
    doc.deepest(&path.0).1 == path.0.len()
}

fn line_column(pos: Pos) -> (usize, usize) {
    (pos.line as usize, pos.column as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use decision_core::jsonc::parse_json5;

    const TEXT: &str = "// header\n{\n  field: '../config.json', /* c */\n  \"robots\": {\n    B1: {patrol: [3, 8,\n 10], speed: 1.5},\n  },\n}\n";

    fn doc() -> Json {
        parse_json5(TEXT).expect("the test text parses")
    }

    #[test]
    fn finds_nested_values() {
        let p = JsonPath::root()
            .key("robots")
            .key("B1")
            .key("patrol")
            .index(2);
        assert_eq!(locate(&doc(), &p), (6, 2));
        assert_eq!(p.to_string(), "robots.B1.patrol[2]");
        let speed = JsonPath::root().key("robots").key("B1").key("speed");
        assert_eq!(locate(&doc(), &speed), (6, 14));
        assert_eq!(locate_key(&doc(), &speed), (6, 7));
        assert_eq!(locate(&doc(), &JsonPath::root().key("field")), (3, 10));
    }

    #[test]
    fn missing_paths_point_at_the_deepest_ancestor() {
        let p = JsonPath::root().key("robots").key("B2").key("speed");
        assert_eq!(locate(&doc(), &p), (4, 13));
        assert_eq!(locate(&doc(), &JsonPath::root().key("rate")), (2, 1));
        let past_the_end = JsonPath::root()
            .key("robots")
            .key("B1")
            .key("patrol")
            .index(9);
        assert_eq!(locate(&doc(), &past_the_end), (5, 18));
    }

    #[test]
    fn columns_count_characters() {
        let doc = parse_json5("{\r\n  'é': 1, b: 2}").expect("parses");
        assert_eq!(locate(&doc, &JsonPath::root().key("b")), (2, 14));
    }
}
