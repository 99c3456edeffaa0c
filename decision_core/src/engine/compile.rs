//! `compile`: checks a [`TreeSpec`] against a [`Registry`] and flattens it into a [`Tree`].
//!
//! Per node: the kind is looked up by `type` (unknown ids get a suggestion), its children
//! counted against the model, the pre/post-condition scripts (`_skipIf`, ...) parsed and
//! bound, every port checked (unknown names with a suggestion, missing required ports, bad
//! literals, a `{key}` whose entry already has another type), `SubTree`-like kinds open a
//! blackboard scope with their remappings, and the kind's constructor builds the behaviour.
//! Every problem is reported at once, in preorder, with the file, line and column of the
//! node or of the offending port.

use std::collections::BTreeMap;
use std::fmt;

use super::blackboard::{
    Blackboards, EntryType, Remap, ScopeId, Value, parse_literal, remapped_key,
};
use super::node::{Behavior, NodeState, Port};
use super::registry::{LeafParams, NodeModel, PortDecl, PortDirection, Registry};
use super::script::Script;
use super::trace::TickTrace;
use super::tree::{
    Arena, Conditions, FAILURE_IF, Links, SKIP_IF, SUCCESS_IF, Shape, Slot, Tree, WHILE,
};
use super::{SourceSpan, TreeSpec};

/// One problem in a tree spec.
///
/// Displays as `file:line:col: node_path: message`, or `node_path: message` without a span.
/// `node_path` is the root's label followed by one `/label[i]` segment per level, `i` being
/// the child's position among its siblings, e.g. `decisions/go_home[3]/hp_below[0]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct CompileError {
    /// Where: the offending port's span, else the node's, else its nearest ancestor's.
    pub span: Option<SourceSpan>,
    /// Path of the node from the root.
    pub node_path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.span {
            write!(f, "{}:{}:{}: ", s.file, s.line, s.column)?;
        }
        write!(f, "{}: {}", self.node_path, self.message)
    }
}

/// The pre/post-condition attributes of BT.CPP 4 and `SubTree`'s `_autoremap`.
const SPECIAL_PORTS: [&str; 9] = [
    "_failureIf",
    "_successIf",
    "_skipIf",
    "_while",
    "_onSuccess",
    "_onFailure",
    "_post",
    "_onHalted",
    "_autoremap",
];

/// What a kind's constructor gets: its ports (checked and resolved), its params as JSON, the
/// blackboard scope, and the number of children.
pub struct NodeBuilder<'a> {
    spec: &'a TreeSpec,
    model: &'a NodeModel,
    ports: &'a BTreeMap<String, Port>,
    blackboards: &'a mut Blackboards,
    scope: ScopeId,
}

impl NodeBuilder<'_> {
    /// The model of the node's kind (its declared ports).
    pub(crate) fn model(&self) -> &NodeModel {
        self.model
    }

    /// The node's label.
    pub fn name(&self) -> &str {
        self.spec.label()
    }

    /// The node's ports as free-form params (profiles' leaves read them with typed accessors).
    pub fn params(&self) -> LeafParams<'_> {
        LeafParams::new(&self.spec.ports)
    }

    /// Number of children.
    pub fn child_count(&self) -> usize {
        self.spec.children.len()
    }

    /// The children's specs.
    pub fn children(&self) -> &[TreeSpec] {
        &self.spec.children
    }

    /// A declared port, resolved: a literal of the port's type, a blackboard slot, or
    /// `Missing` for an optional port that was not given.
    pub fn port(&self, name: &str) -> Port {
        self.ports.get(name).cloned().unwrap_or(Port::Missing)
    }

    /// The raw text of a port as written (`None` when absent).
    pub fn text(&self, name: &str) -> Option<String> {
        self.spec.ports.get(name).map(value_text)
    }

    /// Parses and binds the script in port `name` (`Script`, `ScriptCondition`, ...).
    pub fn script(&mut self, name: &str) -> Result<Script, String> {
        let text = self
            .text(name)
            .or_else(|| {
                self.model
                    .port(name)
                    .and_then(|p| p.default)
                    .map(str::to_owned)
            })
            .ok_or_else(|| format!("missing required port `{name}`"))?;
        Script::compile(&text, self.blackboards, self.scope).map_err(|e| {
            format!(
                "port `{name}`: bad script at offset {}: {}",
                e.offset, e.message
            )
        })
    }

    /// The blackboards and this node's scope (kinds that resolve keys by name at build time).
    pub fn blackboard(&mut self) -> (&mut Blackboards, ScopeId) {
        (self.blackboards, self.scope)
    }
}

/// The text form of a port value: strings as they are, other JSON as JSON.
pub(crate) fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Compiles `spec` against `registry` with a fresh root blackboard.
pub fn compile<C: 'static>(
    spec: &TreeSpec,
    registry: &Registry<C>,
) -> Result<Tree<C>, Vec<CompileError>> {
    let mut blackboards = Blackboards::new();
    let root = blackboards.new_root();
    compile_with(spec, registry, blackboards, root)
}

/// Compiles `spec` into a tree whose root scope is `root` of `blackboards` (entries created
/// before, e.g. a `bt` input's first line, keep their types: a port of another type is an
/// error, as in BT.CPP).
pub fn compile_with<C: 'static>(
    spec: &TreeSpec,
    registry: &Registry<C>,
    blackboards: Blackboards,
    root: ScopeId,
) -> Result<Tree<C>, Vec<CompileError>> {
    let (arena, slots) = build(spec, registry, blackboards, root)?;
    Ok(Tree {
        arena,
        slots,
        spec: spec.clone(),
        root_scope: root,
    })
}

/// [`compile_with`] of a spec the tree may keep (no copy of the spec is made).
pub fn compile_owned<C: 'static>(
    spec: TreeSpec,
    registry: &Registry<C>,
    blackboards: Blackboards,
    root: ScopeId,
) -> Result<Tree<C>, Vec<CompileError>> {
    let (arena, slots) = build(&spec, registry, blackboards, root)?;
    Ok(Tree {
        arena,
        slots,
        spec,
        root_scope: root,
    })
}

/// A compiled tree's arena and slots.
type Built<C> = (Arena, Vec<Slot<C>>);

/// The arena and slots of `spec` compiled against `registry`.
fn build<C: 'static>(
    spec: &TreeSpec,
    registry: &Registry<C>,
    blackboards: Blackboards,
    root: ScopeId,
) -> Result<Built<C>, Vec<CompileError>> {
    let mut b = Builder {
        registry,
        arena: Arena {
            shape: Shape {
                links: Vec::new(),
                child_ids: Vec::new(),
                scopes: Vec::new(),
                names: Vec::new(),
            },
            blackboards,
            trace: TickTrace::new(0),
            tracing: true,
            counting: false,
            visits: 0,
            now: 0.0,
            pending: None,
        },
        behaviors: Vec::new(),
        conditions: Vec::new(),
        parents: Vec::new(),
        errors: Vec::new(),
    };
    b.visit(spec, None, None, root);
    if !b.errors.is_empty() {
        return Err(b.errors);
    }
    let mut arena = b.arena;
    arena.trace = TickTrace::new(b.behaviors.len());
    // Without errors every node got its behaviour.
    let parts = b.behaviors.into_iter().zip(b.conditions);
    let parts = parts.zip(&arena.shape.links).zip(0u32..);
    let slots = parts.map(|(((behavior, conditions), links), id)| {
        behavior.map(|behavior| Slot {
            behavior,
            state: NodeState::Idle,
            children: positions_below(id, arena.shape.children_of(links)),
            conditions,
        })
    });
    let Some(slots) = slots.collect::<Option<Vec<_>>>() else {
        return Err(vec![CompileError {
            span: None,
            node_path: String::new(),
            message: "a node has no behaviour".to_owned(),
        }]);
    };
    // Ticking relies on it (`Cx::tick_child` finds the first child without the list).
    if !first_children_follow_their_parents(&slots) {
        return Err(vec![CompileError {
            span: None,
            node_path: String::new(),
            message: "a node's first child does not follow it in preorder".to_owned(),
        }]);
    }
    Ok((arena, slots))
}

/// Whether every node's first child is the slot right after its own (position 0 below it),
/// as numbering the nodes in preorder makes it.
fn first_children_follow_their_parents<C>(slots: &[Slot<C>]) -> bool {
    slots
        .iter()
        .all(|slot| slot.children.first().is_none_or(|&at| at == 0))
}

/// Where the children `ids` of node `id` are among the slots after its own (a child comes
/// after its parent in preorder).
fn positions_below(id: u32, ids: &[u32]) -> Box<[u32]> {
    ids.iter()
        .map(|&child| child.wrapping_sub(id).wrapping_sub(1))
        .collect()
}

struct Builder<'r, C> {
    registry: &'r Registry<C>,
    arena: Arena,
    /// Per node, its behaviour once made (`None` after an error).
    behaviors: Vec<Option<Box<dyn Behavior<C>>>>,
    /// Per node, its pre/post-condition scripts, if it has any.
    conditions: Vec<Option<Box<Conditions>>>,
    /// Per node: its parent and its position among the parent's children (paths in errors).
    parents: Vec<Option<(u32, usize)>>,
    errors: Vec<CompileError>,
}

impl<C: 'static> Builder<'_, C> {
    /// Adds `spec` and its subtree in preorder; returns the node's id.
    fn visit(
        &mut self,
        spec: &TreeSpec,
        parent: Option<(u32, usize)>,
        inherited_span: Option<&SourceSpan>,
        scope: ScopeId,
    ) -> u32 {
        let id = u32::try_from(self.behaviors.len()).unwrap_or(u32::MAX);
        let span = spec.span.as_ref().or(inherited_span);
        let mut errors: Vec<(Option<&SourceSpan>, String)> = Vec::new();
        let child_count = spec.children.len();
        let port_span = |key: &str| spec.port_spans.get(key).or(span);

        self.behaviors.push(None);
        self.arena.shape.links.push(Links {
            children_start: 0,
            child_count: 0,
        });
        self.arena.shape.scopes.push(scope);
        self.conditions.push(None);
        self.arena.shape.names.push(spec.label().to_owned());
        self.parents.push(parent);

        let kind = self.registry.kind(&spec.kind);
        if kind.is_none() {
            errors.push((span, self.unknown(&spec.kind)));
        }

        // Pre/post conditions.
        let mut conditions = Conditions::default();
        for (key, value) in &spec.ports {
            if !key.starts_with('_') {
                continue;
            }
            let text = value_text(value);
            let slot = match key.as_str() {
                "_failureIf" => Some(&mut conditions.pre[FAILURE_IF]),
                "_successIf" => Some(&mut conditions.pre[SUCCESS_IF]),
                "_skipIf" => Some(&mut conditions.pre[SKIP_IF]),
                "_while" => Some(&mut conditions.pre[WHILE]),
                "_onSuccess" => Some(&mut conditions.on_success),
                "_onFailure" => Some(&mut conditions.on_failure),
                "_post" => Some(&mut conditions.post),
                "_onHalted" => Some(&mut conditions.on_halted),
                "_autoremap" => {
                    if !kind.is_some_and(|k| k.model.opens_scope) {
                        errors.push((
                            port_span(key),
                            format!(
                                "`_autoremap` is only allowed on a SubTree, not on `{}`",
                                spec.kind
                            ),
                        ));
                    }
                    None
                }
                _ => {
                    let mut message = format!("unknown special attribute `{key}`");
                    if let Some(near) = nearest(key, &SPECIAL_PORTS) {
                        message.push_str(&format!(" (did you mean `{near}`?)"));
                    }
                    errors.push((port_span(key), message));
                    None
                }
            };
            if let Some(slot) = slot {
                match Script::compile(&text, &mut self.arena.blackboards, scope) {
                    Ok(script) => *slot = Some(script),
                    Err(e) => errors.push((
                        port_span(key),
                        format!("`{key}`: bad script at offset {}: {}", e.offset, e.message),
                    )),
                }
            }
        }
        if !conditions.is_empty() {
            conditions.seal();
            self.conditions[id as usize] = Some(Box::new(conditions));
        }

        let mut child_scope = scope;
        if let Some(kind) = kind {
            let model = &kind.model;
            if !model.children.allows(child_count) {
                errors.push((span, children_message(&spec.kind, model, child_count)));
            }
            if let Some(limit) = model.max_async_children {
                let asyncs: Vec<&str> = spec
                    .children
                    .iter()
                    .filter(|c| self.registry.model(&c.kind).is_some_and(|m| m.is_async))
                    .map(|c| c.kind.as_str())
                    .collect();
                if asyncs.len() > limit {
                    let most = match limit {
                        1 => "one asynchronous child".to_owned(),
                        n => format!("{n} asynchronous children"),
                    };
                    errors.push((
                        span,
                        format!(
                            "`{}` cannot have more than {most}, found {} (`{}`)",
                            spec.kind,
                            asyncs.len(),
                            asyncs.join("`, `")
                        ),
                    ));
                }
            }
            // BT.CPP refuses a tree whose ID is a registered node's: `<X/>` would be ambiguous.
            if model.opens_scope
                && let Some(tree_id) = spec.ports.get("ID").and_then(|v| v.as_str())
                && self.registry.model(tree_id).is_some()
            {
                let at = spec.port_spans.get("ID").or(span);
                errors.push((
                    at,
                    format!(
                        "the attribute [ID] of <{}> must not use the name of a registered node \
                         (`{tree_id}`): rename the tree",
                        spec.kind
                    ),
                ));
            }
            let mut ports = BTreeMap::new();
            if model.opens_scope {
                child_scope = self.open_scope(spec, scope, &mut errors);
            } else {
                self.check_ports(spec, model, scope, &mut ports, &mut errors);
            }
            if errors.is_empty() {
                let mut builder = NodeBuilder {
                    spec,
                    model,
                    ports: &ports,
                    blackboards: &mut self.arena.blackboards,
                    scope,
                };
                match (kind.make)(&mut builder) {
                    Ok(behavior) => self.behaviors[id as usize] = Some(behavior),
                    Err(message) => errors.push((span, message)),
                }
            }
        }

        if id == u32::MAX {
            errors.push((span, "too many nodes".to_owned()));
        }
        if !errors.is_empty() {
            let path = self.path_of(id);
            for (at, message) in errors {
                self.errors.push(CompileError {
                    span: at.cloned(),
                    node_path: path.clone(),
                    message,
                });
            }
        }
        if id == u32::MAX {
            return id;
        }

        let first_child = self.arena.shape.child_ids.len();
        let links = &mut self.arena.shape.links[id as usize];
        links.children_start = u32::try_from(first_child).unwrap_or(u32::MAX);
        links.child_count = u32::try_from(child_count).unwrap_or(u32::MAX);
        self.arena
            .shape
            .child_ids
            .extend(std::iter::repeat_n(0, child_count));
        for (i, child) in spec.children.iter().enumerate() {
            let child_id = self.visit(child, Some((id, i)), span, child_scope);
            self.arena.shape.child_ids[first_child + i] = child_id;
        }
        id
    }

    /// The node's path from the root: the root's label, then `/label[i]` per level.
    fn path_of(&self, id: u32) -> String {
        let mut segments = Vec::new();
        let mut at = Some(id);
        while let Some(node) = at {
            let label = self
                .arena
                .shape
                .names
                .get(node as usize)
                .map_or("", String::as_str);
            match self.parents.get(node as usize).copied().flatten() {
                Some((parent, position)) => {
                    segments.push(format!("{label}[{position}]"));
                    at = Some(parent);
                }
                None => {
                    segments.push(label.to_owned());
                    at = None;
                }
            }
        }
        segments.reverse();
        segments.join("/")
    }

    /// Checks and resolves the declared ports of a node.
    fn check_ports<'s>(
        &mut self,
        spec: &'s TreeSpec,
        model: &NodeModel,
        scope: ScopeId,
        ports: &mut BTreeMap<String, Port>,
        errors: &mut Vec<(Option<&'s SourceSpan>, String)>,
    ) {
        let span = spec.span.as_ref();
        for (key, value) in &spec.ports {
            if key.starts_with('_') {
                continue;
            }
            let at = spec.port_spans.get(key).or(span);
            let Some(decl) = model.port(key) else {
                if !model.free_ports {
                    let names: Vec<&str> = model.ports.iter().map(|p| p.name).collect();
                    let mut message = format!("`{}` has no port `{key}`", spec.kind);
                    if let Some(near) = nearest(key, &names) {
                        message.push_str(&format!(" (did you mean `{near}`?)"));
                    } else if names.is_empty() {
                        message.push_str(" (it takes no ports)");
                    } else {
                        message.push_str(&format!(" (ports: {})", names.join(", ")));
                    }
                    errors.push((at, message));
                }
                continue;
            };
            let text = value_text(value);
            match remapped_key(decl.name, &text) {
                Some(key_name) => match self.bind_entry(scope, key_name, decl.ty) {
                    Ok(port) => {
                        ports.insert(key.clone(), port);
                    }
                    Err(message) => errors.push((at, format!("port `{key}`: {message}"))),
                },
                // An output that ignores a literal stays unbound (`Missing`): never written.
                None if decl.direction == PortDirection::Output && decl.ignores_literal => {}
                None if decl.direction != PortDirection::Input => errors.push((
                    at,
                    format!(
                        "port `{key}` is an output: give a blackboard entry `{{key}}`, not `{text}`"
                    ),
                )),
                None => match parse_literal(&text, decl.ty) {
                    Ok(v) => match literal_problem(key, &text, &v, decl) {
                        Some(message) => errors.push((at, message)),
                        None => {
                            ports.insert(key.clone(), Port::Literal(v));
                        }
                    },
                    Err(e) => errors.push((at, format!("port `{key}`: {e}"))),
                },
            }
        }
        for decl in &model.ports {
            if spec.ports.contains_key(decl.name) {
                continue;
            }
            match (decl.default, decl.direction) {
                (Some(default), _) => match remapped_key(decl.name, default) {
                    Some(key_name) => {
                        if let Ok(port) = self.bind_entry(scope, key_name, decl.ty) {
                            ports.insert(decl.name.to_owned(), port);
                        }
                    }
                    None => {
                        if let Ok(v) = parse_literal(default, decl.ty) {
                            ports.insert(decl.name.to_owned(), Port::Literal(v));
                        }
                    }
                },
                (None, PortDirection::Output) => {}
                (None, _) => errors.push((
                    span,
                    format!("missing required port `{}` of `{}`", decl.name, spec.kind),
                )),
            }
        }
    }

    /// Resolves `{key}` in `scope` to a slot, creating a typed entry as BT.CPP does at tree
    /// creation; an existing entry of another concrete type is an error.
    fn bind_entry(&mut self, scope: ScopeId, key: &str, ty: EntryType) -> Result<Port, String> {
        let bbs = &mut self.arena.blackboards;
        let slot = bbs
            .reserve(scope, key)
            .ok_or_else(|| format!("`{{{key}}}` is not a valid blackboard key"))?;
        match bbs.slot_type(slot) {
            Some(existing)
                if existing != ty && existing != EntryType::Any && ty != EntryType::Any =>
            {
                return Err(format!(
                    "entry `{key}` was created with type {existing}, and this port is of type {ty}"
                ));
            }
            Some(_) => {}
            None if ty != EntryType::Any => {
                bbs.create_slot(slot, ty).map_err(|e| e.to_string())?;
            }
            None => {}
        }
        Ok(Port::Entry(slot))
    }

    /// A `SubTree`: a child scope with its ports as remappings and `_autoremap`.
    fn open_scope<'s>(
        &mut self,
        spec: &'s TreeSpec,
        scope: ScopeId,
        errors: &mut Vec<(Option<&'s SourceSpan>, String)>,
    ) -> ScopeId {
        let mut remaps = Vec::new();
        let mut autoremap = false;
        for (key, value) in &spec.ports {
            let text = value_text(value);
            if key == "_autoremap" {
                match parse_literal(&text, EntryType::Bool) {
                    Ok(Value::Bool(b)) => autoremap = b,
                    _ => errors.push((
                        spec.port_spans.get(key).or(spec.span.as_ref()),
                        format!("`_autoremap`: expected true or false, got `{text}`"),
                    )),
                }
                continue;
            }
            if key.starts_with('_') || key == "ID" {
                continue;
            }
            let remap = match remapped_key(key, &text) {
                Some(external) => Remap::Parent(external.to_owned()),
                None => Remap::Literal(text),
            };
            remaps.push((key.clone(), remap));
        }
        self.arena.blackboards.new_child(scope, remaps, autoremap)
    }

    /// The message for an unknown kind, with a near match if any.
    fn unknown(&self, id: &str) -> String {
        let names: Vec<&str> = self.registry.names().collect();
        let mut message = format!("unknown node type `{id}`");
        if let Some(hint) = self.registry.retired_hint(id) {
            message.push_str(&format!(" ({hint})"));
        } else if let Some(near) = nearest(id, &names) {
            message.push_str(&format!(" (did you mean `{near}`?)"));
        }
        message
    }
}

fn children_message(kind: &str, model: &NodeModel, found: usize) -> String {
    use super::registry::Children;
    match model.children {
        Children::None => format!("`{kind}` takes no children, found {found}"),
        Children::Exactly(1) => format!("`{kind}` needs exactly one child, found {found}"),
        Children::Exactly(n) => format!("`{kind}` needs exactly {n} children, found {found}"),
        Children::AtLeast(1) => format!("`{kind}` needs at least one child"),
        Children::AtLeast(n) => format!("`{kind}` needs at least {n} children, found {found}"),
    }
}

/// What is wrong with `value` (written `text`) for port `key` of `decl` beyond its type: not
/// one of the port's choices, or out of its range. The one rule for literals at load and for
/// entry values read by leaves at tick time.
pub(crate) fn literal_problem(
    key: &str,
    text: &str,
    value: &Value,
    decl: &PortDecl,
) -> Option<String> {
    if !decl.choices.is_empty() && !decl.choices.contains(&text) {
        return Some(not_a_choice(key, text, decl.choices));
    }
    out_of_range(key, text, value, decl)
}

/// The error of a literal number (written `text`) below a port's minimum (see
/// [`PortDecl::minimum`]).
fn out_of_range(key: &str, text: &str, value: &Value, decl: &PortDecl) -> Option<String> {
    let (bound, inclusive) = decl.minimum?;
    let v = value.as_double().ok()?;
    let fine = v.is_finite() && if inclusive { v >= bound } else { v > bound };
    (!fine).then(|| {
        let rule = decl.minimum_text().unwrap_or_default();
        format!("port `{key}`: must be {rule}, got {text}")
    })
}

/// The error of a literal that is none of a port's `choices`, with the nearest as a
/// suggestion.
fn not_a_choice(key: &str, text: &str, choices: &[&str]) -> String {
    let mut message = format!(
        "port `{key}`: `{text}` is not one of {}",
        choices.join(", ")
    );
    if let Some(near) = nearest(text, choices) {
        message.push_str(&format!(" (did you mean `{near}`?)"));
    }
    message
}

/// The name in `names` nearest to `name` (the workspace's one suggestion rule).
fn nearest<'a>(name: &str, names: &[&'a str]) -> Option<&'a str> {
    crate::suggest::nearest(name, names.iter().copied())
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use serde_json::json;

    /// Every compiled node's first child is the slot after it, which the tick relies on, and
    /// the check sees a layout where it is not.
    #[test]
    fn first_children_follow_their_parents_in_preorder() {
        let mut t = build(node(
            "Sequence",
            vec![
                node("Fallback", vec![act("a"), node("Inverter", vec![act("b")])]),
                act("c"),
                node("Sequence", vec![node("Sequence", vec![act("d")]), act("e")]),
            ],
        ));
        assert!(super::first_children_follow_their_parents(&t.slots));
        assert_eq!(*t.slots[0].children, [0, 4, 5]);
        assert_eq!(*t.slots[1].children, [0, 1]);
        t.slots[1].children = Box::new([1, 0]);
        assert!(!super::first_children_follow_their_parents(&t.slots));
    }

    #[test]
    fn errors_name_the_node_path_from_the_root() {
        let v = json!({ "type": "Sequence", "name": "root", "children": [
            act("a"),
            { "type": "Fallback", "children": [cond("b"), { "type": "Nop" }] }
        ]});
        let errors = match crate::engine::compile(&spec(v), &registry()) {
            Ok(_) => panic!("expected an error"),
            Err(e) => e,
        };
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].node_path, "root/Fallback[1]/Nop[1]");
        assert!(
            errors[0].message.contains("unknown node type `Nop`"),
            "{errors:?}"
        );
    }

    #[test]
    fn old_names_are_refused_with_a_hint() {
        let e = compile_errors(node("SequenceStar", vec![act("a")]));
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].contains("unknown node type `SequenceStar`")
                && e[0].contains("did you mean `SequenceWithMemory`?"),
            "{e:?}"
        );
        let e = compile_errors(node("ManualSelector", vec![act("a")]));
        assert!(
            e[0].contains("unknown node type `ManualSelector`") && e[0].contains("Switch2"),
            "{e:?}"
        );
    }
}
