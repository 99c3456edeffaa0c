//! A fixed amount of soccer work to count instructions with (`tools/icount/run.sh`):
//! `soccer_ticks striker|supporter|searcher N` ticks the default tree N times in that role
//! (five teammates, trace on, as the node runs it); `soccer_ticks heatmap N` updates the
//! ball-search heatmap N times. `GRID=0.3` sets the partition's cell size. Prints a digest of the last result so nothing is optimised away.

use soccer_profile::bench_support::{Situation, frames, heatmap_frames};
use soccer_profile::decider::SoccerDecider;
use soccer_profile::params::Parameters;
use soccer_profile::search::SearchSuggestor;
use std::process::ExitCode;
use std::sync::Arc;

/// Frames generated per run; the run cycles through them.
const FRAMES: usize = 1000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(what), Some(Ok(ticks))) = (args.first(), args.get(1).map(|n| n.parse::<usize>()))
    else {
        eprintln!("usage: soccer_ticks striker|supporter|searcher|heatmap TICKS");
        return ExitCode::from(2);
    };
    let situation = match what.as_str() {
        "striker" => Situation::Striker,
        "supporter" => Situation::Supporter,
        "searcher" => Situation::Searcher,
        "heatmap" => return heatmap(ticks),
        other => {
            eprintln!("soccer_ticks: unknown role `{other}`");
            return ExitCode::from(2);
        }
    };
    let spec = match soccer_profile::tree::default_spec() {
        Ok(spec) => spec,
        Err(e) => {
            eprintln!("{e:?}");
            return ExitCode::from(1);
        }
    };
    let mut params = Parameters::default();
    // GRID=0.3 counts the partition at another cell size (the default is 0.2 m).
    if let Some(grid) = std::env::var("GRID").ok().and_then(|g| g.parse().ok()) {
        params.behavior_node.voronoi.grid_resolution = grid;
    }
    let mut decider = match SoccerDecider::new(&spec, Arc::new(params)) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e:?}");
            return ExitCode::from(1);
        }
    };
    let frames = frames(situation, FRAMES);
    let mut last = String::new();
    for i in 0..ticks {
        let decision = decider.tick(&frames[i % FRAMES]);
        if i + 1 == ticks {
            last = format!("{decision:?}");
        }
    }
    println!("{} bytes of decision", last.len());
    ExitCode::SUCCESS
}

/// `ticks` heatmap updates.
fn heatmap(ticks: usize) -> ExitCode {
    let params = Parameters::default();
    let mut suggestor = SearchSuggestor::new(params.search_suggestor.clone(), params.field.clone());
    let frames = heatmap_frames(FRAMES);
    let mut ok = 0usize;
    for i in 0..ticks {
        ok += usize::from(suggestor.update(&frames[i % FRAMES]).is_ok());
    }
    println!("{ok} updates");
    ExitCode::SUCCESS
}
