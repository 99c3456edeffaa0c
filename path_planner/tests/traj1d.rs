//! 1D bang-bang: the oracle table A–G and random invariants.

use path_planner::Trajectory;
use path_planner::rng::SplitMix64;
use path_planner::traj::BangBang1D;

const VMAX: f64 = 2.0;
const AMAX: f64 = 3.0;

#[test]
fn oracle_table() {
    let cases: [(&str, f64, f64, &[f64], f64); 7] = [
        ("A", 0.5, 0.5, &[3.0, -3.0], 0.683170),
        ("B", 2.0, 0.5, &[3.0, 0.0, -3.0], 1.520833),
        ("C", 2.0, 2.5, &[-3.0, 0.0, -3.0], 1.312500),
        ("D", 0.5, -1.0, &[3.0, -3.0], 1.276142),
        ("E", 2.0, -1.0, &[3.0, 0.0, -3.0], 2.083333),
        ("F", 0.5, 3.0, &[-3.0, 3.0], 2.154701),
        ("G", 0.5, 5.0, &[-3.0, 0.0, 3.0], 4.166667),
    ];
    for (name, target, v0, accs, t_total) in cases {
        let tr = BangBang1D::new(0.0, target, v0, VMAX, AMAX);
        let got: Vec<f64> = tr.parts().iter().map(|p| p.acc).collect();
        assert_eq!(got, accs, "case {name} accelerations");
        assert!(
            (tr.total_time() - t_total).abs() < 1e-6,
            "case {name}: T = {}",
            tr.total_time()
        );
        assert!(
            (tr.position(tr.total_time()) - target).abs() < 1e-6,
            "case {name} end position"
        );
        assert!((tr.position(1e3) - target).abs() < 1e-6);
        assert_eq!(tr.velocity(1e3), 0.0);
        assert_eq!(tr.acceleration(1e3), 0.0);
    }
    // Example F: braking part lasts 1.577 s and stops at 1.5 m.
    let f = BangBang1D::new(0.0, 0.5, 3.0, VMAX, AMAX);
    assert!((f.parts()[0].t_end - 1.577350).abs() < 1e-5);
    assert!((f.position(1.0) - 1.5).abs() < 1e-9);
}

/// Independent brute-force oracle: minimum total time over the switch structure
/// "accelerate at ±a to v1, cruise, brake to 0", searched over candidate peak speeds.
fn brute_time(s0: f64, st: f64, v0: f64, vmax: f64, a: f64) -> f64 {
    let mut best = f64::INFINITY;
    let n = 4000;
    for i in 0..=n {
        let v1 = -vmax + 2.0 * vmax * i as f64 / n as f64;
        // reach v1 (distance d1), then brake from v1 to 0 (distance d3); cruise covers the rest.
        let t1 = (v1 - v0).abs() / a;
        let d1 = (v0 + v1) / 2.0 * t1;
        let t3 = v1.abs() / a;
        let d3 = v1 * t3 / 2.0;
        let rest = st - s0 - d1 - d3;
        if v1.abs() < 1e-12 {
            if rest.abs() < 1e-9 {
                best = best.min(t1 + t3);
            }
            continue;
        }
        let t2 = rest / v1;
        if t2 >= -1e-12 {
            best = best.min(t1 + t2.max(0.0) + t3);
        }
    }
    best
}

#[test]
fn random_invariants_and_optimality() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..20_000 {
        let s0 = rng.range(-5.0, 5.0);
        let st = rng.range(-5.0, 5.0);
        let v0 = rng.range(-5.0, 5.0);
        let tr = BangBang1D::new(s0, st, v0, VMAX, AMAX);
        let mut last = 0.0;
        for p in tr.parts() {
            assert!(p.t_end >= last - 1e-12, "negative part duration");
            last = p.t_end;
        }
        assert!((tr.final_position() - st).abs() < 1e-9);
        let vlim = VMAX.max(v0.abs()) + 1e-9;
        for k in 0..=50 {
            let t = tr.total_time() * k as f64 / 50.0;
            assert!(tr.velocity(t).abs() <= vlim);
        }
    }
    // Optimality against the brute force (|v0| <= vmax, where the 3-phase structure is complete).
    for _ in 0..300 {
        let s0 = rng.range(-3.0, 3.0);
        let st = rng.range(-3.0, 3.0);
        let v0 = rng.range(-VMAX, VMAX);
        let tr = BangBang1D::new(s0, st, v0, VMAX, AMAX);
        let bf = brute_time(s0, st, v0, VMAX, AMAX);
        assert!(
            tr.total_time() <= bf + 1e-9,
            "not optimal: {} vs {bf}",
            tr.total_time()
        );
        assert!(
            tr.total_time() >= bf - 2e-3,
            "faster than brute force: {} vs {bf}",
            tr.total_time()
        );
    }
}

#[test]
fn degenerate_limits_do_not_panic() {
    let tr = BangBang1D::new(0.0, 1.0, 0.0, 0.0, -1.0);
    assert!(tr.total_time().is_finite());
    let tr = BangBang1D::new(1.0, 1.0, 0.0, 2.0, 3.0);
    assert_eq!(tr.total_time(), 0.0);
}

/// The duration alone is the built total time bit for bit where the first piece is empty or
/// rounds below zero: targets at the stop point of a full brake, at the start, moves from
/// rest, and signed zeros.
#[test]
fn the_duration_alone_matches_at_the_stop_point_and_at_rest() {
    let mut rng = SplitMix64::new(78);
    let mut empty_first = 0;
    for k in 0..20_000 {
        let s0 = rng.range(-6.0, 6.0);
        let (vmax, amax) = (rng.range(0.1, 3.0), rng.range(0.1, 5.0));
        let v0 = match k % 4 {
            0 => 0.0,
            1 => -0.0,
            _ => rng.range(-1.2, 1.2) * vmax,
        };
        let st = match k % 3 {
            0 => s0,
            1 => s0 + v0 * v0.abs() / (2.0 * amax),
            _ => s0 + rng.range(-1e-9, 1e-9),
        };
        let built = BangBang1D::new(s0, st, v0, vmax, amax);
        let alone = BangBang1D::duration(s0, st, v0, vmax, amax);
        assert_eq!(
            built.total_time().to_bits(),
            alone.to_bits(),
            "{s0} -> {st} from {v0} at {vmax}, {amax}"
        );
        empty_first += usize::from(built.parts()[0].t_end == 0.0);
    }
    assert!(empty_first > 3_000, "{empty_first}");
}

#[test]
fn the_duration_alone_is_the_built_trajectorys_total_time_bit_for_bit() {
    let mut rng = SplitMix64::new(77);
    let mut mirrored = 0;
    for k in 0..20_000 {
        let (s0, st) = (rng.range(-6.0, 6.0), rng.range(-6.0, 6.0));
        let v0 = rng.range(-4.0, 4.0);
        // Ordinary limits, tiny ones, zero, negative and non-finite ones.
        let (vmax, amax) = match k % 5 {
            0 => (0.0, -1.0),
            1 => (f64::NAN, f64::INFINITY),
            2 => (rng.range(1e-9, 1e-3), rng.range(1e-9, 1e-3)),
            _ => (rng.range(0.1, 3.0), rng.range(0.1, 5.0)),
        };
        let built = BangBang1D::new(s0, st, v0, vmax, amax).total_time();
        let alone = BangBang1D::duration(s0, st, v0, vmax, amax);
        assert_eq!(
            built.to_bits(),
            alone.to_bits(),
            "{s0} -> {st} from {v0} at {vmax}, {amax}: {built} vs {alone}"
        );
        if s0 + v0 * v0.abs() / (2.0 * amax.max(1e-6)) > st {
            mirrored += 1;
        }
    }
    assert!(
        mirrored > 2_000,
        "the mirrored case is exercised: {mirrored}"
    );
}
