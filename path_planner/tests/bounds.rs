//! The boxes and distance lower bounds behind the collision search's "cannot collide" test:
//! every sampled position lies in its path box, and no sampled distance is below its bound.

use path_planner::aabb::Aabb;
use path_planner::obstacle::*;
use path_planner::rng::SplitMix64;
use path_planner::traj::{BangBang1D, BangBang2D, TrajPath, Trajectory};
use path_planner::{MoveLimits, Obstacle, PathFinder, PlanRequest, PlannerConfig, Vec2};

/// Rounding allowance of the checks (the search itself keeps 1 µm).
const TOL: f64 = 1e-9;

fn random_point(rng: &mut SplitMix64) -> Vec2 {
    Vec2::new(rng.range(-5.0, 5.0), rng.range(-4.0, 4.0))
}

fn random_traj(rng: &mut SplitMix64) -> BangBang2D {
    let v0 = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 4.0);
    BangBang2D::new(
        random_point(rng),
        random_point(rng),
        v0,
        rng.range(0.5, 4.0),
        rng.range(0.5, 4.0),
    )
}

fn random_path(rng: &mut SplitMix64) -> TrajPath {
    let first = random_traj(rng);
    if rng.unit() < 0.5 {
        return TrajPath::single(first);
    }
    let ts = rng.range(0.0, first.total_time());
    let (p, v) = first.pos_vel(ts);
    let second = BangBang2D::new(p, random_point(rng), v, 3.0, 3.0);
    TrajPath::switched(first, Vec2::ZERO, ts, second)
}

fn inside(b: &Aabb, p: Vec2) -> bool {
    p.x >= b.min.x - TOL && p.x <= b.max.x + TOL && p.y >= b.min.y - TOL && p.y <= b.max.y + TOL
}

#[test]
fn path_boxes_hold_every_sampled_position() {
    let mut rng = SplitMix64::new(31);
    for _ in 0..3000 {
        let path = random_path(&mut rng);
        let total = path.total_time();
        let a = rng.range(0.0, total + 0.5);
        let b = if rng.unit() < 0.2 {
            f64::INFINITY
        } else {
            a + rng.range(0.0, total)
        };
        let area = path.bounds(a, b);
        let end = b.min(total + 1.0);
        for k in 0..=200 {
            let t = a + (end - a) * k as f64 / 200.0;
            let p = path.pos_vel(t).0;
            assert!(
                inside(&area, p),
                "{p:?} at {t} outside {area:?} of [{a}, {b}]"
            );
        }
    }
}

/// Checks `obs.distance ≥ bound` at random points of random boxes and times of the window.
fn check_bound(obs: &dyn Obstacle, rng: &mut SplitMix64, t_max: f64) {
    for _ in 0..300 {
        let c = random_point(rng);
        let h = Vec2::new(rng.range(0.0, 1.5), rng.range(0.0, 1.5));
        let area = Aabb {
            min: c - h,
            max: c + h,
        };
        let t_from = rng.range(0.0, t_max);
        let t_to = rng.range(t_from, t_max);
        let Some(bound) = obs.distance_lower_bound(&area, t_from, t_to) else {
            continue;
        };
        for _ in 0..30 {
            let p = Vec2::new(
                rng.range(area.min.x, area.max.x),
                rng.range(area.min.y, area.max.y),
            );
            let t = rng.range(t_from, t_to);
            let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 3.0);
            let d = obs.distance(&Query { t, pos: p, vel });
            assert!(
                d >= bound - TOL,
                "distance {d} < bound {bound} at {p:?}, t {t}"
            );
        }
    }
}

#[test]
fn obstacle_bounds_are_below_every_sampled_distance() {
    let mut rng = SplitMix64::new(32);
    let (field, pa, _) = (
        FieldBorder::ssl(12.0, 9.0, 0.3, 0.09),
        PenaltyArea::new(-1.0, 6.0, 1.8, 3.6, 0.09),
        (),
    );
    check_bound(&field, &mut rng, 5.0);
    check_bound(&pa, &mut rng, 5.0);
    for _ in 0..20 {
        let c = random_point(&mut rng);
        check_bound(&Circle::new(c, rng.range(0.1, 1.0)), &mut rng, 5.0);
        let b = random_point(&mut rng);
        check_bound(&Tube::new(c, b, rng.range(0.1, 0.5)), &mut rng, 5.0);
        check_bound(&Rectangle::new(c, b, 0.09), &mut rng, 5.0);
        let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 6.0);
        check_bound(&BallObstacle::new(c, vel, 0.5), &mut rng, 20.0);
        let horizon = if rng.unit() < 0.5 { 0.5 } else { f64::INFINITY };
        let robot = TrajectoryRobot::new(random_path(&mut rng), rng.range(0.0, 0.1), true, horizon);
        check_bound(&robot, &mut rng, horizon.min(6.0));
        for shape in [OpponentShape::Tube, OpponentShape::Circle] {
            for model in [OpponentModel::Accelerating, OpponentModel::Stopping] {
                let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 3.5);
                let mut o = OpponentObstacle::new(c, vel, 3.0, 3.0);
                (o.shape, o.model) = (shape, model);
                check_bound(&o, &mut rng, 1.0);
            }
        }
    }
}

// Bad input: a bound is only given where it holds, and a box from non-finite values is no
// box (the search then marches as it did without the test).

#[test]
fn a_path_from_a_nan_velocity_has_a_nan_box_not_a_finite_one() {
    let first = BangBang2D::new(
        Vec2::new(-1.0, 0.5),
        Vec2::new(2.0, 0.5),
        Vec2::new(f64::NAN, 0.0),
        3.0,
        3.0,
    );
    for (from, to) in [(0.0, 1.0), (0.0, f64::INFINITY), (0.2, 0.4)] {
        let area = TrajPath::single(first).bounds(from, to);
        assert!(area.magnitude().is_nan(), "{from}..{to}: {area:?}");
    }
    let (lo, hi) = first.x.range(0.0, 1.0);
    assert!(lo.is_nan() && hi.is_nan());
}

/// A 1D range is NaN exactly when a value of the trajectory is not finite (the check is
/// worked out once per trajectory, before any mirroring), for sane and extreme inputs.
#[test]
fn a_range_is_nan_exactly_for_a_trajectory_with_a_non_finite_value() {
    let mut rng = SplitMix64::new(17);
    let extreme = [
        0.0,
        -1.0,
        2.5,
        1e154,
        -1e200,
        1e308,
        -1e308,
        f64::INFINITY,
        f64::NAN,
    ];
    let pick = |rng: &mut SplitMix64| {
        if rng.range(0.0, 1.0) < 0.5 {
            rng.range(-5.0, 5.0)
        } else {
            extreme[(rng.next_u64() % extreme.len() as u64) as usize]
        }
    };
    let (mut nan, mut finite) = (0, 0);
    for _ in 0..20_000 {
        let (s0, target, v0) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
        let (vmax, amax) = (pick(&mut rng).abs(), pick(&mut rng).abs());
        let tr = BangBang1D::new(s0, target, v0, vmax, amax);
        let all_finite = tr.final_position().is_finite()
            && tr
                .parts()
                .iter()
                .all(|p| [p.s0, p.v0, p.acc, p.t_end].iter().all(|x| x.is_finite()));
        let (lo, hi) = tr.range(0.0, 1.0);
        assert_eq!(
            !all_finite,
            lo.is_nan() && hi.is_nan(),
            "{s0} {target} {v0} {vmax} {amax}"
        );
        if all_finite {
            finite += 1;
        } else {
            nan += 1;
        }
    }
    assert!(nan > 1000 && finite > 1000, "{nan} {finite}");
}

#[test]
fn boxes_keep_a_nan_coordinate() {
    let nan = Vec2::new(f64::NAN, 1.0);
    let fine = Aabb::segment(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0));
    assert!(Aabb::segment(nan, Vec2::new(2.0, 2.0)).magnitude().is_nan());
    assert!(Aabb::segment(Vec2::new(2.0, 2.0), nan).magnitude().is_nan());
    assert!(fine.union(Aabb::point(nan)).magnitude().is_nan());
    assert!(Aabb::point(nan).union(fine).magnitude().is_nan());
    assert_eq!(fine.union(fine), fine);
}

#[test]
fn a_stopping_opponent_braking_with_a_negative_or_no_deceleration_has_no_bound() {
    let area = Aabb::segment(Vec2::new(2.0, 0.0), Vec2::new(3.0, 0.5));
    for brk in [-10.0, -1.87, -1.0, 0.0, f64::NAN, f64::INFINITY] {
        let mut o = OpponentObstacle::new(Vec2::ZERO, Vec2::new(3.0, 0.0), 3.0, 3.0);
        o.model = OpponentModel::Stopping;
        o.shape = OpponentShape::Circle;
        o.brk = brk;
        assert_eq!(o.distance_lower_bound(&area, 0.0, 1.0), None, "brk {brk}");
    }
    let mut o = OpponentObstacle::new(Vec2::ZERO, Vec2::new(3.0, 0.0), 3.0, 3.0);
    o.model = OpponentModel::Stopping;
    o.brk = 3.0;
    assert!(o.distance_lower_bound(&area, 0.0, 1.0).is_some());
}

#[test]
fn an_opponent_with_a_non_finite_velocity_collides_at_rest_as_its_distance_says() {
    for vel in [Vec2::new(f64::NAN, 0.0), Vec2::new(f64::INFINITY, 0.0)] {
        let o = OpponentObstacle::new(Vec2::ZERO, vel, 3.0, 3.0);
        for p in [Vec2::ZERO, Vec2::new(0.05, 0.0), Vec2::new(3.0, 0.0)] {
            let by_distance = o.distance(&Query::at_rest(p, 0.0)) <= 0.0;
            assert_eq!(o.is_colliding_at(p), by_distance, "vel {vel:?} at {p:?}");
        }
    }
}

#[test]
fn a_tube_with_a_far_or_nan_endpoint_has_no_bound() {
    let area = Aabb::segment(Vec2::new(2.0, 0.0), Vec2::new(3.0, 0.5));
    for far in [
        Vec2::new(1e12, -3.0),
        Vec2::new(1e20, -3.0),
        Vec2::new(f64::NAN, 0.0),
    ] {
        let tube = Tube::new(far, Vec2::new(4.2, 1.5), 0.2);
        assert_eq!(tube.distance_lower_bound(&area, 0.0, 1.0), None, "{far:?}");
    }
    let tube = Tube::new(Vec2::new(-3.0, -3.0), Vec2::new(4.2, 1.5), 0.2);
    assert!(tube.distance_lower_bound(&area, 0.0, 1.0).is_some());
}

#[test]
fn a_ball_with_a_non_finite_velocity_builds_and_has_no_bound() {
    let area = Aabb::segment(Vec2::new(2.0, 0.0), Vec2::new(3.0, 0.5));
    for vel in [
        Vec2::new(f64::NAN, 0.0),
        Vec2::new(f64::INFINITY, 1.0),
        Vec2::new(1e300, 1e300),
    ] {
        let ball = BallObstacle::new(Vec2::ZERO, vel, 0.4);
        assert_eq!(ball.distance_lower_bound(&area, 0.0, 1.0), None, "{vel:?}");
    }
    let ball = BallObstacle::new(Vec2::ZERO, Vec2::new(1.0, 0.0), 0.4);
    assert!(ball.distance_lower_bound(&area, 0.0, 1.0).is_some());
}

#[test]
fn obstacles_built_from_nan_or_inverted_values_are_planned_around_without_a_panic() {
    let nan = f64::NAN;
    let rect_nan = Rectangle::new(Vec2::new(nan, 0.0), Vec2::new(1.0, 1.0), 0.1);
    let border_nan = FieldBorder::new(Vec2::new(-6.0, nan), Vec2::new(6.0, 4.5));
    let border_inverted = FieldBorder::new(Vec2::new(6.0, 4.5), Vec2::new(-6.0, -4.5));
    let penalty_nan = PenaltyArea::new(1.0, 6.0, nan, 2.0, 0.1);
    let mut robot_nan_horizon = ConstVelocityRobot::new(Vec2::new(0.5, 0.5), Vec2::new(1.0, 0.0));
    robot_nan_horizon.t_max = nan;
    let mut robot_negative_horizon = robot_nan_horizon;
    robot_negative_horizon.t_max = -1.0;
    let opponent_nan = OpponentObstacle::new(Vec2::new(0.5, 0.5), Vec2::new(nan, 0.0), 3.0, 3.0);
    let ball_nan = BallObstacle::new(Vec2::new(0.5, 0.5), Vec2::new(nan, 1.0), 0.4);
    let cases: [&dyn Obstacle; 8] = [
        &rect_nan,
        &border_nan,
        &border_inverted,
        &penalty_nan,
        &robot_nan_horizon,
        &robot_negative_horizon,
        &opponent_nan,
        &ball_nan,
    ];
    let mut finder = PathFinder::new(PlannerConfig::default());
    for (k, obstacle) in cases.into_iter().enumerate() {
        let obstacles = [obstacle];
        // From inside the obstacle's area to inside it, and across it.
        for (start, dest) in [
            (Vec2::new(0.5, 0.5), Vec2::new(0.6, 0.4)),
            (Vec2::new(-2.0, 0.5), Vec2::new(3.0, 0.5)),
            (Vec2::new(5.9, 0.0), Vec2::new(7.0, 0.0)),
        ] {
            let request = PlanRequest {
                pos: start,
                vel: Vec2::ZERO,
                dest,
                limits: MoveLimits {
                    vmax: 3.0,
                    amax: 3.0,
                },
                obstacles: &obstacles,
                dt: 0.01,
            };
            // A bad obstacle may change the plan, but a plan comes back: a path from the
            // robot to a finite destination.
            let result = finder.plan(&request);
            let case = format!("case {k}, {start:?} to {dest:?}");
            let path = result.path.unwrap_or_else(|| panic!("{case}: no path"));
            assert_eq!(path.pos_vel(0.0).0, start, "{case}");
            assert!(
                result.dest.x.is_finite() && result.dest.y.is_finite(),
                "{case}"
            );
        }
    }
}
