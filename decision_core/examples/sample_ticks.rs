//! Ticks the RoboMaster sample (`sample/config.json` on the 43 snapshots of
//! `sample/snapshots.jsonl`, in a loop) a given number of times and prints the last chosen
//! decision: a fixed amount of work to count instructions with
//! (`valgrind --tool=callgrind target/release/examples/sample_ticks N`).
//! `sample_ticks N --decide` does per tick what `robot-decision decide` does per line: parse
//! the snapshot line, tick, write the result line.

use decision_core::robomaster::snapshot::{parse_line, parse_line_bytes};
use decision_core::robomaster::{Decider, load};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let Some(ticks) = std::env::args()
        .nth(1)
        .and_then(|n| n.parse::<usize>().ok())
    else {
        eprintln!("usage: sample_ticks TICKS");
        return ExitCode::from(2);
    };
    let repo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let outcome = load::load(&repo.join("sample/config.json"));
    let Some(tables) = outcome.tables else {
        eprintln!("{}", outcome.diagnostics);
        return ExitCode::from(1);
    };
    let mut decider = match Decider::new(Arc::new(tables)) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e:?}");
            return ExitCode::from(1);
        }
    };
    let Ok(text) = std::fs::read_to_string(repo.join("sample/snapshots.jsonl")) else {
        eprintln!("cannot read sample/snapshots.jsonl");
        return ExitCode::from(1);
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let inputs: Vec<_> = lines.iter().filter_map(|l| parse_line(l).ok()).collect();
    if inputs.is_empty() || inputs.len() != lines.len() {
        eprintln!("sample/snapshots.jsonl: a line does not parse");
        return ExitCode::from(1);
    }
    if std::env::args().nth(2).as_deref() == Some("--decide") {
        let mut out = String::with_capacity(1 << 12);
        let mut written = 0usize;
        for i in 0..ticks {
            let line = lines[i % lines.len()];
            match parse_line_bytes(line.as_bytes()) {
                Ok(input) => {
                    decider.tick(&input);
                }
                Err(e) => {
                    eprintln!("{}", e.message);
                    return ExitCode::from(1);
                }
            }
            out.clear();
            decider.write_result_json(i as u64, &mut out);
            written += out.len();
        }
        println!("{{\"ticks\": {ticks}, \"bytes\": {written}}}");
        return ExitCode::SUCCESS;
    }
    for i in 0..ticks {
        decider.tick(&inputs[i % inputs.len()]);
    }
    println!(
        "{{\"ticks\": {ticks}, \"chosen\": {:?}}}",
        decider.result().chosen
    );
    ExitCode::SUCCESS
}
