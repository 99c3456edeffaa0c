//! `WhileDoElse` (BT.CPP 4): a reactive if-then-else. Child 0, the condition, is ticked on
//! every tick; child 1 runs while it holds, the optional child 2 while it fails.
//!
//! | condition | WhileDoElse |
//! |---|---|
//! | `Running` | `Running`; no branch is ticked (a running branch stays running, not halted) |
//! | `Success` | the else-branch is halted and reset, then the do-branch is ticked |
//! | `Failure`, 3 children | the do-branch is halted and reset, then the else-branch is ticked |
//! | `Failure`, 2 children | `Failure`; every child reset (a running do-branch is halted) |
//! | `Skipped` | every child reset, then a runtime error (BT.CPP would return IDLE) |
//!
//! | ticked branch | WhileDoElse |
//! |---|---|
//! | `Running` | `Running` |
//! | `Success` / `Failure` / `Skipped` | the same; every child reset |
//!
//! Halting halts the running child (the default).

use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `WhileDoElse`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "WhileDoElse",
        // BT.CPP loads any number of children and throws at the first tick.
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |_| Ok(Box::new(WhileDoElse)),
    );
}

/// No memory of its own: the condition decides on every tick.
#[derive(Debug, Default)]
pub struct WhileDoElse;

impl<C> Behavior<C> for WhileDoElse {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        if !(2..=3).contains(&n) {
            return Err(format!("`WhileDoElse` must have 2 or 3 children, got {n}").into());
        }
        cx.set_running();
        let with_else = cx.child_count() == 3;
        let status = match cx.tick_child(0)? {
            Status::Running => return Ok(Status::Running),
            Status::Success => {
                if with_else {
                    cx.halt_child(2);
                }
                cx.tick_child(1)?
            }
            Status::Failure if with_else => {
                cx.halt_child(1);
                cx.tick_child(2)?
            }
            Status::Failure => Status::Failure,
            Status::Skipped => {
                cx.halt_children();
                return Err(
                    "the condition (first child) of WhileDoElse returned SKIPPED, \
                            which WhileDoElse cannot handle"
                        .into(),
                );
            }
        };
        if status != Status::Running {
            cx.halt_children();
        }
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status, Tree};

    use Status::{Failure as F, Running as R, Skipped as K, Success as S};

    /// `WhileDoElse` (node 0) over actions c, d and, with `with_else`, e (nodes 1, 2, 3).
    fn wde(with_else: bool) -> Tree<Ctx> {
        let mut children = vec![act("c"), act("d")];
        if with_else {
            children.push(act("e"));
        }
        build(node("WhileDoElse", children))
    }

    #[test]
    fn condition_is_ticked_every_time() {
        let mut t = wde(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        assert_eq!(entries(&t), [(1, S), (2, R), (0, R)]);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(1, S), (2, R), (0, R)]);
        ctx.ret("d", S);
        assert_eq!(t.tick(&mut ctx, 2.0), S);
        assert_eq!(entries(&t), [(1, S), (2, S), (0, S)]);
        assert_eq!((ctx.ticks("c"), ctx.ticks("d"), ctx.halts("d")), (3, 3, 0));
        assert!(all_idle(&t));
    }

    #[test]
    fn failure_runs_the_else_branch() {
        let mut t = wde(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", F).ret("e", F);
        assert_eq!(t.tick(&mut ctx, 0.0), F);
        assert_eq!(entries(&t), [(1, F), (3, F), (0, F)]);
        assert_eq!(ctx.ticks("d"), 0);
        assert!(all_idle(&t));
    }

    #[test]
    fn switching_branches_halts_the_other_one_once() {
        let mut t = wde(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(1, F), (3, R), (0, R)]);
        assert_eq!((ctx.halts("d"), ctx.halts("e")), (1, 0));
        assert_eq!(t.state(NodeId(2)), NodeState::Idle);
        ctx.ret("c", S);
        assert_eq!(t.tick(&mut ctx, 2.0), R);
        assert_eq!(entries(&t), [(1, S), (2, R), (0, R)]);
        assert_eq!((ctx.halts("d"), ctx.halts("e")), (1, 1));
    }

    #[test]
    fn failure_without_else_fails_and_halts_the_do_branch() {
        let mut t = wde(false);
        let mut ctx = Ctx::default();
        ctx.ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 1.0), F);
        assert_eq!(entries(&t), [(1, F), (0, F)]);
        assert_eq!(ctx.halts("d"), 1);
        assert!(all_idle(&t));
    }

    #[test]
    fn running_condition_leaves_the_branch_running() {
        let mut t = wde(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        ctx.ret("c", R);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(1, R), (0, R)]);
        assert_eq!(ctx.halts("d"), 0);
        assert_eq!(t.state(NodeId(2)), NodeState::Running);
    }

    #[test]
    fn skipped_branch_is_skipped_and_resets_the_children() {
        let mut t = wde(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", F).ret("e", K);
        assert_eq!(t.tick(&mut ctx, 0.0), K);
        assert_eq!(entries(&t), [(1, F), (3, K), (0, K)]);
        // As in BT.CPP: the node marked itself running before ticking, and a SKIPPED
        // result leaves that state; every child is idle.
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        assert!((1..t.node_count()).all(|i| t.state(NodeId(i as u32)) == NodeState::Idle));
    }

    #[test]
    fn skipped_condition_is_a_runtime_error_after_resetting_the_children() {
        let mut t = wde(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        ctx.ret("c", K);
        let e = t.try_tick(&mut ctx, 1.0).map_err(|e| e.message);
        assert_eq!(
            e,
            Err("the condition (first child) of WhileDoElse returned SKIPPED, which WhileDoElse cannot handle".to_owned())
        );
        assert_eq!((ctx.ticks("d"), ctx.halts("d")), (1, 1));
    }

    #[test]
    fn halt_halts_the_running_branch_once() {
        let mut t = wde(true);
        let mut ctx = Ctx::default();
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        t.halt(&mut ctx);
        assert_eq!((ctx.halts("c"), ctx.halts("d"), ctx.halts("e")), (0, 0, 1));
        assert!(all_idle(&t));
    }

    #[test]
    fn a_wrong_child_count_loads_and_fails_at_the_first_tick() {
        for n in [1, 4] {
            let children = ["a", "b", "c", "d"][..n].iter().map(|id| act(id)).collect();
            let mut t = build(node("WhileDoElse", children));
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
