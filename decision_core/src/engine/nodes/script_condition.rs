//! `ScriptCondition` (BT.CPP 4): evaluates the script in `code` (parsed and bound at load
//! time) as a condition.
//!
//! | script value | ScriptCondition |
//! |---|---|
//! | true (1, non-zero double) | `Success` |
//! | false (0, 0.0) | `Failure` |
//! | other int, string, run-time error | tick error |

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::script::Script;
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `ScriptCondition`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "ScriptCondition",
        NodeModel::new(
            Children::None,
            vec![PortDecl::input(
                "code",
                EntryType::Str,
                "script whose value must be true or false",
            )],
        )
        .condition(),
        |b| Ok(Box::new(ScriptCondition(b.script("code")?))),
    );
}

/// The `ScriptCondition` node: its `code` port, parsed and bound once when the tree is built.
#[derive(Debug)]
pub struct ScriptCondition(Script);

impl<C> Behavior<C> for ScriptCondition {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let holds = self
            .0
            .eval_bool(cx.blackboard_mut())
            .map_err(|e| format!("script `{}`: {}", self.0.source(), e.message))?;
        Ok(if holds {
            Status::Success
        } else {
            Status::Failure
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{Status, compile};

    #[test]
    fn outcome_follows_the_blackboard() {
        let mut t = build(leaf("ScriptCondition", "c", json!({ "code": "x == 3" })));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "x", Value::Int(3)).unwrap();
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
        t.blackboard_mut().set(root, "x", Value::Int(4)).unwrap();
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Failure);
    }

    #[test]
    fn int_other_than_0_or_1_is_an_error() {
        let mut t = build(leaf("ScriptCondition", "c", json!({ "code": "2" })));
        assert!(t.try_tick(&mut Ctx::default(), 0.0).is_err());
        let mut t = build(leaf("ScriptCondition", "c", json!({ "code": "0" })));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Failure);
    }

    #[test]
    fn bad_code_is_a_compile_error() {
        let s = spec(leaf("ScriptCondition", "c", json!({ "code": "x ==" })));
        assert!(compile(&s, &registry()).is_err());
    }
}
