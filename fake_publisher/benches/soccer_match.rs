//! The simulated soccer match: one simulated second (50 ticks) of five against five, all ten
//! robots running our decider and search suggestor. Real-time factor = 1 s / the time shown.

use criterion::{Criterion, criterion_group, criterion_main};
use fake_publisher::soccer::{SoccerMatch, SoccerScenario};
use soccer_profile::params;
use std::path::Path;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample/soccer/parameters");
    let parameters =
        Arc::new(params::load(&dir, Some("simulation"), None).unwrap_or_else(|e| panic!("{e:?}")));
    let spec = soccer_profile::tree::default_spec().unwrap_or_else(|e| panic!("{e:?}"));
    let scenario = SoccerScenario {
        half_duration: 100_000.0,
        ..SoccerScenario::default()
    };
    let mut game =
        SoccerMatch::new(scenario, parameters, &spec, Some(1)).unwrap_or_else(|e| panic!("{e}"));
    // Past the kick-off into open play.
    for _ in 0..(30 * 50) {
        game.step();
    }
    c.bench_function("soccer_match/one_simulated_second_5v5", |b| {
        b.iter(|| {
            for _ in 0..50 {
                std::hint::black_box(game.step());
            }
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
