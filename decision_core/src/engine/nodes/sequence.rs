//! `Sequence` (BT.CPP 4): children in order, not reactive: a tick resumes at the running child.
//!
//! | child result | Sequence |
//! |---|---|
//! | `Running` | `Running` (resumes at that child next tick) |
//! | `Failure` | `Failure`; every child reset, next tick starts at child 0 |
//! | `Success` / `Skipped` | goes on with the next child |
//! | all children done | `Success`, or `Skipped` when every child skipped; children reset |
//!
//! Halting resets the index and halts the running child. [`Ordered`] is also `Fallback`'s
//! behaviour, with the roles of `Success` and `Failure` swapped, and with [`Ordered::yielding`]
//! that of `AsyncSequence` and `AsyncFallback`.

use super::forward::Forward;
use super::round::Round;
use crate::engine::node::{Behavior, Cx, Fault, NodeState};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `Sequence`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Sequence",
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |b| Ok(Ordered::sequence().boxed(b.child_count())),
    );
}

/// Children in order until one returns the stop status (`Failure` for `Sequence`, `Success`
/// for `Fallback`: `STOPS_AT_SUCCESS`): the running position and the skipped count of this
/// round. `YIELDS` is the asynchronous variant's rule (see [`Ordered::yielding`]). Both are
/// type parameters so that the common kinds test neither per child.
#[derive(Debug, Default)]
pub struct Ordered<const STOPS_AT_SUCCESS: bool, const YIELDS: bool = false> {
    round: Round,
}

impl Ordered<false> {
    /// `Sequence`: stops at the first child that fails; when none does, succeeds.
    pub fn sequence() -> Self {
        Self::default()
    }
}

impl Ordered<true> {
    /// `Fallback`: stops at the first child that succeeds; when none does, fails.
    pub fn fallback() -> Self {
        Self::default()
    }
}

impl<const STOPS_AT_SUCCESS: bool> Ordered<STOPS_AT_SUCCESS> {
    /// The asynchronous variant (`AsyncSequence`, `AsyncFallback`): a child that was idle
    /// and completes without returning the stop status ends the tick with `Running` when
    /// more children are left, so the next child starts on the next tick.
    pub fn yielding(self) -> Ordered<STOPS_AT_SUCCESS, true> {
        Ordered { round: self.round }
    }
}

impl<const STOPS_AT_SUCCESS: bool, const YIELDS: bool> Ordered<STOPS_AT_SUCCESS, YIELDS> {
    /// The behaviour of a node of this kind with `children` children: [`Forward`] for one
    /// child (all four kinds pass a lone child's result through), else this.
    pub fn boxed<C: 'static>(self, children: usize) -> Box<dyn Behavior<C>> {
        if children == 1 {
            Box::new(Forward)
        } else {
            Box::new(self)
        }
    }

    /// The status that ends a round early.
    const STOP: Status = if STOPS_AT_SUCCESS {
        Status::Success
    } else {
        Status::Failure
    };

    /// The result of a round that no child stopped (unless every child skipped).
    const DONE: Status = if STOPS_AT_SUCCESS {
        Status::Failure
    } else {
        Status::Success
    };
}

impl<const STOPS_AT_SUCCESS: bool, const YIELDS: bool> Ordered<STOPS_AT_SUCCESS, YIELDS> {
    /// Ticks the last child, `current` of `n`: its result ends the round unless it runs, and
    /// a completed one leaves it idle at once, so the reset that ends the round stops before
    /// it (a skipped child may still run: the reset visits it).
    #[inline(always)]
    fn tick_last<C>(
        &mut self,
        cx: &mut Cx<'_, C>,
        current: usize,
        n: usize,
    ) -> Result<Status, Fault> {
        let status = match cx.tick_child_ending_round(current) {
            Ok(status) => status,
            Err(fault) => {
                self.round.current = current;
                return Err(fault);
            }
        };
        match status {
            Status::Running => {
                self.round.current = current;
                Ok(Status::Running)
            }
            Status::Skipped => {
                self.round.skipped += 1;
                Ok(self.round.finish(cx, n, Self::DONE))
            }
            Status::Success | Status::Failure => {
                // The children before the last one are reset (none when resuming at child 0).
                if current != 0 {
                    cx.halt_children_before(current);
                }
                if status == Self::STOP {
                    self.round.current = 0;
                    return Ok(status);
                }
                let all_skipped = self.round.skipped == n;
                self.round = Round::default();
                Ok(if all_skipped { Status::Skipped } else { status })
            }
        }
    }
}

impl<C, const STOPS_AT_SUCCESS: bool, const YIELDS: bool> Behavior<C>
    for Ordered<STOPS_AT_SUCCESS, YIELDS>
{
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        self.round.start(cx);
        // The position lives in a register while the children tick; it is stored back on
        // every way out (an error too: the next tick resumes where this one stopped).
        let mut current = self.round.current;
        // The last child first: a round that resumes there needs none of
        // the loop's values.
        // (Wrapping: a position is at most `n`, but this is before the loop's bound check.)
        if current.wrapping_add(1) == n {
            return self.tick_last(cx, current, n);
        }
        while current < n {
            if current + 1 == n {
                return self.tick_last(cx, current, n);
            }
            // Only the asynchronous variant needs the child's state before the tick.
            let before = if YIELDS {
                cx.child_state(current)
            } else {
                NodeState::Running
            };
            let status = match cx.tick_child(current) {
                Ok(status) => status,
                Err(fault) => {
                    self.round.current = current;
                    return Err(fault);
                }
            };
            match status {
                Status::Running => {
                    self.round.current = current;
                    return Ok(Status::Running);
                }
                Status::Skipped => {
                    current += 1;
                    self.round.skipped += 1;
                }
                status if status == Self::STOP => {
                    cx.halt_children();
                    self.round.current = 0;
                    return Ok(status);
                }
                _ => {
                    current += 1;
                    if YIELDS && before == NodeState::Idle && current < n {
                        self.round.current = current;
                        return Ok(Status::Running);
                    }
                }
            }
        }
        Ok(self.round.finish(cx, n, Self::DONE))
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.round = Round::default();
        cx.halt_children();
    }

    fn can_resume(&self) -> bool {
        true
    }

    fn resume(&mut self, child: Option<usize>) {
        self.round.current = child.unwrap_or(0);
    }

    fn running_child(&self) -> Option<usize> {
        Some(self.round.current)
    }
}

#[cfg(test)]
mod tests {
    //! The last child of a round is left idle by its own tick
    //! ([`Cx::tick_child_ending_round`]) instead of by the reset that ends the round: every
    //! node's state, the halts and the result must be those of the reset visiting every child.
    //! (A node with one child here is built as [`Forward`](super::super::forward::Forward),
    //! which must leave the same states; `forward`'s tests compare it with this kind.)

    use serde_json::json;

    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status, Tree};

    /// The state of every node after the last tick.
    fn states(t: &Tree<Ctx>) -> Vec<NodeState> {
        (0..t.node_count())
            .map(|i| t.state(NodeId(i as u32)))
            .collect()
    }

    use NodeState::{Idle, Running as Run, Success as Done};

    #[test]
    fn a_round_ended_by_its_last_child_leaves_every_child_idle() {
        for kind in ["Sequence", "Fallback"] {
            let (go_on, stop) = if kind == "Sequence" {
                (Status::Success, Status::Failure)
            } else {
                (Status::Failure, Status::Success)
            };
            let mut t = build(node(kind, vec![act("a"), act("b")]));
            let mut ctx = Ctx::default();
            ctx.ret("a", go_on).ret("b", Status::Running);
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
            let kept = if kind == "Sequence" {
                Done
            } else {
                NodeState::Failure
            };
            assert_eq!(states(&t), vec![Run, kept, Run], "{kind}");
            for last in [go_on, stop] {
                ctx.ret("b", Status::Running);
                t.tick(&mut ctx, 0.0);
                ctx.ret("b", last);
                assert_eq!(t.tick(&mut ctx, 0.0), last, "{kind} {last:?}");
                assert_eq!(states(&t), vec![Idle, Idle, Idle], "{kind} {last:?}");
                assert_eq!(ctx.halts("b"), 0, "{kind}: a completed child is not halted");
            }
        }
    }

    #[test]
    fn a_lone_child_is_left_idle_when_it_completes_and_running_when_it_runs() {
        let mut t = build(node("Sequence", vec![node("Sequence", vec![act("a")])]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(states(&t), vec![Run, Run, Run]);
        for last in [Status::Success, Status::Failure] {
            ctx.ret("a", last);
            assert_eq!(t.tick(&mut ctx, 0.0), last);
            assert_eq!(states(&t), vec![Idle, Idle, Idle]);
        }
        assert_eq!(ctx.halts("a"), 0);
    }

    #[test]
    fn a_last_child_decided_by_its_pre_condition_is_left_idle() {
        let last =
            json!({ "type": "act", "name": "b", "ports": { "id": "b", "_successIf": "true" } });
        let mut t = build(node("Sequence", vec![act("a"), last]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(states(&t), vec![Idle, Idle, Idle]);
        assert_eq!(ctx.ticks("b"), 0);
    }

    #[test]
    fn a_skipped_last_child_left_running_is_halted_by_the_reset() {
        // The inner Sequence marks itself running, then all its children skip: it returns
        // SKIPPED and stays running, so the outer round's reset must halt it.
        let inner = node("Sequence", vec![skipped()]);
        let mut t = build(node("Sequence", vec![act("a"), inner]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(states(&t), vec![Idle; 4]);
        let mut t = build(node("Sequence", vec![node("Sequence", vec![skipped()])]));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        // The outer one is left running by the same rule; its child was halted and reset.
        assert_eq!(states(&t), vec![Run, Idle, Idle]);
    }
}
