//! Compiling `decisions.json` into the engine's IR: one `weighted_selection` whose children are
//! the decisions, each a `sequence` of its guard conditions followed by the `navigate` action.
//! A guard is emitted only for fields that are not "-1", in the order of the spec's table.

use super::decisions::{Decision, SKIP};
use super::guards::{AT_WAYPOINT, BoundKind, ENEMY_AT, FRIEND_AT};
use super::load::Tables;
use super::navigate::NAVIGATE;
use crate::engine::{NodeId, NodeKind, SourceSpan, TreeSpec};
use serde_json::{Map, Value, json};

/// Node ids of one decision inside the compiled tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionNodes {
    /// The decision's sequence node.
    pub sequence: NodeId,
    /// Its guard conditions, in check order.
    pub guards: Vec<NodeId>,
    /// Its navigate action.
    pub navigate: NodeId,
}

/// The tree for `tables` and the node ids of every decision, in file order.
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
        let sequence = NodeId(next_id);
        next_id += 1;
        let mut guard_specs = Vec::new();
        for (name, field, params) in guards_of(d) {
            guard_specs.push(leaf(NodeKind::Condition, name, params, span(field)));
        }
        let guards = (0..guard_specs.len() as u32)
            .map(|i| NodeId(next_id + i))
            .collect();
        next_id += guard_specs.len() as u32;
        let navigate = NodeId(next_id);
        next_id += 1;
        let mut body = guard_specs;
        body.push(leaf(
            NodeKind::Action,
            NAVIGATE,
            params([("decision", json!(index))]),
            span("decide_wayPoint"),
        ));
        let mut seq_params = params([("weight", json!(d.weight)), ("id", json!(d.id))]);
        seq_params.insert("decision_name".into(), json!(d.name));
        children.push(TreeSpec {
            kind: NodeKind::Sequence,
            name: format!("{} #{}", d.name, d.id),
            params: seq_params,
            children: body,
            span: Some(SourceSpan {
                file: decisions_file.clone(),
                line: loaded.positions.object.line,
                column: loaded.positions.object.column,
            }),
        });
        nodes.push(DecisionNodes {
            sequence,
            guards,
            navigate,
        });
    }
    let root = TreeSpec {
        kind: NodeKind::WeightedSelection,
        name: "decisions".into(),
        params: Map::new(),
        children,
        span: None,
    };
    (root, nodes)
}

fn leaf(
    kind: NodeKind,
    name: &str,
    params: Map<String, Value>,
    span: Option<SourceSpan>,
) -> TreeSpec {
    TreeSpec {
        kind,
        name: name.to_string(),
        params,
        children: Vec::new(),
        span,
    }
}

fn params<const N: usize>(items: [(&str, Value); N]) -> Map<String, Value> {
    items.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The guard leaves of a decision: (leaf name, source field, params), in check order.
pub fn guards_of(d: &Decision) -> Vec<(&'static str, &'static str, Map<String, Value>)> {
    let mut out = Vec::new();
    if d.waypoint_ids.first() != Some(&SKIP) {
        out.push((
            AT_WAYPOINT,
            "wayPointID",
            params([("ids", json!(d.waypoint_ids))]),
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
                params([("value", json!(value))]),
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
                    params([("slot", json!(slot)), ("ids", json!(ids))]),
                ));
            }
        }
    }
    out
}
