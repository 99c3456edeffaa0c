//! The recording adapter (`decision-viewer --soccer-open FILE.mcap`): the messages of a
//! `soccer sim --record` or `soccer run --record` file fed in log-time order through the same
//! [`SoccerFeed`] as live, up to a cursor that plays, pauses, steps and seeks. Seeking back
//! restarts from the nearest checkpoint (a copy of the feed every [`CHECKPOINT_SECONDS`]).

use super::feed::SoccerFeed;
use super::scene::SoccerScene;
use bus::recording::{RecordedMessage, from_nanos, read_mcap};
use bus::soccer::TEAM_STATE;
use decision_node::runtime::replay::soccer::recorded_setup;
use soccer_profile::params::FieldDimensions;
use std::path::{Path, PathBuf};

/// Seconds of log time between checkpoints of the feed.
pub const CHECKPOINT_SECONDS: f64 = 10.0;
/// At most this many recorded seconds per frame while playing.
const MAX_SECONDS_PER_FRAME: f64 = 5.0;

/// A soccer recording with a cursor.
pub struct SoccerReplay {
    /// The MCAP file being replayed, as opened.
    pub path: PathBuf,
    /// Whether the cursor advances with the wall clock.
    pub playing: bool,
    /// Recorded seconds per wall second.
    pub speed: f64,
    /// The reader's warning (a cut or damaged file), if any.
    pub warning: Option<String>,
    messages: Vec<RecordedMessage>,
    start: u64,
    end: u64,
    /// Messages fed so far.
    cursor: usize,
    /// The cursor's log time (ns).
    now: u64,
    template: SoccerFeed,
    feed: SoccerFeed,
    checkpoints: Vec<(usize, SoccerFeed)>,
}

impl SoccerReplay {
    /// Reads `path`; every problem as one string.
    pub fn open(path: &Path) -> Result<Self, String> {
        let recording = read_mcap(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let setup = recorded_setup(&recording);
        let field = setup
            .as_ref()
            .map_or_else(|_| FieldDimensions::default(), |(p, _)| p.field.clone());
        let mut template = SoccerFeed::new(&[], field);
        if let Ok((_, spec)) = &setup {
            template = template.with_fallback_tree(spec);
        }
        // `soccer sim --record` has no team key: the State messages are in the traces.
        template.messages_from_traces = !recording
            .messages
            .iter()
            .any(|m| m.topic.ends_with(TEAM_STATE));
        let mut messages = recording.messages;
        if messages.is_empty() {
            return Err(format!("{}: no messages", path.display()));
        }
        messages.sort_by_key(|m| m.log_time);
        let start = messages.first().map_or(0, |m| m.log_time);
        let end = messages.last().map_or(0, |m| m.log_time);
        let mut replay = Self {
            path: path.to_owned(),
            playing: false,
            speed: 1.0,
            warning: recording.warning,
            messages,
            start,
            end,
            cursor: 0,
            now: start,
            feed: template.clone(),
            template,
            checkpoints: Vec::new(),
        };
        replay.feed_to(start);
        Ok(replay)
    }

    /// Seconds from the first message to the cursor.
    pub fn time(&self) -> f64 {
        from_nanos(self.now - self.start)
    }

    /// Seconds from the first message to the last.
    pub fn duration(&self) -> f64 {
        from_nanos(self.end - self.start)
    }

    /// Messages in the file.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// Whether the file has no messages (never true for an opened replay).
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// Whether the cursor is at the last message.
    pub fn finished(&self) -> bool {
        self.cursor >= self.messages.len()
    }

    /// The feed as of the cursor.
    pub fn feed(&self) -> &SoccerFeed {
        &self.feed
    }

    /// A scene as of the cursor, the first robot heard selected.
    pub fn scene(&self) -> SoccerScene {
        let mut scene = SoccerScene::default();
        self.feed.fill(&mut scene);
        scene
    }

    /// Feeds every message up to log time `until` (ns), taking checkpoints on the way.
    fn feed_to(&mut self, until: u64) {
        while let Some(m) = self.messages.get(self.cursor) {
            if m.log_time > until {
                break;
            }
            let since = from_nanos(m.log_time - self.start);
            let due = self.checkpoints.len() as f64 * CHECKPOINT_SECONDS;
            if since >= due {
                self.checkpoints.push((self.cursor, self.feed.clone()));
            }
            self.feed.ingest(&m.topic, &m.data, from_nanos(m.log_time));
            self.cursor += 1;
        }
        self.now = until.clamp(self.start, self.end);
        self.feed.set_time(from_nanos(self.now));
    }

    /// Moves the cursor to `t` seconds from the start (clamped) and redraws `scene`.
    pub fn seek(&mut self, t: f64, scene: &mut SoccerScene) {
        let t = if t.is_finite() { t.max(0.0) } else { 0.0 };
        let until = self
            .start
            .saturating_add(bus::recording::to_nanos(t))
            .min(self.end);
        if until < self.now {
            // Back to the last checkpoint at or before `until`.
            let index = self
                .checkpoints
                .iter()
                .rposition(|(c, _)| self.messages.get(*c).is_some_and(|m| m.log_time <= until));
            match index {
                Some(i) => {
                    let (cursor, feed) = self.checkpoints[i].clone();
                    self.cursor = cursor;
                    self.feed = feed;
                    self.checkpoints.truncate(i);
                }
                None => {
                    self.cursor = 0;
                    self.feed = self.template.clone();
                    self.checkpoints.clear();
                }
            }
        }
        self.feed_to(until);
        self.feed.fill(scene);
    }

    /// Steps to the next log time (one tick of a `soccer sim` recording); returns whether it
    /// moved.
    pub fn step(&mut self, scene: &mut SoccerScene) -> bool {
        let Some(next) = self.messages.get(self.cursor).map(|m| m.log_time) else {
            return false;
        };
        self.feed_to(next);
        self.feed.fill(scene);
        true
    }

    /// Advances by `wall_seconds * speed` recorded seconds when playing.
    pub fn advance(&mut self, wall_seconds: f64, scene: &mut SoccerScene) {
        if !self.playing {
            return;
        }
        if self.finished() {
            self.playing = false;
            return;
        }
        let dt = (wall_seconds * self.speed).clamp(0.0, MAX_SECONDS_PER_FRAME);
        let t = self.time() + dt;
        self.seek(t, scene);
        if self.finished() {
            self.playing = false;
        }
    }

    /// Redraws `scene` (after the selection changed).
    pub fn refresh(&self, scene: &mut SoccerScene) {
        self.feed.fill(scene);
    }
}
