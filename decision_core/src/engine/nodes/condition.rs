//! `condition`: a leaf predicate from the registry ([`Condition`](crate::engine::Condition)).
//!
//! | predicate `check` | result    |
//! |-------------------|-----------|
//! | `true`            | `Success` |
//! | `false`           | `Failure` |
//!
//! Never `Running`, so halting it does nothing. No children (a compile error otherwise).

use crate::engine::Status;
use crate::engine::tree::{Arena, Leaf};

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &C, now: f64) -> Status {
    let holds = match &mut a.node_mut(id).leaf {
        Some(Leaf::Condition(c)) => c.check(ctx, now),
        // `compile` gives every condition node its leaf; a missing one cannot hold.
        _ => false,
    };
    if holds {
        Status::Success
    } else {
        Status::Failure
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status};

    #[test]
    fn true_is_success_false_is_failure() {
        let mut t = build(cond("a"));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        ctx.set("a", true);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
        assert_eq!(
            t.explain(NodeId(0), &ctx, 1.0).as_deref(),
            Some("flag `a` is true")
        );
    }
}
