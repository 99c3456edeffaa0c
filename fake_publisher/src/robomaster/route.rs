//! The planner of the simulated Nav2: a route around the walls (A* on a coarse grid, pulled
//! taut to its corners) and, along it, one `path_planner` trajectory per step with the walls
//! ([`Walls`]), the field border and the other robots as obstacles.

use super::state::RobotState;
use geometry::Vec2;
use path_planner::obstacle::grid::WALL_GREY;
use path_planner::obstacle::{ConstVelocityRobot, FieldBorder, GridObstacle, ORDER_OWN_BOT, Query};
use path_planner::{
    MoveCommand, MoveLimits, MoveTo, MoveToConfig, Obstacle, PathFinder, PlanRequest, PlannerConfig,
};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;
use waypoint_graph::ObstacleMap;

/// Radius (m) of our robot, and of every other robot, for the trajectory planner.
pub const ROBOT_RADIUS: f64 = 0.3;
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
pub(super) struct Planner {
    /// Walls without clearance (the clearance is subtracted per plan, see [`Walls`]).
    walls: Arc<GridObstacle>,
    width: f64,
    height: f64,
    accel: f64,
    move_to: MoveTo,
}

impl Planner {
    /// The planner on the walls of `map`, accelerating at `accel` (m/s^2), its random
    /// choices from `seed`; `None` if the map cannot be made a grid.
    pub(super) fn new(map: &ObstacleMap, accel: f64, seed: u64) -> Option<Self> {
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
    pub(super) fn route(&self, from: Vec2, to: Vec2) -> Vec<Vec2> {
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
    pub(super) fn lookahead(&self, pos: Vec2, route: &mut Vec<Vec2>) -> Option<Vec2> {
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
    pub(super) fn drive(
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

/// The other live robots on the field (not ours) as the planner's obstacles: each moving on
/// at its last velocity (`velocities`, by index) for [`PREDICTION`] seconds.
pub(super) fn predicted(robots: &[RobotState], velocities: &[Vec2]) -> Vec<ConstVelocityRobot> {
    robots
        .iter()
        .zip(velocities)
        .filter(|(r, _)| !r.is_self && r.alive && r.on_field)
        .map(|(r, v)| ConstVelocityRobot {
            pos: Vec2::new(r.x, r.y),
            vel: *v,
            t_max: PREDICTION,
            radius: 2.0 * ROBOT_RADIUS,
            order: ORDER_OWN_BOT,
        })
        .collect()
}
