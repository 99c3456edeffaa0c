//! The RoboMaster `weighted_selection`: the engine's [`WeightedSelection`] whose rules' guards
//! it checks itself, from flat copies of the guard conditions, instead of ticking a guard node
//! per rule (and a `guards` node checking a leaf each): a tick checks about forty-five
//! conditions of seventeen rules, and the visits and their trace records cost far more than the
//! checks.
//!
//! It decides exactly as [`WeightedSelection`] over the same tree: the same guards checked in the
//! same order (each rule's until the first that fails), the same `best`, and steps 3 to 5 are
//! the engine's own ([`WeightedSelection::choose`]). What differs is the record of the guards:
//! instead of a trace entry per guard node and per failed rule, it keeps per rule the position
//! of the first failing condition ([`DecisionSelection::first_failure`]), from which the
//! decider answers the statuses of those nodes ([`super::Decider::status_of`]) as the trace
//! did. A failed rule that is the running rule is still settled in the trace and its state, as
//! the engine does (its body may be ticked after).
//!
//! The tick looks for `best` only, heaviest rule first, and skips the rules whose
//! own-waypoint check cannot hold for our waypoint or whose time or HP check cannot hold at
//! the time and HP (a walk of the candidate checks per group of waypoints and intervals of
//! time and HP between the values where such a check turns); the first failure of a rule it
//! did not reach is found on demand, from what the tick observed.
//!
//! It is used when every rule's guard is a literal guard condition, a `guards` node over such
//! conditions, or `AlwaysSuccess`, with no pre- or post-condition on the rule or its guard
//! (the tree [`super::tree::decision_tree`] builds); any other tree gets the engine's
//! [`WeightedSelection`].

use super::context::RmContext;
use super::guard_set::{GUARDS, guard_of_child};
use super::guards::{BoundKind, Guard, Whose};
use super::world::World;
use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::nodes::weighted_selection::{RULE, WeightedSelection};
use crate::engine::{NodeBuilder, Registry, Status, TreeSpec};
use std::cell::Cell;

/// The kind id it is registered under: the engine's.
const KIND: &str = "weighted_selection";

/// Registers the engine's `weighted_selection` and `weighted_rule`, then this selection under
/// the same kind id and model.
pub fn register(registry: &mut Registry<RmContext>) {
    crate::engine::nodes::weighted_selection::register(registry);
    let Some(model) = registry.model(KIND).cloned() else {
        return;
    };
    registry.register(KIND, model, |b| {
        let choice = WeightedSelection::build(b)?;
        Ok(match DecisionSelection::of(b, choice) {
            Ok(fused) => Box::new(fused),
            Err(choice) => Box::new(choice),
        })
    });
}

/// The first failing condition of a rule whose conditions all held.
const HELD: u8 = u8::MAX;

/// The observed scalars, indexed by [`Check::at`]: mode, HP, time, outpost HP, base HP.
const SCALARS: usize = 5;

/// The index of the HP among the scalars.
const HP: u8 = 1;

/// The index of the time among the scalars.
const TIME: u8 = 2;

/// At most this many walks (groups of waypoints times time and HP intervals); beyond, the
/// HP's intervals are left out, then the time's.
const MAX_WALKS: usize = 1024;

/// The units whose waypoints a check may look at: ours, the friends', the enemies'.
const UNITS: usize = 13;

/// One guard condition, flat: `lo <= scalar[at] <= hi`, or unit `at`'s waypoint among the
/// accepted ids.
#[derive(Debug, Clone, Copy)]
struct Check {
    /// The accepted waypoint ids in `0..128`, as bits: ids `0..64` in the first word, ids
    /// `64..128` in the second (two words test cheaper than one `u128` shifted).
    small_ids: [u64; 2],
    lo: f64,
    hi: f64,
    /// For a waypoint check beyond the bits: 1 + its index in `large_ids` (0: none).
    large: u32,
    at: u8,
    waypoint: bool,
}

impl Check {
    /// The check of `guard`, exactly as [`Guard::check`] decides.
    fn of(guard: &Guard, large_ids: &mut Vec<Vec<i32>>) -> Self {
        match guard {
            Guard::Bound(bound) => {
                let (lo, hi) = bound.kind().accepted(bound.value());
                let at = match bound.kind() {
                    BoundKind::ModeIs => 0,
                    BoundKind::HpAbove | BoundKind::HpAtMost => HP,
                    BoundKind::TimeAfter | BoundKind::TimeUntil => TIME,
                    BoundKind::OutpostAtLeast | BoundKind::OutpostAtMost => 3,
                    BoundKind::BaseAtLeast => 4,
                };
                Check {
                    small_ids: [0; 2],
                    lo,
                    hi,
                    large: 0,
                    at,
                    waypoint: false,
                }
            }
            Guard::AtWaypoint(at_waypoint) => {
                let at = match at_waypoint.whose() {
                    Whose::Own => 0,
                    Whose::Friend(slot) => 1 + slot,
                    Whose::Enemy(slot) => 7 + slot,
                };
                let ids = at_waypoint.ids();
                let large = if ids.iter().any(|&id| !(0..128).contains(&id)) {
                    large_ids.push(ids.to_vec());
                    u32::try_from(large_ids.len()).unwrap_or(0)
                } else {
                    0
                };
                Check {
                    small_ids: {
                        let bits = at_waypoint.small_ids();
                        [bits as u64, (bits >> 64) as u64]
                    },
                    lo: 0.0,
                    hi: 0.0,
                    large,
                    at: u8::try_from(at).unwrap_or(u8::MAX),
                    waypoint: true,
                }
            }
        }
    }

    /// Whether it holds for these scalars and waypoints.
    #[inline(always)]
    fn holds(
        &self,
        scalars: &[f64; SCALARS],
        waypoints: &[Option<i32>; UNITS],
        large_ids: &[Vec<i32>],
    ) -> bool {
        if self.waypoint {
            match waypoints.get(self.at as usize).copied().flatten() {
                Some(w) if (w as u32) < u128::BITS => self.accepts_small(w as u32),
                Some(w) => self.holds_beyond_bits(w, large_ids),
                None => false,
            }
        } else {
            self.accepts_scalar(scalars.get(self.at as usize).copied().unwrap_or(f64::NAN))
        }
    }

    /// Whether a check on a scalar accepts value `v` (NaN never).
    #[inline(always)]
    fn accepts_scalar(&self, v: f64) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// Whether it checks scalar `at` (not a waypoint, whose index may be the same number).
    fn is_on_scalar(&self, at: u8) -> bool {
        !self.waypoint && self.at == at
    }

    /// Whether it checks our own waypoint.
    fn is_own_waypoint(&self) -> bool {
        self.waypoint && self.at == 0
    }

    /// Whether waypoint `w`, in `0..128`, is accepted (its bit).
    #[inline(always)]
    fn accepts_small(&self, w: u32) -> bool {
        let word = self.small_ids.get((w >> 6) as usize).copied().unwrap_or(0);
        word >> (w & 63) & 1 != 0
    }

    /// Whether waypoint `w`, outside `0..128`, is accepted.
    #[cold]
    #[inline(never)]
    fn holds_beyond_bits(&self, w: i32, large_ids: &[Vec<i32>]) -> bool {
        (self.large as usize)
            .checked_sub(1)
            .and_then(|i| large_ids.get(i))
            .is_some_and(|ids| ids.contains(&w))
    }
}

/// A rule's weight and where its checks are in [`DecisionSelection::checks`].
#[derive(Debug, Clone, Copy)]
struct FusedRule {
    weight: f64,
    checks_start: u32,
    checks_end: u32,
}

/// What the guards of a tick look at: the observed scalars and the units' waypoints.
#[derive(Debug, Clone, Copy)]
struct Observed {
    scalars: [f64; SCALARS],
    waypoints: [Option<i32>; UNITS],
}

/// A check of a rule that can be chosen, in a walk of [`DecisionSelection::walks`].
#[derive(Debug, Clone, Copy)]
struct CandidateCheck {
    check: Check,
    /// The rule.
    rule: u32,
    /// Where the next rule's checks start (where to go on when this check fails).
    next: u32,
    /// Its position among the rule's checks.
    k: u8,
    /// Whether it is the rule's last check.
    last: bool,
}

/// One walk of [`DecisionSelection::walks`].
#[derive(Debug, Clone, Default)]
struct Walk {
    checks: Vec<CandidateCheck>,
    /// The rule after the last of `checks` whose remaining checks are none (all left out):
    /// it holds whenever the walk reaches it. `None`: [`DecisionSelection::always`].
    end: Option<u32>,
}

/// The `weighted_selection` of a decision tree, checking its rules' guards itself.
pub struct DecisionSelection {
    choice: WeightedSelection,
    rules: Vec<FusedRule>,
    /// Every rule's checks, rule after rule, each rule's in its guards' order.
    checks: Vec<Check>,
    /// The accepted ids of the waypoint checks with ids outside `0..128`.
    large_ids: Vec<Vec<i32>>,
    /// The checks of the rules that can be chosen (weight `> 0`), one rule after the other,
    /// heaviest first, in declaration order among equal weights: the first rule whose checks
    /// all hold is `best`. A walk ends before the first such rule without checks, `always`,
    /// or at a rule all of whose checks it leaves out ([`Walk::end`]). One walk per group of
    /// our own waypoints ([`DecisionSelection::walk_of_waypoint`]) and interval of time and
    /// HP ([`DecisionSelection::walk_at`]), equal walks kept once: each
    /// leaves out the rules whose own-waypoint check fails for every waypoint of its group
    /// (they cannot be `best`; a rule the walk does not reach is checked on demand), and the
    /// own-waypoint checks that hold for every waypoint of its group (a walk other than the
    /// first, whose group is waypoints in `0..128` only): a check left out holds whenever the
    /// walk runs, so the first failure of what remains is the rule's. Likewise the time and
    /// HP checks that fail or hold throughout the walk's intervals.
    walks: Vec<Walk>,
    /// The group of our own waypoint `w` in `0..128`, at `w`; for no waypoint, or one outside
    /// `0..128`, the first group.
    walk_of_waypoint: [u8; 128],
    /// The scalars whose intervals pick walks too: the time, then the HP ([`Axis`]).
    axes: [Axis; 2],
    /// The walk of group `g` and slots `t` (time) and `h` (HP) at
    /// `(g * axes[0].slots + t) * axes[1].slots + h`: it leaves out the rules whose checks on
    /// those scalars fail throughout their intervals and the checks on them that hold
    /// throughout (slot 0: any value, nothing left out).
    walk_at: Vec<u16>,
    /// The heaviest rule that can be chosen and has no guard conditions (it always holds).
    always: Option<usize>,
    /// What the guards of the last tick looked at.
    observed: Observed,
    /// Per rule: `stamp << 8 | k`, `k` the position of its first failing check in the tick
    /// stamped `stamp` ([`HELD`] when all held). The tick checks rules only until it finds
    /// `best`; a rule without the last tick's stamp is checked on demand, from `observed`.
    first_failure: Vec<Cell<u32>>,
    /// The stamp of the last tick (0: none yet); wraps at 2^24, when every record is cleared.
    stamp: u32,
}

/// The stamps of [`DecisionSelection::first_failure`] count ticks modulo this.
const STAMPS: u32 = 1 << 24;

impl DecisionSelection {
    /// The selection of `b` over `choice` (`b`'s engine selection) when every rule's guard
    /// can be checked flat; else `choice` back.
    fn of(b: &NodeBuilder<'_>, choice: WeightedSelection) -> Result<Self, WeightedSelection> {
        let mut fused = DecisionSelection {
            choice,
            rules: Vec::with_capacity(b.child_count()),
            checks: Vec::new(),
            large_ids: Vec::new(),
            walks: Vec::new(),
            walk_of_waypoint: [0; 128],
            axes: [Axis::new(TIME), Axis::new(HP)],
            walk_at: Vec::new(),
            always: None,
            observed: Observed {
                scalars: [f64::NAN; SCALARS],
                waypoints: [None; UNITS],
            },
            first_failure: Vec::with_capacity(b.child_count()),
            stamp: 0,
        };
        match fused.flatten(b) {
            Some(()) => Ok(fused),
            None => Err(fused.choice),
        }
    }

    /// Fills the flat checks of `b`'s rules, heaviest first; `None` when a guard cannot be
    /// checked flat.
    fn flatten(&mut self, b: &NodeBuilder<'_>) -> Option<()> {
        for (i, rule) in b.children().iter().enumerate() {
            let guards = flat_guards(rule)?;
            if guards.len() >= usize::from(HELD) {
                return None;
            }
            let checks_start = u32::try_from(self.checks.len()).ok()?;
            for guard in &guards {
                let check = Check::of(guard, &mut self.large_ids);
                self.checks.push(check);
            }
            self.rules.push(FusedRule {
                weight: self.choice.weight(i)?,
                checks_start,
                checks_end: u32::try_from(self.checks.len()).ok()?,
            });
            self.first_failure.push(Cell::new(0));
        }
        let rules = &self.rules;
        let mut order: Vec<usize> = (0..rules.len())
            .filter(|&i| rules[i].weight > 0.0)
            .collect();
        // Stable: equal weights stay in declaration order.
        order.sort_by(|&a, &b| rules[b].weight.total_cmp(&rules[a].weight));
        // The candidate rules, up to the first without checks (`always`).
        let mut candidates = Vec::new();
        for i in order {
            let rule = rules.get(i)?;
            let checks = self
                .checks
                .get(rule.checks_start as usize..rule.checks_end as usize)?;
            if checks.is_empty() {
                self.always = Some(i);
                break;
            }
            candidates.push((i, checks));
        }
        // The rules each walk keeps (those whose own-waypoint checks may hold for its group
        // of waypoints), each set once; the first walk is the one of no waypoint or one
        // outside `0..128`, where `walk_of_waypoint` starts.
        let mut kept_of: Vec<Vec<bool>> = Vec::new();
        for own in [None].into_iter().chain((0..128u32).map(Some)) {
            let kept: Vec<bool> = candidates
                .iter()
                .map(|(_, checks)| own_checks_may_hold(checks, own))
                .collect();
            let walk = match kept_of.iter().position(|k| *k == kept) {
                Some(walk) => walk,
                None => {
                    kept_of.push(kept);
                    kept_of.len() - 1
                }
            };
            if let Some(w) = own {
                *self.walk_of_waypoint.get_mut(w as usize)? = u8::try_from(walk).ok()?;
            }
        }
        // The values at which a candidate's time or HP check turns, when there are few
        // enough walks for every group and interval (else the HP's are left out first).
        for axis in &mut self.axes {
            axis.break_at(candidates.iter().flat_map(|(_, checks)| checks.iter()));
        }
        for a in (0..self.axes.len()).rev() {
            let walks: usize = kept_of.len() * self.axes.iter().map(|x| x.slots).product::<usize>();
            if walks > MAX_WALKS {
                self.axes[a].break_at([].iter());
            }
        }
        let [time_axis, hp_axis] = &self.axes;
        let mut reps: Vec<[Option<f64>; 2]> = Vec::new();
        for t in time_axis.representatives() {
            for h in hp_axis.representatives() {
                reps.push([t, h]);
            }
        }
        let axes = [time_axis.at, hp_axis.at];
        type WalkKey = (Vec<(u32, u8)>, Option<u32>);
        let mut seen: std::collections::HashMap<WalkKey, u16> = std::collections::HashMap::new();
        for (g, kept) in kept_of.iter().enumerate() {
            // The first walk's group has no waypoint, or one outside `0..128`: no check is
            // left out there.
            let group: Vec<u32> = (0..128u32)
                .filter(|&w| g != 0 && usize::from(self.walk_of_waypoint[w as usize]) == g)
                .collect();
            for rep in &reps {
                let mut walk = Walk::default();
                let kept_rules = candidates.iter().zip(kept).filter(|(_, keep)| **keep);
                for ((i, checks), _) in kept_rules {
                    let rule = u32::try_from(*i).ok()?;
                    let fails = |c: &Check| {
                        axes.iter()
                            .zip(rep)
                            .any(|(&at, v)| v.is_some_and(|v| fails_at(c, at, v)))
                    };
                    if checks.iter().any(fails) {
                        continue;
                    }
                    // Every check on a scalar of a value in `rep` holds there.
                    let fixed = |c: &Check| {
                        axes.iter()
                            .zip(rep)
                            .any(|(&at, v)| v.is_some() && c.is_on_scalar(at))
                    };
                    let remaining: Vec<(usize, &Check)> = checks
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| !holds_for_group(c, &group) && !fixed(c))
                        .collect();
                    if remaining.is_empty() {
                        walk.end = Some(rule);
                        break;
                    }
                    let next = u32::try_from(walk.checks.len() + remaining.len()).ok()?;
                    for (n, (k, check)) in remaining.iter().enumerate() {
                        walk.checks.push(CandidateCheck {
                            check: **check,
                            rule,
                            next,
                            k: u8::try_from(*k).ok()?,
                            last: n + 1 == remaining.len(),
                        });
                    }
                }
                // Walks of the same rules and checks are kept once.
                let key: Vec<(u32, u8)> = walk.checks.iter().map(|c| (c.rule, c.k)).collect();
                let index = match seen.get(&(key.clone(), walk.end)) {
                    Some(&index) => index,
                    None => {
                        let index = u16::try_from(self.walks.len()).ok()?;
                        seen.insert((key, walk.end), index);
                        self.walks.push(walk);
                        index
                    }
                };
                self.walk_at.push(index);
            }
        }
        Some(())
    }

    /// The position of the first of `checks` that fails on `observed` ([`HELD`] when all hold).
    #[inline(always)]
    fn first_failing(checks: &[Check], observed: &Observed, large_ids: &[Vec<i32>]) -> u8 {
        for (k, check) in checks.iter().enumerate() {
            if !check.holds(&observed.scalars, &observed.waypoints, large_ids) {
                return k as u8;
            }
        }
        HELD
    }

    /// Rule `i`'s first failing check in the last tick ([`HELD`] when all held), checked now
    /// if the tick did not.
    #[inline]
    fn checked_rule(&self, i: usize) -> u8 {
        let (Some(cell), Some(rule)) = (self.first_failure.get(i), self.rules.get(i)) else {
            return HELD;
        };
        let recorded = cell.get();
        if recorded >> 8 == self.stamp {
            return recorded as u8;
        }
        let checks = self
            .checks
            .get(rule.checks_start as usize..rule.checks_end as usize)
            .unwrap_or_default();
        let k = Self::first_failing(checks, &self.observed, &self.large_ids);
        cell.set(self.stamp << 8 | u32::from(k));
        k
    }

    /// The number of rules.
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// What the last tick decided.
    pub fn outcome(&self) -> Option<crate::engine::nodes::weighted_selection::WeightedOutcome> {
        self.choice.outcome()
    }

    /// Rule `i`'s guard in the last tick: `Some(None)` when every condition held,
    /// `Some(Some(k))` when its `k`-th condition was the first to fail (the later ones were
    /// not checked); `None` before the first tick or for no such rule.
    #[inline]
    pub fn first_failure(&self, i: usize) -> Option<Option<usize>> {
        if self.stamp == 0 || i >= self.rules.len() {
            return None;
        }
        let k = self.checked_rule(i);
        Some((k != HELD).then_some(usize::from(k)))
    }
}

/// The guard conditions of `rule`, in check order, when it is a `weighted_rule` whose guard is
/// a literal guard condition, a `guards` node over such conditions, or `AlwaysSuccess`
/// (none), with no pre- or post-condition on either.
fn flat_guards(rule: &TreeSpec) -> Option<Vec<Guard>> {
    let guard = rule.children.first()?;
    if rule.kind != RULE || has_conditions(rule) || has_conditions(guard) {
        return None;
    }
    match guard.kind.as_str() {
        "AlwaysSuccess" if guard.children.is_empty() => Some(Vec::new()),
        GUARDS => guard
            .children
            .iter()
            .enumerate()
            .map(|(i, child)| guard_of_child(i, child).ok())
            .collect(),
        _ if guard.children.is_empty() => guard_of_child(0, guard).ok().map(|g| vec![g]),
        _ => None,
    }
}

/// The group of our own waypoint `w` that picks a walk: `w` itself in `0..128`, else `None`.
#[inline(always)]
fn own_group(w: Option<i32>) -> Option<u32> {
    w.map(|w| w as u32).filter(|&w| w < u128::BITS)
}

/// Whether the own-waypoint checks of `checks` may all hold for some own waypoint of the group
/// `own` ([`own_group`]); false only when one of them fails for every waypoint of the group.
fn own_checks_may_hold(checks: &[Check], own: Option<u32>) -> bool {
    checks
        .iter()
        .filter(|c| c.is_own_waypoint())
        .all(|c| match own {
            Some(w) => c.accepts_small(w),
            // Only ids outside `0..128` (in `large_ids`) can hold there.
            None => c.large != 0,
        })
}

/// Whether `check` is an own-waypoint check that holds for every waypoint of `group` (ids in
/// `0..128`; false for an empty group), so that a walk run only for those can leave it out.
fn holds_for_group(check: &Check, group: &[u32]) -> bool {
    check.is_own_waypoint() && !group.is_empty() && group.iter().all(|&w| check.accepts_small(w))
}

/// One scalar whose value picks walks: the values at which a candidate's check on it turns
/// (each finite `lo`, and the number after each finite `hi`), sorted. Between two of them
/// (and before the first, after the last) every check on it holds throughout or fails
/// throughout, so each of these intervals has its walks.
#[derive(Debug, Clone)]
struct Axis {
    /// The scalar ([`Check::at`]).
    at: u8,
    breaks: Vec<f64>,
    /// The number of slots: 1 without breaks (slot 0, any value), else `breaks.len() + 2`
    /// (slot 0 for a value that is not finite, slot `1 + i` for the interval after `i`
    /// breaks).
    slots: usize,
    /// Per slot, the values `[lo, hi)` it is for: the interval's (from `-f64::MAX` for the
    /// first, to infinity for the last), and for slot 0 none (NaN) when there are intervals,
    /// every value but +∞ and NaN when there are none (those reach slot 0 through
    /// [`slot_of`]).
    slot_values: Vec<(f64, f64)>,
    /// The slot of the last tick, tried first (a tick's value is usually in the same
    /// interval as the last one's).
    hint: usize,
}

impl Axis {
    fn new(at: u8) -> Self {
        let mut axis = Axis {
            at,
            breaks: Vec::new(),
            slots: 1,
            slot_values: Vec::new(),
            hint: 0,
        };
        axis.break_at([].iter());
        axis
    }

    /// Sets the breaks of `checks`' checks on this scalar.
    fn break_at<'a>(&mut self, checks: impl Iterator<Item = &'a Check>) {
        let mut breaks: Vec<f64> = checks
            .filter(|c| c.is_on_scalar(self.at))
            .flat_map(|c| [c.lo, c.hi.next_up()])
            .filter(|t| t.is_finite())
            .collect();
        breaks.sort_by(f64::total_cmp);
        breaks.dedup_by(|a, b| a == b);
        self.slots = if breaks.is_empty() {
            1
        } else {
            breaks.len() + 2
        };
        self.slot_values = if breaks.is_empty() {
            vec![(f64::NEG_INFINITY, f64::INFINITY)]
        } else {
            let starts = [f64::NAN, -f64::MAX]
                .into_iter()
                .chain(breaks.iter().copied());
            let ends = [f64::NAN].into_iter().chain(breaks.iter().copied());
            starts.zip(ends.chain([f64::INFINITY])).collect()
        };
        self.breaks = breaks;
        self.hint = 0;
    }

    /// Per slot, a value at which every check on this scalar holds or fails as it does
    /// throughout the slot's interval: none for slot 0 (any value), -∞ for the interval
    /// before the first break (a check that holds at -∞ has no finite lower bound, so it
    /// holds there too), then each later interval's first value, its break.
    fn representatives(&self) -> Vec<Option<f64>> {
        [None, Some(f64::NEG_INFINITY)]
            .into_iter()
            .chain(self.breaks.iter().map(|&t| Some(t)))
            .take(self.slots)
            .collect()
    }

    /// The slot of value `v`, the last tick's when `v` is in its interval.
    #[inline(always)]
    fn slot(&mut self, v: f64) -> usize {
        match self.slot_values.get(self.hint) {
            Some(&(lo, hi)) if lo <= v && v < hi => self.hint,
            _ => {
                self.hint = slot_of(&self.breaks, v);
                self.hint
            }
        }
    }
}

/// The slot of value `v` ([`Axis::slots`]) for these `breaks`: 0 when there are none or `v`
/// is not finite, else 1 + the number of breaks at or before `v`.
#[cold]
#[inline(never)]
fn slot_of(breaks: &[f64], v: f64) -> usize {
    if breaks.is_empty() || !v.is_finite() {
        0
    } else {
        1 + breaks.partition_point(|&b| b <= v)
    }
}

/// Whether `check` is a check on scalar `at` that fails at value `v`.
fn fails_at(check: &Check, at: u8, v: f64) -> bool {
    check.is_on_scalar(at) && !check.accepts_scalar(v)
}

/// Whether `spec` has a pre- or post-condition (a `_` port).
fn has_conditions(spec: &TreeSpec) -> bool {
    spec.ports.keys().any(|key| key.starts_with('_'))
}

/// The units' waypoints, as [`Check::at`] numbers them.
#[inline(always)]
fn waypoints(w: &World) -> [Option<i32>; UNITS] {
    let f = &w.friends;
    let e = &w.enemies;
    [
        w.waypoint,
        f[0].waypoint,
        f[1].waypoint,
        f[2].waypoint,
        f[3].waypoint,
        f[4].waypoint,
        f[5].waypoint,
        e[0].waypoint,
        e[1].waypoint,
        e[2].waypoint,
        e[3].waypoint,
        e[4].waypoint,
        e[5].waypoint,
    ]
}

impl Behavior<RmContext> for DecisionSelection {
    fn tick(&mut self, cx: &mut Cx<'_, RmContext>) -> Result<Status, Fault> {
        let now = cx.now();
        let world = &cx.ctx().world;
        self.observed = Observed {
            scalars: [
                f64::from(world.mode),
                f64::from(world.hp),
                now,
                f64::from(world.outpost_hp),
                f64::from(world.base_hp),
            ],
            waypoints: waypoints(world),
        };
        self.stamp += 1;
        if self.stamp == STAMPS {
            // Forget every record so that no stale stamp matches.
            for cell in &self.first_failure {
                cell.set(0);
            }
            self.stamp = 1;
        }
        // (1) + (2): the heaviest rule whose guard holds; the others are checked on demand.
        let observed = &self.observed;
        let group = match own_group(observed.waypoints[0]) {
            Some(w) => self.walk_of_waypoint.get(w as usize).copied().unwrap_or(0),
            None => 0,
        };
        let [time_axis, hp_axis] = &mut self.axes;
        let t = time_axis.slot(observed.scalars[usize::from(TIME)]);
        let h = hp_axis.slot(observed.scalars[usize::from(HP)]);
        let walk = self
            .walk_at
            .get((usize::from(group) * time_axis.slots + t) * hp_axis.slots + h)
            .copied()
            .unwrap_or(u16::MAX);
        // Held in locals: a record written through its `Cell` could otherwise be taken to
        // change them.
        let (walk_end, candidate_checks) = match self.walks.get(usize::from(walk)) {
            Some(walk) => (walk.end, walk.checks.as_slice()),
            None => (None, &[][..]),
        };
        let (stamp, first_failure) = (self.stamp << 8, &self.first_failure[..]);
        let record = |rule: u32, k: u8| {
            if let Some(cell) = first_failure.get(rule as usize) {
                cell.set(stamp | u32::from(k));
            }
        };
        let mut at = 0usize;
        let best_rule = loop {
            let Some(c) = candidate_checks.get(at) else {
                break match walk_end {
                    Some(rule) => {
                        record(rule, HELD);
                        Some(rule as usize)
                    }
                    None => self.always,
                };
            };
            if c.check
                .holds(&observed.scalars, &observed.waypoints, &self.large_ids)
            {
                if c.last {
                    record(c.rule, HELD);
                    break Some(c.rule as usize);
                }
                at += 1;
            } else {
                record(c.rule, c.k);
                at = c.next as usize;
            }
        };
        let best = best_rule.and_then(|i| Some((i, self.rules.get(i)?.weight)));
        // The running rule whose guard failed is settled as the engine does.
        if let Some(r) = self.choice.running()
            && self.checked_rule(r) != HELD
        {
            self.choice.settle_failed_rule(cx, r);
        }
        self.choice.choose(cx, best)
    }

    fn halt(&mut self, cx: &mut Cx<'_, RmContext>) {
        Behavior::<RmContext>::halt(&mut self.choice, cx);
    }

    fn can_resume(&self) -> bool {
        true
    }

    fn resume(&mut self, child: Option<usize>) {
        Behavior::<RmContext>::resume(&mut self.choice, child);
    }

    fn running_child(&self) -> Option<usize> {
        self.choice.running()
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::{Check, SCALARS, UNITS, own_checks_may_hold, own_group};
    use crate::robomaster::guards::{AtWaypoint, Guard, Whose};

    #[test]
    fn a_waypoint_check_holds_exactly_for_the_accepted_ids() {
        let sets: [&[i32]; 6] = [
            &[],
            &[0],
            &[5, 63, 64, 65],
            &[1, 62, 127, 128, 129],
            &[-1, 200, 999, i32::MAX],
            &[0, 1, 2, 63, 64, 100, 126, 127, -7, 128, 4096],
        ];
        for ids in sets {
            for (whose, at) in [
                (Whose::Own, 0),
                (Whose::Friend(2), 3),
                (Whose::Enemy(5), 12),
            ] {
                let guard = Guard::AtWaypoint(AtWaypoint::new(whose, ids.to_vec()));
                let mut large_ids = Vec::new();
                let check = Check::of(&guard, &mut large_ids);
                let observed = (-5..=203)
                    .chain([i32::MIN, -1, 4096, i32::MAX])
                    .map(Some)
                    .chain([None]);
                for w in observed {
                    let mut waypoints = [None; UNITS];
                    waypoints[at] = w;
                    let holds = check.holds(&[0.0; SCALARS], &waypoints, &large_ids);
                    let expected = w.is_some_and(|w| ids.contains(&w));
                    assert_eq!(holds, expected, "ids {ids:?}, {whose:?}, waypoint {w:?}");
                }
            }
        }
    }

    /// The walks (with the own-waypoint, time and HP checks they leave out, and the rules
    /// whose time or HP checks fail in their intervals) record for every rule they
    /// reach the first failing check that checking all of its conditions in order finds, and
    /// find the same `best`: random rules of own-waypoint checks (none to two, over ids that
    /// put several waypoints in one group, some beyond the bits), HP and time bounds and an
    /// enemy's waypoint, ticked at random waypoints (none, and beyond the bits too), HP (at
    /// and next to the bounds) and times (at, just before and after the bounds, and not
    /// finite).
    #[test]
    fn the_walks_record_what_checking_every_condition_finds() {
        use super::{DecisionSelection, GUARDS, HELD};
        use crate::engine::nodes::weighted_selection::RULE;
        use crate::engine::{NodeId, Registry, TreeSpec, compile};
        use crate::robomaster::context::RmContext;
        use crate::robomaster::guards::{AT_WAYPOINT, ENEMY_AT, FRIEND_AT};
        use geometry::rng::SplitMix64;
        use serde_json::json;
        fn pick_of(rng: &mut SplitMix64, n: usize) -> usize {
            ((rng.unit_f32() * n as f32) as usize).min(n - 1)
        }
        fn ids(rng: &mut SplitMix64) -> Vec<i32> {
            let mut ids: Vec<i32> = (0..1 + pick_of(rng, 4))
                .map(|_| [pick_of(rng, 8) as i32, 200][usize::from(pick_of(rng, 6) == 0)])
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        }
        let rng = &mut SplitMix64::new(29);
        let mut compared = 0;
        let mut held = 0;
        for _ in 0..80 {
            let mut rules = Vec::new();
            for _ in 0..2 + pick_of(rng, 8) {
                let mut guards = Vec::new();
                for _ in 0..pick_of(rng, 3) {
                    let ids = ids(rng);
                    guards.push((AT_WAYPOINT, json!({ "ids": ids })));
                }
                if pick_of(rng, 2) == 0 {
                    guards.push(("hp_above", json!({ "value": pick_of(rng, 5) * 100 })));
                }
                if pick_of(rng, 2) == 0 {
                    guards.push(("time_until", json!({ "value": pick_of(rng, 5) * 50 })));
                }
                if pick_of(rng, 3) == 0 {
                    guards.push(("time_after", json!({ "value": pick_of(rng, 5) * 50 })));
                }
                if pick_of(rng, 3) == 0 {
                    guards.push(("hp_at_most", json!({ "value": pick_of(rng, 5) * 100 })));
                }
                if pick_of(rng, 3) == 0 {
                    let ids = ids(rng);
                    guards.push((ENEMY_AT, json!({ "slot": 1, "ids": ids })));
                }
                // A friend's waypoint check shares its index with the HP (slot 0) or the
                // time (slot 1): it must not be taken for a check on them.
                if pick_of(rng, 3) == 0 {
                    let ids = ids(rng);
                    let slot = pick_of(rng, 2);
                    guards.push((FRIEND_AT, json!({ "slot": slot, "ids": ids })));
                }
                let leaf = |(kind, ports): (&str, serde_json::Value)| TreeSpec {
                    ports: ports.as_object().cloned().unwrap_or_default(),
                    ..TreeSpec::new(kind)
                };
                let guard = match guards.len() {
                    0 => TreeSpec::new("AlwaysSuccess"),
                    1 => leaf(guards.remove(0)),
                    _ => TreeSpec::new(GUARDS).with_children(guards.into_iter().map(leaf)),
                };
                let weight = [0, 100, 200, 300, 300, 400][pick_of(rng, 6)];
                rules.push(TreeSpec {
                    ports: json!({ "weight": weight })
                        .as_object()
                        .cloned()
                        .unwrap_or_default(),
                    ..TreeSpec::new(RULE).with_children([guard, TreeSpec::new("AlwaysFailure")])
                });
            }
            let spec = TreeSpec::new("weighted_selection").with_children(rules);
            let mut registry = crate::engine::Registry::<RmContext>::new();
            crate::engine::nodes::register_standard(&mut registry);
            super::register(&mut registry);
            crate::robomaster::guards::register(&mut registry);
            let _: &Registry<RmContext> = &registry;
            let mut tree = compile(&spec, &registry).unwrap();
            let mut ctx = RmContext::default();
            for _ in 0..40 {
                ctx.world.waypoint = [None, Some(200), Some(300), Some(pick_of(rng, 10) as i32)]
                    [pick_of(rng, 4).max(pick_of(rng, 4))];
                ctx.world.hp = ((pick_of(rng, 6) * 100) as u16 + [0, 1][pick_of(rng, 2)])
                    .saturating_sub([0, 1][pick_of(rng, 2)]);
                ctx.world.enemies[1].waypoint =
                    Some(pick_of(rng, 8) as i32).filter(|_| pick_of(rng, 4) != 0);
                for friend in &mut ctx.world.friends[..2] {
                    friend.waypoint = Some(pick_of(rng, 8) as i32).filter(|_| pick_of(rng, 4) != 0);
                }
                let now = match pick_of(rng, 12) {
                    0 => [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][pick_of(rng, 3)],
                    // Bounds, around them, and where a time check turns (after an `hi`).
                    k => {
                        let bound = (pick_of(rng, 6) * 50) as f64;
                        match k % 4 {
                            0 => bound.next_up(),
                            1 => bound + [0.5, -0.5][pick_of(rng, 2)],
                            _ => bound,
                        }
                    }
                };
                tree.tick(&mut ctx, now);
                let selection = tree.behavior::<DecisionSelection>(NodeId(0)).unwrap();
                let mut best: Option<(usize, f64)> = None;
                for (i, rule) in selection.rules.iter().enumerate() {
                    let checks =
                        &selection.checks[rule.checks_start as usize..rule.checks_end as usize];
                    let plain = DecisionSelection::first_failing(
                        checks,
                        &selection.observed,
                        &selection.large_ids,
                    );
                    let recorded = selection.first_failure[i].get();
                    if recorded >> 8 == selection.stamp {
                        assert_eq!(recorded as u8, plain, "rule {i}");
                        compared += 1;
                    }
                    if plain == HELD
                        && rule.weight > 0.0
                        && best.is_none_or(|(_, w)| rule.weight > w)
                    {
                        best = Some((i, rule.weight));
                    }
                }
                let outcome = selection.outcome().unwrap();
                assert_eq!(outcome.best, best.map(|(i, _)| i));
                held += usize::from(best.is_some());
            }
        }
        assert!(
            compared > 1_500 && held > 600,
            "{compared} records, {held} bests"
        );
    }

    /// A walk leaves a rule out for our waypoint's group only when the rule's checks fail
    /// for that waypoint: random rules of own, friend and enemy waypoint checks (ids inside
    /// and outside `0..128`), every waypoint around and beyond the bits, and none.
    #[test]
    fn a_rule_left_out_of_a_walk_fails_for_every_waypoint_of_its_group() {
        use crate::robomaster::guards::{AtWaypoint, Guard, Whose};
        let mut rng = geometry::rng::SplitMix64::new(17);
        let mut left_out = 0;
        for _ in 0..300 {
            let mut large_ids = Vec::new();
            let count = 1 + (rng.unit_f32() * 3.0) as usize;
            let checks: Vec<Check> = (0..count)
                .map(|_| {
                    let ids: Vec<i32> = (0..1 + (rng.unit_f32() * 4.0) as usize)
                        .map(|_| {
                            let pick = rng.unit_f32();
                            if pick < 0.7 {
                                (rng.unit_f32() * 8.0) as i32
                            } else if pick < 0.85 {
                                120 + (rng.unit_f32() * 16.0) as i32
                            } else {
                                -1 - (rng.unit_f32() * 3.0) as i32
                            }
                        })
                        .collect();
                    let whose = if rng.unit_f32() < 0.7 {
                        Whose::Own
                    } else {
                        Whose::Enemy(1)
                    };
                    Check::of(
                        &Guard::AtWaypoint(AtWaypoint::new(whose, ids)),
                        &mut large_ids,
                    )
                })
                .collect();
            for w in (-4..140).map(Some).chain([None]) {
                let mut waypoints = [None; UNITS];
                waypoints[0] = w;
                if !own_checks_may_hold(&checks, own_group(w)) {
                    left_out += 1;
                    let own_checks = checks.iter().filter(|c| c.at == 0);
                    assert!(
                        own_checks.clone().any(|c| !c.holds(
                            &[0.0; SCALARS],
                            &waypoints,
                            &large_ids
                        )),
                        "waypoint {w:?}"
                    );
                }
            }
        }
        assert!(left_out > 10_000, "{left_out} rules left out");
    }
}
