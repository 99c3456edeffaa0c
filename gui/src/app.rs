//! The viewer app: the source bar on top, the decision table and match status on the left,
//! the tree on the right, events and health at the bottom, the map in the centre.

use crate::live::{LinkState, LiveSource};
use crate::map_view::MapView;
use crate::model::View;
use crate::recording::RecordingSource;
use crate::settings::{SETTINGS_KEY, Settings, SourceSetting};
use crate::sim::{SimSource, load_tables};
use crate::source::Source;
use crate::tables_view;
use crate::tree_view::TreeView;
use egui::{Color32, RichText};
use std::collections::HashSet;
use std::path::Path;

/// The kind of source chosen in the source bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// Embedded simulation.
    Sim,
    /// Live bus.
    Live,
    /// MCAP recording.
    Recording,
}

/// The RoboMaster viewer's eframe app: one [`Source`] at a time, panels drawn from its [`View`].
pub struct ViewerApp {
    /// Persisted settings.
    pub settings: Settings,
    /// Where the data comes from; `Source::None` until one opens, or after one failed to.
    pub source: Source,
    /// What is shown (None until a source opened).
    pub view: Option<View>,
    /// Map zoom, pan and texture.
    pub map: MapView,
    /// Tree collapse state.
    pub tree: TreeView,
    /// Decision selected in the table.
    pub selected_decision: Option<i32>,
    /// Last error opening a source.
    pub error: Option<String>,
    /// Frames drawn.
    pub frames: u64,
    /// Close the window after this many frames (smoke runs).
    pub close_after_frames: Option<u64>,
    /// Fits the window to its monitor on the first frames.
    window_fit: crate::window::WindowFit,
    form_kind: SourceKind,
    form_config: String,
    form_scenario: String,
    form_endpoint: String,
    form_namespace: String,
    form_ros2: bool,
    form_file: String,
    form_record: String,
}

impl ViewerApp {
    /// An app with `settings`, opening `settings.source`.
    pub fn new(settings: Settings) -> Self {
        let mut map = MapView::default();
        map.zoom = settings.zoom;
        map.pan = egui::Vec2::new(settings.pan[0], settings.pan[1]);
        map.show_names = settings.show_names;
        let mut app = Self {
            map,
            settings,
            source: Source::None,
            view: None,
            tree: TreeView::default(),
            selected_decision: None,
            error: None,
            frames: 0,
            close_after_frames: None,
            window_fit: crate::window::WindowFit::default(),
            form_kind: SourceKind::Sim,
            form_config: crate::sample_config().display().to_string(),
            form_scenario: crate::sample_scenario().display().to_string(),
            form_endpoint: bus::DEFAULT_ENDPOINT.to_owned(),
            form_namespace: bus::DEFAULT_NAMESPACE.to_owned(),
            form_ros2: false,
            form_file: "recording.mcap".to_owned(),
            form_record: "viewer.mcap".to_owned(),
        };
        let source = app.settings.source.clone();
        app.fill_form(&source);
        app.open(source);
        app
    }

    /// The app on the sample simulation with default settings.
    pub fn sample() -> Self {
        Self::new(Settings::default())
    }

    fn fill_form(&mut self, source: &SourceSetting) {
        match source {
            SourceSetting::Sim { config, scenario } => {
                self.form_kind = SourceKind::Sim;
                self.form_config = config.clone();
                self.form_scenario = scenario.clone();
            }
            SourceSetting::Live {
                endpoint,
                namespace,
                config,
                ros2,
            } => {
                self.form_kind = SourceKind::Live;
                self.form_endpoint = endpoint.clone();
                self.form_namespace = namespace.clone();
                self.form_ros2 = *ros2;
                self.form_config = config.clone();
            }
            SourceSetting::Recording { file, config } => {
                self.form_kind = SourceKind::Recording;
                self.form_file = file.clone();
                self.form_config = config.clone();
            }
        }
    }

    /// Opens `source` (replacing the current one); errors are shown in the source bar.
    pub fn open(&mut self, source: SourceSetting) {
        self.source = Source::None;
        let opened = match &source {
            SourceSetting::Sim { config, scenario } => {
                SimSource::open(Path::new(config), Path::new(scenario), 0)
                    .map(|(s, v)| (Source::Sim(Box::new(s)), v))
            }
            SourceSetting::Live {
                endpoint,
                namespace,
                config,
                ros2,
            } => load_tables(Path::new(config)).map(|tables| {
                let (s, v) = LiveSource::connect(endpoint, namespace, tables, *ros2);
                (Source::Live(Box::new(s)), v)
            }),
            SourceSetting::Recording { file, config } => {
                RecordingSource::open(Path::new(file), Path::new(config))
                    .map(|(s, v)| (Source::Recording(Box::new(s)), v))
            }
        };
        match opened {
            Ok((s, v)) => {
                self.source = s;
                self.view = Some(v);
                self.error = None;
                self.settings.source = source;
            }
            Err(e) => {
                tracing::warn!("{e}");
                self.error = Some(e);
            }
        }
    }

    /// The simulation, when that is the source.
    pub fn sim_mut(&mut self) -> Option<&mut SimSource> {
        match &mut self.source {
            Source::Sim(s) => Some(s),
            _ => None,
        }
    }

    /// Plays or pauses the simulation or recording (a live source always follows the bus).
    pub fn set_playing(&mut self, on: bool) {
        match &mut self.source {
            Source::Sim(s) => s.playing = on,
            Source::Recording(r) => r.playing = on,
            Source::Live(_) | Source::None => {}
        }
    }

    /// Advances the source by `dt` wall seconds (play) or takes the messages received.
    pub fn advance(&mut self, dt: f64) {
        let Some(view) = self.view.as_mut() else {
            return;
        };
        match &mut self.source {
            Source::Sim(sim) => sim.advance(dt, view),
            Source::Live(live) => live.poll(view),
            Source::Recording(r) => r.advance(dt, view),
            Source::None => {}
        }
    }

    /// Shows the recording at log time `t` (seconds), when that is the source.
    pub fn seek_recording(&mut self, t: f64) {
        if let (Source::Recording(r), Some(view)) = (&mut self.source, self.view.as_mut()) {
            r.playing = false;
            r.seek(t, view);
        }
    }

    /// Runs the simulation (paused) until simulated time `t` seconds.
    pub fn run_sim_until(&mut self, t: f64) {
        if let (Source::Sim(sim), Some(view)) = (&mut self.source, self.view.as_mut()) {
            while sim.time() < t && !sim.finished() {
                sim.step_tick(view);
            }
        }
    }

    /// Steps the simulation by exactly one tick.
    pub fn step_tick(&mut self) -> bool {
        let Some(view) = self.view.as_mut() else {
            return false;
        };
        match &mut self.source {
            Source::Sim(sim) => {
                sim.playing = false;
                sim.step_tick(view)
            }
            _ => false,
        }
    }

    /// Draws the whole UI into `ui` (advancing the source first).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let dt = ui.input(|i| f64::from(i.unstable_dt)).clamp(0.0, 0.25);
        self.advance(dt);
        self.frames += 1;
        egui::Panel::top("source-bar").show(ui, |ui| self.source_bar(ui));
        if self.settings.show_events {
            egui::Panel::bottom("events-panel")
                .resizable(true)
                .default_size(160.0)
                .show(ui, |ui| self.events_panel(ui));
        }
        if self.settings.show_decisions {
            egui::Panel::left("decisions-panel")
                .resizable(true)
                .default_size(470.0)
                .show(ui, |ui| self.decisions_panel(ui));
        }
        if self.settings.show_tree {
            egui::Panel::right("tree-panel")
                .resizable(true)
                .default_size(300.0)
                .show(ui, |ui| {
                    ui.heading("Tree");
                    if let Some(view) = &self.view {
                        self.tree.show(ui, view);
                    }
                });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(view) = &self.view {
                let highlight = self.highlighted_waypoints();
                self.map.show(ui, view, &highlight);
            } else {
                ui.label("no source open");
            }
        });
        self.settings.zoom = self.map.zoom;
        self.settings.pan = [self.map.pan.x, self.map.pan.y];
        self.settings.show_names = self.map.show_names;
        let busy = match &self.source {
            Source::Sim(s) => s.playing,
            Source::Live(_) => true,
            Source::Recording(r) => r.playing,
            Source::None => false,
        };
        if busy {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(16));
        }
    }

    /// Waypoints of the decision selected in the table (its guard waypoints and its target).
    pub fn highlighted_waypoints(&self) -> HashSet<i32> {
        let mut out = HashSet::new();
        if let (Some(id), Some(view)) = (self.selected_decision, &self.view)
            && let Some(d) = view.tables.decisions.iter().find(|d| d.decision.id == id)
        {
            out.extend(d.decision.waypoint_ids.iter().copied());
            if d.decision.decide_waypoint >= 0 {
                out.insert(d.decision.decide_waypoint);
            }
        }
        out
    }

    fn labelled_edit(ui: &mut egui::Ui, label: &str, value: &mut String, width: f32) {
        let l = ui.label(label);
        ui.add(egui::TextEdit::singleline(value).desired_width(width))
            .labelled_by(l.id);
    }

    fn source_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Source:");
            ui.selectable_value(&mut self.form_kind, SourceKind::Sim, "Simulation");
            ui.selectable_value(&mut self.form_kind, SourceKind::Live, "Live");
            ui.selectable_value(&mut self.form_kind, SourceKind::Recording, "Recording");
            match self.form_kind {
                SourceKind::Sim => {
                    Self::labelled_edit(ui, "config", &mut self.form_config, 160.0);
                    Self::labelled_edit(ui, "scenario", &mut self.form_scenario, 160.0);
                }
                SourceKind::Live => {
                    Self::labelled_edit(ui, "endpoint", &mut self.form_endpoint, 140.0);
                    Self::labelled_edit(ui, "namespace", &mut self.form_namespace, 60.0);
                    ui.checkbox(&mut self.form_ros2, "ROS 2");
                    Self::labelled_edit(ui, "config", &mut self.form_config, 140.0);
                }
                SourceKind::Recording => {
                    Self::labelled_edit(ui, "file", &mut self.form_file, 200.0);
                    Self::labelled_edit(ui, "fallback config", &mut self.form_config, 140.0);
                }
            }
            if ui.button("Open").clicked() {
                let setting = match self.form_kind {
                    SourceKind::Sim => SourceSetting::Sim {
                        config: self.form_config.clone(),
                        scenario: self.form_scenario.clone(),
                    },
                    SourceKind::Live => SourceSetting::Live {
                        endpoint: self.form_endpoint.clone(),
                        namespace: self.form_namespace.clone(),
                        config: self.form_config.clone(),
                        ros2: self.form_ros2,
                    },
                    SourceKind::Recording => SourceSetting::Recording {
                        file: self.form_file.clone(),
                        config: self.form_config.clone(),
                    },
                };
                self.open(setting);
            }
        });
        ui.horizontal_wrapped(|ui| {
            let view = self.view.as_mut();
            match (&mut self.source, view) {
                (Source::Sim(sim), Some(view)) => {
                    let label = if sim.playing { "Pause" } else { "Play" };
                    if ui.button(label).clicked() {
                        sim.playing = !sim.playing;
                    }
                    if ui.button("Step").clicked() {
                        sim.playing = false;
                        sim.step_tick(view);
                    }
                    ui.add(
                        egui::Slider::new(&mut sim.speed, 0.1..=50.0)
                            .logarithmic(true)
                            .text("speed"),
                    );
                    if ui.button("Restart").clicked()
                        && let Err(e) = sim.restart(view)
                    {
                        self.error = Some(e);
                    }
                    if ui.button("Reload files").clicked() {
                        sim.reload(view);
                    }
                    if sim.recording().is_some() {
                        if ui.button("Stop recording").clicked() {
                            sim.stop_recording(view);
                        }
                    } else {
                        Self::labelled_edit(ui, "record to", &mut self.form_record, 100.0);
                        if ui.button("Record").clicked()
                            && let Err(e) = sim.start_recording(Path::new(&self.form_record), view)
                        {
                            self.error = Some(e);
                        }
                    }
                    ui.label(format!(
                        "t = {:.2} s, {} ticks{}",
                        sim.time(),
                        sim.ticks(),
                        if sim.finished() { ", match over" } else { "" }
                    ));
                }
                (Source::Recording(rec), Some(view)) => {
                    let label = if rec.playing { "Pause" } else { "Play" };
                    if ui.button(label).clicked() {
                        rec.playing = !rec.playing;
                    }
                    if ui.button("Next tick").clicked() {
                        rec.playing = false;
                        rec.next_tick(view);
                    }
                    let (start, end) = rec.span();
                    let mut t = rec.time();
                    let slider = ui.add(
                        egui::Slider::new(&mut t, start..=end.max(start))
                            .text("time")
                            .suffix(" s"),
                    );
                    if slider.changed() {
                        rec.playing = false;
                        rec.seek(t, view);
                    }
                    ui.add(
                        egui::Slider::new(&mut rec.speed, 0.1..=50.0)
                            .logarithmic(true)
                            .text("speed"),
                    );
                    ui.label(format!("{} ticks recorded", rec.tick_count()));
                }
                (Source::Live(live), _) => {
                    let (any, trace) = live.ages();
                    let (text, colour) = match live.link() {
                        LinkState::Connecting => (
                            format!("connecting to {} ...", live.endpoint),
                            Color32::YELLOW,
                        ),
                        LinkState::Connected => match any {
                            Some(a) if a < 2.0 => (
                                format!("connected to {} ({})", live.endpoint, live.namespace),
                                Color32::GREEN,
                            ),
                            Some(a) => {
                                (format!("connected, no data for {a:.1} s"), Color32::YELLOW)
                            }
                            None => ("connected, no data yet".to_owned(), Color32::YELLOW),
                        },
                        LinkState::Failed(e) => (format!("retrying: {e}"), Color32::RED),
                    };
                    ui.colored_label(colour, text);
                    ui.label(format!(
                        "last message {}, last trace {}",
                        any.map_or("-".into(), |a| format!("{a:.2} s ago")),
                        trace.map_or("-".into(), |a| format!("{a:.2} s ago"))
                    ));
                }
                _ => {
                    ui.label("no source");
                }
            }
            ui.separator();
            ui.checkbox(&mut self.settings.show_decisions, "Decisions");
            ui.checkbox(&mut self.settings.show_tree, "Tree");
            ui.checkbox(&mut self.settings.show_events, "Events");
            ui.checkbox(&mut self.map.show_names, "Names");
            if ui.button("Zoom in").clicked() {
                self.map.zoom = (self.map.zoom * 1.25).min(40.0);
            }
            if ui.button("Zoom out").clicked() {
                self.map.zoom = (self.map.zoom / 1.25).max(0.2);
            }
            if ui.button("Fit").clicked() {
                self.map.zoom = 1.0;
                self.map.pan = egui::Vec2::ZERO;
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(Color32::RED, e);
        }
    }

    fn decisions_panel(&mut self, ui: &mut egui::Ui) {
        let Some(view) = &self.view else {
            return;
        };
        ui.heading("Match");
        tables_view::status_panel(ui, view);
        ui.separator();
        ui.heading("Decisions");
        let selected = self
            .selected_decision
            .and_then(|id| view.tables.decisions.iter().find(|d| d.decision.id == id))
            .map(|d| tables_view::row_label(d.decision.id, &d.decision.name));
        ui.label(format!(
            "selected: {}",
            selected.as_deref().unwrap_or("none (click a row)")
        ));
        tables_view::decision_table(ui, view, &mut self.selected_decision);
    }

    fn events_panel(&mut self, ui: &mut egui::Ui) {
        let Some(view) = &self.view else {
            return;
        };
        ui.columns(2, |cols| {
            if let [left, right] = cols {
                left.heading("Events");
                egui::ScrollArea::vertical()
                    .id_salt("events")
                    .stick_to_bottom(true)
                    .auto_shrink([false, false])
                    .show(left, |ui| {
                        for e in &view.events {
                            // Time and kind in fixed columns, the message wrapped beside them.
                            ui.horizontal_top(|ui| {
                                let time = crate::model::event_time(e.time);
                                ui.label(RichText::new(format!("{time:>10}")).monospace());
                                ui.label(RichText::new(format!("{:<9}", e.kind)).monospace().weak());
                                ui.add(egui::Label::new(e.message.as_str()).wrap());
                            });
                        }
                    });
                right.heading("Health");
                let h = &view.health;
                egui::ScrollArea::vertical()
                    .id_salt("health")
                    .auto_shrink([false, false])
                    .show(right, |ui| {
                        ui.label(format!(
                            "ticks {}  stale sets {}  unsynchronised {}  reloads {} ok / {} rejected",
                            h.stats.ticks,
                            h.stats.stale_sets,
                            h.stats.unsynchronised_sets,
                            h.reloads.0,
                            h.reloads.1
                        ));
                        ui.label(format!(
                            "tick time {} (mean {})",
                            h.tick_micros.map_or("-".into(), |t| format!("{t:.1} us")),
                            h.mean_tick_micros.map_or("-".into(), |t| format!("{t:.1} us"))
                        ));
                        let malformed: u64 = h.stats.malformed.values().sum();
                        ui.label(format!(
                            "malformed {malformed}  bad traces {}",
                            h.bad_traces
                        ));
                        for (topic, n) in &h.stats.received {
                            let rate = h.rates.get(topic).copied().unwrap_or(0.0);
                            let bad = h.stats.malformed.get(topic).copied().unwrap_or(0);
                            ui.label(
                                RichText::new(format!("{topic:<40} {n:>7} msgs {rate:>6.1}/s {bad} bad"))
                                    .monospace(),
                            );
                        }
                    });
            }
        });
    }
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.window_fit.apply(ui.ctx());
        self.show(ui);
        crate::window::close_after_frames(ui.ctx(), self.frames, self.close_after_frames);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.settings);
    }
}
