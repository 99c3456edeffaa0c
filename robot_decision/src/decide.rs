//! `robot-decision decide`: snapshots in, results out, state carried from line to line.

use decision_core::robomaster::snapshot::parse_line;
use decision_core::robomaster::{Decider, TickResult};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Runs the snapshots of `input` through the decider for `config`.
pub fn run(config: &Path, input: &Path) -> ExitCode {
    let Some(tables) = crate::load_or_report(config) else {
        return ExitCode::from(1);
    };
    let mut decider = match Decider::new(Arc::new(tables)) {
        Ok(d) => d,
        Err(errors) => {
            crate::report_compile_errors(&errors);
            return ExitCode::from(1);
        }
    };
    let reader: Box<dyn Read> = if input == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(input) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("{}: cannot read: {e}", input.display());
                return ExitCode::from(2);
            }
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut bad_lines = 0usize;
    let mut result = TickResult::default();
    let mut tick = 0u64;
    for (index, line) in BufReader::with_capacity(1 << 16, reader)
        .lines()
        .enumerate()
    {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("{}:{}: cannot read: {e}", input.display(), index + 1);
                return ExitCode::from(1);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let written = match parse_line(&line) {
            Ok(snapshot) => {
                decider.tick(&snapshot);
                decider.result_into(&mut result);
                result.tick = tick;
                serde_json::to_writer(&mut out, &result)
            }
            Err(e) => {
                bad_lines += 1;
                eprintln!(
                    "{}:{}:{}: `{}`: {}",
                    input.display(),
                    index + 1,
                    e.column,
                    e.field,
                    e.message
                );
                let skipped = serde_json::json!({
                    "tick": tick, "skipped": "malformed_input",
                    "error": format!("line {}: `{}`: {}", index + 1, e.field, e.message),
                });
                serde_json::to_writer(&mut out, &skipped)
            }
        };
        tick += 1;
        if written.is_err() || out.write_all(b"\n").is_err() {
            // The reader of stdout went away (e.g. `| head`): stop quietly.
            return ExitCode::SUCCESS;
        }
    }
    if out.flush().is_err() {
        return ExitCode::SUCCESS;
    }
    if bad_lines > 0 {
        eprintln!("{}: {bad_lines} malformed line(s) skipped", input.display());
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
