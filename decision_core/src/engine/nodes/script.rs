//! `Script` (BT.CPP 4): runs the script in `code` (parsed and bound at load time, so a bad
//! script is a compile error) and returns `Success`; a run-time script error stops the tick.
//!
//! | script | Script |
//! |---|---|
//! | runs | `Success` |
//! | run-time error | tick error |

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::script::Script as Code;
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `Script`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Script",
        NodeModel::new(
            Children::None,
            vec![PortDecl::input(
                "code",
                EntryType::Str,
                "script to run (assignments on the blackboard)",
            )],
        ),
        |b| Ok(Box::new(Script(b.script("code")?))),
    );
}

/// The `Script` node: its `code` port, parsed and bound once when the tree is built.
#[derive(Debug)]
pub struct Script(Code);

impl<C> Behavior<C> for Script {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        self.0
            .eval(cx.blackboard_mut())
            .map_err(|e| format!("script `{}`: {}", self.0.source(), e.message))?;
        Ok(Status::Success)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status, compile};

    #[test]
    fn runs_the_code_and_succeeds() {
        let mut t = build(leaf("Script", "s", json!({ "code": "a := 2; b := a + 1" })));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
        let root = t.root_scope();
        assert_eq!(t.blackboard().get(root, "a"), Some(&Value::Int(2)));
        assert_eq!(t.blackboard().get(root, "b"), Some(&Value::Double(3.0)));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
    }

    #[test]
    fn bad_or_missing_code_is_a_compile_error() {
        for ports in [json!({ "code": "a := " }), json!({})] {
            let s = spec(leaf("Script", "s", ports));
            assert!(compile(&s, &registry()).is_err());
        }
    }

    #[test]
    fn runtime_error_stops_the_tick() {
        // `=` on a missing entry is an error.
        let mut t = build(leaf("Script", "s", json!({ "code": "missing = 1" })));
        let err = t.try_tick(&mut Ctx::default(), 0.0).unwrap_err();
        assert_eq!(err.node_name, "s");
    }

    /// A fault's details travel beside the one-byte result: every tick's error is its own
    /// (node and message), passed up unchanged through the ancestors, with no detail left
    /// over from an earlier error of this tree or of another tree on the same thread.
    #[test]
    fn each_error_names_its_own_node_and_message_through_its_ancestors() {
        let failing = |name: &str, entry: &str| {
            node(
                "Sequence",
                vec![node(
                    "Sequence",
                    vec![leaf(
                        "Script",
                        name,
                        json!({ "code": format!("{entry} = 1") }),
                    )],
                )],
            )
        };
        let mut first = build(failing("deep_a", "missing_a"));
        let mut second = build(failing("deep_b", "missing_b"));
        let mut alone = build(leaf("Script", "deep_a", json!({ "code": "missing_a = 1" })));
        let expected_a = alone.try_tick(&mut Ctx::default(), 0.0).unwrap_err();
        assert!(expected_a.message.contains("missing_a"), "{expected_a:?}");
        for _ in 0..3 {
            let a = first.try_tick(&mut Ctx::default(), 0.0).unwrap_err();
            assert_eq!((a.node, a.node_name.as_str()), (NodeId(2), "deep_a"));
            assert_eq!(a.message, expected_a.message);
            let b = second.try_tick(&mut Ctx::default(), 0.0).unwrap_err();
            assert_eq!((b.node, b.node_name.as_str()), (NodeId(2), "deep_b"));
            assert!(b.message.contains("missing_b"), "{b:?}");
        }
        let mut fine = build(leaf("Script", "ok", json!({ "code": "a := 1" })));
        assert_eq!(fine.try_tick(&mut Ctx::default(), 0.0), Ok(Status::Success));
    }
}
