//! The RoboMaster profile: the original package's `config.json`, `decisions.json`,
//! `waypoints.json` and obstacle map, loaded leniently with positioned diagnostics
//! ([`load::load`]), compiled onto the engine ([`tree::decision_tree`]) and ticked by a
//! [`decider::Decider`] as the original package decides: the best available decision by
//! weight, a strictly heavier one preempting a running lighter one, and the commitment to a
//! running decision through ticks without candidates
//! ([`crate::engine::nodes::weighted_selection`] for choosing and preemption,
//! [`navigate`] for goals sent, held and continued).

pub mod aim;
pub mod config;
pub mod context;
pub mod decider;
pub mod decisions;
pub mod diagnostics;
pub mod fields;
mod guard_leaf;
pub mod guard_set;
pub mod guards;
pub mod lint;
pub mod load;
pub mod navigate;
mod result_json;
pub mod selection;
pub mod snapshot;
mod snapshot_fast;
pub mod tree;
pub mod waypoints;
pub mod world;

/// The positioned JSON reader, re-exported at its old path for the RoboMaster modules.
pub use crate::jsonc;

pub use decider::{Decider, DecisionMsg, Skip, TickResult, TickSummary};
pub use diagnostics::{Diagnostic, Diagnostics, Severity};
pub use load::{LoadOutcome, Tables, load};
pub use world::{Point2, Pose, TickInput};

/// The node kinds of the RoboMaster profile (beside the standard library) with their models:
/// `weighted_selection` and its rules, the guards and `navigate`, sorted by id.
pub fn node_kinds() -> Vec<(String, crate::engine::NodeModel)> {
    let mut registry = crate::engine::Registry::<context::RmContext>::new();
    crate::engine::nodes::weighted_selection::register(&mut registry);
    guards::register(&mut registry);
    let mut kinds: Vec<(String, crate::engine::NodeModel)> = registry
        .models()
        .map(|(id, model)| (id.to_owned(), model.clone()))
        .collect();
    kinds.push((navigate::NAVIGATE.to_owned(), navigate::model()));
    kinds.sort_by(|a, b| a.0.cmp(&b.0));
    kinds
}
