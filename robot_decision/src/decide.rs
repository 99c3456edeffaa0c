//! `robot-decision decide`: snapshots in, results out, state carried from line to line.

use crate::lines::for_each_line;
use decision_core::robomaster::Decider;
use decision_core::robomaster::snapshot::{SnapshotError, parse_line_bytes};
use std::io::{BufReader, Write};
use std::ops::ControlFlow;
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
    let reader = match crate::open_input(input) {
        Ok(r) => r,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut stdout = stdout.lock();
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let mut out = String::with_capacity(1 << 17);
    let mut bad_lines = 0usize;
    let mut tick = 0u64;
    let mut index = 0usize;
    let mut reader_gone = false;
    let read = for_each_line(&mut reader, |line| {
        index += 1;
        let text = line.trim_ascii();
        let parsed = if text.is_empty() {
            Err(SnapshotError {
                column: 1,
                field: ".".into(),
                message: crate::lines::EMPTY_LINE.into(),
            })
        } else {
            // A line that is not UTF-8 is reported as such (the JSON reader would only see an
            // unexpected byte); checked only when the line fails, to keep good lines fast.
            parse_line_bytes(text).map_err(|e| match crate::lines::line_text(text) {
                Err(fault) => SnapshotError {
                    column: fault.column + (line.len() - line.trim_ascii_start().len()),
                    field: ".".into(),
                    message: fault.message,
                },
                Ok(_) => e,
            })
        };
        match parsed {
            Ok(snapshot) => {
                decider.tick(&snapshot);
                decider.write_result_json(tick, &mut out);
            }
            Err(e) => {
                bad_lines += 1;
                eprintln!(
                    "{}:{}:{}: `{}`: {}",
                    input.display(),
                    index,
                    e.column,
                    e.field,
                    e.message
                );
                let skipped = serde_json::json!({
                    "tick": tick, "skipped": "malformed_input",
                    "error": format!("line {}: `{}`: {}", index, e.field, e.message),
                });
                out.push_str(&skipped.to_string());
            }
        }
        out.push('\n');
        tick += 1;
        if out.len() >= 1 << 16 {
            if stdout.write_all(out.as_bytes()).is_err() {
                // The reader of stdout went away (e.g. `| head`): stop quietly.
                reader_gone = true;
                return ControlFlow::Break(());
            }
            out.clear();
        }
        ControlFlow::Continue(())
    });
    if reader_gone {
        return ExitCode::SUCCESS;
    }
    if let Err(e) = read {
        eprintln!("{}:{}: cannot read: {e}", input.display(), index + 1);
        return ExitCode::from(1);
    }
    if stdout.write_all(out.as_bytes()).is_err() || stdout.flush().is_err() {
        return ExitCode::SUCCESS;
    }
    if bad_lines > 0 {
        eprintln!("{}: {bad_lines} malformed line(s) skipped", input.display());
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
