//! Trajectory-sampling path planning for omnidirectional robots (TIGERs Mannheim style).
//!
//! Pure library, no I/O, deterministic (seeded [`rng::SplitMix64`], no wall clock). Units: m, m/s, s.
//!
//! Main types:
//! * [`traj::BangBang1D`], [`traj::BangBang2D`] and [`traj::TrajPath`] behind the [`Trajectory`] trait;
//! * obstacles behind the [`Obstacle`] trait (see [`obstacle`]), incl. [`obstacle::GridObstacle`] walls;
//! * [`PathFinder`] (lazy search: direct path, then sub-destinations with switch times);
//! * [`MoveTo`] (plan + emergency brake).
//!
//! No path found: the finder returns the best rejected path (statically acceptable, moving
//! collision closest to the goal) if there is one, else `None`, on which [`MoveTo`] brakes.

#![warn(missing_docs)]

pub mod aabb;
pub mod config;
pub mod finder;
pub mod move_to;
pub mod obstacle;
pub use geometry::rng;
pub mod traj;

pub use config::{MoveLimits, PlannerConfig};
pub use finder::{Collision, Outcome, PathFinder, PlanRequest, PlanResult, PlanStats};
/// The frame-less vector of the planner's API (defined in `geometry`).
pub use geometry::Vec2;
pub use move_to::{MoveCommand, MoveTo, MoveToConfig};
pub use obstacle::Obstacle;
pub use traj::Trajectory;
