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

use super::sequence::Ordered;
use crate::engine::{Children, NodeModel, Registry};

/// Registers `Fallback` ([`Ordered`] stopping at the first success).
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Fallback",
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |b| Ok(Ordered::fallback().boxed(b.child_count())),
    );
}
