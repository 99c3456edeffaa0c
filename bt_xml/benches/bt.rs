//! Behaviour-tree tick cost on the shared benchmark trees (`benches/trees/`, copied from the
//! shared benchmark inputs) with the benchmark leaves and input schedule: tracing off, tracing
//! on (every node's status recorded), and XML load + compile time.

use bt_xml::load_tree;
use criterion::{Criterion, criterion_group, criterion_main};
use decision_core::engine::{Registry, Tree, bench_leaves, nodes};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn trees_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/trees")
}

fn registry() -> Registry<()> {
    let mut r = Registry::new();
    nodes::register_standard(&mut r);
    bench_leaves::register(&mut r);
    r
}

fn build(name: &str, registry: &Registry<()>) -> Tree<()> {
    let spec = load_tree(&trees_dir().join(name), None).unwrap_or_else(|e| panic!("{e:?}"));
    bench_leaves::compile_for_schedule(spec, registry).unwrap_or_else(|e| panic!("{e:?}"))
}

fn bench(c: &mut Criterion) {
    let registry = registry();
    for name in [
        "game_like.xml",
        "game_like_while.xml",
        "deep.xml",
        "wide_fallback.xml",
    ] {
        for tracing in [false, true] {
            let mut tree = build(name, &registry);
            tree.set_tracing(tracing);
            let mut writer = bench_leaves::ScheduleWriter::new(&mut tree);
            let mut i = 0u64;
            let label = format!(
                "bt/{}/{}",
                name.trim_end_matches(".xml"),
                if tracing { "traced" } else { "untraced" }
            );
            c.bench_function(&label, |b| {
                b.iter(|| {
                    let _ = writer.write(&mut tree, i);
                    i = (i + 1) % bench_leaves::SCHEDULE_PERIOD;
                    black_box(tree.try_tick(&mut (), i as f64).ok())
                })
            });
        }
    }
    for name in ["game_like.xml", "wide_fallback.xml"] {
        c.bench_function(&format!("bt/load/{}", name.trim_end_matches(".xml")), |b| {
            b.iter(|| black_box(build(name, &registry).node_count()))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
