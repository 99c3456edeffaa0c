//! `Tree<C>`: a compiled tree, flattened into an arena and ticked with a typed context.

use std::fmt;

use super::registry::{Action, Condition};
use super::trace::{NodeId, TickTrace};
use super::{NodeKind, Status, TreeSpec, nodes};

/// The leaf object of a `condition` or `action` node.
pub(crate) enum Leaf<C> {
    Condition(Box<dyn Condition<C>>),
    Action(Box<dyn Action<C>>),
}

/// One node of the arena: what the tick reads (fixed at compile time) and tick state. Names
/// and parents live in [`Layout`] so the hot nodes stay small.
pub(crate) struct Node<C> {
    pub kind: NodeKind,
    /// This node's children are `Arena::child_ids[first_child..first_child + child_count]`.
    pub first_child: u32,
    pub child_count: u32,
    /// `Some` exactly for `condition` and `action` nodes (guaranteed by `compile`).
    pub leaf: Option<Leaf<C>>,
    /// `weight` param when this node is a child of a `weighted_selection`, else 0.
    pub weight: f64,
    /// Number of leading `condition` children forming the guard when this node is a
    /// `sequence`/`reactive_sequence` child of a `weighted_selection`, else 0. The node's own
    /// tick starts after them (its body).
    pub guard_len: u32,
    /// `parallel` thresholds (unused by other kinds).
    pub success_threshold: u32,
    pub failure_threshold: u32,
    // ---- tick state ----
    /// The node returned `Running` the last time it was ticked and has not been halted since.
    pub running: bool,
    /// Index (among the children) of the running child, for kinds that track one.
    pub running_child: Option<u32>,
    /// `run_once`: the stored result once the child completed.
    pub once: Option<Status>,
    /// When the parent is a `parallel`: this child's result in the parent's current round.
    pub round: Option<Status>,
}

/// The cold per-node data, indexed by node id.
#[derive(Default)]
pub(crate) struct Layout {
    pub names: Vec<String>,
    pub parents: Vec<Option<u32>>,
}

/// The flattened tree: nodes in spec preorder, a flat child-id list, and the trace.
pub(crate) struct Arena<C> {
    pub nodes: Vec<Node<C>>,
    pub child_ids: Vec<NodeId>,
    pub trace: TickTrace,
}

impl<C> Arena<C> {
    /// Node id of child `i` of node `n`.
    pub fn child(&self, n: u32, i: u32) -> u32 {
        let node = &self.nodes[n as usize];
        debug_assert!(i < node.child_count);
        self.child_ids[(node.first_child + i) as usize].0
    }

    pub fn children(&self, n: u32) -> &[NodeId] {
        let node = &self.nodes[n as usize];
        let start = node.first_child as usize;
        &self.child_ids[start..start + node.child_count as usize]
    }

    pub fn node(&self, n: u32) -> &Node<C> {
        &self.nodes[n as usize]
    }

    pub fn node_mut(&mut self, n: u32) -> &mut Node<C> {
        &mut self.nodes[n as usize]
    }
}

/// A compiled behaviour tree over the profile context `C`; built by
/// [`compile`](super::compile).
///
/// Node ids are spec preorder indices (see [`NodeId`]). Accessors taking a `NodeId` panic on an
/// id `>= node_count()`, except [`parent`](Self::parent), [`running_child`](Self::running_child)
/// and [`explain`](Self::explain), which return `None`.
pub struct Tree<C> {
    spec: TreeSpec,
    layout: Layout,
    arena: Arena<C>,
}

impl<C> fmt::Debug for Tree<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tree")
            .field("root", &self.spec.name)
            .field("node_count", &self.node_count())
            .finish_non_exhaustive()
    }
}

impl<C> Tree<C> {
    pub(crate) fn new(
        spec: TreeSpec,
        layout: Layout,
        nodes: Vec<Node<C>>,
        child_ids: Vec<NodeId>,
    ) -> Self {
        let trace = TickTrace::new(nodes.len());
        Self {
            spec,
            layout,
            arena: Arena {
                nodes,
                child_ids,
                trace,
            },
        }
    }

    /// Ticks the tree once at injected time `now` and returns the root's status; the previous
    /// tick's trace is replaced. Allocation-free in steady state.
    pub fn tick(&mut self, ctx: &mut C, now: f64) -> Status {
        self.arena.trace.begin(now);
        nodes::tick(&mut self.arena, 0, ctx, now)
    }

    /// The trace of the last tick.
    pub fn trace(&self) -> &TickTrace {
        &self.arena.trace
    }

    /// For a condition node, [`Condition::explain`] for `ctx` at `now`; `None` for other nodes.
    pub fn explain(&self, node: NodeId, ctx: &C, now: f64) -> Option<String> {
        match &self.arena.nodes.get(node.index())?.leaf {
            Some(Leaf::Condition(c)) => Some(c.explain(ctx, now)),
            _ => None,
        }
    }

    /// Halts everything running (each running action's `halt` runs once) and resets the
    /// composites' memory of running children. `run_once` results are kept.
    pub fn halt(&mut self, ctx: &mut C) {
        nodes::halt(&mut self.arena, 0, ctx);
    }

    /// The spec this tree was compiled from: the layout the viewer draws.
    pub fn spec(&self) -> &TreeSpec {
        &self.spec
    }

    /// Number of nodes; ids are `0..node_count()`.
    pub fn node_count(&self) -> usize {
        self.arena.nodes.len()
    }

    /// All node ids in preorder.
    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> + use<C> {
        (0..self.arena.nodes.len() as u32).map(NodeId)
    }

    /// The kind of node `n`.
    pub fn kind(&self, n: NodeId) -> NodeKind {
        self.arena.node(n.0).kind
    }

    /// The name of node `n` (for leaves, the registry name).
    pub fn name(&self, n: NodeId) -> &str {
        &self.layout.names[n.index()]
    }

    /// The children of node `n` in declaration order.
    pub fn children(&self, n: NodeId) -> &[NodeId] {
        self.arena.children(n.0)
    }

    /// The parent of node `n`; `None` for the root (and for unknown ids).
    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        self.layout
            .parents
            .get(n.index())
            .copied()
            .flatten()
            .map(NodeId)
    }

    /// Whether node `n` returned `Running` on its last tick and has not been halted since.
    pub fn is_running(&self, n: NodeId) -> bool {
        self.arena.node(n.0).running
    }

    /// Index (among its children) of the running child of a `sequence`, `reactive_sequence`,
    /// `selection` or `weighted_selection` node; `None` when no child is running, for other
    /// kinds, and for unknown ids.
    pub fn running_child(&self, n: NodeId) -> Option<usize> {
        let node = self.arena.nodes.get(n.index())?;
        match node.kind {
            NodeKind::Sequence
            | NodeKind::ReactiveSequence
            | NodeKind::Selection
            | NodeKind::WeightedSelection => node.running_child.map(|i| i as usize),
            _ => None,
        }
    }

    /// The `weight` of node `n` when it is a child of a `weighted_selection` (else 0).
    pub fn weight(&self, n: NodeId) -> f64 {
        self.arena.node(n.0).weight
    }

    /// The number of leading guard conditions of node `n` when it is a `sequence` or
    /// `reactive_sequence` child of a `weighted_selection` (else 0).
    pub fn guard_len(&self, n: NodeId) -> usize {
        self.arena.node(n.0).guard_len as usize
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status};

    #[test]
    fn steady_state_ticks_reuse_the_trace_buffers() {
        let mut t = build(node(
            "weighted_selection",
            vec![
                weighted(node("sequence", vec![cond("a"), act("x")]), 1.0),
                weighted(node("reactive_sequence", vec![cond("b"), act("y")]), 2.0),
            ],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        let buffers = |t: &crate::engine::Tree<Ctx>| {
            let tr = &t.arena.trace;
            (
                tr.entries().as_ptr(),
                tr.weighted().as_ptr(),
                tr.entries().len(),
            )
        };
        let first = buffers(&t);
        for k in 1..100 {
            ctx.set("b", k % 2 == 0);
            t.tick(&mut ctx, f64::from(k));
            assert_eq!(buffers(&t).0, first.0);
            assert_eq!(buffers(&t).1, first.1);
        }
        assert_eq!(t.trace().tick_number(), 100);
        assert_eq!(t.trace().now(), 99.0);
        assert_eq!(t.trace().status_of(NodeId(0)), Some(Status::Running));
    }

    #[test]
    fn hot_node_fits_a_cache_line() {
        assert!(std::mem::size_of::<super::Node<Ctx>>() <= 64);
    }
}
