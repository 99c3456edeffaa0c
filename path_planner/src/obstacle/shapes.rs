//! Static geometric obstacles: circle, tube (capsule) and axis-aligned rectangle.

use super::{Obstacle, Query, clamp_lenient};
use crate::aabb::Aabb;
use geometry::{Vec2, closest_on_segment};

/// Pushes `p` away from `centre` to distance `r` (the +x direction if `p == centre`).
pub(crate) fn push_out(centre: Vec2, p: Vec2, r: f64) -> Vec2 {
    let d = (p - centre).normalized();
    let d = if d == Vec2::ZERO {
        Vec2::new(1.0, 0.0)
    } else {
        d
    };
    centre + d * r
}

/// A static disc; distance is negative inside.
#[derive(Clone, Copy, Debug)]
pub struct Circle {
    /// Centre.
    pub center: Vec2,
    /// Radius (including the robot radius).
    pub radius: f64,
}

impl Circle {
    /// Creates a circle.
    pub fn new(center: Vec2, radius: f64) -> Self {
        Self { center, radius }
    }
}

impl Obstacle for Circle {
    fn distance(&self, q: &Query) -> f64 {
        q.pos.dist(self.center) - self.radius
    }
    fn distance_lower_bound(&self, area: &Aabb, _t_from: f64, _t_to: f64) -> Option<f64> {
        Some(area.distance_to_point(self.center) - self.radius)
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        Some(push_out(self.center, p, self.radius + clearance))
    }
}

/// A static capsule around the segment `a`–`b`; distance is 0 inside.
#[derive(Clone, Copy, Debug)]
pub struct Tube {
    /// Segment start.
    pub a: Vec2,
    /// Segment end.
    pub b: Vec2,
    /// Radius around the segment.
    pub radius: f64,
}

/// Largest endpoint coordinate (m) of a tube whose distance bound is trusted.
const MAX_TUBE_COORD: f64 = 1e4;

impl Tube {
    /// Creates a tube.
    pub fn new(a: Vec2, b: Vec2, radius: f64) -> Self {
        Self { a, b, radius }
    }
}

impl Obstacle for Tube {
    fn distance(&self, q: &Query) -> f64 {
        (q.pos.dist(closest_on_segment(self.a, self.b, q.pos)) - self.radius).max(0.0)
    }
    fn distance_lower_bound(&self, area: &Aabb, _t_from: f64, _t_to: f64) -> Option<f64> {
        // The distance projects onto the segment, which loses precision with far endpoints:
        // no bound then (a NaN endpoint has no magnitude below the limit either).
        let segment = Aabb::segment(self.a, self.b);
        (segment.magnitude() < MAX_TUBE_COORD).then(|| area.distance_to(&segment) - self.radius)
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        let c = closest_on_segment(self.a, self.b, p);
        if (p - c).len2() < 1e-18 {
            let n = (self.b - self.a)
                .normalized()
                .rotate(std::f64::consts::FRAC_PI_2);
            let n = if n == Vec2::ZERO {
                Vec2::new(1.0, 0.0)
            } else {
                n
            };
            return Some(c + n * (self.radius + clearance));
        }
        Some(push_out(c, p, self.radius + clearance))
    }
}

/// An axis-aligned rectangle grown by a rounded `margin`; distance is 0 inside.
#[derive(Clone, Copy, Debug)]
pub struct Rectangle {
    /// Lower-left corner of the core rectangle.
    pub min: Vec2,
    /// Upper-right corner of the core rectangle.
    pub max: Vec2,
    /// Rounded growth around the core (e.g. the robot radius).
    pub margin: f64,
}

impl Rectangle {
    /// Creates a rectangle from two corners and a rounded margin.
    pub fn new(a: Vec2, b: Vec2, margin: f64) -> Self {
        Self {
            min: Vec2::new(a.x.min(b.x), a.y.min(b.y)),
            max: Vec2::new(a.x.max(b.x), a.y.max(b.y)),
            margin,
        }
    }

    fn clamp(&self, p: Vec2) -> Vec2 {
        Vec2::new(
            clamp_lenient(p.x, self.min.x, self.max.x),
            clamp_lenient(p.y, self.min.y, self.max.y),
        )
    }

    /// Distance to the core rectangle (0 inside).
    pub fn core_distance(&self, p: Vec2) -> f64 {
        p.dist(self.clamp(p))
    }

    /// Closest point at distance `margin + clearance` from the core, skipping blocked sides.
    ///
    /// `open` = which sides may be used for escaping: [-x, +x, -y, +y].
    pub(crate) fn escape(&self, p: Vec2, clearance: f64, open: [bool; 4]) -> Vec2 {
        let r = self.margin + clearance;
        let c = self.clamp(p);
        if c != p {
            return push_out(c, p, r);
        }
        let cands = [
            (p.x - self.min.x, Vec2::new(self.min.x - r, p.y)),
            (self.max.x - p.x, Vec2::new(self.max.x + r, p.y)),
            (p.y - self.min.y, Vec2::new(p.x, self.min.y - r)),
            (self.max.y - p.y, Vec2::new(p.x, self.max.y + r)),
        ];
        let mut best = (f64::INFINITY, p);
        for (i, (d, q)) in cands.into_iter().enumerate() {
            if open[i] && d < best.0 {
                best = (d, q);
            }
        }
        best.1
    }
}

impl Obstacle for Rectangle {
    fn distance(&self, q: &Query) -> f64 {
        (self.core_distance(q.pos) - self.margin).max(0.0)
    }
    fn distance_lower_bound(&self, area: &Aabb, _t_from: f64, _t_to: f64) -> Option<f64> {
        let core = Aabb {
            min: self.min,
            max: self.max,
        };
        Some(area.distance_to(&core) - self.margin)
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        Some(self.escape(p, clearance, [true; 4]))
    }
}
