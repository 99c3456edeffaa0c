//! The guard conditions of a decision, one leaf per field of `decisions.json`. Predicates read
//! as questions about the world; explanations name the field, the observed value and the bound.

use super::context::RmContext;
use super::world::{SLOT_NAMES, Unit};
use crate::engine::{Condition, LeafParams, ParamError, Registry};
use std::fmt::Write;

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

    fn words(self, observed: f64, bound: f64, out: &mut String) {
        let holds = self.holds(observed, bound);
        let (what, unit) = match self {
            BoundKind::HpAbove | BoundKind::HpAtMost => ("HP", ""),
            BoundKind::TimeAfter | BoundKind::TimeUntil => ("game time", " s"),
            BoundKind::OutpostAtLeast | BoundKind::OutpostAtMost => ("outpost HP", ""),
            BoundKind::BaseAtLeast => ("base HP", ""),
            BoundKind::ModeIs => ("mode", ""),
        };
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
        let field = self.field();
        let _ = write!(
            out,
            "{field}: {what} {observed}{unit} {relation} {field} {bound}{unit}"
        );
    }
}

/// A scalar bound of a decision (HP, time, outpost, base, mode).
#[derive(Debug, Clone)]
pub struct Bound {
    kind: BoundKind,
    value: f64,
}

impl Condition<RmContext> for Bound {
    fn check(&mut self, ctx: &RmContext, now: f64) -> bool {
        self.kind.holds(self.kind.observed(ctx, now), self.value)
    }

    fn explain(&self, ctx: &RmContext, now: f64) -> String {
        let mut out = String::new();
        self.explain_into(ctx, now, &mut out);
        out
    }

    fn explain_into(&self, ctx: &RmContext, now: f64, out: &mut String) {
        self.kind
            .words(self.kind.observed(ctx, now), self.value, out);
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
    fn check(&mut self, ctx: &RmContext, _now: f64) -> bool {
        self.unit(ctx)
            .waypoint
            .is_some_and(|w| self.ids.contains(&w))
    }

    fn explain(&self, ctx: &RmContext, now: f64) -> String {
        let mut out = String::new();
        self.explain_into(ctx, now, &mut out);
        out
    }

    fn explain_into(&self, ctx: &RmContext, _now: f64, out: &mut String) {
        let unit = self.unit(ctx);
        match self.whose {
            Whose::Own => out.push_str("wayPointID: "),
            Whose::Friend(s) => {
                let _ = write!(out, "friendPosition[{s}]: friend {} ", slot_name(s));
            }
            Whose::Enemy(s) => {
                let _ = write!(out, "enemyPosition[{s}]: enemy {} ", slot_name(s));
            }
        }
        let own = self.whose == Whose::Own;
        let ids = IdList(&self.ids);
        let _ = match unit.waypoint {
            Some(w) if self.ids.contains(&w) && own => write!(out, "current waypoint {w} in {ids}"),
            Some(w) if self.ids.contains(&w) => write!(out, "at waypoint {w}, in {ids}"),
            Some(w) if own => write!(out, "current waypoint {w} not in {ids}"),
            Some(w) => write!(out, "at waypoint {w}, not in {ids}"),
            None if own => write!(
                out,
                "no current waypoint (none within INIT_DISTANCE_THR), need one of {ids}"
            ),
            None if unit.position.is_unknown() => {
                write!(out, "position unknown, need one of {ids}")
            }
            None => write!(
                out,
                "is not within INIT_DISTANCE_THR of any waypoint, need one of {ids}"
            ),
        };
    }
}

/// Formats a waypoint id list as `[1, 2]` without allocating.
struct IdList<'a>(&'a [i32]);

impl std::fmt::Display for IdList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[")?;
        for (i, id) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{id}")?;
        }
        f.write_str("]")
    }
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

/// Registers every guard leaf.
pub fn register(registry: &mut Registry<RmContext>) {
    for (kind, name) in BoundKind::ALL {
        registry.condition(name, move |p| {
            Ok(Box::new(Bound {
                kind,
                value: p.f64("value")?,
            }))
        });
    }
    registry.condition(AT_WAYPOINT, |p| {
        Ok(Box::new(AtWaypoint {
            whose: Whose::Own,
            ids: ids_param(p)?,
        }))
    });
    registry.condition(FRIEND_AT, |p| {
        Ok(Box::new(AtWaypoint {
            whose: Whose::Friend(slot_param(p)?),
            ids: ids_param(p)?,
        }))
    });
    registry.condition(ENEMY_AT, |p| {
        Ok(Box::new(AtWaypoint {
            whose: Whose::Enemy(slot_param(p)?),
            ids: ids_param(p)?,
        }))
    });
}
