//! `SequenceWithMemory` (BT.CPP 4): a sequence that keeps its position across failures and
//! halts.
//!
//! | child result | SequenceWithMemory |
//! |---|---|
//! | `Running` | `Running` |
//! | `Success` from idle, more children left | `Running` (BT.CPP yields after each such child under `tickExactlyOnce`) |
//! | `Success` after running / `Skipped` | goes on with the next child |
//! | `Failure` | `Failure`; the children from this one on are reset, the position is kept (that child is ticked again next time) |
//! | all children done | `Success`, or `Skipped` when every child skipped; position back to 0 |
//!
//! Halting halts the running child but keeps the position: after a reactive parent halts it,
//! it resumes at the same child.

use super::round::Round;
use crate::engine::node::{Behavior, Cx, Fault, NodeState};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `SequenceWithMemory`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "SequenceWithMemory",
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |_| Ok(Box::new(SequenceWithMemory::default())),
    );
}

/// The kept position and the skipped count of this round.
#[derive(Debug, Default)]
pub struct SequenceWithMemory {
    round: Round,
}

impl<C> Behavior<C> for SequenceWithMemory {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        self.round.start(cx);
        while self.round.current < n {
            let at = self.round.current;
            let before = cx.child_state(at);
            match cx.tick_child(at)? {
                Status::Running => return Ok(Status::Running),
                Status::Failure => {
                    cx.halt_children_from(at);
                    return Ok(Status::Failure);
                }
                Status::Success => {
                    self.round.current += 1;
                    if before == NodeState::Idle && self.round.current < n {
                        return Ok(Status::Running);
                    }
                }
                Status::Skipped => self.round.skip(),
            }
        }
        Ok(self.round.finish(cx, n, Status::Success))
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        cx.halt_children();
    }

    fn running_child(&self) -> Option<usize> {
        Some(self.round.current)
    }
}
