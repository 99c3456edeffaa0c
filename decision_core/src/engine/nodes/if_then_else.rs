//! `IfThenElse` (BT.CPP 4): child 0 is the condition, child 1 the then-branch, the optional
//! child 2 the else-branch. Not reactive: once a branch is chosen, the condition is not
//! ticked again until that branch completes.
//!
//! | condition | IfThenElse |
//! |---|---|
//! | `Running` | `Running`; the condition is ticked again next tick |
//! | `Success` | ticks the then-branch in the same tick |
//! | `Failure`, 3 children | ticks the else-branch in the same tick |
//! | `Failure`, 2 children | `Failure`; the condition is **not** reset (it stays failed) |
//! | `Skipped` | runtime error (BT.CPP throws a logic error) |
//!
//! | chosen branch | IfThenElse |
//! |---|---|
//! | `Running` | `Running`; only that branch is ticked next time |
//! | `Success` / `Failure` / `Skipped` | the same; every child reset, the next tick starts at the condition |
//!
//! Halting forgets the chosen branch and halts the running child.

use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `IfThenElse`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "IfThenElse",
        // BT.CPP loads any number of children and throws at the first tick.
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |_| Ok(Box::new(IfThenElse::default())),
    );
}

/// The chosen branch (`None` while the condition decides).
#[derive(Debug, Default)]
pub struct IfThenElse {
    branch: Option<usize>,
}

impl<C> Behavior<C> for IfThenElse {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        if !(2..=3).contains(&n) {
            return Err(format!("`IfThenElse` must have 2 or 3 children, got {n}").into());
        }
        cx.set_running();
        let branch = match self.branch {
            Some(branch) => branch,
            None => match cx.tick_child(0)? {
                Status::Running => return Ok(Status::Running),
                Status::Success => 1,
                Status::Failure if cx.child_count() == 3 => 2,
                Status::Failure => return Ok(Status::Failure),
                Status::Skipped => {
                    return Err(
                        "the condition (first child) of IfThenElse returned SKIPPED, \
                                which IfThenElse cannot handle"
                            .into(),
                    );
                }
            },
        };
        self.branch = Some(branch);
        let status = cx.tick_child(branch)?;
        if status != Status::Running {
            cx.halt_children();
            self.branch = None;
        }
        Ok(status)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.branch = None;
        cx.halt_children();
    }

    fn running_child(&self) -> Option<usize> {
        self.branch
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status, Tree};

    use Status::{Failure as F, Running as R, Skipped as K, Success as S};

    /// `IfThenElse` (node 0) over actions c, t and, with `with_else`, e (nodes 1, 2, 3).
    fn ite(with_else: bool) -> Tree<Ctx> {
        let mut children = vec![act("c"), act("t")];
        if with_else {
            children.push(act("e"));
        }
        build(node("IfThenElse", children))
    }

    #[test]
    fn success_runs_the_then_branch_in_the_same_tick() {
        let mut t = ite(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", S).ret("t", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(1, S), (2, S), (0, S)]);
        assert!(all_idle(&t));
        ctx.ret("t", F);
        assert_eq!(t.tick(&mut ctx, 1.0), F);
        assert_eq!(entries(&t), [(1, S), (2, F), (0, F)]);
        assert!(all_idle(&t));
    }

    #[test]
    fn failure_runs_the_else_branch() {
        let mut t = ite(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", F).ret("e", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(1, F), (3, S), (0, S)]);
        assert_eq!(ctx.ticks("t"), 0);
        assert!(all_idle(&t));
    }

    #[test]
    fn failure_without_else_fails_and_keeps_the_condition_failed() {
        let mut t = ite(false);
        let mut ctx = Ctx::default();
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 0.0), F);
        assert_eq!(entries(&t), [(1, F), (0, F)]);
        assert_eq!(t.state(NodeId(1)), NodeState::Failure);
        assert_eq!(t.state(NodeId(0)), NodeState::Idle);
    }

    #[test]
    fn running_branch_is_resumed_without_the_condition() {
        let mut t = ite(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        assert_eq!(entries(&t), [(1, S), (2, R), (0, R)]);
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(2, R), (0, R)]);
        ctx.ret("t", S);
        assert_eq!(t.tick(&mut ctx, 2.0), S);
        assert_eq!(entries(&t), [(2, S), (0, S)]);
        assert_eq!((ctx.ticks("c"), ctx.ticks("t"), ctx.ticks("e")), (1, 3, 0));
        assert!(all_idle(&t));
    }

    #[test]
    fn running_condition_is_ticked_again() {
        let mut t = ite(true);
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        assert_eq!(entries(&t), [(1, R), (0, R)]);
        ctx.ret("c", F).ret("e", F);
        assert_eq!(t.tick(&mut ctx, 1.0), F);
        assert_eq!(entries(&t), [(1, F), (3, F), (0, F)]);
    }

    #[test]
    fn skipped_branch_is_skipped_and_resets_the_children() {
        let mut t = ite(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", S).ret("t", K);
        assert_eq!(t.tick(&mut ctx, 0.0), K);
        assert_eq!(entries(&t), [(1, S), (2, K), (0, K)]);
        // As in BT.CPP: the node marked itself running before ticking, and a SKIPPED
        // result leaves that state; every child is idle.
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        assert!((1..t.node_count()).all(|i| t.state(NodeId(i as u32)) == NodeState::Idle));
    }

    #[test]
    fn skipped_condition_is_a_runtime_error() {
        let mut t = ite(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", K);
        let e = t.try_tick(&mut ctx, 0.0).map_err(|e| e.message);
        assert_eq!(
            e,
            Err("the condition (first child) of IfThenElse returned SKIPPED, which IfThenElse cannot handle".to_owned())
        );
        assert_eq!((ctx.ticks("t"), ctx.ticks("e")), (0, 0));
    }

    #[test]
    fn halt_halts_the_running_branch_once_and_starts_over() {
        let mut t = ite(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        t.halt(&mut ctx);
        assert_eq!((ctx.halts("c"), ctx.halts("t"), ctx.halts("e")), (0, 0, 1));
        assert!(all_idle(&t));
        ctx.ret("c", S);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(1, S), (2, R), (0, R)]);
    }

    #[test]
    fn a_wrong_child_count_loads_and_fails_at_the_first_tick() {
        for n in [1, 4] {
            let children = ["a", "b", "c", "d"][..n].iter().map(|id| act(id)).collect();
            let mut t = build(node("IfThenElse", children));
            let err = t
                .try_tick(&mut Ctx::default(), 0.0)
                .map(|_| ())
                .unwrap_err();
            assert!(
                err.to_string().contains("must have 2 or 3 children, got"),
                "{err}"
            );
        }
    }
}
