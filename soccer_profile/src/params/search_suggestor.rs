//! `search_suggestor.json5`: the ball-search heatmap's parameters (`robot-decision soccer heatmap`).

use super::Problem;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The search suggestor's parameters, with their names and defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SearchSuggestorParameters {
    /// Cells along the field length, 1..=1000 (cells across follow from the aspect ratio; the
    /// whole heatmap may have at most 1,000,000 cells).
    pub cells_along_field_length: u32,
    /// Uniform growth: one unit per this many seconds (s).
    pub unseen_priority_rise_time: f64,
    /// Extra growth at the last ball: one unit per this many seconds (s).
    pub last_ball_extra_priority_rise_time: f64,
    /// Half-distance of the extra growth at age 0 (m).
    pub last_ball_initial_half_distance: f64,
    /// Growth of that half-distance per second of observation age (m/s).
    pub last_ball_spread_speed: f64,
    /// The extra growth fades to zero over this time from the observation (s; 0 disables).
    pub last_ball_priority_fade_time: f64,
    /// Half-life of a visible cell at the near end of the range (s).
    pub observation_half_life_near: f64,
    /// Half-life at the far end (s).
    pub observation_half_life_far: f64,
    /// `[near, far]` distances between which visible cells decay (m).
    pub observation_distance_range: [f64; 2],
    /// Half the camera's horizontal field of view (rad).
    pub view_half_angle: f64,
    /// Decay weight of a visible cell hidden behind an obstacle.
    pub occluded_observation_weight: f64,
    /// Decay weight of a teammate's reconstructed view (0 disables replay).
    pub teammate_observation_weight: f64,
    /// Longest time between two replayed teammate samples (s).
    pub teammate_replay_step: f64,
    /// Rule-hypothesis cells: one unit per this many seconds (s).
    pub rule_priority_rise_time: f64,
    /// Weight of a hypothetical ball's validity.
    pub hypothetical_ball_weight: f64,
    /// Radius of the raise around an observed ball (m).
    pub observed_ball_radius: f64,
    /// On entering playing, a map whose mean exceeds this is scaled down to it.
    pub playing_entry_mean_limit: f64,
    /// A cell is a regular target when its value is at least this.
    pub minimum_search_priority: f64,
    /// Eligibility of fallback targets.
    pub fallback_minimum_search_priority: f64,
    /// Time without a regular target before the fallback (s).
    pub exhausted_search_delay: f64,
    /// Cells within this fraction of the width from the boundary are penalised.
    pub border_view_penalty_width_fraction: f64,
    /// The penalty subtracted from their score.
    pub border_view_penalty: f64,
    /// Among cells within this of the best score, the smallest turn wins.
    pub turn_preference_margin: f64,
    /// The previous target is kept while its score is at least this times the best.
    pub target_hysteresis: f64,
    /// True: no updates and no target.
    pub disable_heatmap_search: bool,
}

impl Default for SearchSuggestorParameters {
    fn default() -> Self {
        Self {
            cells_along_field_length: 18,
            unseen_priority_rise_time: 30.0,
            last_ball_extra_priority_rise_time: 5.0,
            last_ball_initial_half_distance: 0.5,
            last_ball_spread_speed: 0.5,
            last_ball_priority_fade_time: 10.0,
            observation_half_life_near: 0.5,
            observation_half_life_far: 2.0,
            observation_distance_range: [0.3, 3.0],
            view_half_angle: 0.785,
            occluded_observation_weight: 0.1,
            teammate_observation_weight: 0.5,
            teammate_replay_step: 0.2,
            rule_priority_rise_time: 5.0,
            hypothetical_ball_weight: 1.0,
            observed_ball_radius: 1.0,
            playing_entry_mean_limit: 0.5,
            minimum_search_priority: 0.2,
            fallback_minimum_search_priority: 0.05,
            exhausted_search_delay: 5.0,
            border_view_penalty_width_fraction: 0.1,
            border_view_penalty: 0.05,
            turn_preference_margin: 0.05,
            target_hysteresis: 0.8,
            disable_heatmap_search: false,
        }
    }
}

impl SearchSuggestorParameters {
    /// The rule that needs the field: the heatmap of `cells_along_field_length` cells along
    /// `field` must have at most `MAX_HEATMAP_CELLS` (1,000,000, in the search grid) cells.
    /// Fields that are themselves invalid are left to the field's own rules.
    pub fn validate_on(&self, field: &super::FieldDimensions, out: &mut Vec<Problem>) {
        use crate::search::grid::{Heatmap, MAX_HEATMAP_CELLS};
        let (length, width) = (field.length, field.width);
        if !(length.is_finite() && width.is_finite() && length > 0.0 && width > 0.0) {
            return;
        }
        let (along, across) = Heatmap::shape(self.cells_along_field_length as usize, length, width);
        if along.saturating_mul(across) > MAX_HEATMAP_CELLS {
            out.push(Problem::new(
                "cells_along_field_length",
                &format!(
                    "gives {along} x {across} heatmap cells on this {length} x {width} m field; \
                     at most {MAX_HEATMAP_CELLS} cells"
                ),
            ));
        }
    }

    /// The rules on ranges; each problem names its key.
    pub fn validate(&self, out: &mut Vec<Problem>) {
        let mut check = |key: &str, ok: bool, message: &str| {
            if !ok {
                out.push(Problem::new(key, message));
            }
        };
        let finite = |v: f64| v.is_finite();
        check(
            "cells_along_field_length",
            (1..=1000).contains(&self.cells_along_field_length),
            "must be in 1..=1000",
        );
        for (key, v) in [
            ("unseen_priority_rise_time", self.unseen_priority_rise_time),
            (
                "last_ball_extra_priority_rise_time",
                self.last_ball_extra_priority_rise_time,
            ),
            (
                "last_ball_initial_half_distance",
                self.last_ball_initial_half_distance,
            ),
            (
                "observation_half_life_near",
                self.observation_half_life_near,
            ),
            ("observation_half_life_far", self.observation_half_life_far),
            ("teammate_replay_step", self.teammate_replay_step),
            ("rule_priority_rise_time", self.rule_priority_rise_time),
            ("observed_ball_radius", self.observed_ball_radius),
        ] {
            check(key, finite(v) && v > 0.0, "must be finite and > 0");
        }
        for (key, v) in [
            ("last_ball_spread_speed", self.last_ball_spread_speed),
            (
                "last_ball_priority_fade_time",
                self.last_ball_priority_fade_time,
            ),
            ("exhausted_search_delay", self.exhausted_search_delay),
            ("hypothetical_ball_weight", self.hypothetical_ball_weight),
            ("border_view_penalty", self.border_view_penalty),
            ("turn_preference_margin", self.turn_preference_margin),
        ] {
            check(key, finite(v) && v >= 0.0, "must be finite and >= 0");
        }
        for (key, v) in [
            (
                "occluded_observation_weight",
                self.occluded_observation_weight,
            ),
            (
                "teammate_observation_weight",
                self.teammate_observation_weight,
            ),
            ("playing_entry_mean_limit", self.playing_entry_mean_limit),
            ("target_hysteresis", self.target_hysteresis),
            (
                "border_view_penalty_width_fraction",
                self.border_view_penalty_width_fraction,
            ),
        ] {
            check(
                key,
                finite(v) && (0.0..=1.0).contains(&v),
                "must be finite and in [0, 1]",
            );
        }
        let [near, far] = self.observation_distance_range;
        check(
            "observation_distance_range",
            finite(near) && finite(far) && near >= 0.0 && near < far,
            "must be [near, far] with 0 <= near < far",
        );
        check(
            "view_half_angle",
            finite(self.view_half_angle)
                && self.view_half_angle > 0.0
                && self.view_half_angle <= std::f64::consts::PI,
            "must be finite and in (0, pi]",
        );
        check(
            "minimum_search_priority",
            finite(self.minimum_search_priority)
                && (0.0..=1.0).contains(&self.minimum_search_priority),
            "must be finite and in [0, 1]",
        );
        let fallback = self.fallback_minimum_search_priority;
        let minimum = self.minimum_search_priority;
        check(
            "fallback_minimum_search_priority",
            finite(fallback) && fallback >= 0.0 && (!finite(minimum) || fallback <= minimum),
            "must be finite and in [0, minimum_search_priority]",
        );
    }
}
