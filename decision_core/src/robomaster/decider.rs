//! The RoboMaster decider: derives the world from one tick's inputs, aims, ticks the compiled
//! decision tree, and builds the Decision message and the `decide` result of the tick.

use super::aim::{AimTarget, SightMemo, find_target_with_memo, relative_yaw};
use super::context::{GoalPose, NavAction, RmContext};
use super::decisions::SKIP;
use super::guards;
use super::load::Tables;
use super::navigate;
use super::selection::DecisionSelection;
use super::tree::{DecisionNodes, decision_tree};
use super::world::{InputSkip, MODE_AUTOAIM, NearestMemo, TickInput};
use crate::engine::nodes::weighted_selection::{WeightedOutcome, WeightedSelection};
use crate::engine::{CompileError, NodeId, Registry, Status, Tree, TreeSpec, compile};
use serde::Serialize;
use serde::ser::SerializeMap;
use std::sync::Arc;

/// Why a tick published nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Skip {
    /// A position (or the pose, or the time) is not finite.
    InvalidPosition,
    /// Not in the battle stage, and not `Debug`.
    NotInBattle,
    /// No position for ourselves.
    NoPosition,
    /// No decision is available with a weight > 0.
    NoDecision,
    /// The best decision's target cannot be reached from here.
    Unreachable,
    /// Nav2 runs a goal that is not ours (no running decision): it is cancelled (rule 5).
    ForeignGoalActive,
}

impl From<InputSkip> for Skip {
    fn from(skip: InputSkip) -> Self {
        match skip {
            InputSkip::InvalidPosition => Skip::InvalidPosition,
            InputSkip::NotInBattle => Skip::NotInBattle,
            InputSkip::NoPosition => Skip::NoPosition,
        }
    }
}

/// The message for the lower computer (`global_interface/Decision`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
pub struct DecisionMsg {
    /// The decision's id.
    pub decision_id: u8,
    /// The mode to switch to (8 = auto-aim while a target is seen).
    pub mode: u8,
    /// Final target x in metres.
    pub x: f32,
    /// Final target y in metres.
    pub y: f32,
    /// Gimbal yaw relative to the chassis, in [-pi, pi].
    pub theta: f32,
}

/// The essentials of a tick, without allocation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TickSummary {
    /// Why nothing was published, if so.
    pub skipped: Option<Skip>,
    /// What the navigation did.
    pub action: NavAction,
    /// The Decision message to publish.
    pub decision: Option<DecisionMsg>,
    /// The absolute aim yaw to publish.
    pub aim_yaw: Option<f32>,
    /// Whether Nav2's active goal is to be cancelled although none of ours runs (rule 5).
    pub cancel_active_goal: bool,
}

/// Decides tick by tick for one set of tables, carrying the running decision between ticks.
pub struct Decider {
    tables: Arc<Tables>,
    tree: Tree<RmContext>,
    nodes: Vec<DecisionNodes>,
    ctx: RmContext,
    ticks: u64,
    last: TickSummary,
    tree_ticked: bool,
    /// Nearest waypoints of the last tick's positions (for these tables' graph).
    nearest_memo: NearestMemo,
    /// Lines of sight of the last tick's positions (for these tables' map).
    sight_memo: SightMemo,
    /// Per decision, the fixed parts of its `why_not` entry in a result line.
    why_not_entries: Vec<WhyNotEntry>,
    /// Whether the root is a [`DecisionSelection`] of one rule per decision, which keeps the
    /// guards' results instead of the trace.
    fused: bool,
}

/// What a result line's `why_not` entry of one decision needs besides the text itself.
#[derive(Debug, Clone)]
struct WhyNotEntry {
    /// `,"ID":"`, the key rendered once (the first entry skips the comma).
    key: String,
    /// Whether every guard's explanation is JSON-safe, so the text is copied without being
    /// scanned for escapes.
    json_safe: bool,
}

impl Decider {
    /// Compiles the decision tree for `tables`.
    pub fn new(tables: Arc<Tables>) -> Result<Self, Vec<CompileError>> {
        let (spec, nodes) = decision_tree(&tables);
        Self::compiled(tables, &spec, nodes, true)
    }

    /// The decider of `tables` on the engine's own `weighted_selection`, which ticks every
    /// guard node: what [`DecisionSelection`] must decide and report exactly as.
    #[cfg(test)]
    fn on_engine_selection(tables: Arc<Tables>) -> Result<Self, Vec<CompileError>> {
        let (spec, nodes) = decision_tree(&tables);
        Self::compiled(tables, &spec, nodes, false)
    }

    /// Compiles `spec` as the decision tree of `tables`: the tree `tables` compile into, read
    /// back from elsewhere (its BT.CPP XML export); it must have the same shape.
    pub fn with_spec(tables: Arc<Tables>, spec: &TreeSpec) -> Result<Self, Vec<CompileError>> {
        let (_, nodes) = decision_tree(&tables);
        Self::compiled(tables, spec, nodes, true)
    }

    /// The decider of `spec`, whose decisions sit at `nodes`; with `fuse`, its
    /// `weighted_selection` checks the guards itself ([`DecisionSelection`]) when it can.
    fn compiled(
        tables: Arc<Tables>,
        spec: &TreeSpec,
        nodes: Vec<DecisionNodes>,
        fuse: bool,
    ) -> Result<Self, Vec<CompileError>> {
        let mut registry = Registry::new();
        crate::engine::nodes::register_standard(&mut registry);
        if fuse {
            super::selection::register(&mut registry);
        } else {
            crate::engine::nodes::weighted_selection::register(&mut registry);
        }
        guards::register(&mut registry);
        navigate::register(&mut registry, &tables);
        let tree = compile(spec, &registry)?;
        let fused = tree
            .behavior::<DecisionSelection>(NodeId(0))
            .is_some_and(|s| s.rule_count() == nodes.len());
        let why_not_entries = nodes
            .iter()
            .zip(&tables.decisions)
            .map(|(n, d)| {
                let mut key = String::new();
                super::result_json::why_not_key(&mut key, d.decision.id, false);
                WhyNotEntry {
                    key,
                    json_safe: n.guards.iter().all(|g| tree.explanation_is_json_safe(*g)),
                }
            })
            .collect();
        let nearest_memo = NearestMemo::new(&tables.graph, tables.config.distance_thr);
        Ok(Self {
            fused,
            why_not_entries,
            tables,
            tree,
            nodes,
            ctx: RmContext::default(),
            ticks: 0,
            last: TickSummary {
                skipped: None,
                action: NavAction::None,
                decision: None,
                aim_yaw: None,
                cancel_active_goal: false,
            },
            tree_ticked: false,
            nearest_memo,
            sight_memo: SightMemo::default(),
        })
    }

    /// The tables in use.
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// The compiled tree (layout and last trace).
    pub fn tree(&self) -> &Tree<RmContext> {
        &self.tree
    }

    /// The context after the last tick.
    pub fn context(&self) -> &RmContext {
        &self.ctx
    }

    /// Node ids of each decision in the tree.
    pub fn decision_nodes(&self) -> &[DecisionNodes] {
        &self.nodes
    }

    /// Number of ticks so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Decides one tick.
    pub fn tick(&mut self, input: &TickInput) -> TickSummary {
        self.ticks += 1;
        self.ctx.out.clear();
        self.tree_ticked = false;
        let tables = &*self.tables;
        let updated = self.ctx.world.update_with_memo(
            input,
            &tables.config,
            &tables.graph,
            &mut self.nearest_memo,
        );
        if let Err(skip) = updated {
            self.ctx.aim = None;
            self.last = TickSummary {
                skipped: Some(skip.into()),
                action: NavAction::None,
                decision: None,
                aim_yaw: None,
                cancel_active_goal: false,
            };
            return self.last;
        }
        self.ctx.aim = find_target_with_memo(
            &self.ctx.world,
            &tables.config,
            &tables.map,
            &mut self.sight_memo,
        );
        let now = self.ctx.world.elapsed;
        let status = self.tree.tick(&mut self.ctx, now);
        self.tree_ticked = true;
        let out = &self.ctx.out;
        let in_effect = match status {
            Status::Failure | Status::Skipped => None,
            Status::Success | Status::Running => out.chosen,
        };
        let skipped = match (in_effect, out.unreachable, out.cancel_active_goal) {
            (Some(_), _, _) => None,
            (None, Some(_), _) => Some(Skip::Unreachable),
            (None, None, true) => Some(Skip::ForeignGoalActive),
            (None, None, false) => Some(Skip::NoDecision),
        };
        let decision = in_effect.and_then(|i| self.message(i));
        if in_effect.is_none() {
            self.ctx.out.chosen = None;
            self.ctx.out.action = NavAction::None;
        }
        self.last = TickSummary {
            skipped,
            action: self.ctx.out.action,
            decision,
            aim_yaw: self.ctx.aim.map(|a| a.yaw),
            cancel_active_goal: self.ctx.out.cancel_active_goal,
        };
        self.last
    }

    fn message(&self, index: usize) -> Option<DecisionMsg> {
        let d = &self.tables.decisions.get(index)?.decision;
        let world = &self.ctx.world;
        let mut mode = if d.decide_mode == SKIP {
            world.mode
        } else {
            u8::try_from(d.decide_mode).ok()?
        };
        if world.autoaim_has_target && mode < MODE_AUTOAIM {
            mode = MODE_AUTOAIM;
        }
        let [x, y, _] = *self.ctx.out.poses.last()?;
        Some(DecisionMsg {
            decision_id: super::decisions::decision_id_on_wire(d.id),
            mode,
            x,
            y,
            theta: relative_yaw(self.ctx.aim.as_ref(), world.chassis_yaw),
        })
    }

    /// Carries over from `previous` (other tables, e.g. after a reload) the goal last sent and
    /// the running decision, when a decision with the same id exists here; otherwise the
    /// running decision ends (its goal is left to Nav2 and the next tick decides afresh).
    pub fn adopt_running(&mut self, previous: &Decider) {
        self.ticks = previous.ticks;
        self.ctx.memory.sent = previous.ctx.memory.sent.clone();
        let Some(old) = previous.ctx.memory.running_decision else {
            return;
        };
        let Some(id) = previous.tables.decisions.get(old).map(|d| d.decision.id) else {
            return;
        };
        let Some(index) = self
            .tables
            .decisions
            .iter()
            .position(|d| d.decision.id == id)
        else {
            return;
        };
        let Some(nodes) = self.nodes.get(index) else {
            return;
        };
        let path = [crate::engine::NodeId(0), nodes.rule, nodes.navigate];
        if self.tree.resume_running(&path) {
            self.ctx.memory.running_decision = Some(index);
            if let Some(sent) = self.ctx.memory.sent.as_mut() {
                sent.decision = index;
            }
        }
    }

    /// The aim target of the last tick.
    pub fn aim(&self) -> Option<AimTarget> {
        self.ctx.aim
    }

    /// What the root `weighted_selection` decided in its last tick.
    fn outcome(&self) -> Option<WeightedOutcome> {
        if self.fused {
            self.selection().and_then(DecisionSelection::outcome)
        } else {
            self.tree
                .behavior::<WeightedSelection>(NodeId(0))
                .and_then(WeightedSelection::outcome)
        }
    }

    /// The best decision of the last tick: the root's `best`, read when asked (only the
    /// result needs it), none when the tree was not ticked.
    fn best(&self) -> Option<usize> {
        if self.tree_ticked {
            self.outcome().and_then(|o| o.best)
        } else {
            None
        }
    }

    /// The root, when it checks the guards itself.
    fn selection(&self) -> Option<&DecisionSelection> {
        self.tree.behavior::<DecisionSelection>(NodeId(0))
    }

    /// The status node `node` returned in the last tree tick, as the trace of a tree whose
    /// guards are ticked node by node has it: the trace's, and for the guards and the rules
    /// whose guards failed, from what the root kept of its checks. `None` when it was not
    /// ticked (or before the first tick).
    pub fn status_of(&self, node: NodeId) -> Option<Status> {
        if let Some(status) = self.tree.trace().status_of(node) {
            return Some(status);
        }
        if !self.fused {
            return None;
        }
        let selection = self.selection()?;
        // The decisions' nodes are in preorder: the last rule at or before `node` is the only
        // decision that may hold it.
        let i = self
            .nodes
            .partition_point(|nodes| nodes.rule.0 <= node.0)
            .checked_sub(1)?;
        let nodes = self.nodes.get(i)?;
        if node.0 >= nodes.navigate.0 {
            return None;
        }
        let failure = selection.first_failure(i)?;
        if node == nodes.rule {
            return failure.map(|_| Status::Failure);
        }
        let of_check = |k: usize| match failure {
            Some(f) if k == f => Some(Status::Failure),
            Some(f) if k > f => None,
            _ => Some(Status::Success),
        };
        if let Some(k) = nodes.guards.iter().position(|g| *g == node) {
            return of_check(k);
        }
        // The guard's root: a `guards` node, or `AlwaysSuccess` (no guards).
        Some(if failure.is_some() {
            Status::Failure
        } else {
            Status::Success
        })
    }

    /// The first guard of decision `index` that failed in the last tick (None when its guards
    /// held, or when no tree tick happened).
    fn failing_guard(&self, index: usize) -> Option<NodeId> {
        self.failing_guard_of(self.fused_selection(), index)
    }

    /// The root when it checks the guards itself and this decider reads them from it.
    fn fused_selection(&self) -> Option<&DecisionSelection> {
        if self.fused { self.selection() } else { None }
    }

    /// [`failing_guard`](Self::failing_guard), with the root's record of the guards when it
    /// keeps one (`selection`, looked up once by callers that ask for every decision).
    fn failing_guard_of(
        &self,
        selection: Option<&DecisionSelection>,
        index: usize,
    ) -> Option<NodeId> {
        if !self.tree_ticked {
            return None;
        }
        if let Some(selection) = selection {
            let k = selection.first_failure(index)??;
            return self.nodes.get(index)?.guards.get(k).copied();
        }
        let trace = self.tree.trace();
        self.nodes
            .get(index)?
            .guards
            .iter()
            .copied()
            .find(|g| trace.status_of(*g) == Some(Status::Failure))
    }

    /// Indices of the decisions whose guards held in the last tick, in file order.
    pub fn available(&self) -> impl Iterator<Item = usize> + '_ {
        let ticked = self.tree_ticked;
        let selection = self.fused_selection();
        (0..self.nodes.len())
            .filter(move |i| ticked && self.failing_guard_of(selection, *i).is_none())
    }

    /// The first failing guard of decision `index` in the last tick, in words.
    pub fn why_not(&self, index: usize) -> Option<String> {
        let guard = self.failing_guard(index)?;
        self.tree.explain(guard, &self.ctx, self.ctx.world.elapsed)
    }

    /// The full result of the last tick, in the `decide` JSON Lines format.
    pub fn result(&self) -> TickResult {
        let mut result = TickResult::default();
        self.result_into(&mut result);
        result
    }

    /// Writes the result of the last tick into `r`, reusing its buffers (allocation-free once
    /// warmed up, for long `decide` streams).
    pub fn result_into(&self, r: &mut TickResult) {
        let decisions = &self.tables.decisions;
        let id_of = |i: usize| decisions.get(i).map(|d| d.decision.id);
        let out = &self.ctx.out;
        let input_skip = self.input_skipped();
        r.tick = self.ticks.saturating_sub(1);
        r.skipped = self.last.skipped;
        r.waypoint = if input_skip {
            None
        } else {
            self.ctx.world.waypoint
        };
        r.available.clear();
        r.available.extend(self.available().filter_map(id_of));
        r.best = self.best().and_then(id_of);
        r.chosen = out.chosen.and_then(id_of);
        r.action = out.action;
        r.path.clone_from(&out.path);
        r.poses.clone_from(&out.poses);
        r.aim_yaw = self.last.aim_yaw;
        r.decision = self.last.decision;
        r.cancelled = out.cancelled.and_then(id_of);
        let mut used = 0;
        {
            let selection = self.fused_selection();
            for i in 0..self.nodes.len() {
                let Some(guard) = self.failing_guard_of(selection, i) else {
                    continue;
                };
                let Some(id) = id_of(i) else { continue };
                if used == r.why_not.0.len() {
                    let spare = r.why_not.1.pop().unwrap_or_default();
                    r.why_not.0.push((id, spare));
                }
                if let Some(entry) = r.why_not.0.get_mut(used) {
                    entry.0 = id;
                    entry.1.clear();
                    self.tree
                        .explain_into(guard, &self.ctx, self.ctx.world.elapsed, &mut entry.1);
                    used += 1;
                }
            }
        }
        let WhyNot(entries, spare) = &mut r.why_not;
        spare.extend(
            entries
                .drain(used.min(entries.len())..)
                .map(|(_, text)| text),
        );
    }
}

impl Decider {
    /// Appends the result of the last tick to `out` as one `decide` JSON line (no newline),
    /// numbered `tick`: the same text as [`TickResult::write_json`] of [`Decider::result`],
    /// written straight from the decider's state, with each why-not text rendered directly
    /// into the line (no per-decision strings to fill and copy).
    pub fn write_result_json(&self, tick: u64, out: &mut String) {
        use super::result_json::{ResultHead, end_line, escape_tail, write_head};
        let decisions = &self.tables.decisions;
        let id_of = |i: usize| decisions.get(i).map(|d| d.decision.id);
        let out_state = &self.ctx.out;
        let head = ResultHead {
            tick,
            skipped: self.last.skipped,
            waypoint: if self.input_skipped() {
                None
            } else {
                self.ctx.world.waypoint
            },
            best: self.best().and_then(id_of),
            chosen: out_state.chosen.and_then(id_of),
            action: out_state.action,
            path: &out_state.path,
            poses: &out_state.poses,
            aim_yaw: self.last.aim_yaw,
            decision: self.last.decision,
            cancelled: out_state.cancelled.and_then(id_of),
        };
        write_head(out, &head, self.available().filter_map(id_of));
        let mut first = true;
        let selection = self.fused_selection();
        for i in 0..self.nodes.len() {
            let Some(guard) = self.failing_guard_of(selection, i) else {
                continue;
            };
            let Some(entry) = self.why_not_entries.get(i) else {
                continue;
            };
            // The key without its comma when it is the first.
            out.push_str(entry.key.get(usize::from(first)..).unwrap_or_default());
            first = false;
            let start = out.len();
            self.tree
                .explain_into(guard, &self.ctx, self.ctx.world.elapsed, out);
            if !entry.json_safe {
                escape_tail(out, start);
            }
            out.push('"');
        }
        end_line(out);
    }

    /// Whether the last tick was skipped for its inputs (before any decision was looked at).
    fn input_skipped(&self) -> bool {
        self.last.skipped.is_some_and(|s| {
            matches!(
                s,
                Skip::InvalidPosition | Skip::NotInBattle | Skip::NoPosition
            )
        })
    }
}

/// One line of `decide`'s output; the key names and their order are a stable contract.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TickResult {
    /// Tick index from 0.
    pub tick: u64,
    /// Why nothing was published, or null.
    pub skipped: Option<Skip>,
    /// Our current waypoint id, or null.
    pub waypoint: Option<i32>,
    /// Ids of the decisions whose guards held, in file order.
    pub available: Vec<i32>,
    /// Id of the best available decision (highest weight > 0, earliest on ties), or null.
    pub best: Option<i32>,
    /// Id of the decision in effect after the tick, or null.
    pub chosen: Option<i32>,
    /// What the navigation did.
    pub action: NavAction,
    /// Waypoint ids of `chosen`'s path.
    pub path: Vec<i32>,
    /// `[x, y, heading]` of each path waypoint.
    pub poses: Vec<GoalPose>,
    /// Absolute aim yaw, or null without a target.
    pub aim_yaw: Option<f32>,
    /// The Decision message published, or null.
    pub decision: Option<DecisionMsg>,
    /// Id of the decision whose running goal was cancelled this tick, or null.
    pub cancelled: Option<i32>,
    /// For each unavailable decision id, its first failing guard in words.
    pub why_not: WhyNot,
}

/// `why_not` in file order, serialised as a JSON object keyed by decision id; the second
/// field keeps spare strings so that reused results do not allocate.
#[derive(Debug, Clone, Default)]
pub struct WhyNot(pub Vec<(i32, String)>, Vec<String>);

impl WhyNot {
    /// `why_not` from (decision id, reason) pairs in file order.
    pub fn from_entries(entries: Vec<(i32, String)>) -> Self {
        Self(entries, Vec::new())
    }
}

impl PartialEq for WhyNot {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Serialize for WhyNot {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (id, reason) in &self.0 {
            map.serialize_entry(id, reason)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::Decider;
    use crate::engine::NodeId;
    use crate::robomaster::load::load;
    use crate::robomaster::snapshot::parse_line;
    use crate::robomaster::world::TickInput;
    use std::path::Path;
    use std::sync::Arc;

    /// The sample's inputs, then each again with HP, time, mode, outpost, base and positions
    /// moved through the guards' bounds, so that every guard holds and fails somewhere.
    fn inputs() -> Vec<TickInput> {
        let repo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let text = std::fs::read_to_string(repo.join("sample/snapshots.jsonl")).unwrap();
        let sample: Vec<TickInput> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| parse_line(l).unwrap())
            .collect();
        let mut out = sample.clone();
        for (n, base) in sample.iter().enumerate() {
            for k in 0..12u16 {
                let mut input = base.clone();
                let hp: u16 = [0, 1, 99, 100, 101, 150, 200, 299, 300, 301, 400, 1500][k as usize];
                for (slot, value) in input.hp.iter_mut().enumerate() {
                    *value = hp.wrapping_add((slot as u16 * 37 + k * 11) % 700);
                }
                input.remaining_time = f64::from((n as u16 * 29 + k * 61) % 430) - 2.5;
                input.mode = (k % 9) as u8;
                let shift = (f32::from(k) - 6.0) * 0.7;
                let moved = (n + usize::from(k)) % input.positions.len();
                input.positions[moved].x += shift;
                input.positions[(moved + 5) % 12].y -= shift * 0.5;
                out.push(input);
            }
        }
        out
    }

    #[test]
    fn fused_guards_decide_and_report_as_the_engine_selection() {
        let repo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let mut seen_failures = std::collections::BTreeSet::new();
        for config in ["sample/config.json"] {
            let tables = Arc::new(load(&repo.join(config)).tables.unwrap());
            let mut fused = Decider::new(tables.clone()).unwrap();
            let mut engine = Decider::on_engine_selection(tables).unwrap();
            assert!(fused.fused && !engine.fused);
            let count = fused.tree().node_count();
            for (i, input) in inputs().iter().enumerate() {
                assert_eq!(fused.tick(input), engine.tick(input), "input {i}");
                let (mut a, mut b) = (String::new(), String::new());
                fused.write_result_json(i as u64, &mut a);
                engine.write_result_json(i as u64, &mut b);
                assert_eq!(a, b, "input {i}");
                assert_eq!(fused.result(), engine.result(), "input {i}");
                for n in 0..count as u32 {
                    let node = NodeId(n);
                    let expected = engine.tree().trace().status_of(node);
                    assert_eq!(fused.status_of(node), expected, "input {i}, node {n}");
                    assert_eq!(engine.status_of(node), expected);
                    assert_eq!(
                        fused.tree().is_running(node),
                        engine.tree().is_running(node),
                        "input {i}, node {n}"
                    );
                }
                for d in 0..fused.decision_nodes().len() {
                    if let Some(guard) = fused.failing_guard(d) {
                        seen_failures.insert(guard);
                    }
                }
            }
        }
        // Most guards of the sample fail first somewhere.
        let guards: usize = Decider::new(Arc::new(
            load(&repo.join("sample/config.json")).tables.unwrap(),
        ))
        .unwrap()
        .decision_nodes()
        .iter()
        .map(|d| d.guards.len())
        .sum();
        assert!(
            seen_failures.len() * 2 > guards,
            "{} of {guards}",
            seen_failures.len()
        );
    }

    #[test]
    fn remembered_lines_of_sight_find_the_fresh_target() {
        use crate::robomaster::aim::{SightMemo, find_target, find_target_with_memo};
        use crate::robomaster::world::World;
        let repo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let tables = load(&repo.join("sample/config.json")).tables.unwrap();
        let mut memo = SightMemo::default();
        let mut world = World::default();
        let mut targets = 0;
        for (i, input) in inputs().iter().enumerate() {
            if world.update(input, &tables.config, &tables.graph).is_err() {
                continue;
            }
            let fresh = find_target(&world, &tables.config, &tables.map);
            let remembered = find_target_with_memo(&world, &tables.config, &tables.map, &mut memo);
            assert_eq!(remembered, fresh, "input {i}");
            targets += usize::from(fresh.is_some());
        }
        assert!(targets > 10, "{targets} targets");
    }
}
