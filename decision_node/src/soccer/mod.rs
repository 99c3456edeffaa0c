//! The soccer node core: caches the latest of each input topic, ticks on its own 20 ms
//! clock, assembles the frame (the input of `soccer decide`) from what is fresh, and runs the robot's
//! [`SoccerBrain`]. It has no clock or transport of its own (callers pass `now`), so `soccer
//! run`, tests and replay drive it alike.

#[cfg(feature = "sim")]
pub mod match_recording;
pub mod sources;
pub mod trace;

use crate::node::{Ingested, NodeStats, encoded};
use crate::profile::{NodeProfile, Outgoing};
use crate::runtime::events::Event;
use bus::decode;
use bus::messages::Header;
use bus::soccer::{
    self as topics, BallMsg, CellSizeMsg, FallStateMsg, GameStateMsg, HeatmapMsg, LocalizationMsg,
    ObstaclesMsg, SearchPositionMsg, SendIntervalMsg, TeamStateMsg, robot_topic,
};
use decision_core::engine::TreeSpec;
use soccer_profile::brain::SoccerBrain;
use soccer_profile::decider::Decision;
use soccer_profile::frame::{Frame, PrimaryState, TeammateMessage};
use soccer_profile::params::Parameters;
use sources::SoccerSources;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The node's tick period (every 20 ms, as the RoboCup behaviour node ticks).
pub const TICK_PERIOD: Duration = Duration::from_millis(20);
/// An input stamped longer ago than this when it arrives is stale and not used.
pub const MAX_INPUT_AGE: f64 = 1.0;
/// The game-controller state is used for this long after its stamp.
pub const GAME_STATE_VALIDITY: f64 = 2.0;
/// The pose is used for this long; after it the robot counts as not localized.
pub const POSE_VALIDITY: f64 = 0.5;
/// Obstacles and the fall state are used for this long.
pub const PERCEPTION_VALIDITY: f64 = 0.5;
/// A perceived ball is this frame's ball for this long (a little over two ticks, so that
/// jitter between camera and tick does not drop it; the world model retains it beyond).
pub const BALL_VALIDITY: f64 = 0.05;
/// `search_cell_size` is re-published this often (it is a retained topic).
pub const CELL_SIZE_PERIOD: f64 = 1.0;

/// A finished reload: new parameters and tree, or why not.
pub type SoccerReload = sources::Loaded;

/// One tick's outputs.
#[derive(Debug, Clone)]
pub struct SoccerOutput {
    /// The robot's number.
    pub player: u8,
    /// Tick index from 0.
    pub tick: u64,
    /// The frame the tree decided on.
    pub frame: Frame,
    /// What the brain decided for `frame`: motion command, team message, send interval.
    pub decision: Decision,
    /// The trace payload (built while the brain's node trace is this tick's).
    pub trace: Vec<u8>,
    /// The suggestor's search target (field frame, m), sent as `suggested_search_position`.
    pub search_position: Option<[f64; 2]>,
    /// The heatmap's cell size, when it is due for re-publishing.
    pub cell_size: Option<[f64; 2]>,
}

/// The latest message of a topic with the time it is valid from.
#[derive(Debug, Clone)]
struct Latest<T> {
    message: T,
    stamp: f64,
}

/// The soccer node without transport or clock.
pub struct SoccerNode {
    sources: SoccerSources,
    player: u8,
    params: Arc<Parameters>,
    spec: TreeSpec,
    brain: SoccerBrain,
    game: Option<Latest<GameStateMsg>>,
    localization: Option<Latest<LocalizationMsg>>,
    ball: Option<Latest<BallMsg>>,
    obstacles: Option<Latest<ObstaclesMsg>>,
    fall: Option<Latest<FallStateMsg>>,
    inbox: Vec<TeammateMessage>,
    stats: NodeStats,
    ticks: u64,
    cell_size_sent: Option<([f64; 2], f64)>,
    topics: Vec<(String, &'static str)>,
}

impl SoccerNode {
    /// Robot `player` (1..=7) deciding with `params` and the tree `spec` loaded from `sources`.
    pub fn new(
        sources: SoccerSources,
        player: u8,
        params: Arc<Parameters>,
        spec: TreeSpec,
    ) -> Result<Self, String> {
        if !(1..=7).contains(&player) {
            return Err(format!("--player {player}: player numbers are 1..=7"));
        }
        let brain = new_brain(&spec, &params)?;
        let mut topics: Vec<(String, &'static str)> = topics::ROBOT_INPUTS
            .iter()
            .map(|t| (robot_topic(player, t), *t))
            .collect();
        topics.push((topics::TEAM_STATE.to_string(), topics::TEAM_STATE));
        Ok(Self {
            sources,
            player,
            params,
            spec,
            brain,
            game: None,
            localization: None,
            ball: None,
            obstacles: None,
            fall: None,
            inbox: Vec::new(),
            stats: NodeStats::default(),
            ticks: 0,
            cell_size_sent: None,
            topics,
        })
    }

    /// The robot's number.
    pub fn player(&self) -> u8 {
        self.player
    }

    /// The brain (decider, suggestor), for inspection.
    pub fn brain(&self) -> &SoccerBrain {
        &self.brain
    }

    /// The parameters in use.
    pub fn params(&self) -> &Arc<Parameters> {
        &self.params
    }

    /// Decodes and stores one input; `Err` names the topic and field.
    fn store(
        &mut self,
        topic: &'static str,
        payload: &[u8],
        now: f64,
    ) -> Result<Option<f64>, String> {
        let stamp_of = |h: &Header| {
            if h.stamp.sec == 0 && h.stamp.nanosec == 0 {
                now
            } else {
                h.stamp.as_secs_f64()
            }
        };
        let fresh = |stamp: f64| {
            let age = now - stamp;
            if age > MAX_INPUT_AGE { Some(age) } else { None }
        };
        let finite = |ok: bool, field: &str| {
            if ok {
                Ok(())
            } else {
                Err(format!("topic `{topic}`: field `{field}`: not finite"))
            }
        };
        match topic {
            topics::GAME_STATE => {
                let m: GameStateMsg = decode(topic, payload).map_err(|e| e.to_string())?;
                if let Some(game) = &m.game {
                    finite(
                        game.remaining_time_in_half.is_finite() && game.half_duration.is_finite(),
                        "game.remaining_time_in_half",
                    )?;
                }
                let stamp = stamp_of(&m.header);
                if let Some(age) = fresh(stamp) {
                    return Ok(Some(age));
                }
                self.game = Some(Latest { message: m, stamp });
            }
            topics::LOCALIZATION => {
                let m: LocalizationMsg = decode(topic, payload).map_err(|e| e.to_string())?;
                if let Some(p) = &m.pose {
                    finite(
                        p.x.is_finite() && p.y.is_finite() && p.yaw.is_finite(),
                        "pose",
                    )?;
                }
                finite(m.head_yaw.is_finite(), "head_yaw")?;
                let stamp = stamp_of(&m.header);
                if let Some(age) = fresh(stamp) {
                    return Ok(Some(age));
                }
                self.localization = Some(Latest { message: m, stamp });
            }
            topics::BALL => {
                let m: BallMsg = decode(topic, payload).map_err(|e| e.to_string())?;
                if let Some(b) = &m.ball {
                    finite(
                        b.x.is_finite() && b.y.is_finite() && b.vx.is_finite() && b.vy.is_finite(),
                        "ball",
                    )?;
                }
                if let Some(b) = &m.rule_ball {
                    finite(b.x.is_finite() && b.y.is_finite(), "rule_ball")?;
                }
                let stamp = stamp_of(&m.header);
                if let Some(age) = fresh(stamp) {
                    return Ok(Some(age));
                }
                self.ball = Some(Latest { message: m, stamp });
            }
            topics::OBSTACLES => {
                let mut m: ObstaclesMsg = decode(topic, payload).map_err(|e| e.to_string())?;
                if let Some(i) = m
                    .obstacles
                    .iter()
                    .position(|o| !(o.x.is_finite() && o.y.is_finite() && o.radius.is_finite()))
                {
                    return Err(format!(
                        "topic `{topic}`: field `obstacles[{i}]`: not finite"
                    ));
                }
                m.obstacles.retain(|o| o.radius >= 0.0);
                let stamp = stamp_of(&m.header);
                if let Some(age) = fresh(stamp) {
                    return Ok(Some(age));
                }
                self.obstacles = Some(Latest { message: m, stamp });
            }
            topics::FALL_STATE => {
                let m: FallStateMsg = decode(topic, payload).map_err(|e| e.to_string())?;
                let stamp = stamp_of(&m.header);
                if let Some(age) = fresh(stamp) {
                    return Ok(Some(age));
                }
                self.fall = Some(Latest { message: m, stamp });
            }
            topics::TEAM_STATE => {
                let m: TeamStateMsg = decode(topic, payload).map_err(|e| e.to_string())?;
                if !(1..=7).contains(&m.message.player) {
                    return Err(format!(
                        "topic `{topic}`: field `message.player`: player numbers are 1..=7"
                    ));
                }
                if let Some(age) = fresh(stamp_of(&m.header)) {
                    return Ok(Some(age));
                }
                // Our own message comes back on the team key.
                if m.message.player != self.player {
                    self.inbox.push(m.message);
                }
            }
            _ => {}
        }
        Ok(None)
    }

    /// The frame of a tick at `now` from what is fresh.
    pub fn frame(&mut self, now: f64) -> Frame {
        let valid = |stamp: f64, validity: f64| now - stamp <= validity;
        let game = self
            .game
            .as_ref()
            .filter(|g| valid(g.stamp, GAME_STATE_VALIDITY));
        let localization = self
            .localization
            .as_ref()
            .filter(|l| valid(l.stamp, POSE_VALIDITY));
        let ball = self.ball.as_ref().filter(|b| valid(b.stamp, BALL_VALIDITY));
        let fall = self
            .fall
            .as_ref()
            .filter(|f| valid(f.stamp, PERCEPTION_VALIDITY));
        Frame {
            t: now,
            player_number: self.player,
            // Without a game controller the robot waits as in `initial`.
            primary_state: game.map_or(PrimaryState::Initial, |g| g.message.primary_state),
            motion_switch_allowed: true,
            fallen: fall.is_some_and(|f| f.message.fallen),
            stand_up_available: fall.is_some_and(|f| f.message.stand_up_available),
            remote_control: None,
            game: game.and_then(|g| g.message.game.clone()),
            pose: localization.and_then(|l| l.message.pose),
            head_yaw: localization.map_or(0.0, |l| l.message.head_yaw),
            ball: ball.and_then(|b| b.message.ball),
            rule_ball: ball.and_then(|b| b.message.rule_ball),
            obstacles: self
                .obstacles
                .as_ref()
                .filter(|o| valid(o.stamp, PERCEPTION_VALIDITY))
                .map(|o| o.message.obstacles.clone())
                .unwrap_or_default(),
            teammate_messages: std::mem::take(&mut self.inbox),
            search_target: None,
            search_cell_size: None,
        }
    }

    /// Decides `frame` (the tick of `soccer run`, and of replay with recorded frames).
    pub fn decide(&mut self, frame: Frame) -> SoccerOutput {
        let decision = self.brain.step(frame.clone());
        let tick = self.ticks;
        self.ticks += 1;
        self.stats.ticks += 1;
        let trace = trace::trace_payload(&self.brain, self.player, tick, &decision);
        let cell_size = self.brain.suggestor().cell_size();
        let due = self
            .cell_size_sent
            .is_none_or(|(sent, at)| sent != cell_size || frame.t - at >= CELL_SIZE_PERIOD);
        if due {
            self.cell_size_sent = Some((cell_size, frame.t));
        }
        SoccerOutput {
            player: self.player,
            tick,
            search_position: self.brain.suggestor().target().map(|p| p.to_array()),
            frame,
            decision,
            trace,
            cell_size: due.then_some(cell_size),
        }
    }
}

/// A brain for `spec` and `params` with why-not explanations on (the trace carries them).
fn new_brain(spec: &TreeSpec, params: &Arc<Parameters>) -> Result<SoccerBrain, String> {
    let mut brain = SoccerBrain::new(spec, Arc::clone(params)).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    brain.decider_mut().set_explain(true);
    Ok(brain)
}

/// The team message of a decision, as the team key carries it.
pub fn team_message(decision: &Decision) -> Option<TeamStateMsg> {
    let message = decision.message?;
    Some(TeamStateMsg {
        header: Header::at(decision.t),
        message: message.as_received(),
    })
}

impl NodeProfile for SoccerNode {
    type Output = SoccerOutput;
    type Reload = SoccerReload;
    type Trace = trace::SoccerTraceRecord;

    fn input_topics(&self) -> Vec<String> {
        self.topics.iter().map(|(t, _)| t.clone()).collect()
    }

    fn ingest(&mut self, topic: &str, payload: &[u8], now: f64) -> Ingested<SoccerOutput> {
        let Some(&(_, name)) = self.topics.iter().find(|(t, _)| t == topic) else {
            return Ingested::Ignored;
        };
        *self.stats.received.entry(topic.to_string()).or_default() += 1;
        match self.store(name, payload, now) {
            Err(message) => {
                *self.stats.malformed.entry(topic.to_string()).or_default() += 1;
                Ingested::Malformed(message)
            }
            Ok(Some(age)) => {
                self.stats.stale_messages += 1;
                Ingested::Stale { age }
            }
            Ok(None) => Ingested::Stored,
        }
    }

    fn tick_period(&self) -> Option<Duration> {
        Some(TICK_PERIOD)
    }

    fn clock_tick(&mut self, now: f64) -> Option<SoccerOutput> {
        let frame = self.frame(now);
        Some(self.decide(frame))
    }

    /// A recorded `behavior/blackboard` is the frame of a tick: it is decided again; the
    /// recorded inputs are not needed (the frame is what the tree saw of them).
    fn replay_message(&mut self, topic: &str, payload: &[u8], _now: f64) -> Option<SoccerOutput> {
        if !topic.ends_with(topics::BLACKBOARD) {
            return None;
        }
        let record: trace::BlackboardRecord =
            decision_core::strict_serde::from_slice(payload).ok()?;
        Some(self.decide(record.frame))
    }

    fn trace_bytes(&self, output: &SoccerOutput) -> Vec<u8> {
        output.trace.clone()
    }

    fn outgoing(&self, output: &SoccerOutput, wanted: &dyn Fn(&str) -> bool) -> Vec<Outgoing> {
        let player = output.player;
        let header = Header::at(output.frame.t);
        let mut out = Vec::with_capacity(9);
        out.push((
            robot_topic(player, topics::MOTION_COMMAND),
            trace::motion_command_payload(player, &output.frame, &output.decision),
        ));
        out.extend(team_message(&output.decision).and_then(|m| encoded(topics::TEAM_STATE, &m)));
        out.extend(encoded(
            &robot_topic(player, topics::SEND_INTERVAL),
            &SendIntervalMsg {
                header: header.clone(),
                interval: output.decision.message_interval,
            },
        ));
        out.extend(encoded(
            &robot_topic(player, topics::SUGGESTED_SEARCH_POSITION),
            &SearchPositionMsg {
                header: header.clone(),
                position: output.search_position,
            },
        ));
        if let Some(cell_size) = output.cell_size {
            out.extend(encoded(
                &robot_topic(player, topics::SEARCH_CELL_SIZE),
                &CellSizeMsg {
                    header: header.clone(),
                    cell_size,
                },
            ));
        }
        let heatmap_topic = robot_topic(player, topics::HEATMAP);
        // Built only on demand: the map is the suggestor's after the tick just decided.
        if wanted(&heatmap_topic) {
            let map = self.brain.suggestor().output(output.frame.t);
            out.extend(encoded(
                &heatmap_topic,
                &HeatmapMsg {
                    header: header.clone(),
                    length: map.grid.cells_x,
                    width: map.grid.cells_y,
                    values: map.values.to_vec(),
                },
            ));
        }
        out.push((robot_topic(player, topics::TRACE), output.trace.clone()));
        out.push((
            robot_topic(player, topics::BLACKBOARD),
            trace::blackboard_payload(player, &output.frame),
        ));
        out
    }

    fn layout_topic(&self) -> String {
        robot_topic(self.player, topics::TREE_LAYOUT)
    }

    fn layout(&self) -> &TreeSpec {
        &self.spec
    }

    fn events_topic(&self) -> String {
        robot_topic(self.player, topics::EVENTS)
    }

    fn stats(&self) -> NodeStats {
        self.stats.clone()
    }

    fn describe(&self) -> String {
        format!(
            "player {} deciding with {}",
            self.player,
            self.sources.describe()
        )
    }

    fn watched_files(&self) -> Vec<PathBuf> {
        self.sources.files()
    }

    fn reload_files(&self) -> Box<dyn Fn() -> SoccerReload + Send> {
        let sources = self.sources.clone();
        Box::new(move || sources.load())
    }

    fn apply_reload(&mut self, reload: SoccerReload, now: f64) -> Event {
        let rejected = |lines: Vec<String>| {
            tracing::error!(
                "reload rejected, the last good files keep running:\n{}",
                lines.join("\n")
            );
            Event::new(
                now,
                "reload_rejected",
                format!(
                    "files have errors; the last good files keep running:\n{}",
                    lines.join("\n")
                ),
            )
        };
        match reload {
            Err(lines) => rejected(lines),
            Ok((params, spec)) => match new_brain(&spec, &params) {
                Err(text) => rejected(vec![text]),
                Ok(brain) => {
                    // The world model starts afresh; the robot is a tick from deciding again.
                    self.brain = brain;
                    self.params = params;
                    self.spec = spec;
                    let shown = self.sources.describe();
                    tracing::info!("reloaded {shown}");
                    Event::new(now, "reload_accepted", format!("reloaded {shown}"))
                }
            },
        }
    }
}

#[cfg(test)]
mod tests;
