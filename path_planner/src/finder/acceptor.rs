//! The two acceptors deciding whether a path with collisions may still be used.

use super::collision::Collision;
use crate::config::PlannerConfig;
use crate::obstacle::Obstacle;
use geometry::Vec2;

/// Motionless acceptor: a late collision close to the end of the path is tolerated.
pub fn accept_motionless(
    c: Option<&Collision>,
    start: Vec2,
    end: Vec2,
    cfg: &PlannerConfig,
) -> bool {
    let Some(c) = c else { return true };
    let thr = (c.t / cfg.motionless_t_thr).clamp(0.0, 1.0);
    let rel = c.pos.dist(end) / start.dist(end);
    rel < thr // NaN (start == end) rejects
}

/// Moving acceptor (rules 1–7 of the notes, in order).
pub fn accept_moving(
    c: Option<&Collision>,
    obstacles: &[&dyn Obstacle],
    start: Vec2,
    dest: Vec2,
    v0: f64,
    amax: f64,
    cfg: &PlannerConfig,
) -> bool {
    let Some(c) = c else { return true };
    if start.dist(dest) < 2.0 * cfg.bot_radius {
        return true;
    }
    let obs = obstacles[c.obstacle];
    if obs.has_priority() {
        return false;
    }
    if dest.dist(c.pos) > cfg.moving_max_dest_dist {
        return false;
    }
    if obs.collision_likely(c.t, c.pos) {
        return false;
    }
    if c.speed < cfg.moving_crash_speed {
        return true;
    }
    c.t > v0 / amax.max(1e-6) + cfg.moving_brake_offset
}
