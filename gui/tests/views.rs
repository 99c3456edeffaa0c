//! The tree panel (only visible rows are laid out, subtrees collapse) and the map (hover shows
//! field coordinates).

use decision_core::engine::TreeSpec;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use gui::app::ViewerApp;
use gui::model::FlatTree;

fn node(kind: &str, name: &str, children: Vec<TreeSpec>) -> TreeSpec {
    TreeSpec::new(kind).named(name).with_children(children)
}

/// A selection over 200 sequences of 4 conditions: 1,001 nodes.
fn big_tree() -> TreeSpec {
    let children = (0..200)
        .map(|s| {
            let leaves = (0..4)
                .map(|l| node("flag", &format!("c{s}_{l}"), Vec::new()))
                .collect();
            node("Sequence", &format!("seq{s}"), leaves)
        })
        .collect();
    node("Fallback", "root", children)
}

#[test]
fn flat_tree_is_preorder_with_subtree_ends() {
    let tree = FlatTree::new(&big_tree());
    assert_eq!(tree.len(), 1001);
    assert_eq!(tree.nodes[0].end, 1001);
    assert_eq!(tree.nodes[1].label, "Sequence seq0");
    assert_eq!(tree.nodes[1].end, 6);
    assert_eq!(tree.nodes[2].depth, 2);
    assert_eq!(tree.nodes[2].end, 3);
    assert_eq!(tree.nodes[1000].end, 1001);
}

#[test]
fn a_thousand_node_tree_lays_out_only_visible_rows_and_collapses() {
    let mut app = ViewerApp::sample();
    if let Some(view) = app.view.as_mut() {
        view.tree = FlatTree::new(&big_tree());
        view.statuses.clear();
    }
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    h.get_by_label("1001 nodes");
    assert!(h.query_by_label_contains("#1 Sequence seq0").is_some());
    // The last rows are not laid out.
    assert!(h.query_by_label_contains("#1000 ").is_none());
    // Collapse the first sequence: its leaves disappear, the next sequence moves up.
    h.get_by_label_contains("#1 Sequence seq0").click();
    h.run();
    assert!(h.state().tree.collapsed.contains(&1));
    assert!(h.query_by_label_contains("#2 flag c0_0").is_none());
    assert!(h.query_by_label_contains("#6 Sequence seq1").is_some());
    // Collapse all: one row.
    h.get_by_label("Collapse all").click();
    h.run();
    // No row of the first sequence (the line above the rows still names the selected node).
    assert!(h.query_by_label_contains("] #1 Sequence").is_none());
    h.get_by_label("selected #1 Sequence seq0 (-)");
    h.get_by_label_contains("#0 Fallback root");
    h.get_by_label("Expand all").click();
    h.run();
    assert!(h.query_by_label_contains("#2 flag c0_0").is_some());
}

#[test]
fn hovering_the_map_shows_field_coordinates() {
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), ViewerApp::sample());
    h.run();
    h.get_by_label("field map").hover();
    h.run();
    let geometry::MapPoint { x, y } = h
        .state()
        .map
        .hovered_metres
        .expect("coordinates under the pointer");
    assert!(x.is_finite() && y.is_finite());
    // The map's centre is the field's centre (12 m x 8 m).
    assert!((x - 6.0).abs() < 1.0 && (y - 4.0).abs() < 1.0, "{x} {y}");
}

#[test]
fn zoom_buttons_change_the_zoom_and_fit_resets_it() {
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut ViewerApp| app.show(ui), ViewerApp::sample());
    h.run();
    h.get_by_label("Zoom in").click();
    h.run();
    assert!(h.state().map.zoom > 1.2);
    assert!((h.state().settings.zoom - h.state().map.zoom).abs() < 1e-6);
    h.get_by_label("Fit").click();
    h.run();
    assert_eq!(h.state().map.zoom, 1.0);
}

#[test]
fn a_bad_config_is_reported_not_a_panic() {
    let app = ViewerApp::new(gui::settings::Settings {
        source: gui::settings::SourceSetting::Sim {
            config: "/nonexistent/config.json".into(),
            scenario: "/nonexistent/scenario.json5".into(),
        },
        ..Default::default()
    });
    assert!(app.error.is_some());
    assert!(app.view.is_none());
    let mut h = Harness::new_ui_state(|ui, app: &mut ViewerApp| app.show(ui), app);
    h.run();
    h.get_by_label("no source");
}

#[test]
fn settings_round_trip_and_tolerate_missing_fields() {
    let mut settings = gui::settings::Settings::default();
    settings.zoom = 2.5;
    settings.show_tree = false;
    settings.source = gui::settings::SourceSetting::Live {
        endpoint: "tcp/10.0.0.2:7447".into(),
        namespace: "blue".into(),
        config: "c.json".into(),
        ros2: true,
    };
    let text = serde_json::to_string(&settings).expect("serialise");
    let back: gui::settings::Settings = serde_json::from_str(&text).expect("deserialise");
    assert_eq!(back, settings);
    let partial: gui::settings::Settings =
        serde_json::from_str(r#"{"zoom": 3.0}"#).expect("partial settings");
    assert_eq!(partial.zoom, 3.0);
    assert!(partial.show_decisions);
}
