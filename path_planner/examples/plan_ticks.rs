//! A fixed amount of planning to count instructions with (`tools/icount/run.sh`):
//! `plan_ticks N` plans N times for one robot of a crowded field (11 + 11 moving robots and
//! the ball; 20 frames of 22 robots, cycled, as the `plan/crowded_per_robot` bench does).
//! `plan_ticks N no_path` and `plan_ticks N empty_field` plan N times the scene of the bench
//! of that name instead. Prints a digest of the plans so nothing is optimised away.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{LIMITS, ObsSet, crowded_frame, ssl_static};
use path_planner::obstacle::Circle;
use path_planner::rng::SplitMix64;
use path_planner::{Obstacle, PathFinder, PlanRequest, PlannerConfig, Vec2};
use std::process::ExitCode;

/// Frames of the crowded field; each has 22 robots to plan for.
const FRAMES: usize = 20;
const ROBOTS: usize = 22;

fn main() -> ExitCode {
    let Some(Ok(plans)) = std::env::args().nth(1).map(|n| n.parse::<usize>()) else {
        eprintln!("usage: plan_ticks PLANS [no_path|empty_field]");
        return ExitCode::from(2);
    };
    let digest = match std::env::args().nth(2).as_deref() {
        None => crowded(plans),
        Some("no_path") => single_scene(plans, true),
        Some("empty_field") => single_scene(plans, false),
        Some(other) => {
            eprintln!("plan_ticks: unknown scene {other}");
            return ExitCode::from(2);
        }
    };
    println!("{digest:.3} s of planned paths");
    ExitCode::SUCCESS
}

/// The crowded field, robot after robot and frame after frame.
fn crowded(plans: usize) -> f64 {
    let mut rng = SplitMix64::new(99);
    let frames: Vec<_> = (0..FRAMES)
        .map(|_| {
            let frame = crowded_frame(&mut rng);
            let sets: Vec<ObsSet> = (0..ROBOTS).map(|i| frame.obstacles_for(i)).collect();
            (frame, sets)
        })
        .collect();
    let refs: Vec<Vec<Vec<&dyn Obstacle>>> = frames
        .iter()
        .map(|(_, sets)| sets.iter().map(|s| s.refs()).collect())
        .collect();
    let mut finder = PathFinder::new(PlannerConfig::default());
    let mut digest = 0.0;
    for k in 0..plans {
        let (f, r) = ((k / ROBOTS) % FRAMES, k % ROBOTS);
        let request = frames[f].0.request(r, &refs[f][r]);
        if let Some(path) = finder.plan(&request).path {
            digest += common::total_time(&path);
        }
    }
    digest
}

/// The scene of the `plan/no_path` bench (a ring of 24 circles around the destination,
/// R2025 configuration) or of `plan/empty_field`, planned again and again.
fn single_scene(plans: usize, ring: bool) -> f64 {
    let (f, a, b) = ssl_static();
    let circles: Vec<Circle> = (0..24)
        .map(|k| Circle::new(Vec2::from_angle(k as f64 * 0.2618), 0.2))
        .collect();
    let mut obs: Vec<&dyn Obstacle> = vec![&f, &a, &b];
    let (cfg, pos, dest) = if ring {
        obs.extend(circles.iter().map(|c| c as &dyn Obstacle));
        (PlannerConfig::r2025(), Vec2::new(-1.35, 0.0), Vec2::ZERO)
    } else {
        (
            PlannerConfig::default(),
            Vec2::new(-3.0, 0.5),
            Vec2::new(3.0, 0.5),
        )
    };
    let mut finder = PathFinder::new(cfg);
    let request = PlanRequest {
        pos,
        vel: Vec2::ZERO,
        dest,
        limits: LIMITS,
        obstacles: &obs,
        dt: 0.01,
    };
    let mut digest = 0.0;
    for _ in 0..plans {
        if let Some(path) = finder.plan(&request).path {
            digest += common::total_time(&path);
        }
    }
    digest
}
