//! `TreeSpec`: the serde data every front-end produces and the viewer draws.

use serde::{Deserialize, Serialize};

/// The kind of a tree node; see each node kind's module in `nodes` for its outcome rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// Leaf predicate from the registry: Success or Failure, never Running.
    Condition,
    /// Leaf action from the registry: any status; halted when its parent abandons it.
    Action,
    /// Children in order with memory: resumes at the running child.
    Sequence,
    /// Priority fallback, reactive: re-evaluated from the first child every tick.
    Selection,
    /// Inverts Success/Failure of its single child.
    Negation,
    /// A named group wrapping a single child.
    Subtree,
    /// Sequence whose earlier children (guards) are re-checked every tick.
    ReactiveSequence,
    /// Runs its single child to completion once, then repeats that result.
    RunOnce,
    /// Ticks all children; succeeds or fails by thresholds.
    Parallel,
    /// Highest-weight child whose guard holds wins; a running child is kept unless a strictly
    /// heavier one's guard holds.
    WeightedSelection,
}

/// Where a spec node came from, for errors that point at file, line and column.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SourceSpan {
    /// File the node was read from.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// One node of a tree as data: kind, name (the registry leaf name for leaves), params, children.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TreeSpec {
    /// Node kind.
    pub kind: NodeKind,
    /// Display name; for `condition` and `action` the registry name of the leaf.
    pub name: String,
    /// Free-form parameters (leaf params; `weight` on children of `weighted_selection`, ...).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub params: serde_json::Map<String, serde_json::Value>,
    /// Child nodes in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<TreeSpec>,
    /// Source position for diagnostics; not part of the published layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<SourceSpan>,
}
