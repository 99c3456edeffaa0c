//! A tiny test context and test leaves shared by the engine's unit tests.
//!
//! * condition `flag` (param `key`): holds when `ctx.flags[key]` is true (default false).
//! * action `act` (param `id`): returns `ctx.status[id]` (default `Running`); counts ticks and
//!   halts.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::blackboard::{Blackboards, EntryType, Value as BbValue};
use super::{
    Action, Condition, LeafParams, NodeId, NodeState, ParamError, PortDecl, Registry, Status, Tree,
    TreeSpec, compile, compile_with,
};

/// Test context: flags read by `flag`, scripted results for `act`, and counters.
#[derive(Debug, Default)]
pub struct Ctx {
    pub flags: BTreeMap<String, bool>,
    pub status: BTreeMap<String, Status>,
    pub ticks: BTreeMap<String, u32>,
    pub halts: BTreeMap<String, u32>,
}

impl Ctx {
    /// Sets flag `key`.
    pub fn set(&mut self, key: &str, value: bool) -> &mut Self {
        self.flags.insert(key.to_owned(), value);
        self
    }

    /// Makes action `id` return `status` from now on.
    pub fn ret(&mut self, id: &str, status: Status) -> &mut Self {
        self.status.insert(id.to_owned(), status);
        self
    }

    /// How often action `id` was ticked.
    pub fn ticks(&self, id: &str) -> u32 {
        self.ticks.get(id).copied().unwrap_or(0)
    }

    /// How often action `id` was halted.
    pub fn halts(&self, id: &str) -> u32 {
        self.halts.get(id).copied().unwrap_or(0)
    }
}

struct Flag(String);

impl Condition<Ctx> for Flag {
    fn check(&mut self, ctx: &Ctx, _now: f64) -> bool {
        ctx.flags.get(&self.0).copied().unwrap_or(false)
    }
    fn explain(&self, ctx: &Ctx, _now: f64) -> String {
        let v = ctx.flags.get(&self.0).copied().unwrap_or(false);
        format!("flag `{}` is {v}", self.0)
    }
}

struct Act(String);

impl Action<Ctx> for Act {
    fn tick(&mut self, ctx: &mut Ctx, _now: f64) -> Status {
        *ctx.ticks.entry(self.0.clone()).or_default() += 1;
        ctx.status.get(&self.0).copied().unwrap_or(Status::Running)
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        *ctx.halts.entry(self.0.clone()).or_default() += 1;
    }
}

/// The test registry: the standard library plus `flag` and `act`.
pub fn registry() -> Registry<Ctx> {
    let mut r = Registry::new();
    super::nodes::register_standard(&mut r);
    super::nodes::weighted_selection::register(&mut r);
    let key = PortDecl::input("key", EntryType::Str, "the flag");
    r.condition("flag", vec![key], |p: &LeafParams| {
        Ok(Box::new(Flag(p.str("key")?.to_owned())) as Box<dyn Condition<Ctx>>)
    });
    let id = PortDecl::input("id", EntryType::Str, "the action's name in the context");
    r.action("act", vec![id], |p: &LeafParams| {
        let id = p.str("id")?;
        if id.is_empty() {
            return Err(ParamError::new("id", "must not be empty"));
        }
        Ok(Box::new(Act(id.to_owned())) as Box<dyn Action<Ctx>>)
    });
    r
}

/// Parses a spec from JSON (test input is trusted).
pub fn spec(v: Value) -> TreeSpec {
    match serde_json::from_value(v) {
        Ok(s) => s,
        Err(e) => panic!("bad test spec: {e}"),
    }
}

/// Sets root entry `key` of `tree` (test values are trusted).
pub fn set_entry<C>(tree: &mut Tree<C>, key: &str, value: crate::engine::blackboard::Value) {
    let root = tree.root_scope();
    if let Err(e) = tree.blackboard_mut().set(root, key, value) {
        panic!("{e}");
    }
}

/// Compiles a JSON spec against the test registry, panicking with the errors if it fails.
pub fn build(v: Value) -> Tree<Ctx> {
    match compile(&spec(v), &registry()) {
        Ok(t) => t,
        Err(errors) => panic!("compile failed: {errors:#?}"),
    }
}

/// Condition `flag {key}`, named after its key.
pub fn cond(key: &str) -> Value {
    json!({ "type": "flag", "name": key, "ports": { "key": key } })
}

/// Action `act {id}`, named after its id.
pub fn act(id: &str) -> Value {
    json!({ "type": "act", "name": id, "ports": { "id": id } })
}

/// A node of type `kind` with `children`.
pub fn node(kind: &str, children: Vec<Value>) -> Value {
    json!({ "type": kind, "children": children })
}

/// A `weighted_rule` of weight `w` with `guard` and `body`.
pub fn rule_of(guard: Value, body: Value, w: f64) -> Value {
    json!({ "type": "weighted_rule", "ports": { "weight": w }, "children": [guard, body] })
}

/// The last trace as `(node id, status)` pairs.
pub fn entries<C>(t: &Tree<C>) -> Vec<(u32, Status)> {
    t.trace().entries().map(|e| (e.node.0, e.status)).collect()
}

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

/// Compiles `v` with the root entries `keys` declared untyped (`Any`) beforehand.
pub fn build_untyped(v: Value, keys: &[&str]) -> Tree<Ctx> {
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
pub fn put(t: &mut Tree<Ctx>, key: &str, value: BbValue) {
    let root = t.root_scope();
    if let Err(e) = t.blackboard_mut().set(root, key, value) {
        panic!("cannot write `{key}`: {e}");
    }
}

/// The compile errors of `v` against the test registry, as text.
pub fn compile_errors(v: Value) -> Vec<String> {
    match crate::engine::compile(&spec(v), &registry()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
    }
}
