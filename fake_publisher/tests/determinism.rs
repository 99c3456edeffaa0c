//! Same scenario + seed = identical frames; another seed differs where random walks are used.

mod common;

use common::{run_until, sample_dir, tables, wall_sim};
use fake_publisher::{Frame, Simulation, load_scenario};

fn frames(seed: u64, seconds: f64) -> Vec<Frame> {
    let path = sample_dir().join("scenarios/hp_retreat.json5");
    let scenario = load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&scenario, tables(&scenario.config_path(&path)), seed)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out = vec![sim.frame()];
    let period = sim.publish_period();
    while sim.time() + period / 2.0 < seconds {
        sim.step(period);
        out.push(sim.frame());
    }
    out
}

#[test]
fn same_seed_gives_identical_frames_over_60_s() {
    let a = frames(7, 60.0);
    let b = frames(7, 60.0);
    assert_eq!(a.len(), 601);
    assert_eq!(a, b);
}

#[test]
fn another_seed_changes_the_random_walk() {
    let a = frames(7, 60.0);
    let b = frames(8, 60.0);
    assert_ne!(a, b);
    // Only the random walker (B7, car_pos 11) differs; everything scripted is the same.
    let walker = |f: &Vec<Frame>| f.iter().map(|x| x.car_pos.pos[11]).collect::<Vec<_>>();
    assert_ne!(walker(&a), walker(&b));
    let others = |f: &Vec<Frame>| {
        f.iter()
            .map(|x| x.car_pos.pos[..11].to_vec())
            .collect::<Vec<_>>()
    };
    assert_eq!(others(&a), others(&b));
}

#[test]
fn without_random_walks_the_seed_does_not_matter() {
    let body = "start: {self: 0, B3: {x: 2, y: 2}}, robots: {B3: {patrol: [1, 3, 4]}}";
    let mut a = wall_sim(body, 1);
    let mut b = wall_sim(body, 99);
    run_until(&mut a, 30.0, 0.1);
    run_until(&mut b, 30.0, 0.1);
    assert_eq!(a.frame(), b.frame());
}

#[test]
fn frames_are_stamped_with_simulated_time() {
    let f = frames(0, 1.5);
    let stamps: Vec<f64> = f
        .iter()
        .map(|x| x.obj_hp.header.stamp.as_secs_f64())
        .collect();
    assert!((stamps[15] - 1.5).abs() < 1e-6, "{stamps:?}");
    assert_eq!(f[15].car_pos.header.frame_id, "map");
    assert!((f[15].game_info.timestamp - 418.5).abs() < 1e-6);
}
