//! `guards`: the guard conditions of one decision, checked in order until one fails. It
//! decides exactly as a `Sequence` of the same condition leaves (`Success` when every one
//! holds, else `Failure` at the first that does not; the children are left idle), but checks
//! copies of the conditions itself instead of visiting a node per condition (the visits cost
//! more than the checks). In the decision tree the root's [`super::selection`] checks them
//! flat and never ticks this node; it ticks when its tree does not fit that (a hand-edited
//! export, say).
//!
//! The children stay in the tree as the layout, the trace and the explanations show them:
//! each checked child gets its result in the trace, as if it had been ticked, so the decider
//! finds the first failing guard and explains it as before.
//!
//! | children | guards |
//! |---|---|
//! | every condition holds | `Success` (each child traced `Success`) |
//! | child `i` fails | `Failure`; children `0..=i` traced, the rest not checked |
//!
//! Every child must be a guard leaf (`at_waypoint`, `hp_above`, ...) with literal ports and no
//! pre- or post-condition: anything else is a compile error that says to use a `Sequence`.

use super::context::RmContext;
use super::guards::{Guard, guard_kinds, make_guard};
use crate::engine::blackboard::remapped_key;
use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, Condition, LeafParams, NodeModel, Registry, Status, TreeSpec};

/// The kind id.
pub const GUARDS: &str = "guards";

/// Registers `guards`.
pub fn register(registry: &mut Registry<RmContext>) {
    registry.register(
        GUARDS,
        NodeModel::new(Children::AtLeast(1), Vec::new()),
        |b| {
            let guards = b
                .children()
                .iter()
                .enumerate()
                .map(|(i, child)| guard_of_child(i, child))
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Box::new(GuardSet { guards }))
        },
    );
}

/// The guard that child `i` (`child`) checks, or why it cannot be one.
pub(super) fn guard_of_child(i: usize, child: &TreeSpec) -> Result<Guard, String> {
    let kind = child.kind.as_str();
    let use_sequence = "use a `Sequence` for other children";
    if let Some(attribute) = child.ports.keys().find(|key| key.starts_with('_')) {
        return Err(format!(
            "child {i} (`{kind}`) has `{attribute}`: a child of `{GUARDS}` takes no pre- or \
             post-condition; {use_sequence}"
        ));
    }
    if let Some((port, _)) = child
        .ports
        .iter()
        .find(|(port, value)| names_entry(port, value))
    {
        return Err(format!(
            "child {i} (`{kind}`): port `{port}` names a blackboard entry, and a child of \
             `{GUARDS}` takes literal values only; {use_sequence}"
        ));
    }
    match make_guard(kind, &LeafParams::new(&child.ports)) {
        Some(guard) => guard.map_err(|e| format!("child {i} (`{kind}`): {e}")),
        None => Err(format!(
            "child {i} is a `{kind}`: every child of `{GUARDS}` is a guard leaf ({}); \
             {use_sequence}",
            guard_kinds().collect::<Vec<_>>().join(", ")
        )),
    }
}

/// Whether port `port`'s value refers to a blackboard entry (`{key}`, `{=}` or `=`), by the
/// rule every other port is compiled with.
fn names_entry(port: &str, value: &serde_json::Value) -> bool {
    value
        .as_str()
        .is_some_and(|text| remapped_key(port, text).is_some())
}

/// The copies of the children's conditions, in child order.
struct GuardSet {
    guards: Vec<Guard>,
}

impl Behavior<RmContext> for GuardSet {
    fn tick(&mut self, cx: &mut Cx<'_, RmContext>) -> Result<Status, Fault> {
        // The children are leaves: child `i` is the node `i` places after this one.
        let now = cx.now();
        for (at, guard) in (0u32..).zip(self.guards.iter_mut()) {
            if !guard.check(cx.ctx(), now) {
                cx.record_at(at, Status::Failure);
                return Ok(Status::Failure);
            }
            cx.record_at(at, Status::Success);
        }
        Ok(Status::Success)
    }

    /// Nothing runs below it: no child to halt.
    fn halt(&mut self, _cx: &mut Cx<'_, RmContext>) {}
}

#[cfg(test)]
mod tests {
    use super::GUARDS;
    use crate::engine::{NodeId, Registry, Status, Tree, TreeSpec, compile, nodes};
    use crate::robomaster::context::RmContext;
    use crate::robomaster::guards;
    use serde_json::json;

    fn registry() -> Registry<RmContext> {
        let mut registry = Registry::new();
        nodes::register_standard(&mut registry);
        guards::register(&mut registry);
        registry
    }

    /// A decision's guards: own waypoint in [1, 2], HP above 100, enemy 0 at waypoint 7,
    /// game time until 300 s.
    fn conditions() -> Vec<TreeSpec> {
        vec![
            TreeSpec::new("at_waypoint").port("ids", json!([1, 2])),
            TreeSpec::new("hp_above").port("value", json!(100)),
            TreeSpec::new("enemy_at")
                .port("slot", json!(0))
                .port("ids", json!([7])),
            TreeSpec::new("time_until").port("value", json!(300)),
        ]
    }

    fn tree(kind: &str, children: Vec<TreeSpec>) -> Result<Tree<RmContext>, String> {
        compile(&TreeSpec::new(kind).with_children(children), &registry())
            .map_err(|errors| format!("{errors:?}"))
    }

    /// The status and the traced children of one tick.
    fn tick(tree: &mut Tree<RmContext>, ctx: &mut RmContext, now: f64) -> (Status, Vec<String>) {
        let status = tree.tick(ctx, now);
        let traced = (1..=4)
            .filter_map(|n| {
                let status = tree.trace().status_of(NodeId(n))?;
                Some(format!("{n}:{status:?}"))
            })
            .collect();
        (status, traced)
    }

    #[test]
    fn decides_and_traces_as_a_sequence_of_the_same_conditions() {
        let mut fused = tree(GUARDS, conditions()).unwrap();
        let mut sequence = tree("Sequence", conditions()).unwrap();
        let mut ctx = RmContext::default();
        let mut seen = Vec::new();
        for waypoint in [None, Some(1), Some(3)] {
            for hp in [50, 200] {
                for enemy_waypoint in [None, Some(7)] {
                    for now in [10.0, 400.0] {
                        ctx.world.waypoint = waypoint;
                        ctx.world.hp = hp;
                        ctx.world.enemies[0].waypoint = enemy_waypoint;
                        let expected = tick(&mut sequence, &mut ctx, now);
                        assert_eq!(
                            tick(&mut fused, &mut ctx, now),
                            expected,
                            "waypoint {waypoint:?}, hp {hp}, enemy at {enemy_waypoint:?}, t {now}"
                        );
                        for n in 1..=4 {
                            assert!(!fused.is_running(NodeId(n)));
                        }
                        seen.push(expected);
                    }
                }
            }
        }
        // The cases reach every outcome: each guard fails first somewhere, and all hold.
        let first_failure = |traced: &Vec<String>| traced.last().cloned();
        for expected in [
            "1:Failure",
            "2:Failure",
            "3:Failure",
            "4:Failure",
            "4:Success",
        ] {
            assert!(
                seen.iter()
                    .any(|(_, traced)| first_failure(traced).as_deref() == Some(expected)),
                "no case ends with {expected}"
            );
        }
        ctx.world.waypoint = Some(2);
        ctx.world.hp = 101;
        ctx.world.enemies[0].waypoint = Some(7);
        assert_eq!(
            tick(&mut fused, &mut ctx, 300.0),
            (
                Status::Success,
                vec![
                    "1:Success".into(),
                    "2:Success".into(),
                    "3:Success".into(),
                    "4:Success".into()
                ]
            )
        );
    }

    #[test]
    fn explains_its_children_as_the_leaves_do() {
        let fused = tree(GUARDS, conditions()).unwrap();
        let mut ctx = RmContext::default();
        ctx.world.waypoint = Some(3);
        assert_eq!(
            fused.explain(NodeId(1), &ctx, 0.0).as_deref(),
            Some("wayPointID: current waypoint 3 not in [1, 2]")
        );
    }

    #[test]
    fn refuses_a_child_that_is_no_literal_guard_leaf() {
        let cases = [
            (
                TreeSpec::new("AlwaysSuccess"),
                "child 1 is a `AlwaysSuccess`: every child of `guards` is a guard leaf \
                 (robot_mode_is, hp_above, hp_at_most, time_after, time_until, \
                 outpost_hp_at_least, outpost_hp_at_most, base_hp_at_least, at_waypoint, \
                 friend_at, enemy_at); use a `Sequence` for other children",
            ),
            (
                TreeSpec::new("hp_above").port("value", json!("{hp_floor}")),
                "child 1 (`hp_above`): port `value` names a blackboard entry, and a child of \
                 `guards` takes literal values only; use a `Sequence` for other children",
            ),
            (
                TreeSpec::new("hp_above").port("value", json!("=")),
                "child 1 (`hp_above`): port `value` names a blackboard entry, and a child of \
                 `guards` takes literal values only; use a `Sequence` for other children",
            ),
            (
                TreeSpec::new("hp_above")
                    .port("value", json!(3))
                    .port("_skipIf", json!("true")),
                "child 1 (`hp_above`) has `_skipIf`: a child of `guards` takes no pre- or \
                 post-condition; use a `Sequence` for other children",
            ),
        ];
        for (child, message) in cases {
            let children = vec![TreeSpec::new("hp_above").port("value", json!(1)), child];
            let error = tree(GUARDS, children).err().unwrap_or_default();
            assert!(error.contains(message), "{error}");
        }
    }
}
