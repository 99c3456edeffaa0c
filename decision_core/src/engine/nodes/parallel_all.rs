//! `ParallelAll` (BT.CPP 4): ticks every child that has not completed yet, in order, and
//! finishes only when every child has completed or skipped.
//!
//! Port: `max_failures` (int, default 1), read on every tick; a negative value `k` means
//! `n + k + 1` for `n` children. Let `F` be that threshold, `f` the failures since the node
//! started. Every tick runs the whole loop (no early exit), then:
//!
//! | children | ParallelAll |
//! |---|---|
//! | every child ticked this tick returned `Skipped` (and none completed before) | `Skipped` |
//! | some child still `Running` | `Running` |
//! | every child completed or skipped, `f >= F` | `Failure`; every child reset |
//! | every child completed or skipped, `f < F` | `Success`; every child reset |
//!
//! A child that returned `Success` or `Failure` is not ticked again until the node finishes
//! or is halted; `Running` and `Skipped` children are ticked again next time. With
//! `max_failures` 0 the node fails even when every child succeeds (`f >= 0`).
//!
//! A threshold above `n` is an error: at compile time for a literal, at tick time (a runtime
//! error, as BT.CPP throws) for a blackboard entry.
//!
//! Halting forgets the completed children and the failure count and halts the running
//! children.

use super::parallel::{above_children, check_literal, threshold};
use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `ParallelAll`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "ParallelAll",
        NodeModel::new(
            Children::AtLeast(1),
            vec![PortDecl::input_or(
                "max_failures",
                EntryType::Int,
                "1",
                "number of failed children that makes the node fail (negative: n + max + 1)",
            )],
        ),
        |b| {
            let n = b.child_count();
            let max_failures = b.port("max_failures");
            check_literal(&max_failures, "max_failures", n, "fail")?;
            Ok(Box::new(ParallelAll::new(max_failures, n)))
        },
    );
}

/// The threshold port, which children completed, and the failures since the node started.
#[derive(Debug)]
pub struct ParallelAll {
    max_failures: Port,
    completed: Vec<bool>,
    done: usize,
    failures: usize,
}

impl ParallelAll {
    /// A ParallelAll over `n` children with this `max_failures` port.
    pub fn new(max_failures: Port, n: usize) -> Self {
        Self {
            max_failures,
            completed: vec![false; n],
            done: 0,
            failures: 0,
        }
    }

    fn clear(&mut self) {
        self.completed.fill(false);
        self.done = 0;
        self.failures = 0;
    }
}

impl<C> Behavior<C> for ParallelAll {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        let max_failures = cx.get_int(&self.max_failures, "max_failures")?;
        let need_failure = threshold(max_failures, n);
        if need_failure > n {
            let m = above_children("max_failures", max_failures, need_failure, n, "fail");
            return Err(m.into());
        }
        if self.completed.len() != n {
            self.completed = vec![false; n];
        }
        cx.set_running();
        let mut skipped = 0;
        for i in 0..n {
            if self.completed[i] {
                continue;
            }
            match cx.tick_child(i)? {
                Status::Success => {
                    self.completed[i] = true;
                    self.done += 1;
                }
                Status::Failure => {
                    self.completed[i] = true;
                    self.done += 1;
                    self.failures += 1;
                }
                Status::Skipped => skipped += 1,
                Status::Running => {}
            }
        }
        if skipped == n {
            return Ok(Status::Skipped);
        }
        if skipped + self.done < n {
            return Ok(Status::Running);
        }
        let status = if self.failures >= need_failure {
            Status::Failure
        } else {
            Status::Success
        };
        cx.halt_children();
        self.clear();
        Ok(status)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.clear();
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::test_support::{compile_errors, put};
    use crate::engine::{NodeId, NodeState, Status, Tree};

    use Status::{Failure as F, Running as R, Skipped as K, Success as S};

    /// `ParallelAll` (node 0) with `ports` over actions a, b, c (nodes 1, 2, 3).
    fn par(ports: serde_json::Value) -> Tree<Ctx> {
        build(json!({
            "type": "ParallelAll", "ports": ports,
            "children": [act("a"), act("b"), act("c")]
        }))
    }

    #[test]
    fn all_success_is_success() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("a", S).ret("b", S).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(1, S), (2, S), (3, S), (0, S)]);
        assert!(all_idle(&t));
    }

    #[test]
    fn a_failure_does_not_stop_the_others() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("a", F).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        assert_eq!(entries(&t), [(1, F), (2, R), (3, S), (0, R)]);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(2, R), (0, R)]);
        ctx.ret("b", S);
        assert_eq!(t.tick(&mut ctx, 2.0), F);
        assert_eq!(entries(&t), [(2, S), (0, F)]);
        assert_eq!((ctx.ticks("a"), ctx.ticks("b"), ctx.ticks("c")), (1, 3, 1));
        assert!(all_idle(&t));
    }

    #[test]
    fn failures_below_max_failures_succeed() {
        let mut t = par(json!({ "max_failures": 2 }));
        let mut ctx = Ctx::default();
        ctx.ret("a", F).ret("b", S).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        ctx.ret("b", F);
        assert_eq!(t.tick(&mut ctx, 1.0), F);
        assert_eq!(entries(&t), [(1, F), (2, F), (3, S), (0, F)]);
    }

    #[test]
    fn negative_max_failures_means_n_plus_max_plus_one() {
        let mut t = par(json!({ "max_failures": -1 }));
        let mut ctx = Ctx::default();
        ctx.ret("a", F).ret("b", F).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 1.0), F);
    }

    #[test]
    fn zero_max_failures_always_fails() {
        let mut t = par(json!({ "max_failures": 0 }));
        let mut ctx = Ctx::default();
        ctx.ret("a", S).ret("b", S).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), F);
        assert_eq!(entries(&t), [(1, S), (2, S), (3, S), (0, F)]);
    }

    #[test]
    fn all_skipped_is_skipped_and_skipped_children_are_ticked_again() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("a", K).ret("b", K).ret("c", K);
        assert_eq!(t.tick(&mut ctx, 0.0), K);
        assert_eq!(entries(&t), [(1, K), (2, K), (3, K), (0, K)]);
        // As in BT.CPP: the node marked itself running before ticking, and a SKIPPED
        // result leaves that state; every child is idle.
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        assert!((1..t.node_count()).all(|i| t.state(NodeId(i as u32)) == NodeState::Idle));
        ctx.ret("b", R).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(1, K), (2, R), (3, S), (0, R)]);
        // Skipped children count as done: the rest completing finishes the node.
        ctx.ret("b", S);
        assert_eq!(t.tick(&mut ctx, 2.0), S);
        assert_eq!(entries(&t), [(1, K), (2, S), (0, S)]);
        assert_eq!(ctx.ticks("a"), 3);
        assert!(all_idle(&t));
    }

    #[test]
    fn skips_after_completions_are_not_skipped() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("a", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        ctx.ret("b", K).ret("c", K);
        assert_eq!(t.tick(&mut ctx, 1.0), S);
        assert_eq!(entries(&t), [(2, K), (3, K), (0, S)]);
    }

    #[test]
    fn halt_halts_running_children_once_and_forgets_completed_ones() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("a", F);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        t.halt(&mut ctx);
        assert_eq!((ctx.halts("a"), ctx.halts("b"), ctx.halts("c")), (0, 1, 1));
        assert!(all_idle(&t));
        ctx.ret("a", S).ret("b", S).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 1.0), S);
        assert_eq!(entries(&t), [(1, S), (2, S), (3, S), (0, S)]);
    }

    #[test]
    fn threshold_above_children_is_an_error() {
        let errors = compile_errors(json!({
            "type": "ParallelAll", "ports": { "max_failures": 3 },
            "children": [act("a"), act("b")]
        }));
        assert!(
            errors.len() == 1
                && errors[0].contains("`max_failures` 3 asks for 3 children but there are only 2"),
            "{errors:?}"
        );
        let mut t = par(json!({ "max_failures": "{m}" }));
        let mut ctx = Ctx::default();
        put(&mut t, "m", Value::Int(5));
        let e = t.try_tick(&mut ctx, 0.0).map_err(|e| e.message);
        assert_eq!(
            e,
            Err("`max_failures` 5 asks for 5 children but there are only 3: the node can never fail".to_owned())
        );
        assert_eq!(ctx.ticks("a"), 0);
    }
}
