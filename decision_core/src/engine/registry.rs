//! `Registry<C>`: node kinds by id, each with its declared children and ports
//! ([`NodeModel`]) and a constructor.
//!
//! The standard library, a profile's leaves and its own control nodes all register here the
//! same way; [`compile`] looks each node of a [`TreeSpec`] up by its `type`. Constructors
//! validate what they read, so a bad port or param is a compile error that points at the
//! node, never a panic or a silent default at tick time. [`Registry::condition`] and
//! [`Registry::action`] adapt plain predicates and actions with free-form [`LeafParams`].
//!
//! [`compile`]: super::compile
//! [`TreeSpec`]: super::TreeSpec

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use super::Status;
use super::blackboard::{EntryType, Value as BbValue, parse_literal};
use super::bound_leaf::{MakeLeaf, Rebuild};
use super::compile::NodeBuilder;
use super::node::{Behavior, Cx, Fault, NodeState, Port};
use std::sync::Arc;

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
    /// True when no explanation can contain a character JSON escapes (`"`, `\\`, control
    /// characters), so a JSON writer may copy it without scanning; false unless a leaf
    /// renders only fixed words and numbers.
    fn explanation_is_json_safe(&self) -> bool {
        false
    }
}

/// A leaf action over the profile context `C`.
pub trait Action<C>: Send {
    /// Advances the action one tick.
    fn tick(&mut self, ctx: &mut C, now: f64) -> Status;
    /// Called once when a running action is abandoned by its parent.
    fn halt(&mut self, _ctx: &mut C) {}
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
    /// Key of the bad param in the node's `params` object.
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
        if let Value::String(text) = v {
            return Self::from_text(key, text, EntryType::Double).and_then(|value| {
                value
                    .as_double()
                    .map_err(|e| ParamError::new(key, e.to_string()))
            });
        }
        match v.as_f64() {
            Some(f) if f.is_finite() => Ok(f),
            Some(_) => Err(ParamError::new(key, "must be a finite number")),
            None => Err(ParamError::wrong_type(key, "a number", v)),
        }
    }

    fn integer(key: &str, v: &Value) -> Result<i64, ParamError> {
        if let Value::String(text) = v {
            return Self::from_text(key, text, EntryType::Int).and_then(|value| {
                value
                    .as_int()
                    .map_err(|e| ParamError::new(key, e.to_string()))
            });
        }
        as_integer(v).ok_or_else(|| ParamError::wrong_type(key, "an integer", v))
    }

    /// A param given as text (as every XML attribute is) read as BT.CPP converts a port's
    /// text to its type.
    fn from_text(key: &str, text: &str, ty: EntryType) -> Result<BbValue, ParamError> {
        parse_literal(text, ty).map_err(|e| ParamError::new(key, e.to_string()))
    }

    fn boolean(key: &str, v: &Value) -> Result<bool, ParamError> {
        match v {
            Value::Bool(b) => Ok(*b),
            Value::String(text) => Self::from_text(key, text, EntryType::Bool).and_then(|value| {
                value
                    .as_bool()
                    .map_err(|e| ParamError::new(key, e.to_string()))
            }),
            _ => Err(ParamError::wrong_type(key, "a boolean", v)),
        }
    }

    /// A required finite number.
    pub fn f64(&self, key: &str) -> Result<f64, ParamError> {
        Self::number(key, self.required(key)?)
    }

    /// A required integer (`3` or `3.0`).
    pub fn i64(&self, key: &str) -> Result<i64, ParamError> {
        Self::integer(key, self.required(key)?)
    }

    /// A required boolean: JSON `true` / `false`, or its text as a bool port reads it
    /// (`true`, `False`, `1`, ...).
    pub fn bool(&self, key: &str) -> Result<bool, ParamError> {
        Self::boolean(key, self.required(key)?)
    }

    /// A required JSON string, borrowed from the params object.
    pub fn str(&self, key: &str) -> Result<&'a str, ParamError> {
        let v = self.required(key)?;
        v.as_str()
            .ok_or_else(|| ParamError::wrong_type(key, "a string", v))
    }

    /// A required list of integers: a JSON array, or text as BT.CPP writes a vector
    /// (`1;2;3`); the error names the first bad element.
    pub fn i64_list(&self, key: &str) -> Result<Vec<i64>, ParamError> {
        let v = self.required(key)?;
        if let Value::String(text) = v {
            return text
                .split(';')
                .enumerate()
                .map(|(i, item)| {
                    item.trim().parse::<i64>().map_err(|_| {
                        ParamError::new(key, format!("element {i}: `{item}` is not an integer"))
                    })
                })
                .collect();
        }
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
        self.present(key).map(|v| Self::boolean(key, v)).transpose()
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
/// Builds a node kind's behaviour from its compiled ports and children.
pub type MakeNode<C> =
    Box<dyn Fn(&mut NodeBuilder<'_>) -> Result<Box<dyn Behavior<C>>, String> + Send + Sync>;

/// Direction of a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortDirection {
    /// Read by the node.
    Input,
    /// Written by the node.
    Output,
    /// Read and written.
    InOut,
}

/// One declared port of a node kind.
#[derive(Debug, Clone, PartialEq)]
pub struct PortDecl {
    /// Port name (the attribute in XML).
    pub name: &'static str,
    /// Read, written, or both.
    pub direction: PortDirection,
    /// The value type: a literal is converted to it at compile time; `Any` takes text as is.
    pub ty: EntryType,
    /// Default text when the port is not given; `None` = required (for inputs).
    pub default: Option<&'static str>,
    /// What the port is for.
    pub description: &'static str,
    /// For an output: a literal given to it is accepted and ignored (the port is then not
    /// written), as BT.CPP ignores a failed `setOutput` there; otherwise a literal is a load
    /// error.
    pub ignores_literal: bool,
    /// The values a literal may take (empty: any value of the type); another literal is a
    /// compile error with a suggestion.
    pub choices: &'static [&'static str],
    /// The least value a literal number may take, and whether that value itself is allowed
    /// (`None`: any number); a literal out of range is a compile error.
    pub minimum: Option<(f64, bool)>,
}

impl PortDecl {
    /// A required input port.
    pub const fn input(name: &'static str, ty: EntryType, description: &'static str) -> Self {
        Self {
            name,
            direction: PortDirection::Input,
            ty,
            default: None,
            description,
            ignores_literal: false,
            choices: &[],
            minimum: None,
        }
    }

    /// An input port with a default.
    pub const fn input_or(
        name: &'static str,
        ty: EntryType,
        default: &'static str,
        description: &'static str,
    ) -> Self {
        Self {
            name,
            direction: PortDirection::Input,
            ty,
            default: Some(default),
            description,
            ignores_literal: false,
            choices: &[],
            minimum: None,
        }
    }

    /// An output port (optional: an unset output is not written).
    pub const fn output(name: &'static str, ty: EntryType, description: &'static str) -> Self {
        Self {
            name,
            direction: PortDirection::Output,
            ty,
            default: None,
            description,
            ignores_literal: false,
            choices: &[],
            minimum: None,
        }
    }

    /// This numeric port with literals of at least `least` (see [`PortDecl::minimum`]).
    pub const fn at_least(self, least: f64) -> Self {
        Self {
            minimum: Some((least, true)),
            ..self
        }
    }

    /// This numeric port with literals greater than `bound` (see [`PortDecl::minimum`]).
    pub const fn above(self, bound: f64) -> Self {
        Self {
            minimum: Some((bound, false)),
            ..self
        }
    }

    /// The range rule of [`PortDecl::minimum`] in words (`>= 0`, `> 0`), if there is one.
    pub fn minimum_text(&self) -> Option<String> {
        self.minimum
            .map(|(bound, inclusive)| format!("{} {bound}", if inclusive { ">=" } else { ">" }))
    }

    /// This port restricted to `choices` (see [`PortDecl::choices`]).
    pub const fn one_of(self, choices: &'static [&'static str]) -> Self {
        Self { choices, ..self }
    }

    /// This output port with a literal accepted and ignored (see
    /// [`PortDecl::ignores_literal`]).
    pub const fn literal_ignored(self) -> Self {
        Self {
            ignores_literal: true,
            ..self
        }
    }

    /// A required read-write port.
    pub const fn inout(name: &'static str, ty: EntryType, description: &'static str) -> Self {
        Self {
            name,
            direction: PortDirection::InOut,
            ty,
            default: None,
            description,
            ignores_literal: false,
            choices: &[],
            minimum: None,
        }
    }
}

/// How many children a node kind takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Children {
    /// No children: the node is a leaf.
    None,
    /// Exactly this many.
    Exactly(usize),
    /// At least this many.
    AtLeast(usize),
}

impl Children {
    /// Whether `n` children are allowed.
    pub fn allows(self, n: usize) -> bool {
        match self {
            Children::None => n == 0,
            Children::Exactly(k) => n == k,
            Children::AtLeast(k) => n >= k,
        }
    }
}

/// What kind of node a kind is, as BT.CPP and Groot2 group them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// A leaf that acts (or may run over several ticks).
    Action,
    /// A leaf that only answers success or failure.
    Condition,
    /// A node over several children.
    Control,
    /// A node over exactly one child.
    Decorator,
    /// A node whose child runs in a blackboard scope of its own (`SubTree`).
    SubTree,
}

impl Category {
    /// The lower-case name (`action`, `condition`, `control`, `decorator`, `subtree`).
    pub fn name(self) -> &'static str {
        match self {
            Category::Action => "action",
            Category::Condition => "condition",
            Category::Control => "control",
            Category::Decorator => "decorator",
            Category::SubTree => "subtree",
        }
    }

    /// The category of a kind with `children` (a leaf is an action unless declared a
    /// condition).
    fn of(children: Children) -> Self {
        match children {
            Children::None => Category::Action,
            Children::Exactly(1) => Category::Decorator,
            Children::Exactly(_) | Children::AtLeast(_) => Category::Control,
        }
    }
}

/// What a node kind declares: its category, children and ports. `free_ports` kinds
/// (`SubTree` remappings, containers whose parent reads their ports) take any port names.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeModel {
    /// Action, condition, control, decorator or subtree.
    pub category: Category,
    /// Allowed number of children.
    pub children: Children,
    /// Declared ports.
    pub ports: Vec<PortDecl>,
    /// Whether undeclared port names are accepted (and left to the constructor).
    pub free_ports: bool,
    /// Whether the node's children get their own blackboard scope, its ports being
    /// remappings (`SubTree`).
    pub opens_scope: bool,
    /// Whether BT.CPP's loader counts the kind as an asynchronous child (`AsyncSequence`).
    pub is_async: bool,
    /// At most this many asynchronous children (`is_async` kinds) are allowed, a load error
    /// otherwise (`ReactiveSequence`: one).
    pub max_async_children: Option<usize>,
    /// What the kind does, in a line (empty when not given); `nodes` prints it.
    pub description: &'static str,
}

impl NodeModel {
    /// A model with these children and ports.
    pub fn new(children: Children, ports: Vec<PortDecl>) -> Self {
        Self {
            category: Category::of(children),
            children,
            ports,
            free_ports: false,
            opens_scope: false,
            is_async: false,
            max_async_children: None,
            description: "",
        }
    }

    /// A model whose children get a scope of their own, its ports being remappings.
    pub fn scope(children: Children) -> Self {
        Self {
            category: Category::SubTree,
            children,
            ports: Vec::new(),
            free_ports: true,
            opens_scope: true,
            is_async: false,
            max_async_children: None,
            description: "",
        }
    }

    /// A model that accepts any port names.
    pub fn free(children: Children) -> Self {
        Self {
            category: Category::of(children),
            children,
            ports: Vec::new(),
            free_ports: true,
            opens_scope: false,
            is_async: false,
            max_async_children: None,
            description: "",
        }
    }

    /// This model as a condition (a leaf that only answers success or failure).
    pub fn condition(mut self) -> Self {
        self.category = Category::Condition;
        self
    }

    /// This model marked as an asynchronous child (see [`NodeModel::is_async`]).
    pub fn asynchronous(mut self) -> Self {
        self.is_async = true;
        self
    }

    /// This model with at most `n` asynchronous children.
    pub fn with_max_async_children(mut self, n: usize) -> Self {
        self.max_async_children = Some(n);
        self
    }

    /// The model with the kind's one-line description.
    pub fn described(mut self, description: &'static str) -> Self {
        self.description = description;
        self
    }

    /// The declared port `name`.
    pub fn port(&self, name: &str) -> Option<&PortDecl> {
        self.ports.iter().find(|p| p.name == name)
    }
}

/// A registered node kind.
pub(crate) struct Kind<C> {
    pub model: NodeModel,
    pub make: MakeNode<C>,
}

/// Node kinds by registry id: the standard library, a profile's leaves, its own controls.
///
/// [`compile`](super::compile) looks every spec node's `type` up here, checks its children
/// and ports against the kind's [`NodeModel`], and calls its constructor.
pub struct Registry<C> {
    kinds: BTreeMap<String, Kind<C>>,
    /// Ids that are refused with a hint (names BT.CPP 4 does not register by default).
    retired: BTreeMap<String, String>,
}

impl<C: 'static> Default for Registry<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C> fmt::Debug for Registry<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("kinds", &self.kinds.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl<C: 'static> Registry<C> {
    /// A registry with no kinds (not even the standard library).
    pub fn new() -> Self {
        Self {
            kinds: BTreeMap::new(),
            retired: BTreeMap::new(),
        }
    }

    /// Registers (or replaces) node kind `id`.
    pub fn register(
        &mut self,
        id: &str,
        model: NodeModel,
        make: impl Fn(&mut NodeBuilder<'_>) -> Result<Box<dyn Behavior<C>>, String>
        + Send
        + Sync
        + 'static,
    ) {
        self.kinds.insert(
            id.to_owned(),
            Kind {
                model,
                make: Box::new(make),
            },
        );
    }

    /// Registers a leaf condition `id` with its declared `ports`, built from their literal
    /// values (the compiler has checked their names, presence, types and choices); a port
    /// given as `{key}` is read from its entry (see [`bound_leaf`](super::bound_leaf)).
    pub fn condition(
        &mut self,
        id: &str,
        ports: Vec<PortDecl>,
        make: impl Fn(&LeafParams) -> Result<Box<dyn Condition<C>>, ParamError> + Send + Sync + 'static,
    ) {
        let make: MakeLeaf<dyn Condition<C>> = Arc::new(make);
        let model = NodeModel::new(Children::None, ports).condition();
        self.register(id, model, move |b| {
            Ok(match leaf_parts(b, &make)? {
                LeafParts::Built(leaf) => Box::new(ConditionNode(leaf)) as Box<dyn Behavior<C>>,
                LeafParts::Bound(rebuild) => Box::new(BoundCondition {
                    leaf: None,
                    rebuild,
                }),
            })
        });
    }

    /// Registers a leaf action `id` with its declared `ports`, built from their literal
    /// values (the compiler has checked their names, presence, types and choices); a port
    /// given as `{key}` is read from its entry (see [`bound_leaf`](super::bound_leaf)).
    pub fn action(
        &mut self,
        id: &str,
        ports: Vec<PortDecl>,
        make: impl Fn(&LeafParams) -> Result<Box<dyn Action<C>>, ParamError> + Send + Sync + 'static,
    ) {
        let make: MakeLeaf<dyn Action<C>> = Arc::new(make);
        let model = NodeModel::new(Children::None, ports);
        self.register(id, model, move |b| {
            Ok(match leaf_parts(b, &make)? {
                LeafParts::Built(leaf) => Box::new(ActionNode(leaf)) as Box<dyn Behavior<C>>,
                LeafParts::Bound(rebuild) => Box::new(BoundAction {
                    leaf: None,
                    rebuild,
                }),
            })
        });
    }

    /// Refuses id `id` with `hint` in the error (an old name, e.g. `SequenceStar` with
    /// "did you mean `SequenceWithMemory`?"); registering `id` later takes precedence.
    pub fn retire(&mut self, id: &str, hint: &str) {
        self.retired.insert(id.to_owned(), hint.to_owned());
    }

    /// The hint for a retired id.
    pub fn retired_hint(&self, id: &str) -> Option<&str> {
        self.retired.get(id).map(String::as_str)
    }

    /// Registered ids, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.kinds.keys().map(String::as_str)
    }

    /// Whether kind `id` is registered.
    pub fn has(&self, id: &str) -> bool {
        self.kinds.contains_key(id)
    }

    /// Every registered kind with its model, sorted by id.
    pub fn models(&self) -> impl Iterator<Item = (&str, &NodeModel)> {
        self.kinds
            .iter()
            .map(|(id, kind)| (id.as_str(), &kind.model))
    }

    /// The model of kind `id`.
    pub fn model(&self, id: &str) -> Option<&NodeModel> {
        self.kinds.get(id).map(|k| &k.model)
    }

    pub(crate) fn kind(&self, id: &str) -> Option<&Kind<C>> {
        self.kinds.get(id)
    }
}

/// A leaf node's parts: the leaf built from literal ports, or, when ports name entries, the
/// rebuild that builds it on its first tick.
enum LeafParts<L: ?Sized> {
    Built(Box<L>),
    Bound(Box<Rebuild<L>>),
}

/// Builds a leaf node's [`LeafParts`].
fn leaf_parts<L: ?Sized>(b: &NodeBuilder<'_>, make: &MakeLeaf<L>) -> Result<LeafParts<L>, String> {
    let bound: Vec<(PortDecl, Port)> = b
        .model()
        .ports
        .iter()
        .filter_map(|decl| match b.port(decl.name) {
            port @ Port::Entry(_) if decl.direction != PortDirection::Output => {
                Some((decl.clone(), port))
            }
            _ => None,
        })
        .collect();
    if bound.is_empty() {
        let leaf = make(&b.params()).map_err(|e| e.to_string())?;
        return Ok(LeafParts::Built(leaf));
    }
    let params = b.params().map().clone();
    Ok(LeafParts::Bound(Box::new(Rebuild::new(
        params,
        bound,
        make.clone(),
    ))))
}

/// A registered [`Condition`] as a node: `Success` when it holds, else `Failure`.
struct ConditionNode<C>(Box<dyn Condition<C>>);

/// `Success` when `leaf` holds at this tick, else `Failure`.
#[inline]
fn check<C>(leaf: &mut dyn Condition<C>, cx: &Cx<'_, C>) -> Status {
    if leaf.check(cx.ctx(), cx.now()) {
        Status::Success
    } else {
        Status::Failure
    }
}

impl<C> Behavior<C> for ConditionNode<C> {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        Ok(check(self.0.as_mut(), cx))
    }

    fn halt(&mut self, _cx: &mut Cx<'_, C>) {}

    fn explain_into(&self, ctx: &C, now: f64, out: &mut String) -> bool {
        self.0.explain_into(ctx, now, out);
        true
    }

    fn explanation_is_json_safe(&self) -> bool {
        self.0.explanation_is_json_safe()
    }
}

/// A [`ConditionNode`] whose ports name entries: built on its first tick, and again when an
/// entry changed.
struct BoundCondition<C> {
    leaf: Option<Box<dyn Condition<C>>>,
    rebuild: Box<Rebuild<dyn Condition<C>>>,
}

impl<C> Behavior<C> for BoundCondition<C> {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        if let Some(new) = self.rebuild.refresh(cx)? {
            self.leaf = Some(new);
        }
        match self.leaf.as_deref_mut() {
            Some(leaf) => Ok(check(leaf, cx)),
            None => Err(Fault::from("the leaf was not built")),
        }
    }

    fn halt(&mut self, _cx: &mut Cx<'_, C>) {}

    fn explain_into(&self, ctx: &C, now: f64, out: &mut String) -> bool {
        match &self.leaf {
            Some(leaf) => {
                leaf.explain_into(ctx, now, out);
                true
            }
            None => false,
        }
    }

    fn explanation_is_json_safe(&self) -> bool {
        self.leaf
            .as_ref()
            .is_none_or(|leaf| leaf.explanation_is_json_safe())
    }
}

/// A registered [`Action`] as a node: its status; halted when abandoned while running.
struct ActionNode<C>(Box<dyn Action<C>>);

impl<C> Behavior<C> for ActionNode<C> {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let now = cx.now();
        Ok(self.0.tick(cx.ctx_mut(), now))
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.0.halt(cx.ctx_mut());
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// An [`ActionNode`] whose ports name entries: built on its first tick, and again when an
/// entry changed; rebuilt while running, its old instance is halted first.
struct BoundAction<C> {
    leaf: Option<Box<dyn Action<C>>>,
    rebuild: Box<Rebuild<dyn Action<C>>>,
}

impl<C> Behavior<C> for BoundAction<C> {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        if let Some(new) = self.rebuild.refresh(cx)?
            && let Some(mut old) = self.leaf.replace(new)
            && cx.state() == NodeState::Running
        {
            old.halt(cx.ctx_mut());
        }
        let Some(leaf) = self.leaf.as_deref_mut() else {
            return Err(Fault::from("the leaf was not built"));
        };
        let now = cx.now();
        Ok(leaf.tick(cx.ctx_mut(), now))
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        if let Some(leaf) = &mut self.leaf {
            leaf.halt(cx.ctx_mut());
        }
    }

    fn can_resume(&self) -> bool {
        true
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
    fn text_params_read_as_their_port_type_reads_them() {
        // XML attributes are text: a tree exported as BT.CPP XML and loaded again gives
        // every param as a string.
        let m = params(json!({
            "x": "1.5", "n": "3", "b": "True", "f": "0", "l": "4;5; 6", "one": "7", "bad": "3.5"
        }));
        let p = LeafParams::new(&m);
        assert_eq!(p.f64("x"), Ok(1.5));
        assert_eq!(p.f64("n"), Ok(3.0));
        assert_eq!(p.i64("n"), Ok(3));
        assert_eq!(p.bool("b"), Ok(true));
        assert_eq!(p.opt_bool("f"), Ok(Some(false)));
        assert_eq!(p.i64_list("l"), Ok(vec![4, 5, 6]));
        assert_eq!(p.i64_list("one"), Ok(vec![7]));
        assert_eq!(
            p.i64("bad").map_err(|e| e.to_string()),
            Err("param `bad`: can't convert [3.5] to int".to_owned())
        );
    }

    #[test]
    fn typed_accessors_name_the_param_in_errors() {
        let m = params(json!({ "x": "fast", "f": 1.5, "l": [1, "two"], "b": 1 }));
        let p = LeafParams::new(&m);
        assert_eq!(
            p.f64("x").map_err(|e| e.to_string()),
            Err("param `x`: can't convert [fast] to double".to_owned())
        );
        assert_eq!(
            p.i64_list("x").map_err(|e| e.to_string()),
            Err("param `x`: element 0: `fast` is not an integer".to_owned())
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
    fn names_are_sorted() {
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
        r.condition("b_cond", Vec::new(), |_| Ok(Box::new(Never)));
        r.condition("a_cond", Vec::new(), |_| Ok(Box::new(Never)));
        r.action("idle", Vec::new(), |_| Ok(Box::new(Idle)));
        assert_eq!(r.names().collect::<Vec<_>>(), ["a_cond", "b_cond", "idle"]);
        assert!(r.has("a_cond") && !r.has("c_cond"));
    }
}
