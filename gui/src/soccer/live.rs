//! The live adapter (`decision-viewer --soccer-connect [TEAM...]`): the viewer's [`BusLink`]
//! without namespace, subscribed to every robot's trace, blackboard and tree layout and to each
//! team's State messages (`TEAM/player_N/behavior/trace`, `TEAM/team/state_message`), and
//! following the selected robot's heatmap and search target (the node publishes the heatmap
//! only while someone listens, so only the selected robot's is asked for). Messages go through
//! [`SoccerFeed`].

use super::feed::SoccerFeed;
use super::scene::{SoccerScene, TeamSide};
use crate::link::{BusLink, LinkState};
use bus::recording::header_stamp_nanos;
use bus::soccer::{BLACKBOARD, HEATMAP, SUGGESTED_SEARCH_POSITION, TEAM_STATE, TRACE, TREE_LAYOUT};
use bus::{Bus, BusOptions};
use soccer_profile::params::FieldDimensions;
use std::time::Instant;

/// The endpoint `--soccer-connect` uses without `--connect`.
pub const DEFAULT_ENDPOINT: &str = bus::DEFAULT_ENDPOINT;
/// The highest player number subscribed to (player numbers are 1..=7).
pub const MAX_PLAYER: u8 = 7;
/// At most this many messages are taken per frame.
const MAX_MESSAGES_PER_FRAME: usize = 20_000;

/// The keys subscribed to for `teams`: every robot's trace, blackboard and layout, and the
/// team key.
pub fn team_keys(teams: &[String]) -> Vec<String> {
    let mut keys = Vec::new();
    for team in teams {
        for n in 1..=MAX_PLAYER {
            for topic in [TRACE, BLACKBOARD, TREE_LAYOUT] {
                keys.push(format!("{team}/player_{n}/{topic}"));
            }
        }
        keys.push(format!("{team}/{TEAM_STATE}"));
    }
    keys
}

/// A live soccer team (or two) on the bus.
pub struct SoccerLive {
    /// What the link is to (`tcp/127.0.0.1:7447`, `in-process`).
    pub endpoint: String,
    /// Whether the view follows the messages (paused: they are still taken, not drawn).
    pub playing: bool,
    /// The scene-building state.
    pub feed: SoccerFeed,
    link: BusLink,
    selected: Option<(TeamSide, u8)>,
    last_message: Option<Instant>,
    error: Option<String>,
}

impl SoccerLive {
    /// Connects in the background as a Zenoh client to `endpoint` (with `ros2`, as a ROS 2
    /// node through the router at `endpoint`, each team a ROS namespace) and follows `teams`
    /// (the first is drawn as home, the second, turned by pi, as away).
    pub fn connect(endpoint: &str, teams: &[String], ros2: bool) -> Self {
        let options = BusOptions::follower(endpoint, "", ros2.then_some("soccer_viewer"));
        let feed = new_feed(teams);
        let link = BusLink::connect(options, team_keys(feed.teams()), "soccer-viewer-zenoh");
        Self::with_link(endpoint, feed, link)
    }

    /// Follows `teams` on an open `bus` (in-process or Zenoh, no namespace).
    pub fn with_bus(bus: Bus, teams: &[String]) -> Self {
        let feed = new_feed(teams);
        let link = BusLink::with_bus(bus, team_keys(feed.teams()));
        Self::with_link("in-process", feed, link)
    }

    fn with_link(endpoint: &str, feed: SoccerFeed, link: BusLink) -> Self {
        Self {
            endpoint: endpoint.to_owned(),
            playing: true,
            feed,
            link,
            selected: None,
            last_message: None,
            error: None,
        }
    }

    /// Connecting until the bus is open and subscribed; the last error while it retries.
    pub fn link(&self) -> LinkState {
        self.link.state()
    }

    /// Seconds since the last message.
    pub fn age(&self) -> Option<f64> {
        self.last_message.map(|t| t.elapsed().as_secs_f64())
    }

    /// The last error (a refused subscription).
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// A scene of what was heard so far.
    pub fn scene(&self) -> SoccerScene {
        let mut scene = SoccerScene::default();
        self.feed.fill(&mut scene);
        scene
    }

    /// Follows the heatmap and search target of the selected robot (dropping the previous
    /// robot's, so its node stops publishing the heatmap).
    fn follow_selection(&mut self, selected: Option<(TeamSide, u8)>) {
        if self.selected == selected {
            return;
        }
        self.selected = selected;
        self.feed.clear_heatmap();
        let Some((side, player)) = selected else {
            self.link.unfollow();
            return;
        };
        let team = self.feed.team_name(side).to_owned();
        let keys = [HEATMAP, SUGGESTED_SEARCH_POSITION]
            .map(|topic| format!("{team}/player_{player}/{topic}"))
            .to_vec();
        if let Err(e) = self.link.follow(keys) {
            self.error = Some(format!("heatmap of {team} {player}: {e}"));
        }
    }

    /// Takes the messages received since the last frame and, unless paused, redraws `scene`;
    /// returns whether anything arrived.
    pub fn poll(&mut self, scene: &mut SoccerScene) -> bool {
        self.follow_selection(scene.selected);
        let mut taken = 0;
        while taken < MAX_MESSAGES_PER_FRAME {
            let Some(received) = self.link.try_recv() else {
                break;
            };
            taken += 1;
            // Without a stamp the message counts at the feed's latest time (NaN).
            let t =
                header_stamp_nanos(&received.payload).map_or(f64::NAN, bus::recording::from_nanos);
            self.feed.ingest(&received.topic, &received.payload, t);
        }
        if taken > 0 {
            self.last_message = Some(Instant::now());
        }
        if self.playing {
            let selected = scene.selected;
            self.feed.fill(scene);
            if selected.is_none() && scene.selected.is_some() {
                // The first robot heard became the selection: ask for its heatmap.
                self.follow_selection(scene.selected);
            }
        }
        taken > 0
    }

    /// Redraws `scene` (after the selection changed).
    pub fn refresh(&mut self, scene: &mut SoccerScene) {
        self.follow_selection(scene.selected);
        self.feed.fill(scene);
    }
}

/// The scene-building state for `teams` (`home` when none is given).
fn new_feed(teams: &[String]) -> SoccerFeed {
    let teams: Vec<String> = if teams.is_empty() {
        vec!["home".into()]
    } else {
        teams.to_vec()
    };
    SoccerFeed::new(&teams, FieldDimensions::default())
}
