//! Collision search along a path with per-obstacle dynamic time steps and prefix reuse.
//!
//! Each obstacle is sampled on its own schedule: after a free sample with distance d
//! (minus the largest margin the path can need), the next sample is at
//! `t + max(h_min, d / (v_path,max + v_obs,max))`. Between samples the gap provably
//! cannot close (up to the `h_min` floor), so no fixed 0.1 s grid is needed.

use super::clearance::Clearance;
use crate::config::PlannerConfig;
use crate::obstacle::{Obstacle, Query};
use crate::traj::TrajPath;
use geometry::Vec2;

/// The first collision found on a path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collision {
    /// Index of the obstacle in the (filtered) obstacle list.
    pub obstacle: usize,
    /// Path time (s).
    pub t: f64,
    /// Robot position at the collision.
    pub pos: Vec2,
    /// Robot speed at the collision (m/s).
    pub speed: f64,
}

/// Speed bound of a path and the margin at that speed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bound {
    pub v: f64,
    pub margin: f64,
}

impl Bound {
    pub fn of(path: &TrajPath, cfg: &PlannerConfig) -> Self {
        let v = path.max_speed();
        Self {
            v,
            margin: cfg.margin(v),
        }
    }
}

/// What the march needs to know of one obstacle, asked once per plan (not at every march).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ObstacleFacts {
    /// Index into the obstacle list.
    pub id: usize,
    /// [`Obstacle::max_speed`].
    pub max_speed: f64,
    /// [`Obstacle::active_until`].
    pub active_until: f64,
    /// [`Obstacle::use_dynamic_margin`].
    pub dynamic_margin: bool,
    /// [`Obstacle::distance_slack`].
    pub slack: f64,
}

impl ObstacleFacts {
    /// Asks obstacle `id` of `obstacles`.
    pub fn of(obstacles: &[&dyn Obstacle], id: usize) -> Self {
        let obs = obstacles[id];
        Self {
            id,
            max_speed: obs.max_speed(),
            active_until: obs.active_until(),
            dynamic_margin: obs.use_dynamic_margin(),
            slack: obs.distance_slack(),
        }
    }
}

/// Per-obstacle search state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Track {
    /// Index into the obstacle list.
    pub id: usize,
    next: f64,
    last: f64,
    gap: f64,
    pub hit: Option<Collision>,
}

/// A set of tracks (static or moving obstacles) for one path.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrackSet {
    pub tracks: Vec<Track>,
    /// Position of the track that found the last march's first collision (a guess which
    /// collides first next time; any value is correct, out of range means none).
    probe: usize,
}

impl TrackSet {
    /// Fresh tracks for the given obstacles, starting at `t0`.
    pub fn reset(&mut self, facts: &[ObstacleFacts], t0: f64) {
        self.tracks.clear();
        self.tracks.extend(facts.iter().map(|f| Track {
            id: f.id,
            next: t0,
            last: t0,
            gap: f64::INFINITY,
            hit: None,
        }));
    }

    /// Earliest hit among the tracks.
    pub fn first_hit(&self) -> Option<Collision> {
        self.tracks
            .iter()
            .filter_map(|t| t.hit)
            .min_by(|a, b| a.t.total_cmp(&b.t))
    }

    /// Marches every track on `path` up to `limit` (stopping at the first collision overall);
    /// `facts` are those the tracks were [`reset`](Self::reset) with.
    ///
    /// The track that found the last march's first collision goes first (it likely collides
    /// first again, and the others then stop at its collision); the result is the one of
    /// marching the tracks in order: the earliest collision, on a tie the one found before
    /// this march, else the one of the lowest obstacle index.
    #[allow(clippy::too_many_arguments)]
    pub fn march(
        &mut self,
        obstacles: &[&dyn Obstacle],
        facts: &[ObstacleFacts],
        path: &TrajPath,
        limit: f64,
        bound: Bound,
        cfg: &PlannerConfig,
        evals: &mut u32,
    ) -> Option<Collision> {
        self.march_with(obstacles, facts, path, limit, bound, cfg, evals, None)
    }

    /// [`march`](Self::march) for the last time on these tracks (their states are not used
    /// afterwards, only the result) along `clearance`'s path: obstacles that provably keep
    /// clear of the path up to their limit are not marched ([`Clearance`]); the result is the
    /// same.
    #[allow(clippy::too_many_arguments)]
    pub fn march_final(
        &mut self,
        obstacles: &[&dyn Obstacle],
        facts: &[ObstacleFacts],
        clearance: &mut Clearance,
        limit: f64,
        bound: Bound,
        cfg: &PlannerConfig,
        evals: &mut u32,
    ) -> Option<Collision> {
        let from = self
            .tracks
            .iter()
            .filter(|t| t.hit.is_none())
            // A compare instead of f64::min (which adds a NaN fix-up): a NaN
            // `next` is skipped all the same, and the box does not depend on the sign of a
            // zero start.
            .fold(f64::INFINITY, |m, t| if t.next < m { t.next } else { m });
        clearance.start_at(from);
        let path = clearance.path();
        self.march_with(
            obstacles,
            facts,
            path,
            limit,
            bound,
            cfg,
            evals,
            Some(clearance),
        )
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn march_with(
        &mut self,
        obstacles: &[&dyn Obstacle],
        facts: &[ObstacleFacts],
        path: &TrajPath,
        limit: f64,
        bound: Bound,
        cfg: &PlannerConfig,
        evals: &mut u32,
        mut clearance: Option<&mut Clearance>,
    ) -> Option<Collision> {
        let mut earliest = Earliest {
            first: self.first_hit(),
            found_here: None,
        };
        let march = March {
            obstacles,
            path,
            limit,
            bound,
            cfg,
        };
        let probe = self.probe;
        if let (Some(tr), Some(f)) = (self.tracks.get_mut(probe), facts.get(probe)) {
            earliest.visit(probe, tr, f, &march, clearance.as_deref_mut(), evals);
        }
        for (i, (tr, f)) in self.tracks.iter_mut().zip(facts).enumerate() {
            if i != probe {
                earliest.visit(i, tr, f, &march, clearance.as_deref_mut(), evals);
            }
        }
        if let Some(i) = earliest.found_here {
            self.probe = i;
        }
        earliest.first
    }

    /// Copies `prefix` (marched on the sub path up to `ts`) as the start of a path switching at `ts`.
    pub fn continue_from(
        &mut self,
        prefix: &TrackSet,
        facts: &[ObstacleFacts],
        ts: f64,
        sub: Bound,
        comb: Bound,
        cfg: &PlannerConfig,
    ) {
        self.tracks.clone_from(&prefix.tracks);
        for (tr, f) in self.tracks.iter_mut().zip(facts) {
            if tr.hit.is_some() || tr.gap == f64::INFINITY {
                continue;
            }
            let vo = f.max_speed;
            let dm = if f.dynamic_margin {
                comb.margin - sub.margin
            } else {
                0.0
            };
            let rem = tr.gap - (ts - tr.last) * (sub.v + vo) - dm;
            tr.gap -= dm;
            let closing = comb.v + vo;
            let next = if rem <= 0.0 {
                ts
            } else if closing > 1e-9 {
                ts + rem / closing
            } else {
                f64::INFINITY
            };
            tr.next = next.max(tr.last + cfg.min_check_step);
        }
    }
}

/// The earliest collision of a march so far.
struct Earliest {
    first: Option<Collision>,
    /// Track position of `first` if this march found it (`None`: found before, or none).
    found_here: Option<usize>,
}

/// What every track of one march shares.
struct March<'a, 'o> {
    obstacles: &'a [&'o dyn Obstacle],
    path: &'a TrajPath,
    limit: f64,
    bound: Bound,
    cfg: &'a PlannerConfig,
}

impl Earliest {
    /// Marches track `i` up to the limit or the earliest collision and keeps its collision
    /// if it is earlier (on a tie: if none was found before this march and `i` is lower).
    /// With a `clearance` test, a track that provably stays clear is not marched.
    #[inline(always)]
    fn visit(
        &mut self,
        i: usize,
        tr: &mut Track,
        f: &ObstacleFacts,
        m: &March,
        clearance: Option<&mut Clearance>,
        evals: &mut u32,
    ) {
        if tr.hit.is_some() {
            return;
        }
        let end = m.limit.min(f.active_until);
        let lim = self.first.map_or(end, |c| c.t.min(end));
        // Nothing to check before the limit: skip the call (the march would not loop).
        if tr.next > lim {
            return;
        }
        let obs = m.obstacles[tr.id];
        if let Some(c) = clearance
            && c.proves_clear(obs, f, tr.next, lim, end)
        {
            return;
        }
        let Some(hit) = march_one(obs, f, tr, m.path, lim, m.bound, m.cfg, evals) else {
            return;
        };
        let replaces = self.first.is_none_or(|c| {
            hit.t < c.t || (hit.t == c.t && self.found_here.is_some_and(|j| i < j))
        });
        if replaces {
            self.first = Some(hit);
            self.found_here = Some(i);
        }
    }
}

/// Most distance checks of one obstacle along one path: far above any real path (80 s at the
/// smallest check step), low enough that absurd inputs end in milliseconds.
const MAX_MARCH_STEPS: u32 = 4_000;

/// Marches one obstacle; returns its collision if found before `limit` (which already
/// includes the obstacle's `active_until`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn march_one(
    obs: &dyn Obstacle,
    facts: &ObstacleFacts,
    tr: &mut Track,
    path: &TrajPath,
    limit: f64,
    bound: Bound,
    cfg: &PlannerConfig,
    evals: &mut u32,
) -> Option<Collision> {
    let closing = bound.v + facts.max_speed;
    let dyn_margin = facts.dynamic_margin;
    let slack = facts.slack;
    // The track's state lives in locals during the loop (stored back once at the end), so
    // the loop keeps it in registers; the arithmetic is unchanged.
    let (mut next, mut last, mut gap) = (tr.next, tr.last, tr.gap);
    let mut steps = 0u32;
    let mut hit = None;
    while next <= limit {
        let t = next;
        let (pos, vel) = path.pos_vel(t);
        let d = obs.distance(&Query { t, pos, vel });
        steps += 1;
        let speed = vel.len();
        let m = if dyn_margin { cfg.margin(speed) } else { 0.0 };
        // A path too long to march (a pose 1e17 m away: steps no longer advance the time)
        // is not verified, so it counts as colliding where the march stopped.
        let unverifiable = steps > MAX_MARCH_STEPS;
        if d - m <= 0.0 || unverifiable {
            hit = Some(Collision {
                obstacle: tr.id,
                t,
                pos,
                speed,
            });
            break;
        }
        gap = d - slack - if dyn_margin { bound.margin } else { 0.0 };
        last = t;
        let step = if closing > 1e-9 {
            gap.max(0.0) / closing
        } else {
            f64::INFINITY
        };
        next = t + step.max(cfg.min_check_step);
    }
    *evals += steps;
    (tr.next, tr.last, tr.gap) = (next, last, gap);
    // The track had no hit (the caller checks), so only a new one needs storing.
    if hit.is_some() {
        tr.hit = hit;
    }
    hit
}
