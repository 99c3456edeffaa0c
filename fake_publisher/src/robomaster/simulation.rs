//! The [`Simulation`] driver: builds the match from a scenario, advances it step by step and
//! gives the [`Frame`] to publish; goals, cancels and decisions are fed back in.

use super::angle::norm_angle;
use super::combat::{Combat, structure_index};
use super::fight::{self, CombatStats, Fight};
use super::motion::{self, Mover};
use super::nav::Nav;
use super::route::{self, Planner};
use super::state::{Frame, RobotState};
use super::{TIME_EPS, aim};
use crate::check::{hp_index_of, own_index};
use crate::error::ScenarioError;
use crate::scenario::{Gun, ROBOT_NAMES, Scenario, Side, Structure, check_against};
use bus::messages::{
    Autoaim, CarPos, DecisionMsg, GameInfo, GoalStatus, GoalStatusArray, Header, NavCancel,
    NavGoal, ObjHp, Point2f, PoseMsg, Serial,
};
use decision_core::robomaster::Tables;
use geometry::Vec2;
use std::sync::Arc;

/// A running match simulation (see the crate docs).
#[derive(Debug, Clone)]
pub struct Simulation {
    tables: Arc<Tables>,
    t: f64,
    game_time: f64,
    match_start: f64,
    stages: Vec<(f64, u8)>,
    rate: f64,
    ours: usize,
    robots: Vec<RobotState>,
    movers: Vec<Mover>,
    /// HP and what changes it.
    combat: Combat,
    /// The combat model, when the scenario has a `combat` section.
    fight: Option<Fight>,
    /// Our side.
    side: Side,
    /// When our robot's published HP first reached 0.
    own_destroyed_at: Option<f64>,
    nav: Nav,
    /// Velocity of each robot over the last step (m/s), for the planner's predictions.
    velocities: Vec<Vec2>,
    mode: u8,
    ended: bool,
    rejected_goals: u64,
}

impl Simulation {
    /// A simulation of `scenario` on the field of `tables`, with random choices from `seed`.
    pub fn new(scenario: &Scenario, tables: Arc<Tables>, seed: u64) -> Result<Self, ScenarioError> {
        check_against(scenario, &tables)?;
        let ours = own_index(&tables);
        let our_hp = hp_index_of(ours);
        let combat = Combat::new(scenario, &tables, our_hp);

        let mut robots = Vec::with_capacity(12);
        let mut movers = Vec::with_capacity(12);
        for (i, name) in ROBOT_NAMES.iter().enumerate() {
            let (mover, pos) = motion::start(scenario, &tables, ours, i, seed);
            let (x, y, heading) = pos.unwrap_or((0.0, 0.0, 0.0));
            let on_field = pos.is_some() && !matches!(mover, Mover::Off);
            let hp_now = combat.published(hp_index_of(i)).unwrap_or(0);
            robots.push(RobotState {
                name,
                index: i,
                side: if i < 6 { Side::Red } else { Side::Blue },
                x,
                y,
                heading,
                hp: hp_now,
                alive: hp_now > 0,
                on_field,
                is_self: i == ours,
            });
            movers.push(if on_field { mover } else { Mover::Off });
        }

        let stages: Vec<(f64, u8)> = scenario.stages.iter().map(|s| (s.at, s.stage)).collect();
        let match_start = stages
            .iter()
            .find(|(_, s)| *s == GameInfo::STAGE_BATTLE)
            .map_or(0.0, |(at, _)| *at);
        let game_time = scenario
            .game_time
            .unwrap_or(f64::from(tables.config.game_time));
        let planner = if scenario.nav.planner {
            Planner::new(&tables.map, scenario.nav.accel, seed)
        } else {
            None
        };
        let velocities = vec![Vec2::ZERO; robots.len()];
        let fight = scenario.combat.as_ref().map(|spec| {
            Fight::new(
                spec,
                &tables,
                structure_index(scenario.side, Structure::Outpost),
                structure_index(scenario.side, Structure::Base),
                seed,
            )
        });
        let mut sim = Self {
            tables,
            t: 0.0,
            game_time,
            match_start,
            stages,
            rate: scenario.rate,
            ours,
            robots,
            movers,
            combat,
            fight,
            side: scenario.side,
            own_destroyed_at: None,
            nav: Nav::new(scenario.nav.speed, scenario.nav.accept_delay, planner),
            velocities,
            mode: scenario.mode,
            ended: false,
            rejected_goals: 0,
        };
        sim.combat.apply_events(0.0);
        sim.sync_hp();
        sim.update_ended();
        Ok(sim)
    }

    /// Simulated seconds since the start.
    pub fn time(&self) -> f64 {
        self.t
    }

    /// Advances the world by `dt` seconds (ignored when not > 0 or after the match ended).
    pub fn step(&mut self, dt: f64) {
        if !(dt.is_finite() && dt > 0.0) || self.ended {
            return;
        }
        let (t0, t1) = (self.t, self.t + dt);
        self.move_robots(t0, t1);
        self.combat.continuous(
            t0,
            t1,
            dt,
            self.robots.get(self.ours),
            hp_index_of(self.ours),
        );
        let in_battle = self.stage() == GameInfo::STAGE_BATTLE;
        if let Some(fight) = &mut self.fight
            && in_battle
        {
            fight.step(
                dt,
                &self.tables,
                &self.robots,
                self.ours,
                self.mode,
                &mut self.combat,
            );
        }
        self.combat.apply_events(t1);
        self.t = t1;
        self.sync_hp();
        self.update_ended();
    }

    /// The messages to publish now, stamped with the simulated time.
    pub fn frame(&self) -> Frame {
        let header = Header::at(self.t);
        let map_header = Header {
            frame_id: "map".into(),
            ..header.clone()
        };
        let pos = self
            .robots
            .iter()
            .map(|r| {
                if r.on_field {
                    Point2f {
                        x: r.x as f32,
                        y: r.y as f32,
                    }
                } else {
                    Point2f::default()
                }
            })
            .collect();
        let me = self.robots.get(self.ours);
        let pose = me.map_or_else(PoseMsg::default, |r| PoseMsg {
            header: map_header.clone(),
            x: r.x as f32,
            y: r.y as f32,
            yaw: r.heading as f32,
        });
        let autoaim = me.filter(|r| r.alive).map(|r| {
            let target = aim::target(&self.tables, &self.robots, r);
            Autoaim {
                header: header.clone(),
                yaw: target.map_or(0.0, |yaw| yaw as f32),
                pitch: 0.0,
                is_target_lost: target.is_none(),
            }
        });
        Frame {
            obj_hp: ObjHp {
                header: header.clone(),
                hp: self.hp().to_vec(),
            },
            car_pos: CarPos {
                header: map_header.clone(),
                pos,
            },
            game_info: GameInfo {
                header: header.clone(),
                timestamp: self.remaining(),
                game_stage: self.stage(),
            },
            serial: Serial {
                header: header.clone(),
                mode: self.mode,
                bullet_speed: 0.0,
            },
            pose,
            nav_status: GoalStatusArray {
                header: header.clone(),
                status_list: self.nav.statuses().to_vec(),
            },
            nav_feedback: me.and_then(|r| self.nav.feedback(r, &map_header)),
            autoaim,
        }
    }

    /// A Nav2 goal for our robot: accepted now, executing after `nav.accept_delay`; a goal
    /// in flight is cancelled (preempted). Goals without poses or with non-finite values are
    /// ignored (counted in [`Self::rejected_goals`]); while our robot is dead it is aborted.
    pub fn on_goal(&mut self, goal: &NavGoal) {
        let finite = goal
            .poses
            .iter()
            .all(|p| p.x.is_finite() && p.y.is_finite() && p.yaw.is_finite());
        if goal.poses.is_empty() || !finite {
            self.rejected_goals += 1;
            return;
        }
        let alive = self.robots.get(self.ours).is_some_and(|r| r.alive);
        self.nav.on_goal(goal, self.t, alive);
    }

    /// A cancel request: the goal in flight with that id (any goal for
    /// [`NavCancel::ANY_GOAL`]) is cancelled (status 5) and our robot stops.
    pub fn on_cancel(&mut self, cancel: &NavCancel) {
        self.nav.on_cancel(cancel);
    }

    /// The lower computer adopts the decision's mode (published in `serial_msg.mode`).
    pub fn on_decision(&mut self, decision: &DecisionMsg) {
        self.mode = decision.mode;
    }

    /// Whether the match is over (time up or a base destroyed).
    pub fn finished(&self) -> bool {
        self.ended
    }

    /// Seconds between two frames: 1 / rate.
    pub fn publish_period(&self) -> f64 {
        1.0 / self.rate
    }

    /// The 12 robots in `car_pos` order.
    pub fn robots(&self) -> &[RobotState] {
        &self.robots
    }

    /// The 16 HP values as published.
    pub fn hp(&self) -> [u16; 16] {
        self.combat.all_published()
    }

    /// Remaining match seconds (`game_info.timestamp`).
    pub fn remaining(&self) -> f64 {
        let elapsed = (self.t - self.match_start).max(0.0);
        (self.game_time - elapsed).clamp(0.0, self.game_time)
    }

    /// The current game stage (5 once the match has ended).
    pub fn stage(&self) -> u8 {
        if self.ended {
            return GameInfo::STAGE_SETTLEMENT;
        }
        if self.stages.is_empty() {
            return GameInfo::STAGE_BATTLE;
        }
        self.stages
            .iter()
            .rev()
            .find(|(at, _)| *at <= self.t + TIME_EPS)
            .map_or(0, |(_, s)| *s)
    }

    /// The lower computer's current mode.
    pub fn mode(&self) -> u8 {
        self.mode
    }

    /// Status code of the newest goal (0 before any goal).
    pub fn nav_status(&self) -> u8 {
        self.nav.statuses().last().map_or(0, |s| s.status)
    }

    /// Number of goals ignored for having no poses or non-finite values.
    pub fn rejected_goals(&self) -> u64 {
        self.rejected_goals
    }

    /// Our robot's `car_pos` index.
    pub fn own_index(&self) -> usize {
        self.ours
    }

    /// The field the simulation runs on.
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// Whether the scenario has a `combat` section: HP then also depends on what our robot does.
    pub fn combat_enabled(&self) -> bool {
        self.fight.is_some()
    }

    /// Our robot, our structures and the damage dealt so far ([`CombatStats`]). Without a
    /// `combat` section the damage totals are 0 and the HP follow the scripted events.
    pub fn combat_stats(&self) -> CombatStats {
        let mut stats = CombatStats {
            own_hp: self.combat.value(hp_index_of(self.ours)),
            own_destroyed_at: self.own_destroyed_at,
            outpost_hp: self
                .combat
                .value(structure_index(self.side, Structure::Outpost)),
            base_hp: self
                .combat
                .value(structure_index(self.side, Structure::Base)),
            ..CombatStats::default()
        };
        if let Some(fight) = &self.fight {
            fight.add_to(&mut stats);
        }
        stats
    }

    /// Ground truth now: a live enemy on the field within our fire range (`combat.own_gun.range`,
    /// default 5 m also without a `combat` section) and in our robot's line of sight (the map's
    /// sampled occlusion test); false while our robot is dead or off the field.
    pub fn enemy_in_sight(&self) -> bool {
        let default_gun = Gun::default();
        let gun = self
            .fight
            .as_ref()
            .map_or(&default_gun, |f| &f.spec().own_gun);
        self.robots
            .get(self.ours)
            .is_some_and(|me| fight::enemy_in_sight(&self.tables, &self.robots, me, gun))
    }

    /// Whether our robot spins now (its mode is one of `combat.spin_modes`; false without a
    /// `combat` section).
    pub fn spinning(&self) -> bool {
        self.fight.as_ref().is_some_and(|f| f.spinning(self.mode))
    }

    /// Moves every robot from `t0` to `t1` (ours by the simulated Nav2) and records its velocity.
    fn move_robots(&mut self, t0: f64, t1: f64) {
        let dt = t1 - t0;
        let graph = &self.tables.graph;
        let map = &self.tables.map;
        // The other live robots as seen at t0, moving on at their last velocity.
        let others = if self.nav.is_planned() {
            route::predicted(&self.robots, &self.velocities)
        } else {
            Vec::new()
        };
        for ((robot, mover), velocity) in self
            .robots
            .iter_mut()
            .zip(self.movers.iter_mut())
            .zip(self.velocities.iter_mut())
        {
            if !robot.alive || !robot.on_field {
                *velocity = Vec2::ZERO;
                continue;
            }
            let before = (robot.x, robot.y);
            match mover {
                Mover::Ours => self.nav.advance(robot, t0, t1, map, &others),
                _ => mover.advance(robot, dt, t1, graph),
            }
            let (dx, dy) = (robot.x - before.0, robot.y - before.1);
            *velocity = Vec2::new(dx / dt, dy / dt);
            if !robot.is_self && !matches!(mover, Mover::Script(_)) && dx.hypot(dy) > 1e-9 {
                robot.heading = norm_angle(dy.atan2(dx));
            }
        }
    }

    /// Copies HP into the robot states, and aborts our goal if our robot has died.
    fn sync_hp(&mut self) {
        for robot in &mut self.robots {
            robot.hp = self.combat.published(hp_index_of(robot.index)).unwrap_or(0);
            robot.alive = robot.hp > 0;
        }
        if self.robots.get(self.ours).is_some_and(|r| !r.alive) {
            self.nav.end(GoalStatus::ABORTED);
            self.own_destroyed_at.get_or_insert(self.t);
        }
    }

    /// Ends the match when the time is up or a base is destroyed.
    fn update_ended(&mut self) {
        let time_up = self.t + TIME_EPS >= self.match_start + self.game_time;
        let base_down = self.combat.base_destroyed();
        self.ended = time_up || base_down;
    }
}
