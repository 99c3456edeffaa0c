//! Obstacle distance tables and "closest point outside".

use path_planner::obstacle::*;
use path_planner::traj::{BangBang2D, TrajPath};
use path_planner::{Obstacle, Vec2};

fn d(o: &dyn Obstacle, x: f64, y: f64, t: f64) -> f64 {
    o.distance(&Query::at_rest(Vec2::new(x, y), t))
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-9, "{a} != {b}");
}

#[test]
fn field_border_table() {
    // 2000 × 1000 mm centred, in metres.
    let f = FieldBorder::new(Vec2::new(-1.0, -0.5), Vec2::new(1.0, 0.5));
    close(d(&f, 0.0, 0.0, 0.0), 0.5);
    close(d(&f, 0.9, 0.0, 0.0), 0.1);
    close(d(&f, 0.8, 0.4, 0.0), 0.1);
    close(d(&f, 2.0, 0.0, 0.0), 0.0);
    // Adapting keeps the point inside by 1 mm; robot far outside is brought 100 mm inside.
    let a = f.adapt_destination(Vec2::new(2.0, 0.0)).unwrap();
    assert!((a.x - 0.999).abs() < 1e-9);
    assert_eq!(
        f.adapt_destination_for_robot_pos(Vec2::new(1.05, 0.0)),
        None
    );
    let r = f
        .adapt_destination_for_robot_pos(Vec2::new(1.5, 0.0))
        .unwrap();
    assert!((r.x - 0.9).abs() < 1e-9);
}

#[test]
fn tube_circle_ball_tables() {
    let t = Tube::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), 3.0);
    close(d(&t, -4.0, 0.0, 0.0), 1.0);
    close(d(&t, 1.0, 1.0, 0.0), 0.0);
    let p = t.adapt_destination(Vec2::new(1.0, 1.0)).unwrap();
    close(d(&t, p.x, p.y, 0.0), 0.001);
    let mut b = BallObstacle::new(Vec2::new(3.0, 0.0), Vec2::ZERO, 0.5);
    b.radius = 2.0;
    close(d(&b, 0.0, 0.0, 0.0), 1.0);
    close(d(&b, 3.0, 0.0, 0.0), -2.0);
    let c = Circle::new(Vec2::new(1.0, 1.0), 0.5);
    close(d(&c, 1.0, 2.0, 0.0), 0.5);
    let e = c
        .adapt_destination_for_robot_pos(Vec2::new(1.2, 1.0))
        .unwrap();
    close(d(&c, e.x, e.y, 0.0), 0.1);
}

#[test]
fn rolling_ball_moves_and_stops() {
    let b = BallObstacle::new(Vec2::ZERO, Vec2::new(4.0, 0.0), 0.5);
    // Stops after 8 s at 16 m.
    close(b.state(2.0).0.x, 8.0 - 1.0);
    close(b.state(100.0).0.x, 16.0);
    close(d(&b, 7.0, 0.0, 2.0), -BALL_CLEARANCE);
    assert!(!b.collision_likely(0.0, Vec2::ZERO));
    assert!(b.collision_likely(7.99, Vec2::ZERO));
}

#[test]
fn rectangle_and_penalty_area() {
    let r = Rectangle::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0), 0.1);
    close(d(&r, 3.0, 0.5, 0.0), 0.9);
    close(d(&r, 1.0, 0.5, 0.0), 0.0);
    close(d(&r, 2.3, 1.4, 0.0), 0.4);
    let e = r.adapt_destination(Vec2::new(1.9, 0.5)).unwrap();
    close(e.x, 2.101);
    // Penalty area on +x: goal line at 6, 1.8 deep, 3.6 wide, 0.09 margin.
    let pa = PenaltyArea::new(1.0, 6.0, 1.8, 3.6, 0.09);
    close(d(&pa, 4.0, 0.0, 0.0), 0.2 - 0.09);
    close(d(&pa, 5.0, 0.0, 0.0), 0.0);
    close(d(&pa, 6.5, 0.0, 0.0), 0.0); // behind the goal line counts as inside
    close(d(&pa, 5.0, 2.0, 0.0), 0.2 - 0.09);
    // Escape never goes behind the goal line.
    let e = pa.adapt_destination(Vec2::new(5.9, 0.0)).unwrap();
    assert!(e.x < 6.0);
    close(d(&pa, e.x, e.y, 0.0), 0.001);
}

#[test]
fn robots_table() {
    // Own robot along its path, sampled at t + age.
    let path = TrajPath::single(BangBang2D::new(
        Vec2::ZERO,
        Vec2::new(2.0, 0.0),
        Vec2::ZERO,
        2.0,
        3.0,
    ));
    let own = TrajectoryRobot::new(path, 0.0, true, f64::INFINITY);
    close(d(&own, 0.0, 1.0, 0.0), 1.0 - 0.18);
    close(d(&own, 2.0, 1.0, 10.0), 1.0 - 0.18);
    // Constant velocity, capped at 0.4 s.
    let cv = ConstVelocityRobot::new(Vec2::ZERO, Vec2::new(1.0, 0.0));
    close(d(&cv, 0.4, 1.0, 0.2), (0.2f64.powi(2) + 1.0).sqrt() - 0.18);
    close(d(&cv, 0.4, 0.0, 5.0), -0.18);
    // Opponent reachable tube (v 2, vmax 3, amax 3, reaction 0.1 s, t_max 0.5 s).
    let op = OpponentObstacle::new(Vec2::ZERO, Vec2::new(2.0, 0.0), 3.0, 3.0);
    let (back, fwd) = op.offsets(0.5);
    close(
        fwd,
        0.2 + 2.0 / 3.0 + 0.5 * 3.0 / 9.0 + 3.0 * (0.4 - 1.0 / 3.0),
    );
    close(back, 0.2 + 2.0 * 0.4 - 1.5 * 0.16);
    close(op.offsets(0.05).1, 0.1);
    assert_eq!(op.offsets(0.9), op.offsets(0.5)); // clamped at t_max
    close(d(&op, 1.0, 1.0, 0.5), 1.0 - 0.18);
    close(d(&op, 0.0, 0.0, 0.5), back - 0.18);
    assert_eq!(op.active_until(), 1.0);
    // Standing opponent → small circle.
    let st = OpponentObstacle::new(Vec2::ZERO, Vec2::new(0.2, 0.0), 3.0, 3.0);
    close(d(&st, 1.0, 0.0, 0.5), 1.0 - 0.18);
    // Circle variant (eqs. 5–8).
    let mut oc = op;
    oc.shape = OpponentShape::Circle;
    let r_dyn = (fwd - back) / 2.0;
    close(d(&oc, back + r_dyn, 0.0, 0.5), -(0.18 + r_dyn));
}

#[test]
fn stopping_robot_table() {
    // vmax 3, acc = brk = 4, reaction 0: (v, t) → (centre offset, radius without the robot radius).
    let stopping = |v: f64| {
        let mut o = OpponentObstacle::new(Vec2::ZERO, Vec2::new(v, 0.0), 3.0, 4.0);
        o.model = OpponentModel::Stopping;
        o.reaction = 0.0;
        o.t_max = 10.0;
        o
    };
    for (v, t, centre, radius) in [
        (2.0, 1.0, 1.0, 0.75),
        (2.0, 2.0, 1.5, 3.25),
        (0.0, 1.0, 0.0, 1.0),
        (4.0, 2.0, 3.5, 2.5),
    ] {
        let (lo, hi) = stopping(v).offsets(t);
        close((lo + hi) / 2.0, centre);
        close((hi - lo) / 2.0, radius);
    }
    let o = stopping(2.0);
    // Cannot stop within t: both ends collapse.
    let (lo, hi) = o.offsets(0.25);
    close(lo, hi);
    close(lo, 0.5 - 0.125);
}

#[test]
fn grid_walls() {
    // 20 × 10 pixels over 2 m × 1 m (0.1 m cells); a wall column at col 10, rows 0..8 (top part).
    let (cols, rows) = (20, 10);
    let mut px = vec![255u8; cols * rows];
    for r in 0..8 {
        px[r * cols + 10] = 0;
    }
    let g = GridObstacle::from_grey(&px, cols, rows, 2.0, 1.0, 0.09).unwrap();
    // y grows downward: wall spans x ∈ [1.0, 1.1], y ∈ [0.0, 0.8].
    let far = d(&g, 0.25, 0.55, 0.0);
    assert!(far <= 0.75 - 0.09 && far > 0.75 - 0.09 - 0.1, "far = {far}");
    assert!(d(&g, 1.05, 0.4, 0.0) < 0.0);
    assert!(d(&g, 1.05, 0.95, 0.0) > -0.1);
    let out = g.adapt_destination(Vec2::new(1.05, 0.4)).unwrap();
    assert!(d(&g, out.x, out.y, 0.0) > 0.0);
    assert!(out.dist(Vec2::new(1.05, 0.4)) < 0.5);
    assert_eq!(
        GridObstacle::from_grey(&px, 3, 3, 1.0, 1.0, 0.0).unwrap_err(),
        GridError::SizeMismatch {
            expected: 9,
            actual: 200
        }
    );
    // Lipschitz soundness of (distance − slack) on random pairs.
    let mut rng = path_planner::rng::SplitMix64::new(3);
    for _ in 0..2000 {
        let a = Vec2::new(rng.range(0.0, 2.0), rng.range(0.0, 1.0));
        let b = Vec2::new(rng.range(0.0, 2.0), rng.range(0.0, 1.0));
        assert!(
            d(&g, b.x, b.y, 0.0) >= d(&g, a.x, a.y, 0.0) - g.distance_slack() - a.dist(b) - 1e-6
        );
    }
}

/// The opponent's own `is_colliding_at` (a circle at t = 0) agrees with the default one
/// (the distance at t = 0) for both shapes and models.
#[test]
fn opponent_colliding_at_matches_the_distance_at_t0() {
    let mut rng = path_planner::rng::SplitMix64::new(9);
    for _ in 0..2000 {
        let pos = Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 4.0);
        let mut o = OpponentObstacle::new(pos, vel, 3.0, 3.0);
        o.shape = if rng.unit() < 0.5 {
            OpponentShape::Tube
        } else {
            OpponentShape::Circle
        };
        o.model = if rng.unit() < 0.5 {
            OpponentModel::Accelerating
        } else {
            OpponentModel::Stopping
        };
        let p = pos + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 0.4);
        let by_distance = o.distance(&Query::at_rest(p, 0.0)) <= 0.0;
        assert_eq!(o.is_colliding_at(p), by_distance, "{o:?} at {p:?}");
    }
}
