//! What the soccer view draws, as plain data in the world frame (the home team's field frame:
//! home defends -x, y to the left, metres, radians). An adapter fills it: today
//! [`super::sim::SoccerSim`] from the in-process match; a bus or recording adapter can fill the
//! same struct, and the drawing code never sees where it came from.

use crate::model::FlatTree;
use decision_core::engine::Status;
use soccer_profile::params::FieldDimensions;
use std::collections::VecDeque;

/// How many timeline events the scene keeps.
pub const EVENT_CAPACITY: usize = 500;
/// How many team messages the scene keeps for the list panel.
pub const MESSAGE_CAPACITY: usize = 200;
/// Seconds a team message stays drawn on the field after it arrived.
pub const MESSAGE_FLASH_SECONDS: f64 = 1.0;

/// Seconds of role history the timeline's role strips show.
pub const ROLE_WINDOW_SECONDS: f64 = 60.0;

/// A stretch of time in which a robot kept one role: from the sample that started it to the
/// sample that ended it (or its last sample), so consecutive segments touch.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleSegment {
    /// When the role was first reported (s).
    pub start: f64,
    /// When another role replaced it, or the latest sample (s).
    pub end: f64,
    /// The role (`None`: not playing: another branch, fallen, penalized).
    pub role: Option<String>,
}

/// Per robot, the roles of the last [`ROLE_WINDOW_SECONDS`] as segments, for the role strips.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RoleHistory {
    robots: Vec<((TeamSide, u8), VecDeque<RoleSegment>)>,
}

impl RoleHistory {
    /// Takes robot `key`'s role at time `t` (one sample per tick or frame): the same role
    /// extends its last segment to `t`, another ends it at `t` and starts a new one there. A
    /// time before the robot's last sample (a seek back) starts its history again; segments
    /// that ended more than [`ROLE_WINDOW_SECONDS`] before `t` are dropped.
    pub fn record(&mut self, key: (TeamSide, u8), t: f64, role: Option<&str>) {
        let index = match self.robots.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.robots.push((key, VecDeque::new()));
                self.robots.len() - 1
            }
        };
        let segments = &mut self.robots[index].1;
        if segments.back().is_some_and(|s| t < s.end) {
            segments.clear();
        }
        match segments.back_mut() {
            Some(last) if last.role.as_deref() == role => last.end = t,
            Some(last) => {
                last.end = t;
                segments.push_back(RoleSegment {
                    start: t,
                    end: t,
                    role: role.map(str::to_owned),
                });
            }
            None => segments.push_back(RoleSegment {
                start: t,
                end: t,
                role: role.map(str::to_owned),
            }),
        }
        while segments
            .front()
            .is_some_and(|s| s.end < t - ROLE_WINDOW_SECONDS)
        {
            segments.pop_front();
        }
    }

    /// Robot `key`'s segments overlapping `[from, to]`, clipped to it, oldest first.
    pub fn segments(&self, key: (TeamSide, u8), from: f64, to: f64) -> Vec<RoleSegment> {
        let Some((_, segments)) = self.robots.iter().find(|(k, _)| *k == key) else {
            return Vec::new();
        };
        segments
            .iter()
            .filter(|s| s.end >= from && s.start <= to)
            .map(|s| RoleSegment {
                start: s.start.max(from),
                end: s.end.min(to),
                role: s.role.clone(),
            })
            .collect()
    }

    /// Robot `key`'s role changes in `(from, to]`: a playing role followed by another
    /// (entering or leaving play is no change, as in the play figures).
    pub fn changes(&self, key: (TeamSide, u8), from: f64, to: f64) -> usize {
        let Some((_, segments)) = self.robots.iter().find(|(k, _)| *k == key) else {
            return 0;
        };
        segments
            .iter()
            .zip(segments.iter().skip(1))
            .filter(|(a, b)| {
                b.start > from
                    && b.start <= to
                    && a.role.is_some()
                    && b.role.is_some()
                    && a.role != b.role
            })
            .count()
    }
}

/// A team of the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TeamSide {
    /// Defends the goal at -x.
    Home,
    /// Defends the goal at +x.
    Away,
}

impl TeamSide {
    /// `home` / `away`.
    pub fn name(self) -> &'static str {
        match self {
            TeamSide::Home => "home",
            TeamSide::Away => "away",
        }
    }

    /// 0 for home, 1 for away (index into per-team arrays).
    pub fn index(self) -> usize {
        usize::from(self == TeamSide::Away)
    }
}

/// One robot as drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotView {
    /// Its team.
    pub team: TeamSide,
    /// Its player number.
    pub number: u8,
    /// Position (m).
    pub x: f64,
    /// Position (m).
    pub y: f64,
    /// Body heading (rad).
    pub yaw: f64,
    /// Head yaw relative to the body (rad).
    pub head_yaw: f64,
    /// The role it reported (`striker`, ...), if any.
    pub role: Option<String>,
    /// The root branch of its last tick (`playing`, `ready`, `scripted`, ...).
    pub branch: String,
    /// The body motion's kind (`walk_to`, `kick`, ...).
    pub motion: String,
    /// Lying on the ground or getting up.
    pub fallen: bool,
    /// Penalized (off the field).
    pub penalized: bool,
    /// Its localization has no pose now: drawn faded at the last pose it had.
    pub pose_lost: bool,
    /// Whether it runs our behaviour (a decider), not a scripted opponent.
    pub decides: bool,
    /// Where its walk or kick goes (m).
    pub target: Option<[f64; 2]>,
    /// The planned path's next destination (m).
    pub path_next: Option<[f64; 2]>,
    /// The ball it believes in (m), if any.
    pub perceived_ball: Option<[f64; 2]>,
}

impl RobotView {
    /// `home 3` / `away 5`: how lists and labels name the robot.
    pub fn label(&self) -> String {
        format!("{} {}", self.team.name(), self.number)
    }

    /// The robot's key in [`SoccerScene::selected`].
    pub fn key(&self) -> (TeamSide, u8) {
        (self.team, self.number)
    }
}

/// The true ball in the world frame (known only in the simulation).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BallView {
    /// Position (m).
    pub x: f64,
    /// Position (m).
    pub y: f64,
    /// Velocity (m/s).
    pub vx: f64,
    /// Velocity (m/s).
    pub vy: f64,
}

/// A search heatmap in the world frame: `cells_x` cells along x from -length/2, `cells_y`
/// across from -width/2, values in [0, 1] row by row (`iy * cells_x + ix`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeatmapView {
    /// Cells along x.
    pub cells_x: usize,
    /// Cells along y.
    pub cells_y: usize,
    /// Values, row by row.
    pub values: Vec<f64>,
    /// The suggested search target (m).
    pub target: Option<[f64; 2]>,
}

impl HeatmapView {
    /// The value of cell `(ix, iy)` (0 outside the grid or for a short value list).
    pub fn value(&self, ix: usize, iy: usize) -> f64 {
        if ix >= self.cells_x || iy >= self.cells_y {
            return 0.0;
        }
        self.values
            .get(iy * self.cells_x + ix)
            .copied()
            .unwrap_or(0.0)
    }
}

/// One cell of a Voronoi partition: its centre and the player owning it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VoronoiCell {
    /// Centre (m).
    pub x: f64,
    /// Centre (m).
    pub y: f64,
    /// The owning player's number.
    pub player: u8,
}

/// The field players' partition as one robot computed it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VoronoiView {
    /// The team whose players the partition is of.
    pub team: Option<TeamSide>,
    /// Cell side (m).
    pub resolution: f64,
    /// Every grid cell that has an owner (blocked and unreachable cells are left out).
    pub cells: Vec<VoronoiCell>,
}

/// A team message as it arrived.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageView {
    /// Arrival time (s).
    pub t: f64,
    /// The sender's team.
    pub team: TeamSide,
    /// The sender's number.
    pub from: u8,
    /// The sender's pose in the message (m), if it had one.
    pub pose: Option<[f64; 2]>,
    /// The ball in the message (m), if any.
    pub ball: Option<[f64; 2]>,
}

/// What a timeline event is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// A robot changed role.
    Role,
    /// A robot kicked (`home 3 kicks`).
    Kick,
    /// A goal was scored (lines starting `GOAL`).
    Goal,
    /// The game controller (phases, set plays, halves).
    Game,
    /// Anything else (falls, penalties, ...).
    Other,
}

impl EventKind {
    /// The kind's short name in the timeline.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Role => "role",
            EventKind::Kick => "kick",
            EventKind::Goal => "goal",
            EventKind::Game => "game",
            EventKind::Other => "other",
        }
    }
}

/// One line of the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct EventView {
    /// Match time (s).
    pub t: f64,
    /// What it is about.
    pub kind: EventKind,
    /// In words.
    pub text: String,
}

/// What the selected robot knows and decided, for the tree and blackboard panels.
#[derive(Debug, Clone, Default)]
pub struct SelectedView {
    /// The robot's tree layout (preorder).
    pub tree: FlatTree,
    /// Each node's status in the last tick (by preorder id; empty when unknown).
    pub statuses: Vec<Option<Status>>,
    /// Why each failed leaf failed (by preorder id).
    pub why_not: Vec<Option<String>>,
    /// The world as the robot sees it, `(key, value)` rows.
    pub blackboard: Vec<(String, String)>,
    /// Its search heatmap, when it has a suggestor.
    pub heatmap: Option<HeatmapView>,
    /// Its Voronoi partition, when it computed one.
    pub voronoi: Option<VoronoiView>,
}

/// Everything the soccer view draws.
#[derive(Debug, Clone, Default)]
pub struct SoccerScene {
    /// Field dimensions (lines, areas, goals).
    pub field: FieldDimensions,
    /// Match time (s).
    pub time: f64,
    /// The game phase in words (`playing`, `ready`, ...).
    pub phase: String,
    /// Team names, home first.
    pub team_names: [String; 2],
    /// Goals, home first.
    pub score: [u32; 2],
    /// Whether the match is over.
    pub over: bool,
    /// The true ball (meaningful only when [`Self::ball_known`]).
    pub ball: BallView,
    /// Whether [`Self::ball`] is the true ball (the simulation); live and recorded scenes only
    /// know the balls the robots perceive.
    pub ball_known: bool,
    /// Every robot, home first.
    pub robots: Vec<RobotView>,
    /// The robot whose view is shown.
    pub selected: Option<(TeamSide, u8)>,
    /// The selected robot's tree, world, heatmap and partition.
    pub detail: Option<SelectedView>,
    /// Team messages, newest last.
    pub messages: VecDeque<MessageView>,
    /// The timeline, newest last.
    pub events: VecDeque<EventView>,
    /// Every robot's recent roles (the timeline's role strips).
    pub roles: RoleHistory,
}

impl SoccerScene {
    /// The selected robot, if it is on the scene.
    pub fn selected_robot(&self) -> Option<&RobotView> {
        let key = self.selected?;
        self.robots.iter().find(|r| r.key() == key)
    }

    /// Adds a timeline event, dropping the oldest past [`EVENT_CAPACITY`].
    pub fn push_event(&mut self, event: EventView) {
        if self.events.len() >= EVENT_CAPACITY {
            self.events.pop_front();
        }
        self.events.push_back(event);
    }

    /// Adds a team message, dropping the oldest past [`MESSAGE_CAPACITY`].
    pub fn push_message(&mut self, message: MessageView) {
        if self.messages.len() >= MESSAGE_CAPACITY {
            self.messages.pop_front();
        }
        self.messages.push_back(message);
    }

    /// Takes every robot's role at the scene's time into [`Self::roles`] (sources that fill
    /// the scene frame by frame; the simulation records every tick).
    pub fn record_roles(&mut self) {
        for r in &self.robots {
            self.roles.record(r.key(), self.time, r.role.as_deref());
        }
    }

    /// Messages that arrived within [`MESSAGE_FLASH_SECONDS`] of the scene's time.
    pub fn recent_messages(&self) -> impl Iterator<Item = &MessageView> {
        let now = self.time;
        self.messages
            .iter()
            .rev()
            .take_while(move |m| now - m.t <= MESSAGE_FLASH_SECONDS)
    }
}

/// Match time as `mm:ss` (negative and non-finite times show as `00:00`; a time a rounding
/// error short of a whole second counts as that second).
pub fn mmss(t: f64) -> String {
    let s = if t.is_finite() && t > 0.0 {
        (t + 1e-6).floor() as u64
    } else {
        0
    };
    format!("{:02}:{:02}", s / 60, s % 60)
}

/// The kind of a timeline line from the simulation's wording.
pub fn classify(text: &str) -> EventKind {
    if text.starts_with("GOAL") {
        EventKind::Goal
    } else if text.ends_with(" kicks") {
        EventKind::Kick
    } else if text.contains(" -> ") {
        EventKind::Role
    } else if text.starts_with("game ")
        || text.contains(" for ")
        || text.starts_with("set play")
        || text.starts_with("second half")
        || text.starts_with("match over")
    {
        EventKind::Game
    } else {
        EventKind::Other
    }
}

/// The penalized players as a reader writes them: `none`, or `2, 4`.
pub fn penalized_list(players: &[u8]) -> String {
    if players.is_empty() {
        return "none".into();
    }
    let numbers: Vec<String> = players.iter().map(u8::to_string).collect();
    numbers.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn penalized_players_read_as_numbers() {
        assert_eq!(penalized_list(&[]), "none");
        assert_eq!(penalized_list(&[2, 4]), "2, 4");
    }

    #[test]
    fn match_time_reads_as_minutes_and_seconds() {
        assert_eq!(mmss(0.0), "00:00");
        assert_eq!(mmss(59.99), "00:59");
        assert_eq!(mmss(27.999_999_99), "00:28");
        assert_eq!(mmss(61.0), "01:01");
        assert_eq!(mmss(605.5), "10:05");
        assert_eq!(mmss(-3.0), "00:00");
        assert_eq!(mmss(f64::NAN), "00:00");
    }

    #[test]
    fn the_simulations_lines_are_classified() {
        assert_eq!(classify("GOAL home (home 1 : 0 away)"), EventKind::Goal);
        assert_eq!(classify("home 3 kicks"), EventKind::Kick);
        assert_eq!(classify("home 3 supporter -> striker"), EventKind::Role);
        assert_eq!(classify("game playing"), EventKind::Game);
        assert_eq!(classify("CornerKick for away"), EventKind::Game);
        assert_eq!(classify("away 2 falls"), EventKind::Other);
        // "back from penalty" has no " for ".
        assert_eq!(classify("home 2 back from penalty"), EventKind::Other);
        assert_eq!(classify("home 2 penalized for 30 s"), EventKind::Game);
    }

    #[test]
    fn the_heatmap_reads_zero_outside_its_grid() {
        let h = HeatmapView {
            cells_x: 2,
            cells_y: 1,
            values: vec![0.25, 0.75],
            target: None,
        };
        assert_eq!(h.value(1, 0), 0.75);
        assert_eq!(h.value(2, 0), 0.0);
        assert_eq!(h.value(0, 1), 0.0);
    }

    #[test]
    fn role_segments_come_from_the_samples_exactly() {
        const H2: (TeamSide, u8) = (TeamSide::Home, 2);
        let mut h = RoleHistory::default();
        // Ticks of 0.5 s: searcher, searcher, supporter x3, not playing, striker x2.
        let roles = [
            Some("searcher"),
            Some("searcher"),
            Some("supporter"),
            Some("supporter"),
            Some("supporter"),
            None,
            Some("striker"),
            Some("striker"),
        ];
        for (k, role) in roles.iter().enumerate() {
            h.record(H2, k as f64 * 0.5, *role);
        }
        h.record((TeamSide::Away, 2), 3.5, Some("goalkeeper"));
        let seg = |start: f64, end: f64, role: Option<&str>| RoleSegment {
            start,
            end,
            role: role.map(str::to_owned),
        };
        assert_eq!(
            h.segments(H2, 0.0, 3.5),
            [
                seg(0.0, 1.0, Some("searcher")),
                seg(1.0, 2.5, Some("supporter")),
                seg(2.5, 3.0, None),
                seg(3.0, 3.5, Some("striker")),
            ]
        );
        // Clipped to a window; only searcher -> supporter is a change (not leaving or
        // entering play).
        assert_eq!(
            h.segments(H2, 2.0, 2.75),
            [seg(2.0, 2.5, Some("supporter")), seg(2.5, 2.75, None)]
        );
        assert_eq!(h.changes(H2, 0.0, 3.5), 1);
        assert_eq!(
            h.changes(H2, 1.0, 3.5),
            0,
            "the change at 1.0 is not after 1.0"
        );
        assert_eq!(
            h.segments((TeamSide::Away, 2), 0.0, 3.5),
            [seg(3.5, 3.5, Some("goalkeeper"))]
        );
        assert!(h.segments((TeamSide::Away, 3), 0.0, 3.5).is_empty());
        // 60 s later the old segments are gone; a seek back starts again.
        h.record(H2, 64.0, Some("striker"));
        assert_eq!(h.segments(H2, 0.0, 64.0), [seg(3.0, 64.0, Some("striker"))]);
        h.record(H2, 10.0, Some("supporter"));
        assert_eq!(
            h.segments(H2, 0.0, 64.0),
            [seg(10.0, 10.0, Some("supporter"))]
        );
    }

    #[test]
    fn recent_messages_are_the_last_second() {
        let mut scene = SoccerScene::default();
        for t in [0.0, 1.0, 1.5, 2.0] {
            scene.push_message(MessageView {
                t,
                team: TeamSide::Home,
                from: 2,
                pose: None,
                ball: None,
            });
        }
        scene.time = 2.2;
        let recent: Vec<f64> = scene.recent_messages().map(|m| m.t).collect();
        assert_eq!(recent, [2.0, 1.5]);
    }
}
