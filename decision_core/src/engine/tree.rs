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

    /// For a condition node, appends [`Condition::explain_into`] to `out` and returns true;
    /// false for other nodes.
    pub fn explain_into(&self, node: NodeId, ctx: &C, now: f64, out: &mut String) -> bool {
        match self
            .arena
            .nodes
            .get(node.index())
            .and_then(|n| n.leaf.as_ref())
        {
            Some(Leaf::Condition(c)) => {
                c.explain_into(ctx, now, out);
                true
            }
            _ => false,
        }
    }

    /// Halts everything running (each running action's `halt` runs once) and resets the
    /// composites' memory of running children. `run_once` results are kept.
    pub fn halt(&mut self, ctx: &mut C) {
        nodes::halt(&mut self.arena, 0, ctx);
    }

    /// Marks the chain `path` as running, as if the last tick had returned `Running` along it,
    /// so the next tick resumes it like any running child (e.g. `weighted_selection`
    /// commitment). Meant for carrying a running decision over to a freshly compiled tree
    /// (hot reload): the adopting action is ticked (or halted) next without a first tick.
    ///
    /// `path` starts at the root, each id a child of the previous, and ends at an `action`;
    /// the nodes between must be composites (a completed `run_once` does not qualify).
    /// Returns `false` and changes nothing when the path is not such a chain or when anything
    /// in the tree is running already.
    pub fn resume_running(&mut self, path: &[NodeId]) -> bool {
        let a = &self.arena;
        let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
            return false;
        };
        let valid_end = a.nodes.get(last.index()).map(|n| n.kind) == Some(NodeKind::Action);
        if first != NodeId(0) || !valid_end || a.node(0).running {
            return false;
        }
        // (parent id, child position) for each step, validated before anything changes.
        let mut steps = Vec::with_capacity(path.len().saturating_sub(1));
        for pair in path.windows(2) {
            let (parent, child) = (pair[0], pair[1]);
            let node = a.node(parent.0);
            let composite = match node.kind {
                NodeKind::Condition | NodeKind::Action => false,
                NodeKind::RunOnce => node.once.is_none(),
                _ => true,
            };
            let Some(i) = a.children(parent.0).iter().position(|&c| c == child) else {
                return false;
            };
            if !composite {
                return false;
            }
            steps.push((parent.0, i as u32));
        }
        for (parent, i) in steps {
            let node = self.arena.node_mut(parent);
            node.running = true;
            node.running_child = Some(i);
        }
        let leaf = self.arena.node_mut(last.0);
        leaf.running = true;
        if let Some(Leaf::Action(action)) = &mut leaf.leaf {
            action.resume();
        }
        true
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
    fn resume_running_adopts_a_running_decision() {
        // 0 weighted, 1 seq (w1), 2 flag a, 3 act x, 4 seq (w2), 5 flag b, 6 act y,
        // 7 seq (w0.5), 8 flag c, 9 act z
        let spec = node(
            "weighted_selection",
            vec![
                weighted(node("sequence", vec![cond("a"), act("x")]), 1.0),
                weighted(node("sequence", vec![cond("b"), act("y")]), 2.0),
                weighted(node("sequence", vec![cond("c"), act("z")]), 0.5),
            ],
        );
        let mut t = build(spec.clone());
        let ids = |v: &[u32]| v.iter().map(|&i| NodeId(i)).collect::<Vec<_>>();
        // Not a chain, not starting at the root, not ending at an action: rejected.
        assert!(!t.resume_running(&ids(&[0, 3])));
        assert!(!t.resume_running(&ids(&[1, 3])));
        assert!(!t.resume_running(&ids(&[0, 1])));
        assert!(!t.resume_running(&[]));
        assert!(!t.is_running(NodeId(0)));

        assert!(t.resume_running(&ids(&[0, 1, 3])));
        assert_eq!(t.running_child(NodeId(0)), Some(0));
        assert!(
            !t.resume_running(&ids(&[0, 4, 6])),
            "something runs already"
        );
        let mut ctx = Ctx::default();
        // Committed although its guard fails (a lighter rule is the best): x is ticked, not
        // restarted.
        ctx.set("c", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(ctx.ticks("x"), 1);
        assert!(t.trace().weighted()[0].kept_running);
        // A heavier rule preempts it and halts the adopted action once.
        ctx.set("b", true);
        t.tick(&mut ctx, 1.0);
        assert_eq!((ctx.halts("x"), ctx.ticks("y")), (1, 1));
    }

    #[test]
    fn hot_node_fits_a_cache_line() {
        assert!(std::mem::size_of::<super::Node<Ctx>>() <= 64);
    }
}
