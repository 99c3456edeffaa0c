//! `Tree<C>`: a compiled tree, ticked with a typed context and an injected time.
//!
//! The core loop lives here and names no node kind: per node it checks BT.CPP 4's
//! pre-conditions (`_failureIf`, `_successIf`, `_skipIf`, `_while`, only while idle, and
//! `_while` again while running), ticks the node's [`Behavior`], runs the post-conditions
//! (`_onSuccess` / `_onFailure`, then `_post`, on a completed result), keeps the node's
//! [`NodeState`] (SKIPPED leaves it as it was) and records the trace.

use super::Status;
use super::blackboard::{Blackboards, ScopeId};
use super::node::{Behavior, Cx, FaultKind, NodeState, TickError};
use super::script::Script;
use super::spec::TreeSpec;
use super::trace::{NodeId, TickTrace};

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

/// Where a node's children are and which blackboard scope its ports use.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Links {
    pub first_child: u32,
    pub child_count: u32,
    pub scope: ScopeId,
}

/// The flattened tree: per-node behaviour, state, links and conditions, indexed by node id.
pub(crate) struct Arena<C> {
    pub behaviors: Vec<Option<Box<dyn Behavior<C>>>>,
    pub states: Vec<NodeState>,
    pub links: Vec<Links>,
    pub child_ids: Vec<u32>,
    pub conditions: Vec<Option<Box<Conditions>>>,
    pub names: Vec<String>,
    pub blackboards: Blackboards,
    pub trace: TickTrace,
    pub tracing: bool,
    pub visits: u64,
    /// An error raised by an `_onHalted` script (halts cannot return one).
    pub pending: Option<TickError>,
}

impl<C> Arena<C> {
    #[inline]
    pub fn state(&self, id: u32) -> NodeState {
        self.states
            .get(id as usize)
            .copied()
            .unwrap_or(NodeState::Idle)
    }

    #[inline]
    pub fn child_count(&self, id: u32) -> usize {
        self.links
            .get(id as usize)
            .map_or(0, |l| l.child_count as usize)
    }

    /// Node id of child `i` of `id`; the caller keeps `i` below `child_count`.
    #[inline]
    pub fn child(&self, id: u32, i: usize) -> u32 {
        let links = self.links[id as usize];
        debug_assert!(i < links.child_count as usize);
        self.child_ids[links.first_child as usize + i]
    }

    #[inline]
    pub fn scope_of(&self, id: u32) -> ScopeId {
        self.links[id as usize].scope
    }

    fn error(&self, id: u32, message: String) -> TickError {
        error_at(&self.names, id, message)
    }

    fn run_script(
        &mut self,
        id: u32,
        pick: fn(&Conditions) -> Option<&Script>,
    ) -> Result<(), TickError> {
        let Some(conditions) = self.conditions[id as usize].as_deref() else {
            return Ok(());
        };
        let Some(script) = pick(conditions) else {
            return Ok(());
        };
        match script.eval(&mut self.blackboards) {
            Ok(_) => Ok(()),
            Err(e) => {
                let message = format!("script `{}`: {}", script.source(), e.message);
                Err(self.error(id, message))
            }
        }
    }

    /// The status decided by a pre-condition, and whether `_while` turned false while running.
    #[inline(never)]
    fn pre_conditions(&mut self, id: u32) -> Result<(Option<Status>, bool), TickError> {
        let state = self.states[id as usize];
        let Some(conditions) = self.conditions[id as usize].as_deref() else {
            return Ok((None, false));
        };
        let check = |script: &Script, bbs: &mut Blackboards| {
            script.eval_bool(bbs).map_err(|e| {
                let message = format!("script `{}`: {}", script.source(), e.message);
                error_at(&self.names, id, message)
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

    /// A node's fault as the tick's error.
    #[cold]
    #[inline(never)]
    pub(crate) fn fault_error(&self, id: u32, fault: super::node::Fault) -> Box<TickError> {
        match *fault.0 {
            FaultKind::Here(message) => Box::new(self.error(id, message)),
            FaultKind::Below(e) => e,
        }
    }

    /// `_onSuccess` / `_onFailure`, then `_post`, after a completed result.
    #[inline(never)]
    fn post_conditions(&mut self, id: u32, status: Status) -> Result<(), Box<TickError>> {
        match status {
            Status::Success => {
                self.run_script(id, |c| c.on_success.as_ref())
                    .map_err(Box::new)?;
                self.run_script(id, |c| c.post.as_ref()).map_err(Box::new)?;
            }
            Status::Failure => {
                self.run_script(id, |c| c.on_failure.as_ref())
                    .map_err(Box::new)?;
                self.run_script(id, |c| c.post.as_ref()).map_err(Box::new)?;
            }
            Status::Running | Status::Skipped => {}
        }
        Ok(())
    }

    /// Ticks node `id`: pre-conditions, its behaviour, post-conditions, state, trace. Most
    /// nodes have no conditions: they take the short path.
    #[inline(always)]
    pub fn tick_node(&mut self, id: u32, ctx: &mut C, now: f64) -> Result<Status, Box<TickError>> {
        self.visits += 1;
        let status = if self.has_conditions(id) {
            self.tick_with_conditions(id, ctx, now)?
        } else {
            self.tick_behavior(id, ctx, now)?
        };
        if let Some(slot) = self.states.get_mut(id as usize) {
            *slot = slot.after(status);
        }
        if self.tracing {
            self.trace.record(id, status);
        }
        Ok(status)
    }

    #[inline]
    fn has_conditions(&self, id: u32) -> bool {
        self.conditions
            .get(id as usize)
            .is_some_and(Option::is_some)
    }

    /// The pre-conditions, the behaviour (unless a pre-condition decided) and the
    /// post-conditions of a node that has conditions.
    #[inline(never)]
    fn tick_with_conditions(
        &mut self,
        id: u32,
        ctx: &mut C,
        now: f64,
    ) -> Result<Status, Box<TickError>> {
        let (decided, halt_first) = self.pre_conditions(id).map_err(Box::new)?;
        if halt_first {
            self.halt_node(id, ctx, now);
        }
        let status = match decided {
            Some(status) => status,
            None => self.tick_behavior(id, ctx, now)?,
        };
        self.post_conditions(id, status)?;
        Ok(status)
    }

    /// Runs node `id`'s behaviour once.
    #[inline(always)]
    fn tick_behavior(&mut self, id: u32, ctx: &mut C, now: f64) -> Result<Status, Box<TickError>> {
        let Some(mut behavior) = self.behaviors.get_mut(id as usize).and_then(Option::take) else {
            return Err(self.reentered(id));
        };
        let result = behavior.tick(&mut Cx {
            arena: self,
            id,
            ctx,
            now,
        });
        if let Some(slot) = self.behaviors.get_mut(id as usize) {
            *slot = Some(behavior);
        }
        result.map_err(|fault| self.fault_error(id, fault))
    }

    /// The error of a node ticked while its own tick is still running.
    #[cold]
    #[inline(never)]
    fn reentered(&self, id: u32) -> Box<TickError> {
        Box::new(self.error(id, "node ticked while it is ticking".to_owned()))
    }

    /// Halts node `id` (its behaviour's halt, then idle, then `_onHalted`). Rare next to
    /// ticks: kept out of line so that the resets around it stay small.
    #[cold]
    #[inline(never)]
    pub fn halt_node(&mut self, id: u32, ctx: &mut C, now: f64) {
        if let Some(mut behavior) = self.behaviors[id as usize].take() {
            behavior.halt(&mut Cx {
                arena: self,
                id,
                ctx,
                now,
            });
            self.behaviors[id as usize] = Some(behavior);
        }
        self.states[id as usize] = NodeState::Idle;
        if let Err(e) = self.run_script(id, |c| c.on_halted.as_ref()) {
            self.pending.get_or_insert(e);
        }
    }

    /// [`halt_and_reset`](Self::halt_and_reset) of the children of `id` from position
    /// `first` on, in order; the children's ids are looked up once (controls reset all their
    /// children after every completed round).
    #[inline]
    pub fn halt_and_reset_children(&mut self, id: u32, first: usize, ctx: &mut C, now: f64) {
        let Some(links) = self.links.get(id as usize).copied() else {
            return;
        };
        let start = (links.first_child as usize).saturating_add(first);
        let end = links.first_child as usize + links.child_count as usize;
        for at in start..end {
            let Some(&child) = self.child_ids.get(at) else {
                return;
            };
            // Usually a completed child: only its state is reset.
            match self.states.get_mut(child as usize) {
                Some(state) if *state != NodeState::Running => *state = NodeState::Idle,
                Some(_) => self.halt_and_reset(child, ctx, now),
                None => {}
            }
        }
    }

    /// BT.CPP's `haltChild`: halt if running, then reset to idle.
    #[inline]
    pub fn halt_and_reset(&mut self, id: u32, ctx: &mut C, now: f64) {
        if self.states[id as usize] == NodeState::Running {
            self.halt_node(id, ctx, now);
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
    pub(crate) arena: Arena<C>,
    pub(crate) spec: TreeSpec,
    pub(crate) root_scope: ScopeId,
}

impl<C> Tree<C> {
    /// Ticks the root once (BT.CPP `tickExactlyOnce`); a completed root is reset to idle.
    pub fn try_tick(&mut self, ctx: &mut C, now: f64) -> Result<Status, TickError> {
        self.arena.trace.begin(now);
        let result = self.arena.tick_node(0, ctx, now);
        if let Some(e) = self.arena.pending.take() {
            return Err(e);
        }
        let status = result.map_err(|e| *e)?;
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
        self.arena
            .behaviors
            .get(n.index())?
            .as_ref()?
            .running_child()
    }

    /// The label of node `n`.
    pub fn name(&self, n: NodeId) -> Option<&str> {
        self.arena.names.get(n.index()).map(String::as_str)
    }

    /// Explains node `n`'s result for `ctx` in words (conditions), if its kind can.
    pub fn explain(&self, n: NodeId, ctx: &C, now: f64) -> Option<String> {
        let mut out = String::new();
        self.explain_into(n, ctx, now, &mut out).then_some(out)
    }

    /// Appends the explanation of node `n` to `out`; false when it has none.
    pub fn explain_into(&self, n: NodeId, ctx: &C, now: f64, out: &mut String) -> bool {
        match self.arena.behaviors.get(n.index()) {
            Some(Some(b)) => b.explain_into(ctx, now, out),
            _ => false,
        }
    }

    /// Whether node `n`'s explanations never need JSON escapes (false when unknown).
    pub fn explanation_is_json_safe(&self, n: NodeId) -> bool {
        match self.arena.behaviors.get(n.index()) {
            Some(Some(b)) => b.explanation_is_json_safe(),
            _ => false,
        }
    }

    /// Halts the tree as BT.CPP does when a tree is destroyed: the root is halted, then every
    /// node once more in preorder (each behaviour's halt and its `_onHalted` script), and
    /// every node is left idle. BT.CPP aborts the process when an `_onHalted` script throws
    /// there; this returns the first such error instead, with the node that raised it.
    pub fn halt_as_destroyed(&mut self, ctx: &mut C) -> Result<(), TickError> {
        let now = self.arena.trace.now();
        self.arena.pending = None;
        self.arena.halt_and_reset(0, ctx, now);
        for id in 0..self.arena.behaviors.len() as u32 {
            self.arena.halt_node(id, ctx, now);
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
        self.arena.halt_and_reset(0, ctx, now);
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
            || self.arena.child_count(last.0) != 0
            || self.arena.states.contains(&NodeState::Running)
        {
            return false;
        }
        let mut steps = Vec::with_capacity(path.len());
        for pair in path.windows(2) {
            let (parent, child) = (pair[0].0, pair[1].0);
            let position =
                (0..self.arena.child_count(parent)).find(|&i| self.arena.child(parent, i) == child);
            let Some(position) = position else {
                return false;
            };
            steps.push((parent, Some(position)));
        }
        steps.push((last.0, None));
        let all_can = steps.iter().all(|&(node, _)| {
            self.arena.behaviors[node as usize]
                .as_ref()
                .is_some_and(|b| b.can_resume())
        });
        if !all_can {
            return false;
        }
        for &(node, child) in &steps {
            if let Some(b) = self.arena.behaviors[node as usize].as_mut() {
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
        self.arena
            .behaviors
            .get(n.index())?
            .as_deref()?
            .as_any()?
            .downcast_ref::<T>()
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
