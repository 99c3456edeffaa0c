//! `decide`'s result line written straight into a byte buffer: the same JSON as the serde
//! `Serialize` of [`TickResult`] (a test pins that), without the serializer's per-value
//! dispatch, so a long snapshot stream is bound by the decisions, not by the formatting.

use super::context::{GoalPose, NavAction};
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

/// Where a result line is written: a byte buffer or a `String`. Only text is written (ASCII
/// bytes one at a time), so a `String` stays valid UTF-8 without checks.
pub(super) trait Sink {
    /// Appends `text`.
    fn text(&mut self, text: &str);
    /// Appends one ASCII byte.
    fn ascii(&mut self, byte: u8);
}

impl Sink for Vec<u8> {
    #[inline]
    fn text(&mut self, text: &str) {
        self.extend_from_slice(text.as_bytes());
    }

    #[inline]
    fn ascii(&mut self, byte: u8) {
        debug_assert!(byte.is_ascii());
        self.push(byte);
    }
}

impl Sink for String {
    #[inline]
    fn text(&mut self, text: &str) {
        self.push_str(text);
    }

    #[inline]
    fn ascii(&mut self, byte: u8) {
        debug_assert!(byte.is_ascii());
        self.push(char::from(byte));
    }
}

fn int(out: &mut impl Sink, value: impl itoa::Integer) {
    out.text(itoa::Buffer::new().format(value));
}

/// An `f32` exactly as serde_json writes it (shortest round-trip form; non-finite as null).
fn float(out: &mut impl Sink, value: f32) {
    if value.is_finite() {
        FLOAT_TEXTS.with_borrow_mut(|cache| out.text(cache.format(value)));
    } else {
        out.text("null");
    }
}

/// The last rendered texts of recently written `f32`s, direct-mapped by bit pattern: a result
/// line's numbers are mostly waypoint coordinates and headings, the same from line to line,
/// so most lines format none of their floats again.
struct FloatTexts {
    /// `(bits, text)`; an empty text marks an empty slot (no float renders as "").
    slots: [(u32, String); FLOAT_TEXT_SLOTS],
}

const FLOAT_TEXT_SLOTS: usize = 64;

impl FloatTexts {
    /// `value`'s text (finite values only), from the cache or rendered into it.
    fn format(&mut self, value: f32) -> &str {
        let bits = value.to_bits();
        // Fibonacci hashing: the top 6 bits of the product pick one of the 64 slots.
        let index = (bits.wrapping_mul(0x9E37_79B1) >> 26) as usize;
        let slot = &mut self.slots[index % FLOAT_TEXT_SLOTS];
        if slot.0 != bits || slot.1.is_empty() {
            slot.0 = bits;
            slot.1.clear();
            slot.1.push_str(zmij::Buffer::new().format_finite(value));
        }
        &slot.1
    }
}

thread_local! {
    static FLOAT_TEXTS: std::cell::RefCell<FloatTexts> = std::cell::RefCell::new(FloatTexts {
        // Room for the longest `f32` text (`-1.23456789e-38`), so no slot grows later.
        slots: std::array::from_fn(|_| (0, String::with_capacity(16))),
    });
}

fn opt_int(out: &mut impl Sink, value: Option<i32>) {
    match value {
        Some(v) => int(out, v),
        None => out.text("null"),
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

/// The body of a JSON string (no quotes) with serde_json's escapes; text without anything to
/// escape (the usual case) is copied in one piece.
fn escaped(out: &mut impl Sink, text: &str) {
    let mut rest = text;
    while let Some(i) = first_to_escape(rest.as_bytes()) {
        // Byte `i` is ASCII, so both sides of it are character boundaries.
        let (before, from) = rest.split_at(i);
        out.text(before);
        let mut tail = from.chars();
        let Some(c) = tail.next() else { break };
        match c {
            '"' => out.text("\\\""),
            '\\' => out.text("\\\\"),
            '\n' => out.text("\\n"),
            '\r' => out.text("\\r"),
            '\t' => out.text("\\t"),
            '\u{8}' => out.text("\\b"),
            '\u{c}' => out.text("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let b = c as u8;
                out.text("\\u00");
                out.ascii(HEX[usize::from(b >> 4)]);
                out.ascii(HEX[usize::from(b & 0xf)]);
            }
        }
        rest = tail.as_str();
    }
    out.text(rest);
}

/// A JSON string with serde_json's escapes.
fn string(out: &mut impl Sink, text: &str) {
    out.ascii(b'"');
    escaped(out, text);
    out.ascii(b'"');
}

/// Escapes, in place, the text appended to `out` from byte `start` on (text written there
/// unescaped, e.g. an explanation rendered straight into the line). Nothing moves unless a
/// byte needs an escape.
pub(super) fn escape_tail(out: &mut String, start: usize) {
    let needs = out
        .as_bytes()
        .get(start..)
        .is_some_and(|tail| first_to_escape(tail).is_some());
    if needs && out.is_char_boundary(start) {
        let raw = out.split_off(start);
        escaped(out, &raw);
    }
}

fn int_list(out: &mut impl Sink, values: impl IntoIterator<Item = i32>) {
    out.ascii(b'[');
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            out.ascii(b',');
        }
        int(out, v);
    }
    out.ascii(b']');
}

fn decision(out: &mut impl Sink, d: &DecisionMsg) {
    out.text("{\"decision_id\":");
    int(out, d.decision_id);
    out.text(",\"mode\":");
    int(out, d.mode);
    out.text(",\"x\":");
    float(out, d.x);
    out.text(",\"y\":");
    float(out, d.y);
    out.text(",\"theta\":");
    float(out, d.theta);
    out.ascii(b'}');
}

/// The fields of a result line before `why_not`, borrowed from wherever they are kept (a
/// [`TickResult`] or the decider's own state).
pub(super) struct ResultHead<'a> {
    pub tick: u64,
    pub skipped: Option<Skip>,
    pub waypoint: Option<i32>,
    pub best: Option<i32>,
    pub chosen: Option<i32>,
    pub action: NavAction,
    pub path: &'a [i32],
    pub poses: &'a [GoalPose],
    pub aim_yaw: Option<f32>,
    pub decision: Option<DecisionMsg>,
    pub cancelled: Option<i32>,
}

/// Writes a result line up to and including `"why_not":{` (the caller writes the entries with
/// [`why_not_key`] and closes with [`end_line`]).
pub(super) fn write_head(
    out: &mut impl Sink,
    head: &ResultHead<'_>,
    available: impl IntoIterator<Item = i32>,
) {
    out.text("{\"tick\":");
    int(out, head.tick);
    out.text(",\"skipped\":");
    match head.skipped {
        Some(s) => string(out, s.as_str()),
        None => out.text("null"),
    }
    out.text(",\"waypoint\":");
    opt_int(out, head.waypoint);
    out.text(",\"available\":");
    int_list(out, available);
    out.text(",\"best\":");
    opt_int(out, head.best);
    out.text(",\"chosen\":");
    opt_int(out, head.chosen);
    out.text(",\"action\":");
    string(out, head.action.as_str());
    out.text(",\"path\":");
    int_list(out, head.path.iter().copied());
    out.text(",\"poses\":[");
    for (i, pose) in head.poses.iter().enumerate() {
        if i > 0 {
            out.ascii(b',');
        }
        out.ascii(b'[');
        for (k, v) in pose.iter().enumerate() {
            if k > 0 {
                out.ascii(b',');
            }
            float(out, *v);
        }
        out.ascii(b']');
    }
    out.text("],\"aim_yaw\":");
    match head.aim_yaw {
        Some(v) => float(out, v),
        None => out.text("null"),
    }
    out.text(",\"decision\":");
    match &head.decision {
        Some(d) => decision(out, d),
        None => out.text("null"),
    }
    out.text(",\"cancelled\":");
    opt_int(out, head.cancelled);
    out.text(",\"why_not\":{");
}

/// Starts the `why_not` entry of decision `id` (`first` = no comma before it), up to and
/// including the opening quote of its text.
pub(super) fn why_not_key(out: &mut impl Sink, id: i32, first: bool) {
    if !first {
        out.ascii(b',');
    }
    out.ascii(b'"');
    int(out, id);
    out.text("\":\"");
}

/// Closes the `why_not` object and the line.
pub(super) fn end_line(out: &mut impl Sink) {
    out.text("}}");
}

impl TickResult {
    /// Appends this result as one JSON object (no newline) to `out`.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let head = ResultHead {
            tick: self.tick,
            skipped: self.skipped,
            waypoint: self.waypoint,
            best: self.best,
            chosen: self.chosen,
            action: self.action,
            path: &self.path,
            poses: &self.poses,
            aim_yaw: self.aim_yaw,
            decision: self.decision,
            cancelled: self.cancelled,
        };
        write_head(out, &head, self.available.iter().copied());
        for (i, (id, reason)) in self.why_not.0.iter().enumerate() {
            why_not_key(out, *id, i == 0);
            escaped(out, reason);
            out.ascii(b'"');
        }
        end_line(out);
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

    /// Cached float texts are serde_json's, also when values share a slot and evict each
    /// other, and for the extremes of `f32`.
    #[test]
    fn cached_float_texts_are_serde_texts() {
        let mut values = vec![
            0.0f32,
            -0.0,
            1.0,
            f32::MIN_POSITIVE,
            -f32::MAX,
            1e-45,
            4.4125,
        ];
        values.extend((0..2000).map(|i| (i as f32 * 0.37).sin() * 10f32.powi(i % 12 - 6)));
        for _round in 0..2 {
            for &v in &values {
                let mut text = String::new();
                float(&mut text, v);
                assert_eq!(text, serde_json::to_string(&v).expect("float"), "{v:e}");
            }
        }
    }

    /// Text written raw into a line and escaped in place reads as text escaped on copy.
    #[test]
    fn escaping_in_place_matches_escaping_on_copy() {
        for text in [
            "",
            "plain words [1, 2]",
            "abcdefg\"",
            "quote \" backslash \\ tab \t bell \u{7} é",
            "é\u{0}\u{1f}0123456789\\",
        ] {
            let mut copied = Vec::new();
            string(&mut copied, text);
            let mut in_place = String::from("{\"");
            let start = in_place.len();
            in_place.push_str(text);
            escape_tail(&mut in_place, start);
            in_place.push('"');
            assert_eq!(&in_place.as_bytes()[1..], &copied[..], "{text:?}");
        }
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
