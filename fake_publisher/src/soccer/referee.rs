//! The simulated game controller: initial, ready, set, playing and finished; kick-offs,
//! goals and halves; throw-ins, goal kicks and corner kicks when the ball leaves the field;
//! penalties; the penalty shootout; and each team's message budget.

use super::scenario::{SetPlay, Side};
use geometry::{Field, Point2};
use soccer_profile::frame::{GamePhase, GameState, PrimaryState, SubState, Team};
use soccer_profile::params::FieldDimensions;

/// Time in initial before ready (s).
pub const INITIAL_DURATION: f64 = 1.0;
/// Longest ready phase (s).
pub const READY_DURATION: f64 = 12.0;
/// Set phase (s).
pub const SET_DURATION: f64 = 2.0;
/// Finished between halves (s).
pub const HALF_TIME_DURATION: f64 = 3.0;
/// A set play ends after this long if the kicking team has not touched the ball (s).
pub const SET_PLAY_DURATION: f64 = 30.0;
/// One penalty shootout attempt lasts at most this long (s).
pub const SHOOTOUT_ATTEMPT_DURATION: f64 = 20.0;
/// Kicks per team in a shootout.
pub const SHOOTOUT_KICKS: u32 = 5;
/// A ball put on a line for a restart lies this far inside it (m), so it is in play.
pub const PLACEMENT_INSET: f64 = 0.1;
/// Each team's message budget for the game.
pub const MESSAGE_BUDGET: i64 = 1200;

/// The game state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Before a half or after a goal: waiting.
    Initial,
    /// Walking to the kick-off positions.
    Ready,
    /// Waiting for the kick-off whistle.
    Set,
    /// The game is on.
    Playing,
    /// Half time or the end.
    Finished,
}

/// What the referee announced this tick, for the timeline.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// The game entered this phase.
    Phase(Phase),
    /// A goal for a team.
    Goal(Side),
    /// A set play for a team.
    SetPlay(SubState, Side),
    /// The set play is over.
    SetPlayOver,
    /// The second half starts.
    SecondHalf,
    /// The match is over.
    MatchOver,
    /// A penalty shootout kick is taken by a team.
    ShootoutKick(Side, u32),
}

/// The penalty shootout's progress.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shootout {
    /// Who kicks now.
    pub kicking: Side,
    /// Kicks taken by each team (home, away).
    pub taken: [u32; 2],
    /// When the current attempt started.
    pub attempt_since: f64,
    /// Whether the current kick has been struck.
    pub struck: bool,
}

/// The referee's state.
#[derive(Debug, Clone)]
pub struct Referee {
    /// Current phase.
    pub phase: Phase,
    /// When it started.
    pub phase_since: f64,
    /// 1 or 2.
    pub half: u8,
    /// Who kicks off next (or kicked off).
    pub kickoff: Side,
    /// Playing time in this half (s).
    pub played: f64,
    /// Length of a half (s).
    pub half_duration: f64,
    /// The set play in progress, its team and start.
    pub set_play: Option<(SubState, Side, f64)>,
    /// Goals (home, away).
    pub score: [u32; 2],
    /// Messages left (home, away).
    pub messages: [i64; 2],
    /// The team that touched the ball last.
    pub last_touch: Option<Side>,
    /// The shootout, when one is on.
    pub shootout: Option<Shootout>,
    /// Whether the match is over.
    pub over: bool,
}

fn index(side: Side) -> usize {
    match side {
        Side::Home => 0,
        Side::Away => 1,
    }
}

impl Referee {
    /// A referee before the first kick-off.
    pub fn new(kickoff: Side, half_duration: f64) -> Self {
        Self {
            phase: Phase::Initial,
            phase_since: 0.0,
            half: 1,
            kickoff,
            played: 0.0,
            half_duration,
            set_play: None,
            score: [0, 0],
            messages: [MESSAGE_BUDGET; 2],
            last_touch: None,
            shootout: None,
            over: false,
        }
    }

    /// Goals of `side`.
    pub fn goals(&self, side: Side) -> u32 {
        self.score[index(side)]
    }

    /// Spends one of `side`'s messages.
    pub fn spend_message(&mut self, side: Side) {
        let m = &mut self.messages[index(side)];
        *m = (*m - 1).max(0);
    }

    fn enter(&mut self, phase: Phase, now: f64, calls: &mut Vec<Call>) {
        self.phase = phase;
        self.phase_since = now;
        calls.push(Call::Phase(phase));
    }

    /// Starts playing at once (scenario `start: playing`).
    pub fn start_playing(&mut self, now: f64, calls: &mut Vec<Call>) {
        self.enter(Phase::Playing, now, calls);
    }

    /// Starts a penalty shootout with `first` kicking.
    pub fn start_shootout(&mut self, first: Side, now: f64, calls: &mut Vec<Call>) {
        self.shootout = Some(Shootout {
            kicking: first,
            taken: [0, 0],
            attempt_since: now,
            struck: false,
        });
        self.enter(Phase::Set, now, calls);
    }

    /// Starts a set play for `team`.
    pub fn award(&mut self, play: SubState, team: Side, now: f64, calls: &mut Vec<Call>) {
        self.set_play = Some((play, team, now));
        calls.push(Call::SetPlay(play, team));
    }

    /// Maps a scenario set play.
    pub fn sub_state_of(play: SetPlay) -> SubState {
        match play {
            SetPlay::CornerKick => SubState::CornerKick,
            SetPlay::GoalKick => SubState::GoalKick,
            SetPlay::ThrowIn => SubState::ThrowIn,
            SetPlay::FreeKick => SubState::FreeKick,
        }
    }

    /// The team `side` touched the ball: ends its own set play, marks the last touch.
    pub fn touched(&mut self, side: Side, calls: &mut Vec<Call>) {
        self.last_touch = Some(side);
        if self.set_play.is_some_and(|(_, team, _)| team == side) {
            self.set_play = None;
            calls.push(Call::SetPlayOver);
        }
        if let Some(s) = self.shootout.as_mut()
            && s.kicking == side
        {
            s.struck = true;
        }
    }

    /// Advances time: phase timeouts, half time, set-play timeouts, shootout attempts.
    /// `all_ready` says every robot stands at its ready pose; `ball_still` the ball is at rest.
    pub fn tick(
        &mut self,
        now: f64,
        dt: f64,
        all_ready: bool,
        ball_still: bool,
        calls: &mut Vec<Call>,
    ) {
        let elapsed = now - self.phase_since;
        match self.phase {
            Phase::Initial if elapsed >= INITIAL_DURATION => self.enter(Phase::Ready, now, calls),
            Phase::Ready if elapsed >= READY_DURATION || (all_ready && elapsed >= 2.0) => {
                self.enter(Phase::Set, now, calls)
            }
            Phase::Set if elapsed >= SET_DURATION => {
                if let Some(s) = self.shootout.as_mut() {
                    s.attempt_since = now;
                    s.struck = false;
                }
                self.enter(Phase::Playing, now, calls)
            }
            Phase::Playing => {
                if let Some(s) = self.shootout {
                    let attempt = now - s.attempt_since;
                    let done = attempt >= SHOOTOUT_ATTEMPT_DURATION
                        || (s.struck && ball_still && attempt > 1.0);
                    if done {
                        self.next_shootout_kick(now, calls);
                    }
                    return;
                }
                self.played += dt;
                if let Some((_, _, since)) = self.set_play
                    && now - since >= SET_PLAY_DURATION
                {
                    self.set_play = None;
                    calls.push(Call::SetPlayOver);
                }
                if self.played >= self.half_duration {
                    self.set_play = None;
                    self.enter(Phase::Finished, now, calls);
                    if self.half == 2 {
                        self.over = true;
                        calls.push(Call::MatchOver);
                    }
                }
            }
            Phase::Finished if !self.over && elapsed >= HALF_TIME_DURATION => {
                self.half = 2;
                self.played = 0.0;
                self.kickoff = self.kickoff.other();
                calls.push(Call::SecondHalf);
                self.enter(Phase::Initial, now, calls);
            }
            _ => {}
        }
    }

    fn next_shootout_kick(&mut self, now: f64, calls: &mut Vec<Call>) {
        let Some(s) = self.shootout.as_mut() else {
            return;
        };
        s.taken[index(s.kicking)] += 1;
        let taken = s.taken;
        s.kicking = s.kicking.other();
        let next = s.kicking;
        if taken[0] >= SHOOTOUT_KICKS && taken[1] >= SHOOTOUT_KICKS {
            self.over = true;
            self.enter(Phase::Finished, now, calls);
            calls.push(Call::MatchOver);
            return;
        }
        calls.push(Call::ShootoutKick(next, taken[index(next)] + 1));
        self.enter(Phase::Set, now, calls);
    }

    /// A goal for `side`: kick-off for the other team (or the next shootout kick).
    pub fn goal(&mut self, side: Side, now: f64, calls: &mut Vec<Call>) {
        self.score[index(side)] += 1;
        calls.push(Call::Goal(side));
        self.set_play = None;
        if self.shootout.is_some() {
            self.next_shootout_kick(now, calls);
            return;
        }
        self.kickoff = side.other();
        self.enter(Phase::Ready, now, calls);
    }

    /// The ball left the field at `exit` (world frame): a throw-in, a goal kick or a corner
    /// kick; returns where the ball is put.
    pub fn ball_out(
        &mut self,
        exit: Point2<Field>,
        field: &FieldDimensions,
        now: f64,
        calls: &mut Vec<Call>,
    ) -> Point2<Field> {
        let (hl, hw) = (field.half_length(), field.half_width());
        let toucher = self.last_touch.unwrap_or(self.kickoff);
        if self.shootout.is_some() {
            self.next_shootout_kick(now, calls);
            return Point2::new(hl - field.penalty_marker_distance, 0.0);
        }
        if exit.y.abs() > hw && exit.x.abs() <= hl {
            let team = toucher.other();
            self.award(SubState::ThrowIn, team, now, calls);
            return Point2::new(
                exit.x.clamp(-hl + 0.5, hl - 0.5),
                (hw - PLACEMENT_INSET).copysign(exit.y),
            );
        }
        // Over a goal line: the defenders of that goal are home for -x, away for +x.
        let defender = if exit.x < 0.0 { Side::Home } else { Side::Away };
        let y_side = if exit.y >= 0.0 { 1.0 } else { -1.0 };
        if toucher == defender {
            self.award(SubState::CornerKick, defender.other(), now, calls);
            Point2::new(
                (hl - PLACEMENT_INSET).copysign(exit.x),
                (hw - PLACEMENT_INSET) * y_side,
            )
        } else {
            self.award(SubState::GoalKick, defender, now, calls);
            Point2::new(
                (hl - field.goal_box_area_length).copysign(exit.x),
                field.goal_box_area_width / 2.0 * y_side,
            )
        }
    }

    /// The primary state of a robot that is not penalized.
    pub fn primary_state(&self) -> PrimaryState {
        match self.phase {
            Phase::Initial => PrimaryState::Initial,
            Phase::Ready => PrimaryState::Ready,
            Phase::Set => PrimaryState::Set,
            Phase::Playing => PrimaryState::Playing,
            Phase::Finished => PrimaryState::Finished,
        }
    }

    /// The game-controller state as `side` receives it.
    pub fn game_state(&self, side: Side, now: f64, players: &[u8], penalized: &[u8]) -> GameState {
        let relative = |team: Side| {
            if team == side {
                Team::Own
            } else {
                Team::Opponent
            }
        };
        let (kicking_team, sub_state) = match (self.shootout, self.set_play) {
            (Some(s), _) => (Some(relative(s.kicking)), None),
            (None, Some((play, team, _))) => (Some(relative(team)), Some(play)),
            (None, None) => (Some(relative(self.kickoff)), None),
        };
        let _ = now;
        GameState {
            phase: if self.shootout.is_some() {
                GamePhase::PenaltyShootout
            } else {
                GamePhase::Normal
            },
            kicking_team,
            sub_state,
            first_half: self.half == 1,
            remaining_time_in_half: (self.half_duration - self.played).max(0.0),
            half_duration: self.half_duration,
            remaining_messages: self.messages[index(side)],
            sending_suspended: false,
            players: players.to_vec(),
            penalized: penalized.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_run_from_initial_to_playing_and_halves_end() {
        let mut r = Referee::new(Side::Home, 10.0);
        let mut calls = Vec::new();
        let mut t = 0.0;
        while r.phase != Phase::Playing && t < 30.0 {
            t += 0.02;
            r.tick(t, 0.02, true, true, &mut calls);
        }
        assert_eq!(r.phase, Phase::Playing);
        assert!(
            t < INITIAL_DURATION + 2.0 + SET_DURATION + 0.1,
            "all ready: short ready phase"
        );
        while r.half == 1 && t < 60.0 {
            t += 0.02;
            r.tick(t, 0.02, true, true, &mut calls);
        }
        assert!(calls.contains(&Call::SecondHalf));
        assert_eq!(
            r.kickoff,
            Side::Away,
            "the second half's kick-off goes to the other team"
        );
    }

    #[test]
    fn the_ball_out_gives_throw_in_goal_kick_or_corner() {
        let field = FieldDimensions::default();
        let mut r = Referee::new(Side::Home, 600.0);
        let mut calls = Vec::new();
        r.last_touch = Some(Side::Home);
        let p = r.ball_out(Point2::new(1.0, 3.2), &field, 0.0, &mut calls);
        assert_eq!(
            r.set_play.map(|s| (s.0, s.1)),
            Some((SubState::ThrowIn, Side::Away))
        );
        assert_eq!((p.x, p.y), (1.0, 2.9));
        // Home last touched, out over the away goal line: goal kick for away.
        let p = r.ball_out(Point2::new(4.7, -1.8), &field, 0.0, &mut calls);
        assert_eq!(
            r.set_play.map(|s| (s.0, s.1)),
            Some((SubState::GoalKick, Side::Away))
        );
        assert_eq!((p.x, p.y), (3.5, -1.5));
        // Home last touched, out over its own goal line: corner for away.
        let p = r.ball_out(Point2::new(-4.7, 2.0), &field, 0.0, &mut calls);
        assert_eq!(
            r.set_play.map(|s| (s.0, s.1)),
            Some((SubState::CornerKick, Side::Away))
        );
        assert_eq!((p.x, p.y), (-4.4, 2.9));
        // The kicking team's touch ends its set play.
        r.touched(Side::Away, &mut calls);
        assert!(r.set_play.is_none());
    }

    #[test]
    fn the_game_state_is_relative_to_the_receiving_team() {
        let mut r = Referee::new(Side::Home, 600.0);
        r.set_play = Some((SubState::CornerKick, Side::Away, 0.0));
        assert_eq!(
            r.game_state(Side::Home, 0.0, &[1], &[]).kicking_team,
            Some(Team::Opponent)
        );
        assert_eq!(
            r.game_state(Side::Away, 0.0, &[1], &[]).kicking_team,
            Some(Team::Own)
        );
    }
}
