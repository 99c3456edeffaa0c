//! 2D trajectory from two 1D bang-bangs synchronised by splitting the limits with an angle α.

use super::alpha::{self, Axis};
use super::{BangBang1D, Trajectory};
use crate::aabb::Aabb;
use geometry::Vec2;

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
        // Cheap tests first: most requests have no still axis (`|`: one branch).
        let (x, y) = Self::axes(p0, p1, v0);
        if x.is_still() | y.is_still()
            && let Some((s, c)) = Self::one_sided(x, y, vmax, amax)
        {
            return Self::split(p0, p1, v0, vmax, amax, s, c);
        }
        Self::searched(p0, p1, v0, vmax, amax)
    }

    /// [`alpha::one_sided`], out of line: few requests have a still axis, and the search's
    /// loop keeps its registers.
    #[cold]
    #[inline(never)]
    fn one_sided(x: Axis, y: Axis, vmax: f64, amax: f64) -> Option<(f64, f64)> {
        alpha::one_sided(x, y, vmax, amax)
    }

    /// The x and y axes of a request, for [`alpha::one_sided`].
    #[inline(always)]
    fn axes(p0: Vec2, p1: Vec2, v0: Vec2) -> (Axis, Axis) {
        let axis = |s0, target, v0| Axis { s0, target, v0 };
        (axis(p0.x, p1.x, v0.x), axis(p0.y, p1.y, v0.y))
    }

    /// The trajectory under the split `(sin α, cos α)`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn split(p0: Vec2, p1: Vec2, v0: Vec2, vmax: f64, amax: f64, s: f64, c: f64) -> Self {
        Self {
            x: BangBang1D::new(p0.x, p1.x, v0.x, vmax * c, amax * c),
            y: BangBang1D::new(p0.y, p1.y, v0.y, vmax * s, amax * s),
        }
    }

    /// [`new`](Self::new) by running the α search (out of line: the register use of the
    /// search loop stays the same as without the shortcut's test).
    #[inline(never)]
    fn searched(p0: Vec2, p1: Vec2, v0: Vec2, vmax: f64, amax: f64) -> Self {
        // |sin α|, |cos α| stay within rounding of 1, so the split limits are finite too.
        let finite_limits = vmax.abs() <= 1e300 && amax.abs() <= 1e300;
        // Only the durations while searching; the parts once α is found.
        let (s, c) = alpha::search(|s, c| {
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
            tx - ty
        });
        Self::split(p0, p1, v0, vmax, amax, s, c)
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
    #[inline]
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

#[cfg(test)]
mod tests {
    use super::*;
    use geometry::rng::SplitMix64;

    /// Start, target and start velocity of a trajectory with one still axis (`y_still`:
    /// the y axis, else the x axis); the other axis moves `d` from a random start with
    /// start velocity `v`.
    fn one_still(rng: &mut SplitMix64, y_still: bool, d: f64, v: f64) -> (Vec2, Vec2, Vec2) {
        let (a, b) = (rng.range(-6.0, 6.0), rng.range(-4.5, 4.5));
        if y_still {
            (Vec2::new(a, b), Vec2::new(a + d, b), Vec2::new(v, 0.0))
        } else {
            (Vec2::new(a, b), Vec2::new(a, b + d), Vec2::new(0.0, v))
        }
    }

    #[test]
    fn one_sided_shortcut_is_the_search_bit_for_bit() {
        let mut rng = SplitMix64::new(7);
        let mut shortcuts = 0;
        for k in 0..20_000 {
            let y_still = k % 2 == 0;
            // Distances from far below to far above the shortcut's threshold, both ways.
            let d = rng.range(-1.0, 1.0) * 10f64.powf(rng.range(-9.0, 1.0));
            let v = match k % 4 {
                0 | 1 => 0.0,
                _ => rng.range(-4.0, 4.0),
            };
            let (p0, p1, v0) = one_still(&mut rng, y_still, d, v);
            let vmax = rng.range(0.005, 6.0);
            let amax = rng.range(0.005, 8.0);
            let (x, y) = (
                Axis {
                    s0: p0.x,
                    target: p1.x,
                    v0: v0.x,
                },
                Axis {
                    s0: p0.y,
                    target: p1.y,
                    v0: v0.y,
                },
            );
            shortcuts += usize::from(alpha::one_sided(x, y, vmax, amax).is_some());
            let fast = BangBang2D::new(p0, p1, v0, vmax, amax);
            let searched = BangBang2D::searched(p0, p1, v0, vmax, amax);
            assert_eq!(fast, searched, "{p0:?} {p1:?} {v0:?} {vmax} {amax}");
        }
        // Both ends and the full search are exercised.
        assert!(shortcuts > 5_000 && shortcuts < 15_000, "{shortcuts}");
    }

    #[test]
    fn one_sided_shortcut_takes_only_sane_slow_cases() {
        let axis = |s0, target, v0| Axis { s0, target, v0 };
        let still = axis(0.5, 0.5, 0.0);
        let moving = axis(-3.0, 3.0, 0.0);
        assert!(alpha::one_sided(moving, still, 3.0, 3.0).is_some());
        assert!(alpha::one_sided(still, moving, 3.0, 3.0).is_some());
        // Both still, neither still, too short a move, insane limits or values: no shortcut.
        assert!(alpha::one_sided(still, still, 3.0, 3.0).is_none());
        assert!(alpha::one_sided(moving, moving, 3.0, 3.0).is_none());
        assert!(alpha::one_sided(axis(0.0, 0.005, 0.0), still, 3.0, 3.0).is_none());
        assert!(alpha::one_sided(moving, still, 1e3, 3.0).is_none());
        assert!(alpha::one_sided(moving, still, 3.0, 0.001).is_none());
        assert!(alpha::one_sided(moving, still, f64::NAN, 3.0).is_none());
        assert!(alpha::one_sided(axis(0.0, 1e5, 0.0), still, 3.0, 3.0).is_none());
        assert!(alpha::one_sided(axis(0.0, 3.0, 1e3), still, 3.0, 3.0).is_none());
        assert!(alpha::one_sided(moving, axis(1e5, 1e5, 0.0), 3.0, 3.0).is_none());
    }
}
