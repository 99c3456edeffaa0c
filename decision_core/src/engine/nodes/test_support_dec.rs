//! Test helpers for the decorator and action modules: JSON builders and state checks.

use serde_json::{Value, json};

use crate::engine::test_support::Ctx;
use crate::engine::{NodeId, NodeState, Tree};

/// A decorator `kind` with `ports` over `child`.
pub fn dec(kind: &str, ports: Value, child: Value) -> Value {
    json!({ "type": kind, "ports": ports, "children": [child] })
}

/// A leaf `kind` with `ports`, named `name`.
pub fn leaf(kind: &str, name: &str, ports: Value) -> Value {
    json!({ "type": kind, "name": name, "ports": ports })
}

/// An `AlwaysSuccess` that always skips (`_skipIf="true"`).
pub fn skipped() -> Value {
    json!({ "type": "AlwaysSuccess", "name": "skip", "ports": { "_skipIf": "true" } })
}

/// `ReactiveSequence[flag guard, body]`: clearing the flag halts `body`.
pub fn guarded(guard: &str, body: Value) -> Value {
    json!({ "type": "ReactiveSequence", "children": [crate::engine::test_support::cond(guard), body] })
}

/// Whether every node of the tree is idle.
pub fn all_idle(t: &Tree<Ctx>) -> bool {
    (0..t.node_count()).all(|i| t.state(NodeId(i as u32)) == NodeState::Idle)
}
