//! Regression pictures of the main views, rendered headless with wgpu on a software adapter
//! (kittest prefers a CPU adapter: lavapipe when Mesa's Vulkan drivers are installed, else
//! llvmpipe through GL, which rendered the stored pictures) and compared with the PNGs in
//! `tests/snapshots/` within a tolerance. The README shows the same pictures.
//!
//! After a deliberate change of the look: `UPDATE_SNAPSHOTS=1 cargo test -p gui --test snapshots`,
//! look at the new pictures, and commit them. A failing comparison leaves `NAME.new.png` and
//! `NAME.diff.png` beside the stored picture.

use egui_kittest::{Harness, SnapshotOptions};
use gui::app::ViewerApp;
use gui::settings::{Settings, SourceSetting};
use gui::sim::SimSource;
use gui::soccer::view::SoccerApp;

/// The window size of the README's screenshots.
const SIZE: egui::Vec2 = egui::Vec2::new(1280.0, 800.0);

/// Paths as a user in the `gui` directory would type them: the source bar shows them as given,
/// so the pictures do not depend on where the repository is checked out.
const CONFIG: &str = "../sample/config.json";
const SCENARIO: &str = "../sample/scenarios/hp_retreat.json5";

/// Per-channel difference a pixel may have (software rasterisers differ in anti-aliasing), and
/// how many pixels may exceed it (text hinting at a few glyph edges).
fn options() -> SnapshotOptions {
    SnapshotOptions::new().threshold(1.0).max_failed_pixels(50)
}

/// The tick's CPU time is the one wall-clock measurement on screen: fixed, so the pictures repeat.
fn robomaster_harness(mut app: ViewerApp) -> Harness<'static, ViewerApp> {
    if let Some(view) = app.view.as_mut() {
        view.health.tick_micros = Some(60.0);
        view.health.mean_tick_micros = Some(64.0);
    }
    Harness::builder()
        .with_size(SIZE)
        .wgpu()
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app)
}

fn sim_settings() -> Settings {
    Settings {
        source: SourceSetting::Sim {
            config: CONFIG.to_owned(),
            scenario: SCENARIO.to_owned(),
        },
        ..Settings::default()
    }
}

#[test]
fn robomaster_simulation_at_the_retreat_to_supply() {
    let mut app = ViewerApp::new(sim_settings());
    app.set_playing(false);
    app.run_sim_until(75.5);
    app.selected_decision = Some(13);
    let mut h = robomaster_harness(app);
    h.run();
    h.snapshot_options("robomaster_sim_retreat", &options());
}

#[test]
fn robomaster_recording_scrubbed_to_the_retreat() {
    let file = "../target/snapshot_hp_retreat.mcap";
    let (mut sim, mut view) =
        SimSource::open(CONFIG.as_ref(), SCENARIO.as_ref(), 0).expect("the sample opens");
    sim.start_recording(file.as_ref(), &mut view)
        .expect("recorder");
    let mut retreat_at = None;
    while sim.time() < 80.0 && !sim.finished() {
        if sim.step_tick(&mut view)
            && retreat_at.is_none()
            && view.tick.as_ref().is_some_and(|t| t.chosen == Some(13))
        {
            retreat_at = Some(sim.time());
        }
    }
    sim.stop_recording(&mut view);
    let retreat_at = retreat_at.expect("the sample retreats to supply before 80 s");

    let settings = Settings {
        source: SourceSetting::Recording {
            file: file.to_owned(),
            config: CONFIG.to_owned(),
        },
        ..Settings::default()
    };
    let mut app = ViewerApp::new(settings);
    assert!(app.error.is_none(), "{:?}", app.error);
    app.seek_recording(retreat_at + 1.0);
    let mut h = robomaster_harness(app);
    h.run();
    h.snapshot_options("robomaster_recording_retreat", &options());
}

#[test]
fn soccer_match_in_play() {
    let mut app = SoccerApp::sample().expect("the sample match opens");
    app.run_until(46.0);
    let mut h = Harness::builder()
        .with_size(SIZE)
        .wgpu()
        .build_ui_state(|ui, app: &mut SoccerApp| app.show(ui), app);
    h.run();
    h.snapshot_options("soccer_sim_46s", &options());
}
