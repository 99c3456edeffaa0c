//! Input processing: destination adaptation and removal of obstacles containing robot/destination.

use crate::obstacle::Obstacle;
use geometry::Vec2;

/// Ring step and point spacing of the acceptable-position search (m).
const RING_STEP: f64 = 0.1;
/// Maximum number of points tried by the acceptable-position search.
const MAX_POINTS: usize = 1000;

fn is_free(obstacles: &[&dyn Obstacle], ids: &[usize], p: Vec2) -> bool {
    ids.iter().all(|&i| !obstacles[i].is_colliding_at(p))
}

/// Rings of radius 0.1, 0.2, … m around `centre`, points every 0.1 m of arc (≤ 1000 points);
/// returns the free point of the first ring with any, closest to `prefer`.
pub fn acceptable_pos(
    obstacles: &[&dyn Obstacle],
    ids: &[usize],
    centre: Vec2,
    prefer: Vec2,
) -> Option<Vec2> {
    let mut tried = 0usize;
    let mut ring = 1usize;
    while tried < MAX_POINTS {
        let r = ring as f64 * RING_STEP;
        let n = ((2.0 * std::f64::consts::PI * r / RING_STEP).ceil() as usize).max(1);
        let mut best: Option<(f64, Vec2)> = None;
        for k in 0..n {
            if tried >= MAX_POINTS {
                break;
            }
            tried += 1;
            let p = centre + Vec2::from_angle(k as f64 * 2.0 * std::f64::consts::PI / n as f64) * r;
            if is_free(obstacles, ids, p) {
                let d = p.dist(prefer);
                if best.is_none_or(|b| d < b.0) {
                    best = Some((d, p));
                }
            }
        }
        if let Some((_, p)) = best {
            return Some(p);
        }
        ring += 1;
    }
    None
}

/// Adapts the destination for "robot inside" and "destination inside" and fills `kept`
/// with the obstacles (indices) that contain neither the robot nor the adapted destination.
///
/// `order` is scratch space; obstacles are processed in `order_id` order and only
/// priority obstacles are used for adaptation.
pub fn process(
    obstacles: &[&dyn Obstacle],
    robot: Vec2,
    dest: Vec2,
    order: &mut Vec<usize>,
    kept: &mut Vec<usize>,
) -> Vec2 {
    order.clear();
    order.extend((0..obstacles.len()).filter(|&i| obstacles[i].has_priority()));
    order.sort_by_key(|&i| obstacles[i].order_id());
    let mut dest = dest;

    // Robot inside an obstacle: escape to the closest point outside + 100 mm first.
    if let Some(&i) = order.iter().find(|&&i| obstacles[i].is_colliding_at(robot)) {
        let obs = obstacles[i];
        if let Some(escape) = obs.adapt_destination_for_robot_pos(robot) {
            let dest_leaves = !obs.is_colliding_at(dest) && dest.dist(robot) < escape.dist(robot);
            if !dest_leaves {
                if is_free(obstacles, order, escape) {
                    dest = escape;
                } else if let Some(p) = acceptable_pos(obstacles, order, robot, robot) {
                    dest = p;
                }
            }
        }
    }

    // Destination inside an obstacle: closest point outside + 1 mm, else ring search.
    if let Some(&i) = order.iter().find(|&&i| obstacles[i].is_colliding_at(dest)) {
        let adapted = obstacles[i].adapt_destination(dest);
        match adapted {
            Some(p) if is_free(obstacles, order, p) => dest = p,
            _ => {
                if let Some(p) = acceptable_pos(obstacles, order, dest, robot) {
                    dest = p;
                }
            }
        }
    }

    kept.clear();
    kept.extend(
        (0..obstacles.len()).filter(|&i| {
            !obstacles[i].is_colliding_at(robot) && !obstacles[i].is_colliding_at(dest)
        }),
    );
    dest
}
