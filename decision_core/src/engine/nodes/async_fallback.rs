//! `AsyncFallback` (BT.CPP 4): a [`Fallback`](super::fallback) that yields between children:
//! a child that was idle and fails ends the tick with `Running` when more children are left,
//! so a reactive parent can re-check its guards before the next child starts.
//!
//! | child result | AsyncFallback |
//! |---|---|
//! | `Running` | `Running` (resumes at that child next tick) |
//! | `Failure`, child was idle before this tick, more children left | `Running`; the next child starts next tick |
//! | `Failure` after running / `Skipped`, more children left | goes on with the next child in the same tick |
//! | `Success` | `Success`; every child reset, next tick starts at child 0 |
//! | all children done | `Failure`, or `Skipped` when every child skipped; children reset |
//!
//! Halting resets the index and halts the running child. Unlike `AsyncSequence`, BT.CPP's
//! loader does not count it as an asynchronous child of a `ReactiveSequence`.

use super::sequence::Ordered;
use crate::engine::{Children, NodeModel, Registry};

/// Registers `AsyncFallback` ([`Ordered`] stopping at the first success, yielding).
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "AsyncFallback",
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |b| Ok(Ordered::fallback().yielding().boxed(b.child_count())),
    );
}

#[cfg(test)]
mod tests {
    use crate::engine::Status;
    use crate::engine::test_support::*;

    #[test]
    fn yields_after_each_synchronous_failure() {
        let mut t = build(node("AsyncFallback", vec![act("a"), act("b"), act("c")]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Failure)
            .ret("b", Status::Failure)
            .ret("c", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Running)]);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(2, Status::Failure), (0, Status::Running)]);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(entries(&t), [(3, Status::Failure), (0, Status::Failure)]);
        assert!(all_idle(&t));
    }

    #[test]
    fn success_succeeds_and_resets() {
        let mut t = build(node("AsyncFallback", vec![act("a"), act("b")]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Failure).ret("b", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(2, Status::Success), (0, Status::Success)]);
        assert!(all_idle(&t));
    }

    #[test]
    fn failure_after_running_goes_on_in_the_same_tick() {
        let mut t = build(node("AsyncFallback", vec![act("a"), skipped(), act("b")]));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Failure).ret("b", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Failure),
                (2, Status::Skipped),
                (3, Status::Success),
                (0, Status::Success)
            ]
        );
        let mut t = build(node("AsyncFallback", vec![skipped(), skipped()]));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
    }
}
