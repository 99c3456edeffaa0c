//! Shared scene generators and a 100 Hz closed-loop simulator (tests and benches).
#![allow(dead_code)]
#![allow(clippy::approx_constant)] // -3.14 is a coordinate, not π

use path_planner::obstacle::*;
use path_planner::rng::SplitMix64;
use path_planner::traj::{TrajPath, Trajectory};
use path_planner::*;

/// SSL division A field (12 × 9 m, 0.3 m boundary) border and both penalty areas.
pub fn ssl_static() -> (FieldBorder, PenaltyArea, PenaltyArea) {
    (
        FieldBorder::ssl(12.0, 9.0, 0.3, 0.09),
        PenaltyArea::new(-1.0, 6.0, 1.8, 3.6, 0.09),
        PenaltyArea::new(1.0, 6.0, 1.8, 3.6, 0.09),
    )
}

/// A random static scene.
pub struct StaticScene {
    pub start: Vec2,
    pub vel: Vec2,
    pub dest: Vec2,
    pub circles: Vec<Circle>,
    pub rects: Vec<Rectangle>,
    pub tubes: Vec<Tube>,
    pub field: (FieldBorder, PenaltyArea, PenaltyArea),
}

impl StaticScene {
    pub fn obstacles(&self) -> Vec<&dyn Obstacle> {
        let mut v: Vec<&dyn Obstacle> = vec![&self.field.0, &self.field.1, &self.field.2];
        v.extend(self.circles.iter().map(|c| c as &dyn Obstacle));
        v.extend(self.rects.iter().map(|c| c as &dyn Obstacle));
        v.extend(self.tubes.iter().map(|c| c as &dyn Obstacle));
        v
    }
}

fn rand_pt(rng: &mut SplitMix64) -> Vec2 {
    Vec2::new(rng.range(-5.5, 5.5), rng.range(-4.2, 4.2))
}

/// 3–8 random circles, rectangles and tubes; start (clearance ≥ 0.35 m) and destination outside.
pub fn random_static_scene(rng: &mut SplitMix64) -> StaticScene {
    let field = ssl_static();
    loop {
        let n = 3 + (rng.next_u64() % 6) as usize;
        let mut s = StaticScene {
            start: rand_pt(rng),
            vel: Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.0),
            dest: rand_pt(rng),
            circles: vec![],
            rects: vec![],
            tubes: vec![],
            field,
        };
        for _ in 0..n {
            let c = rand_pt(rng);
            match rng.next_u64() % 3 {
                0 => s.circles.push(Circle::new(c, rng.range(0.2, 0.8))),
                1 => {
                    let h = Vec2::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6));
                    s.rects.push(Rectangle::new(c - h, c + h, 0.09));
                }
                _ => {
                    let b = c + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 1.5);
                    s.tubes.push(Tube::new(c, b, rng.range(0.1, 0.3)));
                }
            }
        }
        let obs = s.obstacles();
        let q = |p: Vec2| Query::at_rest(p, 0.0);
        let start_ok = obs.iter().all(|o| o.distance(&q(s.start)) > 0.35);
        let dest_ok = obs.iter().all(|o| o.distance(&q(s.dest)) > 0.0);
        if start_ok && dest_ok {
            return s;
        }
    }
}

/// Worst geometric penetration (most negative distance, no margin) along `path` on [0, t_end].
pub fn worst_distance(obs: &[&dyn Obstacle], path: &TrajPath, t_end: f64) -> f64 {
    let mut worst = f64::INFINITY;
    let n = (t_end / 0.005).ceil() as usize;
    for k in 0..=n {
        let t = (k as f64 * 0.005).min(t_end);
        let (pos, vel) = path.pos_vel(t);
        for o in obs {
            worst = worst.min(o.distance(&Query { t, pos, vel }));
        }
    }
    worst
}

/// One simulated robot.
pub struct Bot {
    pub team: usize,
    pub pos: Vec2,
    pub vel: Vec2,
    pub dest: Vec2,
    pub mover: MoveTo,
    pub path: Option<TrajPath>,
    pub active: bool,
}

/// Result of a closed-loop scenario.
#[derive(Debug, Default)]
pub struct SimReport {
    pub all_arrived: Option<f64>,
    pub crashes: usize,
    pub draws: usize,
    /// Contact events between robots of the same team (not fouls, reported for information).
    pub own_contacts: usize,
    /// All contact events between opposing robots (crash or not).
    pub opp_contacts: usize,
    pub plans: usize,
    pub brakes: usize,
    pub evals: u64,
    pub max_evals: u32,
    pub plan_times_ns: Vec<u64>,
}

pub const LIMITS: MoveLimits = MoveLimits {
    vmax: 3.0,
    amax: 3.0,
};

pub fn make_bot(team: usize, pos: Vec2, dest: Vec2, seed: u64, active: bool) -> Bot {
    let cfg = PlannerConfig {
        seed,
        ..PlannerConfig::default()
    };
    Bot {
        team,
        pos,
        vel: Vec2::ZERO,
        dest,
        mover: MoveTo::new(PathFinder::new(cfg), MoveToConfig::default()),
        path: None,
        active,
    }
}

/// Crash rule of the autoref: speeds reduced by acc·0.1 s, relative speed along the centre line > 1.5 m/s.
/// Returns Some(true) for a crash with a clear culprit, Some(false) for a draw.
pub fn crash_kind(a: &Bot, b: &Bot) -> Option<bool> {
    let reduce = |v: Vec2| {
        let s = v.len();
        if s < 1e-9 {
            v
        } else {
            v * ((s - 0.3).max(0.0) / s)
        }
    };
    let (va, vb) = (reduce(a.vel), reduce(b.vel));
    let n = (b.pos - a.pos).normalized();
    let rel = (va - vb).dot(n);
    if rel <= 1.5 {
        return None;
    }
    Some((va.len() - vb.len()).abs() >= 0.3)
}

/// Runs the closed loop at 100 Hz for up to `t_limit` (+1 s slack) seconds.
///
/// Planning uses the previous frame's states; own robots see each other's published
/// paths (lower index = higher priority), opponents as reachable tubes.
/// `timer` measures one plan (benches pass a wall clock; tests pass a no-op).
pub fn run(bots: &mut [Bot], t_limit: f64, mut timer: impl FnMut() -> u64) -> SimReport {
    let dt = 0.01;
    let (field, pa1, pa2) = ssl_static();
    let mut rep = SimReport::default();
    let mut contact = vec![false; bots.len() * bots.len()];
    let steps = ((t_limit + 1.0) / dt).round() as usize;
    for step in 0..steps {
        let snapshot: Vec<(usize, Vec2, Vec2, Option<TrajPath>)> = bots
            .iter()
            .map(|b| (b.team, b.pos, b.vel, b.path))
            .collect();
        let mut updates = Vec::with_capacity(bots.len());
        for (i, bot) in bots.iter_mut().enumerate() {
            if !bot.active {
                updates.push((bot.pos, bot.vel, bot.path));
                continue;
            }
            let mut own: Vec<TrajectoryRobot> = Vec::new();
            let mut cv: Vec<ConstVelocityRobot> = Vec::new();
            let mut opp: Vec<OpponentObstacle> = Vec::new();
            for (j, &(team, pos, vel, path)) in snapshot.iter().enumerate() {
                if j == i {
                    continue;
                }
                if team == bot.team {
                    match path {
                        Some(p) => {
                            let (prio, horizon) = if j < i {
                                (true, f64::INFINITY)
                            } else {
                                (false, 0.5)
                            };
                            own.push(TrajectoryRobot::new(p, dt, prio, horizon));
                        }
                        None => {
                            let mut c = ConstVelocityRobot::new(pos, vel);
                            c.order = ORDER_OWN_BOT;
                            cv.push(c);
                        }
                    }
                } else {
                    opp.push(OpponentObstacle::new(pos, vel, 3.0, 3.0));
                }
            }
            let mut obs: Vec<&dyn Obstacle> = vec![&field, &pa1, &pa2];
            obs.extend(own.iter().map(|o| o as &dyn Obstacle));
            obs.extend(cv.iter().map(|o| o as &dyn Obstacle));
            obs.extend(opp.iter().map(|o| o as &dyn Obstacle));
            let req = PlanRequest {
                pos: bot.pos,
                vel: bot.vel,
                dest: bot.dest,
                limits: LIMITS,
                obstacles: &obs,
                dt,
            };
            let t_a = timer();
            let (cmd, res) = bot.mover.update(&req);
            let t_b = timer();
            rep.plan_times_ns.push(t_b.saturating_sub(t_a));
            rep.plans += 1;
            rep.evals += res.stats.distance_evals as u64;
            rep.max_evals = rep.max_evals.max(res.stats.distance_evals);
            updates.push(match cmd {
                MoveCommand::Follow { path, .. } => {
                    let (p, v) = path.pos_vel(dt);
                    (p, v, Some(path))
                }
                MoveCommand::Brake { decel } => {
                    rep.brakes += 1;
                    let s = bot.vel.len();
                    let ns = (s - decel * dt).max(0.0);
                    let v = if s > 1e-9 {
                        bot.vel * (ns / s)
                    } else {
                        Vec2::ZERO
                    };
                    (bot.pos + (bot.vel + v) * (0.5 * dt), v, None)
                }
            });
        }
        for (bot, (p, v, path)) in bots.iter_mut().zip(updates) {
            bot.pos = p;
            bot.vel = v;
            bot.path = path;
        }
        let n = bots.len();
        for i in 0..n {
            for j in i + 1..n {
                let touching = bots[i].pos.dist(bots[j].pos) < 0.18;
                let k = i * n + j;
                if bots[i].team == bots[j].team {
                    if touching && !contact[k] {
                        rep.own_contacts += 1;
                    }
                    contact[k] = touching;
                    continue;
                }
                if touching && !contact[k] {
                    rep.opp_contacts += 1;
                    match crash_kind(&bots[i], &bots[j]) {
                        Some(true) => rep.crashes += 1,
                        Some(false) => rep.draws += 1,
                        None => {}
                    }
                }
                contact[k] = touching;
            }
        }
        if rep.all_arrived.is_none()
            && bots
                .iter()
                .filter(|b| b.active)
                .all(|b| b.pos.dist(b.dest) < 1e-3 && b.vel.len() < 1e-3)
        {
            rep.all_arrived = Some((step + 1) as f64 * dt);
            break;
        }
    }
    rep
}

/// Start/destination sets of the Sumatra snapshot scenarios (team 0 = negative x).
/// (team, start, destination) of the moving robots.
pub type Movers = Vec<(usize, Vec2, Vec2)>;
/// (team, position) of standing robots.
pub type Standing = Vec<(usize, Vec2)>;

pub fn scenario(name: &str) -> (Movers, Standing, f64) {
    let row = |team: usize, k: usize| {
        let s = if team == 0 { -1.0 } else { 1.0 };
        Vec2::new(s * 0.36 * (k + 1) as f64, -4.14)
    };
    let slot = |x: f64, k: usize| Vec2::new(x, -1.98 + 0.36 * k as f64);
    let mut bots = Vec::new();
    match name {
        "side_to_center" | "side_to_center_crossed" | "side_to_other_side_crossed" => {
            for team in 0..2 {
                for k in 0..11 {
                    let s = row(team, k);
                    let sign = if team == 0 { -1.0 } else { 1.0 };
                    let d = match name {
                        "side_to_center" => slot(sign * 3.0, k),
                        "side_to_center_crossed" => slot(-sign * 3.0, k),
                        _ => Vec2::new(-s.x, -s.y),
                    };
                    bots.push((team, s, d));
                }
            }
            let limit = match name {
                "side_to_center" => 7.0,
                "side_to_center_crossed" => 8.0,
                _ => 15.0,
            };
            (bots, vec![], limit)
        }
        "front_to_back_crossed" => {
            for team in 0..2 {
                let x = if team == 0 { -4.0 } else { 4.0 };
                for k in 0..11 {
                    let y = -3.3 + 0.6 * k as f64;
                    bots.push((team, Vec2::new(x, y), Vec2::new(-x, y)));
                }
            }
            (bots, vec![], 15.0)
        }
        "through_opponents" => {
            bots.push((0, Vec2::new(-2.63, -1.08), Vec2::new(-2.48, 0.14)));
            (
                bots,
                vec![(1, Vec2::new(-3.14, -0.47)), (1, Vec2::new(-2.15, -0.75))],
                2.0,
            )
        }
        _ => panic!("unknown scenario {name}"),
    }
}

/// Builds the bots of a scenario (standing extras are inactive).
pub fn scenario_bots(name: &str, seed: u64) -> (Vec<Bot>, f64) {
    let (movers, standing, limit) = scenario(name);
    let mut bots: Vec<Bot> = movers
        .iter()
        .enumerate()
        .map(|(i, &(team, s, d))| make_bot(team, s, d, seed ^ (i as u64 * 0x9E37), true))
        .collect();
    bots.extend(
        standing
            .iter()
            .map(|&(team, p)| make_bot(team, p, p, 0, false)),
    );
    (bots, limit)
}

/// Total time of a path (helper for assertions).
pub fn total_time(p: &TrajPath) -> f64 {
    p.total_time()
}

/// A stress frame: 11 + 11 robots moving at 2–3 m/s, the ball rolling at 4 m/s.
pub struct CrowdedFrame {
    pub bots: Vec<(usize, Vec2, Vec2, Vec2, TrajPath)>,
    pub ball: BallObstacle,
}

/// Owned obstacle set of one robot in a [`CrowdedFrame`].
pub struct ObsSet {
    pub field: (FieldBorder, PenaltyArea, PenaltyArea),
    pub own: Vec<TrajectoryRobot>,
    pub opp: Vec<OpponentObstacle>,
    pub ball: BallObstacle,
}

impl ObsSet {
    pub fn refs(&self) -> Vec<&dyn Obstacle> {
        let mut v: Vec<&dyn Obstacle> =
            vec![&self.field.0, &self.field.1, &self.field.2, &self.ball];
        v.extend(self.own.iter().map(|o| o as &dyn Obstacle));
        v.extend(self.opp.iter().map(|o| o as &dyn Obstacle));
        v
    }
}

pub fn crowded_frame(rng: &mut SplitMix64) -> CrowdedFrame {
    let bots = (0..22)
        .map(|i| {
            let team = i / 11;
            let pos = Vec2::new(rng.range(-5.0, 5.0), rng.range(-4.0, 4.0));
            let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(2.0, 3.0);
            let dest = Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
            let path = TrajPath::single(path_planner::traj::BangBang2D::new(
                pos, dest, vel, 3.0, 3.0,
            ));
            (team, pos, vel, dest, path)
        })
        .collect();
    let ball = BallObstacle::new(
        Vec2::new(rng.range(-3.0, 3.0), rng.range(-2.0, 2.0)),
        Vec2::from_angle(rng.range(-3.2, 3.2)) * 4.0,
        0.5,
    );
    CrowdedFrame { bots, ball }
}

impl CrowdedFrame {
    /// Obstacles as robot `i` sees them (teammates by path, lower index has priority).
    pub fn obstacles_for(&self, i: usize) -> ObsSet {
        let me = self.bots[i].0;
        let mut own = Vec::new();
        let mut opp = Vec::new();
        for (j, &(team, pos, vel, _, path)) in self.bots.iter().enumerate() {
            if j == i {
                continue;
            }
            if team == me {
                let (prio, horizon) = if j < i {
                    (true, f64::INFINITY)
                } else {
                    (false, 0.5)
                };
                own.push(TrajectoryRobot::new(path, 0.0, prio, horizon));
            } else {
                opp.push(OpponentObstacle::new(pos, vel, 3.0, 3.0));
            }
        }
        ObsSet {
            field: ssl_static(),
            own,
            opp,
            ball: self.ball,
        }
    }

    pub fn request<'a>(&self, i: usize, obs: &'a [&'a dyn Obstacle]) -> PlanRequest<'a> {
        let (_, pos, vel, dest, _) = self.bots[i];
        PlanRequest {
            pos,
            vel,
            dest,
            limits: LIMITS,
            obstacles: obs,
            dt: 0.01,
        }
    }
}

/// A plan request from `pos` (moving with `vel`) to `dest` among `obstacles`, with the
/// bench's limits and a 10 ms control period.
pub fn req<'a>(
    pos: Vec2,
    vel: Vec2,
    dest: Vec2,
    obstacles: &'a [&'a dyn Obstacle],
) -> PlanRequest<'a> {
    PlanRequest {
        pos,
        vel,
        dest,
        limits: LIMITS,
        obstacles,
        dt: 0.01,
    }
}

/// `n` crowded frames from `seed`, each with every robot's obstacle set (the bench uses
/// seed 99).
pub fn crowded_frames(seed: u64, n: usize) -> Vec<(CrowdedFrame, Vec<ObsSet>)> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let f = crowded_frame(&mut rng);
            let sets = (0..22).map(|i| f.obstacles_for(i)).collect();
            (f, sets)
        })
        .collect()
}

/// One path finder per robot of a crowded frame, each seeded with its robot index (the
/// bench's `frame/22_robots`).
pub fn finders_per_robot() -> Vec<PathFinder> {
    (0..22)
        .map(|i| {
            PathFinder::new(PlannerConfig {
                seed: i,
                ..PlannerConfig::default()
            })
        })
        .collect()
}
