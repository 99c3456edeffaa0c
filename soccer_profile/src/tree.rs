//! The soccer tree: the registry (BehaviorTree.CPP's standard nodes plus the soccer leaves)
//! and the default tree, a data file (`sample/soccer/behavior_tree.json5`) embedded at build
//! time; `--tree` replaces it with any `.json5` or BT.CPP `.xml` file.

use crate::context::SoccerContext;
use crate::params::BrainKind;
use decision_core::engine::{Registry, TreeSpec, nodes};
use std::path::Path;

/// The default tree's source text.
pub const DEFAULT_TREE: &str = include_str!("../../sample/soccer/behavior_tree.json5");

/// The file name the default tree's diagnostics name.
pub const DEFAULT_TREE_NAME: &str = "sample/soccer/behavior_tree.json5";

/// The registry soccer trees compile against.
pub fn registry() -> Registry<SoccerContext> {
    let mut registry = Registry::new();
    nodes::register_standard(&mut registry);
    crate::leaves::register(&mut registry);
    crate::booster::register(&mut registry);
    registry
}

/// The default tree as a spec.
pub fn default_spec() -> Result<TreeSpec, Vec<bt_xml::Diagnostic>> {
    bt_xml::parse_json5(DEFAULT_TREE, Path::new(DEFAULT_TREE_NAME))
}

/// The tree a BT.CPP file with several trees and no `main_tree_to_execute` runs: Booster's
/// brain calls `createTree("MainTree")`, as many BT.CPP programs do.
pub const MAIN_TREE: &str = "MainTree";

/// A tree file (`.json5` / `.json` or BT.CPP `.xml`) as a spec. An XML file with several
/// trees and no `main_tree_to_execute` runs its [`MAIN_TREE`] when it has one.
pub fn load_spec(path: &Path) -> Result<TreeSpec, Vec<bt_xml::Diagnostic>> {
    load_tree_file(path).map(|tree| tree.spec)
}

/// A loaded tree and the brain its file chooses, if it does.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeFile {
    /// The tree.
    pub spec: TreeSpec,
    /// The brain the file chooses (`<root brain="...">` of an XML file), which takes
    /// precedence over the parameter `behavior_node.brain`.
    pub brain: Option<BrainKind>,
}

impl TreeFile {
    /// The default tree (the soccer brain, by the parameters).
    pub fn default_tree() -> Result<Self, Vec<bt_xml::Diagnostic>> {
        Ok(Self {
            spec: default_spec()?,
            brain: None,
        })
    }

    /// `params` with the file's brain choice applied.
    pub fn apply_to(&self, params: &mut crate::params::Parameters) {
        if let Some(brain) = self.brain {
            params.behavior_node.brain = brain;
        }
    }
}

/// [`load_spec`] with the brain the file chooses.
pub fn load_tree_file(path: &Path) -> Result<TreeFile, Vec<bt_xml::Diagnostic>> {
    let is_xml = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"));
    if !is_xml {
        return bt_xml::load_any(path, None).map(|spec| TreeFile { spec, brain: None });
    }
    let document = bt_xml::load_file(path)?;
    let brain = match document.root_attribute("brain") {
        None => None,
        Some(name) => match BrainKind::from_name(name) {
            Some(kind) => Some(kind),
            None => {
                return Err(vec![bt_xml::Diagnostic {
                    position: bt_xml::Position {
                        file: path.to_path_buf(),
                        line: 1,
                        column: 1,
                    },
                    message: format!("<root brain=\"{name}\">: the brain is `soccer` or `booster`"),
                }]);
            }
        },
    };
    let requested = (document.main_tree.is_none()
        && document.trees.len() > 1
        && document.tree(MAIN_TREE).is_some())
    .then_some(MAIN_TREE);
    let spec = bt_xml::main_spec(&document, requested, path)?;
    Ok(TreeFile { spec, brain })
}

/// Whether `spec` uses a soccer leaf or a Booster node (so `check` compiles it against this
/// registry).
pub fn uses_soccer_leaves(spec: &TreeSpec) -> bool {
    let soccer = {
        let mut r: Registry<SoccerContext> = Registry::new();
        crate::leaves::register(&mut r);
        crate::booster::register(&mut r);
        r
    };
    fn walk(spec: &TreeSpec, soccer: &Registry<SoccerContext>) -> bool {
        soccer.has(&spec.kind) || spec.children.iter().any(|c| walk(c, soccer))
    }
    walk(spec, &soccer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_tree_loads_and_compiles() {
        let spec = match default_spec() {
            Ok(s) => s,
            Err(e) => panic!("{e:?}"),
        };
        assert!(uses_soccer_leaves(&spec));
        let labels: Vec<&str> = spec.children.iter().map(|c| c.label()).collect();
        assert_eq!(
            labels,
            [
                "damping",
                "prepare",
                "stop",
                "remote_control",
                "injected",
                "finished",
                "penalized",
                "initial",
                "stand_up",
                "set",
                "ready",
                "playing"
            ]
        );
        if let Err(errors) = decision_core::engine::compile(&spec, &registry()) {
            panic!(
                "{}",
                errors
                    .iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }

    #[test]
    fn several_trees_without_main_tree_to_execute_run_main_tree() {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => panic!("{e}"),
        };
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            if let Err(e) = std::fs::write(&path, text) {
                panic!("{e}");
            }
            path
        };
        let both = write(
            "two.xml",
            r#"<root BTCPP_format="4">
  <BehaviorTree ID="Other"><SetVelocity x="1"/></BehaviorTree>
  <BehaviorTree ID="MainTree"><Sequence name="main"><SubTree ID="Other"/></Sequence></BehaviorTree>
</root>"#,
        );
        let spec = match load_spec(&both) {
            Ok(s) => s,
            Err(e) => panic!("{e:?}"),
        };
        assert_eq!(spec.label(), "main");
        // Without a MainTree the choice stays ambiguous, and the error says so.
        let neither = write(
            "none.xml",
            r#"<root BTCPP_format="4">
  <BehaviorTree ID="A"><SetVelocity/></BehaviorTree>
  <BehaviorTree ID="B"><SetVelocity/></BehaviorTree>
</root>"#,
        );
        let e = load_spec(&neither).err().unwrap_or_default();
        assert!(
            e.first()
                .is_some_and(|d| d.message.contains("no main_tree_to_execute")),
            "{e:?}"
        );
        // main_tree_to_execute still wins.
        let chosen = write(
            "chosen.xml",
            r#"<root BTCPP_format="4" main_tree_to_execute="Other">
  <BehaviorTree ID="Other"><SetVelocity name="other"/></BehaviorTree>
  <BehaviorTree ID="MainTree"><SetVelocity name="main"/></BehaviorTree>
</root>"#,
        );
        assert_eq!(
            load_spec(&chosen).map(|s| s.label().to_owned()),
            Ok("other".to_owned())
        );
    }
}
