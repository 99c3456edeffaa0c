//! `robot-decision check`: every error and warning of a configuration at once.

use crate::Format;
use decision_core::robomaster::{Decider, Diagnostics, lint, load};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Loads, lints and compiles; prints the diagnostics; exit 1 on errors.
pub fn run(config: &Path, format: Format) -> ExitCode {
    let diagnostics = diagnose(config);
    let errors = diagnostics.errors().count();
    let warnings = diagnostics.warnings().count();
    match format {
        Format::Text => {
            print!("{diagnostics}");
            println!(
                "{}: {errors} error(s), {warnings} warning(s)",
                config.display()
            );
        }
        Format::Json => {
            let doc = serde_json::json!({
                "config": config.display().to_string(),
                "errors": errors,
                "warnings": warnings,
                "diagnostics": diagnostics,
            });
            println!("{doc}");
        }
    }
    if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// All diagnostics of a configuration: loading, lints, and compiling the tree.
pub fn diagnose(config: &Path) -> Diagnostics {
    let outcome = load::load(config);
    let mut diagnostics = outcome.diagnostics;
    if let Some(tables) = outcome.tables {
        lint::lint(&tables, &mut diagnostics);
        if let Err(errors) = Decider::new(Arc::new(tables)) {
            for e in errors {
                diagnostics.compile_error(&e);
            }
        }
    }
    diagnostics
}
