//! `RetryUntilSuccessful` (BT.CPP 4): ticks the child again after each failure, up to
//! `num_attempts` attempts (`-1`: forever).
//!
//! | child result | RetryUntilSuccessful |
//! |---|---|
//! | `Success` | `Success`; child reset, attempts back to 0 |
//! | `Failure`, attempts left, child was idle before this tick | `Running` (BT.CPP yields after each synchronous failed attempt under `tickExactlyOnce`); child reset |
//! | `Failure`, attempts left, child was running before this tick | ticks the child again, from idle, in the same tick |
//! | `Failure`, last attempt | `Failure`; child reset, attempts back to 0 |
//! | `Running` | `Running` |
//! | `Skipped` | `Skipped`; child reset, the attempt count is kept; the node stays running (BT.CPP sets it running before ticking the child) |
//! | `num_attempts` is 0 (or below -1) | `Failure` without ticking the child |
//!
//! `num_attempts` is read on every tick and again after each failure; a missing value is an
//! error on the tick (not at load, as in BT.CPP). Halting resets the attempt count and halts
//! the running child.

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault, NodeState, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `RetryUntilSuccessful`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "RetryUntilSuccessful",
        NodeModel::new(
            Children::Exactly(1),
            // Required: a missing port is a load error, as `robot-decision bt` requires (BT.CPP
            // reports it on the first tick).
            vec![PortDecl::input(
                "num_attempts",
                EntryType::Int,
                "attempts before failing (-1: forever)",
            )],
        ),
        |b| {
            Ok(Box::new(RetryUntilSuccessful {
                attempts: b.port("num_attempts"),
                tried: 0,
            }))
        },
    );
}

/// The `num_attempts` port and the failed attempts so far.
#[derive(Debug)]
pub struct RetryUntilSuccessful {
    attempts: Port,
    tried: i64,
}

impl<C> Behavior<C> for RetryUntilSuccessful {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let mut max = cx
            .get_int(&self.attempts, "num_attempts")
            .map_err(|e| format!("missing parameter [num_attempts]: {e}"))?;
        cx.set_running();
        while self.tried < max || max == -1 {
            let before = cx.child_state(0);
            match cx.tick_child(0)? {
                Status::Success => {
                    self.tried = 0;
                    cx.halt_child(0);
                    return Ok(Status::Success);
                }
                Status::Failure => {
                    self.tried += 1;
                    // The child may have changed the entry; an unreadable value keeps the old one.
                    if let Ok(v) = cx.get_int(&self.attempts, "num_attempts") {
                        max = v;
                    }
                    cx.halt_child(0);
                    if before == NodeState::Idle && (self.tried < max || max == -1) {
                        return Ok(Status::Running);
                    }
                }
                Status::Running => return Ok(Status::Running),
                Status::Skipped => {
                    cx.halt_child(0);
                    return Ok(Status::Skipped);
                }
            }
        }
        self.tried = 0;
        Ok(Status::Failure)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.tried = 0;
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status, compile};

    fn retry(n: i64, child: serde_json::Value) -> serde_json::Value {
        dec("RetryUntilSuccessful", json!({ "num_attempts": n }), child)
    }

    #[test]
    fn success_succeeds_at_once() {
        let mut t = build(retry(3, act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(1, Status::Success), (0, Status::Success)]);
        assert!(all_idle(&t));
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
    }

    #[test]
    fn synchronous_failures_yield_after_each_attempt() {
        let mut t = build(retry(3, act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Running)]);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Failure)]);
        assert_eq!(ctx.ticks("a"), 3);
        // Attempts restart.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
    }

    #[test]
    fn failure_after_running_retries_in_the_same_tick() {
        let mut t = build(retry(3, act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Failure),
                (1, Status::Failure),
                (0, Status::Running)
            ]
        );
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.ticks("a"), 4);
    }

    #[test]
    fn running_and_forever_and_zero() {
        let mut t = build(retry(-1, act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Failure);
        for _ in 0..4 {
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        }
        let mut t = build(retry(0, act("b")));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(entries(&t), [(0, Status::Failure)]);
    }

    #[test]
    fn skipped_child_skips_and_keeps_the_count() {
        let child =
            json!({ "type": "act", "name": "a", "ports": { "id": "a", "_skipIf": "s == 1" } });
        let mut t = build(retry(2, child));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "s", Value::Int(0)).unwrap();
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        t.blackboard_mut().set(root, "s", Value::Int(1)).unwrap();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        t.blackboard_mut().set(root, "s", Value::Int(0)).unwrap();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.ticks("a"), 2);
    }

    #[test]
    fn attempts_are_reread_after_a_failure() {
        // The child raises the limit from 1 to 2 while failing.
        let child = json!({ "type": "act", "name": "a", "ports": { "id": "a", "_post": "n = 2" } });
        let mut t = build(dec(
            "RetryUntilSuccessful",
            json!({ "num_attempts": "{n}" }),
            child,
        ));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "n", Value::Int(1)).unwrap();
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
    }

    #[test]
    fn halting_halts_the_child_once_and_resets_attempts() {
        let mut t = build(guarded("g", retry(2, act("a"))));
        let mut ctx = Ctx::default();
        ctx.set("g", true).ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert!(all_idle(&t));
        ctx.set("g", true).ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
    }

    #[test]
    fn missing_num_attempts_is_a_compile_error() {
        let s = spec(dec("RetryUntilSuccessful", json!({}), act("a")));
        let e = compile(&s, &registry()).err().expect("missing port");
        assert!(
            e[0].message
                .contains("missing required port `num_attempts`"),
            "{e:?}"
        );
    }
}
