//! `robot-decision export`: any tree we run (a JSON5 / JSON / XML tree file, or the tree a
//! RoboMaster `config.json` compiles its decisions into) as a BehaviorTree.CPP 4 XML document
//! with the `<TreeNodesModel>` of the non-standard kinds it uses, so BT.CPP tools and Groot2
//! open it and loading it back gives the same tree.

use crate::nodes::Profile;
use bt_xml::write::{KindModel, tree_document};
use decision_core::engine::TreeSpec;
use decision_core::robomaster::load;
use soccer_profile::tree::TreeFile;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;

/// Exports `input` as XML to `output` (standard output when `None`).
pub fn run(input: &Path, output: Option<&Path>) -> ExitCode {
    let Some(tree) = load_input(input) else {
        return ExitCode::from(1);
    };
    let brain = tree.brain.map(|b| ("brain", b.name()));
    let text = tree_document(&tree.spec, &used_models(&tree.spec), brain.as_slice());
    match output {
        None => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                ExitCode::from(1)
            }
        },
    }
}

/// The tree of `input`: a tree file (with the brain it chooses), or the decision tree of a
/// RoboMaster config (errors are printed with their places).
pub fn load_input(input: &Path) -> Option<TreeFile> {
    if is_config(input) {
        let outcome = load::load(input);
        let Some(tables) = outcome.tables else {
            eprint!("{}", outcome.diagnostics);
            return None;
        };
        return Some(TreeFile {
            spec: decision_core::robomaster::tree::decision_tree(&tables).0,
            brain: None,
        });
    }
    match soccer_profile::tree::load_tree_file(input) {
        Ok(tree) => Some(tree),
        Err(diagnostics) => {
            for d in diagnostics {
                eprintln!("{d}");
            }
            None
        }
    }
}

/// Whether `input` is a RoboMaster config: a `.json` file whose object has no node `type`.
fn is_config(input: &Path) -> bool {
    let is_json = input
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if !is_json {
        return false;
    }
    let Ok(text) = std::fs::read_to_string(input) else {
        // Unreadable: the config loader says so with the path.
        return true;
    };
    match decision_core::jsonc::parse(&text).map(|json| json.to_serde()) {
        Ok(serde_json::Value::Object(map)) => {
            !(map.contains_key("type") || map.contains_key("kind"))
        }
        _ => true,
    }
}

/// The models of the non-standard kinds `spec` uses (standard ones are BT.CPP's own).
pub fn used_models(spec: &TreeSpec) -> Vec<KindModel> {
    let mut used = BTreeSet::new();
    collect_kinds(spec, &mut used);
    let standard: BTreeSet<String> = Profile::Standard
        .kinds()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let mut models: Vec<KindModel> = [Profile::Robomaster, Profile::Soccer, Profile::Booster]
        .into_iter()
        .flat_map(Profile::kinds)
        .filter(|(id, _)| used.contains(id) && !standard.contains(id))
        .collect();
    models.sort_by(|a, b| a.0.cmp(&b.0));
    models.dedup_by(|a, b| a.0 == b.0);
    models
}

/// Every kind id in `spec`.
fn collect_kinds(spec: &TreeSpec, out: &mut BTreeSet<String>) {
    out.insert(spec.kind.clone());
    for child in &spec.children {
        collect_kinds(child, out);
    }
}
