//! The app on the embedded sample simulation, driven headless with egui_kittest.

use egui::accesskit::Toggled;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui::app::ViewerApp;

fn harness() -> Harness<'static, ViewerApp> {
    Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1400.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), ViewerApp::sample())
}

const SAMPLE_NAMES: [&str; 6] = [
    "0 leave_start_to_outpost",
    "3 hold_fire_point",
    "13 retreat_to_supply",
    "14 heal_at_supply",
    "15 emergency_guard_base",
    "16 fallback_to_fire_point",
];

#[test]
fn decision_table_lists_every_decision_of_the_sample() {
    let mut h = harness();
    h.run();
    let app = h.state();
    let view = app.view.as_ref().expect("the sample opens");
    assert_eq!(view.tables.decisions.len(), 17);
    for loaded in &view.tables.decisions {
        let label = gui::tables_view::row_label(loaded.decision.id, &loaded.decision.name);
        assert!(h.query_by_label(&label).is_some(), "row `{label}` missing");
    }
    for name in SAMPLE_NAMES {
        h.get_by_label(name);
    }
    h.get_by_label("weight");
    h.get_by_label("available");
}

#[test]
fn clicking_a_row_selects_and_keeps_it_highlighted() {
    let mut h = harness();
    h.run();
    assert_eq!(
        h.get_by_label("13 retreat_to_supply")
            .accesskit_node()
            .toggled(),
        Some(Toggled::False)
    );
    h.get_by_label("13 retreat_to_supply").click();
    h.run();
    assert_eq!(h.state().selected_decision, Some(13));
    assert_eq!(
        h.get_by_label("13 retreat_to_supply")
            .accesskit_node()
            .toggled(),
        Some(Toggled::True)
    );
    h.get_by_label("selected: 13 retreat_to_supply");
    // Its waypoints are highlighted on the map.
    let highlighted = h.state().highlighted_waypoints();
    assert!(highlighted.contains(&1), "{highlighted:?}");
    // Still selected after more frames and a simulation step.
    h.get_by_label("Step").click();
    h.run();
    assert_eq!(h.state().selected_decision, Some(13));
    assert_eq!(
        h.get_by_label("13 retreat_to_supply")
            .accesskit_node()
            .toggled(),
        Some(Toggled::True)
    );
}

fn ticks(h: &Harness<'_, ViewerApp>) -> u64 {
    let mut app_ticks = None;
    if let gui::source::Source::Sim(sim) = &h.state().source {
        app_ticks = Some(sim.ticks());
    }
    app_ticks.expect("a simulation source")
}

#[test]
fn step_advances_exactly_one_tick_while_paused() {
    let mut h = harness();
    h.run();
    assert_eq!(ticks(&h), 0);
    h.get_by_label("Step").click();
    h.run();
    assert_eq!(ticks(&h), 1);
    let first = h.state().view.as_ref().and_then(|v| v.tick.clone());
    assert_eq!(first.as_ref().map(|t| t.tick), Some(0));
    // More frames while paused change nothing.
    h.run_steps(5);
    assert_eq!(ticks(&h), 1);
    for expected in 2..=4 {
        h.get_by_label("Step").click();
        h.run();
        assert_eq!(ticks(&h), expected);
    }
    let tick = h.state().view.as_ref().and_then(|v| v.tick.clone());
    assert_eq!(tick.map(|t| t.tick), Some(3));
    // The chosen decision of the sample's first ticks is marked in effect in the table and
    // on its rule row in the tree.
    assert_eq!(h.query_all_by_label("> in effect").count(), 2);
}

#[test]
fn play_runs_the_match_and_pause_stops_it() {
    let mut h = harness();
    h.run();
    h.get_by_label("Play").click();
    h.run_steps(30);
    let after_play = ticks(&h);
    assert!(after_play > 0, "playing decided nothing");
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let paused = ticks(&h);
    h.run_steps(10);
    assert_eq!(ticks(&h), paused);
}

#[test]
fn stepping_into_the_retreat_shows_the_decision_and_why_not() {
    let mut h = harness();
    h.run();
    // Simulate to 80 s of the hp_retreat scenario (retreat below 200 HP at ~75 s).
    {
        let app = h.state_mut();
        let (gui::source::Source::Sim(sim), Some(view)) = (&mut app.source, app.view.as_mut())
        else {
            panic!("sample simulation");
        };
        while sim.time() < 80.0 && !sim.finished() {
            sim.step_tick(view);
        }
    }
    h.run();
    let view = h.state().view.as_ref().expect("view");
    let tick = view.tick.as_ref().expect("a tick");
    assert_eq!(tick.chosen, Some(13), "{tick:?}");
    // The change is an event in words: ids with names, and what the navigation did.
    let change = view
        .events
        .iter()
        .rev()
        .find(|e| e.kind == "decision")
        .expect("a decision event");
    assert!(
        change
            .message
            .ends_with("-> 13 retreat_to_supply (preempt)")
            || change.message.ends_with("-> 13 retreat_to_supply (send)"),
        "{}",
        change.message
    );
    assert!(!change.message.contains("Some("), "{}", change.message);
    assert!(!tick.why_not.is_empty());
    let why = tick.why_not.values().next().cloned().unwrap_or_default();
    assert!(
        h.query_by_label(&why).is_some(),
        "why-not `{why}` not shown"
    );
    // The status panel names the decision in effect as the table does, and says what `hold`
    // or `send` means.
    assert!(
        h.query_by_label("13 retreat_to_supply (weight 800)")
            .is_some()
    );
    assert!(
        h.query_all_by_label_contains("goal").count() >= 1,
        "the action in words"
    );
    // Selecting an unavailable decision shows its whole why-not below the table.
    let (id, text) = tick
        .why_not
        .iter()
        .next()
        .map(|(id, text)| (id.clone(), text.clone()))
        .expect("a why-not");
    let name = view
        .tables
        .decisions
        .iter()
        .find(|d| d.decision.id.to_string() == id)
        .map(|d| gui::tables_view::row_label(d.decision.id, &d.decision.name))
        .expect("the decision");
    h.get_by_label(&name).click();
    h.run();
    assert!(
        h.query_by_label(&format!("why not: {text}")).is_some(),
        "details of {name}"
    );
    assert!(h.query_by_label("not available").is_some());
}
