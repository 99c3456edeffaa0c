//! Ticks a BT.CPP XML tree on the benchmark schedule for a given number of ticks, untraced,
//! and prints the node visits: a fixed amount of work to count instructions with
//! (`valgrind --tool=callgrind target/release/examples/schedule_ticks TREE.xml N`), which a
//! busy machine cannot distort as it distorts timings.

use decision_core::engine::{Registry, Tree, bench_leaves, nodes};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(ticks)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u64>().ok()))
    else {
        eprintln!("usage: schedule_ticks TREE.xml TICKS");
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
    let mut tree: Tree<()> = match bench_leaves::compile_for_schedule(&spec, &registry) {
        Ok(tree) => tree,
        Err(errors) => {
            eprintln!("{errors:?}");
            return ExitCode::from(1);
        }
    };
    tree.set_tracing(false);
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
    }
    println!("{{\"ticks\": {ticks}, \"visits\": {}}}", tree.visits());
    ExitCode::SUCCESS
}
