//! The simulated match: robots moving by their behaviours, our robot driven by a simulated
//! Nav2, HP changing by events, regeneration and structure damage, and the [`Frame`] of input
//! messages the decision node reads. Single-threaded and deterministic: the same scenario,
//! tables and seed give the same frames; time only advances through [`Simulation::step`].

use crate::check::{hp_index_of, own_index};
use crate::error::ScenarioError;
use crate::rng::SplitMix64;
use crate::scenario::{
    Behaviour, Place, ROBOT_NAMES, Scenario, ScriptPoint, Side, Structure, Target, UnitName,
    check_against,
};
use bus::messages::{
    Autoaim, CarPos, DecisionMsg, GameInfo, GoalStatus, GoalStatusArray, Header, NavCancel,
    NavFeedback, NavGoal, ObjHp, Point2f, Pose2, PoseMsg, Serial, Stamp,
};
use decision_core::robomaster::Tables;
use path_planner::obstacle::grid::WALL_GREY;
use path_planner::obstacle::{ConstVelocityRobot, FieldBorder, GridObstacle, ORDER_OWN_BOT, Query};
use path_planner::{
    MoveCommand, MoveLimits, MoveTo, MoveToConfig, Obstacle, PathFinder, PlanRequest,
    PlannerConfig, Vec2,
};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f64::consts::{PI, TAU};
use std::sync::Arc;
use waypoint_graph::{ObstacleMap, distance_f32};

/// Nav2 status codes (action_msgs/GoalStatus): aliases of the [`GoalStatus`] constants.
pub mod status {
    use bus::messages::GoalStatus;

    /// Goal accepted ([`GoalStatus::ACCEPTED`]).
    pub const ACCEPTED: u8 = GoalStatus::ACCEPTED;
    /// Goal executing ([`GoalStatus::EXECUTING`]).
    pub const EXECUTING: u8 = GoalStatus::EXECUTING;
    /// Goal reached ([`GoalStatus::SUCCEEDED`]).
    pub const SUCCEEDED: u8 = GoalStatus::SUCCEEDED;
    /// Goal cancelled by a cancel request or a preempting goal ([`GoalStatus::CANCELED`]).
    pub const CANCELED: u8 = GoalStatus::CANCELED;
    /// Goal aborted: our robot is dead ([`GoalStatus::ABORTED`]).
    pub const ABORTED: u8 = GoalStatus::ABORTED;
}

/// Game stage reported after the match has ended ([`GameInfo::STAGE_SETTLEMENT`]).
pub const STAGE_SETTLEMENT: u8 = GameInfo::STAGE_SETTLEMENT;
/// Game stage of the battle ([`GameInfo::STAGE_BATTLE`]).
pub const STAGE_BATTLE: u8 = GameInfo::STAGE_BATTLE;
/// How many goal statuses the status array keeps (newest last).
const STATUS_HISTORY: usize = 8;
/// Slack for comparing accumulated simulated times.
const TIME_EPS: f64 = 1e-9;
/// `obj_hp` indices of the outposts and bases.
const RED_OUTPOST: usize = 6;
const RED_BASE: usize = 7;
const BLUE_OUTPOST: usize = 14;
const BLUE_BASE: usize = 15;
/// Radius (m) of our robot, and of every other robot, for the trajectory planner.
pub const ROBOT_RADIUS: f64 = 0.3;
/// Distance (m) at which the planned drive counts an intermediate pose as passed.
const POSE_TOLERANCE: f64 = 0.1;
/// Distance (m) at which the planned drive counts the last pose as reached.
const GOAL_TOLERANCE: f64 = 0.03;
/// Speed (m/s) below which our robot counts as standing.
const STANDING: f64 = 0.05;
/// Gap (m) kept between the planner's wall clearance and the robot's or the pose's distance.
const CLEARANCE_GAP: f64 = 0.02;
/// How long (s) the other robots are predicted at their current velocity.
const PREDICTION: f64 = 0.5;
/// Cell size (m) of the route search around the walls (at least; at most 400 cells a side).
const ROUTE_CELL: f64 = 0.1;
/// Largest number of route cells along the field's longer side.
const ROUTE_MAX_CELLS: f64 = 400.0;
/// Sampling step (m) of the line-of-sight test.
const LOS_STEP: f64 = 0.05;
/// How much the line-of-sight test may under-run the clearance (m).
const LOS_SLACK: f64 = 0.05;

/// Default initial HP of `obj_hp` entry `i`.
fn default_hp(i: usize) -> u16 {
    match i % 8 {
        0 | 1 => 500,
        2..=4 => 400,
        5 => 600,
        6 => 1500,
        _ => 5000,
    }
}

/// HP as published: whole points, rounding away float noise.
fn whole_hp(hp: f64) -> u16 {
    (hp + 1e-6).floor().clamp(0.0, f64::from(u16::MAX)) as u16
}

/// `a` modulo 2 pi in [0, 2 pi], bit for bit `a.rem_euclid(TAU)` (NaN unless finite).
///
/// [`geometry::wrap_pi`] reduces `a % TAU` (exact) into (-pi, pi] by adding or subtracting
/// TAU, which is exact there (Sterbenz); adding TAU back to a negative result is then the
/// same single rounding `rem_euclid` does.
fn rem_tau(a: f64) -> f64 {
    if !a.is_finite() {
        return f64::NAN;
    }
    let w = geometry::wrap_pi(a);
    if w < 0.0 { w + TAU } else { w }
}

/// Angle in [0, 2 pi) (headings), on top of [`geometry::wrap_pi`].
fn norm_angle(a: f64) -> f64 {
    let r = rem_tau(a);
    if r >= TAU { 0.0 } else { r }
}

/// Angle in [-pi, pi] (gimbal yaw, turns), on top of [`geometry::wrap_pi`]. Not
/// `geometry::wrap_pi` itself: this shifts by pi first, as the simulator always has, so its
/// results differ in the last bits and at -pi (kept -pi, where geometry gives pi).
fn wrap_pi(a: f64) -> f64 {
    let r = rem_tau(a + PI) - PI;
    if r < -PI { r + TAU } else { r }
}

/// One robot as the viewer draws it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobotState {
    /// `R1` .. `R7`, `B1` .. `B7`.
    pub name: &'static str,
    /// `car_pos` index 0..11.
    pub index: usize,
    /// Its team.
    pub side: Side,
    /// x in metres (meaningless when off the field).
    pub x: f64,
    /// y in metres (meaningless when off the field).
    pub y: f64,
    /// Heading in radians from +x toward +y, in [0, 2 pi).
    pub heading: f64,
    /// HP as published.
    pub hp: u16,
    /// HP > 0 (a dead robot stays where it is).
    pub alive: bool,
    /// Whether it is on the field (off-field robots publish position 0, 0 = unknown).
    pub on_field: bool,
    /// Whether this is our robot.
    pub is_self: bool,
}

/// The messages to publish at one moment, all stamped with the simulated time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frame {
    /// `obj_hp`.
    pub obj_hp: ObjHp,
    /// `car_pos`.
    pub car_pos: CarPos,
    /// `game_info`.
    pub game_info: GameInfo,
    /// `serial_msg`.
    pub serial: Serial,
    /// `pose` (our robot).
    pub pose: PoseMsg,
    /// `navigate_through_poses/_action/status`.
    pub nav_status: GoalStatusArray,
    /// `navigate_through_poses/_action/feedback`, while a goal is executing.
    pub nav_feedback: Option<NavFeedback>,
    /// `armor_detector/armor_msg`, while our robot is alive.
    pub autoaim: Option<Autoaim>,
}

impl Frame {
    /// Sets every header's stamp to `t` seconds. The simulation stamps frames with simulated
    /// time; a live node measures message age against its own (wall) clock, so the binary
    /// restamps with the wall clock before publishing.
    pub fn restamp(&mut self, t: f64) {
        let stamp = Stamp::from_secs_f64(t);
        self.obj_hp.header.stamp = stamp;
        self.car_pos.header.stamp = stamp;
        self.game_info.header.stamp = stamp;
        self.serial.header.stamp = stamp;
        self.pose.header.stamp = stamp;
        self.nav_status.header.stamp = stamp;
        if let Some(feedback) = &mut self.nav_feedback {
            feedback.header.stamp = stamp;
        }
        if let Some(autoaim) = &mut self.autoaim {
            autoaim.header.stamp = stamp;
        }
    }

    /// Publishes every message on its topic ([`bus::topics`]).
    pub fn publish(&self, bus: &bus::Bus) -> Result<(), bus::BusError> {
        use bus::topics;
        bus.publish(topics::OBJ_HP, &self.obj_hp)?;
        bus.publish(topics::CAR_POS, &self.car_pos)?;
        bus.publish(topics::GAME_INFO, &self.game_info)?;
        bus.publish(topics::SERIAL_MSG, &self.serial)?;
        bus.publish(topics::POSE, &self.pose)?;
        bus.publish(topics::NAV_STATUS, &self.nav_status)?;
        if let Some(feedback) = &self.nav_feedback {
            bus.publish(topics::NAV_FEEDBACK, feedback)?;
        }
        if let Some(autoaim) = &self.autoaim {
            bus.publish(topics::AUTOAIM, autoaim)?;
        }
        Ok(())
    }
}

/// How a robot moves, with its state.
#[derive(Debug, Clone)]
enum Mover {
    /// Off the field.
    Off,
    /// Our robot (driven by [`Nav`]).
    Ours,
    /// Stands still.
    Stationary,
    /// Drives `points` in a loop; `next` is the point it drives to.
    Patrol {
        points: Vec<(f64, f64)>,
        next: usize,
        speed: f64,
    },
    /// Random walk on the connect graph.
    RandomWalk {
        target: Option<i32>,
        speed: f64,
        rng: SplitMix64,
    },
    /// Timed points.
    Script(Vec<ScriptPoint>),
}

/// Moves `pos` toward `target` by at most `budget` metres; the distance used and whether it arrived.
fn move_toward(pos: &mut (f64, f64), target: (f64, f64), budget: f64) -> (f64, bool) {
    let (dx, dy) = (target.0 - pos.0, target.1 - pos.1);
    let d = dx.hypot(dy);
    if d <= budget {
        *pos = target;
        (d, true)
    } else {
        let k = budget / d;
        pos.0 += dx * k;
        pos.1 += dy * k;
        (budget, false)
    }
}

/// Position and heading of a script at time `t`.
fn script_at(points: &[ScriptPoint], t: f64) -> Option<(f64, f64, Option<f64>)> {
    let first = points.first()?;
    if t <= first.at {
        return Some((first.x, first.y, None));
    }
    for pair in points.windows(2) {
        let [a, b] = pair else { continue };
        if t < b.at {
            let span = b.at - a.at;
            let k = if span > 0.0 { (t - a.at) / span } else { 1.0 };
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let heading = (dx != 0.0 || dy != 0.0).then(|| norm_angle(dy.atan2(dx)));
            return Some((a.x + dx * k, a.y + dy * k, heading));
        }
    }
    points.last().map(|p| (p.x, p.y, None))
}

/// The goal our simulated Nav2 is working on.
#[derive(Debug, Clone)]
struct Goal {
    id: u64,
    /// x, y, yaw of each pose.
    poses: Vec<(f64, f64, f64)>,
    /// Index of the pose being driven to.
    next: usize,
    /// When it turns from accepted to executing.
    executing_from: f64,
    executing: bool,
    /// Heading and length at the start of the current segment (for turning smoothly).
    segment: Option<(f64, f64)>,
    /// Planner only: corner points around the walls to the current pose (the pose last).
    route: Vec<Vec2>,
    /// The pose index `route` leads to.
    route_for: Option<usize>,
}

/// Passes the poses `pos` has reached (taking each one's yaw) and tells whether that was the
/// last one, which `pos` is snapped to. `dest` is the planner's destination for the current
/// pose: if it had to be moved (the pose is in a wall or taken by a robot), standing at it
/// counts as reaching the pose.
fn pass_poses(
    goal: &mut Goal,
    robot: &mut RobotState,
    pos: &mut Vec2,
    vel: &mut Vec2,
    mut dest: Option<Vec2>,
) -> bool {
    while let Some(&(tx, ty, yaw)) = goal.poses.get(goal.next) {
        let target = Vec2::new(tx, ty);
        let last = goal.next + 1 >= goal.poses.len();
        let tolerance = if last { GOAL_TOLERANCE } else { POSE_TOLERANCE };
        let moved_dest = dest.is_some_and(|d| {
            d.dist(target) > tolerance && pos.dist(d) < GOAL_TOLERANCE && vel.len() < STANDING
        });
        if pos.dist(target) >= tolerance && !moved_dest {
            return false;
        }
        robot.heading = norm_angle(yaw);
        goal.next += 1;
        goal.segment = None;
        dest = None;
        if last {
            if !moved_dest {
                *pos = target;
            }
            *vel = Vec2::ZERO;
            return true;
        }
    }
    true
}

/// The simulated Nav2 of our robot.
#[derive(Debug, Clone)]
struct Nav {
    speed: f64,
    accept_delay: f64,
    goal: Option<Goal>,
    statuses: Vec<GoalStatus>,
    /// The trajectory planner (`nav.planner`), else straight lines.
    planner: Option<Planner>,
    /// Our robot's velocity (m/s, planner only).
    vel: Vec2,
}

/// The walls of the map for the planner, with a clearance chosen per plan.
struct Walls<'a> {
    grid: &'a GridObstacle,
    clearance: f64,
}

impl Obstacle for Walls<'_> {
    fn distance(&self, q: &Query) -> f64 {
        self.grid.distance(q) - self.clearance
    }
    fn distance_slack(&self) -> f64 {
        self.grid.distance_slack()
    }
    /// None: a pose inside the wall margin is moved by the finder's ring search instead.
    fn closest_point_outside(&self, _p: Vec2, _clearance: f64) -> Option<Vec2> {
        None
    }
}

/// The `path_planner` state of the simulated Nav2.
#[derive(Debug, Clone)]
struct Planner {
    /// Walls without clearance (the clearance is subtracted per plan, see [`Walls`]).
    walls: Arc<GridObstacle>,
    width: f64,
    height: f64,
    accel: f64,
    move_to: MoveTo,
}

impl Planner {
    fn new(map: &ObstacleMap, accel: f64, seed: u64) -> Option<Self> {
        let (width, height) = (f64::from(map.real_width()), f64::from(map.real_height()));
        let walls = GridObstacle::from_grey(
            map.pixels(),
            map.cols() as usize,
            map.rows() as usize,
            width,
            height,
            0.0,
        )
        .ok()?;
        let config = PlannerConfig {
            seed: seed ^ 0x9A7B_1A22_E500_0000,
            ..PlannerConfig::default()
        };
        Some(Self {
            walls: Arc::new(walls),
            width,
            height,
            accel,
            move_to: MoveTo::new(PathFinder::new(config), MoveToConfig::default()),
        })
    }

    /// Distance (m) of `p` to the nearest wall or field edge (conservative, no clearance).
    fn free_distance(&self, p: Vec2) -> f64 {
        let edge = p.x.min(p.y).min(self.width - p.x).min(self.height - p.y);
        self.walls.distance(&Query::at_rest(p, 0.0)).min(edge)
    }

    /// The clearance (m) for a drive from `a` to `b`: the robot radius, shrunk so that neither
    /// end is inside it.
    fn clearance(&self, a: Vec2, b: Vec2) -> f64 {
        (self.free_distance(a).min(self.free_distance(b)) - CLEARANCE_GAP).clamp(0.0, ROBOT_RADIUS)
    }

    /// Whether the straight line from `a` to `b` keeps the drive's clearance to the walls.
    fn visible(&self, a: Vec2, b: Vec2) -> bool {
        let need = self.clearance(a, b) - LOS_SLACK;
        let n = (a.dist(b) / LOS_STEP).ceil().max(1.0) as usize;
        (1..n).all(|k| self.free_distance(a + (b - a) * (k as f64 / n as f64)) > need)
    }

    /// A route around the walls from `from` to `to`: A* on a coarse grid, pulled taut to its
    /// corners (`from` left out, `to` last); just `[to]` if there is none.
    fn route(&self, from: Vec2, to: Vec2) -> Vec<Vec2> {
        let need = self.clearance(from, to);
        let cell = (self.width.max(self.height) / ROUTE_MAX_CELLS).max(ROUTE_CELL);
        let cols = (self.width / cell).ceil().max(1.0) as usize;
        let rows = (self.height / cell).ceil().max(1.0) as usize;
        let index = |p: Vec2| {
            let c = ((p.x / cell).max(0.0) as usize).min(cols - 1);
            let r = ((p.y / cell).max(0.0) as usize).min(rows - 1);
            r * cols + c
        };
        let centre = |i: usize| {
            Vec2::new(
                ((i % cols) as f64 + 0.5) * cell,
                ((i / cols) as f64 + 0.5) * cell,
            )
        };
        let (start, end) = (index(from), index(to));
        let free: Vec<bool> = (0..cols * rows)
            .map(|i| i == start || i == end || self.free_distance(centre(i)) > need)
            .collect();
        let h = |i: usize| {
            let (dc, dr) = (
                (i % cols).abs_diff(end % cols),
                (i / cols).abs_diff(end / cols),
            );
            (10 * dc.max(dr) + 4 * dc.min(dr)) as u32
        };
        let mut cost = vec![u32::MAX; cols * rows];
        let mut came = vec![usize::MAX; cols * rows];
        let mut open = BinaryHeap::new();
        cost[start] = 0;
        open.push(Reverse((h(start), start)));
        let mut found = false;
        while let Some(Reverse((_, i))) = open.pop() {
            if i == end {
                found = true;
                break;
            }
            let (c, r) = ((i % cols) as isize, (i / cols) as isize);
            for (dc, dr) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let (nc, nr) = (c + dc, r + dr);
                if nc < 0 || nr < 0 || nc >= cols as isize || nr >= rows as isize {
                    continue;
                }
                let j = nr as usize * cols + nc as usize;
                let diagonal = dc != 0 && dr != 0;
                let side_a = r as usize * cols + nc as usize;
                let side_b = nr as usize * cols + c as usize;
                if !free[j] || (diagonal && !(free[side_a] && free[side_b])) {
                    continue;
                }
                let g = cost[i].saturating_add(if diagonal { 14 } else { 10 });
                if g < cost[j] {
                    cost[j] = g;
                    came[j] = i;
                    open.push(Reverse((g.saturating_add(h(j)), j)));
                }
            }
        }
        if !found {
            return vec![to];
        }
        let mut cells = vec![end];
        while let Some(&last) = cells.last() {
            if last == start || came[last] == usize::MAX {
                break;
            }
            cells.push(came[last]);
        }
        cells.reverse();
        let mut points: Vec<Vec2> = cells.iter().map(|&i| centre(i)).collect();
        if let Some(first) = points.first_mut() {
            *first = from;
        }
        if let Some(last) = points.last_mut() {
            *last = to;
        }
        // Pull taut: from each corner, the farthest point still in sight.
        let mut route = Vec::new();
        let mut at = 0;
        while at + 1 < points.len() {
            let mut next = at + 1;
            while next + 1 < points.len() && self.visible(points[at], points[next + 1]) {
                next += 1;
            }
            route.push(points[next]);
            at = next;
        }
        if route.is_empty() {
            route.push(to);
        }
        route
    }

    /// The farthest point of `route` in sight of `pos` (dropping the ones before it).
    fn lookahead(&self, pos: Vec2, route: &mut Vec<Vec2>) -> Option<Vec2> {
        let k = (0..route.len())
            .rev()
            .find(|&k| self.visible(pos, route[k]))?;
        route.drain(..k);
        route.first().copied()
    }

    /// Whether `p` is on a wall pixel or off the field.
    fn blocked(&self, map: &ObstacleMap, p: Vec2) -> bool {
        let (cols, rows) = (map.cols() as usize, map.rows() as usize);
        if !(p.x >= 0.0 && p.y >= 0.0 && p.x < self.width && p.y < self.height) {
            return true;
        }
        let c = ((p.x / self.width * cols as f64) as usize).min(cols.saturating_sub(1));
        let r = ((p.y / self.height * rows as f64) as usize).min(rows.saturating_sub(1));
        map.pixels()
            .get(r * cols + c)
            .is_none_or(|&g| g < WALL_GREY)
    }

    /// One plan from `(pos, vel)` to `dest` and `dt` seconds along the result: the new
    /// position, velocity and the (possibly adapted) destination.
    #[allow(clippy::too_many_arguments)]
    fn drive(
        &mut self,
        map: &ObstacleMap,
        others: &[ConstVelocityRobot],
        pos: Vec2,
        vel: Vec2,
        dest: Vec2,
        vmax: f64,
        dt: f64,
    ) -> (Vec2, Vec2, Vec2) {
        // The full clearance, shrunk so that neither the robot nor the pose is inside it.
        let clearance = self.clearance(pos, dest);
        let walls = Walls {
            grid: &self.walls,
            clearance,
        };
        let border = FieldBorder::new(
            Vec2::new(clearance, clearance),
            Vec2::new(self.width - clearance, self.height - clearance),
        );
        let mut obstacles: Vec<&dyn Obstacle> = Vec::with_capacity(others.len() + 2);
        obstacles.push(&border);
        obstacles.push(&walls);
        obstacles.extend(others.iter().map(|o| o as &dyn Obstacle));
        let request = PlanRequest {
            pos,
            vel,
            dest,
            limits: MoveLimits {
                vmax,
                amax: self.accel,
            },
            obstacles: &obstacles,
            dt,
        };
        let (command, result) = self.move_to.update(&request);
        let (next, next_vel) = match command {
            MoveCommand::Follow { path, .. } => path.pos_vel(dt),
            MoveCommand::Brake { decel } => {
                let speed = vel.len();
                let v = if speed > 0.0 {
                    vel * ((speed - decel * dt).max(0.0) / speed)
                } else {
                    vel
                };
                (pos + (vel + v) * (0.5 * dt), v)
            }
        };
        if self.blocked(map, next) && !self.blocked(map, pos) {
            // Never onto a wall pixel: stop instead.
            return (pos, Vec2::ZERO, result.dest);
        }
        (next, next_vel, result.dest)
    }
}

impl Nav {
    fn set_status(&mut self, id: u64, code: u8) {
        if let Some(entry) = self
            .statuses
            .iter_mut()
            .rev()
            .find(|s| s.goal_id == Some(id))
        {
            entry.status = code;
        }
    }

    fn push_status(&mut self, id: u64, code: u8) {
        self.statuses.push(GoalStatus {
            status: code,
            goal_id: Some(id),
        });
        if self.statuses.len() > STATUS_HISTORY {
            let excess = self.statuses.len() - STATUS_HISTORY;
            self.statuses.drain(..excess);
        }
    }

    /// Ends the current goal with `code`.
    fn end(&mut self, code: u8) {
        if let Some(goal) = self.goal.take() {
            self.set_status(goal.id, code);
        }
    }

    /// Drives `robot` through the goal over `[t0, t1]` (planned, or in straight lines).
    fn advance(
        &mut self,
        robot: &mut RobotState,
        t0: f64,
        t1: f64,
        map: &ObstacleMap,
        others: &[ConstVelocityRobot],
    ) {
        if self.planner.is_some() {
            self.advance_planned(robot, t0, t1, map, others);
        } else {
            self.advance_straight(robot, t0, t1);
        }
    }

    /// Turns `goal` from accepted to executing once its delay has passed; whether it executes.
    fn start_executing(&mut self, t1: f64) -> bool {
        let Some(goal) = self.goal.as_mut() else {
            return false;
        };
        if !goal.executing {
            if t1 + TIME_EPS < goal.executing_from {
                return false;
            }
            goal.executing = true;
            let id = goal.id;
            self.set_status(id, GoalStatus::EXECUTING);
        }
        true
    }

    /// Planned drive: one plan per step toward the current pose with the walls and the other
    /// robots as obstacles, then `dt` along the planned trajectory (or braking).
    fn advance_planned(
        &mut self,
        robot: &mut RobotState,
        t0: f64,
        t1: f64,
        map: &ObstacleMap,
        others: &[ConstVelocityRobot],
    ) {
        if self.goal.is_none() {
            self.vel = Vec2::ZERO;
            return;
        }
        if !self.start_executing(t1) {
            self.vel = Vec2::ZERO;
            return;
        }
        let (Some(goal), Some(planner)) = (self.goal.as_mut(), self.planner.as_mut()) else {
            return;
        };
        let dt = (t1 - t0.max(goal.executing_from)).max(0.0);
        let mut pos = Vec2::new(robot.x, robot.y);
        let mut done = pass_poses(goal, robot, &mut pos, &mut self.vel, None);
        if !done
            && dt > 0.0
            && let Some(&(tx, ty, _)) = goal.poses.get(goal.next)
        {
            goal.segment
                .get_or_insert_with(|| (robot.heading, (tx - pos.x).hypot(ty - pos.y)));
            let pose = Vec2::new(tx, ty);
            if goal.route_for != Some(goal.next) {
                goal.route = planner.route(pos, pose);
                goal.route_for = Some(goal.next);
            }
            let mut aim = planner.lookahead(pos, &mut goal.route);
            if aim.is_none() {
                // Off the route (pushed or braked aside): search again from here.
                goal.route = planner.route(pos, pose);
                aim = planner.lookahead(pos, &mut goal.route);
            }
            let aim = aim.unwrap_or(pose);
            let (next, vel, dest) = planner.drive(map, others, pos, self.vel, aim, self.speed, dt);
            pos = next;
            self.vel = vel;
            let dest = (aim == pose).then_some(dest);
            done = pass_poses(goal, robot, &mut pos, &mut self.vel, dest);
        }
        if !done
            && let (Some(&(tx, ty, yaw)), Some((heading0, length))) =
                (goal.poses.get(goal.next), goal.segment)
        {
            let left = (tx - pos.x).hypot(ty - pos.y);
            let progress = if length > 0.0 {
                (1.0 - left / length).clamp(0.0, 1.0)
            } else {
                1.0
            };
            robot.heading = norm_angle(heading0 + wrap_pi(yaw - heading0) * progress);
        }
        robot.x = pos.x;
        robot.y = pos.y;
        if done {
            self.vel = Vec2::ZERO;
            self.end(GoalStatus::SUCCEEDED);
        }
    }

    /// Straight lines through the poses at `speed`.
    fn advance_straight(&mut self, robot: &mut RobotState, t0: f64, t1: f64) {
        let Some(goal) = self.goal.as_mut() else {
            return;
        };
        if !goal.executing {
            if t1 + TIME_EPS < goal.executing_from {
                return;
            }
            goal.executing = true;
            let id = goal.id;
            self.set_status(id, GoalStatus::EXECUTING);
        }
        let Some(goal) = self.goal.as_mut() else {
            return;
        };
        let available = (t1 - t0.max(goal.executing_from)).max(0.0);
        let mut budget = available * self.speed;
        let mut pos = (robot.x, robot.y);
        let mut done = false;
        // Each pass reaches a pose or spends the budget; bounded by the number of poses.
        for _ in 0..=goal.poses.len() {
            let Some(&(tx, ty, yaw)) = goal.poses.get(goal.next) else {
                done = true;
                break;
            };
            let (heading0, length) = *goal
                .segment
                .get_or_insert_with(|| (robot.heading, (tx - pos.0).hypot(ty - pos.1)));
            let (used, arrived) = move_toward(&mut pos, (tx, ty), budget);
            budget -= used;
            if arrived {
                robot.heading = norm_angle(yaw);
                goal.next += 1;
                goal.segment = None;
                if goal.next >= goal.poses.len() {
                    done = true;
                    break;
                }
            } else {
                let left = (tx - pos.0).hypot(ty - pos.1);
                let progress = if length > 0.0 {
                    (1.0 - left / length).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                robot.heading = norm_angle(heading0 + wrap_pi(yaw - heading0) * progress);
                break;
            }
        }
        robot.x = pos.0;
        robot.y = pos.1;
        if done {
            self.end(GoalStatus::SUCCEEDED);
        }
    }

    fn feedback(&self, robot: &RobotState, header: &Header) -> Option<NavFeedback> {
        let goal = self.goal.as_ref().filter(|g| g.executing)?;
        let remaining = goal.poses.get(goal.next..).unwrap_or_default();
        let mut distance = 0.0;
        let mut from = (robot.x, robot.y);
        for &(x, y, _) in remaining {
            distance += (x - from.0).hypot(y - from.1);
            from = (x, y);
        }
        Some(NavFeedback {
            header: header.clone(),
            current_pose: Pose2 {
                x: robot.x as f32,
                y: robot.y as f32,
                yaw: robot.heading as f32,
            },
            number_of_poses_remaining: u32::try_from(remaining.len()).unwrap_or(u32::MAX),
            distance_remaining: distance as f32,
        })
    }
}

/// A scheduled HP change, resolved to an `obj_hp` index.
#[derive(Debug, Clone, Copy)]
struct Event {
    at: f64,
    index: usize,
    change: Change,
}

#[derive(Debug, Clone, Copy)]
enum Change {
    Set(f64),
    Damage(f64),
    Heal(f64),
}

#[derive(Debug, Clone, Copy)]
struct Regen {
    x: f64,
    y: f64,
    radius: f64,
    rate: f64,
    max: f64,
}

#[derive(Debug, Clone, Copy)]
struct Damage {
    index: usize,
    from: f64,
    to: f64,
    rate: f64,
}

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
    hp: [f64; 16],
    events: Vec<Event>,
    next_event: usize,
    regen: Option<Regen>,
    damage: Vec<Damage>,
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
        let place = |p: &Place| -> (f64, f64, f64) {
            match p {
                Place::Waypoint(id) => tables.graph.get(*id).map_or((0.0, 0.0, 0.0), |w| {
                    (
                        f64::from(w.x),
                        f64::from(w.y),
                        norm_angle(f64::from(w.angle)),
                    )
                }),
                Place::Point(pt) => (pt.x, pt.y, 0.0),
            }
        };
        let waypoint_xy = |id: i32| {
            tables
                .graph
                .get(id)
                .map_or((0.0, 0.0), |w| (f64::from(w.x), f64::from(w.y)))
        };

        let mut hp = [0.0; 16];
        for (i, slot) in hp.iter_mut().enumerate() {
            *slot = f64::from(default_hp(i));
        }
        for (name, value) in &scenario.hp {
            let i = name.index().unwrap_or(our_hp);
            if let Some(slot) = hp.get_mut(i) {
                *slot = f64::from(*value);
            }
        }
        let initial_our_hp = hp.get(our_hp).copied().unwrap_or(0.0);

        let mut robots = Vec::with_capacity(12);
        let mut movers = Vec::with_capacity(12);
        for (i, name) in ROBOT_NAMES.iter().enumerate() {
            let start = scenario
                .start
                .iter()
                .find(|(n, _)| n.resolve(ours) == i)
                .map(|(_, p)| place(p));
            let behaviour = scenario
                .robots
                .iter()
                .find(|(n, _)| n.index() == Some(i))
                .map(|(_, b)| b);
            let mut rng = SplitMix64::for_stream(seed, i as u64);
            let (mover, pos) = if i == ours {
                let pos = start.or_else(|| {
                    tables.graph.waypoints().first().map(|w| {
                        (
                            f64::from(w.x),
                            f64::from(w.y),
                            norm_angle(f64::from(w.angle)),
                        )
                    })
                });
                (Mover::Ours, pos)
            } else {
                match behaviour {
                    None => match start {
                        Some(p) => (Mover::Stationary, Some(p)),
                        None => (Mover::Off, None),
                    },
                    Some(Behaviour::Stationary) => (Mover::Stationary, start),
                    Some(Behaviour::Patrol { waypoints, speed }) => {
                        let points: Vec<(f64, f64)> =
                            waypoints.iter().map(|id| waypoint_xy(*id)).collect();
                        let first = waypoints.first().map(|id| place(&Place::Waypoint(*id)));
                        let (pos, next) = match start {
                            Some(p) => (Some(p), 0),
                            None => (first, 1 % points.len().max(1)),
                        };
                        (
                            Mover::Patrol {
                                points,
                                next,
                                speed: *speed,
                            },
                            pos,
                        )
                    }
                    Some(Behaviour::RandomWalk(walk)) => {
                        let (pos, target) = match (
                            start,
                            scenario.start.iter().find(|(n, _)| n.resolve(ours) == i),
                        ) {
                            (Some(p), Some((_, Place::Waypoint(_)))) => (Some(p), None),
                            (Some(p), _) => {
                                let near =
                                    tables.graph.nearest(p.0 as f32, p.1 as f32, f32::INFINITY);
                                (Some(p), near)
                            }
                            (None, _) => {
                                let all = tables.graph.waypoints();
                                let w = all.get(rng.below(all.len()));
                                (
                                    w.map(|w| {
                                        (
                                            f64::from(w.x),
                                            f64::from(w.y),
                                            norm_angle(f64::from(w.angle)),
                                        )
                                    }),
                                    None,
                                )
                            }
                        };
                        (
                            Mover::RandomWalk {
                                target,
                                speed: walk.speed,
                                rng,
                            },
                            pos,
                        )
                    }
                    Some(Behaviour::Script(points)) => {
                        let pos = script_at(points, 0.0).map(|(x, y, h)| (x, y, h.unwrap_or(0.0)));
                        (Mover::Script(points.clone()), pos)
                    }
                }
            };
            let (x, y, heading) = pos.unwrap_or((0.0, 0.0, 0.0));
            let on_field = pos.is_some() && !matches!(mover, Mover::Off);
            let hp_now = hp.get(hp_index_of(i)).copied().unwrap_or(0.0);
            robots.push(RobotState {
                name,
                index: i,
                side: if i < 6 { Side::Red } else { Side::Blue },
                x,
                y,
                heading,
                hp: whole_hp(hp_now),
                alive: whole_hp(hp_now) > 0,
                on_field,
                is_self: i == ours,
            });
            movers.push(if on_field { mover } else { Mover::Off });
        }

        let mut events: Vec<Event> = scenario
            .hp_events
            .iter()
            .filter_map(|e| {
                let index = match e.target {
                    Target::Index(n) => usize::from(n),
                    Target::Name(UnitName::Ours) => our_hp,
                    Target::Name(n) => n.index()?,
                };
                let change = match (e.set, e.damage, e.heal) {
                    (Some(v), _, _) => Change::Set(f64::from(v)),
                    (None, Some(d), _) => Change::Damage(d),
                    (None, None, Some(h)) => Change::Heal(h),
                    (None, None, None) => return None,
                };
                Some(Event {
                    at: e.at,
                    index,
                    change,
                })
            })
            .collect();
        events.sort_by(|a, b| a.at.total_cmp(&b.at));

        let regen = scenario.regeneration.as_ref().map(|r| {
            let (x, y) = waypoint_xy(r.waypoint);
            Regen {
                x,
                y,
                radius: r.radius.unwrap_or(f64::from(tables.config.distance_thr)),
                rate: r.hp_per_second,
                max: r.max.map_or(initial_our_hp, f64::from),
            }
        });
        let damage = scenario
            .structure_damage
            .iter()
            .map(|d| {
                let side = d.side.unwrap_or(scenario.side);
                let index = match (side, d.target) {
                    (Side::Red, Structure::Outpost) => RED_OUTPOST,
                    (Side::Red, Structure::Base) => RED_BASE,
                    (Side::Blue, Structure::Outpost) => BLUE_OUTPOST,
                    (Side::Blue, Structure::Base) => BLUE_BASE,
                };
                Damage {
                    index,
                    from: d.from,
                    to: d.to,
                    rate: d.hp_per_second,
                }
            })
            .collect();

        let stages: Vec<(f64, u8)> = scenario.stages.iter().map(|s| (s.at, s.stage)).collect();
        let match_start = stages
            .iter()
            .find(|(_, s)| *s == GameInfo::STAGE_BATTLE)
            .map_or(0.0, |(at, _)| *at);
        let game_time = scenario
            .game_time
            .unwrap_or(f64::from(tables.config.game_time));
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
            hp,
            events,
            next_event: 0,
            regen,
            damage,
            nav: Nav {
                speed: scenario.nav.speed,
                accept_delay: scenario.nav.accept_delay,
                goal: None,
                statuses: Vec::new(),
                planner: None,
                vel: Vec2::ZERO,
            },
            velocities: vec![Vec2::ZERO; 12],
            mode: scenario.mode,
            ended: false,
            rejected_goals: 0,
        };
        if scenario.nav.planner {
            sim.nav.planner = Planner::new(&sim.tables.map, scenario.nav.accel, seed);
        }
        sim.velocities = vec![Vec2::ZERO; sim.robots.len()];
        sim.apply_events(0.0);
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
        // Continuous HP changes.
        for d in &self.damage {
            let overlap = (t1.min(d.to) - t0.max(d.from)).max(0.0);
            if let Some(hp) = self.hp.get_mut(d.index) {
                *hp = (*hp - d.rate * overlap).max(0.0);
            }
        }
        if let (Some(regen), Some(me)) = (self.regen, self.robots.get(self.ours))
            && me.alive
            && (me.x - regen.x).hypot(me.y - regen.y) <= regen.radius
            && let Some(hp) = self.hp.get_mut(hp_index_of(self.ours))
            && *hp < regen.max
        {
            *hp = (*hp + regen.rate * dt).min(regen.max);
        }
        self.apply_events(t1);
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
            let target = self.aim_target(r);
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
                status_list: self.nav.statuses.clone(),
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
        self.nav.end(GoalStatus::CANCELED);
        let alive = self.robots.get(self.ours).is_some_and(|r| r.alive);
        if !alive {
            self.nav.push_status(goal.goal_id, GoalStatus::ABORTED);
            return;
        }
        self.nav.push_status(goal.goal_id, GoalStatus::ACCEPTED);
        self.nav.goal = Some(Goal {
            id: goal.goal_id,
            poses: goal
                .poses
                .iter()
                .map(|p| (f64::from(p.x), f64::from(p.y), f64::from(p.yaw)))
                .collect(),
            next: 0,
            executing_from: self.t + self.nav.accept_delay,
            executing: false,
            segment: None,
            route: Vec::new(),
            route_for: None,
        });
    }

    /// A cancel request: the goal in flight with that id (any goal for
    /// [`NavCancel::ANY_GOAL`]) is cancelled (status 5) and our robot stops.
    pub fn on_cancel(&mut self, cancel: &NavCancel) {
        if self
            .nav
            .goal
            .as_ref()
            .is_some_and(|g| cancel.goal_id == NavCancel::ANY_GOAL || g.id == cancel.goal_id)
        {
            self.nav.end(GoalStatus::CANCELED);
        }
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
        self.hp.map(whole_hp)
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
        self.nav.statuses.last().map_or(0, |s| s.status)
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

    /// Absolute direction (radians) from `me` to the nearest visible enemy in the seek circle.
    fn aim_direction(&self, me: &RobotState) -> Option<f64> {
        let config = &self.tables.config;
        let from = (me.x as f32, me.y as f32);
        let mut best: Option<(f32, f64)> = None;
        for enemy in self
            .robots
            .iter()
            .filter(|r| r.side != me.side && r.alive && r.on_field)
        {
            let to = (enemy.x as f32, enemy.y as f32);
            if to.0 == 0.0 || to.1 == 0.0 || to == from {
                continue;
            }
            let d = distance_f32(from.0, from.1, to.0, to.1);
            if d > config.seek_thr || best.is_some_and(|(bd, _)| d >= bd) {
                continue;
            }
            if !self
                .tables
                .map
                .visible_sampled(from, to, config.step_distance)
            {
                continue;
            }
            best = Some((
                d,
                norm_angle(f64::from(to.1 - from.1).atan2(f64::from(to.0 - from.0))),
            ));
        }
        best.map(|(_, yaw)| yaw)
    }

    /// Gimbal yaw (relative to the chassis, in [-pi, pi]) to the auto-aim target, if any.
    fn aim_target(&self, me: &RobotState) -> Option<f64> {
        self.aim_direction(me).map(|yaw| wrap_pi(yaw - me.heading))
    }

    fn move_robots(&mut self, t0: f64, t1: f64) {
        let dt = t1 - t0;
        let graph = &self.tables.graph;
        let map = &self.tables.map;
        // The other live robots as seen at t0, moving on at their last velocity.
        let others: Vec<ConstVelocityRobot> = if self.nav.planner.is_some() {
            self.robots
                .iter()
                .zip(&self.velocities)
                .filter(|(r, _)| !r.is_self && r.alive && r.on_field)
                .map(|(r, v)| ConstVelocityRobot {
                    pos: Vec2::new(r.x, r.y),
                    vel: *v,
                    t_max: PREDICTION,
                    radius: 2.0 * ROBOT_RADIUS,
                    order: ORDER_OWN_BOT,
                })
                .collect()
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
                Mover::Off | Mover::Stationary => {}
                Mover::Ours => self.nav.advance(robot, t0, t1, map, &others),
                Mover::Patrol {
                    points,
                    next,
                    speed,
                } => {
                    let lap: f64 = points
                        .iter()
                        .zip(points.iter().cycle().skip(1))
                        .map(|(a, b)| (b.0 - a.0).hypot(b.1 - a.1))
                        .sum();
                    let mut budget = *speed * dt;
                    let mut pos = (robot.x, robot.y);
                    for pass in 0..(3 * points.len() + 3) {
                        let Some(&target) = points.get(*next) else {
                            break;
                        };
                        if pass == points.len() + 1 && lap > 0.0 {
                            budget %= lap;
                        }
                        let (used, arrived) = move_toward(&mut pos, target, budget);
                        budget -= used;
                        if !arrived || points.len() == 1 {
                            break;
                        }
                        *next = (*next + 1) % points.len();
                        if budget <= 0.0 {
                            break;
                        }
                    }
                    robot.x = pos.0;
                    robot.y = pos.1;
                }
                Mover::RandomWalk { target, speed, rng } => {
                    let mut budget = *speed * dt;
                    let mut pos = (robot.x, robot.y);
                    for _ in 0..64 {
                        let Some(id) = *target else {
                            // At a waypoint: choose the next one among its neighbours.
                            let here = graph.nearest(pos.0 as f32, pos.1 as f32, f32::INFINITY);
                            let options: Vec<i32> = here
                                .map(|h| graph.neighbours(h).collect())
                                .unwrap_or_default();
                            match options.get(rng.below(options.len())) {
                                Some(n) => *target = Some(*n),
                                None => break,
                            }
                            continue;
                        };
                        let Some(w) = graph.get(id) else { break };
                        let (used, arrived) =
                            move_toward(&mut pos, (f64::from(w.x), f64::from(w.y)), budget);
                        budget -= used;
                        if !arrived {
                            break;
                        }
                        *target = None;
                        if budget <= 0.0 {
                            break;
                        }
                    }
                    robot.x = pos.0;
                    robot.y = pos.1;
                }
                Mover::Script(points) => {
                    if let Some((x, y, heading)) = script_at(points, t1) {
                        robot.x = x;
                        robot.y = y;
                        if let Some(h) = heading {
                            robot.heading = h;
                        }
                    }
                }
            }
            let (dx, dy) = (robot.x - before.0, robot.y - before.1);
            *velocity = Vec2::new(dx / dt, dy / dt);
            if !robot.is_self && !matches!(mover, Mover::Script(_)) && dx.hypot(dy) > 1e-9 {
                robot.heading = norm_angle(dy.atan2(dx));
            }
        }
    }

    fn apply_events(&mut self, until: f64) {
        while let Some(e) = self.events.get(self.next_event).copied() {
            if e.at > until + TIME_EPS {
                break;
            }
            self.next_event += 1;
            if let Some(hp) = self.hp.get_mut(e.index) {
                *hp = match e.change {
                    Change::Set(v) => v,
                    Change::Damage(d) => (*hp - d).max(0.0),
                    Change::Heal(h) => (*hp + h).min(f64::from(u16::MAX)),
                };
            }
        }
    }

    /// Copies HP into the robot states, and aborts our goal if our robot has died.
    fn sync_hp(&mut self) {
        for robot in &mut self.robots {
            robot.hp = self
                .hp
                .get(hp_index_of(robot.index))
                .map_or(0, |hp| whole_hp(*hp));
            robot.alive = robot.hp > 0;
        }
        if self.robots.get(self.ours).is_some_and(|r| !r.alive) {
            self.nav.end(GoalStatus::ABORTED);
        }
    }

    fn update_ended(&mut self) {
        let hp = self.hp();
        let time_up = self.t + TIME_EPS >= self.match_start + self.game_time;
        let base_down = hp.get(RED_BASE) == Some(&0) || hp.get(BLUE_BASE) == Some(&0);
        self.ended = time_up || base_down;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_are_bit_for_bit_the_rem_euclid_forms() {
        let old_norm = |a: f64| {
            let r = a.rem_euclid(TAU);
            if r >= TAU { 0.0 } else { r }
        };
        let old_wrap = |a: f64| {
            let r = (a + PI).rem_euclid(TAU) - PI;
            if r < -PI { r + TAU } else { r }
        };
        let mut rng = SplitMix64::for_stream(11, 0);
        let mut angles = vec![
            0.0,
            -0.0,
            PI,
            -PI,
            TAU,
            -TAU,
            3.0 * PI,
            -3.0 * PI,
            1e-300,
            -1e-300,
            1e-17,
            -1e-17,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            1e300,
            -1e300,
            f64::MAX,
            f64::MIN,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for k in -64..=64 {
            let m = f64::from(k) * PI / 4.0;
            angles.extend([m, m.next_up(), m.next_down()]);
        }
        for _ in 0..200_000 {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            angles.push((u - 0.5) * 40.0);
            angles.push((u - 0.5) * 1e-6);
        }
        // Bit for bit, except that any NaN matches any NaN.
        let same = |x: f64, y: f64| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
        for a in angles {
            assert!(same(norm_angle(a), old_norm(a)), "norm_angle({a:e})");
            assert!(same(wrap_pi(a), old_wrap(a)), "wrap_pi({a:e})");
        }
    }

    #[test]
    fn angles_wrap() {
        assert!((norm_angle(-0.5) - (TAU - 0.5)).abs() < 1e-12);
        assert!((wrap_pi(3.5 * PI) + 0.5 * PI).abs() < 1e-12);
        assert!((wrap_pi(-PI) + PI).abs() < 1e-12 || (wrap_pi(-PI) - PI).abs() < 1e-12);
    }

    #[test]
    fn scripts_interpolate_and_hold_the_ends() {
        let p = |at, x, y| ScriptPoint { at, x, y };
        let s = [p(1.0, 1.0, 1.0), p(3.0, 3.0, 1.0), p(3.0, 5.0, 5.0)];
        assert_eq!(script_at(&s, 0.0), Some((1.0, 1.0, None)));
        let (x, y, h) = script_at(&s, 2.0).unwrap_or_default();
        assert_eq!((x, y), (2.0, 1.0));
        assert_eq!(h, Some(0.0));
        assert_eq!(script_at(&s, 10.0), Some((5.0, 5.0, None)));
    }

    #[test]
    fn default_hp_by_kind() {
        let hp: Vec<u16> = (0..16).map(default_hp).collect();
        assert_eq!(
            hp,
            [
                500, 500, 400, 400, 400, 600, 1500, 5000, 500, 500, 400, 400, 400, 600, 1500, 5000
            ]
        );
    }
}
