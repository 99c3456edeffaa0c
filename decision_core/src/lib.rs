//! The decision engine and the RoboMaster profile.
//!
//! * [`engine`]: the profile-agnostic IR: a [`engine::TreeSpec`] (serde data) is compiled
//!   against a [`engine::Registry`] of named leaves into a [`engine::Tree`], ticked with a
//!   typed context and an injected time, leaving a [`engine::TickTrace`].
//! * [`robomaster`]: the original package's files loaded with positioned diagnostics
//!   ([`robomaster::load::load`]), compiled onto the engine and ticked by a
//!   [`robomaster::Decider`].
//! * [`jsonc`]: the positioned JSON reader (lenient jsoncpp dialect and JSON5) that the
//!   profiles' file loaders build their diagnostics on.

pub mod engine;
pub mod jsonc;
pub mod robomaster;
pub mod strict_serde;
pub mod suggest;
