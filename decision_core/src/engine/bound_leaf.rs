//! Leaf ports that read blackboard entries (`{key}`).
//!
//! A registered leaf (a [`Condition`](super::Condition) or [`Action`](super::Action)) is
//! built from its ports' literal values. When some of its ports name entries instead, the
//! leaf is built on its first tick, and again whenever one of those entries holds another
//! value, from the entries' values. Each value gets the checks a literal gets at compile time
//! (the port's type, its choices, its range); a value that fails them, or an entry without a
//! value, is the tick's error naming the port, and the last good leaf is kept for the next
//! tick.

use super::blackboard::{EntryType, Value};
use super::compile::literal_problem;
use super::node::{Cx, Fault, Port};
use super::registry::{LeafParams, ParamError, PortDecl};
use serde_json::Map;
use std::sync::Arc;

/// Builds a leaf of type `L` from its params (shared by every node of the kind).
pub(crate) type MakeLeaf<L> = Arc<dyn Fn(&LeafParams) -> Result<Box<L>, ParamError> + Send + Sync>;

/// The ports of a leaf node bound to entries, and how to build the leaf from their values.
pub(crate) struct Rebuild<L: ?Sized> {
    /// The node's params; the bound ports' values are written in before each build.
    params: Map<String, serde_json::Value>,
    /// The ports bound to entries, with their declarations.
    bound: Vec<(PortDecl, Port)>,
    /// The entries' values of the last successful build (`None` before the first).
    built_from: Option<Vec<Value>>,
    make: MakeLeaf<L>,
}

impl<L: ?Sized> Rebuild<L> {
    /// The rebuild of a node with `params` whose `bound` ports name entries (not empty).
    pub fn new(
        params: Map<String, serde_json::Value>,
        bound: Vec<(PortDecl, Port)>,
        make: MakeLeaf<L>,
    ) -> Self {
        Self {
            params,
            bound,
            built_from: None,
            make,
        }
    }

    /// The leaf built from the entries' current values, when they differ from those of the
    /// last build (or there was none); `None` when the last build still holds.
    pub fn refresh<C>(&mut self, cx: &Cx<'_, C>) -> Result<Option<Box<L>>, Fault> {
        let unchanged = self.built_from.as_ref().is_some_and(|values| {
            values
                .iter()
                .zip(&self.bound)
                .all(|(value, (_, port))| cx.get(port) == Some(value))
        });
        if unchanged {
            return Ok(None);
        }
        let mut values = Vec::with_capacity(self.bound.len());
        for (decl, port) in &self.bound {
            let value = cx
                .get(port)
                .ok_or_else(|| Fault::from(format!("input port `{}` has no value", decl.name)))?;
            let checked = checked(decl, value).map_err(Fault::from)?;
            self.params.insert(decl.name.to_owned(), checked);
            values.push(value.clone());
        }
        let leaf =
            (self.make)(&LeafParams::new(&self.params)).map_err(|e| Fault::from(e.to_string()))?;
        self.built_from = Some(values);
        Ok(Some(leaf))
    }
}

/// `value` as port `decl` takes it, checked as a literal is at compile time, in the form
/// [`LeafParams`] reads.
fn checked(decl: &PortDecl, value: &Value) -> Result<serde_json::Value, String> {
    let name = decl.name;
    let typed = match decl.ty {
        EntryType::Int => value.as_int().map(Value::Int),
        EntryType::Double => value.as_double().map(Value::Double),
        EntryType::Bool => value.as_bool().map(Value::Bool),
        EntryType::Str | EntryType::Any => value.to_string_value().map(Value::Str),
    }
    .map_err(|e| format!("port `{name}`: {e}"))?;
    let text = typed.to_string_value().unwrap_or_default();
    if let Some(message) = literal_problem(name, &text, &typed, decl) {
        return Err(message);
    }
    Ok(match typed {
        Value::Int(i) => i.into(),
        Value::Double(d) => serde_json::Number::from_f64(d)
            .map_or_else(|| serde_json::Value::String(d.to_string()), Into::into),
        Value::Bool(b) => b.into(),
        Value::Str(s) => s.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::{Condition, LeafParams, PortDecl, Registry, Status, TreeSpec, compile};
    use super::{EntryType, Value};
    use serde_json::json;

    /// Holds when its `mode` (one of `on`, `off`) is `on` and its `level` (at least 0) is
    /// below 5.
    struct Mode {
        on: bool,
        level: i64,
    }

    impl Condition<Ctx> for Mode {
        fn check(&mut self, _ctx: &Ctx, _now: f64) -> bool {
            self.on && self.level < 5
        }
        fn explain(&self, _ctx: &Ctx, _now: f64) -> String {
            format!("on {} level {}", self.on, self.level)
        }
    }

    fn registry() -> Registry<Ctx> {
        let mut r = super::super::test_support::registry();
        let ports = vec![
            PortDecl::input("mode", EntryType::Str, "on or off").one_of(&["on", "off"]),
            PortDecl::input("level", EntryType::Int, "a level").at_least(0.0),
        ];
        r.condition("mode", ports, |p: &LeafParams| {
            Ok(Box::new(Mode {
                on: p.str("mode")? == "on",
                level: p.i64("level")?,
            }) as Box<dyn Condition<Ctx>>)
        });
        r
    }

    fn tree(ports: serde_json::Value) -> super::super::Tree<Ctx> {
        let spec: TreeSpec = spec(json!({ "type": "mode", "ports": ports }));
        compile(&spec, &registry()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn a_leaf_port_reads_its_entry_on_every_tick() {
        let mut t = tree(json!({ "mode": "{m}", "level": "{l}" }));
        let mut ctx = Ctx::default();
        set_entry(&mut t, "m", Value::Str("on".into()));
        set_entry(&mut t, "l", Value::Int(2));
        assert_eq!(t.try_tick(&mut ctx, 0.0), Ok(Status::Success));
        set_entry(&mut t, "l", Value::Int(7));
        assert_eq!(t.try_tick(&mut ctx, 0.1), Ok(Status::Failure));
        set_entry(&mut t, "l", Value::Int(1));
        set_entry(&mut t, "m", Value::Str("off".into()));
        assert_eq!(t.try_tick(&mut ctx, 0.2), Ok(Status::Failure));
        set_entry(&mut t, "m", Value::Str("on".into()));
        assert_eq!(t.try_tick(&mut ctx, 0.3), Ok(Status::Success));
        // A literal beside an entry stays as written.
        let mut mixed = tree(json!({ "mode": "on", "level": "{l}" }));
        set_entry(&mut mixed, "l", Value::Int(9));
        assert_eq!(mixed.try_tick(&mut ctx, 0.0), Ok(Status::Failure));
    }

    #[test]
    fn an_entry_value_gets_the_checks_of_a_literal_and_names_the_port() {
        let mut t = tree(json!({ "mode": "{m}", "level": "{l}" }));
        let mut ctx = Ctx::default();
        let error = |t: &mut super::super::Tree<Ctx>, ctx: &mut Ctx| match t.try_tick(ctx, 0.0) {
            Err(e) => e.to_string(),
            Ok(status) => panic!("expected an error, got {status:?}"),
        };
        assert_eq!(
            error(&mut t, &mut ctx),
            "mode: input port `mode` has no value"
        );
        set_entry(&mut t, "m", Value::Str("onn".into()));
        set_entry(&mut t, "l", Value::Int(1));
        assert_eq!(
            error(&mut t, &mut ctx),
            "mode: port `mode`: `onn` is not one of on, off (did you mean `on`?)"
        );
        set_entry(&mut t, "m", Value::Str("on".into()));
        set_entry(&mut t, "l", Value::Int(-1));
        assert_eq!(
            error(&mut t, &mut ctx),
            "mode: port `level`: must be >= 0, got -1"
        );
        // (The entry is typed int by the port: the blackboard refuses text such as `high`.)
        // The entries fixed, the leaf builds and ticks.
        set_entry(&mut t, "l", Value::Int(3));
        assert_eq!(t.try_tick(&mut ctx, 0.0), Ok(Status::Success));
    }
}
