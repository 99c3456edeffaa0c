//! Positioning: leaves that compute where to walk (the kick position behind the ball, a
//! blocking position in the opponent's set play, the goalkeeper's positions, the supporter's
//! Voronoi position, the search target) into the tick's target for `walk_to_target`.

use super::deed;
use super::kicking::goal_target;
use crate::context::SoccerContext;
use crate::frame::SubState;
use decision_core::engine::{Registry, Status};
use geometry::{Field, Point2, Pose2, Vector2};

/// Registers the positioning leaves.
pub fn register(registry: &mut Registry<SoccerContext>) {
    deed(registry, "kick_position", |c| target(c, kick_pose(c)));
    deed(registry, "block_position", |c| target(c, block_pose(c)));
    deed(registry, "goal_line_position", |c| {
        let x = -c.params.field.half_length();
        let pose = Pose2::new(x, 0.0, 0.0);
        target(c, Some(facing_ball(c, pose)))
    });
    deed(registry, "goalkeeper_default_position", |c| {
        let x = -c.params.field.half_length() + c.params.behavior_node.goalkeeper.x_offset;
        let pose = Pose2::new(x, 0.0, 0.0);
        target(c, Some(facing_ball(c, pose)))
    });
    deed(registry, "active_defense_position", |c| {
        target(c, active_defense_pose(c))
    });
    deed(registry, "goalkeeper_interception_position", |c| {
        target(c, goalkeeper_interception_pose(c))
    });
    deed(registry, "support_position", |c| {
        let pose = support_pose(c);
        target(c, pose)
    });
    deed(registry, "search_position", |c| target(c, search_pose(c)));
}

fn target(c: &mut SoccerContext, pose: Option<Pose2<Field>>) -> Status {
    c.out.target = pose;
    if pose.is_some() {
        Status::Success
    } else {
        Status::Failure
    }
}

/// `pose` turned to face the ball (unchanged without a ball).
fn facing_ball(c: &SoccerContext, pose: Pose2<Field>) -> Pose2<Field> {
    match c.world.ball {
        Some(b) if b.position.distance(pose.position) > 1e-6 => Pose2 {
            position: pose.position,
            yaw: (b.position - pose.position).angle(),
        },
        _ => pose,
    }
}

/// Behind the ball on the line from the goal target, `kicking.kick_position_ball_distance`
/// away, facing the target.
pub fn kick_pose(c: &SoccerContext) -> Option<Pose2<Field>> {
    let ball = c.world.ball?.position;
    let goal = goal_target(c);
    let direction = (goal - ball).normalized().unwrap_or(Vector2::new(1.0, 0.0));
    let position = ball - direction * c.params.behavior_node.kicking.kick_position_ball_distance;
    Some(Pose2 {
        position,
        yaw: direction.angle(),
    })
}

/// Keep-out distance of a blocking position from the ball: the centre circle's radius plus
/// `substates.blocking_distance_offset`.
fn blocking_distance(c: &SoccerContext) -> f64 {
    c.params.field.center_circle_diameter / 2.0
        + c.params.behavior_node.substates.blocking_distance_offset
}

/// The opponent's set play: between the ball and the own goal centre, outside the keep-out
/// circle; a corner kick turns the direction towards the field's centre line by
/// `substates.corner_kick_blocking_angle`; a penalty kick stands on the own penalty-area line
/// beside the mark, on the robot's side. Faces the ball.
pub fn block_pose(c: &SoccerContext) -> Option<Pose2<Field>> {
    let ball = c.world.ball?.position;
    let field = &c.params.field;
    let own_goal = Point2::<Field>::new(-field.half_length(), 0.0);
    let r = blocking_distance(c);
    let sub_state = c.world.game.as_ref().and_then(|g| g.sub_state);
    let position = if sub_state == Some(SubState::PenaltyKick) {
        let x = -field.half_length() + field.penalty_area_length;
        let mark = Point2::<Field>::new(-field.half_length() + field.penalty_marker_distance, 0.0);
        let dx = x - mark.x;
        let dy = (r * r - dx * dx).max(0.0).sqrt();
        let side = match c.world.pose {
            Some(p) if p.position.y < 0.0 => -1.0,
            _ => 1.0,
        };
        Point2::new(x, side * dy)
    } else {
        let mut direction = (own_goal - ball)
            .normalized()
            .unwrap_or(Vector2::new(-1.0, 0.0));
        if sub_state == Some(SubState::CornerKick) {
            let angle = c.params.behavior_node.substates.corner_kick_blocking_angle;
            // Turn towards the field's centre line (y = 0).
            let sign = if ball.y > 0.0 { 1.0 } else { -1.0 };
            direction = direction.rotated(sign * angle);
        }
        ball + direction * r
    };
    let clamped = Point2::new(
        position.x.clamp(-field.half_length(), field.half_length()),
        position.y.clamp(-field.half_width(), field.half_width()),
    );
    Some(facing_ball(
        c,
        Pose2 {
            position: clamped,
            yaw: 0.0,
        },
    ))
}

/// On the circle of radius `goal_inner_width / 2` around the own goal centre, towards the
/// ball; `None` when farther than `goalkeeper.active_defense_maximum_robot_distance` from the
/// robot.
pub fn active_defense_pose(c: &SoccerContext) -> Option<Pose2<Field>> {
    let ball = c.world.ball?.position;
    let pose = c.world.pose?;
    let field = &c.params.field;
    let own_goal = Point2::<Field>::new(-field.half_length(), 0.0);
    let direction = (ball - own_goal).normalized()?;
    let mut position = own_goal + direction * (field.goal_inner_width / 2.0);
    position.x = position.x.max(
        own_goal.x
            + c.params
                .behavior_node
                .goalkeeper
                .x_offset
                .min(field.goal_inner_width / 2.0),
    );
    if position.distance(pose.position)
        > c.params
            .behavior_node
            .goalkeeper
            .active_defense_maximum_robot_distance
    {
        return None;
    }
    Some(facing_ball(c, Pose2 { position, yaw: 0.0 }))
}

/// Where a ball moving towards the own half crosses the goalkeeper's line
/// (`goalkeeper.x_offset` in front of the goal line) between the posts; `None` otherwise.
pub fn goalkeeper_interception_pose(c: &SoccerContext) -> Option<Pose2<Field>> {
    let ball = c.world.ball?;
    let field = &c.params.field;
    let min_speed = c
        .params
        .behavior_node
        .ball
        .interception
        .minimum_ball_velocity_towards_own_half;
    if ball.position.x >= 0.0 || -ball.velocity.x <= min_speed {
        return None;
    }
    let x = -field.half_length() + c.params.behavior_node.goalkeeper.x_offset;
    let t = (x - ball.position.x) / ball.velocity.x;
    if t <= 0.0 {
        return None;
    }
    let y = ball.position.y + ball.velocity.y * t;
    (y.abs() <= field.goal_inner_width / 2.0).then(|| facing_ball(c, Pose2::new(x, y, 0.0)))
}

/// The supporter's position: among this robot's cells of the partition inside the field, the
/// best of `forward_weight * side * x / (L/2 + padding)` + `ball_weight * gauss(distance to
/// ball - ball_support_distance, ball_support_sigma)` - `centroid_anchor_weight * distance to
/// the region's centroid / centroid_anchor_sigma` (side from the ball's x). Without a ball,
/// the centroid. Faces the ball.
pub fn support_pose(c: &mut SoccerContext) -> Option<Pose2<Field>> {
    c.world.pose?;
    c.ensure_voronoi();
    let field = &c.params.field;
    let v = &c.params.behavior_node.voronoi;
    let player = c.world.player_number;
    let centroid = c.memory.read_support_cells(player, field)?;
    let Some(ball) = c.world.ball.map(|b| b.position) else {
        return Some(facing_ball(
            c,
            Pose2 {
                position: centroid,
                yaw: 0.0,
            },
        ));
    };
    let reach = field.half_length() + v.padding;
    let score = SupportScore {
        v,
        support: &c.params.behavior_node.support,
        reach,
        side: (ball.x / reach).clamp(-1.0, 1.0),
        centroid,
        ball,
        press: press_point(c, ball),
    };
    let cells = &c.memory.support_cells;
    // The last choice's score, when it is a cell again and its score a number: no cell
    // scoring the most lies below it, so the scan may skip what scores lower.
    let seed = c
        .memory
        .support_best
        .filter(|last| cells.contains(last))
        .and_then(|last| score.at_least(last, f64::NEG_INFINITY))
        .filter(|s| !s.is_nan());
    let mut best = score.best_cell(cells, seed);
    if seed.is_some() && best.is_some_and(|(s, _, saw_nan)| saw_nan || s == 0.0) {
        // A NaN score wins any comparison it meets, and a bound of -0 is below a score
        // of +0 when compared whole: the floor could change the choice, so the scan is
        // made as without it.
        best = score.best_cell(cells, None);
    }
    let (_, best, _) = best?;
    c.memory.support_best = Some(best);
    Some(facing_ball(
        c,
        Pose2 {
            position: best,
            yaw: 0.0,
        },
    ))
}

/// What the supporter's score of a cell depends on in one tick.
struct SupportScore<'a> {
    v: &'a crate::params::Voronoi,
    support: &'a crate::params::Support,
    /// Half the field's length plus `voronoi.padding`.
    reach: f64,
    /// The ball's x over `reach`, clamped to [-1, 1].
    side: f64,
    centroid: Point2<Field>,
    ball: Point2<Field>,
    press: Option<Point2<Field>>,
}

impl SupportScore<'_> {
    /// The score of cell `p`, or `None` when a bound of it is below `best`: first with each
    /// Gaussian at its top, then at [`bump_bound`] (rounding is monotone, so each bound is
    /// at least the score), so the exponentials are left out for most cells.
    #[inline(always)]
    fn at_least(&self, p: Point2<Field>, best: f64) -> Option<f64> {
        let (v, support) = (self.v, self.support);
        let forward = v.forward_weight * self.side * p.x / self.reach;
        let anchor = v.centroid_anchor_weight * p.distance(self.centroid) / v.centroid_anchor_sigma;
        let bound = forward + v.ball_weight.max(0.0) - anchor;
        let bound = self.press.map_or(bound, |_| bound + support.press_weight);
        if bound.total_cmp(&best).is_lt() {
            return None;
        }
        let off = p.distance(self.ball) - v.ball_support_distance;
        // A tighter bound, still without an exponential. Compared as real numbers only: a
        // NaN bound decides nothing.
        let press_distance = self.press.map(|press| p.distance(press));
        if self.tight_bound(forward, off, anchor, press_distance) < best {
            return None;
        }
        let near_ball = v.ball_weight * bump(off, v.ball_support_sigma);
        let base = forward + near_ball - anchor;
        Some(match self.press {
            Some(press) => {
                base + support.press_weight * bump(p.distance(press), support.press_sigma)
            }
            None => base,
        })
    }

    /// The score with each Gaussian at its bound [`bump_bound`], summed in the score's order
    /// (so at least the score), from the forward and anchor terms, the offset from the ball
    /// support distance and the distance to the press point (with a press term).
    #[inline(always)]
    fn tight_bound(&self, forward: f64, off: f64, anchor: f64, press_distance: Option<f64>) -> f64 {
        let v = self.v;
        let near_ball_bound = if v.ball_weight > 0.0 {
            v.ball_weight * bump_bound(off, v.ball_support_sigma)
        } else {
            v.ball_weight.max(0.0)
        };
        let tight = forward + near_ball_bound - anchor;
        press_distance.map_or(tight, |d| {
            tight + self.support.press_weight * bump_bound(d, self.support.press_sigma)
        })
    }

    /// A bound of [`Self::at_least`]'s tighter bound over the cells of one row (centres at
    /// `y`, `x` from `x0` to `x1`), so at least the score of each: each term at its best
    /// over the row, computed as the cell's term is (every step is monotone in its inputs,
    /// so no rounding margin is needed). The forward term is linear in `x`; the anchor is
    /// least, and each Gaussian's bound most, at the point of the row nearest to its centre
    /// (or where the distance crosses `ball_support_distance`). NaN when an input is.
    fn row_bound(&self, y: f64, x0: f64, x1: f64) -> f64 {
        let v = self.v;
        let at = |x: f64| Point2::<Field>::new(x, y);
        let nearest_to = |q: Point2<Field>| at(q.x.clamp(x0, x1)).distance(q);
        let forward = |x: f64| v.forward_weight * self.side * x / self.reach;
        let forward = forward(x0).max(forward(x1));
        let anchor = v.centroid_anchor_weight * nearest_to(self.centroid) / v.centroid_anchor_sigma;
        // The offset nearest 0 over the row (the bump bound falls with its size).
        let nearest = nearest_to(self.ball) - v.ball_support_distance;
        let farthest =
            at(x0).distance(self.ball).max(at(x1).distance(self.ball)) - v.ball_support_distance;
        let off = if nearest > 0.0 {
            nearest
        } else if farthest < 0.0 {
            farthest
        } else {
            0.0
        };
        let press_distance = self.press.map(nearest_to);
        self.tight_bound(forward, off, anchor, press_distance)
    }

    /// The best of `cells` (row by row, as read from the partition), starting from the floor
    /// `seed` (at most the best score): the last of equal scores wins, as `max_by` has it.
    /// A row whose [`Self::row_bound`] is below the floor is passed over (each of its cells
    /// would be). With whether a score was NaN.
    fn best_cell(
        &self,
        cells: &[Point2<Field>],
        seed: Option<f64>,
    ) -> Option<(f64, Point2<Field>, bool)> {
        let mut best: Option<(f64, Point2<Field>)> = None;
        let start = seed.unwrap_or(f64::NEG_INFINITY);
        let mut saw_nan = false;
        // The anchor's bound over a row needs it to grow with the distance.
        let rows_bounded =
            self.v.centroid_anchor_weight >= 0.0 && self.v.centroid_anchor_sigma > 0.0;
        let mut rest = cells;
        while let Some(first) = rest.first() {
            let y = first.y.to_bits();
            let len = rest
                .iter()
                .position(|p| p.y.to_bits() != y)
                .unwrap_or(rest.len());
            let (row, after) = rest.split_at(len);
            rest = after;
            let floor = best.map_or(start, |(s, _)| s);
            if rows_bounded && self.row_bound(first.y, first.x, row[len - 1].x) < floor {
                continue;
            }
            for &p in row {
                let floor = best.map_or(start, |(s, _)| s);
                if let Some(s) = self.at_least(p, floor) {
                    saw_nan |= s.is_nan();
                    if s.total_cmp(&floor).is_ge() {
                        best = Some((s, p));
                    }
                }
            }
        }
        best.map(|(s, p)| (s, p, saw_nan))
    }
}

/// A Gaussian bump of width `sigma` at `offset` 0 (1 there): the support score's preference
/// for a distance.
fn bump(offset: f64, sigma: f64) -> f64 {
    (-(offset * offset) / (2.0 * sigma * sigma)).exp()
}

/// An upper bound of [`bump`] as computed, without the exponential: `1 / (1 + x)` for its
/// exponent `-x` (`e^x >= 1 + x + x^2/2`), where that margin clears the rounding of both
/// sides (at `x >= 2^-20` it is over 2^-42, the rounding under 2^-51), else 1.
fn bump_bound(offset: f64, sigma: f64) -> f64 {
    let x = (offset * offset) / (2.0 * sigma * sigma);
    if x >= BUMP_BOUND_FROM {
        1.0 / (1.0 + x)
    } else {
        1.0
    }
}

/// The smallest exponent from which [`bump_bound`] uses `1 / (1 + x)`.
const BUMP_BOUND_FROM: f64 = 1.0 / (1u64 << 20) as f64;

/// The press point of the support score: `support.press_distance` from the ball towards the
/// own goal centre; `None` while `support.press_weight` is 0 (the score has no press term).
pub fn press_point(c: &SoccerContext, ball: Point2<Field>) -> Option<Point2<Field>> {
    let support = &c.params.behavior_node.support;
    if support.press_weight <= 0.0 {
        return None;
    }
    let own_goal = Point2::<Field>::new(-c.params.field.half_length(), 0.0);
    let direction = (own_goal - ball)
        .normalized()
        .unwrap_or(Vector2::new(-1.0, 0.0));
    Some(ball + direction * support.press_distance)
}

/// The search suggestor's target, facing it; `None` without a target or pose, or once the
/// robot is within the arrival distance (`max(search.position_reached_cell_fraction *
/// min(search_cell_size), search.minimum_position_reached_distance)`).
pub fn search_pose(c: &SoccerContext) -> Option<Pose2<Field>> {
    let (pose, target) = (c.world.pose?, c.world.search_target?);
    let s = &c.params.behavior_node.search;
    let cell = c.world.search_cell_size.map_or(0.0, |[l, w]| l.min(w));
    let arrival =
        (s.position_reached_cell_fraction * cell).max(s.minimum_position_reached_distance);
    if pose.position.distance(target) <= arrival {
        return None;
    }
    Some(Pose2 {
        position: target,
        yaw: (target - pose.position).angle(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaves::test_support::{context, frame, tick_leaf};
    use serde_json::json;

    #[test]
    fn the_kick_position_is_behind_the_ball_facing_the_goal() {
        let ctx = context(&frame(
            r#"{"pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": 2, "y": 0}}"#,
        ));
        let p = kick_pose(&ctx).expect("pose");
        assert!(
            (p.position.x - 1.7).abs() < 1e-9 && p.position.y.abs() < 1e-9,
            "{p:?}"
        );
        assert_eq!(p.yaw, 0.0);
    }

    #[test]
    fn blocking_positions_keep_out_of_the_circle_between_ball_and_goal() {
        let ctx = context(&frame(
            r#"{"pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": 1, "y": 0},
                "game": {"sub_state": "free_kick", "kicking_team": "opponent"}}"#,
        ));
        let p = block_pose(&ctx).expect("pose");
        assert!(
            (p.position.x - 0.05).abs() < 1e-9,
            "0.75 + 0.2 m towards the own goal: {p:?}"
        );
        assert!((p.yaw - 0.0).abs() < 1e-9, "faces the ball");
        let penalty = context(&frame(
            r#"{"pose": {"x": -2, "y": -1, "yaw": 0}, "ball": {"x": -3, "y": 0},
                "game": {"sub_state": "penalty_kick", "kicking_team": "opponent"}}"#,
        ));
        let p = block_pose(&penalty).expect("pose");
        let mark = Point2::<Field>::new(-3.0, 0.0);
        assert!(
            (p.position.x + 2.5).abs() < 1e-9 && p.position.y < 0.0,
            "{p:?}"
        );
        assert!(p.position.distance(mark) >= 0.95 - 1e-9);
    }

    #[test]
    fn goalkeeper_positions_stay_near_the_own_goal() {
        let mut ctx = context(&frame(
            r#"{"pose": {"x": -4, "y": 0, "yaw": 0}, "ball": {"x": -2, "y": 2}}"#,
        ));
        assert_eq!(
            tick_leaf("goalkeeper_default_position", json!({}), &mut ctx),
            Status::Success
        );
        let t = ctx.out.target.expect("target");
        assert!((t.position.x + 4.2).abs() < 1e-9);
        let a = active_defense_pose(&ctx).expect("in reach");
        assert!((a.position.distance(Point2::new(-4.5, 0.0)) - 1.3).abs() < 1e-9);
        let far = context(&frame(
            r#"{"pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": -2, "y": 2}}"#,
        ));
        assert!(
            active_defense_pose(&far).is_none(),
            "more than 2 m from the robot"
        );
        let shot = context(&frame(
            r#"{"pose": {"x": -4, "y": 0, "yaw": 0}, "ball": {"x": -2, "y": 0.5, "vx": -2, "vy": -0.2}}"#,
        ));
        let i = goalkeeper_interception_pose(&shot).expect("crossing between the posts");
        assert!(
            (i.position.x + 4.2).abs() < 1e-9 && (i.position.y - 0.28).abs() < 1e-9,
            "{i:?}"
        );
    }

    #[test]
    fn the_supporter_stays_in_its_own_region_near_the_preferred_distance() {
        let mut ctx = context(&frame(
            r#"{"player_number": 3, "pose": {"x": -1, "y": -2, "yaw": 0}, "ball": {"x": 1, "y": 1},
                "teammate_messages": [{"player": 2, "pose": {"x": 0.8, "y": 1.0, "yaw": 0}}]}"#,
        ));
        let p = support_pose(&mut ctx).expect("support position");
        assert!(
            ctx.memory.last_partition().owner_at(p.position) == Some(3),
            "{p:?}"
        );
        // The ball lies in 2's region: 3 takes a cell of its own between its centroid and the
        // ball, nearer to the ball than the robot stands now.
        let d = p.position.distance(Point2::new(1.0, 1.0));
        let now = Point2::<Field>::new(-1.0, -2.0).distance(Point2::new(1.0, 1.0));
        assert!(d > 0.5 && d < now, "towards the preferred 1.5 m: {d}");
    }

    #[test]
    fn the_press_point_lies_behind_the_ball_towards_the_own_goal() {
        let mut params = crate::params::Parameters::default();
        let ball = Point2::<Field>::new(2.4, 0.0);
        let ctx = crate::leaves::test_support::with_params(&frame("{}"), params.clone());
        assert_eq!(
            press_point(&ctx, ball),
            None,
            "press_weight 0: no press point"
        );
        params.behavior_node.support.press_weight = 1.0;
        params.behavior_node.support.press_distance = 1.2;
        let ctx = crate::leaves::test_support::with_params(&frame("{}"), params.clone());
        let p = press_point(&ctx, ball).expect("press point");
        assert!((p.x - 1.2).abs() < 1e-12 && p.y.abs() < 1e-12, "{p:?}");
        // From (1.5, 4.0) towards the goal centre (-4.5, 0): 6 m back, 4 m down, 1 m of it.
        params.behavior_node.support.press_distance = 1.0;
        let ctx = crate::leaves::test_support::with_params(&frame("{}"), params);
        let p = press_point(&ctx, Point2::new(1.5, 4.0)).expect("press point");
        let norm = 52.0f64.sqrt();
        assert!(
            (p.x - (1.5 - 6.0 / norm)).abs() < 1e-12 && (p.y - (4.0 - 4.0 / norm)).abs() < 1e-12,
            "{p:?}"
        );
    }

    /// The support position by its definition: every cell of the robot's region inside the
    /// field scored in full, the last of the best scores taken.
    fn support_position_scoring_every_cell(c: &mut SoccerContext) -> Option<Point2<Field>> {
        let v = c.params.behavior_node.voronoi.clone();
        let support = c.params.behavior_node.support.clone();
        let field = c.params.field.clone();
        let ball = c.world.ball?.position;
        let press = press_point(c, ball);
        let mut cells = Vec::new();
        c.memory
            .last_partition()
            .for_each_cell_of(c.world.player_number, |p| cells.push(p));
        cells.retain(|p| field.contains(p.x, p.y));
        let n = cells.len() as f64;
        let centroid = Point2::<Field>::new(
            cells.iter().map(|p| p.x).sum::<f64>() / n,
            cells.iter().map(|p| p.y).sum::<f64>() / n,
        );
        let reach = field.half_length() + v.padding;
        let side = (ball.x / reach).clamp(-1.0, 1.0);
        let score = |p: Point2<Field>| {
            let base = v.forward_weight * side * p.x / reach
                + v.ball_weight
                    * bump(
                        p.distance(ball) - v.ball_support_distance,
                        v.ball_support_sigma,
                    )
                - v.centroid_anchor_weight * p.distance(centroid) / v.centroid_anchor_sigma;
            press.map_or(base, |q| {
                base + support.press_weight * bump(p.distance(q), support.press_sigma)
            })
        };
        cells
            .into_iter()
            .map(|p| (score(p), p))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, p)| p)
    }

    #[test]
    fn the_bump_bound_is_never_below_the_bump() {
        let sigmas = [1e-3, 0.1, 0.5, 1.0, 3.7, 1e3];
        let mut below_one = 0;
        for sigma in sigmas {
            let scale = 2.0 * sigma * sigma;
            // Offsets whose exponents sweep from 0 through the threshold up to where the
            // bump underflows, and a fine sweep just around the threshold.
            let exponents = (0..=2000)
                .map(|k| 1e-12 * 1.03f64.powi(k))
                .chain((0..2000).map(|k| BUMP_BOUND_FROM * (1.0 + (f64::from(k) - 1000.0) * 1e-6)))
                .chain([0.0, BUMP_BOUND_FROM, 700.0, 1e300, f64::INFINITY]);
            for x in exponents {
                for offset in [(x * scale).sqrt(), -(x * scale).sqrt()] {
                    let (bound, bump) = (bump_bound(offset, sigma), bump(offset, sigma));
                    assert!(
                        bound >= bump,
                        "offset {offset}, sigma {sigma}: bound {bound} < bump {bump}"
                    );
                    below_one += usize::from(bound < 1.0);
                }
            }
        }
        // The bound is below 1 past the threshold, so it prunes.
        assert!(below_one > 10_000, "{below_one}");
    }

    #[test]
    fn the_bounded_scan_picks_the_cell_that_scoring_every_cell_picks() {
        // Balls and robots all over the field, with and without the press term and with a
        // negative ball weight (the bound then leaves the ball term out).
        let mut cases = 0;
        for (press, ball_weight) in [(0.0, 1.0), (10.0, 1.0), (0.0, -2.0), (3.0, 0.5)] {
            for k in 0..24 {
                let t = f64::from(k);
                let json = format!(
                    r#"{{"player_number": 3, "pose": {{"x": {}, "y": {}, "yaw": {}}},
                        "ball": {{"x": {}, "y": {}}},
                        "teammate_messages": [
                          {{"player": 2, "pose": {{"x": {}, "y": {}, "yaw": 0}}}},
                          {{"player": 4, "pose": {{"x": {}, "y": -2.5, "yaw": 1}}}}]}}"#,
                    -3.0 + 0.25 * t,
                    (t * 0.7).sin() * 2.5,
                    t * 0.3,
                    (t * 1.3).cos() * 4.0,
                    (t * 0.9).sin() * 2.8,
                    (t * 0.5).cos() * 3.0,
                    1.0 + (t * 0.4).sin(),
                    2.0 - 0.1 * t,
                );
                let mut params = crate::params::Parameters::default();
                params.behavior_node.support.press_weight = press;
                params.behavior_node.voronoi.ball_weight = ball_weight;
                let mut ctx = crate::leaves::test_support::with_params(&frame(&json), params);
                let got = support_pose(&mut ctx).map(|p| p.position);
                assert_eq!(got, support_position_scoring_every_cell(&mut ctx), "{json}");
                cases += usize::from(got.is_some());
            }
        }
        assert!(cases > 90, "{cases} cases with a position");
    }

    proptest::proptest! {
        /// A row's bound is at least the score of each cell of the row.
        #[test]
        fn a_row_bound_is_at_least_every_score_of_the_row(
            weights in (-1.0f64..2.0, -2.0f64..3.0, 0.0f64..2.0, 0.0f64..5.0),
            sigmas in (0.05f64..3.0, 0.05f64..3.0, 0.05f64..3.0),
            support_distance in 0.0f64..4.0,
            points in proptest::array::uniform4((-5.0f64..5.0, -3.5f64..3.5)),
            row in (-3.5f64..3.5, -5.0f64..5.0, 0usize..40),
        ) {
            let mut params = crate::params::Parameters::default();
            let v = &mut params.behavior_node.voronoi;
            (v.forward_weight, v.ball_weight, v.centroid_anchor_weight) =
                (weights.0, weights.1, weights.2);
            (v.ball_support_sigma, v.centroid_anchor_sigma) = (sigmas.0, sigmas.1);
            v.ball_support_distance = support_distance;
            params.behavior_node.support.press_weight = weights.3;
            params.behavior_node.support.press_sigma = sigmas.2;
            let [centroid, ball, press, _] = points.map(|(x, y)| Point2::<Field>::new(x, y));
            let score = SupportScore {
                v: &params.behavior_node.voronoi,
                support: &params.behavior_node.support,
                reach: 5.0,
                side: (ball.x / 5.0).clamp(-1.0, 1.0),
                centroid,
                ball,
                press: (weights.3 > 0.0).then_some(press),
            };
            let (y, x0, cells) = row;
            let xs: Vec<f64> = (0..=cells).map(|k| x0 + 0.2 * k as f64).collect();
            let bound = score.row_bound(y, xs[0], xs[cells]);
            for &x in &xs {
                let s = score.at_least(Point2::new(x, y), f64::NEG_INFINITY).unwrap();
                proptest::prop_assert!(bound >= s, "x {}: bound {} < score {}", x, bound, s);
            }
        }
    }

    #[test]
    fn a_row_far_from_the_ball_and_the_centroid_is_bounded_below_a_good_cell() {
        // With the default weights (no press term), a row in the far corner cannot beat a
        // cell at the ball support distance next to the centroid: the scan passes over it.
        let mut params = crate::params::Parameters::default();
        params.behavior_node.support.press_weight = 0.0;
        let v = &params.behavior_node.voronoi;
        let (ball, centroid) = (Point2::<Field>::new(2.0, 0.0), Point2::new(1.0, 0.5));
        let score = SupportScore {
            v,
            support: &params.behavior_node.support,
            reach: 5.0,
            side: 0.4,
            centroid,
            ball,
            press: None,
        };
        let good = Point2::new(ball.x - v.ball_support_distance, 0.5);
        let good = score.at_least(good, f64::NEG_INFINITY).unwrap();
        let far_row = score.row_bound(-2.9, -4.4, -3.0);
        assert!(far_row < good, "row bound {far_row}, good cell {good}");
    }

    #[test]
    fn any_last_choice_as_the_floor_leaves_the_choice_the_same() {
        // Scenes over the field, each with the last choice set to every fifth cell of the
        // region (the floor is then that cell's score), and with every weight 0 (every score
        // 0: the scan without a floor decides).
        let mut seeded = 0;
        for (press, ball_weight, forward, anchor) in [
            (0.0, 1.0, 0.2, 0.6),
            (3.0, 0.5, 0.2, 0.6),
            (0.0, 0.0, 0.0, 0.0),
        ] {
            for k in 0..10 {
                let t = f64::from(k);
                let json = format!(
                    r#"{{"player_number": 3, "pose": {{"x": {}, "y": {}, "yaw": 0.3}},
                        "ball": {{"x": {}, "y": {}}},
                        "teammate_messages": [
                          {{"player": 2, "pose": {{"x": {}, "y": 1.5, "yaw": 0}}}},
                          {{"player": 4, "pose": {{"x": 2.0, "y": -2.5, "yaw": 1}}}}]}}"#,
                    -3.0 + 0.5 * t,
                    (t * 0.7).sin() * 2.5,
                    (t * 1.3).cos() * 4.0,
                    (t * 0.9).sin() * 2.8,
                    (t * 0.5).cos() * 3.0,
                );
                let mut params = crate::params::Parameters::default();
                params.behavior_node.support.press_weight = press;
                let v = &mut params.behavior_node.voronoi;
                (v.ball_weight, v.forward_weight, v.centroid_anchor_weight) =
                    (ball_weight, forward, anchor);
                let mut ctx = crate::leaves::test_support::with_params(&frame(&json), params);
                ctx.memory.support_best = None;
                let first = support_pose(&mut ctx).map(|p| p.position);
                let want = support_position_scoring_every_cell(&mut ctx);
                assert_eq!(first, want, "{json}");
                let cells = ctx.memory.support_cells.clone();
                for &last in cells.iter().step_by(5) {
                    ctx.memory.support_best = Some(last);
                    let got = support_pose(&mut ctx).map(|p| p.position);
                    assert_eq!(got, want, "{json} last {last:?}");
                    seeded += 1;
                }
            }
        }
        assert!(seeded > 300, "{seeded} choices from a floor");
    }

    #[test]
    fn the_support_cells_follow_the_partition_from_tick_to_tick() {
        // One context through frames that move this robot and its teammates a little (the
        // partition stays, the cells are kept) or across cells (they are read again); every
        // fifth pair of frames perceives no obstacle (the other grid).
        let params = crate::params::Parameters::default();
        let mut ctx = crate::leaves::test_support::with_params(&frame("{}"), params.clone());
        let mut kept = 0;
        let mut without_obstacles = 0;
        let mut last_source = None;
        for k in 0..60 {
            let t = f64::from(k / 2) * 0.37;
            let nudge = f64::from(k % 2) * 0.004;
            let json = format!(
                r#"{{"t": {k}, "player_number": 3, "pose": {{"x": {}, "y": {}, "yaw": 0.4}},
                    "ball": {{"x": {}, "y": 1.0}},
                    "obstacles": [{}],
                    "teammate_messages": [
                      {{"player": 2, "pose": {{"x": {}, "y": 1.5, "yaw": 0}}}},
                      {{"player": 4, "pose": {{"x": 2.0, "y": {}, "yaw": 1}}}}]}}"#,
                -2.0 + t.sin() * 1.5 + nudge,
                t.cos() + nudge,
                (t * 0.7).cos() * 3.0,
                if k / 2 % 5 == 4 {
                    String::new()
                } else {
                    format!(
                        r#"{{"x": {}, "y": -1.0, "radius": 0.4}}"#,
                        (t * 0.3).sin() * 2.0 + nudge
                    )
                },
                -1.0 + t.cos(),
                -2.0 + (t * 1.1).sin(),
            );
            ctx.world.update(&frame(&json), &params);
            let got = support_pose(&mut ctx).map(|p| p.position);
            assert_eq!(got, support_position_scoring_every_cell(&mut ctx), "{json}");
            kept += usize::from(ctx.memory.support_cells_source == last_source);
            without_obstacles += usize::from(ctx.memory.last_partition_without_obstacles);
            last_source = ctx.memory.support_cells_source;
        }
        assert!(kept >= 10, "the cells were kept {kept} times");
        assert!(
            without_obstacles >= 10,
            "{without_obstacles} ticks without obstacles"
        );
    }

    #[test]
    fn a_pressing_supporter_takes_the_cell_of_the_press_point() {
        // Supporter 3 at (0.9, 0), the striker 2 at (2.7, 0) beside the ball at (2.4, 0): the
        // press point 1.2 m towards the own goal, (1.2, 0), is a cell centre of 3's region on
        // a 0.3 m grid (on the 0.2 m one no centre lies on y = 0).
        let json = r#"{"player_number": 3, "pose": {"x": 0.9, "y": 0, "yaw": 0}, "ball": {"x": 2.4, "y": 0},
            "teammate_messages": [{"player": 2, "pose": {"x": 2.7, "y": 0, "yaw": 0}}]}"#;
        let mut params = crate::params::Parameters::default();
        params.behavior_node.voronoi.grid_resolution = 0.3;
        let mut plain = crate::leaves::test_support::with_params(&frame(json), params.clone());
        let without = support_pose(&mut plain).expect("support position");
        params.behavior_node.support.press_weight = 10.0;
        params.behavior_node.support.press_distance = 1.2;
        let mut pressing = crate::leaves::test_support::with_params(&frame(json), params);
        let with = support_pose(&mut pressing).expect("support position");
        assert_eq!(
            pressing.memory.last_partition().owner_at(with.position),
            Some(3)
        );
        assert!(
            (with.position.x - 1.2).abs() < 1e-9 && with.position.y.abs() < 1e-9,
            "{with:?}"
        );
        assert!(with.yaw.abs() < 1e-9, "faces the ball: {with:?}");
        assert!(
            without.position.distance(with.position) > 0.5,
            "without the press point the supporter stands elsewhere: {without:?}"
        );
    }

    #[test]
    fn search_arrival_uses_the_cell_size_with_a_lower_bound() {
        let at = |target: f64, cell: &str| {
            let ctx = context(&frame(&format!(
                r#"{{"pose": {{"x": 0, "y": 0, "yaw": 0}}, "search_target": [{target}, 0], "search_cell_size": {cell}}}"#
            )));
            search_pose(&ctx).is_some()
        };
        // max(0.5 * 0.5, 0.2) = 0.25 m
        assert!(at(0.26, "[0.5, 0.6]"));
        assert!(!at(0.25, "[0.5, 0.6]"));
        // No cell size: the 0.2 m lower bound.
        assert!(at(0.21, "null"));
        assert!(!at(0.2, "null"));
        // Small cells: the lower bound wins.
        assert!(!at(0.19, "[0.2, 0.2]"));
    }
}
