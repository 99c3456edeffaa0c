//! Scripted motion of the robots other than ours: standing, patrols, random walks on the
//! connect graph and timed scripts; where each robot starts and how it moves ([`Mover`]).

use super::angle::norm_angle;
use super::state::RobotState;
use crate::rng::SplitMix64;
use crate::scenario::{Behaviour, Place, Scenario, ScriptPoint};
use decision_core::robomaster::Tables;
use waypoint_graph::WaypointGraph;

/// How a robot moves, with its state.
#[derive(Debug, Clone)]
pub(super) enum Mover {
    /// Off the field.
    Off,
    /// Our robot (driven by the simulated Nav2, [`super::nav::Nav`]).
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

impl Mover {
    /// Moves `robot` over a step of `dt` seconds ending at `t1` (scripts: to their place at
    /// `t1`); our robot and standing robots do not move here.
    pub(super) fn advance(
        &mut self,
        robot: &mut RobotState,
        dt: f64,
        t1: f64,
        graph: &WaypointGraph,
    ) {
        match self {
            Mover::Off | Mover::Stationary | Mover::Ours => {}
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
    }
}

/// Position and heading of a start place: a waypoint (with its angle) or a point (heading 0).
fn place(tables: &Tables, p: &Place) -> (f64, f64, f64) {
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
}

/// Position of waypoint `id` (0, 0 when there is none).
pub(super) fn waypoint_xy(tables: &Tables, id: i32) -> (f64, f64) {
    tables
        .graph
        .get(id)
        .map_or((0.0, 0.0), |w| (f64::from(w.x), f64::from(w.y)))
}

/// How robot `i` (`car_pos` order; `ours` is our robot) moves, and where it starts (x, y,
/// heading; `None` off the field), by the scenario's `start` and `robots`; random walks draw
/// from stream `i` of `seed`.
pub(super) fn start(
    scenario: &Scenario,
    tables: &Tables,
    ours: usize,
    i: usize,
    seed: u64,
) -> (Mover, Option<(f64, f64, f64)>) {
    let start = scenario
        .start
        .iter()
        .find(|(n, _)| n.resolve(ours) == i)
        .map(|(_, p)| place(tables, p));
    let behaviour = scenario
        .robots
        .iter()
        .find(|(n, _)| n.index() == Some(i))
        .map(|(_, b)| b);
    let mut rng = SplitMix64::for_stream(seed, i as u64);
    if i == ours {
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
                let points: Vec<(f64, f64)> = waypoints
                    .iter()
                    .map(|id| waypoint_xy(tables, *id))
                    .collect();
                let first = waypoints
                    .first()
                    .map(|id| place(tables, &Place::Waypoint(*id)));
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
                        let near = tables.graph.nearest(p.0 as f32, p.1 as f32, f32::INFINITY);
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
    }
}

/// Moves `pos` toward `target` by at most `budget` metres; the distance used and whether it arrived.
pub(super) fn move_toward(pos: &mut (f64, f64), target: (f64, f64), budget: f64) -> (f64, bool) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
