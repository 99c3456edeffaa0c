//! The robot's own velocity from its localization poses, for the path planner.
//!
//! Differencing two poses 20 ms apart turns a few centimetres of localization noise into
//! metres per second of velocity noise (2 cm per axis gives about 1.4 m/s), and a planner
//! told the robot runs at 2 m/s finds no free path and brakes. The estimate here is the
//! displacement over a window of [`VELOCITY_WINDOW`] seconds instead: the same noise gives
//! about 0.1 m/s, at the cost of a lag of half the window.

use geometry::{Field, Point2, Vector2};

/// Time span the velocity is measured over (s).
pub const VELOCITY_WINDOW: f64 = 0.3;

/// No robot walks faster (m/s): a faster estimate is reported as standing still.
pub const MAXIMUM_PLAUSIBLE_SPEED: f64 = 3.0;

/// A pose this much (m) farther from the last one than the robot can walk is a
/// relocalisation, not a walk: the history restarts there (noise alone moves a few cm).
pub const RELOCALISATION_JUMP: f64 = 0.3;

/// Poses kept (enough for the window at a 10 ms tick).
const CAPACITY: usize = 32;

/// Recent poses in a ring, newest last; no allocation.
#[derive(Debug, Clone)]
pub struct VelocityEstimator {
    samples: [(f64, Point2<Field>); CAPACITY],
    len: usize,
    next: usize,
}

impl Default for VelocityEstimator {
    fn default() -> Self {
        Self {
            samples: [(0.0, Point2::new(0.0, 0.0)); CAPACITY],
            len: 0,
            next: 0,
        }
    }
}

impl VelocityEstimator {
    /// Forgets every pose (no pose this frame, or a jump).
    pub fn reset(&mut self) {
        self.len = 0;
        self.next = 0;
    }

    /// The `k`-th newest sample (0 = newest).
    fn newest(&self, k: usize) -> (f64, Point2<Field>) {
        self.samples[(self.next + CAPACITY - 1 - k) % CAPACITY]
    }

    /// Takes the pose at `t` (or none) and returns the velocity estimate.
    pub fn update(&mut self, t: f64, position: Option<Point2<Field>>) -> Vector2<Field> {
        let Some(p) = position.filter(|p| p.x.is_finite() && p.y.is_finite()) else {
            self.reset();
            return Vector2::ZERO;
        };
        if self.len > 0 {
            let (t0, p0) = self.newest(0);
            let dt = t - t0;
            // Time going backwards, or a jump no robot walks: start over from this pose.
            if dt <= 1e-6 || p.distance(p0) > MAXIMUM_PLAUSIBLE_SPEED * dt + RELOCALISATION_JUMP {
                self.reset();
            }
        }
        self.samples[self.next] = (t, p);
        self.next = (self.next + 1) % CAPACITY;
        self.len = (self.len + 1).min(CAPACITY);
        // The oldest sample still inside the window (or the oldest kept).
        let mut oldest = self.newest(0);
        for k in 1..self.len {
            let sample = self.newest(k);
            oldest = sample;
            if t - sample.0 >= VELOCITY_WINDOW {
                break;
            }
        }
        let dt = t - oldest.0;
        if dt <= 1e-6 {
            return Vector2::ZERO;
        }
        let velocity = (p - oldest.1) * (1.0 / dt);
        if velocity.norm() <= MAXIMUM_PLAUSIBLE_SPEED {
            velocity
        } else {
            Vector2::ZERO
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(
        estimator: &mut VelocityEstimator,
        noise: impl Fn(usize) -> (f64, f64),
    ) -> Vector2<Field> {
        let mut v = Vector2::ZERO;
        for k in 0..100 {
            let t = k as f64 * 0.02;
            let (nx, ny) = noise(k);
            v = estimator.update(t, Some(Point2::new(0.5 * t + nx, ny)));
        }
        v
    }

    #[test]
    fn a_steady_walk_is_measured_exactly() {
        let v = walk(&mut VelocityEstimator::default(), |_| (0.0, 0.0));
        assert!((v.x - 0.5).abs() < 1e-9 && v.y.abs() < 1e-9, "{v:?}");
    }

    #[test]
    fn centimetres_of_pose_noise_stay_centimetres_per_second() {
        // Alternating +-2 cm: the worst case for differencing (2 m/s between two frames).
        let flip = |k: usize| if k.is_multiple_of(2) { 0.02 } else { -0.02 };
        let v = walk(&mut VelocityEstimator::default(), |k| (flip(k), flip(k)));
        assert!((v.x - 0.5).abs() < 0.15 && v.y.abs() < 0.15, "{v:?}");
    }

    #[test]
    fn a_lost_pose_or_a_jump_restarts_the_estimate() {
        let mut e = VelocityEstimator::default();
        walk(&mut e, |_| (0.0, 0.0));
        assert_eq!(e.update(2.0, None), Vector2::ZERO);
        assert_eq!(e.update(2.02, Some(Point2::new(1.0, 1.0))), Vector2::ZERO);
        // Relocalised 2 m away within one frame: not a velocity of 100 m/s.
        assert_eq!(e.update(2.04, Some(Point2::new(3.0, 1.0))), Vector2::ZERO);
        let v = e.update(2.06, Some(Point2::new(3.01, 1.0)));
        assert!((v.x - 0.5).abs() < 1e-9, "{v:?}");
        // Time going backwards (a new recording) restarts too.
        assert_eq!(e.update(0.0, Some(Point2::new(3.01, 1.0))), Vector2::ZERO);
    }
}
