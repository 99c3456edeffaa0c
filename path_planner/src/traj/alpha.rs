//! The α search of [`BangBang2D::new`](super::BangBang2D::new): the split of the limits
//! (x gets `cos α`, y gets `sin α`) under which both axes take about as long, found by
//! bisection from α = π/4 on the sign of the duration difference.
//!
//! When one axis is still (at its target, at rest), its duration is exactly 0 for every
//! split; if the other axis provably takes well over the tolerance for every split, every
//! step of the bisection turns α the same way, and the search ends where that walk ends,
//! which is worked out once ([`one_sided`]).

use std::f64::consts::PI;
use std::sync::LazyLock;

/// Time tolerance of the α search (s).
const SYNC_TOL: f64 = 1e-3;
/// Smallest α step of the search (rad).
const MIN_STEP: f64 = 1e-7;
/// How many of the search's steps `π/8 / 2^k` (halved from π/8) are above [`MIN_STEP`].
const STEPS_ABOVE_MIN: usize = 22;
const _: () = {
    let (mut step, mut above) = (PI / 8.0, 0);
    while step > MIN_STEP {
        above += 1;
        step *= 0.5;
    }
    assert!(above == STEPS_ABOVE_MIN);
};
/// Largest coordinate (m) of the one-sided shortcut: far above a field, small enough that
/// the durations are within 1e-5 s of exact.
const MAX_COORD: f64 = 1e4;
/// Largest start speed and speed or acceleration limit (m/s, m/s²) of the shortcut.
const MAX_LIMIT: f64 = 100.0;
/// Smallest speed and acceleration limit of the one-sided shortcut (the axis that moves
/// gets at least `cos π/4` of them, so no split limit is raised to `MIN_LIMIT`).
const MIN_LIMIT: f64 = 0.01;

/// The turn table and the two one-sided ends, worked out once.
struct Tables {
    /// `(sin, cos)` of the search's k-th α step, `π/8 / 2^k`: the search turns
    /// (sin α, cos α) by a step instead of evaluating both at every α.
    turns: [(f64, f64); 32],
    /// `(sin α, cos α)` where the search ends when every step lowers α (y still).
    all_down: (f64, f64),
    /// `(sin α, cos α)` where the search ends when every step raises α (x still).
    all_up: (f64, f64),
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let turns = std::array::from_fn(|k| (PI / 8.0 / f64::from(1u32 << k)).sin_cos());
    Tables {
        turns,
        all_down: walk(&turns, |_, _| 1.0),
        all_up: walk(&turns, |_, _| -1.0),
    }
});

/// The bisection: `diff(sin α, cos α)` is the x duration minus the y duration under that
/// split; returns `(sin α, cos α)` of the first α within [`SYNC_TOL`], else of the last.
#[inline(always)]
fn walk(turns: &[(f64, f64); 32], mut diff: impl FnMut(f64, f64) -> f64) -> (f64, f64) {
    let (mut s, mut c) = (PI / 4.0).sin_cos();
    // The steps above MIN_STEP; the α after them is kept whatever its difference.
    for &(step_sin, step_cos) in &turns[..STEPS_ABOVE_MIN] {
        let diff = diff(s, c);
        if diff.abs() < SYNC_TOL {
            return (s, c);
        }
        // α -= step where x is the slower axis, else α += step.
        let turn = if diff > 0.0 { -step_sin } else { step_sin };
        (s, c) = (s * step_cos + c * turn, c * step_cos - s * turn);
    }
    (s, c)
}

/// `(sin α, cos α)` of the search with the duration difference `diff` (a pure function:
/// the last α is returned without asking it).
#[inline(always)]
pub(super) fn search(diff: impl FnMut(f64, f64) -> f64) -> (f64, f64) {
    walk(&TABLES.turns, diff)
}

/// One axis's start, target and start velocity.
#[derive(Clone, Copy)]
pub(super) struct Axis {
    /// Start position (m).
    pub s0: f64,
    /// Target position (m).
    pub target: f64,
    /// Start velocity (m/s).
    pub v0: f64,
}

impl Axis {
    /// Whether its values are within the shortcut's magnitudes (false for NaN).
    fn is_sane(self) -> bool {
        self.s0.abs() <= MAX_COORD && self.target.abs() <= MAX_COORD && self.v0.abs() <= MAX_LIMIT
    }

    /// At its target at rest: its duration is exactly 0 under any positive limits (`&`: no
    /// branch, as [`BangBang2D::new`](super::BangBang2D::new) asks it of every request).
    #[inline(always)]
    pub(super) fn is_still(self) -> bool {
        (self.s0 == self.target) & (self.v0 == 0.0)
    }

    /// Whether it takes over twice [`SYNC_TOL`] under any split of `vmax`: no part of the
    /// closed form is faster than `max(|v0|, vmax)`, so the time is at least the distance
    /// over that (with a wide allowance for rounding at sane magnitudes).
    fn surely_slow(self, vmax: f64) -> bool {
        let fastest = self.v0.abs().max(vmax);
        (self.target - self.s0).abs() > 2.0 * SYNC_TOL * fastest * 1.01
    }
}

/// `(sin α, cos α)` where the search ends when one axis is still and the other surely
/// slower than the tolerance under every split (then every step turns α the same way);
/// `None` otherwise (the search must run).
#[inline(always)]
pub(super) fn one_sided(x: Axis, y: Axis, vmax: f64, amax: f64) -> Option<(f64, f64)> {
    let (moving, end) = if y.is_still() {
        (x, TABLES.all_down)
    } else if x.is_still() {
        (y, TABLES.all_up)
    } else {
        return None;
    };
    let sane_limit = |l: f64| (MIN_LIMIT..=MAX_LIMIT).contains(&l);
    let sane = sane_limit(vmax) && sane_limit(amax) && x.is_sane() && y.is_sane();
    (sane && moving.surely_slow(vmax)).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traj::BangBang1D;
    use geometry::rng::SplitMix64;

    /// The walk as it was: the difference worked out at every α, the last one included.
    fn walk_asking_every_alpha(
        turns: &[(f64, f64); 32],
        mut diff: impl FnMut(f64, f64) -> f64,
    ) -> (f64, f64) {
        let (mut s, mut c) = (PI / 4.0).sin_cos();
        let mut step = PI / 8.0;
        for &(step_sin, step_cos) in turns {
            let diff = diff(s, c);
            if diff.abs() < SYNC_TOL || step <= MIN_STEP {
                return (s, c);
            }
            let turn = if diff > 0.0 { -step_sin } else { step_sin };
            (s, c) = (s * step_cos + c * turn, c * step_cos - s * turn);
            step *= 0.5;
        }
        (s, c)
    }

    #[test]
    fn search_is_the_walk_asking_every_alpha_bit_for_bit() {
        let mut rng = SplitMix64::new(11);
        let mut full = 0;
        for k in 0..20_000 {
            let (p0, p1) = (rng.range(-6.0, 6.0), rng.range(-6.0, 6.0));
            let (q0, q1) = (rng.range(-4.5, 4.5), rng.range(-4.5, 4.5));
            let (vx, vy) = (rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
            let (vmax, amax) = (rng.range(0.005, 6.0), rng.range(0.005, 8.0));
            // Some requests with one axis still or both far from synchronisable.
            let (q1, vy) = if k % 5 == 0 { (q0, 0.0) } else { (q1, vy) };
            let diff = |s: f64, c: f64| {
                BangBang1D::duration(p0, p1, vx, vmax * c, amax * c)
                    - BangBang1D::duration(q0, q1, vy, vmax * s, amax * s)
            };
            let mut asked = 0;
            let counted = |s: f64, c: f64| {
                asked += 1;
                diff(s, c)
            };
            let old = walk_asking_every_alpha(&TABLES.turns, counted);
            full += usize::from(asked == 23);
            let new = search(diff);
            assert_eq!(
                (old.0.to_bits(), old.1.to_bits()),
                (new.0.to_bits(), new.1.to_bits()),
                "{p0} {p1} {q0} {q1} {vx} {vy} {vmax} {amax}"
            );
        }
        // Searches that run to the smallest step are exercised.
        assert!(full > 1_000, "{full}");
    }
}
