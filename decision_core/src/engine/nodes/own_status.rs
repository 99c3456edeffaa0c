//! BT.CPP's `setStatus(RUNNING)` inside a node's own `tick()`, for kinds that call it before
//! ticking their child.
//!
//! BT.CPP keeps a node's status unchanged when `executeTick` returns SKIPPED, but many
//! decorators set themselves RUNNING at the start of `tick()`. Such a node that passes a
//! SKIPPED child through is therefore left RUNNING, not idle: its `_skipIf` / `_successIf` /
//! `_failureIf` are not checked on its next tick, and a parent halts it as a running node.
//! [`Cx`] has no method for a node's own state yet, so this helper sets it through the
//! crate-visible arena (a `Cx::set_running` in the core would replace it).

use crate::engine::node::{Cx, NodeState};

/// Marks the ticking node RUNNING now; the engine overwrites it with any result but SKIPPED.
pub(crate) fn set_running<C>(cx: &mut Cx<'_, C>) {
    cx.arena.states[cx.id as usize] = NodeState::Running;
}
