//! A seeded five-a-side soccer match for offline debugging of the soccer behaviour: two teams
//! of our deciders (or one against scripted opponents), a game controller with its phases and
//! set plays, a ball with friction, robots that walk, kick, collide, fall and stand up,
//! perception with a view cone, noise and occlusion, and team messages with delay and loss.
//!
//! * [`SoccerScenario`]: the scenario file (JSON5, every key optional).
//! * [`SoccerMatch`]: the match, [`SoccerMatch::step`] one 20 ms tick.
//! * [`figures`]: the play figures (role changes, strikers, stints, lost balls) of a match.

pub mod figures;
mod frames;
mod network;
mod perception;
pub mod referee;
pub mod remote;
mod scenario;
mod scripted;
mod simulation;
pub mod world;

pub use frames::{point_for, pose_for};
pub use scenario::{
    Event, EventKind, Perception, SetPlay, Side, SoccerScenario, Start, TeamKind, TeamSpec,
    load_soccer_scenario, parse_soccer_scenario,
};
pub use simulation::{
    Happening, Player, SoccerMatch, TICK, TeamBrains, decide_on_this_thread, phase_name, side_name,
};
