//! `Tree<C>`: a compiled tree, ticked with a typed context and an injected time.
//!
//! The core loop lives here and names no node kind: per node it checks BT.CPP 4's
//! pre-conditions (`_failureIf`, `_successIf`, `_skipIf`, `_while`, only while idle, and
//! `_while` again while running), ticks the node's [`Behavior`], runs the post-conditions
//! (`_onSuccess` / `_onFailure`, then `_post`, on a completed result), keeps the node's
//! [`NodeState`] (SKIPPED leaves it as it was) and records the trace.
//!
//! A compiled tree is three parts: its [`Shape`] (links, child lists, conditions, labels:
//! fixed after compiling, read while ticking), its [`Arena`] (what ticking changes: node
//! states, blackboards, trace) and the behaviours, one per node in preorder. A node's
//! descendants come after it in preorder, so a node ticks with its own behaviour borrowed
//! and the slice of the behaviours after it lent to its children: no behaviour is moved out
//! and back per visit, and no node can reach its own behaviour twice.

use super::Status;
use super::blackboard::{Blackboards, ScopeId};
use super::node::{Behavior, Cx, Fault, FaultKind, NodeState, TickError};
use super::script::Script;
use super::spec::TreeSpec;
use super::trace::{NodeId, TickTrace};

/// The behaviours of the nodes from one id on, in preorder (the first one is that node's).
pub(crate) type Behaviors<C> = [Box<dyn Behavior<C>>];

/// The pre- and post-condition scripts of one node (most nodes have none).
#[derive(Default)]
pub(crate) struct Conditions {
    /// `_failureIf`, `_successIf`, `_skipIf`, `_while`, in BT.CPP's order of evaluation.
    pub pre: [Option<Script>; 4],
    pub on_success: Option<Script>,
    pub on_failure: Option<Script>,
    pub post: Option<Script>,
    pub on_halted: Option<Script>,
}

pub(crate) const FAILURE_IF: usize = 0;
pub(crate) const SUCCESS_IF: usize = 1;
pub(crate) const SKIP_IF: usize = 2;
pub(crate) const WHILE: usize = 3;

impl Conditions {
    /// Whether any script is present.
    pub fn is_empty(&self) -> bool {
        self.pre.iter().all(Option::is_none)
            && self.on_success.is_none()
            && self.on_failure.is_none()
            && self.post.is_none()
            && self.on_halted.is_none()
    }
}

/// Where a node's children are, which blackboard scope its ports use, and whether it has
/// pre/post conditions (read on every visit, so kept beside the links).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Links {
    /// The node's children are `child_ids[children_start..children_end]`.
    pub children_start: u32,
    pub children_end: u32,
    pub scope: ScopeId,
    pub has_conditions: bool,
}

/// The fixed shape of a compiled tree, indexed by node id: read-only while ticking.
pub(crate) struct Shape {
    pub links: Vec<Links>,
    pub child_ids: Vec<u32>,
    pub conditions: Vec<Option<Box<Conditions>>>,
    pub names: Vec<String>,
}

impl Shape {
    /// The ids of node `id`'s children (empty for an unknown id).
    #[inline]
    pub fn children(&self, id: u32) -> &[u32] {
        self.links
            .get(id as usize)
            .map_or(&[], |links| self.children_of(links))
    }

    /// The ids of the children of the node with `links`.
    #[inline(always)]
    pub fn children_of(&self, links: &Links) -> &[u32] {
        self.child_ids
            .get(links.children_start as usize..links.children_end as usize)
            .unwrap_or(&[])
    }

    #[inline]
    pub fn child_count(&self, id: u32) -> usize {
        self.links.get(id as usize).map_or(0, |l| {
            l.children_end.saturating_sub(l.children_start) as usize
        })
    }

    #[inline]
    pub fn scope_of(&self, id: u32) -> ScopeId {
        self.links[id as usize].scope
    }

    fn error(&self, id: u32, message: String) -> TickError {
        error_at(&self.names, id, message)
    }

    /// Node `id`'s fault as the tick's error (a descendant's passes unchanged).
    #[cold]
    #[inline(never)]
    pub(crate) fn fault_error(&self, id: u32, fault: Fault) -> Box<TickError> {
        match *fault.0 {
            FaultKind::Here(message) => Box::new(self.error(id, message)),
            FaultKind::Below(e) => e,
        }
    }

    /// Node `id`'s fault, located: its own message becomes an error naming it, so that its
    /// ancestors pass it up unchanged.
    #[cold]
    #[inline(never)]
    fn locate(&self, id: u32, fault: Fault) -> Fault {
        if matches!(fault.kind(), FaultKind::Below(_)) {
            return fault;
        }
        Fault::below(*self.fault_error(id, fault))
    }

    /// The error of a node whose behaviour is not where the preorder says (a broken tree).
    #[cold]
    #[inline(never)]
    fn misplaced(&self, id: u32) -> TickError {
        self.error(id, "node ticked outside its parent's subtree".to_owned())
    }
}

/// What ticking changes: per-node states, the blackboards, the trace and the counters.
pub(crate) struct Arena {
    pub states: Vec<NodeState>,
    pub blackboards: Blackboards,
    pub trace: TickTrace,
    pub tracing: bool,
    pub visits: u64,
    /// An error raised by an `_onHalted` script (halts cannot return one).
    pub pending: Option<TickError>,
}

impl Arena {
    #[inline]
    pub fn state(&self, id: u32) -> NodeState {
        self.states
            .get(id as usize)
            .copied()
            .unwrap_or(NodeState::Idle)
    }

    fn run_script(
        &mut self,
        shape: &Shape,
        id: u32,
        pick: fn(&Conditions) -> Option<&Script>,
    ) -> Result<(), TickError> {
        let Some(conditions) = shape.conditions[id as usize].as_deref() else {
            return Ok(());
        };
        let Some(script) = pick(conditions) else {
            return Ok(());
        };
        match script.eval(&mut self.blackboards) {
            Ok(_) => Ok(()),
            Err(e) => {
                let message = format!("script `{}`: {}", script.source(), e.message);
                Err(shape.error(id, message))
            }
        }
    }

    /// The status decided by a pre-condition, and whether `_while` turned false while running.
    #[inline(never)]
    fn pre_conditions(
        &mut self,
        shape: &Shape,
        id: u32,
    ) -> Result<(Option<Status>, bool), TickError> {
        let state = self.states[id as usize];
        let Some(conditions) = shape.conditions[id as usize].as_deref() else {
            return Ok((None, false));
        };
        let check = |script: &Script, bbs: &mut Blackboards| {
            script.eval_bool(bbs).map_err(|e| {
                let message = format!("script `{}`: {}", script.source(), e.message);
                shape.error(id, message)
            })
        };
        match state {
            NodeState::Idle => {
                for (k, script) in conditions.pre.iter().enumerate() {
                    let Some(script) = script else { continue };
                    let holds = check(script, &mut self.blackboards)?;
                    let decided = match k {
                        FAILURE_IF if holds => Some(Status::Failure),
                        SUCCESS_IF if holds => Some(Status::Success),
                        SKIP_IF if holds => Some(Status::Skipped),
                        WHILE if !holds => Some(Status::Skipped),
                        _ => None,
                    };
                    if decided.is_some() {
                        return Ok((decided, false));
                    }
                }
                Ok((None, false))
            }
            NodeState::Running => match &conditions.pre[WHILE] {
                Some(script) => {
                    let holds = check(script, &mut self.blackboards)?;
                    Ok(if holds {
                        (None, false)
                    } else {
                        (Some(Status::Skipped), true)
                    })
                }
                None => Ok((None, false)),
            },
            NodeState::Success | NodeState::Failure => Ok((None, false)),
        }
    }

    /// `_onSuccess` / `_onFailure`, then `_post`, after a completed result.
    #[inline(never)]
    fn post_conditions(&mut self, shape: &Shape, id: u32, status: Status) -> Result<(), TickError> {
        let first: fn(&Conditions) -> Option<&Script> = match status {
            Status::Success => |c| c.on_success.as_ref(),
            Status::Failure => |c| c.on_failure.as_ref(),
            Status::Running | Status::Skipped => return Ok(()),
        };
        self.run_script(shape, id, first)?;
        self.run_script(shape, id, |c| c.post.as_ref())
    }

    /// Ticks node `id`, whose behaviour is the first of `from`: pre-conditions, its
    /// behaviour, post-conditions, state, trace. Most nodes have no conditions: they take the
    /// short path.
    #[inline(always)]
    pub fn tick_node<C>(
        &mut self,
        shape: &Shape,
        from: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
        now: f64,
    ) -> Result<Status, Fault> {
        self.visits += 1;
        let Some((behavior, below)) = from.split_first_mut() else {
            return Err(Fault::below(shape.misplaced(id)));
        };
        let Some(links) = shape.links.get(id as usize) else {
            return Err(Fault::below(shape.misplaced(id)));
        };
        let status = if links.has_conditions {
            self.tick_with_conditions(shape, behavior.as_mut(), below, id, ctx, now)?
        } else {
            let cx = Cx {
                children: shape.children_of(links),
                arena: self,
                shape,
                below,
                id,
                ctx,
                now,
            };
            Self::tick_behavior(behavior.as_mut(), cx)?
        };
        if let Some(slot) = self.states.get_mut(id as usize) {
            *slot = slot.after(status);
        }
        if self.tracing {
            self.trace.record(id, status);
        }
        Ok(status)
    }

    /// The pre-conditions, the behaviour (unless a pre-condition decided) and the
    /// post-conditions of a node that has conditions.
    #[inline(never)]
    fn tick_with_conditions<C>(
        &mut self,
        shape: &Shape,
        behavior: &mut dyn Behavior<C>,
        below: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
        now: f64,
    ) -> Result<Status, Fault> {
        let (decided, halt_first) = self.pre_conditions(shape, id).map_err(Fault::below)?;
        if halt_first {
            self.halt_behavior(shape, behavior, below, id, ctx, now);
        }
        let status = match decided {
            Some(status) => status,
            None => {
                let cx = Cx {
                    children: shape.children(id),
                    arena: self,
                    shape,
                    below,
                    id,
                    ctx,
                    now,
                };
                Self::tick_behavior(behavior, cx)?
            }
        };
        self.post_conditions(shape, id, status)
            .map_err(Fault::below)?;
        Ok(status)
    }

    /// Runs a node's behaviour once in `cx` (which lends it the behaviours below it).
    #[inline(always)]
    fn tick_behavior<C>(
        behavior: &mut dyn Behavior<C>,
        mut cx: Cx<'_, C>,
    ) -> Result<Status, Fault> {
        let (shape, id) = (cx.shape, cx.id);
        behavior
            .tick(&mut cx)
            .map_err(|fault| shape.locate(id, fault))
    }

    /// Halts node `id`, whose behaviour is the first of `from` (its behaviour's halt, then
    /// idle, then `_onHalted`). Rare next to ticks: kept out of line so that the resets
    /// around it stay small.
    #[cold]
    #[inline(never)]
    pub fn halt_node<C>(
        &mut self,
        shape: &Shape,
        from: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
        now: f64,
    ) {
        match from.split_first_mut() {
            Some((behavior, below)) => {
                self.halt_behavior(shape, behavior.as_mut(), below, id, ctx, now);
            }
            None => {
                self.pending.get_or_insert(shape.misplaced(id));
            }
        }
    }

    /// [`halt_node`](Self::halt_node) with the behaviour already split from those below it.
    fn halt_behavior<C>(
        &mut self,
        shape: &Shape,
        behavior: &mut dyn Behavior<C>,
        below: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
        now: f64,
    ) {
        behavior.halt(&mut Cx {
            children: shape.children(id),
            arena: self,
            shape,
            below,
            id,
            ctx,
            now,
        });
        self.states[id as usize] = NodeState::Idle;
        if let Err(e) = self.run_script(shape, id, |c| c.on_halted.as_ref()) {
            self.pending.get_or_insert(e);
        }
    }

    /// BT.CPP's `haltChild` of node `id` (the first of `from`): halt if running, then reset
    /// to idle.
    #[inline]
    pub fn halt_and_reset<C>(
        &mut self,
        shape: &Shape,
        from: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
        now: f64,
    ) {
        if self.states[id as usize] == NodeState::Running {
            self.halt_node(shape, from, id, ctx, now);
        }
        self.states[id as usize] = NodeState::Idle;
    }
}

/// A runtime error of node `id`, named by its label.
#[cold]
#[inline(never)]
fn error_at(names: &[String], id: u32, message: String) -> TickError {
    TickError {
        node: NodeId(id),
        node_name: names.get(id as usize).cloned().unwrap_or_default(),
        message,
    }
}

/// A compiled tree: tick it with the profile's context and the injected time.
pub struct Tree<C> {
    pub(crate) arena: Arena,
    pub(crate) shape: Shape,
    pub(crate) behaviors: Vec<Box<dyn Behavior<C>>>,
    pub(crate) spec: TreeSpec,
    pub(crate) root_scope: ScopeId,
}

impl<C> Tree<C> {
    /// Ticks the root once (BT.CPP `tickExactlyOnce`); a completed root is reset to idle.
    pub fn try_tick(&mut self, ctx: &mut C, now: f64) -> Result<Status, TickError> {
        self.arena.trace.begin(now);
        let result = self
            .arena
            .tick_node(&self.shape, &mut self.behaviors, 0, ctx, now);
        if let Some(e) = self.arena.pending.take() {
            return Err(e);
        }
        let status = result.map_err(|e| *self.shape.fault_error(0, e))?;
        if matches!(status, Status::Success | Status::Failure) {
            self.arena.states[0] = NodeState::Idle;
        }
        Ok(status)
    }

    /// Ticks the root once; for profiles whose nodes raise no runtime errors (no scripts),
    /// where an error would be a broken invariant (it reads as `Failure`).
    pub fn tick(&mut self, ctx: &mut C, now: f64) -> Status {
        match self.try_tick(ctx, now) {
            Ok(status) => status,
            Err(e) => {
                debug_assert!(false, "tick error in a tree without scripts: {e}");
                Status::Failure
            }
        }
    }

    /// The trace of the last tick.
    pub fn trace(&self) -> &TickTrace {
        &self.arena.trace
    }

    /// Turns the per-node trace on or off (on by default); off, a tick records nothing.
    pub fn set_tracing(&mut self, on: bool) {
        self.arena.tracing = on;
    }

    /// Node ticks entered since the tree was built (a tick's visits are the difference).
    pub fn visits(&self) -> u64 {
        self.arena.visits
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.arena.states.len()
    }

    /// The status node `n` is in between ticks.
    pub fn state(&self, n: NodeId) -> NodeState {
        self.arena.state(n.0)
    }

    /// Whether node `n` is running.
    pub fn is_running(&self, n: NodeId) -> bool {
        self.state(n) == NodeState::Running
    }

    /// The position of the child node `n` keeps running (kinds that track one).
    pub fn running_child(&self, n: NodeId) -> Option<usize> {
        self.behaviors.get(n.index())?.running_child()
    }

    /// The label of node `n`.
    pub fn name(&self, n: NodeId) -> Option<&str> {
        self.shape.names.get(n.index()).map(String::as_str)
    }

    /// Explains node `n`'s result for `ctx` in words (conditions), if its kind can.
    pub fn explain(&self, n: NodeId, ctx: &C, now: f64) -> Option<String> {
        let mut out = String::new();
        self.explain_into(n, ctx, now, &mut out).then_some(out)
    }

    /// Appends the explanation of node `n` to `out`; false when it has none.
    pub fn explain_into(&self, n: NodeId, ctx: &C, now: f64, out: &mut String) -> bool {
        self.behaviors
            .get(n.index())
            .is_some_and(|b| b.explain_into(ctx, now, out))
    }

    /// Whether node `n`'s explanations never need JSON escapes (false when unknown).
    pub fn explanation_is_json_safe(&self, n: NodeId) -> bool {
        self.behaviors
            .get(n.index())
            .is_some_and(|b| b.explanation_is_json_safe())
    }

    /// Halts the tree as BT.CPP does when a tree is destroyed: the root is halted, then every
    /// node once more in preorder (each behaviour's halt and its `_onHalted` script), and
    /// every node is left idle. BT.CPP aborts the process when an `_onHalted` script throws
    /// there; this returns the first such error instead, with the node that raised it.
    pub fn halt_as_destroyed(&mut self, ctx: &mut C) -> Result<(), TickError> {
        let now = self.arena.trace.now();
        self.arena.pending = None;
        self.arena
            .halt_and_reset(&self.shape, &mut self.behaviors, 0, ctx, now);
        for at in 0..self.behaviors.len() {
            let id = u32::try_from(at).unwrap_or(u32::MAX);
            self.arena
                .halt_node(&self.shape, &mut self.behaviors[at..], id, ctx, now);
        }
        self.arena.states.fill(NodeState::Idle);
        match self.arena.pending.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Halts everything running and resets every node to idle, also completed nodes that a
    /// parent left unreset (kinds keep the memory BT.CPP keeps across a halt, e.g. `RunOnce`'s
    /// result and `SequenceWithMemory`'s position).
    pub fn halt(&mut self, ctx: &mut C) {
        let now = self.arena.trace.now();
        self.arena
            .halt_and_reset(&self.shape, &mut self.behaviors, 0, ctx, now);
        self.arena.states.fill(NodeState::Idle);
        self.arena.pending = None;
    }

    /// Marks the chain `path` as running, as if the last tick had returned `Running` along it,
    /// so the next tick resumes it (hot reload carries a running decision into a freshly
    /// compiled tree). `path` starts at the root, each id a child of the previous, and ends at
    /// a leaf; every node on it must be able to resume ([`Behavior::can_resume`]). Returns false and changes
    /// nothing otherwise, or when anything runs already.
    pub fn resume_running(&mut self, path: &[NodeId]) -> bool {
        let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
            return false;
        };
        if first != NodeId(0)
            || last.index() >= self.node_count()
            || self.shape.child_count(last.0) != 0
            || self.arena.states.contains(&NodeState::Running)
        {
            return false;
        }
        let mut steps = Vec::with_capacity(path.len());
        for pair in path.windows(2) {
            let (parent, child) = (pair[0].0, pair[1].0);
            let position = self.shape.children(parent).iter().position(|&c| c == child);
            let Some(position) = position else {
                return false;
            };
            steps.push((parent, Some(position)));
        }
        steps.push((last.0, None));
        let all_can = steps.iter().all(|&(node, _)| {
            self.behaviors
                .get(node as usize)
                .is_some_and(|b| b.can_resume())
        });
        if !all_can {
            return false;
        }
        for &(node, child) in &steps {
            if let Some(b) = self.behaviors.get_mut(node as usize) {
                b.resume(child);
            }
            self.arena.states[node as usize] = NodeState::Running;
        }
        true
    }

    /// The behaviour of node `n` as its kind's type `T`, for kinds that expose themselves with
    /// [`Behavior::as_any`] (a profile reads what one of its controls decided, e.g.
    /// `weighted_selection`'s best rule); `None` for another kind.
    pub fn behavior<T: 'static>(&self, n: NodeId) -> Option<&T> {
        self.behaviors.get(n.index())?.as_any()?.downcast_ref::<T>()
    }

    /// The spec this tree was compiled from: the layout the viewer draws.
    pub fn spec(&self) -> &TreeSpec {
        &self.spec
    }

    /// The tree's blackboards.
    pub fn blackboard(&self) -> &Blackboards {
        &self.arena.blackboards
    }

    /// The tree's blackboards, mutably (e.g. to write inputs before a tick).
    pub fn blackboard_mut(&mut self) -> &mut Blackboards {
        &mut self.arena.blackboards
    }

    /// The root blackboard scope.
    pub fn root_scope(&self) -> ScopeId {
        self.root_scope
    }
}
