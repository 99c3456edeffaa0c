//! `robot-decision schema`: JSON Schemas generated from the Rust types.

use clap::ValueEnum;
use decision_core::robomaster::config::ConfigFile;
use decision_core::robomaster::decisions::DecisionsFile;
use decision_core::robomaster::snapshot::Snapshot;
use decision_core::robomaster::waypoints::WaypointsFile;
use std::process::ExitCode;

/// The file formats with a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Which {
    /// decisions.json
    Decisions,
    /// waypoints.json
    Waypoints,
    /// config.json
    Config,
    /// one line of `decide --input`
    Snapshot,
    /// the soccer parameters: one property per file (behavior_node, search_suggestor, field)
    Soccer,
    /// one line of `soccer decide --input`
    SoccerFrame,
    /// the document of `evaluate --json`
    Evaluation,
}

/// Prints the schema of `which`.
pub fn run(which: Which) -> ExitCode {
    let schema = match which {
        Which::Decisions => schemars::schema_for!(DecisionsFile),
        Which::Waypoints => schemars::schema_for!(WaypointsFile),
        Which::Config => schemars::schema_for!(ConfigFile),
        Which::Snapshot => schemars::schema_for!(Snapshot),
        Which::Soccer => schemars::schema_for!(soccer_profile::params::Parameters),
        Which::SoccerFrame => schemars::schema_for!(soccer_profile::frame::Frame),
        Which::Evaluation => schemars::schema_for!(crate::evaluate::EvaluationDocument),
    };
    match serde_json::to_string_pretty(&schema) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot render the schema: {e}");
            ExitCode::from(1)
        }
    }
}
