//! `Registry<C>`: named leaf constructors with typed params.
//!
//! A profile registers every condition and action it offers under a name; [`compile`] looks
//! each leaf of a [`TreeSpec`] up by name and calls its constructor with the node's
//! [`LeafParams`]. Constructors validate their params, so a bad param is a compile error that
//! points at the node, never a panic or a silent default at tick time.
//!
//! [`compile`]: super::compile
//! [`TreeSpec`]: super::TreeSpec

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use super::Status;

/// A leaf predicate over the profile context `C`.
pub trait Condition<C>: Send {
    /// Evaluates the predicate for this tick.
    fn check(&mut self, ctx: &C, now: f64) -> bool;
    /// Explains in words why the predicate fails (or holds) for `ctx`; only called on demand,
    /// never on the tick path, e.g. `"game time 431 s > end_time 420 s"`.
    fn explain(&self, ctx: &C, now: f64) -> String;
    /// Appends the explanation to `out`; leaves override it to explain without allocating
    /// (the `decide` stream explains every unavailable decision on every tick).
    fn explain_into(&self, ctx: &C, now: f64, out: &mut String) {
        out.push_str(&self.explain(ctx, now));
    }
}

/// A leaf action over the profile context `C`.
pub trait Action<C>: Send {
    /// Advances the action one tick.
    fn tick(&mut self, ctx: &mut C, now: f64) -> Status;
    /// Called once when a running action is abandoned by its parent.
    fn halt(&mut self, _ctx: &mut C) {}
    /// Called when a reload marks this action running in a new tree
    /// ([`Tree::resume_running`](super::Tree::resume_running)): the next tick continues it.
    fn resume(&mut self) {}
}

/// The params of one leaf in the spec, with typed accessors whose errors name the param.
///
/// Wraps the node's `params` object. Accessors for required params fail with a [`ParamError`]
/// when the key is missing or has the wrong type; the `opt_*` accessors return `Ok(None)` for a
/// missing key (or an explicit `null`) and still fail on a wrong type.
#[derive(Debug, Clone, Copy)]
pub struct LeafParams<'a> {
    map: &'a Map<String, Value>,
}

/// A bad or missing leaf parameter.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("param `{param}`: {message}")]
pub struct ParamError {
    /// The parameter name.
    pub param: String,
    /// What is wrong with it.
    pub message: String,
}

impl ParamError {
    /// An error about param `param`; leaf constructors use it for their own range checks.
    pub fn new(param: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            param: param.into(),
            message: message.into(),
        }
    }

    fn missing(param: &str) -> Self {
        Self::new(param, "missing")
    }

    fn wrong_type(param: &str, expected: &str, got: &Value) -> Self {
        Self::new(param, format!("expected {expected}, got {}", describe(got)))
    }
}

/// Short description of a JSON value for error messages (`string "fast"`, `an array`, ...).
fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// A JSON number as an `i64`: integers, and floats with no fractional part (`3.0`) in range.
fn as_integer(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    let f = v.as_f64()?;
    // `i64::MAX as f64` rounds up to 2^63, so the upper bound is exclusive.
    let in_range = f >= i64::MIN as f64 && f < i64::MAX as f64;
    (f.fract() == 0.0 && in_range).then_some(f as i64)
}

impl<'a> LeafParams<'a> {
    /// Wraps a node's params object (also handy to unit-test a leaf constructor).
    pub fn new(map: &'a Map<String, Value>) -> Self {
        Self { map }
    }

    /// The whole params object.
    pub fn map(&self) -> &'a Map<String, Value> {
        self.map
    }

    /// The raw value of `key`, if present.
    pub fn raw(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// `Some(value)` unless `key` is missing or `null`.
    fn present(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn required(&self, key: &str) -> Result<&'a Value, ParamError> {
        self.present(key).ok_or_else(|| ParamError::missing(key))
    }

    fn number(key: &str, v: &Value) -> Result<f64, ParamError> {
        match v.as_f64() {
            Some(f) if f.is_finite() => Ok(f),
            Some(_) => Err(ParamError::new(key, "must be a finite number")),
            None => Err(ParamError::wrong_type(key, "a number", v)),
        }
    }

    fn integer(key: &str, v: &Value) -> Result<i64, ParamError> {
        as_integer(v).ok_or_else(|| ParamError::wrong_type(key, "an integer", v))
    }

    /// A required finite number.
    pub fn f64(&self, key: &str) -> Result<f64, ParamError> {
        Self::number(key, self.required(key)?)
    }

    /// A required integer (`3` or `3.0`).
    pub fn i64(&self, key: &str) -> Result<i64, ParamError> {
        Self::integer(key, self.required(key)?)
    }

    /// A required boolean.
    pub fn bool(&self, key: &str) -> Result<bool, ParamError> {
        let v = self.required(key)?;
        v.as_bool()
            .ok_or_else(|| ParamError::wrong_type(key, "a boolean", v))
    }

    /// A required string.
    pub fn str(&self, key: &str) -> Result<&'a str, ParamError> {
        let v = self.required(key)?;
        v.as_str()
            .ok_or_else(|| ParamError::wrong_type(key, "a string", v))
    }

    /// A required array of integers; the error names the first bad element.
    pub fn i64_list(&self, key: &str) -> Result<Vec<i64>, ParamError> {
        let v = self.required(key)?;
        let items = v
            .as_array()
            .ok_or_else(|| ParamError::wrong_type(key, "an array of integers", v))?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                as_integer(item).ok_or_else(|| {
                    ParamError::new(
                        key,
                        format!("element {i}: expected an integer, got {}", describe(item)),
                    )
                })
            })
            .collect()
    }

    /// An optional finite number: missing or `null` -> `Ok(None)`.
    pub fn opt_f64(&self, key: &str) -> Result<Option<f64>, ParamError> {
        self.present(key).map(|v| Self::number(key, v)).transpose()
    }

    /// An optional integer: missing or `null` -> `Ok(None)`.
    pub fn opt_i64(&self, key: &str) -> Result<Option<i64>, ParamError> {
        self.present(key).map(|v| Self::integer(key, v)).transpose()
    }

    /// An optional boolean: missing or `null` -> `Ok(None)`.
    pub fn opt_bool(&self, key: &str) -> Result<Option<bool>, ParamError> {
        self.present(key)
            .map(|v| {
                v.as_bool()
                    .ok_or_else(|| ParamError::wrong_type(key, "a boolean", v))
            })
            .transpose()
    }

    /// An optional string: missing or `null` -> `Ok(None)`.
    pub fn opt_str(&self, key: &str) -> Result<Option<&'a str>, ParamError> {
        self.present(key)
            .map(|v| {
                v.as_str()
                    .ok_or_else(|| ParamError::wrong_type(key, "a string", v))
            })
            .transpose()
    }
}

/// Constructor of a condition leaf from its params.
pub(crate) type MakeCondition<C> =
    Box<dyn Fn(&LeafParams) -> Result<Box<dyn Condition<C>>, ParamError> + Send + Sync>;
/// Constructor of an action leaf from its params.
pub(crate) type MakeAction<C> =
    Box<dyn Fn(&LeafParams) -> Result<Box<dyn Action<C>>, ParamError> + Send + Sync>;

/// Named leaf constructors for one profile context `C`.
///
/// Conditions and actions live in separate namespaces: a `condition` node is looked up among
/// the conditions only, an `action` node among the actions only.
pub struct Registry<C> {
    conditions: BTreeMap<String, MakeCondition<C>>,
    actions: BTreeMap<String, MakeAction<C>>,
}

impl<C> Default for Registry<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C> fmt::Debug for Registry<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("conditions", &self.conditions.keys().collect::<Vec<_>>())
            .field("actions", &self.actions.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl<C> Registry<C> {
    /// An empty registry.
    pub fn new() -> Self {
        Self {
            conditions: BTreeMap::new(),
            actions: BTreeMap::new(),
        }
    }

    /// Registers condition `name`; a later registration of the same name replaces it.
    pub fn condition(
        &mut self,
        name: &str,
        make: impl Fn(&LeafParams) -> Result<Box<dyn Condition<C>>, ParamError> + Send + Sync + 'static,
    ) {
        self.conditions.insert(name.to_owned(), Box::new(make));
    }

    /// Registers action `name`; a later registration of the same name replaces it.
    pub fn action(
        &mut self,
        name: &str,
        make: impl Fn(&LeafParams) -> Result<Box<dyn Action<C>>, ParamError> + Send + Sync + 'static,
    ) {
        self.actions.insert(name.to_owned(), Box::new(make));
    }

    /// All registered names: conditions (sorted), then actions (sorted).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.condition_names().chain(self.action_names())
    }

    /// Registered condition names, sorted.
    pub fn condition_names(&self) -> impl Iterator<Item = &str> {
        self.conditions.keys().map(String::as_str)
    }

    /// Registered action names, sorted.
    pub fn action_names(&self) -> impl Iterator<Item = &str> {
        self.actions.keys().map(String::as_str)
    }

    /// Whether a condition `name` is registered.
    pub fn has_condition(&self, name: &str) -> bool {
        self.conditions.contains_key(name)
    }

    /// Whether an action `name` is registered.
    pub fn has_action(&self, name: &str) -> bool {
        self.actions.contains_key(name)
    }

    pub(crate) fn make_condition(&self, name: &str) -> Option<&MakeCondition<C>> {
        self.conditions.get(name)
    }

    pub(crate) fn make_action(&self, name: &str) -> Option<&MakeAction<C>> {
        self.actions.get(name)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn params(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn typed_accessors_accept_good_values() {
        let m = params(json!({
            "x": 1.5, "n": 3, "nf": 4.0, "b": true, "s": "hi", "l": [1, 2, 3], "z": null
        }));
        let p = LeafParams::new(&m);
        assert_eq!(p.f64("x"), Ok(1.5));
        assert_eq!(p.f64("n"), Ok(3.0));
        assert_eq!(p.i64("n"), Ok(3));
        assert_eq!(p.i64("nf"), Ok(4));
        assert_eq!(p.bool("b"), Ok(true));
        assert_eq!(p.str("s"), Ok("hi"));
        assert_eq!(p.i64_list("l"), Ok(vec![1, 2, 3]));
        assert_eq!(p.opt_f64("missing"), Ok(None));
        assert_eq!(p.opt_i64("z"), Ok(None));
        assert_eq!(p.opt_i64("n"), Ok(Some(3)));
        assert_eq!(p.opt_bool("b"), Ok(Some(true)));
        assert_eq!(p.opt_str("s"), Ok(Some("hi")));
        assert_eq!(p.raw("s"), Some(&json!("hi")));
        assert_eq!(p.raw("nope"), None);
    }

    #[test]
    fn typed_accessors_name_the_param_in_errors() {
        let m = params(json!({ "x": "fast", "f": 1.5, "l": [1, "two"], "b": 1 }));
        let p = LeafParams::new(&m);
        assert_eq!(
            p.f64("x").map_err(|e| e.to_string()),
            Err("param `x`: expected a number, got string \"fast\"".to_owned())
        );
        assert_eq!(
            p.i64("f").map_err(|e| e.to_string()),
            Err("param `f`: expected an integer, got number 1.5".to_owned())
        );
        assert_eq!(
            p.i64_list("l").map_err(|e| e.to_string()),
            Err("param `l`: element 1: expected an integer, got string \"two\"".to_owned())
        );
        assert_eq!(
            p.bool("b").map_err(|e| e.to_string()),
            Err("param `b`: expected a boolean, got number 1".to_owned())
        );
        assert_eq!(
            p.str("gone").map_err(|e| e.to_string()),
            Err("param `gone`: missing".to_owned())
        );
        assert!(p.opt_f64("x").is_err());
    }

    #[test]
    fn names_lists_conditions_then_actions_sorted() {
        struct Never;
        impl Condition<()> for Never {
            fn check(&mut self, _: &(), _: f64) -> bool {
                false
            }
            fn explain(&self, _: &(), _: f64) -> String {
                "never".to_owned()
            }
        }
        struct Idle;
        impl Action<()> for Idle {
            fn tick(&mut self, _: &mut (), _: f64) -> Status {
                Status::Running
            }
        }
        let mut r = Registry::<()>::new();
        r.condition("b_cond", |_| Ok(Box::new(Never)));
        r.condition("a_cond", |_| Ok(Box::new(Never)));
        r.action("idle", |_| Ok(Box::new(Idle)));
        assert_eq!(r.names().collect::<Vec<_>>(), ["a_cond", "b_cond", "idle"]);
        assert!(r.has_condition("a_cond") && !r.has_action("a_cond"));
    }
}
