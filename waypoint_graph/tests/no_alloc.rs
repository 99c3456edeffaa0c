//! The `_into` searches allocate nothing once their scratch and output have warmed up.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use waypoint_graph::{PathScratch, Waypoint, WaypointGraph};

/// Counts allocations made on the measured thread.
struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
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
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

/// Counts the allocations of this thread from now on.
fn measure_this_thread() {
    MEASURED.with(|m| m.set(true));
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn searches_do_not_allocate_after_warm_up() {
    measure_this_thread();
    // A 10 x 10 grid, each node linked to its right and lower neighbour and back.
    let n = 10;
    let wps: Vec<Waypoint> = (0..n * n)
        .map(|i| {
            let (x, y) = (i % n, i / n);
            let mut c = Vec::new();
            for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                let (nx, ny) = (x + dx, y + dy);
                if (0..n).contains(&nx) && (0..n).contains(&ny) {
                    c.push(ny * n + nx);
                }
            }
            Waypoint::at(i, x as f32, y as f32, c)
        })
        .collect();
    let Ok(g) = WaypointGraph::new(wps) else {
        panic!("graph")
    };
    let mut scratch = PathScratch::for_graph(&g);
    let mut out = Vec::with_capacity(g.len());
    let pairs = [(0, 99), (99, 0), (45, 54), (7, 7), (12, 88)];
    for &(s, t) in &pairs {
        assert!(g.dfs_chain_into(s, t, &mut scratch, &mut out));
        assert!(g.shortest_path_into(s, t, &mut scratch, &mut out));
    }
    let before = ALLOCS.load(Ordering::Relaxed);
    let mut total = 0;
    for _ in 0..100 {
        for &(s, t) in &pairs {
            assert!(g.dfs_chain_into(s, t, &mut scratch, &mut out));
            total += out.len();
            assert!(g.shortest_path_into(s, t, &mut scratch, &mut out));
            total += out.len();
            assert!(g.nearest(s as f32 * 0.1, 3.3, 1.0).is_some());
        }
    }
    let after = ALLOCS.load(Ordering::Relaxed);
    assert!(total > 0);
    assert_eq!(after - before, 0, "allocations in steady state");
}
