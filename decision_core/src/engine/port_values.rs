//! [`PortValues`]: a node's declared ports, resolved when the tree is compiled and read by
//! name while it ticks, as BT.CPP's `getInput` / `setOutput` do.
//!
//! A literal port was converted to its type and checked against the port's choices and range
//! by the compiler. A port that names a blackboard entry (`{key}`) is read on every tick, and
//! its value gets the same checks then (the one rule of [`literal_problem`]); a value that
//! fails them is the tick's error naming the port. Kinds with many ports (Booster's
//! vocabulary) keep one `PortValues` instead of a [`Port`] field per port.

use super::Fault;
use super::blackboard::Value;
use super::compile::{NodeBuilder, literal_problem};
use super::node::{Cx, Port};
use super::registry::PortDecl;

/// The declared ports of one node with what each was given: a literal, an entry, or nothing.
#[derive(Debug, Clone, Default)]
pub struct PortValues {
    ports: Vec<(PortDecl, Port)>,
}

impl PortValues {
    /// The ports of the node being built, every declared port of its kind's model.
    pub fn of(b: &NodeBuilder<'_>) -> Self {
        let ports = b
            .model()
            .ports
            .iter()
            .map(|decl| (decl.clone(), b.port(decl.name)))
            .collect();
        Self { ports }
    }

    /// Port `name` as resolved (`Missing` for an undeclared name or a port not given).
    pub fn port(&self, name: &str) -> &Port {
        self.ports
            .iter()
            .find(|(decl, _)| decl.name == name)
            .map_or(&Port::Missing, |(_, port)| port)
    }

    /// The literal value of port `name`, if it is one (constructors relate two ports with it).
    pub fn literal(&self, name: &str) -> Option<&Value> {
        match self.port(name) {
            Port::Literal(v) => Some(v),
            _ => None,
        }
    }

    /// A literal number of port `name` (`None` for a blackboard entry or a missing port).
    pub fn literal_f64(&self, name: &str) -> Option<f64> {
        self.literal(name).and_then(|v| v.as_double().ok())
    }

    /// Checks the value an entry-bound port read, `typed` as the node reads it, against the
    /// port's choices and range (literals were checked at compile time); the message shows the
    /// entry's value as written.
    fn check<C>(&self, cx: &Cx<'_, C>, name: &str, typed: &Value) -> Result<(), Fault> {
        let Some((decl, port @ Port::Entry(_))) = self.ports.iter().find(|(d, _)| d.name == name)
        else {
            return Ok(());
        };
        if decl.choices.is_empty() && decl.minimum.is_none() {
            return Ok(());
        }
        let text = cx
            .get(port)
            .and_then(|raw| raw.to_string_value().ok())
            .unwrap_or_default();
        match literal_problem(name, &text, typed, decl) {
            Some(message) => Err(Fault::from(message)),
            None => Ok(()),
        }
    }

    /// Port `name` as a finite double.
    pub fn f64<C>(&self, cx: &Cx<'_, C>, name: &str) -> Result<f64, Fault> {
        let v = cx.get_double(self.port(name), name)?;
        if !v.is_finite() {
            return Err(Fault::from(format!("port `{name}`: not a finite number")));
        }
        self.check(cx, name, &Value::Double(v))?;
        Ok(v)
    }

    /// Port `name` as a bool.
    pub fn bool<C>(&self, cx: &Cx<'_, C>, name: &str) -> Result<bool, Fault> {
        Ok(cx.get_bool(self.port(name), name)?)
    }

    /// Port `name` as an int.
    pub fn i64<C>(&self, cx: &Cx<'_, C>, name: &str) -> Result<i64, Fault> {
        let v = cx.get_int(self.port(name), name)?;
        self.check(cx, name, &Value::Int(v))?;
        Ok(v)
    }

    /// Port `name` as text (an empty string when its entry has no value).
    pub fn text<C>(&self, cx: &Cx<'_, C>, name: &str) -> Result<String, Fault> {
        let mut out = String::new();
        if let Some(v) = cx.get(self.port(name)) {
            v.write_string_into(&mut out);
            self.check(cx, name, &Value::Str(out.clone()))?;
        }
        Ok(out)
    }

    /// Writes output port `name` (an unconnected output is not written, as in BT.CPP).
    pub fn set<C>(&self, cx: &mut Cx<'_, C>, name: &str, value: Value) -> Result<(), Fault> {
        match self.port(name) {
            Port::Missing => Ok(()),
            port => cx
                .set(port, value)
                .map_err(|e| Fault::from(format!("port `{name}`: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PortValues;
    use crate::engine::blackboard::{EntryType, Value};
    use crate::engine::node::{Behavior, Cx, Fault};
    use crate::engine::test_support::{Ctx, registry, set_entry, spec};
    use crate::engine::{Children, NodeModel, PortDecl, Status, Tree, compile};
    use serde_json::json;

    /// Reads `level` (an int of at least 0) and `mode` (`on` or `off`), writes `level` + 1 to
    /// `next`; holds when the mode is `on`.
    struct Levels {
        ports: PortValues,
    }

    impl Behavior<Ctx> for Levels {
        fn tick(&mut self, cx: &mut Cx<'_, Ctx>) -> Result<Status, Fault> {
            let p = &self.ports;
            let level = p.i64(cx, "level")?;
            let on = p.text(cx, "mode")? == "on";
            p.set(cx, "next", Value::Int(level + 1))?;
            Ok(if on { Status::Success } else { Status::Failure })
        }
    }

    fn tree(ports: serde_json::Value) -> Tree<Ctx> {
        let mut r = registry();
        let model = NodeModel::new(
            Children::None,
            vec![
                PortDecl::input("level", EntryType::Int, "a level").at_least(0.0),
                PortDecl::input("mode", EntryType::Str, "on or off").one_of(&["on", "off"]),
                PortDecl::output("next", EntryType::Int, "the next level"),
            ],
        );
        r.register("levels", model, |b| {
            Ok(Box::new(Levels {
                ports: PortValues::of(b),
            }))
        });
        let spec = spec(json!({ "type": "levels", "ports": ports }));
        compile(&spec, &r).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn literals_read_as_compiled_and_an_unconnected_output_is_not_written() {
        let mut t = tree(json!({ "level": "2", "mode": "on" }));
        assert_eq!(t.try_tick(&mut Ctx::default(), 0.0), Ok(Status::Success));
        let root = t.root_scope();
        assert_eq!(t.blackboard().get(root, "next"), None);
    }

    #[test]
    fn an_entry_value_is_checked_as_a_literal_when_read_and_the_error_names_the_port() {
        let mut t = tree(json!({ "level": "{l}", "mode": "{m}", "next": "{n}" }));
        let mut ctx = Ctx::default();
        set_entry(&mut t, "l", Value::Int(-3));
        set_entry(&mut t, "m", Value::Str("on".into()));
        let error =
            |t: &mut Tree<Ctx>, ctx: &mut Ctx| t.try_tick(ctx, 0.0).map_err(|e| e.to_string());
        assert_eq!(
            error(&mut t, &mut ctx),
            Err("levels: port `level`: must be >= 0, got -3".to_owned())
        );
        set_entry(&mut t, "l", Value::Int(4));
        set_entry(&mut t, "m", Value::Str("of".into()));
        assert_eq!(
            error(&mut t, &mut ctx),
            Err("levels: port `mode`: `of` is not one of on, off (did you mean `on`?)".to_owned())
        );
        set_entry(&mut t, "m", Value::Str("off".into()));
        assert_eq!(error(&mut t, &mut ctx), Ok(Status::Failure));
        let root = t.root_scope();
        assert_eq!(t.blackboard().get(root, "n"), Some(&Value::Int(5)));
    }
}
