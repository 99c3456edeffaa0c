//! Benchmarks of the per-tick geometry: occlusion on a 20 m ray and nearest waypoint.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use waypoint_graph::{ObstacleMap, Waypoint, WaypointGraph};

/// A generated 25 x 15 m field (250 x 150 source pixels, resized to 1799 x 1080): white floor
/// with wall blocks that stay off the benchmark ray, so the ray is scanned to its end.
fn field_map() -> Result<ObstacleMap, waypoint_graph::MapError> {
    let (w, h) = (250u32, 150u32);
    let mut grey = vec![255u8; (w * h) as usize];
    for (i, p) in grey.iter_mut().enumerate() {
        let (x, y) = (i as u32 % w, i as u32 / w);
        let block = (x / 25 + y / 25) % 3 == 0 && x % 25 > 18 && y % 25 > 18;
        // The ray runs from (2, 2) m to (18, 14) m: y = 2 + 0.75 (x - 2), in 10 px/m.
        let on_ray = (y as f32 - (20.0 + 0.75 * (x as f32 - 20.0))).abs() < 12.0;
        if block && !on_ray {
            *p = 0;
        }
    }
    ObstacleMap::from_grey(w, h, grey, 25.0, 15.0)
}

fn bench_los(c: &mut Criterion) {
    let Ok(map) = field_map() else {
        eprintln!("could not build the bench map");
        return;
    };
    let (from, to) = ((2.0f32, 2.0f32), (18.0f32, 14.0f32)); // 20 m
    assert!(
        map.visible_sampled(from, to, 0.1),
        "bench ray must be clear"
    );
    c.bench_function("visible_sampled 20 m ray, step 0.1 m, 25x15 map", |b| {
        b.iter(|| map.visible_sampled(black_box(from), black_box(to), black_box(0.1)))
    });
    c.bench_function("visible_exact 20 m ray, 25x15 map", |b| {
        b.iter(|| map.visible_exact(black_box(from), black_box(to)))
    });
}

fn bench_nearest(c: &mut Criterion) {
    let waypoints: Vec<Waypoint> = (0..1000)
        .map(|i| Waypoint::at(i, (i % 40) as f32 * 0.6, (i / 40) as f32 * 0.6, Vec::new()))
        .collect();
    let Ok(graph) = WaypointGraph::new(waypoints) else {
        eprintln!("could not build the bench graph");
        return;
    };
    c.bench_function("nearest over 1000 waypoints", |b| {
        b.iter(|| graph.nearest(black_box(11.37), black_box(7.91), black_box(1.0)))
    });
}

fn bench_load(c: &mut Criterion) {
    // The workspace's own copy of the field map (not ../shared).
    let png = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../resources/RMUL.png");
    if ObstacleMap::load_png(&png, 25.0, 15.0).is_err() {
        eprintln!("skipping load_png bench: {} not loadable", png.display());
        return;
    }
    c.bench_function("load_png RMUL.png + resize to 1799x1080", |b| {
        b.iter(|| ObstacleMap::load_png(black_box(&png), 25.0, 15.0).is_ok())
    });
}

criterion_group!(benches, bench_los, bench_nearest, bench_load);
criterion_main!(benches);
