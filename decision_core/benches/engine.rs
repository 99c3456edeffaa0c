//! Tick cost of the engine: a `weighted_selection` over 10,000 rules, each a guard `Sequence`
//! of 5 trivial conditions and an action.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use decision_core::engine::blackboard::EntryType;
use decision_core::engine::{
    Action, Condition, LeafParams, PortDecl, Registry, Status, Tree, TreeSpec, compile, nodes,
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
    nodes::register_standard(&mut r);
    nodes::weighted_selection::register(&mut r);
    let min = PortDecl::input("min", EntryType::Int, "the least counter that holds");
    r.condition("at_least", vec![min], |p: &LeafParams| {
        Ok(Box::new(AtLeast(p.i64("min")?)) as Box<dyn Condition<Ctx>>)
    });
    r.action("work", Vec::new(), |_: &LeafParams| {
        Ok(Box::new(Work) as Box<dyn Action<Ctx>>)
    });
    r
}

fn leaf(kind: &str, name: &str, ports: Value) -> TreeSpec {
    let ports = match ports {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    TreeSpec {
        ports,
        ..TreeSpec::new(kind).named(name)
    }
}

/// 10,000 rules; rule `i` has weight `i % 100` and guards `level >= 0, ..., level >= 4`.
fn tree() -> Tree<Ctx> {
    let rules = (0..10_000)
        .map(|i| {
            let guards: Vec<TreeSpec> = (0..5)
                .map(|k| leaf("at_least", "at_least", json!({ "min": k })))
                .collect();
            let guard = TreeSpec::new("Sequence").with_children(guards);
            leaf(
                "weighted_rule",
                &format!("rule_{i}"),
                json!({ "weight": i % 100 }),
            )
            .with_children([guard, leaf("work", "work", json!({}))])
        })
        .collect();
    let mut root = leaf("weighted_selection", "rules", json!({}));
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
