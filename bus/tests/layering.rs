//! The bus knows no profile: its manifest depends on the workspace's message and utility
//! crates only, never on a profile (`decision_core`, `soccer_profile`) or anything above one,
//! so the transport does not pull in the engine, the planner or the XML reader, and a change to
//! a profile rebuilds no transport.

use std::path::Path;

/// The workspace crates the bus may depend on: message types and shared utilities.
const ALLOWED: &[&str] = &["geometry", "soccer_msgs", "robomaster_msgs", "strict_serde"];

/// The names of the workspace's members (`members = [...]` of the root manifest).
fn workspace_members(root_manifest: &str) -> Vec<String> {
    let start = root_manifest
        .find("members")
        .and_then(|at| root_manifest[at..].find('[').map(|open| at + open + 1))
        .expect("the root manifest lists its members");
    let end = root_manifest[start..]
        .find(']')
        .map(|close| start + close)
        .expect("the members list ends");
    root_manifest[start..end]
        .split(',')
        .map(|name| name.trim().trim_matches('"').to_owned())
        .filter(|name| !name.is_empty())
        .collect()
}

/// Every dependency named in `manifest`'s dependency tables (normal, dev, build, per target),
/// written `name = ...`, `name.workspace = true` or as a `[dependencies.name]` table.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']');
            let (table, name) = match header.rsplit_once("dependencies.") {
                Some((_, name)) => (true, Some(name)),
                None => (header.ends_with("dependencies"), None),
            };
            in_dependencies = table && name.is_none();
            names.extend(name.map(|n| n.trim_matches('"').to_owned()));
            continue;
        }
        if in_dependencies && !line.starts_with('#') {
            let key = line.split(['=', '.']).next().unwrap_or("").trim();
            if !key.is_empty() {
                names.push(key.trim_matches('"').to_owned());
            }
        }
    }
    names
}

#[test]
fn the_bus_depends_on_no_profile() {
    let bus_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &Path| {
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let members = workspace_members(&read(&bus_dir.join("../Cargo.toml")));
    assert!(
        members.iter().any(|m| m == "soccer_profile") && members.iter().any(|m| m == "bus"),
        "{members:?}"
    );
    let deps = dependencies(&read(&bus_dir.join("Cargo.toml")));
    assert!(
        deps.iter().any(|d| d == "zenoh"),
        "read the tables: {deps:?}"
    );
    let forbidden: Vec<&String> = deps
        .iter()
        .filter(|d| members.contains(d) && !ALLOWED.contains(&d.as_str()))
        .collect();
    assert!(
        forbidden.is_empty(),
        "bus/Cargo.toml depends on {forbidden:?}: the bus may use only {ALLOWED:?} of the \
         workspace (move the message types or constants it needs into one of those)"
    );
}

#[test]
fn the_manifest_reader_sees_every_form_of_dependency() {
    let manifest = "[package]\nname = \"bus\"\n\n[dependencies]\n# a comment\n\
        soccer_profile.workspace = true\nserde = { version = \"1\" }\n\n\
        [dependencies.decision_core]\npath = \"../decision_core\"\n\n\
        [target.'cfg(unix)'.dev-dependencies]\nbt_xml = \"0.1\"\n\n[features]\nros2 = []\n";
    assert_eq!(
        dependencies(manifest),
        ["soccer_profile", "serde", "decision_core", "bt_xml"]
    );
    assert_eq!(
        workspace_members("[workspace]\nmembers = [\"a\", \"bus\",\n \"c\"]\n"),
        ["a", "bus", "c"]
    );
}
