//! A seeded, scenario-driven RoboMaster match simulator that produces the input topics of the
//! decision node: HP, positions, game time and stage, the lower computer's mode, our pose, a
//! simulated Nav2 (status and feedback) and auto-aim.
//!
//! * [`Scenario`] is the JSON5 scenario file ([`load_scenario`], [`scenario_schema`]); its
//!   errors ([`ScenarioError`]) name the file, line, column and field.
//! * [`Simulation`] runs it on a loaded field ([`decision_core::robomaster::Tables`]):
//!   [`Simulation::step`] advances simulated time, [`Simulation::frame`] gives the messages to
//!   publish ([`Frame`]), and goals, cancels and decisions are fed back in with
//!   [`Simulation::on_goal`], [`Simulation::on_cancel`] and [`Simulation::on_decision`].
//!   No wall clock and no OS randomness: the same scenario and seed give identical frames.
//! * With the scenario's opt-in `combat` section ([`CombatSpec`]) HP also depends on what our
//!   robot does: where it stands, whether it spins, whom it aims at;
//!   [`Simulation::combat_stats`] ([`CombatStats`]) and [`Simulation::enemy_in_sight`] give
//!   the outcome and the ground truth an evaluator needs.
//! * The `fake-publisher` binary publishes the frames over the bus in (scaled) real time.
//!
//! The scenario format is documented field by field in the manual
//! (`docs/src/formats/scenario.md`).

#![warn(missing_docs)]

mod check;
pub mod error;
pub mod locate;
pub use geometry::rng;
pub mod robomaster;
pub mod scenario;
pub mod sim;
pub mod soccer;

pub use error::{Problem, ScenarioError};
pub use scenario::{
    Behaviour, CombatSpec, Gun, HpEvent, NavSpec, Place, Point, RandomWalk, Regeneration,
    RobotName, Scenario, ScriptPoint, Side, StageAt, Structure, StructureDamage, Target, UnitName,
    check_against, load_scenario, parse_scenario, scenario_schema,
};
pub use sim::{CombatStats, Frame, RobotState, Simulation};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
