//! Test helpers for the control nodes: blackboard writes and compile errors as text.

use crate::engine::Tree;
use crate::engine::blackboard::Value;
use crate::engine::test_support::{Ctx, registry, spec};

/// Writes `value` into root entry `key` of `t`.
pub fn put(t: &mut Tree<Ctx>, key: &str, value: Value) {
    let root = t.root_scope();
    if let Err(e) = t.blackboard_mut().set(root, key, value) {
        panic!("cannot write `{key}`: {e}");
    }
}

/// The compile errors of `v` against the test registry, as text.
pub fn compile_errors(v: serde_json::Value) -> Vec<String> {
    match crate::engine::compile(&spec(v), &registry()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
    }
}
