//! `negation`: inverts its single child.
//!
//! | child outcome | result    |
//! |---------------|-----------|
//! | `Success`     | `Failure` |
//! | `Failure`     | `Success` |
//! | `Running`     | `Running` |
//!
//! Exactly one child (a compile error otherwise). Halting it halts the child.

use crate::engine::Status;
use crate::engine::nodes;
use crate::engine::tree::Arena;

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    let child = a.child(id, 0);
    match nodes::tick(a, child, ctx, now) {
        Status::Success => Status::Failure,
        Status::Failure => Status::Success,
        Status::Running => Status::Running,
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Status;
    use crate::engine::test_support::*;

    #[test]
    fn inverts_success_and_failure_and_passes_running() {
        let mut t = build(node("negation", vec![act("x")]));
        let mut ctx = Ctx::default();
        for (child, expected) in [
            (Status::Success, Status::Failure),
            (Status::Failure, Status::Success),
            (Status::Running, Status::Running),
        ] {
            ctx.ret("x", child);
            assert_eq!(t.tick(&mut ctx, 0.0), expected);
            assert_eq!(entries(&t), [(1, child), (0, expected)]);
        }
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
    }
}
