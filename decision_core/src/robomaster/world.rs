//! The inputs of one tick (a synchronised set of the four topics plus the asynchronous ones)
//! and the world model derived from them: our position, HP, the waypoint of every robot.

use super::config::RmConfig;
use super::decisions::UNIT_SLOTS;
use waypoint_graph::{NearbyWaypoints, WaypointGraph};

/// Number of HP entries in `obj_hp`: red 0..7, blue 8..15.
pub const HP_SLOTS: usize = 16;
/// Number of positions in `car_pos`: red 0..5, blue 6..11.
pub const POSITION_SLOTS: usize = 12;
/// `game_stage` of the battle; other stages are skipped unless `Debug` (the wire code is
/// `robomaster_msgs`', shared with the bus).
pub const STAGE_IN_BATTLE: u8 = robomaster_msgs::game_stage::IN_BATTLE;
/// The lower computer's auto-aim mode.
pub const MODE_AUTOAIM: u8 = 8;

/// A point on the field in metres (map frame, single precision as the original computes).
pub type Point2 = geometry::MapPoint;

/// Our pose in the map (TF map <- base_link), single precision.
pub type Pose = geometry::MapPose;

/// Nav2 goal status codes (action_msgs/GoalStatus), the wire's, shared with the bus.
pub use robomaster_msgs::nav_status;

/// One tick's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct TickInput {
    /// `obj_hp.hp`.
    pub hp: [u16; HP_SLOTS],
    /// `car_pos.pos`.
    pub positions: [Point2; POSITION_SLOTS],
    /// `game_info.timestamp`: remaining seconds.
    pub remaining_time: f64,
    /// `game_info.game_stage`.
    pub game_stage: u8,
    /// `serial_msg.mode`.
    pub mode: u8,
    /// The last Nav2 goal status code.
    pub nav_status: u8,
    /// Our pose, when the TF is known.
    pub pose: Option<Pose>,
    /// `Some(is_target_lost)` when a fresh auto-aim message exists.
    pub autoaim_target_lost: Option<bool>,
}

impl Default for TickInput {
    fn default() -> Self {
        Self {
            hp: [0; HP_SLOTS],
            positions: [Point2::default(); POSITION_SLOTS],
            remaining_time: 300.0,
            game_stage: STAGE_IN_BATTLE,
            mode: 0,
            nav_status: nav_status::UNKNOWN,
            pose: None,
            autoaim_target_lost: None,
        }
    }
}

/// The world model of one tick, derived from [`TickInput`] and the tables.
#[derive(Debug, Clone, Default)]
pub struct World {
    /// Our position.
    pub position: Point2,
    /// Chassis yaw (0 without a pose).
    pub chassis_yaw: f32,
    /// Our waypoint (nearest within `INIT_DISTANCE_THR`).
    pub waypoint: Option<i32>,
    /// Our HP.
    pub hp: u16,
    /// Our outpost's HP.
    pub outpost_hp: u16,
    /// Our base's HP.
    pub base_hp: u16,
    /// Elapsed game seconds.
    pub elapsed: f64,
    /// `serial_msg.mode`.
    pub mode: u8,
    /// Last Nav2 status code.
    pub nav_status: u8,
    /// Whether a fresh auto-aim message sees a target.
    pub autoaim_has_target: bool,
    /// Friendly units by slot (hero .. sentry): position and waypoint.
    pub friends: [Unit; UNIT_SLOTS],
    /// Enemy units by slot (hero .. sentry): position and waypoint.
    pub enemies: [Unit; UNIT_SLOTS],
}

/// Another robot as the guards see it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Unit {
    /// Position (unknown when x == 0 or y == 0).
    pub position: Point2,
    /// Its waypoint, when known and within the threshold.
    pub waypoint: Option<i32>,
}

/// Why a tick published nothing before any decision was looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputSkip {
    /// A position is not finite.
    InvalidPosition,
    /// Not in the battle stage and not `Debug`.
    NotInBattle,
    /// Neither `car_pos` nor the pose gives our position.
    NoPosition,
}

/// The last nearest-waypoint answers, so that a robot that did not move since the last tick
/// (the usual case) is not searched again: for our own position, and for each `car_pos` slot
/// the unit derived from it. Valid for one graph and one `INIT_DISTANCE_THR` only: a
/// [`Decider`](super::Decider) keeps one for its fixed tables.
#[derive(Debug, Clone)]
pub struct NearestMemo {
    /// The bits of our position last looked up ([`NOT_LOOKED_UP`] before).
    own_key: u64,
    /// The nearest waypoint of that position.
    own_answer: Option<i32>,
    /// Per `car_pos` slot: the bits of the position its unit was derived from
    /// ([`NOT_LOOKED_UP`] before).
    unit_keys: [u64; POSITION_SLOTS],
    /// Per `car_pos` slot: the unit of that position.
    units: [Unit; POSITION_SLOTS],
    /// The graph's nearest waypoints for its threshold from a grid ([`NearestMemo::new`]);
    /// without it, or for another threshold, the graph searches them all.
    nearby: Option<NearbyWaypoints>,
}

/// `0` for a finite `v`, NaN for an infinite or NaN one.
#[inline(always)]
#[allow(clippy::eq_op)] // `v - v` is the point: it is not always 0.
fn nan_unless_finite(v: f32) -> f32 {
    v - v
}

/// Whether every coordinate of `positions` is finite: `v - v` is `0` for a finite `v` and NaN
/// otherwise, and a NaN stays NaN through sums (lane by lane, so that it vectorises).
#[inline]
fn all_finite(positions: &[Point2; POSITION_SLOTS]) -> bool {
    let mut lanes = [0.0f32; 8];
    let mut chunks = positions.chunks_exact(4);
    for chunk in &mut chunks {
        for (lane, p) in lanes.chunks_exact_mut(2).zip(chunk) {
            lane[0] += nan_unless_finite(p.x);
            lane[1] += nan_unless_finite(p.y);
        }
    }
    for (lane, p) in lanes.chunks_exact_mut(2).zip(chunks.remainder()) {
        lane[0] += nan_unless_finite(p.x);
        lane[1] += nan_unless_finite(p.y);
    }
    lanes.iter().all(|lane| *lane == 0.0)
}

/// The key of a slot not looked up yet: NaN bits, which no finite position has (and the
/// answer kept with it, none, is the nearest waypoint of a NaN position all the same).
const NOT_LOOKED_UP: u64 = u64::MAX;

impl Default for NearestMemo {
    fn default() -> Self {
        Self {
            own_key: NOT_LOOKED_UP,
            own_answer: None,
            unit_keys: [NOT_LOOKED_UP; POSITION_SLOTS],
            units: [Unit::default(); POSITION_SLOTS],
            nearby: None,
        }
    }
}

/// The bits of a position, as a memo key (the world's and the aim's memos): `x` low, `y` high,
/// as a position lies in memory, so that keys of a slice of positions need no shuffling.
#[inline(always)]
pub(super) fn key_of(position: Point2) -> u64 {
    u64::from(position.x.to_bits()) | u64::from(position.y.to_bits()) << 32
}

/// `graph.nearest(position, threshold)`, from `nearby` when it was built for `threshold`.
#[inline(always)]
fn nearest(
    nearby: Option<&NearbyWaypoints>,
    graph: &WaypointGraph,
    position: Point2,
    threshold: f32,
) -> Option<i32> {
    match nearby {
        Some(nearby) if nearby.threshold().to_bits() == threshold.to_bits() => {
            nearby.nearest(position.x, position.y)
        }
        _ => graph.nearest(position.x, position.y, threshold),
    }
}

impl NearestMemo {
    /// An empty memo for `graph` and `threshold` (`INIT_DISTANCE_THR`), which looks nearest
    /// waypoints up in a grid of the graph's waypoints.
    pub fn new(graph: &WaypointGraph, threshold: f32) -> Self {
        Self {
            nearby: NearbyWaypoints::new(graph, threshold),
            ..Self::default()
        }
    }

    /// `graph.nearest(position, threshold)` for our own position, from the memo when it is
    /// the very same position as last time.
    fn own_nearest(
        &mut self,
        position: Point2,
        graph: &WaypointGraph,
        threshold: f32,
    ) -> Option<i32> {
        let key = key_of(position);
        if self.own_key != key {
            self.own_answer = nearest(self.nearby.as_ref(), graph, position, threshold);
            self.own_key = key;
        }
        self.own_answer
    }

    /// The units of every `car_pos` slot but `skip` (ours, looked up apart), derived again
    /// only where the position changed: its waypoint is the nearest one, none where the
    /// position is unknown.
    fn units(
        &mut self,
        positions: &[Point2; POSITION_SLOTS],
        skip: usize,
        graph: &WaypointGraph,
        threshold: f32,
    ) -> &[Unit; POSITION_SLOTS] {
        // The changed slots as bits first (a loop without branches), then only those.
        let mut changed = self
            .unit_keys
            .iter()
            .zip(positions)
            .enumerate()
            .fold(0u32, |bits, (slot, (key, &position))| {
                bits | u32::from(*key != key_of(position)) << slot
            });
        changed &= !1u32.checked_shl(skip as u32).unwrap_or(0);
        while changed != 0 {
            let slot = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let (Some(key), Some(unit), Some(&position)) = (
                self.unit_keys.get_mut(slot),
                self.units.get_mut(slot),
                positions.get(slot),
            ) else {
                continue;
            };
            *key = key_of(position);
            *unit = Unit {
                position,
                waypoint: if position.is_unknown() {
                    None
                } else {
                    nearest(self.nearby.as_ref(), graph, position, threshold)
                },
            };
        }
        &self.units
    }
}

impl World {
    /// Derives this tick's world from the inputs; `Err` when the tick must be skipped.
    pub fn update(
        &mut self,
        input: &TickInput,
        config: &RmConfig,
        graph: &WaypointGraph,
    ) -> Result<(), InputSkip> {
        self.update_with_memo(input, config, graph, &mut NearestMemo::default())
    }

    /// As [`update`](Self::update), taking nearest waypoints of unmoved positions from `memo`
    /// (which must have been filled with this `graph` and `config` only).
    pub fn update_with_memo(
        &mut self,
        input: &TickInput,
        config: &RmConfig,
        graph: &WaypointGraph,
        memo: &mut NearestMemo,
    ) -> Result<(), InputSkip> {
        let all_finite = all_finite(&input.positions)
            && input
                .pose
                .is_none_or(|p| p.x.is_finite() && p.y.is_finite() && p.yaw.is_finite())
            && input.remaining_time.is_finite();
        if !all_finite {
            return Err(InputSkip::InvalidPosition);
        }
        if !config.debug && input.game_stage != STAGE_IN_BATTLE {
            return Err(InputSkip::NotInBattle);
        }
        let (hp_offset, own_offset, enemy_offset) =
            if config.is_blue { (8, 6, 0) } else { (0, 0, 6) };
        let self_slot = own_offset + config.self_index.clamp(0, 5) as usize;
        let from_car_pos = input.positions[self_slot];
        self.position = if !from_car_pos.is_unknown() {
            from_car_pos
        } else {
            match input.pose {
                Some(p) => p.position(),
                None => return Err(InputSkip::NoPosition),
            }
        };
        self.chassis_yaw = input.pose.map_or(0.0, |p| p.yaw);
        let threshold = config.distance_thr;
        self.waypoint = memo.own_nearest(self.position, graph, threshold);
        let hp_at = |i: i32| input.hp[hp_offset + i.clamp(0, 7) as usize];
        self.hp = hp_at(config.self_index);
        self.outpost_hp = hp_at(config.outpost_index);
        self.base_hp = hp_at(config.base_index);
        self.elapsed = f64::from(config.game_time) - input.remaining_time;
        self.mode = input.mode;
        self.nav_status = input.nav_status;
        self.autoaim_has_target = input.autoaim_target_lost == Some(false);
        let units = memo.units(&input.positions, self_slot, graph, threshold);
        if let (Some(enemies), Some(friends)) = (
            units.get(enemy_offset..enemy_offset + UNIT_SLOTS),
            units.get(own_offset..own_offset + UNIT_SLOTS),
        ) {
            self.enemies.copy_from_slice(enemies);
            self.friends.copy_from_slice(friends);
        }
        // Our own slot is ourselves, with the position we decided on (not looked up again).
        if let Some(slot) = self.friends.get_mut(self_slot - own_offset) {
            *slot = Unit {
                position: self.position,
                waypoint: self.waypoint,
            };
        }
        Ok(())
    }
}

/// The human names of the unit slots, for explanations.
pub const SLOT_NAMES: [&str; UNIT_SLOTS] = [
    "hero",
    "engineer",
    "infantry 3",
    "infantry 4",
    "infantry 5",
    "sentry",
];
