//! The ball-search heatmap ("search suggestor"): local, team, hypothetical and rule-based ball
//! information in a priority grid, and the search target chosen from it.
//!
//! [`SearchSuggestor::update`] runs one frame in this order: parameter changes,
//! disable, entering playing, growth, restarts, observation (own view and replayed teammate
//! views), the ball, clamping, the own Voronoi region, and the target selection.

mod frame;
pub(crate) mod grid;
mod suggestor;
#[cfg(test)]
mod tests;

pub use frame::{
    AgedBall, GameStateName, HeatmapFrame, HeatmapGame, HypotheticalBall, TeammateState,
};
pub use grid::Heatmap;
pub use suggestor::{ParameterError, SearchSuggestor, SuggestorOutput};
