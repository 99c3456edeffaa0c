//! The decision table (id, name, weight, available, why-not, running / chosen / best markers,
//! a clickable row that stays selected) and the status panel of the match.

use crate::model::View;
use egui::{Color32, RichText};

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
            row(
                ui,
                "action",
                tick.map_or("-".into(), |t| match &t.skipped {
                    Some(s) => format!("{} (skipped: {s})", t.action),
                    None => t.action.clone(),
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
            egui::Grid::new("decision-grid")
                .num_columns(5)
                .striped(true)
                .show(ui, |ui| {
                    ui.strong("");
                    ui.strong("decision");
                    ui.strong("weight");
                    ui.strong("available");
                    ui.strong("why not");
                    ui.end_row();
                    for loaded in &view.tables.decisions {
                        let d = &loaded.decision;
                        let chosen = tick.is_some_and(|t| t.chosen == Some(d.id));
                        let best = tick.is_some_and(|t| t.best == Some(d.id));
                        let available = tick.map(|t| t.available.contains(&d.id));
                        let marker = match (chosen, best) {
                            (true, _) => {
                                RichText::new("> running").color(Color32::from_rgb(60, 200, 90))
                            }
                            (false, true) => {
                                RichText::new("* best").color(Color32::from_rgb(120, 190, 255))
                            }
                            _ => RichText::new(""),
                        };
                        ui.label(marker);
                        let is_selected = *selected == Some(d.id);
                        let text = RichText::new(row_label(d.id, &d.name));
                        let text = if chosen { text.strong() } else { text };
                        if ui.selectable_label(is_selected, text).clicked() {
                            *selected = if is_selected { None } else { Some(d.id) };
                        }
                        ui.label(d.weight.to_string());
                        match available {
                            Some(true) => ui.colored_label(Color32::from_rgb(60, 200, 90), "yes"),
                            Some(false) => ui.colored_label(Color32::from_rgb(220, 90, 90), "no"),
                            None => ui.label("-"),
                        };
                        ui.label(tick.and_then(|t| t.why_not_of(d.id)).unwrap_or(""));
                        ui.end_row();
                    }
                });
        });
}
