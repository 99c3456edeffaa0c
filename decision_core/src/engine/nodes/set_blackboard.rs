//! `SetBlackboard` (BT.CPP 4): writes `value` into the blackboard entry named by
//! `output_key`, and succeeds.
//!
//! `output_key` is a key name (`output_key="target"` writes `target`) or a blackboard pointer
//! whose entry holds the key name (`output_key="{k}"` with `k = "target"` writes `target`),
//! as BT.CPP reads the port as a string input. `value` is a literal (stored as a string; an
//! existing typed entry parses it: `"1.7"` into an int entry gives 1) or a pointer `{src}`,
//! whose value and type are copied (a missing destination is created with `src`'s type).
//!
//! | case | SetBlackboard |
//! |---|---|
//! | written | `Success` |
//! | `value="{src}"` and `src` has no value yet | `Failure`, nothing written |
//! | `value="{src}"` and no entry `src` | tick error |
//! | `output_key` or `value` missing, `output_key` pointer without a value, unconvertible value | tick error |
//!
//! Missing ports are errors on the tick, not at load, as in BT.CPP.

use crate::engine::blackboard::{EntrySlot, EntryType, Value};
use crate::engine::node::{Behavior, Cx, Fault, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `SetBlackboard`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "SetBlackboard",
        NodeModel::new(
            Children::None,
            // Required inputs (a missing one is a load error, as `robot-decision bt` requires);
            // `output_key` is read as a key name, which an output port would refuse.
            vec![
                PortDecl::input(
                    "value",
                    EntryType::Any,
                    "value to write (a literal or `{src}`)",
                ),
                PortDecl::input(
                    "output_key",
                    EntryType::Any,
                    "name of the entry to write (a name, or `{k}` holding the name)",
                ),
            ],
        ),
        |b| {
            let value = b.text("value").map(|_| b.port("value"));
            let target = match (b.text("output_key"), b.port("output_key")) {
                (None, _) => Target::Missing,
                (Some(_), Port::Entry(slot)) => Target::NameIn(slot),
                (Some(name), _) => {
                    let (bbs, scope) = b.blackboard();
                    let slot = bbs.reserve(scope, &name).ok_or_else(|| {
                        format!("port `output_key`: invalid blackboard key [{name}]")
                    })?;
                    Target::Entry(slot)
                }
            };
            Ok(Box::new(SetBlackboard { value, target }))
        },
    );
}

/// Where `output_key` says to write.
#[derive(Debug)]
enum Target {
    /// A literal key name, resolved at load time.
    Entry(EntrySlot),
    /// A pointer: this entry holds the key name.
    NameIn(EntrySlot),
    /// The port was not given.
    Missing,
}

/// The `value` port (`None` when not given) and the destination.
#[derive(Debug)]
pub struct SetBlackboard {
    value: Option<Port>,
    target: Target,
}

impl SetBlackboard {
    /// The destination slot for this tick.
    fn destination<C>(&self, cx: &mut Cx<'_, C>) -> Result<EntrySlot, String> {
        match self.target {
            Target::Entry(slot) => Ok(slot),
            Target::NameIn(holder) => {
                let name = cx
                    .blackboard()
                    .get_slot(holder)
                    .ok_or("missing port [output_key]: its entry has no value")?
                    .to_string_value()
                    .map_err(|e| format!("port `output_key`: {e}"))?;
                let scope = cx.scope();
                cx.blackboard_mut()
                    .reserve(scope, &name)
                    .ok_or_else(|| format!("port `output_key`: invalid blackboard key [{name}]"))
            }
            Target::Missing => Err("missing port [output_key]".to_owned()),
        }
    }
}

impl<C> Behavior<C> for SetBlackboard {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let dst = self.destination(cx)?;
        let value = match &self.value {
            None => return Err("missing port [value]".into()),
            Some(Port::Entry(src)) => {
                let bbs = cx.blackboard();
                if !bbs.slot_present(*src) {
                    return Err("can't find the entry referred by [value]".into());
                }
                let Some(v) = bbs.get_slot(*src).cloned() else {
                    return Ok(Status::Failure);
                };
                if !bbs.slot_present(dst) {
                    let ty = bbs.slot_type(*src).unwrap_or(EntryType::Any);
                    cx.blackboard_mut()
                        .create_slot(dst, ty)
                        .map_err(|e| e.to_string())?;
                }
                v
            }
            Some(Port::Literal(v)) => v.clone(),
            Some(Port::Missing) => Value::Str(String::new()),
        };
        cx.blackboard_mut()
            .set_slot(dst, value)
            .map_err(|e| format!("can't write [output_key]: {e}"))?;
        Ok(Status::Success)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::{EntryType, Value};
    use crate::engine::test_support::*;
    use crate::engine::{Status, compile};

    fn set(ports: serde_json::Value) -> serde_json::Value {
        leaf("SetBlackboard", "set", ports)
    }

    #[test]
    fn literal_into_a_named_key() {
        let mut t = build(set(json!({ "value": "42", "output_key": "answer" })));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
        let root = t.root_scope();
        assert_eq!(
            t.blackboard().get(root, "answer"),
            Some(&Value::Str("42".into()))
        );
    }

    #[test]
    fn literal_into_a_typed_entry_is_parsed() {
        let mut t = build(set(json!({ "value": "1.7", "output_key": "n" })));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "n", Value::Int(0)).unwrap();
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        assert_eq!(t.blackboard().get(root, "n"), Some(&Value::Int(1)));
    }

    #[test]
    fn output_key_pointer_names_the_destination() {
        let mut t = build(set(json!({ "value": "7", "output_key": "{k}" })));
        let root = t.root_scope();
        t.blackboard_mut()
            .set(root, "k", Value::Str("target".into()))
            .unwrap();
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        assert_eq!(
            t.blackboard().get(root, "target"),
            Some(&Value::Str("7".into()))
        );
        assert_eq!(
            t.blackboard().get(root, "k"),
            Some(&Value::Str("target".into()))
        );
    }

    #[test]
    fn value_pointer_copies_value_and_type() {
        let mut t = build(set(json!({ "value": "{src}", "output_key": "dst" })));
        let root = t.root_scope();
        t.blackboard_mut()
            .set(root, "src", Value::Double(2.5))
            .unwrap();
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
        assert_eq!(t.blackboard().get(root, "dst"), Some(&Value::Double(2.5)));
        let slot = t.blackboard_mut().reserve(root, "dst").unwrap();
        assert_eq!(t.blackboard().slot_type(slot), Some(EntryType::Double));
    }

    #[test]
    fn value_pointer_without_a_value_fails() {
        let mut t = build(set(json!({ "value": "{src}", "output_key": "dst" })));
        let root = t.root_scope();
        let slot = t.blackboard_mut().reserve(root, "src").unwrap();
        t.blackboard_mut()
            .create_slot(slot, EntryType::Int)
            .unwrap();
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Failure);
        assert_eq!(t.blackboard().get(root, "dst"), None);
    }

    #[test]
    fn errors_on_the_tick() {
        for ports in [json!({ "value": "1" }), json!({ "output_key": "x" })] {
            let e = compile(&spec(set(ports)), &registry())
                .err()
                .expect("missing port");
            assert!(e[0].message.contains("missing required port"), "{e:?}");
        }
        for ports in [
            json!({ "value": "1", "output_key": "{k}" }),
            json!({ "value": "abc", "output_key": "n" }),
        ] {
            let mut t = compile(&spec(set(ports)), &registry()).expect("compiles");
            let root = t.root_scope();
            t.blackboard_mut().set(root, "n", Value::Int(0)).unwrap();
            assert!(t.try_tick(&mut Ctx::default(), 0.0).is_err());
        }
    }
}
