//! Loading a whole configuration: `config.json`, then the decision, waypoint and map files it
//! names (resolved like the original layout), with every error of every file reported at once.

use super::config::{RmConfig, key_pos, read_config_lenient};
use super::decisions::{LoadedDecision, SKIP, read_decisions};
use super::diagnostics::{Diagnostics, Place};
use super::jsonc::{self, Json, Pos};
use super::waypoints::{LoadedWaypoint, declared_ids, read_waypoints};
use std::path::{Path, PathBuf};
use waypoint_graph::map::decode_png_grey;
use waypoint_graph::{MapError, ObstacleMap, WaypointGraph};

/// Everything the engine needs, loaded and checked.
#[derive(Debug)]
pub struct Tables {
    /// The `config` object (thresholds, paths, seek circle, field size).
    pub config: RmConfig,
    /// Decisions in file order, with source positions.
    pub decisions: Vec<LoadedDecision>,
    /// Waypoints with source positions, in file order.
    pub waypoints: Vec<LoadedWaypoint>,
    /// The `connect` graph.
    pub graph: WaypointGraph,
    /// The obstacle map, resized like the original.
    pub map: ObstacleMap,
    /// The files these tables came from.
    pub files: SourceFiles,
}

/// Paths of the files a configuration consists of, as resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceFiles {
    /// `config.json` itself, as given on the command line.
    pub config: PathBuf,
    /// The decisions file the config names, found as [`resolve`] finds it.
    pub decisions: PathBuf,
    /// The waypoints file the config names, found as [`resolve`] finds it.
    pub waypoints: PathBuf,
    /// The obstacle map image (PNG) the config names, found as [`resolve`] finds it.
    pub map: PathBuf,
}

impl SourceFiles {
    /// All four paths, e.g. for a file watcher.
    pub fn all(&self) -> [&Path; 4] {
        [&self.config, &self.decisions, &self.waypoints, &self.map]
    }
}

/// The result of loading: the tables when there was no error, and all diagnostics.
#[derive(Debug)]
pub struct LoadOutcome {
    /// `Some` when there was no error.
    pub tables: Option<Tables>,
    /// Errors and warnings of all files.
    pub diagnostics: Diagnostics,
}

/// Candidate locations of a file named in the config: the config's folder, then the
/// `resources/` and `JsonFile/` folders beside it (the original's layout), then inside it.
pub fn resolve(config_path: &Path, name: &str) -> Option<PathBuf> {
    let named = Path::new(name);
    if named.is_absolute() {
        return named.is_file().then(|| named.to_path_buf());
    }
    // `..` in the config path must be resolved before looking beside its folder.
    let canonical = config_path.canonicalize().ok();
    let dir = canonical
        .as_deref()
        .unwrap_or(config_path)
        .parent()
        .unwrap_or(Path::new("."));
    let parent = dir.parent().unwrap_or(Path::new(".."));
    [
        dir.join(named),
        parent.join("resources").join(named),
        parent.join("JsonFile").join(named),
        dir.join("resources").join(named),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// Reads and parses one JSON file, reporting I/O and syntax errors.
pub fn read_json(path: &Path, shown: &str, diags: &mut Diagnostics) -> Option<Json> {
    let place = Place {
        file: shown,
        subject: None,
    };
    let text = match jsonc::read_text(path) {
        Ok(text) => text,
        Err(e) => {
            let pos = e.pos().unwrap_or(Pos { line: 0, column: 0 });
            diags.error(&place, pos, None, e.to_string());
            return None;
        }
    };
    match jsonc::parse(&text) {
        Ok(doc) => Some(doc),
        Err(e) => {
            diags.error(&place, e.pos, None, format!("syntax error: {}", e.message));
            None
        }
    }
}

/// Loads a configuration and everything it names.
pub fn load(config_path: &Path) -> LoadOutcome {
    let mut diags = Diagnostics::default();
    let tables = load_into(config_path, &mut diags);
    let tables = if diags.has_errors() { None } else { tables };
    LoadOutcome {
        tables,
        diagnostics: diags,
    }
}

fn load_into(config_path: &Path, diags: &mut Diagnostics) -> Option<Tables> {
    let config_shown = config_path.display().to_string();
    let config_doc = read_json(config_path, &config_shown, diags)?;
    // A config with bad values still names the other files: check them in the same run.
    let config_errors = diags.errors().count();
    let config = read_config_lenient(&config_doc, &config_shown, diags)?;
    let config_ok = diags.errors().count() == config_errors;
    let config_place = Place {
        file: &config_shown,
        subject: None,
    };
    let find = |key: &str, name: &str, diags: &mut Diagnostics| {
        if name.is_empty() {
            // Reported by the config check.
            return None;
        }
        let found = resolve(config_path, name);
        if found.is_none() {
            diags.error(
                &config_place,
                key_pos(&config_doc, key),
                Some(key),
                format!("file \"{name}\" not found next to the config, nor in its resources/ or JsonFile/ siblings"),
            );
        }
        found
    };
    let decisions_path = find("DecisionsPATH", &config.decisions_path, diags);
    let waypoints_path = find("WayPointsPATH", &config.waypoints_path, diags);
    let map_path = find("MAP_PATH", &config.map_path, diags);

    let waypoints_doc = waypoints_path
        .as_ref()
        .and_then(|p| read_json(p, &p.display().to_string(), diags));
    let waypoints = waypoints_doc
        .as_ref()
        .zip(waypoints_path.as_ref())
        .map(|(doc, p)| read_waypoints(doc, &p.display().to_string(), diags));
    // Ids of every waypoint entry, also of those left out for errors of their own; `None`
    // when the waypoint file has no usable list (references cannot be judged then).
    let declared = waypoints_doc.as_ref().and_then(declared_ids);
    let decisions = decisions_path.as_ref().and_then(|p| {
        let shown = p.display().to_string();
        read_json(p, &shown, diags).map(|doc| read_decisions(&doc, &shown, diags))
    });
    if let (Some(decisions), Some(known), Some(path)) = (&decisions, &declared, &decisions_path) {
        check_references(decisions, known, &path.display().to_string(), diags);
    }
    // Without a usable field size (already reported) the map cannot be scaled, but whether
    // it decodes is still checked.
    let sized = config.real_width > 0.0 && config.real_height > 0.0;
    let map = map_path.as_ref().and_then(|p| {
        let loaded = if sized {
            ObstacleMap::load_png(p, config.real_width, config.real_height).map(Some)
        } else {
            check_png(p).map(|()| None)
        };
        loaded.unwrap_or_else(|e| {
            diags.error(
                &config_place,
                key_pos(&config_doc, "MAP_PATH"),
                Some("MAP_PATH"),
                format!("{e}"),
            );
            None
        })
    });
    if !config_ok {
        return None;
    }
    let waypoints = waypoints?;
    let graph = match WaypointGraph::new(waypoints.iter().map(|w| w.waypoint.clone()).collect()) {
        Ok(graph) => graph,
        // Every graph error was already reported with its position.
        Err(_) => return None,
    };
    Some(Tables {
        files: SourceFiles {
            config: config_path.to_path_buf(),
            decisions: decisions_path?,
            waypoints: waypoints_path?,
            map: map_path?,
        },
        config,
        decisions: decisions?,
        waypoints,
        graph,
        map: map?,
    })
}

/// Reads and decodes a map PNG without scaling it.
fn check_png(path: &Path) -> Result<(), MapError> {
    let bytes = std::fs::read(path).map_err(|source| MapError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode_png_grey(&bytes)
        .map(drop)
        .map_err(|source| MapError::Decode {
            path: path.to_path_buf(),
            source,
        })
}

/// Every waypoint id a decision names must be one of `declared`; each unknown id is reported
/// where it stands.
fn check_references(
    decisions: &[LoadedDecision],
    declared: &[i32],
    file: &str,
    diags: &mut Diagnostics,
) {
    let known = |id: i32| declared.contains(&id);
    for loaded in decisions {
        let d = &loaded.decision;
        let subject = d.subject();
        let place = Place {
            file,
            subject: Some(&subject),
        };
        // Below -1 is already an error of the decision itself.
        if d.decide_waypoint > SKIP && !known(d.decide_waypoint) {
            diags.error(
                &place,
                loaded.positions.of("decide_wayPoint"),
                Some("decide_wayPoint"),
                format!("unknown waypoint id {}", d.decide_waypoint),
            );
        }
        let lists = std::iter::once(("wayPointID", None, &d.waypoint_ids))
            .chain(
                d.enemy_position
                    .iter()
                    .enumerate()
                    .map(|(i, l)| ("enemyPosition", Some(i), l)),
            )
            .chain(
                d.friend_position
                    .iter()
                    .enumerate()
                    .map(|(i, l)| ("friendPosition", Some(i), l)),
            );
        for (key, slot, list) in lists {
            if list.first() == Some(&SKIP) {
                continue;
            }
            let field = slot.map_or(key.to_string(), |i| format!("{key}[{i}]"));
            for (i, id) in list
                .iter()
                .enumerate()
                .filter(|(_, id)| **id != SKIP && !known(**id))
            {
                diags.error(
                    &place,
                    loaded.positions.item(&format!("{field}[{i}]")),
                    Some(&field),
                    format!("unknown waypoint id {id}"),
                );
            }
        }
    }
}
