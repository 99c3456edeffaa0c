//! The `decide` input: one snapshot of the tick's inputs per JSON line, with defaults for
//! absent keys, checked so that a bad line names its field.

use super::world::{HP_SLOTS, POSITION_SLOTS, Point2, Pose, STAGE_IN_BATTLE, TickInput};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One snapshot line as written (see `robot-decision decide` in the manual).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Snapshot {
    /// `obj_hp`: 16 HP values (red 0..7, blue 8..15); absent = all 0.
    pub obj_hp: Option<ObjHpIn>,
    /// `car_pos`: 12 positions (red 0..5, blue 6..11); absent = all unknown.
    pub car_pos: Option<CarPosIn>,
    /// `game_info`; absent = 300 s remaining, stage 4.
    pub game_info: Option<GameInfoIn>,
    /// `serial_msg`; absent = mode 0.
    pub serial_msg: Option<SerialIn>,
    /// Last Nav2 goal status code (0 unknown .. 6 aborted).
    pub nav_status: u8,
    /// Our pose in the map, if known.
    pub pose: Option<Pose>,
    /// A fresh auto-aim message, if any.
    pub autoaim: Option<AutoaimIn>,
}

/// `obj_hp` of a snapshot.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ObjHpIn {
    /// Exactly 16 values.
    pub hp: Vec<u16>,
}

/// `car_pos` of a snapshot.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CarPosIn {
    /// Exactly 12 points; a null coordinate is NaN (an invalid position).
    pub pos: Vec<PointIn>,
}

/// A point whose coordinates may be null.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PointIn {
    /// x in metres, null = NaN.
    pub x: Option<f32>,
    /// y in metres, null = NaN.
    pub y: Option<f32>,
}

/// `game_info` of a snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct GameInfoIn {
    /// Remaining seconds.
    pub timestamp: f64,
    /// Game stage (4 = in battle).
    pub game_stage: u8,
}

impl Default for GameInfoIn {
    fn default() -> Self {
        Self {
            timestamp: 300.0,
            game_stage: STAGE_IN_BATTLE,
        }
    }
}

/// `serial_msg` of a snapshot.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct SerialIn {
    /// The lower computer's mode.
    pub mode: u8,
}

/// `autoaim` of a snapshot.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct AutoaimIn {
    /// Whether the auto-aim lost its target.
    pub is_target_lost: bool,
}

/// A snapshot line that could not be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("column {column}: `{field}`: {message}")]
pub struct SnapshotError {
    /// 1-based column in the line (0 when not known).
    pub column: usize,
    /// Path of the offending field, e.g. `obj_hp.hp[3]`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// Parses one line into tick inputs.
pub fn parse_line(line: &str) -> Result<TickInput, SnapshotError> {
    parse_line_bytes(line.as_bytes())
}

/// Parses one line (UTF-8 bytes) into tick inputs; allocation-free for a well-formed line.
pub fn parse_line_bytes(line: &[u8]) -> Result<TickInput, SnapshotError> {
    // Fast path for the common shape; anything else is parsed by serde, which names the
    // offending field.
    if let Some(input) = super::snapshot_fast::parse(line) {
        return Ok(input);
    }
    let snapshot: Snapshot =
        crate::strict_serde::from_json_line(line).map_err(|e| SnapshotError {
            column: e.column,
            field: e.field,
            message: e.message,
        })?;
    snapshot.to_input()
}

impl Snapshot {
    /// Converts to tick inputs, checking list lengths and finiteness.
    pub fn to_input(&self) -> Result<TickInput, SnapshotError> {
        let field_error = |field: &str, message: String| SnapshotError {
            column: 0,
            field: field.into(),
            message,
        };
        let mut input = TickInput::default();
        if let Some(obj_hp) = &self.obj_hp {
            input.hp = obj_hp.hp.as_slice().try_into().map_err(|_| {
                field_error(
                    "obj_hp.hp",
                    format!("expected {HP_SLOTS} values, found {}", obj_hp.hp.len()),
                )
            })?;
        }
        if let Some(car_pos) = &self.car_pos {
            if car_pos.pos.len() != POSITION_SLOTS {
                return Err(field_error(
                    "car_pos.pos",
                    format!(
                        "expected {POSITION_SLOTS} points, found {}",
                        car_pos.pos.len()
                    ),
                ));
            }
            for (slot, p) in input.positions.iter_mut().zip(&car_pos.pos) {
                *slot = Point2 {
                    x: p.x.unwrap_or(f32::NAN),
                    y: p.y.unwrap_or(f32::NAN),
                };
            }
        }
        if let Some(info) = &self.game_info {
            if !info.timestamp.is_finite() {
                return Err(field_error("game_info.timestamp", "not finite".into()));
            }
            input.remaining_time = info.timestamp;
            input.game_stage = info.game_stage;
        }
        input.mode = self.serial_msg.as_ref().map_or(0, |s| s.mode);
        input.nav_status = self.nav_status;
        input.pose = self.pose;
        input.autoaim_target_lost = self.autoaim.as_ref().map(|a| a.is_target_lost);
        Ok(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_nulls() {
        let input = parse_line("{}").unwrap();
        assert_eq!(input.remaining_time, 300.0);
        assert_eq!(input.game_stage, 4);
        assert!(input.pose.is_none() && input.autoaim_target_lost.is_none());
        let mut pos = vec![r#"{"x":1,"y":2}"#.to_string(); 12];
        pos[3] = r#"{"x":null,"y":2}"#.into();
        let line = format!(
            r#"{{"car_pos":{{"pos":[{}]}},"autoaim":{{"is_target_lost":false}}}}"#,
            pos.join(",")
        );
        let input = parse_line(&line).unwrap();
        assert!(input.positions[3].x.is_nan());
        assert_eq!(input.autoaim_target_lost, Some(false));
    }

    #[test]
    fn bad_lines_name_the_field() {
        let e = parse_line(r#"{"obj_hp":{"hp":[1,2,"x"]}}"#).unwrap_err();
        assert_eq!(e.field, "obj_hp.hp[2]");
        let e = parse_line(r#"{"obj_hp":{"hp":[1,2]}}"#).unwrap_err();
        assert_eq!(e.field, "obj_hp.hp");
        let e = parse_line(r#"{"nav_status": 300}"#).unwrap_err();
        assert_eq!(e.field, "nav_status");
        let e = parse_line(r#"{"game_info": {"timestamp": "x"}}"#).unwrap_err();
        assert_eq!(e.field, "game_info.timestamp");
        assert!(e.column > 0);
        assert!(parse_line("{} trailing").is_err());
        assert!(parse_line("not json").is_err());
    }
}
