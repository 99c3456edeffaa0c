//! Hot reload: watches a profile's files (RoboMaster: config, decisions, waypoints, map;
//! soccer: parameter files and tree); on a change loads and checks them in a background
//! thread and hands the result to the tick loop, which swaps at a tick boundary. Rejected
//! files leave the last good state running.

use super::clock::wall_clock;
use super::events::Event;
use crate::node::NodeCore;
use decision_core::robomaster::{Diagnostics, Tables, lint, load};
use std::path::Path;
use std::sync::Arc;

/// The outcome of one reload attempt.
#[derive(Debug)]
pub enum Reload {
    /// New tables that loaded without errors (warnings included).
    Accepted {
        /// The new tables, to replace the running ones.
        tables: Arc<Tables>,
        /// Their warnings.
        warnings: Diagnostics,
    },
    /// Files with errors; the last good tables keep running.
    Rejected {
        /// All diagnostics.
        diagnostics: Diagnostics,
    },
}

/// Loads and lints a configuration as `check` does.
pub fn load_checked(config: &Path) -> Reload {
    let outcome = load::load(config);
    let mut diagnostics = outcome.diagnostics;
    match outcome.tables {
        Some(tables) => {
            lint::lint(&tables, &mut diagnostics);
            Reload::Accepted {
                tables: Arc::new(tables),
                warnings: diagnostics,
            }
        }
        None => Reload::Rejected { diagnostics },
    }
}

#[cfg(feature = "cli")]
pub use super::watch::ReloadWatcher;

/// Swaps accepted tables into the node, or reports the rejected files; both go to the log and
/// the events topic.
pub fn apply_reload(node: &mut NodeCore, reload: Reload, publish_event: &dyn Fn(&Event)) {
    match reload {
        Reload::Accepted { tables, warnings } => {
            let shown = tables.files.config.display().to_string();
            match node.reload(Arc::clone(&tables)) {
                Ok(()) => {
                    tracing::info!(
                        "reloaded {shown} ({} warning(s))",
                        warnings.warnings().count()
                    );
                    let mut event =
                        Event::new(wall_clock(), "reload_accepted", format!("reloaded {shown}"));
                    event.diagnostics = warnings.items().to_vec();
                    publish_event(&event);
                }
                Err(errors) => {
                    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    tracing::error!(
                        "reload rejected, the tree does not compile: {}",
                        text.join("; ")
                    );
                    publish_event(&Event::new(
                        wall_clock(),
                        "reload_rejected",
                        text.join("; "),
                    ));
                }
            }
        }
        Reload::Rejected { diagnostics } => {
            tracing::error!("reload rejected, the last good files keep running:\n{diagnostics}");
            let mut event = Event::new(
                wall_clock(),
                "reload_rejected",
                "files have errors; the last good files keep running",
            );
            event.diagnostics = diagnostics.items().to_vec();
            publish_event(&event);
        }
    }
}
