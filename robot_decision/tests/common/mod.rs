//! Helpers of the end-to-end tests over Zenoh: the repository, free ports, the
//! fake-publisher binary, and children killed when a test ends.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The fake-publisher binary, built on demand when this package is tested alone.
pub fn fake_publisher_bin() -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_robot-decision"))
        .parent()
        .unwrap()
        .to_path_buf();
    let bin = dir.join("fake-publisher");
    if !bin.is_file() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "-p", "fake_publisher", "--bin", "fake-publisher"])
            .current_dir(repo())
            .status()
            .unwrap();
        assert!(status.success());
    }
    bin
}

/// Kills the child when the test ends, however it ends.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A ROS 2 bus of this test in `distro`'s wire format: node `name` in `namespace` ("" for the
/// root), a peer of the router at `endpoint`.
#[cfg(feature = "ros2")]
#[allow(dead_code)] // the ROS 2 tests' helper; the others include this module too
pub fn ros2_client(endpoint: &str, distro: bus::Distro, name: &str, namespace: &str) -> bus::Bus {
    bus::Bus::ros2(&bus::Ros2Options {
        distro,
        ros_namespace: namespace.to_owned(),
        ..bus::Ros2Options::via_router(endpoint, name)
    })
    .expect("the test joins the ROS 2 graph")
}

/// `robot-decision soccer run` on the sample parameters in simulation as robot `player`,
/// with the bus `flags` (namespace, endpoint, transport, ...), quiet.
#[allow(dead_code)] // the soccer tests' helper; the others include this module too
pub fn soccer_node(player: u8, flags: &[&str]) -> Killed {
    Killed(
        Command::new(env!("CARGO_BIN_EXE_robot-decision"))
            .args(["soccer", "run", "sample/soccer/parameters"])
            .args(["--location", "simulation", "--no-reload"])
            .args(["--player", &player.to_string()])
            .args(flags)
            .current_dir(repo())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("robot-decision starts"),
    )
}

/// The node's input topics its `stats` event (JSON) counts fewer than `at_least` malformed
/// messages on.
#[allow(dead_code)] // the end-to-end tests' helper; the others include this module too
pub fn inputs_short_of_malformed(stats: &serde_json::Value, at_least: u64) -> Vec<&'static str> {
    bus::topics::NODE_INPUTS
        .into_iter()
        .filter(|topic| stats["stats"]["malformed"][topic].as_u64().unwrap_or(0) < at_least)
        .collect()
}
