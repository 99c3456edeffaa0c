//! The five moving-robot scenarios (closed loop, 100 Hz): arrival within the time limits, crashes.

mod common;

use common::*;

fn check(name: &str) {
    let (mut bots, limit) = scenario_bots(name, 11);
    let rep = run(&mut bots, limit, || 0);
    println!(
        "{name}: arrived {:?} (limit {limit} s), crashes {}, draws {}, own contacts {}, opponent contacts {}, plans {}, brake frames {}, evals/plan {:.0} (max {})",
        rep.all_arrived,
        rep.crashes,
        rep.draws,
        rep.own_contacts,
        rep.opp_contacts,
        rep.plans,
        rep.brakes,
        rep.evals as f64 / rep.plans as f64,
        rep.max_evals
    );
    let t = rep.all_arrived.unwrap_or_else(|| {
        let far: Vec<_> = bots
            .iter()
            .filter(|b| b.active && b.pos.dist(b.dest) >= 1e-3)
            .map(|b| (b.pos, b.dest))
            .collect();
        panic!("{name}: not all robots arrived: {far:?}")
    });
    assert!(t <= limit, "{name}: {t} s > {limit} s");
    assert_eq!(rep.crashes, 0, "{name}: crashes under the 1.5 m/s rule");
}

#[test]
fn side_to_center() {
    check("side_to_center");
}

#[test]
fn side_to_center_crossed() {
    check("side_to_center_crossed");
}

#[test]
fn side_to_other_side_crossed() {
    check("side_to_other_side_crossed");
}

#[test]
fn front_to_back_crossed() {
    check("front_to_back_crossed");
}

#[test]
fn through_opponents() {
    check("through_opponents");
}
