//! 2D trajectory from two 1D bang-bangs synchronised by splitting the limits with an angle α.

use super::{BangBang1D, Trajectory};
use crate::aabb::Aabb;
use geometry::Vec2;
use std::f64::consts::PI;
use std::sync::LazyLock;

/// Time tolerance of the α search (s).
const SYNC_TOL: f64 = 1e-3;
/// Smallest α step of the search (rad).
const MIN_STEP: f64 = 1e-7;

/// `(sin, cos)` of the search's k-th α step, `π/8 / 2^k`: the search turns (sin α, cos α) by
/// a step instead of evaluating both at every α.
static STEP_TURNS: LazyLock<[(f64, f64); 32]> =
    LazyLock::new(|| std::array::from_fn(|k| (PI / 8.0 / f64::from(1u32 << k)).sin_cos()));

/// 2D bang-bang: x gets `cos α·(vmax, amax)`, y gets `sin α·(vmax, amax)`, so |a| ≤ amax.
///
/// With v0 = 0 the path is a straight line; with v0 ≠ 0 the speed may exceed vmax
/// (tested bound: ×1.15 of max(vmax, |v0|) if |v0| ≤ vmax/2, else ×√2; measured ×1.08 / ×1.30 at vmax 2, amax 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BangBang2D {
    /// x-axis trajectory.
    pub x: BangBang1D,
    /// y-axis trajectory.
    pub y: BangBang1D,
}

impl BangBang2D {
    /// Synchronised trajectory from `p0` with velocity `v0` to rest at `p1`.
    pub fn new(p0: Vec2, p1: Vec2, v0: Vec2, vmax: f64, amax: f64) -> Self {
        let build = |s: f64, c: f64| Self {
            x: BangBang1D::new(p0.x, p1.x, v0.x, vmax * c, amax * c),
            y: BangBang1D::new(p0.y, p1.y, v0.y, vmax * s, amax * s),
        };
        let (mut s, mut c) = (PI / 4.0).sin_cos();
        let mut step = PI / 8.0;
        // |sin α|, |cos α| stay within rounding of 1, so the split limits are finite too.
        let finite_limits = vmax.abs() <= 1e300 && amax.abs() <= 1e300;
        // The step is below MIN_STEP after 22 halvings, well within the table.
        for &(step_sin, step_cos) in STEP_TURNS.iter() {
            // Only the durations while searching; the parts once α is found.
            let (tx, ty) = if finite_limits {
                (
                    BangBang1D::duration_finite_limits(p0.x, p1.x, v0.x, vmax * c, amax * c),
                    BangBang1D::duration_finite_limits(p0.y, p1.y, v0.y, vmax * s, amax * s),
                )
            } else {
                (
                    BangBang1D::duration(p0.x, p1.x, v0.x, vmax * c, amax * c),
                    BangBang1D::duration(p0.y, p1.y, v0.y, vmax * s, amax * s),
                )
            };
            let diff = tx - ty;
            if diff.abs() < SYNC_TOL || step <= MIN_STEP {
                return build(s, c);
            }
            // α -= step where x is the slower axis, else α += step.
            let turn = if diff > 0.0 { -step_sin } else { step_sin };
            (s, c) = (s * step_cos + c * turn, c * step_cos - s * turn);
            step *= 0.5;
        }
        build(s, c)
    }

    /// Position and velocity at `t` in one lookup.
    #[inline]
    pub fn pos_vel(&self, t: f64) -> (Vec2, Vec2) {
        let (sx, vx, _) = self.x.state(t);
        let (sy, vy, _) = self.y.state(t);
        (Vec2::new(sx, sy), Vec2::new(vx, vy))
    }

    /// Final rest position.
    pub fn final_position(&self) -> Vec2 {
        Vec2::new(self.x.final_position(), self.y.final_position())
    }

    /// The box of the positions on `[t_from, t_to]` (within rounding).
    pub fn bounds(&self, t_from: f64, t_to: f64) -> Aabb {
        Aabb::from_ranges(self.x.range(t_from, t_to), self.y.range(t_from, t_to))
    }

    /// Exact maximum speed, including t = 0 (|v|² is convex on every constant-acceleration piece).
    pub fn max_speed(&self) -> f64 {
        // The largest squared speed, rooted once: the root is monotonic, so this is the
        // largest of the rooted speeds bit for bit.
        // Two loops rather than one over a chained iterator: the same maxima in the same order.
        let mut m2 = self.velocity(0.0).len2();
        for p in self.x.parts() {
            m2 = m2.max(self.velocity(p.t_end).len2());
        }
        for p in self.y.parts() {
            m2 = m2.max(self.velocity(p.t_end).len2());
        }
        m2.sqrt()
    }
}

impl Trajectory for BangBang2D {
    type Value = Vec2;
    fn position(&self, t: f64) -> Vec2 {
        Vec2::new(self.x.position(t), self.y.position(t))
    }
    fn velocity(&self, t: f64) -> Vec2 {
        Vec2::new(self.x.velocity(t), self.y.velocity(t))
    }
    fn acceleration(&self, t: f64) -> Vec2 {
        Vec2::new(self.x.acceleration(t), self.y.acceleration(t))
    }
    fn total_time(&self) -> f64 {
        self.x.total_time().max(self.y.total_time())
    }
}
