//! The one source the viewer shows at a time.

use crate::live::LiveSource;
use crate::recording::RecordingSource;
use crate::sim::SimSource;

/// Where the view's data comes from.
pub enum Source {
    /// Nothing (a source failed to open).
    None,
    /// The embedded simulation.
    Sim(Box<SimSource>),
    /// The live bus.
    Live(Box<LiveSource>),
    /// A recording.
    Recording(Box<RecordingSource>),
}
