//! The runtime's bus: the topic catalogue ([`topics`]), the message structs of the wire
//! contract ([`messages`]; the soccer profile's in [`soccer`]), and one publish / subscribe API ([`Bus`]) over two transports:
//! Zenoh (peer or client mode, explicit endpoints, a robot namespace prefix on every key), ROS 2
//! on rmw_zenoh (cargo feature `ros2`: CDR, the original's topics, TF and the Nav2 action; see
//! [`ros2`]) and an in-process transport for `sim` and tests. Payloads are JSON objects with a header stamp.
//!
//! Main types: [`Bus`] (publish, subscribe), [`Subscription`] (one queue for several topics),
//! [`decode`] / [`DecodeError`] (typed payloads, errors naming the field), [`ZenohOptions`] and
//! [`Ros2Options`] (how to reach the network; their flags are `bus_cli::BusArgs`), [`recording`] (MCAP files of bus traffic). The wire contract is in the crate's README.

#![warn(missing_docs)]

mod decode;
pub mod messages;
mod options;
mod queue;
pub mod recording;
pub mod ros2;
mod session;
pub mod soccer;
pub mod topics;
mod transport;

pub use decode::{DecodeError, decode};
pub use options::{
    BusOptions, DEFAULT_ENDPOINT, DEFAULT_NAMESPACE, Distro, Mode, Ros2Options, ZenohOptions,
};
pub use queue::QUEUE_CAPACITY;
pub use transport::{Bus, BusError, Received, Subscription};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
