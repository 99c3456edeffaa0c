//! Helpers shared by the viewer's integration tests.

use gui::sim::SimSource;
use std::path::Path;

/// Records the sample simulation into `file` until simulated `until` seconds; returns each
/// decided tick's (time, tick index, chosen decision) in order.
pub fn record_sample(
    config: &Path,
    scenario: &Path,
    file: &Path,
    until: f64,
) -> Vec<(f64, u64, Option<i32>)> {
    let (mut sim, mut view) = SimSource::open(config, scenario, 0).expect("the sample opens");
    sim.start_recording(file, &mut view).expect("recorder");
    let mut decided = Vec::new();
    while sim.time() < until && !sim.finished() {
        if sim.step_tick(&mut view) {
            let tick = view.tick.as_ref().expect("a decided tick has its result");
            decided.push((sim.time(), tick.tick, tick.chosen));
        }
    }
    sim.stop_recording(&mut view);
    decided
}
