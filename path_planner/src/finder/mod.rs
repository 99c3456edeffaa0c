//! The lazy path finder: direct path, then sub-destinations with switch times, first acceptable wins.

pub mod acceptor;
mod clearance;
pub mod collision;
pub mod input;
pub mod subdest;

use crate::config::{MoveLimits, PlannerConfig};
use crate::obstacle::Obstacle;
use crate::rng::SplitMix64;
use crate::traj::{BangBang2D, TrajPath, Trajectory};
use acceptor::{RejectionTest, accept_motionless, accept_moving};
use clearance::{Clearance, ClearanceLimits};
pub use collision::Collision;
use collision::{Bound, LazyVerdict, ObstacleFacts, TrackSet};
use geometry::Vec2;
use subdest::NormSub;

/// One planning request (the robot's state now).
#[derive(Clone, Copy)]
pub struct PlanRequest<'a> {
    /// Robot position (m).
    pub pos: Vec2,
    /// Robot velocity (m/s).
    pub vel: Vec2,
    /// Desired destination (m).
    pub dest: Vec2,
    /// Movement limits.
    pub limits: MoveLimits,
    /// All obstacles for this robot.
    pub obstacles: &'a [&'a dyn Obstacle],
    /// Frame time since the last call (s) (drives the switch-grid phase).
    pub dt: f64,
}

/// How the returned path was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The direct trajectory was acceptable.
    Direct,
    /// A two-part path via a sub-destination was acceptable.
    SubDestination,
    /// No acceptable path: the statically acceptable path whose moving collision is closest to the goal.
    BestRejected,
}

/// Work counters of one plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanStats {
    /// Obstacle distance evaluations ("collision checks").
    pub distance_evals: u32,
    /// Bang-bang 2D trajectories built.
    pub trajectories: u32,
    /// Candidate paths run through the acceptors.
    pub paths_checked: u32,
}

/// The result of one plan.
#[derive(Clone, Copy, Debug)]
pub struct PlanResult {
    /// The path to follow; `None` = no path at all (the caller should brake).
    pub path: Option<TrajPath>,
    /// How the path was found.
    pub outcome: Option<Outcome>,
    /// First collision on the path (static or moving), obstacle index into the request's list.
    pub collision: Option<Collision>,
    /// The (possibly adapted) destination.
    pub dest: Vec2,
    /// Work counters.
    pub stats: PlanStats,
}

/// Stateful path finder (keeps the last sub-destination, the switch-grid phase and the PRNG).
#[derive(Clone, Debug)]
pub struct PathFinder {
    cfg: PlannerConfig,
    clearance_limits: ClearanceLimits,
    rng: SplitMix64,
    last_sub: Option<NormSub>,
    time_correction: f64,
    input: input::InputScratch,
    kept: Vec<usize>,
    static_facts: Vec<ObstacleFacts>,
    moving_facts: Vec<ObstacleFacts>,
    subs: Vec<NormSub>,
    systematic: Vec<NormSub>,
    sub_static: TrackSet,
    sub_moving: TrackSet,
    tail_static: TrackSet,
    tail_moving: TrackSet,
    /// Static tracks that lately found a tail's collision, latest first (distinct; out of
    /// range: none): the candidates that settle a switch time alone.
    recent_colliders: [usize; RECENT_COLLIDERS],
}

/// Fewest static obstacles for which a static march stops once its collision is provably
/// rejected and switch times are first tried with one track: the test costs about a path
/// box and a failed try a tail march, and they can only save the other tracks' work
/// (measured: random clutter of 6 to 11 static obstacles got about 3% slower with 8).
const MIN_STATIC_TO_TEST_REJECTION: usize = 12;

/// How many recent colliding tracks a switch time is tried with alone (measured on the ring
/// of `plan/no_path`: 1, 3, 5 and 8 tracks gave 275k, 234k, 192k and 189k instructions).
const RECENT_COLLIDERS: usize = 5;

/// Most check steps a march on a sub path up to the last switch time may take for the moving
/// tracks to be marched at every switch time (well below [`collision`]'s 4,000, after which
/// a march gives up: below it, a march split at more switch times takes the same samples).
const MAX_EARLY_PREFIX_STEPS: f64 = 3000.0;

/// Puts track `k` first in `recent` (moving the others down, dropping the last).
fn note_collider(recent: &mut [usize; RECENT_COLLIDERS], k: usize) {
    let at = recent
        .iter()
        .position(|&r| r == k)
        .unwrap_or(RECENT_COLLIDERS - 1);
    recent.copy_within(0..at, 1);
    recent[0] = k;
}

/// [`TrackSet::lazy_tail_verdict`] with the `recent` colliding tracks in turn, until one
/// settles the switch time or collides on the sub path (out of line: most plans never try).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn settle_alone(
    sub_tracks: &mut TrackSet,
    recent: &mut [usize; RECENT_COLLIDERS],
    obstacles: &[&dyn Obstacle],
    facts: &[ObstacleFacts],
    sub_path: &TrajPath,
    ts: f64,
    sub: Bound,
    path: &TrajPath,
    end: f64,
    comb: Bound,
    cfg: &PlannerConfig,
    rejection: &RejectionTest,
    evals: &mut u32,
) -> LazyVerdict {
    for k in *recent {
        let verdict = sub_tracks.lazy_tail_verdict(
            k, obstacles, facts, sub_path, ts, sub, path, end, comb, cfg, rejection, evals,
        );
        if verdict == LazyVerdict::Rejected {
            note_collider(recent, k);
        }
        if verdict != LazyVerdict::Undecided {
            return verdict;
        }
    }
    LazyVerdict::Undecided
}

struct Best {
    dist: f64,
    path: TrajPath,
    collision: Collision,
    sub: Option<NormSub>,
}

/// Whether a rejected path with its moving collision `dist` from the destination replaces the
/// best candidate (there is none, or it is closer).
fn replaces_best(best: Option<&Best>, dist: f64) -> bool {
    best.is_none_or(|b| dist < b.dist)
}

fn earlier(a: Option<Collision>, b: Option<Collision>) -> Option<Collision> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.t < x.t { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

impl PathFinder {
    /// Creates a path finder; the PRNG is seeded from `cfg.seed`.
    pub fn new(cfg: PlannerConfig) -> Self {
        Self {
            rng: SplitMix64::new(cfg.seed),
            clearance_limits: ClearanceLimits::of(&cfg),
            cfg,
            last_sub: None,
            time_correction: 0.0,
            input: input::InputScratch::default(),
            kept: Vec::new(),
            static_facts: Vec::new(),
            moving_facts: Vec::new(),
            subs: Vec::new(),
            systematic: Vec::new(),
            sub_static: TrackSet::default(),
            sub_moving: TrackSet::default(),
            tail_static: TrackSet::default(),
            tail_moving: TrackSet::default(),
            recent_colliders: [usize::MAX; RECENT_COLLIDERS],
        }
    }

    /// The configuration given to [`new`](Self::new); it cannot change afterwards.
    pub fn config(&self) -> &PlannerConfig {
        &self.cfg
    }

    /// Plans one frame.
    pub fn plan(&mut self, req: &PlanRequest<'_>) -> PlanResult {
        let cfg = &self.cfg;
        let limits = self.clearance_limits;
        let obs = req.obstacles;
        let mut stats = PlanStats::default();
        let t0 = cfg.t0 + self.time_correction;
        self.time_correction -= req.dt;
        if self.time_correction < 0.0 {
            self.time_correction = 0.02;
        }
        let (vmax, amax) = (req.limits.vmax, req.limits.amax);
        let mut v0 = req.vel;
        let speed0 = v0.len();
        if speed0 > vmax && speed0 <= vmax + cfg.adapt_vel_band {
            v0 = v0 * (vmax / speed0);
        }
        let start = req.pos;
        let dest = input::process(obs, start, req.dest, &mut self.input, &mut self.kept);
        self.static_facts.clear();
        self.moving_facts.clear();
        for &i in &self.kept {
            let facts = ObstacleFacts::of(obs, i);
            if obs[i].is_motionless() {
                self.static_facts.push(facts);
            } else {
                self.moving_facts.push(facts);
            }
        }
        let (static_facts, moving_facts) = (&self.static_facts[..], &self.moving_facts[..]);
        let accept_mov =
            |c: Option<&Collision>| accept_moving(c, obs, start, dest, speed0, amax, cfg);
        // Static marches whose result only matters when accepted stop once it cannot be
        // (with few static obstacles there is too little left to skip to pay for the test).
        let rejection = if static_facts.len() >= MIN_STATIC_TO_TEST_REJECTION {
            RejectionTest::new(start, dest, cfg)
        } else {
            None
        };
        // Whether the moving tracks may be marched on a sub path at every switch time, not only
        // at those the static tracks accept (see the sub-destination loop): a positive check
        // step (samples at least that far apart), and margins and obstacle speeds that are
        // never NaN or infinite.
        let early_moving_cfg = !moving_facts.is_empty()
            && cfg.min_check_step > 0.0
            && cfg.min_check_step.is_finite()
            && cfg.margin_vref > 0.0
            && cfg.margin_vref.is_finite()
            && cfg.margin_base.is_finite()
            && moving_facts.iter().all(|f| f.max_speed.is_finite());
        let mut best: Option<Best> = None;
        let consider =
            |best: &mut Option<Best>, path: TrajPath, c: Collision, sub: Option<NormSub>| {
                let dist = c.pos.dist(dest);
                if replaces_best(best.as_ref(), dist) {
                    *best = Some(Best {
                        dist,
                        path,
                        collision: c,
                        sub,
                    });
                }
            };

        // 1. Direct path.
        // Built as the result's `Some` (returned without another copy of the path).
        let direct_result = Some(TrajPath::single(BangBang2D::new(
            start, dest, v0, vmax, amax,
        )));
        let Some(direct) = &direct_result else {
            unreachable!("built as Some")
        };
        stats.trajectories += 1;
        stats.paths_checked += 1;
        let b = Bound::of(direct, cfg);
        let end = direct.total_time();
        self.tail_static.reset(static_facts, t0);
        let mut direct_clearance = Clearance::new(direct, limits);
        let s_hit = self.tail_static.march_final(
            obs,
            static_facts,
            &mut direct_clearance,
            end,
            b,
            cfg,
            &mut stats.distance_evals,
            rejection.as_ref(),
        );
        if accept_motionless(s_hit.as_ref(), start, dest, cfg) {
            self.tail_moving.reset(moving_facts, t0);
            let m_hit = self.tail_moving.march_final(
                obs,
                moving_facts,
                &mut direct_clearance,
                end,
                b,
                cfg,
                &mut stats.distance_evals,
                None,
            );
            if accept_mov(m_hit.as_ref()) {
                return PlanResult {
                    path: direct_result,
                    outcome: Some(Outcome::Direct),
                    collision: earlier(s_hit, m_hit),
                    dest,
                    stats,
                };
            }
            if let Some(c) = m_hit {
                consider(&mut best, *direct, c, None);
            }
        }

        // 2. Sub-destinations.
        subdest::random_set(
            &mut self.rng,
            cfg.random_sub_dests,
            self.last_sub,
            &mut self.subs,
        );
        if cfg.systematic_sub_dests {
            subdest::systematic_set(&mut self.rng, &mut self.systematic);
            self.subs.extend_from_slice(&self.systematic);
        }
        for k in 0..self.subs.len() {
            let ns = self.subs[k];
            self.last_sub = Some(ns);
            let sub_dest = ns.denormalise(start, dest);
            let sub = BangBang2D::new(start, sub_dest, v0, vmax, amax);
            stats.trajectories += 1;
            let t_sub = sub.total_time();
            if t_sub > cfg.max_sub_time {
                continue;
            }
            let sub_path = TrajPath::single(sub);
            let sb = Bound::of(&sub_path, cfg);
            // The moving tracks are marched on the sub path at switch times (after the static
            // test accepted the last one, and with a best candidate, without which nothing ends
            // the sub-destination early) before the tail is built, when no march on it
            // can reach the march's step limit: its samples lie in [t0, t_sub), at least the
            // smallest check step apart. However the marches are split, every track then takes
            // the same samples up to the first collision, so they find the same first
            // collision (only the states after it may differ); and every continued track
            // starts after it (at the switch time or later; a NaN gap at its next sample,
            // which is after it), so it is the first moving collision of this and every later
            // switch time's path. One that the moving acceptor rejects and that is no closer
            // to the destination than the best candidate so ends this sub-destination: no
            // later switch time is accepted or replaces the candidate.
            let early_moving = early_moving_cfg
                && sb.v.is_finite()
                && (t_sub - t0) / cfg.min_check_step <= MAX_EARLY_PREFIX_STEPS;
            self.sub_static.reset(static_facts, t0);
            self.sub_moving.reset(moving_facts, t0);
            let mut ts = t0 + cfg.switch_step;
            let mut iter = 0;
            // Whether no static collision was found on the sub path so far: then every track's
            // march on it does not depend on the others', so a switch time may first be
            // settled with one track ([`TrackSet::lazy_tail_verdict`]) before the full marches.
            let mut sub_clear = true;
            // Whether the static test accepted the last switch time's path (the early moving
            // march is only worth it then: after a static rejection, often the next is too).
            let mut last_static_ok = true;
            // Whether the moving tracks have a collision on the sub path (once marched early).
            let mut sub_moving_hit = false;
            while ts < t_sub && iter < 1000 {
                iter += 1;
                let lazy = rejection.filter(|_| sub_clear);
                // Marches the static tracks on the sub path up to `ts` and tells whether it is
                // blocked: a collision on the sub path before `ts` is the first static
                // collision of this and every later switch time (the tail cannot remove it):
                // once the acceptor rejects it, no later switch time of this sub-destination
                // can pass.
                let sub_blocked =
                    |sub_static: &mut TrackSet, sub_clear: &mut bool, ev: &mut u32| {
                        sub_static.march(obs, static_facts, &sub_path, ts, sb, cfg, ev);
                        let prefix_hit = sub_static.first_hit();
                        *sub_clear &= prefix_hit.is_none();
                        prefix_hit.is_some()
                            && !accept_motionless(prefix_hit.as_ref(), start, dest, cfg)
                    };
                if lazy.is_none()
                    && sub_blocked(
                        &mut self.sub_static,
                        &mut sub_clear,
                        &mut stats.distance_evals,
                    )
                {
                    break;
                }
                // The moving march on the sub path up to `ts`, if done early (see above).
                let mut early_prefix_hit = None;
                if early_moving && last_static_ok && best.is_some() {
                    // First the track most likely to collide, alone (while the tracks have no
                    // collision): if every position of the sub path from the tracks' earliest
                    // next check up to its collision is beyond the best candidate's distance
                    // and the moving acceptor's from the destination, so is the first
                    // collision of the full march (at one of those times), which then ends
                    // the sub-destination as below.
                    if !sub_moving_hit
                        && let Some(b) = &best
                        && let Some(far) = RejectionTest::moving_far(start, dest, cfg, b.dist)
                        && let Some((from, c)) = self.sub_moving.march_probe(
                            obs,
                            moving_facts,
                            &sub_path,
                            ts,
                            sb,
                            cfg,
                            &mut stats.distance_evals,
                        )
                        && far.rejects_all_between(&sub_path, from, c.t)
                    {
                        break;
                    }
                    let hit = self.sub_moving.march(
                        obs,
                        moving_facts,
                        &sub_path,
                        ts,
                        sb,
                        cfg,
                        &mut stats.distance_evals,
                    );
                    // The first hit as the tail's march will start from it (none if the march,
                    // which starts from the tracks' first hit, returns none).
                    let first = hit.and_then(|_| self.sub_moving.first_hit());
                    sub_moving_hit = first.is_some();
                    if let Some(c) = &first
                        && !accept_mov(Some(c))
                        && !replaces_best(best.as_ref(), c.pos.dist(dest))
                    {
                        break;
                    }
                    early_prefix_hit = Some(hit.is_some());
                }
                let (p, v) = sub.pos_vel(ts);
                let tail = BangBang2D::new(p, dest, v, vmax, amax);
                stats.trajectories += 1;
                stats.paths_checked += 1;
                let path = TrajPath::switched(sub, sub_dest, ts, tail);
                let vb = sb.v.max(tail.max_speed());
                let cb = Bound {
                    v: vb,
                    margin: cfg.margin(vb),
                };
                let end = path.total_time();
                if let Some(rejection) = &lazy {
                    let verdict = settle_alone(
                        &mut self.sub_static,
                        &mut self.recent_colliders,
                        obs,
                        static_facts,
                        &sub_path,
                        ts,
                        sb,
                        &path,
                        end,
                        cb,
                        cfg,
                        rejection,
                        &mut stats.distance_evals,
                    );
                    if verdict == LazyVerdict::Rejected {
                        ts += cfg.switch_step;
                        continue;
                    }
                    // Not settled: the full marches, as without the attempt.
                    if sub_blocked(
                        &mut self.sub_static,
                        &mut sub_clear,
                        &mut stats.distance_evals,
                    ) {
                        break;
                    }
                }
                let ev = &mut stats.distance_evals;
                let mut clearance = Clearance::new(&path, limits);
                // With a best candidate, the tail's moving march (far test included, see below)
                // does not depend on the static one: after an early moving march without a
                // collision it goes first, and a collision that the moving acceptor rejects
                // and that does not replace the candidate settles this switch time whatever
                // the static march finds (nothing is accepted, considered or ended).
                let far = best
                    .as_ref()
                    .and_then(|b| RejectionTest::moving_far(start, dest, cfg, b.dist));
                // The tail's moving march: continued from the sub path's, with the far test.
                let march_tail_moving = |tail_moving: &mut TrackSet,
                                         sub_moving: &TrackSet,
                                         clearance: &mut Clearance,
                                         ev: &mut u32| {
                    tail_moving.continue_from(sub_moving, moving_facts, ts, sb, cb, cfg);
                    tail_moving.march_final(
                        obs,
                        moving_facts,
                        clearance,
                        end,
                        cb,
                        cfg,
                        ev,
                        far.as_ref(),
                    )
                };
                let mut m_hit_first = None;
                if early_prefix_hit == Some(false) {
                    let m_hit = march_tail_moving(
                        &mut self.tail_moving,
                        &self.sub_moving,
                        &mut clearance,
                        ev,
                    );
                    if let Some(c) = &m_hit
                        && !accept_mov(Some(c))
                        && !replaces_best(best.as_ref(), c.pos.dist(dest))
                    {
                        ts += cfg.switch_step;
                        continue;
                    }
                    m_hit_first = Some(m_hit);
                }
                self.tail_static
                    .continue_from(&self.sub_static, static_facts, ts, sb, cb, cfg);
                let s_hit = self.tail_static.march_final(
                    obs,
                    static_facts,
                    &mut clearance,
                    end,
                    cb,
                    cfg,
                    ev,
                    rejection.as_ref(),
                );
                if rejection.is_some() {
                    note_collider(&mut self.recent_colliders, self.tail_static.probe());
                }
                last_static_ok = accept_motionless(s_hit.as_ref(), start, dest, cfg);
                if last_static_ok {
                    let moving_prefix_hit = match early_prefix_hit {
                        Some(hit) => hit,
                        None => self
                            .sub_moving
                            .march(obs, moving_facts, &sub_path, ts, sb, cfg, ev)
                            .is_some(),
                    };
                    // With a best-rejected candidate, a moving collision far from the
                    // destination is rejected and does not replace it: the march may stop.
                    let m_hit = match m_hit_first {
                        Some(m_hit) => m_hit,
                        None => march_tail_moving(
                            &mut self.tail_moving,
                            &self.sub_moving,
                            &mut clearance,
                            ev,
                        ),
                    };
                    if accept_mov(m_hit.as_ref()) {
                        return PlanResult {
                            path: Some(path),
                            outcome: Some(Outcome::SubDestination),
                            collision: earlier(s_hit, m_hit),
                            dest,
                            stats,
                        };
                    }
                    if let Some(c) = m_hit {
                        consider(&mut best, path, c, Some(ns));
                    }
                    // A moving collision on the sub path before `ts` is the first moving
                    // collision of every later switch time too: rejected again, and never
                    // closer to the destination than the one just considered.
                    if moving_prefix_hit {
                        break;
                    }
                }
                ts += cfg.switch_step;
            }
        }

        // 3. Best rejected, else nothing (the caller brakes).
        match best {
            Some(b) => {
                if b.sub.is_some() {
                    self.last_sub = b.sub;
                }
                // Report the earliest collision of any kind on the chosen path.
                let mut ev = 0;
                self.tail_static.reset(static_facts, t0);
                let bd = Bound::of(&b.path, cfg);
                let s = self.tail_static.march_final(
                    obs,
                    static_facts,
                    &mut Clearance::new(&b.path, limits),
                    b.path.total_time(),
                    bd,
                    cfg,
                    &mut ev,
                    None,
                );
                stats.distance_evals += ev;
                PlanResult {
                    path: Some(b.path),
                    outcome: Some(Outcome::BestRejected),
                    collision: earlier(s, Some(b.collision)),
                    dest,
                    stats,
                }
            }
            None => PlanResult {
                path: None,
                outcome: None,
                collision: None,
                dest,
                stats,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_colliders_stay_distinct_latest_first() {
        let mut recent = [usize::MAX; RECENT_COLLIDERS];
        for k in [3, 7, 3, 9, 1, 2, 7, 4] {
            note_collider(&mut recent, k);
        }
        assert_eq!(recent, [4, 7, 2, 1, 9]);
        note_collider(&mut recent, 4);
        assert_eq!(recent, [4, 7, 2, 1, 9]);
        note_collider(&mut recent, 9);
        assert_eq!(recent, [9, 4, 7, 2, 1]);
    }
}
