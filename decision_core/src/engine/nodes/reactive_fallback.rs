//! `ReactiveFallback` (BT.CPP 4): every tick starts again at child 0, so a higher-priority
//! child that starts to succeed interrupts a running lower one.
//!
//! | child result | ReactiveFallback |
//! |---|---|
//! | `Running` | `Running`; every other child is halted and reset (earlier ones too) |
//! | `Success` | `Success`; every child reset |
//! | `Failure` | goes on with the next child |
//! | `Skipped` | that child is reset, goes on with the next child |
//! | all children done | `Failure`, or `Skipped` when every child skipped; children reset |

use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `ReactiveFallback`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "ReactiveFallback",
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |_| Ok(Box::new(ReactiveFallback)),
    );
}

/// No memory of its own: every tick starts at child 0.
#[derive(Debug, Default)]
pub struct ReactiveFallback;

impl<C> Behavior<C> for ReactiveFallback {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        let mut all_skipped = true;
        cx.set_running();
        for i in 0..n {
            let status = cx.tick_child(i)?;
            all_skipped &= status == Status::Skipped;
            match status {
                Status::Running => {
                    for k in (0..n).filter(|&k| k != i) {
                        cx.halt_child(k);
                    }
                    return Ok(Status::Running);
                }
                Status::Success => {
                    cx.halt_children();
                    return Ok(Status::Success);
                }
                Status::Failure => {}
                Status::Skipped => cx.halt_child(i),
            }
        }
        cx.halt_children();
        Ok(if all_skipped {
            Status::Skipped
        } else {
            Status::Failure
        })
    }
}
