//! Loading a parameters folder. (Temporary loader without positions; replaced by the
//! positioned one.)

use super::Parameters;
use std::path::{Path, PathBuf};

/// A parameter file problem: `file:line:col: error: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: error: {message}")]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

/// Loads `dir` with the optional location and robot overrides.
pub fn load(
    dir: &Path,
    location: Option<&str>,
    robot: Option<&str>,
) -> Result<Parameters, Vec<LoadError>> {
    load_with(dir, location, robot)
}

/// Same as [`load`].
pub fn load_with(
    dir: &Path,
    _location: Option<&str>,
    _robot: Option<&str>,
) -> Result<Parameters, Vec<LoadError>> {
    let read = |name: &str| -> Result<serde_json::Value, Vec<LoadError>> {
        let file = dir.join("base").join(name);
        let text = std::fs::read_to_string(&file).map_err(|e| {
            vec![LoadError {
                file: file.clone(),
                line: 1,
                column: 1,
                message: format!("cannot read: {e}"),
            }]
        })?;
        json5::from_str(&text).map_err(|e| {
            vec![LoadError {
                file: file.clone(),
                line: 1,
                column: 1,
                message: e.to_string(),
            }]
        })
    };
    let value = serde_json::json!({
        "behavior_node": read("behavior_node.json5")?,
        "search_suggestor": read("search_suggestor.json5")?,
        "field": read("field.json5")?,
    });
    serde_json::from_value(value).map_err(|e| {
        vec![LoadError {
            file: dir.to_path_buf(),
            line: 1,
            column: 1,
            message: e.to_string(),
        }]
    })
}
