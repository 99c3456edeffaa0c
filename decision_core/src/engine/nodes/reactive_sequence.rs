//! `reactive_sequence`: a sequence whose earlier children (guards) are re-checked every tick.
//!
//! Every tick starts at the first child:
//!
//! | child outcome | result                                                                |
//! |---------------|-----------------------------------------------------------------------|
//! | `Success`     | tick the next child in the same tick; after the last: `Success`       |
//! | `Failure`     | `Failure`; the child that was running before (if another) is halted   |
//! | `Running`     | `Running`; remembered; a different child running before is halted     |
//!
//! So a guard turning false halts the running child (its `halt` hook runs once) and the
//! sequence fails; an earlier child turning `Running` halts a later running one. Halting the
//! sequence halts its running child.
//!
//! As a child of a `weighted_selection`, the leading `condition` children are the guard,
//! evaluated by the parent; the sequence's own tick then starts after them (its *body*).

use crate::engine::Status;
use crate::engine::nodes;
use crate::engine::tree::Arena;

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    let node = a.node(id);
    let prev = node.running_child;
    for i in node.guard_len..node.child_count {
        let child = a.child(id, i);
        match nodes::tick(a, child, ctx, now) {
            Status::Success => {}
            Status::Failure => {
                nodes::halt_child_unless(a, id, prev, i, ctx);
                a.node_mut(id).running_child = None;
                return Status::Failure;
            }
            Status::Running => {
                nodes::halt_child_unless(a, id, prev, i, ctx);
                a.node_mut(id).running_child = Some(i);
                return Status::Running;
            }
        }
    }
    // Every child was ticked and succeeded, so none is running any more.
    a.node_mut(id).running_child = None;
    Status::Success
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status};

    fn tree() -> crate::engine::Tree<Ctx> {
        // 0 reactive_sequence, 1 flag a, 2 act x
        build(node("reactive_sequence", vec![cond("a"), act("x")]))
    }

    #[test]
    fn guard_turning_false_halts_the_running_child_exactly_once() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Success),
                (2, Status::Running),
                (0, Status::Running)
            ]
        );
        ctx.set("a", false);
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Failure);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Failure)]);
        assert_eq!(ctx.halts("x"), 1);
        assert_eq!(t.running_child(NodeId(0)), None);
        assert_eq!(t.tick(&mut ctx, 3.0), Status::Failure);
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
        assert_eq!(ctx.ticks("x"), 2);
    }

    #[test]
    fn all_success_is_success() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.set("a", true).ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(ctx.halts("x"), 0);
    }

    #[test]
    fn running_child_that_fails_is_not_halted() {
        let mut t = tree();
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        ctx.ret("x", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Failure);
        assert_eq!(ctx.halts("x"), 0);
    }

    #[test]
    fn earlier_child_running_halts_a_later_running_one() {
        // 0 reactive_sequence, 1 act first, 2 act second
        let mut t = build(node("reactive_sequence", vec![act("first"), act("second")]));
        let mut ctx = Ctx::default();
        ctx.ret("first", Status::Success);
        t.tick(&mut ctx, 0.0); // second running
        ctx.ret("first", Status::Running);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        assert_eq!(ctx.halts("second"), 1);
        assert_eq!(t.running_child(NodeId(0)), Some(0));
    }
}
