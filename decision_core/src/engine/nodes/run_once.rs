//! `run_once`: runs its single child to completion once, then repeats that result.
//!
//! | state / child outcome         | result                                             |
//! |-------------------------------|----------------------------------------------------|
//! | not completed, `Running`      | `Running`; ticked again next tick                  |
//! | not completed, `Success`      | `Success`; stored                                  |
//! | not completed, `Failure`      | `Failure`; stored                                  |
//! | completed                     | the stored result; the child is **not** ticked     |
//!
//! Once completed, the trace lists only the `run_once` node. Halting it while the child runs
//! halts the child (which then starts afresh next tick); the stored result is never cleared,
//! not even by [`Tree::halt`](crate::engine::Tree::halt). Exactly one child.

use crate::engine::Status;
use crate::engine::nodes;
use crate::engine::tree::Arena;

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    if let Some(done) = a.node(id).once {
        return done;
    }
    let child = a.child(id, 0);
    let status = nodes::tick(a, child, ctx, now);
    if status != Status::Running {
        a.node_mut(id).once = Some(status);
    }
    status
}

#[cfg(test)]
mod tests {
    use crate::engine::Status;
    use crate::engine::test_support::*;

    #[test]
    fn runs_the_child_to_completion_exactly_once() {
        let mut t = build(node("run_once", vec![act("x")]));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        ctx.ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Success);
        assert_eq!(ctx.ticks("x"), 3);
        ctx.ret("x", Status::Failure);
        for k in 0..5 {
            assert_eq!(t.tick(&mut ctx, 3.0 + f64::from(k)), Status::Success);
            assert_eq!(entries(&t), [(0, Status::Success)]);
        }
        assert_eq!(ctx.ticks("x"), 3);
        assert_eq!(ctx.halts("x"), 0);
    }

    #[test]
    fn stored_failure_is_repeated() {
        let mut t = build(node("run_once", vec![act("x")]));
        let mut ctx = Ctx::default();
        ctx.ret("x", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        ctx.ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Failure);
        assert_eq!(ctx.ticks("x"), 1);
    }

    #[test]
    fn halt_while_running_halts_the_child_and_keeps_no_result() {
        let mut t = build(node("run_once", vec![act("x")]));
        let mut ctx = Ctx::default();
        t.tick(&mut ctx, 0.0);
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
        ctx.ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Success);
        assert_eq!(ctx.ticks("x"), 2);
    }
}
