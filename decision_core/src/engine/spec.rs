//! `TreeSpec`: the serde data every front-end produces and the viewer draws.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where a spec node (or one of its ports) came from, for errors that point at file, line
/// and column.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SourceSpan {
    /// File the node was read from.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// One node of a tree as data: its registry id (`type`), its label (`name`), its ports and its
/// children. The same data is published as the tree layout, so a viewer draws any tree
/// without knowing the profile.
///
/// Port values are JSON: a string is a literal in its text form (as XML attributes are) or a
/// blackboard reference `{key}`; numbers, booleans and arrays are literals. Keys starting
/// with `_` are BT.CPP's pre/post conditions (`_skipIf`, `_while`, `_post`, ...) and
/// `_autoremap` on a `SubTree`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TreeSpec {
    /// Registry id of the node kind (`Sequence`, `weighted_selection`, a profile's leaf, ...).
    #[serde(rename = "type", alias = "kind")]
    pub kind: String,
    /// Label shown in traces and viewers; empty means "the type".
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Port values by port name.
    #[serde(
        default,
        alias = "params",
        skip_serializing_if = "serde_json::Map::is_empty"
    )]
    pub ports: serde_json::Map<String, serde_json::Value>,
    /// Child nodes in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<TreeSpec>,
    /// Source position of the node, for diagnostics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<SourceSpan>,
    /// Source position of each port value, for diagnostics.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub port_spans: BTreeMap<String, SourceSpan>,
}

impl TreeSpec {
    /// A node of type `kind` with no name, ports or children.
    pub fn new(kind: impl Into<String>) -> Self {
        Self {
            kind: kind.into(),
            name: String::new(),
            ports: serde_json::Map::new(),
            children: Vec::new(),
            span: None,
            port_spans: BTreeMap::new(),
        }
    }

    /// Sets the label.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Sets a port value.
    pub fn port(mut self, key: impl Into<String>, value: impl Into<serde_json::Value>) -> Self {
        self.ports.insert(key.into(), value.into());
        self
    }

    /// Appends children.
    pub fn with_children(mut self, children: impl IntoIterator<Item = TreeSpec>) -> Self {
        self.children.extend(children);
        self
    }

    /// Sets the source span.
    pub fn at(mut self, span: Option<SourceSpan>) -> Self {
        self.span = span;
        self
    }

    /// The label: the name, or the type when unnamed (BT.CPP's default).
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            &self.kind
        } else {
            &self.name
        }
    }

    /// Number of nodes in this subtree, this one included.
    pub fn node_count(&self) -> usize {
        1 + self
            .children
            .iter()
            .map(TreeSpec::node_count)
            .sum::<usize>()
    }
}
