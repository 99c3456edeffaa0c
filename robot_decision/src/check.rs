//! `robot-decision check`: every error and warning of a configuration at once.

use crate::Format;
use decision_core::robomaster::{Decider, Diagnostics, lint, load};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Loads, lints and compiles; prints the diagnostics; exit 1 on errors.
pub fn run(config: &Path, format: Format) -> ExitCode {
    let is_tree = config
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "xml" | "json5"));
    if is_tree {
        return check_tree(config);
    }
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

/// Checks a tree file against the standard library and the benchmark leaves: every load and
/// compile error at once.
fn check_tree(tree: &Path) -> ExitCode {
    let Some(spec) = crate::bt::load_spec(tree, None) else {
        return ExitCode::from(1);
    };
    // A tree using the soccer vocabulary is checked against it, any other against the
    // benchmark leaves of `bt`.
    let compiled = if soccer_profile::tree::uses_soccer_leaves(&spec) {
        decision_core::engine::compile(&spec, &soccer_profile::tree::registry())
            .map(|t| t.node_count())
    } else {
        let registry = crate::bt::registry(crate::bt::Leaves::Bench);
        decision_core::engine::compile(&spec, &registry).map(|t| t.node_count())
    };
    match compiled {
        Ok(node_count) => {
            println!("{}: 0 error(s), {node_count} node(s)", tree.display());
            ExitCode::SUCCESS
        }
        Err(errors) => {
            crate::bt::print_compile_errors(&errors, tree);
            println!("{}: {} error(s)", tree.display(), errors.len());
            ExitCode::from(1)
        }
    }
}
