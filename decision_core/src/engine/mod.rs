//! The generic decision engine: a [`TreeSpec`] (plain serde data) is compiled against a
//! [`Registry`] of node kinds into a [`Tree`], which is ticked with a typed context and an
//! injected time, and leaves a [`TickTrace`] of exactly the nodes it ticked.
//!
//! Every node kind is a plug-in ([`Behavior`] plus a [`NodeModel`] of children and ports):
//! the core ([`compile`], the tick loop in [`tree`], halting, the trace) names no kind. The
//! standard library ([`nodes`]) carries BehaviorTree.CPP 4's names and semantics; a profile
//! registers its own leaves and controls next to it. Ports read and write typed values on
//! [`blackboard`]s with subtree scopes; [`script`] is BT.CPP's script language used by
//! `Script` nodes and the pre/post conditions every node accepts. Node ids ([`NodeId`]) are
//! the spec's preorder indices.
//!
//! ```
//! use decision_core::engine::{Action, Condition, LeafParams, NodeId, PortDecl, Registry, Status, TreeSpec, compile, nodes};
//! use decision_core::engine::blackboard::EntryType;
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
//! nodes::register_standard(&mut registry);
//! let hp = PortDecl::input("hp", EntryType::Int, "the HP below which the robot heals");
//! registry.condition("hp_below", vec![hp], |p: &LeafParams| {
//!     Ok(Box::new(HpBelow(p.i64("hp")?)) as Box<dyn Condition<Robot>>)
//! });
//! registry.action("heal", Vec::new(), |_: &LeafParams| {
//!     Ok(Box::new(Heal) as Box<dyn Action<Robot>>)
//! });
//!
//! let spec: TreeSpec = serde_json::from_str(r#"{
//!     "type": "ReactiveSequence", "name": "go_heal", "children": [
//!         { "type": "hp_below", "ports": { "hp": 100 } },
//!         { "type": "heal" }
//!     ]
//! }"#).unwrap();
//! let mut tree = compile(&spec, &registry).unwrap();
//! let mut robot = Robot { hp: 80, healed: 0 };
//! assert_eq!(tree.tick(&mut robot, 0.0), Status::Running);
//! assert_eq!(tree.trace().status_of(NodeId(2)), Some(Status::Running)); // `heal`
//! assert_eq!(tree.explain(NodeId(1), &robot, 0.0).as_deref(), Some("hp 80 < 100"));
//! ```

#[cfg(feature = "bench-leaves")]
pub mod bench_leaves;
pub mod blackboard;
mod bound_leaf;
mod compile;
pub mod node;
pub mod nodes;
mod port_values;
mod registry;
pub mod script;
mod spec;
#[cfg(test)]
mod test_support;
mod trace;
pub mod tree;

pub use compile::{CompileError, NodeBuilder, compile, compile_owned, compile_with};
pub use node::{Behavior, Cx, Fault, FaultKind, NodeState, Port, TickError};
pub use port_values::PortValues;
pub use registry::{
    Action, Category, Children, Condition, LeafParams, NodeModel, ParamError, PortDecl,
    PortDirection, Registry,
};
pub use spec::{SourceSpan, TreeSpec};
pub use trace::{NodeId, TickTrace, TraceEntry};
pub use tree::Tree;

/// Outcome of ticking one node (BT.CPP's SUCCESS, FAILURE, RUNNING, SKIPPED).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The node reached its goal.
    Success = 0,
    /// The node cannot reach its goal.
    Failure = 1,
    /// The node needs more ticks.
    Running = 2,
    /// The node was skipped (a pre-condition, or all its children skipped); its parent passes
    /// over it.
    Skipped = 3,
}

impl Status {
    /// The status whose discriminant is `bits` (a packed trace slot's); any other value reads
    /// as `Skipped`. The test `from_bits_inverts_the_discriminants` keeps the two in step.
    #[inline]
    pub(crate) fn from_bits(bits: u8) -> Status {
        match bits {
            0 => Status::Success,
            1 => Status::Failure,
            2 => Status::Running,
            _ => Status::Skipped,
        }
    }

    /// BT.CPP's upper-case name (`SUCCESS`, `FAILURE`, `RUNNING`, `SKIPPED`).
    pub fn as_upper(self) -> &'static str {
        match self {
            Status::Success => "SUCCESS",
            Status::Failure => "FAILURE",
            Status::Running => "RUNNING",
            Status::Skipped => "SKIPPED",
        }
    }

    /// Whether the node completed (success or failure).
    pub fn is_completed(self) -> bool {
        matches!(self, Status::Success | Status::Failure)
    }
}
