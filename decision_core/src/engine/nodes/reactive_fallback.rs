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

use super::reactive_sequence::Reactive;
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `ReactiveFallback` ([`Reactive`] stopping at the first success).
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "ReactiveFallback",
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |_| Ok(Box::new(Reactive::until(Status::Success))),
    );
}
