//! Reads BehaviorTree.CPP 4 XML files (`<root BTCPP_format="4">`, `<include>`, several
//! `<BehaviorTree ID>`) into a plain data model in which every element and attribute carries its
//! source position, with the leniency of tinyxml2 (a raw `&&` inside an attribute loads).
//!
//! Loading reports every problem it finds as a [`Diagnostic`] (`file:line:col: error: message`);
//! [`Document::expand`] inlines the SubTrees of one tree. Nothing here knows which node IDs are
//! registered: that is left to whoever turns the model into an executable tree.

#![deny(missing_docs)]

mod expand;
pub mod json5_tree;
mod lenient;
mod loader;
pub mod spec;
pub mod write;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use json5_tree::{load_any, load_json5, parse_json5};
pub use loader::{
    find_forbidden_char, is_allowed_port_name, is_reserved_attribute, load_file, load_str,
};
pub use spec::{load_tree, main_spec, to_tree_spec};
pub use write::{models_document, tree_document};

/// A place in a source file; `line` and `column` are 1-based, the column counts characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Position {
    /// The file as it was named (the main file as given, included files joined to its folder).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// One attribute of an element, its value as tinyxml2 reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Attribute {
    /// As written in the file, case-sensitive: a port name such as `goal`, or `name`.
    pub name: String,
    /// The value after entity processing (tinyxml2's, quirks included).
    pub value: String,
    /// Where the attribute name starts.
    pub position: Position,
}

/// An element of a tree: the tag is the node's registration ID (explicit forms normalised).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct XmlNode {
    /// The registration ID (`Sequence`, `CheckKey`, ...) or `SubTree`.
    pub tag: String,
    /// Attributes in file order (without the `ID` of `<Action ID=..>` and the like).
    pub attributes: Vec<Attribute>,
    /// Child elements in file order.
    pub children: Vec<XmlNode>,
    /// Where the element's `<` is.
    pub position: Position,
}

impl XmlNode {
    /// The value of the attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.value.as_str())
    }

    /// The number of nodes in this subtree, this node included.
    pub fn node_count(&self) -> usize {
        1 + self.children.iter().map(XmlNode::node_count).sum::<usize>()
    }
}

/// One `<BehaviorTree ID="...">` and its single child.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TreeDefinition {
    /// The tree ID (`BehaviorTree_N` for the sole, unnamed tree of a file, as BT.CPP does).
    pub id: String,
    /// The single child element of `<BehaviorTree>`.
    pub root: XmlNode,
    /// Where the `<BehaviorTree>` element is.
    pub position: Position,
}

/// A loaded main file with everything it includes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Document {
    /// All trees in load order (an include's trees before the including file's own).
    pub trees: Vec<TreeDefinition>,
    /// `main_tree_to_execute` of the main file's `<root>`.
    pub main_tree: Option<String>,
    /// `BTCPP_format` of the main file's `<root>`.
    pub format: Option<String>,
    /// The main file's other `<root>` attributes in file order (BT.CPP ignores them; a
    /// profile may read its own, e.g. the soccer profile's `brain`).
    pub root_attributes: Vec<(String, String)>,
    /// Every file that was read, in the order they were opened (the main file first).
    pub files: Vec<PathBuf>,
}

/// A load or expansion error at a source position.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, thiserror::Error)]
#[error("{position}: error: {message}")]
pub struct Diagnostic {
    /// Where the problem is.
    pub position: Position,
    /// What the problem is.
    pub message: String,
}

impl Document {
    /// The tree to run: `requested` (e.g. `--main-tree`), else `main_tree_to_execute`, else the
    /// only tree; the error names the candidates.
    pub fn main_tree_id(&self, requested: Option<&str>) -> Result<&str, String> {
        let find = |id: &str| self.tree(id).map(|t| t.id.as_str());
        if let Some(id) = requested {
            return find(id).ok_or_else(|| {
                format!(
                    "no BehaviorTree with ID \"{id}\"{}; the trees are: {}",
                    suggestion_suffix(id, self.tree_ids()),
                    self.id_list()
                )
            });
        }
        if let Some(id) = self.main_tree.as_deref() {
            return find(id).ok_or_else(|| {
                format!(
                    "main_tree_to_execute=\"{id}\" names no BehaviorTree{}; the trees are: {}",
                    suggestion_suffix(id, self.tree_ids()),
                    self.id_list()
                )
            });
        }
        match self.trees.as_slice() {
            [only] => Ok(only.id.as_str()),
            [] => Err("the document defines no BehaviorTree".to_string()),
            _ => Err(format!(
                "several BehaviorTrees and no main_tree_to_execute: choose one of {}",
                self.id_list()
            )),
        }
    }

    /// The tree with this ID.
    pub fn tree(&self, id: &str) -> Option<&TreeDefinition> {
        self.trees.iter().find(|t| t.id == id)
    }

    /// The tree `id` with every `<SubTree ID="X">` given the expanded root of tree X as its
    /// single child; unknown and recursive subtrees are errors.
    pub fn expand(&self, id: &str) -> Result<XmlNode, Vec<Diagnostic>> {
        expand::expand(self, id)
    }

    fn tree_ids(&self) -> impl Iterator<Item = &str> {
        self.trees.iter().map(|t| t.id.as_str())
    }

    fn id_list(&self) -> String {
        let ids: Vec<String> = self.tree_ids().map(|id| format!("\"{id}\"")).collect();
        if ids.is_empty() {
            "(none)".to_string()
        } else {
            ids.join(", ")
        }
    }

    /// The value of the main file's `<root>` attribute `name` (not `BTCPP_format` or
    /// `main_tree_to_execute`, which have their own fields).
    pub fn root_attribute(&self, name: &str) -> Option<&str> {
        self.root_attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn main_file(&self) -> &Path {
        self.files.first().map_or(Path::new(""), PathBuf::as_path)
    }
}

/// `; did you mean "X"?` for the nearest candidate (the workspace's one suggestion rule),
/// or nothing.
pub(crate) fn suggestion_suffix<'a>(
    wanted: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> String {
    decision_core::suggest::nearest(wanted, candidates)
        .map_or_else(String::new, |c| format!("; did you mean \"{c}\"?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestion_picks_the_closest() {
        let ids = ["Striker", "GoalKeeper", "Locate"];
        assert_eq!(
            suggestion_suffix("Stricker", ids.into_iter()),
            "; did you mean \"Striker\"?"
        );
        assert_eq!(suggestion_suffix("Zzzzzz", ids.into_iter()), "");
    }

    #[test]
    fn diagnostic_display() {
        let d = Diagnostic {
            position: Position {
                file: PathBuf::from("a/b.xml"),
                line: 3,
                column: 7,
            },
            message: "boom".into(),
        };
        assert_eq!(d.to_string(), "a/b.xml:3:7: error: boom");
    }
}
