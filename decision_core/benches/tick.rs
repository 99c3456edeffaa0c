//! One RoboMaster tick: on our sample (tick only, and tick + `decide` result as JSON), and on a
//! generated table of 10,000 decisions over 1,000 waypoints.

use criterion::{Criterion, criterion_group, criterion_main};
use decision_core::robomaster::snapshot::parse_line;
use decision_core::robomaster::{Decider, Point2, TickInput, load};
use serde_json::json;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn decider_for(config: &Path) -> Decider {
    let outcome = load::load(config);
    let tables = outcome
        .tables
        .unwrap_or_else(|| panic!("{}", outcome.diagnostics));
    Decider::new(Arc::new(tables)).unwrap_or_else(|e| panic!("{e:?}"))
}

fn sample_inputs() -> Vec<TickInput> {
    let text = std::fs::read_to_string(repo().join("sample/snapshots.jsonl")).expect("snapshots");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| parse_line(l).ok())
        .collect()
}

/// A tiny deterministic generator (no dependency on rand for benches).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// Writes a 25 m x 15 m field with a 40 x 25 grid of waypoints and `count` decisions.
fn generated_field(dir: &Path, count: usize) {
    let (cols, rows) = (40usize, 25usize);
    let mut waypoints = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let id = r * cols + c;
            let mut connect = Vec::new();
            if c + 1 < cols {
                connect.push(id + 1);
            }
            if r + 1 < rows {
                connect.push(id + cols);
            }
            if c > 0 {
                connect.push(id - 1);
            }
            if r > 0 {
                connect.push(id - cols);
            }
            waypoints.push(json!({"id": id, "name": format!("w{id}"), "type": 0, "x": 0.3 + c as f64 * 0.6, "y": 0.3 + r as f64 * 0.58, "angle": 0.0, "connect": connect}));
        }
    }
    let mut rng = Lcg(7);
    let n = (cols * rows) as u64;
    let decisions: Vec<_> = (0..count)
        .map(|i| {
            let here: Vec<u64> = (0..3).map(|_| rng.next(n)).collect();
            let min_hp = rng.next(400) as i64;
            let start = rng.next(300) as i64;
            json!({
                "id": i, "name": format!("d{i}"), "wayPointID": if i % 4 == 0 { json!([-1]) } else { json!(here) },
                "weight": 1 + rng.next(1000), "start_time": start, "end_time": start + 120, "robot_mode": -1,
                "minHP": min_hp, "maxHP": min_hp + 300, "decide_mode": 6, "decide_wayPoint": rng.next(n),
                "out_post_HP_min": -1, "base_HP_min": 100, "if_succession": i % 10 == 0, "if_reverse": false,
                "enemyPosition": [[-1], [-1], [-1], [-1], [-1], if i % 7 == 0 { json!([rng.next(n)]) } else { json!([-1]) }],
                "friendPosition": [[-1], [-1], [-1], [-1], [-1], [-1]]
            })
        })
        .collect();
    let config = json!({"config": {
        "Debug": false, "WayPointsPATH": "waypoints.json", "DecisionsPATH": "decisions.json", "MAP_PATH": repo().join("resources/RMUL.png"),
        "REAL_WIDTH": 25.0, "REAL_HEIGHT": 15.0, "GOAL_TIME_THR_SEC": 2, "TIME_THR": 1, "CAR_SEEK_FOV": 70.0,
        "INIT_DISTANCE_THR": 1.0, "INIT_SEEK_THR": 10.0, "INIT_ISBLUE": false, "INIT_IFSHOWUI": false, "INIT_SELFINDEX": 5,
        "INIT_FRIENDOUTPOSTINDEX": 6, "INIT_FRIENDBASEINDEX": 7, "STEP_DISTANCE": 0.1, "GAME_TIME": 420
    }});
    std::fs::write(dir.join("config.json"), config.to_string()).expect("write");
    std::fs::write(
        dir.join("waypoints.json"),
        json!({"data": waypoints}).to_string(),
    )
    .expect("write");
    std::fs::write(
        dir.join("decisions.json"),
        json!({"data": decisions}).to_string(),
    )
    .expect("write");
}

fn large_inputs() -> Vec<TickInput> {
    let mut rng = Lcg(11);
    (0..64)
        .map(|_| {
            let mut input = TickInput {
                hp: [500; 16],
                remaining_time: 200.0,
                ..TickInput::default()
            };
            for p in input.positions.iter_mut() {
                *p = Point2 {
                    x: 0.3 + rng.next(40) as f32 * 0.6,
                    y: 0.3 + rng.next(25) as f32 * 0.58,
                };
            }
            input.hp[5] = rng.next(600) as u16;
            input.nav_status = [0, 2, 4][rng.next(3) as usize];
            input
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut sample = decider_for(&repo().join("sample/config.json"));
    let inputs = sample_inputs();
    let mut i = 0;
    c.bench_function("tick/sample", |b| {
        b.iter(|| {
            i = (i + 1) % inputs.len();
            black_box(sample.tick(&inputs[i]))
        })
    });
    let mut out = Vec::with_capacity(1 << 16);
    c.bench_function("tick/sample_with_decide_json", |b| {
        b.iter(|| {
            i = (i + 1) % inputs.len();
            sample.tick(&inputs[i]);
            out.clear();
            serde_json::to_writer(&mut out, &sample.result()).expect("json");
            black_box(out.len())
        })
    });
    // What `decide` does per line: parse the snapshot, tick, write the result line.
    let lines: Vec<String> = std::fs::read_to_string(repo().join("sample/snapshots.jsonl"))
        .expect("snapshots")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let mut line_out = String::new();
    c.bench_function("decide/line_parse_tick_serialise", |b| {
        b.iter(|| {
            i = (i + 1) % lines.len();
            let input = decision_core::robomaster::snapshot::parse_line_bytes(lines[i].as_bytes())
                .expect("sample line");
            sample.tick(&input);
            line_out.clear();
            sample.write_result_json(i as u64, &mut line_out);
            black_box(line_out.len())
        })
    });
    let dir = tempfile::tempdir().expect("tempdir");
    generated_field(dir.path(), 10_000);
    let mut large = decider_for(&dir.path().join("config.json"));
    let inputs = large_inputs();
    c.bench_function("tick/10k_decisions_1k_waypoints", |b| {
        b.iter(|| {
            i = (i + 1) % inputs.len();
            black_box(large.tick(&inputs[i]))
        })
    });
    c.bench_function("load/sample_with_map_resize", |b| {
        b.iter(|| {
            black_box(
                load::load(&repo().join("sample/config.json"))
                    .tables
                    .is_some(),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
