//! The soccer window: the control bar (play / pause with space, step, speed, layers, score),
//! the robot list and the selected robot's world on the left, its tree on the right, the
//! timeline and team messages at the bottom, the field in the centre.

use super::field_view::{FieldView, Layers, role_tag, team_colour};
use super::scene::{SoccerScene, TeamSide, mmss};
use super::sim::{SoccerSim, SoccerSimOptions};
use crate::tree_view::TreeView;
use decision_core::engine::Status;
use egui::{Color32, RichText};

/// The soccer dashboard on the in-process match.
pub struct SoccerApp {
    /// The match.
    pub sim: SoccerSim,
    /// What is drawn.
    pub scene: SoccerScene,
    /// The field panel.
    pub field: FieldView,
    /// The tree panel's collapse state.
    pub tree: TreeView,
    /// Which layers are drawn.
    pub layers: Layers,
    /// The last error (a failed restart).
    pub error: Option<String>,
    /// Frames drawn.
    pub frames: u64,
    /// Close the window after this many frames (smoke runs).
    pub close_after_frames: Option<u64>,
}

impl SoccerApp {
    /// Loads `options` and opens the match paused at time 0.
    pub fn open(options: &SoccerSimOptions) -> Result<Self, String> {
        Ok(Self::new(SoccerSim::open(options)?))
    }

    /// The sample match (default parameters, tree and scenario).
    pub fn sample() -> Result<Self, String> {
        Self::open(&SoccerSimOptions::default())
    }

    /// The app on `sim`.
    pub fn new(sim: SoccerSim) -> Self {
        let scene = sim.scene();
        Self {
            sim,
            scene,
            field: FieldView::default(),
            tree: TreeView::default(),
            layers: Layers::default(),
            error: None,
            frames: 0,
            close_after_frames: None,
        }
    }

    /// Selects a robot (its tree, world, heatmap and partition are shown).
    pub fn select(&mut self, robot: (TeamSide, u8)) {
        self.scene.selected = Some(robot);
        self.sim.refresh(&mut self.scene);
    }

    /// Steps one tick (pausing).
    pub fn step_tick(&mut self) -> bool {
        self.sim.playing = false;
        self.sim.step_tick(&mut self.scene)
    }

    /// Runs (paused) until match time `t`.
    pub fn run_until(&mut self, t: f64) {
        self.sim.run_until(t, &mut self.scene);
    }

    /// Draws the whole UI into `ui` (advancing the match first).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        if ui.input(|i| i.key_pressed(egui::Key::Space)) {
            self.sim.playing = !self.sim.playing;
        }
        let dt = ui.input(|i| f64::from(i.unstable_dt)).clamp(0.0, 0.25);
        self.sim.advance(dt, &mut self.scene);
        self.frames += 1;
        egui::Panel::top("soccer-bar").show(ui, |ui| self.control_bar(ui));
        egui::Panel::bottom("soccer-timeline")
            .resizable(true)
            .default_size(170.0)
            .show(ui, |ui| self.timeline(ui));
        egui::Panel::left("soccer-robots")
            .resizable(true)
            .default_size(290.0)
            .size_range(200.0..=480.0)
            .show(ui, |ui| self.robots_panel(ui));
        egui::Panel::right("soccer-tree")
            .resizable(true)
            .default_size(330.0)
            .size_range(200.0..=560.0)
            .show(ui, |ui| self.tree_panel(ui));
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(robot) = self.field.show(ui, &self.scene, &self.layers) {
                self.select(robot);
            }
        });
        if self.sim.playing {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(16));
        }
    }

    fn control_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let label = if self.sim.playing { "Pause" } else { "Play" };
            if ui.button(label).on_hover_text("space").clicked() {
                self.sim.playing = !self.sim.playing;
            }
            if ui.button("Step").clicked() {
                self.step_tick();
            }
            if ui.button("+1 s").clicked() {
                self.sim.playing = false;
                let t = self.sim.time() + 1.0;
                self.run_until(t);
            }
            ui.add(
                egui::Slider::new(&mut self.sim.speed, 0.1..=20.0)
                    .logarithmic(true)
                    .text("speed"),
            );
            if ui.button("Restart").clicked()
                && let Err(e) = self.sim.restart(&mut self.scene)
            {
                self.error = Some(e);
            }
            ui.separator();
            ui.checkbox(&mut self.layers.heatmap, "Heatmap");
            ui.checkbox(&mut self.layers.voronoi, "Voronoi");
            ui.checkbox(&mut self.layers.paths, "Paths");
            ui.checkbox(&mut self.layers.messages, "Messages");
            ui.checkbox(&mut self.layers.perceived_ball, "Perceived ball");
            ui.separator();
            let s = &self.scene;
            ui.label(
                RichText::new(format!(
                    "{} {} : {} {}",
                    s.team_names[0], s.score[0], s.score[1], s.team_names[1]
                ))
                .strong(),
            );
            ui.label(format!(
                "{} ({:.2} s) {}",
                mmss(s.time),
                s.time,
                if s.over { "match over" } else { &s.phase }
            ));
        });
        if let Some(e) = &self.error {
            ui.colored_label(Color32::RED, e);
        }
    }

    fn robots_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Robots");
        let mut chosen = None;
        egui::Grid::new("soccer-robot-list")
            .num_columns(3)
            .striped(true)
            .show(ui, |ui| {
                for r in &self.scene.robots {
                    let selected = self.scene.selected == Some(r.key());
                    let text = RichText::new(r.label()).color(team_colour(r.team));
                    if ui.selectable_label(selected, text).clicked() {
                        chosen = Some(r.key());
                    }
                    ui.label(role_tag(r));
                    let mut marks = vec![r.motion.clone()];
                    if r.fallen {
                        marks.push("fallen".into());
                    }
                    ui.label(marks.join(", "));
                    ui.end_row();
                }
            });
        if let Some(robot) = chosen {
            self.select(robot);
        }
        ui.separator();
        let title = self
            .scene
            .selected_robot()
            .map_or("Blackboard".to_owned(), |r| {
                format!("Blackboard of {}", r.label())
            });
        ui.heading(title);
        let Some(detail) = &self.scene.detail else {
            ui.label("no robot selected");
            return;
        };
        egui::ScrollArea::vertical()
            .id_salt("soccer-blackboard")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("soccer-blackboard-grid")
                    .num_columns(2)
                    .striped(true)
                    .show(ui, |ui| {
                        for (key, value) in &detail.blackboard {
                            ui.label(RichText::new(key).strong());
                            ui.add(egui::Label::new(value).wrap());
                            ui.end_row();
                        }
                    });
            });
    }

    fn tree_panel(&mut self, ui: &mut egui::Ui) {
        let title = self
            .scene
            .selected_robot()
            .map_or("Tree".to_owned(), |r| format!("Tree of {}", r.label()));
        ui.heading(title);
        match &self.scene.detail {
            Some(d) if !d.tree.is_empty() => {
                if ui
                    .button("Chosen branch")
                    .on_hover_text("collapse every root branch but the one that succeeded")
                    .clicked()
                {
                    self.tree.collapsed = d
                        .tree
                        .nodes
                        .iter()
                        .enumerate()
                        .filter(|(i, n)| {
                            n.depth == 1
                                && n.end > i + 1
                                && d.statuses.get(*i).copied().flatten() != Some(Status::Success)
                        })
                        .map(|(i, _)| i)
                        .collect();
                }
                self.tree.show_tree(ui, &d.tree, &d.statuses, &d.why_not);
            }
            _ => {
                ui.label("no tree (scripted robot or nothing selected)");
            }
        }
    }

    fn timeline(&mut self, ui: &mut egui::Ui) {
        ui.columns(2, |cols| {
            if let [left, right] = cols {
                left.heading("Timeline");
                egui::ScrollArea::vertical()
                    .id_salt("soccer-events")
                    .stick_to_bottom(true)
                    .auto_shrink([false, false])
                    .show(left, |ui| {
                        for e in &self.scene.events {
                            ui.label(
                                RichText::new(format!(
                                    "{} {:<5} {}",
                                    mmss(e.t),
                                    e.kind.name(),
                                    e.text
                                ))
                                .monospace(),
                            );
                        }
                    });
                right.heading("Team messages");
                egui::ScrollArea::vertical()
                    .id_salt("soccer-messages")
                    .stick_to_bottom(true)
                    .auto_shrink([false, false])
                    .show(right, |ui| {
                        for m in &self.scene.messages {
                            let ball = m.ball.map_or("no ball".into(), |b| {
                                format!("ball ({:.1}, {:.1})", b[0], b[1])
                            });
                            ui.label(
                                RichText::new(format!(
                                    "{} {:.2} {} {}: {}",
                                    mmss(m.t),
                                    m.t,
                                    m.team.name(),
                                    m.from,
                                    ball
                                ))
                                .monospace()
                                .color(team_colour(m.team)),
                            );
                        }
                    });
            }
        });
    }
}

impl eframe::App for SoccerApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
        if let Some(n) = self.close_after_frames {
            if self.frames >= n {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            } else {
                // Paced so that N frames take at least N / 20 seconds on any machine.
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(50));
            }
        }
    }
}
