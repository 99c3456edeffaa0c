//! Steady-state planning allocates nothing: after a warm-up, a finder plans the crowded
//! frames, the no-path ring and the systematic sub-destination set without a heap allocation.

mod common;

use common::*;
use path_planner::obstacle::Circle;
use path_planner::rng::SplitMix64;
use path_planner::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The system allocator, counting allocations while `COUNTING` is set (a global allocator
/// must be an `unsafe impl`; it only forwards to `System`).
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn planning_allocates_nothing_once_warm() {
    let mut rng = SplitMix64::new(99);
    let frames: Vec<_> = (0..20)
        .map(|_| {
            let f = crowded_frame(&mut rng);
            let sets: Vec<ObsSet> = (0..22).map(|i| f.obstacles_for(i)).collect();
            (f, sets)
        })
        .collect();
    let refs: Vec<Vec<Vec<&dyn Obstacle>>> = frames
        .iter()
        .map(|(_, sets)| sets.iter().map(|s| s.refs()).collect())
        .collect();
    let (f, a, b) = ssl_static();
    let ring: Vec<Circle> = (0..24)
        .map(|k| Circle::new(Vec2::from_angle(k as f64 * 0.2618), 0.2))
        .collect();
    let mut ring_obs: Vec<&dyn Obstacle> = vec![&f, &a, &b];
    ring_obs.extend(ring.iter().map(|c| c as &dyn Obstacle));
    let ring_req = PlanRequest {
        pos: Vec2::new(-1.35, 0.0),
        vel: Vec2::ZERO,
        dest: Vec2::ZERO,
        limits: LIMITS,
        obstacles: &ring_obs,
        dt: 0.01,
    };
    let mut finder = PathFinder::new(PlannerConfig {
        systematic_sub_dests: true,
        ..PlannerConfig::default()
    });
    let plan_all = |finder: &mut PathFinder| {
        for k in 0..440 {
            let (fi, ri) = (k / 22, k % 22);
            std::hint::black_box(finder.plan(&frames[fi].0.request(ri, &refs[fi][ri])));
        }
        std::hint::black_box(finder.plan(&ring_req));
    };
    plan_all(&mut finder);
    COUNTING.store(true, Ordering::Relaxed);
    plan_all(&mut finder);
    COUNTING.store(false, Ordering::Relaxed);
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 0);
}
