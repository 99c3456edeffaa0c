//! The JSON Lines input every offline command shares (`decide`, `bt`, `soccer decide`,
//! `soccer heatmap`).
//!
//! The rule, the same for all four: **one output line per input line**, so a reader can pair
//! them by position. A line that cannot hold a JSON value is one more malformed line, answered
//! like any other (`{"skipped": "malformed_input"}`), reported on stderr with its line and
//! column, and the run goes on and exits 1 at the end. That covers an empty or blank line (JSON
//! Lines has one value on every line) and a line that is not valid UTF-8 (its column is the
//! first bad byte's). The newline that ends the last line is no line of its own.

use std::io::BufRead;
use std::ops::ControlFlow;

/// The message for an empty or blank input line.
pub const EMPTY_LINE: &str = "empty line (every line must hold one JSON object)";

/// Why an input line is not text that can hold a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineFault {
    /// 1-based byte column of the fault.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// The text of one input line, or why it is malformed before any JSON is read: not UTF-8
/// (at the first bad byte) or empty / blank (at column 1).
pub fn line_text(bytes: &[u8]) -> Result<&str, LineFault> {
    let text = std::str::from_utf8(bytes).map_err(|e| LineFault {
        column: e.valid_up_to() + 1,
        message: format!(
            "not valid UTF-8 (byte {} of the line cannot start or continue a character)",
            e.valid_up_to() + 1
        ),
    })?;
    if text.trim().is_empty() {
        return Err(LineFault {
            column: 1,
            message: EMPTY_LINE.into(),
        });
    }
    Ok(text)
}

/// The lines of a reader as bytes with their 1-based numbers (without the `\n`; a last line
/// without one too); an I/O error ends the iteration after it is yielded.
pub struct NumberedLines<R> {
    reader: R,
    number: usize,
    done: bool,
}

impl<R: BufRead> NumberedLines<R> {
    /// Numbers the lines of `reader` from 1.
    pub fn new(reader: R) -> Self {
        Self {
            reader,
            number: 0,
            done: false,
        }
    }
}

impl<R: BufRead> Iterator for NumberedLines<R> {
    type Item = (usize, std::io::Result<Vec<u8>>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut line = Vec::new();
        self.number += 1;
        match self.reader.read_until(b'\n', &mut line) {
            Ok(0) => {
                self.done = true;
                None
            }
            Ok(_) => {
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                Some((self.number, Ok(line)))
            }
            Err(e) => {
                self.done = true;
                Some((self.number, Err(e)))
            }
        }
    }
}

/// Calls `each` with every line of `reader` (without its `\n`; a last line without one too):
/// straight from the read buffer when the line lies in it whole, the usual case, else from a
/// copy gathered across reads. Stops early when `each` breaks.
pub fn for_each_line(
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
    fn empty_blank_and_non_utf8_lines_are_faults_with_their_column() {
        use super::{EMPTY_LINE, LineFault, line_text};
        assert_eq!(line_text(b"{}"), Ok("{}"));
        for blank in [&b""[..], b"   ", b"\t \r"] {
            let fault = LineFault {
                column: 1,
                message: EMPTY_LINE.into(),
            };
            assert_eq!(line_text(blank), Err(fault));
        }
        let fault = line_text(b"{\"a\": \"\xc3(\"}").unwrap_err();
        assert_eq!(fault.column, 8);
        assert!(
            fault.message.starts_with("not valid UTF-8"),
            "{}",
            fault.message
        );
    }

    #[test]
    fn numbered_lines_count_every_line_and_drop_only_the_final_newline() {
        use super::NumberedLines;
        let lines: Vec<(usize, Vec<u8>)> = NumberedLines::new(&b"a\n\nb\nc"[..])
            .map(|(n, l)| (n, l.expect("slice")))
            .collect();
        assert_eq!(
            lines,
            vec![
                (1, b"a".to_vec()),
                (2, b"".to_vec()),
                (3, b"b".to_vec()),
                (4, b"c".to_vec())
            ]
        );
        assert_eq!(NumberedLines::new(&b"a\n"[..]).count(), 1);
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
