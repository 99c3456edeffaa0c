//! Ticks a BT.CPP XML tree on the benchmark schedule for a given number of ticks, untraced
//! and with visits not counted, as a timed run ticks it: a fixed amount of work to count
//! instructions with (`valgrind --tool=callgrind target/release/examples/schedule_ticks
//! TREE.xml N`), which a busy machine cannot distort as it distorts timings.
//! `schedule_ticks TREE.xml N --visits` counts the node visits and prints them; `--traced`
//! (also after `--time LOADS`) ticks with the trace on, and `--status-of` (with `--traced`,
//! timed or not) asks the root's status of the trace after every tick, which indexes the
//! tick's entries.
//!
//! `schedule_ticks TREE.xml N --time LOADS` times instead, as the BT.CPP side-by-side bench
//! (`tools/btcpp_oracle/bench.cpp`) does, and prints the same line: the median of 5 runs of N
//! ticks (ns per tick) and of 5 runs of LOADS loads from the XML text to a compiled tree (µs
//! per load), so both engines can be run alternately on the same machine.

use decision_core::engine::{NodeId, Registry, Tree, bench_leaves, nodes};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(ticks)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u64>().ok()))
    else {
        eprintln!(
            "usage: schedule_ticks TREE.xml TICKS [--time LOADS | --visits] [--traced [--status-of]]"
        );
        return ExitCode::from(2);
    };
    let path = Path::new(file);
    let spec = match bt_xml::load_file(path).and_then(|doc| bt_xml::main_spec(&doc, None, path)) {
        Ok(spec) => spec,
        Err(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            return ExitCode::from(1);
        }
    };
    let mut registry: Registry<()> = Registry::new();
    nodes::register_standard(&mut registry);
    bench_leaves::register(&mut registry);
    let mut tree: Tree<()> = match bench_leaves::compile_for_schedule(spec, &registry) {
        Ok(tree) => tree,
        Err(errors) => {
            eprintln!("{errors:?}");
            return ExitCode::from(1);
        }
    };
    tree.set_tracing(args.iter().any(|a| a == "--traced"));
    let status_of = args.iter().any(|a| a == "--status-of");
    if args.get(3).map(String::as_str) == Some("--time") {
        let loads = args
            .get(4)
            .and_then(|n| n.parse::<u32>().ok())
            .unwrap_or(100);
        return time_both(path, &registry, tree, ticks, loads, status_of);
    }
    let counting = args.iter().any(|a| a == "--visits");
    tree.set_counting_visits(counting);
    let mut writer = bench_leaves::ScheduleWriter::new(&mut tree);
    for i in 0..ticks {
        let step = writer
            .write(&mut tree, i % bench_leaves::SCHEDULE_PERIOD)
            .map_err(|e| e.to_string())
            .and_then(|()| tree.try_tick(&mut (), i as f64).map_err(|e| e.to_string()));
        if let Err(e) = step {
            eprintln!("tick {i}: {e}");
            return ExitCode::from(1);
        }
        if status_of {
            std::hint::black_box(tree.trace().status_of(NodeId(0)));
        }
    }
    if counting {
        println!("{{\"ticks\": {ticks}, \"visits\": {}}}", tree.visits());
    } else {
        println!("{{\"ticks\": {ticks}}}");
    }
    ExitCode::SUCCESS
}

/// The median of 5 timed runs.
fn median_of_5(mut run: impl FnMut() -> f64) -> f64 {
    let mut runs: Vec<f64> = (0..5).map(|_| run()).collect();
    runs.sort_by(f64::total_cmp);
    runs[2]
}

/// Times `ticks` ticks of the schedule (each followed by a query of the root's status in the
/// trace when `status_of`) and `loads` loads of `path` (text read once, then parsed, expanded
/// and compiled each time); prints both medians.
fn time_both(
    path: &Path,
    registry: &Registry<()>,
    mut tree: Tree<()>,
    ticks: u64,
    loads: u32,
    status_of: bool,
) -> ExitCode {
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("cannot read {}", path.display());
        return ExitCode::from(1);
    };
    let base = path.parent().unwrap_or(Path::new("."));
    let name = path.display().to_string();
    let load_us = median_of_5(|| {
        let start = Instant::now();
        for _ in 0..loads {
            let spec = bt_xml::load_str(&text, &name, base)
                .and_then(|doc| bt_xml::main_spec(&doc, None, path));
            let compiled = spec.map(|spec| bench_leaves::compile_for_schedule(spec, registry));
            std::hint::black_box(compiled.is_ok());
        }
        start.elapsed().as_secs_f64() * 1e6 / f64::from(loads.max(1))
    });
    let mut writer = bench_leaves::ScheduleWriter::new(&mut tree);
    let mut failed = false;
    let ns_per_tick = median_of_5(|| {
        let start = Instant::now();
        for i in 0..ticks {
            failed |= writer
                .write(&mut tree, i % bench_leaves::SCHEDULE_PERIOD)
                .is_err();
            failed |= tree.try_tick(&mut (), i as f64).is_err();
            if status_of {
                std::hint::black_box(tree.trace().status_of(NodeId(0)));
            }
        }
        start.elapsed().as_secs_f64() * 1e9 / ticks.max(1) as f64
    });
    if failed {
        eprintln!("a tick failed");
        return ExitCode::from(1);
    }
    println!("{{\"ns_per_tick\": {ns_per_tick:.1}, \"load_us\": {load_us:.3}}}");
    ExitCode::SUCCESS
}
