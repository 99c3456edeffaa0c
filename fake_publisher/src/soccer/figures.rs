//! Play figures of a match, the numbers a coach reads about team play (issue 32): how often
//! robots change role while playing, how often a team has exactly one striker or none, how
//! long a striker keeps the role, and how long a team takes to find a lost ball.
//!
//! The figures are computed from samples, one per robot of ours per tick: its role (`None`
//! while it is not playing) and whether it perceived the ball this tick. Definitions:
//!
//! * a robot plays in a tick when it reports a role; a **role change** is a playing robot
//!   taking another role than in its previous tick, where it also played (entering or leaving
//!   play is not a change); **role changes per robot-minute** = changes / (playing
//!   robot-ticks * tick / 60 s);
//! * a **team's playing tick** is a tick in which at least one robot of the team plays; the
//!   **one-striker share** (none-striker share) is the share of those with exactly one (no)
//!   striker among the team's robots;
//! * a **striker stint** is a run of consecutive ticks in which one robot is striker, ended by
//!   another role, by leaving play or by the end of the samples; the median is over all stints;
//! * a **lost ball**: while a team plays, a gap between two ticks in which some robot of the
//!   team perceived the ball that lasts longer than [`LOST_BALL_AFTER`]; the **time to find**
//!   it is the gap's length. A gap interrupted by a tick in which the team does not play is
//!   dropped (the referee moved the ball).

use super::Side;
use serde::Serialize;

/// A gap in a team's ball perception longer than this counts as a lost ball (s). It equals
/// the base `ball.last_ball_timeout`, but is fixed here so that parameters cannot move it.
pub const LOST_BALL_AFTER: f64 = 2.0;

/// One robot in one tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoleSample {
    /// Its team.
    pub side: Side,
    /// Its number.
    pub number: u8,
    /// Its role (`None`: not playing).
    pub role: Option<&'static str>,
    /// Whether it perceived the ball this tick.
    pub sees_ball: bool,
}

/// What is kept of one robot between ticks.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RobotTrack {
    side: Side,
    number: u8,
    role: Option<&'static str>,
    striker_ticks: u64,
    /// Whether the robot was sampled in the tick being taken.
    sampled: bool,
}

/// What is counted of one team.
#[derive(Debug, Clone, Default, PartialEq)]
struct TeamTally {
    playing_ticks: u64,
    one_striker_ticks: u64,
    no_striker_ticks: u64,
    /// The last playing time some robot of the team saw the ball, in the current stretch of
    /// play.
    last_seen: Option<f64>,
    lost_ball_times: Vec<f64>,
}

/// The accumulator: feed it every tick with [`PlayFigures::record_tick`].
#[derive(Debug, Clone, PartialEq)]
pub struct PlayFigures {
    tick: f64,
    robots: Vec<RobotTrack>,
    teams: [TeamTally; 2],
    playing_robot_ticks: [u64; 2],
    role_changes: [u64; 2],
    stints: [Vec<f64>; 2],
}

/// The figures of one team (or of both together).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TeamFigures {
    /// Role changes per robot-minute while playing.
    pub role_changes_per_robot_minute: f64,
    /// Role changes counted.
    pub role_changes: u64,
    /// Robot-minutes of play.
    pub playing_robot_minutes: f64,
    /// Share of the team's playing ticks with exactly one striker (0..=1).
    pub one_striker_share: f64,
    /// Share of the team's playing ticks with no striker (0..=1).
    pub no_striker_share: f64,
    /// The team's playing time (s).
    pub playing_seconds: f64,
    /// Median striker stint (s), `null` without one.
    pub median_striker_stint: Option<f64>,
    /// Striker stints counted.
    pub striker_stints: usize,
    /// Lost balls (gaps in perception longer than [`LOST_BALL_AFTER`]).
    pub lost_balls: usize,
    /// Mean time to find a lost ball (s), `null` without one.
    pub mean_time_to_find_ball: Option<f64>,
}

/// The figures of a match: per team and both teams together (the "team" shares there are
/// over both teams' playing ticks).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchFigures {
    /// The home team.
    pub home: TeamFigures,
    /// The away team.
    pub away: TeamFigures,
    /// Both teams' robots together.
    pub both: TeamFigures,
}

impl PlayFigures {
    /// An empty accumulator for ticks of `tick` seconds.
    pub fn new(tick: f64) -> Self {
        Self {
            tick,
            robots: Vec::new(),
            teams: Default::default(),
            playing_robot_ticks: [0; 2],
            role_changes: [0; 2],
            stints: Default::default(),
        }
    }

    /// Takes one tick at time `t`: every robot of ours once (robots not listed are taken as
    /// not playing).
    pub fn record_tick(&mut self, t: f64, samples: impl IntoIterator<Item = RoleSample>) {
        let mut strikers = [0u32; 2];
        let mut playing = [false; 2];
        let mut sees = [false; 2];
        for robot in &mut self.robots {
            robot.sampled = false;
        }
        for s in samples {
            let team = team_index(s.side);
            let index = match self
                .robots
                .iter()
                .position(|r| r.side == s.side && r.number == s.number)
            {
                Some(i) => i,
                None => {
                    self.robots.push(RobotTrack {
                        side: s.side,
                        number: s.number,
                        role: None,
                        striker_ticks: 0,
                        sampled: false,
                    });
                    self.robots.len() - 1
                }
            };
            let tick = self.tick;
            let robot = &mut self.robots[index];
            robot.sampled = true;
            if let (Some(before), Some(now)) = (robot.role, s.role)
                && before != now
            {
                self.role_changes[team] += 1;
            }
            if s.role.is_some() {
                self.playing_robot_ticks[team] += 1;
                playing[team] = true;
                sees[team] |= s.sees_ball;
            }
            if s.role == Some("striker") {
                strikers[team] += 1;
                robot.striker_ticks += 1;
            } else if robot.striker_ticks > 0 {
                self.stints[team].push(robot.striker_ticks as f64 * tick);
                robot.striker_ticks = 0;
            }
            robot.role = s.role;
        }
        // Robots missing from this tick do not play.
        for robot in self.robots.iter_mut().filter(|r| !r.sampled) {
            if robot.striker_ticks > 0 {
                self.stints[team_index(robot.side)].push(robot.striker_ticks as f64 * self.tick);
                robot.striker_ticks = 0;
            }
            robot.role = None;
        }
        for team in 0..2 {
            let tally = &mut self.teams[team];
            if !playing[team] {
                tally.last_seen = None;
                continue;
            }
            tally.playing_ticks += 1;
            tally.one_striker_ticks += u64::from(strikers[team] == 1);
            tally.no_striker_ticks += u64::from(strikers[team] == 0);
            if sees[team] {
                if let Some(last) = tally.last_seen
                    && t - last > LOST_BALL_AFTER + 1e-9
                {
                    tally.lost_ball_times.push(t - last);
                }
                tally.last_seen = Some(t);
            } else if tally.last_seen.is_none() {
                // Play started without the ball in sight: the gap counts from here.
                tally.last_seen = Some(t);
            }
        }
    }

    /// The figures so far (running striker stints count with their length so far).
    pub fn figures(&self) -> MatchFigures {
        let mut stints = self.stints.clone();
        for r in &self.robots {
            if r.striker_ticks > 0 {
                stints[team_index(r.side)].push(r.striker_ticks as f64 * self.tick);
            }
        }
        let team = |i: usize| {
            self.team_figures(
                &[i],
                stints[i].clone(),
                self.teams[i].lost_ball_times.clone(),
            )
        };
        let both_stints: Vec<f64> = stints.iter().flatten().copied().collect();
        let both_lost: Vec<f64> = self
            .teams
            .iter()
            .flat_map(|t| t.lost_ball_times.iter().copied())
            .collect();
        MatchFigures {
            home: team(0),
            away: team(1),
            both: self.team_figures(&[0, 1], both_stints, both_lost),
        }
    }

    fn team_figures(&self, teams: &[usize], stints: Vec<f64>, lost: Vec<f64>) -> TeamFigures {
        let sum = |f: &dyn Fn(usize) -> u64| teams.iter().map(|&i| f(i)).sum::<u64>();
        let robot_ticks = sum(&|i| self.playing_robot_ticks[i]);
        let changes = sum(&|i| self.role_changes[i]);
        let team_ticks = sum(&|i| self.teams[i].playing_ticks);
        let one = sum(&|i| self.teams[i].one_striker_ticks);
        let none = sum(&|i| self.teams[i].no_striker_ticks);
        let minutes = robot_ticks as f64 * self.tick / 60.0;
        let share = |n: u64| {
            if team_ticks == 0 {
                0.0
            } else {
                n as f64 / team_ticks as f64
            }
        };
        TeamFigures {
            role_changes_per_robot_minute: if minutes > 0.0 {
                changes as f64 / minutes
            } else {
                0.0
            },
            role_changes: changes,
            playing_robot_minutes: minutes,
            one_striker_share: share(one),
            no_striker_share: share(none),
            playing_seconds: team_ticks as f64 * self.tick,
            median_striker_stint: median(stints.clone()),
            striker_stints: stints.len(),
            lost_balls: lost.len(),
            mean_time_to_find_ball: (!lost.is_empty())
                .then(|| lost.iter().sum::<f64>() / lost.len() as f64),
        }
    }
}

impl TeamFigures {
    /// One line for the timeline: the figures a coach reads.
    pub fn summary(&self) -> String {
        let stint = self
            .median_striker_stint
            .map_or_else(|| "-".to_owned(), |s| format!("{s:.1} s"));
        let find = self
            .mean_time_to_find_ball
            .map_or_else(|| "-".to_owned(), |s| format!("{s:.1} s"));
        format!(
            "role changes {:.2} / robot-minute ({} in {:.1} robot-minutes); one striker {:.1}%, \
             none {:.1}% of {:.0} s playing; median striker stint {} ({} stints); lost ball \
             found in {} on average ({} times)",
            self.role_changes_per_robot_minute,
            self.role_changes,
            self.playing_robot_minutes,
            self.one_striker_share * 100.0,
            self.no_striker_share * 100.0,
            self.playing_seconds,
            stint,
            self.striker_stints,
            find,
            self.lost_balls
        )
    }
}

/// The median (the mean of the two middle values for an even count), `None` when empty.
fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

fn team_index(side: Side) -> usize {
    usize::from(side == Side::Away)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(side: Side, number: u8, role: Option<&'static str>, sees: bool) -> RoleSample {
        RoleSample {
            side,
            number,
            role,
            sees_ball: sees,
        }
    }

    /// Feeds `roles[k]` (home robots 2 and 3) at tick k; robot 2 sees the ball where `seen`.
    fn feed(figures: &mut PlayFigures, roles: &[[Option<&'static str>; 2]], seen: &[bool]) {
        for (k, pair) in roles.iter().enumerate() {
            let t = k as f64 * figures.tick;
            figures.record_tick(
                t,
                [
                    sample(Side::Home, 2, pair[0], seen[k]),
                    sample(Side::Home, 3, pair[1], false),
                ],
            );
        }
    }

    #[test]
    fn a_hand_built_sequence_gives_exact_figures() {
        const S: Option<&str> = Some("striker");
        const P: Option<&str> = Some("supporter");
        const Q: Option<&str> = Some("searcher");
        // One tick = 1 s, so the arithmetic is exact.
        let mut f = PlayFigures::new(1.0);
        let roles = [
            [None, None], // not playing: no team tick
            [S, P],       // one striker
            [S, P],       // one striker
            [S, S],       // two: change of robot 3 (supporter -> striker)
            [P, S],       // one; change of robot 2; robot 2's stint of 3 s ends
            [P, P],       // none; change of robot 3; its stint of 2 s ends
            [Q, Q],       // none; two changes
            [S, Q],       // one; change of robot 2
            [None, Q],    // none; robot 2 leaves play: no change, its stint of 1 s ends
        ];
        let seen = [false, true, false, false, false, false, true, true, false];
        feed(&mut f, &roles, &seen);
        let home = f.figures().home;
        assert_eq!(home.role_changes, 6);
        // 15 robot-ticks of play of 1 s = 0.25 robot-minutes.
        assert_eq!(home.playing_robot_minutes, 0.25);
        assert_eq!(home.role_changes_per_robot_minute, 24.0);
        assert_eq!(home.playing_seconds, 8.0);
        assert_eq!(home.one_striker_share, 4.0 / 8.0);
        assert_eq!(home.no_striker_share, 3.0 / 8.0);
        // Stints 3, 2, 1 s.
        assert_eq!(home.striker_stints, 3);
        assert_eq!(home.median_striker_stint, Some(2.0));
        // Seen at t = 1, then at t = 6: a gap of 5 s > 2 s; t = 6 -> 7 is no gap.
        assert_eq!(home.lost_balls, 1);
        assert_eq!(home.mean_time_to_find_ball, Some(5.0));
        let away = f.figures().away;
        assert_eq!(away.playing_seconds, 0.0);
        assert_eq!(away.median_striker_stint, None);
        assert_eq!(f.figures().both, home);
    }

    #[test]
    fn a_gap_across_a_stop_of_play_is_not_a_lost_ball() {
        const S: Option<&str> = Some("striker");
        let mut f = PlayFigures::new(1.0);
        let roles = [
            [S, None],
            [S, None],
            [None, None],
            [S, None],
            [S, None],
            [S, None],
            [S, None],
        ];
        let seen = [true, false, false, false, false, false, true];
        feed(&mut f, &roles, &seen);
        let home = f.figures().home;
        // Play restarts at t = 3 without the ball in sight: found at t = 6 after 3 s.
        assert_eq!(home.lost_balls, 1);
        assert_eq!(home.mean_time_to_find_ball, Some(3.0));
        // Two stints (2 s, ended by the stop; 4 s, still running): median 3 s.
        assert_eq!(home.median_striker_stint, Some(3.0));
        assert_eq!(home.role_changes, 0);
    }

    #[test]
    fn a_robot_left_out_of_a_tick_does_not_play_in_it() {
        let mut f = PlayFigures::new(0.5);
        f.record_tick(0.0, [sample(Side::Away, 4, Some("striker"), false)]);
        f.record_tick(0.5, []);
        f.record_tick(1.0, [sample(Side::Away, 4, Some("supporter"), false)]);
        let away = f.figures().away;
        assert_eq!(
            away.role_changes, 0,
            "leaving and entering play are no changes"
        );
        assert_eq!(away.median_striker_stint, Some(0.5));
        assert_eq!(away.playing_seconds, 1.0);
        assert_eq!(away.one_striker_share, 0.5);
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(vec![]), None);
    }
}
