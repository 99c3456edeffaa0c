//! How to reach the Zenoh network or the ROS 2 graph: [`ZenohOptions`], [`Ros2Options`] and
//! [`BusOptions`] (the command-line flags that fill them are the `bus_cli` crate's).

use std::path::PathBuf;

/// The endpoint the node listens on by default and the other tools connect to by default.
pub const DEFAULT_ENDPOINT: &str = "tcp/127.0.0.1:7447";

/// The robot namespace used when none is given.
pub const DEFAULT_NAMESPACE: &str = "red";

/// Zenoh session mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// A peer: listens and/or connects; peers do not relay for other peers.
    #[default]
    Peer,
    /// A client: connects to a peer or router, waiting (retrying) until it is up.
    Client,
}

impl Mode {
    /// Zenoh's name of the mode (`"peer"`, `"client"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Peer => "peer",
            Self::Client => "client",
        }
    }
}

/// Everything [`Bus::zenoh`](crate::Bus::zenoh) needs to open a session.
///
/// Without `config_file` the session starts from Zenoh's defaults made loopback-safe: multicast
/// and gossip scouting off (unless `multicast_scouting`), exactly `listen` and `connect` as
/// endpoints. With `config_file` the file is the base: non-empty `listen` / `connect` replace
/// the file's lists, `Mode::Client` replaces its mode (`Mode::Peer` keeps the file's mode),
/// `multicast_scouting = true` turns scouting on, and the safety settings (scouting off, a
/// client waiting for its listener) fill in only what the file leaves unset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZenohOptions {
    /// Peer or client.
    pub mode: Mode,
    /// Endpoints to listen on, e.g. `tcp/127.0.0.1:7447`.
    pub listen: Vec<String>,
    /// Endpoints to connect to, e.g. `tcp/192.168.1.10:7447`.
    pub connect: Vec<String>,
    /// Robot namespace prefixed to every key (`red/obj_hp`); empty for no prefix.
    pub namespace: String,
    /// A Zenoh JSON5 configuration file used as the base configuration.
    pub config_file: Option<PathBuf>,
    /// Enable UDP multicast scouting (off by default: it leaves the loopback).
    pub multicast_scouting: bool,
}

impl ZenohOptions {
    /// The Zenoh configuration the JSON transport opens its session with (the precedence rules
    /// above), for checks and tools.
    pub fn session_config(&self) -> Result<zenoh::Config, crate::BusError> {
        crate::session::zenoh_config(self)
    }
}

impl Default for ZenohOptions {
    /// Peer listening on `tcp/127.0.0.1:7447`, no connect, namespace `red`, no file, scouting off.
    fn default() -> Self {
        Self {
            mode: Mode::Peer,
            listen: vec![DEFAULT_ENDPOINT.to_owned()],
            connect: Vec::new(),
            namespace: DEFAULT_NAMESPACE.to_owned(),
            config_file: None,
            multicast_scouting: false,
        }
    }
}

/// The ROS 2 distribution whose rmw_zenoh wire format the ROS 2 transport speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Distro {
    /// Humble (rmw_zenoh 0.1.x): no type hashes in the key expressions.
    #[default]
    Humble,
    /// Jazzy (rmw_zenoh 0.2.x): RIHS01 type hashes in the key expressions.
    Jazzy,
}

impl Distro {
    /// The distribution's name as `--ros-distro` takes it (`"humble"`, `"jazzy"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Humble => "humble",
            Self::Jazzy => "jazzy",
        }
    }
}

/// Everything [`Bus::ros2`](crate::Bus::ros2) needs: where the Zenoh session connects (the
/// rmw_zenoh router, usually `tcp/127.0.0.1:7447`), the ROS domain and distribution, and the
/// node's name and namespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ros2Options {
    /// The session: mode, endpoints, configuration file, scouting (its `namespace` is unused).
    pub zenoh: ZenohOptions,
    /// `ROS_DOMAIN_ID`.
    pub domain_id: u32,
    /// Which rmw_zenoh wire format.
    pub distro: Distro,
    /// The node's name in the ROS graph.
    pub node_name: String,
    /// The node's namespace ("" for the root): relative topic names resolve under it.
    pub ros_namespace: String,
}

impl Ros2Options {
    /// The Zenoh configuration the ROS 2 transport opens its session with: `zenoh`'s flags and
    /// file with the same precedence as [`ZenohOptions::session_config`] (a client waits and
    /// retries likewise), over rmw_zenoh's session defaults where no file is named (the file
    /// of `ZENOH_SESSION_CONFIG_URI` when set, as rmw_zenoh reads it).
    #[cfg(feature = "ros2")]
    pub fn session_config(&self) -> Result<zenoh::Config, crate::BusError> {
        let uri = std::env::var_os(crate::session::RMW_SESSION_CONFIG_URI);
        let defaults = crate::session::rmw_defaults(uri.as_deref())?;
        crate::session::session_config(
            &self.zenoh,
            crate::session::Defaults::Rmw(Box::new(defaults)),
        )
    }

    /// Node `node_name` joining the graph the rmw_zenoh way through the router at `router`
    /// (a peer connected to it, listening on a free loopback port for direct links), domain 0,
    /// Humble, the root namespace, multicast scouting off.
    pub fn via_router(router: &str, node_name: &str) -> Self {
        Self {
            zenoh: ZenohOptions {
                mode: Mode::Peer,
                listen: vec!["tcp/127.0.0.1:0".to_owned()],
                connect: vec![router.to_owned()],
                namespace: String::new(),
                config_file: None,
                multicast_scouting: false,
            },
            domain_id: 0,
            distro: Distro::Humble,
            node_name: node_name.to_owned(),
            ros_namespace: String::new(),
        }
    }
}

/// Which bus to open: JSON on our own Zenoh keys, or ROS 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BusOptions {
    /// [`Bus::zenoh`](crate::Bus::zenoh).
    Zenoh(ZenohOptions),
    /// [`Bus::ros2`](crate::Bus::ros2).
    Ros2(Ros2Options),
}

impl BusOptions {
    /// A tool that follows the bus at `endpoint` (the viewers): a Zenoh client under
    /// `namespace`, or with `ros2_node` a ROS 2 node of that name through the router there.
    pub fn follower(endpoint: &str, namespace: &str, ros2_node: Option<&str>) -> Self {
        match ros2_node {
            Some(name) => Self::Ros2(Ros2Options::via_router(endpoint, name)),
            None => Self::Zenoh(ZenohOptions {
                mode: Mode::Client,
                listen: Vec::new(),
                connect: vec![endpoint.to_owned()],
                namespace: namespace.to_owned(),
                config_file: None,
                multicast_scouting: false,
            }),
        }
    }

    /// The Zenoh session's options (also under ROS 2).
    pub fn zenoh(&self) -> &ZenohOptions {
        match self {
            Self::Zenoh(options) => options,
            Self::Ros2(options) => &options.zenoh,
        }
    }

    /// Opens the bus.
    pub fn open(&self) -> Result<crate::Bus, crate::BusError> {
        match self {
            Self::Zenoh(options) => crate::Bus::zenoh(options),
            Self::Ros2(options) => crate::Bus::ros2(options),
        }
    }
}
