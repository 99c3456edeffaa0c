//! `robot-decision nodes`: every registered node kind of a profile with its ports, as text,
//! as JSON, or as a Groot2 palette (`<TreeNodesModel>`), so teams edit our trees with our
//! vocabulary.

use bt_xml::write::{KindModel, models_document, port_description};
use clap::ValueEnum;
use decision_core::engine::blackboard::EntryType;
use decision_core::engine::{NodeModel, PortDirection, Registry, nodes};
use serde::Serialize;
use soccer_profile::context::SoccerContext;
use std::process::ExitCode;

/// A set of node kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Profile {
    /// BehaviorTree.CPP 4.10's default library.
    Standard,
    /// The RoboMaster profile's weighted selection, guards and navigation.
    Robomaster,
    /// The soccer profile's leaves.
    Soccer,
    /// The Booster RoboCup demo's custom nodes.
    Booster,
}

impl Profile {
    /// Every profile, in the order they are listed.
    const ALL: [Profile; 4] = [
        Profile::Standard,
        Profile::Robomaster,
        Profile::Soccer,
        Profile::Booster,
    ];

    /// What the profile's kinds are, for the text listing.
    fn title(self) -> &'static str {
        match self {
            Profile::Standard => "standard: BehaviorTree.CPP 4.10's default library",
            Profile::Robomaster => "robomaster: weighted selection, guards, navigation",
            Profile::Soccer => "soccer: the soccer behaviour's leaves",
            Profile::Booster => "booster: the Booster RoboCup demo's nodes",
        }
    }

    /// The profile's kinds with their models, sorted by id.
    pub fn kinds(self) -> Vec<KindModel> {
        match self {
            Profile::Standard => {
                let mut registry: Registry<()> = Registry::new();
                nodes::register_standard(&mut registry);
                models(&registry)
            }
            Profile::Robomaster => decision_core::robomaster::node_kinds(),
            Profile::Soccer => {
                let mut registry: Registry<SoccerContext> = Registry::new();
                soccer_profile::leaves::register(&mut registry);
                models(&registry)
            }
            Profile::Booster => {
                let mut registry: Registry<SoccerContext> = Registry::new();
                soccer_profile::booster::register(&mut registry);
                models(&registry)
            }
        }
    }
}

/// The kinds of `registry` with their models.
fn models<C: 'static>(registry: &Registry<C>) -> Vec<KindModel> {
    registry
        .models()
        .map(|(id, model)| (id.to_owned(), model.clone()))
        .collect()
}

/// How `nodes` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NodesFormat {
    /// Lines for people, grouped by profile.
    Text,
    /// One JSON list of kinds.
    Json,
    /// A BT.CPP 4 `<TreeNodesModel>` document that Groot2 imports.
    Groot2,
}

/// One kind in the JSON listing.
#[derive(Debug, Serialize)]
struct KindJson<'a> {
    id: &'a str,
    category: &'static str,
    ports: Vec<PortJson<'a>>,
}

/// One port in the JSON listing.
#[derive(Debug, Serialize)]
struct PortJson<'a> {
    name: &'a str,
    direction: &'static str,
    #[serde(rename = "type")]
    ty: String,
    default: Option<&'a str>,
    description: String,
}

/// The word of a port direction.
fn direction_name(direction: PortDirection) -> &'static str {
    match direction {
        PortDirection::Input => "input",
        PortDirection::Output => "output",
        PortDirection::InOut => "inout",
    }
}

/// Prints the kinds of `profile` (every profile when `None`) in `format`.
pub fn run(profile: Option<Profile>, format: NodesFormat) -> ExitCode {
    let profiles: Vec<Profile> = match profile {
        Some(p) => vec![p],
        None => Profile::ALL.to_vec(),
    };
    match format {
        NodesFormat::Text => print!("{}", text(&profiles)),
        NodesFormat::Json => println!("{}", json(&profiles)),
        NodesFormat::Groot2 => {
            // Groot2 knows BT.CPP's own library: its palette holds ours unless asked for.
            let custom: Vec<Profile> = match profile {
                Some(p) => vec![p],
                None => profiles
                    .into_iter()
                    .filter(|p| *p != Profile::Standard)
                    .collect(),
            };
            print!("{}", models_document(&unique_kinds(&custom)));
        }
    }
    ExitCode::SUCCESS
}

/// The kinds of `profiles`, each id once, sorted by id.
fn unique_kinds(profiles: &[Profile]) -> Vec<KindModel> {
    let mut all: Vec<KindModel> = profiles.iter().flat_map(|p| p.kinds()).collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all.dedup_by(|a, b| a.0 == b.0);
    all
}

/// The JSON listing: a list of `{id, category, ports}`.
fn json(profiles: &[Profile]) -> String {
    let kinds = unique_kinds(profiles);
    let list: Vec<KindJson<'_>> = kinds
        .iter()
        .map(|(id, model)| KindJson {
            id,
            category: model.category.name(),
            ports: model
                .ports
                .iter()
                .map(|p| PortJson {
                    name: p.name,
                    direction: direction_name(p.direction),
                    ty: type_name(p.ty),
                    default: p.default,
                    description: port_description(p),
                })
                .collect(),
        })
        .collect();
    serde_json::to_string_pretty(&list).unwrap_or_else(|e| format!("\"{e}\""))
}

/// A port type's name in listings (`any`, `int`, `double`, `bool`, `string`).
fn type_name(ty: EntryType) -> String {
    ty.to_string()
}

/// The text listing, one section per profile.
fn text(profiles: &[Profile]) -> String {
    let mut out = String::new();
    for (k, profile) in profiles.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let kinds = profile.kinds();
        out.push_str(&format!("{} ({} kinds)\n", profile.title(), kinds.len()));
        for (id, model) in &kinds {
            out.push_str(&kind_text(id, model));
        }
    }
    out
}

/// One kind's lines: id, category, children, what the kind does, then a line per port.
fn kind_text(id: &str, model: &NodeModel) -> String {
    let mut out = format!("  {id}  {}", model.category.name());
    if model.free_ports {
        out.push_str(", any ports");
    }
    if !model.description.is_empty() {
        out.push_str(": ");
        out.push_str(model.description);
    }
    out.push('\n');
    for port in &model.ports {
        let required = match (port.default, port.direction) {
            (Some(default), _) => format!("default `{default}`"),
            (None, PortDirection::Output) => "optional".to_owned(),
            (None, _) => "required".to_owned(),
        };
        let description = port_description(port);
        let mut line = format!(
            "      {} ({} {}, {required})",
            port.name,
            direction_name(port.direction),
            type_name(port.ty),
        );
        if !description.is_empty() {
            line.push_str(": ");
            line.push_str(&description);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soccer_profile_lists_its_leaves_with_their_ports() {
        let text = text(&[Profile::Soccer]);
        assert!(text.starts_with("soccer: the soccer behaviour's leaves ("));
        assert!(text.contains(
            "  is_primary_state  condition\n      state (input string, required): the primary \
             state that holds (one of: damping, prepare, stop, initial, ready, set, playing, \
             finished, penalized)\n"
        ));
        assert!(text.contains("  stand  action\n"));
    }

    #[test]
    fn every_profile_has_kinds_and_the_standard_library_is_btcpps() {
        for profile in Profile::ALL {
            assert!(!profile.kinds().is_empty(), "{profile:?}");
        }
        let ids: Vec<String> = Profile::Standard
            .kinds()
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        for id in [
            "Sequence",
            "ReactiveFallback",
            "SubTree",
            "Switch6",
            "TryCatch",
        ] {
            assert!(ids.iter().any(|i| i == id), "{id}");
        }
        assert!(!ids.iter().any(|i| i == "weighted_selection"));
    }

    #[test]
    fn json_lists_each_kind_once_with_its_ports() {
        let value: serde_json::Value = match serde_json::from_str(&json(&Profile::ALL)) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        };
        let list = value.as_array().cloned().unwrap_or_default();
        let sequence: Vec<&serde_json::Value> =
            list.iter().filter(|k| k["id"] == "Sequence").collect();
        assert_eq!(sequence.len(), 1);
        let hp = list.iter().find(|k| k["id"] == "hp_above");
        assert_eq!(
            hp.cloned(),
            Some(serde_json::json!({
                "id": "hp_above",
                "category": "condition",
                "ports": [{
                    "name": "value",
                    "direction": "input",
                    "type": "double",
                    "default": null,
                    "description": "holds while the robot's HP is above this (decisions.json `minHP`)"
                }]
            }))
        );
    }
}
