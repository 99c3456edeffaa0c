//! The soccer window on any [`SoccerSource`]: the control bar (play / pause with space, step,
//! speed, seek for recordings, link state live, layers, score),
//! the robot list and the selected robot's world on the left, its tree on the right, the
//! timeline and team messages at the bottom, the field in the centre.

use super::field_view::{FieldView, Layers, role_tag, team_colour};
use super::live::SoccerLive;
use super::replay::SoccerReplay;
use super::scene::{ROLE_WINDOW_SECONDS, RoleSegment, SoccerScene, TeamSide, mmss};
use super::sim::{SoccerSim, SoccerSimOptions};
use crate::live::LinkState;
use crate::tree_view::TreeView;
use decision_core::engine::Status;
use egui::{Color32, RichText};

/// Where the soccer window's scene comes from.
pub enum SoccerSource {
    /// The in-process match (`--soccer-sim`).
    Sim(Box<SoccerSim>),
    /// A live team on the bus (`--soccer-connect`).
    Live(Box<SoccerLive>),
    /// A recording (`--soccer-open`).
    Recording(Box<SoccerReplay>),
}

/// The soccer dashboard on a match in process, live or recorded.
pub struct SoccerApp {
    /// In-process match, live team or recording, chosen when the app opens.
    pub source: SoccerSource,
    /// What is drawn.
    pub scene: SoccerScene,
    /// The field panel's last transform and hovered point (for picking robots).
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
    /// Fits the window to its monitor on the first frames.
    window_fit: crate::window::WindowFit,
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
        Self::with_source(SoccerSource::Sim(Box::new(sim)), scene)
    }

    /// The app on a live team.
    pub fn live(live: SoccerLive) -> Self {
        let scene = live.scene();
        Self::with_source(SoccerSource::Live(Box::new(live)), scene)
    }

    /// The app on a recording, paused at its start.
    pub fn recording(replay: SoccerReplay) -> Self {
        let scene = replay.scene();
        Self::with_source(SoccerSource::Recording(Box::new(replay)), scene)
    }

    fn with_source(source: SoccerSource, scene: SoccerScene) -> Self {
        Self {
            source,
            scene,
            field: FieldView::default(),
            tree: TreeView::default(),
            layers: Layers::default(),
            error: None,
            frames: 0,
            close_after_frames: None,
            window_fit: crate::window::WindowFit::default(),
        }
    }

    /// The in-process match, when that is the source.
    pub fn sim(&self) -> Option<&SoccerSim> {
        match &self.source {
            SoccerSource::Sim(sim) => Some(sim),
            _ => None,
        }
    }

    /// The recording, when that is the source.
    pub fn replay(&self) -> Option<&SoccerReplay> {
        match &self.source {
            SoccerSource::Recording(r) => Some(r),
            _ => None,
        }
    }

    /// Whether the source plays (live: whether the view follows the bus).
    pub fn playing(&self) -> bool {
        match &self.source {
            SoccerSource::Sim(s) => s.playing,
            SoccerSource::Live(l) => l.playing,
            SoccerSource::Recording(r) => r.playing,
        }
    }

    /// Plays or pauses.
    pub fn set_playing(&mut self, on: bool) {
        match &mut self.source {
            SoccerSource::Sim(s) => s.playing = on,
            SoccerSource::Live(l) => l.playing = on,
            SoccerSource::Recording(r) => r.playing = on,
        }
    }

    /// Sets the speed (simulated or recorded seconds per wall second; live has none).
    pub fn set_speed(&mut self, speed: f64) {
        match &mut self.source {
            SoccerSource::Sim(s) => s.speed = speed,
            SoccerSource::Recording(r) => r.speed = speed,
            SoccerSource::Live(_) => {}
        }
    }

    /// The source's time (s): match time, recording time from its start, or live feed time.
    pub fn time(&self) -> f64 {
        match &self.source {
            SoccerSource::Sim(s) => s.time(),
            SoccerSource::Live(l) => l.feed.time,
            SoccerSource::Recording(r) => r.time(),
        }
    }

    /// Selects a robot (its tree, world, heatmap and partition are shown).
    pub fn select(&mut self, robot: (TeamSide, u8)) {
        self.scene.selected = Some(robot);
        match &mut self.source {
            SoccerSource::Sim(s) => s.refresh(&mut self.scene),
            SoccerSource::Live(l) => l.refresh(&mut self.scene),
            SoccerSource::Recording(r) => r.refresh(&mut self.scene),
        }
    }

    /// Steps one tick (pausing); live cannot step.
    pub fn step_tick(&mut self) -> bool {
        self.set_playing(false);
        match &mut self.source {
            SoccerSource::Sim(s) => s.step_tick(&mut self.scene),
            SoccerSource::Recording(r) => r.step(&mut self.scene),
            SoccerSource::Live(_) => false,
        }
    }

    /// Runs (paused) until match time `t` (a recording seeks there; live cannot).
    pub fn run_until(&mut self, t: f64) {
        match &mut self.source {
            SoccerSource::Sim(s) => s.run_until(t, &mut self.scene),
            SoccerSource::Recording(r) => r.seek(t, &mut self.scene),
            SoccerSource::Live(_) => {}
        }
    }

    /// Moves a recording's cursor to `t` seconds from its start (pausing).
    pub fn seek(&mut self, t: f64) {
        if let SoccerSource::Recording(r) = &mut self.source {
            r.playing = false;
            r.seek(t, &mut self.scene);
        }
    }

    /// Takes what the source has for this frame (`dt` wall seconds since the last).
    fn advance(&mut self, dt: f64) {
        match &mut self.source {
            SoccerSource::Sim(s) => s.advance(dt, &mut self.scene),
            SoccerSource::Live(l) => {
                l.poll(&mut self.scene);
            }
            SoccerSource::Recording(r) => r.advance(dt, &mut self.scene),
        }
    }

    /// Draws the whole UI into `ui` (advancing the source first).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        if ui.input(|i| i.key_pressed(egui::Key::Space)) {
            let on = !self.playing();
            self.set_playing(on);
        }
        let dt = ui.input(|i| f64::from(i.unstable_dt)).clamp(0.0, 0.25);
        self.advance(dt);
        self.frames += 1;
        egui::Panel::top("soccer-bar").show(ui, |ui| self.control_bar(ui));
        egui::Panel::bottom("soccer-timeline")
            .resizable(true)
            .default_size(320.0)
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
        let live = matches!(self.source, SoccerSource::Live(_));
        if self.playing() || live {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(16));
        }
    }

    fn control_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            match &mut self.source {
                SoccerSource::Sim(sim) => {
                    let label = if sim.playing { "Pause" } else { "Play" };
                    if ui.button(label).on_hover_text("space").clicked() {
                        sim.playing = !sim.playing;
                    }
                    if ui.button("Step").clicked() {
                        sim.playing = false;
                        sim.step_tick(&mut self.scene);
                    }
                    if ui.button("+1 s").clicked() {
                        sim.playing = false;
                        let t = sim.time() + 1.0;
                        sim.run_until(t, &mut self.scene);
                    }
                    ui.add(
                        egui::Slider::new(&mut sim.speed, 0.1..=20.0)
                            .logarithmic(true)
                            .text("speed"),
                    );
                    if ui.button("Restart").clicked()
                        && let Err(e) = sim.restart(&mut self.scene)
                    {
                        self.error = Some(e);
                    }
                }
                SoccerSource::Live(live) => {
                    let label = if live.playing { "Freeze" } else { "Follow" };
                    if ui
                        .button(label)
                        .on_hover_text("space: freeze the view (messages are still taken)")
                        .clicked()
                    {
                        live.playing = !live.playing;
                    }
                    let (text, colour) = match live.link() {
                        LinkState::Connecting => {
                            (format!("connecting to {}", live.endpoint), Color32::YELLOW)
                        }
                        LinkState::Connected => {
                            (format!("connected to {}", live.endpoint), Color32::GREEN)
                        }
                        LinkState::Failed(e) => (format!("{}: {e}", live.endpoint), Color32::RED),
                    };
                    ui.colored_label(colour, text);
                    let c = live.feed.counts;
                    ui.label(format!(
                        "{} robot(s) heard, {} message(s), {} bad, last {}",
                        live.feed.robots_heard(),
                        c.received,
                        c.bad,
                        live.age().map_or("-".into(), |a| format!("{a:.1} s ago"))
                    ));
                    if let Some(e) = live.error() {
                        ui.colored_label(Color32::RED, e);
                    }
                }
                SoccerSource::Recording(replay) => {
                    let label = if replay.playing { "Pause" } else { "Play" };
                    if ui.button(label).on_hover_text("space").clicked() {
                        replay.playing = !replay.playing;
                    }
                    if ui.button("Step").clicked() {
                        replay.playing = false;
                        replay.step(&mut self.scene);
                    }
                    if ui.button("+1 s").clicked() {
                        replay.playing = false;
                        let t = replay.time() + 1.0;
                        replay.seek(t, &mut self.scene);
                    }
                    ui.add(
                        egui::Slider::new(&mut replay.speed, 0.1..=20.0)
                            .logarithmic(true)
                            .text("speed"),
                    );
                    let mut t = replay.time();
                    let response = ui.add(
                        egui::Slider::new(&mut t, 0.0..=replay.duration().max(0.001))
                            .text("time")
                            .suffix(" s"),
                    );
                    if response.changed() {
                        replay.playing = false;
                        replay.seek(t, &mut self.scene);
                    }
                    let name = replay
                        .path
                        .file_name()
                        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
                    let c = replay.feed().counts;
                    ui.label(format!(
                        "{name}: {} message(s), {} bad",
                        replay.len(),
                        c.bad
                    ))
                    .on_hover_text(replay.path.display().to_string());
                    if let Some(w) = &replay.warning {
                        ui.colored_label(Color32::YELLOW, w);
                    }
                }
            }
            ui.separator();
            ui.checkbox(&mut self.layers.heatmap, "Heatmap");
            ui.checkbox(&mut self.layers.voronoi, "Voronoi");
            ui.checkbox(&mut self.layers.paths, "Paths");
            ui.checkbox(&mut self.layers.messages, "Messages");
            ui.checkbox(&mut self.layers.perceived_ball, "Perceived ball");
            ui.separator();
            let s = &self.scene;
            if s.ball_known {
                ui.label(
                    RichText::new(format!(
                        "{} {} : {} {}",
                        s.team_names[0], s.score[0], s.score[1], s.team_names[1]
                    ))
                    .strong(),
                );
            } else {
                ui.label(
                    RichText::new(format!("{} : {}", s.team_names[0], s.team_names[1])).strong(),
                )
                .on_hover_text("no true ball or score on the bus: perceived balls only");
            }
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
                    if r.pose_lost {
                        marks.push("pose lost".into());
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
                let why_not = |id: usize| d.why_not.get(id).and_then(|w| w.as_deref());
                self.tree
                    .show_tree(ui, &d.tree, &d.statuses, &why_not, &|_| false);
            }
            _ => {
                ui.label("no tree (scripted robot or nothing selected)");
            }
        }
    }

    /// One strip per robot, coloured by role over the last [`ROLE_WINDOW_SECONDS`]: a role
    /// change is a change of colour. Each strip's accessible label counts its changes.
    fn role_strips(&self, ui: &mut egui::Ui) {
        let to = self.scene.time;
        let from = to - ROLE_WINDOW_SECONDS;
        ui.horizontal(|ui| {
            ui.strong(format!("Roles, last {ROLE_WINDOW_SECONDS:.0} s"));
            for role in ROLE_LEGEND {
                ui.colored_label(role_colour(role), role.unwrap_or("not playing"));
            }
        });
        for r in &self.scene.robots {
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!("{:<7}", r.label()))
                        .monospace()
                        .color(team_colour(r.team)),
                );
                let size = egui::vec2(ui.available_width().max(10.0), 10.0);
                let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
                let segments = self.scene.roles.segments(r.key(), from, to);
                let painter = ui.painter_at(rect);
                painter.rect_filled(rect, 0.0, Color32::from_gray(30));
                for (piece, colour) in strip_rects(&segments, from, to, rect) {
                    painter.rect_filled(piece, 0.0, colour);
                }
                let text = strip_label(
                    &r.label(),
                    self.scene.roles.changes(r.key(), from, to),
                    segments.last(),
                );
                let details: Vec<String> = segments
                    .iter()
                    .rev()
                    .take(12)
                    .map(|s| {
                        format!(
                            "{:.1}-{:.1} s {}",
                            s.start,
                            s.end,
                            s.role.as_deref().unwrap_or("not playing")
                        )
                    })
                    .collect();
                let label = text.clone();
                response
                    .on_hover_text(format!("{text}\n{}", details.join("\n")))
                    .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
            });
        }
        ui.separator();
    }

    fn timeline(&mut self, ui: &mut egui::Ui) {
        self.role_strips(ui);
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

/// The roles of the strips' legend, in order (`None`: not playing).
const ROLE_LEGEND: [Option<&str>; 6] = [
    Some("striker"),
    Some("supporter"),
    Some("searcher"),
    Some("goalkeeper"),
    Some("penalty_shootout"),
    None,
];

/// The colour of a role in the role strips (`None`: not playing).
pub fn role_colour(role: Option<&str>) -> Color32 {
    match role {
        Some("striker") => Color32::from_rgb(230, 80, 60),
        Some("supporter") => Color32::from_rgb(70, 150, 230),
        Some("searcher") => Color32::from_rgb(235, 200, 60),
        Some("goalkeeper") => Color32::from_rgb(90, 190, 110),
        Some("penalty_shootout") => Color32::from_rgb(190, 110, 220),
        Some(_) => Color32::from_gray(200),
        None => Color32::from_gray(70),
    }
}

/// The strip of `segments` between times `from` and `to` laid over `rect`: per segment its
/// rectangle (time grows to the right) and role colour.
pub fn strip_rects(
    segments: &[RoleSegment],
    from: f64,
    to: f64,
    rect: egui::Rect,
) -> Vec<(egui::Rect, Color32)> {
    let span = (to - from).max(f64::EPSILON);
    let x = |t: f64| rect.left() + ((t - from) / span).clamp(0.0, 1.0) as f32 * rect.width();
    segments
        .iter()
        .map(|s| {
            let piece = egui::Rect::from_x_y_ranges(x(s.start)..=x(s.end), rect.y_range());
            (piece, role_colour(s.role.as_deref()))
        })
        .collect()
}

/// A role strip's accessible label: `home 2 roles: 3 changes in the last 60 s, now striker`.
pub fn strip_label(robot: &str, changes: usize, last: Option<&RoleSegment>) -> String {
    let now = last.map_or("-", |s| s.role.as_deref().unwrap_or("not playing"));
    format!(
        "{robot} roles: {changes} change{} in the last {ROLE_WINDOW_SECONDS:.0} s, now {now}",
        if changes == 1 { "" } else { "s" }
    )
}

impl eframe::App for SoccerApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.window_fit.apply(ui.ctx());
        self.show(ui);
        crate::window::close_after_frames(ui.ctx(), self.frames, self.close_after_frames);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strip_lays_its_segments_over_the_window_in_role_colours() {
        let seg = |start: f64, end: f64, role: Option<&str>| RoleSegment {
            start,
            end,
            role: role.map(str::to_owned),
        };
        let rect = egui::Rect::from_min_max(egui::pos2(100.0, 10.0), egui::pos2(700.0, 20.0));
        // A 60 s window from 40 s to 100 s over 600 px: 10 px per second.
        let segments = [
            seg(40.0, 55.0, Some("supporter")),
            seg(55.0, 70.0, Some("striker")),
            seg(70.0, 71.5, None),
            seg(71.5, 100.0, Some("searcher")),
        ];
        let strip = strip_rects(&segments, 40.0, 100.0, rect);
        let xs: Vec<(f32, f32)> = strip.iter().map(|(r, _)| (r.left(), r.right())).collect();
        assert_eq!(
            xs,
            [
                (100.0, 250.0),
                (250.0, 400.0),
                (400.0, 415.0),
                (415.0, 700.0)
            ]
        );
        assert!(strip.iter().all(|(r, _)| r.y_range() == rect.y_range()));
        let colours: Vec<Color32> = strip.iter().map(|(_, c)| *c).collect();
        assert_eq!(
            colours,
            [
                role_colour(Some("supporter")),
                role_colour(Some("striker")),
                role_colour(None),
                role_colour(Some("searcher")),
            ]
        );
        // Every role of the legend has its own colour.
        let mut legend: Vec<Color32> = ROLE_LEGEND.iter().map(|r| role_colour(*r)).collect();
        legend.dedup();
        assert_eq!(legend.len(), ROLE_LEGEND.len());
        assert_eq!(
            strip_label("home 2", 1, segments.last()),
            "home 2 roles: 1 change in the last 60 s, now searcher"
        );
        assert_eq!(
            strip_label("away 4", 0, None),
            "away 4 roles: 0 changes in the last 60 s, now -"
        );
    }
}
