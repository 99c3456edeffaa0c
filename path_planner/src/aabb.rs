//! Axis-aligned boxes: where a path or an obstacle can be during a time window, for the
//! collision search's conservative "cannot collide" test.

use geometry::Vec2;

/// Largest coordinate (m) of a box whose tests the planner trusts (rounding grows with
/// magnitude).
pub const MAX_TRUSTED_COORD: f64 = 1e4;
/// Gap (m) a distance bound proven from a trusted box must keep above what it is compared
/// with: far above the rounding of distances between points within [`MAX_TRUSTED_COORD`].
pub const SAFETY_GAP: f64 = 1e-6;

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

    /// The smallest box holding the segment `a`–`b` (NaN coordinates stay NaN).
    pub fn segment(a: Vec2, b: Vec2) -> Self {
        Self {
            min: Vec2::new(lower(a.x, b.x), lower(a.y, b.y)),
            max: Vec2::new(upper(a.x, b.x), upper(a.y, b.y)),
        }
    }

    /// The smallest box holding both boxes (NaN coordinates stay NaN).
    pub fn union(self, o: Aabb) -> Self {
        Self {
            min: Vec2::new(lower(self.min.x, o.min.x), lower(self.min.y, o.min.y)),
            max: Vec2::new(upper(self.max.x, o.max.x), upper(self.max.y, o.max.y)),
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

    /// Whether every coordinate is within [`MAX_TRUSTED_COORD`] of the origin (false with a
    /// NaN): where the planner's proofs from boxes (the clearance and rejection tests) trust
    /// their rounding.
    pub fn is_trusted(&self) -> bool {
        self.magnitude() < MAX_TRUSTED_COORD
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

/// The smaller of `a` and `b`, NaN when either is: `f64::min` would drop a NaN and make a
/// box from bad data look finite, and the "cannot collide" test trusts finite boxes.
pub(crate) fn lower(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

/// The larger of `a` and `b`, NaN when either is (see [`lower`]).
pub(crate) fn upper(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
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
