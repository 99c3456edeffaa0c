//! One entry point per parser of outside data, each taking arbitrary bytes: the AFL++ fuzzer
//! (`fuzz/`, outside the workspace) runs them instrumented, and `tests/corpus.rs` runs the seed
//! corpus, every regression input found so far and a seeded mutation round through them on
//! every test run. A target must never panic: bad input is an error value, and where a parser
//! accepts the input, the part after it (tick, decide, compile) must cope with what it accepted.

mod messages;

pub use messages::ROS2_TYPES;
mod robomaster;
mod soccer;
mod trees;

/// A fuzz target: its name (the corpus folder under `corpus/`) and its entry point.
#[derive(Clone, Copy)]
pub struct Target {
    /// The folder name under `corpus/` and `regressions/`, and the `FUZZ_TARGET` value.
    pub name: &'static str,
    /// Runs one input; a panic is a finding.
    pub run: fn(&[u8]),
}

/// Every target, in the order the fuzz script runs them.
pub const TARGETS: [Target; 11] = [
    Target {
        name: "jsonc",
        run: robomaster::jsonc,
    },
    Target {
        name: "robomaster_files",
        run: robomaster::files,
    },
    Target {
        name: "snapshot_line",
        run: robomaster::snapshot_line,
    },
    Target {
        name: "bus_inputs",
        run: messages::robomaster_inputs,
    },
    Target {
        name: "soccer_inputs",
        run: messages::soccer_inputs,
    },
    Target {
        name: "mcap",
        run: messages::mcap,
    },
    Target {
        name: "bt_xml",
        run: trees::bt_xml,
    },
    Target {
        name: "json5_tree",
        run: trees::json5_tree,
    },
    Target {
        name: "soccer_frame",
        run: soccer::frames,
    },
    Target {
        name: "soccer_params",
        run: soccer::params,
    },
    Target {
        name: "ros2_cdr",
        run: messages::ros2_cdr,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().copied().find(|t| t.name == name)
}

/// Splits `data` into `(selector, payload)` messages: each starts with a selector byte and a
/// little-endian 16-bit length, then that many payload bytes (cut short at the end).
/// Multi-message targets use it so that the fuzzer can reorder and resize messages
/// independently; [`encode_messages`] writes it.
pub fn messages(data: &[u8]) -> impl Iterator<Item = (u8, &[u8])> {
    let mut rest = data;
    std::iter::from_fn(move || {
        let (&selector, after) = rest.split_first()?;
        let (len, after) = match after {
            [lo, hi, tail @ ..] => (u16::from_le_bytes([*lo, *hi]), tail),
            _ => (0, &after[after.len()..]),
        };
        let len = usize::from(len).min(after.len());
        let (payload, tail) = after.split_at(len);
        rest = tail;
        Some((selector, payload))
    })
}

/// Writes `(selector, payload)` messages as [`messages`] reads them (payloads cut at 65,535
/// bytes): how the seed corpus of the multi-message targets is made.
pub fn encode_messages<'a>(messages: impl IntoIterator<Item = (u8, &'a [u8])>) -> Vec<u8> {
    let mut out = Vec::new();
    for (selector, payload) in messages {
        let payload = &payload[..payload.len().min(usize::from(u16::MAX))];
        out.push(selector);
        out.extend_from_slice(&(payload.len() as u16).to_le_bytes());
        out.extend_from_slice(payload);
    }
    out
}

/// The repository's folder (the sample files the targets load once).
pub(crate) fn repository() -> &'static std::path::Path {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_split_by_selector_and_length_and_cut_at_the_end() {
        let data = [7, 2, 0, b'a', b'b', 9, 0, 0, 3, 5, 0, b'x'];
        let got: Vec<(u8, &[u8])> = messages(&data).collect();
        assert_eq!(got, vec![(7, &b"ab"[..]), (9, &b""[..]), (3, &b"x"[..])]);
        assert_eq!(messages(&[4]).collect::<Vec<_>>(), vec![(4, &b""[..])]);
        assert_eq!(messages(&[4, 1]).collect::<Vec<_>>(), vec![(4, &b""[..])]);
        let written = encode_messages([(7, &b"ab"[..]), (9, &b""[..])]);
        assert_eq!(written, data[..8]);
    }

    #[test]
    fn target_names_are_unique_and_found() {
        for t in TARGETS {
            assert_eq!(target(t.name).map(|f| f.name), Some(t.name));
        }
        assert!(target("nothing").is_none());
    }
}
