//! Errors of loading or building an obstacle map.

use std::fmt;
use std::path::PathBuf;

use thiserror::Error;

/// Where a map came from, for error messages: a file, or a buffer handed over in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapOrigin(pub Option<PathBuf>);

impl fmt::Display for MapOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(p) => write!(f, "map file `{}`", p.display()),
            None => f.write_str("in-memory map"),
        }
    }
}

/// Why an obstacle map could not be made; every variant names the map and what failed.
#[derive(Debug, Error)]
pub enum MapError {
    /// The file could not be read.
    #[error("map file `{}`: cannot read: {source}", path.display())]
    Io {
        /// Path of the PNG, as given to the loader.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The bytes are not a PNG the decoder understands.
    #[error("map file `{}`: cannot decode PNG: {source}", path.display())]
    Decode {
        /// Path of the PNG, as given to the loader.
        path: PathBuf,
        /// The decoder's error.
        source: image::ImageError,
    },
    /// The image has no pixels.
    #[error("{origin}: image is empty ({width} x {height})")]
    Empty {
        /// The file it was read from, or none for an in-memory buffer.
        origin: MapOrigin,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// The field size or the buffer size is unusable.
    #[error("{origin}: bad size: {reason}")]
    BadSize {
        /// The file it was read from, or none for an in-memory buffer.
        origin: MapOrigin,
        /// What is wrong, in words.
        reason: String,
    },
}
