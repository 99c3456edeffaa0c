//! Minimal 2D vector type used throughout the crate (metres, m/s, m/s²).

use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A 2D vector of `f64` components.
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

/// Closest point to `p` on the segment `a`–`b`.
pub fn closest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let ab = b - a;
    let l2 = ab.len2();
    if l2 < 1e-18 {
        return a;
    }
    let t = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    a + ab * t
}
