//! Turning a `walk_to` target into a path: the TIGERs planner of `path_planner` (`MoveTo`)
//! with the field (plus border strip), the obstacles, the teammates and the ball as
//! obstacles. The motion command keeps the target; the path's next destination is reported
//! beside it.

use crate::params::Parameters;
use crate::world::World;
use geometry::{Field, Point2, Vec2};
use path_planner::obstacle::{FieldBorder, Query};
use path_planner::{
    MoveCommand, MoveLimits, MoveTo, MoveToConfig, Obstacle, PathFinder, PlanRequest, PlannerConfig,
};

/// How far ahead a walk is planned (m): obstacles farther along the way are planned around
/// once the robot gets there.
pub const PLANNING_HORIZON: f64 = 3.0;

/// Extra room a straight walk keeps from every obstacle before the planner is skipped (m).
pub const STRAIGHT_CLEARANCE: f64 = 0.1;

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(a: Vec2, b: Vec2, p: Vec2) -> f64 {
    let ab = b - a;
    let l2 = ab.dot(ab);
    if l2 <= 0.0 {
        return a.dist(p);
    }
    let s = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    (a + ab * s).dist(p)
}

/// Every circle of a frame as one obstacle, so a request needs no list of references.
#[derive(Debug, Clone, Default)]
struct Circles {
    circles: Vec<(Vec2, f64)>,
}

impl Obstacle for Circles {
    fn distance(&self, q: &Query) -> f64 {
        self.circles
            .iter()
            .map(|(c, r)| q.pos.dist(*c) - r)
            .fold(f64::INFINITY, f64::min)
    }

    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        let (c, r) = self
            .circles
            .iter()
            .min_by(|a, b| (p.dist(a.0) - a.1).total_cmp(&(p.dist(b.0) - b.1)))?;
        let d = p - *c;
        let len = d.len();
        let dir = if len > 1e-9 {
            d * (1.0 / len)
        } else {
            Vec2::new(1.0, 0.0)
        };
        Some(*c + dir * (r + clearance))
    }
}

/// The planner state kept between ticks.
#[derive(Debug, Clone)]
pub struct Walker {
    move_to: MoveTo,
    circles: Circles,
    last_time: Option<f64>,
}

impl Default for Walker {
    fn default() -> Self {
        let config = PlannerConfig {
            bot_radius: 0.0, // our circles already include the robot radius
            // Humanoids walk slowly: two random sub-destinations a frame find a way round.
            random_sub_dests: 2,
            ..PlannerConfig::r2024()
        };
        Self {
            move_to: MoveTo::new(PathFinder::new(config), MoveToConfig::default()),
            circles: Circles::default(),
            last_time: None,
        }
    }
}

impl Walker {
    /// Plans from the robot's pose to `target` at `speed`; returns the path's next destination
    /// (the target itself on a direct path), or `None` when the robot should brake or has no
    /// pose.
    pub fn plan(
        &mut self,
        world: &World,
        params: &Parameters,
        target: Point2<Field>,
        speed: f64,
    ) -> Option<Point2<Field>> {
        let pose = world.pose?;
        let planning = &params.behavior_node.walking.path_planning;
        if !planning.enable {
            return Some(target);
        }
        let robot = planning.robot_radius;
        self.circles.circles.clear();
        for o in &world.obstacles {
            self.circles
                .circles
                .push((Vec2::from(o.center), o.radius + robot));
        }
        for mate in world.teammates.iter() {
            if let Some(p) = mate.pose {
                self.circles
                    .circles
                    .push((Vec2::from(p.position), 2.0 * robot));
            }
        }
        if let Some(ball) = world.ball {
            self.circles
                .circles
                .push((Vec2::from(ball.position), planning.ball_obstacle_radius));
        }
        // A local planner: plan at most `PLANNING_HORIZON` ahead along the way to the target.
        let to_target = target - pose.position;
        let distance = to_target.norm();
        let dest = if distance > PLANNING_HORIZON {
            pose.position + to_target * (PLANNING_HORIZON / distance)
        } else {
            target
        };
        // Nothing near the straight way: walk straight (the planner would find the same).
        let start = Vec2::from(pose.position);
        let end = Vec2::from(dest);
        let clear = self
            .circles
            .circles
            .iter()
            .all(|(c, r)| segment_distance(start, end, *c) > r + STRAIGHT_CLEARANCE);
        let field = &params.field;
        let inside = |p: Vec2| {
            p.x.abs() <= field.half_length() + field.border_strip_width - robot
                && p.y.abs() <= field.half_width() + field.border_strip_width - robot
        };
        if clear && inside(start) && inside(end) {
            self.last_time = Some(world.now);
            return Some(dest);
        }
        let border = FieldBorder::ssl(field.length, field.width, field.border_strip_width, robot);
        let obstacles: [&dyn Obstacle; 2] = [&border, &self.circles];
        let dt = self
            .last_time
            .map_or(0.02, |t| (world.now - t).clamp(0.0, 1.0));
        self.last_time = Some(world.now);
        let request = PlanRequest {
            pos: Vec2::from(pose.position),
            vel: Vec2::from(world.velocity),
            dest: Vec2::from(dest),
            limits: MoveLimits {
                vmax: speed.max(0.05),
                amax: planning.acceleration,
            },
            obstacles: &obstacles,
            dt,
        };
        match self.move_to.update(&request).0 {
            MoveCommand::Follow { target, .. } => Some(Point2::from(target)),
            MoveCommand::Brake { .. } => None,
        }
    }
}
