//! The message adapter shared by the live bus and recordings: [`SoccerFeed`] takes what soccer
//! robots publish (`behavior/trace`, `behavior/blackboard`, `behavior/tree_layout`, the team's
//! State messages, the selected robot's heatmap and search target), keyed as on the bus
//! (`home/player_3/behavior/trace`, `home/team/state_message`) or as `soccer run --record`
//! writes them (`player_3/behavior/trace`), and fills a [`SoccerScene`]. Frames are in each
//! robot's own team frame; the away team's are turned by pi into the world (home) frame. There
//! is no true ball here: only the balls the robots perceive.

use super::blackboard::blackboard_rows;
use super::scene::{
    EventKind, EventView, HeatmapView, MessageView, RobotView, SelectedView, SoccerScene, TeamSide,
};
use crate::model::FlatTree;
use bus::soccer::{
    BLACKBOARD, HEATMAP, HeatmapMsg, SUGGESTED_SEARCH_POSITION, SearchPositionMsg, TEAM_STATE,
    TRACE, TREE_LAYOUT, TeamStateMsg, split_robot_topic,
};
use decision_core::engine::{Status, TreeSpec};
use decision_node::soccer::trace::{BlackboardRecord, SoccerTraceRecord};
use soccer_profile::frame::{Frame, PoseJson};
use soccer_profile::params::FieldDimensions;
use std::collections::{BTreeMap, VecDeque};

/// Times past this (one year in seconds) are wall-clock stamps: the feed's clock then starts
/// at the first message instead of showing seconds since 1970.
const EPOCH_THRESHOLD: f64 = 365.0 * 86_400.0;

/// What a key is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParsedKey<'a> {
    /// The team prefix (`home`), if the key has one.
    pub team: Option<&'a str>,
    /// The robot of a per-robot key; `None` for the team key.
    pub player: Option<u8>,
    /// The topic without team and robot (`behavior/trace`, `team/state_message`).
    pub topic: &'a str,
}

/// Splits `home/player_3/behavior/trace`, `player_3/ball_state` or `home/team/state_message`.
pub fn parse_key(key: &str) -> Option<ParsedKey<'_>> {
    let key = key.strip_prefix('/').unwrap_or(key);
    fn bare(rest: &str) -> Option<(Option<u8>, &str)> {
        if rest == TEAM_STATE {
            return Some((None, TEAM_STATE));
        }
        split_robot_topic(rest).map(|(n, t)| (Some(n), t))
    }
    if let Some((player, topic)) = bare(key) {
        return Some(ParsedKey {
            team: None,
            player,
            topic,
        });
    }
    let (team, rest) = key.split_once('/')?;
    let (player, topic) = bare(rest)?;
    Some(ParsedKey {
        team: Some(team),
        player,
        topic,
    })
}

/// Counters of what the feed took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeedCounts {
    /// Messages taken.
    pub received: u64,
    /// Messages that did not decode (skipped).
    pub bad: u64,
    /// Messages on keys or topics the view does not draw.
    pub ignored: u64,
}

/// What was last heard from one robot.
#[derive(Debug, Clone)]
struct Heard {
    trace: Option<SoccerTraceRecord>,
    frame: Option<Frame>,
    /// The last pose any of its frames had.
    last_pose: Option<PoseJson>,
    role: Option<String>,
    tree: Option<FlatTree>,
}

/// The scene-building state fed message by message (live and recordings).
#[derive(Debug, Clone)]
pub struct SoccerFeed {
    /// Field dimensions (the recording's parameters, or the default field live).
    pub field: FieldDimensions,
    /// Team names: the first is drawn as home (world frame), the second as away.
    teams: Vec<String>,
    /// The tree used when a robot published no layout (a recording's tree).
    fallback_tree: Option<FlatTree>,
    /// Take team messages from the traces' `decision.message` (recordings without the team key).
    pub messages_from_traces: bool,
    robots: BTreeMap<(TeamSide, u8), Heard>,
    heatmap: Option<((TeamSide, u8), HeatmapMsg)>,
    /// The robot whose search target [`Self::search_position`] is.
    search: Option<(TeamSide, u8)>,
    search_position: Option<[f64; 2]>,
    messages: VecDeque<MessageView>,
    events: VecDeque<EventView>,
    origin: Option<f64>,
    /// Feed time (s): the latest message's, from the clock's origin.
    pub time: f64,
    /// What was taken and skipped.
    pub counts: FeedCounts,
}

impl SoccerFeed {
    /// A feed for `teams` (first home, second away; later names are ignored) on `field`.
    pub fn new(teams: &[String], field: FieldDimensions) -> Self {
        Self {
            field,
            teams: teams.iter().take(2).cloned().collect(),
            fallback_tree: None,
            messages_from_traces: false,
            robots: BTreeMap::new(),
            heatmap: None,
            search: None,
            search_position: None,
            messages: VecDeque::new(),
            events: VecDeque::new(),
            origin: None,
            time: 0.0,
            counts: FeedCounts::default(),
        }
    }

    /// Uses `spec` for robots that publish no tree layout.
    pub fn with_fallback_tree(mut self, spec: &TreeSpec) -> Self {
        self.fallback_tree = Some(FlatTree::new(spec));
        self
    }

    /// The team names, home first.
    pub fn teams(&self) -> &[String] {
        &self.teams
    }

    /// The name of `side`'s team (`home` / `away` when none is known).
    pub fn team_name(&self, side: TeamSide) -> &str {
        self.teams
            .get(side.index())
            .map_or(side.name(), String::as_str)
    }

    /// How many robots were heard.
    pub fn robots_heard(&self) -> usize {
        self.robots.len()
    }

    /// The side of a key's team: a known name, `home` / `away`, or the next free side.
    fn side_of(&mut self, team: Option<&str>) -> Option<TeamSide> {
        let Some(name) = team else {
            // `soccer run --record` keys have no team: the recording's team, drawn as home.
            return Some(TeamSide::Home);
        };
        if let Some(i) = self.teams.iter().position(|t| t == name) {
            return Some(if i == 0 {
                TeamSide::Home
            } else {
                TeamSide::Away
            });
        }
        let wanted = match name {
            "home" => Some(0),
            "away" => Some(1),
            _ => None,
        };
        if self.teams.len() >= 2 {
            return None;
        }
        match wanted {
            Some(1) if self.teams.is_empty() => {
                // Keep `away` on the away side: home's place waits for its name.
                self.teams.push("home".into());
                self.teams.push(name.to_owned());
                Some(TeamSide::Away)
            }
            _ => {
                self.teams.push(name.to_owned());
                Some(if self.teams.len() == 1 {
                    TeamSide::Home
                } else {
                    TeamSide::Away
                })
            }
        }
    }

    /// Moves the clock to `t` (seconds in the stamps' clock); returns the feed time.
    fn clock(&mut self, t: f64) -> f64 {
        if !t.is_finite() {
            return self.time;
        }
        let origin = *self
            .origin
            .get_or_insert(if t > EPOCH_THRESHOLD { t } else { 0.0 });
        let rel = t - origin;
        if rel > self.time {
            self.time = rel;
        }
        rel
    }

    /// Sets the feed's time directly (a recording's cursor), in the clock of [`Self::ingest`].
    pub fn set_time(&mut self, t: f64) {
        if t.is_finite() {
            let origin = *self
                .origin
                .get_or_insert(if t > EPOCH_THRESHOLD { t } else { 0.0 });
            self.time = t - origin;
        }
    }

    /// Takes one message on `key` at time `t` (s, header stamp or log time); returns whether
    /// it changed what is drawn. Bad payloads are counted and skipped.
    pub fn ingest(&mut self, key: &str, payload: &[u8], t: f64) -> bool {
        self.counts.received += 1;
        let Some(parsed) = parse_key(key) else {
            self.counts.ignored += 1;
            return false;
        };
        let Some(side) = self.side_of(parsed.team) else {
            self.counts.ignored += 1;
            return false;
        };
        let t = self.clock(t);
        let Some(number) = parsed.player else {
            return self.team_message(side, payload, t);
        };
        let key = (side, number);
        match parsed.topic {
            TRACE => match decision_core::strict_serde::from_slice::<SoccerTraceRecord>(payload) {
                Ok(trace) => {
                    self.trace(key, trace, t);
                    true
                }
                Err(_) => self.bad(),
            },
            BLACKBOARD => {
                match decision_core::strict_serde::from_slice::<BlackboardRecord>(payload) {
                    Ok(record) => {
                        let heard = self.heard(key);
                        if let Some(pose) = record.frame.pose {
                            heard.last_pose = Some(pose);
                        }
                        heard.frame = Some(record.frame);
                        true
                    }
                    Err(_) => self.bad(),
                }
            }
            TREE_LAYOUT => match decision_core::strict_serde::from_slice::<TreeSpec>(payload) {
                Ok(spec) => {
                    self.heard(key).tree = Some(FlatTree::new(&spec));
                    true
                }
                Err(_) => self.bad(),
            },
            HEATMAP => match decision_core::strict_serde::from_slice::<HeatmapMsg>(payload) {
                Ok(map) if map.values.len() == map.length * map.width => {
                    self.heatmap = Some((key, map));
                    true
                }
                _ => self.bad(),
            },
            SUGGESTED_SEARCH_POSITION => {
                match decision_core::strict_serde::from_slice::<SearchPositionMsg>(payload) {
                    Ok(msg) => {
                        self.search = Some(key);
                        self.search_position = msg.position;
                        true
                    }
                    Err(_) => self.bad(),
                }
            }
            _ => {
                self.counts.ignored += 1;
                false
            }
        }
    }

    fn bad(&mut self) -> bool {
        self.counts.bad += 1;
        false
    }

    fn heard(&mut self, key: (TeamSide, u8)) -> &mut Heard {
        let name = format!("{} {}", key.0.name(), key.1);
        let time = self.time;
        let events = &mut self.events;
        self.robots.entry(key).or_insert_with(|| {
            push_capped(
                events,
                EventView {
                    t: time,
                    kind: EventKind::Other,
                    text: format!("{name} heard"),
                },
                super::scene::EVENT_CAPACITY,
            );
            Heard {
                trace: None,
                frame: None,
                last_pose: None,
                role: None,
                tree: None,
            }
        })
    }

    fn trace(&mut self, key: (TeamSide, u8), trace: SoccerTraceRecord, t: f64) {
        let role = trace.role().map(str::to_owned);
        let message = if self.messages_from_traces {
            trace
                .decision
                .get("message")
                .filter(|m| !m.is_null())
                .cloned()
        } else {
            None
        };
        let heard = self.heard(key);
        let before = heard.role.clone();
        heard.trace = Some(trace);
        if role.is_some() && role != before {
            heard.role = role.clone();
            let text = format!(
                "{} {} {} -> {}",
                key.0.name(),
                key.1,
                before.as_deref().unwrap_or("none"),
                role.as_deref().unwrap_or("none")
            );
            push_capped(
                &mut self.events,
                EventView {
                    t,
                    kind: EventKind::Role,
                    text,
                },
                super::scene::EVENT_CAPACITY,
            );
        }
        if let Some(m) = message {
            let point = |v: &serde_json::Value| {
                Some(turn(key.0, [v.get("x")?.as_f64()?, v.get("y")?.as_f64()?]))
            };
            let from = m
                .get("player")
                .and_then(serde_json::Value::as_u64)
                .and_then(|p| u8::try_from(p).ok())
                .unwrap_or(key.1);
            push_capped(
                &mut self.messages,
                MessageView {
                    t,
                    team: key.0,
                    from,
                    pose: m.get("pose").and_then(point),
                    ball: m.get("ball").and_then(point),
                },
                super::scene::MESSAGE_CAPACITY,
            );
        }
    }

    fn team_message(&mut self, side: TeamSide, payload: &[u8], t: f64) -> bool {
        match decision_core::strict_serde::from_slice::<TeamStateMsg>(payload) {
            Ok(msg) => {
                let m = msg.message;
                push_capped(
                    &mut self.messages,
                    MessageView {
                        t,
                        team: side,
                        from: m.player,
                        pose: m.pose.map(|p| turn(side, [p.x, p.y])),
                        ball: m.ball.map(|b| turn(side, [b.x, b.y])),
                    },
                    super::scene::MESSAGE_CAPACITY,
                );
                true
            }
            Err(_) => self.bad(),
        }
    }

    /// Fills `scene` (keeping its selection): field, time, teams, every robot heard with a
    /// pose, the selected robot's tree, world and heatmap, the timeline and messages.
    pub fn fill(&self, scene: &mut SoccerScene) {
        scene.field = self.field.clone();
        scene.time = self.time;
        scene.ball_known = false;
        scene.over = false;
        scene.score = [0, 0];
        scene.team_names = [
            self.team_name(TeamSide::Home).to_owned(),
            self.team_name(TeamSide::Away).to_owned(),
        ];
        scene.phase = scene
            .selected
            .and_then(|k| self.robots.get(&k))
            .or_else(|| self.robots.values().next())
            .and_then(|h| h.frame.as_ref())
            .map_or("-".into(), |f| {
                format!("{:?}", f.primary_state).to_lowercase()
            });
        scene.robots.clear();
        scene.robots.extend(
            self.robots
                .iter()
                .filter_map(|(key, heard)| robot_view(*key, heard)),
        );
        if scene.selected.is_none() {
            scene.selected = scene.robots.first().map(RobotView::key);
        }
        scene.detail = scene.selected.and_then(|key| {
            let heard = self.robots.get(&key)?;
            Some(self.selected_view(key, heard))
        });
        scene.messages.clone_from(&self.messages);
        scene.events.clone_from(&self.events);
        scene.record_roles();
    }

    fn selected_view(&self, key: (TeamSide, u8), heard: &Heard) -> SelectedView {
        let tree = heard
            .tree
            .clone()
            .or_else(|| self.fallback_tree.clone())
            .unwrap_or_default();
        let n = tree.len();
        let mut statuses: Vec<Option<Status>> = vec![None; n];
        let mut why_not: Vec<Option<String>> = vec![None; n];
        if let Some(trace) = &heard.trace {
            for entry in &trace.nodes {
                if let Some(s) = statuses.get_mut(entry.node.0 as usize) {
                    *s = Some(entry.status);
                }
            }
            for (branch, why) in explanations(trace) {
                let suffix = format!(" {branch}");
                if let Some(i) = tree.nodes.iter().position(|node| {
                    node.depth == 1 && (node.label == branch || node.label.ends_with(&suffix))
                }) {
                    why_not[i] = Some(why);
                }
            }
        }
        let heatmap = self
            .heatmap
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, map)| {
                let mut values = map.values.clone();
                if key.0 == TeamSide::Away {
                    values.reverse();
                }
                HeatmapView {
                    cells_x: map.length,
                    cells_y: map.width,
                    values,
                    target: self.search_target(key),
                }
            })
            .or_else(|| {
                // The target alone, until the first heatmap arrives.
                self.search_target(key).map(|t| HeatmapView {
                    target: Some(t),
                    ..HeatmapView::default()
                })
            });
        SelectedView {
            tree,
            statuses,
            why_not,
            blackboard: blackboard_rows(heard.frame.as_ref(), heard.trace.as_ref()),
            heatmap,
            voronoi: None,
        }
    }

    fn search_target(&self, key: (TeamSide, u8)) -> Option<[f64; 2]> {
        if self.search != Some(key) {
            return None;
        }
        self.search_position.map(|p| turn(key.0, p))
    }

    /// Forgets the heatmap and search target (the selection changed).
    pub fn clear_heatmap(&mut self) {
        self.heatmap = None;
        self.search = None;
        self.search_position = None;
    }
}

fn push_capped<T>(list: &mut VecDeque<T>, item: T, capacity: usize) {
    if list.len() >= capacity {
        list.pop_front();
    }
    list.push_back(item);
}

/// A point of `side`'s team frame in the world frame (the away frame is turned by pi).
pub fn turn(side: TeamSide, p: [f64; 2]) -> [f64; 2] {
    match side {
        TeamSide::Home => p,
        TeamSide::Away => [-p[0], -p[1]],
    }
}

/// A heading of `side`'s team frame in the world frame, in (-pi, pi].
pub fn turn_yaw(side: TeamSide, yaw: f64) -> f64 {
    match side {
        TeamSide::Home => yaw,
        TeamSide::Away => {
            let y = yaw + std::f64::consts::PI;
            if y > std::f64::consts::PI {
                y - 2.0 * std::f64::consts::PI
            } else {
                y
            }
        }
    }
}

/// A point given as `[x, y]` or `{"x", "y"}`.
pub(crate) fn xy(v: &serde_json::Value) -> Option<[f64; 2]> {
    if let Some(a) = v.as_array() {
        return Some([a.first()?.as_f64()?, a.get(1)?.as_f64()?]);
    }
    Some([v.get("x")?.as_f64()?, v.get("y")?.as_f64()?])
}

/// `decision.explain` as `(branch, why)` pairs (malformed entries skipped).
fn explanations(trace: &SoccerTraceRecord) -> Vec<(String, String)> {
    trace
        .decision
        .get("explain")
        .and_then(serde_json::Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|pair| {
                    let pair = pair.as_array()?;
                    Some((
                        pair.first()?.as_str()?.to_owned(),
                        pair.get(1)?.as_str()?.to_owned(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn robot_view(key: (TeamSide, u8), heard: &Heard) -> Option<RobotView> {
    let frame = heard.frame.as_ref()?;
    // A robot whose localization lost its pose (e.g. while it lies on the ground) stays where it
    // was last seen rather than vanishing from the field.
    let pose = frame.pose.or(heard.last_pose)?;
    let (side, number) = key;
    let [x, y] = turn(side, [pose.x, pose.y]);
    let decision = heard.trace.as_ref().map(|t| &t.decision);
    let body = decision.and_then(|d| d.pointer("/motion/body"));
    let target = body.and_then(|b| match b.get("kind").and_then(|k| k.as_str()) {
        Some("walk_to") => xy(b),
        Some("kick") => b.get("target").and_then(xy),
        _ => None,
    });
    Some(RobotView {
        team: side,
        number,
        x,
        y,
        yaw: turn_yaw(side, pose.yaw),
        head_yaw: frame.head_yaw,
        role: heard
            .trace
            .as_ref()
            .and_then(|t| t.role())
            .map(str::to_owned),
        branch: heard
            .trace
            .as_ref()
            .map_or(String::new(), |t| t.branch().to_owned()),
        motion: heard
            .trace
            .as_ref()
            .map_or(String::new(), |t| t.motion_kind().to_owned()),
        fallen: frame.fallen,
        pose_lost: frame.pose.is_none(),
        penalized: frame
            .game
            .as_ref()
            .is_some_and(|g| g.penalized.contains(&number)),
        decides: true,
        target: target.map(|p| turn(side, p)),
        path_next: decision
            .and_then(|d| d.get("path_next"))
            .and_then(xy)
            .map(|p| turn(side, p)),
        perceived_ball: decision
            .and_then(|d| d.get("ball"))
            .and_then(xy)
            .map(|p| turn(side, p)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use decision_node::soccer::trace::blackboard_payload;
    use soccer_profile::frame::PoseJson;

    fn trace(player: u8, t: f64, role: &str, ball: [f64; 2]) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "header": bus::messages::Header::at(t),
            "player": player,
            "tick": 1,
            "decision": {
                "t": t,
                "branch": "playing",
                "role": role,
                "motion": {
                    "body": {"kind": "walk_to", "x": 1.0, "y": 0.5, "yaw": 0.0, "speed": 0.3},
                    "head": {"kind": "search"}
                },
                "ball": {"x": ball[0], "y": ball[1], "source": "local", "age": 0.1},
                "message": {"player": player, "pose": {"x": 1.0, "y": 2.0, "yaw": 0.0},
                    "head_yaw": 0.0, "ball": {"x": ball[0], "y": ball[1]}, "ball_age": 0.1},
                "explain": [["initial", "primary state is playing"]],
                "path_next": [0.5, 0.25]
            },
            "nodes": [{"node": 0, "status": "success"}, {"node": 1, "status": "failure"}]
        }))
        .unwrap_or_default()
    }

    fn blackboard(player: u8, t: f64, pose: [f64; 3]) -> Vec<u8> {
        let frame = Frame {
            t,
            player_number: player,
            pose: Some(PoseJson {
                x: pose[0],
                y: pose[1],
                yaw: pose[2],
            }),
            head_yaw: 0.3,
            ..Frame::default()
        };
        blackboard_payload(player, &frame)
    }

    fn feed() -> SoccerFeed {
        SoccerFeed::new(&["home".into(), "away".into()], FieldDimensions::default())
    }

    #[test]
    fn keys_split_with_and_without_a_team() {
        let k = parse_key("home/player_3/behavior/trace").expect("key");
        assert_eq!((k.team, k.player, k.topic), (Some("home"), Some(3), TRACE));
        let k = parse_key("player_2/ball_state").expect("key");
        assert_eq!((k.team, k.player, k.topic), (None, Some(2), "ball_state"));
        let k = parse_key("away/team/state_message").expect("key");
        assert_eq!(
            (k.team, k.player, k.topic),
            (Some("away"), None, TEAM_STATE)
        );
        assert!(parse_key("home/odd").is_none());
        assert!(parse_key("home/player_x/behavior/trace").is_none());
    }

    #[test]
    fn trace_and_blackboard_make_a_robot_with_pose_role_and_ball() {
        let mut f = feed();
        assert!(f.ingest(
            "home/player_3/behavior/blackboard",
            &blackboard(3, 1.0, [1.0, -2.0, 0.5]),
            1.0
        ));
        assert!(f.ingest(
            "home/player_3/behavior/trace",
            &trace(3, 1.0, "striker", [2.0, 1.0]),
            1.0
        ));
        let mut scene = SoccerScene::default();
        f.fill(&mut scene);
        assert_eq!(scene.robots.len(), 1);
        let r = &scene.robots[0];
        assert_eq!((r.team, r.number), (TeamSide::Home, 3));
        assert_eq!((r.x, r.y, r.yaw, r.head_yaw), (1.0, -2.0, 0.5, 0.3));
        assert_eq!(r.role.as_deref(), Some("striker"));
        assert_eq!(r.branch, "playing");
        assert_eq!(r.motion, "walk_to");
        assert_eq!(r.target, Some([1.0, 0.5]));
        assert_eq!(r.path_next, Some([0.5, 0.25]));
        assert_eq!(r.perceived_ball, Some([2.0, 1.0]));
        assert!(!scene.ball_known, "live scenes do not know the true ball");
        assert_eq!(scene.selected, Some((TeamSide::Home, 3)));
        assert!(
            scene
                .events
                .iter()
                .any(|e| e.kind == EventKind::Role && e.text == "home 3 none -> striker")
        );
        let detail = scene.detail.as_ref().expect("detail");
        assert!(
            detail
                .blackboard
                .iter()
                .any(|(k, v)| k == "role" && v == "striker")
        );
        // No layout and no fallback tree: statuses stay empty, nothing panics.
        assert!(detail.tree.is_empty());
    }

    #[test]
    fn a_robot_that_loses_its_pose_stays_where_it_was_seen() {
        let mut f = feed();
        assert!(f.ingest(
            "home/player_4/behavior/blackboard",
            &blackboard(4, 1.0, [1.0, -2.0, 0.5]),
            1.0
        ));
        let lost = Frame {
            t: 1.02,
            player_number: 4,
            fallen: true,
            pose: None,
            ..Frame::default()
        };
        assert!(f.ingest(
            "home/player_4/behavior/blackboard",
            &blackboard_payload(4, &lost),
            1.02
        ));
        let mut scene = SoccerScene::default();
        f.fill(&mut scene);
        assert_eq!(scene.robots.len(), 1, "the robot vanished with its pose");
        let r = &scene.robots[0];
        assert_eq!((r.x, r.y), (1.0, -2.0));
        assert!(r.pose_lost && r.fallen);
    }

    #[test]
    fn the_away_team_is_turned_by_pi() {
        let mut f = feed();
        f.ingest(
            "away/player_2/behavior/blackboard",
            &blackboard(2, 1.0, [1.0, -2.0, 0.5]),
            1.0,
        );
        f.ingest(
            "away/player_2/behavior/trace",
            &trace(2, 1.0, "keeper", [2.0, 1.0]),
            1.0,
        );
        let mut scene = SoccerScene::default();
        f.fill(&mut scene);
        let r = &scene.robots[0];
        assert_eq!(r.team, TeamSide::Away);
        assert_eq!((r.x, r.y), (-1.0, 2.0));
        assert!((r.yaw - (0.5 - std::f64::consts::PI)).abs() < 1e-12);
        assert_eq!(r.perceived_ball, Some([-2.0, -1.0]));
        assert_eq!(r.target, Some([-1.0, -0.5]));
    }

    #[test]
    fn role_changes_make_the_timeline_and_team_messages_the_list() {
        let mut f = feed();
        f.ingest(
            "home/player_4/behavior/blackboard",
            &blackboard(4, 1.0, [0.0, 0.0, 0.0]),
            1.0,
        );
        f.ingest(
            "home/player_4/behavior/trace",
            &trace(4, 1.0, "supporter", [0.0, 0.0]),
            1.0,
        );
        f.ingest(
            "home/player_4/behavior/trace",
            &trace(4, 1.02, "supporter", [0.0, 0.0]),
            1.02,
        );
        f.ingest(
            "home/player_4/behavior/trace",
            &trace(4, 1.04, "striker", [0.0, 0.0]),
            1.04,
        );
        let msg = serde_json::json!({
            "header": bus::messages::Header::at(1.05),
            "message": {"player": 4, "pose": {"x": 1.0, "y": 1.0, "yaw": 0.0}, "head_yaw": 0.0,
                "ball": {"x": 3.0, "y": 0.5}, "ball_age": 0.2}
        });
        let msg = serde_json::to_vec(&msg).unwrap_or_default();
        assert!(f.ingest("away/team/state_message", &msg, 1.05));
        let mut scene = SoccerScene::default();
        f.fill(&mut scene);
        let roles: Vec<&str> = scene
            .events
            .iter()
            .filter(|e| e.kind == EventKind::Role)
            .map(|e| e.text.as_str())
            .collect();
        assert_eq!(
            roles,
            ["home 4 none -> supporter", "home 4 supporter -> striker"]
        );
        // Live, the team key is the source of messages (not the traces').
        assert_eq!(scene.messages.len(), 1);
        let m = &scene.messages[0];
        assert_eq!((m.team, m.from), (TeamSide::Away, 4));
        assert_eq!(m.ball, Some([-3.0, -0.5]));
        assert!((scene.time - 1.05).abs() < 1e-9);
    }

    #[test]
    fn the_selected_robots_heatmap_is_drawn_and_turned_for_away() {
        let mut f = feed();
        f.ingest(
            "away/player_3/behavior/blackboard",
            &blackboard(3, 1.0, [0.0, 0.0, 0.0]),
            1.0,
        );
        let map = HeatmapMsg {
            header: bus::messages::Header::at(1.0),
            length: 3,
            width: 2,
            values: vec![0.0, 0.1, 0.2, 0.3, 0.4, 1.0],
        };
        let map = serde_json::to_vec(&map).unwrap_or_default();
        assert!(f.ingest("away/player_3/ball_search_heatmap", &map, 1.0));
        let target = br#"{"header":{"stamp":{"sec":1,"nanosec":0}},"position":[2.0,1.5]}"#;
        assert!(f.ingest("away/player_3/suggested_search_position", target, 1.0));
        let mut scene = SoccerScene {
            selected: Some((TeamSide::Away, 3)),
            ..SoccerScene::default()
        };
        f.fill(&mut scene);
        let heat = scene
            .detail
            .as_ref()
            .and_then(|d| d.heatmap.clone())
            .expect("heatmap");
        assert_eq!((heat.cells_x, heat.cells_y), (3, 2));
        assert_eq!(heat.values, [1.0, 0.4, 0.3, 0.2, 0.1, 0.0]);
        assert_eq!(heat.target, Some([-2.0, -1.5]));
        // Another robot selected: its detail has no heatmap.
        f.ingest(
            "home/player_1/behavior/blackboard",
            &blackboard(1, 1.0, [0.0, 0.0, 0.0]),
            1.0,
        );
        scene.selected = Some((TeamSide::Home, 1));
        f.fill(&mut scene);
        assert!(scene.detail.as_ref().is_some_and(|d| d.heatmap.is_none()));
    }

    #[test]
    fn the_tree_layout_carries_statuses_and_why_not() {
        let mut f = feed();
        let spec = soccer_profile::tree::default_spec().expect("default tree");
        let layout = serde_json::to_vec(&spec).unwrap_or_default();
        assert!(f.ingest("home/player_2/behavior/tree_layout", &layout, 0.5));
        f.ingest(
            "home/player_2/behavior/blackboard",
            &blackboard(2, 1.0, [0.0, 0.0, 0.0]),
            1.0,
        );
        f.ingest(
            "home/player_2/behavior/trace",
            &trace(2, 1.0, "striker", [0.0, 0.0]),
            1.0,
        );
        let mut scene = SoccerScene::default();
        f.fill(&mut scene);
        let d = scene.detail.as_ref().expect("detail");
        assert_eq!(d.tree.len(), FlatTree::new(&spec).len());
        assert_eq!(d.statuses.first().copied().flatten(), Some(Status::Success));
        assert_eq!(d.statuses.get(1).copied().flatten(), Some(Status::Failure));
        let initial = d
            .tree
            .nodes
            .iter()
            .position(|n| n.depth == 1 && n.label.ends_with(" initial"))
            .expect("an `initial` root branch");
        assert_eq!(
            d.why_not[initial].as_deref(),
            Some("primary state is playing")
        );
    }

    #[test]
    fn bad_messages_are_counted_and_skipped() {
        let mut f = feed();
        for (key, payload) in [
            ("home/player_3/behavior/trace", &b"{not json"[..]),
            ("home/player_3/behavior/blackboard", b"{\"frame\": 3}"),
            ("home/player_3/behavior/tree_layout", b"[]"),
            ("home/team/state_message", b"null"),
            (
                "home/player_3/ball_search_heatmap",
                br#"{"length":2,"width":2,"values":[1]}"#,
            ),
        ] {
            assert!(!f.ingest(key, payload, 1.0), "{key}");
        }
        assert!(!f.ingest("nowhere", b"{}", 1.0));
        assert!(!f.ingest(
            "third/player_1/behavior/trace",
            &trace(1, 1.0, "striker", [0.0; 2]),
            1.0
        ));
        assert_eq!(f.counts.bad, 5);
        assert_eq!(f.counts.ignored, 2);
        let mut scene = SoccerScene::default();
        f.fill(&mut scene);
        assert!(scene.robots.is_empty());
    }

    #[test]
    fn wall_clock_stamps_start_the_clock_at_the_first_message() {
        let mut f = feed();
        let t0 = 1.7e9;
        f.ingest(
            "home/player_1/behavior/blackboard",
            &blackboard(1, t0, [0.0; 3]),
            t0,
        );
        f.ingest(
            "home/player_1/behavior/trace",
            &trace(1, t0 + 2.5, "striker", [0.0; 2]),
            t0 + 2.5,
        );
        assert!((f.time - 2.5).abs() < 1e-6);
    }
}
