//! Line-of-sight between two points of the field: the original's sampling rule and an exact
//! grid traversal.
//!
//! Sampled rule (the original's): start pixel `p0 = to_pixel(from)`; pixel step
//! `s = int(step_distance * rows / H)`; length `n = int(d * rows / H)` with `d` the `f32`
//! distance in metres; unit direction `u = (to - from) / d` in metres. Samples are
//! `round(p0 + k*s*u)` for `k*s = s, 2s, ...` strictly below `n` (rounding half to even, like
//! OpenCV's `cvRound`; all in `f32`). The end points are never sampled. A sample with
//! grey < 10, or outside the image, is a wall.
//!
//! Ours: a step below one pixel (`STEP_DISTANCE` 0, negative or tiny) is taken as one pixel,
//! the most thorough sampling, so the test never loops forever and never misses a wall the
//! coarser step would see (the config loader rejects step 0 anyway). Non-finite points are
//! never visible. Very long segments stop once every further sample is outside the image.

use super::{ObstacleMap, WALL_GREY};

/// The sample pixels of the sampled line-of-sight rule, in order from `from` towards `to`.
#[derive(Debug, Clone)]
pub struct Samples {
    c0: f32,
    r0: f32,
    ux: f32,
    uy: f32,
    step: i64,
    next: i64,
    end: i64,
}

impl Iterator for Samples {
    type Item = (i64, i64);

    fn next(&mut self) -> Option<(i64, i64)> {
        if self.next >= self.end {
            return None;
        }
        let k = self.next;
        self.next += self.step;
        Some(self.at(k))
    }
}

impl Samples {
    /// Sample `k` pixels from the start (`k` a multiple of the step).
    #[inline]
    fn at(&self, k: i64) -> (i64, i64) {
        let k = k as f32;
        (
            round_half_even(self.c0 + k * self.ux),
            round_half_even(self.r0 + k * self.uy),
        )
    }

    /// Whether every sample left is a pixel of `map`. Each coordinate of the samples is
    /// monotonic in `k` (a product, a sum and the rounding each keep the order), so the
    /// first and the last sample bound all the others.
    fn all_inside(&self, map: &ObstacleMap) -> bool {
        if self.next >= self.end {
            return true;
        }
        let last = self.next + (self.end - 1 - self.next) / self.step * self.step;
        let inside = |(c, r): (i64, i64)| map.grey(c, r).is_some();
        inside(self.at(self.next)) && inside(self.at(last))
    }

    /// Whether no sample left is a wall, for samples that [`all_inside`](Self::all_inside)
    /// the map: every coordinate is then below 2^22 in magnitude before rounding, so the
    /// rounding needs no range check, and every pixel index is within the image.
    fn all_clear_inside(&self, map: &ObstacleMap) -> bool {
        let cols = map.cols as usize;
        let mut k = self.next;
        while k < self.end {
            let kf = k as f32;
            k += self.step;
            // Inside the map: both are in `0..cols` and `0..rows`.
            let c = round_half_even_small(self.c0 + kf * self.ux) as u32 as usize;
            let r = round_half_even_small(self.r0 + kf * self.uy) as u32 as usize;
            if map.pixels.get(r * cols + c).is_none_or(|&g| g < WALL_GREY) {
                return false;
            }
        }
        true
    }
}

/// [`round_half_even`] of an `x` known to be below 2^22 in magnitude. Adding 1.5 * 2^23
/// rounds `x` to the nearest integer `n`, ties to even, exactly in IEEE round-to-nearest-even
/// (the sum is in `[2^23, 2^24]`, where the step is 1, and 1.5 * 2^23 is even); the floats
/// there are consecutive in their bits too, so the sum's bits are 1.5 * 2^23's plus `n`.
#[inline(always)]
fn round_half_even_small(x: f32) -> i32 {
    const MAGIC: f32 = 12_582_912.0;
    (x + MAGIC).to_bits() as i32 - MAGIC.to_bits() as i32
}

/// Nearest integer, ties to even (OpenCV's `cvRound`), without a libm call.
fn round_half_even(x: f32) -> i64 {
    if x.abs() < 4_194_304.0 {
        i64::from(round_half_even_small(x))
    } else {
        x.round_ties_even() as i64
    }
}

/// `true` if every component is finite.
fn finite(p: (f32, f32)) -> bool {
    p.0.is_finite() && p.1.is_finite()
}

impl ObstacleMap {
    /// Pixel step of the sampled rule for `step_distance` metres (at least 1; see module docs).
    pub fn step_pixels(&self, step_distance: f32) -> i64 {
        ((step_distance * self.rows as f32 / self.real_height) as i64).max(1)
    }

    /// The sample pixels `(col, row)` the sampled rule checks between `from` and `to`
    /// (metres); empty for non-finite points or points less than a step apart.
    pub fn samples(&self, from: (f32, f32), to: (f32, f32), step_distance: f32) -> Samples {
        let step = self.step_pixels(step_distance);
        let (c0, r0) = self.to_pixel(from.0, from.1);
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let d = (dx * dx + dy * dy).sqrt();
        let mut end = (d * self.rows as f32 / self.real_height) as i64;
        if !(finite(from) && finite(to)) {
            end = 0;
        }
        // Past this many pixels from the start every sample is outside the image (a wall):
        // keep one such sample and stop, so huge coordinates cannot make us loop for long.
        let bound = c0
            .unsigned_abs()
            .saturating_add(r0.unsigned_abs())
            .saturating_add(u64::from(self.cols) + u64::from(self.rows) + 2)
            .saturating_add(2 * step.unsigned_abs());
        end = end.min(i64::try_from(bound).unwrap_or(i64::MAX));
        let (ux, uy) = if d > 0.0 && d.is_finite() {
            (dx / d, dy / d)
        } else if d > 0.0 {
            // dx*dx overflowed f32 for far (finite) points: take the direction in f64.
            let d64 = f64::from(dx).hypot(f64::from(dy));
            ((f64::from(dx) / d64) as f32, (f64::from(dy) / d64) as f32)
        } else {
            (0.0, 0.0)
        };
        Samples {
            c0: c0 as f32,
            r0: r0 as f32,
            ux,
            uy,
            step,
            next: step,
            end,
        }
    }

    /// The original's occlusion test: `true` if no sample between `from` and `to` is a wall.
    /// Non-finite points are never visible.
    pub fn visible_sampled(&self, from: (f32, f32), to: (f32, f32), step_distance: f32) -> bool {
        if !(finite(from) && finite(to)) {
            return false;
        }
        let samples = self.samples(from, to, step_distance);
        if samples.all_inside(self) {
            samples.all_clear_inside(self)
        } else {
            samples.clone().all(|(c, r)| !self.is_wall_px(c, r))
        }
    }

    /// Calls `f(col, row, is_wall)` for every sample of the sampled rule, in order (for
    /// drawing the test in a viewer); does not stop at walls.
    pub fn for_each_sample(
        &self,
        from: (f32, f32),
        to: (f32, f32),
        step_distance: f32,
        mut f: impl FnMut(i64, i64, bool),
    ) {
        for (c, r) in self.samples(from, to, step_distance) {
            f(c, r, self.is_wall_px(c, r));
        }
    }

    /// Exact occlusion test: `true` if no pixel the segment passes through is a wall.
    ///
    /// Grid traversal (Amanatides-Woo) over the continuous pixel coordinates
    /// [`ObstacleMap::to_pixel_f32`]; pixel `(c, r)` covers `[c, c+1) x [r, r+1)`. Like the
    /// sampled rule, the pixels containing `from` and `to` are not checked (a robot standing
    /// on a dark pixel can still see and be seen). Where the segment crosses exactly through a
    /// pixel corner, both side pixels are checked too (no diagonal leak between two walls
    /// touching at a corner). Outside the image is a wall; non-finite points are never visible.
    pub fn visible_exact(&self, from: (f32, f32), to: (f32, f32)) -> bool {
        if !(finite(from) && finite(to)) {
            return false;
        }
        let (ax, ay) = self.to_pixel_f32(from.0, from.1);
        let (bx, by) = self.to_pixel_f32(to.0, to.1);
        let (ax, ay, bx, by) = (f64::from(ax), f64::from(ay), f64::from(bx), f64::from(by));
        let start = (ax.floor() as i64, ay.floor() as i64);
        let end = (bx.floor() as i64, by.floor() as i64);
        let blocked = |c: i64, r: i64| (c, r) != start && (c, r) != end && self.is_wall_px(c, r);
        let axis = |a: f64, b: f64, cell: i64| {
            let d = b - a;
            if d > 0.0 {
                (1, (cell as f64 + 1.0 - a) / d, 1.0 / d)
            } else if d < 0.0 {
                (-1, (cell as f64 - a) / d, -1.0 / d)
            } else {
                (0, f64::INFINITY, f64::INFINITY)
            }
        };
        let (sx, mut tx, dtx) = axis(ax, bx, start.0);
        let (sy, mut ty, dty) = axis(ay, by, start.1);
        let (mut c, mut r) = start;
        while (c, r) != end {
            // Never step past the end cell's column or row, whatever rounding says.
            let step_x = c != end.0 && (r == end.1 || tx <= ty);
            let step_y = r != end.1 && (c == end.0 || ty <= tx);
            if step_x && step_y {
                // Exact corner: the segment touches both side pixels.
                if blocked(c + sx, r) || blocked(c, r + sy) {
                    return false;
                }
                c += sx;
                r += sy;
                tx += dtx;
                ty += dty;
            } else if step_x {
                c += sx;
                tx += dtx;
            } else {
                r += sy;
                ty += dty;
            }
            if blocked(c, r) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::round_half_even;
    use crate::map::ObstacleMap;

    #[test]
    fn the_inside_shortcut_decides_as_the_sample_by_sample_rule() {
        let mut rng = geometry::rng::SplitMix64::new(11);
        // A 12 m x 8 m field of 120 x 80 pixels, about a fifth of them walls.
        let pixels: Vec<u8> = (0..120 * 80)
            .map(|_| if rng.unit_f32() < 0.2 { 0 } else { 200 })
            .collect();
        let map = ObstacleMap {
            pixels,
            cols: 120,
            rows: 80,
            real_width: 12.0,
            real_height: 8.0,
        };
        let (mut inside, mut crossing) = (0, 0);
        for _ in 0..20_000 {
            // Points from 1 m outside the field to 1 m beyond it, steps 0 to 0.6 m.
            let mut point = || (rng.unit_f32() * 14.0 - 1.0, rng.unit_f32() * 10.0 - 1.0);
            let (from, to) = (point(), point());
            let step = rng.unit_f32() * 0.6;
            let samples = map.samples(from, to, step);
            let by_sample = samples.clone().all(|(c, r)| !map.is_wall_px(c, r));
            if samples.all_inside(&map) {
                inside += 1;
                assert!(samples.clone().all(|(c, r)| map.grey(c, r).is_some()));
                assert_eq!(
                    samples.all_clear_inside(&map),
                    by_sample,
                    "{from:?} {to:?} {step}"
                );
            } else {
                crossing += 1;
                assert!(!samples.clone().all(|(c, r)| map.grey(c, r).is_some()));
            }
            assert_eq!(map.visible_sampled(from, to, step), by_sample);
        }
        assert!(inside > 5_000 && crossing > 2_000, "{inside} {crossing}");
    }

    #[test]
    fn magic_rounding_matches_round_ties_even() {
        let mut x = -5000.0f32;
        while x < 5000.0 {
            for v in [x, x + 0.5, x - 0.5, x + 0.499_999_97, x + 0.25] {
                assert_eq!(round_half_even(v), v.round_ties_even() as i64, "{v}");
            }
            x += 0.75;
        }
        for v in [
            4_194_303.5f32,
            4_194_304.0,
            -4_194_303.5,
            1e20,
            -1e20,
            0.5,
            -0.5,
            1.5,
            2.5,
        ] {
            assert_eq!(round_half_even(v), v.round_ties_even() as i64, "{v}");
        }
    }
}
