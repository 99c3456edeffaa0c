//! `parallel`: ticks all children; succeeds or fails by thresholds.
//!
//! Params: `success_threshold` (default: the number of children) and `failure_threshold`
//! (default 1), integers in `1..=children` (a compile error otherwise).
//!
//! A *round* lasts from the first tick until the parallel completes. Each tick, every child
//! that has not completed in the current round is ticked, in order; a child that returned
//! `Success` or `Failure` keeps that result for the rest of the round and is not ticked again.
//! Then, counting the results of the round so far:
//!
//! | condition (checked in this order)               | result                     |
//! |-------------------------------------------------|----------------------------|
//! | successes >= `success_threshold`                | `Success`                  |
//! | failures >= `failure_threshold`                 | `Failure`                  |
//! | every child completed, neither threshold met    | `Failure`                  |
//! | otherwise                                       | `Running`                  |
//!
//! On `Success` or `Failure` the children still running are halted and the round is reset,
//! so the next tick starts a new round. Halting the parallel does the same.

use crate::engine::Status;
use crate::engine::nodes;
use crate::engine::tree::Arena;

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    let (mut successes, mut failures) = (0u32, 0u32);
    let count = a.node(id).child_count;
    for i in 0..count {
        let child = a.child(id, i);
        let status = match a.node(child).round {
            Some(done) => done,
            None => {
                let status = nodes::tick(a, child, ctx, now);
                if status != Status::Running {
                    a.node_mut(child).round = Some(status);
                }
                status
            }
        };
        match status {
            Status::Success => successes += 1,
            Status::Failure => failures += 1,
            Status::Running => {}
        }
    }
    let node = a.node(id);
    let result = if successes >= node.success_threshold {
        Status::Success
    } else if failures >= node.failure_threshold || successes + failures == count {
        Status::Failure
    } else {
        return Status::Running;
    };
    reset(a, id, ctx);
    result
}

/// Halts the children still running and forgets the round's results.
pub(crate) fn reset<C>(a: &mut Arena<C>, id: u32, ctx: &mut C) {
    for i in 0..a.node(id).child_count {
        let child = a.child(id, i);
        nodes::halt(a, child, ctx);
        a.node_mut(child).round = None;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::Status;
    use crate::engine::test_support::*;

    fn tree(params: serde_json::Value) -> crate::engine::Tree<Ctx> {
        // 0 parallel, 1 act x, 2 act y, 3 act z
        let mut spec = node("parallel", vec![act("x"), act("y"), act("z")]);
        spec["params"] = params;
        build(spec)
    }

    #[test]
    fn defaults_need_all_successes_and_completed_children_are_not_re_ticked() {
        let mut t = tree(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("y", Status::Success);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (2, Status::Success),
                (3, Status::Running),
                (0, Status::Running)
            ]
        );
        ctx.ret("z", Status::Success);
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Success);
        assert_eq!((ctx.ticks("x"), ctx.ticks("y"), ctx.ticks("z")), (1, 2, 3));
        // A new round ticks everyone again.
        t.tick(&mut ctx, 3.0);
        assert_eq!(ctx.ticks("x"), 2);
    }

    #[test]
    fn default_failure_threshold_fails_on_the_first_failure_and_halts_the_rest() {
        let mut t = tree(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("y", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!((ctx.halts("x"), ctx.halts("y"), ctx.halts("z")), (1, 0, 1));
    }

    #[test]
    fn success_is_checked_before_failure() {
        let mut t = tree(json!({ "success_threshold": 1, "failure_threshold": 1 }));
        let mut ctx = Ctx::default();
        ctx.ret("x", Status::Failure).ret("y", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(ctx.halts("z"), 1);
    }

    #[test]
    fn all_completed_without_a_threshold_is_failure() {
        let mut t = tree(json!({ "failure_threshold": 2 }));
        let mut ctx = Ctx::default();
        ctx.ret("x", Status::Success)
            .ret("y", Status::Success)
            .ret("z", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
    }

    #[test]
    fn halt_halts_running_children_and_resets_the_round() {
        let mut t = tree(json!({}));
        let mut ctx = Ctx::default();
        ctx.ret("x", Status::Success);
        t.tick(&mut ctx, 0.0);
        t.halt(&mut ctx);
        assert_eq!((ctx.halts("x"), ctx.halts("y"), ctx.halts("z")), (0, 1, 1));
        t.tick(&mut ctx, 1.0);
        assert_eq!(ctx.ticks("x"), 2);
    }
}
