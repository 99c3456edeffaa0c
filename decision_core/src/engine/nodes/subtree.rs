//! `subtree`: a named group (for the viewer) wrapping a single child.
//!
//! | child outcome | result    |
//! |---------------|-----------|
//! | `Success`     | `Success` |
//! | `Failure`     | `Failure` |
//! | `Running`     | `Running` |
//!
//! Exactly one child (a compile error otherwise). Halting it halts the child.

use crate::engine::Status;
use crate::engine::nodes;
use crate::engine::tree::Arena;

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    let child = a.child(id, 0);
    nodes::tick(a, child, ctx, now)
}

#[cfg(test)]
mod tests {
    use crate::engine::Status;
    use crate::engine::test_support::*;

    #[test]
    fn passes_the_child_status() {
        let mut t = build(node("subtree", vec![act("x")]));
        let mut ctx = Ctx::default();
        for s in [Status::Success, Status::Failure, Status::Running] {
            ctx.ret("x", s);
            assert_eq!(t.tick(&mut ctx, 0.0), s);
            assert_eq!(entries(&t), [(1, s), (0, s)]);
        }
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
    }
}
