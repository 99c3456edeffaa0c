//! HP: initial values, scheduled events (set, damage, heal), regeneration at the supply
//! zone and continuous structure damage, all kept as [`Combat`].

use super::TIME_EPS;
use super::motion::waypoint_xy;
use super::state::RobotState;
use crate::scenario::{Scenario, Side, Structure, Target, UnitName};
use decision_core::robomaster::Tables;

/// `obj_hp` indices of the outposts and bases.
const RED_OUTPOST: usize = 6;
const RED_BASE: usize = 7;
const BLUE_OUTPOST: usize = 14;
const BLUE_BASE: usize = 15;

/// The `obj_hp` index of `side`'s `structure`.
pub(super) fn structure_index(side: Side, structure: Structure) -> usize {
    match (side, structure) {
        (Side::Red, Structure::Outpost) => RED_OUTPOST,
        (Side::Red, Structure::Base) => RED_BASE,
        (Side::Blue, Structure::Outpost) => BLUE_OUTPOST,
        (Side::Blue, Structure::Base) => BLUE_BASE,
    }
}

/// Default initial HP of `obj_hp` entry `i`.
fn default_hp(i: usize) -> u16 {
    match i % 8 {
        0 | 1 => 500,
        2..=4 => 400,
        5 => 600,
        6 => 1500,
        _ => 5000,
    }
}

/// HP as published: whole points, rounding away float noise.
fn whole_hp(hp: f64) -> u16 {
    (hp + 1e-6).floor().clamp(0.0, f64::from(u16::MAX)) as u16
}

/// A scheduled HP change, resolved to an `obj_hp` index.
#[derive(Debug, Clone, Copy)]
struct Event {
    at: f64,
    index: usize,
    change: Change,
}

/// What an [`Event`] does to the HP.
#[derive(Debug, Clone, Copy)]
enum Change {
    Set(f64),
    Damage(f64),
    Heal(f64),
}

/// Regeneration of our robot within `radius` of (x, y), up to `max`.
#[derive(Debug, Clone, Copy)]
struct Regen {
    x: f64,
    y: f64,
    radius: f64,
    rate: f64,
    max: f64,
}

/// Continuous damage of `obj_hp` entry `index` from `from` to `to` (s).
#[derive(Debug, Clone, Copy)]
struct Damage {
    index: usize,
    from: f64,
    to: f64,
    rate: f64,
}

/// The 16 `obj_hp` values (fractional inside) and everything that changes them.
#[derive(Debug, Clone)]
pub(super) struct Combat {
    hp: [f64; 16],
    events: Vec<Event>,
    next_event: usize,
    regen: Option<Regen>,
    damage: Vec<Damage>,
}

impl Combat {
    /// The HP of `scenario` on the field of `tables`; `our_hp` is our robot's `obj_hp` index.
    /// No event is applied yet (see [`Self::apply_events`]).
    pub(super) fn new(scenario: &Scenario, tables: &Tables, our_hp: usize) -> Self {
        let mut hp = [0.0; 16];
        for (i, slot) in hp.iter_mut().enumerate() {
            *slot = f64::from(default_hp(i));
        }
        for (name, value) in &scenario.hp {
            let i = name.index().unwrap_or(our_hp);
            if let Some(slot) = hp.get_mut(i) {
                *slot = f64::from(*value);
            }
        }
        let initial_our_hp = hp.get(our_hp).copied().unwrap_or(0.0);

        let mut events: Vec<Event> = scenario
            .hp_events
            .iter()
            .filter_map(|e| {
                let index = match e.target {
                    Target::Index(n) => usize::from(n),
                    Target::Name(UnitName::Ours) => our_hp,
                    Target::Name(n) => n.index()?,
                };
                let change = match (e.set, e.damage, e.heal) {
                    (Some(v), _, _) => Change::Set(f64::from(v)),
                    (None, Some(d), _) => Change::Damage(d),
                    (None, None, Some(h)) => Change::Heal(h),
                    (None, None, None) => return None,
                };
                Some(Event {
                    at: e.at,
                    index,
                    change,
                })
            })
            .collect();
        events.sort_by(|a, b| a.at.total_cmp(&b.at));

        let regen = scenario.regeneration.as_ref().map(|r| {
            let (x, y) = waypoint_xy(tables, r.waypoint);
            Regen {
                x,
                y,
                radius: r.radius.unwrap_or(f64::from(tables.config.distance_thr)),
                rate: r.hp_per_second,
                max: r.max.map_or(initial_our_hp, f64::from),
            }
        });
        let damage = scenario
            .structure_damage
            .iter()
            .map(|d| {
                let side = d.side.unwrap_or(scenario.side);
                let index = structure_index(side, d.target);
                Damage {
                    index,
                    from: d.from,
                    to: d.to,
                    rate: d.hp_per_second,
                }
            })
            .collect();

        Self {
            hp,
            events,
            next_event: 0,
            regen,
            damage,
        }
    }

    /// Applies the scheduled events due by `until`, in time order.
    pub(super) fn apply_events(&mut self, until: f64) {
        while let Some(e) = self.events.get(self.next_event).copied() {
            if e.at > until + TIME_EPS {
                break;
            }
            self.next_event += 1;
            if let Some(hp) = self.hp.get_mut(e.index) {
                *hp = match e.change {
                    Change::Set(v) => v,
                    Change::Damage(d) => (*hp - d).max(0.0),
                    Change::Heal(h) => (*hp + h).min(f64::from(u16::MAX)),
                };
            }
        }
    }

    /// The continuous changes of the step from `t0` to `t1` (`dt` long): structure damage, and
    /// regeneration of our robot `me` (`obj_hp` index `our_hp`) while it is alive in the zone.
    pub(super) fn continuous(
        &mut self,
        t0: f64,
        t1: f64,
        dt: f64,
        me: Option<&RobotState>,
        our_hp: usize,
    ) {
        // Continuous HP changes.
        for d in &self.damage {
            let overlap = (t1.min(d.to) - t0.max(d.from)).max(0.0);
            if let Some(hp) = self.hp.get_mut(d.index) {
                *hp = (*hp - d.rate * overlap).max(0.0);
            }
        }
        if let (Some(regen), Some(me)) = (self.regen, me)
            && me.alive
            && (me.x - regen.x).hypot(me.y - regen.y) <= regen.radius
            && let Some(hp) = self.hp.get_mut(our_hp)
            && *hp < regen.max
        {
            *hp = (*hp + regen.rate * dt).min(regen.max);
        }
    }

    /// HP of `obj_hp` entry `i` as kept inside (fractional; 0 for no such entry).
    pub(super) fn value(&self, i: usize) -> f64 {
        self.hp.get(i).copied().unwrap_or(0.0)
    }

    /// Removes up to `amount` HP from `obj_hp` entry `i` (not below 0); gives what was removed.
    pub(super) fn remove(&mut self, i: usize, amount: f64) -> f64 {
        match self.hp.get_mut(i) {
            Some(hp) if amount > 0.0 => {
                let removed = amount.min(*hp).max(0.0);
                *hp -= removed;
                removed
            }
            _ => 0.0,
        }
    }

    /// HP of `obj_hp` entry `i` as published, if there is such an entry.
    pub(super) fn published(&self, i: usize) -> Option<u16> {
        self.hp.get(i).map(|hp| whole_hp(*hp))
    }

    /// The 16 HP values as published.
    pub(super) fn all_published(&self) -> [u16; 16] {
        self.hp.map(whole_hp)
    }

    /// Whether a base is destroyed (published HP 0).
    pub(super) fn base_destroyed(&self) -> bool {
        let hp = self.all_published();
        hp.get(RED_BASE) == Some(&0) || hp.get(BLUE_BASE) == Some(&0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_hp_by_kind() {
        let hp: Vec<u16> = (0..16).map(default_hp).collect();
        assert_eq!(
            hp,
            [
                500, 500, 400, 400, 400, 600, 1500, 5000, 500, 500, 400, 400, 400, 600, 1500, 5000
            ]
        );
    }
}
