//! The simulated Nav2 of our robot: goals accepted, executing and ended (succeeded,
//! cancelled, aborted), the status history and feedback, and the drive through the poses
//! (planned around the walls and robots by [`Planner`], or in straight lines).

use super::TIME_EPS;
use super::angle::{norm_angle, wrap_pi};
use super::motion::move_toward;
use super::route::Planner;
use super::state::RobotState;
use bus::messages::{GoalStatus, Header, NavCancel, NavFeedback, NavGoal, Pose2};
use geometry::Vec2;
use path_planner::obstacle::ConstVelocityRobot;
use waypoint_graph::ObstacleMap;

/// How many goal statuses the status array keeps (newest last).
const STATUS_HISTORY: usize = 8;
/// Distance (m) at which the planned drive counts an intermediate pose as passed.
const POSE_TOLERANCE: f64 = 0.1;
/// Distance (m) at which the planned drive counts the last pose as reached.
const GOAL_TOLERANCE: f64 = 0.03;
/// Speed (m/s) below which our robot counts as standing.
const STANDING: f64 = 0.05;

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
pub(super) struct Nav {
    speed: f64,
    accept_delay: f64,
    goal: Option<Goal>,
    statuses: Vec<GoalStatus>,
    /// The trajectory planner (`nav.planner`), else straight lines.
    planner: Option<Planner>,
    /// Our robot's velocity (m/s, planner only).
    vel: Vec2,
}

impl Nav {
    /// A Nav2 driving at `speed` (m/s) that starts executing a goal `accept_delay` seconds
    /// after accepting it, planned by `planner` (else in straight lines); no goal yet.
    pub(super) fn new(speed: f64, accept_delay: f64, planner: Option<Planner>) -> Self {
        Self {
            speed,
            accept_delay,
            goal: None,
            statuses: Vec::new(),
            planner,
            vel: Vec2::ZERO,
        }
    }

    /// Whether goals are planned around the walls and robots (`nav.planner`).
    pub(super) fn is_planned(&self) -> bool {
        self.planner.is_some()
    }

    /// The last goal statuses, newest last.
    pub(super) fn statuses(&self) -> &[GoalStatus] {
        &self.statuses
    }

    /// A (valid) goal at time `t`: the goal in flight is cancelled (preempted); the new one is
    /// aborted at once unless our robot is `alive`, else accepted, executing after the delay.
    pub(super) fn on_goal(&mut self, goal: &NavGoal, t: f64, alive: bool) {
        self.end(GoalStatus::CANCELED);
        if !alive {
            self.push_status(goal.goal_id, GoalStatus::ABORTED);
            return;
        }
        self.push_status(goal.goal_id, GoalStatus::ACCEPTED);
        self.goal = Some(Goal {
            id: goal.goal_id,
            poses: goal
                .poses
                .iter()
                .map(|p| (f64::from(p.x), f64::from(p.y), f64::from(p.yaw)))
                .collect(),
            next: 0,
            executing_from: t + self.accept_delay,
            executing: false,
            segment: None,
            route: Vec::new(),
            route_for: None,
        });
    }

    /// A cancel request: the goal in flight with that id (any goal for
    /// [`NavCancel::ANY_GOAL`]) is cancelled and our robot stops.
    pub(super) fn on_cancel(&mut self, cancel: &NavCancel) {
        if self
            .goal
            .as_ref()
            .is_some_and(|g| cancel.goal_id == NavCancel::ANY_GOAL || g.id == cancel.goal_id)
        {
            self.end(GoalStatus::CANCELED);
        }
    }

    /// Sets the status of goal `id` (its newest entry) to `code`.
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

    /// Appends a status entry, keeping the newest [`STATUS_HISTORY`].
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
    pub(super) fn end(&mut self, code: u8) {
        if let Some(goal) = self.goal.take() {
            self.set_status(goal.id, code);
        }
    }

    /// Drives `robot` through the goal from `t0` to `t1` (planned, or in straight lines).
    pub(super) fn advance(
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

    /// The feedback of the executing goal for our robot `robot`, if one executes.
    pub(super) fn feedback(&self, robot: &RobotState, header: &Header) -> Option<NavFeedback> {
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
