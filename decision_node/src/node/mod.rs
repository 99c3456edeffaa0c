//! The node core: decodes input messages, joins the four main topics with the
//! [`sync::Synchroniser`], ticks the [`Decider`] once per fresh set, and says what to publish.
//! It has no clock and no transport of its own: callers pass the receive time `now` (wall
//! clock live, simulated time in `sim`), which keeps it deterministic.

pub mod sync;

use bus::messages::{
    Autoaim, CarPos, DecisionMsg, Float32, GameInfo, GoalStatusArray, Header, NavCancel,
    NavFeedback, NavGoal, ObjHp, Pose2, PoseMsg, Serial,
};
use bus::{decode, topics};
use decision_core::engine::{CompileError, TreeSpec};
use decision_core::robomaster::context::NavAction;
use decision_core::robomaster::world::{HP_SLOTS, POSITION_SLOTS, nav_status};
use decision_core::robomaster::{Decider, Point2, Pose, Tables, TickInput, TickResult};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use sync::Synchroniser;

/// Largest spread of header stamps within a joined set, in seconds.
pub const SYNC_SLOP: f64 = 0.1;

/// One tick's trace as published on `robot_decision/trace`: the `decide` result plus time.
#[derive(Debug, Clone, Serialize)]
pub struct TraceMsg {
    /// Stamp of the tick (the joined set's stamp).
    pub header: Header,
    /// Elapsed game seconds.
    pub game_time: f64,
    /// The result, with why-not explanations.
    #[serde(flatten)]
    pub result: TickResult,
}

/// What one tick asks to publish.
#[derive(Debug, Clone)]
pub struct NodeOutput {
    /// The Decision message, when a decision is in effect.
    pub decision: Option<DecisionMsg>,
    /// The absolute aim yaw, when there is a target.
    pub aim_yaw: Option<Float32>,
    /// A cancel of the running goal (preemption), sent before `goal`.
    pub cancel: Option<NavCancel>,
    /// A new navigation goal.
    pub goal: Option<NavGoal>,
    /// The trace for viewers.
    pub trace: TraceMsg,
}

impl NodeOutput {
    /// Publishes everything on its topic, in order: cancel, goal, decision, aim yaw, trace.
    pub fn publish(&self, bus: &bus::Bus) -> Result<(), bus::BusError> {
        if let Some(cancel) = &self.cancel {
            bus.publish(topics::NAV_CANCEL, cancel)?;
        }
        if let Some(goal) = &self.goal {
            bus.publish(topics::NAV_GOAL, goal)?;
        }
        if let Some(decision) = &self.decision {
            bus.publish(topics::DECISION, decision)?;
        }
        if let Some(aim) = &self.aim_yaw {
            bus.publish(topics::AIM_YAW, aim)?;
        }
        bus.publish(topics::TRACE, &self.trace)
    }
}

/// What ingesting one message led to; `O` is the profile's tick output.
#[derive(Debug, Clone)]
pub enum Ingested<O = NodeOutput> {
    /// Stored; no tick yet.
    Stored,
    /// A joined set completed and the node ticked (RoboMaster; soccer ticks on a timer).
    Tick(Box<O>),
    /// A joined set (RoboMaster) or a message (soccer) was too old and skipped.
    Stale {
        /// Age in seconds.
        age: f64,
    },
    /// The message could not be used.
    Malformed(String),
    /// Not a topic the node reads.
    Ignored,
}

/// Counters for the events topic and the viewer's health panel.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NodeStats {
    /// Ticks decided.
    pub ticks: u64,
    /// Joined sets skipped as older than `TIME_THR`.
    pub stale_sets: u64,
    /// Joined sets dropped as wider than the slop.
    pub unsynchronised_sets: u64,
    /// Input messages too old to use (soccer).
    #[serde(skip_serializing_if = "is_zero")]
    pub stale_messages: u64,
    /// Malformed messages per topic.
    pub malformed: BTreeMap<String, u64>,
    /// Messages received per topic.
    pub received: BTreeMap<String, u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The node without transport or clock.
pub struct NodeCore {
    decider: Decider,
    sync: Synchroniser<ObjHp, CarPos, GameInfo, Serial>,
    pose: Option<(Pose, f64)>,
    feedback_pose: Option<(Pose, f64)>,
    autoaim: Option<(bool, f64)>,
    nav_status: u8,
    goal_id: u64,
    stats: NodeStats,
}

impl NodeCore {
    /// A node deciding with `tables`.
    pub fn new(tables: Arc<Tables>) -> Result<Self, Vec<CompileError>> {
        Ok(Self {
            decider: Decider::new(tables)?,
            sync: Synchroniser::new(SYNC_SLOP),
            pose: None,
            feedback_pose: None,
            autoaim: None,
            nav_status: nav_status::UNKNOWN,
            goal_id: 0,
            stats: NodeStats::default(),
        })
    }

    /// The decider (tables, tree, last trace).
    pub fn decider(&self) -> &Decider {
        &self.decider
    }

    /// The tree layout for viewers.
    pub fn layout(&self) -> &TreeSpec {
        self.decider.tree().spec()
    }

    /// The counters so far.
    pub fn stats(&self) -> NodeStats {
        let mut stats = self.stats.clone();
        stats.unsynchronised_sets = self.sync.unsynchronised;
        stats
    }

    /// Swaps in new tables at a tick boundary; a running decision whose id still exists keeps
    /// running, otherwise it ends.
    pub fn reload(&mut self, tables: Arc<Tables>) -> Result<(), Vec<CompileError>> {
        let mut next = Decider::new(tables)?;
        next.adopt_running(&self.decider);
        self.decider = next;
        Ok(())
    }

    /// Takes one message received at `now` (seconds on the caller's clock).
    pub fn ingest(&mut self, topic: &str, payload: &[u8], now: f64) -> Ingested {
        if !topics::NODE_INPUTS.contains(&topic) {
            return Ingested::Ignored;
        }
        *self.stats.received.entry(topic.to_string()).or_default() += 1;
        match self.store(topic, payload, now) {
            Err(message) => {
                *self.stats.malformed.entry(topic.to_string()).or_default() += 1;
                Ingested::Malformed(message)
            }
            Ok(false) => Ingested::Stored,
            Ok(true) => self.try_tick(now),
        }
    }

    /// Decodes and stores a message; `Ok(true)` when it was one of the synchronised four.
    fn store(&mut self, topic: &str, payload: &[u8], now: f64) -> Result<bool, String> {
        let stamp_or_now = |h: &Header| {
            if h.stamp.sec == 0 && h.stamp.nanosec == 0 {
                now
            } else {
                h.stamp.as_secs_f64()
            }
        };
        match topic {
            topics::OBJ_HP => {
                let m: ObjHp = decode(topic, payload).map_err(|e| e.to_string())?;
                check_len(topic, "hp", m.hp.len(), HP_SLOTS)?;
                let stamp = stamp_or_now(&m.header);
                self.sync.put_obj_hp(m, stamp);
            }
            topics::CAR_POS => {
                let m: CarPos = decode(topic, payload).map_err(|e| e.to_string())?;
                check_len(topic, "pos", m.pos.len(), POSITION_SLOTS)?;
                let stamp = stamp_or_now(&m.header);
                self.sync.put_car_pos(m, stamp);
            }
            topics::GAME_INFO => {
                let m: GameInfo = decode(topic, payload).map_err(|e| e.to_string())?;
                if !m.timestamp.is_finite() {
                    return Err(format!("topic `{topic}`: field `timestamp`: not finite"));
                }
                let stamp = stamp_or_now(&m.header);
                self.sync.put_game_info(m, stamp);
            }
            topics::SERIAL_MSG => {
                let m: Serial = decode(topic, payload).map_err(|e| e.to_string())?;
                let stamp = stamp_or_now(&m.header);
                self.sync.put_serial(m, stamp);
            }
            topics::POSE => {
                let m: PoseMsg = decode(topic, payload).map_err(|e| e.to_string())?;
                if !(m.x.is_finite() && m.y.is_finite() && m.yaw.is_finite()) {
                    return Err(format!("topic `{topic}`: a coordinate is not finite"));
                }
                self.pose = Some((
                    Pose {
                        x: m.x,
                        y: m.y,
                        yaw: m.yaw,
                    },
                    stamp_or_now(&m.header),
                ));
                return Ok(false);
            }
            topics::AUTOAIM => {
                let m: Autoaim = decode(topic, payload).map_err(|e| e.to_string())?;
                self.autoaim = Some((m.is_target_lost, stamp_or_now(&m.header)));
                return Ok(false);
            }
            topics::NAV_FEEDBACK => {
                let m: NavFeedback = decode(topic, payload).map_err(|e| e.to_string())?;
                let p = m.current_pose;
                if !(p.x.is_finite() && p.y.is_finite() && p.yaw.is_finite()) {
                    return Err(format!(
                        "topic `{topic}`: field `current_pose`: a coordinate is not finite"
                    ));
                }
                self.feedback_pose = Some((
                    Pose {
                        x: p.x,
                        y: p.y,
                        yaw: p.yaw,
                    },
                    stamp_or_now(&m.header),
                ));
                return Ok(false);
            }
            topics::NAV_STATUS => {
                let m: GoalStatusArray = decode(topic, payload).map_err(|e| e.to_string())?;
                // The last entry counts; an entry tagged with an older goal's id is ignored.
                if let Some(last) = m.status_list.last()
                    && last.goal_id.is_none_or(|id| id == self.goal_id)
                {
                    self.nav_status = last.status;
                }
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn try_tick(&mut self, now: f64) -> Ingested {
        let time_thr = self.decider.tables().config.time_thr;
        let Some(set) = self.sync.take_set() else {
            return Ingested::Stored;
        };
        let age = now - set.stamp;
        if age > time_thr {
            self.stats.stale_sets += 1;
            return Ingested::Stale { age };
        }
        let mut input = TickInput {
            remaining_time: set.game_info.timestamp,
            game_stage: set.game_info.game_stage,
            mode: set.serial.mode,
            nav_status: self.nav_status,
            ..TickInput::default()
        };
        for (slot, hp) in input.hp.iter_mut().zip(&set.obj_hp.hp) {
            *slot = *hp;
        }
        for (slot, p) in input.positions.iter_mut().zip(&set.car_pos.pos) {
            *slot = Point2 { x: p.x, y: p.y };
        }
        let fresh = |stamp: f64| now - stamp <= time_thr;
        // Our pose from the pose topic (TF), else from Nav2's feedback, as the original did.
        input.pose = self
            .pose
            .filter(|(_, s)| fresh(*s))
            .or(self.feedback_pose.filter(|(_, s)| fresh(*s)))
            .map(|(p, _)| p);
        input.autoaim_target_lost = self
            .autoaim
            .filter(|(_, s)| fresh(*s))
            .map(|(lost, _)| lost);
        let stamp = set.stamp;
        let summary = self.decider.tick(&input);
        self.stats.ticks += 1;
        let header = Header::at(stamp);
        let result = self.decider.result();
        let mut cancel = None;
        let mut goal = None;
        if matches!(summary.action, NavAction::Preempt) {
            cancel = Some(NavCancel {
                header: header.clone(),
                goal_id: self.goal_id,
            });
        } else if summary.cancel_active_goal {
            cancel = Some(NavCancel {
                header: header.clone(),
                goal_id: NavCancel::ANY_GOAL,
            });
        }
        if matches!(summary.action, NavAction::Send | NavAction::Preempt) {
            self.goal_id += 1;
            // Until Nav2 reports on the new goal it counts as accepted.
            self.nav_status = nav_status::ACCEPTED;
            goal = Some(NavGoal {
                header: Header {
                    frame_id: "map".into(),
                    ..header.clone()
                },
                goal_id: self.goal_id,
                poses: result
                    .poses
                    .iter()
                    .map(|[x, y, yaw]| Pose2 {
                        x: *x,
                        y: *y,
                        yaw: *yaw,
                    })
                    .collect(),
            });
        }
        let decision = summary.decision.map(|d| DecisionMsg {
            header: header.clone(),
            decision_id: d.decision_id,
            mode: d.mode,
            x: d.x,
            y: d.y,
            theta: d.theta,
        });
        let aim_yaw = summary.aim_yaw.map(|data| Float32 {
            header: header.clone(),
            data,
        });
        let game_time = self.decider.context().world.elapsed;
        Ingested::Tick(Box::new(NodeOutput {
            decision,
            aim_yaw,
            cancel,
            goal,
            trace: TraceMsg {
                header,
                game_time,
                result,
            },
        }))
    }
}

fn check_len(topic: &str, field: &str, found: usize, expected: usize) -> Result<(), String> {
    if found == expected {
        Ok(())
    } else {
        Err(format!(
            "topic `{topic}`: field `{field}`: expected {expected} entries, found {found}"
        ))
    }
}

/// Encodes a message as the bus does.
pub(crate) fn encoded<T: Serialize>(topic: &str, message: &T) -> Option<(String, Vec<u8>)> {
    match serde_json::to_vec(message) {
        Ok(payload) => Some((topic.to_string(), payload)),
        Err(e) => {
            tracing::warn!("cannot encode a message on `{topic}`: {e}");
            None
        }
    }
}

impl crate::profile::NodeProfile for NodeCore {
    type Output = NodeOutput;
    type Reload = crate::runtime::reload::Reload;
    type Trace = crate::runtime::record::TraceRecord;

    fn input_topics(&self) -> Vec<String> {
        topics::NODE_INPUTS.iter().map(|t| t.to_string()).collect()
    }

    fn ingest(&mut self, topic: &str, payload: &[u8], now: f64) -> Ingested {
        NodeCore::ingest(self, topic, payload, now)
    }

    fn trace_bytes(&self, output: &NodeOutput) -> Vec<u8> {
        encoded(topics::TRACE, &output.trace).map_or_else(Vec::new, |(_, bytes)| bytes)
    }

    fn outgoing(
        &self,
        output: &NodeOutput,
        _wanted: &dyn Fn(&str) -> bool,
    ) -> Vec<crate::profile::Outgoing> {
        let mut out = Vec::with_capacity(5);
        out.extend(
            output
                .cancel
                .as_ref()
                .and_then(|m| encoded(topics::NAV_CANCEL, m)),
        );
        out.extend(
            output
                .goal
                .as_ref()
                .and_then(|m| encoded(topics::NAV_GOAL, m)),
        );
        out.extend(
            output
                .decision
                .as_ref()
                .and_then(|m| encoded(topics::DECISION, m)),
        );
        out.extend(
            output
                .aim_yaw
                .as_ref()
                .and_then(|m| encoded(topics::AIM_YAW, m)),
        );
        out.extend(encoded(topics::TRACE, &output.trace));
        out
    }

    fn layout_topic(&self) -> String {
        topics::TREE_LAYOUT.to_string()
    }

    fn layout(&self) -> &TreeSpec {
        NodeCore::layout(self)
    }

    fn events_topic(&self) -> String {
        topics::EVENTS.to_string()
    }

    fn stats(&self) -> NodeStats {
        NodeCore::stats(self)
    }

    fn describe(&self) -> String {
        format!(
            "deciding with {}",
            self.decider.tables().files.config.display()
        )
    }

    fn watched_files(&self) -> Vec<std::path::PathBuf> {
        let files = &self.decider.tables().files;
        files.all().iter().map(|p| p.to_path_buf()).collect()
    }

    fn reload_files(&self) -> Box<dyn Fn() -> crate::runtime::reload::Reload + Send> {
        let config = self.decider.tables().files.config.clone();
        Box::new(move || crate::runtime::reload::load_checked(&config))
    }

    fn apply_reload(
        &mut self,
        reload: crate::runtime::reload::Reload,
        now: f64,
    ) -> crate::runtime::events::Event {
        let event = std::cell::RefCell::new(None);
        crate::runtime::reload::apply_reload(self, reload, &|e| {
            *event.borrow_mut() = Some(e.clone());
        });
        event
            .into_inner()
            .unwrap_or_else(|| crate::runtime::events::Event::new(now, "reload", "reloaded"))
    }
}
