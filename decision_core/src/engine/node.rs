//! The plug-in interface of a node kind: [`Behavior`], ticked through a [`Cx`] that gives it
//! its children, its ports, the blackboard and the profile's typed context.
//!
//! The engine core keeps, per node, BT.CPP's status between ticks ([`NodeState`]: idle,
//! running, or the last completed result until a parent resets it), runs the pre/post
//! conditions around [`Behavior::tick`], records the trace, and halts. A node kind only
//! implements its own rule over its children.

use super::Status;
use super::blackboard::{Blackboards, EntrySlot, ScopeId, Value};
use super::trace::NodeId;
use super::tree::{Arena, Behaviors, Settle, Slot};
use std::any::Any;
use std::cell::Cell;

/// A node's status between ticks, as BT.CPP keeps it: a completed node keeps its result until
/// its parent resets it to `Idle`; pre-conditions (`_skipIf`, ...) are only checked when idle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeState {
    /// Not started, or reset by its parent.
    Idle = 3,
    /// Returned `Running` last time.
    Running = 2,
    /// Returned `Success` last time and was not reset since.
    Success = 0,
    /// Returned `Failure` last time and was not reset since.
    Failure = 1,
}

impl NodeState {
    /// The state of a node whose parent resets it right after a completed `status`: running
    /// after `Running`, idle after anything else (a `Skipped` one is the caller's case).
    #[inline(always)]
    pub(crate) fn idle_unless_running(status: Status) -> NodeState {
        if status == Status::Running {
            NodeState::Running
        } else {
            NodeState::Idle
        }
    }

    /// The state a node is left in after returning `status` (SKIPPED leaves it as it was).
    /// The discriminants match [`Status`]'s, so this is a select, not a jump table.
    #[inline]
    pub fn after(self, status: Status) -> NodeState {
        match status {
            Status::Success => NodeState::Success,
            Status::Failure => NodeState::Failure,
            Status::Running => NodeState::Running,
            Status::Skipped => self,
        }
    }
}

/// A runtime error of a tick (a script error, a value the blackboard refuses, a broken
/// threshold): the tick stops and the error names the node.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{node_name}: {message}")]
pub struct TickError {
    /// The node that failed.
    pub node: NodeId,
    /// Its label.
    pub node_name: String,
    /// What went wrong.
    pub message: String,
}

/// One node kind's behaviour. Constructed by the kind's registry constructor, it owns its
/// state (an index, a counter, a cached result) and documents its outcome for every child
/// outcome.
pub trait Behavior<C>: Send {
    /// Ticks the node once; children are ticked through `cx`.
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault>;

    /// Called when the node was running and its parent abandons it: resets own memory and
    /// halts running children (the default halts and resets every child, as BT.CPP's
    /// `ControlNode::halt`). The engine sets the node idle afterwards.
    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        cx.halt_children();
    }

    /// Whether [`resume`](Self::resume) is supported (hot reload of a running decision).
    fn can_resume(&self) -> bool {
        false
    }

    /// Hot reload: this node is running with `child` (a position; `None` for a leaf) as its
    /// running child, as if the previous tick had run it.
    fn resume(&mut self, _child: Option<usize>) {}

    /// The position of the child this node keeps running, if it tracks one.
    fn running_child(&self) -> Option<usize> {
        None
    }

    /// The node as `Any`, for kinds whose state a profile reads back (e.g. what a
    /// `weighted_selection` chose); `None` by default.
    fn as_any(&self) -> Option<&dyn Any> {
        None
    }

    /// Appends an explanation of the node's result for `ctx` (conditions say why they fail);
    /// false when the kind has none.
    fn explain_into(&self, _ctx: &C, _now: f64, _out: &mut String) -> bool {
        false
    }

    /// True when [`Behavior::explain_into`] never writes a character JSON escapes (see
    /// [`crate::engine::Condition::explanation_is_json_safe`]).
    fn explanation_is_json_safe(&self) -> bool {
        false
    }
}

/// A port resolved at compile time: a literal value or a blackboard slot.
#[derive(Debug, Clone, PartialEq)]
pub enum Port {
    /// A literal (converted from its text form at compile time).
    Literal(Value),
    /// A blackboard entry (`{key}`), pre-resolved to its slot.
    Entry(EntrySlot),
    /// Not given and without a default.
    Missing,
}

/// What a node sees while it ticks: its children, its ports, the blackboard, the profile's
/// context and the injected time. Kept to seven words: a child's `Cx` is built on every visit.
pub struct Cx<'t, C> {
    /// The shape, the blackboards, the trace and the time of this tick.
    pub(crate) arena: &'t mut Arena,
    pub(crate) ctx: &'t mut C,
    /// The nodes after this one in preorder (its subtree comes first).
    pub(crate) below: &'t mut Behaviors<C>,
    pub(crate) id: u32,
    /// This node's status; the engine stores it back after the node's tick or halt.
    pub(crate) state: NodeState,
    /// Where this node's children are in `below` (its slot's list).
    pub(crate) children: &'t [u32],
}

impl<'t, C> Cx<'t, C> {
    /// The context of node `id` (in `state`, with `children`) ticking or halting with the
    /// nodes after it, `below`.
    #[inline(always)]
    pub(crate) fn new(
        arena: &'t mut Arena,
        ctx: &'t mut C,
        below: &'t mut Behaviors<C>,
        id: u32,
        state: NodeState,
        children: &'t [u32],
    ) -> Self {
        Self {
            arena,
            ctx,
            below,
            id,
            state,
            children,
        }
    }

    /// The profile's context.
    #[inline]
    pub fn ctx(&self) -> &C {
        self.ctx
    }

    /// The profile's context, mutably.
    #[inline]
    pub fn ctx_mut(&mut self) -> &mut C {
        self.ctx
    }

    /// The injected time of this tick.
    #[inline]
    pub fn now(&self) -> f64 {
        self.arena.now
    }

    /// This node's id.
    #[inline]
    pub fn id(&self) -> NodeId {
        NodeId(self.id)
    }

    /// This node's status before this tick.
    #[inline]
    pub fn state(&self) -> NodeState {
        self.state
    }

    /// BT.CPP's `setStatus(RUNNING)` inside a node's own tick: many kinds mark themselves
    /// running before ticking children, so a SKIPPED result (which leaves the state as it
    /// was) leaves them running: their pre-conditions are then not checked next tick.
    #[inline]
    pub fn set_running(&mut self) {
        self.start_running();
    }

    /// [`set_running`](Self::set_running), returning the state the node was in before.
    #[inline]
    pub fn start_running(&mut self) -> NodeState {
        std::mem::replace(&mut self.state, NodeState::Running)
    }

    /// Number of children.
    #[inline]
    pub fn child_count(&self) -> usize {
        self.children.len()
    }

    /// The id of child `i` (`u32::MAX`, which no tick reaches, when there is no such child).
    #[inline(always)]
    fn child(&self, i: usize) -> u32 {
        self.children.get(i).map_or(u32::MAX, |&at| self.id_at(at))
    }

    /// The id of the node at position `at` in `below`.
    #[inline(always)]
    fn id_at(&self, at: u32) -> u32 {
        self.id.wrapping_add(1).wrapping_add(at)
    }

    /// The slot of descendant `node` among those below this node.
    #[inline(always)]
    fn slot(&self, node: u32) -> Option<&Slot<C>> {
        self.below.get(self.offset(node))
    }

    /// The position of descendant `node` in `below`.
    #[inline(always)]
    fn offset(&self, node: u32) -> usize {
        node.wrapping_sub(self.id).wrapping_sub(1) as usize
    }

    /// Status child `i` was left in.
    #[inline]
    pub fn child_state(&self, i: usize) -> NodeState {
        self.slot(self.child(i))
            .map_or(NodeState::Idle, |slot| slot.state)
    }

    /// Where child `i` is in `below`. The first child comes right after its parent in
    /// preorder (position 0, which compiling checks), so a descent to it does not wait for a
    /// load from the child list.
    #[inline(always)]
    fn child_position(&self, i: usize) -> Option<u32> {
        if i == 0 {
            return (!self.children.is_empty()).then_some(0);
        }
        self.children.get(i).copied()
    }

    /// Ticks child `i` (with its pre/post conditions) and returns its status.
    #[inline(always)]
    pub fn tick_child(&mut self, i: usize) -> Result<Status, Fault> {
        self.tick_child_settling(i, Settle::PLAIN)
    }

    /// [`tick_child`](Self::tick_child) of the last child of a round, which ends with every
    /// child reset: a `Success` or `Failure` leaves the child idle at once (no one sees its
    /// state before the reset), so the reset need not visit it
    /// ([`halt_children_before`](Self::halt_children_before) its position).
    #[inline(always)]
    pub(crate) fn tick_child_ending_round(&mut self, i: usize) -> Result<Status, Fault> {
        self.tick_child_settling(i, Settle::ENDING_ROUND)
    }

    /// Ticks child `i`, settling it as `settle` says.
    #[inline(always)]
    fn tick_child_settling(&mut self, i: usize, settle: Settle) -> Result<Status, Fault> {
        match self.child_position(i) {
            Some(at) => {
                let child = self.id_at(at);
                let from = self.below.get_mut(at as usize..).unwrap_or_default();
                self.arena.tick_node_settling(from, child, self.ctx, settle)
            }
            None => Err(self.arena.misplaced_visit(u32::MAX)),
        }
    }

    /// [`tick_child_ending_round`](Self::tick_child_ending_round) of the only child of a node
    /// that returns the child's result as it is (a one-child `Sequence` built as
    /// [`Forward`](super::nodes::forward::Forward), `SubTree`), for which the visit can keep
    /// nothing across the child's tick.
    #[inline(always)]
    pub(crate) fn tick_lone_child(&mut self) -> Result<Status, Fault> {
        // Such a node is only built with exactly one child, and a first child follows its
        // parent in preorder (compiling checks it): the child list need not be read.
        debug_assert_eq!(self.children, &[0], "a lone child right after its parent");
        let child = self.id_at(0);
        self.arena
            .tick_node_settling(&mut *self.below, child, self.ctx, Settle::LONE_CHILD)
    }

    /// BT.CPP's `haltChild`: halts child `i` if it is running, then resets it to idle.
    #[inline]
    pub fn halt_child(&mut self, i: usize) {
        self.halt_and_reset(self.child(i));
    }

    /// BT.CPP's `haltChild` of descendant `node`.
    #[inline]
    fn halt_and_reset(&mut self, node: u32) {
        let offset = self.offset(node);
        let from = self.below.get_mut(offset..).unwrap_or_default();
        self.arena.halt_and_reset(from, node, self.ctx);
    }

    /// Halts (if running) and resets every child, as BT.CPP's `resetChildren`.
    #[inline]
    pub fn halt_children(&mut self) {
        self.halt_children_from(0);
    }

    /// Halts (if running) and resets the children from position `first` on; usually a
    /// completed child, whose state only is reset.
    #[inline]
    pub fn halt_children_from(&mut self, first: usize) {
        let children = self.children;
        for (i, &at) in children.iter().enumerate().skip(first) {
            match self.below.get_mut(at as usize) {
                Some(slot) if slot.state != NodeState::Running => slot.state = NodeState::Idle,
                Some(_) => return self.halt_each_child_between(i, children.len()),
                None => {}
            }
        }
    }

    /// Halts (if running) and resets the children before position `end`.
    #[inline]
    pub(crate) fn halt_children_before(&mut self, end: usize) {
        let children = self.children.get(..end).unwrap_or(self.children);
        for (i, &at) in children.iter().enumerate() {
            match self.below.get_mut(at as usize) {
                Some(slot) if slot.state != NodeState::Running => slot.state = NodeState::Idle,
                Some(_) => return self.halt_each_child_between(i, children.len()),
                None => {}
            }
        }
    }

    /// Halts (if running) and resets every child but child `except`, in order: what a
    /// reactive node does to the others when one child runs ([`halt_child`](Self::halt_child)
    /// of each, in one pass over the children).
    #[inline]
    pub fn halt_children_except(&mut self, except: usize) {
        let children = self.children;
        for (k, &at) in children.iter().enumerate() {
            if k == except {
                continue;
            }
            match self.below.get_mut(at as usize) {
                Some(slot) if slot.state != NodeState::Running => slot.state = NodeState::Idle,
                Some(_) => self.halt_and_reset(self.id_at(at)),
                None => {}
            }
        }
    }

    /// The resets of [`halt_children_from`](Self::halt_children_from) and
    /// [`halt_children_before`](Self::halt_children_before) from the first running child
    /// on (before `end`), kept out of line: a completed round resets children that are not running.
    #[cold]
    #[inline(never)]
    fn halt_each_child_between(&mut self, first: usize, end: usize) {
        for i in first..end.min(self.children.len()) {
            self.halt_and_reset(self.child(i));
        }
    }

    /// The position in `below` of child `k` of child `i`, if there is one.
    #[inline(always)]
    fn grandchild_at(&self, i: usize, k: usize) -> Option<u32> {
        let at = *self.children.get(i)?;
        let below_child = *self.below.get(at as usize)?.children.get(k)?;
        Some(at.wrapping_add(1).wrapping_add(below_child))
    }

    /// The id of child `k` of child `i` (`u32::MAX` when there is none).
    #[inline]
    fn grandchild(&self, i: usize, k: usize) -> u32 {
        self.grandchild_at(i, k)
            .map_or(u32::MAX, |at| self.id_at(at))
    }

    /// Ticks child `k` of child `i` (controls whose children are containers, such as
    /// `weighted_selection` over its `{guard, body}` rules).
    #[inline(always)]
    pub fn tick_grandchild(&mut self, i: usize, k: usize) -> Result<Status, Fault> {
        match self.grandchild_at(i, k) {
            Some(at) => self.tick_at(at),
            None => Err(self.arena.misplaced_visit(u32::MAX)),
        }
    }

    /// Halts (if running) and resets child `k` of child `i`.
    pub fn halt_grandchild(&mut self, i: usize, k: usize) {
        self.halt_and_reset(self.grandchild(i, k));
    }

    /// Ticks the descendant at position `at` in `below` (`at` places after this node in
    /// preorder; its first child is at 0), for kinds that know their subtree's layout from
    /// their children's specs (node ids are preorder positions) and so skip the child-list
    /// lookups of [`tick_grandchild`](Self::tick_grandchild).
    #[inline(always)]
    pub(crate) fn tick_at(&mut self, at: u32) -> Result<Status, Fault> {
        let node = self.id_at(at);
        let from = self.below.get_mut(at as usize..).unwrap_or_default();
        self.arena.tick_node(from, node, self.ctx)
    }

    /// Records `status` as child `i`'s result of this tick (trace and state) when this node
    /// decided it without ticking the child itself.
    #[inline]
    pub fn settle_child(&mut self, i: usize, status: Status) {
        if let Some(&at) = self.children.get(i) {
            self.settle_at(at, status);
        }
    }

    /// [`settle_child`](Self::settle_child) of the descendant at position `at` in `below`.
    #[inline(always)]
    pub(crate) fn settle_at(&mut self, at: u32, status: Status) {
        if let Some(slot) = self.below.get_mut(at as usize) {
            slot.state = slot.state.after(status);
            if self.arena.tracing {
                let node = self.id_at(at);
                self.arena.trace.record_in_line(node, status);
            }
        }
    }

    /// Records `status` in the trace as child `i`'s result of this tick, for a node that
    /// evaluated the child's condition itself instead of ticking it; the child stays idle, as
    /// a completed round of a `Sequence` leaves its children.
    #[inline]
    pub fn record_child(&mut self, i: usize, status: Status) {
        if self.arena.tracing {
            let child = self.child(i);
            self.arena.trace.record(child, status);
        }
    }

    /// [`record_child`](Self::record_child) of the descendant at position `at` in `below`, for
    /// kinds that know their subtree's layout.
    #[inline(always)]
    pub(crate) fn record_at(&mut self, at: u32, status: Status) {
        if self.arena.tracing {
            let node = self.id_at(at);
            self.arena.trace.record(node, status);
        }
    }

    /// Keeps `fault` as the error of the current tick where no result can be returned (a child
    /// ticked inside [`Behavior::halt`]); the first such error wins.
    pub fn defer_fault(&mut self, fault: Fault) {
        let error = self.arena.shape.fault_error(self.id, fault);
        self.arena.pending.get_or_insert(*error);
    }

    /// The blackboards of the tree.
    #[inline]
    pub fn blackboard(&self) -> &Blackboards {
        &self.arena.blackboards
    }

    /// The blackboards of the tree, mutably.
    #[inline]
    pub fn blackboard_mut(&mut self) -> &mut Blackboards {
        &mut self.arena.blackboards
    }

    /// The scope this node's ports resolve in.
    #[inline]
    pub fn scope(&self) -> ScopeId {
        self.arena.shape.scope_of(self.id)
    }

    /// The value of an input port (`None` when its entry is empty or the port is missing).
    #[inline]
    pub fn get<'p>(&'p self, port: &'p Port) -> Option<&'p Value> {
        match port {
            Port::Literal(v) => Some(v),
            Port::Entry(slot) => self.arena.blackboards.get_slot(*slot),
            Port::Missing => None,
        }
    }

    /// The value of an input port, or an error naming the port when it has none.
    fn input<'p>(&'p self, port: &'p Port, name: &str) -> Result<&'p Value, String> {
        self.get(port)
            .ok_or_else(|| format!("input port `{name}` has no value"))
    }

    /// An input port as an int (errors name the port).
    #[inline]
    pub fn get_int(&self, port: &Port, name: &str) -> Result<i64, String> {
        match self.get(port) {
            Some(Value::Int(i)) => Ok(*i),
            _ => self.converted_int(port, name),
        }
    }

    /// [`get_int`](Self::get_int) of a port that holds no int (out of line: ports read ints).
    #[inline(never)]
    fn converted_int(&self, port: &Port, name: &str) -> Result<i64, String> {
        self.input(port, name)?
            .as_int()
            .map_err(|e| format!("port `{name}`: {e}"))
    }

    /// An input port as a bool.
    #[inline]
    pub fn get_bool(&self, port: &Port, name: &str) -> Result<bool, String> {
        match self.get(port) {
            Some(Value::Bool(b)) => Ok(*b),
            _ => self.converted_bool(port, name),
        }
    }

    /// [`get_bool`](Self::get_bool) of a port that holds no bool (out of line: ports read
    /// bools).
    #[inline(never)]
    fn converted_bool(&self, port: &Port, name: &str) -> Result<bool, String> {
        self.input(port, name)?
            .as_bool()
            .map_err(|e| format!("port `{name}`: {e}"))
    }

    /// An input port as a double.
    pub fn get_double(&self, port: &Port, name: &str) -> Result<f64, String> {
        self.input(port, name)?
            .as_double()
            .map_err(|e| format!("port `{name}`: {e}"))
    }

    /// Writes an output port (a literal port cannot be written).
    pub fn set(&mut self, port: &Port, value: Value) -> Result<(), String> {
        match port {
            Port::Entry(slot) => self
                .arena
                .blackboards
                .set_slot(*slot, value)
                .map_err(|e| e.to_string()),
            _ => Err("output port is not a blackboard entry".to_owned()),
        }
    }
}

/// Why a tick stopped: this node's own error, or a descendant's passed up unchanged.
///
/// A fault carries no data: its details (a [`FaultKind`]) wait in a per-thread slot, where
/// making a fault puts them and the engine takes them when it locates or reports the fault.
/// So the `Result<Status, Fault>` every node returns is one byte, returned in a register on
/// the tick path instead of through memory. A node passes on the fault it got (`?`) or makes
/// a new one; the details the engine finds are those of the latest fault made on the thread.
#[derive(Debug)]
pub struct Fault {
    _details_are_pending: (),
}

/// The two kinds of [`Fault`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultKind {
    /// This node failed at run time (a message in words).
    Here(String),
    /// A descendant failed; its error is passed up as it is.
    Below(Box<TickError>),
}

thread_local! {
    /// The details of the fault being passed up on this thread.
    static PENDING: Cell<Option<FaultKind>> = const { Cell::new(None) };
}

impl Fault {
    /// A fault with `kind` as its details.
    #[cold]
    #[inline(never)]
    pub(crate) fn with(kind: FaultKind) -> Self {
        PENDING.with(|pending| pending.set(Some(kind)));
        Fault {
            _details_are_pending: (),
        }
    }

    /// A descendant's error, passed up unchanged.
    pub(crate) fn below(error: TickError) -> Self {
        Self::with(FaultKind::Below(Box::new(error)))
    }

    /// What went wrong (taken from the per-thread slot).
    #[cold]
    pub fn into_kind(self) -> FaultKind {
        PENDING
            .with(Cell::take)
            .unwrap_or_else(|| FaultKind::Here("a fault without details".to_owned()))
    }
}

impl From<String> for Fault {
    fn from(message: String) -> Self {
        Fault::with(FaultKind::Here(message))
    }
}

impl From<&str> for Fault {
    fn from(message: &str) -> Self {
        Fault::with(FaultKind::Here(message.to_owned()))
    }
}
