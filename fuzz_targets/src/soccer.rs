//! The soccer profile's inputs from outside: `soccer decide` / `soccer heatmap` frame lines
//! and the parameter files.

use soccer_profile::decider::SoccerDecider;
use soccer_profile::frame::Frame;
use soccer_profile::params::{FILE_STEMS, Parameters};
use soccer_profile::search::{HeatmapFrame, SearchSuggestor};
use std::sync::Arc;

/// Lines of frames (split at newlines): the first byte chooses `soccer decide` frames or
/// `soccer heatmap` frames; every line that parses is decided / folded into the heatmap.
pub fn frames(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let params = Parameters::default();
    if which % 2 == 0 {
        let Ok(spec) = soccer_profile::tree::default_spec() else {
            return;
        };
        let Ok(mut decider) = SoccerDecider::new(&spec, Arc::new(params)) else {
            return;
        };
        for frame in text.lines().filter_map(|l| Frame::parse(l).ok()) {
            let _ = decider.decide(&frame);
        }
    } else {
        let mut suggestor = SearchSuggestor::new(params.search_suggestor, params.field);
        for frame in text.lines().filter_map(|l| HeatmapFrame::parse(l).ok()) {
            let _ = suggestor.update(&frame);
        }
    }
}

/// One parameter file (the first byte chooses which of the three) in a folder's `base/`,
/// loaded as `--params` loads it.
pub fn params(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let base = dir.path().join("base");
    let stem = FILE_STEMS[usize::from(which) % FILE_STEMS.len()];
    if std::fs::create_dir(&base).is_err()
        || std::fs::write(base.join(format!("{stem}.json5")), rest).is_err()
    {
        return;
    }
    // What loads must be usable: the grids and the decider are built from it.
    let Ok(params) = soccer_profile::params::load(dir.path(), None, None) else {
        return;
    };
    let suggestor = SearchSuggestor::new(params.search_suggestor.clone(), params.field.clone());
    let _ = suggestor.output(0.0);
    if let Ok(spec) = soccer_profile::tree::default_spec()
        && let Ok(mut decider) = SoccerDecider::new(&spec, Arc::new(params))
        && let Ok(frame) = Frame::parse(
            r#"{"t": 0.0, "player_number": 4, "primary_state": "playing", "pose": {"x": 0, "y": 0, "yaw": 0}}"#,
        )
    {
        let _ = decider.decide(&frame);
    }
}
