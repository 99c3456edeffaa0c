//! The two acceptors deciding whether a path with collisions may still be used.

use super::collision::Collision;
use crate::aabb::{Aabb, MAX_TRUSTED_COORD, SAFETY_GAP};
use crate::config::PlannerConfig;
use crate::obstacle::Obstacle;
use crate::traj::TrajPath;
use geometry::Vec2;

/// Motionless acceptor: a late collision close to the end of the path is tolerated.
pub fn accept_motionless(
    c: Option<&Collision>,
    start: Vec2,
    end: Vec2,
    cfg: &PlannerConfig,
) -> bool {
    let Some(c) = c else { return true };
    let thr = (c.t / cfg.motionless_t_thr).clamp(0.0, 1.0);
    let rel = c.pos.dist(end) / start.dist(end);
    rel < thr // NaN (start == end) rejects
}

/// Moving acceptor (rules 1–7 of the notes, in order).
pub fn accept_moving(
    c: Option<&Collision>,
    obstacles: &[&dyn Obstacle],
    start: Vec2,
    dest: Vec2,
    v0: f64,
    amax: f64,
    cfg: &PlannerConfig,
) -> bool {
    let Some(c) = c else { return true };
    if start.dist(dest) < 2.0 * cfg.bot_radius {
        return true;
    }
    let obs = obstacles[c.obstacle];
    if obs.has_priority() {
        return false;
    }
    if dest.dist(c.pos) > cfg.moving_max_dest_dist {
        return false;
    }
    if obs.collision_likely(c.t, c.pos) {
        return false;
    }
    if c.speed < cfg.moving_crash_speed {
        return true;
    }
    c.t > v0 / amax.max(1e-6) + cfg.moving_brake_offset
}

/// Relative allowance for the rounding of the acceptor's quotient.
const RELATIVE_GAP: f64 = 1e-9;

/// A proof that an acceptor rejects every collision of a path up to a time: collision
/// positions come from the path, so if the path's box on `[0, t]` keeps further from the
/// destination than a radius that grows with `t`, no collision at a time up to `t` can be
/// accepted.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RejectionTest {
    end: Vec2,
    radius: Radius,
}

/// The radius of a [`RejectionTest`] at a collision time.
#[derive(Clone, Copy, Debug)]
enum Radius {
    /// The motionless acceptor's: `min(t / t_thr, 1)` of the start's distance.
    Growing { start_dist: f64, t_thr: f64 },
    /// A fixed radius.
    Fixed(f64),
}

/// Whether `start` and `end` are within the magnitudes the test trusts (false for NaN).
fn sane_points(start: Vec2, end: Vec2) -> bool {
    Aabb::segment(start, end).is_trusted()
}

impl RejectionTest {
    /// The test for the acceptor's `start`, `end` and configuration; `None` where it does
    /// not apply (bad threshold, start at the destination, or values too large to trust).
    pub fn new(start: Vec2, end: Vec2, cfg: &PlannerConfig) -> Option<Self> {
        let start_dist = start.dist(end);
        let t_thr = cfg.motionless_t_thr;
        // Written so that a NaN anywhere fails.
        let sane =
            t_thr > 0.0 && t_thr.is_finite() && start_dist > SAFETY_GAP && sane_points(start, end);
        sane.then_some(Self {
            end,
            radius: Radius::Growing { start_dist, t_thr },
        })
    }

    /// The test that [`accept_moving`] rejects a collision and that it is no closer to the
    /// destination than `best_dist` (so a best-rejected candidate at that distance stays):
    /// both hold beyond `max(moving_max_dest_dist, best_dist)` from `end` when the start is
    /// not close to `end`. `None` where it does not apply.
    pub fn moving_far(start: Vec2, end: Vec2, cfg: &PlannerConfig, best_dist: f64) -> Option<Self> {
        let max_dest = cfg.moving_max_dest_dist;
        // Rule 1 of the acceptor accepts every collision when the start is near the
        // destination (computed as the acceptor does); a NaN limit fails below.
        let accepts_all = start.dist(end) < 2.0 * cfg.bot_radius;
        let sane = !accepts_all
            && (0.0..MAX_TRUSTED_COORD).contains(&max_dest)
            && (0.0..MAX_TRUSTED_COORD).contains(&best_dist)
            && sane_points(start, end);
        sane.then_some(Self {
            end,
            radius: Radius::Fixed(max_dest.max(best_dist)),
        })
    }

    /// Whether the acceptor rejects every collision at a time in `[0, t]` at a
    /// position of `path` (one of its positions at such a time).
    ///
    /// A switched path is tested per part: the first part up to the switch against the
    /// radius at the switch time, the second against the radius at `t` (a box per part,
    /// as [`TrajPath::bounds`] builds them, and a smaller radius for the first part).
    pub fn rejects_all_until(&self, path: &TrajPath, t: f64) -> bool {
        self.rejects_all_between(path, 0.0, t)
    }

    /// Whether the acceptor rejects every collision at a time in `[from, t]` at a position
    /// of `path` (one of its positions at such a time): [`rejects_all_until`] for a march
    /// whose collisions are all at `from` or later (its tracks' next checks are).
    ///
    /// A switched path from its switch time on is tested on its second part alone.
    ///
    /// [`rejects_all_until`]: Self::rejects_all_until
    pub fn rejects_all_between(&self, path: &TrajPath, from: f64, t: f64) -> bool {
        // (False for NaN.)
        if !((0.0..f64::MAX).contains(&t) && from >= 0.0 && from <= t) {
            return false;
        }
        let ts = path.switch_time();
        match path.second() {
            // The position at the switch time is the second part's start.
            Some(second) if t > ts && ts >= 0.0 && from >= ts => {
                self.box_rejected(second.bounds(from - ts, t - ts), t)
            }
            Some(second) if t > ts && ts >= 0.0 => {
                self.box_rejected(path.first().bounds(from, ts), ts)
                    && self.box_rejected(second.bounds(0.0, t - ts), t)
            }
            _ => self.box_rejected(path.bounds(from, t), t),
        }
    }

    /// Whether every collision at a time up to `t` at a position in `area` is rejected.
    fn box_rejected(&self, area: Aabb, t: f64) -> bool {
        let radius = match self.radius {
            // The acceptor's threshold grows with the collision time: the one at `t` is the
            // largest.
            Radius::Growing { start_dist, t_thr } => {
                (t / t_thr).clamp(0.0, 1.0) * start_dist * (1.0 + RELATIVE_GAP)
            }
            Radius::Fixed(r) => r,
        };
        // (False for a NaN coordinate.)
        if !area.is_trusted() {
            return false;
        }
        let closest = area.distance_to_point(self.end);
        closest - SAFETY_GAP > radius
    }
}
