//! Regression pictures of the main views, rendered headless with wgpu on a software adapter
//! (kittest prefers a CPU adapter: lavapipe when Mesa's Vulkan drivers are installed, else
//! llvmpipe through GL, which rendered the stored pictures) and compared with the PNGs in
//! `tests/snapshots/` within a tolerance. The manual's viewer page shows the same pictures.
//!
//! After a deliberate change of the look: `UPDATE_SNAPSHOTS=1 cargo test -p gui --test snapshots`,
//! look at the new pictures, and commit them. A failing comparison leaves `NAME.new.png` and
//! `NAME.diff.png` beside the stored picture.

mod common;

use egui_kittest::{Harness, SnapshotOptions};
use gui::app::ViewerApp;
use gui::settings::{Settings, SourceSetting};
use gui::soccer::view::SoccerApp;

/// The window size of the manual's screenshots.
const SIZE: egui::Vec2 = egui::Vec2::new(1280.0, 800.0);

/// Paths as a user in the `gui` directory would type them: the source bar shows them as given,
/// so the pictures do not depend on where the repository is checked out.
const CONFIG: &str = "../sample/config.json";
const SCENARIO: &str = "../sample/scenarios/hp_retreat.json5";

/// The colour distance a pixel may have (kittest's weighted squared YIQ distance: software
/// rasterisers differ in anti-aliasing), and how many pixels may exceed it (a few glyph edges).
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
    // A fixed name, since the source bar shows it; written beside it and renamed into place, so
    // that two test runs at once never read each other's half-written file.
    let file = "../target/snapshot_hp_retreat.mcap";
    std::fs::create_dir_all("../target").expect("the workspace's target folder");
    let partial = tempfile::NamedTempFile::new_in("../target").expect("a temp file in target");
    let decided = common::record_sample(CONFIG.as_ref(), SCENARIO.as_ref(), partial.path(), 80.0);
    partial
        .persist(file)
        .expect("the recording renamed into place");
    let retreat_at = decided
        .iter()
        .find(|(_, _, chosen)| *chosen == Some(13))
        .map(|(t, _, _)| *t)
        .expect("the sample retreats to supply before 80 s");

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
    // In play: the sample match (0.2 m partition cells) restarts after a goal at 40 s.
    app.run_until(30.0);
    let mut h = Harness::builder()
        .with_size(SIZE)
        .wgpu()
        .build_ui_state(|ui, app: &mut SoccerApp| app.show(ui), app);
    h.run();
    h.snapshot_options("soccer_sim_30s", &options());
}
