//! The `robot-decision` runtime as a library: the node core that turns bus messages into
//! ticks and outputs ([`node::NodeCore`]), shared by `run` (live, Zenoh), `sim` (in-process,
//! simulated time), replay and the viewer.

pub mod node;
pub mod runtime;
