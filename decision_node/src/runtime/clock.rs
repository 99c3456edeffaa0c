//! The live node's clock.

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the UNIX epoch: the node's clock for message ages.
pub fn wall_clock() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}
