//! The command-line flags of the bus, shared by the node, the fake publisher and the viewer:
//! [`BusArgs`] flattens into a clap parser and gives the `bus` crate's options, so the
//! transport itself knows no command line.

use bus::{
    BusOptions, DEFAULT_ENDPOINT, DEFAULT_NAMESPACE, Distro, Mode, Ros2Options, ZenohOptions,
};
use std::path::PathBuf;

/// The ROS 2 distribution as `--ros-distro` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DistroArg {
    /// Humble (rmw_zenoh 0.1.x): no type hashes in the key expressions.
    #[default]
    Humble,
    /// Jazzy (rmw_zenoh 0.2.x): RIHS01 type hashes in the key expressions.
    Jazzy,
}

impl From<DistroArg> for Distro {
    fn from(arg: DistroArg) -> Self {
        match arg {
            DistroArg::Humble => Distro::Humble,
            DistroArg::Jazzy => Distro::Jazzy,
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
    /// Speak ROS 2 (rmw_zenoh: CDR, the original's topic names, TF, the Nav2 action) instead
    /// of JSON on our own keys; connects to the rmw_zenoh router on tcp/127.0.0.1:7447 unless
    /// --listen / --connect / --zenoh-config say otherwise (--client waits for it).
    #[arg(long)]
    pub ros2: bool,
    /// ROS domain id (with --ros2; default: ROS_DOMAIN_ID, else 0).
    #[arg(long, value_name = "N", requires = "ros2")]
    pub domain: Option<u32>,
    /// ROS 2 distribution of the other nodes (with --ros2).
    #[arg(long, value_enum, default_value = "humble", requires = "ros2")]
    pub ros_distro: DistroArg,
    /// ROS namespace of the node (with --ros2; default: the root, as the original).
    #[arg(long, value_name = "NS", requires = "ros2", default_value = "")]
    pub ros_namespace: String,
}

impl BusArgs {
    /// The ROS 2 options these flags ask for, for a node named `node_name`. `--listen`,
    /// `--connect`, `--zenoh-config` and `--client` mean what they mean for the JSON transport
    /// (the same session configuration: `bus::Ros2Options::session_config`). Without them the
    /// session is a peer that connects to the rmw_zenoh router's default endpoint (as every
    /// rmw_zenoh node does) and, unless a client, listens on a free loopback port.
    pub fn ros2_options(&self, node_name: &str) -> Result<Ros2Options, String> {
        let mut zenoh = self.options(false);
        if self.listen.is_empty() && self.zenoh_config.is_none() && !self.client {
            // As rmw_zenoh's peers: a free local port for direct links to other peers.
            zenoh.listen = vec!["tcp/127.0.0.1:0".to_owned()];
        }
        if !self.client {
            zenoh.mode = Mode::Peer;
        }
        let domain_id = match self.domain {
            Some(d) => d,
            None => match std::env::var("ROS_DOMAIN_ID") {
                Ok(text) if !text.trim().is_empty() => text
                    .trim()
                    .parse()
                    .map_err(|_| format!("ROS_DOMAIN_ID `{text}` is not a domain id (0..=232)"))?,
                _ => 0,
            },
        };
        if domain_id > 232 {
            return Err(format!(
                "ROS domain id {domain_id} is out of range (0..=232)"
            ));
        }
        Ok(Ros2Options {
            zenoh,
            domain_id,
            distro: self.ros_distro.into(),
            node_name: node_name.to_owned(),
            ros_namespace: self.ros_namespace.trim_end_matches('/').to_owned(),
        })
    }

    /// The bus these flags ask for: ROS 2 with `--ros2` (as node `node_name`), else Zenoh
    /// ([`options`](Self::options) with `default_listen`); an error names a bad ROS 2 flag.
    pub fn bus_options(&self, default_listen: bool, node_name: &str) -> Result<BusOptions, String> {
        Ok(if self.ros2 {
            BusOptions::Ros2(self.ros2_options(node_name)?)
        } else {
            BusOptions::Zenoh(self.options(default_listen))
        })
    }

    /// Opens the bus of [`bus_options`](Self::bus_options).
    pub fn open(&self, default_listen: bool, node_name: &str) -> Result<bus::Bus, bus::BusError> {
        self.bus_options(default_listen, node_name)
            .map_err(bus::BusError::Config)?
            .open()
    }

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
    fn ros2_nodes_are_peers_of_the_router_by_default() {
        let opts = parse(&["--ros2", "--domain", "7", "--ros-namespace", "/red/"])
            .map(|a| a.ros2_options("robot_decision"));
        let Some(Ok(opts)) = opts else {
            panic!("{opts:?}");
        };
        assert_eq!(opts.zenoh.mode, Mode::Peer);
        assert_eq!(opts.zenoh.connect, vec![DEFAULT_ENDPOINT.to_owned()]);
        assert_eq!(opts.zenoh.listen, vec!["tcp/127.0.0.1:0".to_owned()]);
        assert_eq!(
            (opts.domain_id, opts.ros_namespace.as_str(), opts.distro),
            (7, "/red", Distro::Humble)
        );
        let opts = parse(&["--ros2", "--listen", "tcp/127.0.0.1:7447"])
            .map(|a| a.ros2_options("fake_publisher"));
        let Some(Ok(opts)) = opts else {
            panic!("{opts:?}");
        };
        assert_eq!(opts.zenoh.listen, vec!["tcp/127.0.0.1:7447".to_owned()]);
        assert!(opts.zenoh.connect.is_empty());
        let bad = parse(&["--ros2", "--domain", "233"]).map(|a| a.ros2_options("x"));
        assert!(bad.is_some_and(|r| r.is_err_and(|e| e.contains("233"))));
        assert!(parse(&["--domain", "1"]).is_none(), "--domain needs --ros2");
    }

    /// The value of `key` a session opens with: an unset connect retry is Zenoh's default
    /// (which rmw_zenoh's session configuration writes out unchanged).
    fn effective(
        config: &zenoh::Config,
        key: &str,
    ) -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
        let value = config.get_json(key)?;
        Ok(match (key, value.as_str()) {
            ("connect/timeout_ms", "null") => r#"{"router":-1,"peer":-1,"client":0}"#.to_owned(),
            ("connect/exit_on_failure", "null") => {
                r#"{"router":false,"peer":false,"client":true}"#.to_owned()
            }
            _ => value,
        })
    }

    /// `--ros2` with the session flags opens the session the JSON transport opens with them:
    /// the same mode, endpoints, scouting and client retry, from the file where one is named.
    #[test]
    fn ros2_sessions_honour_the_session_flags_as_the_json_transport()
    -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let dir = tempfile::tempdir()?;
        let file = dir.path().join("zenoh.json5");
        std::fs::write(
            &file,
            r#"{ mode: "client", connect: { endpoints: ["tcp/127.0.0.1:9"] },
                 listen: { endpoints: [] } }"#,
        )?;
        let file = file.to_string_lossy().into_owned();
        let keys = [
            "mode",
            "listen/endpoints",
            "connect/endpoints",
            "connect/timeout_ms",
            "connect/exit_on_failure",
            "scouting/multicast/enabled",
        ];
        let cases: [&[&str]; 7] = [
            &["--zenoh-config", &file],
            &["--zenoh-config", &file, "--client"],
            &["--zenoh-config", &file, "--connect", "tcp/127.0.0.1:7450"],
            &["--zenoh-config", &file, "--listen", "tcp/127.0.0.1:7451"],
            &["--client", "--connect", "tcp/127.0.0.1:7450"],
            &[
                "--listen",
                "tcp/127.0.0.1:7451",
                "--connect",
                "tcp/127.0.0.1:7450",
            ],
            &["--listen", "tcp/127.0.0.1:7451", "--multicast-scouting"],
        ];
        for flags in cases {
            let Some(json_args) = parse(flags) else {
                panic!("{flags:?} parse");
            };
            let ros2_flags: Vec<&str> = flags.iter().copied().chain(["--ros2"]).collect();
            let Some(ros2_args) = parse(&ros2_flags) else {
                panic!("{ros2_flags:?} parse");
            };
            let ros2 = ros2_args.ros2_options("robot_decision")?.session_config()?;
            // The node (listening by default) and the tools (connecting by default) alike.
            for default_listen in [true, false] {
                let json = json_args.options(default_listen).session_config()?;
                for key in keys {
                    assert_eq!(
                        effective(&ros2, key)?,
                        effective(&json, key)?,
                        "{flags:?} (default_listen {default_listen}): {key}"
                    );
                }
            }
        }
        // A client waits for its router and retries, as the JSON transport's clients do.
        let client = parse(&["--ros2", "--client", "--connect", "tcp/127.0.0.1:7450"])
            .map(|a| a.ros2_options("x"));
        let Some(Ok(client)) = client else {
            panic!("{client:?}");
        };
        let config = client.session_config()?;
        assert_eq!(config.get_json("connect/timeout_ms")?, "-1");
        assert_eq!(config.get_json("connect/exit_on_failure")?, "false");
        assert_eq!(config.get_json("mode")?, r#""client""#);
        Ok(())
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
