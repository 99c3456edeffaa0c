//! `Sequence` (BT.CPP 4): children in order, not reactive: a tick resumes at the running child.
//!
//! | child result | Sequence |
//! |---|---|
//! | `Running` | `Running` (resumes at that child next tick) |
//! | `Failure` | `Failure`; every child reset, next tick starts at child 0 |
//! | `Success` / `Skipped` | goes on with the next child |
//! | all children done | `Success`, or `Skipped` when every child skipped; children reset |
//!
//! Halting resets the index and halts the running child. [`Ordered`] is also `Fallback`'s
//! behaviour, with the roles of `Success` and `Failure` swapped, and with [`Ordered::yielding`]
//! that of `AsyncSequence` and `AsyncFallback`.

use super::round::Round;
use crate::engine::node::{Behavior, Cx, Fault, NodeState};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `Sequence`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Sequence",
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |_| Ok(Box::new(Ordered::until(Status::Failure))),
    );
}

/// Children in order until one returns `stop` (`Failure` for `Sequence`, `Success` for
/// `Fallback`): the running position and the skipped count of this round. `YIELDS` is the
/// asynchronous variant's rule (see [`Ordered::yielding`]), a type parameter so that the
/// common kinds do not test it per child.
#[derive(Debug)]
pub struct Ordered<const YIELDS: bool = false> {
    stop: Status,
    round: Round,
}

impl Ordered {
    /// Stops at the first child that returns `stop`; when none does, the result is the
    /// other completed status.
    pub fn until(stop: Status) -> Self {
        Self {
            stop,
            round: Round::default(),
        }
    }

    /// The asynchronous variant (`AsyncSequence`, `AsyncFallback`): a child that was idle
    /// and completes without returning `stop` ends the tick with `Running` when more children
    /// are left, so the next child starts on the next tick.
    pub fn yielding(self) -> Ordered<true> {
        Ordered {
            stop: self.stop,
            round: self.round,
        }
    }
}

impl<const YIELDS: bool> Ordered<YIELDS> {
    fn done(&self) -> Status {
        if self.stop == Status::Failure {
            Status::Success
        } else {
            Status::Failure
        }
    }
}

impl<C, const YIELDS: bool> Behavior<C> for Ordered<YIELDS> {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        self.round.start(cx);
        while self.round.current < n {
            let at = self.round.current;
            // Only the asynchronous variant needs the child's state before the tick.
            let before = if YIELDS {
                cx.child_state(at)
            } else {
                NodeState::Running
            };
            match cx.tick_child(at)? {
                Status::Running => return Ok(Status::Running),
                Status::Skipped => self.round.skip(),
                status if status == self.stop => {
                    cx.halt_children();
                    self.round.current = 0;
                    return Ok(status);
                }
                _ => {
                    self.round.current += 1;
                    if YIELDS && before == NodeState::Idle && self.round.current < n {
                        return Ok(Status::Running);
                    }
                }
            }
        }
        Ok(self.round.finish(cx, n, self.done()))
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.round = Round::default();
        cx.halt_children();
    }

    fn can_resume(&self) -> bool {
        true
    }

    fn resume(&mut self, child: Option<usize>) {
        self.round.current = child.unwrap_or(0);
    }

    fn running_child(&self) -> Option<usize> {
        Some(self.round.current)
    }
}
