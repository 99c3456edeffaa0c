//! Planning-time benches: empty field, crowded field (11 + 11 moving robots + ball),
//! no-path scene, and a full 22-robot frame. Also prints p50/p99 per robot (crowded).

#[path = "../tests/common/mod.rs"]
mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use path_planner::obstacle::Circle;
use path_planner::*;
use std::hint::black_box;
use std::time::Instant;

fn empty_field(c: &mut Criterion) {
    let (f, a, b) = ssl_static();
    let obs: Vec<&dyn Obstacle> = vec![&f, &a, &b];
    let mut pf = PathFinder::new(PlannerConfig::default());
    let req = PlanRequest {
        pos: Vec2::new(-3.0, 0.5),
        vel: Vec2::ZERO,
        dest: Vec2::new(3.0, 0.5),
        limits: LIMITS,
        obstacles: &obs,
        dt: 0.01,
    };
    c.bench_function("plan/empty_field", |bn| {
        bn.iter(|| black_box(pf.plan(black_box(&req))))
    });
}

fn crowded(c: &mut Criterion) {
    let data = crowded_frames(99, 20);
    let refs: Vec<Vec<Vec<&dyn Obstacle>>> = data
        .iter()
        .map(|(_, sets)| sets.iter().map(|s| s.refs()).collect())
        .collect();
    let mut pf = PathFinder::new(PlannerConfig::default());
    let mut k = 0usize;
    c.bench_function("plan/crowded_per_robot", |bn| {
        bn.iter(|| {
            k = (k + 1) % (20 * 22);
            let (fi, ri) = (k / 22, k % 22);
            let req = data[fi].0.request(ri, &refs[fi][ri]);
            black_box(pf.plan(&req))
        })
    });
    let mut pfs = finders_per_robot();
    let mut f = 0usize;
    c.bench_function("frame/22_robots", |bn| {
        bn.iter(|| {
            f = (f + 1) % 20;
            for (ri, pf) in pfs.iter_mut().enumerate() {
                let req = data[f].0.request(ri, &refs[f][ri]);
                black_box(pf.plan(&req));
            }
        })
    });
}

fn no_path(c: &mut Criterion) {
    let (f, a, b) = ssl_static();
    let ring: Vec<Circle> = (0..24)
        .map(|k| Circle::new(Vec2::from_angle(k as f64 * 0.2618), 0.2))
        .collect();
    let mut obs: Vec<&dyn Obstacle> = vec![&f, &a, &b];
    obs.extend(ring.iter().map(|c| c as &dyn Obstacle));
    let mut pf = PathFinder::new(PlannerConfig::r2025());
    let req = PlanRequest {
        pos: Vec2::new(-1.35, 0.0),
        vel: Vec2::ZERO,
        dest: Vec2::ZERO,
        limits: LIMITS,
        obstacles: &obs,
        dt: 0.01,
    };
    c.bench_function("plan/no_path", |bn| {
        bn.iter(|| black_box(pf.plan(black_box(&req))))
    });
}

/// Percentiles per robot over 200 crowded frames × 22 robots, plus the closed-loop scenario.
fn percentiles(_c: &mut Criterion) {
    let data = crowded_frames(99, 200);
    let mut times = Vec::new();
    let mut evals = Vec::new();
    let mut trajs = 0u64;
    let mut pfs = finders_per_robot();
    for _round in 0..3 {
        for (frame, sets) in &data {
            for (ri, set) in sets.iter().enumerate() {
                let refs = set.refs();
                let req = frame.request(ri, &refs);
                let t = Instant::now();
                let r = black_box(pfs[ri].plan(&req));
                times.push(t.elapsed().as_nanos() as u64);
                evals.push(r.stats.distance_evals);
                trajs += r.stats.trajectories as u64;
            }
        }
    }
    let pct = |v: &mut Vec<u64>, p: f64| {
        v.sort_unstable();
        v[((v.len() - 1) as f64 * p) as usize]
    };
    let n = times.len();
    let mut ev: Vec<u64> = evals.iter().map(|&e| e as u64).collect();
    println!(
        "crowded per robot ({n} plans): p50 {:.1} us, p99 {:.1} us, max {:.1} us; evals/plan mean {:.0} p50 {} p99 {} max {}; trajectories/plan {:.1}",
        pct(&mut times, 0.5) as f64 / 1e3,
        pct(&mut times, 0.99) as f64 / 1e3,
        *times.last().unwrap() as f64 / 1e3,
        ev.iter().sum::<u64>() as f64 / n as f64,
        pct(&mut ev, 0.5),
        pct(&mut ev, 0.99),
        ev.last().unwrap(),
        trajs as f64 / n as f64
    );
    let start = Instant::now();
    let (mut bots, limit) = scenario_bots("side_to_other_side_crossed", 11);
    let mut rep = run(&mut bots, limit, || start.elapsed().as_nanos() as u64);
    let m = rep.plans;
    println!(
        "closed loop side_to_other_side_crossed ({m} plans): p50 {:.1} us, p99 {:.1} us, evals/plan {:.0}",
        pct(&mut rep.plan_times_ns, 0.5) as f64 / 1e3,
        pct(&mut rep.plan_times_ns, 0.99) as f64 / 1e3,
        rep.evals as f64 / m as f64
    );
}

criterion_group!(benches, empty_field, crowded, no_path, percentiles);
criterion_main!(benches);
