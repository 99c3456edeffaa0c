//! The node runtime for every profile: the node cores that turn bus messages into ticks and
//! outputs ([`node::NodeCore`] for RoboMaster), the live loop on the bus, the in-process
//! simulation, hot reload, and record / replay of MCAP recordings (the files themselves are
//! [`bus::recording`]'s). `robot-decision` and the viewer are built on it.

pub mod node;
pub mod profile;
pub mod runtime;
pub mod soccer;
