//! The scenario file (JSON5): which field, which side, how long, where every unit starts, how
//! the other robots move, and what happens to HP over the match. Read with [`load_scenario`];
//! every error names the file, line, column and field, both for malformed JSON5 and for values
//! that do not fit the field (unknown waypoint ids, points outside the field, negative speeds).

use crate::error::{Problem, ScenarioError};
use crate::locate::{JsonPath, contains, locate, locate_key};
use decision_core::jsonc::{self, Json};
use decision_core::robomaster::{Severity, Tables};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Default speed of the other robots in m/s.
pub const DEFAULT_ROBOT_SPEED: f64 = 1.5;
/// Default publish rate in Hz.
pub const DEFAULT_RATE: f64 = 10.0;
/// Highest accepted publish rate in Hz.
pub const MAX_RATE: f64 = 1000.0;

/// A RoboMaster team colour, `red` or `blue` in the scenario file.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Red: car_pos 0..5, obj_hp 0..7.
    Red,
    /// Blue: car_pos 6..11, obj_hp 8..15.
    Blue,
}

impl Side {
    /// `"red"` or `"blue"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Blue => "blue",
        }
    }

    /// The opposing colour: `Red` <-> `Blue`.
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }
}

/// Names of the 12 robots in `car_pos` order.
pub const ROBOT_NAMES: [&str; 12] = [
    "R1", "R2", "R3", "R4", "R5", "R7", "B1", "B2", "B3", "B4", "B5", "B7",
];

/// Names of the 16 `obj_hp` entries in order.
pub const UNIT_NAMES: [&str; 16] = [
    "R1",
    "R2",
    "R3",
    "R4",
    "R5",
    "R7",
    "red_outpost",
    "red_base",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "B7",
    "blue_outpost",
    "blue_base",
];

/// Reads one of `names` as a string and gives its index (a plain string visitor, so that
/// `serde_path_to_error` can name map keys like `hp.R7`).
struct NameVisitor(&'static [&'static str]);

impl Visitor<'_> for NameVisitor {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "one of {}", self.0.join(", "))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|n| *n == v)
            .ok_or_else(|| E::unknown_variant(v, self.0))
    }
}

const ROBOT_KEYS: [&str; 13] = [
    "R1", "R2", "R3", "R4", "R5", "R7", "B1", "B2", "B3", "B4", "B5", "B7", "self",
];
const UNIT_KEYS: [&str; 17] = [
    "R1",
    "R2",
    "R3",
    "R4",
    "R5",
    "R7",
    "red_outpost",
    "red_base",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "B7",
    "blue_outpost",
    "blue_base",
    "self",
];

impl<'de> Deserialize<'de> for RobotName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use RobotName::*;
        let all = [R1, R2, R3, R4, R5, R7, B1, B2, B3, B4, B5, B7, Ours];
        let i = deserializer.deserialize_str(NameVisitor(&ROBOT_KEYS))?;
        all.get(i)
            .copied()
            .ok_or_else(|| de::Error::custom("unknown robot"))
    }
}

impl<'de> Deserialize<'de> for UnitName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use UnitName::*;
        let all = [
            R1,
            R2,
            R3,
            R4,
            R5,
            R7,
            RedOutpost,
            RedBase,
            B1,
            B2,
            B3,
            B4,
            B5,
            B7,
            BlueOutpost,
            BlueBase,
            Ours,
        ];
        let i = deserializer.deserialize_str(NameVisitor(&UNIT_KEYS))?;
        all.get(i)
            .copied()
            .ok_or_else(|| de::Error::custom("unknown unit"))
    }
}

/// A robot by its name (`car_pos` order), or `self` for our own robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
pub enum RobotName {
    /// Red hero (car_pos 0).
    R1,
    /// Red engineer (car_pos 1).
    R2,
    /// Red infantry 3 (car_pos 2).
    R3,
    /// Red infantry 4 (car_pos 3).
    R4,
    /// Red infantry 5 (car_pos 4).
    R5,
    /// Red sentry (car_pos 5).
    R7,
    /// Blue hero (car_pos 6).
    B1,
    /// Blue engineer (car_pos 7).
    B2,
    /// Blue infantry 3 (car_pos 8).
    B3,
    /// Blue infantry 4 (car_pos 9).
    B4,
    /// Blue infantry 5 (car_pos 10).
    B5,
    /// Blue sentry (car_pos 11).
    B7,
    /// Our own robot (the config's INIT_SELFINDEX on our side).
    #[serde(rename = "self")]
    Ours,
}

impl RobotName {
    /// The `car_pos` index, `None` for `self`.
    pub fn index(self) -> Option<usize> {
        use RobotName::*;
        Some(match self {
            R1 => 0,
            R2 => 1,
            R3 => 2,
            R4 => 3,
            R5 => 4,
            R7 => 5,
            B1 => 6,
            B2 => 7,
            B3 => 8,
            B4 => 9,
            B5 => 10,
            B7 => 11,
            Ours => return None,
        })
    }

    /// The `car_pos` index, with `self` resolved to `ours`.
    pub fn resolve(self, ours: usize) -> usize {
        self.index().unwrap_or(ours)
    }

    /// The name as written in a scenario.
    pub fn as_str(self) -> &'static str {
        self.index()
            .and_then(|i| ROBOT_NAMES.get(i).copied())
            .unwrap_or("self")
    }
}

/// A unit or structure of `obj_hp` by name, or `self` for our own robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
pub enum UnitName {
    /// Red hero (obj_hp 0).
    R1,
    /// Red engineer (obj_hp 1).
    R2,
    /// Red infantry 3 (obj_hp 2).
    R3,
    /// Red infantry 4 (obj_hp 3).
    R4,
    /// Red infantry 5 (obj_hp 4).
    R5,
    /// Red sentry (obj_hp 5).
    R7,
    /// Red outpost (obj_hp 6).
    #[serde(rename = "red_outpost")]
    RedOutpost,
    /// Red base (obj_hp 7).
    #[serde(rename = "red_base")]
    RedBase,
    /// Blue hero (obj_hp 8).
    B1,
    /// Blue engineer (obj_hp 9).
    B2,
    /// Blue infantry 3 (obj_hp 10).
    B3,
    /// Blue infantry 4 (obj_hp 11).
    B4,
    /// Blue infantry 5 (obj_hp 12).
    B5,
    /// Blue sentry (obj_hp 13).
    B7,
    /// Blue outpost (obj_hp 14).
    #[serde(rename = "blue_outpost")]
    BlueOutpost,
    /// Blue base (obj_hp 15).
    #[serde(rename = "blue_base")]
    BlueBase,
    /// Our own robot.
    #[serde(rename = "self")]
    Ours,
}

impl UnitName {
    /// The `obj_hp` index, `None` for `self`.
    pub fn index(self) -> Option<usize> {
        use UnitName::*;
        Some(match self {
            R1 => 0,
            R2 => 1,
            R3 => 2,
            R4 => 3,
            R5 => 4,
            R7 => 5,
            RedOutpost => 6,
            RedBase => 7,
            B1 => 8,
            B2 => 9,
            B3 => 10,
            B4 => 11,
            B5 => 12,
            B7 => 13,
            BlueOutpost => 14,
            BlueBase => 15,
            Ours => return None,
        })
    }

    /// The name as written in a scenario.
    pub fn as_str(self) -> &'static str {
        self.index()
            .and_then(|i| UNIT_NAMES.get(i).copied())
            .unwrap_or("self")
    }
}

/// Where a unit is: a waypoint id of the field, or a point in metres.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Place {
    /// At this waypoint (its position and heading).
    Waypoint(i32),
    /// At this point (heading 0).
    Point(Point),
}

/// Read by hand rather than as an untagged enum, whose buffered content would also take an
/// array `[x, y]` for the point, by position.
impl<'de> Deserialize<'de> for Place {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PlaceVisitor;
        impl<'de> serde::de::Visitor<'de> for PlaceVisitor {
            type Value = Place;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a waypoint id or a point {x, y} in metres")
            }

            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Place, E> {
                i32::try_from(v)
                    .map(Place::Waypoint)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }

            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Place, E> {
                i32::try_from(v)
                    .map(Place::Waypoint)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Place, A::Error> {
                Point::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(Place::Point)
            }
        }
        deserializer.deserialize_any(PlaceVisitor)
    }
}

/// A point of the field in metres (map frame: origin top-left, y down).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// x in metres, 0 < x <= REAL_WIDTH.
    pub x: f64,
    /// y in metres, 0 < y <= REAL_HEIGHT.
    pub y: f64,
}

/// One entry of the stage timeline.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StageAt {
    /// From this simulated second on.
    pub at: f64,
    /// `game_info.game_stage` (0 not started, 1 preparation, 2 self-check, 3 countdown, 4 battle, 5 settlement).
    pub stage: u8,
}

/// Which HP entry an event changes: a unit name or an `obj_hp` index 0..15.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    untagged,
    expecting = "a unit name (R1 .. R7, B1 .. B7, red_outpost, red_base, blue_outpost, blue_base, self) or an obj_hp index 0..15"
)]
pub enum Target {
    /// An `obj_hp` index 0..15.
    Index(u8),
    /// A unit or structure name.
    Name(UnitName),
}

/// A change of one HP entry at one moment: give exactly one of `set`, `damage`, `heal`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HpEvent {
    /// Simulated second at which it happens.
    pub at: f64,
    /// The unit or structure.
    pub target: Target,
    /// Set the HP to this value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<u16>,
    /// Subtract this much (not below 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<f64>,
    /// Add this much (not above 65535).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heal: Option<f64>,
}

/// Our robot heals while it stands at a waypoint (the supply zone).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Regeneration {
    /// The waypoint id of the supply zone.
    pub waypoint: i32,
    /// HP gained per second while there.
    pub hp_per_second: f64,
    /// HP is not raised above this (default: our initial HP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u16>,
    /// "There" means within this many metres (default: the config's INIT_DISTANCE_THR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
}

/// A structure of a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Structure {
    /// The outpost (obj_hp 6 / 14).
    Outpost,
    /// The base (obj_hp 7 / 15); the match ends when a base reaches 0.
    Base,
}

/// Continuous damage to a structure over a time window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructureDamage {
    /// `outpost` or `base`.
    pub target: Structure,
    /// Whose structure (default: ours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// Start of the window in simulated seconds.
    pub from: f64,
    /// End of the window in simulated seconds.
    pub to: f64,
    /// HP lost per second inside the window (not below 0).
    pub hp_per_second: f64,
}

/// The simulated Nav2 of our robot.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct NavSpec {
    /// Maximum driving speed in m/s.
    pub speed: f64,
    /// Seconds between "accepted" (1) and "executing" (2).
    pub accept_delay: f64,
    /// Drive along trajectories of the `path_planner` crate (around walls and robots, true by
    /// default); false drives in straight lines at `speed` (through walls and robots).
    pub planner: bool,
    /// Acceleration limit of the planned trajectories in m/s^2 (planner only).
    pub accel: f64,
}

impl Default for NavSpec {
    fn default() -> Self {
        Self {
            speed: 1.5,
            accept_delay: 0.1,
            planner: true,
            accel: 3.0,
        }
    }
}

/// A gun: how far it reaches, how often it fires, how often a shot hits and how hard.
///
/// A shot at distance `d <= range` hits with chance `hit_chance_near + (hit_chance_far -
/// hit_chance_near) * d / range` (times the target's factor, e.g. `spin_hit_factor`); beyond
/// `range` it does not fire. Expected HP per second: `shots_per_second * chance * damage_per_hit`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Gun {
    /// Fire range in metres (> 0; default 5).
    pub range: f64,
    /// Shots per second while a target is in range and in sight (0 ..= 100; default 4).
    pub shots_per_second: f64,
    /// HP a hit removes (>= 0; default 10, a 17 mm projectile).
    pub damage_per_hit: f64,
    /// Chance that a shot hits at distance 0 (0 ..= 1; default 0.8).
    pub hit_chance_near: f64,
    /// Chance that a shot hits at `range` (0 ..= 1; default 0.2).
    pub hit_chance_far: f64,
}

impl Default for Gun {
    fn default() -> Self {
        Self {
            range: 5.0,
            shots_per_second: 4.0,
            damage_per_hit: 10.0,
            hit_chance_near: 0.8,
            hit_chance_far: 0.2,
        }
    }
}

impl Gun {
    /// Chance that one shot at `distance` metres hits (0 beyond `range`).
    pub fn hit_chance(&self, distance: f64) -> f64 {
        if !(distance.is_finite() && distance >= 0.0 && distance <= self.range) {
            return 0.0;
        }
        let near = self.hit_chance_near;
        (near + (self.hit_chance_far - near) * distance / self.range).clamp(0.0, 1.0)
    }

    /// Expected HP per second on a target at `distance` metres whose hit chance is multiplied
    /// by `factor` (1 normally, `spin_hit_factor` for our spinning robot).
    pub fn expected_dps(&self, distance: f64, factor: f64) -> f64 {
        self.shots_per_second
            * (self.hit_chance(distance) * factor).clamp(0.0, 1.0)
            * self.damage_per_hit
    }
}

/// Highest accepted `shots_per_second` of a [`Gun`].
pub const MAX_SHOTS_PER_SECOND: f64 = 100.0;

/// Combat that depends on what our robot does (opt-in: without this section HP only follows
/// `hp_events`, `regeneration` and `structure_damage`, which keep working beside it).
///
/// During the battle stage, every live enemy on the field fires at our robot while it is
/// within `enemy_gun.range` and in line of sight on the obstacle map (fewer hits while our
/// robot spins); our robot fires at its auto-aim target (the nearest enemy in sight within
/// INIT_SEEK_THR, the one the node aims at) when it is within `own_gun.range`. Enemies within
/// `siege_range` of our outpost or base wear it down while our robot is not within
/// `defender_radius` of it. A robot at 0 HP stops and no longer fires. Hits are drawn from the
/// seed, one stream per shooter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CombatSpec {
    /// Every enemy robot's gun, fired at our robot.
    pub enemy_gun: Gun,
    /// Our robot's gun, fired at its auto-aim target.
    pub own_gun: Gun,
    /// Lower-computer modes (`serial_msg.mode`, set by the decisions) in which our robot spins
    /// (default [7], spin cruise). The node publishes mode 8 (auto-aim) whenever auto-aim has a
    /// target; list 8 here too to count aiming as spinning.
    pub spin_modes: Vec<u8>,
    /// Factor on the enemies' hit chance while our robot spins (0 ..= 1; default 0.5).
    pub spin_hit_factor: f64,
    /// Where our outpost stands (a waypoint id or {x, y}); without it the outpost takes no
    /// combat damage (default: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outpost: Option<Place>,
    /// Where our base stands (a waypoint id or {x, y}); without it the base takes no combat
    /// damage (default: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<Place>,
    /// An enemy within this many metres of our outpost or base attacks it (>= 0; default 3).
    pub siege_range: f64,
    /// HP per second each attacking enemy removes from the structure (>= 0; default 20).
    pub siege_hp_per_second: f64,
    /// No structure damage while our live robot is within this many metres of the structure
    /// (>= 0; default 2).
    pub defender_radius: f64,
    /// The base takes no siege damage while our outpost has HP (default true).
    pub base_shielded_by_outpost: bool,
}

impl Default for CombatSpec {
    fn default() -> Self {
        Self {
            enemy_gun: Gun::default(),
            own_gun: Gun::default(),
            spin_modes: vec![7],
            spin_hit_factor: 0.5,
            outpost: None,
            base: None,
            siege_range: 3.0,
            siege_hp_per_second: 20.0,
            defender_radius: 2.0,
            base_shielded_by_outpost: true,
        }
    }
}

/// One point of a scripted path.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptPoint {
    /// Simulated second (non-decreasing along the script).
    pub at: f64,
    /// x in metres.
    pub x: f64,
    /// y in metres.
    pub y: f64,
}

/// Options of a random walk.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RandomWalk {
    /// Speed in m/s.
    #[serde(default = "default_robot_speed")]
    pub speed: f64,
}

fn default_robot_speed() -> f64 {
    DEFAULT_ROBOT_SPEED
}

fn default_rate() -> f64 {
    DEFAULT_RATE
}

/// How one of the other robots moves.
#[derive(Debug, Clone, PartialEq)]
pub enum Behaviour {
    /// Drives the waypoints in a loop, in straight lines, at `speed` m/s.
    Patrol {
        /// Waypoint ids, visited in order, then again from the first.
        waypoints: Vec<i32>,
        /// Speed in m/s.
        speed: f64,
    },
    /// Walks the `connect` graph, choosing a random (seeded) neighbour at every waypoint.
    RandomWalk(RandomWalk),
    /// Follows timed points with linear interpolation (holds the first before, the last after).
    Script(Vec<ScriptPoint>),
    /// Stands at its start.
    Stationary,
}

/// How one of the other robots moves: `{patrol: [ids], speed}`, `{random_walk: {speed}}`,
/// `{script: [{at, x, y}]}` or `"stationary"`.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(deny_unknown_fields)]
enum BehaviourShape {
    /// Drive the waypoints in a loop, in straight lines.
    Patrol {
        /// Waypoint ids, visited in order, then again from the first.
        patrol: Vec<i32>,
        /// Speed in m/s.
        #[serde(default = "default_robot_speed")]
        speed: f64,
    },
    /// Walk the connect graph at random (seeded).
    RandomWalk {
        /// Options of the walk.
        random_walk: RandomWalk,
    },
    /// Follow timed points, linearly interpolated.
    Script {
        /// The points, `at` non-decreasing.
        script: Vec<ScriptPoint>,
    },
    /// Stand at the start.
    Word(StationaryWord),
    /// Stand at the start.
    #[expect(
        dead_code,
        reason = "schema only: the alternative spelling {stationary: true}, read by the visitor"
    )]
    Flag {
        /// Must be true.
        stationary: bool,
    },
}

/// The word `"stationary"`.
#[derive(Serialize, JsonSchema)]
enum StationaryWord {
    /// Stands still at its start.
    #[serde(rename = "stationary")]
    Stationary,
}

impl Serialize for Behaviour {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let shape = match self {
            Behaviour::Patrol { waypoints, speed } => BehaviourShape::Patrol {
                patrol: waypoints.clone(),
                speed: *speed,
            },
            Behaviour::RandomWalk(random_walk) => BehaviourShape::RandomWalk {
                random_walk: *random_walk,
            },
            Behaviour::Script(script) => BehaviourShape::Script {
                script: script.clone(),
            },
            Behaviour::Stationary => BehaviourShape::Word(StationaryWord::Stationary),
        };
        shape.serialize(serializer)
    }
}

impl JsonSchema for Behaviour {
    fn schema_name() -> Cow<'static, str> {
        "Behaviour".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        BehaviourShape::json_schema(generator)
    }
}

const BEHAVIOUR_KEYS: &[&str] = &["patrol", "speed", "random_walk", "script", "stationary"];

struct BehaviourVisitor;

impl<'de> Visitor<'de> for BehaviourVisitor {
    type Value = Behaviour;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a behaviour: {patrol: [waypoint ids], speed}, {random_walk: {speed}}, {script: [{at, x, y}]} or \"stationary\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Behaviour, E> {
        if v == "stationary" {
            Ok(Behaviour::Stationary)
        } else {
            Err(E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Behaviour, A::Error> {
        let mut patrol: Option<Vec<i32>> = None;
        let mut speed: Option<f64> = None;
        let mut random_walk: Option<RandomWalk> = None;
        let mut script: Option<Vec<ScriptPoint>> = None;
        let mut stationary: Option<bool> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "patrol" => patrol = Some(map.next_value()?),
                "speed" => speed = Some(map.next_value()?),
                "random_walk" => random_walk = Some(map.next_value()?),
                "script" => script = Some(map.next_value()?),
                "stationary" => stationary = Some(map.next_value()?),
                other => return Err(de::Error::unknown_field(other, BEHAVIOUR_KEYS)),
            }
        }
        let kinds = usize::from(patrol.is_some())
            + usize::from(random_walk.is_some())
            + usize::from(script.is_some())
            + usize::from(stationary.is_some());
        if kinds != 1 {
            return Err(de::Error::custom(
                "give exactly one of `patrol`, `random_walk`, `script`, `stationary` (or the word \"stationary\")",
            ));
        }
        if speed.is_some() && patrol.is_none() {
            return Err(de::Error::custom(
                "`speed` belongs to `patrol` (a random walk takes `random_walk: {speed}`)",
            ));
        }
        if let Some(waypoints) = patrol {
            return Ok(Behaviour::Patrol {
                waypoints,
                speed: speed.unwrap_or(DEFAULT_ROBOT_SPEED),
            });
        }
        if let Some(walk) = random_walk {
            return Ok(Behaviour::RandomWalk(walk));
        }
        if let Some(points) = script {
            return Ok(Behaviour::Script(points));
        }
        match stationary {
            Some(true) => Ok(Behaviour::Stationary),
            _ => Err(de::Error::custom(
                "`stationary` must be true (leave the robot out to keep it off the field)",
            )),
        }
    }
}

impl<'de> Deserialize<'de> for Behaviour {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BehaviourVisitor)
    }
}

/// What each robot name means, for the schema.
const ROBOT_DOCS: [(&str, &str); 13] = [
    ("R1", "Red hero (car_pos 0)."),
    ("R2", "Red engineer (car_pos 1)."),
    ("R3", "Red infantry 3 (car_pos 2)."),
    ("R4", "Red infantry 4 (car_pos 3)."),
    ("R5", "Red infantry 5 (car_pos 4)."),
    ("R7", "Red sentry (car_pos 5)."),
    ("B1", "Blue hero (car_pos 6)."),
    ("B2", "Blue engineer (car_pos 7)."),
    ("B3", "Blue infantry 3 (car_pos 8)."),
    ("B4", "Blue infantry 4 (car_pos 9)."),
    ("B5", "Blue infantry 5 (car_pos 10)."),
    ("B7", "Blue sentry (car_pos 11)."),
    ("self", "Our own robot (INIT_SELFINDEX on our side)."),
];

/// What each unit name means, for the schema.
const UNIT_DOCS: [(&str, &str); 17] = [
    ("R1", "Red hero (obj_hp 0)."),
    ("R2", "Red engineer (obj_hp 1)."),
    ("R3", "Red infantry 3 (obj_hp 2)."),
    ("R4", "Red infantry 4 (obj_hp 3)."),
    ("R5", "Red infantry 5 (obj_hp 4)."),
    ("R7", "Red sentry (obj_hp 5)."),
    ("red_outpost", "Red outpost (obj_hp 6)."),
    ("red_base", "Red base (obj_hp 7)."),
    ("B1", "Blue hero (obj_hp 8)."),
    ("B2", "Blue engineer (obj_hp 9)."),
    ("B3", "Blue infantry 3 (obj_hp 10)."),
    ("B4", "Blue infantry 4 (obj_hp 11)."),
    ("B5", "Blue infantry 5 (obj_hp 12)."),
    ("B7", "Blue sentry (obj_hp 13)."),
    ("blue_outpost", "Blue outpost (obj_hp 14)."),
    ("blue_base", "Blue base (obj_hp 15)."),
    ("self", "Our own robot (INIT_SELFINDEX on our side)."),
];

/// An object whose keys are exactly `names`, each holding a `V`.
fn named_map<V: JsonSchema>(generator: &mut SchemaGenerator, names: &[(&str, &str)]) -> Schema {
    let value = generator.subschema_for::<V>();
    let mut properties = serde_json::Map::new();
    for (name, doc) in names {
        let mut schema = value.clone();
        schema.insert("description".into(), (*doc).into());
        properties.insert((*name).into(), schema.to_value());
    }
    schemars::json_schema!({
        "type": "object",
        "properties": properties,
        "additionalProperties": false,
    })
}

/// Schema of a map keyed by robot names.
fn robot_map<V: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    named_map::<V>(generator, &ROBOT_DOCS)
}

/// Schema of a map keyed by unit names.
fn unit_map<V: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    named_map::<V>(generator, &UNIT_DOCS)
}

/// Where a scenario was read from, for positions in errors found after parsing.
#[derive(Debug, Clone, PartialEq)]
struct Source {
    path: PathBuf,
    doc: Json,
}

/// A match scenario, read from JSON5 (the manual's scenario page has every field).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Free text shown by tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The field's config.json, relative to the scenario file.
    pub field: String,
    /// Our side; must match the config's INIT_ISBLUE.
    pub side: Side,
    /// Match length in seconds (default: the config's GAME_TIME).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_time: Option<f64>,
    /// Stage timeline (default: stage 4 from 0). The match clock starts at the first stage 4.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<StageAt>,
    /// Start of each robot, ours included (`self` or its name; default: the field's first waypoint).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(schema_with = "robot_map::<Place>")]
    pub start: BTreeMap<RobotName, Place>,
    /// Initial HP per unit or structure (default: hero 500, engineer 500, infantry 400, sentry 600, outpost 1500, base 5000).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(schema_with = "unit_map::<u16>")]
    pub hp: BTreeMap<UnitName, u16>,
    /// HP changes at given moments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hp_events: Vec<HpEvent>,
    /// Our robot heals at a waypoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regeneration: Option<Regeneration>,
    /// Continuous damage to outposts and bases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structure_damage: Vec<StructureDamage>,
    /// Behaviour of the other robots; a robot with neither a behaviour nor a start is off the field.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(schema_with = "robot_map::<Behaviour>")]
    pub robots: BTreeMap<RobotName, Behaviour>,
    /// Publish rate in Hz (default 10).
    #[serde(default = "default_rate")]
    pub rate: f64,
    /// The simulated Nav2 of our robot.
    #[serde(default)]
    pub nav: NavSpec,
    /// The lower computer's mode at the start (serial_msg.mode, default 0).
    #[serde(default)]
    pub mode: u8,
    /// Combat that depends on the decisions (opt-in; every key has a default, see the manual's scenario page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<CombatSpec>,
    #[serde(skip)]
    #[schemars(skip)]
    source: Option<Arc<Source>>,
}

impl Scenario {
    /// The field config named by `field`, relative to the scenario file's folder.
    ///
    /// `..` and `.` are resolved lexically (`sample/scenarios/../config.json` becomes
    /// `sample/config.json`), so that the loader's sibling-folder rule (`resources/` beside the
    /// config's folder) sees the real folder.
    pub fn config_path(&self, scenario_path: &Path) -> PathBuf {
        normalize(
            &scenario_path
                .parent()
                .unwrap_or(Path::new(""))
                .join(&self.field),
        )
    }

    /// A minimal scenario for `field` (path to config.json, relative to where the scenario
    /// would be) and `side`, with every other field at its default.
    pub fn new(field: impl Into<String>, side: Side) -> Self {
        Self {
            description: None,
            field: field.into(),
            side,
            game_time: None,
            stages: Vec::new(),
            start: BTreeMap::new(),
            hp: BTreeMap::new(),
            hp_events: Vec::new(),
            regeneration: None,
            structure_damage: Vec::new(),
            robots: BTreeMap::new(),
            rate: DEFAULT_RATE,
            nav: NavSpec::default(),
            mode: 0,
            combat: None,
            source: None,
        }
    }

    /// The file this scenario was read from, if any.
    pub fn source_path(&self) -> Option<&Path> {
        self.source.as_deref().map(|s| s.path.as_path())
    }

    /// Turns `(path, message)` findings into problems with positions in the source text.
    pub(crate) fn problems(&self, findings: Vec<(JsonPath, String)>) -> ScenarioError {
        let problems = findings
            .into_iter()
            .map(|(path, message)| {
                let (file, (line, column)) = match self.source.as_deref() {
                    Some(s) => (s.path.clone(), locate(&s.doc, &path)),
                    None => (PathBuf::from("<scenario>"), (0, 0)),
                };
                Problem {
                    file,
                    line,
                    column,
                    field: path.to_string(),
                    message,
                }
            })
            .collect();
        ScenarioError { problems }
    }
}

/// Resolves `.` and `..` components without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let last_is_normal =
                    matches!(out.components().next_back(), Some(Component::Normal(_)));
                if last_is_normal {
                    out.pop();
                } else if !matches!(
                    out.components().next_back(),
                    Some(Component::RootDir | Component::Prefix(_))
                ) {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The JSON Schema of the scenario file.
pub fn scenario_schema() -> Schema {
    schemars::schema_for!(Scenario)
}

/// Reads a scenario file and checks it against the field it names (which is loaded for that).
pub fn load_scenario(path: &Path) -> Result<Scenario, ScenarioError> {
    let text = jsonc::read_text(path).map_err(|e| {
        let pos = e.pos().unwrap_or_default();
        ScenarioError::single(Problem {
            file: path.to_path_buf(),
            line: pos.line as usize,
            column: pos.column as usize,
            field: String::new(),
            message: e.to_string(),
        })
    })?;
    parse_scenario(&text, path)
}

/// Parses scenario text as if read from `path` (paths resolve against its folder) and checks
/// it against the field it names.
pub fn parse_scenario(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
    let scenario = parse_text(text, path)?;
    let config = scenario.config_path(path);
    let outcome = decision_core::robomaster::load(&config);
    let Some(tables) = outcome.tables else {
        let mut problems = scenario
            .problems(vec![(
                JsonPath::root().key("field"),
                format!(
                    "the field {} does not load (its errors follow)",
                    config.display()
                ),
            )])
            .problems;
        problems.extend(
            outcome
                .diagnostics
                .items()
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| Problem {
                    file: PathBuf::from(&d.file),
                    line: d.line as usize,
                    column: d.column as usize,
                    field: d.field.clone().unwrap_or_default(),
                    message: match &d.subject {
                        Some(s) => format!("{s}: {}", d.message),
                        None => d.message.clone(),
                    },
                }),
        );
        return Err(ScenarioError { problems });
    };
    let findings = crate::check::check(&scenario, &tables);
    if findings.is_empty() {
        Ok(scenario)
    } else {
        Err(scenario.problems(findings))
    }
}

/// Parses the JSON5 text into a scenario, without looking at the field: read by the
/// workspace's lenient reader (positions of every key and value), then deserialised from its
/// value with the path of the offending field.
fn parse_text(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
    let problem = |(line, column): (usize, usize), field: String, message: String| {
        ScenarioError::single(Problem {
            file: path.to_path_buf(),
            line,
            column,
            field,
            message,
        })
    };
    let doc = jsonc::parse_json5(text).map_err(|e| {
        let at = (e.pos.line as usize, e.pos.column as usize);
        problem(at, String::new(), e.message)
    })?;
    if let Some((field, pos)) = first_non_finite(&doc) {
        let at = (pos.line as usize, pos.column as usize);
        return Err(problem(
            at,
            field.to_string(),
            "numbers must be finite".into(),
        ));
    }
    let mut scenario: Scenario =
        decision_core::strict_serde::deserialize(doc.to_serde()).map_err(|e| {
            let field = json_path(e.path());
            let message = e.inner().to_string();
            // An unknown key is shown where it is written; any other error at its value. A
            // hand-written visitor may report the unknown key with the path of its object.
            let (at, field) = match unknown_key(&message) {
                Some(key) => {
                    let member = field.key(key);
                    if contains(&doc, &member) {
                        (locate_key(&doc, &member), member)
                    } else {
                        (locate_key(&doc, &field), field)
                    }
                }
                None => (locate(&doc, &field), field),
            };
            problem(at, field_name(&field), message)
        })?;
    scenario.source = Some(Arc::new(Source {
        path: path.to_path_buf(),
        doc,
    }));
    Ok(scenario)
}

/// The key named by serde's "unknown field `x`, expected ..." message.
fn unknown_key(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `")?;
    rest.split_once('`').map(|(key, _)| key)
}

/// The path serde reports, as a [`JsonPath`].
fn json_path(path: &serde_path_to_error::Path) -> JsonPath {
    JsonPath(decision_core::strict_serde::error_path(path))
}

/// A field path as shown in problems (empty for the whole document).
fn field_name(path: &JsonPath) -> String {
    if path.0.is_empty() {
        String::new()
    } else {
        path.to_string()
    }
}

/// The first `Infinity` / `NaN` (which JSON5 allows) in document order, with its path.
fn first_non_finite(doc: &Json) -> Option<(JsonPath, jsonc::Pos)> {
    let mut first = None;
    doc.for_each_non_finite(&mut Vec::new(), &mut |path, pos, _| {
        first.get_or_insert_with(|| (JsonPath(path.to_vec()), pos));
    });
    first
}

/// Checks a scenario against the tables a simulation runs on (done by [`parse_scenario`] for
/// the tables it loads, and again by `Simulation::new` for the tables it is given).
pub fn check_against(scenario: &Scenario, tables: &Tables) -> Result<(), ScenarioError> {
    let findings = crate::check::check(scenario, tables);
    if findings.is_empty() {
        Ok(())
    } else {
        Err(scenario.problems(findings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_paths_resolve_dot_dot_lexically() {
        let s = Scenario::new("../config.json", Side::Red);
        assert_eq!(
            s.config_path(Path::new("sample/scenarios/a.json5")),
            PathBuf::from("sample/config.json")
        );
        assert_eq!(
            s.config_path(Path::new("/w/sample/scenarios/./a.json5")),
            PathBuf::from("/w/sample/config.json")
        );
        assert_eq!(
            s.config_path(Path::new("a.json5")),
            PathBuf::from("../config.json")
        );
        let abs = Scenario::new("/f/config.json", Side::Red);
        assert_eq!(
            abs.config_path(Path::new("x/a.json5")),
            PathBuf::from("/f/config.json")
        );
        assert_eq!(normalize(Path::new("/../a")), PathBuf::from("/a"));
    }
}
