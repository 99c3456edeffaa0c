//! Field-specific obstacles: the field border (keep inside) and the penalty area.

use super::shapes::Rectangle;
use super::{Obstacle, Query, ROBOT_CLEARANCE, clamp_lenient};
use crate::aabb::Aabb;
use geometry::Vec2;

/// Keep-inside rectangle (field + boundary, already shrunk by the robot radius).
///
/// Distance = distance to the nearest point outside, i.e. 0 outside the rectangle.
#[derive(Clone, Copy, Debug)]
pub struct FieldBorder {
    /// Lower-left corner of the allowed area.
    pub min: Vec2,
    /// Upper-right corner of the allowed area.
    pub max: Vec2,
}

impl FieldBorder {
    /// Allowed area from its corners.
    pub fn new(min: Vec2, max: Vec2) -> Self {
        Self { min, max }
    }

    /// SSL field of `length × width` centred at 0, plus `boundary`, shrunk by `bot_radius`.
    pub fn ssl(length: f64, width: f64, boundary: f64, bot_radius: f64) -> Self {
        let hx = length / 2.0 + boundary - bot_radius;
        let hy = width / 2.0 + boundary - bot_radius;
        Self::new(Vec2::new(-hx, -hy), Vec2::new(hx, hy))
    }

    fn outside_by(&self, p: Vec2) -> f64 {
        let c = Vec2::new(
            clamp_lenient(p.x, self.min.x, self.max.x),
            clamp_lenient(p.y, self.min.y, self.max.y),
        );
        p.dist(c)
    }

    fn clamp_inside(&self, p: Vec2, clearance: f64) -> Vec2 {
        let cx = (
            (self.min.x + self.max.x) / 2.0,
            (self.max.x - self.min.x) / 2.0,
        );
        let cy = (
            (self.min.y + self.max.y) / 2.0,
            (self.max.y - self.min.y) / 2.0,
        );
        let hx = (cx.1 - clearance).max(0.0);
        let hy = (cy.1 - clearance).max(0.0);
        Vec2::new(
            clamp_lenient(p.x, cx.0 - hx, cx.0 + hx),
            clamp_lenient(p.y, cy.0 - hy, cy.0 + hy),
        )
    }
}

impl Obstacle for FieldBorder {
    fn distance(&self, q: &Query) -> f64 {
        let p = q.pos;
        (p.x - self.min.x)
            .min(self.max.x - p.x)
            .min(p.y - self.min.y)
            .min(self.max.y - p.y)
            .max(0.0)
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        Some(self.clamp_inside(p, clearance))
    }
    fn distance_lower_bound(&self, area: &Aabb, _t_from: f64, _t_to: f64) -> Option<f64> {
        // The distance's terms are each smallest at one side of the area.
        Some(
            (area.min.x - self.min.x)
                .min(self.max.x - area.max.x)
                .min(area.min.y - self.min.y)
                .min(self.max.y - area.max.y),
        )
    }
    fn adapt_destination_for_robot_pos(&self, robot: Vec2) -> Option<Vec2> {
        (self.outside_by(robot) > ROBOT_CLEARANCE)
            .then(|| self.clamp_inside(robot, ROBOT_CLEARANCE))
    }
}

/// Penalty area at the goal line x = `side·goal_x`, grown by `margin`; 0 inside or behind it.
#[derive(Clone, Copy, Debug)]
pub struct PenaltyArea {
    rect: Rectangle,
    side: f64,
}

impl PenaltyArea {
    /// `side` = -1 (own, negative x) or +1; `depth` × `width` area, rounded `margin`.
    pub fn new(side: f64, goal_x: f64, depth: f64, width: f64, margin: f64) -> Self {
        let side = if side < 0.0 { -1.0 } else { 1.0 };
        // Extend the rectangle far behind the goal line so "behind" counts as inside.
        let front = side * (goal_x - depth);
        let back = side * (goal_x + 100.0);
        let rect = Rectangle::new(
            Vec2::new(front, -width / 2.0),
            Vec2::new(back, width / 2.0),
            margin,
        );
        Self { rect, side }
    }
}

impl Obstacle for PenaltyArea {
    fn distance(&self, q: &Query) -> f64 {
        self.rect.distance(q)
    }
    fn distance_lower_bound(&self, area: &Aabb, t_from: f64, t_to: f64) -> Option<f64> {
        self.rect.distance_lower_bound(area, t_from, t_to)
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        let open = if self.side > 0.0 {
            [true, false, true, true]
        } else {
            [false, true, true, true]
        };
        Some(self.rect.escape(p, clearance, open))
    }
}
