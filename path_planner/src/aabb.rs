//! Axis-aligned boxes: where a path or an obstacle can be during a time window, for the
//! collision search's conservative "cannot collide" test.

use geometry::Vec2;

/// An axis-aligned box, `min` ≤ `max` on both axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Aabb {
    /// The box holding only `p`.
    pub fn point(p: Vec2) -> Self {
        Self { min: p, max: p }
    }

    /// The box from the x range `(x_lo, x_hi)` and the y range `(y_lo, y_hi)`.
    pub fn from_ranges(x: (f64, f64), y: (f64, f64)) -> Self {
        Self {
            min: Vec2::new(x.0, y.0),
            max: Vec2::new(x.1, y.1),
        }
    }

    /// The smallest box holding the segment `a`–`b`.
    pub fn segment(a: Vec2, b: Vec2) -> Self {
        Self {
            min: Vec2::new(a.x.min(b.x), a.y.min(b.y)),
            max: Vec2::new(a.x.max(b.x), a.y.max(b.y)),
        }
    }

    /// The smallest box holding both boxes.
    pub fn union(self, o: Aabb) -> Self {
        Self {
            min: Vec2::new(self.min.x.min(o.min.x), self.min.y.min(o.min.y)),
            max: Vec2::new(self.max.x.max(o.max.x), self.max.y.max(o.max.y)),
        }
    }

    /// Distance between the closest points of the two boxes (0 when they touch or overlap).
    pub fn distance_to(&self, o: &Aabb) -> f64 {
        let dx = (o.min.x - self.max.x).max(self.min.x - o.max.x).max(0.0);
        let dy = (o.min.y - self.max.y).max(self.min.y - o.max.y).max(0.0);
        (dx * dx + dy * dy).sqrt()
    }

    /// Distance from the box to `p` (0 inside).
    pub fn distance_to_point(&self, p: Vec2) -> f64 {
        self.distance_to(&Aabb::point(p))
    }

    /// The largest absolute coordinate (NaN when a coordinate is NaN).
    pub fn magnitude(&self) -> f64 {
        let m = self.min.x.abs().max(self.min.y.abs());
        let m = m.max(self.max.x.abs()).max(self.max.y.abs());
        if self.min.is_nan() || self.max.is_nan() {
            f64::NAN
        } else {
            m
        }
    }
}

/// NaN test of a vector (`geometry::Vec2` has none).
trait HasNan {
    fn is_nan(&self) -> bool;
}

impl HasNan for Vec2 {
    fn is_nan(&self) -> bool {
        self.x.is_nan() || self.y.is_nan()
    }
}
