//! `MoveTo`: plans every frame and decides between following the path and an emergency brake.

use crate::finder::{PathFinder, PlanRequest, PlanResult};
use crate::traj::TrajPath;
use geometry::Vec2;

/// Emergency-brake parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveToConfig {
    /// Deceleration used for the emergency brake (brkMax, higher than the planning amax) (m/s²).
    pub brake_acc: f64,
    /// Speed that may remain at the collision (m/s) (0.6).
    pub brake_speed_offset: f64,
    /// Extra time (s) (0.05).
    pub brake_time_offset: f64,
}

impl Default for MoveToConfig {
    fn default() -> Self {
        Self {
            brake_acc: 6.0,
            brake_speed_offset: 0.6,
            brake_time_offset: 0.05,
        }
    }
}

/// Time below which a collision forces braking: `max(0, v − offset)/acc + time_offset`.
pub fn brake_time(speed: f64, acc: f64, cfg: &MoveToConfig) -> f64 {
    (speed - cfg.brake_speed_offset).max(0.0) / acc.max(1e-6) + cfg.brake_time_offset
}

/// What the robot should do this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // deliberately stack-only, no Box per frame
pub enum MoveCommand {
    /// Follow `path`; `target` is the current part's destination (the intermediate one if any).
    Follow {
        /// The path found this frame; its first collision, if any, is later than the brake time.
        path: TrajPath,
        /// Position command for the robot controller.
        target: Vec2,
    },
    /// Brake along −v with `decel` and discard the trajectory.
    Brake {
        /// Deceleration (m/s²).
        decel: f64,
    },
}

/// The MoveTo skill: a [`PathFinder`] plus the emergency-brake rule.
#[derive(Clone, Debug)]
pub struct MoveTo {
    /// The path finder (state kept across frames).
    pub finder: PathFinder,
    /// Brake parameters.
    pub cfg: MoveToConfig,
}

impl MoveTo {
    /// Creates the skill.
    pub fn new(finder: PathFinder, cfg: MoveToConfig) -> Self {
        Self { finder, cfg }
    }

    /// Plans and decides; also returns the plan result (for statistics and publishing).
    pub fn update(&mut self, req: &PlanRequest<'_>) -> (MoveCommand, PlanResult) {
        let res = self.finder.plan(req);
        let limit = brake_time(req.vel.len(), req.limits.amax, &self.cfg);
        let cmd = match (res.path, res.collision) {
            (Some(path), c) if c.is_none_or(|c| c.t > limit) => MoveCommand::Follow {
                path,
                target: path.next_destination(),
            },
            _ => MoveCommand::Brake {
                decel: self.cfg.brake_acc,
            },
        };
        (cmd, res)
    }
}
