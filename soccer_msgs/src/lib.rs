//! The soccer behaviour's message types: what its topics carry, as plain serde data, so that
//! the soccer profile, the bus, the simulator and the viewer share them without the bus
//! depending on the profile (a change to the behaviour rebuilds no transport).
//!
//! * [`game`]: the game controller's state ([`GameState`]) and the robot's [`PrimaryState`].
//! * [`field`]: poses, points, the ball and obstacles in field coordinates.
//! * [`motion`]: the assembled [`MotionCommand`] (body and head motion).
//! * [`team`]: the [`StateMessage`] a robot sends and the [`TeammateMessage`] its team receives.

#![warn(missing_docs)]

pub mod field;
pub mod game;
pub mod motion;
pub mod team;

pub use field::{BallJson, ObstacleJson, PointJson, PoseJson};
pub use game::{GamePhase, GameState, PrimaryState, SubState, Team};
pub use motion::{Body, Foot, Head, MotionCommand, TurnDirection};
pub use team::{MessageBall, MessagePose, StateMessage, TeammateMessage};
