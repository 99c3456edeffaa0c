//! `AsyncSequence` (BT.CPP 4): a [`Sequence`](super::sequence) that yields between children:
//! a child that was idle and succeeds ends the tick with `Running` when more children are
//! left, so a reactive parent can re-check its guards before the next child starts.
//!
//! | child result | AsyncSequence |
//! |---|---|
//! | `Running` | `Running` (resumes at that child next tick) |
//! | `Success`, child was idle before this tick, more children left | `Running`; the next child starts next tick |
//! | `Success` after running / `Skipped`, more children left | goes on with the next child in the same tick |
//! | `Failure` | `Failure`; every child reset, next tick starts at child 0 |
//! | all children done | `Success`, or `Skipped` when every child skipped; children reset |
//!
//! Halting resets the index and halts the running child. BT.CPP's loader counts it as an
//! asynchronous child: a `ReactiveSequence` with two of them does not load.

use super::sequence::Ordered;
use crate::engine::{Children, NodeModel, Registry};

/// Registers `AsyncSequence` ([`Ordered`] stopping at the first failure, yielding).
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "AsyncSequence",
        NodeModel::new(Children::AtLeast(1), Vec::new()).asynchronous(),
        |b| Ok(Ordered::sequence().yielding().boxed(b.child_count())),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::Status;
    use crate::engine::test_support::*;

    #[test]
    fn yields_after_each_synchronous_success() {
        let mut t = build(node("AsyncSequence", vec![act("a"), act("b"), act("c")]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success)
            .ret("b", Status::Success)
            .ret("c", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Success), (0, Status::Running)]);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(2, Status::Success), (0, Status::Running)]);
        // The last child: no yield, the sequence completes.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(3, Status::Success), (0, Status::Success)]);
        assert!(all_idle(&t));
    }

    #[test]
    fn success_after_running_and_skips_go_on_in_the_same_tick() {
        let mut t = build(node("AsyncSequence", vec![act("a"), skipped(), act("b")]));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Success).ret("b", Status::Success);
        // `a` completes after running: the skipped child and `b` follow at once.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Success),
                (2, Status::Skipped),
                (3, Status::Success),
                (0, Status::Success)
            ]
        );
    }

    #[test]
    fn failure_fails_at_once_and_all_skipped_skips() {
        let mut t = build(node("AsyncSequence", vec![act("a"), act("b")]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success).ret("b", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert!(all_idle(&t));
        // Next round starts at child 0 again.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Success), (0, Status::Running)]);
        let mut t = build(node("AsyncSequence", vec![skipped(), skipped()]));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
    }

    #[test]
    fn a_reactive_parent_rechecks_its_guard_between_children() {
        let mut t = build(guarded(
            "g",
            node("AsyncSequence", vec![act("a"), act("b")]),
        ));
        let mut ctx = Ctx::default();
        ctx.set("g", true).ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.ticks("b"), 0);
        assert!(all_idle(&t));
    }

    #[test]
    fn a_reactive_sequence_takes_one_async_child_only() {
        let two = node(
            "ReactiveSequence",
            vec![
                node("AsyncSequence", vec![act("a")]),
                node("AsyncSequence", vec![act("b")]),
            ],
        );
        let e = compile_errors(two);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].contains(
                "`ReactiveSequence` cannot have more than one asynchronous child, found 2 \
                 (`AsyncSequence`, `AsyncSequence`)"
            ),
            "{e:?}"
        );
        let one = node(
            "ReactiveSequence",
            vec![node("AsyncSequence", vec![act("a")]), act("b")],
        );
        assert!(compile_errors(one).is_empty());
        // BT.CPP's loader counts only `AsyncSequence`; a ReactiveFallback has no limit.
        let fallbacks = node(
            "ReactiveSequence",
            vec![
                node("AsyncFallback", vec![act("a")]),
                node("AsyncFallback", vec![act("b")]),
            ],
        );
        assert!(compile_errors(fallbacks).is_empty());
        let reactive_fallback = json!({ "type": "ReactiveFallback", "children": [
            node("AsyncSequence", vec![act("a")]),
            node("AsyncSequence", vec![act("b")]),
        ]});
        assert!(compile_errors(reactive_fallback).is_empty());
    }
}
