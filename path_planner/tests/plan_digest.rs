//! Bit-exactness guard: a digest of every plan over about 6,000 plans (the bench's crowded
//! frames with a shared and with per-robot finders, more crowded frames, random static scenes
//! with both sub-destination sets, the no-path ring, the empty field, RoboMaster grid walls
//! and a closed-loop scenario), pinned to the value of the unoptimised planner.
//!
//! Every `f64` of a plan goes in as its bit pattern: each trajectory part, the switch time,
//! the sub-destination, samples of position, velocity and acceleration every 50 ms, the
//! collision, the adapted destination and the outcome. The work counters (distance
//! evaluations, trajectories, paths checked) go into a second digest, pinned separately: an
//! early exit that cannot change a plan changes the counters, never the plans.
//!
//! Run: `cargo test -p path_planner --test plan_digest -- --nocapture` (prints both digests).

mod common;

use common::*;
use path_planner::obstacle::*;
use path_planner::rng::SplitMix64;
use path_planner::traj::{BangBang2D, TrajPath, Trajectory};
use path_planner::*;

/// Digest of the plans (paths, collisions, destinations, outcomes) of the planner before
/// any speed work (commit e0c78c7).
const PLANS_DIGEST: u64 = 0x9fa8_1ab9_ab8a_53ce;
/// Digest of the work counters of the same plans. Unlike the plans, the counters may change
/// on purpose when the planner skips work that cannot change a plan. History: unoptimised
/// `0x356e_73e0_f21d_6c1d`; the switch-time loop stops at the first rejected collision on the
/// sub path `0xc70d_5c93_e202_2870`; the march starts with the track that collided first last
/// time (the others stop at its collision) `0x539d_d96c_e5d5_1d83`; a final march skips the
/// obstacles whose distance bound over the path's box proves them clear
/// `0xb729_e763_fee3_e4be`; a static final march (8+ static obstacles, result only used when
/// accepted) stops at a collision once the path's box proves every collision up to it
/// rejected, and marches the track due first second `0xb581_6ce4_f70f_6e54`; such a march
/// does not box the path for its probe track (which most likely collides)
/// `0xe23f_60b9_0623_4e2d`; the rejection test boxes a switched path per part
/// `0x6f3a_ed6c_5cc1_0a69`; while the sub path has no static collision, a switch time is
/// first settled with the probe track alone (marched on the sub path, continued, marched on
/// the tail), the full marches only when that does not prove the path rejected
/// `0x5161_ad59_1dd0_da8c`; tried with the 5 tracks that found tails' collisions lately,
/// with 12+ static obstacles (was 8) `0xb6b1_9be3_b81a_3af6`; a tail's moving march, once
/// there is a best-rejected candidate, stops at a collision once the path's box keeps
/// beyond the moving acceptor's destination distance and the candidate's
/// `0xf999_2533_48d2_ba62`; the moving tracks are marched on a sub path at every switch time
/// (after one the static test accepted) before its tail is built, while no march can reach
/// the step limit, and a first collision there that the moving acceptor rejects and that is
/// no closer to the destination than the best candidate ends the sub-destination
/// `0x2130_85ff_2273_8dc4`; a final march's rejection test boxes the path from the tracks'
/// earliest next check (a switched path from its switch time on: its second part alone)
/// instead of from time 0 `0x8ef5_d845_e174_3dd8`; while the sub path's moving tracks have
/// no collision, its probe track is marched alone first, and a collision of it beyond the
/// best candidate's distance and the moving acceptor's, with the sub path from the tracks'
/// earliest next check on, ends the sub-destination `0xbf44_bcd1_f757_bd7d`; the moving
/// tracks are only marched early while there is a best candidate `0xc420_8ede_a210_dd65`;
/// after an early moving march without a collision, the tail's moving march goes before the
/// static one, and a collision of it that the moving acceptor rejects and that does not
/// replace the best candidate settles the switch time without the static march:
const STATS_DIGEST: u64 = 0x0829_a117_5b9e_8d20;

/// An order-sensitive 64-bit hash of a stream of words (SplitMix64's finaliser per word).
#[derive(Default)]
struct Digest {
    state: u64,
    words: u64,
}

impl Digest {
    fn word(&mut self, w: u64) {
        let mut z = (self.state ^ w).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.state = z ^ (z >> 31);
        self.words += 1;
    }

    fn f(&mut self, x: f64) {
        self.word(x.to_bits());
    }

    fn v(&mut self, p: Vec2) {
        self.f(p.x);
        self.f(p.y);
    }

    fn traj(&mut self, t: &BangBang2D) {
        for axis in [&t.x, &t.y] {
            self.word(axis.parts().len() as u64);
            for p in axis.parts() {
                self.f(p.t_end);
                self.f(p.acc);
                self.f(p.v0);
                self.f(p.s0);
            }
            self.f(axis.final_position());
        }
    }

    fn path(&mut self, path: &TrajPath) {
        self.traj(path.first());
        self.f(path.switch_time());
        match path.second() {
            Some(s) => self.traj(s),
            None => self.word(0xDEAD),
        }
        match path.sub_destination() {
            Some(s) => self.v(s),
            None => self.word(0xBEEF),
        }
        self.v(path.next_destination());
        self.v(path.final_position());
        self.f(path.total_time());
        self.f(path.max_speed());
        let end = path.total_time().min(60.0) + 0.1;
        let mut k = 0;
        loop {
            let t = k as f64 * 0.05;
            if t > end {
                break;
            }
            let (p, v) = path.pos_vel(t);
            self.v(p);
            self.v(v);
            self.v(path.acceleration(t));
            k += 1;
        }
    }
}

/// The plan digest and the work-counter digest.
#[derive(Default)]
struct Digests {
    plans: Digest,
    stats: Digest,
}

impl Digests {
    fn result(&mut self, r: &PlanResult) {
        let d = &mut self.plans;
        match &r.path {
            Some(p) => d.path(p),
            None => d.word(0xF00D),
        }
        d.word(match r.outcome {
            None => 0,
            Some(Outcome::Direct) => 1,
            Some(Outcome::SubDestination) => 2,
            Some(Outcome::BestRejected) => 3,
        });
        match r.collision {
            Some(c) => {
                d.word(c.obstacle as u64);
                d.f(c.t);
                d.v(c.pos);
                d.f(c.speed);
            }
            None => d.word(0xC0DE),
        }
        d.v(r.dest);
        let s = &mut self.stats;
        s.word(u64::from(r.stats.distance_evals));
        s.word(u64::from(r.stats.trajectories));
        s.word(u64::from(r.stats.paths_checked));
    }
}

/// The bench's 20 frames: one finder cycling through all robots twice (`plan/crowded_per_robot`),
/// then one finder per robot (`frame/22_robots`).
fn bench_crowded(d: &mut Digests) {
    let data = crowded_frames(99, 20);
    let mut shared = PathFinder::new(PlannerConfig::default());
    for k in 0..2 * 20 * 22 {
        let (fi, ri) = ((k / 22) % 20, k % 22);
        let refs = data[fi].1[ri].refs();
        d.result(&shared.plan(&data[fi].0.request(ri, &refs)));
    }
    let mut own = finders_per_robot();
    for (frame, sets) in &data {
        for (ri, pf) in own.iter_mut().enumerate() {
            let refs = sets[ri].refs();
            d.result(&pf.plan(&frame.request(ri, &refs)));
        }
    }
}

/// 60 more crowded frames (other seed), R2024 and R2025 finders, opponents as tubes and circles,
/// accelerating and stopping models.
fn more_crowded(d: &mut Digests) {
    let data = crowded_frames(4242, 60);
    let mut pf24 = PathFinder::new(PlannerConfig::r2024());
    let mut pf25 = PathFinder::new(PlannerConfig {
        seed: 3,
        ..PlannerConfig::r2025()
    });
    for (fi, (frame, sets)) in data.iter().enumerate() {
        for (ri, set) in sets.iter().enumerate() {
            let refs = set.refs();
            d.result(&pf24.plan(&frame.request(ri, &refs)));
            if ri % 2 == 0 {
                let mut alt = ObsSet {
                    field: set.field,
                    own: set.own.clone(),
                    opp: set.opp.clone(),
                    ball: set.ball,
                };
                for o in &mut alt.opp {
                    if fi % 2 == 0 {
                        o.shape = OpponentShape::Circle;
                    }
                    if fi % 3 == 0 {
                        o.model = OpponentModel::Stopping;
                    }
                }
                let refs = alt.refs();
                d.result(&pf25.plan(&frame.request(ri, &refs)));
            }
        }
    }
}

/// 1,500 random static scenes (circles, rectangles, tubes), one finder each for the random
/// and the random + systematic sub-destination sets.
fn static_scenes(d: &mut Digests) {
    let mut rng = SplitMix64::new(2024);
    let mut random = PathFinder::new(PlannerConfig::default());
    let mut systematic = PathFinder::new(PlannerConfig {
        systematic_sub_dests: true,
        seed: 11,
        ..PlannerConfig::r2025()
    });
    for k in 0..1500 {
        let s = random_static_scene(&mut rng);
        let obs = s.obstacles();
        d.result(&random.plan(&req(s.start, s.vel, s.dest, &obs)));
        if k % 3 == 0 {
            d.result(&systematic.plan(&req(s.start, s.vel, s.dest, &obs)));
        }
    }
}

/// The bench's no-path ring (static circles, R2025), a ring of standing opponents (best
/// rejected), and the empty field from several starts.
fn special_scenes(d: &mut Digests) {
    let (f, a, b) = ssl_static();
    let ring: Vec<Circle> = (0..24)
        .map(|k| Circle::new(Vec2::from_angle(k as f64 * 0.2618), 0.2))
        .collect();
    let mut obs: Vec<&dyn Obstacle> = vec![&f, &a, &b];
    obs.extend(ring.iter().map(|c| c as &dyn Obstacle));
    let mut pf = PathFinder::new(PlannerConfig::r2025());
    for k in 0..40 {
        let start = Vec2::new(-1.35, 0.0) + Vec2::from_angle(k as f64) * (0.01 * k as f64);
        d.result(&pf.plan(&req(start, Vec2::ZERO, Vec2::ZERO, &obs)));
    }
    let ops: Vec<OpponentObstacle> = (0..16)
        .map(|k| {
            let mut o = OpponentObstacle::new(
                Vec2::from_angle(k as f64 * std::f64::consts::FRAC_PI_8),
                Vec2::ZERO,
                3.0,
                3.0,
            );
            o.horizon = f64::INFINITY;
            o
        })
        .collect();
    let mut obs: Vec<&dyn Obstacle> = vec![&f, &a, &b];
    obs.extend(ops.iter().map(|c| c as &dyn Obstacle));
    let mut pf = PathFinder::new(PlannerConfig::default());
    for k in 0..40 {
        let start = Vec2::new(-1.35, 0.1 * k as f64 - 2.0);
        d.result(&pf.plan(&req(start, Vec2::new(0.5, 0.2), Vec2::ZERO, &obs)));
    }
    let obs: Vec<&dyn Obstacle> = vec![&f, &a, &b];
    let mut pf = PathFinder::new(PlannerConfig::default());
    let mut rng = SplitMix64::new(5);
    d.result(&pf.plan(&req(
        Vec2::new(-3.0, 0.5),
        Vec2::ZERO,
        Vec2::new(3.0, 0.5),
        &obs,
    )));
    for _ in 0..200 {
        let start = Vec2::new(rng.range(-6.5, 6.5), rng.range(-5.0, 5.0));
        let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 3.5);
        let dest = Vec2::new(rng.range(-6.5, 6.5), rng.range(-5.0, 5.0));
        d.result(&pf.plan(&req(start, vel, dest, &obs)));
    }
    // Degenerate requests: start at the destination, far outside the field.
    d.result(&pf.plan(&req(Vec2::ZERO, Vec2::ZERO, Vec2::ZERO, &obs)));
    d.result(&pf.plan(&req(Vec2::new(-1.69, 1.1e17), Vec2::ZERO, Vec2::ZERO, &obs)));
}

/// 200 drives among the RoboMaster map's walls (grid distance field with slack).
fn grid_scenes(d: &mut Digests) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../resources/RMUL.png");
    let img = image::open(path).expect("RMUL.png").to_luma8();
    let (cols, rows) = (img.width() as usize, img.height() as usize);
    let clearance = 0.3;
    let grid = GridObstacle::from_grey(img.as_raw(), cols, rows, 12.0, 8.0, clearance).unwrap();
    let border = FieldBorder::new(
        Vec2::new(clearance, clearance),
        Vec2::new(12.0 - clearance, 8.0 - clearance),
    );
    let obs: Vec<&dyn Obstacle> = vec![&border, &grid];
    let mut pf = PathFinder::new(PlannerConfig::default());
    let mut rng = SplitMix64::new(8);
    for _ in 0..200 {
        let start = Vec2::new(rng.range(0.5, 11.5), rng.range(0.5, 7.5));
        let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.0);
        let dest = Vec2::new(rng.range(0.5, 11.5), rng.range(0.5, 7.5));
        d.result(&pf.plan(&req(start, vel, dest, &obs)));
    }
}

/// The closed loop `through_opponents` and 2 s of `side_to_center_crossed` (MoveTo, 22 robots
/// seeing each other's published paths): the final states of all robots and the report counters.
fn closed_loops(d: &mut Digests) {
    for (name, limit) in [
        ("through_opponents", None),
        ("side_to_center_crossed", Some(1.0)),
    ] {
        let (mut bots, full) = scenario_bots(name, 7);
        let rep = run(&mut bots, limit.unwrap_or(full), || 0);
        for b in &bots {
            d.plans.v(b.pos);
            d.plans.v(b.vel);
            match &b.path {
                Some(p) => d.plans.path(p),
                None => d.plans.word(0xF00D),
            }
        }
        for w in [
            rep.crashes,
            rep.draws,
            rep.own_contacts,
            rep.opp_contacts,
            rep.plans,
            rep.brakes,
        ] {
            d.plans.word(w as u64);
        }
        d.plans.f(rep.all_arrived.unwrap_or(-1.0));
        d.stats.word(rep.evals);
        d.stats.word(u64::from(rep.max_evals));
    }
}

#[test]
fn every_plan_is_bit_identical_to_the_unoptimised_planner() {
    let mut d = Digests::default();
    bench_crowded(&mut d);
    more_crowded(&mut d);
    static_scenes(&mut d);
    special_scenes(&mut d);
    grid_scenes(&mut d);
    closed_loops(&mut d);
    println!(
        "plans digest {:#018x} ({} words), stats digest {:#018x} ({} words)",
        d.plans.state, d.plans.words, d.stats.state, d.stats.words
    );
    assert_eq!(d.plans.state, PLANS_DIGEST, "a plan changed");
    assert_eq!(d.stats.state, STATS_DIGEST, "the work counters changed");
}
