//! Compiling `decisions.json` into the engine's IR: one `weighted_selection` whose rules are
//! the decisions, each a guard (`guards`, checking its conditions in order) and the `navigate` action.
//! A guard is emitted only for fields that are not "-1", in the order of the guard table of `docs/src/formats/decisions.md`.

use super::decisions::{Decision, SKIP};
use super::guard_set::GUARDS;
use super::guards::{AT_WAYPOINT, BoundKind, ENEMY_AT, FRIEND_AT};
use super::load::Tables;
use super::navigate::NAVIGATE;
use crate::engine::nodes::weighted_selection::RULE;
use crate::engine::{NodeId, SourceSpan, TreeSpec};
use serde_json::{Map, Value, json};

/// Node ids of one decision inside the compiled tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionNodes {
    /// The decision's `weighted_rule` node.
    pub rule: NodeId,
    /// Its guard conditions, in check order.
    pub guards: Vec<NodeId>,
    /// Its navigate action (the rule's body).
    pub navigate: NodeId,
}

/// The tree for `tables` and the node ids of every decision, in file order: one
/// `weighted_selection` whose rules are the decisions, each with its guard (a `guards` node
/// over its conditions, the condition itself when there is one, `AlwaysSuccess` when there is
/// none) and `navigate` as body.
pub fn decision_tree(tables: &Tables) -> (TreeSpec, Vec<DecisionNodes>) {
    let decisions_file = tables.files.decisions.display().to_string();
    let mut next_id = 1u32; // the root is node 0 (preorder numbering)
    let mut children = Vec::with_capacity(tables.decisions.len());
    let mut nodes = Vec::with_capacity(tables.decisions.len());
    for (index, loaded) in tables.decisions.iter().enumerate() {
        let d = &loaded.decision;
        let span = |field: &str| {
            let pos = loaded.positions.of(field);
            Some(SourceSpan {
                file: decisions_file.clone(),
                line: pos.line,
                column: pos.column,
            })
        };
        let rule = NodeId(next_id);
        let guard_specs: Vec<TreeSpec> = guards_of(d)
            .into_iter()
            .map(|(name, field, ports)| leaf(name, ports, span(field)))
            .collect();
        let guard_root = NodeId(next_id + 1);
        let mut guard_specs = guard_specs;
        let (guard, guards) = if guard_specs.is_empty() {
            (
                TreeSpec::new("AlwaysSuccess").named("no guards"),
                Vec::new(),
            )
        } else if guard_specs.len() == 1
            && let Some(single) = guard_specs.pop()
        {
            // A single condition is the guard itself (one node less to tick).
            (single, vec![guard_root])
        } else {
            let ids = (0..guard_specs.len() as u32)
                .map(|i| NodeId(guard_root.0 + 1 + i))
                .collect();
            (
                TreeSpec::new(GUARDS)
                    .named("guards")
                    .with_children(guard_specs),
                ids,
            )
        };
        next_id = guard_root.0 + guard.node_count() as u32;
        let navigate = NodeId(next_id);
        next_id += 1;
        let body = leaf(
            NAVIGATE,
            ports([("decision", json!(index))]),
            span("decide_wayPoint"),
        );
        let mut rule_ports = ports([("weight", json!(d.weight)), ("id", json!(d.id))]);
        rule_ports.insert("decision_name".into(), json!(d.name));
        children.push(TreeSpec {
            ports: rule_ports,
            ..TreeSpec::new(RULE)
                .named(format!("{} #{}", d.name, d.id))
                .with_children([guard, body])
                .at(Some(SourceSpan {
                    file: decisions_file.clone(),
                    line: loaded.positions.object.line,
                    column: loaded.positions.object.column,
                }))
        });
        nodes.push(DecisionNodes {
            rule,
            guards,
            navigate,
        });
    }
    let root = TreeSpec::new("weighted_selection")
        .named("decisions")
        .with_children(children);
    (root, nodes)
}

fn leaf(kind: &str, ports: Map<String, Value>, span: Option<SourceSpan>) -> TreeSpec {
    TreeSpec {
        ports,
        ..TreeSpec::new(kind).at(span)
    }
}

fn ports<const N: usize>(items: [(&str, Value); N]) -> Map<String, Value> {
    items.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The guard leaves of a decision: (leaf name, source field, params), in check order.
pub fn guards_of(d: &Decision) -> Vec<(&'static str, &'static str, Map<String, Value>)> {
    let mut out = Vec::new();
    if d.waypoint_ids.first() != Some(&SKIP) {
        out.push((
            AT_WAYPOINT,
            "wayPointID",
            ports([("ids", json!(d.waypoint_ids))]),
        ));
    }
    let bounds = [
        (BoundKind::ModeIs, Some(d.robot_mode)),
        (BoundKind::HpAbove, Some(d.min_hp)),
        (BoundKind::HpAtMost, Some(d.max_hp)),
        (BoundKind::TimeAfter, Some(d.start_time)),
        (BoundKind::TimeUntil, Some(d.end_time)),
        (BoundKind::OutpostAtLeast, Some(d.outpost_hp_min)),
        (BoundKind::OutpostAtMost, d.outpost_hp_max),
        (BoundKind::BaseAtLeast, Some(d.base_hp_min)),
    ];
    for (kind, value) in bounds {
        if let Some(value) = value.filter(|v| *v != SKIP) {
            out.push((
                kind.leaf_name(),
                kind.field(),
                ports([("value", json!(value))]),
            ));
        }
    }
    for (leaf_name, field, slots) in [
        (FRIEND_AT, "friendPosition", &d.friend_position),
        (ENEMY_AT, "enemyPosition", &d.enemy_position),
    ] {
        for (slot, ids) in slots.iter().enumerate() {
            if ids.first() != Some(&SKIP) {
                out.push((
                    leaf_name,
                    field,
                    ports([("slot", json!(slot)), ("ids", json!(ids))]),
                ));
            }
        }
    }
    out
}
