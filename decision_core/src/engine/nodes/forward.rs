//! A `Sequence`, `Fallback`, `AsyncSequence` or `AsyncFallback` with a single child: BT.CPP's
//! rules give all four the child's own result, so the node passes it through and keeps no
//! round state (a round of one child ends in the tick it completes).
//!
//! | child result | the node |
//! |---|---|
//! | `Running` | `Running` |
//! | `Success` / `Failure` | the same; the child is left idle |
//! | `Skipped` | `Skipped`; the child is reset (halted if it was left running), the node stays running |
//!
//! Why the four agree: the stop status and the result of a finished round are the child's
//! result either way; the skipped count of a round of one child is 0 when the child is ticked
//! (a skip ends the round); an asynchronous variant yields only when children are left.

use crate::engine::Status;
use crate::engine::node::{Behavior, Cx, Fault};
use std::any::Any;

/// The behaviour of an ordered control with one child (see the module's table).
#[derive(Debug, Default, Clone, Copy)]
pub struct Forward;

/// After a skipped child or an error: the node stays running (BT.CPP marks it so before
/// ticking the child, and a skip or an error leaves the state as it was), and a skipped child
/// is reset. Out of line: it is rare, and the tick then keeps fewer values across the
/// child's tick.
#[cold]
#[inline(never)]
fn after_skip_or_error<C>(
    cx: &mut Cx<'_, C>,
    result: Result<Status, Fault>,
) -> Result<Status, Fault> {
    cx.set_running();
    if let Ok(Status::Skipped) = result {
        cx.halt_children();
    }
    result
}

impl<C> Behavior<C> for Forward {
    /// BT.CPP marks the node running before it ticks the child; only a skip or an error
    /// leaves that visible (every other result sets the node's state), so only they mark it:
    /// the common tick writes one state less and tests its result once.
    #[inline]
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let result = cx.tick_lone_child();
        match result {
            Ok(Status::Success | Status::Failure | Status::Running) => result,
            _ => after_skip_or_error(cx, result),
        }
    }

    fn can_resume(&self) -> bool {
        true
    }

    fn running_child(&self) -> Option<usize> {
        Some(0)
    }

    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    //! A one-child node built as [`Forward`] must behave exactly as the general
    //! [`Ordered`](super::super::sequence::Ordered) of its kind with that one child.

    use proptest::prelude::*;
    use serde_json::{Value as Json, json};

    use super::super::sequence::Ordered;
    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{Children, NodeId, NodeModel, Registry, Status, Tree, compile};

    /// The four kinds, each with its general behaviour registered as `General<kind>`.
    const KINDS: [&str; 4] = ["Sequence", "Fallback", "AsyncSequence", "AsyncFallback"];

    fn registry_with_general_kinds() -> Registry<Ctx> {
        let mut r = registry();
        let model = || NodeModel::new(Children::AtLeast(1), Vec::new());
        r.register("GeneralSequence", model(), |_| {
            Ok(Box::new(Ordered::sequence()))
        });
        r.register("GeneralFallback", model(), |_| {
            Ok(Box::new(Ordered::fallback()))
        });
        r.register("GeneralAsyncSequence", model().asynchronous(), |_| {
            Ok(Box::new(Ordered::sequence().yielding()))
        });
        r.register("GeneralAsyncFallback", model(), |_| {
            Ok(Box::new(Ordered::fallback().yielding()))
        });
        r
    }

    /// Action `id` that skips while entry `skip_key` is 1.
    fn skippable(id: &str, skip_key: &str) -> Json {
        json!({ "type": "act", "name": id, "ports": { "id": id, "_skipIf": format!("{skip_key} == 1") } })
    }

    /// `kind[kind[child]]`, the outer node skipping while entry `t` is 1, alone or under
    /// `ReactiveSequence[flag g, ...]` (which resets and halts it); `child` is a skippable
    /// action or a two-child `Sequence` of them (which is left running when both skip).
    fn tree(kind: &str, two_leaves: bool, guarded: bool) -> Json {
        let child = if two_leaves {
            node("Sequence", vec![skippable("a", "s"), skippable("b", "s")])
        } else {
            skippable("a", "s")
        };
        let inner = node(kind, vec![child]);
        let outer = json!({ "type": kind, "ports": { "_skipIf": "t == 1" }, "children": [inner] });
        if guarded {
            node("ReactiveSequence", vec![cond("g"), outer])
        } else {
            outer
        }
    }

    fn compiled(v: Json) -> Tree<Ctx> {
        match compile(&spec(v), &registry_with_general_kinds()) {
            Ok(t) => t,
            Err(e) => panic!("{e:?}"),
        }
    }

    /// One tick's inputs: what the actions return, whether they skip, whether the outer node
    /// skips (when idle), whether the guard holds.
    fn step() -> impl Strategy<Value = (u8, bool, bool, bool)> {
        (
            0u8..3,
            any::<bool>(),
            prop::bool::weighted(0.2),
            prop::bool::weighted(0.85),
        )
    }

    proptest! {
        #[test]
        fn a_lone_child_behaves_as_under_the_general_kind(
            kind in 0usize..4,
            two_leaves in any::<bool>(),
            guarded in any::<bool>(),
            steps in prop::collection::vec(step(), 1..24),
        ) {
            let kind = KINDS[kind];
            let mut fast = compiled(tree(kind, two_leaves, guarded));
            let mut general = compiled(tree(&format!("General{kind}"), two_leaves, guarded));
            fast.set_tracing(true);
            general.set_tracing(true);
            let (mut fast_ctx, mut general_ctx) = (Ctx::default(), Ctx::default());
            for (k, &(result, skip, outer_skip, guard)) in steps.iter().enumerate() {
                let status = [Status::Running, Status::Success, Status::Failure][result as usize];
                for (t, ctx) in [(&mut fast, &mut fast_ctx), (&mut general, &mut general_ctx)] {
                    ctx.ret("a", status).ret("b", status).set("g", guard);
                    put(t, "s", Value::Int(i64::from(skip)));
                    put(t, "t", Value::Int(i64::from(outer_skip)));
                }
                let a = fast.try_tick(&mut fast_ctx, k as f64);
                let b = general.try_tick(&mut general_ctx, k as f64);
                prop_assert_eq!(a, b, "tick {}", k);
                prop_assert_eq!(entries(&fast), entries(&general), "tick {}", k);
                for n in 0..fast.node_count() {
                    let id = NodeId(n as u32);
                    prop_assert_eq!(fast.state(id), general.state(id), "tick {} node {}", k, n);
                    prop_assert_eq!(fast.running_child(id), general.running_child(id));
                }
                prop_assert_eq!(&fast_ctx.ticks, &general_ctx.ticks, "tick {}", k);
                prop_assert_eq!(&fast_ctx.halts, &general_ctx.halts, "tick {}", k);
            }
            fast.halt(&mut fast_ctx);
            general.halt(&mut general_ctx);
            prop_assert_eq!(&fast_ctx.halts, &general_ctx.halts);
        }
    }

    #[test]
    fn an_error_below_leaves_the_same_states_and_names_the_same_node() {
        let failing = |kind: &str| {
            let script = leaf("Script", "bad", json!({ "code": "missing = 1" }));
            node(kind, vec![node(kind, vec![script])])
        };
        for kind in KINDS {
            let mut fast = compiled(failing(kind));
            let mut general = compiled(failing(&format!("General{kind}")));
            fast.set_tracing(true);
            general.set_tracing(true);
            let (mut a, mut b) = (Ctx::default(), Ctx::default());
            let fast_error = fast.try_tick(&mut a, 0.0).unwrap_err();
            assert_eq!(fast_error, general.try_tick(&mut b, 0.0).unwrap_err());
            assert_eq!(
                (fast_error.node, fast_error.node_name.as_str()),
                (NodeId(2), "bad")
            );
            for n in 0..fast.node_count() {
                let id = NodeId(n as u32);
                assert_eq!(fast.state(id), general.state(id), "{kind} node {n}");
            }
            assert_eq!(fast.state(NodeId(0)), crate::engine::NodeState::Running);
            assert_eq!(entries(&fast), entries(&general), "{kind}");
        }
    }

    #[test]
    fn a_running_lone_child_resumes_as_under_the_general_kind() {
        for kind in KINDS {
            let mut fast = compiled(node(kind, vec![node(kind, vec![act("a")])]));
            let mut general = compiled(node(
                &format!("General{kind}"),
                vec![node(&format!("General{kind}"), vec![act("a")])],
            ));
            let path = [NodeId(0), NodeId(1), NodeId(2)];
            assert!(fast.resume_running(&path), "{kind}");
            assert!(general.resume_running(&path), "{kind}");
            let (mut a, mut b) = (Ctx::default(), Ctx::default());
            for status in [Status::Running, Status::Success] {
                a.ret("a", status);
                b.ret("a", status);
                assert_eq!(fast.try_tick(&mut a, 0.0), general.try_tick(&mut b, 0.0));
                for n in 0..fast.node_count() {
                    let id = NodeId(n as u32);
                    assert_eq!(fast.state(id), general.state(id), "{kind} node {n}");
                    assert_eq!(fast.running_child(id), general.running_child(id));
                }
            }
            assert_eq!(a.halts, b.halts);
        }
    }

    #[test]
    fn a_lone_child_decided_by_pre_conditions_settles_as_under_the_general_kind() {
        // The inner node succeeds by `_successIf` while `u` is 1, and the child fails by
        // `_failureIf` while `v` is 1, each only when idle.
        let tree = |kind: &str| {
            let child = json!({ "type": "act", "name": "a",
                "ports": { "id": "a", "_failureIf": "v == 1" } });
            let inner =
                json!({ "type": kind, "ports": { "_successIf": "u == 1" }, "children": [child] });
            node(kind, vec![inner])
        };
        for kind in KINDS {
            let mut fast = compiled(tree(kind));
            let mut general = compiled(tree(&format!("General{kind}")));
            let (mut a, mut b) = (Ctx::default(), Ctx::default());
            for (k, (u, v, result)) in [
                (0, 0, Status::Running),
                (1, 0, Status::Running),
                (0, 1, Status::Success),
                (1, 1, Status::Failure),
                (0, 1, Status::Running),
                (0, 0, Status::Success),
            ]
            .into_iter()
            .enumerate()
            {
                for (t, ctx) in [(&mut fast, &mut a), (&mut general, &mut b)] {
                    put(t, "u", Value::Int(u));
                    put(t, "v", Value::Int(v));
                    ctx.ret("a", result);
                }
                assert_eq!(fast.try_tick(&mut a, 0.0), general.try_tick(&mut b, 0.0));
                assert_eq!(entries(&fast), entries(&general), "{kind} step {k}");
                for n in 0..fast.node_count() {
                    let id = NodeId(n as u32);
                    assert_eq!(
                        fast.state(id),
                        general.state(id),
                        "{kind} step {k} node {n}"
                    );
                }
            }
            assert_eq!((a.ticks, a.halts), (b.ticks, b.halts), "{kind}");
        }
    }

    #[test]
    fn a_lone_child_is_built_as_forward_and_more_children_are_not() {
        for kind in KINDS {
            let t = compiled(node(kind, vec![act("a")]));
            assert!(t.behavior::<super::Forward>(NodeId(0)).is_some(), "{kind}");
            let t = compiled(node(kind, vec![act("a"), act("b")]));
            assert!(t.behavior::<super::Forward>(NodeId(0)).is_none(), "{kind}");
        }
    }
}
