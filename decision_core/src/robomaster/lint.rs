//! The warnings of `check` beyond single fields: overlapping equal-weight decisions, decisions
//! that can never be chosen, unreachable succession targets, waypoints in walls or off the
//! map, and one-way connections.

use super::decisions::{Decision, LoadedDecision, SKIP, UNIT_SLOTS};
use super::diagnostics::{Diagnostics, Place};
use super::load::Tables;

/// An inclusive integer interval; `None` bounds are open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Interval {
    lo: Option<i64>,
    hi: Option<i64>,
}

impl Interval {
    /// `lo_exclusive < v <= hi` with -1 skipping a bound (HP, time).
    fn half_open(lo_exclusive: i32, hi: i32) -> Self {
        Self {
            lo: (lo_exclusive != SKIP).then(|| i64::from(lo_exclusive) + 1),
            hi: (hi != SKIP).then(|| i64::from(hi)),
        }
    }

    /// `lo <= v <= hi` with -1 skipping a bound (outpost, base).
    fn closed(lo: i32, hi: Option<i32>) -> Self {
        Self {
            lo: (lo != SKIP).then(|| i64::from(lo)),
            hi: hi.filter(|h| *h != SKIP).map(i64::from),
        }
    }

    fn is_empty(self) -> bool {
        matches!((self.lo, self.hi), (Some(lo), Some(hi)) if lo > hi)
    }

    fn intersects(self, other: Self) -> bool {
        let lo = self.lo.max(other.lo);
        let hi = match (self.hi, other.hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        !Interval { lo, hi }.is_empty()
    }

    /// Whether every value of `inner` lies in `self`.
    fn contains(self, inner: Self) -> bool {
        let lo_ok = match (self.lo, inner.lo) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a <= b,
        };
        let hi_ok = match (self.hi, inner.hi) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a >= b,
        };
        lo_ok && hi_ok
    }
}

/// The set of waypoints a list guard accepts; `None` = any.
fn set(list: &[i32]) -> Option<&[i32]> {
    (list.first() != Some(&SKIP)).then_some(list)
}

fn sets_intersect(a: Option<&[i32]>, b: Option<&[i32]>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.iter().any(|x| b.contains(x)),
        _ => true,
    }
}

fn set_contains(outer: Option<&[i32]>, inner: Option<&[i32]>) -> bool {
    match (outer, inner) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(o), Some(i)) => i.iter().all(|x| o.contains(x)),
    }
}

/// A decision's guards as sets and intervals, for overlap and dominance.
struct GuardShape<'a> {
    waypoints: Option<&'a [i32]>,
    mode: Option<i32>,
    hp: Interval,
    time: Interval,
    outpost: Interval,
    base: Interval,
    friends: [Option<&'a [i32]>; UNIT_SLOTS],
    enemies: [Option<&'a [i32]>; UNIT_SLOTS],
}

impl<'a> GuardShape<'a> {
    fn of(d: &'a Decision) -> Self {
        let slots =
            |lists: &'a [Vec<i32>]| std::array::from_fn(|i| lists.get(i).and_then(|l| set(l)));
        Self {
            waypoints: set(&d.waypoint_ids),
            mode: (d.robot_mode != SKIP).then_some(d.robot_mode),
            hp: Interval::half_open(d.min_hp, d.max_hp),
            time: Interval::half_open(d.start_time, d.end_time),
            outpost: Interval::closed(d.outpost_hp_min, d.outpost_hp_max),
            base: Interval::closed(d.base_hp_min, None),
            friends: slots(&d.friend_position),
            enemies: slots(&d.enemy_position),
        }
    }

    fn intervals(&self) -> [(&'static str, Interval); 4] {
        [
            ("minHP/maxHP", self.hp),
            ("start_time/end_time", self.time),
            ("out_post_HP_min/out_post_HP_max", self.outpost),
            ("base_HP_min", self.base),
        ]
    }

    fn can_overlap(&self, other: &Self) -> bool {
        sets_intersect(self.waypoints, other.waypoints)
            && (self.mode.is_none() || other.mode.is_none() || self.mode == other.mode)
            && self
                .intervals()
                .iter()
                .zip(other.intervals())
                .all(|((_, a), (_, b))| a.intersects(b))
            && (0..UNIT_SLOTS).all(|i| {
                sets_intersect(self.friends[i], other.friends[i])
                    && sets_intersect(self.enemies[i], other.enemies[i])
            })
    }

    /// Whether `self` holds whenever `inner` holds.
    fn covers(&self, inner: &Self) -> bool {
        set_contains(self.waypoints, inner.waypoints)
            && (self.mode.is_none() || self.mode == inner.mode)
            && self
                .intervals()
                .iter()
                .zip(inner.intervals())
                .all(|((_, a), (_, b))| a.contains(b))
            && (0..UNIT_SLOTS).all(|i| {
                set_contains(self.friends[i], inner.friends[i])
                    && set_contains(self.enemies[i], inner.enemies[i])
            })
    }
}

/// Adds the cross-decision and map warnings for loaded tables.
pub fn lint(tables: &Tables, diags: &mut Diagnostics) {
    let file = tables.files.decisions.display().to_string();
    let shapes: Vec<GuardShape> = tables
        .decisions
        .iter()
        .map(|d| GuardShape::of(&d.decision))
        .collect();
    let mut by_weight: Vec<usize> = (0..tables.decisions.len()).collect();
    by_weight.sort_by_key(|i| std::cmp::Reverse(tables.decisions[*i].decision.weight));
    for (i, loaded) in tables.decisions.iter().enumerate() {
        let d = &loaded.decision;
        let subject = d.subject();
        let place = Place {
            file: &file,
            subject: Some(&subject),
        };
        let shape = &shapes[i];
        if d.weight <= 0 {
            diags.warning(
                &place,
                loaded.positions.of("weight"),
                Some("weight"),
                format!("weight {} <= 0: this decision is never chosen", d.weight),
            );
        }
        for (field, interval) in shape.intervals() {
            if interval.is_empty() {
                let key = field.split('/').next().unwrap_or(field);
                diags.warning(
                    &place,
                    loaded.positions.of(key),
                    Some(field),
                    "the bounds leave no value: this decision is never available",
                );
            }
        }
        if d.weight > 0 {
            lint_against_others(tables, &shapes, &by_weight, i, &place, diags);
        }
        lint_reachability(tables, loaded, &place, diags);
    }
    lint_waypoints(tables, diags);
}

fn lint_against_others(
    tables: &Tables,
    shapes: &[GuardShape],
    by_weight: &[usize],
    i: usize,
    place: &Place,
    diags: &mut Diagnostics,
) {
    let loaded = &tables.decisions[i];
    let d = &loaded.decision;
    for &j in by_weight {
        let other = &tables.decisions[j].decision;
        if other.weight < d.weight {
            break;
        }
        if j == i || other.weight <= 0 {
            continue;
        }
        let earlier_equal = other.weight == d.weight && j < i;
        if (other.weight > d.weight || earlier_equal) && shapes[j].covers(&shapes[i]) {
            let why = if earlier_equal {
                "an earlier decision of equal weight"
            } else {
                "a heavier decision"
            };
            diags.warning(
                place,
                loaded.positions.object,
                None,
                format!(
                    "never chosen: whenever its guards hold, so do those of {why}, {} (weight {})",
                    other.subject(),
                    other.weight
                ),
            );
            return;
        }
    }
    for &j in by_weight {
        let other = &tables.decisions[j].decision;
        if other.weight < d.weight {
            break;
        }
        if j < i && other.weight == d.weight && shapes[j].can_overlap(&shapes[i]) {
            diags.warning(
                place,
                loaded.positions.of("weight"),
                Some("weight"),
                format!("same weight {} as {} and their guards can hold together: the tie goes to the earlier one in the file", d.weight, other.subject()),
            );
        }
    }
}

fn lint_reachability(
    tables: &Tables,
    loaded: &LoadedDecision,
    place: &Place,
    diags: &mut Diagnostics,
) {
    let d = &loaded.decision;
    if !d.if_succession || d.decide_waypoint == SKIP {
        return;
    }
    let starts: Vec<i32> = match set(&d.waypoint_ids) {
        Some(list) => list.to_vec(),
        None => tables.graph.waypoints().iter().map(|w| w.id).collect(),
    };
    let unreachable: Vec<i32> = starts
        .into_iter()
        .filter(|s| !tables.graph.is_reachable(*s, d.decide_waypoint))
        .collect();
    if !unreachable.is_empty() {
        diags.warning(
            place,
            loaded.positions.of("decide_wayPoint"),
            Some("decide_wayPoint"),
            format!("target {} cannot be reached over `connect` from waypoint(s) {unreachable:?}: the decision is not executable there", d.decide_waypoint),
        );
    }
}

fn lint_waypoints(tables: &Tables, diags: &mut Diagnostics) {
    let file = tables.files.waypoints.display().to_string();
    let (width, height) = (tables.config.real_width, tables.config.real_height);
    for w in &tables.waypoints {
        let subject = w.subject();
        let place = Place {
            file: &file,
            subject: Some(&subject),
        };
        let p = &w.waypoint;
        if !(0.0..=width).contains(&p.x) || !(0.0..=height).contains(&p.y) {
            diags.warning(
                &place,
                w.pos,
                Some("x"),
                format!("({}, {}) is off the {width} m x {height} m field", p.x, p.y),
            );
        } else {
            let (col, row) = tables.map.to_pixel(p.x, p.y);
            if tables.map.is_wall_px(col, row) {
                diags.warning(
                    &place,
                    w.pos,
                    Some("x"),
                    format!(
                        "({}, {}) is inside a wall of the map (pixel {col}, {row})",
                        p.x, p.y
                    ),
                );
            }
        }
    }
    for (from, to) in tables.graph.one_way_edges() {
        if let Some(w) = tables.waypoints.iter().find(|w| w.waypoint.id == from) {
            let subject = w.subject();
            let place = Place {
                file: &file,
                subject: Some(&subject),
            };
            let pos = w
                .waypoint
                .connect
                .iter()
                .position(|c| *c == to)
                .and_then(|k| w.connect_pos.get(k))
                .copied()
                .unwrap_or(w.pos);
            diags.warning(
                &place,
                pos,
                Some("connect"),
                format!("one-way connection {from} -> {to} ({to} does not connect back)"),
            );
        }
    }
}
