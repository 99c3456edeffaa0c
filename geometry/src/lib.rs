//! Plane geometry shared by every crate of the workspace: points, vectors, poses and angle
//! wrapping, with coordinate frames as types.
//!
//! * [`Point2<F>`], [`Vector2<F>`] and [`Pose2<F>`] (`f64`, metres and radians) carry their
//!   frame `F` as a type: [`Field`] (the soccer field) or [`Robot`] (robot-relative). A
//!   `Point2<Field>` cannot be used where a `Point2<Robot>` is meant: the conversion goes
//!   through a [`Pose2`] (`robot -> field`), as HULKs does with its frame-typed points.
//! * [`Vec2`] is the frame-less vector of the path planner, which plans in whatever frame its
//!   caller uses (the RoboMaster map in the simulator, the soccer field in the soccer
//!   profile); `From` converts between it and the frame-typed values.
//! * [`MapPoint`] and [`MapPose`] are the RoboMaster map frame in `f32`, the precision of the
//!   original C++ package the RoboMaster decisions reproduce bit for bit (see [`map`]).
//! * Angles are radians, counter-clockwise: [`wrap_pi`] maps any angle to (-pi, pi];
//!   [`wrap_pi_f32`] is the original RoboMaster package's single-precision wrap to [-pi, pi].
//! * [`rng`] is the one seeded random number generator of the workspace.
//!
//! Wire and file formats (bus messages, scenario and frame JSON) keep their own serde structs
//! and convert to these types where they are read.
//!
//! Dependency-free by default; the `serde` feature adds serde and JSON Schema derives to the
//! RoboMaster map types.

#![warn(missing_docs)]

pub mod map;
pub mod rng;
pub mod vec2;

pub use map::{MapPoint, MapPose};
pub use vec2::{Vec2, closest_on_segment};

use std::f64::consts::PI;
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// The field frame: origin at the centre spot, +x towards the opponent goal, +y to the left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Field;

/// The robot (ground) frame: origin under the robot, +x forward, +y to the robot's left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Robot;

/// An angle wrapped to (-pi, pi].
pub fn wrap_pi(angle: f64) -> f64 {
    if !angle.is_finite() {
        return angle;
    }
    let mut a = angle % (2.0 * PI);
    if a <= -PI {
        a += 2.0 * PI;
    } else if a > PI {
        a -= 2.0 * PI;
    }
    a
}

/// An angle wrapped to [-pi, pi] in single precision, exactly as the original C++ RoboMaster
/// package computes it: `(angle + pi).rem_euclid(2 pi) - pi`, plus 2 pi if that rounded below
/// -pi. Not [`wrap_pi`] in `f32`: -pi stays -pi and the shift by pi rounds differently, and the
/// RoboMaster decisions must match the original bit for bit.
pub fn wrap_pi_f32(angle: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    let wrapped = rem_euclid_tau_f32(angle + PI) - PI;
    if wrapped < -PI {
        wrapped + TAU
    } else {
        wrapped
    }
}

/// `angle.rem_euclid(2 pi)` in single precision, bit for bit, without the `fmodf` call for
/// an angle within one turn of zero (the usual case): there `angle % 2 pi` is `angle` itself
/// (a remainder is exact), so only a negative angle changes, by one `+ 2 pi`.
#[inline]
pub fn rem_euclid_tau_f32(angle: f32) -> f32 {
    use std::f32::consts::TAU;
    if angle.abs() < TAU {
        if angle < 0.0 { angle + TAU } else { angle }
    } else {
        angle.rem_euclid(TAU)
    }
}

/// A position in frame `F` (metres).
pub struct Point2<F> {
    /// x in metres.
    pub x: f64,
    /// y in metres.
    pub y: f64,
    frame: PhantomData<F>,
}

/// A displacement in frame `F` (metres, or metres per second for velocities).
pub struct Vector2<F> {
    /// x component.
    pub x: f64,
    /// y component.
    pub y: f64,
    frame: PhantomData<F>,
}

// Manual impls: derives would require `F: Clone` etc. on the marker.
macro_rules! plain_value_impls {
    ($ty:ident) => {
        impl<F> Clone for $ty<F> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<F> Copy for $ty<F> {}
        impl<F> PartialEq for $ty<F> {
            fn eq(&self, other: &Self) -> bool {
                self.x == other.x && self.y == other.y
            }
        }
        impl<F> Default for $ty<F> {
            fn default() -> Self {
                Self::new(0.0, 0.0)
            }
        }
        impl<F> fmt::Debug for $ty<F> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "({:.3}, {:.3})", self.x, self.y)
            }
        }
        impl<F> $ty<F> {
            /// From components.
            pub const fn new(x: f64, y: f64) -> Self {
                Self {
                    x,
                    y,
                    frame: PhantomData,
                }
            }

            /// Whether both components are finite.
            pub fn is_finite(self) -> bool {
                self.x.is_finite() && self.y.is_finite()
            }

            /// The components as an array `[x, y]`.
            pub fn to_array(self) -> [f64; 2] {
                [self.x, self.y]
            }
        }
    };
}
plain_value_impls!(Point2);
plain_value_impls!(Vector2);

impl<F> Point2<F> {
    /// The frame's origin.
    pub const ORIGIN: Self = Self::new(0.0, 0.0);

    /// The displacement from the origin to this point.
    pub fn coords(self) -> Vector2<F> {
        Vector2::new(self.x, self.y)
    }

    /// Euclidean distance to `other`.
    pub fn distance(self, other: Self) -> f64 {
        (other - self).norm()
    }

    /// Squared distance to `other` (no square root, for comparisons).
    pub fn distance_squared(self, other: Self) -> f64 {
        (other - self).norm_squared()
    }

    /// The point a fraction `s` of the way to `other`.
    pub fn lerp(self, other: Self, s: f64) -> Self {
        self + (other - self) * s
    }
}

impl<F> Vector2<F> {
    /// `(0, 0)`: it has no direction ([`normalized`](Self::normalized) gives `None`).
    pub const ZERO: Self = Self::new(0.0, 0.0);

    /// Unit vector at `angle` from +x.
    pub fn from_angle(angle: f64) -> Self {
        let (s, c) = angle.sin_cos();
        Self::new(c, s)
    }

    /// Length.
    pub fn norm(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// Squared length.
    pub fn norm_squared(self) -> f64 {
        self.x * self.x + self.y * self.y
    }

    /// Dot product.
    pub fn dot(self, other: Self) -> f64 {
        self.x * other.x + self.y * other.y
    }

    /// z of the cross product (positive when `other` is counter-clockwise of `self`).
    pub fn cross(self, other: Self) -> f64 {
        self.x * other.y - self.y * other.x
    }

    /// Direction angle from +x (0 for the zero vector).
    pub fn angle(self) -> f64 {
        if self.x == 0.0 && self.y == 0.0 {
            0.0
        } else {
            self.y.atan2(self.x)
        }
    }

    /// The unit vector in this direction, or `None` for (almost) zero.
    pub fn normalized(self) -> Option<Self> {
        let n = self.norm();
        (n > 1e-12).then(|| self * (1.0 / n))
    }

    /// Rotated counter-clockwise by `angle`.
    pub fn rotated(self, angle: f64) -> Self {
        let (s, c) = angle.sin_cos();
        Self::new(c * self.x - s * self.y, s * self.x + c * self.y)
    }
}

impl<F> Add<Vector2<F>> for Point2<F> {
    type Output = Point2<F>;
    fn add(self, v: Vector2<F>) -> Point2<F> {
        Point2::new(self.x + v.x, self.y + v.y)
    }
}

impl<F> Sub<Vector2<F>> for Point2<F> {
    type Output = Point2<F>;
    fn sub(self, v: Vector2<F>) -> Point2<F> {
        Point2::new(self.x - v.x, self.y - v.y)
    }
}

impl<F> Sub for Point2<F> {
    type Output = Vector2<F>;
    fn sub(self, other: Point2<F>) -> Vector2<F> {
        Vector2::new(self.x - other.x, self.y - other.y)
    }
}

impl<F> Add for Vector2<F> {
    type Output = Vector2<F>;
    fn add(self, v: Vector2<F>) -> Vector2<F> {
        Vector2::new(self.x + v.x, self.y + v.y)
    }
}

impl<F> AddAssign for Vector2<F> {
    fn add_assign(&mut self, v: Vector2<F>) {
        self.x += v.x;
        self.y += v.y;
    }
}

impl<F> Sub for Vector2<F> {
    type Output = Vector2<F>;
    fn sub(self, v: Vector2<F>) -> Vector2<F> {
        Vector2::new(self.x - v.x, self.y - v.y)
    }
}

impl<F> Mul<f64> for Vector2<F> {
    type Output = Vector2<F>;
    fn mul(self, s: f64) -> Vector2<F> {
        Vector2::new(self.x * s, self.y * s)
    }
}

impl<F> Neg for Vector2<F> {
    type Output = Vector2<F>;
    fn neg(self) -> Vector2<F> {
        Vector2::new(-self.x, -self.y)
    }
}

/// The pose of a robot in frame `F`: where the robot frame's origin is and which way its +x
/// points. It converts robot-relative points to `F` and back.
pub struct Pose2<F> {
    /// The robot's position.
    pub position: Point2<F>,
    /// The robot's heading (radians from +x of `F`).
    pub yaw: f64,
}

impl<F> Clone for Pose2<F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F> Copy for Pose2<F> {}
impl<F> PartialEq for Pose2<F> {
    fn eq(&self, other: &Self) -> bool {
        self.position == other.position && self.yaw == other.yaw
    }
}
impl<F> fmt::Debug for Pose2<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}@{:.3}", self.position, self.yaw)
    }
}

impl<F> Pose2<F> {
    /// From position and heading.
    pub const fn new(x: f64, y: f64, yaw: f64) -> Self {
        Self {
            position: Point2::new(x, y),
            yaw,
        }
    }

    /// Whether position and heading are finite.
    pub fn is_finite(&self) -> bool {
        self.position.is_finite() && self.yaw.is_finite()
    }

    /// A robot-relative point in `F`.
    pub fn to_frame(&self, p: Point2<Robot>) -> Point2<F> {
        let v = Vector2::<F>::new(p.x, p.y).rotated(self.yaw);
        self.position + v
    }

    /// A point of `F` relative to the robot.
    pub fn to_robot(&self, p: Point2<F>) -> Point2<Robot> {
        let v = (p - self.position).rotated(-self.yaw);
        Point2::new(v.x, v.y)
    }

    /// The bearing of `p` from the robot's heading, wrapped to (-pi, pi].
    pub fn bearing_to(&self, p: Point2<F>) -> f64 {
        wrap_pi((p - self.position).angle() - self.yaw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_pi_maps_into_the_half_open_interval() {
        assert!((wrap_pi(3.0 * PI) - PI).abs() < 1e-12);
        assert!((wrap_pi(-PI) - PI).abs() < 1e-12);
        assert!((wrap_pi(-3.0 * PI / 2.0) - PI / 2.0).abs() < 1e-12);
        assert_eq!(wrap_pi(0.25), 0.25);
    }

    #[test]
    fn wrap_pi_f32_keeps_range() {
        use std::f32::consts::{PI, TAU};
        for a in [-10.0f32, -PI, -1.0, 0.0, 1.0, PI, 5.2387, 10.0] {
            let w = wrap_pi_f32(a);
            assert!((-PI..=PI).contains(&w), "{a} -> {w}");
            assert!(((w - a) / TAU - ((w - a) / TAU).round()).abs() < 1e-5);
        }
        assert!((wrap_pi_f32(5.2387) - (5.2387 - TAU)).abs() < 1e-6);
    }

    #[test]
    fn rem_euclid_tau_f32_is_rem_euclid_bit_for_bit() {
        use std::f32::consts::{PI, TAU};
        let mut angles = vec![
            0.0f32,
            -0.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            -1e-30,
            PI,
            -PI,
            TAU,
            -TAU,
            f32::from_bits(TAU.to_bits() - 1),
            -f32::from_bits(TAU.to_bits() - 1),
            1e9,
            -1e9,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        // Every 9973rd bit pattern of every sign and exponent, NaNs included.
        angles.extend((0..=u32::MAX).step_by(9973).map(f32::from_bits));
        for a in angles {
            let (fast, slow) = (rem_euclid_tau_f32(a), a.rem_euclid(TAU));
            assert!(
                fast.to_bits() == slow.to_bits() || (fast.is_nan() && slow.is_nan()),
                "{a:e}: {fast:e} != {slow:e}"
            );
        }
    }

    #[test]
    fn robot_and_field_points_convert_through_the_pose() {
        let pose = Pose2::<Field>::new(1.0, 2.0, PI / 2.0);
        let ahead = pose.to_frame(Point2::<Robot>::new(1.0, 0.0));
        assert!((ahead.x - 1.0).abs() < 1e-12 && (ahead.y - 3.0).abs() < 1e-12);
        let back = pose.to_robot(ahead);
        assert!((back.x - 1.0).abs() < 1e-12 && back.y.abs() < 1e-12);
        assert!((pose.bearing_to(Point2::new(0.0, 2.0)) - PI / 2.0).abs() < 1e-12);
    }

    #[test]
    fn vector_helpers() {
        let v = Vector2::<Field>::new(3.0, 4.0);
        assert_eq!(v.norm(), 5.0);
        assert!(Vector2::<Field>::ZERO.normalized().is_none());
        assert!((v.rotated(PI / 2.0).x + 4.0).abs() < 1e-12);
        assert_eq!(
            Vector2::<Field>::new(1.0, 0.0).cross(Vector2::new(0.0, 1.0)),
            1.0
        );
    }
}
