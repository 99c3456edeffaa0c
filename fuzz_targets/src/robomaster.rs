//! The RoboMaster profile's hand-edited files and `decide`'s snapshot lines.

use decision_core::robomaster::config::read_config;
use decision_core::robomaster::decisions::read_decisions;
use decision_core::robomaster::jsonc;
use decision_core::robomaster::snapshot::parse_line_bytes;
use decision_core::robomaster::waypoints::read_waypoints;
use decision_core::robomaster::{Decider, Diagnostics, Tables, TickInput, load};
use std::sync::{Arc, OnceLock};
use waypoint_graph::WaypointGraph;

/// The sample's tables and its snapshots, loaded once per process.
struct Sample {
    tables: Arc<Tables>,
    inputs: Vec<TickInput>,
}

fn sample() -> &'static Sample {
    static SAMPLE: OnceLock<Sample> = OnceLock::new();
    SAMPLE.get_or_init(|| {
        let root = crate::repository();
        let outcome = load(&root.join("sample/config.json"));
        let tables = Arc::new(outcome.tables.expect("the sample configuration loads"));
        let text = std::fs::read_to_string(root.join("sample/snapshots.jsonl"))
            .expect("the sample snapshots are readable");
        let inputs = text
            .lines()
            .filter_map(|l| parse_line_bytes(l.as_bytes()).ok())
            .collect();
        Sample { tables, inputs }
    })
}

/// The lenient JSON reader, in both of its dialects.
pub fn jsonc(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(doc) = jsonc::parse(&text) {
        let _ = doc.to_serde();
    }
    let _ = jsonc::parse_json5(&text);
}

/// `decisions.json`, `waypoints.json` or `config.json` (the first byte chooses). Decisions
/// and waypoints that read without errors replace the sample's, and the compiled tree ticks
/// the sample's snapshots: whatever the reader accepts, the engine must run.
pub fn files(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let Ok(doc) = jsonc::parse(&text) else {
        return;
    };
    let mut diags = Diagnostics::default();
    let sample = sample();
    let base = &sample.tables;
    let tables = match which % 3 {
        0 => {
            let decisions = read_decisions(&doc, "decisions.json", &mut diags);
            if diags.has_errors() {
                return;
            }
            Tables {
                config: base.config.clone(),
                decisions,
                waypoints: base.waypoints.clone(),
                graph: base.graph.clone(),
                map: base.map.clone(),
                files: base.files.clone(),
            }
        }
        1 => {
            let waypoints = read_waypoints(&doc, "waypoints.json", &mut diags);
            if diags.has_errors() {
                return;
            }
            let Ok(graph) =
                WaypointGraph::new(waypoints.iter().map(|w| w.waypoint.clone()).collect())
            else {
                return;
            };
            Tables {
                config: base.config.clone(),
                decisions: base.decisions.clone(),
                waypoints,
                graph,
                map: base.map.clone(),
                files: base.files.clone(),
            }
        }
        _ => {
            let _ = read_config(&doc, "config.json", &mut diags);
            return;
        }
    };
    tick_all(Arc::new(tables), &sample.inputs);
}

/// One `decide` line: parsed, then ticked on the sample's tables after the sample's first
/// snapshots (so that a running decision meets the odd input).
pub fn snapshot_line(data: &[u8]) {
    let Ok(input) = parse_line_bytes(data) else {
        return;
    };
    let sample = sample();
    let Ok(mut decider) = Decider::new(sample.tables.clone()) else {
        return;
    };
    for earlier in sample.inputs.iter().take(4) {
        decider.tick(earlier);
    }
    decider.tick(&input);
    let mut out = String::new();
    decider.write_result_json(4, &mut out);
}

/// Compiles `tables` and ticks every input, writing each result line.
fn tick_all(tables: Arc<Tables>, inputs: &[TickInput]) {
    let Ok(mut decider) = Decider::new(tables) else {
        return;
    };
    let mut out = String::new();
    for (tick, input) in inputs.iter().enumerate() {
        decider.tick(input);
        out.clear();
        decider.write_result_json(tick as u64, &mut out);
    }
}
