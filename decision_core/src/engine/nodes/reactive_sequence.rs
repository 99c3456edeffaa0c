//! `ReactiveSequence` (BT.CPP 4): every tick starts again at child 0, so earlier children act
//! as guards re-checked while a later one runs.
//!
//! | child result | ReactiveSequence |
//! |---|---|
//! | `Running` | `Running`; every other child is halted and reset (earlier ones too) |
//! | `Failure` | `Failure`; every child reset |
//! | `Success` | goes on with the next child |
//! | `Skipped` | that child is reset, goes on with the next child |
//! | all children done | `Success`, or `Skipped` when every child skipped; children reset |
//!
//! More than one `AsyncSequence` child is a load error, as in BT.CPP's loader.
//!
//! [`Reactive`] is also `ReactiveFallback`'s behaviour, with `Success` and `Failure` swapped.

use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `ReactiveSequence`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "ReactiveSequence",
        // BT.CPP's loader refuses a second asynchronous child (`AsyncSequence`).
        NodeModel::new(Children::AtLeast(1), Vec::new()).with_max_async_children(1),
        |_| Ok(Box::new(Reactive::until(Status::Failure))),
    );
}

/// Every tick from child 0 until one returns `stop` (`Failure` for `ReactiveSequence`,
/// `Success` for `ReactiveFallback`); no memory of its own.
#[derive(Debug)]
pub struct Reactive {
    stop: Status,
}

impl Reactive {
    /// Stops at the first child that returns `stop`; when none does, the result is the
    /// other completed status.
    pub fn until(stop: Status) -> Self {
        Self { stop }
    }
}

impl<C> Behavior<C> for Reactive {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        let mut all_skipped = true;
        cx.set_running();
        for i in 0..n {
            match cx.tick_child(i)? {
                Status::Running => {
                    cx.halt_children_except(i);
                    return Ok(Status::Running);
                }
                Status::Skipped => cx.halt_child(i),
                status if status == self.stop => {
                    cx.halt_children();
                    return Ok(status);
                }
                _ => all_skipped = false,
            }
        }
        cx.halt_children();
        Ok(match (all_skipped, self.stop) {
            (true, _) => Status::Skipped,
            (false, Status::Failure) => Status::Success,
            (false, _) => Status::Failure,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status};

    /// When a child runs, every other child is halted (if running) and reset, the ones before
    /// it and after it, and the running child keeps running.
    #[test]
    fn a_running_child_halts_and_resets_every_other_child() {
        let mut t = build(node("ReactiveSequence", vec![act("a"), act("b"), act("c")]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success).ret("b", Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.state(NodeId(2)), NodeState::Running);
        // Now `a` runs: `b` is halted once and reset, `c` was never started.
        ctx.ret("a", Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!((ctx.halts("a"), ctx.halts("b"), ctx.halts("c")), (0, 1, 0));
        assert_eq!(t.state(NodeId(1)), NodeState::Running);
        assert_eq!(t.state(NodeId(2)), NodeState::Idle);
        assert_eq!(t.state(NodeId(3)), NodeState::Idle);
        // `a` succeeds and `c` runs: `a` (completed) is reset, `b` succeeds and is reset.
        ctx.ret("a", Status::Success)
            .ret("b", Status::Success)
            .ret("c", Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!((ctx.halts("a"), ctx.halts("b"), ctx.halts("c")), (0, 1, 0));
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        assert_eq!(t.state(NodeId(2)), NodeState::Idle);
        assert_eq!(t.state(NodeId(3)), NodeState::Running);
    }
}
