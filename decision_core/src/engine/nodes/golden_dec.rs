//! Golden traces from BehaviorTree.CPP 4.10 (`tickExactlyOnce`, random trees over the
//! standard nodes and the oracle's `Work` / `CheckKey` / `Noop` leaves), replayed on the
//! engine: every tick's root status and the full trace (node labels in order) must match.
//!
//! The fixture `golden_dec.json` holds the cases whose trees use only kinds this crate has
//! (SubTrees inlined, as the XML loader does); it was converted from
//! `golden/random/NNN.{xml,in.jsonl,out.jsonl}` of the BT.CPP oracle: 80 of its 300 cases,
//! those whose main tree (with its subtrees) uses only the standard kinds registered here
//! plus the oracle leaves, and at least one decorator or action of this library. Each
//! element's attributes become ports (minus `name`), a `SubTree` gets its subtree's root as
//! its child and is labelled with its `ID` when unnamed, and an unnamed node is labelled with
//! its type, as BT.CPP names nodes. Input line 0 is written before the first tick; the tick
//! index is the injected time.

use serde::Deserialize;

use crate::engine::blackboard::{EntryType, Value};
use crate::engine::node::{Behavior, Cx, Fault, NodeState, Port};
use crate::engine::test_support::Ctx;
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status, TreeSpec, compile};

/// The oracle's `Work`: `Running` for `ticks - 1` more ticks after starting, then `Success`.
struct Work {
    ticks: Port,
    target: i64,
    count: i64,
}

impl<C> Behavior<C> for Work {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        match cx.state() {
            NodeState::Idle => {
                self.target = cx.get_int(&self.ticks, "ticks")?;
                self.count = 0;
                if self.target <= 0 {
                    return Ok(Status::Success);
                }
                self.count = 1;
                Ok(Status::Running)
            }
            NodeState::Running => {
                if self.count >= self.target {
                    self.count = 0;
                    return Ok(Status::Success);
                }
                self.count += 1;
                Ok(Status::Running)
            }
            NodeState::Success => Ok(Status::Success),
            NodeState::Failure => Ok(Status::Failure),
        }
    }
}

/// The oracle's `CheckKey`: `Success` when entry `key` reads as the int `expect`.
struct CheckKey {
    key: String,
    expect: Port,
}

impl<C> Behavior<C> for CheckKey {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let expect = cx.get_int(&self.expect, "expect")?;
        let scope = cx.scope();
        let got = cx.blackboard().get(scope, &self.key).and_then(|v| match v {
            Value::Str(s) => s.trim().parse::<i64>().ok(),
            other => other.as_int().ok(),
        });
        Ok(if got == Some(expect) {
            Status::Success
        } else {
            Status::Failure
        })
    }
}

/// The oracle's `Noop`: `Success`.
struct Noop;

impl<C> Behavior<C> for Noop {
    fn tick(&mut self, _cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        Ok(Status::Success)
    }
}

fn oracle_registry() -> Registry<Ctx> {
    let mut r = crate::engine::test_support::registry();
    r.register(
        "Work",
        NodeModel::new(
            Children::None,
            vec![PortDecl::input_or(
                "ticks",
                EntryType::Int,
                "",
                "ticks to run",
            )],
        ),
        |b| {
            Ok(Box::new(Work {
                ticks: b.port("ticks"),
                target: 0,
                count: 0,
            }))
        },
    );
    r.register(
        "CheckKey",
        NodeModel::new(
            Children::None,
            vec![
                PortDecl::input("key", EntryType::Str, "entry to check"),
                PortDecl::input_or("expect", EntryType::Int, "", "expected int"),
            ],
        ),
        |b| {
            Ok(Box::new(CheckKey {
                key: b.text("key").unwrap_or_default(),
                expect: b.port("expect"),
            }))
        },
    );
    r.register("Noop", NodeModel::new(Children::None, Vec::new()), |_| {
        Ok(Box::new(Noop))
    });
    r
}

#[derive(Deserialize)]
struct Case {
    case: String,
    tree: TreeSpec,
    inputs: Vec<serde_json::Map<String, serde_json::Value>>,
    outputs: Vec<Expected>,
}

#[derive(Deserialize)]
struct Expected {
    status: String,
    trace: Vec<(String, String)>,
}

fn to_value(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Double(n.as_f64().unwrap_or(0.0)),
        },
        serde_json::Value::String(s) => Value::Str(s.clone()),
        other => panic!("unsupported input value {other}"),
    }
}

/// Replays one case; the first mismatch as text.
fn replay(case: &Case, registry: &Registry<Ctx>) -> Result<(), String> {
    let mut tree = compile(&case.tree, registry).map_err(|e| format!("compile: {e:?}"))?;
    let root = tree.root_scope();
    let mut ctx = Ctx::default();
    for (i, (input, expected)) in case.inputs.iter().zip(&case.outputs).enumerate() {
        for (k, v) in input {
            tree.blackboard_mut()
                .set(root, k, to_value(v))
                .map_err(|e| format!("tick {i}: set {k}: {e}"))?;
        }
        let status = tree
            .try_tick(&mut ctx, i as f64)
            .map_err(|e| format!("tick {i}: error {e}"))?;
        let trace: Vec<(String, String)> = tree
            .trace()
            .entries()
            .iter()
            .map(|e| {
                (
                    tree.name(e.node).unwrap_or_default().to_owned(),
                    e.status.as_upper().to_owned(),
                )
            })
            .collect();
        if status.as_upper() != expected.status || trace != expected.trace {
            return Err(format!(
                "tick {i}: got {} {trace:?}, BT.CPP {} {:?}",
                status.as_upper(),
                expected.status,
                expected.trace
            ));
        }
    }
    Ok(())
}

#[test]
fn golden_traces_match_btcpp() {
    let cases: Vec<Case> =
        serde_json::from_str(include_str!("golden_dec.json")).expect("fixture parses");
    let registry = oracle_registry();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            replay(c, &registry)
                .err()
                .map(|e| format!("{}: {e}", c.case))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
