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

#[cfg(test)]
impl Which {
    /// The name on the command line (`soccer-frame`), also the schema's file name in
    /// `docs/src/schemas/`.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// The schema of `which` as the command prints it (pretty JSON, no final newline).
pub fn text(which: Which) -> Result<String, serde_json::Error> {
    let schema = match which {
        Which::Decisions => schemars::schema_for!(DecisionsFile),
        Which::Waypoints => schemars::schema_for!(WaypointsFile),
        Which::Config => schemars::schema_for!(ConfigFile),
        Which::Snapshot => schemars::schema_for!(Snapshot),
        Which::Soccer => schemars::schema_for!(soccer_profile::params::Parameters),
        Which::SoccerFrame => schemars::schema_for!(soccer_profile::frame::Frame),
        Which::Evaluation => schemars::schema_for!(crate::evaluate::EvaluationDocument),
    };
    serde_json::to_string_pretty(&schema)
}

/// Prints the schema of `which`.
pub fn run(which: Which) -> ExitCode {
    match text(which) {
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

#[cfg(test)]
mod tests {
    use super::{Which, text};
    use clap::ValueEnum;
    use std::path::PathBuf;

    /// The manual's copies of the schemas (`docs/src/schemas/NAME.json`) are what `schema NAME`
    /// prints now. CI regenerates them the same way and fails on a difference; after a change
    /// of a format, write them again:
    /// `for n in decisions waypoints config snapshot soccer soccer-frame evaluation; do
    /// robot-decision schema $n > docs/src/schemas/$n.json; done`.
    #[test]
    fn the_manual_carries_the_current_schemas() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/src/schemas");
        let mut stale = Vec::new();
        for which in Which::value_variants() {
            let path = dir.join(format!("{}.json", which.name()));
            let current = text(*which)
                .map(|t| t + "\n")
                .unwrap_or_else(|e| panic!("{e}"));
            let stored = std::fs::read_to_string(&path).unwrap_or_default();
            if stored != current {
                stale.push(path.display().to_string());
            }
        }
        assert!(
            stale.is_empty(),
            "stale or missing schema files (write them with `robot-decision schema NAME`): {stale:?}"
        );
    }

    #[test]
    fn every_schema_has_a_file_name() {
        let names: Vec<String> = Which::value_variants().iter().map(|w| w.name()).collect();
        assert!(names.contains(&"soccer-frame".to_owned()), "{names:?}");
        assert!(names.iter().all(|n| !n.is_empty()), "{names:?}");
    }
}
