//! `SubTree` (BT.CPP 4): the root of an included tree. The compiler gives its child a
//! blackboard scope of its own (its ports are remappings, `_autoremap` maps same-named keys);
//! the node itself passes its child's status through.
//!
//! | child result | SubTree |
//! |---|---|
//! | `Success` / `Failure` | the same; child reset |
//! | `Running` | `Running` |
//! | `Skipped` | `Skipped`; a SubTree ticked from idle stays running (BT.CPP sets it running when idle) |
//!
//! Halting halts the running child and leaves it idle.

use crate::engine::node::{Behavior, Cx, Fault, NodeState};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `SubTree`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register("SubTree", NodeModel::scope(Children::Exactly(1)), |_| {
        Ok(Box::new(SubTree))
    });
}

/// No state: the child's status, unchanged.
#[derive(Debug, Default)]
pub struct SubTree;

impl<C> Behavior<C> for SubTree {
    /// The child is ticked as a lone child whose result is passed on, which leaves it idle
    /// after a completed result (the reset). BT.CPP sets the node running when idle before
    /// the child's tick; every result but a skip or an error sets the node's state again, so
    /// only after those two is it marked.
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let result = cx.tick_lone_child();
        let passed_on = matches!(
            result,
            Ok(Status::Success | Status::Failure | Status::Running)
        );
        if !passed_on && cx.state() == NodeState::Idle {
            cx.set_running();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status};

    #[test]
    fn outcome_table() {
        for child in [Status::Success, Status::Failure, Status::Running] {
            let mut t = build(dec("SubTree", json!({}), act("a")));
            let mut ctx = Ctx::default();
            ctx.ret("a", child);
            assert_eq!(t.tick(&mut ctx, 0.0), child);
            assert_eq!(entries(&t), [(1, child), (0, child)]);
            let after = if child == Status::Running {
                NodeState::Running
            } else {
                NodeState::Idle
            };
            assert_eq!(t.state(NodeId(1)), after);
        }
    }

    #[test]
    fn skipped_child_passes_through() {
        let mut t = build(dec("SubTree", json!({}), skipped()));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
        assert_eq!(t.state(NodeId(0)), NodeState::Running);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
    }

    #[test]
    fn remapped_port_writes_the_parent_entry_and_private_keys_stay_inside() {
        // SubTree { inner = {outer} } [ Script "inner := 5; own := 1" ]
        let mut t = build(dec(
            "SubTree",
            json!({ "inner": "{outer}" }),
            json!({ "type": "Script", "ports": { "code": "inner := 5; own := 1" } }),
        ));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        let root = t.root_scope();
        assert_eq!(t.blackboard().get(root, "outer"), Some(&Value::Int(5)));
        assert_eq!(t.blackboard().get(root, "own"), None);
    }

    #[test]
    fn halting_halts_the_running_child_once() {
        let mut t = build(guarded("g", dec("SubTree", json!({}), act("a"))));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert!(all_idle(&t));
    }
}
