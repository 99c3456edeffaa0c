//! The live adapter (`decision-viewer --soccer-connect [TEAM...]`): a [`Bus`] without namespace
//! subscribed to every robot's trace, blackboard and tree layout and to each team's State
//! messages (`TEAM/player_N/behavior/trace`, `TEAM/team/state_message`), plus the selected
//! robot's heatmap and search target (the node publishes the heatmap only while someone
//! listens, so only the selected robot's is asked for). Messages go through [`SoccerFeed`].

use super::feed::SoccerFeed;
use super::scene::{SoccerScene, TeamSide};
use crate::live::LinkState;
use bus::recording::header_stamp_nanos;
use bus::soccer::{BLACKBOARD, HEATMAP, SUGGESTED_SEARCH_POSITION, TEAM_STATE, TRACE, TREE_LAYOUT};
use bus::{Bus, BusOptions, Subscription};
use soccer_profile::params::FieldDimensions;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
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
    link: Arc<Mutex<LinkState>>,
    stop: Arc<AtomicBool>,
    pending: Option<Receiver<Bus>>,
    bus: Option<Bus>,
    subscription: Option<Subscription>,
    selected: Option<((TeamSide, u8), Subscription)>,
    last_message: Option<Instant>,
    error: Option<String>,
}

impl SoccerLive {
    /// Connects in the background as a Zenoh client to `endpoint` (with `ros2`, as a ROS 2
    /// node through the router at `endpoint`, each team a ROS namespace) and follows `teams`
    /// (the first is drawn as home, the second, turned by pi, as away).
    pub fn connect(endpoint: &str, teams: &[String], ros2: bool) -> Self {
        let options = BusOptions::follower(endpoint, "", ros2.then_some("soccer_viewer"));
        let mut live = Self::empty(endpoint, teams);
        let (tx, rx) = channel();
        let link = Arc::clone(&live.link);
        let stop = Arc::clone(&live.stop);
        let spawned = std::thread::Builder::new()
            .name("soccer-viewer-zenoh".into())
            .spawn(move || {
                // A client waits here until the listener is up; retry after a failure.
                while !stop.load(Ordering::Relaxed) {
                    match options.open() {
                        Ok(bus) => {
                            let _ = tx.send(bus);
                            return;
                        }
                        Err(e) => {
                            if let Ok(mut l) = link.lock() {
                                *l = LinkState::Failed(e.to_string());
                            }
                            std::thread::sleep(std::time::Duration::from_secs(1));
                        }
                    }
                }
            });
        if let Err(e) = spawned {
            live.error = Some(format!("cannot start the bus thread: {e}"));
        }
        live.pending = Some(rx);
        live
    }

    /// Follows `teams` on an open `bus` (in-process or Zenoh, no namespace).
    pub fn with_bus(bus: Bus, teams: &[String]) -> Self {
        let mut live = Self::empty("in-process", teams);
        live.attach(bus);
        live
    }

    fn empty(endpoint: &str, teams: &[String]) -> Self {
        let teams: Vec<String> = if teams.is_empty() {
            vec!["home".into()]
        } else {
            teams.to_vec()
        };
        Self {
            endpoint: endpoint.to_owned(),
            playing: true,
            feed: SoccerFeed::new(&teams, FieldDimensions::default()),
            link: Arc::new(Mutex::new(LinkState::Connecting)),
            stop: Arc::new(AtomicBool::new(false)),
            pending: None,
            bus: None,
            subscription: None,
            selected: None,
            last_message: None,
            error: None,
        }
    }

    fn attach(&mut self, bus: Bus) {
        let keys = team_keys(self.feed.teams());
        let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
        match bus.subscribe(&refs) {
            Ok(sub) => {
                self.subscription = Some(sub);
                self.set_link(LinkState::Connected);
            }
            Err(e) => self.set_link(LinkState::Failed(e.to_string())),
        }
        self.bus = Some(bus);
    }

    fn set_link(&self, state: LinkState) {
        if let Ok(mut l) = self.link.lock() {
            *l = state;
        }
    }

    /// Connecting until the bus is open and subscribed; the last error while it retries.
    pub fn link(&self) -> LinkState {
        self.link
            .lock()
            .map(|l| l.clone())
            .unwrap_or_else(|_| LinkState::Failed("lock poisoned".into()))
    }

    /// Seconds since the last message.
    pub fn age(&self) -> Option<f64> {
        self.last_message.map(|t| t.elapsed().as_secs_f64())
    }

    /// The last error (bus thread, subscription).
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// A scene of what was heard so far.
    pub fn scene(&self) -> SoccerScene {
        let mut scene = SoccerScene::default();
        self.feed.fill(&mut scene);
        scene
    }

    /// Subscribes to the heatmap and search target of the selected robot (dropping the
    /// previous robot's, so its node stops publishing the heatmap).
    fn follow_selection(&mut self, selected: Option<(TeamSide, u8)>) {
        if self.selected.as_ref().map(|(k, _)| *k) == selected {
            return;
        }
        self.selected = None;
        self.feed.clear_heatmap();
        let (Some(bus), Some(key)) = (&self.bus, selected) else {
            return;
        };
        let team = self.feed.team_name(key.0).to_owned();
        let keys = [HEATMAP, SUGGESTED_SEARCH_POSITION]
            .map(|topic| format!("{team}/player_{}/{topic}", key.1));
        match bus.subscribe(&[keys[0].as_str(), keys[1].as_str()]) {
            Ok(sub) => self.selected = Some((key, sub)),
            Err(e) => self.error = Some(format!("heatmap of {} {}: {e}", team, key.1)),
        }
    }

    /// Takes the messages received since the last frame and, unless paused, redraws `scene`;
    /// returns whether anything arrived.
    pub fn poll(&mut self, scene: &mut SoccerScene) -> bool {
        if let Some(rx) = &self.pending
            && let Ok(bus) = rx.try_recv()
        {
            self.pending = None;
            self.attach(bus);
        }
        self.follow_selection(scene.selected);
        let mut taken = 0;
        for sub in [
            self.subscription.as_ref(),
            self.selected.as_ref().map(|(_, s)| s),
        ]
        .into_iter()
        .flatten()
        {
            while taken < MAX_MESSAGES_PER_FRAME {
                let Some(received) = sub.try_recv() else {
                    break;
                };
                taken += 1;
                // Without a stamp the message counts at the feed's latest time (NaN).
                let t = header_stamp_nanos(&received.payload)
                    .map_or(f64::NAN, bus::recording::from_nanos);
                self.feed.ingest(&received.topic, &received.payload, t);
            }
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

impl Drop for SoccerLive {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.selected = None;
        self.subscription = None;
        if let Some(bus) = self.bus.take() {
            bus.close();
        }
    }
}
