//! `Tree<C>`: a compiled tree, ticked with a typed context and an injected time.
//!
//! The core loop lives here and names no node kind: per node it checks BT.CPP 4's
//! pre-conditions (`_failureIf`, `_successIf`, `_skipIf`, `_while`, only while idle, and
//! `_while` again while running), ticks the node's [`Behavior`], runs the post-conditions
//! (`_onSuccess` / `_onFailure`, then `_post`, on a completed result), keeps the node's
//! [`NodeState`] (SKIPPED leaves it as it was) and records the trace.
//!
//! A compiled tree is two parts: its [`Arena`] (the [`Shape`]: links, child lists,
//! conditions, labels, fixed after compiling; and what ticking changes: blackboards, trace,
//! time) and its [`Slot`]s, one per node in preorder: the node's behaviour, its
//! [`NodeState`] and where its children are, side by side for the visit. A node's descendants come after
//! it in preorder, so a node ticks with its own slot borrowed and the slots after it lent to
//! its children: no behaviour is moved out and back per visit, and no node can reach its own
//! behaviour twice.

use super::Status;
use super::blackboard::{Blackboards, ScopeId};
use super::node::{Behavior, Cx, Fault, FaultKind, NodeState, TickError};
use super::script::Script;
use super::spec::TreeSpec;
use super::trace::{NodeId, TickTrace};

/// One node as the tick loop holds it: its behaviour, its status between ticks, its children
/// and its pre/post-condition scripts (most nodes have none).
pub(crate) struct Slot<C> {
    pub behavior: Box<dyn Behavior<C>>,
    pub state: NodeState,
    /// Where the node's children are among the slots after it (a child's id minus the node's
    /// id minus one): its list in the [`Shape`], kept here in this form so that a visit lends
    /// it to the node's [`Cx`] as it is and a child's slot is found without arithmetic.
    pub children: Box<[u32]>,
    pub conditions: Option<Box<Conditions>>,
}

/// The slots of the nodes from one id on, in preorder (the first one is that node's).
pub(crate) type Behaviors<C> = [Slot<C>];

/// The pre- and post-condition scripts of one node.
#[derive(Default)]
pub(crate) struct Conditions {
    /// `_failureIf`, `_successIf`, `_skipIf`, `_while`, in BT.CPP's order of evaluation.
    pub pre: [Option<Script>; 4],
    pub on_success: Option<Script>,
    pub on_failure: Option<Script>,
    pub post: Option<Script>,
    pub on_halted: Option<Script>,
    /// Bit `k` is set when `pre[k]` holds a script ([`Conditions::seal`] sets it).
    pub pre_present: u8,
}

pub(crate) const FAILURE_IF: usize = 0;
pub(crate) const SUCCESS_IF: usize = 1;
pub(crate) const SKIP_IF: usize = 2;
pub(crate) const WHILE: usize = 3;

impl Conditions {
    /// Records which pre-conditions are present, once they are all set.
    pub fn seal(&mut self) {
        self.pre_present = self
            .pre
            .iter()
            .enumerate()
            .filter(|(_, script)| script.is_some())
            .fold(0, |mask, (k, _)| mask | 1 << k);
    }

    /// Whether any script is present.
    pub fn is_empty(&self) -> bool {
        self.pre.iter().all(Option::is_none)
            && self.on_success.is_none()
            && self.on_failure.is_none()
            && self.post.is_none()
            && self.on_halted.is_none()
    }

    /// What the pre-conditions of a node in `state` decide: BT.CPP checks them only while
    /// idle, and `_while` again while running (false then halts the node first). A node
    /// whose only pre-condition is `_while` (the usual guard) decides idle as it does
    /// running, without the walk over the pre-conditions ([`Conditions::pre_idle`]).
    #[inline]
    fn pre(&self, state: NodeState, bbs: &mut Blackboards) -> Result<Pre, Fault> {
        let running = match state {
            NodeState::Idle if self.pre_present != 1 << WHILE => return self.pre_idle(bbs),
            NodeState::Idle => false,
            NodeState::Running => true,
            NodeState::Success | NodeState::Failure => return Ok(Pre::Tick),
        };
        match &self.pre[WHILE] {
            Some(script) if !holds(script, bbs)? => Ok(if running {
                Pre::HaltThenSkip
            } else {
                Pre::Decided(Status::Skipped)
            }),
            _ => Ok(Pre::Tick),
        }
    }

    /// What the pre-conditions of an idle node decide: the first that decides, in BT.CPP's
    /// order.
    #[inline]
    fn pre_idle(&self, bbs: &mut Blackboards) -> Result<Pre, Fault> {
        let mut present = self.pre_present;
        while present != 0 {
            let k = present.trailing_zeros() as usize;
            present &= present - 1;
            let Some(Some(script)) = self.pre.get(k) else {
                continue;
            };
            let holds = holds(script, bbs)?;
            let decided = match k {
                FAILURE_IF if holds => Status::Failure,
                SUCCESS_IF if holds => Status::Success,
                SKIP_IF if holds => Status::Skipped,
                WHILE if !holds => Status::Skipped,
                _ => continue,
            };
            return Ok(Pre::Decided(decided));
        }
        Ok(Pre::Tick)
    }

    /// `_onSuccess` / `_onFailure`, then `_post`, after a completed result.
    #[inline]
    fn post(&self, status: Status, bbs: &mut Blackboards) -> Result<(), String> {
        let first = match status {
            Status::Success => &self.on_success,
            Status::Failure => &self.on_failure,
            Status::Running | Status::Skipped => return Ok(()),
        };
        if first.is_none() && self.post.is_none() {
            return Ok(());
        }
        run(first, bbs)?;
        run(&self.post, bbs)
    }
}

/// What a node's pre-conditions decide before its tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pre {
    /// None decided: the node ticks.
    Tick,
    /// A pre-condition decided the node's result; it does not tick.
    Decided(Status),
    /// `_while` turned false while the node was running: it is halted, then skipped.
    HaltThenSkip,
}

/// Whether the condition `script` holds (a fault in words names the script). The usual guard
/// is decided in line by the script's fast path, the rest by its general evaluator.
#[inline(always)]
fn holds(script: &Script, bbs: &mut Blackboards) -> Result<bool, Fault> {
    match script.quick_bool(bbs) {
        Some(holds) => Ok(holds),
        None => holds_in_general(script, bbs),
    }
}

/// [`holds`] by the script's general evaluator.
#[cold]
#[inline(never)]
fn holds_in_general(script: &Script, bbs: &mut Blackboards) -> Result<bool, Fault> {
    script
        .eval_bool(bbs)
        .map_err(|e| Fault::from(format!("script `{}`: {}", script.source(), e.message)))
}

/// Runs `script` if there is one (an error in words names the script).
fn run(script: &Option<Script>, bbs: &mut Blackboards) -> Result<(), String> {
    match script {
        Some(script) => script
            .eval(bbs)
            .map(|_| ())
            .map_err(|e| format!("script `{}`: {}", script.source(), e.message)),
        None => Ok(()),
    }
}

/// Where a node's children are in the shape's list of child ids.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Links {
    /// The node's children are `child_ids[children_start..][..child_count]`.
    pub children_start: u32,
    pub child_count: u32,
}

impl Links {
    /// The number of children.
    #[inline(always)]
    pub fn child_count(&self) -> usize {
        self.child_count as usize
    }
}

/// The fixed shape of a compiled tree, indexed by node id: read-only while ticking.
pub(crate) struct Shape {
    pub links: Vec<Links>,
    pub child_ids: Vec<u32>,
    /// Per node, the blackboard scope its ports resolve in.
    pub scopes: Vec<ScopeId>,
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
        let start = links.children_start as usize;
        self.child_ids
            .get(start..start + links.child_count())
            .unwrap_or(&[])
    }

    #[inline]
    pub fn child_count(&self, id: u32) -> usize {
        self.links.get(id as usize).map_or(0, Links::child_count)
    }

    #[inline]
    pub fn scope_of(&self, id: u32) -> ScopeId {
        self.scopes[id as usize]
    }

    fn error(&self, id: u32, message: String) -> TickError {
        error_at(&self.names, id, message)
    }

    /// Node `id`'s fault as the tick's error (a descendant's passes unchanged).
    #[cold]
    #[inline(never)]
    pub(crate) fn fault_error(&self, id: u32, fault: Fault) -> Box<TickError> {
        match fault.into_kind() {
            FaultKind::Here(message) => Box::new(self.error(id, message)),
            FaultKind::Below(e) => e,
        }
    }

    /// Node `id`'s fault, located: its own message becomes an error naming it, so that its
    /// ancestors pass it up unchanged.
    #[cold]
    #[inline(never)]
    fn locate(&self, id: u32, fault: Fault) -> Fault {
        match fault.into_kind() {
            FaultKind::Here(message) => Fault::below(self.error(id, message)),
            below @ FaultKind::Below(_) => Fault::with(below),
        }
    }

    /// [`locate`](Self::locate) as a tick's result: returned from the call, so that the
    /// visit keeps nothing across it.
    #[cold]
    #[inline(never)]
    fn located_result(&self, id: u32, fault: Fault) -> Result<Status, Fault> {
        Err(self.locate(id, fault))
    }

    /// The error of a node whose behaviour is not where the preorder says (a broken tree).
    #[cold]
    #[inline(never)]
    fn misplaced(&self, id: u32) -> TickError {
        self.error(id, "node ticked outside its parent's subtree".to_owned())
    }
}

/// The tree's shape and what ticking changes: the blackboards, the trace, the counters and
/// the time of the current tick.
pub(crate) struct Arena {
    pub shape: Shape,
    pub blackboards: Blackboards,
    pub trace: TickTrace,
    pub tracing: bool,
    /// Whether visits are counted ([`Tree::set_counting_visits`]).
    pub counting: bool,
    pub visits: u64,
    /// The injected time of the current tick.
    pub now: f64,
    /// An error raised by an `_onHalted` script (halts cannot return one).
    pub pending: Option<TickError>,
}

impl Arena {
    /// Ticks node `id`, whose slot is the first of `from`: pre-conditions, its behaviour,
    /// post-conditions, state, trace. Most nodes have no conditions: they take the short path.
    #[inline(always)]
    pub fn tick_node<C>(
        &mut self,
        from: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
    ) -> Result<Status, Fault> {
        self.tick_node_settling(from, id, ctx, Settle::PLAIN)
    }

    /// [`tick_node`](Self::tick_node), settling the node as `settle` says.
    #[inline(always)]
    pub fn tick_node_settling<C>(
        &mut self,
        from: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
        settle: Settle,
    ) -> Result<Status, Fault> {
        if self.counting {
            std::hint::cold_path();
            self.visits += 1;
        }
        let Some((slot, below)) = from.split_first_mut() else {
            return Err(Fault::below(self.shape.misplaced(id)));
        };
        if slot.conditions.is_none() {
            let behavior = slot.behavior.as_mut();
            return self.tick_behavior(
                behavior,
                &mut slot.state,
                &slot.children,
                below,
                id,
                ctx,
                settle,
            );
        }
        self.tick_conditioned(slot, below, id, ctx, settle.completed_idle)
    }

    /// [`tick_node_settling`](Self::tick_node_settling) of a node with conditions, whole (out
    /// of line, so that the common visit keeps nothing across it): the pre-conditions, the
    /// behaviour (unless a pre-condition decided) and the post-conditions, leaving the node
    /// in its state after them, or idle after a completed result with `completed_idle`.
    #[cold]
    #[inline(never)]
    fn tick_conditioned<C>(
        &mut self,
        slot: &mut Slot<C>,
        below: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
        completed_idle: bool,
    ) -> Result<Status, Fault> {
        // (Called for nodes with conditions; without them, the node is simply ticked.)
        let pre = match slot
            .conditions
            .as_deref()
            .map(|c| c.pre(slot.state, &mut self.blackboards))
        {
            Some(Ok(pre)) => pre,
            Some(Err(fault)) => return Err(self.shape.locate(id, fault)),
            None => Pre::Tick,
        };
        let status = match pre {
            Pre::Decided(status) => status,
            Pre::Tick => self.tick_slot(slot, below, id, ctx)?,
            Pre::HaltThenSkip => {
                self.halt_slot(slot, below, id, ctx);
                Status::Skipped
            }
        };
        if let Some(conditions) = slot.conditions.as_deref() {
            conditions
                .post(status, &mut self.blackboards)
                .map_err(|message| self.located(id, message))?;
        }
        slot.state = slot.state.after(status);
        if completed_idle && status.is_completed() {
            slot.state = NodeState::Idle;
        }
        if self.tracing {
            self.trace.record(id, status);
        }
        Ok(status)
    }

    /// A visit of node `id` whose slot is not below its parent's (a broken tree, or a child
    /// position beyond the children: `u32::MAX`): counted, and the tick's error.
    #[cold]
    #[inline(never)]
    pub fn misplaced_visit(&mut self, id: u32) -> Fault {
        if self.counting {
            self.visits += 1;
        }
        Fault::below(self.shape.misplaced(id))
    }

    /// Runs the behaviour of node `id`, whose slot is `slot`.
    #[inline(always)]
    fn tick_slot<C>(
        &mut self,
        slot: &mut Slot<C>,
        below: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
    ) -> Result<Status, Fault> {
        let behavior = slot.behavior.as_mut();
        self.tick_behavior(
            behavior,
            &mut slot.state,
            &slot.children,
            below,
            id,
            ctx,
            Settle::UNTRACED,
        )
    }

    /// A script error of node `id`, located.
    #[cold]
    #[inline(never)]
    fn located(&self, id: u32, message: String) -> Fault {
        Fault::below(self.shape.error(id, message))
    }

    /// Runs a node's behaviour once, lending it the slots below it, and leaves the node in
    /// its state after the result (from the state the node set itself, e.g. running), as
    /// `settle` says.
    ///
    /// After the tick, the arena and the id are read back from the node's `Cx` instead of
    /// being kept from before it: the caller then holds fewer registers across the call,
    /// which is a save and a restore less per visit.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn tick_behavior<C>(
        &mut self,
        behavior: &mut dyn Behavior<C>,
        state: &mut NodeState,
        children: &[u32],
        below: &mut Behaviors<C>,
        id: u32,
        ctx: &mut C,
        settle: Settle,
    ) -> Result<Status, Fault> {
        let mut cx = Cx::new(self, ctx, below, id, *state, children);
        let result = behavior.tick(&mut cx);
        match result {
            Ok(status) => {
                *state = if status == Status::Skipped {
                    // A skip leaves the state as the node set it (rare: kept off the way).
                    std::hint::cold_path();
                    cx.state
                } else if settle.completed_idle {
                    NodeState::idle_unless_running(status)
                } else {
                    cx.state.after(status)
                };
                if settle.trace && cx.arena.tracing {
                    if settle.tail {
                        return Ok(cx.arena.trace.record_in_line(cx.id, status));
                    }
                    std::hint::cold_path();
                    cx.arena.trace.record(cx.id, status);
                }
                Ok(status)
            }
            Err(fault) => {
                *state = cx.state;
                if settle.tail {
                    return cx.arena.shape.located_result(cx.id, fault);
                }
                Err(cx.arena.shape.locate(cx.id, fault))
            }
        }
    }

    /// Halts node `id`, whose slot is the first of `from` (its behaviour's halt, then idle,
    /// then `_onHalted`). Rare next to ticks: kept out of line so that the resets around it
    /// stay small.
    #[cold]
    #[inline(never)]
    pub fn halt_node<C>(&mut self, from: &mut Behaviors<C>, id: u32, ctx: &mut C) {
        match from.split_first_mut() {
            Some((slot, below)) => self.halt_slot(slot, below, id, ctx),
            None => {
                let error = self.shape.misplaced(id);
                self.pending.get_or_insert(error);
            }
        }
    }

    /// [`halt_node`](Self::halt_node) of node `id`, whose slot is `slot`.
    fn halt_slot<C>(&mut self, slot: &mut Slot<C>, below: &mut Behaviors<C>, id: u32, ctx: &mut C) {
        let Slot {
            behavior,
            state,
            children,
            conditions,
        } = slot;
        behavior.halt(&mut Cx::new(self, ctx, below, id, *state, children));
        *state = NodeState::Idle;
        if let Some(conditions) = conditions
            && let Err(message) = run(&conditions.on_halted, &mut self.blackboards)
        {
            let error = self.shape.error(id, message);
            self.pending.get_or_insert(error);
        }
    }

    /// BT.CPP's `haltChild` of node `id` (the first of `from`): halt if running, then reset
    /// to idle.
    #[inline]
    pub fn halt_and_reset<C>(&mut self, from: &mut Behaviors<C>, id: u32, ctx: &mut C) {
        let Some(slot) = from.first_mut() else {
            return;
        };
        if slot.state == NodeState::Running {
            self.halt_node(from, id, ctx);
        }
        if let Some(slot) = from.first_mut() {
            slot.state = NodeState::Idle;
        }
    }
}

/// How a visit settles its node: constants at each call site, so that the branches on them
/// go away when the visit is inlined there.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settle {
    /// A completed result leaves the node idle instead of in that state (the last child of
    /// a round, which its parent resets right after: the reset need not visit it).
    pub completed_idle: bool,
    /// The result goes into the trace when tracing (not when the node's conditions record it
    /// after their scripts).
    pub trace: bool,
    /// The caller only returns the result after the visit (a lone child's parent): the trace
    /// and an error go through calls that return the result, so that the caller keeps
    /// nothing across the visit. Elsewhere that costs more than it saves (measured).
    pub tail: bool,
}

impl Settle {
    /// A visit that keeps the node's result as its state, traced.
    pub const PLAIN: Settle = Settle {
        completed_idle: false,
        trace: true,
        tail: false,
    };
    /// A plain visit whose caller records the trace itself.
    const UNTRACED: Settle = Settle {
        trace: false,
        ..Settle::PLAIN
    };
    /// The visit of the last child of a round.
    pub const ENDING_ROUND: Settle = Settle {
        completed_idle: true,
        ..Settle::PLAIN
    };
    /// The visit of a lone child whose parent passes its result on.
    pub const LONE_CHILD: Settle = Settle {
        tail: true,
        ..Settle::ENDING_ROUND
    };
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
    pub(crate) slots: Vec<Slot<C>>,
    pub(crate) spec: TreeSpec,
    pub(crate) root_scope: ScopeId,
}

impl<C> Tree<C> {
    /// Ticks the root once (BT.CPP `tickExactlyOnce`); a completed root is reset to idle.
    pub fn try_tick(&mut self, ctx: &mut C, now: f64) -> Result<Status, TickError> {
        self.arena.trace.begin(now);
        self.arena.now = now;
        let result = self.arena.tick_node(&mut self.slots, 0, ctx);
        if let Some(e) = self.arena.pending.take() {
            return Err(e);
        }
        let status = result.map_err(|e| *self.arena.shape.fault_error(0, e))?;
        if matches!(status, Status::Success | Status::Failure)
            && let Some(root) = self.slots.first_mut()
        {
            root.state = NodeState::Idle;
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

    /// Turns the count of node visits ([`visits`](Self::visits)) on or off (off by default):
    /// for benchmarks' cost per visit. Counting is a write to one place per visit, each
    /// waiting for the last: on a deep tree that chain takes about a quarter of the tick, so
    /// timed runs leave it off and count in a run of their own.
    pub fn set_counting_visits(&mut self, on: bool) {
        self.arena.counting = on;
    }

    /// Node ticks entered while counting was on (a tick's visits are the difference).
    pub fn visits(&self) -> u64 {
        self.arena.visits
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.slots.len()
    }

    /// The status node `n` is in between ticks.
    pub fn state(&self, n: NodeId) -> NodeState {
        self.slots
            .get(n.index())
            .map_or(NodeState::Idle, |slot| slot.state)
    }

    /// Whether node `n` is running.
    pub fn is_running(&self, n: NodeId) -> bool {
        self.state(n) == NodeState::Running
    }

    /// The position of the child node `n` keeps running (kinds that track one).
    pub fn running_child(&self, n: NodeId) -> Option<usize> {
        self.slots.get(n.index())?.behavior.running_child()
    }

    /// The label of node `n`.
    pub fn name(&self, n: NodeId) -> Option<&str> {
        self.arena.shape.names.get(n.index()).map(String::as_str)
    }

    /// Explains node `n`'s result for `ctx` in words (conditions), if its kind can.
    pub fn explain(&self, n: NodeId, ctx: &C, now: f64) -> Option<String> {
        let mut out = String::new();
        self.explain_into(n, ctx, now, &mut out).then_some(out)
    }

    /// Appends the explanation of node `n` to `out`; false when it has none.
    pub fn explain_into(&self, n: NodeId, ctx: &C, now: f64, out: &mut String) -> bool {
        self.slots
            .get(n.index())
            .is_some_and(|slot| slot.behavior.explain_into(ctx, now, out))
    }

    /// Whether node `n`'s explanations never need JSON escapes (false when unknown).
    pub fn explanation_is_json_safe(&self, n: NodeId) -> bool {
        self.slots
            .get(n.index())
            .is_some_and(|slot| slot.behavior.explanation_is_json_safe())
    }

    /// Halts the tree as BT.CPP does when a tree is destroyed: the root is halted, then every
    /// node once more in preorder (each behaviour's halt and its `_onHalted` script), and
    /// every node is left idle. BT.CPP aborts the process when an `_onHalted` script throws
    /// there; this returns the first such error instead, with the node that raised it.
    pub fn halt_as_destroyed(&mut self, ctx: &mut C) -> Result<(), TickError> {
        self.arena.now = self.arena.trace.now();
        self.arena.pending = None;
        self.arena.halt_and_reset(&mut self.slots, 0, ctx);
        for at in 0..self.slots.len() {
            let id = u32::try_from(at).unwrap_or(u32::MAX);
            self.arena.halt_node(&mut self.slots[at..], id, ctx);
        }
        self.set_all_idle();
        match self.arena.pending.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Halts everything running and resets every node to idle, also completed nodes that a
    /// parent left unreset (kinds keep the memory BT.CPP keeps across a halt, e.g. `RunOnce`'s
    /// result and `SequenceWithMemory`'s position).
    pub fn halt(&mut self, ctx: &mut C) {
        self.arena.now = self.arena.trace.now();
        self.arena.halt_and_reset(&mut self.slots, 0, ctx);
        self.set_all_idle();
        self.arena.pending = None;
    }

    /// Leaves every node idle.
    fn set_all_idle(&mut self) {
        for slot in &mut self.slots {
            slot.state = NodeState::Idle;
        }
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
            || self.arena.shape.child_count(last.0) != 0
            || self
                .slots
                .iter()
                .any(|slot| slot.state == NodeState::Running)
        {
            return false;
        }
        let mut steps = Vec::with_capacity(path.len());
        for pair in path.windows(2) {
            let (parent, child) = (pair[0].0, pair[1].0);
            let children = self.arena.shape.children(parent);
            let position = children.iter().position(|&c| c == child);
            let Some(position) = position else {
                return false;
            };
            steps.push((parent, Some(position)));
        }
        steps.push((last.0, None));
        let all_can = steps.iter().all(|&(node, _)| {
            self.slots
                .get(node as usize)
                .is_some_and(|slot| slot.behavior.can_resume())
        });
        if !all_can {
            return false;
        }
        for &(node, child) in &steps {
            if let Some(slot) = self.slots.get_mut(node as usize) {
                slot.behavior.resume(child);
                slot.state = NodeState::Running;
            }
        }
        true
    }

    /// The behaviour of node `n` as its kind's type `T`, for kinds that expose themselves with
    /// [`Behavior::as_any`] (a profile reads what one of its controls decided, e.g.
    /// `weighted_selection`'s best rule); `None` for another kind.
    pub fn behavior<T: 'static>(&self, n: NodeId) -> Option<&T> {
        self.slots
            .get(n.index())?
            .behavior
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

#[cfg(test)]
mod tests {
    use super::{Conditions, Pre, WHILE};
    use crate::engine::NodeState;
    use crate::engine::blackboard::{Blackboards, Value};
    use crate::engine::script::Script;

    /// An idle node whose only pre-condition is `_while` decides as the walk over every
    /// pre-condition does: ticked when it holds, skipped when not, the same error when it
    /// cannot be read as a condition.
    #[test]
    fn a_lone_while_decides_an_idle_node_as_the_walk_does() {
        let values = [
            None,
            Some(Value::Int(3)),
            Some(Value::Int(1)),
            Some(Value::Int(7)),
            Some(Value::Double(3.0)),
            Some(Value::Bool(true)),
            Some(Value::Str("3".to_owned())),
            Some(Value::Str("x".to_owned())),
        ];
        for src in [
            "x == 3",
            "x",
            "x > 1 && x < 5",
            "x != 'x'",
            "y := 1; x == 3",
        ] {
            for value in &values {
                let mut bbs = Blackboards::new();
                let root = bbs.new_root();
                if let Some(value) = value {
                    assert!(bbs.set(root, "x", value.clone()).is_ok());
                }
                let script = match Script::compile(src, &mut bbs, root) {
                    Ok(script) => script,
                    Err(e) => panic!("{src}: {e}"),
                };
                let mut conditions = Conditions::default();
                conditions.pre[WHILE] = Some(script);
                conditions.seal();
                let words = |pre: Result<Pre, super::Fault>| match pre {
                    Ok(pre) => format!("{pre:?}"),
                    Err(fault) => format!("{:?}", fault.into_kind()),
                };
                let lone = words(conditions.pre(NodeState::Idle, &mut bbs));
                let walk = words(conditions.pre_idle(&mut bbs));
                assert_eq!(lone, walk, "{src} with x = {value:?}");
            }
        }
    }
}
