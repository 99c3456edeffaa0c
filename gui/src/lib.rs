//! `decision-viewer`: the egui dashboard of the robot decision node.
//!
//! It shows one [`source::Source`] at a time: the embedded simulation ([`sim::SimSource`],
//! node and fake publisher in process), the live bus ([`live::LiveSource`], on the
//! [`link::BusLink`] that the soccer view's live adapter uses too) or an MCAP recording ([`recording::RecordingSource`]), and renders the
//! RoboMaster map, the decision table, the decision tree and the node's health from the shared
//! [`model::View`]. The app is [`app::ViewerApp`]. The soccer view ([`soccer`]) draws a
//! five-a-side match from its own scene model.

#![warn(missing_docs)]

pub mod app;
pub mod link;
pub mod live;
pub mod map_labels;
pub mod map_view;
pub mod model;
pub mod recording;
pub mod settings;
pub mod sim;
pub mod soccer;
pub mod source;
pub mod tables_view;
pub mod tree_view;
pub mod window;

use std::path::{Path, PathBuf};

/// The repository's sample folder (`sample/` beside this crate), relative to the current
/// directory when it lies below it, so the source bar reads `sample/config.json` rather than
/// an absolute path with `..` in it.
pub fn sample_dir() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample = crate_dir.parent().unwrap_or(crate_dir).join("sample");
    std::env::current_dir()
        .ok()
        .and_then(|here| sample.strip_prefix(here).ok().map(Path::to_path_buf))
        .filter(|relative| !relative.as_os_str().is_empty())
        .unwrap_or(sample)
}

/// The sample configuration file.
pub fn sample_config() -> PathBuf {
    sample_dir().join("config.json")
}

/// The sample scenario used when none is given.
pub fn sample_scenario() -> PathBuf {
    sample_dir().join("scenarios").join("hp_retreat.json5")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sample_path_has_no_parent_steps() {
        let path = super::sample_config();
        assert!(path.exists(), "{}", path.display());
        assert!(
            !path
                .components()
                .any(|c| c == std::path::Component::ParentDir),
            "{}",
            path.display()
        );
    }
}
