//! Collision search along a path with per-obstacle dynamic time steps and prefix reuse.
//!
//! Each obstacle is sampled on its own schedule: after a free sample with distance d
//! (minus the largest margin the path can need), the next sample is at
//! `t + max(h_min, d / (v_path,max + v_obs,max))`. Between samples the gap provably
//! cannot close (up to the `h_min` floor), so no fixed 0.1 s grid is needed.

use super::acceptor::RejectionTest;
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
#[derive(Clone, Copy, Debug, PartialEq)]
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
        self.march_with(obstacles, facts, path, limit, bound, cfg, evals, None, None)
    }

    /// [`march`](Self::march) for the last time on these tracks (their states are not used
    /// afterwards, only the result) along `clearance`'s path: obstacles that provably keep
    /// clear of the path up to their limit are not marched ([`Clearance`]); the result is the
    /// same.
    ///
    /// With a `rejection` test, the march stops at a collision once the test proves that the
    /// acceptor rejects every collision up to it (for the moving test: and that none is
    /// closer to the destination than the best-rejected candidate): the first collision is
    /// then no later, so it gets the same verdict as the collision returned (maybe not the
    /// first). Only for a caller that uses nothing more of such a result.
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
        rejection: Option<&RejectionTest>,
    ) -> Option<Collision> {
        // One copy of the march per case: the march without a test stays as lean as before.
        match rejection {
            None => {
                self.march_final_with(obstacles, facts, clearance, limit, bound, cfg, evals, None)
            }
            Some(r) => self.march_final_with(
                obstacles,
                facts,
                clearance,
                limit,
                bound,
                cfg,
                evals,
                Some(r),
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn march_final_with(
        &mut self,
        obstacles: &[&dyn Obstacle],
        facts: &[ObstacleFacts],
        clearance: &mut Clearance,
        limit: f64,
        bound: Bound,
        cfg: &PlannerConfig,
        evals: &mut u32,
        rejection: Option<&RejectionTest>,
    ) -> Option<Collision> {
        let (from, soonest) = self.earliest_check();
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
            rejection.map(|r| (r, soonest, from)),
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
        rejection: Option<(&RejectionTest, usize, f64)>,
    ) -> Option<Collision> {
        let mut earliest = Earliest {
            first: self.first_hit(),
            found_here: None,
            untested: false,
        };
        let march = March {
            obstacles,
            path,
            limit,
            bound,
            cfg,
            rejection: rejection.map(|(r, _, _)| r),
            from: rejection.map_or(0.0, |(_, _, from)| from),
        };
        let probe = self.probe;
        // Tracks continued at a switch time often start there: one lookup for all of them.
        let mut memo = PosVelMemo::none();
        // With a rejection test, the track due first goes second: any collision may end the
        // march, and the track closest to the path is likely to find one soon.
        // (Without a test, or when it is the probe: the probe again, visited once.)
        let second = rejection.map_or(probe, |(_, soonest, _)| soonest);
        let mut stopped = false;
        if let (Some(tr), Some(f)) = (self.tracks.get_mut(probe), facts.get(probe)) {
            // With a test, the probe most likely collides: its clearance box would be wasted.
            let probe_clearance = if rejection.is_some() {
                None
            } else {
                clearance.as_deref_mut()
            };
            stopped = earliest.visit(probe, tr, f, &march, probe_clearance, &mut memo, evals);
        }
        if !stopped
            && second != probe
            && let (Some(tr), Some(f)) = (self.tracks.get_mut(second), facts.get(second))
        {
            stopped = earliest.visit(
                second,
                tr,
                f,
                &march,
                clearance.as_deref_mut(),
                &mut memo,
                evals,
            );
        }
        if !stopped {
            for (i, (tr, f)) in self.tracks.iter_mut().zip(facts).enumerate() {
                if i != probe
                    && i != second
                    && earliest.visit(i, tr, f, &march, clearance.as_deref_mut(), &mut memo, evals)
                {
                    break;
                }
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
            continue_track(tr, f, ts, sub, comb, cfg);
        }
    }

    /// Marches the probe track alone (the track [`march`](Self::march) visits first) on
    /// `path` up to `limit` as `march` visits it, for tracks without a collision; returns its
    /// collision, if it finds one, with the earliest next check of the tracks before it (the
    /// earliest collision of the full march is between the two). A full march afterwards
    /// gives the tracks and the earliest collision ([`first_hit`](Self::first_hit)) of a
    /// full march alone.
    #[allow(clippy::too_many_arguments)]
    pub fn march_probe(
        &mut self,
        obstacles: &[&dyn Obstacle],
        facts: &[ObstacleFacts],
        path: &TrajPath,
        limit: f64,
        bound: Bound,
        cfg: &PlannerConfig,
        evals: &mut u32,
    ) -> Option<(f64, Collision)> {
        let (from, _) = self.earliest_check();
        let (tr, f) = (self.tracks.get_mut(self.probe)?, facts.get(self.probe)?);
        if tr.hit.is_some() {
            return None;
        }
        let end = limit.min(f.active_until);
        if tr.next > end {
            return None;
        }
        let hit = march_one(obstacles[tr.id], f, tr, path, end, bound, cfg, None, evals)?;
        Some((from, hit))
    }

    /// The earliest next check of the tracks without a hit, and the track of it (infinity
    /// and `usize::MAX` when there is none): no march from here finds a collision earlier.
    #[inline(always)]
    pub(crate) fn earliest_check(&self) -> (f64, usize) {
        self.tracks
            .iter()
            .enumerate()
            .filter(|(_, t)| t.hit.is_none())
            // A compare instead of f64::min (which adds a NaN fix-up): a NaN
            // `next` is skipped all the same, and the box does not depend on the sign of a
            // zero start.
            .fold((f64::INFINITY, usize::MAX), |(m, k), (i, t)| {
                if t.next < m { (t.next, i) } else { (m, k) }
            })
    }

    /// The track that found the last first collision (see [`march`](Self::march)).
    pub fn probe(&self) -> usize {
        self.probe
    }

    /// Tries to settle that a path switching from `sub_path` (these tracks, marched on it up
    /// to an earlier switch time, without a collision) to a tail at `ts` is rejected by the
    /// motionless acceptor, with only track `k`: the track is marched on the sub path up to
    /// `ts` as [`march`](Self::march) would (its chain does not depend on the other tracks
    /// while none has a collision), continued into a copy as
    /// [`continue_from`](Self::continue_from) would, and marched on `path` up to `end` as
    /// [`march_final`](Self::march_final) would. A collision on the copy that the test proves
    /// rejected settles it: the full march finds a collision no later.
    #[allow(clippy::too_many_arguments)]
    pub fn lazy_tail_verdict(
        &mut self,
        k: usize,
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
        let (Some(tr), Some(f)) = (self.tracks.get_mut(k), facts.get(k)) else {
            return LazyVerdict::Undecided;
        };
        if tr.hit.is_some() {
            return LazyVerdict::PrefixHit;
        }
        let obs = obstacles[tr.id];
        // The prefix march's visit (no collision anywhere: its limit is the switch time).
        let prefix_end = ts.min(f.active_until);
        if tr.next <= prefix_end
            && march_one(obs, f, tr, sub_path, prefix_end, sub, cfg, None, evals).is_some()
        {
            return LazyVerdict::PrefixHit;
        }
        let mut tail = *tr;
        continue_track(&mut tail, f, ts, sub, comb, cfg);
        // The final march's visit (no collision before it either).
        let tail_end = end.min(f.active_until);
        if tail.next <= tail_end
            && let Some(hit) = march_one(obs, f, &mut tail, path, tail_end, comb, cfg, None, evals)
            && rejection.rejects_all_until(path, hit.t)
        {
            return LazyVerdict::Rejected;
        }
        LazyVerdict::Undecided
    }
}

/// What [`TrackSet::lazy_tail_verdict`] settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LazyVerdict {
    /// The path is rejected by the motionless acceptor.
    Rejected,
    /// The track collides on the sub path before the switch time (the prefix march decides).
    PrefixHit,
    /// Nothing settled: the full marches decide.
    Undecided,
}

/// Continues a track marched on a sub path up to `ts` as the start of a path switching at
/// `ts` (the combined bound `comb` from the switch on): the gap since the last check shrinks
/// at the sub path's closing speed and by the larger margin.
#[inline(always)]
fn continue_track(
    tr: &mut Track,
    f: &ObstacleFacts,
    ts: f64,
    sub: Bound,
    comb: Bound,
    cfg: &PlannerConfig,
) {
    if tr.hit.is_some() || tr.gap == f64::INFINITY {
        return;
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

/// The path's position and velocity at one time (the last first sample of a march's track).
#[derive(Clone, Copy)]
struct PosVelMemo {
    t: f64,
    pos: Vec2,
    vel: Vec2,
}

impl PosVelMemo {
    /// Nothing kept yet: a NaN time, which no sample has (a march samples only times up to
    /// its limit, `while next <= limit`, never a NaN).
    fn none() -> Self {
        Self {
            t: f64::NAN,
            pos: Vec2::ZERO,
            vel: Vec2::ZERO,
        }
    }

    /// `path.pos_vel(t)`, from the memo when it holds `t` bit for bit (the memo is for one
    /// path), else looked up and kept.
    #[inline(always)]
    fn get(&mut self, path: &TrajPath, t: f64) -> (Vec2, Vec2) {
        if t.to_bits() != self.t.to_bits() {
            (self.pos, self.vel) = path.pos_vel(t);
            self.t = t;
        }
        (self.pos, self.vel)
    }
}

/// The earliest collision of a march so far.
struct Earliest {
    first: Option<Collision>,
    /// Track position of `first` if this march found it (`None`: found before, or none).
    found_here: Option<usize>,
    /// Whether `first` was found in this march and not yet given to the rejection test.
    untested: bool,
}

/// What every track of one march shares.
struct March<'a, 'o> {
    obstacles: &'a [&'o dyn Obstacle],
    path: &'a TrajPath,
    limit: f64,
    bound: Bound,
    cfg: &'a PlannerConfig,
    /// The test that may end the march at a collision (see [`TrackSet::march_final`]).
    rejection: Option<&'a RejectionTest>,
    /// The earliest next check of the tracks without a collision when the march starts:
    /// every collision the march finds is at this time or later (only a collision found in
    /// this march is given to the rejection test, and only while it is the earliest).
    from: f64,
}

impl Earliest {
    /// Marches track `i` up to the limit or the earliest collision and keeps its collision
    /// if it is earlier (on a tie: if none was found before this march and `i` is lower).
    /// With a `clearance` test, a track that provably stays clear is not marched. Returns
    /// whether the march can stop: before any work on the track, the rejection test is
    /// given the collision found so far in this march (once), and stops the march if it
    /// proves that collision's verdict (the test is only paid where it saves work).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn visit(
        &mut self,
        i: usize,
        tr: &mut Track,
        f: &ObstacleFacts,
        m: &March,
        clearance: Option<&mut Clearance>,
        memo: &mut PosVelMemo,
        evals: &mut u32,
    ) -> bool {
        if tr.hit.is_some() {
            return false;
        }
        let end = m.limit.min(f.active_until);
        let lim = self.first.map_or(end, |c| collision_or_end(c.t, end));
        // Nothing to check before the limit: skip the call (the march would not loop).
        if tr.next > lim {
            return false;
        }
        if let Some(r) = m.rejection
            && self.untested
        {
            self.untested = false;
            if self
                .first
                .is_some_and(|c| r.rejects_all_between(m.path, m.from, c.t))
            {
                return true;
            }
        }
        let obs = m.obstacles[tr.id];
        if let Some(c) = clearance
            && c.proves_clear(obs, f, tr.next, lim, end)
        {
            return false;
        }
        let Some(hit) = march_one(obs, f, tr, m.path, lim, m.bound, m.cfg, Some(memo), evals)
        else {
            return false;
        };
        let replaces = self.first.is_none_or(|c| {
            hit.t < c.t || (hit.t == c.t && self.found_here.is_some_and(|j| i < j))
        });
        if replaces {
            self.first = Some(hit);
            self.found_here = Some(i);
            self.untested = true;
        }
        false
    }
}

/// `t.min(end)` for the time `t` of a collision, which is a sample time and so never NaN
/// (`next <= limit` held): a compare gives the library's value (`t` for a NaN `end`; equal
/// values are the same number, up to the sign of a zero, which no comparison of times sees)
/// without its NaN fix-up.
#[inline(always)]
fn collision_or_end(t: f64, end: f64) -> f64 {
    if end < t { end } else { t }
}

/// Most distance checks of one obstacle along one path: far above any real path (80 s at the
/// smallest check step), low enough that absurd inputs end in milliseconds.
const MAX_MARCH_STEPS: u32 = 4_000;

/// Marches one obstacle; returns its collision if found before `limit` (which already
/// includes the obstacle's `active_until`).
/// With a `memo`, the first sample's position and velocity come through it (kept for the
/// march's next track that starts at the same time); the same values bit for bit.
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
    mut memo: Option<&mut PosVelMemo>,
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
    // The first sample through the march's memo (a track continued at a switch time often
    // starts where the one before did), the others looked up directly.
    while next <= limit {
        let t = next;
        let (pos, vel) = match memo.as_deref_mut() {
            Some(memo) if steps == 0 => memo.get(path, t),
            _ => path.pos_vel(t),
        };
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
        gap = minus_slack(d, slack) - if dyn_margin { bound.margin } else { 0.0 };
        last = t;
        let step = if closing > 1e-9 {
            gap.max(0.0) / closing
        } else {
            f64::INFINITY
        };
        next = t + at_least(step, cfg.min_check_step);
    }
    *evals += steps;
    (tr.next, tr.last, tr.gap) = (next, last, gap);
    // The track had no hit (the caller checks), so only a new one needs storing.
    if hit.is_some() {
        tr.hit = hit;
    }
    hit
}

/// `d - slack`: `d` itself when the slack is +0 (every obstacle but a grid), as `d - 0.0`
/// is `d` bit for bit (a zero's sign included), so no subtraction sits on the samples'
/// chain.
#[inline(always)]
fn minus_slack(d: f64, slack: f64) -> f64 {
    if slack.to_bits() == 0.0f64.to_bits() {
        d
    } else {
        d - slack
    }
}

/// `step.max(floor)`: with a positive floor (no NaN, and no tie of zeros whose sign
/// `f64::max` leaves open) a compare, without the library's NaN fix-up on the march's chain
/// of samples (the floor's test is the same for every sample: it leaves the loop).
#[inline(always)]
fn at_least(step: f64, floor: f64) -> f64 {
    if floor > 0.0 {
        if step > floor { step } else { floor }
    } else {
        step.max(floor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finder::acceptor::accept_motionless;
    use crate::finder::clearance::ClearanceLimits;
    use crate::obstacle::{Circle, Rectangle, Tube};
    use crate::traj::{BangBang2D, Trajectory};
    use geometry::rng::SplitMix64;

    /// A random static scene: a ring of circles around the destination (the `no_path`
    /// shape, often with gaps) or scattered circles, rectangles and tubes.
    struct Scene {
        circles: Vec<Circle>,
        rects: Vec<Rectangle>,
        tubes: Vec<Tube>,
        start: Vec2,
        dest: Vec2,
        vel: Vec2,
    }

    impl Scene {
        fn random(rng: &mut SplitMix64, ring: bool) -> Self {
            let dest = Vec2::new(rng.range(-3.0, 3.0), rng.range(-2.0, 2.0));
            let mut s = Scene {
                circles: vec![],
                rects: vec![],
                tubes: vec![],
                start: dest + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 4.0),
                dest,
                vel: Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.5),
            };
            if ring {
                let radius = rng.range(0.6, 1.5);
                let n = 8 + (rng.next_u64() % 20) as usize;
                for k in 0..n {
                    if rng.range(0.0, 1.0) < 0.9 {
                        let a = k as f64 * std::f64::consts::TAU / n as f64;
                        let c = dest + Vec2::from_angle(a) * radius;
                        s.circles.push(Circle::new(c, rng.range(0.1, 0.3)));
                    }
                }
            } else {
                for _ in 0..(4 + rng.next_u64() % 16) {
                    let c = Vec2::new(rng.range(-4.0, 4.0), rng.range(-3.0, 3.0));
                    match rng.next_u64() % 3 {
                        0 => s.circles.push(Circle::new(c, rng.range(0.1, 0.6))),
                        1 => {
                            let h = Vec2::new(rng.range(0.05, 0.5), rng.range(0.05, 0.5));
                            s.rects.push(Rectangle::new(c - h, c + h, 0.09));
                        }
                        _ => {
                            let b =
                                c + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.2, 1.5);
                            s.tubes.push(Tube::new(c, b, rng.range(0.05, 0.3)));
                        }
                    }
                }
            }
            s
        }

        fn obstacles(&self) -> Vec<&dyn Obstacle> {
            let mut v: Vec<&dyn Obstacle> = vec![];
            v.extend(self.circles.iter().map(|o| o as &dyn Obstacle));
            v.extend(self.rects.iter().map(|o| o as &dyn Obstacle));
            v.extend(self.tubes.iter().map(|o| o as &dyn Obstacle));
            v
        }
    }

    /// Marches `tracks` (a copy) for the last time along `path`, with or without the test.
    #[allow(clippy::too_many_arguments)]
    fn final_march(
        tracks: &TrackSet,
        obs: &[&dyn Obstacle],
        facts: &[ObstacleFacts],
        path: &TrajPath,
        bound: Bound,
        cfg: &PlannerConfig,
        rejection: Option<&RejectionTest>,
    ) -> (Option<Collision>, u32) {
        let mut tracks = tracks.clone();
        let mut clearance = Clearance::new(path, ClearanceLimits::of(cfg));
        let mut evals = 0;
        let end = path.total_time();
        let hit = tracks.march_final(
            obs,
            facts,
            &mut clearance,
            end,
            bound,
            cfg,
            &mut evals,
            rejection,
        );
        (hit, evals)
    }

    /// The march that stops at a provably rejected collision gives every path the
    /// acceptor's verdict of the full march, and the full march's collision when accepted;
    /// and every position of a path up to a time the test passes is rejected.
    #[test]
    fn rejection_stop_keeps_the_verdict_of_the_full_march() {
        let mut rng = SplitMix64::new(11);
        let (mut stopped, mut accepted, mut rejected) = (0, 0, 0);
        // Marches stopped at a collision that is not the first: the early stop itself (fewer
        // evaluations alone may come from the changed track order).
        let mut later = 0;
        for k in 0..3_000 {
            let scene = Scene::random(&mut rng, k % 3 != 0);
            let obs = scene.obstacles();
            let facts: Vec<_> = (0..obs.len()).map(|i| ObstacleFacts::of(&obs, i)).collect();
            let mut cfg = if k % 2 == 0 {
                PlannerConfig::r2024()
            } else {
                PlannerConfig::r2025()
            };
            cfg.motionless_t_thr = rng.range(0.5, 6.0);
            let (start, dest, vel) = (scene.start, scene.dest, scene.vel);
            let Some(rejection) = RejectionTest::new(start, dest, &cfg) else {
                continue;
            };
            let t0 = rng.range(0.0, 0.12);
            let (vmax, amax) = (3.0, 3.0);
            let sub_dest = start + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 3.0);
            let sub = BangBang2D::new(start, sub_dest, vel, vmax, amax);
            let sub_path = TrajPath::single(sub);
            let sb = Bound::of(&sub_path, &cfg);
            let mut prefix = TrackSet::default();
            prefix.reset(&facts, t0);
            // A direct path (fresh tracks), or a switched one continued from its sub path.
            let (path, tracks) = if k % 4 == 0 {
                let path = TrajPath::single(BangBang2D::new(start, dest, vel, vmax, amax));
                (path, prefix)
            } else {
                let ts = t0 + 0.2 * (1 + rng.next_u64() % 5) as f64;
                let mut ev = 0;
                prefix.march(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
                let (p, v) = sub.pos_vel(ts);
                let tail = BangBang2D::new(p, dest, v, vmax, amax);
                let path = TrajPath::switched(sub, sub_dest, ts, tail);
                let vb = sb.v.max(tail.max_speed());
                let cb = Bound {
                    v: vb,
                    margin: cfg.margin(vb),
                };
                let mut tracks = TrackSet::default();
                tracks.continue_from(&prefix, &facts, ts, sb, cb, &cfg);
                (path, tracks)
            };
            let bound = Bound::of(&path, &cfg);
            let (full, full_evals) = final_march(&tracks, &obs, &facts, &path, bound, &cfg, None);
            let (fast, fast_evals) =
                final_march(&tracks, &obs, &facts, &path, bound, &cfg, Some(&rejection));
            let verdict = accept_motionless(full.as_ref(), start, dest, &cfg);
            assert_eq!(
                verdict,
                accept_motionless(fast.as_ref(), start, dest, &cfg),
                "scene {k}"
            );
            if verdict {
                accepted += 1;
                assert_eq!(full, fast, "scene {k}");
            } else {
                rejected += 1;
                let last = fast.expect("a rejected march has a collision");
                stopped += usize::from(fast != full || fast_evals < full_evals);
                later += usize::from(fast != full);
                // A march stopped at a later collision: every position from its tracks'
                // earliest next check up to the stop is rejected (the march's claim).
                if fast != full {
                    let (from, _) = tracks.earliest_check();
                    for j in 0..=400 {
                        let t = from + (last.t - from) * f64::from(j) / 400.0;
                        let (pos, v) = path.pos_vel(t);
                        let c = Collision {
                            obstacle: 0,
                            t,
                            pos,
                            speed: v.len(),
                        };
                        let accepted = accept_motionless(Some(&c), start, dest, &cfg);
                        assert!(!accepted, "scene {k} t {t}");
                    }
                }
                // Every position up to the stop is rejected (the test's claim).
                if rejection.rejects_all_until(&path, last.t) {
                    for j in 0..=400 {
                        let t = last.t * f64::from(j) / 400.0;
                        let (pos, v) = path.pos_vel(t);
                        let c = Collision {
                            obstacle: 0,
                            t,
                            pos,
                            speed: v.len(),
                        };
                        assert!(
                            !accept_motionless(Some(&c), start, dest, &cfg),
                            "scene {k} t {t}"
                        );
                    }
                }
            }
        }
        println!(
            "accepted {accepted}, rejected {rejected}, stopped early {stopped} ({later} at a later collision)"
        );
        // Both verdicts and many early stops are exercised.
        assert!(
            accepted > 300 && rejected > 300 && stopped > 300,
            "{accepted} {rejected} {stopped}"
        );
        // The stop itself, not only the track order, is exercised (163 with this seed).
        assert!(later > 80, "{later} at a later collision");
    }

    /// A march whose probe finds a late, rejected collision does not stop there while the
    /// path passed the destination earlier: the rejection test covers the whole window from
    /// the tracks' earliest next check, and the earlier, accepted collision is found.
    #[test]
    fn rejection_stop_covers_the_window_before_the_collision() {
        let cfg = PlannerConfig::r2024();
        let (start, dest) = (Vec2::new(-2.0, 0.0), Vec2::ZERO);
        // A straight path through the destination to x = 4; B touches it near the
        // destination (an accepted collision), A far beyond it (a rejected one).
        let path = TrajPath::single(BangBang2D::new(
            start,
            Vec2::new(4.0, 0.0),
            Vec2::ZERO,
            3.0,
            3.0,
        ));
        let a = Circle::new(Vec2::new(3.5, 0.0), 0.2);
        let b = Circle::new(Vec2::new(0.0, 0.25), 0.3);
        let obs: Vec<&dyn Obstacle> = vec![&a, &b];
        let facts: Vec<_> = (0..obs.len()).map(|i| ObstacleFacts::of(&obs, i)).collect();
        let mut tracks = TrackSet::default();
        tracks.reset(&facts, 0.1);
        // A is the probe (as if it found the last march's first collision).
        tracks.probe = 0;
        let rejection = RejectionTest::new(start, dest, &cfg).expect("a sane test");
        let bound = Bound::of(&path, &cfg);
        let (full, _) = final_march(&tracks, &obs, &facts, &path, bound, &cfg, None);
        let (fast, _) = final_march(&tracks, &obs, &facts, &path, bound, &cfg, Some(&rejection));
        let full = full.expect("B collides");
        assert_eq!(full.obstacle, 1);
        assert!(accept_motionless(Some(&full), start, dest, &cfg));
        assert_eq!(fast, Some(full));
    }

    /// A rejection test passed on a window of a path holds for every position of the window:
    /// the motionless acceptor rejects a collision there (the growing test), or it lies
    /// beyond the fixed radius (the far test), on single and switched paths, windows from the
    /// switch time on included.
    #[test]
    fn rejection_on_a_window_holds_for_every_position_in_it() {
        let mut rng = SplitMix64::new(19);
        let (mut passed, mut after_switch) = (0, 0);
        for k in 0..6_000 {
            let dest = Vec2::new(rng.range(-3.0, 3.0), rng.range(-2.0, 2.0));
            let start = dest + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 5.0);
            let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.5);
            let mut cfg = PlannerConfig::r2025();
            cfg.motionless_t_thr = rng.range(0.5, 6.0);
            let sub_dest = start + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 4.0);
            let sub = BangBang2D::new(start, sub_dest, vel, 3.0, 3.0);
            let path = if k % 3 == 0 {
                TrajPath::single(sub)
            } else {
                let ts = rng.range(0.05, sub.total_time());
                let (p, v) = sub.pos_vel(ts);
                TrajPath::switched(sub, sub_dest, ts, BangBang2D::new(p, dest, v, 3.0, 3.0))
            };
            let total = path.total_time();
            let from = if k % 2 == 0 && path.second().is_some() {
                path.switch_time() + rng.range(0.0, 1.0)
            } else {
                rng.range(0.0, total)
            };
            let t = from + rng.range(0.0, total);
            let best_dist = rng.range(0.0, 4.0);
            let growing = RejectionTest::new(start, dest, &cfg);
            let far = RejectionTest::moving_far(start, dest, &cfg, best_dist);
            for (test, is_far) in [(growing, false), (far, true)] {
                let Some(test) = test else { continue };
                if !test.rejects_all_between(&path, from, t) {
                    continue;
                }
                passed += 1;
                after_switch += usize::from(path.second().is_some() && from >= path.switch_time());
                for j in 0..=200 {
                    let tj = from + (t - from) * f64::from(j) / 200.0;
                    let (pos, v) = path.pos_vel(tj);
                    if is_far {
                        let radius = cfg.moving_max_dest_dist.max(best_dist);
                        assert!(pos.dist(dest) > radius, "scene {k} t {tj}");
                    } else {
                        let c = Collision {
                            obstacle: 0,
                            t: tj,
                            pos,
                            speed: v.len(),
                        };
                        let accepted = accept_motionless(Some(&c), start, dest, &cfg);
                        assert!(!accepted, "scene {k} t {tj}");
                    }
                }
            }
        }
        println!("passed {passed}, from the switch time on {after_switch}");
        assert!(
            passed > 2_000 && after_switch > 500,
            "{passed} {after_switch}"
        );
    }

    /// Settling a switch time with one track ([`TrackSet::lazy_tail_verdict`]) only ever
    /// reports rejected paths the full marches reject too, and the full marches after it
    /// (on tracks some of which went ahead alone) give the states, prefix collisions and
    /// final results of the full marches alone, switch time after switch time.
    #[test]
    fn one_track_verdict_agrees_with_the_full_marches() {
        let mut rng = SplitMix64::new(12);
        let (mut settled, mut unsettled, mut broke) = (0, 0, 0);
        for k in 0..1_500 {
            let scene = Scene::random(&mut rng, k % 3 != 0);
            let obs = scene.obstacles();
            let facts: Vec<_> = (0..obs.len()).map(|i| ObstacleFacts::of(&obs, i)).collect();
            let mut cfg = PlannerConfig::r2025();
            cfg.motionless_t_thr = rng.range(0.5, 6.0);
            let (start, dest, vel) = (scene.start, scene.dest, scene.vel);
            let Some(rejection) = RejectionTest::new(start, dest, &cfg) else {
                continue;
            };
            let t0 = rng.range(0.0, 0.12);
            let (vmax, amax) = (3.0, 3.0);
            let sub_dest = start + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 3.0);
            let sub = BangBang2D::new(start, sub_dest, vel, vmax, amax);
            let sub_path = TrajPath::single(sub);
            let sb = Bound::of(&sub_path, &cfg);
            let (mut full, mut lazy) = (TrackSet::default(), TrackSet::default());
            full.reset(&facts, t0);
            lazy.reset(&facts, t0);
            let (mut lazy_clear, mut full_broke) = (true, false);
            let mut ts = t0 + cfg.switch_step;
            while ts < sub.total_time() && ts < 3.0 {
                let (p, v) = sub.pos_vel(ts);
                let tail = BangBang2D::new(p, dest, v, vmax, amax);
                let path = TrajPath::switched(sub, sub_dest, ts, tail);
                let vb = sb.v.max(tail.max_speed());
                let cb = Bound {
                    v: vb,
                    margin: cfg.margin(vb),
                };
                let end = path.total_time();
                let rejected_prefix = |c: Option<Collision>| {
                    c.is_some() && !accept_motionless(c.as_ref(), start, dest, &cfg)
                };
                // The full marches: the verdict of this switch time (None: the loop stops).
                let mut ev = 0;
                let full_verdict = if full_broke {
                    None
                } else {
                    full.march(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
                    if rejected_prefix(full.first_hit()) {
                        full_broke = true;
                        None
                    } else {
                        let mut tails = TrackSet::default();
                        tails.continue_from(&full, &facts, ts, sb, cb, &cfg);
                        Some(final_march(&tails, &obs, &facts, &path, cb, &cfg, None).0)
                    }
                };
                let accepted = full_verdict
                    .is_some_and(|hit| accept_motionless(hit.as_ref(), start, dest, &cfg));
                // The one-track attempt with any track (often the one the full march found
                // colliding, or out of range), then the full marches if unsettled.
                let random = (rng.next_u64() % (facts.len() as u64 + 1)) as usize;
                let track = match full_verdict {
                    Some(Some(c)) if !random.is_multiple_of(4) => c.obstacle,
                    _ => random,
                };
                let verdict = if lazy_clear {
                    lazy.lazy_tail_verdict(
                        track, &obs, &facts, &sub_path, ts, sb, &path, end, cb, &cfg, &rejection,
                        &mut ev,
                    )
                } else {
                    LazyVerdict::Undecided
                };
                if verdict == LazyVerdict::Rejected {
                    settled += 1;
                    assert!(!accepted, "scene {k} ts {ts}");
                } else {
                    unsettled += 1;
                    lazy.march(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
                    let prefix_hit = lazy.first_hit();
                    lazy_clear &= prefix_hit.is_none();
                    if rejected_prefix(prefix_hit) {
                        broke += 1;
                        assert!(full_broke, "scene {k} ts {ts}");
                        break;
                    }
                    assert!(!full_broke, "scene {k} ts {ts}");
                    assert_eq!(prefix_hit, full.first_hit(), "scene {k} ts {ts}");
                    if prefix_hit.is_none() {
                        assert_eq!(lazy.tracks, full.tracks, "scene {k} ts {ts}");
                    }
                    let mut tails = TrackSet::default();
                    tails.continue_from(&lazy, &facts, ts, sb, cb, &cfg);
                    let hit = final_march(&tails, &obs, &facts, &path, cb, &cfg, None).0;
                    assert_eq!(Some(hit), full_verdict, "scene {k} ts {ts}");
                }
                ts += cfg.switch_step;
            }
        }
        println!("settled {settled}, unsettled {unsettled}, stopped by the sub path {broke}");
        assert!(
            settled > 1_000 && unsettled > 1_000 && broke > 100,
            "{settled} {unsettled} {broke}"
        );
    }

    /// The moving tracks of a sub path marched at every switch time have the first collision
    /// of tracks marched only at some of them (and their states while there is none): the
    /// path finder marches them early, before the tail, when no march can reach the step
    /// limit; and once they have one, the final march of the path switching at this or any
    /// later switch time, continued from either, returns it, with or without the far test
    /// (so the path finder may end the sub-destination on it).
    #[test]
    fn moving_tracks_marched_at_every_switch_time_keep_the_first_collision() {
        use crate::obstacle::{
            BallObstacle, ConstVelocityRobot, OpponentObstacle, TrajectoryRobot,
        };
        let mut rng = SplitMix64::new(18);
        let cfg = PlannerConfig::r2024();
        // Comparisons with a collision where the tracks' states differ (marched at other times).
        let (mut compared, mut kept, mut diverged) = (0, 0, 0);
        for k in 0..3_000 {
            let dest = Vec2::new(rng.range(-3.0, 3.0), rng.range(-2.0, 2.0));
            let start = dest + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 5.0);
            let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.5);
            let n = 3 + (rng.next_u64() % 16) as usize;
            let (mut cv, mut opp, mut own) = (vec![], vec![], vec![]);
            for _ in 0..n {
                let p = start + Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
                let v = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 3.0);
                match rng.next_u64() % 3 {
                    0 => cv.push(ConstVelocityRobot::new(p, v)),
                    1 => opp.push(OpponentObstacle::new(p, v, 3.0, 3.0)),
                    _ => {
                        let q = Vec2::new(rng.range(-4.0, 4.0), rng.range(-3.0, 3.0));
                        let path = TrajPath::single(BangBang2D::new(p, q, v, 3.0, 3.0));
                        let horizon = if rng.next_u64().is_multiple_of(2) {
                            0.5
                        } else {
                            f64::INFINITY
                        };
                        own.push(TrajectoryRobot::new(
                            path,
                            rng.range(0.0, 0.05),
                            true,
                            horizon,
                        ));
                    }
                }
            }
            let ball = BallObstacle::new(start + Vec2::new(1.0, 0.5), vel * 1.5, 0.5);
            let mut obs: Vec<&dyn Obstacle> = vec![&ball];
            obs.extend(cv.iter().map(|o| o as &dyn Obstacle));
            obs.extend(opp.iter().map(|o| o as &dyn Obstacle));
            obs.extend(own.iter().map(|o| o as &dyn Obstacle));
            let facts: Vec<_> = (0..obs.len()).map(|i| ObstacleFacts::of(&obs, i)).collect();
            let (vmax, amax) = (3.0, 3.0);
            let sub_dest = start + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 3.0);
            let sub = BangBang2D::new(start, sub_dest, vel, vmax, amax);
            let sub_path = TrajPath::single(sub);
            let sb = Bound::of(&sub_path, &cfg);
            let t0 = rng.range(0.08, 0.12);
            let (mut every, mut some) = (TrackSet::default(), TrackSet::default());
            every.reset(&facts, t0);
            some.reset(&facts, t0);
            let mut ev = 0;
            let mut ts = t0 + cfg.switch_step;
            while ts < sub.total_time() {
                every.march(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
                if !rng.next_u64().is_multiple_of(3) {
                    ts += cfg.switch_step;
                    continue;
                }
                some.march(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
                assert_eq!(every.first_hit(), some.first_hit(), "scene {k} ts {ts}");
                if every.first_hit().is_none() {
                    assert_eq!(every.tracks, some.tracks, "scene {k} ts {ts}");
                } else {
                    diverged += usize::from(every.tracks != some.tracks);
                }
                compared += 1;
                if let Some(c) = every.first_hit() {
                    let (p, v) = sub.pos_vel(ts);
                    let tail = BangBang2D::new(p, dest, v, vmax, amax);
                    let path = TrajPath::switched(sub, sub_dest, ts, tail);
                    let vb = sb.v.max(tail.max_speed());
                    let cb = Bound {
                        v: vb,
                        margin: cfg.margin(vb),
                    };
                    let far = RejectionTest::moving_far(start, dest, &cfg, rng.range(0.0, 3.0));
                    for prefix in [&every, &some] {
                        let mut tails = TrackSet::default();
                        tails.continue_from(prefix, &facts, ts, sb, cb, &cfg);
                        for test in [None, far.as_ref()] {
                            let hit = final_march(&tails, &obs, &facts, &path, cb, &cfg, test).0;
                            assert_eq!(hit, Some(c), "scene {k} ts {ts}");
                            kept += 1;
                        }
                    }
                }
                ts += cfg.switch_step;
            }
        }
        println!("compared {compared}, kept {kept}, states differing {diverged}");
        assert!(
            compared > 3_000 && kept > 3_000 && diverged > 100,
            "{compared} {kept} {diverged}"
        );
    }

    /// Marching the probe track alone first ([`TrackSet::march_probe`]) and then all tracks
    /// gives the tracks and first collision of marching all tracks alone; and when the far
    /// test passes on the sub path from the returned time to the probe's collision, the
    /// first collision of the full march is beyond its radius (what ends a sub-destination).
    #[test]
    fn probe_alone_then_all_tracks_is_the_full_march() {
        use crate::obstacle::{ConstVelocityRobot, OpponentObstacle};
        let mut rng = SplitMix64::new(20);
        let cfg = PlannerConfig::r2024();
        let (mut settled, mut compared) = (0, 0);
        for k in 0..6_000 {
            let dest = Vec2::new(rng.range(-3.0, 3.0), rng.range(-2.0, 2.0));
            let start = dest + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 5.0);
            let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.5);
            let n = 3 + (rng.next_u64() % 16) as usize;
            let (mut cv, mut opp) = (vec![], vec![]);
            for _ in 0..n {
                let p = start + Vec2::new(rng.range(-2.5, 2.5), rng.range(-2.5, 2.5));
                let v = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 3.0);
                if rng.next_u64().is_multiple_of(2) {
                    cv.push(ConstVelocityRobot::new(p, v));
                } else {
                    opp.push(OpponentObstacle::new(p, v, 3.0, 3.0));
                }
            }
            let mut obs: Vec<&dyn Obstacle> = vec![];
            obs.extend(cv.iter().map(|o| o as &dyn Obstacle));
            obs.extend(opp.iter().map(|o| o as &dyn Obstacle));
            let facts: Vec<_> = (0..obs.len()).map(|i| ObstacleFacts::of(&obs, i)).collect();
            let sub_dest = start + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 3.0);
            let sub = BangBang2D::new(start, sub_dest, vel, 3.0, 3.0);
            let sub_path = TrajPath::single(sub);
            let sb = Bound::of(&sub_path, &cfg);
            let (mut full, mut probed) = (TrackSet::default(), TrackSet::default());
            let t0 = rng.range(0.08, 0.12);
            full.reset(&facts, t0);
            probed.reset(&facts, t0);
            let probe = (rng.next_u64() % (n as u64 + 1)) as usize;
            (full.probe, probed.probe) = (probe, probe);
            let best_dist = rng.range(0.0, 2.0);
            let far = RejectionTest::moving_far(start, dest, &cfg, best_dist);
            let mut ev = 0;
            let mut ts = t0 + cfg.switch_step;
            while ts < sub.total_time() && full.first_hit().is_none() {
                full.march(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
                let alone = probed.march_probe(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
                probed.march(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
                assert_eq!(full.first_hit(), probed.first_hit(), "scene {k} ts {ts}");
                if full.first_hit().is_none() {
                    assert_eq!(full.tracks, probed.tracks, "scene {k} ts {ts}");
                }
                compared += 1;
                if let (Some(far), Some((from, c))) = (&far, alone)
                    && far.rejects_all_between(&sub_path, from, c.t)
                {
                    settled += 1;
                    let first = full.first_hit().expect("the probe's collision is one");
                    assert!(first.t >= from && first.t <= c.t, "scene {k} ts {ts}");
                    let radius = cfg.moving_max_dest_dist.max(best_dist);
                    assert!(first.pos.dist(dest) > radius, "scene {k} ts {ts}");
                }
                ts += cfg.switch_step;
            }
        }
        println!("compared {compared}, settled by the probe {settled}");
        assert!(compared > 3_000 && settled > 100, "{compared} {settled}");
    }

    /// The moving march that stops at a collision far from the destination gives the
    /// moving acceptor's verdict of the full march and the same choice of the best-rejected
    /// candidate (closer than the best so far or not), and the full march's collision when
    /// either is taken.
    #[test]
    fn far_collision_stop_keeps_the_verdict_and_the_best_candidate() {
        use crate::finder::acceptor::accept_moving;
        use crate::obstacle::{ConstVelocityRobot, OpponentObstacle};
        let mut rng = SplitMix64::new(13);
        let cfg = PlannerConfig::r2024();
        let (mut stopped, mut taken, mut passed) = (0, 0, 0);
        // Marches stopped at a collision that is not the first: the early stop itself.
        let mut later = 0;
        for k in 0..3_000 {
            let dest = Vec2::new(rng.range(-3.0, 3.0), rng.range(-2.0, 2.0));
            let start = dest + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.1, 5.0);
            let vel = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.5);
            let n = 4 + (rng.next_u64() % 18) as usize;
            let mut own = vec![];
            let mut opp = vec![];
            for _ in 0..n {
                let p = Vec2::new(rng.range(-4.0, 4.0), rng.range(-3.0, 3.0));
                let v = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.0);
                if rng.next_u64().is_multiple_of(2) {
                    own.push(ConstVelocityRobot::new(p, v));
                } else {
                    opp.push(OpponentObstacle::new(p, v, 3.0, 3.0));
                }
            }
            let mut obs: Vec<&dyn Obstacle> = vec![];
            obs.extend(own.iter().map(|o| o as &dyn Obstacle));
            obs.extend(opp.iter().map(|o| o as &dyn Obstacle));
            let facts: Vec<_> = (0..obs.len()).map(|i| ObstacleFacts::of(&obs, i)).collect();
            let best_dist = rng.range(0.0, 3.0);
            let Some(far) = RejectionTest::moving_far(start, dest, &cfg, best_dist) else {
                continue;
            };
            let (vmax, amax) = (3.0, 3.0);
            let sub_dest = start + Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.3, 3.0);
            let sub = BangBang2D::new(start, sub_dest, vel, vmax, amax);
            let sub_path = TrajPath::single(sub);
            let sb = Bound::of(&sub_path, &cfg);
            let mut prefix = TrackSet::default();
            prefix.reset(&facts, 0.1);
            let ts = 0.1 + 0.2 * (1 + rng.next_u64() % 4) as f64;
            let mut ev = 0;
            prefix.march(&obs, &facts, &sub_path, ts, sb, &cfg, &mut ev);
            let (p, v) = sub.pos_vel(ts);
            let tail = BangBang2D::new(p, dest, v, vmax, amax);
            let path = TrajPath::switched(sub, sub_dest, ts, tail);
            let vb = sb.v.max(tail.max_speed());
            let cb = Bound {
                v: vb,
                margin: cfg.margin(vb),
            };
            let mut tracks = TrackSet::default();
            tracks.continue_from(&prefix, &facts, ts, sb, cb, &cfg);
            let (full, full_evals) = final_march(&tracks, &obs, &facts, &path, cb, &cfg, None);
            let (fast, fast_evals) =
                final_march(&tracks, &obs, &facts, &path, cb, &cfg, Some(&far));
            let verdict = |c: Option<Collision>| {
                accept_moving(c.as_ref(), &obs, start, dest, vel.len(), amax, &cfg)
            };
            let closer = |c: Option<Collision>| c.is_some_and(|c| c.pos.dist(dest) < best_dist);
            assert_eq!(verdict(full), verdict(fast), "scene {k}");
            assert_eq!(closer(full), closer(fast), "scene {k}");
            if verdict(full) || closer(full) {
                taken += 1;
                assert_eq!(full, fast, "scene {k}");
            } else {
                passed += 1;
                stopped += usize::from(fast != full || fast_evals < full_evals);
                later += usize::from(fast != full);
            }
        }
        println!(
            "taken {taken}, passed over {passed}, stopped early {stopped} ({later} at a later collision)"
        );
        assert!(
            taken > 300 && passed > 300 && stopped > 100,
            "{taken} {passed} {stopped}"
        );
        // The stop itself, not only the track order, is exercised (23 with this seed).
        assert!(later > 10, "{later} at a later collision");
    }

    /// The march's step floor is `f64::max` bit for bit, with every kind of smallest step
    /// (positive, zero, negative, NaN, infinite) and step (NaN, ties, zeros, infinities).
    #[test]
    fn step_floor_is_the_library_max() {
        let mut rng = SplitMix64::new(15);
        let special = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            0.02,
            -0.02,
            5e-324,
        ];
        let pick = |rng: &mut SplitMix64| {
            if rng.next_u64().is_multiple_of(3) {
                special[(rng.next_u64() % special.len() as u64) as usize]
            } else {
                rng.range(-0.1, 0.3)
            }
        };
        let mut compared = 0;
        for _ in 0..100_000 {
            let mut cfg = PlannerConfig::r2024();
            cfg.min_check_step = pick(&mut rng);
            let step = if rng.next_u64().is_multiple_of(4) {
                cfg.min_check_step
            } else {
                pick(&mut rng)
            };
            let (fast, full) = (
                at_least(step, cfg.min_check_step),
                step.max(cfg.min_check_step),
            );
            // (The library leaves the sign of a tie of zeros open: both are zero then.)
            let zeros = fast == 0.0 && full == 0.0;
            assert!(
                fast.to_bits() == full.to_bits() || zeros || (fast.is_nan() && full.is_nan()),
                "step {step} floor {}: {fast} {full}",
                cfg.min_check_step
            );
            compared += usize::from(cfg.min_check_step > 0.0);
        }
        assert!(compared > 20_000, "{compared}");
    }

    /// A march's limit at the earliest collision is `f64::min` of the collision time (never
    /// NaN) and the track's end (any value, NaN included), up to the sign of a zero.
    #[test]
    fn collision_limit_is_the_library_min() {
        let mut rng = SplitMix64::new(16);
        let special = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 0.5];
        let pick = |rng: &mut SplitMix64, nan: bool| loop {
            let v = if rng.next_u64().is_multiple_of(3) {
                special[(rng.next_u64() % special.len() as u64) as usize]
            } else {
                rng.range(-1.0, 3.0)
            };
            if nan || !v.is_nan() {
                break v;
            }
        };
        for _ in 0..100_000 {
            let t = pick(&mut rng, false);
            let end = if rng.next_u64().is_multiple_of(4) {
                t
            } else {
                pick(&mut rng, true)
            };
            let (fast, full) = (collision_or_end(t, end), t.min(end));
            let zeros = fast == 0.0 && full == 0.0;
            assert!(
                fast.to_bits() == full.to_bits() || zeros,
                "t {t} end {end}: {fast} {full}"
            );
        }
    }

    /// The distance beyond the slack is `d - slack` bit for bit, for every distance and
    /// slack (signed zeros, infinities and NaN included).
    #[test]
    fn distance_beyond_the_slack_is_the_subtraction() {
        let mut rng = SplitMix64::new(17);
        let special = [
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e-300,
            -1e-300,
            0.25,
        ];
        let pick = |rng: &mut SplitMix64| {
            if rng.next_u64().is_multiple_of(2) {
                special[(rng.next_u64() % special.len() as u64) as usize]
            } else {
                rng.range(-1.0, 3.0)
            }
        };
        for _ in 0..100_000 {
            let (d, slack) = (pick(&mut rng), pick(&mut rng));
            let (fast, full) = (minus_slack(d, slack), d - slack);
            assert!(
                fast.to_bits() == full.to_bits() || (fast.is_nan() && full.is_nan()),
                "d {d} slack {slack}: {fast} {full}"
            );
        }
        assert!(minus_slack(f64::NAN, 0.0).is_nan());
    }
}
