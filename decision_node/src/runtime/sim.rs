//! `robot-decision sim`: the node and the fake publisher in one process over the in-process
//! bus, in simulated time. Deterministic for a seed; runs as fast as `--speed` allows (0 = as
//! fast as possible) and never waits on the wall clock beyond that.

use super::record::Recorder;
use super::timeline::Timeline;
use crate::node::{Ingested, NodeCore, NodeOutput};
use bus::messages::{DecisionMsg, NavCancel, NavGoal};
use bus::{Bus, decode, topics};
use decision_core::robomaster::Tables;
use fake_publisher::{CombatStats, Scenario, Simulation};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a simulation runs.
#[derive(Debug, Clone)]
pub struct SimOptions {
    /// Stop after this many simulated seconds (None: until the match ends).
    pub seconds: Option<f64>,
    /// Fast-forward factor against the wall clock; 0 = as fast as possible.
    pub speed: f64,
    /// Seed of the fake publisher.
    pub seed: u64,
    /// Print one JSON line per tick instead of the timeline.
    pub json: bool,
}

/// What a finished simulation reports.
#[derive(Debug, Clone, PartialEq)]
pub struct SimSummary {
    /// Ticks decided.
    pub ticks: u64,
    /// Simulated seconds.
    pub seconds: f64,
    /// The fight's outcome, when the scenario has a `combat` section.
    pub combat: Option<CombatStats>,
}

/// Runs a simulation, writing the timeline (or JSON lines) to `out`.
pub fn simulate(
    tables: Arc<Tables>,
    scenario: &Scenario,
    options: &SimOptions,
    out: &mut dyn Write,
) -> Result<SimSummary, String> {
    simulate_recorded(tables, scenario, options, out, None)
}

/// [`simulate`], also recording every node input and output to `recorder` (receive time =
/// simulated time).
pub fn simulate_recorded(
    tables: Arc<Tables>,
    scenario: &Scenario,
    options: &SimOptions,
    out: &mut dyn Write,
    mut recorder: Option<&mut Recorder>,
) -> Result<SimSummary, String> {
    let mut game = InProcessMatch::new(&tables, scenario, options.seed)?;
    let started = Instant::now();
    let write_err = |e: std::io::Error| format!("cannot write the output: {e}");
    if let Some(rec) = recorder.as_deref_mut() {
        rec.record_message(topics::TREE_LAYOUT, game.node.layout(), game.sim.time())
            .map_err(|e| e.to_string())?;
    }
    let mut printer = SimPrinter {
        tables: &tables,
        json: options.json,
        out,
        recorder,
        timeline: Timeline::default(),
    };
    loop {
        let sim = &game.sim;
        if sim.finished() || options.seconds.is_some_and(|s| sim.time() >= s) {
            break;
        }
        let destroyed_before = sim.combat_stats().own_destroyed_at.is_some();
        game.play_frame(&mut printer)?;
        let sim = &game.sim;
        // With combat the match depends on our robot: say when it is destroyed.
        if sim.combat_enabled()
            && !options.json
            && !destroyed_before
            && let Some(at) = sim.combat_stats().own_destroyed_at
        {
            writeln!(
                printer.out,
                "{at:7.1} s  our robot is destroyed (HP 0): it stops"
            )
            .map_err(write_err)?;
        }
        if options.speed > 0.0 {
            let due = Duration::from_secs_f64(sim.time() / options.speed);
            if let Some(wait) = due.checked_sub(started.elapsed()) {
                std::thread::sleep(wait);
            }
        }
    }
    let (node, sim) = (&game.node, &game.sim);
    Ok(SimSummary {
        ticks: node.stats().ticks,
        seconds: sim.time(),
        combat: sim.combat_enabled().then(|| sim.combat_stats()),
    })
}

/// What `sim` does with a frame: records the node's inputs and outputs, prints each tick.
struct SimPrinter<'a> {
    tables: &'a Tables,
    json: bool,
    out: &'a mut dyn Write,
    recorder: Option<&'a mut Recorder>,
    timeline: Timeline,
}

impl FrameWatcher for SimPrinter<'_> {
    fn input(&mut self, received: &bus::Received, now: f64) -> Result<(), String> {
        match self.recorder.as_deref_mut() {
            Some(rec) => rec
                .record(&received.topic, &received.payload, now)
                .map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    fn tick(&mut self, output: &NodeOutput, sim: &Simulation) -> Result<(), String> {
        let write_err = |e: std::io::Error| format!("cannot write the output: {e}");
        if let Some(rec) = self.recorder.as_deref_mut() {
            rec.record_output(output, sim.time())
                .map_err(|e| e.to_string())?;
        }
        if self.json {
            serde_json::to_writer(&mut *self.out, &output.trace).map_err(|e| e.to_string())?;
            writeln!(self.out).map_err(write_err)
        } else {
            for line in self.timeline.observe(&output.trace, self.tables) {
                writeln!(self.out, "{line}").map_err(write_err)?;
            }
            Ok(())
        }
    }

    fn frame_end(&mut self, now: f64) -> Result<(), String> {
        // The end of a frame is a tick boundary: a chunk closed here is whole.
        match self.recorder.as_deref_mut() {
            Some(rec) => rec.poll(now).map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }
}

/// What a caller of [`InProcessMatch::play_frame`] sees of one frame.
pub trait FrameWatcher {
    /// An input the node is about to read, at simulated time `now`.
    fn input(&mut self, _received: &bus::Received, _now: f64) -> Result<(), String> {
        Ok(())
    }

    /// A tick's output, already published; `sim` as it was when the node decided.
    fn tick(&mut self, output: &NodeOutput, sim: &Simulation) -> Result<(), String>;

    /// The node has read every input of the frame (a tick boundary), at simulated time `now`.
    fn frame_end(&mut self, _now: f64) -> Result<(), String> {
        Ok(())
    }
}

/// Hands one message of the node (goal, cancel, decision) to the simulated robot; other topics
/// and undecodable payloads are ignored (the node only publishes what it encoded itself).
pub fn deliver_to_simulation(sim: &mut Simulation, received: &bus::Received) {
    match received.topic.as_str() {
        topics::NAV_GOAL => {
            if let Ok(goal) = decode::<NavGoal>(&received.topic, &received.payload) {
                sim.on_goal(&goal);
            }
        }
        topics::NAV_CANCEL => {
            if let Ok(cancel) = decode::<NavCancel>(&received.topic, &received.payload) {
                sim.on_cancel(&cancel);
            }
        }
        topics::DECISION => {
            if let Ok(decision) = decode::<DecisionMsg>(&received.topic, &received.payload) {
                sim.on_decision(&decision);
            }
        }
        _ => {}
    }
}

/// A node and a simulated match coupled over a fresh in-process bus: what `sim` and the
/// viewer's embedded simulation both start from.
pub struct InProcessMatch {
    /// The decision node, fed the match's messages as a live node would be.
    pub node: NodeCore,
    /// The fake publisher's match: referee, robots, simulated Nav2.
    pub sim: Simulation,
    /// The in-process bus between them.
    pub bus: Bus,
    /// Everything the node reads.
    pub node_inputs: bus::Subscription,
    /// What the simulated robot receives from the node (goal, cancel, decision).
    pub sim_inputs: bus::Subscription,
}

impl InProcessMatch {
    /// Plays one frame: publishes the simulation's messages, lets the node read them (and
    /// tick, publishing what it decides), hands the node's goal, cancel and decision to the
    /// simulated robot and steps the simulation by one publish period; `watch` sees it all.
    pub fn play_frame(&mut self, watch: &mut impl FrameWatcher) -> Result<(), String> {
        self.sim
            .frame()
            .publish(&self.bus)
            .map_err(|e| e.to_string())?;
        while let Some(received) = self.node_inputs.try_recv() {
            let now = self.sim.time();
            watch.input(&received, now)?;
            if let Ingested::Tick(output) =
                self.node.ingest(&received.topic, &received.payload, now)
            {
                output.publish(&self.bus).map_err(|e| e.to_string())?;
                watch.tick(&output, &self.sim)?;
            }
        }
        watch.frame_end(self.sim.time())?;
        while let Some(received) = self.sim_inputs.try_recv() {
            deliver_to_simulation(&mut self.sim, &received);
        }
        self.sim.step(self.sim.publish_period());
        Ok(())
    }

    /// Compiles the node for `tables`, starts the scenario with `seed`, and subscribes both.
    pub fn new(tables: &Arc<Tables>, scenario: &Scenario, seed: u64) -> Result<Self, String> {
        let node = NodeCore::new(Arc::clone(tables)).map_err(|e| format!("{e:?}"))?;
        let sim = Simulation::new(scenario, Arc::clone(tables), seed).map_err(|e| e.to_string())?;
        let bus = Bus::in_process();
        let node_inputs = bus
            .subscribe(&topics::NODE_INPUTS)
            .map_err(|e| e.to_string())?;
        let sim_inputs = bus
            .subscribe(&[topics::NAV_GOAL, topics::NAV_CANCEL, topics::DECISION])
            .map_err(|e| e.to_string())?;
        Ok(Self {
            node,
            sim,
            bus,
            node_inputs,
            sim_inputs,
        })
    }
}
