//! 2D synchronised bang-bang: Monte-Carlo properties, oracles and proptest.

use path_planner::rng::SplitMix64;
use path_planner::traj::{BangBang1D, BangBang2D, TrajPath};
use path_planner::{Trajectory, Vec2};
use proptest::prelude::*;

/// Documented overshoot bound, relative to max(vmax, |v0|) (measured on 200k cases with
/// vmax 2, amax 3: ×1.078 for |v0| ≤ vmax/2, ×1.303 otherwise; other limit ratios a bit more).
fn overshoot_factor(v0: f64, vmax: f64) -> f64 {
    if v0 <= vmax / 2.0 {
        1.15
    } else {
        std::f64::consts::SQRT_2
    }
}

fn check(p0: Vec2, p1: Vec2, v0: Vec2, vmax: f64, amax: f64, sync_tol: f64) {
    let tr = BangBang2D::new(p0, p1, v0, vmax, amax);
    let t = tr.total_time();
    assert!(tr.position(t).dist(p1) < 1e-5, "end position");
    assert!(tr.velocity(t).len() < 1e-3, "end velocity");
    assert!(tr.velocity(t + 1.0).len() == 0.0);
    let trivial = |a: f64, b: f64, v: f64| (a - b).abs() < 1e-9 && v.abs() < 1e-9;
    if !trivial(p0.x, p1.x, v0.x) && !trivial(p0.y, p1.y, v0.y) {
        assert!(
            (tr.x.total_time() - tr.y.total_time()).abs() < sync_tol,
            "sync"
        );
    }
    let vlim = vmax.max(v0.len()) * overshoot_factor(v0.len(), vmax) + 1e-9;
    for k in 0..=100 {
        let s = t * k as f64 / 100.0;
        assert!(tr.acceleration(s).len() <= amax + 1e-9, "|a| > amax");
        assert!(
            tr.velocity(s).len() <= vlim,
            "speed {} > {vlim}",
            tr.velocity(s).len()
        );
    }
    assert!(tr.max_speed() >= tr.velocity(0.0).len());
}

#[test]
fn monte_carlo_properties() {
    let mut rng = SplitMix64::new(42);
    for vrange in [1.0, 2.0] {
        for _ in 0..1000 {
            let p0 = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
            let p1 = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
            let v0 = Vec2::new(rng.range(-vrange, vrange), rng.range(-vrange, vrange));
            check(p0, p1, v0, 2.0, 3.0, 1e-3 + 1e-9);
        }
    }
}

#[test]
fn rest_start_is_straight_and_1d_optimal() {
    let mut rng = SplitMix64::new(9);
    for _ in 0..1000 {
        let p0 = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        let p1 = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        let tr = BangBang2D::new(p0, p1, Vec2::ZERO, 2.0, 3.0);
        let d = p1 - p0;
        let t1d = BangBang1D::new(0.0, d.len(), 0.0, 2.0, 3.0).total_time();
        assert!(
            (tr.total_time() - t1d).abs() < 1e-3,
            "{} vs {t1d}",
            tr.total_time()
        );
        let n = d.normalized().rotate(std::f64::consts::FRAC_PI_2);
        for k in 0..=50 {
            let s = tr.total_time() * k as f64 / 50.0;
            assert!(
                (tr.position(s) - p0).dot(n).abs() < 2e-3 * d.len().max(1.0),
                "not straight"
            );
            assert!(tr.velocity(s).len() <= 2.0 + 1e-9);
        }
    }
}

#[test]
fn oracles_vmax_amax_3() {
    for (p, t) in [
        ((1.0, 0.0), 1.1547),
        ((1.0, 1.0), 1.3732),
        ((3.0, 1.0), 2.0541),
    ] {
        let tr = BangBang2D::new(Vec2::ZERO, Vec2::new(p.0, p.1), Vec2::ZERO, 3.0, 3.0);
        assert!(
            (tr.total_time() - t).abs() < 1e-3,
            "{p:?}: {}",
            tr.total_time()
        );
    }
}

#[test]
fn precision_regression() {
    let p0 = Vec2::new(-0.6776, 1.19e-5);
    let p1 = Vec2::new(-0.1865, 0.0);
    let a = BangBang2D::new(p0, p1, Vec2::new(0.0970, 4.8e-4), 2.0, 2.0);
    let b = BangBang2D::new(p0, p1, Vec2::new(0.0970, 0.0), 2.0, 2.0);
    assert!((a.total_time() - b.total_time()).abs() < 1e-4);
}

#[test]
fn switched_path_is_continuous() {
    let sub = BangBang2D::new(Vec2::ZERO, Vec2::new(1.0, 1.0), Vec2::ZERO, 3.0, 3.0);
    let ts = 0.4;
    let (p, v) = sub.pos_vel(ts);
    let tail = BangBang2D::new(p, Vec2::new(2.0, 0.0), v, 3.0, 3.0);
    let path = TrajPath::switched(sub, Vec2::new(1.0, 1.0), ts, tail);
    assert!(path.position(ts - 1e-9).dist(path.position(ts + 1e-9)) < 1e-6);
    assert!(path.velocity(ts - 1e-9).dist(path.velocity(ts + 1e-9)) < 1e-6);
    assert!((path.total_time() - (ts + tail.total_time())).abs() < 1e-12);
    assert!(
        path.position(path.total_time() + 1.0)
            .dist(Vec2::new(2.0, 0.0))
            < 1e-6
    );
    assert_eq!(path.next_destination(), Vec2::new(1.0, 1.0));
}

/// `position` (which skips the velocity) is the position of `pos_vel` bit for bit, on
/// single and switched paths, before the start, around the switch and past the end.
#[test]
fn path_position_is_pos_vel_bit_for_bit() {
    let mut rng = SplitMix64::new(5);
    let pt = |rng: &mut SplitMix64| Vec2::new(rng.range(-5.0, 5.0), rng.range(-4.0, 4.0));
    for _ in 0..500 {
        let (p0, sub_dest, dest) = (pt(&mut rng), pt(&mut rng), pt(&mut rng));
        let v0 = Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        let sub = BangBang2D::new(p0, sub_dest, v0, 3.0, 3.0);
        let ts = rng.range(0.0, sub.total_time());
        let (p, v) = sub.pos_vel(ts);
        let tail = BangBang2D::new(p, dest, v, 3.0, 3.0);
        for path in [
            TrajPath::single(sub),
            TrajPath::switched(sub, sub_dest, ts, tail),
        ] {
            let end = path.total_time();
            let times = (0..=200)
                .map(|k| -0.1 + (end + 0.2) * f64::from(k) / 200.0)
                .chain([ts, ts.next_down(), ts.next_up(), 0.0, -0.0, end]);
            for t in times {
                let (a, b) = (path.position(t), path.pos_vel(t).0);
                assert_eq!(
                    (a.x.to_bits(), a.y.to_bits()),
                    (b.x.to_bits(), b.y.to_bits())
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: proptest::test_runner::RngSeed::Fixed(2024),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]
    /// Sync tolerance 0.05 s here: when an axis' full-brake stop point lies within ~1e-5 m of
    /// its target, T(α) has a square-root singularity and the 1e-7 rad α resolution cannot
    /// reach 1 ms (found by proptest with vmax·sinα ≈ 0.18 m/s). End state and limits still hold.
    #[test]
    fn prop_end_state_and_limits(
        x0 in -5.0f64..5.0, y0 in -5.0f64..5.0, x1 in -5.0f64..5.0, y1 in -5.0f64..5.0,
        vx in -2.0f64..2.0, vy in -2.0f64..2.0, vmax in 0.5f64..4.0, amax in 0.5f64..5.0,
    ) {
        check(Vec2::new(x0, y0), Vec2::new(x1, y1), Vec2::new(vx, vy).normalized() * Vec2::new(vx, vy).len().min(vmax), vmax, amax, 0.05);
    }
}
