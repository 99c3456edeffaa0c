//! Test helpers for the control nodes: trees whose blackboard entries are declared untyped
//! before compiling (so a test can write an int, a double or a bool into them later),
//! blackboard writes, and compile errors as text.

use crate::engine::blackboard::{Blackboards, EntryType, Value};
use crate::engine::test_support::{Ctx, registry, spec};
use crate::engine::{Tree, compile_with};

/// Compiles `v` with the root entries `keys` declared untyped (`Any`) beforehand.
pub fn build_untyped(v: serde_json::Value, keys: &[&str]) -> Tree<Ctx> {
    let mut bbs = Blackboards::new();
    let root = bbs.new_root();
    for key in keys {
        if let Err(e) = bbs.create(root, key, EntryType::Any) {
            panic!("cannot declare `{key}`: {e}");
        }
    }
    match compile_with(&spec(v), &registry(), bbs, root) {
        Ok(t) => t,
        Err(errors) => panic!("compile failed: {errors:#?}"),
    }
}

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
