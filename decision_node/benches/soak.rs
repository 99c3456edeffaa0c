//! Soak: a simulated hour of each profile at full speed in this one process, with the live
//! heap (a counting allocator) and the resident set sampled every simulated minute.
//!
//! * RoboMaster: one node over the in-process bus, fed match after match of the sample's
//!   `hp_retreat` scenario (a new simulated match, new seed, when one ends) for 3,600 s.
//! * Soccer: the default 5 v 5 match (a new one when it is over) for 3,600 simulated s.
//!
//! `cargo bench -p decision_node --bench soak` prints one line per simulated minute and a
//! summary: the growth from minute 5 (after warm-up) to minute 60. `SOAK_SECONDS` shortens it.

use decision_core::robomaster::load;
use decision_node::node::Ingested;
use decision_node::runtime::sim::{InProcessMatch, deliver_to_simulation};
use fake_publisher::Simulation;
use fake_publisher::soccer::{SoccerMatch, SoccerScenario};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Instant;

/// The system allocator, counting the bytes currently allocated.
struct Counting;

static LIVE: AtomicI64 = AtomicI64::new(0);

// SAFETY: every call is forwarded to `System` unchanged; only a counter is updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed through.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed through.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as i64 - layout.size() as i64, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed through.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Resident set size in KiB (Linux `/proc/self/status`; 0 elsewhere).
fn rss_kib() -> i64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Memory samples, one per simulated minute.
struct Samples {
    profile: &'static str,
    rows: Vec<(u32, i64, i64)>,
}

impl Samples {
    fn new(profile: &'static str) -> Self {
        Self {
            profile,
            rows: Vec::new(),
        }
    }

    fn take(&mut self, minute: u32) {
        let row = (minute, LIVE.load(Ordering::Relaxed), rss_kib());
        println!(
            "{} minute {:>2}: live heap {:>10} B, RSS {:>7} KiB",
            self.profile, row.0, row.1, row.2
        );
        self.rows.push(row);
    }

    fn summary(&self, matches: u32, wall: f64) {
        let from = self.rows.iter().find(|r| r.0 >= 5).or(self.rows.first());
        if let (Some(a), Some(b)) = (from, self.rows.last()) {
            println!(
                "{}: {matches} matches, {:.1} s wall; minute {} -> {}: live heap {} -> {} B ({:+} B), RSS {} -> {} KiB ({:+} KiB)",
                self.profile,
                wall,
                a.0,
                b.0,
                a.1,
                b.1,
                b.1 - a.1,
                a.2,
                b.2,
                b.2 - a.2
            );
        }
    }
}

fn soak_seconds() -> f64 {
    std::env::var("SOAK_SECONDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3600.0)
}

fn robomaster(seconds: f64) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tables = Arc::new(
        load::load(&root.join("sample/config.json"))
            .tables
            .expect("the sample loads"),
    );
    let scenario = fake_publisher::load_scenario(&root.join("sample/scenarios/hp_retreat.json5"))
        .expect("the sample scenario loads");
    let mut game = InProcessMatch::new(&tables, &scenario, 1).expect("the match starts");
    let period = game.sim.publish_period();
    let (mut elapsed, mut match_start, mut matches, mut minute) = (0.0, 0.0, 1u32, 0u32);
    let mut samples = Samples::new("robomaster");
    let started = Instant::now();
    samples.take(0);
    while elapsed < seconds {
        if game.sim.finished() {
            match_start = elapsed;
            matches += 1;
            game.sim = Simulation::new(&scenario, Arc::clone(&tables), u64::from(matches))
                .expect("the next match starts");
        }
        game.sim.frame().publish(&game.bus).expect("publish");
        while let Some(received) = game.node_inputs.try_recv() {
            if let Ingested::Tick(output) =
                game.node
                    .ingest(&received.topic, &received.payload, elapsed)
            {
                output.publish(&game.bus).expect("publish");
            }
        }
        while let Some(received) = game.sim_inputs.try_recv() {
            deliver_to_simulation(&mut game.sim, &received);
        }
        game.sim.step(period);
        elapsed = match_start + game.sim.time();
        if elapsed >= f64::from(minute + 1) * 60.0 {
            minute += 1;
            samples.take(minute);
        }
    }
    samples.summary(matches, started.elapsed().as_secs_f64());
}

fn soccer(seconds: f64) {
    fake_publisher::soccer::decide_on_this_thread();
    let params = Arc::new(soccer_profile::params::Parameters::default());
    let spec = soccer_profile::tree::default_spec().expect("the default tree");
    let new_match = |seed: u64| {
        SoccerMatch::new(
            SoccerScenario::default(),
            Arc::clone(&params),
            &spec,
            Some(seed),
        )
        .expect("the match starts")
    };
    let (mut matches, mut minute) = (1u32, 0u32);
    let mut game = new_match(1);
    let mut samples = Samples::new("soccer");
    let started = Instant::now();
    samples.take(0);
    let (mut elapsed, mut ticks_before) = (0.0, 0.0);
    let mut ticks = 0u64;
    while elapsed < seconds {
        if game.is_over() {
            matches += 1;
            ticks_before = elapsed;
            ticks = 0;
            game = new_match(u64::from(matches));
        }
        game.step();
        ticks += 1;
        elapsed = ticks_before + ticks as f64 * fake_publisher::soccer::TICK;
        if elapsed >= f64::from(minute + 1) * 60.0 {
            minute += 1;
            samples.take(minute);
        }
    }
    samples.summary(matches, started.elapsed().as_secs_f64());
}

fn main() {
    // criterion-style flags (e.g. --bench) are accepted and ignored
    let seconds = soak_seconds();
    robomaster(seconds);
    soccer(seconds);
}
