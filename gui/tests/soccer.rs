//! The soccer view on the sample five-a-side match, driven headless with egui_kittest.

use egui::accesskit::Toggled;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use gui::soccer::scene::TeamSide;
use gui::soccer::view::SoccerApp;

fn app() -> SoccerApp {
    match SoccerApp::sample() {
        Ok(app) => app,
        Err(e) => panic!("the sample match does not open: {e}"),
    }
}

/// The sample match run (paused) to simulated `t` seconds, drawn once.
fn harness_at(t: f64) -> Harness<'static, SoccerApp> {
    let mut app = app();
    app.run_until(t);
    let mut h = harness(app);
    h.run();
    h
}

fn harness(app: SoccerApp) -> Harness<'static, SoccerApp> {
    Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut SoccerApp| app.show(ui), app)
}

#[test]
fn the_field_robots_score_and_panels_are_drawn() {
    let mut h = harness(app());
    h.run();
    h.get_by_label("soccer field");
    let tf = h.state().field.transform.expect("the field was laid out");
    assert!(tf.scale > 20.0, "field drawn too small: {tf:?}");
    for team in ["home", "away"] {
        for number in 1..=5 {
            // The list entry (the blackboard names the selected robot in its heading).
            h.get_by_label(&format!("{team} {number}"));
        }
    }
    h.get_by_label("home 0 : 0 away");
    h.get_by_label("Timeline");
    h.get_by_label("Team messages");
    h.get_by_label("Tree of home 2");
    h.get_by_label("Blackboard of home 2");
}

#[test]
fn selecting_a_robot_shows_its_tree_and_blackboard() {
    let mut h = harness_at(30.0);
    h.get_by_label("away 3").click();
    h.run();
    assert_eq!(h.state().scene.selected, Some((TeamSide::Away, 3)));
    h.get_by_label("Tree of away 3");
    h.get_by_label("Blackboard of away 3");
    assert!(h.query_by_label_contains("#0 Fallback root").is_some());
    // A failed leaf says why.
    assert!(
        h.query_all_by_label_contains("(failure): primary state is ")
            .next()
            .is_some()
    );
    // Only the branch that succeeded stays open.
    h.get_by_label("Chosen branch").click();
    h.run();
    assert!(!h.state().tree.collapsed.is_empty());
    let branch = h.state().scene.selected_robot().map(|r| r.branch.clone());
    let branch = branch.expect("selected robot");
    assert!(
        h.query_all_by_label_contains(&format!(" {branch} (success)"))
            .next()
            .is_some(),
        "the chosen branch `{branch}` is not shown"
    );
    // The blackboard is the robot's own world.
    h.get_by_label("primary state");
    h.get_by_label("role");
    let detail = h.state().scene.detail.as_ref().expect("detail");
    let role = detail
        .blackboard
        .iter()
        .find(|(k, _)| k == "role")
        .map(|(_, v)| v.clone())
        .expect("a role row");
    let robot = h.state().scene.selected_robot().expect("selected robot");
    assert_eq!(Some(role.as_str()), robot.role.as_deref().or(Some("-")));
    assert!(h.query_by_label("away 3").is_some());
}

#[test]
fn clicking_a_tree_row_shows_its_whole_why_not_above_the_rows() {
    let mut h = harness_at(46.0);
    assert!(h.query_by_label_contains("selected #").is_none());
    h.get_by_label_contains("#17 is_remote_control_active (failure)")
        .click();
    h.run();
    assert_eq!(h.state().tree.selected, Some(17));
    h.get_by_label(
        "selected #17 is_remote_control_active (failure): remote_control.enable is false",
    );
    // A row with children is selected and collapses on the same click.
    h.get_by_label_contains("#16 Sequence remote_control (failure)")
        .click();
    h.run();
    assert_eq!(h.state().tree.selected, Some(16));
    assert!(h.state().tree.collapsed.contains(&16));
    h.get_by_label("selected #16 Sequence remote_control (failure)");
}

#[test]
fn clicking_a_robot_on_the_field_selects_it() {
    let mut h = harness(app());
    h.run();
    let (target, pos) = {
        let app = h.state();
        let tf = app.field.transform.expect("transform");
        let robot = app
            .scene
            .robots
            .iter()
            .find(|r| r.team == TeamSide::Away && r.number == 4)
            .expect("away 4");
        (robot.key(), tf.to_screen(robot.x, robot.y))
    };
    h.hover_at(pos);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    h.run();
    assert_eq!(h.state().scene.selected, Some(target));
    h.get_by_label("Tree of away 4");
}

#[test]
fn the_heatmap_layer_toggles() {
    let mut h = harness_at(20.0);
    assert!(h.state().layers.heatmap);
    let heat = h
        .state()
        .scene
        .detail
        .as_ref()
        .and_then(|d| d.heatmap.as_ref())
        .expect("the selected robot's heatmap");
    assert!(heat.values.iter().any(|v| *v > 0.0), "an all-zero heatmap");
    assert_eq!(
        h.get_by_label("Heatmap").accesskit_node().toggled(),
        Some(Toggled::True)
    );
    h.get_by_label("Heatmap").click();
    h.run();
    assert!(!h.state().layers.heatmap);
    assert_eq!(
        h.get_by_label("Heatmap").accesskit_node().toggled(),
        Some(Toggled::False)
    );
    h.get_by_label("Voronoi").click();
    h.run();
    assert!(h.state().layers.voronoi);
    h.get_by_label("Heatmap").click();
    h.run();
    assert!(h.state().layers.heatmap);
}

#[test]
fn stepping_advances_match_time_and_moves_ball_and_robots() {
    let mut h = harness(app());
    h.run();
    assert_eq!(h.state().scene.time, 0.0);
    h.get_by_label("Step").click();
    h.run();
    assert!((h.state().scene.time - 0.02).abs() < 1e-9);
    // More frames while paused change nothing.
    h.run_steps(5);
    assert!((h.state().scene.time - 0.02).abs() < 1e-9);
    // Into open play (from 15 s in the sample match): the ball and the robots move.
    h.state_mut().run_until(18.0);
    h.run();
    let before = h.state().scene.clone();
    let mut balls = vec![(before.ball.x, before.ball.y)];
    for _ in 0..3 {
        h.get_by_label("+1 s").click();
        h.run();
        let ball = h.state().scene.ball;
        balls.push((ball.x, ball.y));
    }
    let after = &h.state().scene;
    assert!(
        (after.time - before.time - 3.0).abs() < 0.03,
        "{}",
        after.time
    );
    h.get_by_label_contains("00:21");
    let robots_moved = after
        .robots
        .iter()
        .zip(&before.robots)
        .filter(|(a, b)| (a.x - b.x).hypot(a.y - b.y) > 0.05)
        .count();
    assert!(robots_moved >= 2, "only {robots_moved} robots moved");
    // The ball rolls at some point of the next seconds of play.
    for _ in 0..3 {
        h.get_by_label("+1 s").click();
        h.run();
        let ball = h.state().scene.ball;
        balls.push((ball.x, ball.y));
    }
    let (x0, y0) = balls[0];
    assert!(
        balls.iter().any(|(x, y)| (x - x0).hypot(y - y0) > 0.1),
        "the ball never moved: {balls:?}"
    );
    let after = &h.state().scene;
    assert!(
        after
            .events
            .iter()
            .any(|e| e.text.starts_with("game playing"))
    );
}

#[test]
fn space_plays_and_pauses() {
    let mut h = harness(app());
    h.run();
    assert!(!h.state().playing());
    h.key_press(egui::Key::Space);
    h.run_steps(3);
    assert!(h.state().playing());
    h.get_by_label("Pause");
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    assert!(!h.state().playing());
    let t = h.state().scene.time;
    h.run_steps(5);
    assert_eq!(h.state().scene.time, t);
}

#[test]
fn every_robot_has_a_role_strip_counting_its_role_changes() {
    use gui::soccer::scene::{EventKind, ROLE_WINDOW_SECONDS};
    use gui::soccer::view::strip_label;
    let h = harness_at(46.0);
    let scene = &h.state().scene;
    let to = scene.time;
    let from = to - ROLE_WINDOW_SECONDS;
    let mut expected = Vec::new();
    let mut total = 0;
    for r in &scene.robots {
        // Counted independently of the strip: the timeline's role lines of this robot,
        // without entering play (`home 2 - -> striker`).
        let prefix = format!("{} ", r.label());
        let changes = scene
            .events
            .iter()
            .filter(|e| e.kind == EventKind::Role && e.t > from && e.t <= to)
            .filter(|e| e.text.starts_with(&prefix) && !e.text.contains(" - -> "))
            .count();
        total += changes;
        let segments = scene.roles.segments(r.key(), from, to);
        let last = segments.last().expect("a robot on the field has samples");
        assert_eq!(
            last.role.as_deref(),
            r.role.as_deref(),
            "{}: the strip ends in the robot's role",
            r.label()
        );
        assert!(
            segments.first().is_some_and(|s| s.start <= 0.02 + 1e-9),
            "{}: the strip covers the match from its first tick",
            r.label()
        );
        expected.push(strip_label(&r.label(), changes, Some(last)));
    }
    assert_eq!(expected.len(), 10);
    assert!(
        total > 0,
        "no role change by 46 s: the check would be vacuous"
    );
    for label in &expected {
        h.get_by_label(label);
    }
}
