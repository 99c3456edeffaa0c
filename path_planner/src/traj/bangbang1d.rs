//! Closed-form 1D bang-bang trajectory to rest (triangle / trapezoid, mirrored for overshoot).

use super::Trajectory;

/// Smallest accepted limit; guards against zero or negative vmax/amax.
pub const MIN_LIMIT: f64 = 1e-6;

/// One constant-acceleration part of a 1D trajectory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Part {
    /// Cumulative end time of the part (s).
    pub t_end: f64,
    /// Constant acceleration during the part (m/s²).
    pub acc: f64,
    /// Velocity at the start of the part (m/s).
    pub v0: f64,
    /// Position at the start of the part (m).
    pub s0: f64,
}

/// Time-optimal 1D trajectory from (s0, v0) to rest at a target under |v| ≤ vmax, |a| ≤ amax.
///
/// Starts above vmax brake down to vmax with amax (no instantaneous velocity jump).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BangBang1D {
    /// The first `n` parts; the others stay all zero (as [`Builder`] starts them).
    parts: [Part; 3],
    n: u8,
    /// Whether every value of the parts and the end position is finite (worked out once:
    /// [`range`](Self::range) asks at every box).
    finite: bool,
    s_end: f64,
}

/// Where the closed form puts its constant-acceleration pieces: a [`Builder`] keeps them, a
/// [`Duration`] only adds up their lengths (what the 2D synchronisation search needs).
trait Pieces {
    /// Appends `dur` seconds (negative: none) at acceleration `acc`.
    fn push(&mut self, acc: f64, dur: f64);
}

/// The total time of the pieces, summed as [`Builder`] sums its end times (from 0).
#[derive(Default)]
struct Duration {
    sum: f64,
    /// Whether a piece was pushed (the pieces come in a fixed order, so once inlined this
    /// is known where each is pushed).
    started: bool,
}

impl Pieces for Duration {
    #[inline(always)]
    fn push(&mut self, _acc: f64, dur: f64) {
        self.sum = if self.started {
            self.sum + dur.max(0.0)
        } else {
            // `0.0 + dur.max(0.0)` without the addition on the search's chain: `dur` when
            // positive (exact), else +0 (the sum of 0.0 and a zero, or 0.0 for NaN).
            if dur > 0.0 { dur } else { 0.0 }
        };
        self.started = true;
    }
}

struct Builder {
    parts: [Part; 3],
    n: u8,
    t: f64,
    s: f64,
    v: f64,
}

impl Builder {
    fn new(s0: f64, v0: f64) -> Self {
        Self {
            parts: [Part::default(); 3],
            n: 0,
            t: 0.0,
            s: s0,
            v: v0,
        }
    }
}

impl Pieces for Builder {
    fn push(&mut self, acc: f64, dur: f64) {
        let dur = dur.max(0.0);
        self.parts[self.n as usize] = Part {
            t_end: self.t + dur,
            acc,
            v0: self.v,
            s0: self.s,
        };
        self.n += 1;
        self.t += dur;
        self.s += self.v * dur + 0.5 * acc * dur * dur;
        self.v += acc * dur;
    }
}

impl Builder {
    fn finish(self) -> BangBang1D {
        BangBang1D {
            parts: self.parts,
            n: self.n,
            finite: all_finite(&self.parts, self.s),
            s_end: self.s,
        }
    }
}

/// A limit raised to [`MIN_LIMIT`] (non-finite ones too).
fn limit(value: f64) -> f64 {
    if value.is_finite() {
        raised_to_min_limit(value)
    } else {
        MIN_LIMIT
    }
}

/// `value.max(MIN_LIMIT)` for every `value` (NaN gives `MIN_LIMIT`, and `MIN_LIMIT` is no
/// zero, so there is no sign of zero to pick) as one compare: `f64::max` adds a NaN fix-up.
#[inline(always)]
fn raised_to_min_limit(value: f64) -> f64 {
    if value > MIN_LIMIT { value } else { MIN_LIMIT }
}

/// Whether braking at once from `v0` stops at or before `target` (else the mirrored case).
fn stops_before(s0: f64, target: f64, v0: f64, amax: f64) -> bool {
    s0 + v0 * v0.abs() / (2.0 * amax) <= target
}

impl BangBang1D {
    /// Solves the rest-at-target problem; limits below [`MIN_LIMIT`] are raised to it.
    #[inline]
    pub fn new(s0: f64, target: f64, v0: f64, vmax: f64, amax: f64) -> Self {
        let (vmax, amax) = (limit(vmax), limit(amax));
        if stops_before(s0, target, v0, amax) {
            let mut b = Builder::new(s0, v0);
            Self::forward(s0, target, v0, vmax, amax, &mut b);
            b.finish()
        } else {
            let mut b = Builder::new(-s0, -v0);
            Self::forward(-s0, -target, -v0, vmax, amax, &mut b);
            b.finish().mirrored()
        }
    }

    /// The [`total_time`](Trajectory::total_time) of [`new`](Self::new) with the same
    /// arguments, bit for bit, without building the parts.
    #[inline(always)]
    pub fn duration(s0: f64, target: f64, v0: f64, vmax: f64, amax: f64) -> f64 {
        Self::duration_within(s0, target, v0, limit(vmax), limit(amax))
    }

    /// [`duration`](Self::duration) for finite limits (`limit(x)` is then `x.max(MIN_LIMIT)`).
    #[inline(always)]
    pub(crate) fn duration_finite_limits(
        s0: f64,
        target: f64,
        v0: f64,
        vmax: f64,
        amax: f64,
    ) -> f64 {
        let (vmax, amax) = (raised_to_min_limit(vmax), raised_to_min_limit(amax));
        Self::duration_within(s0, target, v0, vmax, amax)
    }

    /// [`duration`](Self::duration) with the limits already raised to [`MIN_LIMIT`].
    #[inline(always)]
    fn duration_within(s0: f64, target: f64, v0: f64, vmax: f64, amax: f64) -> f64 {
        let mut d = Duration::default();
        if stops_before(s0, target, v0, amax) {
            Self::forward(s0, target, v0, vmax, amax, &mut d);
        } else {
            Self::forward(-s0, -target, -v0, vmax, amax, &mut d);
        }
        d.sum
    }

    /// Case "target at or ahead of the full-brake stop point" (d = +1).
    #[inline(always)]
    fn forward(s0: f64, target: f64, v0: f64, vmax: f64, amax: f64, b: &mut impl Pieces) {
        if v0 <= vmax {
            // Stop position after accelerating (or braking) to +vmax and braking at once.
            let s_tri = s0 + (vmax * vmax - v0 * v0) / (2.0 * amax) + vmax * vmax / (2.0 * amax);
            if s_tri >= target {
                let root = amax * (target - s0) + 0.5 * v0 * v0;
                let vp = if root > 0.0 { root.sqrt() } else { 0.0 };
                b.push(amax, (vp - v0) / amax);
                b.push(-amax, vp / amax);
                return;
            }
        }
        let acc1 = if v0 <= vmax { amax } else { -amax };
        let t1 = (vmax - v0).abs() / amax;
        let s1 = s0 + 0.5 * (v0 + vmax) * t1;
        let t2 = (target - vmax * vmax / (2.0 * amax) - s1) / vmax;
        b.push(acc1, t1);
        b.push(0.0, t2);
        b.push(-amax, vmax / amax);
    }

    fn mirrored(mut self) -> Self {
        for p in &mut self.parts[..self.n as usize] {
            p.acc = -p.acc;
            p.v0 = -p.v0;
            p.s0 = -p.s0;
        }
        self.s_end = -self.s_end;
        self
    }

    /// The 2 or 3 parts of the trajectory.
    pub fn parts(&self) -> &[Part] {
        &self.parts[..self.n as usize]
    }

    /// Final position (where the trajectory comes to rest).
    pub fn final_position(&self) -> f64 {
        self.s_end
    }

    /// Position, velocity and acceleration at `t` in one lookup.
    #[inline]
    pub fn state(&self, t: f64) -> (f64, f64, f64) {
        let t = t.max(0.0);
        // The first part ending at or after `t` (a solve makes 2 or 3), with its start time.
        let [p0, p1, p2] = &self.parts;
        let (p, t_start) = if t <= p0.t_end {
            (p0, 0.0)
        } else if t <= p1.t_end {
            (p1, p0.t_end)
        } else if self.n == 3 && t <= p2.t_end {
            (p2, p1.t_end)
        } else {
            return (self.s_end, 0.0, 0.0);
        };
        let tau = t - t_start;
        (
            p.s0 + p.v0 * tau + 0.5 * p.acc * tau * tau,
            p.v0 + p.acc * tau,
            p.acc,
        )
    }
}

/// Whether every value of `parts` and `s_end` is finite: `x * 0.0` is ±0 for a finite `x`
/// and NaN otherwise, so their sum is 0 exactly when all are finite (one sum instead of a
/// branch per value). The unused parts are zero, so all three are summed without a loop.
fn all_finite(parts: &[Part; 3], s_end: f64) -> bool {
    // Each product is ±0 or NaN, so any order of the sum tells the same: summed as a tree
    // (a short chain of additions rather than one after another).
    let part = |p: &Part| (p.s0 * 0.0 + p.v0 * 0.0) + (p.acc * 0.0 + p.t_end * 0.0);
    let zero_if_finite = ((part(&parts[0]) + part(&parts[1])) + part(&parts[2])) + s_end * 0.0;
    zero_if_finite == 0.0
}

impl BangBang1D {
    /// The lowest and highest position on `[t_from, t_to]` (`t_from ≤ t_to`), from the
    /// window's ends, the part boundaries and the turning points inside it; computed from
    /// the parts, so within rounding of what [`state`](Self::state) returns there. NaN for a
    /// trajectory with a non-finite value (built from bad input): no range to trust.
    #[inline(always)]
    pub fn range(&self, t_from: f64, t_to: f64) -> (f64, f64) {
        if !self.finite {
            return (f64::NAN, f64::NAN);
        }
        // The window's end positions; a window from the start or past the end needs no
        // lookup (`state` gives exactly the first part's start and the end position there).
        let a = if t_from <= 0.0 {
            self.parts[0].s0
        } else {
            self.state(t_from).0
        };
        let b = if t_to >= self.total_time() {
            self.s_end
        } else {
            self.state(t_to).0
        };
        let (mut lo, mut hi) = (a.min(b), a.max(b));
        let mut t_start = 0.0;
        for p in self.parts() {
            if t_start > t_from && t_start < t_to {
                (lo, hi) = (lo.min(p.s0), hi.max(p.s0));
            }
            // A turning point inside the part: the velocity runs against the acceleration.
            if p.v0 * p.acc < 0.0 {
                let tau = -p.v0 / p.acc;
                let t = t_start + tau;
                if t < p.t_end && t > t_from && t < t_to {
                    let s = p.s0 + p.v0 * tau + 0.5 * p.acc * tau * tau;
                    (lo, hi) = (lo.min(s), hi.max(s));
                }
            }
            t_start = p.t_end;
        }
        (lo, hi)
    }
}

impl Trajectory for BangBang1D {
    type Value = f64;
    #[inline]
    fn position(&self, t: f64) -> f64 {
        self.state(t).0
    }
    fn velocity(&self, t: f64) -> f64 {
        self.state(t).1
    }
    fn acceleration(&self, t: f64) -> f64 {
        self.state(t).2
    }
    fn total_time(&self) -> f64 {
        self.parts[self.n as usize - 1].t_end
    }
}
