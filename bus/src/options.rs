//! How to reach the Zenoh network: [`ZenohOptions`] for code, [`BusArgs`] for command lines.

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

/// Bus flags shared by the node, the fake publisher and the viewer (flatten into a clap parser).
#[derive(Debug, Clone, PartialEq, Eq, Default, clap::Args)]
pub struct BusArgs {
    /// Zenoh endpoint to listen on, e.g. tcp/127.0.0.1:7447 (repeatable).
    #[arg(long, value_name = "ENDPOINT")]
    pub listen: Vec<String>,
    /// Zenoh endpoint to connect to, e.g. tcp/192.168.1.10:7447 (repeatable).
    #[arg(long, value_name = "ENDPOINT")]
    pub connect: Vec<String>,
    /// Robot namespace prefixed to every key (`red/obj_hp`); empty for none.
    #[arg(long, value_name = "NS", default_value = DEFAULT_NAMESPACE)]
    pub namespace: String,
    /// Zenoh configuration file (JSON5, Zenoh's own format); the flags given override it.
    #[arg(long = "zenoh-config", value_name = "FILE")]
    pub zenoh_config: Option<PathBuf>,
    /// Run as a Zenoh client (connect and wait for the listener) instead of a peer.
    #[arg(long)]
    pub client: bool,
    /// Enable UDP multicast scouting (off by default).
    #[arg(long)]
    pub multicast_scouting: bool,
}

impl BusArgs {
    /// The session options these flags ask for.
    ///
    /// When neither `--listen`, `--connect` nor `--zenoh-config` is given: with
    /// `default_listen` (the node) listen as a peer on `tcp/127.0.0.1:7447`; without it (the
    /// fake publisher, the viewer) connect to that endpoint as a client. A side that only
    /// connects (no `--listen`) and has `default_listen == false` is a client; `--client`
    /// always makes a client.
    pub fn options(&self, default_listen: bool) -> ZenohOptions {
        let mut listen = self.listen.clone();
        let mut connect = self.connect.clone();
        if listen.is_empty() && connect.is_empty() && self.zenoh_config.is_none() {
            if default_listen {
                listen.push(DEFAULT_ENDPOINT.to_owned());
            } else {
                connect.push(DEFAULT_ENDPOINT.to_owned());
            }
        }
        let client = self.client
            || (!default_listen && self.listen.is_empty() && self.zenoh_config.is_none());
        ZenohOptions {
            mode: if client { Mode::Client } else { Mode::Peer },
            listen,
            connect,
            namespace: self.namespace.clone(),
            config_file: self.zenoh_config.clone(),
            multicast_scouting: self.multicast_scouting,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        bus: BusArgs,
    }

    fn parse(args: &[&str]) -> Option<BusArgs> {
        Cli::try_parse_from(std::iter::once("x").chain(args.iter().copied()))
            .ok()
            .map(|c| c.bus)
    }

    #[test]
    fn node_listens_by_default() {
        let opts = parse(&[]).map(|a| a.options(true));
        assert_eq!(opts, Some(ZenohOptions::default()));
    }

    #[test]
    fn tools_connect_as_clients_by_default() {
        let opts = parse(&[]).map(|a| a.options(false));
        assert_eq!(opts.as_ref().map(|o| o.mode), Some(Mode::Client));
        assert_eq!(
            opts.as_ref().map(|o| o.connect.clone()),
            Some(vec![DEFAULT_ENDPOINT.to_owned()])
        );
        assert_eq!(opts.map(|o| o.listen), Some(Vec::new()));
    }

    #[test]
    fn flags_are_repeatable_and_override_defaults() {
        let args = parse(&[
            "--connect",
            "tcp/10.0.0.2:7447",
            "--connect",
            "tcp/10.0.0.3:7447",
            "--namespace",
            "blue",
            "--multicast-scouting",
        ]);
        let opts = args.map(|a| a.options(true));
        assert_eq!(opts.as_ref().map(|o| o.connect.len()), Some(2));
        assert_eq!(opts.as_ref().map(|o| o.listen.is_empty()), Some(true));
        assert_eq!(opts.as_ref().map(|o| o.mode), Some(Mode::Peer));
        assert_eq!(opts.as_ref().map(|o| o.namespace.as_str()), Some("blue"));
        assert_eq!(opts.map(|o| o.multicast_scouting), Some(true));
    }

    #[test]
    fn config_file_suppresses_default_endpoints() {
        let opts = parse(&["--zenoh-config", "z.json5"]).map(|a| a.options(false));
        assert_eq!(
            opts.as_ref()
                .map(|o| o.connect.is_empty() && o.listen.is_empty()),
            Some(true)
        );
        assert_eq!(opts.as_ref().map(|o| o.mode), Some(Mode::Peer));
        let opts = parse(&["--zenoh-config", "z.json5", "--client"]).map(|a| a.options(false));
        assert_eq!(opts.map(|o| o.mode), Some(Mode::Client));
    }
}
