//! `robot-decision decide`: snapshots in, results out, state carried from line to line.

use decision_core::robomaster::Decider;
use decision_core::robomaster::snapshot::parse_line_bytes;
use std::io::{BufRead, BufReader, Write};
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
        if text.is_empty() {
            return ControlFlow::Continue(());
        }
        match parse_line_bytes(text) {
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

/// Calls `each` with every line of `reader` (without its `\n`; a last line without one too):
/// straight from the read buffer when the line lies in it whole, the usual case, else from a
/// copy gathered across reads. Stops early when `each` breaks.
fn for_each_line(
    reader: &mut impl BufRead,
    mut each: impl FnMut(&[u8]) -> ControlFlow<()>,
) -> std::io::Result<()> {
    let mut partial: Vec<u8> = Vec::new();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            if !partial.is_empty() {
                let _ = each(&partial);
            }
            return Ok(());
        }
        let mut rest = buffer;
        while let Some(end) = memchr::memchr(b'\n', rest) {
            let flow = if partial.is_empty() {
                each(&rest[..end])
            } else {
                partial.extend_from_slice(&rest[..end]);
                let flow = each(&partial);
                partial.clear();
                flow
            };
            if flow.is_break() {
                return Ok(());
            }
            rest = &rest[end + 1..];
        }
        partial.extend_from_slice(rest);
        let used = buffer.len();
        reader.consume(used);
    }
}

#[cfg(test)]
mod tests {
    use super::for_each_line;
    use std::io::BufReader;
    use std::ops::ControlFlow;

    fn lines_of(text: &[u8], capacity: usize) -> Vec<Vec<u8>> {
        let mut reader = BufReader::with_capacity(capacity, text);
        let mut lines = Vec::new();
        for_each_line(&mut reader, |line| {
            lines.push(line.to_vec());
            ControlFlow::Continue(())
        })
        .expect("reading a slice cannot fail");
        lines
    }

    #[test]
    fn lines_split_alike_whatever_the_buffer_size() {
        let text = b"{\"a\":1}\n\n  {\"b\":22}\r\nlast without newline";
        let expected: Vec<Vec<u8>> = text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        for capacity in [1, 2, 3, 5, 8, 64, 1 << 16] {
            assert_eq!(lines_of(text, capacity), expected, "buffer of {capacity}");
        }
        assert_eq!(lines_of(b"one\n", 2), vec![b"one".to_vec()]);
        assert!(lines_of(b"", 4).is_empty());
    }

    #[test]
    fn a_break_stops_the_reading() {
        let mut reader = BufReader::with_capacity(4, &b"a\nb\nc\n"[..]);
        let mut seen = Vec::new();
        for_each_line(&mut reader, |line| {
            seen.push(line.to_vec());
            if line == b"b" {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .expect("reading a slice cannot fail");
        assert_eq!(seen, vec![b"a".to_vec(), b"b".to_vec()]);
    }
}
