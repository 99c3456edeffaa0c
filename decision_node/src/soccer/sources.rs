//! Where a soccer node's parameters and tree come from, loaded and checked as `check` does:
//! the start of `soccer run`, and every hot reload.

use decision_core::engine::TreeSpec;
use soccer_profile::params::{self, Parameters};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The parameters folder with its overrides, and the tree (default: the built-in one).
#[derive(Debug, Clone)]
pub struct SoccerSources {
    /// The parameters folder (with `base/`, `location/`, `robot/`).
    pub params_dir: PathBuf,
    /// The location override folder name.
    pub location: Option<String>,
    /// The robot override folder name.
    pub robot: Option<String>,
    /// A tree file replacing the default.
    pub tree: Option<PathBuf>,
}

/// Parameters and tree that loaded and compiled, or every diagnostic in words.
pub type Loaded = Result<(Arc<Parameters>, TreeSpec), Vec<String>>;

impl SoccerSources {
    /// Loads the parameters and the tree; every problem at once (`file:line:col: ...`).
    pub fn load(&self) -> Loaded {
        let mut parameters = params::load(
            &self.params_dir,
            self.location.as_deref(),
            self.robot.as_deref(),
        )
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?;
        let tree = match &self.tree {
            Some(path) => soccer_profile::tree::load_tree_file(path),
            None => soccer_profile::tree::TreeFile::default_tree(),
        }
        .map_err(|diagnostics| {
            diagnostics
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        })?;
        tree.apply_to(&mut parameters);
        Ok((Arc::new(parameters), tree.spec))
    }

    /// The parameter layers in use: `base/`, then the location and robot folders.
    fn layers(&self) -> Vec<PathBuf> {
        let mut layers = vec![self.params_dir.join("base")];
        if let Some(location) = &self.location {
            layers.push(self.params_dir.join("location").join(location));
        }
        if let Some(robot) = &self.robot {
            layers.push(self.params_dir.join("robot").join(robot));
        }
        layers
    }

    /// The files whose edits reload the node: every `.json5` of the layers, and the tree.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = self
            .layers()
            .iter()
            .filter_map(|layer| std::fs::read_dir(layer).ok())
            .flat_map(|entries| entries.filter_map(Result::ok).map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json5"))
            .collect();
        files.sort();
        files.extend(self.tree.clone());
        files
    }

    /// The sources in words, for the start event.
    pub fn describe(&self) -> String {
        let mut text = format!("parameters {}", self.params_dir.display());
        for (kind, name) in [("location", &self.location), ("robot", &self.robot)] {
            if let Some(name) = name {
                text.push_str(&format!(" ({kind} {name})"));
            }
        }
        let tree = self
            .tree
            .as_deref()
            .unwrap_or(Path::new(soccer_profile::tree::DEFAULT_TREE_NAME));
        text.push_str(&format!(", tree {}", tree.display()));
        text
    }
}
