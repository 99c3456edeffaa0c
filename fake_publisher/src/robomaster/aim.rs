//! Auto-aim of our robot: the nearest enemy in sight within the seek distance, as the gimbal
//! yaw relative to the chassis. The rule is the node's (`decision_core::robomaster::aim`) on
//! the positions the simulation publishes, so the combat model can fire at the enemy the node
//! aims at.

use super::angle::{norm_angle, wrap_pi};
use super::state::RobotState;
use decision_core::robomaster::Tables;
use waypoint_graph::distance_f32;

/// Index into `robots` of the nearest visible enemy of `me` in the seek circle of `tables`,
/// with its absolute direction (radians).
pub(super) fn aimed(
    tables: &Tables,
    robots: &[RobotState],
    me: &RobotState,
) -> Option<(usize, f64)> {
    let config = &tables.config;
    let from = (me.x as f32, me.y as f32);
    let mut best: Option<(f32, usize, f64)> = None;
    for (i, enemy) in robots
        .iter()
        .enumerate()
        .filter(|(_, r)| r.side != me.side && r.alive && r.on_field)
    {
        let to = (enemy.x as f32, enemy.y as f32);
        if to.0 == 0.0 || to.1 == 0.0 || to == from {
            continue;
        }
        let d = distance_f32(from.0, from.1, to.0, to.1);
        if d > config.seek_thr || best.is_some_and(|(bd, _, _)| d >= bd) {
            continue;
        }
        if !tables.map.visible_sampled(from, to, config.step_distance) {
            continue;
        }
        best = Some((
            d,
            i,
            norm_angle(f64::from(to.1 - from.1).atan2(f64::from(to.0 - from.0))),
        ));
    }
    best.map(|(_, i, yaw)| (i, yaw))
}

/// Gimbal yaw (relative to the chassis, in [-pi, pi]) to the auto-aim target, if any.
pub(super) fn target(tables: &Tables, robots: &[RobotState], me: &RobotState) -> Option<f64> {
    aimed(tables, robots, me).map(|(_, yaw)| wrap_pi(yaw - me.heading))
}
