//! Combat that depends on what our robot does (the scenario's opt-in `combat` section,
//! [`CombatSpec`]): enemies in range and in sight shoot our robot (fewer hits while it spins),
//! our robot shoots its auto-aim target, and enemies near our outpost or base wear it down
//! while no defender is near. Hits are drawn from the seed, one stream per shooter, so a match
//! is the same for a seed whatever else changes in the scenario.

use super::aim;
use super::combat::Combat;
use super::state::RobotState;
use crate::check::hp_index_of;
use crate::rng::SplitMix64;
use crate::scenario::{CombatSpec, Gun, Place};
use decision_core::robomaster::Tables;

/// Offset of the shooters' random streams (`car_pos` index + this), apart from the streams of
/// the robots' motion (`car_pos` index).
const SHOT_STREAM: u64 = 0xC0_4BA7;

/// What the evaluator reads of a match: our HP and structures, the damage our robot dealt, and
/// when our robot was destroyed ([`crate::Simulation::combat_stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct CombatStats {
    /// Total HP our robot's hits removed from enemies (only with a `combat` section; an enemy
    /// at 0 HP gives no more).
    pub damage_dealt: f64,
    /// Total HP the enemies' hits removed from our robot (only with a `combat` section;
    /// scripted `hp_events` are not counted).
    pub damage_taken: f64,
    /// Hits our robot landed.
    pub hits_dealt: u64,
    /// Hits our robot took.
    pub hits_taken: u64,
    /// Our robot's HP now (fractional as kept inside; `obj_hp` publishes its floor).
    pub own_hp: f64,
    /// Simulated second at which our robot's published HP first reached 0 (by combat or by a
    /// scripted event), if it did.
    pub own_destroyed_at: Option<f64>,
    /// Our outpost's HP now (fractional).
    pub outpost_hp: f64,
    /// Our base's HP now (fractional).
    pub base_hp: f64,
}

/// One shooter's state: shots owed (fractional) and its random stream.
#[derive(Debug, Clone)]
struct Shooter {
    clock: f64,
    rng: SplitMix64,
}

impl Shooter {
    /// Fires for `dt` seconds with `gun`, each shot hitting with chance `p`: the number of hits.
    fn fire(&mut self, gun: &Gun, dt: f64, p: f64) -> u64 {
        self.clock += gun.shots_per_second * dt;
        let mut hits = 0;
        // The slack keeps 5 x 0.2 shots one shot despite rounding.
        while self.clock >= 1.0 - 1e-9 {
            self.clock -= 1.0;
            if self.rng.chance(p) {
                hits += 1;
            }
        }
        hits
    }
}

/// The combat model of a match with a `combat` section.
#[derive(Debug, Clone)]
pub(super) struct Fight {
    spec: CombatSpec,
    /// Our outpost: position and `obj_hp` index.
    outpost: Option<((f64, f64), usize)>,
    /// Our base: position and `obj_hp` index.
    base: Option<((f64, f64), usize)>,
    /// Our outpost's `obj_hp` index (for the base's shield).
    outpost_index: usize,
    /// One per `car_pos` index.
    shooters: Vec<Shooter>,
    damage_dealt: f64,
    damage_taken: f64,
    hits_dealt: u64,
    hits_taken: u64,
}

/// Position of a place in metres.
fn place_xy(tables: &Tables, place: &Place) -> (f64, f64) {
    match place {
        Place::Waypoint(id) => super::motion::waypoint_xy(tables, *id),
        Place::Point(p) => (p.x, p.y),
    }
}

/// Whether `to` is known (the sim publishes 0, 0 for unknown) and in sight of `from`, by the
/// node's sampled occlusion test on the obstacle map.
fn in_sight(tables: &Tables, from: &RobotState, to: &RobotState) -> bool {
    let a = (from.x as f32, from.y as f32);
    let b = (to.x as f32, to.y as f32);
    b.0 != 0.0
        && b.1 != 0.0
        && a != b
        && tables
            .map
            .visible_sampled(a, b, tables.config.step_distance)
}

fn distance(a: &RobotState, b: &RobotState) -> f64 {
    (a.x - b.x).hypot(a.y - b.y)
}

/// Whether robot `r` (at `car_pos` index `i`) is on the field with HP left.
fn standing(combat: &Combat, r: &RobotState) -> bool {
    r.on_field && combat.published(hp_index_of(r.index)).unwrap_or(0) > 0
}

/// Ground truth: a live enemy on the field within `gun.range` of our live robot `me` and in its
/// line of sight.
pub(super) fn enemy_in_sight(
    tables: &Tables,
    robots: &[RobotState],
    me: &RobotState,
    gun: &Gun,
) -> bool {
    me.alive
        && me.on_field
        && robots.iter().any(|r| {
            r.side != me.side
                && r.alive
                && r.on_field
                && distance(me, r) <= gun.range
                && in_sight(tables, me, r)
        })
}

impl Fight {
    /// The model of `spec` for our side's structures (`obj_hp` indices `outpost_index` and
    /// `base_index`), with hits drawn from `seed`.
    pub(super) fn new(
        spec: &CombatSpec,
        tables: &Tables,
        outpost_index: usize,
        base_index: usize,
        seed: u64,
    ) -> Self {
        let shooters = (0..12u64)
            .map(|i| Shooter {
                clock: 0.0,
                rng: SplitMix64::for_stream(seed, SHOT_STREAM + i),
            })
            .collect();
        Self {
            outpost: spec
                .outpost
                .as_ref()
                .map(|p| (place_xy(tables, p), outpost_index)),
            base: spec
                .base
                .as_ref()
                .map(|p| (place_xy(tables, p), base_index)),
            outpost_index,
            spec: spec.clone(),
            shooters,
            damage_dealt: 0.0,
            damage_taken: 0.0,
            hits_dealt: 0,
            hits_taken: 0,
        }
    }

    /// The parameters.
    pub(super) fn spec(&self) -> &CombatSpec {
        &self.spec
    }

    /// Whether our robot spins in lower-computer `mode`.
    pub(super) fn spinning(&self, mode: u8) -> bool {
        self.spec.spin_modes.contains(&mode)
    }

    /// Factor on the enemies' hit chance against our robot in `mode`.
    fn hit_factor(&self, mode: u8) -> f64 {
        if self.spinning(mode) {
            self.spec.spin_hit_factor
        } else {
            1.0
        }
    }

    /// One step of `dt` seconds of battle, at the robots' positions after moving: everybody
    /// fires at once (from who stands at the start of the step), then the sieges.
    pub(super) fn step(
        &mut self,
        dt: f64,
        tables: &Tables,
        robots: &[RobotState],
        ours: usize,
        mode: u8,
        combat: &mut Combat,
    ) {
        let me = robots.get(ours).filter(|r| standing(combat, r));
        if let Some(me) = me {
            let factor = self.hit_factor(mode);
            let gun = self.spec.enemy_gun;
            let mut hits_taken = 0;
            for enemy in robots.iter() {
                if enemy.side == me.side || !standing(combat, enemy) {
                    continue;
                }
                let d = distance(me, enemy);
                if d > gun.range || !in_sight(tables, enemy, me) {
                    continue;
                }
                if let Some(shooter) = self.shooters.get_mut(enemy.index) {
                    hits_taken += shooter.fire(&gun, dt, gun.hit_chance(d) * factor);
                }
            }
            let gun = self.spec.own_gun;
            let mut hits_dealt = (0, None);
            if let Some((target, _)) = aim::aimed(tables, robots, me)
                && let Some(enemy) = robots.get(target)
                && standing(combat, enemy)
                && distance(me, enemy) <= gun.range
                && let Some(shooter) = self.shooters.get_mut(me.index)
            {
                let hits = shooter.fire(&gun, dt, gun.hit_chance(distance(me, enemy)));
                hits_dealt = (hits, Some(hp_index_of(target)));
            }
            self.hits_taken += hits_taken;
            self.damage_taken += combat.remove(
                hp_index_of(ours),
                hits_taken as f64 * self.spec.enemy_gun.damage_per_hit,
            );
            if let (hits, Some(index)) = hits_dealt {
                self.hits_dealt += hits;
                self.damage_dealt += combat.remove(index, hits as f64 * gun.damage_per_hit);
            }
        }
        self.siege(dt, robots, ours, combat);
    }

    /// Enemies within `siege_range` of our outpost or base wear it down, unless our live robot
    /// is within `defender_radius` of it (or, for a shielded base, while the outpost stands).
    fn siege(&self, dt: f64, robots: &[RobotState], ours: usize, combat: &mut Combat) {
        let our_side = robots.get(ours).map(|r| r.side);
        let me = robots.get(ours).filter(|r| standing(combat, r));
        let outpost_up = combat.published(self.outpost_index).unwrap_or(0) > 0;
        for (structure, is_base) in [(self.outpost, false), (self.base, true)] {
            let Some(((x, y), index)) = structure else {
                continue;
            };
            if is_base && self.spec.base_shielded_by_outpost && outpost_up {
                continue;
            }
            let near = |r: &RobotState, radius: f64| (r.x - x).hypot(r.y - y) <= radius;
            if me.is_some_and(|me| near(me, self.spec.defender_radius)) {
                continue;
            }
            let attackers = robots
                .iter()
                .filter(|r| {
                    Some(r.side) != our_side
                        && standing(combat, r)
                        && near(r, self.spec.siege_range)
                })
                .count();
            combat.remove(index, self.spec.siege_hp_per_second * attackers as f64 * dt);
        }
    }

    /// The totals so far, into `stats`.
    pub(super) fn add_to(&self, stats: &mut CombatStats) {
        stats.damage_dealt = self.damage_dealt;
        stats.damage_taken = self.damage_taken;
        stats.hits_dealt = self.hits_dealt;
        stats.hits_taken = self.hits_taken;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Simulation;
    use crate::scenario::parse_scenario;
    use bus::messages::{GoalStatus, NavGoal, Pose2};
    use std::path::PathBuf;
    use std::sync::Arc;

    /// The 12 m x 8 m test field with a wall at x 5.9..6.1 m, y 2.5..5.5 m; we are red R7.
    fn wall_config() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../decision_core/tests/fixtures/field/JsonFile/config.json")
    }

    /// A simulation on the wall field with `body` spliced into the scenario (straight-line Nav2).
    fn sim(body: &str, seed: u64) -> Simulation {
        let config = wall_config();
        let text = format!(
            "{{field: {:?}, side: 'red', nav: {{planner: false}}, {body}}}",
            config.display().to_string()
        );
        let scenario = parse_scenario(&text, &config.with_file_name("s.json5"))
            .unwrap_or_else(|e| panic!("{e}"));
        let outcome = decision_core::robomaster::load(&config);
        let tables = outcome.tables.unwrap_or_else(|| panic!("wall field"));
        Simulation::new(&scenario, Arc::new(tables), seed).unwrap_or_else(|e| panic!("{e}"))
    }

    fn run(sim: &mut Simulation, seconds: f64) {
        let until = sim.time() + seconds;
        while sim.time() + 0.05 < until {
            sim.step(0.1);
        }
    }

    /// Certain hits: every shot hits at any distance within range.
    const SURE: &str = "hit_chance_near: 1, hit_chance_far: 1";

    #[test]
    fn hit_chance_and_rate_fall_with_distance_and_spinning() {
        let gun = Gun::default();
        assert_eq!(gun.hit_chance(0.0), 0.8);
        assert!((gun.hit_chance(2.5) - 0.5).abs() < 1e-12);
        assert!((gun.hit_chance(5.0) - 0.2).abs() < 1e-12);
        assert_eq!(gun.hit_chance(5.01), 0.0);
        assert_eq!(gun.hit_chance(f64::NAN), 0.0);
        // 4 shots/s x 0.5 x 10 HP at 2.5 m; half the hits on a spinning target.
        assert!((gun.expected_dps(2.5, 1.0) - 20.0).abs() < 1e-12);
        assert!((gun.expected_dps(2.5, 0.5) - 10.0).abs() < 1e-12);
        assert!((gun.expected_dps(0.0, 1.0) - 32.0).abs() < 1e-12);
        assert_eq!(gun.expected_dps(6.0, 1.0), 0.0);
    }

    #[test]
    fn an_enemy_in_range_and_sight_damages_us_at_its_gun_rate() {
        // B3 2 m east of us, certain hits: 2 shots/s x 10 HP = 20 HP/s.
        let body = format!(
            "start: {{self: {{x: 4, y: 1.5}}, B3: {{x: 6, y: 1.5}}}}, robots: {{B3: 'stationary'}},
             combat: {{enemy_gun: {{shots_per_second: 2, {SURE}}}, own_gun: {{shots_per_second: 0}}}}"
        );
        let mut s = sim(&body, 1);
        assert!(s.enemy_in_sight());
        run(&mut s, 10.0);
        let stats = s.combat_stats();
        assert_eq!(stats.hits_taken, 20);
        assert_eq!(stats.own_hp, 400.0);
        assert_eq!(stats.damage_taken, 200.0);
        assert_eq!(s.hp()[5], 400);
        assert_eq!(stats.damage_dealt, 0.0);
        assert_eq!(stats.own_destroyed_at, None);

        // Out of range (5.5 m > 5 m): nothing.
        let body = format!(
            "start: {{self: {{x: 4, y: 1.5}}, B3: {{x: 9.5, y: 1.5}}}}, robots: {{B3: 'stationary'}},
             combat: {{enemy_gun: {{shots_per_second: 2, {SURE}}}}}"
        );
        let mut s = sim(&body, 1);
        assert!(!s.enemy_in_sight());
        run(&mut s, 10.0);
        assert_eq!(s.combat_stats().own_hp, 600.0);
    }

    #[test]
    fn the_wall_blocks_fire_both_ways() {
        // 4 m apart across the wall at x 6: no sight, no damage either way.
        let body = format!(
            "start: {{self: {{x: 4, y: 4}}, B3: {{x: 8, y: 4}}}}, robots: {{B3: 'stationary'}},
             combat: {{enemy_gun: {{{SURE}}}, own_gun: {{{SURE}}}}}"
        );
        let mut s = sim(&body, 1);
        assert!(!s.enemy_in_sight());
        run(&mut s, 10.0);
        let stats = s.combat_stats();
        assert_eq!(
            (stats.own_hp, stats.hits_taken, stats.hits_dealt),
            (600.0, 0, 0)
        );
        assert_eq!(s.hp()[10], 400, "B3 untouched");
    }

    #[test]
    fn spinning_takes_fewer_hits() {
        let body = |mode: u8, factor: f64| {
            format!(
                "mode: {mode}, start: {{self: {{x: 4, y: 1.5}}, B3: {{x: 6, y: 1.5}}}},
                 robots: {{B3: 'stationary'}}, hp: {{self: 5000}},
                 combat: {{enemy_gun: {{shots_per_second: 2, {SURE}}}, own_gun: {{shots_per_second: 0}},
                           spin_hit_factor: {factor}}}"
            )
        };
        let hits = |mode: u8, factor: f64| {
            let mut s = sim(&body(mode, factor), 3);
            run(&mut s, 100.0);
            assert_eq!(s.spinning(), mode == 7);
            s.combat_stats().hits_taken
        };
        // Mode 6 (cruise): every one of the 200 shots hits; mode 7 (spin) with factor 0: none.
        assert_eq!(hits(6, 0.5), 200);
        assert_eq!(hits(7, 0.0), 0);
        assert_eq!(hits(7, 1.0), 200);
        // Factor 0.5: about half (binomial 200 x 0.5: sd 7).
        let half = hits(7, 0.5);
        assert!((70..=130).contains(&half), "{half} hits");
    }

    #[test]
    fn our_robot_damages_the_enemy_it_aims_at() {
        // B3 at 2 m and B4 at 3 m, both in sight: we aim at (and hit) the nearer one only.
        let body = format!(
            "start: {{self: {{x: 4, y: 1.5}}, B3: {{x: 6, y: 1.5}}, B4: {{x: 4, y: 4.5}}}},
             robots: {{B3: 'stationary', B4: 'stationary'}},
             combat: {{enemy_gun: {{shots_per_second: 0}}, own_gun: {{shots_per_second: 2, {SURE}}}}}"
        );
        let mut s = sim(&body, 1);
        assert_eq!(s.frame().autoaim.map(|a| a.is_target_lost), Some(false));
        run(&mut s, 10.0);
        let stats = s.combat_stats();
        assert_eq!((stats.hits_dealt, stats.damage_dealt), (20, 200.0));
        assert_eq!((s.hp()[10], s.hp()[11]), (200, 400), "B3 hit, B4 not");
        // B3 dies after 20 s in all; then we aim at B4.
        run(&mut s, 15.0);
        assert_eq!(s.hp()[10], 0);
        assert!(!s.robots()[8].alive);
        assert_eq!(s.hp()[11], 300, "B4 hit for the last 5 s");
        assert_eq!(s.combat_stats().damage_dealt, 500.0);
    }

    #[test]
    fn hp_zero_stops_our_robot() {
        // 100 HP against 20 HP/s of certain hits: destroyed after 5 s.
        let body = format!(
            "start: {{self: {{x: 4, y: 1.5}}, B3: {{x: 6, y: 1.5}}}}, robots: {{B3: 'stationary'}},
             hp: {{self: 100}},
             combat: {{enemy_gun: {{shots_per_second: 2, {SURE}}}, own_gun: {{{SURE}}}}}"
        );
        let mut s = sim(&body, 1);
        run(&mut s, 4.0);
        assert!(s.robots()[5].alive);
        let goal = NavGoal {
            goal_id: 1,
            poses: vec![Pose2 {
                x: 2.0,
                y: 1.5,
                yaw: 0.0,
            }],
            ..NavGoal::default()
        };
        s.on_goal(&goal);
        run(&mut s, 1.0);
        let stats = s.combat_stats();
        assert_eq!(stats.own_hp, 0.0);
        let at = stats.own_destroyed_at.unwrap_or(f64::NAN);
        assert!((at - 5.0).abs() < 1e-6, "destroyed at {at}");
        assert!(!s.robots()[5].alive);
        assert_eq!(s.nav_status(), GoalStatus::ABORTED);
        assert!(s.frame().autoaim.is_none());
        let (x, y) = (s.robots()[5].x, s.robots()[5].y);
        let dealt = stats.damage_dealt;
        run(&mut s, 20.0);
        let after = s.combat_stats();
        assert_eq!((s.robots()[5].x, s.robots()[5].y), (x, y), "it stopped");
        assert_eq!(after.damage_dealt, dealt, "and no longer fires");
        assert_eq!(after.damage_taken, 100.0);
        assert_eq!(after.own_destroyed_at, stats.own_destroyed_at);
        assert!(!s.finished(), "the match runs on");
    }

    #[test]
    fn a_defender_near_stops_structure_damage() {
        // B3 stands 1 m from our outpost at (10, 7): 20 HP/s unless we are within 2 m of it.
        let body = |me: &str| {
            format!(
                "start: {{self: {me}, B3: {{x: 9, y: 7}}}}, robots: {{B3: 'stationary'}},
                 combat: {{enemy_gun: {{shots_per_second: 0}}, own_gun: {{shots_per_second: 0}},
                           outpost: {{x: 10, y: 7}}, base: {{x: 10.5, y: 7.5}}}}"
            )
        };
        let mut away = sim(&body("{x: 2, y: 1}"), 1);
        run(&mut away, 10.0);
        let stats = away.combat_stats();
        assert!(
            (stats.outpost_hp - 1300.0).abs() < 1e-6,
            "{}",
            stats.outpost_hp
        );
        assert_eq!(stats.base_hp, 5000.0, "shielded while the outpost stands");

        let mut near = sim(&body("{x: 11, y: 6.5}"), 1);
        run(&mut near, 10.0);
        assert_eq!(near.combat_stats().outpost_hp, 1500.0);

        // Unshielded, the base (within 3 m of B3) goes down too.
        let body = "start: {self: {x: 2, y: 1}, B3: {x: 9, y: 7}}, robots: {B3: 'stationary'},
             combat: {enemy_gun: {shots_per_second: 0}, own_gun: {shots_per_second: 0},
                      base: {x: 10.5, y: 7.5}, base_shielded_by_outpost: false, siege_hp_per_second: 5}";
        let mut s = sim(body, 1);
        run(&mut s, 10.0);
        assert!((s.combat_stats().base_hp - 4950.0).abs() < 1e-6);
        assert_eq!(
            s.combat_stats().outpost_hp,
            1500.0,
            "no position: no damage"
        );
    }

    #[test]
    fn the_fight_is_the_same_for_a_seed() {
        let body = "start: {self: {x: 4, y: 1.5}, B3: {x: 6, y: 1.5}, B7: 1},
                    robots: {B3: 'stationary', B7: {random_walk: {speed: 1}}}, combat: {}";
        let play = |seed: u64| {
            let mut s = sim(body, seed);
            let mut frames = Vec::new();
            for _ in 0..300 {
                s.step(0.1);
                frames.push(s.frame());
            }
            (frames, s.combat_stats())
        };
        let a = play(11);
        assert_eq!(a, play(11));
        assert!(a.1.hits_taken > 0 && a.1.hits_dealt > 0, "{:?}", a.1);
        assert_ne!(a.1, play(12).1, "another seed, other hits");
    }

    #[test]
    fn without_a_combat_section_nothing_fights() {
        let mut s = sim(
            "start: {self: {x: 4, y: 1.5}, B3: {x: 6, y: 1.5}}, robots: {B3: 'stationary'}",
            1,
        );
        assert!(!s.combat_enabled());
        assert!(s.enemy_in_sight(), "ground truth also without combat");
        run(&mut s, 30.0);
        let stats = s.combat_stats();
        assert_eq!(
            (stats.own_hp, stats.damage_dealt, stats.hits_taken),
            (600.0, 0.0, 0)
        );
        assert_eq!((stats.outpost_hp, stats.base_hp), (1500.0, 5000.0));
    }
}
