//! Behaviour trees from outside: BT.CPP XML and our JSON5 trees, loaded, compiled with the
//! standard node library and the bench leaves, and ticked.

use decision_core::engine::{Registry, Tree, TreeSpec, bench_leaves, compile, nodes};
use std::path::Path;

/// Ticks a loaded tree compiled as `bt` compiles it; a tree that does not compile is an error
/// value, not a finding.
fn compile_and_tick(spec: &TreeSpec) {
    let mut registry: Registry<()> = Registry::new();
    nodes::register_standard(&mut registry);
    bench_leaves::register(&mut registry);
    let Ok(mut tree): Result<Tree<()>, _> = compile(spec, &registry) else {
        return;
    };
    for tick in 0..3 {
        if tree.try_tick(&mut (), f64::from(tick) * 0.1).is_err() {
            return;
        }
    }
}

/// A BT.CPP XML document (no includes: the base folder is empty).
pub fn bt_xml(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(base) = tempfile::tempdir() else {
        return;
    };
    let Ok(document) = bt_xml::load_str(&text, "fuzz.xml", base.path()) else {
        return;
    };
    if let Ok(spec) = bt_xml::main_spec(&document, None, Path::new("fuzz.xml")) {
        compile_and_tick(&spec);
    }
}

/// A JSON5 tree.
pub fn json5_tree(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(spec) = bt_xml::parse_json5(&text, Path::new("fuzz.json5")) {
        compile_and_tick(&spec);
    }
}
