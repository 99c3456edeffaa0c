//! The viewer's one link to the bus, for the RoboMaster and the soccer view alike: a
//! background thread opens the session (a Zenoh client waits there until the listener is up),
//! subscribes to the view's keys and, whenever opening fails or the session closes, tries
//! again after [`RETRY_AFTER`]; the view takes the messages on its own thread
//! ([`BusLink::try_recv`]) and may follow more keys at any time ([`BusLink::follow`]).

use bus::{Bus, BusError, BusOptions, Received, Subscription};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How long the link waits after a failed open before it tries again.
pub const RETRY_AFTER: Duration = Duration::from_secs(1);
/// How often the link looks whether its session closed.
const WATCH_EVERY: Duration = Duration::from_millis(100);

/// State of the link to the bus.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkState {
    /// Opening the session (a client waits until the listener is up).
    Connecting,
    /// The session is open and subscribed.
    Connected,
    /// Opening failed; retrying.
    Failed(String),
}

/// What opens a session: the bus options, or a bus opened already (in-process).
type Opener = Box<dyn FnMut() -> Result<Bus, BusError> + Send>;

/// The session in use and its subscription to the view's keys; a new session bumps `session`.
struct Linked {
    state: LinkState,
    bus: Option<Bus>,
    subscription: Option<Subscription>,
    session: u64,
}

/// A link to the bus with one reconnect policy, shared by every live view.
pub struct BusLink {
    linked: Arc<Mutex<Linked>>,
    stop: Arc<AtomicBool>,
    /// The extra keys followed (see [`follow`](Self::follow)).
    followed: Vec<String>,
    /// Their subscription.
    following: Option<Subscription>,
    /// The session the followed keys were last subscribed (or refused) on.
    followed_on: Option<u64>,
}

impl BusLink {
    /// Links in the background with `options` (see [`BusOptions::follower`]), subscribed to
    /// `keys`; `thread` names the background thread.
    pub fn connect(options: BusOptions, keys: Vec<String>, thread: &str) -> Self {
        Self::start(Box::new(move || options.open()), keys, None, thread)
    }

    /// Links to a bus open already (in-process or Zenoh), subscribed to `keys` at once; it is
    /// not opened again once closed.
    pub fn with_bus(bus: Bus, keys: Vec<String>) -> Self {
        let opener: Opener = Box::new(|| Err(BusError::Closed));
        Self::start(opener, keys, Some(bus), "viewer-bus")
    }

    fn start(mut opener: Opener, keys: Vec<String>, bus: Option<Bus>, thread: &str) -> Self {
        let link = Self {
            linked: Arc::new(Mutex::new(Linked {
                state: LinkState::Connecting,
                bus: None,
                subscription: None,
                session: 0,
            })),
            stop: Arc::new(AtomicBool::new(false)),
            followed: Vec::new(),
            following: None,
            followed_on: None,
        };
        if let Some(bus) = bus {
            attach(&link.linked, bus, &keys);
        }
        let linked = Arc::clone(&link.linked);
        let stop = Arc::clone(&link.stop);
        let spawned = std::thread::Builder::new()
            .name(thread.to_owned())
            .spawn(move || keep_linked(&mut opener, &keys, &linked, &stop));
        if let Err(e) = spawned {
            lock(&link.linked).state =
                LinkState::Failed(format!("cannot start the bus thread: {e}"));
        }
        link
    }

    /// Connecting, connected, or the last failure while the link retries.
    pub fn state(&self) -> LinkState {
        lock(&self.linked).state.clone()
    }

    /// The next message of the view's keys, then of the followed ones, if one is queued.
    pub fn try_recv(&mut self) -> Option<Received> {
        let (bus, session) = {
            let linked = lock(&self.linked);
            if let Some(received) = linked
                .subscription
                .as_ref()
                .and_then(Subscription::try_recv)
            {
                return Some(received);
            }
            (linked.bus.clone(), linked.session)
        };
        if self.followed_on != Some(session)
            && !self.followed.is_empty()
            && let Some(bus) = bus
        {
            // Opened (again) since the keys were given: follow them on this session.
            if let Err(e) = self.subscribe_followed(&bus, session) {
                tracing::warn!("{e}");
            }
        }
        self.following.as_ref().and_then(Subscription::try_recv)
    }

    /// Follows `keys` besides the view's, replacing the keys
    /// followed before, whose subscription is dropped at once; on an open session they are
    /// subscribed before this returns, else as soon as it opens, and again after a reconnect.
    /// `Err` when the open session refuses the subscription.
    pub fn follow(&mut self, keys: Vec<String>) -> Result<(), String> {
        self.following = None;
        self.followed_on = None;
        self.followed = keys;
        let (bus, session) = {
            let linked = lock(&self.linked);
            (linked.bus.clone(), linked.session)
        };
        match bus {
            Some(bus) if !self.followed.is_empty() => self.subscribe_followed(&bus, session),
            _ => Ok(()),
        }
    }

    /// Follows no keys besides the view's (their subscription is dropped at once).
    pub fn unfollow(&mut self) {
        self.following = None;
        self.followed_on = None;
        self.followed.clear();
    }

    fn subscribe_followed(&mut self, bus: &Bus, session: u64) -> Result<(), String> {
        let refs: Vec<&str> = self.followed.iter().map(String::as_str).collect();
        // Refused or not, not again on this session: the next try is after a reconnect.
        self.followed_on = Some(session);
        match bus.subscribe(&refs) {
            Ok(subscription) => {
                self.following = Some(subscription);
                Ok(())
            }
            Err(e) => {
                self.following = None;
                Err(format!("{}: {e}", self.followed.join(", ")))
            }
        }
    }
}

impl Drop for BusLink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.following = None;
        let mut linked = lock(&self.linked);
        linked.subscription = None;
        if let Some(bus) = linked.bus.take() {
            bus.close();
        }
    }
}

fn lock(linked: &Mutex<Linked>) -> MutexGuard<'_, Linked> {
    linked
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Subscribes a freshly opened `bus` to `keys` and makes it the link's session.
fn attach(linked: &Mutex<Linked>, bus: Bus, keys: &[String]) {
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let subscribed = bus.subscribe(&refs);
    let mut linked = lock(linked);
    linked.session += 1;
    match subscribed {
        Ok(subscription) => {
            linked.subscription = Some(subscription);
            linked.state = LinkState::Connected;
        }
        Err(e) => {
            linked.subscription = None;
            linked.state = LinkState::Failed(e.to_string());
        }
    }
    linked.bus = Some(bus);
}

/// The link's one reconnect policy: while the view lives, open a session when there is none
/// or it closed, and after a failed open wait [`RETRY_AFTER`] before the next.
fn keep_linked(opener: &mut Opener, keys: &[String], linked: &Mutex<Linked>, stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        let open = lock(linked)
            .bus
            .as_ref()
            .is_some_and(|bus| !bus.is_closed());
        if open {
            std::thread::sleep(WATCH_EVERY);
            continue;
        }
        {
            let mut linked = lock(linked);
            linked.subscription = None;
            linked.bus = None;
            if linked.state == LinkState::Connected {
                linked.state = LinkState::Connecting;
            }
        }
        match opener() {
            Ok(bus) if stop.load(Ordering::Relaxed) => bus.close(),
            Ok(bus) => attach(linked, bus, keys),
            Err(e) => {
                lock(linked).state = LinkState::Failed(e.to_string());
                std::thread::sleep(RETRY_AFTER);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BusLink, LinkState};

    fn keys(list: &[&str]) -> Vec<String> {
        list.iter().map(|k| (*k).to_owned()).collect()
    }

    #[test]
    fn a_linked_bus_is_subscribed_at_once_and_its_messages_come_in_order() {
        let bus = bus::Bus::in_process();
        let mut link = BusLink::with_bus(bus.clone(), keys(&["a/trace"]));
        assert_eq!(link.state(), LinkState::Connected);
        assert!(bus.has_subscriber("a/trace"));
        for payload in [b"1", b"2"] {
            bus.publish_raw("a/trace", payload).expect("published");
        }
        bus.publish_raw("b/trace", b"other").expect("published");
        let got: Vec<Vec<u8>> = std::iter::from_fn(|| link.try_recv())
            .map(|r| r.payload.to_vec())
            .collect();
        assert_eq!(got, [b"1".to_vec(), b"2".to_vec()]);
    }

    #[test]
    fn followed_keys_replace_the_last_ones_and_none_drops_them() {
        let bus = bus::Bus::in_process();
        let mut link = BusLink::with_bus(bus.clone(), keys(&["a/trace"]));
        link.follow(keys(&["a/heatmap"])).expect("followed");
        assert!(bus.has_subscriber("a/heatmap"));
        link.follow(keys(&["b/heatmap"])).expect("followed");
        assert!(!bus.has_subscriber("a/heatmap"));
        assert!(bus.has_subscriber("b/heatmap"));
        bus.publish_raw("b/heatmap", b"map").expect("published");
        assert_eq!(
            link.try_recv().map(|r| r.topic),
            Some("b/heatmap".to_owned())
        );
        link.unfollow();
        assert!(!bus.has_subscriber("b/heatmap"));
    }

    #[test]
    fn a_closed_session_that_cannot_open_again_says_why() {
        let bus = bus::Bus::in_process();
        let link = BusLink::with_bus(bus.clone(), keys(&["a/trace"]));
        bus.close();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !matches!(link.state(), LinkState::Failed(_)) {
            assert!(std::time::Instant::now() < deadline, "{:?}", link.state());
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}
