//! `UnsetBlackboard` (BT.CPP 4): removes the entry `key` from this node's blackboard scope
//! (remappings are not followed, as in BT.CPP) and succeeds.
//!
//! | case | UnsetBlackboard |
//! |---|---|
//! | entry removed, or there was none | `Success` |
//! | `key` missing, or a pointer `{k}` whose entry has no value | tick error |
//!
//! `key` is a key name, or a pointer `{k}` whose entry holds the name (BT.CPP reads the
//! port as a string input). A missing port is an error on the tick, not at load.

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `UnsetBlackboard`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "UnsetBlackboard",
        NodeModel::new(
            Children::None,
            // Required inputs (a missing one is a load error, as `robot-decision bt` requires);
            // `output_key` is read as a key name, which an output port would refuse.
            vec![PortDecl::input(
                "key",
                EntryType::Str,
                "key of the entry to remove",
            )],
        ),
        |b| {
            let key = b.text("key").map(|_| b.port("key"));
            Ok(Box::new(UnsetBlackboard { key }))
        },
    );
}

/// The `key` port (`None` when not given).
#[derive(Debug)]
pub struct UnsetBlackboard {
    key: Option<Port>,
}

impl<C> Behavior<C> for UnsetBlackboard {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let port = self.key.as_ref().ok_or("missing input port [key]")?;
        let name = cx
            .get(port)
            .ok_or("missing input port [key]: its entry has no value")?
            .to_string_value()
            .map_err(|e| format!("port `key`: {e}"))?;
        let scope = cx.scope();
        cx.blackboard_mut().unset(scope, &name);
        Ok(Status::Success)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{Status, compile};

    #[test]
    fn removes_the_entry_and_succeeds() {
        let mut t = build(leaf("UnsetBlackboard", "u", json!({ "key": "a" })));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "a", Value::Int(1)).unwrap();
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
        assert!(!t.blackboard().contains(root, "a"));
        // Nothing left to remove: still a success.
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
    }

    #[test]
    fn a_script_sees_the_entry_gone() {
        // Sequence[Script "a := 1", UnsetBlackboard a, ScriptCondition "a == 1"]
        let mut t = build(node(
            "Sequence",
            vec![
                leaf("Script", "s", json!({ "code": "a := 1" })),
                leaf("UnsetBlackboard", "u", json!({ "key": "a" })),
                leaf("ScriptCondition", "c", json!({ "code": "a == 1" })),
            ],
        ));
        // Reading a missing entry in a script is a runtime error.
        assert!(t.try_tick(&mut Ctx::default(), 0.0).is_err());
        let root = t.root_scope();
        assert!(!t.blackboard().contains(root, "a"));
    }

    #[test]
    fn key_pointer_names_the_entry() {
        let mut t = build(leaf("UnsetBlackboard", "u", json!({ "key": "{k}" })));
        let root = t.root_scope();
        t.blackboard_mut()
            .set(root, "k", Value::Str("a".into()))
            .unwrap();
        t.blackboard_mut().set(root, "a", Value::Int(1)).unwrap();
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        assert!(!t.blackboard().contains(root, "a"));
        assert!(t.blackboard().contains(root, "k"));
    }

    #[test]
    fn missing_key_is_a_compile_error() {
        let s = spec(leaf("UnsetBlackboard", "u", json!({})));
        let e = compile(&s, &registry()).err().expect("missing port");
        assert!(
            e[0].message.contains("missing required port `key`"),
            "{e:?}"
        );
    }
}
