//! `RunOnce` (BT.CPP 4): ticks the child until it completes once, then never again.
//!
//! | state | child result | RunOnce |
//! |---|---|---|
//! | not completed yet | `Success` / `Failure` | the same; child reset, the result is remembered |
//! | not completed yet | `Running` / `Skipped` | the same (after a skip the node stays running: BT.CPP sets it running before ticking the child) |
//! | completed, `then_skip` true (default) | not ticked | `Skipped` |
//! | completed, `then_skip` false | not ticked | the remembered result |
//!
//! `then_skip` is read on every tick after the completion (an unreadable value counts as true; a
//! read changes nothing, so the ticks before it need not read it). Halting halts the
//! running child but keeps the memory: a completed RunOnce stays completed.

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `RunOnce`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "RunOnce",
        NodeModel::new(
            Children::Exactly(1),
            vec![PortDecl::input_or(
                "then_skip",
                EntryType::Bool,
                "true",
                "after the first completion: skip (true) or repeat its result (false)",
            )],
        ),
        |b| {
            Ok(Box::new(RunOnce {
                then_skip: b.port("then_skip"),
                done: None,
            }))
        },
    );
}

/// The `then_skip` port and the child's first completed result.
#[derive(Debug)]
pub struct RunOnce {
    then_skip: Port,
    done: Option<Status>,
}

impl<C> Behavior<C> for RunOnce {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        if let Some(result) = self.done {
            let skip = cx.get_bool(&self.then_skip, "then_skip").unwrap_or(true);
            return Ok(if skip { Status::Skipped } else { result });
        }
        cx.set_running();
        let status = cx.tick_child(0)?;
        if status.is_completed() {
            self.done = Some(status);
            cx.halt_child(0);
        }
        Ok(status)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status};

    /// `then_skip` bound to an entry reads as any bool port: a bool as it is (the port's fast
    /// path), else converted (ints 0 and 1, bool words); an unreadable value counts as true.
    #[test]
    fn then_skip_from_an_entry_reads_as_a_bool_port() {
        let cases = [
            (Value::Bool(true), true),
            (Value::Bool(false), false),
            (Value::Int(0), false),
            (Value::Int(1), true),
            (Value::Int(2), true),
            (Value::Double(0.0), false),
            (Value::Str("false".to_owned()), false),
            (Value::Str("x".to_owned()), true),
        ];
        for (value, skips) in cases {
            let spec = dec("RunOnce", json!({ "then_skip": "{skip}" }), act("a"));
            let mut t = build_untyped(spec, &["skip"]);
            put(&mut t, "skip", value.clone());
            let mut ctx = Ctx::default();
            ctx.ret("a", Status::Success);
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Success, "{value:?}");
            let then = if skips {
                Status::Skipped
            } else {
                Status::Success
            };
            assert_eq!(t.tick(&mut ctx, 0.0), then, "{value:?}");
        }
    }

    #[test]
    fn then_skip_skips_forever_after_the_first_completion() {
        for child in [Status::Success, Status::Failure] {
            let mut t = build(dec("RunOnce", json!({}), act("a")));
            let mut ctx = Ctx::default();
            ctx.ret("a", child);
            assert_eq!(t.tick(&mut ctx, 0.0), child);
            assert_eq!(entries(&t), [(1, child), (0, child)]);
            assert_eq!(t.state(NodeId(1)), NodeState::Idle);
            for _ in 0..3 {
                assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
                assert_eq!(entries(&t), [(0, Status::Skipped)]);
            }
            assert_eq!(ctx.ticks("a"), 1);
        }
    }

    #[test]
    fn without_then_skip_the_result_is_repeated_without_ticking() {
        for child in [Status::Success, Status::Failure] {
            let mut t = build(dec("RunOnce", json!({ "then_skip": false }), act("a")));
            let mut ctx = Ctx::default();
            ctx.ret("a", child);
            assert_eq!(t.tick(&mut ctx, 0.0), child);
            ctx.ret("a", Status::Running);
            assert_eq!(t.tick(&mut ctx, 0.0), child);
            assert_eq!(entries(&t), [(0, child)]);
            assert_eq!(ctx.ticks("a"), 1);
        }
    }

    #[test]
    fn running_and_skipped_children_are_not_remembered() {
        let mut t = build(dec("RunOnce", json!({}), act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);

        let mut t = build(dec("RunOnce", json!({ "then_skip": false }), skipped()));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
    }

    #[test]
    fn halting_halts_the_child_once_and_keeps_the_memory() {
        // 0 ReactiveSequence, 1 flag g, 2 Sequence, 3 RunOnce, 4 act a, 5 act b
        let body = node(
            "Sequence",
            vec![
                dec("RunOnce", json!({ "then_skip": false }), act("a")),
                act("b"),
            ],
        );
        let mut t = build(guarded("g", body));
        let mut ctx = Ctx::default();
        ctx.set("g", true).ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running); // a done, b running
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("b"), 1);
        assert!(all_idle(&t));
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(ctx.ticks("a"), 1);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Success),
                (3, Status::Success),
                (5, Status::Running),
                (2, Status::Running),
                (0, Status::Running)
            ]
        );
        // A running child halted before completing is ticked again afterwards.
        let mut t = build(guarded("g", dec("RunOnce", json!({}), act("c"))));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("c"), 1);
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(ctx.ticks("c"), 2);
    }
}
