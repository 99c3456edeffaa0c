//! A fixed amount of planning to count instructions with (`tools/icount/run.sh`):
//! `plan_ticks N` plans N times for one robot of a crowded field (11 + 11 moving robots and
//! the ball; 20 frames of 22 robots, cycled, as the `plan/crowded_per_robot` bench does).
//! Prints a digest of the plans so nothing is optimised away.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{ObsSet, crowded_frame};
use path_planner::rng::SplitMix64;
use path_planner::{Obstacle, PathFinder, PlannerConfig};
use std::process::ExitCode;

/// Frames of the crowded field; each has 22 robots to plan for.
const FRAMES: usize = 20;
const ROBOTS: usize = 22;

fn main() -> ExitCode {
    let Some(Ok(plans)) = std::env::args().nth(1).map(|n| n.parse::<usize>()) else {
        eprintln!("usage: plan_ticks PLANS");
        return ExitCode::from(2);
    };
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
    println!("{digest:.3} s of planned paths");
    ExitCode::SUCCESS
}
