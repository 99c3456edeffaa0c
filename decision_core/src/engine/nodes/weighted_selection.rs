//! `weighted_selection`: the highest-weight child whose guard holds wins; a running child is
//! kept unless a strictly heavier child's guard holds.
//!
//! **Children.** Every child carries `params.weight`, a finite number (a compile error
//! otherwise). A child's *guard* is, when the child is a `sequence` or `reactive_sequence`,
//! its maximal prefix of `condition` children, and its *body* the remaining children (ticked
//! as that sequence kind, so a body with no children succeeds); for any other child the guard
//! is empty (always holds) and the body is the child itself. Zero children are allowed (the
//! node then always fails), since a rule file may declare no rules.
//!
//! **Tick.**
//!
//! 1. For each child in declaration order, evaluate its guard conditions in order, stopping at
//!    the first failing one. Every evaluated condition is in the trace; a child whose guard
//!    fails gets a `Failure` entry too (its body is not ticked for it).
//! 2. `best` = the first child of maximal weight among those whose guard held and whose weight
//!    is `> 0`. A weight `<= 0` is never chosen; ties go to declaration order.
//! 3. With no `best` the result is `Failure` at once: a child `r` running from the previous tick
//!    is *suspended*, neither ticked nor halted, and stays the running child (a tick with no
//!    candidate changes no commitment; the RoboMaster rules need exactly this).
//! 4. If a child `r` was running from the previous tick:
//!    * if `weight(best) > weight(r)` strictly, `r`'s body is halted (`preempted = r`) and
//!      the tick goes on with 5;
//!    * otherwise `r`'s body is ticked **without requiring its guard** (commitment: a running
//!      decision is finished even if its guard no longer holds):
//!      `Running` -> the result is `Running` (`chosen = r`, `kept_running`);
//!      `Success`/`Failure` -> `r` is no longer running and the tick goes on with 5.
//! 5. `best`'s body is ticked from its start; if it returns `Running` it becomes the running
//!    child; the result is its status (`chosen = best`).
//!
//! | situation                                               | result                     |
//! |---------------------------------------------------------|----------------------------|
//! | no guard holds with weight > 0                          | `Failure`, `r` suspended   |
//! | nothing running, `best`'s body returns `s`              | `s`                        |
//! | `r` running, `best` strictly heavier                    | halt `r`, then as step 5   |
//! | `r` running, not preempted, `r`'s body `Running`        | `Running`                  |
//! | `r` running, not preempted, `r`'s body completes        | as step 5 (`r` may be best) |
//!
//! Each tick records one [`WeightedOutcome`] in the trace
//! (`best`, `chosen`, `preempted`, `kept_running`; indices are child positions). A child can
//! have two trace entries in one tick: the committed `r` whose guard failed (its `Failure`
//! entry from step 1, then its body's status), or an `r` that completed in step 3 and is
//! `best` again in step 4; [`TickTrace::status_of`](crate::engine::TickTrace::status_of)
//! reports the last. Halting the node halts the running child's body.

use crate::engine::Status;
use crate::engine::nodes;
use crate::engine::trace::{NodeId, WeightedOutcome};
use crate::engine::tree::Arena;

/// Evaluates the guard of `child` (step 1); records the child's `Failure` entry if it fails.
fn guard_holds<C>(a: &mut Arena<C>, child: u32, ctx: &mut C, now: f64) -> bool {
    for k in 0..a.node(child).guard_len {
        let cond = a.child(child, k);
        if nodes::tick(a, cond, ctx, now) == Status::Failure {
            a.trace.record(child, Status::Failure);
            return false;
        }
    }
    true
}

pub(crate) fn tick<C>(a: &mut Arena<C>, id: u32, ctx: &mut C, now: f64) -> Status {
    // (1) + (2): guards and the best candidate.
    let mut best: Option<(u32, f64)> = None;
    for i in 0..a.node(id).child_count {
        let child = a.child(id, i);
        if !guard_holds(a, child, ctx, now) {
            continue;
        }
        let w = a.node(child).weight;
        if w > 0.0 && best.is_none_or(|(_, bw)| w > bw) {
            best = Some((i, w));
        }
    }
    let mut outcome = WeightedOutcome {
        node: NodeId(id),
        best: best.map(|(i, _)| i as usize),
        chosen: None,
        preempted: None,
        kept_running: false,
    };

    // (2b): no candidate: fail, leaving a running child suspended (neither ticked nor halted).
    if best.is_none() {
        a.trace.record_weighted(outcome);
        return Status::Failure;
    }

    // (3): the running child: preempted, kept, or completed.
    if let Some(r) = a.node(id).running_child {
        let r_child = a.child(id, r);
        let r_weight = a.node(r_child).weight;
        if best.is_some_and(|(_, bw)| bw > r_weight) {
            nodes::halt_running_child(a, id, ctx);
            outcome.preempted = Some(r as usize);
        } else {
            let status = nodes::tick(a, r_child, ctx, now);
            if status == Status::Running {
                outcome.chosen = Some(r as usize);
                outcome.kept_running = true;
                a.trace.record_weighted(outcome);
                return Status::Running;
            }
            a.node_mut(id).running_child = None;
        }
    }

    // (5): the best candidate's body from its start.
    let status = match best {
        Some((b, _)) => {
            let child = a.child(id, b);
            let status = nodes::tick(a, child, ctx, now);
            a.node_mut(id).running_child = (status == Status::Running).then_some(b);
            outcome.chosen = Some(b as usize);
            status
        }
        None => Status::Failure, // handled in (2b)
    };
    a.trace.record_weighted(outcome);
    status
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status, Tree, WeightedOutcome};

    /// A weighted child: `sequence [flag guard, act id]` with weight `w`.
    fn rule(guard: &str, id: &str, w: f64) -> serde_json::Value {
        weighted(node("sequence", vec![cond(guard), act(id)]), w)
    }

    fn outcome(t: &Tree<Ctx>) -> WeightedOutcome {
        match t.trace().weighted() {
            [o] => *o,
            other => panic!("expected one weighted outcome, got {other:?}"),
        }
    }

    #[test]
    fn trace_of_two_guards_lists_exactly_the_nodes_ticked() {
        // 0 weighted, 1 seq(w1), 2 flag a, 3 flag b, 4 act x, 5 seq(w2), 6 flag c, 7 act y
        let mut t = build(node(
            "weighted_selection",
            vec![
                weighted(node("sequence", vec![cond("a"), cond("b"), act("x")]), 1.0),
                rule("c", "y", 2.0),
            ],
        ));
        assert_eq!(t.guard_len(NodeId(1)), 2);
        let mut ctx = Ctx::default();
        ctx.set("a", true).set("c", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (2, Status::Success),
                (3, Status::Failure),
                (1, Status::Failure),
                (6, Status::Success),
                (7, Status::Running),
                (5, Status::Running),
                (0, Status::Running),
            ]
        );
        assert_eq!(
            outcome(&t),
            WeightedOutcome {
                node: NodeId(0),
                best: Some(1),
                chosen: Some(1),
                preempted: None,
                kept_running: false
            }
        );
        assert_eq!(t.running_child(NodeId(0)), Some(1));
        assert_eq!(t.trace().weighted_of(NodeId(0)), Some(&outcome(&t)));
    }

    #[test]
    fn running_child_is_kept_against_equal_weight_and_preempted_by_heavier() {
        // children: 0 lo (w1), 1 eq (w1), 2 hi (w3)
        let mut t = build(node(
            "weighted_selection",
            vec![
                rule("lo", "lo", 1.0),
                rule("eq", "eq", 1.0),
                rule("hi", "hi", 3.0),
            ],
        ));
        let mut ctx = Ctx::default();
        ctx.set("eq", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.running_child(NodeId(0)), Some(1));

        // An equal-weight candidate earlier in order is best, but does not preempt.
        ctx.set("lo", true);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        let o = outcome(&t);
        assert_eq!(
            (o.best, o.chosen, o.preempted, o.kept_running),
            (Some(0), Some(1), None, true)
        );
        assert_eq!((ctx.ticks("lo"), ctx.ticks("eq")), (0, 2));

        // A strictly heavier one preempts: eq halted once, hi ticked.
        ctx.set("hi", true);
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Running);
        let o = outcome(&t);
        assert_eq!(
            (o.best, o.chosen, o.preempted, o.kept_running),
            (Some(2), Some(2), Some(1), false)
        );
        assert_eq!(ctx.halts("eq"), 1);
        assert_eq!(ctx.ticks("hi"), 1);
        assert_eq!(t.running_child(NodeId(0)), Some(2));
        t.tick(&mut ctx, 3.0);
        assert_eq!(ctx.halts("eq"), 1);
        assert_eq!(ctx.ticks("eq"), 2);
    }

    #[test]
    fn weight_zero_or_negative_is_never_chosen() {
        let mut t = build(node(
            "weighted_selection",
            vec![rule("a", "zero", 0.0), rule("a", "neg", -5.0)],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        let o = outcome(&t);
        assert_eq!((o.best, o.chosen), (None, None));
        assert_eq!(ctx.ticks("zero") + ctx.ticks("neg"), 0);
    }

    #[test]
    fn ties_go_to_declaration_order() {
        let mut t = build(node(
            "weighted_selection",
            vec![
                rule("a", "light", 1.0),
                rule("a", "first", 2.0),
                rule("a", "second", 2.0),
            ],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        assert_eq!(outcome(&t).chosen, Some(1));
        assert_eq!((ctx.ticks("first"), ctx.ticks("second")), (1, 0));
    }

    #[test]
    fn running_child_is_committed_when_its_guard_turns_false() {
        // 0 weighted, 1 seq (w1), 2 flag a, 3 act x, 4 seq (w1), 5 flag b, 6 act y
        let mut t = build(node(
            "weighted_selection",
            vec![rule("a", "x", 1.0), rule("b", "y", 1.0)],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        ctx.set("a", false).set("b", true);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (2, Status::Failure),
                (1, Status::Failure),
                (5, Status::Success),
                (3, Status::Running),
                (1, Status::Running),
                (0, Status::Running),
            ]
        );
        assert_eq!(t.trace().status_of(NodeId(1)), Some(Status::Running));
        let o = outcome(&t);
        assert_eq!((o.best, o.chosen, o.kept_running), (Some(1), Some(0), true));
        assert_eq!((ctx.halts("x"), ctx.ticks("y")), (0, 0));
        // When it completes, the best takes over in the same tick.
        ctx.ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Running);
        assert_eq!(t.running_child(NodeId(0)), Some(1));
        assert_eq!((ctx.ticks("x"), ctx.ticks("y")), (3, 1));
    }

    #[test]
    fn without_a_candidate_the_running_child_is_suspended_not_halted() {
        // 0 weighted, 1 seq (w2), 2 flag a, 3 act x, 4 seq (w0), 5 flag z, 6 act zero
        let mut t = build(node(
            "weighted_selection",
            vec![rule("a", "x", 2.0), rule("z", "zero", 0.0)],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        // Nothing available, then only weight 0: Failure, x neither ticked nor halted.
        ctx.set("a", false);
        for now in [1.0, 2.0] {
            assert_eq!(t.tick(&mut ctx, now), Status::Failure);
            ctx.set("z", true);
        }
        assert_eq!(outcome(&t).chosen, None);
        assert_eq!(
            (ctx.ticks("x"), ctx.halts("x"), ctx.ticks("zero")),
            (1, 0, 0)
        );
        assert_eq!(t.running_child(NodeId(0)), Some(0));
        assert!(!entries(&t).contains(&(3, Status::Running)));
        // A lighter candidate appears: the suspended child continues.
        ctx.set("z", false).set("a", true);
        assert_eq!(t.tick(&mut ctx, 3.0), Status::Running);
        assert!(outcome(&t).kept_running);
        assert_eq!(ctx.ticks("x"), 2);
    }

    #[test]
    fn completed_running_child_hands_over_in_the_same_tick() {
        let mut t = build(node(
            "weighted_selection",
            vec![rule("a", "x", 2.0), rule("b", "y", 1.0)],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0); // x running
        ctx.set("a", false).set("b", true).ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        let o = outcome(&t);
        assert_eq!(
            (o.best, o.chosen, o.preempted, o.kept_running),
            (Some(1), Some(1), None, false)
        );
        assert_eq!((ctx.ticks("x"), ctx.ticks("y")), (2, 1));
        assert_eq!(t.running_child(NodeId(0)), Some(1));
    }

    #[test]
    fn non_sequence_child_has_an_empty_guard_and_reactive_body_keeps_its_kind() {
        // 0 weighted, 1 act plain (w1), 2 reactive_sequence (w2), 3 flag g, 4 flag inner, 5 act y
        let mut t = build(node(
            "weighted_selection",
            vec![
                weighted(act("plain"), 1.0),
                weighted(
                    node(
                        "reactive_sequence",
                        vec![cond("g"), cond("inner"), act("y")],
                    ),
                    2.0,
                ),
            ],
        ));
        assert_eq!(t.guard_len(NodeId(2)), 2);
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(outcome(&t).chosen, Some(0));
        assert_eq!(ctx.ticks("plain"), 1);
        // The heavier reactive rule preempts the plain action.
        ctx.set("g", true).set("inner", true);
        t.tick(&mut ctx, 1.0);
        assert_eq!(ctx.halts("plain"), 1);
        assert_eq!(ctx.ticks("y"), 1);
    }

    #[test]
    fn halt_halts_the_running_body() {
        let mut t = build(node("weighted_selection", vec![rule("a", "x", 1.0)]));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
        assert_eq!(t.running_child(NodeId(0)), None);
    }

    #[test]
    fn no_children_is_failure() {
        let mut t = build(node("weighted_selection", vec![]));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(outcome(&t).best, None);
    }
}
