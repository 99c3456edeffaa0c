//! The embedded simulation: the node core and the fake publisher in this process, coupled over
//! the in-process bus exactly like `robot-decision sim`, advanced by the viewer's clock (play,
//! pause, speed) or one tick at a time.

use crate::model::{TickView, View};
use bus::{Bus, Subscription};
use decision_core::robomaster::{Tables, load};
use decision_node::node::{Ingested, NodeCore};
use decision_node::runtime::record::{Recorder, RunFacts};
use decision_node::runtime::sim::{InProcessMatch, deliver_to_simulation};
use fake_publisher::{Scenario, Simulation};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// At most this many publish periods are simulated to find the next tick.
const MAX_PERIODS_PER_TICK: usize = 10_000;

/// At most this many simulated seconds per frame (a slow frame does not stall the UI).
const MAX_SECONDS_PER_FRAME: f64 = 5.0;

/// The node and the fake publisher in process.
pub struct SimSource {
    node: NodeCore,
    sim: Simulation,
    bus: Bus,
    node_inputs: Subscription,
    sim_inputs: Subscription,
    period: f64,
    config: PathBuf,
    scenario: Scenario,
    seed: u64,
    /// Whether the simulation advances with the wall clock.
    pub playing: bool,
    /// Simulated seconds per wall second.
    pub speed: f64,
    tick_total_micros: f64,
    last_received: Option<(f64, std::collections::BTreeMap<String, u64>)>,
    recorder: Option<(PathBuf, Recorder)>,
}

/// Loads the tables of `config`, reporting diagnostics as one string.
pub fn load_tables(config: &Path) -> Result<Arc<Tables>, String> {
    let outcome = load::load(config);
    match outcome.tables {
        Some(tables) => Ok(Arc::new(tables)),
        None => Err(format!(
            "{}: not loaded:\n{}",
            config.display(),
            outcome.diagnostics
        )),
    }
}

impl SimSource {
    /// Loads `config` and `scenario` and starts paused at time 0.
    pub fn open(config: &Path, scenario: &Path, seed: u64) -> Result<(Self, View), String> {
        let tables = load_tables(config)?;
        let scenario = fake_publisher::load_scenario(scenario).map_err(|e| e.to_string())?;
        Self::new(config, tables, scenario, seed)
    }

    /// Starts from loaded tables and a scenario.
    pub fn new(
        config: &Path,
        tables: Arc<Tables>,
        scenario: Scenario,
        seed: u64,
    ) -> Result<(Self, View), String> {
        let InProcessMatch {
            node,
            sim,
            bus,
            node_inputs,
            sim_inputs,
        } = InProcessMatch::new(&tables, &scenario, seed)?;
        let period = sim.publish_period().max(1e-3);
        let mut view = View::new(Arc::clone(&tables), node.layout());
        view.push_event(0.0, "start", format!("simulation of {}", config.display()));
        let source = Self {
            node,
            sim,
            bus,
            node_inputs,
            sim_inputs,
            period,
            config: config.to_path_buf(),
            scenario,
            seed,
            playing: false,
            speed: 1.0,
            tick_total_micros: 0.0,
            last_received: None,
            recorder: None,
        };
        Ok((source, view))
    }

    /// Simulated seconds so far.
    pub fn time(&self) -> f64 {
        self.sim.time()
    }

    /// Ticks decided so far.
    pub fn ticks(&self) -> u64 {
        self.node.stats().ticks
    }

    /// Whether the scenario's match is over.
    pub fn finished(&self) -> bool {
        self.sim.finished()
    }

    /// The node (for tests and the bench).
    pub fn node(&self) -> &NodeCore {
        &self.node
    }

    /// Simulates one publish period; returns whether the node ticked.
    fn period_step(&mut self, view: &mut View) -> bool {
        let mut ticked = false;
        if let Err(e) = self.sim.frame().publish(&self.bus) {
            view.push_event(self.sim.time(), "error", format!("publish: {e}"));
        }
        while let Some(received) = self.node_inputs.try_recv() {
            let now = self.sim.time();
            if let Some((_, recorder)) = self.recorder.as_mut()
                && let Err(e) = recorder.record(&received.topic, &received.payload, now)
            {
                view.push_event(now, "error", format!("record: {e}"));
            }
            let started = Instant::now();
            let outcome = self
                .node
                .ingest(&received.topic, &received.payload, self.sim.time());
            match outcome {
                Ingested::Tick(output) => {
                    let micros = started.elapsed().as_secs_f64() * 1e6;
                    if let Err(e) = output.publish(&self.bus) {
                        view.push_event(self.sim.time(), "error", format!("publish: {e}"));
                    }
                    if let Some((_, recorder)) = self.recorder.as_mut() {
                        let now = self.sim.time();
                        if let Err(e) = recorder
                            .record_output(&output, now)
                            .and_then(|()| recorder.poll(now))
                        {
                            view.push_event(now, "error", format!("record: {e}"));
                        }
                    }
                    self.tick_total_micros += micros;
                    view.health.tick_micros = Some(micros);
                    view.take_tick(output.trace.game_time, TickView::from_trace(&output.trace));
                    ticked = true;
                }
                Ingested::Malformed(message) => {
                    view.push_event(self.sim.time(), "malformed", message);
                }
                Ingested::Stale { age } => {
                    view.push_event(self.sim.time(), "stale", format!("set {age:.3} s old"));
                }
                Ingested::Stored | Ingested::Ignored => {}
            }
        }
        while let Some(received) = self.sim_inputs.try_recv() {
            deliver_to_simulation(&mut self.sim, &received);
        }
        self.sim.step(self.period);
        ticked
    }

    fn finish_update(&mut self, view: &mut View) {
        view.observe_node(&self.node);
        view.stage = Some(self.sim.stage());
        view.remaining = Some(self.sim.remaining());
        let stats = self.node.stats();
        if stats.ticks > 0 {
            view.health.mean_tick_micros = Some(self.tick_total_micros / stats.ticks as f64);
        }
        let now = self.sim.time();
        match &self.last_received {
            Some((t, counts)) if now - t >= 1.0 => {
                let dt = now - t;
                view.health.rates = stats
                    .received
                    .iter()
                    .map(|(topic, n)| {
                        let before = counts.get(topic).copied().unwrap_or(0);
                        (topic.clone(), n.saturating_sub(before) as f64 / dt)
                    })
                    .collect();
                self.last_received = Some((now, stats.received.clone()));
            }
            None => self.last_received = Some((now, stats.received.clone())),
            _ => {}
        }
    }

    /// Advances until exactly one more tick happened (or the match ended); returns whether it
    /// ticked.
    pub fn step_tick(&mut self, view: &mut View) -> bool {
        let mut ticked = false;
        for _ in 0..MAX_PERIODS_PER_TICK {
            if self.sim.finished() {
                break;
            }
            if self.period_step(view) {
                ticked = true;
                break;
            }
        }
        self.finish_update(view);
        ticked
    }

    /// Advances by `wall_seconds * speed` simulated seconds when playing.
    pub fn advance(&mut self, wall_seconds: f64, view: &mut View) {
        if !self.playing || self.sim.finished() {
            return;
        }
        let budget = (wall_seconds * self.speed).clamp(0.0, MAX_SECONDS_PER_FRAME);
        let target = self.sim.time() + budget;
        let mut any = false;
        while self.sim.time() + self.period * 0.5 < target && !self.sim.finished() {
            self.period_step(view);
            any = true;
        }
        if any {
            self.finish_update(view);
        }
        if self.sim.finished() {
            self.playing = false;
            view.push_event(self.sim.time(), "stop", "the match is over");
        }
    }

    /// Starts recording every input and output to the MCAP file `path`.
    pub fn start_recording(&mut self, path: &Path, view: &mut View) -> Result<(), String> {
        let facts = RunFacts {
            command: "sim".into(),
            seed: Some(self.seed),
            config_path: self.config.clone(),
            scenario: None,
            extra: Default::default(),
        };
        let recorder = Recorder::create(path, &facts, &view.tables).map_err(|e| e.to_string())?;
        self.stop_recording(view);
        view.push_event(
            self.sim.time(),
            "record",
            format!("recording to {}", path.display()),
        );
        self.recorder = Some((path.to_path_buf(), recorder));
        Ok(())
    }

    /// Whether a recording is being written, and where.
    pub fn recording(&self) -> Option<&Path> {
        self.recorder.as_ref().map(|(p, _)| p.as_path())
    }

    /// Finishes the recording, if any.
    pub fn stop_recording(&mut self, view: &mut View) {
        if let Some((path, recorder)) = self.recorder.take() {
            match recorder.finish() {
                Ok(summary) => view.push_event(
                    self.sim.time(),
                    "record",
                    format!("{}: {} messages", path.display(), summary.messages),
                ),
                Err(e) => view.push_event(self.sim.time(), "error", format!("record: {e}")),
            }
        }
    }

    /// Reloads the configuration files into the running node (hot reload).
    pub fn reload(&mut self, view: &mut View) {
        let now = self.sim.time();
        match load_tables(&self.config) {
            Ok(tables) => match self.node.reload(Arc::clone(&tables)) {
                Ok(()) => {
                    view.tables = tables;
                    view.tree = crate::model::FlatTree::new(self.node.layout());
                    view.health.reloads.0 += 1;
                    view.push_event(now, "reload_accepted", self.config.display().to_string());
                }
                Err(errors) => {
                    view.health.reloads.1 += 1;
                    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    view.push_event(now, "reload_rejected", text.join("; "));
                }
            },
            Err(message) => {
                view.health.reloads.1 += 1;
                view.push_event(now, "reload_rejected", message);
            }
        }
    }

    /// Starts the scenario again from time 0 with the same tables.
    pub fn restart(&mut self, view: &mut View) -> Result<(), String> {
        let tables = Arc::clone(&view.tables);
        let (fresh, fresh_view) =
            Self::new(&self.config, tables, self.scenario.clone(), self.seed)?;
        let (playing, speed) = (self.playing, self.speed);
        *self = fresh;
        self.playing = playing;
        self.speed = speed;
        *view = fresh_view;
        Ok(())
    }
}
