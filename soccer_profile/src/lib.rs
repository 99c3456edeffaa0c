//! The RoboCup soccer behaviour (seed 000) on the decision engine.
//!
//! * [`params`]: the parameter files (`behavior_node`, `search_suggestor`, `field`), merged
//!   base / location / robot and validated with file, line and column.
pub mod params;
