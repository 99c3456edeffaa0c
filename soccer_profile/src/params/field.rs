//! `field.json5`: the field's dimensions (metres).

use super::Problem;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Field dimensions, with defaults for a 9 m x 6 m humanoid field. Every
/// dimension is finite, > 0 and at most 100 m; the border strip at most 10 m (the grids are
/// sized from them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct FieldDimensions {
    /// Between the goal lines.
    pub length: f64,
    /// Between the touchlines.
    pub width: f64,
    /// Between the goal posts' inner sides.
    pub goal_inner_width: f64,
    /// From the goal line to the penalty mark.
    pub penalty_marker_distance: f64,
    /// Depth of the goal box.
    pub goal_box_area_length: f64,
    /// Width of the goal box.
    pub goal_box_area_width: f64,
    /// Depth of the penalty area.
    pub penalty_area_length: f64,
    /// Width of the penalty area.
    pub penalty_area_width: f64,
    /// Free strip around the field lines.
    pub border_strip_width: f64,
    /// Diameter of the centre circle.
    pub center_circle_diameter: f64,
}

impl Default for FieldDimensions {
    fn default() -> Self {
        Self {
            length: 9.0,
            width: 6.0,
            goal_inner_width: 2.6,
            penalty_marker_distance: 1.5,
            goal_box_area_length: 1.0,
            goal_box_area_width: 3.0,
            penalty_area_length: 2.0,
            penalty_area_width: 5.0,
            border_strip_width: 1.0,
            center_circle_diameter: 1.5,
        }
    }
}

/// Upper bound of every field dimension (m): the grids are sized from them, so an absurd
/// value (`1e300`) must be refused at load rather than exhaust memory when a grid is built.
pub const MAX_FIELD_SIDE: f64 = 100.0;

/// Upper bound of `border_strip_width` (m), for the same reason.
pub const MAX_BORDER_STRIP: f64 = 10.0;

impl FieldDimensions {
    /// Half the length: the x of the opponent goal line.
    pub fn half_length(&self) -> f64 {
        self.length / 2.0
    }

    /// Half the width: the y of the left touchline.
    pub fn half_width(&self) -> f64 {
        self.width / 2.0
    }

    /// Whether `(x, y)` lies on the field (lines included).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x.abs() <= self.half_length() && y.abs() <= self.half_width()
    }

    /// Checks every dimension is positive and the areas fit inside the field.
    pub fn validate(&self, out: &mut Vec<Problem>) {
        let all = [
            ("length", self.length),
            ("width", self.width),
            ("goal_inner_width", self.goal_inner_width),
            ("penalty_marker_distance", self.penalty_marker_distance),
            ("goal_box_area_length", self.goal_box_area_length),
            ("goal_box_area_width", self.goal_box_area_width),
            ("penalty_area_length", self.penalty_area_length),
            ("penalty_area_width", self.penalty_area_width),
            ("center_circle_diameter", self.center_circle_diameter),
        ];
        for (key, v) in all {
            if !(v.is_finite() && v > 0.0) {
                out.push(Problem::new(key, "must be finite and > 0"));
            } else if v > MAX_FIELD_SIDE {
                out.push(Problem::new(
                    key,
                    &format!("must be at most {MAX_FIELD_SIDE} m"),
                ));
            }
        }
        if !(self.border_strip_width.is_finite() && self.border_strip_width >= 0.0) {
            out.push(Problem::new(
                "border_strip_width",
                "must be finite and >= 0",
            ));
        } else if self.border_strip_width > MAX_BORDER_STRIP {
            out.push(Problem::new(
                "border_strip_width",
                &format!("must be at most {MAX_BORDER_STRIP} m"),
            ));
        }
        let inside = [
            ("goal_inner_width", self.goal_inner_width, self.width),
            ("goal_box_area_width", self.goal_box_area_width, self.width),
            ("penalty_area_width", self.penalty_area_width, self.width),
            (
                "penalty_area_length",
                self.penalty_area_length,
                self.length / 2.0,
            ),
            (
                "goal_box_area_length",
                self.goal_box_area_length,
                self.length / 2.0,
            ),
            (
                "penalty_marker_distance",
                self.penalty_marker_distance,
                self.length / 2.0,
            ),
        ];
        for (key, v, limit) in inside {
            // An invalid field size is reported once, not again by everything inside it.
            if v.is_finite() && limit.is_finite() && limit > 0.0 && v > limit {
                out.push(Problem::new(
                    key,
                    &format!("must fit in the field (at most {limit} m)"),
                ));
            }
        }
    }
}
