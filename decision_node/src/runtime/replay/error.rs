//! What can go wrong in a replay, as values: the command prints them and exits with 2.

use decision_core::engine::CompileError;
use std::path::PathBuf;

/// A replay that cannot run: an unreadable or unwritable file, a config or tree that does not
/// load, a recording without its config, or a usage error.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The recording, snapshot file or config that could not be read.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The extracted attachment or trace output that could not be written.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The MCAP reader refused the file (its message names the file).
    #[error("{0}")]
    Recording(String),
    /// A config that does not load, with its positioned diagnostics.
    #[error("{diagnostics}{}: not loaded, fix the errors above", path.display())]
    ConfigNotLoaded {
        /// The `config.json` given with `--config` / `--base` or extracted from the recording.
        path: PathBuf,
        /// The loader's diagnostics (`file:line:col` lines).
        diagnostics: String,
    },
    /// The decision tree of a loaded config does not compile.
    #[error("{}", join(.0))]
    Compile(Vec<CompileError>),
    /// The recording was not written by this tool (no metadata record).
    #[error("the recording has no robot_decision metadata")]
    NoMetadata,
    /// The metadata names no attachment for one of the config's files.
    #[error("the recording has no {role} attachment")]
    NoAttachment {
        /// `config`, `decisions`, `waypoints` or `map`.
        role: &'static str,
    },
    /// The metadata names an attachment the file does not hold (a cut recording).
    #[error("attachment `{name}` is missing (cut file?)")]
    MissingAttachment {
        /// The attachment's file name.
        name: String,
    },
    /// An attachment name that would leave the extraction folder (`../x`, `/etc/x`).
    #[error("attachment name `{name}` is not a plain file name")]
    UnsafeAttachmentName {
        /// The name as recorded.
        name: String,
    },
    /// The extraction folder could not be made.
    #[error("cannot create a temp dir: {0}")]
    TempDir(std::io::Error),
    /// Neither the recording's config nor `--config` can be used.
    #[error("{}: the recorded config cannot be used; pass --config", file.display())]
    NoUsableConfig {
        /// The recording given to `replay`.
        file: PathBuf,
    },
    /// A snapshot file has no recorded config, so the old side needs `--base`.
    #[error(
        "a snapshot file has no recorded config: pass --base CONFIG (and --config OTHER to compare)"
    )]
    SnapshotsNeedBase,
    /// A trace could not be turned into JSON and back.
    #[error("trace: {0}")]
    Trace(#[from] serde_json::Error),
}

fn join(errors: &[CompileError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
