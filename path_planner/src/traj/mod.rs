//! Bang-bang trajectories: the 1D solver, the α-synchronised 2D trajectory and two-part paths.

mod alpha;
pub mod bangbang1d;
pub mod bangbang2d;
pub mod path;

pub use bangbang1d::{BangBang1D, Part};
pub use bangbang2d::BangBang2D;
pub use path::TrajPath;

/// A time-parameterised trajectory; times are seconds from the trajectory start.
///
/// Before 0 the start state is returned; after [`Trajectory::total_time`] the final
/// position is held with zero velocity and acceleration.
pub trait Trajectory {
    /// The value type (`f64` for 1D, [`crate::Vec2`] for 2D).
    type Value: Copy;
    /// Position at time `t`.
    fn position(&self, t: f64) -> Self::Value;
    /// Velocity at time `t`.
    fn velocity(&self, t: f64) -> Self::Value;
    /// Acceleration at time `t`.
    fn acceleration(&self, t: f64) -> Self::Value;
    /// Time until the trajectory comes to rest at its end point.
    fn total_time(&self) -> f64;
}
