//! A byte-level reader for the common shape of a snapshot line: the known keys, plain numbers,
//! no escapes. It gives up (returns `None`) on anything else, and the caller then parses the line
//! with serde, which also names the offending field; so this reader only has to be exact on
//! what it accepts. Numbers it accepts have at most 15 significant digits and a small exponent,
//! where one correctly rounded `f64` division gives the same value as serde_json's parser.

use super::world::{HP_SLOTS, POSITION_SLOTS, Point2, Pose, TickInput};

/// Parses `line` when it has the common shape; `None` means "use the full parser".
pub(super) fn parse(line: &[u8]) -> Option<TickInput> {
    let mut r = Reader { bytes: line, at: 0 };
    let mut input = TickInput::default();
    let mut seen = 0u8;
    r.expect(b'{')?;
    if !r.eat(b'}') {
        loop {
            let key = r.key()?;
            let bit = match key {
                b"obj_hp" => 1,
                b"car_pos" => 2,
                b"game_info" => 4,
                b"serial_msg" => 8,
                b"nav_status" => 16,
                b"pose" => 32,
                b"autoaim" => 64,
                _ => return None,
            };
            if seen & bit != 0 {
                return None; // duplicate keys: serde reports them
            }
            seen |= bit;
            match bit {
                1 => r.nullable(|r| r.hp(&mut input.hp))?,
                2 => r.nullable(|r| r.positions(&mut input.positions))?,
                4 => r.nullable(|r| r.game_info(&mut input))?,
                8 => r.nullable(|r| {
                    r.object(|r, key| match key {
                        b"mode" => {
                            input.mode = r.small_uint()?;
                            Some(())
                        }
                        _ => None,
                    })
                })?,
                16 => input.nav_status = r.small_uint()?,
                32 => input.pose = r.pose()?,
                _ => {
                    if r.null() {
                        input.autoaim_target_lost = None;
                    } else {
                        let mut lost = false;
                        r.object(|r, key| match key {
                            b"is_target_lost" => {
                                lost = r.boolean()?;
                                Some(())
                            }
                            _ => None,
                        })?;
                        input.autoaim_target_lost = Some(lost);
                    }
                }
            }
            if r.eat(b',') {
                continue;
            }
            r.expect(b'}')?;
            break;
        }
    }
    r.skip_ws();
    (r.at == line.len()).then_some(input)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let hit = self.peek() == Some(byte);
        if hit {
            self.at += 1;
        }
        hit
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }

    fn literal(&mut self, word: &[u8]) -> bool {
        self.skip_ws();
        let hit = self.bytes.get(self.at..self.at + word.len()) == Some(word);
        if hit {
            self.at += word.len();
        }
        hit
    }

    fn null(&mut self) -> bool {
        self.literal(b"null")
    }

    /// `"key":` without escapes.
    fn key(&mut self) -> Option<&'a [u8]> {
        self.expect(b'"')?;
        let bytes: &'a [u8] = self.bytes;
        let start = self.at;
        let mut end = start;
        // An escape means an unusual key: the full parser handles it. (A control character
        // makes a key that matches no known key, which gives up too.)
        loop {
            match bytes.get(end)? {
                b'"' => break,
                b'\\' => return None,
                _ => end += 1,
            }
        }
        self.at = end + 1;
        if bytes.get(self.at) == Some(&b':') {
            self.at += 1;
        } else {
            self.expect(b':')?;
        }
        bytes.get(start..end)
    }

    /// `word` exactly at the current position (no whitespace skipped before it).
    fn tight(&mut self, word: &[u8]) -> Option<()> {
        let hit = self.bytes.get(self.at..self.at + word.len()) == Some(word);
        if hit {
            self.at += word.len();
        }
        hit.then_some(())
    }

    /// A point written as compact JSON writers write it, `{"x":N,"y":N}` (no spaces, x first,
    /// numbers): the common shape of `car_pos`, read without the general object loop. `None`,
    /// with the position unchanged, on any other shape (the general reader then takes it).
    fn compact_point(&mut self) -> Option<Point2> {
        let start = self.at;
        let point = (|| {
            self.skip_ws();
            self.tight(b"{\"x\":")?;
            let x = self.float()?;
            self.tight(b",\"y\":")?;
            let y = self.float()?;
            self.tight(b"}")?;
            Some(Point2 { x, y })
        })();
        if point.is_none() {
            self.at = start;
        }
        point
    }

    /// `null` leaves the target as it is (the defaults); otherwise `read`.
    fn nullable(&mut self, read: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        if self.null() { Some(()) } else { read(self) }
    }

    /// An object whose every key is handled by `field` (which fails on unknown keys).
    fn object(&mut self, mut field: impl FnMut(&mut Self, &[u8]) -> Option<()>) -> Option<()> {
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let key = self.key()?;
            field(self, key)?;
            if self.eat(b',') {
                continue;
            }
            return self.expect(b'}');
        }
    }

    fn boolean(&mut self) -> Option<bool> {
        if self.literal(b"true") {
            Some(true)
        } else if self.literal(b"false") {
            Some(false)
        } else {
            None
        }
    }

    /// A non-negative integer that fits `T` (no sign, fraction or exponent).
    fn small_uint<T: TryFrom<u64>>(&mut self) -> Option<T> {
        self.skip_ws();
        let bytes = self.bytes;
        let start = self.at;
        let (value, end) = digits(bytes, start);
        let count = end - start;
        // No leading zeros (serde rejects them), at most 19 digits (no overflow), and nothing
        // number-like after the digits.
        if count == 0 || count > 19 || (count > 1 && bytes.get(start) == Some(&b'0')) {
            return None;
        }
        if let Some(b'.' | b'e' | b'E' | b'-' | b'+') = bytes.get(end) {
            return None;
        }
        self.at = end;
        T::try_from(value).ok()
    }

    /// A JSON number as serde_json reads it into an `f64`, when exactly reproducible.
    fn number(&mut self) -> Option<f64> {
        self.skip_ws();
        let bytes = self.bytes;
        let mut at = self.at;
        let negative = bytes.get(at) == Some(&b'-');
        if negative {
            at += 1;
        }
        let int_start = at;
        let (mut significand, int_end) = digits(bytes, int_start);
        let int_digits = int_end - int_start;
        if int_digits == 0 || (int_digits > 1 && bytes.get(int_start) == Some(&b'0')) {
            return None;
        }
        at = int_end;
        let mut scale = 0usize;
        if bytes.get(at) == Some(&b'.') {
            let (with_fraction, frac_end) = digits_after(bytes, at + 1, significand);
            scale = frac_end - (at + 1);
            if scale == 0 {
                return None;
            }
            significand = with_fraction;
            at = frac_end;
        }
        // At most 15 significant digits (leading zeros included), no exponent.
        if int_digits + scale > 15 {
            return None;
        }
        if let Some(b'e' | b'E') = bytes.get(at) {
            return None;
        }
        self.at = at;
        // Exact operands (< 2^53, 10^scale <= 10^15): one correctly rounded division.
        let magnitude = significand as f64 / POW10[scale];
        Some(if negative { -magnitude } else { magnitude })
    }

    /// A number as serde_json reads it into an `f32` (via `f64`).
    fn float(&mut self) -> Option<f32> {
        self.number().map(|v| v as f32)
    }

    fn hp(&mut self, hp: &mut [u16; HP_SLOTS]) -> Option<()> {
        let mut found = false;
        self.object(|r, key| match key {
            b"hp" if !found => {
                found = true;
                r.expect(b'[')?;
                for (i, slot) in hp.iter_mut().enumerate() {
                    if i > 0 {
                        r.expect(b',')?;
                    }
                    *slot = r.small_uint()?;
                }
                r.expect(b']')
            }
            _ => None,
        })?;
        found.then_some(())
    }

    fn positions(&mut self, positions: &mut [Point2; POSITION_SLOTS]) -> Option<()> {
        let mut found = false;
        self.object(|r, key| match key {
            b"pos" if !found => {
                found = true;
                r.expect(b'[')?;
                for (i, slot) in positions.iter_mut().enumerate() {
                    if i > 0 {
                        r.expect(b',')?;
                    }
                    if let Some(point) = r.compact_point() {
                        *slot = point;
                        continue;
                    }
                    let (mut x, mut y) = (f32::NAN, f32::NAN);
                    let (mut has_x, mut has_y) = (false, false);
                    r.object(|r, key| {
                        let (target, seen) = match key {
                            b"x" => (&mut x, &mut has_x),
                            b"y" => (&mut y, &mut has_y),
                            _ => return None,
                        };
                        if *seen {
                            return None;
                        }
                        *seen = true;
                        if !r.null() {
                            *target = r.float()?;
                        }
                        Some(())
                    })?;
                    *slot = Point2 { x, y };
                }
                r.expect(b']')
            }
            _ => None,
        })?;
        found.then_some(())
    }

    fn game_info(&mut self, input: &mut TickInput) -> Option<()> {
        let (mut timestamp, mut stage) = (None, None);
        self.object(|r, key| match key {
            b"timestamp" if timestamp.is_none() => {
                timestamp = Some(r.number()?);
                Some(())
            }
            b"game_stage" if stage.is_none() => {
                stage = Some(r.small_uint()?);
                Some(())
            }
            _ => None,
        })?;
        // Absent keys take the defaults of `GameInfoIn`.
        input.remaining_time = timestamp.unwrap_or(300.0);
        input.game_stage = stage.unwrap_or(super::world::STAGE_IN_BATTLE);
        Some(())
    }

    /// `pose`: null, or all three of x, y, yaw.
    fn pose(&mut self) -> Option<Option<Pose>> {
        if self.null() {
            return Some(None);
        }
        let (mut x, mut y, mut yaw) = (None, None, None);
        self.object(|r, key| {
            let target = match key {
                b"x" => &mut x,
                b"y" => &mut y,
                b"yaw" => &mut yaw,
                _ => return None,
            };
            if target.is_some() {
                return None;
            }
            *target = Some(r.float()?);
            Some(())
        })?;
        Some(Some(Pose {
            x: x?,
            y: y?,
            yaw: yaw?,
        }))
    }
}

/// The decimal digits of `bytes` from `start`: their value (wrapping; callers reject more than
/// 15 or 19 digits) and the index after the last digit.
fn digits(bytes: &[u8], start: usize) -> (u64, usize) {
    digits_after(bytes, start, 0)
}

/// As [`digits`], continuing the value `value` already read (the fraction after the integer).
fn digits_after(bytes: &[u8], start: usize, mut value: u64) -> (u64, usize) {
    let mut at = start;
    while let Some(&b) = bytes.get(at) {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(digit));
        at += 1;
    }
    (value, at)
}

const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

#[cfg(test)]
mod tests {
    use super::parse;
    use crate::robomaster::snapshot::parse_line;

    /// Lines the fast reader takes must read exactly as serde reads them.
    #[test]
    fn accepted_lines_read_as_serde_reads_them() {
        let pos: Vec<String> = (0..12)
            .map(|i| format!(r#"{{"x": {}.{}5, "y": -0.{}1}}"#, i, i, i))
            .collect();
        let lines = [
            "{}".to_string(),
            r#"{"nav_status": 2, "serial_msg": {"mode": 7}, "autoaim": {"is_target_lost": true}}"#
                .to_string(),
            format!(
                r#"{{"obj_hp": {{"hp": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,65535]}}, "car_pos": {{"pos": [{}]}}, "game_info": {{"timestamp": 123.456, "game_stage": 4}}, "pose": {{"x": 8.96, "y": 2.79, "yaw": -3.14159}}}}"#,
                pos.join(", ")
            ),
            r#"{"game_info": {"game_stage": 2}, "pose": null, "autoaim": {}}"#.to_string(),
            r#"{"car_pos": {"pos": [{"x": null, "y": 1}, {"x": 0, "y": 0}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {"y": 0.1}]}}"#.to_string(),
        ];
        for line in &lines {
            let fast = parse(line.as_bytes()).unwrap_or_else(|| panic!("fast path refused {line}"));
            let slow = parse_line(line).expect("serde accepts it");
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{line}");
        }
    }

    #[test]
    fn the_sample_snapshots_take_the_fast_path_and_read_as_serde_reads_them() {
        let text = include_str!("../../../sample/snapshots.jsonl");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let slow = parse_line(line).expect("serde accepts the sample");
            let fast = parse(line.as_bytes()).unwrap_or_else(|| panic!("refused: {line}"));
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{line}");
        }
    }

    proptest::proptest! {
        /// Random decimals in the fast reader's range read exactly as serde reads them.
        #[test]
        fn numbers_read_as_serde_reads_them(int in 0u64..100_000, frac in 0u64..10_000_000, digits in 0usize..8, negative: bool) {
            let text = if digits == 0 {
                format!("{}{int}", if negative { "-" } else { "" })
            } else {
                let frac = format!("{frac:07}");
                format!("{}{int}.{}", if negative { "-" } else { "" }, &frac[..digits])
            };
            let line = format!(r#"{{"pose": {{"x": {text}, "y": 0, "yaw": 0}}, "game_info": {{"timestamp": {text}}}}}"#);
            let fast = parse(line.as_bytes()).expect("fast path");
            let slow = parse_line(&line).expect("serde");
            proptest::prop_assert_eq!(fast.pose.map(|p| p.x.to_bits()), slow.pose.map(|p| p.x.to_bits()));
            proptest::prop_assert_eq!(fast.remaining_time.to_bits(), slow.remaining_time.to_bits());
        }
    }

    /// Compact points take the fast point reader, any other point shape the general one; a
    /// line mixing both reads as serde reads it.
    #[test]
    fn compact_and_general_points_read_alike() {
        let compact = r#"{"x":9.8,"y":-5.25}"#;
        let mut r = super::Reader {
            bytes: compact.as_bytes(),
            at: 0,
        };
        let point = r.compact_point().expect("compact point");
        assert_eq!((point.x, point.y, r.at), (9.8, -5.25, compact.len()));
        let unusual = [
            r#"{"y":1.5,"x":2.5}"#,
            r#"{ "x": 2.5, "y": 1.5 }"#,
            r#"{"x":null,"y":1.5}"#,
            r#"{"x":2.5}"#,
            r#"{"x":2.5,"y":1.5,"z":0}"#,
            r#"{}"#,
        ];
        for text in unusual {
            let mut r = super::Reader {
                bytes: text.as_bytes(),
                at: 0,
            };
            assert!(r.compact_point().is_none(), "{text}");
            assert_eq!(r.at, 0, "{text}: position restored");
        }
        let accepted: Vec<&str> = unusual[..4]
            .iter()
            .copied()
            .chain(std::iter::repeat_n(compact, 8))
            .collect();
        let line = format!(r#"{{"car_pos":{{"pos":[{}]}}}}"#, accepted.join(","));
        let fast = parse(line.as_bytes()).expect("fast reader takes the line");
        let slow = parse_line(&line).expect("serde accepts it");
        assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        for refused in [r#"{"x":2.5,"y":1.5,"z":0}"#, r#"{"x":1e3,"y":1}"#] {
            let line = format!(
                r#"{{"car_pos":{{"pos":[{refused},{}]}}}}"#,
                [compact; 11].join(",")
            );
            assert!(parse(line.as_bytes()).is_none(), "{line}");
        }
    }

    #[test]
    fn anything_unusual_is_left_to_serde() {
        for line in [
            r#"{"nav_status": 300}"#,
            r#"{"nav_status": 02}"#,
            r#"{"nav_status": 2.0}"#,
            r#"{"obj_hp": {"hp": [1, 2]}}"#,
            r#"{"unknown": 1}"#,
            r#"{"nav_status": 1, "nav_status": 2}"#,
            r#"{"pose": {"x": 1, "y": 2}}"#,
            r#"{"pose": {"x": 1e3, "y": 2, "yaw": 0}}"#,
            r#"{"pose": {"x": 1.23456789012345678, "y": 2, "yaw": 0}}"#,
            r#"{"game_info": {"timestamp": "x"}}"#,
            r#"{"k\u0061y": 1}"#,
            r#"{} trailing"#,
            "not json",
        ] {
            assert!(parse(line.as_bytes()).is_none(), "{line}");
        }
    }
}
