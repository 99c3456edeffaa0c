//! One tick of the default soccer tree with five teammates, as striker, supporter and
//! searcher (trace on, as the node runs it). `NO_PATH=1` turns path planning off, `GRID=0.3`
//! sets the partition's cell size.

use criterion::{Criterion, criterion_group, criterion_main};
use soccer_profile::bench_support::{Situation, frames};
use soccer_profile::decider::SoccerDecider;
use soccer_profile::params::Parameters;
use std::hint::black_box;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    let spec = soccer_profile::tree::default_spec().unwrap_or_else(|e| panic!("{e:?}"));
    for (name, situation) in [
        ("striker", Situation::Striker),
        ("supporter", Situation::Supporter),
        ("searcher", Situation::Searcher),
    ] {
        let frames = frames(situation, 1000);
        let mut params = Parameters::default();
        if std::env::var_os("NO_PATH").is_some() {
            params.behavior_node.walking.path_planning.enable = false;
        }
        // GRID=0.3 measures the partition at another cell size (the default is HULKs' 0.2 m).
        if let Some(grid) = std::env::var("GRID").ok().and_then(|g| g.parse().ok()) {
            params.behavior_node.voronoi.grid_resolution = grid;
        }
        let mut decider =
            SoccerDecider::new(&spec, Arc::new(params)).unwrap_or_else(|e| panic!("{e:?}"));
        for f in &frames {
            decider.tick(f);
        }
        let mut i = 0;
        c.bench_function(&format!("soccer_tick/{name}"), |b| {
            b.iter(|| {
                i = (i + 1) % frames.len();
                black_box(decider.tick(black_box(&frames[i])))
            })
        });
    }
}

criterion_group!(benches, bench);

fn voronoi(c: &mut Criterion) {
    use geometry::Pose2;
    use soccer_profile::voronoi::{Site, Until, VoronoiGrid};
    let sites: Vec<Site> = [
        (3u8, -1.0, 0.5),
        (2, -2.0, -1.5),
        (4, 1.0, 1.5),
        (5, 0.5, -1.0),
        (6, 2.5, 0.0),
    ]
    .iter()
    .map(|&(player, x, y)| Site {
        player,
        pose: Pose2::new(x, y, 0.2),
    })
    .collect();
    // Every iteration a partition of its own: the first robot turns back and forth, which
    // changes its step costs (the grid continues a computation whose inputs give the same).
    let mut turned = sites.clone();
    turned[0].pose.yaw += 0.1;
    for resolution in [0.2, 0.3] {
        let mut grid = VoronoiGrid::default();
        grid.resize(9.0, 6.0, 1.0, resolution);
        let mut flip = false;
        c.bench_function(&format!("voronoi/full_partition_{resolution}m"), |b| {
            b.iter(|| {
                flip = !flip;
                let sites = if flip { &sites } else { &turned };
                grid.compute(black_box(sites), &[], 0.5, Until::Complete);
                black_box(grid.owner(100))
            })
        });
    }
}

criterion_group!(partition, voronoi);

fn heatmap(c: &mut Criterion) {
    use soccer_profile::search::SearchSuggestor;
    let params = Parameters::default();
    let mut suggestor = SearchSuggestor::new(params.search_suggestor.clone(), params.field.clone());
    let frames = soccer_profile::bench_support::heatmap_frames(1000);
    for f in &frames {
        let _ = suggestor.update(f);
    }
    let mut i = 0;
    c.bench_function("heatmap/update_18x12_three_teammates", |b| {
        b.iter(|| {
            i = (i + 1) % frames.len();
            black_box(suggestor.update(black_box(&frames[i])).is_ok())
        })
    });
}

criterion_group!(search, heatmap);

criterion_main!(benches, partition, search);
