//! `ForceSuccess` and `ForceFailure` (BT.CPP 4): a completed child always gives the forced
//! result.
//!
//! | child result | ForceSuccess | ForceFailure |
//! |---|---|---|
//! | `Success` | `Success`; child reset | `Failure`; child reset |
//! | `Failure` | `Success`; child reset | `Failure`; child reset |
//! | `Running` | `Running` | `Running` |
//! | `Skipped` | `Skipped`; the node stays running (BT.CPP sets it running before ticking the child) | the same |
//!
//! Halting halts the running child and leaves it idle.

use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `ForceSuccess` and `ForceFailure`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    for (id, result) in [
        ("ForceSuccess", Status::Success),
        ("ForceFailure", Status::Failure),
    ] {
        registry.register(
            id,
            NodeModel::new(Children::Exactly(1), Vec::new()),
            move |_| Ok(Box::new(Force(result))),
        );
    }
}

/// No state but the forced result, given once the child completes.
#[derive(Debug)]
pub struct Force(Status);

impl<C> Behavior<C> for Force {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        cx.set_running();
        let status = cx.tick_child(0)?;
        if status.is_completed() {
            cx.halt_child(0);
            return Ok(self.0);
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status};

    const KINDS: [(&str, Status); 2] = [
        ("ForceSuccess", Status::Success),
        ("ForceFailure", Status::Failure),
    ];

    #[test]
    fn outcome_table() {
        for (kind, forced) in KINDS {
            for (child, expected) in [
                (Status::Success, forced),
                (Status::Failure, forced),
                (Status::Running, Status::Running),
            ] {
                let mut t = build(dec(kind, json!({}), act("a")));
                let mut ctx = Ctx::default();
                ctx.ret("a", child);
                assert_eq!(t.tick(&mut ctx, 0.0), expected, "{kind}");
                assert_eq!(entries(&t), [(1, child), (0, expected)]);
                let child_after = if child == Status::Running {
                    NodeState::Running
                } else {
                    NodeState::Idle
                };
                assert_eq!(t.state(NodeId(1)), child_after);
            }
        }
    }

    #[test]
    fn skipped_child_passes_through() {
        for (kind, _) in KINDS {
            let mut t = build(dec(kind, json!({}), skipped()));
            assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Skipped);
            assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
            // BT.CPP set the decorator running before ticking the child; the skip keeps that.
            assert_eq!(t.state(NodeId(0)), NodeState::Running);
            assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        }
    }

    #[test]
    fn halting_halts_the_running_child_once() {
        for (kind, _) in KINDS {
            let mut t = build(guarded("g", dec(kind, json!({}), act("a"))));
            let mut ctx = Ctx::default();
            ctx.set("g", true);
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
            ctx.set("g", false);
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
            assert_eq!(ctx.halts("a"), 1);
            assert!(all_idle(&t));
        }
    }
}
