//! Steady-state soccer ticks do not allocate: a counting global allocator around the ticks of
//! each benchmark situation after a warm-up.

use soccer_profile::bench_support::{Situation, frames};
use soccer_profile::decider::SoccerDecider;
use soccer_profile::params::Parameters;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarding the caller's layout to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarding to the system allocator that made `ptr`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

thread_local! {
    /// Set on the test's own thread: the harness's other threads may allocate meanwhile
    /// (output capture, timers under load), which says nothing about the code measured.
    static MEASURED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Counts an allocation made on a measured thread.
fn count() {
    if MEASURED.with(std::cell::Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

/// Counts the allocations of this thread from now on.
fn measure_this_thread() {
    MEASURED.with(|m| m.set(true));
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn steady_state_ticks_do_not_allocate() {
    measure_this_thread();
    let spec = soccer_profile::tree::default_spec().unwrap_or_else(|e| panic!("{e:?}"));
    let mut report = Vec::new();
    for situation in [
        Situation::Striker,
        Situation::Supporter,
        Situation::Searcher,
    ] {
        let frames = frames(situation, 400);
        let mut decider = SoccerDecider::new(&spec, Arc::new(Parameters::default()))
            .unwrap_or_else(|e| panic!("{e:?}"));
        for f in &frames[..200] {
            decider.tick(f);
        }
        let mut roles = Vec::with_capacity(200);
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for f in &frames[200..] {
            decider.tick(f);
            roles.push(decider.context().out.role);
        }
        let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
        report.push(format!(
            "{situation:?}: {allocations} allocations in 200 ticks"
        ));
        // The situation really puts the robot in its role (the test measures the right path).
        let expected = match situation {
            Situation::Striker => "striker",
            Situation::Supporter => "supporter",
            Situation::Searcher => "searcher",
        };
        assert!(
            roles.iter().all(|r| r.map(|r| r.name()) == Some(expected)),
            "{situation:?}: {roles:?}"
        );
    }
    for line in &report {
        println!("{line}");
    }
    assert!(
        report.iter().all(|l| l.contains(": 0 allocations")),
        "{report:?}"
    );
}
