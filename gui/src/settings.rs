//! Settings kept between runs in eframe's storage: the last source, the panels and the map zoom.

use serde::{Deserialize, Serialize};

/// Key of the settings in eframe's storage.
pub const SETTINGS_KEY: &str = "decision-viewer-settings";

/// Which source to open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SourceSetting {
    /// The embedded simulation of a config and a scenario.
    Sim {
        /// Config file.
        config: String,
        /// Scenario file.
        scenario: String,
    },
    /// A node followed live over Zenoh.
    Live {
        /// Zenoh endpoint.
        endpoint: String,
        /// Robot namespace.
        namespace: String,
        /// Config whose map and waypoints are drawn.
        config: String,
        /// Follow a node on ROS 2 (rmw_zenoh) instead of our JSON keys.
        #[serde(default)]
        ros2: bool,
    },
    /// An MCAP recording.
    Recording {
        /// Path of the MCAP file.
        file: String,
        /// Config used when the recording has no attached files.
        config: String,
    },
}

/// Everything persisted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The last source opened successfully, reopened at start unless the command line names one.
    pub source: SourceSetting,
    /// Show the decision table panel.
    pub show_decisions: bool,
    /// Show the tree panel.
    pub show_tree: bool,
    /// Show the events and health panel.
    pub show_events: bool,
    /// Map zoom (1 = fit).
    pub zoom: f32,
    /// Map pan in screen points.
    pub pan: [f32; 2],
    /// Draw waypoint names.
    pub show_names: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            source: SourceSetting::Sim {
                config: crate::sample_config().display().to_string(),
                scenario: crate::sample_scenario().display().to_string(),
            },
            show_decisions: true,
            show_tree: true,
            show_events: true,
            zoom: 1.0,
            pan: [0.0, 0.0],
            show_names: true,
        }
    }
}
