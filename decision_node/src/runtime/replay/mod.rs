//! `robot-decision replay`: feeds a recording's inputs through a fresh node, in log-time order
//! with `now` = the recorded log time (no wall clock, as fast as possible), and compares the
//! decisions with the recorded ones, or with another config's (`--config`): the spans of game
//! time where the decision in effect differs, with each side's why-not. Also takes a JSON
//! Lines snapshot file (the `decide` input) and compares `--base` against `--config`.
//!
//! In parts: [`feed`] runs the inputs, `align` pairs two runs' ticks, [`mod@diff`] finds the
//! differing spans, [`render_text`] words the report, [`files`] restores a recording's config
//! and tells the input kinds apart; every failure is a [`ReplayError`].

mod align;
pub mod diff;
mod error;
pub mod feed;
pub mod files;
mod render;

pub use bus::recording::{
    ChannelInfo, RecordedAttachment, RecordedMessage, Recording, from_nanos, is_mcap,
    read_mcap_bytes,
};
pub use diff::{DiffReport, Span, SpanSide, diff};
pub use error::ReplayError;
pub use feed::{Tick, decide_snapshots, read_snapshots, replay_messages, traces};
pub use files::{InputKind, detect, extract_config, load_tables};
pub use render::render_text;

/// Reads an MCAP recording leniently (a cut file reads up to the cut, with a warning).
pub fn read_mcap(path: &std::path::Path) -> Result<Recording, ReplayError> {
    bus::recording::read_mcap(path).map_err(ReplayError::Recording)
}
