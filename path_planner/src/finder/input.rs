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

/// Reusable buffers of [`process`] (no allocation per plan once grown).
#[derive(Clone, Debug, Default)]
pub struct InputScratch {
    /// Priority obstacles in `order_id` order.
    order: Vec<usize>,
    /// `(order_id, index)` of the priority obstacles, for sorting.
    keyed: Vec<(u8, usize)>,
    /// Whether each obstacle contains the robot.
    robot_inside: Vec<bool>,
    /// Whether each obstacle contains the (current) destination.
    dest_inside: Vec<bool>,
}

/// Fills `order` with the priority obstacles (indices) in `order_id` order.
fn priority_order(
    obstacles: &[&dyn Obstacle],
    keyed: &mut Vec<(u8, usize)>,
    order: &mut Vec<usize>,
) {
    keyed.clear();
    keyed.extend(
        (0..obstacles.len())
            .filter(|&i| obstacles[i].has_priority())
            .map(|i| (obstacles[i].order_id(), i)),
    );
    // Distinct indices: the unstable sort gives the stable order by `order_id`.
    keyed.sort_unstable();
    order.clear();
    order.extend(keyed.iter().map(|&(_, i)| i));
}

/// Fills `inside` with whether each obstacle contains `p`.
fn containing(obstacles: &[&dyn Obstacle], p: Vec2, inside: &mut Vec<bool>) {
    inside.clear();
    inside.extend(obstacles.iter().map(|o| o.is_colliding_at(p)));
}

/// Adapts the destination for "robot inside" and "destination inside" and fills `kept`
/// with the obstacles (indices) that contain neither the robot nor the adapted destination.
///
/// Obstacles are processed in `order_id` order and only priority obstacles are used for
/// adaptation. Each obstacle is asked once whether it contains the robot and once whether
/// it contains the destination (again only if the destination moves).
pub fn process(
    obstacles: &[&dyn Obstacle],
    robot: Vec2,
    dest: Vec2,
    scratch: &mut InputScratch,
    kept: &mut Vec<usize>,
) -> Vec2 {
    let InputScratch {
        order,
        keyed,
        robot_inside,
        dest_inside,
    } = scratch;
    let mut dest = dest;
    containing(obstacles, robot, robot_inside);
    // The priority order is only asked for an obstacle that contains the robot or the
    // destination: it is sorted when the first one is found (most plans have none).
    let mut ordered = false;

    // Robot inside an obstacle: escape to the closest point outside + 100 mm first.
    if robot_inside.contains(&true) {
        priority_order(obstacles, keyed, order);
        ordered = true;
        if let Some(&i) = order.iter().find(|&&i| robot_inside[i]) {
            let obs = obstacles[i];
            if let Some(escape) = obs.adapt_destination_for_robot_pos(robot) {
                let dest_leaves =
                    !obs.is_colliding_at(dest) && dest.dist(robot) < escape.dist(robot);
                if !dest_leaves {
                    if is_free(obstacles, order, escape) {
                        dest = escape;
                    } else if let Some(p) = acceptable_pos(obstacles, order, robot, robot) {
                        dest = p;
                    }
                }
            }
        }
    }

    // Destination inside an obstacle: closest point outside + 1 mm, else ring search.
    containing(obstacles, dest, dest_inside);
    if dest_inside.contains(&true) {
        if !ordered {
            priority_order(obstacles, keyed, order);
        }
        if let Some(&i) = order.iter().find(|&&i| dest_inside[i]) {
            let adapted = obstacles[i].adapt_destination(dest);
            match adapted {
                Some(p) if is_free(obstacles, order, p) => dest = p,
                _ => {
                    if let Some(p) = acceptable_pos(obstacles, order, dest, robot) {
                        dest = p;
                    }
                }
            }
            containing(obstacles, dest, dest_inside);
        }
    }

    kept.clear();
    kept.extend((0..obstacles.len()).filter(|&i| !robot_inside[i] && !dest_inside[i]));
    dest
}
