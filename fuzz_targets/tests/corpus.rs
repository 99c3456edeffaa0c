//! Every fuzz target over its seed corpus (`corpus/<target>/`), over every input the fuzzer
//! ever found a crash or hang with (`regressions/<target>/`, each a file named after what it
//! found), and over a seeded mutation round of the seeds: none may panic.
//!
//! The seed corpus is made from the samples and two short recordings by the ignored test
//! `write_seed_corpus` (see `fuzz/README.md`).

use fake_publisher::rng::SplitMix64;
use fuzz_targets::{TARGETS, Target, encode_messages};
use std::path::{Path, PathBuf};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `dir` in name order (none when it does not exist).
fn inputs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file());
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, bytes)
        })
        .collect()
}

fn run_all(target: Target, inputs: &[(PathBuf, Vec<u8>)]) {
    for (path, bytes) in inputs {
        let outcome = std::panic::catch_unwind(|| (target.run)(bytes));
        assert!(
            outcome.is_ok(),
            "target {} panicked on {}",
            target.name,
            path.display()
        );
    }
}

#[test]
fn every_target_has_seeds_and_survives_them() {
    for target in TARGETS {
        let seeds = inputs(&crate_dir().join("corpus").join(target.name));
        assert!(
            seeds.len() >= 2,
            "target {} has {} seeds",
            target.name,
            seeds.len()
        );
        run_all(target, &seeds);
    }
}

#[test]
fn every_input_the_fuzzer_found_is_handled() {
    let mut found = 0;
    for target in TARGETS {
        let regressions = inputs(&crate_dir().join("regressions").join(target.name));
        found += regressions.len();
        run_all(target, &regressions);
    }
    println!("{found} regression inputs");
}

/// One mutation of `seed`: a byte flipped, a run deleted or repeated, an interesting token
/// inserted, or two seeds spliced.
fn mutate(rng: &mut SplitMix64, seed: &[u8], other: &[u8]) -> Vec<u8> {
    const TOKENS: [&[u8]; 14] = [
        b"null",
        b"-1",
        b"1e308",
        b"-0",
        b"NaN",
        b"[]",
        b"{}",
        b"\"",
        b"\\u0000",
        b"<",
        b"/>",
        b"99999999999999999999",
        b",",
        b"\xff\xfe",
    ];
    let mut out = seed.to_vec();
    let at = rng.below(out.len() + 1);
    match rng.below(5) {
        0 if !out.is_empty() => {
            let i = rng.below(out.len());
            out[i] ^= 1 << rng.below(8);
        }
        1 if !out.is_empty() => {
            let end = (at + 1 + rng.below(16)).min(out.len());
            out.drain(at.min(end)..end);
        }
        2 => {
            let end = (at + rng.below(32)).min(out.len());
            let run = out[at..end].to_vec();
            out.splice(at..at, run);
        }
        3 => {
            let token = TOKENS[rng.below(TOKENS.len())];
            out.splice(at..at, token.iter().copied());
        }
        _ => {
            let cut = rng.below(other.len() + 1);
            out.truncate(at);
            out.extend_from_slice(&other[cut..]);
        }
    }
    out
}

#[test]
fn seeded_mutations_of_the_seeds_do_not_panic() {
    const ROUNDS: usize = 150;
    for target in TARGETS {
        let seeds = inputs(&crate_dir().join("corpus").join(target.name));
        let mut rng = SplitMix64::new(0x5EED ^ target.name.len() as u64);
        for round in 0..ROUNDS {
            let seed = &seeds[round % seeds.len()].1;
            let other = &seeds[rng.below(seeds.len())].1;
            let mut input = mutate(&mut rng, seed, other);
            for _ in 0..rng.below(4) {
                input = mutate(&mut rng, &input, other);
            }
            let outcome = std::panic::catch_unwind(|| (target.run)(&input));
            if outcome.is_err() {
                let kept = std::env::temp_dir().join(format!("fuzz-{}-{round}", target.name));
                let _ = std::fs::write(&kept, &input);
                panic!(
                    "target {} panicked on mutation {round} (input kept in {})",
                    target.name,
                    kept.display()
                );
            }
        }
    }
}

/// Writes `corpus/` from the samples and two recordings:
/// `SEED_RM=rm.mcap SEED_SOCCER=soccer.mcap cargo test -p fuzz_targets --test corpus -- --ignored`
/// (make them with `robot-decision sim --seconds 4 --record rm.mcap` and
/// `robot-decision soccer sim --seconds 2 --record soccer.mcap`).
#[test]
#[ignore = "writes the seed corpus; run by hand"]
fn write_seed_corpus() {
    let root = crate_dir().join("..");
    let read = |p: &str| std::fs::read(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let corpus = crate_dir().join("corpus");
    let write = |target: &str, name: &str, bytes: &[u8]| {
        let dir = corpus.join(target);
        std::fs::create_dir_all(&dir).expect("corpus folder");
        std::fs::write(dir.join(name), bytes).expect("corpus file");
    };
    let prefixed = |selector: u8, bytes: Vec<u8>| [vec![selector], bytes].concat();

    for (name, file) in [
        ("config", "sample/config.json"),
        ("decisions", "sample/decisions.json"),
        ("waypoints", "sample/waypoints.json"),
        ("scenario", "sample/scenarios/hp_retreat.json5"),
    ] {
        write("jsonc", name, &read(file));
    }
    write(
        "robomaster_files",
        "decisions",
        &prefixed(0, read("sample/decisions.json")),
    );
    write(
        "robomaster_files",
        "waypoints",
        &prefixed(1, read("sample/waypoints.json")),
    );
    write(
        "robomaster_files",
        "config",
        &prefixed(2, read("sample/config.json")),
    );
    let snapshots = String::from_utf8(read("sample/snapshots.jsonl")).expect("utf-8");
    for (i, line) in snapshots.lines().enumerate().step_by(8) {
        write("snapshot_line", &format!("line_{i:02}"), line.as_bytes());
    }

    // Hostile shapes: nesting far past every parser's depth limit, and sizes that would drive
    // absurd allocations (each must be an error with a position, never a crash).
    let deep = 5000;
    let bangs = "!".repeat(deep);
    let parens = format!("{}1{}", "(".repeat(deep), ")".repeat(deep));
    let brackets = format!("{}{}", "[".repeat(deep), "]".repeat(deep));
    write(
        "bt_xml",
        "deep_script",
        format!(
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><Sequence><Script code=\"x := {parens}\"/><AlwaysSuccess _skipIf=\"{bangs}true\"/></Sequence></BehaviorTree></root>\n"
        )
        .as_bytes(),
    );
    write(
        "bt_xml",
        "deep_elements",
        format!(
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\">{}<AlwaysSuccess/>{}</BehaviorTree></root>\n",
            "<Inverter>".repeat(deep),
            "</Inverter>".repeat(deep)
        )
        .as_bytes(),
    );
    write(
        "json5_tree",
        "deep_script",
        format!(
            "{{type: 'Sequence', children: [{{type: 'Script', ports: {{code: 'x := {parens}'}}}}, {{type: 'AlwaysSuccess', ports: {{_skipIf: '{bangs}true'}}}}]}}\n"
        )
        .as_bytes(),
    );
    write(
        "json5_tree",
        "deep_nesting",
        format!(
            "{{type: 'Sequence', children: {}[]{}}}\n",
            "[{type: 'Inverter', children: ".repeat(2000),
            "}]".repeat(2000)
        )
        .as_bytes(),
    );
    write("jsonc", "deep_nesting", format!("{brackets}\n").as_bytes());
    write(
        "soccer_frame",
        "deep_nesting",
        &prefixed(0, format!("{{\"t\": 0, \"x\": {brackets}}}\n").into_bytes()),
    );
    write(
        "soccer_params",
        "huge_field",
        &prefixed(
            2,
            b"{length: 1e300, width: 1e300, border_strip_width: 1e300}\n".to_vec(),
        ),
    );
    write(
        "soccer_params",
        "thin_field",
        &prefixed(
            2,
            b"{length: 0.5, width: 100, goal_inner_width: 0.1, penalty_marker_distance: 0.1, goal_box_area_length: 0.1, goal_box_area_width: 1, penalty_area_length: 0.2, penalty_area_width: 2, center_circle_diameter: 0.2}\n".to_vec(),
        ),
    );
    write(
        "soccer_params",
        "fine_heatmap",
        &prefixed(1, b"{cells_along_field_length: 1000}\n".to_vec()),
    );

    // ROS 2 payloads: one of every type, as the bus's own CDR sample test writes them
    // (`ROS2_CDR_DIR=... cargo test -p bus --test ros2_cdr -- --ignored write_samples`).
    if let Ok(dir) = std::env::var("SEED_ROS2_CDR") {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("SEED_ROS2_CDR readable")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for json in files {
            let values: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&json).expect("values")).expect("json");
            let type_name = values["type"].as_str().expect("type");
            let selector = fuzz_targets::ROS2_TYPES
                .iter()
                .position(|t| *t == type_name)
                .expect("a fuzzed type");
            let payload = std::fs::read(json.with_extension("cdr")).expect("payload");
            let stem = json.file_stem().and_then(|s| s.to_str()).expect("name");
            write("ros2_cdr", stem, &prefixed(selector as u8, payload));
        }
    }

    let rm_path = std::env::var("SEED_RM").expect("SEED_RM names a RoboMaster recording");
    let rm_bytes = std::fs::read(&rm_path).expect("SEED_RM readable");
    let rm = bus::recording::read_mcap_bytes(&rm_bytes).expect("SEED_RM reads");
    let inputs: Vec<(u8, &[u8])> = rm
        .messages
        .iter()
        .filter_map(|m| {
            let i = bus::topics::NODE_INPUTS
                .iter()
                .position(|t| *t == m.topic)?;
            Some((i as u8, m.data.as_slice()))
        })
        .collect();
    for (part, chunk) in inputs.chunks(12).take(4).enumerate() {
        write(
            "bus_inputs",
            &format!("ticks_{part}"),
            &encode_messages(chunk.iter().copied()),
        );
    }
    write("mcap", "robomaster", &rm_bytes);

    let soccer_path = std::env::var("SEED_SOCCER").expect("SEED_SOCCER names a soccer recording");
    let soccer_bytes = std::fs::read(&soccer_path).expect("SEED_SOCCER readable");
    write("mcap", "soccer", &soccer_bytes);
    let soccer = bus::recording::read_mcap_bytes(&soccer_bytes).expect("SEED_SOCCER reads");
    let robots = decision_node::runtime::replay::soccer::recorded_robots(&soccer);
    let robot = robots
        .iter()
        .find(|r| r.player == 3)
        .expect("robot 3 recorded");
    let mut lines = Vec::new();
    for (i, frame) in robot.frames().iter().step_by(10).take(3).enumerate() {
        let header = bus::messages::Header::at(frame.t);
        let payloads: [Vec<u8>; 5] = [
            serde_json::to_vec(&bus::soccer::GameStateMsg {
                header: header.clone(),
                primary_state: frame.primary_state,
                game: frame.game.clone(),
            }),
            serde_json::to_vec(&bus::soccer::LocalizationMsg {
                header: header.clone(),
                pose: frame.pose,
                head_yaw: frame.head_yaw,
            }),
            serde_json::to_vec(&bus::soccer::BallMsg {
                header: header.clone(),
                ball: frame.ball,
                rule_ball: frame.rule_ball,
            }),
            serde_json::to_vec(&bus::soccer::ObstaclesMsg {
                header: header.clone(),
                obstacles: frame.obstacles.clone(),
            }),
            serde_json::to_vec(&bus::soccer::FallStateMsg {
                header,
                fallen: frame.fallen,
                stand_up_available: frame.stand_up_available,
            }),
        ]
        .map(|p| p.expect("encodes"));
        let messages = payloads
            .iter()
            .enumerate()
            .map(|(k, p)| (k as u8, p.as_slice()));
        write(
            "soccer_inputs",
            &format!("frame_{i}"),
            &encode_messages(messages),
        );
        lines.push(serde_json::to_string(frame).expect("frame encodes"));
    }
    write(
        "soccer_frame",
        "decide",
        &prefixed(0, lines.join("\n").into_bytes()),
    );
    write(
        "soccer_frame",
        "kickoff",
        &prefixed(0, read("sample/soccer/frames/kickoff.jsonl")),
    );
    let heatmap = read("robot_decision/tests/fixtures/heatmap/growth.jsonl");
    write("soccer_frame", "heatmap", &prefixed(1, heatmap));
    for (i, stem) in soccer_profile::params::FILE_STEMS.iter().enumerate() {
        let text = read(&format!("sample/soccer/parameters/base/{stem}.json5"));
        write("soccer_params", stem, &prefixed(i as u8, text));
    }
    for tree in [
        "sample/soccer/trees/booster_style.xml",
        "bt_xml/benches/trees/game_like_while.xml",
        "bt_xml/tests/fixtures/simple.xml",
    ] {
        let name = Path::new(tree)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("tree");
        write("bt_xml", name, &read(tree));
    }
    for tree in [
        "sample/trees/patrol.json5",
        "sample/soccer/behavior_tree.json5",
    ] {
        let name = Path::new(tree)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("tree");
        write("json5_tree", name, &read(tree));
    }
}
