//! The conservative "cannot collide" test of a final march (one whose track states are not
//! reused afterwards): an obstacle that provably keeps clear of the path up to its march
//! limit is not marched at all. Every sample of its march would have been free, so the
//! march's result is the same; only the distance evaluations are saved.

use super::collision::ObstacleFacts;
use crate::aabb::{Aabb, SAFETY_GAP};
use crate::config::PlannerConfig;
use crate::obstacle::Obstacle;
use crate::traj::TrajPath;

/// Most check steps a skipped window may span: the march gives up after 4,000 checks
/// (a colliding result), which a skip must not hide.
const MAX_WINDOW_STEPS: f64 = 1000.0;
/// Latest path time (s) a skipped window may reach (the check steps stay exact well below).
const MAX_WINDOW_END: f64 = 1e6;
/// Path boxes kept per march (one per distinct window end: the march limit, and the
/// obstacles' active times below it).
const BOXES: usize = 4;

/// What the test takes from the configuration, worked out once per path finder.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClearanceLimits {
    /// Upper bound of the dynamic margin (infinite when the configuration gives none).
    margin_bound: f64,
    /// Longest window (s) that stays within [`MAX_WINDOW_STEPS`] (negative: none).
    max_window: f64,
}

impl ClearanceLimits {
    /// The limits of `cfg`.
    pub fn of(cfg: &PlannerConfig) -> Self {
        let vref_ok = cfg.margin_vref > 0.0 && cfg.margin_vref.is_finite();
        let base_ok = cfg.margin_base >= 0.0 && cfg.margin_base.is_finite();
        // margin(v) = (min(v, v_ref)/v_ref)² · base ≤ base: the ratio is at most 1.
        let margin_bound = if vref_ok && base_ok {
            cfg.margin_base
        } else {
            f64::INFINITY
        };
        let step_ok = cfg.min_check_step > 0.0 && cfg.min_check_step.is_finite();
        Self {
            margin_bound,
            max_window: if step_ok {
                MAX_WINDOW_STEPS * cfg.min_check_step
            } else {
                -1.0
            },
        }
    }
}

/// The test for the final marches along one path, with the path's boxes computed on demand
/// and kept while the marches start at the same time (the static and the moving march of a
/// path often do).
pub(crate) struct Clearance<'a> {
    path: &'a TrajPath,
    /// Start of every window: the earliest next check time of the march's tracks (NaN before
    /// the first march).
    from: f64,
    /// The margin bound and the longest window of the configuration.
    limits: ClearanceLimits,
    /// `(window end, box of the path on [from, end] if its coordinates are small enough)`.
    boxes: [(f64, Option<Aabb>); BOXES],
    len: usize,
}

impl<'a> Clearance<'a> {
    /// The test for `path` under `limits`; [`start_at`](Self::start_at) sets where its
    /// windows start.
    pub fn new(path: &'a TrajPath, limits: ClearanceLimits) -> Self {
        Self {
            path,
            from: f64::NAN,
            limits,
            boxes: [(f64::NAN, None); BOXES],
            len: 0,
        }
    }

    /// The path the test is about.
    pub fn path(&self) -> &'a TrajPath {
        self.path
    }

    /// Starts the windows of the next march at `from`; the boxes are kept if it is the
    /// start of the last march (bit for bit), as they then are the same.
    pub fn start_at(&mut self, from: f64) {
        if from.to_bits() != self.from.to_bits() {
            self.from = from;
            self.len = 0;
        }
    }

    /// Whether `obs` provably keeps clear of the path (margin included) from `next` to `lim`,
    /// where `lim` is at most `end`, the obstacle's window end.
    #[inline(always)]
    pub fn proves_clear(
        &mut self,
        obs: &dyn Obstacle,
        facts: &ObstacleFacts,
        next: f64,
        lim: f64,
        end: f64,
    ) -> bool {
        // Written so that a NaN anywhere fails the test.
        let window_ok = next >= self.from
            && lim - next <= self.limits.max_window
            && lim <= end
            && end <= MAX_WINDOW_END;
        if !window_ok {
            return false;
        }
        let Some(area) = self.area(end) else {
            return false;
        };
        let Some(bound) = obs.distance_lower_bound(&area, next, lim) else {
            return false;
        };
        let margin = if facts.dynamic_margin {
            self.limits.margin_bound
        } else {
            0.0
        };
        bound - margin > SAFETY_GAP
    }

    /// The box of the path on `[from, end]`, if its coordinates are small enough to trust.
    #[inline(always)]
    fn area(&mut self, end: f64) -> Option<Aabb> {
        let known = self.boxes[..self.len]
            .iter()
            .find(|(e, _)| e.to_bits() == end.to_bits());
        if let Some(&(_, area)) = known {
            return area;
        }
        let area = self.path.bounds(self.from, end);
        let area = area.is_trusted().then_some(area);
        if self.len < BOXES {
            self.boxes[self.len] = (end, area);
            self.len += 1;
        }
        area
    }
}
