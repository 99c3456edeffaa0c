//! The generic decision engine: a [`TreeSpec`] (plain serde data) is compiled against a
//! [`Registry`] of named leaves into a [`Tree`], which is ticked with a typed context and an
//! injected time, and leaves a [`TickTrace`] of exactly the nodes it ticked.
//!
//! The engine knows nothing of any profile: the RoboMaster and soccer profiles register their
//! leaves and build their `TreeSpec`s. Node ids ([`NodeId`]) are the spec's preorder indices;
//! the rules of each node kind are in [`nodes`].
//!
//! ```
//! use decision_core::engine::{Action, Condition, LeafParams, NodeId, Registry, Status, compile};
//!
//! struct Robot { hp: i64, healed: u32 }
//!
//! struct HpBelow(i64);
//! impl Condition<Robot> for HpBelow {
//!     fn check(&mut self, r: &Robot, _now: f64) -> bool { r.hp < self.0 }
//!     fn explain(&self, r: &Robot, _now: f64) -> String { format!("hp {} < {}", r.hp, self.0) }
//! }
//! struct Heal;
//! impl Action<Robot> for Heal {
//!     fn tick(&mut self, r: &mut Robot, _now: f64) -> Status { r.healed += 1; Status::Running }
//! }
//!
//! let mut registry = Registry::new();
//! registry.condition("hp_below", |p: &LeafParams| {
//!     Ok(Box::new(HpBelow(p.i64("hp")?)) as Box<dyn Condition<Robot>>)
//! });
//! registry.action("heal", |_: &LeafParams| Ok(Box::new(Heal) as Box<dyn Action<Robot>>));
//!
//! let spec = serde_json::from_str(r#"{
//!     "kind": "weighted_selection", "name": "decisions", "children": [
//!         { "kind": "sequence", "name": "go_heal", "params": { "weight": 5 }, "children": [
//!             { "kind": "condition", "name": "hp_below", "params": { "hp": 100 } },
//!             { "kind": "action", "name": "heal" }
//!         ]}
//!     ]
//! }"#).unwrap();
//! let mut tree = compile(&spec, &registry).unwrap();
//! let mut robot = Robot { hp: 80, healed: 0 };
//! assert_eq!(tree.tick(&mut robot, 0.0), Status::Running);
//! assert_eq!(tree.trace().status_of(NodeId(3)), Some(Status::Running)); // `heal`
//! assert_eq!(tree.explain(NodeId(2), &robot, 0.0).as_deref(), Some("hp 80 < 100"));
//! assert_eq!(tree.trace().weighted()[0].chosen, Some(0));
//! ```

pub mod blackboard;
mod compile;
pub mod nodes;
mod registry;
pub mod script;
mod spec;
#[cfg(test)]
mod test_support;
mod trace;
mod tree;

pub use compile::{CompileError, compile};
pub use registry::{Action, Condition, LeafParams, ParamError, Registry};
pub use spec::{NodeKind, SourceSpan, TreeSpec};
pub use trace::{NodeId, TickTrace, TraceEntry, WeightedOutcome};
pub use tree::Tree;

/// Outcome of ticking one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The node reached its goal.
    Success,
    /// The node cannot reach its goal.
    Failure,
    /// The node needs more ticks.
    Running,
}
