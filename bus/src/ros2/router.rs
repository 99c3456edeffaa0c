//! A Zenoh router for the ROS 2 graph: what `rmw_zenohd` is to rmw_zenoh nodes (they connect
//! to it as peers; it routes between them and keeps the graph's liveliness tokens), for a
//! machine without ROS 2 installed: the offline loop and the tests.

use crate::transport::BusError;
use zenoh::Wait;

/// A running router; dropping it closes it.
pub struct Router {
    session: zenoh::Session,
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router")
            .field("zid", &self.session.zid())
            .finish()
    }
}

impl Router {
    /// Starts a router listening on `listen` (e.g. `tcp/127.0.0.1:7447`, rmw_zenoh's default),
    /// multicast scouting off.
    pub fn start(listen: &[String]) -> Result<Self, BusError> {
        let mut config = zenoh::Config::default();
        let set = |config: &mut zenoh::Config, key: &str, value: String| {
            config
                .insert_json5(key, &value)
                .map_err(|e| BusError::Config(format!("router {key}: {e}")))
        };
        set(&mut config, "mode", "\"router\"".to_owned())?;
        let endpoints = serde_json::to_string(listen)
            .map_err(|e| BusError::Config(format!("router endpoints: {e}")))?;
        set(&mut config, "listen/endpoints", endpoints)?;
        set(
            &mut config,
            "scouting/multicast/enabled",
            "false".to_owned(),
        )?;
        // rmw_zenohd stamps samples so that transient-local publishers can be queried.
        set(
            &mut config,
            "timestamping/enabled",
            "{ router: true, peer: true, client: true }".to_owned(),
        )?;
        let session = zenoh::open(config)
            .wait()
            .map_err(|e| BusError::Zenoh(format!("router: {e}")))?;
        tracing::info!(zid = %session.zid(), ?listen, "Zenoh router for ROS 2 up");
        Ok(Self { session })
    }

    /// Closes the router.
    pub fn close(self) {
        if let Err(e) = self.session.close().wait() {
            tracing::warn!("closing the router: {e}");
        }
    }
}
