//! `robot-decision replay`: feeds a recording's inputs through a fresh node, in log-time order
//! with `now` = the recorded log time (no wall clock, as fast as possible), and compares the
//! decisions with the recorded ones, or with another config's (`--config`): the spans of game
//! time where the decision in effect differs, with each side's why-not. Also takes a JSON
//! Lines snapshot file (the `decide` input) and compares `--base` against `--config`.
//!
//! Both profiles replay through this module: [`feed::replay_node`] runs recorded messages
//! through any [`crate::profile::NodeProfile`], `align` pairs two runs' ticks, [`runs`] finds
//! the stretches where they decide differently; [`mod@diff`] (RoboMaster) and [`soccer`]
//! (each robot of a soccer recording) build their reports on those, [`render_text`] and
//! [`render_soccer_text`] word them, [`files`] restores a recording's config and tells the
//! input kinds apart; every failure is a [`ReplayError`].

mod align;
pub mod diff;
mod error;
pub mod feed;
pub mod files;
mod render;
pub mod runs;
pub mod soccer;

pub use bus::recording::{
    ChannelInfo, RecordedAttachment, RecordedMessage, Recording, from_nanos, is_mcap,
    read_mcap_bytes,
};
pub use diff::{DiffReport, Span, SpanSide, diff};
pub use error::ReplayError;
pub use feed::{
    ReplayRecord, Tick, decide_snapshots, read_snapshots, replay_messages, replay_node, traces,
};
pub use files::{InputKind, detect, extract_config, load_tables};
pub use render::{ReplayReport, render_soccer_text, render_text};

/// Reads an MCAP recording leniently (a cut file reads up to the cut, with a warning).
pub fn read_mcap(path: &std::path::Path) -> Result<Recording, ReplayError> {
    bus::recording::read_mcap(path).map_err(ReplayError::Recording)
}
