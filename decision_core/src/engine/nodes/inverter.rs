//! `Inverter` (BT.CPP 4): swaps the child's success and failure.
//!
//! | child result | Inverter |
//! |---|---|
//! | `Success` | `Failure`; child reset |
//! | `Failure` | `Success`; child reset |
//! | `Running` | `Running` |
//! | `Skipped` | `Skipped`; the Inverter stays running (BT.CPP sets it running before ticking the child), so its own pre-conditions are not checked next tick |
//!
//! Halting halts the running child and leaves it idle.

use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `Inverter`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Inverter",
        NodeModel::new(Children::Exactly(1), Vec::new()),
        |_| Ok(Box::new(Inverter)),
    );
}

/// No state: the child's result, inverted.
#[derive(Debug, Default)]
pub struct Inverter;

impl<C> Behavior<C> for Inverter {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        cx.set_running();
        let status = match cx.tick_child(0)? {
            Status::Success => Status::Failure,
            Status::Failure => Status::Success,
            other => return Ok(other),
        };
        cx.halt_child(0);
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status};

    fn outcome(child: Status) -> (Status, Vec<(u32, Status)>) {
        let mut t = build(dec("Inverter", json!({}), act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", child);
        let s = t.tick(&mut ctx, 0.0);
        (s, entries(&t))
    }

    #[test]
    fn outcome_table() {
        for (child, expected) in [
            (Status::Success, Status::Failure),
            (Status::Failure, Status::Success),
            (Status::Running, Status::Running),
        ] {
            assert_eq!(outcome(child), (expected, vec![(1, child), (0, expected)]));
        }
    }

    #[test]
    fn completed_child_is_reset_running_child_is_kept() {
        let mut t = build(dec("Inverter", json!({}), act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        ctx.ret("a", Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.state(NodeId(1)), NodeState::Running);
    }

    #[test]
    fn skipped_child_passes_through() {
        let mut t = build(dec("Inverter", json!({}), skipped()));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
        // BT.CPP set the decorator running before ticking the child; the skip keeps that.
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
    }

    #[test]
    fn after_a_skip_own_pre_conditions_are_not_checked() {
        // Golden case 071: Inverter[_successIf a >= 1] over Precondition(a >= 2, else SKIPPED).
        let mut t = build(json!({
            "type": "Inverter", "name": "inv", "ports": { "_successIf": "a >= 1" },
            "children": [{
                "type": "Precondition", "name": "pre",
                "ports": { "if": "a >= 2", "else": "SKIPPED" },
                "children": [{ "type": "AlwaysSuccess", "name": "ok" }]
            }]
        }));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "a", Value::Int(0)).unwrap();
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        t.blackboard_mut().set(root, "a", Value::Int(1)).unwrap();
        // Still running from the last tick: `_successIf` is not evaluated.
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
        t.blackboard_mut().set(root, "a", Value::Int(3)).unwrap();
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Failure);
        assert_eq!(
            entries(&t),
            [
                (2, Status::Success),
                (1, Status::Success),
                (0, Status::Failure)
            ]
        );
        // Completed and reset: now `_successIf` decides without ticking the child.
        t.blackboard_mut().set(root, "a", Value::Int(1)).unwrap();
        assert_eq!(t.tick(&mut ctx, 3.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
    }

    #[test]
    fn halting_halts_the_running_child_once() {
        // 0 ReactiveSequence, 1 flag g, 2 Inverter, 3 act a
        let mut t = build(guarded("g", dec("Inverter", json!({}), act("a"))));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert_eq!(ctx.ticks("a"), 1);
        assert!(all_idle(&t));
    }
}
