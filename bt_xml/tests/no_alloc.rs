//! Steady-state ticks of the benchmark trees do not allocate, with tracing on or off: a
//! counting global allocator around the schedule's writes and ticks after a warm-up period.

use decision_core::engine::{Registry, Tree, bench_leaves, nodes};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
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

fn tree(name: &str) -> Tree<()> {
    let mut r = Registry::new();
    nodes::register_standard(&mut r);
    bench_leaves::register(&mut r);
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/trees")
        .join(name);
    let spec = bt_xml::load_tree(&path, None).unwrap_or_else(|e| panic!("{e:?}"));
    bench_leaves::compile_for_schedule(spec, &r).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn benchmark_trees_tick_without_allocating() {
    measure_this_thread();
    let mut report = Vec::new();
    for name in [
        "game_like.xml",
        "game_like_while.xml",
        "wide_fallback.xml",
        "deep.xml",
    ] {
        for tracing in [true, false] {
            let mut t = tree(name);
            t.set_tracing(tracing);
            let mut writer = bench_leaves::ScheduleWriter::new(&mut t);
            let warm = 4096;
            for i in 0..warm {
                writer.write(&mut t, i).expect("schedule write");
                t.try_tick(&mut (), i as f64).expect("tick");
            }
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            for i in warm..warm + 8192 {
                writer.write(&mut t, i).expect("schedule write");
                t.try_tick(&mut (), i as f64).expect("tick");
            }
            let allocated = ALLOCATIONS.load(Ordering::Relaxed) - before;
            if allocated > 0 {
                report.push(format!(
                    "{name} (tracing {tracing}): {allocated} allocations"
                ));
            }
        }
    }
    assert!(report.is_empty(), "{report:#?}");
}
