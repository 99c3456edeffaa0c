//! The simulated soccer match, five against five, all ten robots running our decider and
//! search suggestor:
//! * `soccer_match/one_simulated_second_5v5`: 50 ticks of open play (real-time factor =
//!   1 s / the time shown);
//! * `soccer_match/whole_match_10_minutes_5v5`: the default scenario's whole match: two
//!   halves of 5 minutes of playing time with kick-offs, set plays and stoppages (the game
//!   clock stops in them), so about 1,024 simulated seconds, printed after the bench. Real-time factor = 600 s of playing time / the time shown (conservative), or the
//!   simulated seconds / the time shown.
//!
//! The robots decide in parallel on rayon's pool, with the bench's own thread as one of its
//! workers (as `soccer sim` does); `RAYON_NUM_THREADS=1` measures one core.

use criterion::{Criterion, criterion_group, criterion_main};
use fake_publisher::soccer::{SoccerMatch, SoccerScenario};
use soccer_profile::params::{self, Parameters};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn sample_match(scenario: SoccerScenario) -> SoccerMatch {
    fake_publisher::soccer::decide_on_this_thread();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample/soccer/parameters");
    let parameters: Arc<Parameters> =
        Arc::new(params::load(&dir, Some("simulation"), None).unwrap_or_else(|e| panic!("{e:?}")));
    let spec = soccer_profile::tree::default_spec().unwrap_or_else(|e| panic!("{e:?}"));
    SoccerMatch::new(scenario, parameters, &spec, Some(1)).unwrap_or_else(|e| panic!("{e}"))
}

fn one_second(c: &mut Criterion) {
    let mut game = sample_match(SoccerScenario {
        half_duration: 100_000.0,
        ..SoccerScenario::default()
    });
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

fn whole_match(c: &mut Criterion) {
    // The last measured match's length and score, printed after the bench (no extra match).
    let mut last = None;
    let mut group = c.benchmark_group("soccer_match");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    group.bench_function("whole_match_10_minutes_5v5", |b| {
        b.iter(|| {
            let mut game = sample_match(SoccerScenario::default());
            let mut ticks = 0u32;
            while !game.is_over() {
                std::hint::black_box(game.step());
                ticks += 1;
            }
            // Two halves of 300 s of playing time at 50 ticks per second, plus stoppages.
            assert!(ticks >= 30_000, "the match ended after {ticks} ticks");
            last = Some((
                game.now,
                game.referee.goals(fake_publisher::soccer::Side::Home),
                game.referee.goals(fake_publisher::soccer::Side::Away),
            ));
            ticks
        })
    });
    group.finish();
    if let Some((seconds, home, away)) = last {
        eprintln!("the default match lasts {seconds:.1} simulated seconds ({home} : {away})");
    }
}

criterion_group!(benches, one_second, whole_match);
criterion_main!(benches);
