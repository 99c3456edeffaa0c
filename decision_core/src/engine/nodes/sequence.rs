//! `sequence`: children in order, with memory.
//!
//! Each tick resumes at the child that was running (else starts at the first child):
//!
//! | child outcome | result                                                            |
//! |---------------|-------------------------------------------------------------------|
//! | `Success`     | tick the next child in the same tick; after the last: `Success`   |
//! | `Failure`     | `Failure`; the memory is reset (next tick starts at the first)    |
//! | `Running`     | `Running`; the child is remembered and resumed next tick          |
//!
//! Children before the remembered one are not re-ticked (use `reactive_sequence` for guards
//! re-checked every tick). Halting the sequence halts the running child and resets the memory.
//!
//! As a child of a `weighted_selection`, the leading `condition` children are the guard,
//! evaluated by the parent; the sequence's own tick then starts after them (its *body*).

use crate::engine::Status;
use crate::engine::nodes;
use crate::engine::tree::Arena;

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    let node = a.node(id);
    let start = node.running_child.unwrap_or(node.guard_len);
    for i in start..node.child_count {
        let child = a.child(id, i);
        match nodes::tick(a, child, ctx, now) {
            Status::Success => {}
            Status::Failure => {
                a.node_mut(id).running_child = None;
                return Status::Failure;
            }
            Status::Running => {
                a.node_mut(id).running_child = Some(i);
                return Status::Running;
            }
        }
    }
    a.node_mut(id).running_child = None;
    Status::Success
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status};

    fn tree() -> crate::engine::Tree<Ctx> {
        // 0 sequence, 1 flag a, 2 act x, 3 act y
        build(node("sequence", vec![cond("a"), act("x"), act("y")]))
    }

    #[test]
    fn failure_stops_and_the_trace_ends_at_the_failing_child() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Failure)]);
        assert_eq!(ctx.ticks("x"), 0);
        assert_eq!(t.trace().status_of(NodeId(2)), None);
    }

    #[test]
    fn running_is_remembered_and_resumed_without_re_ticking_earlier_children() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.running_child(NodeId(0)), Some(1));
        ctx.set("a", false); // not re-checked: the sequence has memory
        ctx.ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (2, Status::Success),
                (3, Status::Running),
                (0, Status::Running)
            ]
        );
        assert_eq!(t.running_child(NodeId(0)), Some(2));
    }

    #[test]
    fn all_success_is_success_and_resets() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.set("a", true)
            .ret("x", Status::Success)
            .ret("y", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(t.running_child(NodeId(0)), None);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Success);
        assert_eq!(ctx.ticks("x"), 2);
    }

    #[test]
    fn child_failure_resets_to_the_first_child() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0); // x running
        ctx.ret("x", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Failure);
        assert_eq!(t.running_child(NodeId(0)), None);
        ctx.set("a", false);
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Failure);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Failure)]);
        assert_eq!(ctx.halts("x"), 0);
    }

    #[test]
    fn halt_halts_the_running_child_once_and_restarts() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        t.halt(&mut ctx);
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
        assert_eq!(t.running_child(NodeId(0)), None);
        t.tick(&mut ctx, 1.0);
        assert_eq!(t.trace().status_of(NodeId(1)), Some(Status::Success));
    }
}
