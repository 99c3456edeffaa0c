//! The programs around the node core: the live node on the bus (`run`), the in-process
//! simulation (`sim`), hot reload, the events topic,
//! and record / replay / record-info of MCAP recordings.

pub mod clock;
pub mod events;
pub mod record;
pub mod record_info;
pub mod reload;
pub mod replay;
#[cfg(feature = "cli")]
pub mod replay_cli;
#[cfg(feature = "cli")]
pub mod run;
#[cfg(feature = "sim")]
pub mod sim;
pub mod timeline;
#[cfg(feature = "cli")]
pub mod watch;
