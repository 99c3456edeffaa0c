//! The simulated RoboMaster match under its original path: re-exports [`crate::robomaster`]
//! (where the simulator lives, one job per file) and keeps the wire-constant aliases this
//! module has always exported; the values are defined once, in [`bus::messages`].

use bus::messages::GameInfo;

pub use crate::robomaster::{CombatStats, Frame, ROBOT_RADIUS, RobotState, Simulation};

/// Nav2 status codes (action_msgs/GoalStatus): aliases of the [`GoalStatus`] constants.
///
/// [`GoalStatus`]: bus::messages::GoalStatus
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
