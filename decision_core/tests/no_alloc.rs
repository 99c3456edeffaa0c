//! Steady-state ticks do not allocate: a counting global allocator around `Decider::tick` and
//! `Decider::result_into` on the sample field, after a warm-up pass over the same inputs.

use decision_core::robomaster::snapshot::parse_line;
use decision_core::robomaster::{Decider, TickResult, load};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
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
fn steady_state_ticks_and_results_do_not_allocate() {
    measure_this_thread();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tables = load::load(&repo.join("sample/config.json"))
        .tables
        .expect("sample loads");
    let mut decider = Decider::new(Arc::new(tables)).expect("compiles");
    let text = std::fs::read_to_string(repo.join("sample/snapshots.jsonl")).expect("snapshots");
    let inputs: Vec<_> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| parse_line(l).ok())
        .collect();
    assert!(inputs.len() > 30);
    let mut result = TickResult::default();
    let mut line = String::with_capacity(1 << 16);
    // Warm-up: buffers reach their sizes, the float-text cache is made (once per thread).
    for _ in 0..3 {
        for input in &inputs {
            decider.tick(input);
            decider.result_into(&mut result);
            line.clear();
            decider.write_result_json(0, &mut line);
        }
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for input in &inputs {
        decider.tick(input);
    }
    let ticking = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        ticking,
        0,
        "Decider::tick allocated {ticking} times over {} ticks",
        inputs.len()
    );
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for input in &inputs {
        decider.tick(input);
        decider.result_into(&mut result);
    }
    let results = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        results,
        0,
        "tick + result_into allocated {results} times over {} ticks",
        inputs.len()
    );
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for (tick, input) in inputs.iter().enumerate() {
        decider.tick(input);
        line.clear();
        decider.write_result_json(tick as u64, &mut line);
    }
    let written = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        written,
        0,
        "tick + write_result_json allocated {written} times over {} ticks",
        inputs.len()
    );
}
