//! Tick cost of the engine: a `weighted_selection` over 10,000 rules, each a `sequence` of
//! 5 trivial guard conditions and an action.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use decision_core::engine::{
    Action, Condition, LeafParams, NodeKind, Registry, Status, Tree, TreeSpec, compile,
};
use serde_json::{Map, Value, json};

/// Bench context: guards compare `level` to their threshold; the action counts its ticks.
struct Ctx {
    level: i64,
    ticks: u64,
}

struct AtLeast(i64);

impl Condition<Ctx> for AtLeast {
    fn check(&mut self, ctx: &Ctx, _now: f64) -> bool {
        ctx.level >= self.0
    }
    fn explain(&self, ctx: &Ctx, _now: f64) -> String {
        format!("level {} >= {}", ctx.level, self.0)
    }
}

struct Work;

impl Action<Ctx> for Work {
    fn tick(&mut self, ctx: &mut Ctx, _now: f64) -> Status {
        ctx.ticks += 1;
        Status::Running
    }
}

fn registry() -> Registry<Ctx> {
    let mut r = Registry::new();
    r.condition("at_least", |p: &LeafParams| {
        Ok(Box::new(AtLeast(p.i64("min")?)) as Box<dyn Condition<Ctx>>)
    });
    r.action("work", |_: &LeafParams| {
        Ok(Box::new(Work) as Box<dyn Action<Ctx>>)
    });
    r
}

fn leaf(kind: NodeKind, name: &str, params: Value) -> TreeSpec {
    let params = match params {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    TreeSpec {
        kind,
        name: name.to_owned(),
        params,
        children: Vec::new(),
        span: None,
    }
}

/// 10,000 rules; rule `i` has weight `i % 100` and guards `level >= 0, ..., level >= 4`.
fn tree() -> Tree<Ctx> {
    let rules = (0..10_000)
        .map(|i| {
            let mut children: Vec<TreeSpec> = (0..5)
                .map(|k| leaf(NodeKind::Condition, "at_least", json!({ "min": k })))
                .collect();
            children.push(leaf(NodeKind::Action, "work", json!({})));
            let mut rule = leaf(
                NodeKind::Sequence,
                &format!("rule_{i}"),
                json!({ "weight": i % 100 }),
            );
            rule.children = children;
            rule
        })
        .collect();
    let mut root = leaf(NodeKind::WeightedSelection, "rules", json!({}));
    root.children = rules;
    match compile(&root, &registry()) {
        Ok(t) => t,
        Err(e) => panic!("bench tree does not compile: {e:?}"),
    }
}

fn bench(c: &mut Criterion) {
    let mut t = tree();
    // All 5 guards of every rule hold: 50,000 conditions + 1 running action per tick.
    let mut ctx = Ctx {
        level: 10,
        ticks: 0,
    };
    let mut now = 0.0;
    c.bench_function("weighted_10k_rules_all_guards_hold", |b| {
        b.iter(|| {
            now += 0.01;
            black_box(t.tick(&mut ctx, now))
        })
    });
    // Every rule's third guard fails: 30,000 conditions per tick, nothing chosen.
    let mut t = tree();
    ctx.level = 1;
    c.bench_function("weighted_10k_rules_third_guard_fails", |b| {
        b.iter(|| {
            now += 0.01;
            black_box(t.tick(&mut ctx, now))
        })
    });
    black_box(ctx.ticks);
}

criterion_group!(benches, bench);
criterion_main!(benches);
