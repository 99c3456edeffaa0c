//! Replay speed in "x real time": records a whole 7-minute match of the sample scenario
//! (`sim --record`) at the scenario's 10 Hz and at 50 Hz (a copy of the scenario with
//! `rate: 50`), then replays each recording through a fresh node as `replay` does: read the
//! file, feed the inputs in log-time order, compare with the recorded decisions.
//! `cargo bench -p decision_node --bench replay` (ROBOT_DECISION_REPLAY_RUNS, default 5).

use decision_node::runtime::record::{Recorder, RunFacts};
use decision_node::runtime::replay::{diff, load_tables, read_mcap, replay_messages, traces};
use decision_node::runtime::sim::{SimOptions, simulate_recorded};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

fn record(config: &Path, scenario_path: &Path, out: &Path) -> u64 {
    let tables = load_tables(config).expect("the sample loads");
    let scenario = fake_publisher::load_scenario(scenario_path).expect("the scenario loads");
    let facts = RunFacts {
        command: "sim".into(),
        seed: Some(1),
        config_path: config.to_path_buf(),
        scenario: Some(scenario_path.to_path_buf()),
        ..RunFacts::default()
    };
    let mut recorder = Recorder::create(out, &facts, &tables).expect("recorder");
    let options = SimOptions {
        seconds: None,
        speed: 0.0,
        seed: 1,
        json: true,
    };
    let summary = simulate_recorded(
        Arc::clone(&tables),
        &scenario,
        &options,
        &mut std::io::sink(),
        Some(&mut recorder),
    )
    .expect("simulates");
    recorder.finish().expect("finishes");
    summary.ticks
}

fn bench(label: &str, config: &Path, file: &Path, runs: usize) {
    let bytes = std::fs::metadata(file).map_or(0, |m| m.len());
    let mut read_s = Vec::new();
    let mut replay_s = Vec::new();
    let mut total_s = Vec::new();
    let mut recorded = 0.0;
    let mut ticks = 0;
    let mut inputs = 0;
    for _ in 0..runs {
        let t0 = Instant::now();
        let recording = read_mcap(file).expect("reads");
        let t1 = Instant::now();
        let tables = load_tables(config).expect("loads");
        let replayed =
            replay_messages(Arc::clone(&tables), &recording.messages, &|_, _| {}).expect("ok");
        let t2 = Instant::now();
        let report = diff(&traces(&recording), &replayed, Some(&tables), Some(&tables));
        let t3 = Instant::now();
        assert!(report.identical && report.traces_identical, "{report:?}");
        recorded = recording.span().map_or(0.0, |(a, b)| b - a);
        ticks = replayed.len();
        inputs = recording
            .messages
            .iter()
            .filter(|m| bus::topics::NODE_INPUTS.contains(&m.topic.as_str()))
            .count();
        read_s.push((t1 - t0).as_secs_f64());
        replay_s.push((t2 - t1).as_secs_f64());
        total_s.push((t3 - t0).as_secs_f64());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (read, replay, total) = (
        median(&mut read_s),
        median(&mut replay_s),
        median(&mut total_s),
    );
    println!(
        "{label}: {recorded:.0} s recorded, {bytes} bytes, {inputs} inputs, {ticks} ticks; \
         median of {runs}: read {read:.3} s, node {replay:.3} s, read+node+diff {total:.3} s \
         => {:.0} x real time (node only {:.0} x, {:.0} ticks/s)",
        recorded / total,
        recorded / replay,
        ticks as f64 / replay
    );
}

fn main() {
    let runs: usize = std::env::var("ROBOT_DECISION_REPLAY_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let config = repo.join("sample/config.json");
    let scenario = repo.join("sample/scenarios/hp_retreat.json5");
    let dir = tempfile::tempdir().expect("temp dir");
    // The 50 Hz copy: same scenario, `rate: 50`, the field named by absolute path.
    let text = std::fs::read_to_string(&scenario).expect("scenario");
    let fast = text.replace("rate: 10,", "rate: 50,").replace(
        "field: \"../config.json\"",
        &format!("field: {:?}", config.display().to_string()),
    );
    assert!(
        fast.contains("rate: 50,"),
        "the scenario's rate line changed"
    );
    let scenario50: PathBuf = dir.path().join("hp_retreat_50hz.json5");
    std::fs::write(&scenario50, fast).expect("write");
    for (label, path, name) in [
        ("10 Hz", &scenario, "match10.mcap"),
        ("50 Hz", &scenario50, "match50.mcap"),
    ] {
        let file = dir.path().join(name);
        let t = Instant::now();
        let ticks = record(&config, path, &file);
        println!(
            "{label}: recorded {ticks} ticks in {:.2} s (sim --record)",
            t.elapsed().as_secs_f64()
        );
        bench(label, &config, &file, runs);
    }
}
