//! `Fallback` (BT.CPP 4): children in order until one succeeds, not reactive: a tick resumes at
//! the running child.
//!
//! | child result | Fallback |
//! |---|---|
//! | `Running` | `Running` (resumes at that child next tick) |
//! | `Success` | `Success`; every child reset, next tick starts at child 0 |
//! | `Failure` / `Skipped` | goes on with the next child |
//! | all children done | `Failure`, or `Skipped` when every child skipped; children reset |
//!
//! Halting resets the index and halts the running child.

use crate::engine::node::{Behavior, Cx, Fault, NodeState};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `Fallback`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Fallback",
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |_| Ok(Box::new(Fallback::default())),
    );
}

/// The running position and the skipped count of this round.
#[derive(Debug, Default)]
pub struct Fallback {
    current: usize,
    skipped: usize,
}

impl<C> Behavior<C> for Fallback {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        if cx.state() == NodeState::Idle {
            self.skipped = 0;
        }
        cx.set_running();
        while self.current < n {
            match cx.tick_child(self.current)? {
                Status::Running => return Ok(Status::Running),
                Status::Success => {
                    cx.halt_children();
                    self.current = 0;
                    return Ok(Status::Success);
                }
                Status::Failure => self.current += 1,
                Status::Skipped => {
                    self.current += 1;
                    self.skipped += 1;
                }
            }
        }
        let all_skipped = self.skipped == n;
        cx.halt_children();
        self.current = 0;
        self.skipped = 0;
        Ok(if all_skipped {
            Status::Skipped
        } else {
            Status::Failure
        })
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.current = 0;
        self.skipped = 0;
        cx.halt_children();
    }

    fn running_child(&self) -> Option<usize> {
        Some(self.current)
    }
}
