//! `action`: a leaf action from the registry ([`Action`](crate::engine::Action)).
//!
//! | action `tick` | result    |
//! |---------------|-----------|
//! | `Success`     | `Success` |
//! | `Failure`     | `Failure` |
//! | `Running`     | `Running` |
//!
//! When a parent abandons the action while it is running (its last tick returned `Running`),
//! its `halt` hook runs exactly once; an action that completed is not halted. No children.

use crate::engine::Status;
use crate::engine::tree::{Arena, Leaf};

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    match &mut a.node_mut(id).leaf {
        Some(Leaf::Action(x)) => x.tick(ctx, now),
        // `compile` gives every action node its leaf.
        _ => Status::Failure,
    }
}

/// Runs the action's halt hook; the caller (`nodes::halt`) ensures it was running.
pub(crate) fn halt<C>(a: &mut Arena<C>, id: u32, ctx: &mut C) {
    if let Some(Leaf::Action(x)) = &mut a.node_mut(id).leaf {
        x.halt(ctx);
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status};

    #[test]
    fn passes_the_action_status() {
        let mut t = build(act("x"));
        let mut ctx = Ctx::default();
        for s in [Status::Running, Status::Success, Status::Failure] {
            ctx.ret("x", s);
            assert_eq!(t.tick(&mut ctx, 0.0), s);
        }
        assert_eq!(ctx.ticks("x"), 3);
        assert_eq!(t.explain(NodeId(0), &ctx, 0.0), None);
    }

    #[test]
    fn tree_halt_halts_a_running_action_once_and_a_completed_one_never() {
        let mut t = build(act("x"));
        let mut ctx = Ctx::default();
        t.tick(&mut ctx, 0.0);
        t.halt(&mut ctx);
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
        ctx.ret("x", Status::Success);
        t.tick(&mut ctx, 1.0);
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
    }
}
