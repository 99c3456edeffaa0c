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
    use crate::engine::{Status, compile};

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
}
