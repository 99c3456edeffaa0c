//! `robot-decision sim` on the opt-in combat scenario `under_fire.json5`: the match depends on
//! the decisions. A decisions file that retreats behind the wall when its HP falls to 400 ends
//! with more HP than one that holds the fire point under fire (test decisions in
//! `tests/fixtures/under_fire/`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sim(config: &str, seed: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_robot-decision"))
        .args([
            "sim",
            config,
            "--scenario",
            "sample/scenarios/under_fire.json5",
        ])
        .args(["--seed", seed])
        .current_dir(repo())
        .output()
        .unwrap_or_else(|e| panic!("cannot run robot-decision: {e}"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Our HP at the end, from the summary line `... combat: own HP 380.0, damage dealt ...`.
fn own_hp_at_end(output: &str) -> f64 {
    output
        .lines()
        .rev()
        .find_map(|l| l.split_once("combat: own HP ")?.1.split(',').next())
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no combat summary in:\n{output}"))
}

const STAND: &str = "robot_decision/tests/fixtures/under_fire/config_stand.json";
const RETREAT: &str = "robot_decision/tests/fixtures/under_fire/config_retreat.json";

#[test]
fn under_fire_retreating_ends_with_more_hp_than_standing() {
    let stand = sim(STAND, "7");
    let retreat = sim(RETREAT, "7");
    let (hp_stand, hp_retreat) = (own_hp_at_end(&stand), own_hp_at_end(&retreat));
    assert!(
        hp_retreat > hp_stand + 100.0,
        "retreat {hp_retreat} HP, stand {hp_stand} HP\n{retreat}"
    );
    // Standing, the sentry is destroyed and the sim says so; retreating, it hides at 0.
    assert!(
        stand.contains("our robot is destroyed (HP 0): it stops"),
        "{stand}"
    );
    assert!(!retreat.contains("destroyed"), "{retreat}");
    assert!(
        retreat.contains("decision 1 \"retreat_behind_wall\": goal sent, path 0"),
        "{retreat}"
    );
    // Same seed, same match, byte for byte.
    assert_eq!(retreat, sim(RETREAT, "7"));
}
