//! `compile`: checks a [`TreeSpec`] against a [`Registry`] and flattens it into a [`Tree`].

use std::fmt;

use super::registry::{LeafParams, Registry};
use super::trace::NodeId;
use super::tree::{Layout, Leaf, Node, Tree};
use super::{NodeKind, SourceSpan, TreeSpec};

/// One problem in a tree spec.
///
/// Displays as `file:line:col: node_path: message`, or `node_path: message` without a span.
/// `node_path` is the root's name followed by one `/name[i]` segment per level, `i` being the
/// child's position among its siblings (a node without a name shows its kind), e.g.
/// `decisions/go_home[3]/hp_below[0]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct CompileError {
    /// Where the node was declared: its own span, else its nearest ancestor's.
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

/// Compiles `spec` against `registry`: looks up and constructs every leaf, checks child counts,
/// weights and parallel thresholds, and flattens the tree into an arena whose node ids are the
/// spec's preorder indices ([`NodeId`]).
///
/// Every problem of the tree is reported at once, in preorder. Rules beyond the node modules:
/// `condition`/`action` cannot have children; `negation`, `subtree`, `run_once` exactly one;
/// `sequence`, `selection`, `reactive_sequence`, `parallel` at least one; `weighted_selection`
/// any number. Params that a node kind does not read are ignored.
pub fn compile<C>(spec: &TreeSpec, registry: &Registry<C>) -> Result<Tree<C>, Vec<CompileError>> {
    let mut b = Builder {
        registry,
        layout: Layout::default(),
        nodes: Vec::new(),
        child_ids: Vec::new(),
        errors: Vec::new(),
    };
    let root_path = segment(spec);
    b.visit(spec, None, root_path, None, None);
    if b.errors.is_empty() {
        Ok(Tree::new(spec.clone(), b.layout, b.nodes, b.child_ids))
    } else {
        Err(b.errors)
    }
}

/// A node's display segment: its name, or its kind tag when unnamed.
fn segment(spec: &TreeSpec) -> String {
    if spec.name.is_empty() {
        kind_tag(spec.kind).to_owned()
    } else {
        spec.name.clone()
    }
}

/// The snake_case tag of a kind, as in the spec.
fn kind_tag(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Condition => "condition",
        NodeKind::Action => "action",
        NodeKind::Sequence => "sequence",
        NodeKind::Selection => "selection",
        NodeKind::Negation => "negation",
        NodeKind::Subtree => "subtree",
        NodeKind::ReactiveSequence => "reactive_sequence",
        NodeKind::RunOnce => "run_once",
        NodeKind::Parallel => "parallel",
        NodeKind::WeightedSelection => "weighted_selection",
    }
}

struct Builder<'r, C> {
    registry: &'r Registry<C>,
    layout: Layout,
    nodes: Vec<Node<C>>,
    child_ids: Vec<NodeId>,
    errors: Vec<CompileError>,
}

impl<C> Builder<'_, C> {
    /// Adds `spec` and its subtree in preorder; returns the node's id.
    fn visit(
        &mut self,
        spec: &TreeSpec,
        parent: Option<u32>,
        path: String,
        inherited_span: Option<&SourceSpan>,
        parent_kind: Option<NodeKind>,
    ) -> u32 {
        let id = u32::try_from(self.nodes.len()).unwrap_or(u32::MAX);
        let span = spec.span.as_ref().or(inherited_span);
        let mut errors = Vec::new();
        let params = LeafParams::new(&spec.params);
        let child_count = spec.children.len();

        let weight = if parent_kind == Some(NodeKind::WeightedSelection) {
            match params.f64("weight") {
                Ok(w) => w,
                Err(e) => {
                    errors.push(format!(
                        "{e} (every child of a weighted_selection needs a finite number `weight`)"
                    ));
                    0.0
                }
            }
        } else {
            0.0
        };
        let guard_len = match (parent_kind, spec.kind) {
            (
                Some(NodeKind::WeightedSelection),
                NodeKind::Sequence | NodeKind::ReactiveSequence,
            ) => spec
                .children
                .iter()
                .take_while(|c| c.kind == NodeKind::Condition)
                .count(),
            _ => 0,
        };

        let tag = kind_tag(spec.kind);
        let article = if spec.kind == NodeKind::Action {
            "an"
        } else {
            "a"
        };
        match spec.kind {
            NodeKind::Condition | NodeKind::Action if child_count > 0 => {
                errors.push(format!(
                    "{article} {tag} cannot have children, found {child_count}"
                ));
            }
            NodeKind::Negation | NodeKind::Subtree | NodeKind::RunOnce if child_count != 1 => {
                errors.push(format!(
                    "{article} {tag} needs exactly one child, found {child_count}"
                ));
            }
            NodeKind::Sequence
            | NodeKind::Selection
            | NodeKind::ReactiveSequence
            | NodeKind::Parallel
                if child_count == 0 =>
            {
                errors.push(format!("{article} {tag} needs at least one child"));
            }
            _ => {}
        }

        let leaf = match spec.kind {
            NodeKind::Condition => match self.registry.make_condition(&spec.name) {
                Some(make) => make(&params)
                    .map(Leaf::Condition)
                    .map_err(|e| errors.push(format!("condition `{}`: {e}", spec.name)))
                    .ok(),
                None => {
                    errors.push(self.unknown("condition", &spec.name));
                    None
                }
            },
            NodeKind::Action => match self.registry.make_action(&spec.name) {
                Some(make) => make(&params)
                    .map(Leaf::Action)
                    .map_err(|e| errors.push(format!("action `{}`: {e}", spec.name)))
                    .ok(),
                None => {
                    errors.push(self.unknown("action", &spec.name));
                    None
                }
            },
            _ => None,
        };

        let (mut success_threshold, mut failure_threshold) = (0, 0);
        if spec.kind == NodeKind::Parallel && child_count > 0 {
            let mut threshold = |key: &str, default: usize| -> u32 {
                match params.opt_i64(key) {
                    Ok(v) => {
                        let v = v.unwrap_or(default as i64);
                        if v >= 1 && v <= child_count as i64 {
                            v as u32
                        } else {
                            errors.push(format!(
                                "param `{key}`: must be between 1 and {child_count} (the number \
                                 of children), got {v}"
                            ));
                            0
                        }
                    }
                    Err(e) => {
                        errors.push(e.to_string());
                        0
                    }
                }
            };
            success_threshold = threshold("success_threshold", child_count);
            failure_threshold = threshold("failure_threshold", 1);
        }

        for message in errors {
            self.errors.push(CompileError {
                span: span.cloned(),
                node_path: path.clone(),
                message,
            });
        }

        let first_child = self.child_ids.len();
        self.layout.names.push(spec.name.clone());
        self.layout.parents.push(parent);
        self.nodes.push(Node {
            kind: spec.kind,
            first_child: u32::try_from(first_child).unwrap_or(u32::MAX),
            child_count: u32::try_from(child_count).unwrap_or(u32::MAX),
            leaf,
            weight,
            guard_len: u32::try_from(guard_len).unwrap_or(u32::MAX),
            success_threshold,
            failure_threshold,
            running: false,
            running_child: None,
            once: None,
            round: None,
        });
        if id == u32::MAX {
            self.errors.push(CompileError {
                span: span.cloned(),
                node_path: path.clone(),
                message: "too many nodes".to_owned(),
            });
            return id;
        }
        self.child_ids
            .extend(std::iter::repeat_n(NodeId(0), child_count));
        for (i, child) in spec.children.iter().enumerate() {
            let child_path = format!("{path}/{}[{i}]", segment(child));
            let child_id = self.visit(child, Some(id), child_path, span, Some(spec.kind));
            self.child_ids[first_child + i] = NodeId(child_id);
        }
        id
    }

    /// The message for an unknown leaf name, with a near match or the other kind if any.
    fn unknown(&self, kind: &str, name: &str) -> String {
        let (own, other_kind, is_other): (Vec<&str>, &str, bool) = if kind == "condition" {
            (
                self.registry.condition_names().collect(),
                "an action",
                self.registry.has_action(name),
            )
        } else {
            (
                self.registry.action_names().collect(),
                "a condition",
                self.registry.has_condition(name),
            )
        };
        let mut message = format!("unknown {kind} `{name}`");
        if is_other {
            message.push_str(&format!(" (`{name}` is registered as {other_kind})"));
        } else if let Some(near) = nearest(name, &own) {
            message.push_str(&format!(" (did you mean `{near}`?)"));
        }
        message
    }
}

/// The registered name closest to `name` by edit distance, if close enough to be a typo.
fn nearest<'a>(name: &str, names: &[&'a str]) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    names
        .iter()
        .map(|n| (edit_distance(name, n), *n))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, n)| n)
}

/// Edit distance over chars counting insertions, deletions, substitutions and transpositions
/// of neighbours (optimal string alignment), so `flga` is one edit from `flag`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j] = distance between a[..i] and b[..j]
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::engine::test_support::*;

    fn errors(v: serde_json::Value) -> Vec<String> {
        match compile(&spec(v), &registry()) {
            Ok(_) => panic!("expected compile errors"),
            Err(errors) => errors.iter().map(ToString::to_string).collect(),
        }
    }

    fn at(line: u32, column: u32) -> serde_json::Value {
        json!({ "file": "tree.json", "line": line, "column": column })
    }

    #[test]
    fn unknown_leaf_names_it_and_its_span() {
        let e = errors(json!({
            "kind": "sequence", "name": "root", "span": at(1, 1),
            "children": [
                cond("a"),
                { "kind": "condition", "name": "flga", "params": { "key": "k" }, "span": at(3, 7) }
            ]
        }));
        assert_eq!(
            e,
            ["tree.json:3:7: root/flga[1]: unknown condition `flga` (did you mean `flag`?)"]
        );
    }

    #[test]
    fn leaf_of_the_wrong_kind_says_so() {
        let e = errors(json!({ "kind": "action", "name": "flag" }));
        assert_eq!(
            e,
            ["flag: unknown action `flag` (`flag` is registered as a condition)"]
        );
    }

    #[test]
    fn bad_param_type_is_reported_with_the_param_name() {
        let e = errors(json!({
            "kind": "subtree", "name": "g", "span": at(2, 3),
            "children": [{ "kind": "action", "name": "act", "params": { "id": 7 } }]
        }));
        assert_eq!(
            e,
            ["tree.json:2:3: g/act[0]: action `act`: param `id`: expected a string, got number 7"]
        );
    }

    #[test]
    fn negation_with_two_children_is_an_error() {
        let e = errors(node("negation", vec![cond("a"), cond("b")]));
        assert_eq!(e, ["negation: a negation needs exactly one child, found 2"]);
    }

    #[test]
    fn weighted_child_without_weight_is_an_error() {
        let e = errors(node(
            "weighted_selection",
            vec![weighted(act("x"), 1.0), act("y")],
        ));
        assert_eq!(
            e,
            [
                "weighted_selection/act[1]: param `weight`: missing (every child of a \
              weighted_selection needs a finite number `weight`)"
            ]
        );
        let e = errors(node(
            "weighted_selection",
            vec![
                json!({ "kind": "action", "name": "act", "params": { "id": "x", "weight": "9" } }),
            ],
        ));
        assert_eq!(e.len(), 1);
        assert!(
            e[0].contains("expected a number, got string \"9\""),
            "{e:?}"
        );
    }

    #[test]
    fn parallel_thresholds_are_checked() {
        let mut p = node("parallel", vec![act("x"), act("y")]);
        p["params"] = json!({ "success_threshold": 3, "failure_threshold": 0 });
        assert_eq!(
            errors(p),
            [
                "parallel: param `success_threshold`: must be between 1 and 2 (the number of \
                 children), got 3",
                "parallel: param `failure_threshold`: must be between 1 and 2 (the number of \
                 children), got 0",
            ]
        );
    }

    #[test]
    fn all_errors_are_reported_at_once_in_preorder() {
        let e = errors(json!({
            "kind": "weighted_selection", "name": "rules", "span": at(1, 1),
            "children": [
                { "kind": "sequence", "name": "r0", "span": at(2, 5), "children": [
                    { "kind": "condition", "name": "nope", "span": at(3, 9) },
                    { "kind": "action", "name": "act", "params": { "id": false } }
                ]},
                weighted(node("negation", vec![]), 1.0),
                weighted(node("sequence", vec![]), 2.0),
                weighted(json!({ "kind": "condition", "name": "flag", "params": {},
                                 "children": [act("x")] }), 3.0),
            ]
        }));
        assert_eq!(
            e,
            [
                "tree.json:2:5: rules/r0[0]: param `weight`: missing (every child of a \
                 weighted_selection needs a finite number `weight`)",
                "tree.json:3:9: rules/r0[0]/nope[0]: unknown condition `nope`",
                "tree.json:2:5: rules/r0[0]/act[1]: action `act`: param `id`: expected a \
                 string, got boolean false",
                "tree.json:1:1: rules/negation[1]: a negation needs exactly one child, found 0",
                "tree.json:1:1: rules/sequence[2]: a sequence needs at least one child",
                "tree.json:1:1: rules/flag[3]: a condition cannot have children, found 1",
                "tree.json:1:1: rules/flag[3]: condition `flag`: param `key`: missing",
            ]
        );
    }

    #[test]
    fn node_ids_are_preorder_indices() {
        // 0 sel, 1 seq, 2 flag a, 3 act x, 4 neg, 5 flag b
        let t = build(node(
            "selection",
            vec![
                node("sequence", vec![cond("a"), act("x")]),
                node("negation", vec![cond("b")]),
            ],
        ));
        assert_eq!(t.node_count(), 6);
        assert_eq!(t.children(NodeId(0)), [NodeId(1), NodeId(4)]);
        assert_eq!(t.children(NodeId(1)), [NodeId(2), NodeId(3)]);
        assert_eq!(t.children(NodeId(4)), [NodeId(5)]);
        assert_eq!(t.parent(NodeId(5)), Some(NodeId(4)));
        assert_eq!(t.parent(NodeId(0)), None);
        assert_eq!(t.kind(NodeId(3)), NodeKind::Action);
        assert_eq!(t.name(NodeId(3)), "act");
        assert_eq!(t.spec().children.len(), 2);
        assert_eq!(t.explain(NodeId(99), &Ctx::default(), 0.0), None);
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("flag", "flga"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            nearest("hp_blow", &["hp_below", "time_after"]),
            Some("hp_below")
        );
        assert_eq!(nearest("zzz", &["hp_below"]), None);
    }
}
