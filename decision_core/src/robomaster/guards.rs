//! The guard conditions of a decision, one leaf per field of `decisions.json`. Predicates read
//! as questions about the world; explanations name the field, the observed value and the bound.

use super::context::RmContext;
use super::guard_leaf::GuardLeaf;
use super::world::{SLOT_NAMES, Unit};
use crate::engine::blackboard::EntryType;
use crate::engine::{Condition, LeafParams, ParamError, PortDecl, Registry};

/// Which scalar a bound guard compares and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundKind {
    /// `minHP < HP`.
    HpAbove,
    /// `HP <= maxHP`.
    HpAtMost,
    /// `start_time < elapsed`.
    TimeAfter,
    /// `elapsed <= end_time`.
    TimeUntil,
    /// `outpost HP >= out_post_HP_min`.
    OutpostAtLeast,
    /// `outpost HP <= out_post_HP_max`.
    OutpostAtMost,
    /// `base HP >= base_HP_min`.
    BaseAtLeast,
    /// `serial mode == robot_mode`.
    ModeIs,
}

impl BoundKind {
    /// All kinds with their leaf names, in the order a decision's guards are checked.
    pub const ALL: [(BoundKind, &'static str); 8] = [
        (BoundKind::ModeIs, "robot_mode_is"),
        (BoundKind::HpAbove, "hp_above"),
        (BoundKind::HpAtMost, "hp_at_most"),
        (BoundKind::TimeAfter, "time_after"),
        (BoundKind::TimeUntil, "time_until"),
        (BoundKind::OutpostAtLeast, "outpost_hp_at_least"),
        (BoundKind::OutpostAtMost, "outpost_hp_at_most"),
        (BoundKind::BaseAtLeast, "base_hp_at_least"),
    ];

    /// The leaf name of this kind.
    pub fn leaf_name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("", |(_, n)| n)
    }

    /// The decisions.json field this guard comes from.
    pub fn field(self) -> &'static str {
        match self {
            BoundKind::HpAbove => "minHP",
            BoundKind::HpAtMost => "maxHP",
            BoundKind::TimeAfter => "start_time",
            BoundKind::TimeUntil => "end_time",
            BoundKind::OutpostAtLeast => "out_post_HP_min",
            BoundKind::OutpostAtMost => "out_post_HP_max",
            BoundKind::BaseAtLeast => "base_HP_min",
            BoundKind::ModeIs => "robot_mode",
        }
    }

    /// What the `value` port of this kind's leaf is.
    pub fn value_description(self) -> &'static str {
        match self {
            BoundKind::HpAbove => {
                "holds while the robot's HP is above this (decisions.json `minHP`)"
            }
            BoundKind::HpAtMost => "holds while the robot's HP is at most this (`maxHP`)",
            BoundKind::TimeAfter => "holds after this many seconds of the match (`start_time`)",
            BoundKind::TimeUntil => "holds until this many seconds of the match (`end_time`)",
            BoundKind::OutpostAtLeast => {
                "holds while the outpost's HP is at least this (`out_post_HP_min`)"
            }
            BoundKind::OutpostAtMost => {
                "holds while the outpost's HP is at most this (`out_post_HP_max`)"
            }
            BoundKind::BaseAtLeast => "holds while the base's HP is at least this (`base_HP_min`)",
            BoundKind::ModeIs => "holds while the serial robot mode equals this (`robot_mode`)",
        }
    }

    fn observed(self, ctx: &RmContext, now: f64) -> f64 {
        let w = &ctx.world;
        match self {
            BoundKind::HpAbove | BoundKind::HpAtMost => f64::from(w.hp),
            BoundKind::TimeAfter | BoundKind::TimeUntil => now,
            BoundKind::OutpostAtLeast | BoundKind::OutpostAtMost => f64::from(w.outpost_hp),
            BoundKind::BaseAtLeast => f64::from(w.base_hp),
            BoundKind::ModeIs => f64::from(w.mode),
        }
    }

    fn holds(self, observed: f64, bound: f64) -> bool {
        match self {
            BoundKind::HpAbove | BoundKind::TimeAfter => observed > bound,
            BoundKind::HpAtMost | BoundKind::TimeUntil | BoundKind::OutpostAtMost => {
                observed <= bound
            }
            BoundKind::OutpostAtLeast | BoundKind::BaseAtLeast => observed >= bound,
            BoundKind::ModeIs => observed == bound,
        }
    }

    /// The closed range `lo..=hi` of the observed values for which [`Self::holds`] does with
    /// `bound`, so that a guard can be checked as one range test (`v > b` is `v >= next_up(b)`
    /// for every `v`; a NaN end holds for nothing, as a comparison with NaN does).
    pub(super) fn accepted(self, bound: f64) -> (f64, f64) {
        let above = if bound == f64::INFINITY {
            f64::NAN
        } else {
            bound.next_up()
        };
        match self {
            BoundKind::HpAbove | BoundKind::TimeAfter => (above, f64::INFINITY),
            BoundKind::HpAtMost | BoundKind::TimeUntil | BoundKind::OutpostAtMost => {
                (f64::NEG_INFINITY, bound)
            }
            BoundKind::OutpostAtLeast | BoundKind::BaseAtLeast => (bound, f64::INFINITY),
            BoundKind::ModeIs => (bound, bound),
        }
    }

    /// `"field: what "`, the part of the explanation before the observed value.
    fn words_head(self, out: &mut String) {
        let (what, _) = self.what_and_unit();
        for part in [self.field(), ": ", what, " "] {
            out.push_str(part);
        }
    }

    /// The part after the observed value: `" > minHP 300"` (unit, relation, field, bound).
    fn words_tail(self, holds: bool, bound: f64, out: &mut String) {
        let (_, unit) = self.what_and_unit();
        let relation = match (self, holds) {
            (BoundKind::HpAbove | BoundKind::TimeAfter, true) => ">",
            (BoundKind::HpAbove | BoundKind::TimeAfter, false) => "<=",
            (BoundKind::HpAtMost | BoundKind::TimeUntil | BoundKind::OutpostAtMost, true) => "<=",
            (BoundKind::HpAtMost | BoundKind::TimeUntil | BoundKind::OutpostAtMost, false) => ">",
            (BoundKind::OutpostAtLeast | BoundKind::BaseAtLeast, true) => ">=",
            (BoundKind::OutpostAtLeast | BoundKind::BaseAtLeast, false) => "<",
            (BoundKind::ModeIs, true) => "==",
            (BoundKind::ModeIs, false) => "!=",
        };
        for part in [unit, " ", relation, " ", self.field(), " "] {
            out.push_str(part);
        }
        push_number(out, bound);
        out.push_str(unit);
    }

    fn what_and_unit(self) -> (&'static str, &'static str) {
        match self {
            BoundKind::HpAbove | BoundKind::HpAtMost => ("HP", ""),
            BoundKind::TimeAfter | BoundKind::TimeUntil => ("game time", " s"),
            BoundKind::OutpostAtLeast | BoundKind::OutpostAtMost => ("outpost HP", ""),
            BoundKind::BaseAtLeast => ("base HP", ""),
            BoundKind::ModeIs => ("mode", ""),
        }
    }
}

/// A scalar bound of a decision (HP, time, outpost, base, mode).
#[derive(Debug, Clone)]
pub struct Bound {
    kind: BoundKind,
    value: f64,
    /// The explanation around the observed value, rendered once: `"minHP: HP "` and the
    /// rest when the bound holds / fails (`" > minHP 300"` / `" <= minHP 300"`).
    text: BoundText,
}

#[derive(Debug, Clone)]
struct BoundText {
    head: String,
    holds: String,
    fails: String,
}

impl Bound {
    fn new(kind: BoundKind, value: f64) -> Self {
        let mut text = BoundText {
            head: String::new(),
            holds: String::new(),
            fails: String::new(),
        };
        kind.words_head(&mut text.head);
        kind.words_tail(true, value, &mut text.holds);
        kind.words_tail(false, value, &mut text.fails);
        Self { kind, value, text }
    }

    /// What it compares and how.
    pub(super) fn kind(&self) -> BoundKind {
        self.kind
    }

    /// The bound it compares with.
    pub(super) fn value(&self) -> f64 {
        self.value
    }
}

impl Condition<RmContext> for Bound {
    #[inline]
    fn check(&mut self, ctx: &RmContext, now: f64) -> bool {
        self.kind.holds(self.kind.observed(ctx, now), self.value)
    }

    fn explain(&self, ctx: &RmContext, now: f64) -> String {
        let mut out = String::new();
        self.explain_into(ctx, now, &mut out);
        out
    }

    fn explain_into(&self, ctx: &RmContext, now: f64, out: &mut String) {
        let observed = self.kind.observed(ctx, now);
        out.push_str(&self.text.head);
        push_number(out, observed);
        if self.kind.holds(observed, self.value) {
            out.push_str(&self.text.holds);
        } else {
            out.push_str(&self.text.fails);
        }
    }

    fn explanation_is_json_safe(&self) -> bool {
        // Fixed words and numbers only; pinned by the tests below.
        true
    }
}

/// Whose waypoint a waypoint guard looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// Ours (`wayPointID`).
    Own,
    /// A friendly unit slot (`friendPosition[i]`).
    Friend(usize),
    /// An enemy unit slot (`enemyPosition[i]`).
    Enemy(usize),
}

/// "Is this robot at one of these waypoints?"
#[derive(Debug, Clone)]
pub struct AtWaypoint {
    whose: Whose,
    ids: Vec<i32>,
    /// The ids in `0..128` as bits, so the tick tests one bit instead of scanning `ids`.
    small_ids: u128,
    /// The explanation's fixed pieces, rendered once.
    text: AtWaypointText,
}

/// The pieces of an [`AtWaypoint`] explanation around the observed waypoint id, e.g.
/// `"wayPointID: current waypoint "` + `3` + `" not in [1, 2]"`.
#[derive(Debug, Clone)]
struct AtWaypointText {
    /// The field and the words before the waypoint id.
    before_id: String,
    /// After the id when it is one of `ids`.
    inside: String,
    /// After the id when it is not one of `ids`.
    outside: String,
    /// The whole text without a waypoint (ours: none near; another unit: not near one).
    no_waypoint: String,
    /// The whole text when another unit's position is unknown.
    unknown: String,
}

impl AtWaypoint {
    pub(super) fn new(whose: Whose, ids: Vec<i32>) -> Self {
        let mut head = String::new();
        let (field, side, slot) = match whose {
            Whose::Own => ("wayPointID: ", "", None),
            Whose::Friend(s) => ("friendPosition[", "]: friend ", Some(s)),
            Whose::Enemy(s) => ("enemyPosition[", "]: enemy ", Some(s)),
        };
        head.push_str(field);
        if let Some(s) = slot {
            push_int(&mut head, s as i64);
            head.push_str(side);
            head.push_str(slot_name(s));
            head.push(' ');
        }
        let mut ids_text = String::new();
        push_id_list(&mut ids_text, &ids);
        let own = whose == Whose::Own;
        let joined = |parts: &[&str]| parts.concat();
        let (lead, inside, outside, no_waypoint) = if own {
            (
                "current waypoint ",
                " in ",
                " not in ",
                "no current waypoint (none within INIT_DISTANCE_THR), need one of ",
            )
        } else {
            (
                "at waypoint ",
                ", in ",
                ", not in ",
                "is not within INIT_DISTANCE_THR of any waypoint, need one of ",
            )
        };
        let no_waypoint = joined(&[&head, no_waypoint, &ids_text]);
        let unknown = if own {
            no_waypoint.clone()
        } else {
            joined(&[&head, "position unknown, need one of ", &ids_text])
        };
        let text = AtWaypointText {
            before_id: joined(&[&head, lead]),
            inside: joined(&[inside, &ids_text]),
            outside: joined(&[outside, &ids_text]),
            no_waypoint,
            unknown,
        };
        let small_ids = ids
            .iter()
            .filter_map(|&id| u32::try_from(id).ok().filter(|bit| *bit < u128::BITS))
            .fold(0, |bits, bit| bits | 1u128 << bit);
        Self {
            whose,
            ids,
            small_ids,
            text,
        }
    }

    /// Whose waypoint it looks at.
    pub(super) fn whose(&self) -> Whose {
        self.whose
    }

    /// The waypoint ids it accepts.
    pub(super) fn ids(&self) -> &[i32] {
        &self.ids
    }

    /// The accepted ids in `0..128`, as bits.
    pub(super) fn small_ids(&self) -> u128 {
        self.small_ids
    }

    /// Whether waypoint `w` is one of `ids` (a bit test for the ids in `0..128`).
    #[inline]
    fn accepts(&self, w: i32) -> bool {
        match u32::try_from(w) {
            Ok(bit) if bit < u128::BITS => self.small_ids >> bit & 1 != 0,
            _ => self.ids.contains(&w),
        }
    }

    /// The explanation when the unit is at waypoint `w`.
    pub(super) fn explain_waypoint(&self, w: i32, out: &mut String) {
        let text = &self.text;
        out.push_str(&text.before_id);
        push_int(out, i64::from(w));
        out.push_str(if self.accepts(w) {
            &text.inside
        } else {
            &text.outside
        });
    }

    /// The waypoint of the unit this guard looks at.
    #[inline]
    pub(super) fn waypoint(&self, ctx: &RmContext) -> Option<i32> {
        let w = &ctx.world;
        match self.whose {
            Whose::Own => w.waypoint,
            Whose::Friend(slot) => w.friends.get(slot).and_then(|u| u.waypoint),
            Whose::Enemy(slot) => w.enemies.get(slot).and_then(|u| u.waypoint),
        }
    }
}

impl AtWaypoint {
    fn unit(&self, ctx: &RmContext) -> Unit {
        let w = &ctx.world;
        match self.whose {
            Whose::Own => Unit {
                position: w.position,
                waypoint: w.waypoint,
            },
            Whose::Friend(slot) => w.friends.get(slot).copied().unwrap_or_default(),
            Whose::Enemy(slot) => w.enemies.get(slot).copied().unwrap_or_default(),
        }
    }
}

impl Condition<RmContext> for AtWaypoint {
    #[inline]
    fn check(&mut self, ctx: &RmContext, _now: f64) -> bool {
        self.waypoint(ctx).is_some_and(|w| self.accepts(w))
    }

    fn explain(&self, ctx: &RmContext, now: f64) -> String {
        let mut out = String::new();
        self.explain_into(ctx, now, &mut out);
        out
    }

    fn explain_into(&self, ctx: &RmContext, _now: f64, out: &mut String) {
        let unit = self.unit(ctx);
        let text = &self.text;
        match unit.waypoint {
            Some(w) => self.explain_waypoint(w, out),
            None if unit.position.is_unknown() => out.push_str(&text.unknown),
            None => out.push_str(&text.no_waypoint),
        }
    }

    fn explanation_is_json_safe(&self) -> bool {
        // Fixed words, slot names and numbers only; pinned by the tests below.
        true
    }
}

/// Appends an integer without the formatting machinery (the `decide` stream explains every
/// unavailable decision on every tick).
fn push_int(out: &mut String, value: i64) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// Appends a number as a person writes it: rounded to at most three decimals, trailing zeros
/// trimmed (`10.9`, not `10.899999999999977`; `420`, `0.125`). A game time computed from float
/// steps is rarely the exact decimal it stands for.
fn push_number(out: &mut String, value: f64) {
    // Whole numbers (HP, modes, most bounds) take the integer path, as cheap as before.
    if value.fract() == 0.0 && value.abs() < 1e15 {
        push_int(out, value as i64);
        return;
    }
    if !value.is_finite() || value.abs() >= 1e15 {
        use std::fmt::Write;
        let _ = write!(out, "{value}");
        return;
    }
    // `round(v * 1000) / 1000` is the double nearest to a decimal with at most three places,
    // whose shortest round-trip form (`Display`) is that decimal.
    let rounded = (value * 1000.0).round() / 1000.0;
    if rounded.fract() == 0.0 {
        // Rounded to a whole number (-0.0004 reads as 0).
        push_int(out, rounded as i64);
    } else {
        use std::fmt::Write;
        let _ = write!(out, "{rounded}");
    }
}

/// Appends a waypoint id list as `[1, 2]`.
fn push_id_list(out: &mut String, ids: &[i32]) {
    out.push('[');
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_int(out, i64::from(*id));
    }
    out.push(']');
}

fn slot_name(slot: usize) -> &'static str {
    SLOT_NAMES.get(slot).copied().unwrap_or("?")
}

fn ids_param(p: &LeafParams) -> Result<Vec<i32>, ParamError> {
    p.i64_list("ids")?
        .into_iter()
        .map(|v| {
            i32::try_from(v).map_err(|_| ParamError {
                param: "ids".into(),
                message: format!("{v} is out of range"),
            })
        })
        .collect()
}

fn slot_param(p: &LeafParams) -> Result<usize, ParamError> {
    let slot = p.i64("slot")?;
    usize::try_from(slot)
        .ok()
        .filter(|s| *s < SLOT_NAMES.len())
        .ok_or(ParamError {
            param: "slot".into(),
            message: format!("{slot} is not a unit slot 0..5"),
        })
}

/// Leaf name of the own-waypoint guard.
pub const AT_WAYPOINT: &str = "at_waypoint";
/// Leaf name of the friend-position guard.
pub const FRIEND_AT: &str = "friend_at";
/// Leaf name of the enemy-position guard.
pub const ENEMY_AT: &str = "enemy_at";

/// The `ids` port of the position guards.
const IDS: PortDecl = PortDecl::input(
    "ids",
    EntryType::Any,
    "the waypoint ids the unit may be at (a JSON array, or `1;2;3`)",
);

/// The `slot` port of the friend / enemy position guards.
const SLOT: PortDecl = PortDecl::input(
    "slot",
    EntryType::Int,
    "the unit slot 0..5 (hero, engineer, infantry 3, 4, 5, sentry)",
);

/// One guard condition of a decision, held by value: the ticks of the guard leaves and of
/// [`super::guard_set`] call it without a second dynamic dispatch.
#[derive(Debug, Clone)]
pub enum Guard {
    /// A scalar bound (HP, time, outpost, base, mode).
    Bound(Bound),
    /// A unit at one of some waypoints (ours, a friend's, an enemy's).
    AtWaypoint(AtWaypoint),
}

impl Condition<RmContext> for Guard {
    #[inline]
    fn check(&mut self, ctx: &RmContext, now: f64) -> bool {
        match self {
            Guard::Bound(bound) => bound.check(ctx, now),
            Guard::AtWaypoint(at) => at.check(ctx, now),
        }
    }

    fn explain(&self, ctx: &RmContext, now: f64) -> String {
        let mut out = String::new();
        self.explain_into(ctx, now, &mut out);
        out
    }

    fn explain_into(&self, ctx: &RmContext, now: f64, out: &mut String) {
        match self {
            Guard::Bound(bound) => bound.explain_into(ctx, now, out),
            Guard::AtWaypoint(at) => at.explain_into(ctx, now, out),
        }
    }

    fn explanation_is_json_safe(&self) -> bool {
        match self {
            Guard::Bound(bound) => bound.explanation_is_json_safe(),
            Guard::AtWaypoint(at) => at.explanation_is_json_safe(),
        }
    }
}

/// The guard leaf kinds: every bound kind, then the three waypoint guards.
pub fn guard_kinds() -> impl Iterator<Item = &'static str> {
    BoundKind::ALL
        .iter()
        .map(|(_, name)| *name)
        .chain([AT_WAYPOINT, FRIEND_AT, ENEMY_AT])
}

/// The declared ports of guard leaf `kind` (`None` for another kind).
fn guard_ports(kind: &str) -> Option<Vec<PortDecl>> {
    if let Some((bound, _)) = BoundKind::ALL.iter().find(|(_, name)| *name == kind) {
        let value = PortDecl::input("value", EntryType::Double, bound.value_description());
        return Some(vec![value]);
    }
    match kind {
        AT_WAYPOINT => Some(vec![IDS]),
        FRIEND_AT | ENEMY_AT => Some(vec![SLOT, IDS]),
        _ => None,
    }
}

/// Builds guard leaf `kind` from its params (`None` for another kind).
pub fn make_guard(kind: &str, p: &LeafParams) -> Option<Result<Guard, ParamError>> {
    if let Some((bound, _)) = BoundKind::ALL.iter().find(|(_, name)| *name == kind) {
        return Some(p.f64("value").map(|v| Guard::Bound(Bound::new(*bound, v))));
    }
    let whose = match kind {
        AT_WAYPOINT => Ok(Whose::Own),
        FRIEND_AT => slot_param(p).map(Whose::Friend),
        ENEMY_AT => slot_param(p).map(Whose::Enemy),
        _ => return None,
    };
    Some(whose.and_then(|whose| {
        let ids = ids_param(p)?;
        Ok(Guard::AtWaypoint(AtWaypoint::new(whose, ids)))
    }))
}

/// Registers every guard leaf and [`super::guard_set`]'s `guards`.
pub fn register(registry: &mut Registry<RmContext>) {
    for kind in guard_kinds() {
        let ports = guard_ports(kind).unwrap_or_default();
        registry.condition(kind, ports, move |p| match make_guard(kind, p) {
            Some(guard) => Ok(Box::new(GuardLeaf::new(guard?)) as Box<dyn Condition<RmContext>>),
            None => Err(ParamError::new("", format!("`{kind}` is no guard kind"))),
        });
    }
    super::guard_set::register(registry);
}

#[cfg(test)]
mod text_tests {
    use super::{BoundKind, push_id_list, push_number};

    #[test]
    fn the_accepted_range_holds_exactly_where_the_comparison_does() {
        let values = [
            f64::NEG_INFINITY,
            f64::MIN,
            -300.0,
            -0.0,
            0.0,
            1.0,
            299.0,
            300.0,
            300.0f64.next_up(),
            300.5,
            301.0,
            f64::MAX,
            f64::INFINITY,
            f64::NAN,
        ];
        for (kind, _) in BoundKind::ALL {
            for bound in values {
                let (lo, hi) = kind.accepted(bound);
                for v in values {
                    assert_eq!(
                        lo <= v && v <= hi,
                        kind.holds(v, bound),
                        "{kind:?} bound {bound} value {v}"
                    );
                }
            }
        }
    }

    #[test]
    fn numbers_read_as_a_person_writes_them() {
        for (v, text) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-3.0, "-3"),
            (90.0, "90"),
            (90.5, "90.5"),
            (10.899999999999977, "10.9"),
            (75.00000000000001, "75"),
            (0.1 + 0.2, "0.3"),
            (0.125, "0.125"),
            (2.0004, "2"),
            (2.0006, "2.001"),
            (-0.0004, "0"),
            (-12.34567, "-12.346"),
            (123456.789, "123456.789"),
            (1e-7, "0"),
            (1e20, "100000000000000000000"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
        ] {
            let mut s = String::new();
            push_number(&mut s, v);
            assert_eq!(s, text, "{v:?}");
        }
        let mut s = String::new();
        push_id_list(&mut s, &[0, -1, 13]);
        assert_eq!(s, "[0, -1, 13]");
    }

    #[test]
    fn a_time_guard_explains_an_accumulated_game_time_rounded() {
        use super::{Bound, BoundKind};
        let b = Bound::new(BoundKind::TimeAfter, 30.0);
        let mut t = 0.0;
        for _ in 0..109 {
            t += 0.1;
        }
        assert_ne!(format!("{t}"), "10.9");
        let mut text = b.text.head.clone();
        push_number(&mut text, t);
        text.push_str(&b.text.fails);
        assert_eq!(text, "start_time: game time 10.9 s <= start_time 30 s");
    }

    /// The explanation written in one `format!`, as a reference for the prerendered pieces.
    fn reference_words(kind: super::BoundKind, observed: f64, bound: f64) -> String {
        use super::BoundKind as K;
        let (what, unit) = kind.what_and_unit();
        // The comparison between the observed value and the bound that is true.
        let relation = if observed > bound {
            ">"
        } else if observed == bound {
            match kind {
                K::HpAbove | K::TimeAfter | K::HpAtMost | K::TimeUntil | K::OutpostAtMost => "<=",
                K::OutpostAtLeast | K::BaseAtLeast => ">=",
                K::ModeIs => "==",
            }
        } else {
            match kind {
                K::HpAbove | K::TimeAfter | K::HpAtMost | K::TimeUntil | K::OutpostAtMost => "<=",
                K::OutpostAtLeast | K::BaseAtLeast => "<",
                K::ModeIs => "!=",
            }
        };
        let relation = match (kind, observed > bound) {
            (K::OutpostAtLeast | K::BaseAtLeast, true) => ">=",
            (K::ModeIs, true) => "!=",
            _ => relation,
        };
        let field = kind.field();
        format!("{field}: {what} {observed}{unit} {relation} {field} {bound}{unit}")
    }

    /// A waypoint guard's explanation rendered piece by piece, as a reference for the
    /// prerendered pieces.
    fn reference_waypoint_words(whose: super::Whose, ids: &[i32], unit: super::Unit) -> String {
        use super::Whose;
        let head = match whose {
            Whose::Own => "wayPointID: ".to_string(),
            Whose::Friend(s) => format!("friendPosition[{s}]: friend {} ", super::slot_name(s)),
            Whose::Enemy(s) => format!("enemyPosition[{s}]: enemy {} ", super::slot_name(s)),
        };
        let own = whose == Whose::Own;
        let list = format!(
            "[{}]",
            ids.iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let rest = match unit.waypoint {
            Some(w) if ids.contains(&w) && own => format!("current waypoint {w} in {list}"),
            Some(w) if ids.contains(&w) => format!("at waypoint {w}, in {list}"),
            Some(w) if own => format!("current waypoint {w} not in {list}"),
            Some(w) => format!("at waypoint {w}, not in {list}"),
            None if own => {
                format!("no current waypoint (none within INIT_DISTANCE_THR), need one of {list}")
            }
            None if unit.position.is_unknown() => format!("position unknown, need one of {list}"),
            None => format!("is not within INIT_DISTANCE_THR of any waypoint, need one of {list}"),
        };
        head + &rest
    }

    #[test]
    fn prerendered_waypoint_texts_equal_the_full_rendering() {
        use super::{AtWaypoint, Unit, Whose};
        use crate::engine::Condition;
        use crate::robomaster::context::RmContext;
        use crate::robomaster::world::Point2;
        let known = Point2 { x: 1.0, y: 2.0 };
        let unknown = Point2 { x: 0.0, y: 2.0 };
        for whose in [Whose::Own, Whose::Friend(0), Whose::Enemy(5)] {
            for ids in [vec![3], vec![1, 2, -4]] {
                let guard = AtWaypoint::new(whose, ids.clone());
                for unit in [
                    Unit {
                        position: known,
                        waypoint: Some(3),
                    },
                    Unit {
                        position: known,
                        waypoint: Some(2),
                    },
                    Unit {
                        position: known,
                        waypoint: None,
                    },
                    Unit {
                        position: unknown,
                        waypoint: None,
                    },
                ] {
                    let mut ctx = RmContext::default();
                    match whose {
                        Whose::Own => {
                            ctx.world.position = unit.position;
                            ctx.world.waypoint = unit.waypoint;
                        }
                        Whose::Friend(s) => ctx.world.friends[s] = unit,
                        Whose::Enemy(s) => ctx.world.enemies[s] = unit,
                    }
                    let mut text = String::new();
                    guard.explain_into(&ctx, 0.0, &mut text);
                    assert_eq!(text, reference_waypoint_words(whose, &ids, unit));
                    assert!(
                        guard.explanation_is_json_safe() && json_safe(&text),
                        "{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_waypoint_bits_accept_exactly_the_listed_ids() {
        use super::{AtWaypoint, Whose};
        for ids in [
            vec![],
            vec![3],
            vec![0, 127, 128, -1, 1000],
            vec![-7, 64, 63, 65, i32::MAX, i32::MIN],
        ] {
            let guard = AtWaypoint::new(Whose::Own, ids.clone());
            for w in (-10..300).chain([i32::MAX, i32::MIN, 1000, -7]) {
                assert_eq!(guard.accepts(w), ids.contains(&w), "{ids:?} {w}");
            }
        }
    }

    /// Nothing in `text` that a JSON string would escape.
    fn json_safe(text: &str) -> bool {
        !text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20)
    }

    #[test]
    fn prerendered_bound_texts_equal_the_full_rendering() {
        use super::{Bound, BoundKind};
        use crate::engine::Condition;
        for (kind, _) in BoundKind::ALL {
            for bound in [0.0, 150.0, 420.0, -3.0] {
                let b = Bound::new(kind, bound);
                for observed in [bound - 1.0, bound, bound + 1.0, bound + 0.5, 0.0] {
                    let full = reference_words(kind, observed, bound);
                    let mut fast = b.text.head.clone();
                    push_number(&mut fast, observed);
                    fast.push_str(if kind.holds(observed, bound) {
                        &b.text.holds
                    } else {
                        &b.text.fails
                    });
                    assert_eq!(fast, full, "{kind:?} {bound} {observed}");
                    assert!(b.explanation_is_json_safe() && json_safe(&fast), "{fast}");
                }
            }
        }
    }
}
