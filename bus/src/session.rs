//! The Zenoh session configuration of both transports, built by one function so that
//! `--zenoh-config`, `--listen`, `--connect`, `--client` and `--multicast-scouting` mean the
//! same on our JSON keys and on ROS 2 (see [`ZenohOptions`] for the precedence rules): only
//! what a session starts from without a file differs (Zenoh's defaults made loopback-safe,
//! or rmw_zenoh's session configuration).

use crate::options::{Mode, ZenohOptions};
use crate::transport::BusError;

/// What a session's configuration starts from when no configuration file is given.
#[derive(Debug)]
pub(crate) enum Defaults {
    /// Zenoh's defaults made loopback-safe (gossip off, a 50 ms wait before a message is
    /// dropped): the JSON transport.
    LoopbackZenoh,
    /// rmw_zenoh's session configuration as every rmw_zenoh node starts from (listening on
    /// localhost only, gossip to the router only, timestamps for transient-local topics):
    /// the ROS 2 transport.
    #[cfg_attr(not(feature = "ros2"), allow(dead_code))]
    Rmw(Box<zenoh::Config>),
}

/// The environment variable naming rmw_zenoh's session configuration file (rmw_zenoh_cpp's).
#[cfg(feature = "ros2")]
pub(crate) const RMW_SESSION_CONFIG_URI: &str = "ZENOH_SESSION_CONFIG_URI";

/// rmw_zenoh's session defaults: the file at `uri` (what `ZENOH_SESSION_CONFIG_URI` names)
/// when given, else the configuration every rmw_zenoh node starts from.
#[cfg(feature = "ros2")]
pub(crate) fn rmw_defaults(uri: Option<&std::ffi::OsStr>) -> Result<zenoh::Config, BusError> {
    match uri {
        Some(path) => zenoh::Config::from_file(path).map_err(|e| {
            BusError::Config(format!(
                "{RMW_SESSION_CONFIG_URI} `{}`: {e}",
                path.to_string_lossy()
            ))
        }),
        None => hiroz::config::session_config()
            .map_err(|e| BusError::Config(format!("rmw_zenoh's session configuration: {e}"))),
    }
}

/// The JSON transport's session configuration.
pub(crate) fn zenoh_config(options: &ZenohOptions) -> Result<zenoh::Config, BusError> {
    session_config(options, Defaults::LoopbackZenoh)
}

/// The session configuration of `options` starting from `defaults` when `options` names no
/// file: the file (or the defaults) is the base; non-empty `listen` / `connect` replace its
/// lists; `Mode::Client` replaces its mode (`Mode::Peer` keeps a file's mode);
/// `multicast_scouting` turns scouting on; without a file scouting is off, and a client waits
/// and retries until its listener is up (`connect/timeout_ms = -1`, no exit on failure); with a
/// file those safety settings fill in only what it leaves unset.
pub(crate) fn session_config(
    options: &ZenohOptions,
    defaults: Defaults,
) -> Result<zenoh::Config, BusError> {
    let from_file = options.config_file.is_some();
    let (mut config, loopback_zenoh) = match (&options.config_file, defaults) {
        (Some(path), _) => (
            zenoh::Config::from_file(path).map_err(|err| {
                BusError::Config(format!("zenoh config `{}`: {err}", path.display()))
            })?,
            false,
        ),
        (None, Defaults::LoopbackZenoh) => (zenoh::Config::default(), true),
        (None, Defaults::Rmw(config)) => (*config, false),
    };
    let set = |config: &mut zenoh::Config, key: &str, value: String| {
        config
            .insert_json5(key, &value)
            .map_err(|err| BusError::Config(format!("zenoh config `{key}` = {value}: {err}")))
    };
    let unset = |config: &zenoh::Config, key: &str| {
        config
            .get_json(key)
            .map(|v| v.trim() == "null")
            .unwrap_or(true)
    };

    if !from_file || options.mode == Mode::Client {
        set(&mut config, "mode", json(options.mode.as_str()))?;
    }
    if !from_file || !options.listen.is_empty() {
        set(
            &mut config,
            "listen/endpoints",
            json(options.listen.clone()),
        )?;
    }
    if !from_file || !options.connect.is_empty() {
        set(
            &mut config,
            "connect/endpoints",
            json(options.connect.clone()),
        )?;
    }
    if options.multicast_scouting {
        set(&mut config, "scouting/multicast/enabled", "true".to_owned())?;
    } else if !from_file || unset(&config, "scouting/multicast/enabled") {
        set(
            &mut config,
            "scouting/multicast/enabled",
            "false".to_owned(),
        )?;
    }
    if loopback_zenoh || (from_file && unset(&config, "scouting/gossip/enabled")) {
        set(&mut config, "scouting/gossip/enabled", "false".to_owned())?;
    }
    if loopback_zenoh {
        // A message waits up to 50 ms for a free batch before it is dropped, not zenoh's 1 ms:
        // on a loaded two-core computer the transmit task is not always scheduled within a
        // millisecond (puts were lost in tests), and a late input or decision beats a lost one.
        set(
            &mut config,
            "transport/link/tx/queue/congestion_control/drop/wait_before_drop",
            "50000".to_owned(),
        )?;
    }
    let client = options.mode == Mode::Client
        || (from_file
            && config
                .get_json("mode")
                .map(|m| m.contains("client"))
                .unwrap_or(false));
    if client {
        if !from_file && options.connect.is_empty() && !options.multicast_scouting {
            return Err(BusError::Config(
                "client mode needs at least one connect endpoint".to_owned(),
            ));
        }
        // Wait and retry until the listener is up instead of failing at once.
        if !from_file || unset(&config, "connect/timeout_ms") {
            set(&mut config, "connect/timeout_ms", "-1".to_owned())?;
        }
        if !from_file || unset(&config, "connect/exit_on_failure") {
            set(&mut config, "connect/exit_on_failure", "false".to_owned())?;
        }
    }
    Ok(config)
}

/// A JSON (hence JSON5) rendering of a config value.
fn json(value: impl Into<serde_json::Value>) -> String {
    value.into().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rmw_zenoh-like defaults: what a session starts from on ROS 2 without a file.
    fn rmw_like_defaults() -> zenoh::Config {
        let mut config = zenoh::Config::default();
        for (key, value) in [
            ("mode", r#""peer""#),
            ("connect/endpoints", r#"["tcp/localhost:7447"]"#),
            (
                "connect/timeout_ms",
                r#"{"router": -1, "peer": -1, "client": 0}"#,
            ),
            (
                "connect/exit_on_failure",
                r#"{"router": false, "peer": false, "client": true}"#,
            ),
            (
                "timestamping/enabled",
                "{ router: true, peer: true, client: true }",
            ),
        ] {
            if let Err(e) = config.insert_json5(key, value) {
                panic!("{key}: {e}");
            }
        }
        config
    }

    fn get(config: &zenoh::Config, key: &str) -> String {
        config
            .get_json(key)
            .unwrap_or_else(|e| panic!("{key}: {e}"))
    }

    #[test]
    fn the_flags_replace_the_rmw_defaults_as_they_replace_zenohs() {
        let options = ZenohOptions {
            mode: Mode::Client,
            listen: Vec::new(),
            connect: vec!["tcp/127.0.0.1:7450".to_owned()],
            namespace: String::new(),
            config_file: None,
            multicast_scouting: false,
        };
        let ros = session_config(&options, Defaults::Rmw(Box::new(rmw_like_defaults())))
            .expect("ROS 2 config");
        let json = zenoh_config(&options).expect("JSON config");
        for key in [
            "mode",
            "listen/endpoints",
            "connect/endpoints",
            "connect/timeout_ms",
            "connect/exit_on_failure",
            "scouting/multicast/enabled",
        ] {
            assert_eq!(get(&ros, key), get(&json, key), "{key}");
        }
        assert_eq!(get(&ros, "connect/timeout_ms"), "-1", "a client retries");
        // What only the defaults decide stays each transport's own.
        assert_eq!(get(&json, "scouting/gossip/enabled"), "false");
        assert_ne!(get(&ros, "scouting/gossip/enabled"), "false");
        assert!(get(&ros, "timestamping/enabled").contains("true"));
    }

    #[cfg(feature = "ros2")]
    #[test]
    fn the_rmw_defaults_come_from_zenoh_session_config_uri_when_it_names_a_file()
    -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let builtin = rmw_defaults(None)?;
        assert_eq!(
            get(&builtin, "connect/endpoints"),
            r#"["tcp/localhost:7447"]"#
        );
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("session.json5");
        std::fs::write(
            &path,
            r#"{ connect: { endpoints: ["tcp/10.0.0.9:7447"] } }"#,
        )?;
        let from_file = rmw_defaults(Some(path.as_os_str()))?;
        assert_eq!(
            get(&from_file, "connect/endpoints"),
            r#"["tcp/10.0.0.9:7447"]"#
        );
        let missing = rmw_defaults(Some(dir.path().join("nothing.json5").as_os_str()));
        assert!(
            missing.is_err_and(|e| e.to_string().contains("ZENOH_SESSION_CONFIG_URI")),
            "a missing file is an error naming the variable"
        );
        Ok(())
    }

    #[test]
    fn a_file_is_the_base_for_either_transport() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("robot.json5");
        std::fs::write(
            &path,
            r#"{ mode: "client", connect: { endpoints: ["tcp/127.0.0.1:9"], timeout_ms: 5000 },
                 scouting: { multicast: { enabled: true } } }"#,
        )?;
        let options = ZenohOptions {
            mode: Mode::Peer,
            listen: Vec::new(),
            connect: Vec::new(),
            namespace: String::new(),
            config_file: Some(path),
            multicast_scouting: false,
        };
        let ros = session_config(&options, Defaults::Rmw(Box::new(rmw_like_defaults())))?;
        let json = zenoh_config(&options)?;
        for config in [&ros, &json] {
            assert_eq!(get(config, "mode"), r#""client""#);
            assert_eq!(get(config, "connect/endpoints"), r#"["tcp/127.0.0.1:9"]"#);
            assert_eq!(get(config, "connect/timeout_ms"), "5000");
            assert_eq!(get(config, "connect/exit_on_failure"), "false");
            assert_eq!(get(config, "scouting/multicast/enabled"), "true");
        }
        // Not rmw_zenoh's defaults: the file replaces them, as rmw_zenoh's own
        // ZENOH_SESSION_CONFIG_URI does.
        assert_eq!(
            get(&ros, "timestamping/enabled"),
            get(&json, "timestamping/enabled")
        );
        Ok(())
    }
}
