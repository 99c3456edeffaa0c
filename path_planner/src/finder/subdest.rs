//! Intermediate ("sub") destination generators: seeded random set and systematic set.

use crate::rng::SplitMix64;
use geometry::Vec2;

/// A sub-destination normalised to the start→destination frame (unit distance, angle 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormSub {
    /// Angle relative to the direction to the destination (rad).
    pub angle: f64,
    /// Length relative to the distance to the destination.
    pub scale: f64,
}

impl NormSub {
    /// World position for a start and a destination.
    pub fn denormalise(&self, start: Vec2, dest: Vec2) -> Vec2 {
        let d = dest - start;
        start + Vec2::from_angle(self.angle + d.angle()) * (self.scale * d.len())
    }
}

/// `n` random offsets (angle ±[20°, 140°], scale [0.5, 1.5)) plus `last`, sorted by |angle|.
pub fn random_set(rng: &mut SplitMix64, n: usize, last: Option<NormSub>, out: &mut Vec<NormSub>) {
    out.clear();
    for _ in 0..n {
        let a = rng.range(-120.0, 120.0);
        let a = a + 20f64.copysign(a);
        let scale = rng.range(0.5, 1.5);
        out.push(NormSub {
            angle: a.to_radians(),
            scale,
        });
    }
    out.extend(last);
    out.sort_by(|a, b| a.angle.abs().total_cmp(&b.angle.abs()));
}

/// 14 fixed offsets (±20…120° at 1.5, ±140° at 1.0) with ±0.3 rad / ±0.1 scale jitter, sorted by |angle|.
pub fn systematic_set(rng: &mut SplitMix64, out: &mut Vec<NormSub>) {
    out.clear();
    for k in 1..=7 {
        for sign in [1.0, -1.0] {
            let deg = 20.0 * k as f64;
            let scale = if k == 7 { 1.0 } else { 1.5 };
            out.push(NormSub {
                angle: sign * deg.to_radians() + rng.range(-0.3, 0.3),
                scale: scale + rng.range(-0.1, 0.1),
            });
        }
    }
    out.sort_by(|a, b| a.angle.abs().total_cmp(&b.angle.abs()));
}
