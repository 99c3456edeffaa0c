//! The programs around the node core: the live node on the bus (`run`), the in-process
//! simulation (`sim`), hot reload, the events topic,
//! and record / replay / record-info of MCAP recordings.

pub mod events;
pub mod record;
pub mod record_info;
pub mod reload;
pub mod replay;
pub mod run;
pub mod sim;
pub mod timeline;
