//! The simulated RoboMaster match: robots moving by their behaviours (`motion.rs`), our robot
//! driven by a simulated Nav2 (`nav.rs`, planned around the walls by `route.rs`), HP changing
//! by events, regeneration and structure damage (`combat.rs`) and, with a `combat` section, by a
//! seeded fight that depends on what our robot does (`fight.rs`), auto-aim (`aim.rs`), and the
//! [`Frame`] of input messages the decision node reads (`state.rs`), all driven by
//! [`Simulation`] (`simulation.rs`). Single-threaded and deterministic: the same scenario,
//! tables and seed give the same frames; time only advances through [`Simulation::step`].

mod aim;
mod angle;
mod combat;
mod fight;
mod motion;
mod nav;
mod route;
mod simulation;
mod state;

pub use fight::CombatStats;
pub use route::ROBOT_RADIUS;
pub use simulation::Simulation;
pub use state::{Frame, RobotState};

/// Slack for comparing accumulated simulated times.
const TIME_EPS: f64 = 1e-9;
