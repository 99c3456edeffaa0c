//! `robot-decision check`: every error and warning of a configuration, a tree file or a soccer
//! parameters folder at once.

use crate::Format;
use decision_core::robomaster::{Decider, Diagnostics, lint, load};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Loads, lints and compiles; prints the diagnostics; exit 1 on errors (2 on misuse).
pub fn run(config: &Path, format: Format, location: Option<&str>, robot: Option<&str>) -> ExitCode {
    if is_soccer_folder(config) {
        return check_soccer(config, location, robot, format);
    }
    if location.is_some() || robot.is_some() {
        eprintln!(
            "error: --location and --robot apply to a soccer parameters folder (one with base/), \
             not to {}",
            config.display()
        );
        return ExitCode::from(2);
    }
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

/// Whether `path` is a soccer parameters folder: a directory with a `base/` folder (normally
/// holding `base/behavior_node.json5`; a missing base file is then reported by the check).
fn is_soccer_folder(path: &Path) -> bool {
    path.is_dir() && path.join("base").is_dir()
}

/// Checks a soccer parameters folder with its overrides: every problem with file, line and
/// column, then the summary line; exit 1 on errors.
fn check_soccer(
    dir: &Path,
    location: Option<&str>,
    robot: Option<&str>,
    format: Format,
) -> ExitCode {
    let errors = match soccer_profile::params::load(dir, location, robot) {
        Ok(_) => Vec::new(),
        Err(errors) => errors,
    };
    match format {
        Format::Text => {
            for e in &errors {
                println!("{e}");
            }
            println!("{}: {} error(s), 0 warning(s)", dir.display(), errors.len());
        }
        Format::Json => {
            let diagnostics: Vec<serde_json::Value> = errors
                .iter()
                .map(|e| {
                    // The key goes into `field`, as for the other checks; the message is the rest.
                    let message = e
                        .key
                        .as_ref()
                        .and_then(|k| e.message.strip_prefix(&format!("`{k}`: ")))
                        .unwrap_or(&e.message);
                    let mut d = serde_json::json!({
                        "severity": "error",
                        "file": e.file.display().to_string(),
                        "line": e.line,
                        "column": e.column,
                    });
                    if let Some(key) = &e.key {
                        d["field"] = serde_json::Value::from(key.as_str());
                    }
                    d["message"] = serde_json::Value::from(message);
                    d
                })
                .collect();
            let doc = serde_json::json!({
                "config": dir.display().to_string(),
                "errors": errors.len(),
                "warnings": 0,
                "diagnostics": diagnostics,
            });
            println!("{doc}");
        }
    }
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
