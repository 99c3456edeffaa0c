//! `decide`'s result line written straight into a byte buffer: the same JSON as the serde
//! `Serialize` of [`TickResult`] (a test pins that), without the serializer's per-value
//! dispatch, so a long snapshot stream is bound by the decisions, not by the formatting.

use super::context::NavAction;
use super::decider::{DecisionMsg, Skip, TickResult};

impl Skip {
    /// The snake_case name used on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Skip::InvalidPosition => "invalid_position",
            Skip::NotInBattle => "not_in_battle",
            Skip::NoPosition => "no_position",
            Skip::NoDecision => "no_decision",
            Skip::Unreachable => "unreachable",
            Skip::ForeignGoalActive => "foreign_goal_active",
        }
    }
}

impl NavAction {
    /// The snake_case name used on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            NavAction::Send => "send",
            NavAction::Preempt => "preempt",
            NavAction::Continue => "continue",
            NavAction::Hold => "hold",
            NavAction::None => "none",
        }
    }
}

fn int(out: &mut Vec<u8>, value: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// An `f32` exactly as serde_json writes it (shortest round-trip form; non-finite as null).
fn float(out: &mut Vec<u8>, value: f32) {
    if value.is_finite() {
        out.extend_from_slice(ryu::Buffer::new().format_finite(value).as_bytes());
    } else {
        out.extend_from_slice(b"null");
    }
}

fn opt_int(out: &mut Vec<u8>, value: Option<i32>) {
    match value {
        Some(v) => int(out, v),
        None => out.extend_from_slice(b"null"),
    }
}

/// Whether any byte of the 8 in `chunk` is `"`, `\\` or a control character (SWAR).
fn chunk_needs_escape(chunk: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_space = chunk.wrapping_sub(ONES * 0x20) & !chunk & HIGH;
    below_space
        | zero_byte(chunk ^ (ONES * u64::from(b'"')))
        | zero_byte(chunk ^ (ONES * u64::from(b'\\')))
        != 0
}

/// Index of the first byte that JSON needs escaped, scanning 8 bytes at a time.
fn first_to_escape(bytes: &[u8]) -> Option<usize> {
    let needs = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
    let mut start = 0;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if chunk_needs_escape(u64::from_le_bytes(word)) {
            return chunk.iter().position(|&b| needs(b)).map(|i| start + i);
        }
        start += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| needs(b))
        .map(|i| start + i)
}

/// A JSON string with serde_json's escapes; text without anything to escape (the usual
/// case) is copied in one piece.
fn string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    let mut rest = text.as_bytes();
    while let Some(i) = first_to_escape(rest) {
        out.extend_from_slice(&rest[..i]);
        let b = rest[i];
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xf)]);
            }
        }
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

fn int_list(out: &mut Vec<u8>, values: &[i32]) {
    out.push(b'[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        int(out, *v);
    }
    out.push(b']');
}

fn decision(out: &mut Vec<u8>, d: &DecisionMsg) {
    out.extend_from_slice(b"{\"decision_id\":");
    int(out, d.decision_id);
    out.extend_from_slice(b",\"mode\":");
    int(out, d.mode);
    out.extend_from_slice(b",\"x\":");
    float(out, d.x);
    out.extend_from_slice(b",\"y\":");
    float(out, d.y);
    out.extend_from_slice(b",\"theta\":");
    float(out, d.theta);
    out.push(b'}');
}

impl TickResult {
    /// Appends this result as one JSON object (no newline) to `out`.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"tick\":");
        int(out, self.tick);
        out.extend_from_slice(b",\"skipped\":");
        match self.skipped {
            Some(s) => string(out, s.as_str()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"waypoint\":");
        opt_int(out, self.waypoint);
        out.extend_from_slice(b",\"available\":");
        int_list(out, &self.available);
        out.extend_from_slice(b",\"best\":");
        opt_int(out, self.best);
        out.extend_from_slice(b",\"chosen\":");
        opt_int(out, self.chosen);
        out.extend_from_slice(b",\"action\":");
        string(out, self.action.as_str());
        out.extend_from_slice(b",\"path\":");
        int_list(out, &self.path);
        out.extend_from_slice(b",\"poses\":[");
        for (i, pose) in self.poses.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'[');
            for (k, v) in pose.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                float(out, *v);
            }
            out.push(b']');
        }
        out.extend_from_slice(b"],\"aim_yaw\":");
        match self.aim_yaw {
            Some(v) => float(out, v),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"decision\":");
        match &self.decision {
            Some(d) => decision(out, d),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"cancelled\":");
        opt_int(out, self.cancelled);
        out.extend_from_slice(b",\"why_not\":{");
        for (i, (id, reason)) in self.why_not.0.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            int(out, *id);
            out.extend_from_slice(b"\":");
            string(out, reason);
        }
        out.extend_from_slice(b"}}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robomaster::decider::WhyNot;

    fn same_as_serde(r: &TickResult) {
        let mut fast = Vec::new();
        r.write_json(&mut fast);
        let serde = serde_json::to_vec(r).expect("serialise");
        assert_eq!(
            String::from_utf8_lossy(&fast),
            String::from_utf8_lossy(&serde)
        );
    }

    #[test]
    fn matches_serde_on_empty_and_full_results() {
        same_as_serde(&TickResult::default());
        let full = TickResult {
            tick: 41,
            skipped: Some(Skip::ForeignGoalActive),
            waypoint: Some(-3),
            available: vec![0, 16, 300],
            best: Some(16),
            chosen: Some(0),
            action: NavAction::Preempt,
            path: vec![8, 3],
            poses: vec![[8.4, 4.4, 1.5707964], [1e-7, -0.0, 7.071593]],
            aim_yaw: Some(f32::NAN),
            decision: Some(DecisionMsg {
                decision_id: 255,
                mode: 8,
                x: 10.6,
                y: 4.3,
                theta: -3.0501852,
            }),
            cancelled: Some(7),
            why_not: WhyNot::from_entries(vec![
                (1, "wayPointID: current waypoint 2 not in [0]".into()),
                (2, "quote \" backslash \\ tab \t bell \u{7} é".into()),
            ]),
        };
        same_as_serde(&full);
        for text in [
            "",
            "abcdefgh",
            "abcdefg\"",
            "\u{1f}bcdefghij",
            "0123456789\\",
            "é\u{0}",
        ] {
            same_as_serde(&TickResult {
                why_not: WhyNot::from_entries(vec![(0, text.to_string())]),
                ..TickResult::default()
            });
        }
        for skip in [
            Skip::InvalidPosition,
            Skip::NotInBattle,
            Skip::NoPosition,
            Skip::NoDecision,
            Skip::Unreachable,
        ] {
            same_as_serde(&TickResult {
                skipped: Some(skip),
                ..TickResult::default()
            });
        }
        for action in [NavAction::Send, NavAction::Continue, NavAction::Hold] {
            same_as_serde(&TickResult {
                action,
                ..TickResult::default()
            });
        }
    }
}
