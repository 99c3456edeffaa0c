//! The workspace's one reader of hand-edited files (`decision_core::jsonc`) against the
//! alternatives: `jsonc-parser` (dprint's, ranges and comments kept) and strict `serde_json`
//! (no comments, no positions: the floor), on the sample's decisions, waypoints, a JSON5
//! scenario and the soccer behaviour tree.

use criterion::{Criterion, criterion_group, criterion_main};
use decision_core::jsonc;
use std::hint::black_box;
use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn readers(c: &mut Criterion) {
    let files = [
        ("decisions", read("sample/decisions.json"), false),
        ("waypoints", read("sample/waypoints.json"), false),
        (
            "scenario_json5",
            read("sample/scenarios/hp_retreat.json5"),
            true,
        ),
        (
            "tree_json5",
            read("sample/soccer/behavior_tree.json5"),
            true,
        ),
    ];
    let collect = jsonc_parser::CollectOptions::default();
    let options = jsonc_parser::ParseOptions::default();
    let mut group = c.benchmark_group("jsonc");
    for (name, text, json5) in &files {
        let read = |text: &str| {
            if *json5 {
                jsonc::parse_json5(text)
            } else {
                jsonc::parse(text)
            }
        };
        if let Err(e) = read(text) {
            panic!("{name}: {e}");
        }
        group.bench_function(format!("{name}/ours"), |b| {
            b.iter(|| black_box(read(black_box(text)).is_ok()))
        });
        // Timed only where it reads the whole file (an early error would flatter it).
        if let Err(e) = jsonc_parser::parse_to_ast(text, &collect, &options) {
            eprintln!("{name}: jsonc-parser does not read it: {e}");
        } else {
            group.bench_function(format!("{name}/jsonc_parser_ast"), |b| {
                b.iter(|| {
                    let ast = jsonc_parser::parse_to_ast(black_box(text), &collect, &options);
                    black_box(ast.is_ok())
                })
            });
        }
        if !*json5 {
            // serde_json reads no comments: it gets the same data as plain JSON.
            let plain = jsonc::parse(text)
                .map(|doc| doc.to_serde().to_string())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            group.bench_function(format!("{name}/serde_json_value_without_comments"), |b| {
                b.iter(|| {
                    let value = serde_json::from_str::<serde_json::Value>(black_box(&plain));
                    black_box(value.is_ok())
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, readers);
criterion_main!(benches);
