//! `SoccerMatch`: two teams on one field, every robot of a `nodes` team running its own
//! soccer decider and search suggestor, a referee, the ball, perception and the team
//! network, stepped in 20 ms ticks of simulated time. Deterministic for a seed.

use super::figures::{MatchFigures, PlayFigures, RoleSample};
use super::frames::{point_for, pose_for, velocity_for};
use super::network::Network;
use super::perception::{head_yaw, noisy, sees_ball};
use super::referee::{Call, Phase, Referee};
use super::scenario::{EventKind, Side, SoccerScenario, Start, TeamKind};
use super::world::{self, Ball, Body};
use crate::rng::SplitMix64;
use decision_core::engine::TreeSpec;
use geometry::{Field, Point2, Pose2, Vector2, wrap_pi};
use rayon::prelude::*;
use soccer_profile::brain::SoccerBrain;
use soccer_profile::decider::Decision;
use soccer_profile::frame::{
    BallJson, Frame, ObstacleJson, PointJson, PoseJson, PrimaryState, TeammateMessage,
};
use soccer_profile::motion::{Body as Motion, MotionCommand, TurnDirection};
use soccer_profile::params::Parameters;
use std::sync::Arc;

/// The tick of the simulation (s).
pub const TICK: f64 = 0.02;

/// What runs a robot.
enum Brain {
    /// Our behaviour.
    Node(Box<SoccerBrain>),
    /// A node elsewhere (on the bus): gets its frame each tick, sends its motion command.
    Remote,
    /// `kind: scripted`: the lowest number keeps goal, the others walk to the ball and kick.
    Scripted,
}

/// One robot of the match.
pub struct Player {
    /// Its team.
    pub side: Side,
    /// Its number.
    pub number: u8,
    /// Its body (world frame).
    pub body: Body,
    /// Penalized until this time.
    pub penalized_until: Option<f64>,
    /// The role it reported last tick.
    pub role: Option<&'static str>,
    /// The root branch of its last tick.
    pub branch: String,
    /// Its last command (team frame).
    pub motion: MotionCommand,
    /// Its last decision (nodes only).
    pub decision: Option<Decision>,
    brain: Brain,
    remote_command: Option<MotionCommand>,
    /// The frame this robot decided on in the last step (only while frames are kept).
    pub recorded_frame: Option<Frame>,
    /// Whether it saw the ball in the last step (its perception, not its belief).
    pub sees_ball: bool,
    inbox: Vec<TeammateMessage>,
    rng: SplitMix64,
}

impl Player {
    /// The robot's behaviour and search suggestor, when it is one of our in-process robots.
    pub fn brain(&self) -> Option<&SoccerBrain> {
        match &self.brain {
            Brain::Node(brain) => Some(brain),
            Brain::Scripted | Brain::Remote => None,
        }
    }

    /// Whether a State message of teammate `number` has reached this robot.
    pub fn has_heard_from(&self, number: u8) -> bool {
        match &self.brain {
            Brain::Node(brain) => brain.has_heard_from(number),
            Brain::Scripted | Brain::Remote => false,
        }
    }
}

/// Something worth a line in the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Happening {
    /// When.
    pub t: f64,
    /// What, in words.
    pub text: String,
}

/// Makes the calling thread a worker of rayon's global pool, so the robots' parallel decisions
/// in [`SoccerMatch::step`] start on this thread at once while the other workers steal,
/// instead of this thread handing the work over and sleeping until it is done (a wake-up per
/// tick costs more than a robot's decision on a virtual machine). Call it once, first thing,
/// on the thread that steps a match; `false` when the global pool already exists.
pub fn decide_on_this_thread() -> bool {
    rayon::ThreadPoolBuilder::new()
        .use_current_thread()
        .build_global()
        .is_ok()
}

/// The parameters and tree of one team's in-process robots.
#[derive(Clone)]
pub struct TeamBrains<'s> {
    /// Every robot's parameters.
    pub params: Arc<Parameters>,
    /// The tree every robot runs.
    pub spec: &'s TreeSpec,
}

/// A simulated soccer match of one scenario, stepped in [`TICK`]s; deterministic for a seed.
pub struct SoccerMatch {
    scenario: SoccerScenario,
    params: Arc<Parameters>,
    /// Simulated time (s).
    pub now: f64,
    /// The true ball, in the world frame (the home team's field frame).
    pub ball: Ball,
    /// The simulated game controller: phase, half, score, set plays, shootout, message budgets.
    pub referee: Referee,
    /// Every robot, home first, by number.
    pub players: Vec<Player>,
    network: Network,
    events_done: Vec<bool>,
    rng: SplitMix64,
    delivered: Vec<(Side, TeammateMessage)>,
    kicks: [u32; 2],
    remote_frames: Vec<(Side, u8, Frame)>,
    /// Per tick scratch (kept so a tick does not allocate them): roles before deciding, the
    /// frames of our robots, their decisions.
    previous_roles: Vec<Option<&'static str>>,
    frames: Vec<Option<Frame>>,
    decisions: Vec<Option<Decision>>,
    recording: bool,
    figures: PlayFigures,
}

impl SoccerMatch {
    /// A match of `scenario` with `params` for every robot of a `nodes` team and the tree
    /// `spec`; `seed` replaces the scenario's.
    pub fn new(
        scenario: SoccerScenario,
        params: Arc<Parameters>,
        spec: &TreeSpec,
        seed: Option<u64>,
    ) -> Result<Self, String> {
        let team = TeamBrains {
            params: Arc::clone(&params),
            spec,
        };
        Self::with_teams(scenario, [team.clone(), team], seed)
    }

    /// A match whose home and away `nodes` teams play with their own parameters and tree (an
    /// A/B comparison fields a config against a fixed opponent); both must describe the same
    /// field, which the match takes from the home team's parameters.
    pub fn with_teams(
        scenario: SoccerScenario,
        teams: [TeamBrains<'_>; 2],
        seed: Option<u64>,
    ) -> Result<Self, String> {
        let params = Arc::clone(&teams[0].params);
        if teams[1].params.field != params.field {
            return Err("the two teams' parameters describe different fields".to_owned());
        }
        let seed = seed.unwrap_or(scenario.seed);
        let mut players = Vec::new();
        for side in [Side::Home, Side::Away] {
            let team = scenario.team(side).clone();
            let brains = &teams[usize::from(side == Side::Away)];
            for (i, &number) in team.players.iter().enumerate() {
                let brain = match team.kind {
                    TeamKind::Nodes => {
                        let brain = SoccerBrain::new(brains.spec, Arc::clone(&brains.params))
                            .map_err(|e| {
                                e.iter()
                                    .map(|e| e.to_string())
                                    .collect::<Vec<_>>()
                                    .join("\n")
                            })?;
                        Brain::Node(Box::new(brain))
                    }
                    TeamKind::Scripted => Brain::Scripted,
                };
                // Robots wait on their own half's touchline, facing the field.
                let team_pose = Pose2::<Field>::new(
                    -0.6 - 0.7 * i as f64,
                    -params.field.half_width() - 0.3,
                    std::f64::consts::FRAC_PI_2,
                );
                players.push(Player {
                    side,
                    number,
                    body: Body::at(pose_for(side, team_pose)),
                    penalized_until: None,
                    role: None,
                    branch: String::new(),
                    motion: MotionCommand::STAND,
                    decision: None,
                    brain,
                    remote_command: None,
                    recorded_frame: None,
                    sees_ball: false,
                    inbox: Vec::new(),
                    rng: SplitMix64::for_stream(
                        seed,
                        100 + u64::from(number) + if side == Side::Away { 50 } else { 0 },
                    ),
                });
            }
        }
        let mut referee = Referee::new(scenario.kickoff_team, scenario.half_duration);
        let mut calls = Vec::new();
        let mut ball = Ball::at(Point2::ORIGIN);
        match scenario.start {
            Start::Kickoff => {}
            Start::Playing => {
                let active = |side: Side| {
                    let mut a = soccer_profile::world::ActivePlayers::default();
                    for p in &scenario.team(side).players {
                        a.insert(*p);
                    }
                    a
                };
                for p in &mut players {
                    let pose = soccer_profile::formation::kickoff_pose(
                        p.number,
                        active(p.side),
                        None,
                        &params,
                    )
                    .unwrap_or(Pose2::new(-2.0, 0.0, 0.0));
                    p.body = Body::at(pose_for(p.side, pose));
                }
                ball = Ball::at(Point2::new(scenario.ball[0], scenario.ball[1]));
                referee.start_playing(0.0, &mut calls);
            }
            Start::PenaltyShootout => {
                referee.start_shootout(scenario.kickoff_team, 0.0, &mut calls)
            }
        }
        let events_done = vec![false; scenario.events.len()];
        Ok(Self {
            scenario,
            params,
            now: 0.0,
            ball,
            referee,
            players,
            network: Network::default(),
            events_done,
            rng: SplitMix64::for_stream(seed, 1),
            delivered: Vec::new(),
            kicks: [0, 0],
            remote_frames: Vec::new(),
            previous_roles: Vec::new(),
            frames: Vec::new(),
            decisions: Vec::new(),
            recording: false,
            figures: PlayFigures::new(TICK),
        })
    }

    /// The scenario's name of a team.
    pub fn team_name(&self, side: Side) -> &str {
        &self.scenario.team(side).name
    }

    /// Keeps each in-process robot's frame of the last step in [`Player::recorded_frame`]:
    /// with its decision, the records its node would publish (a viewer's blackboard panel).
    pub fn keep_frames(&mut self, on: bool) {
        self.recording = on;
    }

    /// Keeps the frames ([`keep_frames`](Self::keep_frames)) and turns on the why-not
    /// explanations, so a recording holds what replay needs.
    pub fn set_recording(&mut self, on: bool) {
        self.keep_frames(on);
        for p in &mut self.players {
            if let Brain::Node(brain) = &mut p.brain {
                brain.decider_mut().set_explain(on);
            }
        }
    }

    /// Makes `side`'s robots of our behaviour remote: each tick their frames are collected
    /// ([`take_remote_frames`](Self::take_remote_frames)) instead of decided, and they move
    /// by the commands given with [`command_remote`](Self::command_remote).
    pub fn make_remote(&mut self, side: Side) {
        for p in self.players.iter_mut().filter(|p| p.side == side) {
            if matches!(p.brain, Brain::Node(_)) {
                p.brain = Brain::Remote;
            }
        }
    }

    /// The frames of the remote robots built by the last step, as `(side, number, frame)`.
    pub fn take_remote_frames(&mut self) -> Vec<(Side, u8, Frame)> {
        std::mem::take(&mut self.remote_frames)
    }

    fn remote_player(&mut self, side: Side, number: u8) -> Option<&mut Player> {
        self.players
            .iter_mut()
            .find(|p| p.side == side && p.number == number && matches!(p.brain, Brain::Remote))
    }

    /// The latest motion command of a remote robot.
    pub fn command_remote(&mut self, side: Side, number: u8, command: MotionCommand) {
        if let Some(p) = self.remote_player(side, number) {
            p.remote_command = Some(command);
        }
    }

    /// The role a remote robot reports (from its trace), with the timeline entry of a change.
    pub fn report_remote_role(
        &mut self,
        side: Side,
        number: u8,
        role: Option<&'static str>,
    ) -> Option<Happening> {
        let now = self.now;
        let p = self.remote_player(side, number)?;
        if p.role == role {
            return None;
        }
        let previous = std::mem::replace(&mut p.role, role);
        role.map(|role| Happening {
            t: now,
            text: format!(
                "{} {} {} -> {role}",
                side_name(side),
                number,
                previous.unwrap_or("-")
            ),
        })
    }

    /// Counts a State message a remote robot of `side` sent against the team's budget.
    pub fn count_remote_message(&mut self, side: Side) {
        self.referee.spend_message(side);
    }

    /// Whether the match is over (or the scenario's time is up).
    pub fn is_over(&self) -> bool {
        self.referee.over || self.scenario.seconds.is_some_and(|s| self.now >= s - 1e-9)
    }

    /// Messages sent and lost per team.
    pub fn message_counts(&self) -> ([u64; 2], [u64; 2]) {
        (self.network.sent, self.network.lost)
    }

    /// The parameters every robot of a `nodes` team decides with (field dimensions, ...).
    pub fn params(&self) -> &Parameters {
        &self.params
    }

    /// The team messages delivered in the last tick: `(team, message)` in arrival order.
    pub fn delivered(&self) -> &[(Side, TeammateMessage)] {
        &self.delivered
    }

    /// Kicks per team.
    pub fn kicks(&self) -> [u32; 2] {
        self.kicks
    }

    /// Advances one tick; returns what happened.
    pub fn step(&mut self) -> Vec<Happening> {
        let mut out = Vec::new();
        self.now += TICK;
        let now = self.now;
        let mut calls = Vec::new();
        self.run_events(&mut calls, &mut out);
        for p in &mut self.players {
            if p.penalized_until.is_some_and(|until| now >= until) {
                p.penalized_until = None;
                out.push(Happening {
                    t: now,
                    text: format!("{} {} back from penalty", side_name(p.side), p.number),
                });
            }
            p.body.recover(now);
        }
        let all_ready = self.players.iter().all(|p| {
            p.penalized_until.is_some()
                || p.body.velocity.norm() < 0.05 && matches!(p.motion.body, Motion::Stand)
        });
        self.referee
            .tick(now, TICK, all_ready, self.ball.is_still(), &mut calls);
        self.apply_calls(&calls, &mut out);
        calls.clear();
        // Team messages that arrived since the last tick.
        self.network.deliver(now, &mut self.delivered);
        for (side, message) in &self.delivered {
            for p in self
                .players
                .iter_mut()
                .filter(|p| p.side == *side && p.number != message.player)
            {
                p.inbox.push(*message);
            }
        }
        // Decide: perceive in player order (the robots' own noise streams), let every robot
        // of ours decide on its frame (in parallel: the brains share nothing), then deliver
        // the decisions in player order (team messages draw from the match's stream).
        self.previous_roles.clear();
        self.previous_roles
            .extend(self.players.iter().map(|p| p.role));
        let mut frames = std::mem::take(&mut self.frames);
        frames.clear();
        frames.extend((0..self.players.len()).map(|i| self.perceive(i)));
        let mut decisions = std::mem::take(&mut self.decisions);
        self.players
            .par_iter_mut()
            .zip(frames.par_iter_mut())
            .map(|(player, frame)| match (&mut player.brain, frame.take()) {
                (Brain::Node(brain), Some(frame)) => Some(brain.step(frame)),
                _ => None,
            })
            .collect_into_vec(&mut decisions);
        self.frames = frames;
        for (i, decision) in decisions.iter_mut().enumerate() {
            if let Some(decision) = decision.take() {
                self.deliver(i, decision);
            }
            let previous = self.previous_roles[i];
            let player = &self.players[i];
            if player.role != previous
                && let Some(role) = player.role
            {
                out.push(Happening {
                    t: now,
                    text: format!(
                        "{} {} {} -> {}",
                        side_name(player.side),
                        player.number,
                        previous.unwrap_or("-"),
                        role
                    ),
                });
            }
        }
        self.decisions = decisions;
        // Move, kick, collide.
        for i in 0..self.players.len() {
            self.act(i, &mut calls, &mut out);
        }
        self.collide(&mut out);
        self.roll_ball(&mut calls, &mut out);
        self.apply_calls(&calls, &mut out);
        self.figures.record_tick(
            now,
            self.players.iter().map(|p| RoleSample {
                side: p.side,
                number: p.number,
                role: p.role,
                sees_ball: p.sees_ball,
            }),
        );
        out
    }

    /// The play figures so far (role changes, strikers, stints, lost balls; see
    /// [`figures`](super::figures)).
    pub fn play_figures(&self) -> MatchFigures {
        self.figures.figures()
    }

    fn run_events(&mut self, calls: &mut Vec<Call>, out: &mut Vec<Happening>) {
        for i in 0..self.scenario.events.len() {
            if self.events_done[i] || self.scenario.events[i].at > self.now + 1e-9 {
                continue;
            }
            self.events_done[i] = true;
            let now = self.now;
            match self.scenario.events[i].what.clone() {
                EventKind::Ball([x, y]) => {
                    self.ball = Ball::at(Point2::new(x, y));
                    out.push(Happening {
                        t: now,
                        text: format!("ball placed at ({x:.2}, {y:.2})"),
                    });
                }
                EventKind::SetPlay { kind, team } => {
                    let play = Referee::sub_state_of(kind);
                    let (hl, hw) = (
                        self.params.field.half_length(),
                        self.params.field.half_width(),
                    );
                    let spot = match kind {
                        super::scenario::SetPlay::CornerKick => {
                            point_for(team, Point2::new(hl, hw))
                        }
                        super::scenario::SetPlay::GoalKick => point_for(
                            team,
                            Point2::new(
                                -(hl - self.params.field.goal_box_area_length),
                                self.params.field.goal_box_area_width / 2.0,
                            ),
                        ),
                        super::scenario::SetPlay::ThrowIn => {
                            Point2::new(self.ball.position.x.clamp(-hl + 0.5, hl - 0.5), hw)
                        }
                        super::scenario::SetPlay::FreeKick => self.ball.position,
                    };
                    self.ball = Ball::at(spot);
                    self.referee.award(play, team, now, calls);
                }
                EventKind::Penalize {
                    team,
                    player,
                    seconds,
                } => {
                    if let Some(p) = self
                        .players
                        .iter_mut()
                        .find(|p| p.side == team && p.number == player)
                    {
                        p.penalized_until = Some(now + seconds);
                        // Penalized robots leave the field at the touchline.
                        let x = p.body.pose.position.x;
                        p.body = Body::at(Pose2::new(
                            x,
                            -self.params.field.half_width() - 0.4,
                            std::f64::consts::FRAC_PI_2,
                        ));
                        out.push(Happening {
                            t: now,
                            text: format!(
                                "{} {} penalized for {seconds:.0} s",
                                side_name(team),
                                player
                            ),
                        });
                    }
                }
                EventKind::Fall { team, player } => {
                    if let Some(p) = self
                        .players
                        .iter_mut()
                        .find(|p| p.side == team && p.number == player)
                    {
                        p.body.fall(now);
                        out.push(Happening {
                            t: now,
                            text: format!("{} {} falls", side_name(team), player),
                        });
                    }
                }
            }
        }
    }

    fn apply_calls(&mut self, calls: &[Call], out: &mut Vec<Happening>) {
        let now = self.now;
        for call in calls {
            let text = match call {
                Call::Phase(phase) => {
                    match phase {
                        Phase::Ready | Phase::Set | Phase::Initial
                            if self.referee.shootout.is_none() =>
                        {
                            self.ball = Ball::at(Point2::ORIGIN);
                        }
                        Phase::Set if self.referee.shootout.is_some() => self.place_shootout(),
                        _ => {}
                    }
                    format!("game {}", phase_name(*phase))
                }
                Call::Goal(side) => format!(
                    "GOAL {} ({} {} : {} {})",
                    self.team_name(*side),
                    self.team_name(Side::Home),
                    self.referee.goals(Side::Home),
                    self.referee.goals(Side::Away),
                    self.team_name(Side::Away)
                ),
                Call::SetPlay(play, side) => format!("{play:?} for {}", self.team_name(*side)),
                Call::SetPlayOver => "set play over".to_owned(),
                Call::SecondHalf => "second half".to_owned(),
                Call::MatchOver => format!(
                    "match over: {} {} : {} {}",
                    self.team_name(Side::Home),
                    self.referee.goals(Side::Home),
                    self.referee.goals(Side::Away),
                    self.team_name(Side::Away)
                ),
                Call::ShootoutKick(side, n) => {
                    format!("penalty kick {n} for {}", self.team_name(*side))
                }
            };
            out.push(Happening { t: now, text });
        }
    }

    /// Places the ball on the penalty mark, the kicker behind it and the keeper on its line;
    /// everyone else waits off the field.
    fn place_shootout(&mut self) {
        let Some(shootout) = self.referee.shootout else {
            return;
        };
        let field = &self.params.field;
        let keeper_number = self.params.behavior_node.goalkeeper.player_number;
        let attacking = shootout.kicking;
        let mark_team =
            Point2::<Field>::new(field.half_length() - field.penalty_marker_distance, 0.0);
        self.ball = Ball::at(point_for(attacking, mark_team));
        let kicker = self
            .players
            .iter()
            .filter(|p| p.side == attacking && p.number != keeper_number)
            .map(|p| p.number)
            .max();
        let now = self.now;
        let half_width = field.half_width();
        let half_length = field.half_length();
        for p in &mut self.players {
            let team_pose = if p.side == attacking && Some(p.number) == kicker {
                Some(Pose2::new(mark_team.x - 0.6, 0.0, 0.0))
            } else if p.side != attacking && p.number == keeper_number {
                Some(Pose2::new(-half_length + 0.1, 0.0, 0.0))
            } else {
                None
            };
            match team_pose {
                Some(pose) => {
                    p.body = Body::at(pose_for(p.side, pose));
                    p.penalized_until = None;
                }
                None => {
                    p.penalized_until =
                        Some(now + super::referee::SHOOTOUT_ATTEMPT_DURATION + 10.0);
                    p.body = Body::at(Pose2::new(
                        p.body.pose.position.x.clamp(-4.0, 4.0),
                        -half_width - 0.4,
                        0.0,
                    ));
                }
            }
        }
    }

    /// Robot `i`'s view of this tick. Scripted and remote robots are served here; a robot of
    /// ours gets its frame back to decide on.
    fn perceive(&mut self, i: usize) -> Option<Frame> {
        let now = self.now;
        let others: Vec<Point2<Field>> = self
            .players
            .iter()
            .enumerate()
            .filter(|(j, p)| *j != i && p.penalized_until.is_none())
            .map(|(_, p)| p.body.pose.position)
            .collect();
        let side = self.players[i].side;
        let team_players: Vec<u8> = self.scenario.team(side).players.clone();
        let penalized: Vec<u8> = self
            .players
            .iter()
            .filter(|p| p.side == side && p.penalized_until.is_some())
            .map(|p| p.number)
            .collect();
        let game = self
            .referee
            .game_state(side, now, &team_players, &penalized);
        let perception = self.scenario.perception.clone();
        let rule_ball = match self.referee.phase {
            Phase::Ready | Phase::Set => Some(point_for(side, self.ball.position)),
            _ if self.referee.set_play.is_some() => Some(point_for(side, self.ball.position)),
            _ => None,
        };
        let ball = self.ball;
        let half_length = self.params.field.half_length();
        let keeper = self.params.behavior_node.goalkeeper.player_number;
        let recording = self.recording;
        let player = &mut self.players[i];
        let primary = if player.penalized_until.is_some() {
            PrimaryState::Penalized
        } else {
            self.referee.primary_state()
        };
        let seen = sees_ball(&player.body, &ball, &others, &perception, &mut player.rng);
        player.sees_ball = seen;
        let team_pose = pose_for(side, player.body.pose);
        let pose = (!player.body.is_down()).then(|| {
            let p = noisy(team_pose.position, perception.pose_noise, &mut player.rng);
            Pose2::<Field>::new(
                p.x,
                p.y,
                wrap_pi(team_pose.yaw + player.rng.normal() * perception.pose_noise),
            )
        });
        let ball_team = seen.then(|| {
            let d = player.body.pose.position.distance(ball.position);
            let p = noisy(
                point_for(side, ball.position),
                perception.ball_noise * d,
                &mut player.rng,
            );
            let [vx, vy] = velocity_for(side, [ball.velocity.x, ball.velocity.y]);
            BallJson {
                x: p.x,
                y: p.y,
                vx,
                vy,
            }
        });
        let obstacles: Vec<ObstacleJson> = others
            .iter()
            .filter(|o| o.distance(player.body.pose.position) <= perception.obstacle_range)
            .map(|o| {
                let p = point_for(side, *o);
                ObstacleJson {
                    x: p.x,
                    y: p.y,
                    radius: world::ROBOT_RADIUS,
                }
            })
            .collect();
        match &mut player.brain {
            Brain::Scripted => {
                player.motion = super::scripted::command(
                    player.number,
                    keeper,
                    primary,
                    team_pose,
                    ball_team.map(|b| Point2::new(b.x, b.y)),
                    half_length,
                );
                player.role = None;
                player.branch = "scripted".to_owned();
                None
            }
            // Our behaviour, in process or on the bus: both get the same frame.
            brain => {
                let frame = Frame {
                    t: now,
                    player_number: player.number,
                    primary_state: primary,
                    motion_switch_allowed: true,
                    fallen: player.body.is_down(),
                    stand_up_available: player.body.can_stand_up(now),
                    remote_control: None,
                    game: Some(game),
                    pose: pose.map(|p| PoseJson {
                        x: p.position.x,
                        y: p.position.y,
                        yaw: p.yaw,
                    }),
                    head_yaw: player.body.head_yaw,
                    ball: ball_team,
                    rule_ball: rule_ball.map(|p| PointJson { x: p.x, y: p.y }),
                    obstacles,
                    teammate_messages: std::mem::take(&mut player.inbox),
                    search_target: None,
                    search_cell_size: None,
                };
                let Brain::Node(_) = brain else {
                    self.remote_frames.push((side, player.number, frame));
                    player.motion = player
                        .remote_command
                        .clone()
                        .unwrap_or(MotionCommand::STAND);
                    player.branch = "remote".to_owned();
                    // A remote robot's role arrives with its trace (`report_remote_role`).
                    return None;
                };
                if recording {
                    player.recorded_frame = Some(frame.clone());
                }
                Some(frame)
            }
        }
    }

    /// Applies robot `i`'s decision: its team message goes on the network, its command and
    /// role into the match.
    fn deliver(&mut self, i: usize, decision: Decision) {
        let now = self.now;
        let perception = &self.scenario.perception;
        let player = &mut self.players[i];
        let side = player.side;
        if let Some(message) = decision.message {
            let m = message.as_received();
            let silent = perception.silent_robots.contains(&format!(
                "{}:{}",
                side_name(side),
                player.number
            ));
            self.network.send(
                side,
                m,
                now,
                perception.message_delay_min,
                perception.message_delay_max,
                perception.message_loss_rate,
                silent,
                &mut self.rng,
            );
            self.referee.spend_message(side);
        }
        player.motion = decision.motion.clone();
        player.role = decision.role;
        player.branch.clone_from(&decision.branch);
        player.decision = Some(decision);
    }

    fn act(&mut self, i: usize, calls: &mut Vec<Call>, out: &mut Vec<Happening>) {
        let now = self.now;
        let playing = self.referee.phase == Phase::Playing;
        let player = &mut self.players[i];
        let side = player.side;
        if player.penalized_until.is_some() {
            player.body.velocity = Vector2::ZERO;
            return;
        }
        let team_pose = pose_for(side, player.body.pose);
        player.body.head_yaw = head_yaw(player.motion.head, &team_pose, now);
        if player.body.is_down() {
            if matches!(player.motion.body, Motion::StandUp) {
                player.body.stand_up(now);
            }
            return;
        }
        match player.motion.body.clone() {
            Motion::WalkTo { target, speed } => {
                // The decider's planned next destination, else the target.
                let next = match &player.brain {
                    Brain::Node(brain) => brain
                        .decider()
                        .context()
                        .out
                        .path_next
                        .unwrap_or(target.position),
                    Brain::Scripted | Brain::Remote => target.position,
                };
                let yaw = pose_for(
                    side,
                    Pose2 {
                        position: target.position,
                        yaw: target.yaw,
                    },
                )
                .yaw;
                player.body.walk_to(point_for(side, next), yaw, speed, TICK);
            }
            Motion::WalkVelocity { vx, vy, vyaw } => player.body.walk_velocity(vx, vy, vyaw, TICK),
            Motion::Turn(direction) => {
                let rate = if direction == TurnDirection::Left {
                    1.0
                } else {
                    -1.0
                };
                player.body.turn(rate, TICK);
            }
            Motion::Kick { target, .. } => {
                let target = point_for(side, target);
                if playing && player.body.reaches(&self.ball) && now >= player.body.kick_ready_at {
                    world::kick(&mut self.ball, target, &mut self.rng);
                    player.body.kick_ready_at = now + 1.0;
                    player.body.velocity = Vector2::ZERO;
                    self.kicks[usize::from(side == Side::Away)] += 1;
                    self.referee.touched(side, calls);
                    out.push(Happening {
                        t: now,
                        text: format!("{} {} kicks", side_name(side), player.number),
                    });
                } else {
                    // The visual kick walks up to the ball first.
                    let direction = (target - self.ball.position)
                        .normalized()
                        .unwrap_or(Vector2::new(1.0, 0.0));
                    let approach = self.ball.position - direction * 0.25;
                    player.body.walk_to(approach, direction.angle(), 0.5, TICK);
                }
            }
            Motion::Stand
            | Motion::Damping
            | Motion::Prepare
            | Motion::StandUp
            | Motion::Injected(_) => {
                player.body.brake(TICK);
            }
        }
    }

    fn collide(&mut self, out: &mut Vec<Happening>) {
        let now = self.now;
        let indices: Vec<usize> = (0..self.players.len())
            .filter(|i| self.players[*i].penalized_until.is_none())
            .collect();
        let mut bodies: Vec<&mut Body> = Vec::new();
        let mut owners = Vec::new();
        for (i, p) in self.players.iter_mut().enumerate() {
            if indices.contains(&i) {
                bodies.push(&mut p.body);
                owners.push(i);
            }
        }
        let hits = world::separate(&mut bodies, 0.6);
        drop(bodies);
        for (a, b) in hits {
            for k in [owners[a], owners[b]] {
                if self.rng.chance(0.15) {
                    let p = &mut self.players[k];
                    p.body.fall(now);
                    out.push(Happening {
                        t: now,
                        text: format!("{} {} falls", side_name(p.side), p.number),
                    });
                }
            }
        }
    }

    fn roll_ball(&mut self, calls: &mut Vec<Call>, out: &mut Vec<Happening>) {
        let _ = out;
        let now = self.now;
        if self.referee.phase != Phase::Playing {
            self.ball.velocity = Vector2::ZERO;
            return;
        }
        self.ball.roll(TICK);
        let field = &self.params.field;
        let (hl, hw) = (field.half_length(), field.half_width());
        let rolled_to = self.ball.position;
        for p in &self.players {
            if p.penalized_until.is_none() && world::bounce(&mut self.ball, &p.body) {
                self.referee.touched(p.side, calls);
            }
        }
        // A ball a robot merely pushes over a line stays in (dribbling along the line); only
        // a rolling ball leaves the field.
        if (rolled_to - self.ball.position).norm() > 0.0
            && rolled_to.x.abs() <= hl
            && rolled_to.y.abs() <= hw
        {
            self.ball.position = Point2::new(
                self.ball.position.x.clamp(-hl, hl),
                self.ball.position.y.clamp(-hw, hw),
            );
        }
        let b = self.ball.position;
        if b.x.abs() > hl && b.y.abs() < field.goal_inner_width / 2.0 {
            let scorer = if b.x > 0.0 { Side::Home } else { Side::Away };
            self.referee.goal(scorer, now, calls);
            self.ball = Ball::at(Point2::ORIGIN);
        } else if b.x.abs() > hl || b.y.abs() > hw {
            let spot = self.referee.ball_out(b, field, now, calls);
            self.ball = Ball::at(spot);
        }
    }
}

/// `home` / `away`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Home => "home",
        Side::Away => "away",
    }
}

/// The phase's name.
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Initial => "initial",
        Phase::Ready => "ready",
        Phase::Set => "set",
        Phase::Playing => "playing",
        Phase::Finished => "finished",
    }
}
