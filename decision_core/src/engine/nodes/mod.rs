//! The node kinds, one module per kind named after its tag. Each module's doc lists the
//! node's result for every child outcome.
//!
//! Rules shared by all kinds:
//!
//! * Every tick of a node appends one [`TraceEntry`](super::TraceEntry) when the tick
//!   finishes, so the trace lists exactly the nodes ticked, children before their parent.
//! * A node is *running* after it returned `Running` until it is ticked to completion or
//!   halted. Halting a node that is not running does nothing; halting a running node halts its
//!   running descendants, so each abandoned running action's `halt` hook runs exactly once.
//! * A composite that returns `Success` or `Failure` leaves no child running.

pub mod action;
pub mod condition;
pub mod negation;
pub mod parallel;
pub mod reactive_sequence;
pub mod run_once;
pub mod selection;
pub mod sequence;
pub mod subtree;
pub mod weighted_selection;

use super::tree::Arena;
use super::{NodeKind, Status};

/// Ticks node `id`: runs its kind's rule, updates its running flag and records the trace entry.
pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    let status = match a.node(id).kind {
        NodeKind::Condition => condition::tick(a, id, ctx, now),
        NodeKind::Action => action::tick(a, id, ctx, now),
        NodeKind::Sequence => sequence::tick(a, id, ctx, now),
        NodeKind::Selection => selection::tick(a, id, ctx, now),
        NodeKind::Negation => negation::tick(a, id, ctx, now),
        NodeKind::Subtree => subtree::tick(a, id, ctx, now),
        NodeKind::ReactiveSequence => reactive_sequence::tick(a, id, ctx, now),
        NodeKind::RunOnce => run_once::tick(a, id, ctx, now),
        NodeKind::Parallel => parallel::tick(a, id, ctx, now),
        NodeKind::WeightedSelection => weighted_selection::tick(a, id, ctx, now),
    };
    a.node_mut(id).running = status == Status::Running;
    a.trace.record(id, status);
    status
}

/// Halts node `id` if it is running: its running descendants are halted (actions' `halt` hooks
/// run once) and its memory of running children is reset. No-op for a node not running.
pub(crate) fn halt<C>(a: &mut Arena<C>, id: u32, ctx: &mut C) {
    if !a.node(id).running {
        return;
    }
    a.node_mut(id).running = false;
    match a.node(id).kind {
        NodeKind::Condition => {}
        NodeKind::Action => action::halt(a, id, ctx),
        NodeKind::Sequence
        | NodeKind::Selection
        | NodeKind::ReactiveSequence
        | NodeKind::WeightedSelection => halt_running_child(a, id, ctx),
        NodeKind::Negation | NodeKind::Subtree | NodeKind::RunOnce => halt_all_children(a, id, ctx),
        NodeKind::Parallel => parallel::reset(a, id, ctx),
    }
}

/// Halts the remembered running child of `id` (if any) and forgets it.
pub(crate) fn halt_running_child<C>(a: &mut Arena<C>, id: u32, ctx: &mut C) {
    if let Some(i) = a.node_mut(id).running_child.take() {
        let child = a.child(id, i);
        halt(a, child, ctx);
    }
}

/// Halts every running child of `id`.
pub(crate) fn halt_all_children<C>(a: &mut Arena<C>, id: u32, ctx: &mut C) {
    for i in 0..a.node(id).child_count {
        let child = a.child(id, i);
        halt(a, child, ctx);
    }
}

/// Halts child `i` of `id` unless it is child `keep`.
pub(crate) fn halt_child_unless<C>(
    a: &mut Arena<C>,
    id: u32,
    i: Option<u32>,
    keep: u32,
    ctx: &mut C,
) {
    if let Some(i) = i
        && i != keep
    {
        let child = a.child(id, i);
        halt(a, child, ctx);
    }
}
