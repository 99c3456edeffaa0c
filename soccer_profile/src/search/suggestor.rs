//! One update of the search suggestor, step by step in the documented order (`docs/src/commands/soccer-heatmap.md`).

use super::frame::{GameStateName, HeatmapFrame, TeammateState};
use super::grid::Heatmap;
use crate::frame::{SubState, Team};
use crate::params::{FieldDimensions, Problem, SearchSuggestorParameters};
use geometry::{Field, Point2, Pose2, Vector2, wrap_pi};
use serde::Serialize;
use std::f64::consts::LN_2;

/// A runtime parameter change that was refused (old parameters kept).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`parameters.{key}`: {message}")]
pub struct ParameterError {
    /// Path of the refused key below `parameters` (as in the message).
    pub key: String,
    /// What is wrong.
    pub message: String,
}

/// The grid's shape in the output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GridShape {
    /// Cells along x.
    pub cells_x: usize,
    /// Cells along y.
    pub cells_y: usize,
    /// Cell side along x (m).
    pub cell_length: f64,
    /// Cell side along y (m).
    pub cell_width: f64,
}

/// One output line of `soccer heatmap`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SuggestorOutput<'a> {
    /// Frame time.
    pub t: f64,
    /// The grid's shape.
    pub grid: GridShape,
    /// The values (`iy * cells_x + ix`).
    pub values: &'a [f64],
    /// `suggested_search_position`.
    pub target: Option<[f64; 2]>,
    /// The target comes from the exhausted-search fallback.
    pub fallback: bool,
    /// The retained `search_cell_size`.
    pub cell_size: [f64; 2],
}

/// A teammate's state as last seen (for replay).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Seen {
    t: f64,
    pose: Option<Pose2<Field>>,
    head_yaw: f64,
}

/// The suggestor's state between frames.
#[derive(Debug, Clone)]
pub struct SearchSuggestor {
    params: SearchSuggestorParameters,
    field: FieldDimensions,
    map: Heatmap,
    zeros: Vec<f64>,
    target: Option<Point2<Field>>,
    target_cell: Option<usize>,
    fallback: bool,
    fallback_since: Option<f64>,
    last_ball: Option<(Point2<Field>, f64)>,
    seen_local_ball: bool,
    previous_t: Option<f64>,
    was_playing: bool,
    disabled: bool,
    seen: [Option<Seen>; 8],
    /// Scratch: the obstacles that may hide a cell of the current view.
    candidates: Vec<crate::frame::ObstacleJson>,
    /// Scratch: the fresh teammates' positions that bound the search region.
    others: Vec<Point2<Field>>,
    /// Scratch: whether each cell may be a regular target this frame.
    eligible: Vec<bool>,
    /// Whether each cell lies in the border band ([`Self::is_in_border_band`]).
    border_band: Vec<bool>,
}

impl SearchSuggestor {
    /// A suggestor with an all-zero map.
    pub fn new(params: SearchSuggestorParameters, field: FieldDimensions) -> Self {
        let map = Heatmap::new(
            params.cells_along_field_length as usize,
            field.length,
            field.width,
        );
        let zeros = vec![0.0; map.len()];
        let mut suggestor = Self {
            disabled: params.disable_heatmap_search,
            params,
            field,
            map,
            zeros,
            target: None,
            target_cell: None,
            fallback: false,
            fallback_since: None,
            last_ball: None,
            seen_local_ball: false,
            previous_t: None,
            was_playing: false,
            seen: [None; 8],
            candidates: Vec::new(),
            others: Vec::new(),
            eligible: Vec::new(),
            border_band: Vec::new(),
        };
        suggestor.mark_border_band();
        suggestor
    }

    /// The map (all zero while disabled).
    pub fn map(&self) -> &Heatmap {
        &self.map
    }

    /// The current `suggested_search_position`.
    pub fn target(&self) -> Option<Point2<Field>> {
        self.target
    }

    /// The retained `search_cell_size`: `[cell_length, cell_width]`.
    pub fn cell_size(&self) -> [f64; 2] {
        [self.map.cell_length, self.map.cell_width]
    }

    /// Test hook: overwrites the map's values with `value(cell centre)`.
    #[cfg(test)]
    pub(super) fn set_values(&mut self, value: impl Fn(Point2<Field>) -> f64) {
        for c in 0..self.map.len() {
            self.map.values[c] = value(self.map.center(c));
        }
    }

    /// The output of the last update.
    pub fn output(&self, t: f64) -> SuggestorOutput<'_> {
        SuggestorOutput {
            t,
            grid: GridShape {
                cells_x: self.map.cells_x,
                cells_y: self.map.cells_y,
                cell_length: self.map.cell_length,
                cell_width: self.map.cell_width,
            },
            values: if self.disabled {
                &self.zeros
            } else {
                &self.map.values
            },
            target: self.target.map(|p| p.to_array()),
            fallback: self.fallback,
            cell_size: self.cell_size(),
        }
    }

    /// Runs one frame. A refused parameter change leaves everything as it was.
    pub fn update(&mut self, frame: &HeatmapFrame) -> Result<(), ParameterError> {
        // 1. parameters
        if let Some(changes) = &frame.parameters {
            self.apply_parameters(changes)?;
        }
        let t = frame.t;
        let elapsed = self.previous_t.map_or(0.0, |p| (t - p).max(0.0));
        self.previous_t = Some(t);
        let playing = frame
            .game
            .as_ref()
            .is_some_and(|g| g.state == GameStateName::Playing);
        let entering_playing = playing && !self.was_playing;
        self.was_playing = playing;
        // 2. disabled
        if self.disabled {
            self.target = None;
            self.target_cell = None;
            self.fallback = false;
            return Ok(());
        }
        let pose = frame.pose.map(|p| Pose2::<Field>::new(p.x, p.y, p.yaw));
        let current_ball = frame
            .ball
            .map(|b| (Point2::<Field>::new(b.x, b.y), t - b.age))
            .filter(|(p, _)| self.map.contains(*p));
        // 3. entering playing
        if entering_playing {
            let limit = self.params.playing_entry_mean_limit;
            let mean = self.map.mean();
            if mean > limit && mean > 0.0 {
                let scale = limit / mean;
                self.map.values.iter_mut().for_each(|v| *v *= scale);
            }
        }
        // 4. growth
        if playing && current_ball.is_none() {
            self.grow(t, elapsed, &frame.rule_balls);
        }
        // 5. restarts
        if let Some(game) = &frame.game {
            self.clear_outside_restart(game.sub_state, game.kicking_team);
        }
        // 6. observation
        if let Some(pose) = pose {
            self.observe_own(&pose, frame.head_yaw, elapsed, frame);
        }
        self.replay_teammates(frame);
        // 7. ball and hypotheses
        if let Some((position, observed_at)) = current_ball {
            self.raise_around(position);
            self.last_ball = Some((position, observed_at));
            self.seen_local_ball = true;
        }
        for h in &frame.hypothetical_balls {
            let p = Point2::new(h.x, h.y);
            if self.map.contains(p) {
                let c = self.map.cell_of(p);
                self.map.values[c] =
                    (self.map.values[c] + h.validity * self.params.hypothetical_ball_weight) / 2.0;
            }
        }
        // 8. clamp
        for v in &mut self.map.values {
            *v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        }
        // 9. + 10. region and selection
        self.select(frame, pose, current_ball.map(|(p, _)| p), playing);
        Ok(())
    }

    fn apply_parameters(
        &mut self,
        changes: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), ParameterError> {
        let mut merged = match serde_json::to_value(&self.params) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        for (k, v) in changes {
            merged.insert(k.clone(), v.clone());
        }
        let next: SearchSuggestorParameters = decision_core::strict_serde::deserialize(
            serde_json::Value::Object(merged),
        )
        .map_err(|e| {
            let key = e.path().to_string();
            let inner = e.into_inner().to_string();
            let key = if key == "." || key.is_empty() {
                inner.split('`').nth(1).unwrap_or("?").to_owned()
            } else {
                key
            };
            ParameterError {
                key,
                message: inner,
            }
        })?;
        let mut problems: Vec<Problem> = Vec::new();
        next.validate(&mut problems);
        next.validate_on(&self.field, &mut problems);
        if let Some(p) = problems.into_iter().next() {
            return Err(ParameterError {
                key: p.path,
                message: p.message,
            });
        }
        if next.cells_along_field_length != self.params.cells_along_field_length {
            self.map = self.map.resampled(next.cells_along_field_length as usize);
            self.zeros = vec![0.0; self.map.len()];
            if let Some(old) = self.target {
                let c = self.map.cell_of(old);
                self.target = Some(self.map.center(c));
                self.target_cell = Some(c);
            }
        }
        if self.disabled && !next.disable_heatmap_search {
            // Re-enabled: a fresh map, nothing remembered from before.
            self.map.values.iter_mut().for_each(|v| *v = 0.0);
            self.last_ball = None;
            self.seen_local_ball = false;
            self.fallback_since = None;
            self.seen = [None; 8];
        }
        self.disabled = next.disable_heatmap_search;
        self.params = next;
        self.mark_border_band();
        Ok(())
    }

    fn grow(&mut self, t: f64, elapsed: f64, rule_balls: &[[f64; 2]]) {
        let p = &self.params;
        let uniform = elapsed / p.unseen_priority_rise_time;
        let last = self.last_ball.and_then(|(position, observed_at)| {
            let age = (t - observed_at).max(0.0);
            let weight = if p.last_ball_priority_fade_time > 0.0 {
                (1.0 - age / p.last_ball_priority_fade_time).max(0.0)
            } else {
                0.0
            };
            let half = p.last_ball_initial_half_distance + p.last_ball_spread_speed * age;
            (weight > 0.0 && half > 0.0).then_some((
                position,
                half,
                weight * elapsed / p.last_ball_extra_priority_rise_time,
            ))
        });
        for c in 0..self.map.len() {
            let mut v = self.map.values[c] + uniform;
            if let Some((position, half, gain)) = last {
                let d = self.map.center(c).distance(position);
                v += gain * (-(d / half).powi(2)).exp2();
            }
            self.map.values[c] = v;
        }
        let rule = elapsed / p.rule_priority_rise_time;
        for b in rule_balls {
            let point = Point2::new(b[0], b[1]);
            if self.map.contains(point) {
                let c = self.map.cell_of(point);
                self.map.values[c] += rule;
            }
        }
    }

    fn clear_outside_restart(&mut self, sub_state: Option<SubState>, kicking_team: Option<Team>) {
        let (cx, cy) = (self.map.cells_x, self.map.cells_y);
        let mut keep = vec![false; 0];
        let mark = |keep: &mut Vec<bool>, ix: usize, iy: usize| {
            if keep.is_empty() {
                keep.resize(cx * cy, false);
            }
            keep[iy * cx + ix] = true;
        };
        match sub_state {
            Some(SubState::CornerKick) => {
                // The corners at the goal line of the defending team.
                let lines: &[usize] = match kicking_team {
                    Some(Team::Own) => &[cx - 1],
                    Some(Team::Opponent) => &[0],
                    None => &[0, cx - 1],
                };
                for &ix in lines {
                    mark(&mut keep, ix, 0);
                    mark(&mut keep, ix, cy - 1);
                }
            }
            Some(SubState::GoalKick) => {
                let x = self.field.half_length() - self.field.goal_box_area_length;
                let y = self.field.goal_box_area_width / 2.0;
                let xs: &[f64] = match kicking_team {
                    Some(Team::Own) => &[-x],
                    Some(Team::Opponent) => &[x],
                    None => &[-x, x],
                };
                // A corner on a cell boundary belongs to the cell inside the goal box, so that
                // the kept cells are mirror images (cell_of alone gives the larger index).
                let inside = 1e-9;
                for &gx in xs {
                    for gy in [-y, y] {
                        let corner =
                            Point2::new(gx + gx.signum() * inside, gy - gy.signum() * inside);
                        let (ix, iy) = self.map.coords(self.map.cell_of(corner));
                        mark(&mut keep, ix, iy);
                    }
                }
            }
            Some(SubState::ThrowIn) => {
                for ix in 0..cx {
                    mark(&mut keep, ix, 0);
                    mark(&mut keep, ix, cy - 1);
                }
            }
            _ => return,
        }
        for (v, k) in self.map.values.iter_mut().zip(&keep) {
            if !k {
                *v = 0.0;
            }
        }
    }

    /// Decays the cells seen from `pose` with head `head_yaw` over `elapsed` with `weight`
    /// (`occluding` obstacles reduce it to `occluded_observation_weight`).
    ///
    /// Only the cells of [`Self::view_window`] are visited and only the obstacles that
    /// [`may_hide_in_view`] keeps are tested: both leave out only cells and obstacles that
    /// the per-cell test ([`Self::decay_cell`]) would pass over anyway.
    pub(super) fn decay_view(
        &mut self,
        pose: &Pose2<Field>,
        head_yaw: f64,
        elapsed: f64,
        weight: f64,
        occluding: &[crate::frame::ObstacleJson],
    ) {
        if elapsed <= 0.0 || weight <= 0.0 {
            return;
        }
        let cone = ViewCone::new(&self.params, pose.position, pose.yaw + head_yaw);
        let (columns, rows) = self.view_window(pose.position, cone.view);
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        let [_, far] = self.params.observation_distance_range;
        candidates.extend(occluding.iter().filter(|o| {
            may_hide_in_view(
                pose.position,
                cone.view,
                self.params.view_half_angle,
                far,
                o,
            )
        }));
        for iy in rows {
            let row = iy * self.map.cells_x;
            for ix in columns.clone() {
                self.decay_cell(row + ix, &cone, elapsed, weight, &candidates);
            }
        }
        self.candidates = candidates;
    }

    /// [`Self::decay_view`] the general way, every cell against every obstacle: what the
    /// window and the obstacle cull must decide alike.
    #[cfg(test)]
    pub(super) fn decay_view_everywhere(
        &mut self,
        pose: &Pose2<Field>,
        head_yaw: f64,
        elapsed: f64,
        weight: f64,
        occluding: &[crate::frame::ObstacleJson],
    ) {
        if elapsed <= 0.0 || weight <= 0.0 {
            return;
        }
        let cone = ViewCone::new(&self.params, pose.position, pose.yaw + head_yaw);
        for c in 0..self.map.len() {
            self.decay_cell(c, &cone, elapsed, weight, occluding);
        }
    }

    /// The columns and rows of the cells whose centres may be seen from `position` looking
    /// along `view`: those centred in the bounding box of the view sector (radius `far`, with a
    /// margin for rounding); the whole grid when a bound is not finite.
    fn view_window(
        &self,
        position: Point2<Field>,
        view: f64,
    ) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let whole = (0..self.map.cells_x, 0..self.map.cells_y);
        let half_angle = self.params.view_half_angle;
        let [_, far] = self.params.observation_distance_range;
        // (`min` and `max` below would pass over a NaN.)
        let inputs = [position.x, position.y, view, half_angle, far];
        if !inputs.iter().all(|v| v.is_finite()) {
            return whole;
        }
        let (mut low, mut high) = (position, position);
        let mut include = |angle: f64| {
            let p = position + Vector2::<Field>::from_angle(angle) * far;
            low = Point2::new(low.x.min(p.x), low.y.min(p.y));
            high = Point2::new(high.x.max(p.x), high.y.max(p.y));
        };
        include(view - half_angle);
        include(view + half_angle);
        // The arc's extremes along the axes, where they lie within the sector (generously).
        for quarter in 0..4 {
            let axis = f64::from(quarter) * std::f64::consts::FRAC_PI_2;
            if wrap_pi(axis - view).abs() <= half_angle + 1e-3 {
                include(axis);
            }
        }
        let margin = 1e-9 * (1.0 + position.x.abs() + position.y.abs() + far);
        self.cells_in_box(low, high, margin).unwrap_or(whole)
    }

    /// The columns and rows of the cells centred in the box from `low` to `high` widened by
    /// `margin` (plus a margin for rounding in the cells' own tests); `None` when a bound is
    /// not finite.
    fn cells_in_box(
        &self,
        low: Point2<Field>,
        high: Point2<Field>,
        margin: f64,
    ) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
        let bounds = [low.x, low.y, high.x, high.y, margin];
        if !bounds.iter().all(|b| b.is_finite()) {
            return None;
        }
        // Rounding in the bounds and in the cells' tests is far below this (in metres).
        let margin = margin + 1e-9 * (1.0 + self.map.half_length() + self.map.half_width());
        // Cell `i` along an axis is centred at `-half + (i + 0.5) * side`.
        let span = |low: f64, high: f64, half: f64, side: f64, cells: usize| {
            let first = ((low - margin + half) / side - 0.5).ceil();
            let last = ((high + margin + half) / side - 0.5).floor();
            let limit = cells as f64 - 1.0;
            if first > limit || last < 0.0 || first > last {
                return 0..0;
            }
            let (first, last) = (first.clamp(0.0, limit), last.clamp(0.0, limit));
            first as usize..last as usize + 1
        };
        Some((
            span(
                low.x,
                high.x,
                self.map.half_length(),
                self.map.cell_length,
                self.map.cells_x,
            ),
            span(
                low.y,
                high.y,
                self.map.half_width(),
                self.map.cell_width,
                self.map.cells_y,
            ),
        ))
    }

    /// Decays cell `c` if it is seen in `cone` (the per-cell part of [`Self::decay_view`]).
    fn decay_cell(
        &mut self,
        c: usize,
        cone: &ViewCone,
        elapsed: f64,
        weight: f64,
        occluding: &[crate::frame::ObstacleJson],
    ) {
        let p = &self.params;
        let [near, far] = p.observation_distance_range;
        let centre = self.map.center(c);
        let d = cone.apex.distance(centre);
        if d < near || d > far {
            return;
        }
        let offset = centre - cone.apex;
        if let Some(limit) = cone.outside_cos
            && d > 1e-9
            && offset.dot(cone.direction) < limit * d
        {
            return;
        }
        let clearly_inside = cone
            .inside_cos
            .is_some_and(|limit| d > 1e-9 && offset.dot(cone.direction) > limit * d);
        if !clearly_inside && wrap_pi(offset.angle() - cone.view).abs() > p.view_half_angle {
            return;
        }
        let half_life = p.observation_half_life_near
            + (p.observation_half_life_far - p.observation_half_life_near) * (d - near)
                / (far - near);
        let hidden = occluding
            .iter()
            .any(|o| segment_distance(cone.apex, centre, Point2::new(o.x, o.y)) <= o.radius);
        let w = if hidden {
            weight * p.occluded_observation_weight
        } else {
            weight
        };
        self.map.values[c] *= (-LN_2 * elapsed * w / half_life).exp();
    }

    fn observe_own(
        &mut self,
        pose: &Pose2<Field>,
        head_yaw: f64,
        elapsed: f64,
        frame: &HeatmapFrame,
    ) {
        self.decay_view(pose, head_yaw, elapsed, 1.0, &frame.obstacles);
    }

    /// Whether a teammate state counts this frame: teammates are in use, it is fresh and the
    /// player is not penalized.
    fn is_fresh(frame: &HeatmapFrame, state: &TeammateState) -> bool {
        let penalized = frame
            .game
            .as_ref()
            .is_some_and(|g| g.penalized.contains(&state.player));
        match frame.message_interval {
            Some(interval) => {
                !penalized
                    && crate::world::is_within(frame.t - state.t, interval)
                    && state.player != frame.player_number
            }
            None => false,
        }
    }

    fn replay_teammates(&mut self, frame: &HeatmapFrame) {
        let weight = self.params.teammate_observation_weight;
        let step = self.params.teammate_replay_step;
        for state in &frame.teammates {
            let slot = usize::from(state.player) & 7;
            let previous = self.seen[slot];
            if previous.is_some_and(|p| state.t <= p.t) {
                continue; // not newer: already replayed
            }
            let current = Seen {
                t: state.t,
                pose: state.pose.map(|p| Pose2::new(p.x, p.y, p.yaw)),
                head_yaw: state.head_yaw,
            };
            self.seen[slot] = Some(current);
            let Some(previous) = previous else {
                continue; // a first state replays nothing
            };
            if weight <= 0.0 || !Self::is_fresh(frame, state) {
                continue;
            }
            let (Some(p0), Some(p1)) = (previous.pose, current.pose) else {
                continue;
            };
            let gap = current.t - previous.t;
            // A decimal gap of exactly k steps (0.6 / 0.2 = 3.0000000000000004) is k steps.
            let n = ((gap - crate::world::TIME_TOLERANCE) / step)
                .ceil()
                .max(1.0) as usize;
            let dt = gap / n as f64;
            for k in 0..n {
                let s = (k as f64 + 0.5) / n as f64;
                let pose = Pose2 {
                    position: p0.position.lerp(p1.position, s),
                    yaw: p0.yaw + wrap_pi(p1.yaw - p0.yaw) * s,
                };
                let head = previous.head_yaw + wrap_pi(current.head_yaw - previous.head_yaw) * s;
                self.decay_view(&pose, head, dt, weight, &[]);
            }
        }
    }

    /// Raises the ball's own cell to 1 and the cells within `observed_ball_radius` of it to
    /// `1 - d / radius` (never lowers a cell). Only the cells centred in the box around the
    /// ball are visited: the others are farther than the radius.
    pub(super) fn raise_around(&mut self, ball: Point2<Field>) {
        let r = self.params.observed_ball_radius;
        let own = self.map.cell_of(ball);
        self.raise_cell(own, own, ball, r);
        let reach = Vector2::<Field>::new(r, r);
        match self.cells_in_box(ball - reach, ball + reach, 1e-9 * (1.0 + r)) {
            Some((columns, rows)) => {
                for iy in rows {
                    for ix in columns.clone() {
                        let c = iy * self.map.cells_x + ix;
                        if c != own {
                            self.raise_cell(c, own, ball, r);
                        }
                    }
                }
            }
            None => {
                for c in (0..self.map.len()).filter(|c| *c != own) {
                    self.raise_cell(c, own, ball, r);
                }
            }
        }
    }

    /// Every cell raised the general way: what [`Self::raise_around`] must do alike.
    #[cfg(test)]
    pub(super) fn raise_around_everywhere(&mut self, ball: Point2<Field>) {
        let (r, own) = (self.params.observed_ball_radius, self.map.cell_of(ball));
        for c in 0..self.map.len() {
            self.raise_cell(c, own, ball, r);
        }
    }

    /// Raises cell `c` for a ball at `ball` in cell `own` with radius `r`.
    fn raise_cell(&mut self, c: usize, own: usize, ball: Point2<Field>, r: f64) {
        let raise = if c == own {
            1.0
        } else {
            let d = self.map.center(c).distance(ball);
            if d > r {
                return;
            }
            1.0 - d / r
        };
        let v = &mut self.map.values[c];
        *v = v.max(raise);
    }

    /// Whether cell `c` is in this robot's search region, asking the frame for every cell:
    /// what [`Region::contains`] must decide alike.
    #[cfg(test)]
    pub(super) fn in_region(
        &self,
        c: usize,
        frame: &HeatmapFrame,
        pose: &Pose2<Field>,
        keeper: u8,
    ) -> bool {
        let centre = self.map.center(c);
        if frame.player_number == keeper {
            return centre.x <= 0.0;
        }
        let own = centre.distance_squared(pose.position);
        frame
            .teammates
            .iter()
            .filter(|m| m.player != keeper && Self::is_fresh(frame, m))
            .filter_map(|m| m.pose)
            .all(|p| own < centre.distance_squared(Point2::new(p.x, p.y)))
    }

    /// This robot's search region in `frame` (the positions of the fresh teammates other than
    /// the goalkeeper go into `others`, which is cleared first).
    pub(super) fn region<'a>(
        frame: &HeatmapFrame,
        pose: &Pose2<Field>,
        keeper: u8,
        others: &'a mut Vec<Point2<Field>>,
    ) -> Region<'a> {
        others.clear();
        let is_keeper = frame.player_number == keeper;
        if !is_keeper {
            others.extend(
                frame
                    .teammates
                    .iter()
                    .filter(|m| m.player != keeper && Self::is_fresh(frame, m))
                    .filter_map(|m| m.pose)
                    .map(|p| Point2::new(p.x, p.y)),
            );
        }
        Region {
            own_half: is_keeper,
            position: pose.position,
            others,
        }
    }

    /// Whether cell `c` lies in the border band, where it loses the border view penalty.
    pub(super) fn is_in_border_band(&self, c: usize) -> bool {
        let centre = self.map.center(c);
        let band = self.params.border_view_penalty_width_fraction * self.field.width;
        let to_boundary = (self.field.half_length() - centre.x.abs())
            .min(self.field.half_width() - centre.y.abs());
        to_boundary <= band
    }

    /// [`Self::is_in_border_band`] of every cell (after every change of the grid or the
    /// parameters).
    fn mark_border_band(&mut self) {
        self.border_band = (0..self.map.len())
            .map(|c| self.is_in_border_band(c))
            .collect();
    }

    /// Test hook: the kept border band.
    #[cfg(test)]
    pub(super) fn border_band(&self) -> &[bool] {
        &self.border_band
    }

    fn score(&self, c: usize) -> f64 {
        let penalty = if self.border_band[c] {
            self.params.border_view_penalty
        } else {
            0.0
        };
        self.map.values[c] - penalty
    }

    fn select(
        &mut self,
        frame: &HeatmapFrame,
        pose: Option<Pose2<Field>>,
        current_ball: Option<Point2<Field>>,
        playing: bool,
    ) {
        let (Some(pose), Some(keeper)) = (pose, frame.goalkeeper_player_number) else {
            self.target = None;
            self.target_cell = None;
            self.fallback = false;
            return;
        };
        if let Some(ball) = current_ball {
            let c = self.map.cell_of(ball);
            self.set_target(c, &pose, false);
            self.fallback_since = None;
            return;
        }
        let mut others = std::mem::take(&mut self.others);
        let region = Self::region(frame, &pose, keeper, &mut others);
        self.select_in(frame.t, &pose, &region, playing);
        self.others = others;
    }

    /// The regular target in `region`, else the exhausted-search fallback (`now`: the frame's
    /// time).
    fn select_in(&mut self, now: f64, pose: &Pose2<Field>, region: &Region<'_>, playing: bool) {
        let minimum = self.params.minimum_search_priority;
        let mut eligible = std::mem::take(&mut self.eligible);
        eligible.clear();
        let mut best = f64::NEG_INFINITY;
        for c in 0..self.map.len() {
            let is_eligible = self.map.values[c] >= minimum && region.contains(self.map.center(c));
            eligible.push(is_eligible);
            if is_eligible {
                best = best.max(self.score(c));
            }
        }
        let regular = if best.is_finite() {
            let kept = self
                .target_cell
                .filter(|c| *c < self.map.len() && eligible[*c])
                .filter(|c| self.score(*c) >= self.params.target_hysteresis * best);
            kept.or_else(|| {
                let margin = self.params.turn_preference_margin;
                least_turn(
                    (0..self.map.len()).filter(|c| eligible[*c] && self.score(*c) >= best - margin),
                    |c| pose.bearing_to(self.map.center(c)).abs(),
                )
            })
        } else {
            None
        };
        self.eligible = eligible;
        if let Some(c) = regular {
            self.fallback_since = None;
            self.set_target(c, pose, false);
            return;
        }
        if !(playing && self.seen_local_ball) {
            self.fallback_since = None;
            self.clear_target();
            return;
        }
        let since = *self.fallback_since.get_or_insert(now);
        if !crate::world::has_reached(now - since, self.params.exhausted_search_delay) {
            self.clear_target();
            return;
        }
        let fallback_minimum = self.params.fallback_minimum_search_priority;
        let best_fallback = (0..self.map.len())
            .filter(|c| {
                self.map.values[*c] >= fallback_minimum && region.contains(self.map.center(*c))
            })
            .max_by(|a, b| {
                self.map.values[*a]
                    .total_cmp(&self.map.values[*b])
                    .then(b.cmp(a))
            });
        match best_fallback {
            Some(c) => self.set_target(c, pose, true),
            None => self.clear_target(),
        }
    }

    fn set_target(&mut self, c: usize, pose: &Pose2<Field>, fallback: bool) {
        let inside = self.map.cell_of(pose.position) == c && self.map.contains(pose.position);
        self.target = Some(if inside {
            pose.position
        } else {
            self.map.center(c)
        });
        self.target_cell = Some(c);
        self.fallback = fallback;
    }

    fn clear_target(&mut self) {
        self.target = None;
        self.target_cell = None;
        self.fallback = false;
    }
}

/// A robot's search region: the own half for the goalkeeper, else the cells nearer to it
/// than to every one of `others`.
pub(super) struct Region<'a> {
    own_half: bool,
    position: Point2<Field>,
    others: &'a [Point2<Field>],
}

impl Region<'_> {
    /// Whether the cell centred at `centre` is in the region.
    pub(super) fn contains(&self, centre: Point2<Field>) -> bool {
        if self.own_half {
            return centre.x <= 0.0;
        }
        let own = centre.distance_squared(self.position);
        self.others
            .iter()
            .all(|p| own < centre.distance_squared(*p))
    }
}

/// The candidate with the smallest `turn`, the first of equals (as `Iterator::min_by` with
/// `total_cmp` and then the index), each turn worked out once.
pub(super) fn least_turn(
    candidates: impl Iterator<Item = usize>,
    turn: impl Fn(usize) -> f64,
) -> Option<usize> {
    let mut least: Option<(f64, usize)> = None;
    for c in candidates {
        let t = turn(c);
        let better = match least {
            None => true,
            Some((lt, lc)) => t.total_cmp(&lt).then(c.cmp(&lc)).is_lt(),
        };
        if better {
            least = Some((t, c));
        }
    }
    least.map(|(_, c)| c)
}

/// A view cone with what its per-cell test needs worked out once.
struct ViewCone {
    /// The viewer's position.
    apex: Point2<Field>,
    /// Body yaw plus head yaw.
    view: f64,
    /// The unit vector along `view`.
    direction: Vector2<Field>,
    /// Cells whose bearing cosine is below this are clearly outside the cone (by more than
    /// a micro-radian) and are skipped without their bearing.
    outside_cos: Option<f64>,
    /// Cells whose bearing cosine is above this are clearly inside it and skip the bearing too.
    inside_cos: Option<f64>,
}

impl ViewCone {
    fn new(p: &SearchSuggestorParameters, apex: Point2<Field>, view: f64) -> Self {
        Self {
            apex,
            view,
            direction: Vector2::<Field>::from_angle(view),
            outside_cos: (p.view_half_angle + 1e-6 < std::f64::consts::PI - 1e-6)
                .then(|| (p.view_half_angle + 1e-6).cos()),
            inside_cos: (p.view_half_angle > 1e-6).then(|| (p.view_half_angle - 1e-6).cos()),
        }
    }
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(a: Point2<Field>, b: Point2<Field>, p: Point2<Field>) -> f64 {
    let ab = b - a;
    let length2 = ab.norm_squared();
    if length2 <= 0.0 {
        return a.distance(p);
    }
    let s = ((p - a).dot(ab) / length2).clamp(0.0, 1.0);
    (a + ab * s).distance(p)
}

/// Whether obstacle `o` may hide a cell seen from `apex` looking along `view` (half angle
/// `half_angle`, cells at most `far` away): `false` only when the obstacle is farther than its
/// radius, with a margin for rounding, from every point of the view sector, so that no
/// sight line to a visible cell comes within its radius.
fn may_hide_in_view(
    apex: Point2<Field>,
    view: f64,
    half_angle: f64,
    far: f64,
    o: &crate::frame::ObstacleJson,
) -> bool {
    let offset = Point2::<Field>::new(o.x, o.y) - apex;
    let distance = offset.norm();
    let reach = o.radius + 1e-9 * (1.0 + distance + far + o.radius);
    // Beyond the sector's radius: a sight line is never longer than `far`.
    if distance - far > reach {
        return false;
    }
    // Beside a convex sector: the nearest point of the infinite wedge is on its nearer edge
    // (or the apex, behind it).
    if half_angle <= std::f64::consts::FRAC_PI_2 {
        let excess = wrap_pi(offset.angle() - view).abs() - half_angle;
        if excess > 0.0 {
            let to_wedge = if excess >= std::f64::consts::FRAC_PI_2 {
                distance
            } else {
                distance * excess.sin()
            };
            if to_wedge > reach {
                return false;
            }
        }
    }
    true
}
