//! The search suggestor against its documented behaviour (`docs/src/commands/soccer-heatmap.md`):
//! one test per behaviour, driving [`SearchSuggestor::update`] with frames built in code.
//!
//! Conventions: the default parameters and the default 9 m x 6 m field (goal box 1.0 x 3.0), an
//! 18 x 12 grid of 0.5 m cells. Frames without a pose do no own observation; frames at the same
//! time as the previous one (elapsed 0) neither grow nor decay, which lets a test set the map
//! with the `set_values` hook and then look at one step in isolation.

use super::suggestor::least_turn;
use super::*;
use crate::frame::{ObstacleJson, PoseJson, SubState, Team};
use crate::params::{FieldDimensions, SearchSuggestorParameters};
use geometry::{Field, Point2, Pose2};
use std::f64::consts::{LN_2, PI};

const EPS: f64 = 1e-12;

fn defaults() -> SearchSuggestorParameters {
    SearchSuggestorParameters::default()
}

fn suggestor() -> SearchSuggestor {
    with(defaults())
}

fn with(p: SearchSuggestorParameters) -> SearchSuggestor {
    SearchSuggestor::new(p, FieldDimensions::default())
}

/// A playing frame at `t` without a pose (no own view, no target).
fn frame(t: f64) -> HeatmapFrame {
    HeatmapFrame {
        t,
        pose: None,
        ..Default::default()
    }
}

/// A playing frame at `t` with the robot at `(x, y, yaw)`.
fn posed(t: f64, x: f64, y: f64, yaw: f64) -> HeatmapFrame {
    HeatmapFrame {
        t,
        pose: Some(PoseJson { x, y, yaw }),
        ..Default::default()
    }
}

/// A pose that sees no cell: on the own goal line, looking out of the field.
fn blind(t: f64) -> HeatmapFrame {
    posed(t, -4.5, 0.0, PI)
}

fn in_state(mut f: HeatmapFrame, state: GameStateName) -> HeatmapFrame {
    f.game = Some(HeatmapGame {
        state,
        ..Default::default()
    });
    f
}

fn restart(mut f: HeatmapFrame, sub_state: SubState, kicking_team: Option<Team>) -> HeatmapFrame {
    f.game = Some(HeatmapGame {
        state: GameStateName::Playing,
        sub_state: Some(sub_state),
        kicking_team,
        penalized: Vec::new(),
    });
    f
}

fn ball(mut f: HeatmapFrame, x: f64, y: f64, age: f64) -> HeatmapFrame {
    f.ball = Some(AgedBall { x, y, age });
    f
}

fn mate(player: u8, t: f64, x: f64, y: f64, yaw: f64, head_yaw: f64) -> TeammateState {
    TeammateState {
        player,
        t,
        pose: Some(PoseJson { x, y, yaw }),
        head_yaw,
        ball: None,
    }
}

fn with_mates(mut f: HeatmapFrame, mates: Vec<TeammateState>) -> HeatmapFrame {
    f.teammates = mates;
    f
}

fn run(s: &mut SearchSuggestor, f: HeatmapFrame) {
    s.update(&f).expect("frame accepted");
}

fn p(x: f64, y: f64) -> Point2<Field> {
    Point2::new(x, y)
}

fn cell(s: &SearchSuggestor, x: f64, y: f64) -> usize {
    s.map().cell_of(p(x, y))
}

fn value(s: &SearchSuggestor, x: f64, y: f64) -> f64 {
    s.map().values[cell(s, x, y)]
}

fn values(s: &SearchSuggestor) -> Vec<f64> {
    s.map().values.clone()
}

fn target(s: &SearchSuggestor) -> Option<[f64; 2]> {
    s.output(0.0).target
}

fn fallback(s: &SearchSuggestor) -> bool {
    s.output(0.0).fallback
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < EPS, "{what}: {a} != {b}");
}

fn assert_target(s: &SearchSuggestor, expected: [f64; 2]) {
    let t = target(s).expect("a target");
    assert!(
        (t[0] - expected[0]).abs() < EPS && (t[1] - expected[1]).abs() < EPS,
        "target {t:?}, expected {expected:?}"
    );
}

/// The documented decay factor of `cell` seen from `from` looking along `view` for `dt`
/// seconds with weight `w` (1 when the cell is not visible).
fn view_factor(
    params: &SearchSuggestorParameters,
    from: Point2<Field>,
    view: f64,
    cell: Point2<Field>,
    dt: f64,
    w: f64,
) -> f64 {
    let (dx, dy) = (cell.x - from.x, cell.y - from.y);
    let d = dx.hypot(dy);
    let [near, far] = params.observation_distance_range;
    if d < near || d > far {
        return 1.0;
    }
    let mut off = dy.atan2(dx) - view;
    while off > PI {
        off -= 2.0 * PI;
    }
    while off <= -PI {
        off += 2.0 * PI;
    }
    if off.abs() > params.view_half_angle {
        return 1.0;
    }
    let half_life = params.observation_half_life_near
        + (params.observation_half_life_far - params.observation_half_life_near) * (d - near)
            / (far - near);
    (-LN_2 * dt * w / half_life).exp()
}

// ---------------------------------------------------------------------------------------------
// The grid

#[test]
fn eighteen_cells_along_nine_metres_make_18_by_12_cells_of_half_a_metre() {
    let mut s = suggestor();
    run(&mut s, frame(0.0));
    let out = s.output(0.0);
    assert_eq!(
        (
            out.grid.cells_x,
            out.grid.cells_y,
            out.grid.cell_length,
            out.grid.cell_width
        ),
        (18, 12, 0.5, 0.5)
    );
    assert_eq!(out.values.len(), 18 * 12);
    assert_eq!(out.cell_size, [0.5, 0.5]);
    // Cell (0, 0) has its corner at (-4.5, -3); index = iy * cells_x + ix.
    assert_eq!(cell(&s, -4.4, -2.9), 0);
    assert_eq!(cell(&s, -3.9, -2.9), 1);
    assert_eq!(cell(&s, -4.4, -2.4), 18);
    let c = s.map().center(18 * 12 - 1);
    assert_eq!((c.x, c.y), (4.25, 2.75));
}

#[test]
fn odd_cell_counts_round_the_transverse_count_and_cover_the_field_exactly() {
    for n in [1u32, 7, 13, 17, 19, 25] {
        let s = with(SearchSuggestorParameters {
            cells_along_field_length: n,
            ..defaults()
        });
        let g = s.output(0.0).grid;
        let cells_y = ((f64::from(n) * 6.0 / 9.0).round() as usize).max(1);
        assert_eq!((g.cells_x, g.cells_y), (n as usize, cells_y), "n = {n}");
        close(g.cell_length * g.cells_x as f64, 9.0, "length covered");
        close(g.cell_width * g.cells_y as f64, 6.0, "width covered");
        assert_eq!(s.output(0.0).values.len(), g.cells_x * g.cells_y);
    }
    // 7 -> round(4.67) = 5 cells of 9/7 x 6/5 m: not square, but the field is covered exactly.
    let s = with(SearchSuggestorParameters {
        cells_along_field_length: 7,
        ..defaults()
    });
    assert_eq!(s.output(0.0).cell_size, [9.0 / 7.0, 6.0 / 5.0]);
    // A field so narrow that the rounded count is 0 still has one row.
    let narrow = FieldDimensions {
        width: 1.0,
        ..FieldDimensions::default()
    };
    let s = SearchSuggestor::new(
        SearchSuggestorParameters {
            cells_along_field_length: 1,
            ..defaults()
        },
        narrow,
    );
    assert_eq!(s.output(0.0).grid.cells_y, 1);
}

#[test]
fn the_map_starts_at_zero() {
    let mut s = suggestor();
    assert!(s.output(0.0).values.iter().all(|v| *v == 0.0));
    // The first frame has elapsed 0, even at a late time.
    run(&mut s, frame(100.0));
    assert!(values(&s).iter().all(|v| *v == 0.0));
}

// ---------------------------------------------------------------------------------------------
// Growth

#[test]
fn uniform_growth_adds_elapsed_over_unseen_priority_rise_time_while_playing() {
    let mut s = suggestor();
    run(&mut s, frame(0.0));
    run(&mut s, frame(3.0));
    assert!(values(&s).iter().all(|v| (v - 0.1).abs() < EPS));
    run(&mut s, frame(4.5));
    assert!(values(&s).iter().all(|v| (v - 0.15).abs() < EPS));
}

#[test]
fn there_is_no_growth_outside_playing() {
    for state in [
        GameStateName::Initial,
        GameStateName::Ready,
        GameStateName::Set,
        GameStateName::Finished,
    ] {
        let mut s = suggestor();
        run(&mut s, in_state(frame(0.0), state));
        let mut f = in_state(frame(3.0), state);
        f.rule_balls = vec![[0.1, 0.1]];
        run(&mut s, f);
        assert!(values(&s).iter().all(|v| *v == 0.0), "{state:?}");
    }
    let mut s = suggestor();
    run(
        &mut s,
        HeatmapFrame {
            game: None,
            ..frame(0.0)
        },
    );
    run(
        &mut s,
        HeatmapFrame {
            game: None,
            ..frame(3.0)
        },
    );
    assert!(values(&s).iter().all(|v| *v == 0.0), "no game");
}

#[test]
fn there_is_no_growth_while_a_current_ball_exists() {
    let mut s = suggestor();
    run(&mut s, ball(frame(0.0), 0.1, 0.1, 0.0));
    let before = values(&s);
    let mut f = ball(frame(3.0), 0.1, 0.1, 0.0);
    f.rule_balls = vec![[-3.0, -2.0]];
    run(&mut s, f);
    assert_eq!(values(&s), before);
    assert_eq!(value(&s, -4.0, -2.5), 0.0);
    assert_eq!(value(&s, -3.0, -2.0), 0.0);
}

#[test]
fn last_ball_extra_growth_has_half_distance_initial_plus_spread_times_age() {
    // Only the ball's own cell is raised (radius 0.01), so every other cell shows the growth.
    let params = SearchSuggestorParameters {
        observed_ball_radius: 0.01,
        ..defaults()
    };
    let mut s = with(params.clone());
    run(&mut s, ball(frame(0.0), 0.1, 0.1, 0.0));
    run(&mut s, frame(2.0));
    let own = cell(&s, 0.1, 0.1);
    assert_eq!(s.map().values[own], 1.0);
    let (age, elapsed) = (2.0, 2.0);
    let h = 0.5 + 0.5 * age; // 1.5 m
    for c in (0..s.map().len()).filter(|c| *c != own) {
        let d = s.map().center(c).distance(p(0.1, 0.1));
        let expected = elapsed / 30.0 + (elapsed / 5.0) * (-(d / h).powi(2)).exp2() * (1.0 - 0.2);
        close(s.map().values[c], expected, "last-ball growth");
    }
    // Fastest around the last position.
    assert!(value(&s, 0.6, 0.1) > value(&s, 3.1, 0.1));
}

#[test]
fn last_ball_age_counts_from_its_observation_time() {
    let params = SearchSuggestorParameters {
        observed_ball_radius: 0.01,
        ..defaults()
    };
    let mut s = with(params);
    // Seen at t = 10 with age 4: observed at t = 6.
    run(&mut s, ball(frame(10.0), 0.1, 0.1, 4.0));
    run(&mut s, frame(12.0));
    let (age, elapsed) = (6.0, 2.0);
    let h = 0.5 + 0.5 * age;
    let weight = 1.0 - age / 10.0;
    let own = cell(&s, 0.1, 0.1);
    for c in (0..s.map().len()).filter(|c| *c != own) {
        let d = s.map().center(c).distance(p(0.1, 0.1));
        let expected = elapsed / 30.0 + (elapsed / 5.0) * (-(d / h).powi(2)).exp2() * weight;
        close(s.map().values[c], expected, "aged last ball");
    }
}

#[test]
fn last_ball_extra_growth_ends_at_the_fade_time() {
    let params = SearchSuggestorParameters {
        observed_ball_radius: 0.01,
        ..defaults()
    };
    let mut s = with(params);
    run(&mut s, ball(frame(0.0), 0.1, 0.1, 0.0));
    run(&mut s, frame(4.0));
    let at_4 = values(&s);
    // From t = 10 (age 10 = the fade time) on, only the uniform growth remains.
    run(&mut s, frame(10.0));
    run(&mut s, frame(13.0));
    let own = cell(&s, 0.1, 0.1);
    let at_10_to_13: Vec<f64> = values(&s);
    for c in (0..s.map().len()).filter(|c| *c != own) {
        // 4 -> 10 is weighted at age 10 (weight 0), 10 -> 13 too.
        close(
            at_10_to_13[c],
            at_4[c] + 9.0 / 30.0,
            "uniform only after the fade",
        );
    }
}

#[test]
fn a_zero_fade_time_disables_the_last_ball_growth() {
    let params = SearchSuggestorParameters {
        observed_ball_radius: 0.01,
        last_ball_priority_fade_time: 0.0,
        ..defaults()
    };
    let mut s = with(params);
    run(&mut s, ball(frame(0.0), 0.1, 0.1, 0.0));
    run(&mut s, frame(1.0));
    let own = cell(&s, 0.1, 0.1);
    for c in (0..s.map().len()).filter(|c| *c != own) {
        close(s.map().values[c], 1.0 / 30.0, "uniform growth only");
    }
}

#[test]
fn rule_balls_gain_elapsed_over_rule_priority_rise_time_in_their_cell() {
    let mut s = suggestor();
    run(&mut s, frame(0.0));
    let mut f = frame(2.5);
    // The second hypothesis is outside the field: ignored like every off-field ball position
    // ("ball positions outside the field are ignored").
    f.rule_balls = vec![[0.1, 0.1], [-3.1, -2.1], [5.0, 0.0]];
    run(&mut s, f);
    let marked = [cell(&s, 0.1, 0.1), cell(&s, -3.1, -2.1)];
    for c in 0..s.map().len() {
        let expected = 2.5 / 30.0 + if marked.contains(&c) { 2.5 / 5.0 } else { 0.0 };
        close(s.map().values[c], expected, "rule growth");
    }
}

// ---------------------------------------------------------------------------------------------
// The ball

#[test]
fn an_observed_ball_raises_cells_within_the_radius_without_clearing_the_rest() {
    let mut s = suggestor();
    run(&mut s, frame(0.0));
    s.set_values(|_| 0.3);
    run(&mut s, ball(frame(0.0), 0.1, 0.1, 0.0));
    let own = cell(&s, 0.1, 0.1);
    let mut raised = 0;
    for c in 0..s.map().len() {
        let d = s.map().center(c).distance(p(0.1, 0.1));
        let expected = if c == own {
            1.0
        } else if d <= 1.0 {
            0.3f64.max(1.0 - d)
        } else {
            0.3
        };
        if expected > 0.3 {
            raised += 1;
        }
        close(s.map().values[c], expected, "raise");
    }
    assert!(raised > 1);
}

#[test]
fn an_observed_balls_own_cell_becomes_one_whatever_the_radius() {
    let mut s = with(SearchSuggestorParameters {
        observed_ball_radius: 0.05,
        ..defaults()
    });
    run(&mut s, ball(frame(0.0), 0.45, 0.45, 0.0)); // 0.28 m from its cell's centre
    assert_eq!(value(&s, 0.45, 0.45), 1.0);
    assert_eq!(values(&s).iter().filter(|v| **v != 0.0).count(), 1);
}

#[test]
fn a_ball_outside_the_field_is_neither_a_current_ball_nor_a_last_ball() {
    let mut s = suggestor();
    run(&mut s, ball(blind(0.0), 4.6, 0.0, 0.0));
    assert!(values(&s).iter().all(|v| *v == 0.0), "nothing raised");
    // Not a current ball: the growth goes on, uniform (no last ball), and no ball target.
    run(&mut s, ball(blind(3.0), 0.0, -3.1, 0.0));
    assert!(values(&s).iter().all(|v| (v - 0.1).abs() < EPS));
    assert_eq!(target(&s), None);
    // Not a local ball sighting either: no fallback after exhausted_search_delay.
    run(&mut s, blind(5.5));
    assert_eq!((target(&s), fallback(&s)), (None, false));
}

#[test]
fn a_ball_on_the_field_boundary_is_on_the_field() {
    // |x| > length/2 is outside: x = length/2 is still inside.
    let mut s = suggestor();
    run(&mut s, ball(frame(0.0), 4.5, 0.1, 0.0));
    assert_eq!(value(&s, 4.4, 0.1), 1.0);
}

#[test]
fn hypothetical_balls_set_their_cell_to_the_mean_of_value_and_weighted_validity_in_order() {
    let mut s = with(SearchSuggestorParameters {
        hypothetical_ball_weight: 0.5,
        ..defaults()
    });
    run(&mut s, frame(0.0));
    s.set_values(|_| 0.6);
    let mut f = frame(0.0);
    f.hypothetical_balls = vec![
        HypotheticalBall {
            x: 0.1,
            y: 0.1,
            validity: 0.8,
        },
        HypotheticalBall {
            x: 0.2,
            y: 0.3,
            validity: 0.0,
        },
        HypotheticalBall {
            x: -2.1,
            y: 1.1,
            validity: 1.0,
        },
        HypotheticalBall {
            x: 0.0,
            y: 3.5,
            validity: 1.0,
        }, // outside: ignored
    ];
    run(&mut s, f);
    // (0.6 + 0.4) / 2 = 0.5, then (0.5 + 0) / 2 = 0.25 in the same cell, in the order given.
    close(value(&s, 0.1, 0.1), 0.25, "two hypotheses in one cell");
    close(value(&s, -2.1, 1.1), 0.55, "weighted validity");
    let touched = [cell(&s, 0.1, 0.1), cell(&s, -2.1, 1.1)];
    for c in (0..s.map().len()).filter(|c| !touched.contains(c)) {
        close(s.map().values[c], 0.6, "untouched");
    }
}

#[test]
fn values_are_clamped_to_zero_and_one() {
    let mut s = with(SearchSuggestorParameters {
        hypothetical_ball_weight: 4.0,
        ..defaults()
    });
    run(&mut s, frame(0.0));
    run(&mut s, frame(60.0)); // +2 everywhere
    assert!(values(&s).iter().all(|v| *v == 1.0));
    let mut s2 = with(SearchSuggestorParameters {
        hypothetical_ball_weight: 4.0,
        ..defaults()
    });
    run(&mut s2, frame(0.0));
    let mut f = frame(0.0);
    f.hypothetical_balls = vec![HypotheticalBall {
        x: 0.1,
        y: 0.1,
        validity: 1.0,
    }];
    run(&mut s2, f); // (0 + 4) / 2 = 2
    assert_eq!(value(&s2, 0.1, 0.1), 1.0);
}

// ---------------------------------------------------------------------------------------------
// Entering playing

/// A map in set with values 0.4 .. 0.9 growing with x (mean 0.65).
fn high_map_in_set() -> SearchSuggestor {
    let mut s = suggestor();
    run(&mut s, in_state(frame(0.0), GameStateName::Set));
    s.set_values(|c| 0.4 + 0.5 * (c.x + 4.5) / 9.0);
    s
}

#[test]
fn entering_playing_scales_a_map_above_the_mean_limit_by_limit_over_mean() {
    let mut s = high_map_in_set();
    let before = values(&s);
    let mean = before.iter().sum::<f64>() / before.len() as f64;
    assert!(mean > 0.5);
    run(&mut s, frame(0.0));
    let after = values(&s);
    for (a, b) in after.iter().zip(&before) {
        close(*a, b * 0.5 / mean, "scaled");
    }
    close(
        after.iter().sum::<f64>() / after.len() as f64,
        0.5,
        "new mean",
    );
    // Differences between cells are preserved: the order and the ratios stay.
    close(after[17] / after[0], before[17] / before[0], "ratio");
}

#[test]
fn the_mean_rule_applies_only_on_entering_playing() {
    let mut s = high_map_in_set();
    run(&mut s, frame(0.0));
    s.set_values(|_| 0.9);
    run(&mut s, frame(0.0)); // still playing: no scaling
    assert!(values(&s).iter().all(|v| *v == 0.9));
    // Again after a pause in ready.
    run(&mut s, in_state(frame(0.0), GameStateName::Ready));
    run(&mut s, frame(0.0));
    assert!(values(&s).iter().all(|v| (v - 0.5).abs() < EPS));
}

#[test]
fn a_map_whose_mean_does_not_exceed_the_limit_is_not_scaled() {
    let mut s = suggestor();
    run(&mut s, in_state(frame(0.0), GameStateName::Set));
    s.set_values(|c| if c.x < 0.0 { 0.2 } else { 0.8 }); // mean 0.5
    let before = values(&s);
    run(&mut s, frame(0.0));
    assert_eq!(values(&s), before);
}

// ---------------------------------------------------------------------------------------------
// Restarts

/// Nonzero cells, as `(ix, iy)`.
fn kept(s: &SearchSuggestor) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = (0..s.map().len())
        .filter(|c| s.map().values[*c] != 0.0)
        .map(|c| s.map().coords(c))
        .collect();
    v.sort();
    v
}

/// Runs one restart frame on a map of 0.3 with a raised ball area (earlier priorities).
fn after_restart(
    params: SearchSuggestorParameters,
    sub_state: SubState,
    kicking_team: Option<Team>,
) -> SearchSuggestor {
    let mut s = with(params);
    run(&mut s, frame(0.0));
    s.set_values(|c| if c.x.abs() < 1.0 { 1.0 } else { 0.3 });
    run(&mut s, restart(frame(0.0), sub_state, kicking_team));
    s
}

#[test]
fn a_corner_kick_keeps_the_two_corner_cells_at_the_defending_teams_goal_line() {
    // Our corner kick: the opponent defends the +x goal line.
    let s = after_restart(defaults(), SubState::CornerKick, Some(Team::Own));
    assert_eq!(kept(&s), vec![(17, 0), (17, 11)]);
    let s = after_restart(defaults(), SubState::CornerKick, Some(Team::Opponent));
    assert_eq!(kept(&s), vec![(0, 0), (0, 11)]);
    let s = after_restart(defaults(), SubState::CornerKick, None);
    assert_eq!(kept(&s), vec![(0, 0), (0, 11), (17, 0), (17, 11)]);
    assert_eq!(s.map().values[0], 0.3, "the kept cells keep their value");
}

#[test]
fn a_goal_kick_keeps_the_cells_of_the_goal_box_front_corners_in_the_kicking_teams_half() {
    // Ambiguity: with 0.5 m cells the corners (±3.5, ±1.5) lie on cell boundaries. We take the
    // cell inside the goal box, so that the two corners of one goal kick, and the own and the
    // opponent goal kick, are mirror images of each other (the "larger index" rule of
    // resampling would keep (2, 3) and (2, 9): one cell in the box, one beside it).
    let s = after_restart(defaults(), SubState::GoalKick, Some(Team::Own));
    assert_eq!(kept(&s), vec![(1, 3), (1, 8)]);
    let s = after_restart(defaults(), SubState::GoalKick, Some(Team::Opponent));
    assert_eq!(kept(&s), vec![(16, 3), (16, 8)]);
    let s = after_restart(defaults(), SubState::GoalKick, None);
    assert_eq!(kept(&s), vec![(1, 3), (1, 8), (16, 3), (16, 8)]);
    // Off the boundaries: 10 x 7 cells of 0.9 x 0.857 m.
    let ten = SearchSuggestorParameters {
        cells_along_field_length: 10,
        ..defaults()
    };
    let s = after_restart(ten.clone(), SubState::GoalKick, Some(Team::Own));
    assert_eq!(kept(&s), vec![(1, 1), (1, 5)]);
    let s = after_restart(ten, SubState::GoalKick, Some(Team::Opponent));
    assert_eq!(kept(&s), vec![(8, 1), (8, 5)]);
}

#[test]
fn a_throw_in_keeps_both_touchline_rows() {
    let s = after_restart(defaults(), SubState::ThrowIn, Some(Team::Own));
    let expected: Vec<(usize, usize)> = {
        let mut v: Vec<_> = (0..18).flat_map(|ix| [(ix, 0), (ix, 11)]).collect();
        v.sort();
        v
    };
    assert_eq!(kept(&s), expected);
}

#[test]
fn other_sub_states_clear_nothing() {
    for sub in [
        SubState::FreeKick,
        SubState::PenaltyKick,
        SubState::PushingFreeKick,
    ] {
        let s = after_restart(defaults(), sub, Some(Team::Own));
        assert_eq!(kept(&s).len(), 18 * 12, "{sub:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Own observation

/// A set-state suggestor (no growth) with every cell at 0.6, last frame at t = 0.
fn flat_in_set(params: SearchSuggestorParameters) -> SearchSuggestor {
    let mut s = with(params);
    run(&mut s, in_state(frame(0.0), GameStateName::Set));
    s.set_values(|_| 0.6);
    s
}

#[test]
fn a_visible_cell_decays_with_the_half_life_interpolated_over_its_distance() {
    let params = defaults();
    let mut s = flat_in_set(params.clone());
    run(
        &mut s,
        in_state(posed(1.5, 0.0, 0.0, 0.3), GameStateName::Set),
    );
    let mut decayed = 0;
    for c in 0..s.map().len() {
        let factor = view_factor(&params, p(0.0, 0.0), 0.3, s.map().center(c), 1.5, 1.0);
        if factor < 1.0 {
            decayed += 1;
        }
        close(s.map().values[c], 0.6 * factor, "decay");
    }
    assert!(decayed > 10);
    // One cell by hand: (1.25, 0.25) at d = 1.2748 m, half-life 0.5 + 1.5 * (d - 0.3) / 2.7.
    let d = 1.25f64.hypot(0.25);
    let half_life = 0.5 + 1.5 * (d - 0.3) / 2.7;
    close(
        value(&s, 1.25, 0.25),
        0.6 * (-LN_2 * 1.5 / half_life).exp(),
        "by hand",
    );
}

#[test]
fn the_view_is_centred_on_body_yaw_plus_head_yaw() {
    let mut s = flat_in_set(defaults());
    let mut f = in_state(posed(1.0, 0.0, 0.0, 0.0), GameStateName::Set);
    f.head_yaw = PI / 2.0;
    run(&mut s, f);
    assert!(value(&s, 0.25, 1.25) < 0.6, "left is seen");
    assert_eq!(value(&s, 1.25, 0.25), 0.6, "ahead of the body is not");
}

#[test]
fn cells_nearer_or_farther_than_the_range_or_outside_the_view_do_not_decay() {
    let params = defaults();
    let mut s = flat_in_set(params.clone());
    run(
        &mut s,
        in_state(posed(1.0, 0.25, 0.25, 0.0), GameStateName::Set),
    );
    assert_eq!(value(&s, 0.25, 0.25), 0.6, "own cell, d = 0 < 0.3");
    assert_eq!(value(&s, 3.75, 0.25), 0.6, "d = 3.5 > 3.0");
    assert_eq!(value(&s, -1.25, 0.25), 0.6, "behind");
    assert_eq!(value(&s, 0.25, 2.25), 0.6, "beside, 90 degrees off");
    // The range's ends are inside: d = 3.0 decays with the far half-life.
    close(
        value(&s, 3.25, 0.25),
        0.6 * (-LN_2 * 1.0 / 2.0f64).exp(),
        "d = 3.0",
    );
    close(
        value(&s, 1.25, 0.25),
        0.6 * view_factor(&params, p(0.25, 0.25), 0.0, p(1.25, 0.25), 1.0, 1.0),
        "d = 1.0",
    );
    // Without a pose nothing is observed.
    let mut s = flat_in_set(params);
    run(&mut s, in_state(frame(1.0), GameStateName::Set));
    assert!(values(&s).iter().all(|v| *v == 0.6));
}

#[test]
fn a_cell_hidden_behind_an_obstacle_decays_with_the_occluded_weight() {
    let params = defaults();
    let mut s = flat_in_set(params.clone());
    let mut f = in_state(posed(1.0, 0.25, 0.25, 0.0), GameStateName::Set);
    f.obstacles = vec![ObstacleJson {
        x: 1.0,
        y: 0.25,
        radius: 0.1,
    }];
    run(&mut s, f);
    let from = p(0.25, 0.25);
    close(
        value(&s, 1.75, 0.25),
        0.6 * view_factor(&params, from, 0.0, p(1.75, 0.25), 1.0, 0.1),
        "hidden: weight 0.1",
    );
    close(
        value(&s, 0.75, 0.25),
        0.6 * view_factor(&params, from, 0.0, p(0.75, 0.25), 1.0, 1.0),
        "in front of the obstacle: weight 1",
    );
    close(
        value(&s, 1.75, 0.75),
        0.6 * view_factor(&params, from, 0.0, p(1.75, 0.75), 1.0, 1.0),
        "beside the obstacle: weight 1",
    );
}

// ---------------------------------------------------------------------------------------------
// Teammate replay (own pose null, state set: only the replay changes the map)

fn set_frame(t: f64, mates: Vec<TeammateState>) -> HeatmapFrame {
    with_mates(in_state(frame(t), GameStateName::Set), mates)
}

/// The map after the replay of `samples` (position, view yaw, duration) with weight `w`.
fn replayed(
    params: &SearchSuggestorParameters,
    s: &SearchSuggestor,
    samples: &[(Point2<Field>, f64, f64)],
    w: f64,
) -> Vec<f64> {
    (0..s.map().len())
        .map(|c| {
            samples.iter().fold(0.6, |v, (at, view, dt)| {
                v * view_factor(params, *at, *view, s.map().center(c), *dt, w)
            })
        })
        .collect()
}

fn assert_map(actual: &[f64], expected: &[f64], what: &str) {
    for (c, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!((a - e).abs() < EPS, "{what}: cell {c}: {a} != {e}");
    }
}

#[test]
fn a_teammate_gap_is_replayed_in_equal_steps_sampled_at_their_middles() {
    let params = defaults();
    let mut s = flat_in_set(params.clone());
    run(
        &mut s,
        set_frame(1.0, vec![mate(3, 1.0, -2.0, -2.75, PI / 2.0, 0.0)]),
    );
    run(
        &mut s,
        set_frame(1.5, vec![mate(3, 1.5, 2.0, -2.75, PI / 2.0, 0.3)]),
    );
    // n = ceil(0.5 / 0.2) = 3 steps of 1/6 s, at s = 1/6, 1/2, 5/6.
    let samples: Vec<_> = [1.0, 3.0, 5.0]
        .iter()
        .map(|k| {
            let s = k / 6.0;
            (p(-2.0 + 4.0 * s, -2.75), PI / 2.0 + 0.3 * s, 0.5 / 3.0)
        })
        .collect();
    let expected = replayed(&params, &s, &samples, 0.5);
    assert_map(&values(&s), &expected, "replay");
    assert!(expected.iter().any(|v| *v < 0.6));
}

#[test]
fn a_decimal_gap_of_exactly_n_steps_is_n_steps() {
    // 1.6 - 1.0 = 0.6000000000000001 and / 0.2 = 3.0000000000000004: still 3 steps, like the
    // other durations of the profile, which meet their limits within 1e-9.
    let params = defaults();
    let mut s = flat_in_set(params.clone());
    run(
        &mut s,
        set_frame(1.0, vec![mate(4, 1.0, -2.0, -2.75, PI / 2.0, 0.0)]),
    );
    run(
        &mut s,
        set_frame(1.6, vec![mate(4, 1.6, 2.0, -2.75, PI / 2.0, 0.0)]),
    );
    let samples: Vec<_> = [1.0, 3.0, 5.0]
        .iter()
        .map(|k| (p(-2.0 + 4.0 * k / 6.0, -2.75), PI / 2.0, 0.6 / 3.0))
        .collect();
    assert_map(
        &values(&s),
        &replayed(&params, &s, &samples, 0.5),
        "3 steps",
    );
}

#[test]
fn a_teammates_yaw_is_interpolated_the_shorter_way() {
    let params = defaults();
    let mut s = flat_in_set(params.clone());
    run(
        &mut s,
        set_frame(1.0, vec![mate(3, 1.0, 0.25, 0.25, 3.0, 0.0)]),
    );
    run(
        &mut s,
        set_frame(1.4, vec![mate(3, 1.4, 0.25, 0.25, -3.0, 0.0)]),
    );
    // Through pi: 3.0 + (2 pi - 6) * s.
    let turn = 2.0 * PI - 6.0;
    let samples = [
        (p(0.25, 0.25), 3.0 + turn * 0.25, 0.2),
        (p(0.25, 0.25), 3.0 + turn * 0.75, 0.2),
    ];
    assert_map(
        &values(&s),
        &replayed(&params, &s, &samples, 0.5),
        "shorter way",
    );
    assert!(value(&s, -1.25, 0.25) < 0.6, "behind (yaw pi) is seen");
    assert_eq!(
        value(&s, 1.25, 0.25),
        0.6,
        "ahead (the long way, yaw 0) is not"
    );
}

#[test]
fn a_teammates_first_state_replays_nothing_and_each_state_is_replayed_once() {
    let params = defaults();
    let mut s = flat_in_set(params.clone());
    run(
        &mut s,
        set_frame(1.0, vec![mate(3, 1.0, 0.25, 0.25, 0.0, 0.0)]),
    );
    assert!(values(&s).iter().all(|v| *v == 0.6), "first state");
    run(
        &mut s,
        set_frame(1.2, vec![mate(3, 1.2, 0.25, 0.25, 0.0, 0.0)]),
    );
    let once = values(&s);
    assert!(once.iter().any(|v| *v < 0.6));
    run(
        &mut s,
        set_frame(1.4, vec![mate(3, 1.2, 0.25, 0.25, 0.0, 0.0)]),
    );
    assert_eq!(values(&s), once, "the same state again");
}

#[test]
fn teammates_are_not_replayed_without_a_message_interval() {
    let mut s = flat_in_set(defaults());
    for t in [1.0, 1.2, 1.4] {
        let mut f = set_frame(t, vec![mate(3, t, 0.25, 0.25, 0.0, 0.0)]);
        f.message_interval = None;
        run(&mut s, f);
    }
    assert!(values(&s).iter().all(|v| *v == 0.6));
}

#[test]
fn stale_teammate_states_are_not_replayed() {
    let mut s = flat_in_set(defaults());
    run(
        &mut s,
        set_frame(1.0, vec![mate(3, 1.0, 0.25, 0.25, 0.0, 0.0)]),
    );
    // t - their t = 3.1 > 3.0
    run(
        &mut s,
        set_frame(4.3, vec![mate(3, 1.2, 0.25, 0.25, 0.0, 0.0)]),
    );
    assert!(values(&s).iter().all(|v| *v == 0.6));
}

#[test]
fn a_teammate_state_exactly_one_message_interval_old_is_fresh() {
    // 4.4 - 1.4 = 3.0000000000000004: still within the interval (tolerance 1e-9, like the
    // teammate ages of the behaviour).
    let mut s = flat_in_set(defaults());
    run(
        &mut s,
        set_frame(1.2, vec![mate(3, 1.2, 0.25, 0.25, 0.0, 0.0)]),
    );
    run(
        &mut s,
        set_frame(4.4, vec![mate(3, 1.4, 0.25, 0.25, 0.0, 0.0)]),
    );
    assert!(values(&s).iter().any(|v| *v < 0.6));
}

#[test]
fn penalized_teammates_are_not_replayed() {
    let mut s = flat_in_set(defaults());
    for t in [1.0, 1.2, 1.4] {
        let mut f = set_frame(t, vec![mate(3, t, 0.25, 0.25, 0.0, 0.0)]);
        f.game.as_mut().unwrap().penalized = vec![3];
        run(&mut s, f);
    }
    assert!(values(&s).iter().all(|v| *v == 0.6));
}

#[test]
fn a_zero_teammate_observation_weight_disables_replay() {
    let mut s = flat_in_set(SearchSuggestorParameters {
        teammate_observation_weight: 0.0,
        ..defaults()
    });
    for t in [1.0, 1.2, 1.4] {
        run(&mut s, set_frame(t, vec![mate(3, t, 0.25, 0.25, 0.0, 0.0)]));
    }
    assert!(values(&s).iter().all(|v| *v == 0.6));
}

// ---------------------------------------------------------------------------------------------
// Region and selection (maps set by hand, frames at elapsed 0: no growth, no decay)

/// A suggestor whose map is `value(cell centre)`, ready for a frame at t = 0.
fn mapped(
    params: SearchSuggestorParameters,
    value: impl Fn(Point2<Field>) -> f64,
) -> SearchSuggestor {
    let mut s = with(params);
    run(&mut s, frame(0.0));
    s.set_values(value);
    s
}

fn rising_with_x(c: Point2<Field>) -> f64 {
    0.3 + 0.05 * (c.x + 4.5)
}

fn no_margin() -> SearchSuggestorParameters {
    SearchSuggestorParameters {
        turn_preference_margin: 0.0,
        ..defaults()
    }
}

#[test]
fn a_field_players_region_is_its_voronoi_cell_against_fresh_teammates() {
    // Alone, the best cell is x = 3.75 (x = 4.25 loses the border penalty); with a fresh
    // teammate at (2, 0) only the cells nearer to (-2, 0) count: x = -0.25.
    let mut s = mapped(no_margin(), rising_with_x);
    run(&mut s, posed(0.0, -2.0, 0.0, 0.0));
    assert_target(&s, [3.75, -0.25]);
    let mut s = mapped(no_margin(), rising_with_x);
    run(
        &mut s,
        with_mates(
            posed(0.0, -2.0, 0.0, 0.0),
            vec![mate(3, 0.0, 2.0, 0.0, 0.0, 0.0)],
        ),
    );
    assert_target(&s, [-0.25, -0.25]);
    // A stale, a penalized or an unused teammate does not cut the region.
    let stale = with_mates(
        posed(0.0, -2.0, 0.0, 0.0),
        vec![mate(3, -3.5, 2.0, 0.0, 0.0, 0.0)],
    );
    let mut penalized = with_mates(
        posed(0.0, -2.0, 0.0, 0.0),
        vec![mate(3, 0.0, 2.0, 0.0, 0.0, 0.0)],
    );
    penalized.game.as_mut().unwrap().penalized = vec![3];
    let mut unused = with_mates(
        posed(0.0, -2.0, 0.0, 0.0),
        vec![mate(3, 0.0, 2.0, 0.0, 0.0, 0.0)],
    );
    unused.message_interval = None;
    for f in [stale, penalized, unused] {
        let mut s = mapped(no_margin(), rising_with_x);
        run(&mut s, f);
        assert_target(&s, [3.75, -0.25]);
    }
}

#[test]
fn field_players_leave_out_the_goalkeepers_pose() {
    let mut s = mapped(no_margin(), rising_with_x);
    run(
        &mut s,
        with_mates(
            posed(0.0, -2.0, 0.0, 0.0),
            vec![mate(1, 0.0, 2.0, 0.0, 0.0, 0.0)],
        ),
    );
    assert_target(&s, [3.75, -0.25]);
}

#[test]
fn the_goalkeepers_region_is_the_own_half() {
    // The goalkeeper (1) in the opponent half, a field player behind it: still x <= 0 only.
    let mut f = with_mates(
        posed(0.0, 2.0, 0.0, PI),
        vec![mate(3, 0.0, -2.0, 0.0, 0.0, 0.0)],
    );
    f.player_number = 1;
    let mut s = mapped(no_margin(), rising_with_x);
    run(&mut s, f);
    assert_target(&s, [-0.25, -0.25]);
}

#[test]
fn without_a_pose_or_a_goalkeeper_number_there_is_no_target() {
    let mut s = mapped(defaults(), |_| 0.6);
    run(&mut s, ball(frame(0.0), 1.0, 1.0, 0.0));
    assert_eq!(target(&s), None, "no pose");
    let mut f = ball(posed(0.0, 0.0, 0.0, 0.0), 1.0, 1.0, 0.0);
    f.goalkeeper_player_number = None;
    let mut s = mapped(defaults(), |_| 0.6);
    run(&mut s, f);
    assert_eq!(target(&s), None, "no goalkeeper number");
}

#[test]
fn only_cells_of_at_least_minimum_search_priority_are_targets() {
    let mut s = mapped(defaults(), |_| 0.199);
    run(&mut s, posed(0.0, 0.0, 0.0, 0.0));
    assert_eq!(target(&s), None);
    let mut s = mapped(
        defaults(),
        |c| if c == p(-2.25, 1.25) { 0.2 } else { 0.199 },
    );
    run(&mut s, posed(0.0, 0.0, 0.0, 0.0));
    assert_target(&s, [-2.25, 1.25]);
}

#[test]
fn cells_within_the_border_band_lose_the_border_view_penalty() {
    // The band is 0.1 * 6 = 0.6 m: centres 0.25 m from a line are in it, 0.75 m are not.
    let two = |a: Point2<Field>, va: f64, b: Point2<Field>, vb: f64| {
        move |c: Point2<Field>| {
            if c == a {
                va
            } else if c == b {
                vb
            } else {
                0.0
            }
        }
    };
    let cases = [
        // (border cell, its value, inner cell, its value, expected)
        (p(4.25, 0.25), 0.64, p(1.25, 0.25), 0.6, [1.25, 0.25]),
        (p(4.25, 0.25), 0.66, p(1.25, 0.25), 0.6, [4.25, 0.25]),
        (p(1.25, -2.75), 0.64, p(1.25, 0.25), 0.6, [1.25, 0.25]),
        (p(3.75, 0.25), 0.61, p(1.25, 0.25), 0.6, [3.75, 0.25]),
    ];
    for (a, va, b, vb, expected) in cases {
        let mut s = mapped(no_margin(), two(a, va, b, vb));
        run(&mut s, posed(0.0, 0.0, 0.0, PI / 2.0));
        assert_target(&s, expected);
    }
}

#[test]
fn among_cells_within_the_margin_the_smallest_turn_wins() {
    let map = |ahead: f64| {
        move |c: Point2<Field>| {
            if c == p(1.25, 0.25) {
                ahead
            } else if c == p(-1.25, 0.25) {
                0.6
            } else {
                0.0
            }
        }
    };
    let mut s = mapped(defaults(), map(0.56));
    run(&mut s, posed(0.0, 0.0, 0.0, 0.0));
    assert_target(&s, [1.25, 0.25]);
    let mut s = mapped(defaults(), map(0.54));
    run(&mut s, posed(0.0, 0.0, 0.0, 0.0));
    assert_target(&s, [-1.25, 0.25]);
}

#[test]
fn the_previous_target_is_kept_while_eligible_and_within_the_hysteresis() {
    let (a, b) = (p(1.25, 0.25), p(-1.25, 0.25));
    let two = |va: f64, vb: f64| {
        move |c: Point2<Field>| {
            if c == a {
                va
            } else if c == b {
                vb
            } else {
                0.0
            }
        }
    };
    let mut s = mapped(defaults(), two(0.6, 0.3));
    let step = |s: &mut SearchSuggestor, va: f64, vb: f64| {
        s.set_values(two(va, vb));
        run(s, posed(0.0, 0.0, 0.0, 0.0));
    };
    step(&mut s, 0.6, 0.3);
    assert_target(&s, [1.25, 0.25]);
    step(&mut s, 0.5, 0.6); // 0.5 >= 0.8 * 0.6
    assert_target(&s, [1.25, 0.25]);
    step(&mut s, 0.47, 0.6); // 0.47 < 0.48
    assert_target(&s, [-1.25, 0.25]);
    step(&mut s, 0.6, 0.55); // B kept although A is better and ahead
    assert_target(&s, [-1.25, 0.25]);
    step(&mut s, 0.25, 0.19); // B no longer eligible
    assert_target(&s, [1.25, 0.25]);
}

#[test]
fn the_target_is_the_cell_centre_or_the_robots_own_position_inside_the_cell() {
    let map = |c: Point2<Field>| if c == p(1.25, 0.25) { 0.6 } else { 0.0 };
    let mut s = mapped(defaults(), map);
    run(&mut s, posed(0.0, 0.0, 0.0, 0.0));
    assert_target(&s, [1.25, 0.25]);
    let mut s = mapped(defaults(), map);
    run(&mut s, posed(0.0, 1.1, 0.1, 0.0));
    assert_target(&s, [1.1, 0.1]);
    assert!(!fallback(&s));
}

#[test]
fn while_a_current_ball_exists_the_target_is_its_cells_centre() {
    let mut s = mapped(defaults(), |c| if c == p(-3.25, -2.25) { 0.9 } else { 0.0 });
    run(&mut s, ball(posed(0.0, 0.0, 0.0, 0.0), 2.1, 1.1, 0.0));
    assert_target(&s, [2.25, 1.25]);
    assert!(!fallback(&s));
    // Ambiguity: standing in the ball's cell, the robot keeps its own position, as for every
    // target (step 10's last sentence applies to the target whatever chose its cell).
    let mut s = mapped(defaults(), |_| 0.0);
    run(&mut s, ball(posed(0.0, 2.4, 1.4, 0.0), 2.1, 1.1, 0.0));
    assert_target(&s, [2.4, 1.4]);
}

// ---------------------------------------------------------------------------------------------
// The exhausted-search fallback (the robot sees nothing; growth made negligible)

fn slow() -> SearchSuggestorParameters {
    SearchSuggestorParameters {
        unseen_priority_rise_time: 1e9,
        last_ball_priority_fade_time: 0.0,
        ..defaults()
    }
}

/// All cells 0.1, F = (2.25, -1.25) 0.15 and G = (-2.25, -1.25) 0.12: nothing eligible.
fn low(c: Point2<Field>) -> f64 {
    if c == p(2.25, -1.25) {
        0.15
    } else if c == p(-2.25, -1.25) {
        0.12
    } else {
        0.1
    }
}

fn low_frame(s: &mut SearchSuggestor, f: HeatmapFrame) {
    s.set_values(low);
    run(s, f);
}

#[test]
fn the_fallback_comes_after_exhausted_search_delay_without_a_regular_target() {
    let mut s = with(slow());
    run(&mut s, ball(blind(0.0), 3.1, 2.1, 0.0));
    assert_target(&s, [3.25, 2.25]);
    low_frame(&mut s, blind(1.1)); // the timer starts
    assert_eq!((target(&s), fallback(&s)), (None, false));
    low_frame(&mut s, blind(6.0));
    assert_eq!(target(&s), None);
    low_frame(&mut s, blind(6.1)); // 6.1 - 1.1 = 4.999999999999999: reached within 1e-9
    assert_target(&s, [2.25, -1.25]);
    assert!(fallback(&s));
    low_frame(&mut s, blind(6.5));
    assert!(fallback(&s));
    // A regular target again: the fallback ends and the timer is reset.
    s.set_values(|c| if c == p(0.25, 2.25) { 0.3 } else { low(c) });
    run(&mut s, blind(7.0));
    assert_target(&s, [0.25, 2.25]);
    assert!(!fallback(&s));
    low_frame(&mut s, blind(8.0)); // starts again
    low_frame(&mut s, blind(12.9));
    assert_eq!(target(&s), None);
    low_frame(&mut s, blind(13.0));
    assert!(fallback(&s));
}

#[test]
fn there_is_no_fallback_before_a_local_ball_was_seen() {
    let mut s = with(slow());
    for t in [0.0, 1.0, 10.0, 20.0] {
        low_frame(&mut s, blind(t));
        assert_eq!((target(&s), fallback(&s)), (None, false), "t = {t}");
    }
}

#[test]
fn the_fallback_timer_runs_only_while_playing_without_a_current_ball() {
    let mut s = with(slow());
    run(&mut s, ball(blind(0.0), 3.1, 2.1, 0.0));
    low_frame(&mut s, blind(1.0));
    low_frame(&mut s, in_state(blind(3.0), GameStateName::Set)); // reset
    low_frame(&mut s, blind(4.0)); // starts again
    low_frame(&mut s, blind(8.9));
    assert_eq!(target(&s), None);
    low_frame(&mut s, blind(9.0));
    assert!(fallback(&s));
    // A current ball ends it: the ball's cell.
    low_frame(&mut s, ball(blind(9.5), 3.1, 2.1, 0.0));
    assert_target(&s, [3.25, 2.25]);
    assert!(!fallback(&s));
    // And in set there is none.
    low_frame(&mut s, in_state(blind(20.0), GameStateName::Set));
    assert_eq!((target(&s), fallback(&s)), (None, false));
}

#[test]
fn fallback_cells_need_fallback_minimum_search_priority() {
    let mut s = with(slow());
    run(&mut s, ball(blind(0.0), 3.1, 2.1, 0.0));
    for t in [1.0, 6.0, 7.0] {
        s.set_values(|_| 0.049);
        run(&mut s, blind(t));
        assert_eq!(target(&s), None);
    }
}

#[test]
fn the_goalkeepers_fallback_stays_in_the_own_half() {
    let mut s = with(slow());
    let keeper = |f: HeatmapFrame| HeatmapFrame {
        player_number: 1,
        ..f
    };
    run(&mut s, keeper(ball(blind(0.0), 3.1, 2.1, 0.0)));
    low_frame(&mut s, keeper(blind(1.0)));
    low_frame(&mut s, keeper(blind(6.0)));
    assert_target(&s, [-2.25, -1.25]); // G, not the higher F in the opponent half
    assert!(fallback(&s));
}

// ---------------------------------------------------------------------------------------------
// Runtime parameters

fn change(mut f: HeatmapFrame, changes: serde_json::Value) -> HeatmapFrame {
    f.parameters = Some(changes.as_object().expect("object").clone());
    f
}

#[test]
fn a_resolution_change_resamples_the_old_map_at_the_new_cell_centres() {
    for field in [
        FieldDimensions::default(),
        FieldDimensions {
            length: 8.95,
            width: 5.95,
            ..FieldDimensions::default()
        },
    ] {
        for n in [9u32, 7, 36, 12] {
            let mut s = SearchSuggestor::new(defaults(), field.clone());
            run(&mut s, frame(0.0));
            let old = s.map().clone();
            s.set_values(|c| {
                let (ix, iy) = old.coords(old.cell_of(c));
                (iy * 18 + ix) as f64 / 1000.0
            });
            let coded = values(&s);
            run(
                &mut s,
                change(
                    frame(0.0),
                    serde_json::json!({"cells_along_field_length": n}),
                ),
            );
            let new = s.map();
            assert_eq!(new.cells_x, n as usize);
            for c in 0..new.len() {
                // The old cell containing the new centre, by exact arithmetic: a centre on a
                // boundary ((2i + 1) * old / (2 new) an integer) goes to the larger index.
                let (ix, iy) = new.coords(c);
                let ox = (2 * ix + 1) * old.cells_x / (2 * new.cells_x);
                let oy = (2 * iy + 1) * old.cells_y / (2 * new.cells_y);
                assert_eq!(
                    new.values[c],
                    coded[oy * 18 + ox],
                    "field {} x {}, n = {n}, cell ({ix}, {iy})",
                    field.length,
                    field.width
                );
            }
        }
    }
}

#[test]
fn a_resolution_change_remaps_the_target_and_the_cell_size() {
    // The target (1.75, 1.25) was chosen at 0.5 m; at 1 m it lies in the cell centred at
    // (2.0, 1.5), which the hysteresis keeps (every new cell is 0.5 >= 0.8 * 0.5).
    let a = p(1.75, 1.25);
    let mut s = mapped(defaults(), move |c| if c == a { 0.6 } else { 0.5 });
    run(&mut s, posed(0.0, 1.0, -2.0, PI / 2.0));
    assert_target(&s, [1.75, 1.25]);
    run(
        &mut s,
        change(
            posed(0.0, 1.0, -2.0, PI / 2.0),
            serde_json::json!({"cells_along_field_length": 9}),
        ),
    );
    assert_target(&s, [2.0, 1.5]);
    let out = s.output(0.0);
    assert_eq!(out.cell_size, [1.0, 1.0]);
    assert_eq!((out.grid.cells_x, out.grid.cells_y), (9, 6));
    assert_eq!(out.values.len(), 54);
}

#[test]
fn disabling_drops_the_target_and_stops_the_updates() {
    let mut s = mapped(defaults(), |_| 0.6);
    run(&mut s, posed(0.0, 0.0, 0.0, 0.0));
    assert!(target(&s).is_some());
    run(
        &mut s,
        change(
            posed(1.0, 0.0, 0.0, 0.0),
            serde_json::json!({"disable_heatmap_search": true}),
        ),
    );
    assert_eq!((target(&s), fallback(&s)), (None, false));
    assert!(
        s.output(1.0).values.iter().all(|v| *v == 0.0),
        "the map is dropped"
    );
    run(&mut s, ball(posed(30.0, 0.0, 0.0, 0.0), 1.0, 1.0, 0.0));
    assert_eq!(target(&s), None, "no ball target either");
    assert!(s.output(30.0).values.iter().all(|v| *v == 0.0));
}

#[test]
fn re_enabling_starts_from_a_fresh_all_zero_map() {
    let mut s = mapped(defaults(), |_| 0.6);
    run(&mut s, ball(frame(0.0), 1.0, 1.0, 0.0)); // a last ball and a raised area
    run(
        &mut s,
        change(
            frame(1.0),
            serde_json::json!({"disable_heatmap_search": true}),
        ),
    );
    run(&mut s, frame(20.0));
    run(
        &mut s,
        change(
            frame(20.0),
            serde_json::json!({"disable_heatmap_search": false}),
        ),
    );
    assert!(values(&s).iter().all(|v| *v == 0.0), "fresh map");
    run(&mut s, frame(23.0));
    // Uniform growth only: the last ball from before was forgotten.
    assert!(values(&s).iter().all(|v| (v - 0.1).abs() < EPS));
}

#[test]
fn a_bad_runtime_parameter_is_refused_and_the_old_parameters_kept() {
    let mut s = mapped(defaults(), |_| 0.25);
    run(&mut s, frame(0.0));
    for (changes, key) in [
        (
            serde_json::json!({"minimum_search_priority": 1.5}),
            "minimum_search_priority",
        ),
        (
            serde_json::json!({"fallback_minimum_search_priority": 0.3}),
            "fallback_minimum_search_priority",
        ),
        (
            serde_json::json!({"cells_along_field_length": 0}),
            "cells_along_field_length",
        ),
        (
            serde_json::json!({"view_half_angle": "wide"}),
            "view_half_angle",
        ),
        (serde_json::json!({"no_such_key": 1}), "no_such_key"),
    ] {
        let before = values(&s);
        let e = s
            .update(&change(frame(15.0), changes.clone()))
            .expect_err("refused");
        assert_eq!(e.key, key, "{changes}: {e}");
        // The frame is skipped as a whole: no growth, time not advanced.
        assert_eq!(values(&s), before);
    }
    // Still 0.2: a 0.25 cell is a target; the grid is unchanged; the next frame's elapsed is
    // counted from the last accepted frame (t = 0): +3/30.
    run(&mut s, posed(3.0, -4.5, 0.0, PI));
    assert!(target(&s).is_some());
    assert_eq!(s.output(3.0).grid.cells_x, 18);
    close(value(&s, 0.1, 0.1), 0.35, "growth from t = 0");
}

// ---------------------------------------------------------------------------------------------
// The view window and the obstacle cull decide as the full scan does

/// The heatmap's values, bit for bit: what a fast path must leave exactly as the general one.
fn value_bits(s: &SearchSuggestor) -> Vec<u64> {
    s.map().values.iter().map(|v| v.to_bits()).collect()
}

/// A small deterministic generator for the randomized comparisons.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    fn between(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.next()
    }
}

#[test]
fn the_windowed_view_decay_equals_the_decay_of_every_cell_against_every_obstacle() {
    let mut rng = Lcg(7);
    for case in 0..4000 {
        let mut params = defaults();
        params.cells_along_field_length = [18, 7, 40, 1, 3][case % 5];
        params.view_half_angle = match case % 4 {
            0 => 0.785,
            1 => rng.between(0.01, PI / 2.0),
            2 => rng.between(PI / 2.0, PI),
            _ => [PI / 2.0, PI, 1e-7][case / 4 % 3],
        };
        let near = rng.between(0.0, 1.0);
        let far = if case % 17 == 0 {
            1e3
        } else {
            near + rng.between(0.05, 8.0)
        };
        params.observation_distance_range = [near, far];
        let mut fast = with(params.clone());
        fast.set_values(|c| 0.5 + 0.01 * c.x + 0.003 * c.y);
        let mut full = fast.clone();
        let pose = Pose2::new(
            rng.between(-6.0, 6.0),
            rng.between(-4.0, 4.0),
            rng.between(-10.0, 10.0),
        );
        let head = rng.between(-2.0, 2.0);
        let view = pose.yaw + head;
        let mut obstacles = Vec::new();
        for _ in 0..(case % 13) {
            let kind = rng.next();
            let (x, y) = if kind < 0.5 {
                (rng.between(-6.0, 6.0), rng.between(-4.0, 4.0))
            } else {
                // Near an edge of the view sector or near its far end, where the cull decides.
                let edge = if rng.next() < 0.5 { -1.0 } else { 1.0 };
                let angle = view + edge * params.view_half_angle + rng.between(-0.3, 0.3);
                let distance = rng.between(0.0, far + 1.0);
                (
                    pose.position.x + distance * angle.cos(),
                    pose.position.y + distance * angle.sin(),
                )
            };
            obstacles.push(ObstacleJson {
                x,
                y,
                radius: rng.between(0.0, 1.0),
            });
        }
        let (elapsed, weight) = (rng.between(0.01, 2.0), rng.between(0.1, 1.0));
        fast.decay_view(&pose, head, elapsed, weight, &obstacles);
        full.decay_view_everywhere(&pose, head, elapsed, weight, &obstacles);
        assert_eq!(value_bits(&fast), value_bits(&full), "case {case}");
    }
}

#[test]
fn a_view_from_a_position_that_is_not_a_number_decays_as_the_full_scan_does() {
    for (x, head) in [(f64::NAN, 0.0), (0.0, f64::NAN), (f64::INFINITY, 0.0)] {
        let mut fast = suggestor();
        fast.set_values(|c| 0.5 + 0.01 * c.x);
        let mut full = fast.clone();
        let pose = Pose2::new(x, 0.5, 0.3);
        let obstacles = [ObstacleJson {
            x: 1.0,
            y: 0.5,
            radius: 0.2,
        }];
        fast.decay_view(&pose, head, 1.0, 1.0, &obstacles);
        full.decay_view_everywhere(&pose, head, 1.0, 1.0, &obstacles);
        assert_eq!(value_bits(&fast), value_bits(&full), "x {x}, head {head}");
    }
}

#[test]
fn the_region_worked_out_once_contains_the_cells_that_the_per_cell_test_accepts() {
    let mut rng = Lcg(11);
    let s = suggestor();
    let mut others = Vec::new();
    for case in 0..2000 {
        let mut f = frame(rng.between(0.0, 20.0));
        f.player_number = 1 + (case % 7) as u8;
        let keeper = 1 + (case / 7 % 7) as u8;
        f.message_interval = (case % 5 != 0).then(|| rng.between(0.0, 4.0));
        if let Some(game) = &mut f.game {
            game.penalized = vec![1 + (case / 3 % 7) as u8];
        }
        for player in 1..=7u8 {
            if rng.next() < 0.7 {
                let mut m = mate(
                    player,
                    f.t - rng.between(0.0, 5.0),
                    rng.between(-5.0, 5.0),
                    rng.between(-3.5, 3.5),
                    0.0,
                    0.0,
                );
                if rng.next() < 0.1 {
                    m.pose = None;
                }
                f.teammates.push(m);
            }
        }
        let pose = Pose2::new(rng.between(-5.0, 5.0), rng.between(-3.5, 3.5), 0.0);
        let region = SearchSuggestor::region(&f, &pose, keeper, &mut others);
        for c in 0..s.map().len() {
            assert_eq!(
                region.contains(s.map().center(c)),
                s.in_region(c, &f, &pose, keeper),
                "case {case}, cell {c}"
            );
        }
    }
}

#[test]
fn the_least_turn_is_the_first_minimum_as_min_by_finds_it() {
    let mut rng = Lcg(5);
    let pool = [0.0, -0.0, 0.5, 0.5, 1.0, f64::NAN, f64::INFINITY, 0.25];
    for _ in 0..2000 {
        let n = (rng.next() * 12.0) as usize;
        let turns: Vec<f64> = (0..n)
            .map(|_| pool[(rng.next() * pool.len() as f64) as usize])
            .collect();
        let candidates: Vec<usize> = (0..n).filter(|_| rng.next() < 0.8).collect();
        let expected = candidates
            .iter()
            .copied()
            .min_by(|a, b| turns[*a].total_cmp(&turns[*b]).then(a.cmp(b)));
        assert_eq!(
            least_turn(candidates.iter().copied(), |c| turns[c]),
            expected,
            "{turns:?} {candidates:?}"
        );
    }
}

#[test]
fn the_kept_border_band_follows_changes_of_the_grid_and_the_band_width() {
    let mut s = suggestor();
    let check = |s: &SearchSuggestor, what: &str| {
        assert_eq!(s.border_band().len(), s.map().len(), "{what}");
        for c in 0..s.map().len() {
            assert_eq!(
                s.border_band()[c],
                s.is_in_border_band(c),
                "{what}: cell {c}"
            );
        }
        assert!(s.border_band().iter().any(|b| *b), "{what}");
    };
    check(&s, "new");
    for (t, change) in [
        (1.0, r#"{"border_view_penalty_width_fraction": 0.3}"#),
        (2.0, r#"{"cells_along_field_length": 7}"#),
        (
            3.0,
            r#"{"cells_along_field_length": 40, "border_view_penalty_width_fraction": 0.02}"#,
        ),
    ] {
        let mut f = frame(t);
        f.parameters = Some(serde_json::from_str(change).unwrap());
        s.update(&f).unwrap();
        check(&s, change);
    }
}

#[test]
fn raising_around_the_ball_in_a_window_equals_raising_every_cell() {
    let mut rng = Lcg(3);
    for case in 0..3000 {
        let mut params = defaults();
        params.cells_along_field_length = [18, 7, 40, 1, 3][case % 5];
        params.observed_ball_radius = match case % 4 {
            0 => 0.5,
            1 => rng.between(0.0, 0.3),
            2 => rng.between(0.3, 12.0),
            _ => [0.0, 1e-12, 1e3][case / 4 % 3],
        };
        let mut fast = with(params);
        fast.set_values(|c| (0.3 + 0.1 * c.x - 0.07 * c.y).clamp(0.0, 1.0));
        let mut full = fast.clone();
        let ball = p(rng.between(-4.5, 4.5), rng.between(-3.0, 3.0));
        fast.raise_around(ball);
        full.raise_around_everywhere(ball);
        assert_eq!(value_bits(&fast), value_bits(&full), "case {case}");
    }
}
