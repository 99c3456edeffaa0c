//! A guard leaf as the decision tree holds it: the [`Guard`], and for a waypoint guard its
//! explanations of a unit at each of the usual waypoint ids rendered once when built. The
//! `decide` stream explains every unavailable decision on every tick, most of them by a
//! waypoint guard; a prerendered text is one copy instead of three pieces and a number.
//!
//! The guards checked on the tick path are copies of [`Guard`] that the decision selection
//! ([`super::selection`]) or a `guards` node keeps: this wrapper only serves the tree's leaves,
//! which explain.

use super::context::RmContext;
use super::guards::Guard;
use crate::engine::Condition;

/// The waypoint ids whose explanation is rendered once: `0..PRERENDERED_IDS`.
const PRERENDERED_IDS: i32 = 64;

/// A guard and, for a waypoint guard, its prerendered explanations.
pub(super) struct GuardLeaf {
    guard: Guard,
    /// `None` for a bound guard.
    waypoint_texts: Option<WaypointTexts>,
}

/// The explanation for each waypoint id in `0..PRERENDERED_IDS`, one after the other.
struct WaypointTexts {
    text: String,
    /// Where the explanation of each id ends in `text`.
    ends: Vec<u32>,
}

impl WaypointTexts {
    /// The explanation for waypoint `w`, when it was rendered.
    #[inline]
    fn of(&self, w: i32) -> Option<&str> {
        let w = usize::try_from(w).ok()?;
        let start = match w.checked_sub(1) {
            Some(before) => *self.ends.get(before)? as usize,
            None => 0,
        };
        let end = *self.ends.get(w)? as usize;
        self.text.get(start..end)
    }
}

impl GuardLeaf {
    /// The leaf of `guard`.
    pub(super) fn new(guard: Guard) -> Self {
        let waypoint_texts = match &guard {
            Guard::AtWaypoint(at) => {
                let mut texts = WaypointTexts {
                    text: String::new(),
                    ends: Vec::with_capacity(PRERENDERED_IDS as usize),
                };
                for w in 0..PRERENDERED_IDS {
                    at.explain_waypoint(w, &mut texts.text);
                    texts
                        .ends
                        .push(u32::try_from(texts.text.len()).unwrap_or(u32::MAX));
                }
                Some(texts)
            }
            Guard::Bound(_) => None,
        };
        Self {
            guard,
            waypoint_texts,
        }
    }
}

impl Condition<RmContext> for GuardLeaf {
    #[inline]
    fn check(&mut self, ctx: &RmContext, now: f64) -> bool {
        self.guard.check(ctx, now)
    }

    fn explain(&self, ctx: &RmContext, now: f64) -> String {
        let mut out = String::new();
        self.explain_into(ctx, now, &mut out);
        out
    }

    fn explain_into(&self, ctx: &RmContext, now: f64, out: &mut String) {
        if let (Guard::AtWaypoint(at), Some(texts)) = (&self.guard, &self.waypoint_texts)
            && let Some(text) = at.waypoint(ctx).and_then(|w| texts.of(w))
        {
            out.push_str(text);
            return;
        }
        self.guard.explain_into(ctx, now, out);
    }

    fn explanation_is_json_safe(&self) -> bool {
        self.guard.explanation_is_json_safe()
    }
}

#[cfg(test)]
mod tests {
    use super::{GuardLeaf, PRERENDERED_IDS};
    use crate::engine::{Condition, LeafParams};
    use crate::robomaster::context::RmContext;
    use crate::robomaster::guards::make_guard;
    use crate::robomaster::world::Point2;
    use serde_json::json;

    #[test]
    fn explains_as_its_guard_for_every_waypoint() {
        let known = Point2 { x: 1.0, y: 2.0 };
        let unknown = Point2 { x: 0.0, y: 2.0 };
        for (kind, ports) in [
            ("at_waypoint", json!({ "ids": [0, 3, 63, 64, 200, -4] })),
            ("friend_at", json!({ "slot": 2, "ids": [5] })),
            ("enemy_at", json!({ "slot": 5, "ids": [1, 2] })),
            ("hp_above", json!({ "value": 100 })),
        ] {
            let ports = ports.as_object().cloned().unwrap_or_default();
            let make = || match make_guard(kind, &LeafParams::new(&ports)) {
                Some(Ok(guard)) => guard,
                other => panic!("{kind}: {other:?}"),
            };
            let (guard, leaf) = (make(), GuardLeaf::new(make()));
            let waypoints = (-5..PRERENDERED_IDS + 140)
                .map(Some)
                .chain([None, Some(i32::MAX)]);
            for waypoint in waypoints {
                for position in [known, unknown] {
                    let mut ctx = RmContext::default();
                    ctx.world.hp = 150;
                    ctx.world.position = position;
                    ctx.world.waypoint = waypoint;
                    for unit in ctx.world.friends.iter_mut().chain(&mut ctx.world.enemies) {
                        unit.position = position;
                        unit.waypoint = waypoint;
                    }
                    let (mut expected, mut text) = (String::new(), String::new());
                    guard.explain_into(&ctx, 0.0, &mut expected);
                    leaf.explain_into(&ctx, 0.0, &mut text);
                    assert_eq!(text, expected, "{kind} {waypoint:?}");
                    assert_eq!(leaf.explain(&ctx, 0.0), expected);
                }
            }
            assert!(leaf.explanation_is_json_safe());
        }
    }
}
