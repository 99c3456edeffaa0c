//! `Parallel` (BT.CPP 4): ticks every child that has not completed yet, in order, and finishes
//! as soon as enough children succeeded or failed.
//!
//! Ports: `success_count` (int, default -1) and `failure_count` (int, default 1); a negative
//! count `k` means `n + k + 1` for `n` children (-1 = all of them). Both are read on every
//! tick. Let `S` and `F` be these thresholds and `s`, `f` the successes and failures counted
//! since the node started, `k` the children skipped so far in this tick. After *each* child
//! (ticked or passed over because it completed already) the node checks, in this order:
//!
//! | condition | Parallel |
//! |---|---|
//! | `s >= S`, or `success_count < 0` and `s + k >= S` | `Success`; running children halted, every child reset |
//! | `n - f < S` (success became impossible) or `f == F` | `Failure`; running children halted, every child reset |
//!
//! so later children may not be ticked at all in the finishing tick. When no check fires:
//!
//! | children this tick | Parallel |
//! |---|---|
//! | every child `Skipped` | `Skipped` |
//! | otherwise | `Running` |
//!
//! A child that returned `Success` or `Failure` is not ticked again until the node finishes
//! or is halted; `Running` and `Skipped` children are ticked again next time. With the
//! default `success_count` of -1 skipped children count as successes, so a Parallel whose
//! children all skip returns `Success`, not `Skipped`.
//!
//! A threshold above `n` is an error: at compile time for a literal, at tick time (a runtime
//! error, as BT.CPP throws) for a blackboard entry.
//!
//! Halting forgets the completed children and the counts and halts the running children.

use crate::engine::blackboard::{EntryType, Value};
use crate::engine::node::{Behavior, Cx, Fault, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `Parallel`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Parallel",
        NodeModel::new(
            Children::AtLeast(1),
            vec![
                PortDecl::input_or(
                    "success_count",
                    EntryType::Int,
                    "-1",
                    "number of children that must succeed (negative: n + count + 1)",
                ),
                PortDecl::input_or(
                    "failure_count",
                    EntryType::Int,
                    "1",
                    "number of children that must fail (negative: n + count + 1)",
                ),
            ],
        ),
        |b| {
            let n = b.child_count();
            let success = b.port("success_count");
            let failure = b.port("failure_count");
            check_literal(&success, "success_count", n, "succeed")?;
            check_literal(&failure, "failure_count", n, "fail")?;
            Ok(Box::new(Parallel::new(success, failure, n)))
        },
    );
}

/// The threshold a count port means for `n` children: negative `k` is `n + k + 1` (at least 0).
pub(crate) fn threshold(count: i64, n: usize) -> usize {
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    let t = if count < 0 {
        n.saturating_add(count).saturating_add(1).max(0)
    } else {
        count
    };
    usize::try_from(t).unwrap_or(usize::MAX)
}

/// The error for a threshold `t` (from port `name` = `count`) above the `n` children.
pub(crate) fn above_children(name: &str, count: i64, t: usize, n: usize, what: &str) -> String {
    format!(
        "`{name}` {count} asks for {t} children but there are only {n}: the node can never {what}"
    )
}

/// Compile-time check of a literal count port (an entry is checked on every tick).
pub(crate) fn check_literal(port: &Port, name: &str, n: usize, what: &str) -> Result<(), String> {
    if let Port::Literal(Value::Int(count)) = port {
        let t = threshold(*count, n);
        if t > n {
            return Err(above_children(name, *count, t, n, what));
        }
    }
    Ok(())
}

/// The threshold ports, which children completed, and the counts since the node started.
#[derive(Debug)]
pub struct Parallel {
    success_port: Port,
    failure_port: Port,
    completed: Vec<bool>,
    successes: usize,
    failures: usize,
}

impl Parallel {
    /// A Parallel over `n` children with these threshold ports.
    pub fn new(success_port: Port, failure_port: Port, n: usize) -> Self {
        Self {
            success_port,
            failure_port,
            completed: vec![false; n],
            successes: 0,
            failures: 0,
        }
    }

    fn clear(&mut self) {
        self.completed.fill(false);
        self.successes = 0;
        self.failures = 0;
    }

    /// Finishes with `status`: memory cleared, running children halted, every child reset.
    fn finish<C>(&mut self, cx: &mut Cx<'_, C>, status: Status) -> Result<Status, Fault> {
        self.clear();
        cx.halt_children();
        Ok(status)
    }
}

impl<C> Behavior<C> for Parallel {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        let success_count = cx.get_int(&self.success_port, "success_count")?;
        let failure_count = cx.get_int(&self.failure_port, "failure_count")?;
        let need_success = threshold(success_count, n);
        let need_failure = threshold(failure_count, n);
        if need_success > n {
            let m = above_children("success_count", success_count, need_success, n, "succeed");
            return Err(m.into());
        }
        if need_failure > n {
            let m = above_children("failure_count", failure_count, need_failure, n, "fail");
            return Err(m.into());
        }
        if self.completed.len() != n {
            self.completed = vec![false; n];
        }
        cx.set_running();
        let mut skipped = 0;
        for i in 0..n {
            if !self.completed[i] {
                match cx.tick_child(i)? {
                    Status::Success => {
                        self.completed[i] = true;
                        self.successes += 1;
                    }
                    Status::Failure => {
                        self.completed[i] = true;
                        self.failures += 1;
                    }
                    Status::Skipped => skipped += 1,
                    Status::Running => {}
                }
            }
            if self.successes >= need_success
                || (success_count < 0 && self.successes + skipped >= need_success)
            {
                return self.finish(cx, Status::Success);
            }
            if n - self.failures < need_success || self.failures == need_failure {
                return self.finish(cx, Status::Failure);
            }
        }
        Ok(if skipped == n {
            Status::Skipped
        } else {
            Status::Running
        })
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

    /// `Parallel` (node 0) with `ports` over actions a, b, c (nodes 1, 2, 3).
    fn par(ports: serde_json::Value) -> Tree<Ctx> {
        build(json!({
            "type": "Parallel", "ports": ports,
            "children": [act("a"), act("b"), act("c")]
        }))
    }

    use Status::{Failure as F, Running as R, Skipped as K, Success as S};

    #[test]
    fn default_needs_every_child_to_succeed() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("a", S).ret("b", S).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(1, S), (2, S), (3, S), (0, S)]);
        assert!(all_idle(&t));
    }

    #[test]
    fn completed_children_are_not_ticked_again_until_the_end() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("b", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        assert_eq!(entries(&t), [(1, R), (2, S), (3, R), (0, R)]);
        assert_eq!(t.state(NodeId(2)), NodeState::Success);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(1, R), (3, R), (0, R)]);
        ctx.ret("a", S).ret("c", S);
        assert_eq!(t.tick(&mut ctx, 2.0), S);
        assert_eq!(entries(&t), [(1, S), (3, S), (0, S)]);
        assert_eq!((ctx.ticks("a"), ctx.ticks("b"), ctx.ticks("c")), (3, 1, 3));
        assert!(all_idle(&t));
        // A new round ticks every child again.
        assert_eq!(t.tick(&mut ctx, 3.0), S);
        assert_eq!(ctx.ticks("b"), 2);
    }

    #[test]
    fn first_failure_fails_at_once_and_halts_running_children_once() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("b", F);
        assert_eq!(t.tick(&mut ctx, 0.0), F);
        assert_eq!(entries(&t), [(1, R), (2, F), (0, F)]);
        assert_eq!((ctx.halts("a"), ctx.ticks("c"), ctx.halts("c")), (1, 0, 0));
        assert!(all_idle(&t));
    }

    #[test]
    fn success_threshold_is_checked_after_each_child() {
        let mut t = par(json!({ "success_count": 1 }));
        let mut ctx = Ctx::default();
        ctx.ret("b", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(1, R), (2, S), (0, S)]);
        assert_eq!((ctx.halts("a"), ctx.ticks("c")), (1, 0));
        assert!(all_idle(&t));
    }

    #[test]
    fn fails_as_soon_as_success_is_impossible() {
        let mut t = par(json!({ "success_count": 3, "failure_count": 3 }));
        let mut ctx = Ctx::default();
        ctx.ret("a", F);
        assert_eq!(t.tick(&mut ctx, 0.0), F);
        assert_eq!(entries(&t), [(1, F), (0, F)]);
    }

    #[test]
    fn failure_threshold_counts_across_ticks() {
        let mut t = par(json!({ "success_count": 1, "failure_count": 2 }));
        let mut ctx = Ctx::default();
        ctx.ret("a", F);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        assert_eq!(entries(&t), [(1, F), (2, R), (3, R), (0, R)]);
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 1.0), F);
        assert_eq!(entries(&t), [(2, R), (3, F), (0, F)]);
        assert_eq!((ctx.halts("b"), ctx.ticks("a")), (1, 1));
        assert!(all_idle(&t));
    }

    #[test]
    fn negative_failure_count_means_n_plus_count_plus_one() {
        let mut t = par(json!({ "success_count": 1, "failure_count": -1 }));
        let mut ctx = Ctx::default();
        ctx.ret("a", F).ret("b", F);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        ctx.ret("c", F);
        assert_eq!(t.tick(&mut ctx, 1.0), F);
        assert_eq!(entries(&t), [(3, F), (0, F)]);
    }

    #[test]
    fn negative_success_count_counts_skipped_children_as_successes() {
        let mut t = par(json!({ "success_count": -1 }));
        let mut ctx = Ctx::default();
        ctx.ret("a", K).ret("b", S).ret("c", K);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(1, K), (2, S), (3, K), (0, S)]);
        // Even when every child skips.
        ctx.ret("b", K);
        assert_eq!(t.tick(&mut ctx, 1.0), S);
        assert_eq!(entries(&t), [(1, K), (2, K), (3, K), (0, S)]);
    }

    #[test]
    fn positive_success_count_ignores_skips_and_all_skipped_is_skipped() {
        let mut t = par(json!({ "success_count": 2 }));
        let mut ctx = Ctx::default();
        ctx.ret("a", K).ret("b", K).ret("c", K);
        assert_eq!(t.tick(&mut ctx, 0.0), K);
        assert_eq!(entries(&t), [(1, K), (2, K), (3, K), (0, K)]);
        // As in BT.CPP: the node marked itself running before ticking, and a SKIPPED
        // result leaves that state; every child is idle.
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        assert!((1..t.node_count()).all(|i| t.state(NodeId(i as u32)) == NodeState::Idle));
        // Skipped children are ticked again; they never count as successes here.
        ctx.ret("b", S).ret("c", R);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(1, K), (2, S), (3, R), (0, R)]);
        assert_eq!(t.tick(&mut ctx, 2.0), R);
        assert_eq!(entries(&t), [(1, K), (3, R), (0, R)]);
        assert_eq!(ctx.ticks("a"), 3);
    }

    #[test]
    fn zero_success_count_succeeds_after_the_first_child() {
        let mut t = par(json!({ "success_count": 0 }));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(1, R), (0, S)]);
        assert_eq!(ctx.halts("a"), 1);
    }

    #[test]
    fn halt_halts_running_children_once_and_forgets_completed_ones() {
        let mut t = par(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("b", S);
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        t.halt(&mut ctx);
        assert_eq!((ctx.halts("a"), ctx.halts("b"), ctx.halts("c")), (1, 0, 1));
        assert!(all_idle(&t));
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(entries(&t), [(1, R), (2, S), (3, R), (0, R)]);
        assert_eq!(ctx.ticks("b"), 2);
    }

    #[test]
    fn literal_threshold_above_children_is_a_compile_error() {
        let errors = compile_errors(json!({
            "type": "Parallel", "ports": { "success_count": 3 },
            "children": [act("a"), act("b")]
        }));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains("`success_count` 3 asks for 3 children but there are only 2"),
            "{errors:?}"
        );
        let errors = compile_errors(json!({
            "type": "Parallel", "ports": { "failure_count": 4 },
            "children": [act("a"), act("b")]
        }));
        assert!(
            errors.len() == 1 && errors[0].contains("can never fail"),
            "{errors:?}"
        );
        // -3 over 2 children is max(2 - 3 + 1, 0) = 0: allowed.
        assert!(
            compile_errors(json!({
                "type": "Parallel", "ports": { "success_count": -3 },
                "children": [act("a"), act("b")]
            }))
            .is_empty()
        );
    }

    #[test]
    fn entry_threshold_above_children_is_a_runtime_error() {
        let mut t = par(json!({ "success_count": "{need}" }));
        let mut ctx = Ctx::default();
        put(&mut t, "need", Value::Int(4));
        let e = t.try_tick(&mut ctx, 0.0).map_err(|e| e.message);
        assert_eq!(
            e,
            Err("`success_count` 4 asks for 4 children but there are only 3: the node can never succeed".to_owned())
        );
        assert_eq!(ctx.ticks("a"), 0);
        put(&mut t, "need", Value::Int(2));
        ctx.ret("a", S).ret("b", S);
        assert_eq!(t.try_tick(&mut ctx, 1.0), Ok(S));
        assert_eq!(entries(&t), [(1, S), (2, S), (0, S)]);
    }

    #[test]
    fn missing_threshold_entry_is_a_runtime_error() {
        let mut t = par(json!({ "failure_count": "{k}" }));
        let mut ctx = Ctx::default();
        let e = t.try_tick(&mut ctx, 0.0).map_err(|e| e.message);
        assert_eq!(e, Err("input port `failure_count` has no value".to_owned()));
    }
}
