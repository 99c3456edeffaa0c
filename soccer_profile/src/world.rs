//! The world model the tree reads: one frame's inputs in typed, frame-checked form, plus what
//! is kept from frame to frame (the last local ball, teammates heard from, the striker
//! hysteresis).

use crate::frame::{Frame, GameState, PrimaryState, RemoteCommand, TeammateMessage};
use crate::params::Parameters;
use crate::velocity::VelocityEstimator;
use geometry::{Field, Point2, Pose2, Vector2};

/// Frame times are decimal numbers; their differences carry binary rounding (0.58 - 0.28 is
/// 0.29999999999999993). A duration compared with a time parameter counts as reached, and an
/// age as within its timeout, within this tolerance.
pub const TIME_TOLERANCE: f64 = 1e-9;

/// Whether `elapsed` has reached `duration` (within [`TIME_TOLERANCE`]).
pub fn has_reached(elapsed: f64, duration: f64) -> bool {
    elapsed >= duration - TIME_TOLERANCE
}

/// Whether `age` is still within `timeout` (within [`TIME_TOLERANCE`]).
pub fn is_within(age: f64, timeout: f64) -> bool {
    age <= timeout + TIME_TOLERANCE
}

/// Where a ball position comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BallSource {
    /// This robot's own perception.
    Local,
    /// A teammate's State message.
    Team,
}

/// A ball position with its source and observation time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BallState {
    /// Field position.
    pub position: Point2<Field>,
    /// Field velocity (zero for team balls).
    pub velocity: Vector2<Field>,
    /// Who saw it.
    pub source: BallSource,
    /// When it was observed (s).
    pub observed_at: f64,
}

impl BallState {
    /// Seconds since the observation.
    pub fn age(&self, now: f64) -> f64 {
        now - self.observed_at
    }
}

/// An obstacle circle on the field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obstacle {
    /// Centre.
    pub center: Point2<Field>,
    /// Radius (m).
    pub radius: f64,
}

/// What the team knows of one teammate: its last valid State message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Teammate {
    /// The teammate's number.
    pub player: u8,
    /// Frame time the message arrived (s).
    pub heard_at: f64,
    /// Its pose, if it was localized.
    pub pose: Option<Pose2<Field>>,
    /// Its head yaw relative to its body.
    pub head_yaw: f64,
    /// Its ball with the observation time, if it had one.
    pub ball: Option<(Point2<Field>, f64)>,
    /// Its striker claim, if its message carried one (`ball.closest_to_ball.striker_claim`).
    pub striker: Option<bool>,
}

/// Teammates by number (index = player number), cleared on penalty and after
/// `team.maximum_player_state_age` without a message.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Teammates {
    slots: [Option<Teammate>; 8],
}

impl Teammates {
    /// Takes the frame's messages: invalid ones (non-finite values) and those of penalized
    /// players are dropped; then penalized and expired entries are removed.
    pub fn update(&mut self, frame: &Frame, own_number: u8, max_age: f64) {
        let penalized: &[u8] = frame.game.as_ref().map_or(&[], |g| &g.penalized);
        for message in &frame.teammate_messages {
            if message.player == own_number || penalized.contains(&message.player) {
                continue;
            }
            if let Some(mate) = Self::valid(message, frame.t) {
                self.slots[usize::from(message.player) & 7] = Some(mate);
            }
        }
        for slot in &mut self.slots {
            let drop = slot.as_ref().is_some_and(|m| {
                penalized.contains(&m.player) || !is_within(frame.t - m.heard_at, max_age)
            });
            if drop {
                *slot = None;
            }
        }
    }

    /// A message as a teammate entry, or `None` when a value is not finite.
    pub fn valid(message: &TeammateMessage, now: f64) -> Option<Teammate> {
        let pose = match message.pose {
            Some(p) => {
                let pose = Pose2::new(p.x, p.y, p.yaw);
                pose.is_finite().then_some(pose)?;
                Some(pose)
            }
            None => None,
        };
        if !message.head_yaw.is_finite() || !message.ball_age.is_finite() {
            return None;
        }
        let ball = match message.ball {
            Some(b) => {
                let p = Point2::new(b.x, b.y);
                p.is_finite().then_some(())?;
                Some((p, now - message.ball_age))
            }
            None => None,
        };
        Some(Teammate {
            player: message.player,
            heard_at: now,
            pose,
            head_yaw: message.head_yaw,
            ball,
            striker: message.striker,
        })
    }

    /// Puts `mate` in its player's slot unless a teammate of that number is known already.
    pub fn insert_if_absent(&mut self, mate: Teammate) {
        let slot = &mut self.slots[usize::from(mate.player) & 7];
        if slot.is_none() {
            *slot = Some(mate);
        }
    }

    /// Every teammate currently known.
    pub fn iter(&self) -> impl Iterator<Item = &Teammate> {
        self.slots.iter().flatten()
    }

    /// Whether no teammate is known.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// The world as the tree sees it in one frame.
#[derive(Debug, Clone)]
pub struct World {
    /// Frame time (s).
    pub now: f64,
    /// Own number.
    pub player_number: u8,
    /// The last frame's primary state (`initial` before the first frame).
    pub primary_state: PrimaryState,
    /// Whether the current motion may be left.
    pub motion_switch_allowed: bool,
    /// Lying on the ground.
    pub fallen: bool,
    /// Fall recovery is available.
    pub stand_up_available: bool,
    /// The operator's command.
    pub remote_control: Option<RemoteCommand>,
    /// The game controller's state.
    pub game: Option<GameState>,
    /// Own field pose.
    pub pose: Option<Pose2<Field>>,
    /// Current head yaw relative to the body.
    pub head_yaw: f64,
    /// The ball perceived this frame.
    pub current_ball: Option<BallState>,
    /// The retained ball the tree uses (this frame's, the last local, or a teammate's).
    pub ball: Option<BallState>,
    /// The last local ball ever seen.
    pub last_local_ball: Option<BallState>,
    /// A ball position from the rules (never retained).
    pub rule_ball: Option<Point2<Field>>,
    /// Obstacles.
    pub obstacles: Vec<Obstacle>,
    /// Teammates heard from within `team.maximum_player_state_age`.
    pub teammates: Teammates,
    /// The search suggestor's target.
    pub search_target: Option<Point2<Field>>,
    /// The suggestor's cell sides.
    pub search_cell_size: Option<[f64; 2]>,
    /// `hsl_state_message_send_interval` of this frame.
    pub message_interval: Option<f64>,
    /// Whether this robot owns the ball's Voronoi cell (raw, before hysteresis).
    pub owns_ball_cell: bool,
    /// The striker hysteresis' answer.
    pub is_striker: bool,
    /// Velocity estimate over the last [`VELOCITY_WINDOW`](crate::velocity::VELOCITY_WINDOW) seconds of poses (field frame, m/s).
    pub velocity: Vector2<Field>,
    /// The poses behind `velocity`.
    pub velocity_estimator: VelocityEstimator,
}

impl Default for World {
    fn default() -> Self {
        Self {
            now: 0.0,
            player_number: 1,
            primary_state: PrimaryState::Initial,
            motion_switch_allowed: true,
            fallen: false,
            stand_up_available: false,
            remote_control: None,
            game: None,
            pose: None,
            head_yaw: 0.0,
            current_ball: None,
            ball: None,
            last_local_ball: None,
            rule_ball: None,
            obstacles: Vec::new(),
            teammates: Teammates::default(),
            search_target: None,
            search_cell_size: None,
            message_interval: None,
            owns_ball_cell: false,
            is_striker: false,
            velocity: Vector2::ZERO,
            velocity_estimator: VelocityEstimator::default(),
        }
    }
}

impl World {
    /// Takes a frame: copies its state, keeps the last local ball, updates teammates and
    /// chooses the retained ball. (The Voronoi answer and hysteresis are set by the decider.)
    pub fn update(&mut self, frame: &Frame, params: &Parameters) {
        let behavior = &params.behavior_node;
        let kickoff_start = behavior.team.formation_at_kickoff
            && self.primary_state == PrimaryState::Set
            && frame.primary_state == PrimaryState::Playing;
        let kicking_team = self.game.as_ref().and_then(|g| g.kicking_team);
        self.now = frame.t;
        self.player_number = frame.player_number;
        self.primary_state = frame.primary_state;
        self.motion_switch_allowed = frame.motion_switch_allowed;
        self.fallen = frame.fallen;
        self.stand_up_available = frame.stand_up_available;
        self.remote_control = frame.remote_control;
        copy_game(&mut self.game, frame.game.as_ref());
        self.pose = frame.pose.map(|p| Pose2::new(p.x, p.y, p.yaw));
        self.velocity = self
            .velocity_estimator
            .update(frame.t, self.pose.map(|p| p.position));
        self.head_yaw = frame.head_yaw;
        self.current_ball = frame.ball.map(|b| BallState {
            position: Point2::new(b.x, b.y),
            velocity: Vector2::new(b.vx, b.vy),
            source: BallSource::Local,
            observed_at: frame.t,
        });
        if self.current_ball.is_some() {
            self.last_local_ball = self.current_ball;
        }
        self.rule_ball = frame.rule_ball.map(|b| Point2::new(b.x, b.y));
        self.obstacles.clear();
        self.obstacles
            .extend(frame.obstacles.iter().map(|o| Obstacle {
                center: Point2::new(o.x, o.y),
                radius: o.radius,
            }));
        self.teammates.update(
            frame,
            frame.player_number,
            behavior.team.maximum_player_state_age,
        );
        if kickoff_start {
            self.place_unheard_teammates(kicking_team, params);
        }
        self.search_target = frame.search_target.map(|[x, y]| Point2::new(x, y));
        self.search_cell_size = frame.search_cell_size;
        self.ball = self.retained_ball(params);
        self.message_interval = message_interval(self.game.as_ref(), self.primary_state, params);
    }

    /// `team.formation_at_kickoff`: every active teammate not heard yet counts as heard now
    /// at its kick-off pose of the formation for `kicking_team` (the set state's), without a
    /// ball or a claim.
    fn place_unheard_teammates(
        &mut self,
        kicking_team: Option<crate::frame::Team>,
        params: &Parameters,
    ) {
        if self.game.is_none() {
            return;
        }
        let active = self.active_players();
        for player in active.descending() {
            if player == self.player_number {
                continue;
            }
            let pose = crate::formation::kickoff_pose(player, active, kicking_team, params);
            self.teammates.insert_if_absent(Teammate {
                player,
                heard_at: self.now,
                pose,
                head_yaw: 0.0,
                ball: None,
                striker: None,
            });
        }
    }

    /// The ball the tree uses: this frame's, else the last local one within
    /// `ball.last_ball_timeout`, else the newest teammate ball within `ball.team_ball_timeout`.
    fn retained_ball(&self, params: &Parameters) -> Option<BallState> {
        let ball = &params.behavior_node.ball;
        if self.current_ball.is_some() {
            return self.current_ball;
        }
        if let Some(last) = self.last_local_ball
            && is_within(last.age(self.now), ball.last_ball_timeout)
        {
            return Some(last);
        }
        self.teammates
            .iter()
            .filter_map(|m| m.ball)
            .filter(|(_, seen)| is_within(self.now - seen, ball.team_ball_timeout))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(position, observed_at)| BallState {
                position,
                velocity: Vector2::ZERO,
                source: BallSource::Team,
                observed_at,
            })
    }

    /// The local ball for a State message: this frame's, or the last one within
    /// `ball.last_ball_timeout`.
    pub fn local_ball_for_message(&self, params: &Parameters) -> Option<BallState> {
        self.current_ball.or_else(|| {
            self.last_local_ball
                .filter(|b| is_within(b.age(self.now), params.behavior_node.ball.last_ball_timeout))
        })
    }

    /// Own players in the match and not penalized (the sender included); without a game
    /// state, this robot alone.
    pub fn active_players(&self) -> ActivePlayers {
        let mut out = ActivePlayers::default();
        match &self.game {
            Some(game) => {
                for &p in &game.players {
                    if !game.penalized.contains(&p) {
                        out.insert(p);
                    }
                }
            }
            None => out.insert(self.player_number),
        }
        out
    }

    /// Whether no other field player plays: every other unpenalized player is the goalkeeper
    /// `keeper` (false without game-controller data, which says nothing of the others).
    pub fn is_only_active_field_player(&self, keeper: u8) -> bool {
        self.game.as_ref().is_some_and(|game| {
            !game
                .players
                .iter()
                .any(|p| *p != self.player_number && *p != keeper && !game.penalized.contains(p))
        })
    }

    /// Whether this robot is the only one playing: no teammate heard within the maximum age,
    /// or every other player penalized.
    pub fn is_last_active_robot(&self) -> bool {
        let others_unpenalized = match &self.game {
            Some(game) => game
                .players
                .iter()
                .any(|p| *p != self.player_number && !game.penalized.contains(p)),
            None => false,
        };
        self.teammates.is_empty() || !others_unpenalized
    }
}

/// Copies `source` into `target`, reusing the player lists' buffers (no allocation once they
/// have grown).
fn copy_game(target: &mut Option<GameState>, source: Option<&GameState>) {
    match (target.as_mut(), source) {
        (Some(t), Some(s)) => {
            t.phase = s.phase;
            t.kicking_team = s.kicking_team;
            t.sub_state = s.sub_state;
            t.first_half = s.first_half;
            t.remaining_time_in_half = s.remaining_time_in_half;
            t.half_duration = s.half_duration;
            t.remaining_messages = s.remaining_messages;
            t.sending_suspended = s.sending_suspended;
            t.players.clear();
            t.players.extend_from_slice(&s.players);
            t.penalized.clear();
            t.penalized.extend_from_slice(&s.penalized);
        }
        (None, Some(s)) => *target = Some(s.clone()),
        (_, None) => *target = None,
    }
}

/// A small set of player numbers (1..=7), iterated in descending order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ActivePlayers(u8);

impl ActivePlayers {
    /// Adds a number (1..=7).
    pub fn insert(&mut self, player: u8) {
        if (1..=7).contains(&player) {
            self.0 |= 1 << player;
        }
    }

    /// Removes a number.
    pub fn remove(&mut self, player: u8) {
        if (1..=7).contains(&player) {
            self.0 &= !(1 << player);
        }
    }

    /// Whether `player` is in the set.
    pub fn contains(&self, player: u8) -> bool {
        (1..=7).contains(&player) && self.0 & (1 << player) != 0
    }

    /// Numbers from highest to lowest.
    pub fn descending(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=7u8).rev().filter(|p| self.contains(*p))
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

/// `hsl_state_message_send_interval`: with a game state, playing and sending not suspended,
/// `time_left * unpenalized / usable` while messages above the reserve remain, else `None`.
pub fn message_interval(
    game: Option<&GameState>,
    primary: PrimaryState,
    params: &Parameters,
) -> Option<f64> {
    let game = game?;
    if primary != PrimaryState::Playing || game.sending_suspended {
        return None;
    }
    let reserve = params
        .behavior_node
        .team
        .remaining_amount_of_messages_to_stop_sending;
    let usable = game.remaining_messages - reserve;
    if usable <= 0 {
        return None;
    }
    let unpenalized = game
        .players
        .iter()
        .filter(|p| !game.penalized.contains(p))
        .count();
    let time_left = game.remaining_time_in_half
        + if game.first_half {
            game.half_duration
        } else {
            0.0
        };
    let interval = time_left.max(0.0) * unpenalized as f64 / usable as f64;
    interval.is_finite().then_some(interval)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{BallJson, PointJson, PoseJson};

    fn frame(t: f64) -> Frame {
        Frame {
            t,
            ..Frame::default()
        }
    }

    #[test]
    fn the_budget_formula_gives_the_interval() {
        let params = Parameters::default();
        let game = GameState {
            remaining_time_in_half: 300.0,
            half_duration: 600.0,
            first_half: true,
            remaining_messages: 920,
            players: vec![1, 2, 3, 4, 5],
            penalized: vec![4],
            ..GameState::default()
        };
        // (300 + 600) s * 4 players / (920 - 20) messages = 4 s
        assert_eq!(
            message_interval(Some(&game), PrimaryState::Playing, &params),
            Some(4.0)
        );
        let second = GameState {
            first_half: false,
            ..game.clone()
        };
        assert_eq!(
            message_interval(Some(&second), PrimaryState::Playing, &params),
            Some(300.0 * 4.0 / 900.0)
        );
        let exhausted = GameState {
            remaining_messages: 20,
            ..game.clone()
        };
        assert_eq!(
            message_interval(Some(&exhausted), PrimaryState::Playing, &params),
            None
        );
        let suspended = GameState {
            sending_suspended: true,
            ..game.clone()
        };
        assert_eq!(
            message_interval(Some(&suspended), PrimaryState::Playing, &params),
            None
        );
        assert_eq!(
            message_interval(Some(&game), PrimaryState::Ready, &params),
            None
        );
        assert_eq!(message_interval(None, PrimaryState::Playing, &params), None);
    }

    #[test]
    fn the_ball_is_retained_local_first_then_team_then_dropped() {
        let params = Parameters::default();
        let mut world = World::default();
        let mut f = frame(0.0);
        f.ball = Some(BallJson {
            x: 1.0,
            y: 0.0,
            vx: 0.0,
            vy: 0.0,
        });
        world.update(&f, &params);
        assert_eq!(world.ball.map(|b| b.source), Some(BallSource::Local));
        // The local ball is kept for last_ball_timeout (2 s) ...
        world.update(&frame(2.0), &params);
        assert_eq!(world.ball.map(|b| b.age(2.0)), Some(2.0));
        // ... then a teammate's ball within team_ball_timeout takes over.
        let mut f = frame(2.5);
        f.teammate_messages.push(TeammateMessage {
            player: 2,
            pose: Some(PoseJson {
                x: 0.0,
                y: 0.0,
                yaw: 0.0,
            }),
            head_yaw: 0.0,
            ball: Some(PointJson { x: -1.0, y: 1.0 }),
            ball_age: 0.5,
            striker: None,
        });
        world.update(&f, &params);
        let b = world.ball.expect("team ball");
        assert_eq!((b.source, b.observed_at), (BallSource::Team, 2.0));
        world.update(&frame(3.01), &params);
        assert!(world.ball.is_none(), "team ball older than 1 s");
    }

    #[test]
    fn ages_and_durations_in_decimal_times_meet_their_limits_exactly() {
        // 2.7 - 0.7 is 2.0000000000000004 and 0.58 - 0.28 is 0.29999999999999993.
        assert!(is_within(2.7 - 0.7, 2.0));
        assert!(!is_within(2.71 - 0.7, 2.0));
        assert!(has_reached(0.58 - 0.28, 0.3));
        assert!(!has_reached(0.56 - 0.28, 0.3));
        let params = Parameters::default();
        let mut world = World::default();
        let mut f = frame(0.7);
        f.ball = Some(BallJson {
            x: 1.0,
            y: 0.0,
            vx: 0.0,
            vy: 0.0,
        });
        world.update(&f, &params);
        world.update(&frame(2.7), &params);
        assert!(world.ball.is_some(), "age 2.0 = last_ball_timeout");
        assert!(world.local_ball_for_message(&params).is_some());
        world.update(&frame(2.71), &params);
        assert!(world.ball.is_none());
    }

    #[test]
    fn invalid_and_penalized_teammates_are_dropped_and_entries_expire() {
        let mut mates = Teammates::default();
        let mut f = frame(1.0);
        let good = TeammateMessage {
            player: 2,
            pose: Some(PoseJson {
                x: 1.0,
                y: 1.0,
                yaw: 0.0,
            }),
            head_yaw: 0.0,
            ball: None,
            ball_age: 0.0,
            striker: None,
        };
        f.teammate_messages = vec![
            good,
            TeammateMessage {
                player: 3,
                head_yaw: f64::NAN,
                ..good
            },
            TeammateMessage {
                player: 4,
                pose: Some(PoseJson {
                    x: f64::INFINITY,
                    y: 0.0,
                    yaw: 0.0,
                }),
                ..good
            },
            TeammateMessage {
                player: 5,
                ball: Some(PointJson {
                    x: 0.0,
                    y: f64::NAN,
                }),
                ..good
            },
            TeammateMessage {
                player: 6,
                ball_age: f64::INFINITY,
                ..good
            },
        ];
        mates.update(&f, 1, 1.0);
        assert_eq!(mates.iter().map(|m| m.player).collect::<Vec<_>>(), [2]);
        // Still fresh at exactly the maximum age, gone after it.
        mates.update(&frame(2.0), 1, 1.0);
        assert!(!mates.is_empty());
        mates.update(&frame(2.01), 1, 1.0);
        assert!(mates.is_empty());
        // A penalized player's entry is removed at once.
        let mut f = frame(3.0);
        f.teammate_messages = vec![good];
        mates.update(&f, 1, 1.0);
        let mut f = frame(3.1);
        if let Some(g) = f.game.as_mut() {
            g.penalized = vec![2];
        }
        mates.update(&f, 1, 1.0);
        assert!(mates.is_empty());
    }

    #[test]
    fn last_active_robot_means_nobody_heard_or_everyone_else_penalized() {
        let params = Parameters::default();
        let mut world = World::default();
        world.update(&frame(0.0), &params);
        assert!(world.is_last_active_robot(), "no teammate heard");
        let mut f = frame(0.1);
        f.teammate_messages.push(TeammateMessage {
            player: 2,
            pose: None,
            head_yaw: 0.0,
            ball: None,
            ball_age: 0.0,
            striker: None,
        });
        world.update(&f, &params);
        assert!(!world.is_last_active_robot());
        let mut f = frame(0.2);
        if let Some(g) = f.game.as_mut() {
            g.penalized = vec![2, 3, 4, 5];
        }
        world.update(&f, &params);
        assert!(world.is_last_active_robot());
    }

    /// Robot 4's frame at `t` in `state`, players 1..=5, own kick-off; `heard`: teammate 2's
    /// message at (0.5, 0.5).
    fn kickoff_frame(t: f64, state: &str, heard: bool) -> Frame {
        let message = if heard {
            r#"{"player": 2, "pose": {"x": 0.5, "y": 0.5, "yaw": 0}, "ball": null, "ball_age": 0}"#
        } else {
            ""
        };
        match Frame::parse(&format!(
            r#"{{"t": {t}, "player_number": 4, "primary_state": "{state}",
                "game": {{"kicking_team": "own", "players": [1, 2, 3, 4, 5], "penalized": [3]}},
                "pose": {{"x": -1, "y": 0, "yaw": 0}}, "teammate_messages": [{message}]}}"#
        )) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        }
    }

    fn known(world: &World) -> Vec<(u8, f64, Option<Pose2<Field>>)> {
        world
            .teammates
            .iter()
            .map(|m| (m.player, m.heard_at, m.pose))
            .collect()
    }

    #[test]
    fn play_starts_from_the_formation_with_formation_at_kickoff() {
        let mut params = Parameters::default();
        params.behavior_node.team.formation_at_kickoff = true;
        let mut world = World::default();
        world.update(&kickoff_frame(0.0, "set", false), &params);
        assert!(world.teammates.is_empty());
        world.update(&kickoff_frame(0.02, "playing", true), &params);
        // Active: 1, 2, 4, 5 (3 is penalized). 2 was heard; 1 and 5 stand at their
        // kick-off poses of the own kick-off formation (5 is the striker, the highest number).
        let mut active = ActivePlayers::default();
        for p in [1, 2, 4, 5] {
            active.insert(p);
        }
        let pose =
            |p| crate::formation::kickoff_pose(p, active, Some(crate::frame::Team::Own), &params);
        let striker = pose(5).map(|p| (p.position.x, p.position.y));
        assert!(striker.is_some_and(|(x, y)| (x + 0.585).abs() < 1e-12 && y == 0.0));
        assert_eq!(
            known(&world),
            [
                (1, 0.02, pose(1)),
                (2, 0.02, Some(Pose2::new(0.5, 0.5, 0.0))),
                (5, 0.02, pose(5)),
            ]
        );
        assert!(!world.is_last_active_robot());
        // The placed entries expire as a message would (team.maximum_player_state_age 1 s).
        world.update(&kickoff_frame(1.03, "playing", false), &params);
        assert!(world.teammates.is_empty());
    }

    #[test]
    fn without_formation_at_kickoff_or_from_another_state_nobody_is_placed() {
        let mut world = World::default();
        let params = Parameters::default();
        world.update(&kickoff_frame(0.0, "set", false), &params);
        world.update(&kickoff_frame(0.02, "playing", false), &params);
        assert!(world.teammates.is_empty(), "the default rule");
        assert!(world.is_last_active_robot());
        let mut params = Parameters::default();
        params.behavior_node.team.formation_at_kickoff = true;
        let mut world = World::default();
        world.update(&kickoff_frame(0.0, "penalized", false), &params);
        world.update(&kickoff_frame(0.02, "playing", false), &params);
        assert!(
            world.teammates.is_empty(),
            "back from a penalty, not a kick-off"
        );
    }
}
