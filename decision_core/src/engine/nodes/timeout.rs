//! `Timeout` (BT.CPP 4): ticks the child, and halts it and fails once `msec` milliseconds
//! have passed on the injected clock since the first tick.
//!
//! | state | child result | Timeout |
//! |---|---|---|
//! | time left (or `msec` = 0: no timer) | `Success` / `Failure` | the same; child reset, timer cancelled |
//! | time left | `Running` / `Skipped` | the same; the timer keeps going (after a skip the node stays running: BT.CPP sets it running when it starts the timer) |
//! | time up (`now >= start + msec`), child running | not ticked | `Failure`; the child is halted |
//! | time up, child not running (it skipped) | ticked | its result; the timer is spent and never fires again this round |
//!
//! The timer starts on the first tick after the node was idle or completed. `msec` is read on
//! every tick; a missing or negative value is a tick error. Halting cancels the timer and
//! halts the running child.

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault, NodeState, Port};
use crate::engine::nodes::delay::read_seconds;
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `Timeout`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Timeout",
        NodeModel::new(
            Children::Exactly(1),
            // Required: a missing port is a load error, as `robot-decision bt` requires (BT.CPP
            // reports it on the first tick).
            vec![PortDecl::input(
                "msec",
                EntryType::Int,
                "halt the child and fail after this many milliseconds",
            )],
        ),
        |b| {
            Ok(Box::new(Timeout {
                msec: b.port("msec"),
                started: false,
                deadline: None,
            }))
        },
    );
}

/// The `msec` port, whether the timer was started, and when it fires (`None`: no timer or
/// already fired).
#[derive(Debug)]
pub struct Timeout {
    msec: Port,
    started: bool,
    deadline: Option<f64>,
}

impl<C> Behavior<C> for Timeout {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let limit = read_seconds(cx, &self.msec, "msec")?;
        if !self.started {
            self.started = true;
            cx.set_running();
            self.deadline = (limit > 0.0).then(|| cx.now() + limit);
        }
        if let Some(deadline) = self.deadline
            && cx.now() >= deadline
        {
            // The timer fired since the last tick: it halts a running child, else nothing.
            self.deadline = None;
            if cx.child_state(0) == NodeState::Running {
                cx.halt_child(0);
                self.started = false;
                return Ok(Status::Failure);
            }
        }
        let status = cx.tick_child(0)?;
        if status.is_completed() {
            self.started = false;
            self.deadline = None;
            cx.halt_child(0);
        }
        Ok(status)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.started = false;
        self.deadline = None;
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status, compile};

    fn timeout(ms: i64, child: serde_json::Value) -> serde_json::Value {
        dec("Timeout", json!({ "msec": ms }), child)
    }

    #[test]
    fn outcome_table_in_time() {
        for child in [Status::Success, Status::Failure, Status::Running] {
            let mut t = build(timeout(100, act("a")));
            let mut ctx = Ctx::default();
            ctx.ret("a", child);
            assert_eq!(t.tick(&mut ctx, 0.0), child);
            assert_eq!(entries(&t), [(1, child), (0, child)]);
        }
        let mut t = build(timeout(100, skipped()));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
    }

    #[test]
    fn time_up_halts_the_running_child_once_and_fails() {
        let mut t = build(timeout(300, act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 1.299), Status::Running);
        assert_eq!(ctx.ticks("a"), 2);
        assert_eq!(t.tick(&mut ctx, 1.3), Status::Failure);
        assert_eq!(entries(&t), [(0, Status::Failure)]);
        assert_eq!(ctx.halts("a"), 1);
        assert_eq!(ctx.ticks("a"), 2);
        assert!(all_idle(&t));
        // A new round starts a new timer.
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 2.2), Status::Running);
        assert_eq!(t.tick(&mut ctx, 2.3), Status::Failure);
        assert_eq!(ctx.halts("a"), 2);
    }

    #[test]
    fn completion_cancels_the_timer() {
        let mut t = build(timeout(300, act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.2), Status::Success);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        // Restarted at 0.25: not timed out at 0.35 (0.3 after the first start).
        ctx.ret("a", Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.25), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.35), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.55), Status::Failure);
    }

    #[test]
    fn zero_msec_never_times_out() {
        let mut t = build(timeout(0, act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 1000.0), Status::Running);
        assert_eq!(ctx.halts("a"), 0);
    }

    #[test]
    fn timer_spent_while_the_child_skipped_does_not_fire_later() {
        let child =
            json!({ "type": "act", "name": "a", "ports": { "id": "a", "_skipIf": "s == 1" } });
        let mut t = build(timeout(100, child));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "s", Value::Int(1)).unwrap();
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        assert_eq!(t.tick(&mut ctx, 0.2), Status::Skipped);
        t.blackboard_mut().set(root, "s", Value::Int(0)).unwrap();
        assert_eq!(t.tick(&mut ctx, 0.3), Status::Running);
        assert_eq!(t.tick(&mut ctx, 5.0), Status::Running);
        assert_eq!(ctx.halts("a"), 0);
    }

    #[test]
    fn halting_cancels_the_timer_and_halts_the_child_once() {
        let mut t = build(guarded("g", timeout(100, act("a"))));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.05), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert!(all_idle(&t));
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.2), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.25), Status::Running);
        assert_eq!(ctx.halts("a"), 1);
    }

    #[test]
    fn missing_msec_is_a_compile_error() {
        let e = compile(&spec(dec("Timeout", json!({}), act("a"))), &registry());
        assert!(
            e.err()
                .is_some_and(|e| e[0].message.contains("missing required port `msec`"))
        );
    }
}
