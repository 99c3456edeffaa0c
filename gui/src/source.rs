//! The one source the viewer shows at a time.

use crate::live::LiveSource;
use crate::recording::RecordingSource;
use crate::sim::SimSource;

/// Where the view's data comes from.
pub enum Source {
    /// Nothing (a source failed to open).
    None,
    /// Node and fake publisher in this process, on the viewer's clock.
    Sim(Box<SimSource>),
    /// A running node followed over Zenoh, with a shadow node for the map and tree.
    Live(Box<LiveSource>),
    /// An MCAP file written by `robot-decision`, scrubbed to any log time.
    Recording(Box<RecordingSource>),
}
