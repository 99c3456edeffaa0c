//! CPU time of one viewer frame (UI + tessellation, no GPU) with a generated 1,000-waypoint map
//! and a 1,000-node tree, next to the sample. Run: `cargo bench -p gui --bench frame`.

use criterion::{Criterion, criterion_group, criterion_main};
use decision_core::engine::{Status, TreeSpec};
use gui::app::ViewerApp;
use gui::model::FlatTree;
use std::path::Path;
use std::sync::Arc;

/// A 40 x 25 grid of waypoints over the 12 m x 8 m field, each connected to its 4 neighbours.
fn write_big_config(dir: &Path) -> std::path::PathBuf {
    let (nx, ny) = (40, 25);
    let mut data = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            let id = j * nx + i;
            let mut connect = Vec::new();
            if i > 0 {
                connect.push(id - 1);
            }
            if i + 1 < nx {
                connect.push(id + 1);
            }
            if j > 0 {
                connect.push(id - nx);
            }
            if j + 1 < ny {
                connect.push(id + nx);
            }
            data.push(serde_json::json!({
                "id": id, "name": format!("wp_{id}"), "type": 0,
                "x": 0.15 + 0.3 * f64::from(i), "y": 0.16 + 0.32 * f64::from(j), "angle": 0.0,
                "connect": connect, "enemyWeights": [-1, -1, -1, -1, -1],
            }));
        }
    }
    let waypoints = dir.join("waypoints.json");
    let sample = gui::sample_dir();
    std::fs::write(&waypoints, serde_json::json!({ "data": data }).to_string()).unwrap();
    let config = serde_json::json!({ "config": {
        "Debug": false,
        "WayPointsPATH": waypoints.display().to_string(),
        "DecisionsPATH": sample.join("decisions.json").display().to_string(),
        "MAP_PATH": sample.join("../resources/RMUL.png").display().to_string(),
        "REAL_WIDTH": 12.0, "REAL_HEIGHT": 8.0, "GOAL_TIME_THR_SEC": 2, "TIME_THR": 1,
        "CAR_SEEK_FOV": 70.0, "INIT_DISTANCE_THR": 1.0, "INIT_SEEK_THR": 5.0,
        "INIT_ISBLUE": false, "INIT_IFSHOWUI": false, "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6, "INIT_FRIENDBASEINDEX": 7, "STEP_DISTANCE": 0.1,
        "GAME_TIME": 420,
    }});
    let path = dir.join("config.json");
    std::fs::write(&path, config.to_string()).unwrap();
    path
}

/// A selection over 100 sequences of 9 leaves: 1,001 nodes.
fn big_tree() -> TreeSpec {
    let leaf = |kind: &str, name: String| TreeSpec::new(kind).named(name);
    let children = (0..100)
        .map(|s| TreeSpec {
            children: (0..9)
                .map(|l| {
                    let kind = if l == 8 { "act" } else { "flag" };
                    leaf(kind, format!("leaf_{s}_{l}"))
                })
                .collect(),
            ..leaf("Sequence", format!("sequence_{s}"))
        })
        .collect();
    TreeSpec {
        children,
        ..leaf("Fallback", "root".into())
    }
}

fn frame(ctx: &egui::Context, app: &mut ViewerApp) -> usize {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let output = ctx.run_ui(input, |ui| app.show(ui));
    let meshes = ctx.tessellate(output.shapes, output.pixels_per_point);
    meshes.len()
}

fn app_at_retreat() -> ViewerApp {
    let mut app = ViewerApp::sample();
    app.run_sim_until(75.5);
    app
}

fn bench(c: &mut Criterion) {
    let ctx = egui::Context::default();
    let mut sample = app_at_retreat();
    for _ in 0..3 {
        frame(&ctx, &mut sample);
    }
    c.bench_function("frame/sample (17 waypoints, 93-node tree)", |b| {
        b.iter(|| frame(&ctx, &mut sample))
    });

    let dir = std::env::temp_dir().join(format!("decision-viewer-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tables = match gui::sim::load_tables(&write_big_config(&dir)) {
        Ok(t) => t,
        Err(e) => panic!("{e}"),
    };
    let mut big = app_at_retreat();
    if let Some(view) = big.view.as_mut() {
        assert_eq!(tables.graph.len(), 1000);
        view.tables = Arc::clone(&tables);
        view.tree = FlatTree::new(&big_tree());
        assert_eq!(view.tree.len(), 1001);
        view.statuses = (0..view.tree.len())
            .map(|i| match i % 4 {
                0 => Some(Status::Success),
                1 => Some(Status::Failure),
                2 => Some(Status::Running),
                _ => None,
            })
            .collect();
    }
    let ctx = egui::Context::default();
    for _ in 0..3 {
        frame(&ctx, &mut big);
    }
    c.bench_function("frame/1000 waypoints, 1001-node tree", |b| {
        b.iter(|| frame(&ctx, &mut big))
    });
    big.map.zoom = 4.0;
    frame(&ctx, &mut big);
    c.bench_function(
        "frame/1000 waypoints, 1001-node tree, zoom 4 (names)",
        |b| b.iter(|| frame(&ctx, &mut big)),
    );
    big.map.zoom = 2.0;
    frame(&ctx, &mut big);
    c.bench_function("frame/1000 waypoints, 1001-node tree, zoom 2 (ids)", |b| {
        b.iter(|| frame(&ctx, &mut big))
    });
    big.map.zoom = 1.0;
    // Worst case: every label drawn at fit zoom.
    big.map.force_labels = true;
    frame(&ctx, &mut big);
    c.bench_function(
        "frame/1000 waypoints, 1001-node tree, all names forced",
        |b| b.iter(|| frame(&ctx, &mut big)),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
