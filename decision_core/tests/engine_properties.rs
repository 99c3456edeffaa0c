//! Properties of the opened engine on random trees over the standard nodes: halting is
//! exactly-once (an action is halted only while running, once per abandonment), a tree that
//! returned a completed result or was halted leaves nothing running, and the trace lists
//! exactly the nodes that were ticked.

use decision_core::engine::blackboard::EntryType;
use decision_core::engine::{
    Action, LeafParams, NodeId, NodeState, PortDecl, Registry, Status, TreeSpec, compile, nodes,
};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// Per leaf: scripted results (cycled), and what happened to it.
#[derive(Debug, Default)]
struct Ctx {
    script: BTreeMap<String, Vec<Status>>,
    ticks: BTreeMap<String, u32>,
    halts: BTreeMap<String, u32>,
    running: BTreeMap<String, bool>,
    violations: Vec<String>,
}

struct Leaf(String);

impl Action<Ctx> for Leaf {
    fn tick(&mut self, ctx: &mut Ctx, _now: f64) -> Status {
        let n = ctx.ticks.entry(self.0.clone()).or_default();
        let script = ctx.script.get(&self.0).cloned().unwrap_or_default();
        let status = if script.is_empty() {
            Status::Success
        } else {
            script[*n as usize % script.len()]
        };
        *n += 1;
        ctx.running
            .insert(self.0.clone(), status == Status::Running);
        status
    }

    fn halt(&mut self, ctx: &mut Ctx) {
        if !ctx.running.get(&self.0).copied().unwrap_or(false) {
            ctx.violations
                .push(format!("{} halted while not running", self.0));
        }
        ctx.running.insert(self.0.clone(), false);
        *ctx.halts.entry(self.0.clone()).or_default() += 1;
    }
}

fn registry() -> Registry<Ctx> {
    let mut r = Registry::new();
    nodes::register_standard(&mut r);
    let id = PortDecl::input("id", EntryType::Str, "the leaf's name in the context");
    r.action("leaf", vec![id], |p: &LeafParams| {
        Ok(Box::new(Leaf(p.str("id")?.to_owned())) as Box<dyn Action<Ctx>>)
    });
    r
}

/// Controls taking any number (>= 1) of children (`TryCatch`: >= 2).
const CONTROLS: [&str; 8] = [
    "Sequence",
    "SequenceWithMemory",
    "Fallback",
    "ReactiveSequence",
    "ReactiveFallback",
    "AsyncSequence",
    "AsyncFallback",
    "TryCatch",
];

/// `CONTROLS[k]`, or a kind that loads with these children: a `TryCatch` needs two, a
/// `ReactiveSequence` takes one `AsyncSequence` only.
fn control_for(k: usize, children: &[TreeSpec]) -> &'static str {
    let asyncs = children
        .iter()
        .filter(|c| c.kind == "AsyncSequence")
        .count();
    match CONTROLS[k] {
        "TryCatch" if children.len() < 2 => "Sequence",
        "ReactiveSequence" if asyncs > 1 => "ReactiveFallback",
        kind => kind,
    }
}

fn tree_strategy() -> impl Strategy<Value = TreeSpec> {
    let leaf = (0u32..1000).prop_map(|n| TreeSpec::new("leaf").port("id", format!("l{n}")));
    leaf.prop_recursive(4, 40, 4, |inner| {
        (0..CONTROLS.len(), proptest::collection::vec(inner, 1..4)).prop_map(|(k, children)| {
            TreeSpec::new(control_for(k, &children)).with_children(children)
        })
    })
}

/// Gives every leaf a unique id (the generator may repeat them).
fn number_leaves(spec: &mut TreeSpec, next: &mut u32, ids: &mut Vec<String>) {
    if spec.kind == "leaf" {
        let id = format!("l{next}");
        *next += 1;
        spec.ports.insert("id".into(), id.clone().into());
        spec.name = id.clone();
        ids.push(id);
    }
    for c in &mut spec.children {
        number_leaves(c, next, ids);
    }
}

fn status_of(code: u8) -> Status {
    match code % 4 {
        0 => Status::Success,
        1 => Status::Failure,
        2 => Status::Running,
        _ => Status::Running,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn halting_is_exactly_once_and_the_trace_is_exact(
        mut spec in tree_strategy(),
        scripts in proptest::collection::vec(proptest::collection::vec(0u8..4, 1..4), 40),
        ticks in 1usize..12,
    ) {
        let mut ids = Vec::new();
        number_leaves(&mut spec, &mut 0, &mut ids);
        let mut tree = compile(&spec, &registry()).expect("random trees compile");
        let mut ctx = Ctx::default();
        for (i, id) in ids.iter().enumerate() {
            let codes = &scripts[i % scripts.len()];
            ctx.script.insert(id.clone(), codes.iter().map(|c| status_of(*c)).collect());
        }
        for t in 0..ticks {
            let before: BTreeMap<String, u32> = ctx.ticks.clone();
            let status = tree.tick(&mut ctx, t as f64);
            // The trace lists every leaf tick exactly once per tick of it.
            for (n, id) in ids.iter().enumerate() {
                let ticked = ctx.ticks.get(id).copied().unwrap_or(0) - before.get(id).copied().unwrap_or(0);
                let entries = tree.trace().entries()
                    .filter(|e| tree.name(e.node) == Some(id.as_str()))
                    .count() as u32;
                prop_assert_eq!(ticked, entries, "leaf {} (#{}) at tick {}", id, n, t);
            }
            // Every trace entry is a node of the tree, children before parents: the root last.
            prop_assert_eq!(tree.trace().entries().last().map(|e| e.node), Some(NodeId(0)));
            prop_assert_eq!(tree.trace().entries().last().map(|e| e.status), Some(status));
            // A completed root leaves nothing running.
            if status != Status::Running {
                for n in 0..tree.node_count() {
                    prop_assert!(!tree.is_running(NodeId(n as u32)), "node {} runs after {:?}", n, status);
                }
                for (id, running) in &ctx.running {
                    prop_assert!(!running, "leaf {} still running", id);
                }
            }
            prop_assert!(ctx.violations.is_empty(), "{:?}", ctx.violations);
        }
        tree.halt(&mut ctx);
        prop_assert!(ctx.violations.is_empty(), "{:?}", ctx.violations);
        for n in 0..tree.node_count() {
            prop_assert_eq!(tree.state(NodeId(n as u32)), NodeState::Idle);
        }
        for (id, running) in &ctx.running {
            prop_assert!(!running, "leaf {} still running after halt", id);
        }
    }
}
