//! A recording written by the embedded simulation, opened in the viewer and scrubbed.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui::app::ViewerApp;
use gui::settings::{Settings, SourceSetting};
use gui::source::Source;

#[test]
fn scrubbing_a_recording_shows_that_ticks_decision() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("hp_retreat.mcap");
    // Record 90 s of the sample scenario (the retreat to supply starts at ~75 s).
    let decided =
        common::record_sample(&gui::sample_config(), &gui::sample_scenario(), &file, 90.0);
    assert!(decided.iter().any(|(_, _, c)| *c == Some(13)));

    let settings = Settings {
        source: SourceSetting::Recording {
            file: file.display().to_string(),
            config: gui::sample_config().display().to_string(),
        },
        ..Settings::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1400.0))
        .build_ui_state(
            |ui, app: &mut ViewerApp| app.show(ui),
            ViewerApp::new(settings),
        );
    h.run();
    assert!(h.state().error.is_none(), "{:?}", h.state().error);
    let times: Vec<f64> = match &h.state().source {
        Source::Recording(r) => r.tick_times().collect(),
        _ => panic!("recording source"),
    };
    assert_eq!(times.len(), decided.len());

    // Scrub to the first retreat tick, then back to an early tick, then forward again.
    let retreat = decided
        .iter()
        .position(|(_, _, c)| *c == Some(13))
        .expect("retreat");
    for index in [retreat, 3, retreat + 5, 0] {
        let Some(&at) = times.get(index) else {
            continue;
        };
        h.state_mut().seek_recording(at);
        h.run();
        let tick = h.state().view.as_ref().and_then(|v| v.tick.clone());
        let tick = tick.expect("a tick at that time");
        assert_eq!(tick.tick, decided[index].1, "tick index at {at}");
        assert_eq!(tick.chosen, decided[index].2, "decision at {at}");
        if tick.chosen.is_some() {
            assert!(h.query_all_by_label("> in effect").count() >= 1);
        }
    }
    h.state_mut().seek_recording(times[retreat]);
    h.run();
    // The world (our HP) is reconstructed by the shadow node: under 200 when retreating.
    let hp = h
        .state()
        .view
        .as_ref()
        .and_then(|v| v.world.as_ref().map(|w| w.hp));
    assert!(hp.is_some_and(|hp| hp < 200), "hp {hp:?}");
    h.get_by_label("13 retreat_to_supply");
}
