//! Shared helpers of the decision_core integration tests: a test field written to a temporary
//! folder in the original layout, decision builders, and snapshot builders.

#![allow(dead_code)]

use decision_core::robomaster::{Decider, Point2, Pose, Tables, TickInput, TickResult, load};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The fixture field folder (config in JsonFile/, map in resources/).
pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/field")
}

/// A copy of the fixture field in a temporary folder, with files that tests can rewrite.
pub struct Field {
    /// Keeps the folder alive.
    pub dir: tempfile::TempDir,
}

impl Field {
    /// Copies the fixture.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        for sub in ["JsonFile", "resources"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
            for entry in std::fs::read_dir(fixture_dir().join(sub)).expect("fixture") {
                let entry = entry.expect("entry");
                std::fs::copy(entry.path(), dir.path().join(sub).join(entry.file_name()))
                    .expect("copy");
            }
        }
        Self { dir }
    }

    /// Path of the config file.
    pub fn config_path(&self) -> PathBuf {
        self.dir.path().join("JsonFile/config.json")
    }

    /// Path of a file in JsonFile/.
    pub fn json_path(&self, name: &str) -> PathBuf {
        self.dir.path().join("JsonFile").join(name)
    }

    /// Replaces decisions.json with these decisions.
    pub fn decisions(self, decisions: &[Value]) -> Self {
        self.write("decisions.json", &json!({ "data": decisions }).to_string());
        self
    }

    /// Replaces waypoints.json with these waypoints.
    pub fn waypoints(self, waypoints: &[Value]) -> Self {
        self.write("waypoints.json", &json!({ "data": waypoints }).to_string());
        self
    }

    /// Sets config keys.
    pub fn config(self, entries: &[(&str, Value)]) -> Self {
        let path = self.config_path();
        let text = std::fs::read_to_string(&path).expect("config");
        let stripped: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut doc: Value = serde_json::from_str(&stripped).expect("config json");
        for (k, v) in entries {
            doc["config"][*k] = v.clone();
        }
        std::fs::write(&path, doc.to_string()).expect("write");
        self
    }

    /// Writes a file in JsonFile/.
    pub fn write(&self, name: &str, text: &str) {
        std::fs::write(self.json_path(name), text).expect("write");
    }

    /// Loads the tables, panicking with the diagnostics on errors.
    pub fn tables(&self) -> Arc<Tables> {
        let outcome = load::load(&self.config_path());
        match outcome.tables {
            Some(t) => Arc::new(t),
            None => panic!("field does not load:\n{}", outcome.diagnostics),
        }
    }

    /// A decider for the field.
    pub fn decider(&self) -> Decider {
        match Decider::new(self.tables()) {
            Ok(d) => d,
            Err(e) => panic!("does not compile: {e:?}"),
        }
    }
}

/// A decision with every field "skip" (-1) except id, weight and target; `extra` overrides.
pub fn decision(id: i32, weight: i32, target: i32, extra: Value) -> Value {
    let mut d = json!({
        "id": id, "name": format!("d{id}"), "wayPointID": [-1], "weight": weight,
        "start_time": -1, "end_time": -1, "robot_mode": -1, "minHP": -1, "maxHP": -1,
        "decide_mode": 6, "decide_wayPoint": target, "out_post_HP_min": -1, "base_HP_min": -1,
        "if_succession": false, "if_reverse": false,
        "enemyPosition": [[-1],[-1],[-1],[-1],[-1],[-1]],
        "friendPosition": [[-1],[-1],[-1],[-1],[-1],[-1]]
    });
    if let (Some(base), Value::Object(extra)) = (d.as_object_mut(), extra) {
        base.extend(extra);
    }
    d
}

/// Waypoint positions of the fixture field, by id.
pub const WAYPOINTS: [(f32, f32); 6] = [
    (6.0, 1.5),
    (3.0, 2.0),
    (9.0, 2.0),
    (3.0, 6.0),
    (9.0, 6.0),
    (11.0, 7.0),
];

/// A snapshot: red sentry (slot 5) at `at` (metres), every other robot unknown, HP 600, outpost
/// 1500, base 5000, elapsed 20 s, in battle.
pub fn snapshot(at: (f32, f32)) -> TickInput {
    let mut input = TickInput {
        hp: [600; 16],
        ..TickInput::default()
    };
    input.hp[6] = 1500;
    input.hp[7] = 5000;
    input.hp[14] = 1500;
    input.hp[15] = 5000;
    input.positions[5] = Point2 { x: at.0, y: at.1 };
    input.remaining_time = 400.0;
    input
}

/// A snapshot with the sentry at waypoint `id` of the fixture.
pub fn at_waypoint(id: usize) -> TickInput {
    snapshot(WAYPOINTS[id])
}

/// Sets a robot's position (global car_pos index).
pub fn place(mut input: TickInput, index: usize, at: (f32, f32)) -> TickInput {
    input.positions[index] = Point2 { x: at.0, y: at.1 };
    input
}

/// Sets the pose.
pub fn posed(mut input: TickInput, x: f32, y: f32, yaw: f32) -> TickInput {
    input.pose = Some(Pose { x, y, yaw });
    input
}

/// Ticks once and returns the full result (checked with [`result_of`]).
pub fn tick(decider: &mut Decider, input: &TickInput) -> TickResult {
    decider.tick(input);
    result_of(decider)
}

/// The full result of the last tick; also checks that the line `decide` writes straight from
/// the decider is the serialised result.
pub fn result_of(decider: &Decider) -> TickResult {
    let result = decider.result();
    let mut expected = Vec::new();
    result.write_json(&mut expected);
    let mut direct = String::new();
    decider.write_result_json(result.tick, &mut direct);
    assert_eq!(
        direct,
        String::from_utf8_lossy(&expected),
        "direct result line"
    );
    result
}
