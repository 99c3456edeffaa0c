//! `selection`: priority fallback, reactive.
//!
//! Every tick starts at the first child (highest priority):
//!
//! | child outcome | result                                                          |
//! |---------------|-----------------------------------------------------------------|
//! | `Failure`     | tick the next child in the same tick; after the last: `Failure` |
//! | `Success`     | `Success`                                                       |
//! | `Running`     | `Running`; the child is remembered as running                   |
//!
//! When the deciding child differs from the child that was running before, that (lower
//! priority) child is halted after the deciding child's tick. Halting the selection halts
//! its running child.

use crate::engine::Status;
use crate::engine::nodes;
use crate::engine::tree::Arena;

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    let prev = a.node(id).running_child;
    for i in 0..a.node(id).child_count {
        let child = a.child(id, i);
        let status = nodes::tick(a, child, ctx, now);
        if status == Status::Failure {
            continue;
        }
        nodes::halt_child_unless(a, id, prev, i, ctx);
        a.node_mut(id).running_child = (status == Status::Running).then_some(i);
        return status;
    }
    // Every child was ticked and failed, so none is running any more.
    a.node_mut(id).running_child = None;
    Status::Failure
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status};

    fn tree() -> crate::engine::Tree<Ctx> {
        // 0 selection, 1 sequence, 2 flag a, 3 act hi, 4 act lo
        build(node(
            "selection",
            vec![node("sequence", vec![cond("a"), act("hi")]), act("lo")],
        ))
    }

    #[test]
    fn failure_falls_through_and_the_trace_lists_both_branches() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (2, Status::Failure),
                (1, Status::Failure),
                (4, Status::Running),
                (0, Status::Running)
            ]
        );
        assert_eq!(t.running_child(NodeId(0)), Some(1));
    }

    #[test]
    fn first_success_decides_and_later_children_are_not_ticked() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.set("a", true).ret("hi", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(ctx.ticks("lo"), 0);
        assert_eq!(t.running_child(NodeId(0)), None);
    }

    #[test]
    fn higher_priority_child_halts_the_running_lower_one_once() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        t.tick(&mut ctx, 0.0); // lo running
        ctx.set("a", true);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running); // hi running, lo halted
        assert_eq!(ctx.halts("lo"), 1);
        assert_eq!(t.running_child(NodeId(0)), Some(0));
        t.tick(&mut ctx, 2.0);
        assert_eq!(ctx.halts("lo"), 1);
        assert_eq!(ctx.ticks("lo"), 1);
    }

    #[test]
    fn all_failure_is_failure() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.ret("lo", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(t.running_child(NodeId(0)), None);
    }

    #[test]
    fn running_child_that_fails_is_not_halted() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        t.tick(&mut ctx, 0.0); // lo running
        ctx.ret("lo", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Failure);
        assert_eq!(ctx.halts("lo"), 0);
    }
}
