//! `Repeat` (BT.CPP 4): ticks the child until it has succeeded `num_cycles` times (`-1`:
//! forever).
//!
//! | child result | Repeat |
//! |---|---|
//! | `Success`, cycles left, child was idle before this tick | `Running` (BT.CPP yields after each synchronous cycle under `tickExactlyOnce`); child reset |
//! | `Success`, cycles left, child was running before this tick | ticks the child again, from idle, in the same tick |
//! | `Success`, last cycle | `Success`; child reset, count back to 0 |
//! | `Failure` | `Failure`; child reset, count back to 0 |
//! | `Running` | `Running` |
//! | `Skipped` | `Skipped`; child reset, the count is kept; the node stays running (BT.CPP sets it running before ticking the child) |
//! | `num_cycles` is 0 (or below -1) | `Success` without ticking the child |
//!
//! `num_cycles` is read on every tick; a missing or unreadable value is an error on the tick
//! (not at load, as in BT.CPP). Halting resets the count and halts the running child.

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault, NodeState, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `Repeat`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Repeat",
        NodeModel::new(
            Children::Exactly(1),
            // Required: a missing port is a load error, as `robot-decision bt` requires (BT.CPP
            // reports it on the first tick).
            vec![PortDecl::input(
                "num_cycles",
                EntryType::Int,
                "repeat a successful child this many times (-1: forever)",
            )],
        ),
        |b| {
            Ok(Box::new(Repeat {
                cycles: b.port("num_cycles"),
                count: 0,
            }))
        },
    );
}

/// The `num_cycles` port and the number of successful cycles so far.
#[derive(Debug)]
pub struct Repeat {
    cycles: Port,
    count: i64,
}

impl<C> Behavior<C> for Repeat {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let cycles = cx
            .get_int(&self.cycles, "num_cycles")
            .map_err(|e| format!("missing parameter [num_cycles]: {e}"))?;
        let more = |count: i64| count < cycles || cycles == -1;
        cx.set_running();
        while more(self.count) {
            let before = cx.child_state(0);
            match cx.tick_child(0)? {
                Status::Success => {
                    self.count += 1;
                    cx.halt_child(0);
                    if before == NodeState::Idle && more(self.count) {
                        return Ok(Status::Running);
                    }
                }
                Status::Failure => {
                    self.count = 0;
                    cx.halt_child(0);
                    return Ok(Status::Failure);
                }
                Status::Running => return Ok(Status::Running),
                Status::Skipped => {
                    cx.halt_child(0);
                    return Ok(Status::Skipped);
                }
            }
        }
        self.count = 0;
        Ok(Status::Success)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.count = 0;
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status, compile};

    fn repeat(n: i64, child: serde_json::Value) -> serde_json::Value {
        dec("Repeat", json!({ "num_cycles": n }), child)
    }

    #[test]
    fn synchronous_successes_yield_after_each_cycle() {
        let mut t = build(repeat(3, act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Success), (0, Status::Running)]);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(1, Status::Success), (0, Status::Success)]);
        assert_eq!(ctx.ticks("a"), 3);
        // The count restarts: three more ticks for the next round.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(ctx.ticks("a"), 4);
    }

    #[test]
    fn success_after_running_does_not_yield() {
        let mut t = build(repeat(3, act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Success);
        // Cycle 1 ends after running: cycle 2 runs in the same tick, from idle, and yields.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Success),
                (1, Status::Success),
                (0, Status::Running)
            ]
        );
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(ctx.ticks("a"), 4);
    }

    #[test]
    fn failure_fails_and_resets_the_count() {
        let mut t = build(repeat(2, act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Failure)]);
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
    }

    #[test]
    fn running_child_keeps_it_running() {
        let mut t = build(repeat(2, act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Running), (0, Status::Running)]);
        assert_eq!(t.state(NodeId(1)), NodeState::Running);
    }

    #[test]
    fn forever_and_zero_cycles() {
        let mut t = build(repeat(-1, act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        for _ in 0..5 {
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        }
        assert_eq!(ctx.ticks("a"), 5);
        let mut t = build(repeat(0, act("b")));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
        assert_eq!(ctx.ticks("b"), 0);
    }

    #[test]
    fn skipped_child_skips_and_keeps_the_count() {
        // Child skips while `s` is 1.
        let child =
            json!({ "type": "act", "name": "a", "ports": { "id": "a", "_skipIf": "s == 1" } });
        let mut t = build(repeat(2, child));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "s", Value::Int(0)).unwrap();
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running); // cycle 1 done
        t.blackboard_mut().set(root, "s", Value::Int(1)).unwrap();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        t.blackboard_mut().set(root, "s", Value::Int(0)).unwrap();
        // The kept count: one more cycle completes the Repeat.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(ctx.ticks("a"), 2);
    }

    #[test]
    fn halting_halts_the_child_once_and_resets_the_count() {
        let mut t = build(guarded("g", repeat(2, act("a"))));
        let mut ctx = Ctx::default();
        ctx.set("g", true).ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running); // cycle 1 done
        ctx.ret("a", Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert!(all_idle(&t));
        // Count reset by the halt: two cycles again.
        ctx.set("g", true).ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
    }

    #[test]
    fn missing_num_cycles_and_a_bad_literal_are_compile_errors() {
        let s = spec(dec("Repeat", json!({}), act("a")));
        let e = compile(&s, &registry()).err().expect("missing port");
        assert!(
            e[0].message.contains("missing required port `num_cycles`"),
            "{e:?}"
        );
        let s = spec(dec("Repeat", json!({ "num_cycles": "x" }), act("a")));
        assert!(compile(&s, &registry()).is_err());
    }

    #[test]
    fn num_cycles_from_the_blackboard() {
        let mut t = build(dec("Repeat", json!({ "num_cycles": "{n}" }), act("a")));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "n", Value::Int(1)).unwrap();
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
    }
}
