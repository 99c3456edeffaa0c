//! The frame-less planar vector of the path planner (metres, m/s, m/s²).
//!
//! The planner works in whatever frame its caller plans in (the RoboMaster map in the
//! simulator, the soccer field in the soccer profile), so its [`Vec2`] carries no frame: a
//! frame-typed [`Point2`] or [`Vector2`] becomes one with `Vec2::from`, and comes back with
//! `Point2::from` / `Vector2::from` in the frame the caller names.

use crate::{Point2, Vector2};
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A frame-less 2D vector (or point) of `f64` components.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    /// x component.
    pub x: f64,
    /// y component.
    pub y: f64,
}

impl Vec2 {
    /// `(0, 0)`, also what [`normalized`](Self::normalized) gives for a near-zero vector.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    /// Creates a vector from its components.
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// Unit vector at `angle` radians from the x axis.
    pub fn from_angle(angle: f64) -> Self {
        let (s, c) = angle.sin_cos();
        Self::new(c, s)
    }

    /// Dot product.
    pub fn dot(self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }

    /// Squared length.
    pub fn len2(self) -> f64 {
        self.dot(self)
    }

    /// Euclidean length (`sqrt(x² + y²)`: field coordinates cannot overflow, and `hypot`'s
    /// libm call was a tenth of a simulated match).
    #[inline]
    pub fn len(self) -> f64 {
        self.len2().sqrt()
    }

    /// Angle from the x axis in (-π, π].
    pub fn angle(self) -> f64 {
        self.y.atan2(self.x)
    }

    /// Unit vector in the same direction, or zero for a (near) zero vector.
    pub fn normalized(self) -> Vec2 {
        let l = self.len();
        if l > 1e-12 {
            self * (1.0 / l)
        } else {
            Vec2::ZERO
        }
    }

    /// Rotates counter-clockwise by `angle` radians.
    pub fn rotate(self, angle: f64) -> Vec2 {
        let (s, c) = angle.sin_cos();
        Vec2::new(c * self.x - s * self.y, s * self.x + c * self.y)
    }

    /// Distance between two points.
    pub fn dist(self, o: Vec2) -> f64 {
        (self - o).len()
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        self.x += o.x;
        self.y += o.y;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

impl<F> From<Point2<F>> for Vec2 {
    fn from(p: Point2<F>) -> Vec2 {
        Vec2::new(p.x, p.y)
    }
}

impl<F> From<Vector2<F>> for Vec2 {
    fn from(v: Vector2<F>) -> Vec2 {
        Vec2::new(v.x, v.y)
    }
}

impl<F> From<Vec2> for Point2<F> {
    fn from(v: Vec2) -> Point2<F> {
        Point2::new(v.x, v.y)
    }
}

impl<F> From<Vec2> for Vector2<F> {
    fn from(v: Vec2) -> Vector2<F> {
        Vector2::new(v.x, v.y)
    }
}

/// Closest point to `p` on the segment `a`–`b`.
#[inline]
pub fn closest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let ab = b - a;
    let l2 = ab.len2();
    if l2 < 1e-18 {
        return a;
    }
    let t = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    a + ab * t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Field;

    #[test]
    fn vec2_helpers() {
        let v = Vec2::new(3.0, 4.0);
        assert_eq!(v.len(), 5.0);
        assert_eq!(v.len2(), 25.0);
        assert_eq!(v.dot(Vec2::new(1.0, 1.0)), 7.0);
        assert_eq!(Vec2::ZERO.normalized(), Vec2::ZERO);
        assert!((v.normalized().len() - 1.0).abs() < 1e-15);
        assert!((v.rotate(std::f64::consts::FRAC_PI_2) - Vec2::new(-4.0, 3.0)).len() < 1e-12);
        assert_eq!(Vec2::new(1.0, 1.0).dist(Vec2::new(4.0, 5.0)), 5.0);
        assert_eq!(-v + v * 2.0 - v, Vec2::ZERO);
    }

    #[test]
    fn closest_point_on_a_segment() {
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0));
        assert_eq!(
            closest_on_segment(a, b, Vec2::new(1.0, 1.0)),
            Vec2::new(1.0, 0.0)
        );
        assert_eq!(closest_on_segment(a, b, Vec2::new(-1.0, 1.0)), a);
        assert_eq!(closest_on_segment(a, a, Vec2::new(5.0, 1.0)), a);
    }

    #[test]
    fn frame_typed_values_convert_both_ways() {
        let p = Point2::<Field>::new(1.5, -2.0);
        assert_eq!(Point2::<Field>::from(Vec2::from(p)), p);
        let v = Vector2::<Field>::new(0.25, 3.0);
        assert_eq!(Vector2::<Field>::from(Vec2::from(v)), v);
    }
}
