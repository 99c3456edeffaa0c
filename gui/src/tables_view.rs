//! The decision table (id and name with the why-not wrapped under it, weight, available, in
//! effect / best markers, a clickable row that stays selected) and the status panel of the
//! match.

use crate::map_view::{AVAILABLE_BLUE, TARGET_GREEN};
use crate::model::View;
use egui::{Color32, RichText};

/// What the navigation did this tick, in words an operator reads (`hold` is easy to misread
/// as "stopped": the goal was already on its way).
pub fn action_words(action: &str) -> &str {
    match action {
        "send" => "send: goal sent",
        "preempt" => "preempt: a heavier decision took over",
        "continue" => "continue: goal still on its way",
        "hold" => "hold: same goal already sent",
        "none" => "none: nothing sent",
        other => other,
    }
}

/// Shows the status panel: game time, stage, our HP, outpost, base, mode, Nav2 status.
pub fn status_panel(ui: &mut egui::Ui, view: &View) {
    egui::Grid::new("status-grid")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let row = |ui: &mut egui::Ui, key: &str, value: String| {
                ui.label(key);
                ui.label(value);
                ui.end_row();
            };
            let tick = view.tick.as_ref();
            row(
                ui,
                "game time",
                tick.map_or("-".into(), |t| {
                    format!("{:.1} s (tick {})", t.game_time, t.tick)
                }),
            );
            row(
                ui,
                "remaining",
                view.remaining.map_or("-".into(), |r| format!("{r:.1} s")),
            );
            row(
                ui,
                "stage",
                view.stage.map_or("-".into(), |s| {
                    format!("{s} {}", if s == 4 { "(battle)" } else { "" })
                }),
            );
            let world = view.world.as_ref();
            row(ui, "own HP", world.map_or("-".into(), |w| w.hp.to_string()));
            row(
                ui,
                "outpost",
                world.map_or("-".into(), |w| w.outpost_hp.to_string()),
            );
            row(
                ui,
                "base",
                world.map_or("-".into(), |w| w.base_hp.to_string()),
            );
            row(ui, "mode", world.map_or("-".into(), |w| w.mode.to_string()));
            row(
                ui,
                "Nav2 status",
                world.map_or("-".into(), |w| nav_status_name(w.nav_status)),
            );
            ui.label("in effect");
            match tick.and_then(|t| t.chosen) {
                Some(id) => ui.label(
                    RichText::new(in_effect_text(view, id))
                        .color(TARGET_GREEN)
                        .strong(),
                ),
                None => ui.label("none"),
            };
            ui.end_row();
            row(
                ui,
                "action",
                tick.map_or("-".into(), |t| match &t.skipped {
                    Some(s) => format!("{} (skipped: {s})", action_words(&t.action)),
                    None => action_words(&t.action).to_owned(),
                }),
            );
            row(
                ui,
                "waypoint",
                tick.and_then(|t| t.waypoint)
                    .map_or("-".into(), |w| w.to_string()),
            );
        });
}

/// The decision in effect with its weight, as the status panel shows it.
fn in_effect_text(view: &View, id: i32) -> String {
    match view.decision(id).map(|d| d.weight) {
        Some(w) => format!("{} (weight {w})", view.decision_label(Some(id))),
        None => view.decision_label(Some(id)),
    }
}

/// Nav2's goal status codes in words.
pub fn nav_status_name(code: u8) -> String {
    let name = match code {
        0 => "unknown",
        1 => "accepted",
        2 => "executing",
        3 => "canceling",
        4 => "succeeded",
        5 => "canceled",
        6 => "aborted",
        _ => "?",
    };
    format!("{code} {name}")
}

/// The accessible name (and text) of a decision row.
pub fn row_label(id: i32, name: &str) -> String {
    format!("{id} {name}")
}

/// Shows the decision table; clicking a row selects it (clicking it again clears it).
pub fn decision_table(ui: &mut egui::Ui, view: &View, selected: &mut Option<i32>) {
    let tick = view.tick.as_ref();
    egui::ScrollArea::both()
        .id_salt("decision-table")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            // The why-not goes under the decision's name, wrapped to what the other columns
            // leave of the panel, so it is read whole.
            let why_width = (ui.available_width() - 200.0).max(160.0);
            egui::Grid::new("decision-grid")
                .num_columns(4)
                .striped(true)
                .show(ui, |ui| {
                    ui.strong("");
                    ui.strong("decision");
                    ui.strong("weight");
                    ui.strong("available");
                    ui.end_row();
                    for loaded in &view.tables.decisions {
                        let d = &loaded.decision;
                        let chosen = tick.is_some_and(|t| t.chosen == Some(d.id));
                        let best = tick.is_some_and(|t| t.best == Some(d.id));
                        let available = tick.map(|t| t.available.contains(&d.id));
                        let marker = match (chosen, best) {
                            (true, _) => RichText::new("> in effect").color(TARGET_GREEN),
                            (false, true) => RichText::new("* best").color(AVAILABLE_BLUE),
                            _ => RichText::new(""),
                        };
                        ui.label(marker);
                        let is_selected = *selected == Some(d.id);
                        let text = RichText::new(row_label(d.id, &d.name));
                        let text = if chosen {
                            text.strong().color(TARGET_GREEN)
                        } else {
                            text
                        };
                        let why = tick.and_then(|t| t.why_not_of(d.id));
                        ui.vertical(|ui| {
                            ui.set_max_width(why_width);
                            if ui.selectable_label(is_selected, text).clicked() {
                                *selected = if is_selected { None } else { Some(d.id) };
                            }
                            if let Some(why) = why {
                                ui.add(egui::Label::new(RichText::new(why).weak()).wrap());
                            }
                        });
                        ui.label(d.weight.to_string());
                        match available {
                            Some(true) => ui.colored_label(Color32::from_rgb(60, 200, 90), "yes"),
                            Some(false) => ui.colored_label(Color32::from_rgb(220, 90, 90), "no"),
                            None => ui.label("-"),
                        };
                        ui.end_row();
                    }
                });
        });
    if let Some(id) = *selected {
        selected_details(ui, view, id);
    }
}

/// The selected decision in full: its state this tick and its whole why-not, wrapped.
fn selected_details(ui: &mut egui::Ui, view: &View, id: i32) {
    let Some(tick) = view.tick.as_ref() else {
        return;
    };
    ui.separator();
    ui.strong(format!("selected: {}", view.decision_label(Some(id))));
    let state = if tick.chosen == Some(id) {
        RichText::new(format!("in effect ({})", action_words(&tick.action))).color(TARGET_GREEN)
    } else if tick.available.contains(&id) {
        let why = match tick.chosen {
            Some(other) => format!(
                "available, but {} is in effect (heavier, or running and not outweighed)",
                view.decision_label(Some(other))
            ),
            None => "available".to_owned(),
        };
        RichText::new(why).color(AVAILABLE_BLUE)
    } else {
        RichText::new("not available").color(Color32::from_rgb(220, 90, 90))
    };
    ui.label(state);
    if let Some(why) = tick.why_not_of(id) {
        ui.add(egui::Label::new(format!("why not: {why}")).wrap());
    }
}
