//! The files around a replay: a recording's config restored from its attachments, a config
//! loaded for replay, and whether an input file is MCAP or JSON Lines.

use super::ReplayError;
use bus::recording::{Recording, is_mcap};
use decision_core::robomaster::{Tables, load};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Writes the recorded config files (the attachments) to `dir`, so that the config finds
/// the others; returns the config's path there.
pub fn extract_config(recording: &Recording, dir: &Path) -> Result<PathBuf, ReplayError> {
    let facts = recording.facts().ok_or(ReplayError::NoMetadata)?;
    let attachment = |name: &str| {
        recording
            .attachments
            .iter()
            .find(|a| a.name == name)
            .ok_or_else(|| ReplayError::MissingAttachment {
                name: name.to_string(),
            })
    };
    let config_name = facts
        .get("file.config")
        .ok_or(ReplayError::NoAttachment { role: "config" })?;
    let config = attachment(config_name)?;
    let mut text = String::from_utf8_lossy(&config.data).into_owned();
    for role in ["decisions", "waypoints", "map"] {
        let Some(name) = facts.get(&format!("file.{role}")) else {
            return Err(ReplayError::NoAttachment { role });
        };
        let file = attachment(name)?;
        write_inside(dir, name, &file.data)?;
        // A config naming the file elsewhere (`../x/`, an absolute path) is pointed at the copy.
        if let Some(declared) = facts.get(&format!("declared.{role}"))
            && declared != name
            && let (Ok(from), Ok(to)) =
                (serde_json::to_string(declared), serde_json::to_string(name))
        {
            text = text.replace(&from, &to);
        }
    }
    write_inside(dir, config_name, text.as_bytes())
}

/// Writes `data` as `dir/name`, refusing names that would leave `dir`.
fn write_inside(dir: &Path, name: &str, data: &[u8]) -> Result<PathBuf, ReplayError> {
    let plain = Path::new(name)
        .file_name()
        .is_some_and(|f| f == std::ffi::OsStr::new(name));
    if !plain {
        return Err(ReplayError::UnsafeAttachmentName {
            name: name.to_string(),
        });
    }
    let path = dir.join(name);
    match std::fs::write(&path, data) {
        Ok(()) => Ok(path),
        Err(source) => Err(ReplayError::Write { path, source }),
    }
}

/// Loads a config for replay; the error text includes the diagnostics.
pub fn load_tables(config: &Path) -> Result<Arc<Tables>, ReplayError> {
    let outcome = load::load(config);
    match outcome.tables {
        Some(tables) => Ok(Arc::new(tables)),
        None => Err(ReplayError::ConfigNotLoaded {
            path: config.to_path_buf(),
            diagnostics: outcome.diagnostics.to_string(),
        }),
    }
}

/// What the file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// An MCAP recording.
    Mcap,
    /// JSON Lines snapshots.
    Snapshots,
}

/// MCAP by magic bytes (or a `.mcap` name), else JSON Lines.
pub fn detect(path: &Path) -> Result<InputKind, ReplayError> {
    let unreadable = |source| ReplayError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut head = [0u8; 8];
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let n = std::io::Read::read(&mut file, &mut head).map_err(unreadable)?;
    let by_name = path.extension().is_some_and(|e| e == "mcap");
    if is_mcap(head.get(..n).unwrap_or_default()) || by_name {
        Ok(InputKind::Mcap)
    } else {
        Ok(InputKind::Snapshots)
    }
}

#[cfg(test)]
mod tests {
    use super::{InputKind, ReplayError, detect, extract_config, write_inside};
    use bus::recording::{METADATA_NAME, RecordedAttachment, Recording};

    fn attachment(name: &str, text: &str) -> RecordedAttachment {
        RecordedAttachment {
            name: name.into(),
            media_type: "application/json".into(),
            data: text.as_bytes().to_vec(),
        }
    }

    fn recording(facts: &[(&str, &str)], attachments: Vec<RecordedAttachment>) -> Recording {
        let mut r = Recording {
            attachments,
            ..Recording::default()
        };
        r.metadata.insert(
            METADATA_NAME.into(),
            facts
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        r
    }

    const FACTS: [(&str, &str); 4] = [
        ("file.config", "config.json"),
        ("file.decisions", "decisions.json"),
        ("file.waypoints", "waypoints.json"),
        ("file.map", "map.png"),
    ];

    #[test]
    fn the_config_and_its_files_are_written_and_declared_paths_point_at_the_copies() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut facts = FACTS.to_vec();
        facts.push(("declared.decisions", "../team/decisions.json"));
        let r = recording(
            &facts,
            vec![
                attachment("config.json", r#"{"decisions": "../team/decisions.json"}"#),
                attachment("decisions.json", "[]"),
                attachment("waypoints.json", "[]"),
                attachment("map.png", "png"),
            ],
        );
        let config = extract_config(&r, dir.path()).expect("extracted");
        assert_eq!(config, dir.path().join("config.json"));
        let text = std::fs::read_to_string(&config).expect("config");
        assert_eq!(text, r#"{"decisions": "decisions.json"}"#);
        assert!(dir.path().join("map.png").is_file());
    }

    #[test]
    fn missing_metadata_attachments_and_unsafe_names_are_typed_errors() {
        let dir = tempfile::tempdir().expect("temp dir");
        let bare = Recording::default();
        assert!(matches!(
            extract_config(&bare, dir.path()),
            Err(ReplayError::NoMetadata)
        ));
        let no_map = recording(&FACTS[..3], vec![]);
        assert!(matches!(
            extract_config(&no_map, dir.path()),
            Err(ReplayError::MissingAttachment { name }) if name == "config.json"
        ));
        let cut = recording(
            &FACTS[..3],
            vec![
                attachment("config.json", "{}"),
                attachment("decisions.json", "[]"),
                attachment("waypoints.json", "[]"),
            ],
        );
        let err = extract_config(&cut, dir.path()).expect_err("no map");
        assert_eq!(err.to_string(), "the recording has no map attachment");
        for name in ["../x.json", "/etc/x.json", "sub/x.json", ""] {
            assert!(
                matches!(
                    write_inside(dir.path(), name, b"x"),
                    Err(ReplayError::UnsafeAttachmentName { .. })
                ),
                "{name}"
            );
        }
    }

    #[test]
    fn mcap_is_told_by_its_magic_or_name_and_an_unreadable_file_names_its_path() {
        let dir = tempfile::tempdir().expect("temp dir");
        let magic = dir.path().join("run.bin");
        std::fs::write(&magic, b"\x89MCAP0\r\n...").expect("write");
        let named = dir.path().join("empty.mcap");
        std::fs::write(&named, b"").expect("write");
        let lines = dir.path().join("snapshots.jsonl");
        std::fs::write(&lines, b"{}\n").expect("write");
        assert_eq!(detect(&magic).ok(), Some(InputKind::Mcap));
        assert_eq!(detect(&named).ok(), Some(InputKind::Mcap));
        assert_eq!(detect(&lines).ok(), Some(InputKind::Snapshots));
        let missing = dir.path().join("missing.mcap");
        let err = detect(&missing).expect_err("missing");
        assert!(matches!(err, ReplayError::Read { .. }));
        assert!(
            err.to_string()
                .starts_with(&format!("{}: cannot read:", missing.display()))
        );
    }
}
