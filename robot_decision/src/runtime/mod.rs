//! The programs around the node core: the live node on the bus (`run`), the in-process
//! simulation (`sim`), hot reload, and the events topic.

pub mod events;
pub mod reload;
pub mod run;
pub mod sim;
pub mod timeline;
