//! `KeepRunningUntilFailure` (BT.CPP 4): keeps running while the child succeeds.
//!
//! | child result | KeepRunningUntilFailure |
//! |---|---|
//! | `Success` | `Running`; child reset (ticked again from idle next tick) |
//! | `Failure` | `Failure`; child reset |
//! | `Running` | `Running` |
//! | `Skipped` | `Running` (BT.CPP returns the status it set before ticking the child) |
//!
//! Halting halts the running child and leaves it idle.

use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `KeepRunningUntilFailure`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "KeepRunningUntilFailure",
        NodeModel::new(Children::Exactly(1), Vec::new()),
        |_| Ok(Box::new(KeepRunningUntilFailure)),
    );
}

/// No state: running until the child fails.
#[derive(Debug, Default)]
pub struct KeepRunningUntilFailure;

impl<C> Behavior<C> for KeepRunningUntilFailure {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        match cx.tick_child(0)? {
            Status::Failure => {
                cx.halt_child(0);
                Ok(Status::Failure)
            }
            Status::Success => {
                cx.halt_child(0);
                Ok(Status::Running)
            }
            Status::Running | Status::Skipped => Ok(Status::Running),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status};

    #[test]
    fn outcome_table() {
        for (child, expected) in [
            (Status::Success, Status::Running),
            (Status::Failure, Status::Failure),
            (Status::Running, Status::Running),
        ] {
            let mut t = build(dec("KeepRunningUntilFailure", json!({}), act("a")));
            let mut ctx = Ctx::default();
            ctx.ret("a", child);
            assert_eq!(t.tick(&mut ctx, 0.0), expected);
            assert_eq!(entries(&t), [(1, child), (0, expected)]);
        }
    }

    #[test]
    fn success_resets_the_child_and_ticks_it_again() {
        let mut t = build(dec("KeepRunningUntilFailure", json!({}), act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        for _ in 0..3 {
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
            assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        }
        assert_eq!(ctx.ticks("a"), 3);
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert!(all_idle(&t));
    }

    #[test]
    fn skipped_child_gives_running() {
        let mut t = build(dec("KeepRunningUntilFailure", json!({}), skipped()));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Running)]);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
    }

    #[test]
    fn halting_halts_the_running_child_once() {
        let mut t = build(guarded(
            "g",
            dec("KeepRunningUntilFailure", json!({}), act("a")),
        ));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert!(all_idle(&t));
    }
}
