//! The wire codes of the RoboMaster topics, defined once: the bus's messages
//! (`GoalStatus`, `GameInfo`) and the RoboMaster profile's world model both read them from
//! here, so neither depends on the other.
//!
//! Main items: [`nav_status`] (the Nav2 goal status codes of `action_msgs/GoalStatus`) and
//! [`game_stage`] (the referee's `game_stage` of `global_interface/GameInfo`).

#![warn(missing_docs)]

/// Nav2 goal status codes (action_msgs/GoalStatus).
pub mod nav_status {
    /// No status known.
    pub const UNKNOWN: u8 = 0;
    /// Goal accepted.
    pub const ACCEPTED: u8 = 1;
    /// Goal executing.
    pub const EXECUTING: u8 = 2;
    /// Cancel requested.
    pub const CANCELING: u8 = 3;
    /// Goal reached.
    pub const SUCCEEDED: u8 = 4;
    /// Goal cancelled.
    pub const CANCELED: u8 = 5;
    /// Goal aborted.
    pub const ABORTED: u8 = 6;

    /// Whether the goal is still in flight.
    pub fn is_active(status: u8) -> bool {
        status == ACCEPTED || status == EXECUTING
    }

    /// Whether the goal ended without success (and may be re-sent).
    pub fn ended_without_success(status: u8) -> bool {
        status == CANCELED || status == ABORTED
    }
}

/// The referee's match stages (`game_stage` of `global_interface/GameInfo`).
pub mod game_stage {
    /// The match is fought; other stages are skipped unless `Debug`.
    pub const IN_BATTLE: u8 = 4;
    /// The match has ended (settlement).
    pub const SETTLEMENT: u8 = 5;
}

#[cfg(test)]
mod tests {
    use super::nav_status::*;

    #[test]
    fn only_accepted_and_executing_goals_are_active() {
        let active: Vec<u8> = (0..=6).filter(|s| is_active(*s)).collect();
        assert_eq!(active, [ACCEPTED, EXECUTING]);
        let failed: Vec<u8> = (0..=6).filter(|s| ended_without_success(*s)).collect();
        assert_eq!(failed, [CANCELED, ABORTED]);
    }
}
