//! The [`Bus`] handle over its two transports (Zenoh, in-process), [`Subscription`] queues and
//! the [`Received`] messages they yield.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::de::DeserializeOwned;
use zenoh::Wait;
use zenoh::bytes::Encoding;
use zenoh::pubsub::{Publisher, Subscriber};

use crate::decode::{DecodeError, decode};
use crate::options::ZenohOptions;
use crate::queue::{QUEUE_CAPACITY, Queue};
use crate::session::zenoh_config;

/// Why a bus operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BusError {
    /// Zenoh refused (open, declare, put).
    #[error("zenoh: {0}")]
    Zenoh(String),
    /// A message did not serialise to JSON.
    #[error("topic `{topic}`: cannot encode: {message}")]
    Encode {
        /// The topic it was meant for.
        topic: String,
        /// serde_json's reason.
        message: String,
    },
    /// Bad options, namespace, topic name or Zenoh configuration file.
    #[error("bus configuration: {0}")]
    Config(String),
    /// The bus was closed.
    #[error("the bus is closed")]
    Closed,
}

/// One message taken from a [`Subscription`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// The topic, without the namespace prefix (`obj_hp`).
    pub topic: String,
    /// The raw payload (JSON for well-behaved publishers).
    pub payload: Vec<u8>,
}

impl Received {
    /// Decodes the payload as `T`, naming the topic and field on error.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, DecodeError> {
        decode(&self.topic, &self.payload)
    }
}

/// A subscription registered with the bus.
#[derive(Debug)]
struct Entry {
    id: u64,
    topics: Vec<String>,
    queue: Arc<Queue>,
}

/// All live subscriptions of one bus (routing for in-process, closing for both).
#[derive(Debug, Default)]
struct Registry {
    next_id: u64,
    entries: Vec<Entry>,
}

/// The Zenoh side of a bus.
struct ZenohTransport {
    session: zenoh::Session,
    publishers: Mutex<HashMap<String, Arc<Publisher<'static>>>>,
}

/// Which transport a bus runs on.
enum Transport {
    InProcess,
    Zenoh(ZenohTransport),
    #[cfg(feature = "ros2")]
    Ros2(Box<crate::ros2::rmw::Ros2Transport>),
}

/// Shared state behind every clone of a [`Bus`].
struct Inner {
    namespace: String,
    closed: AtomicBool,
    registry: Mutex<Registry>,
    subscribed: Condvar,
    transport: Transport,
}

/// Locks a mutex, ignoring poisoning (no code here panics while holding a lock).
/// The mutex's value, also after a panic elsewhere poisoned it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Renders a Zenoh error.
fn zenoh_error(err: impl fmt::Display) -> BusError {
    BusError::Zenoh(err.to_string())
}

/// Checks a namespace or topic: no wildcards or reserved characters (`*`, `$`, `#`, `?`), no
/// whitespace, no empty chunk (so no leading, trailing or doubled `/`), a valid Zenoh key.
fn validate_key_part(what: &str, value: &str) -> Result<(), BusError> {
    let bad = |why: &str| Err(BusError::Config(format!("{what} `{value}` {why}")));
    if let Some(c) = value.chars().find(|c| matches!(c, '*' | '$' | '#' | '?')) {
        return bad(&format!(
            "contains `{c}` (wildcards and reserved characters are not allowed)"
        ));
    }
    if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return bad("contains whitespace or control characters");
    }
    if value.starts_with('/') || value.ends_with('/') {
        return bad("must not start or end with `/`");
    }
    if value.split('/').any(str::is_empty) {
        return bad("has an empty chunk");
    }
    if let Err(err) = zenoh::key_expr::keyexpr::new(value) {
        return bad(&format!("is not a valid key: {err}"));
    }
    Ok(())
}

/// Checks a namespace: empty (no prefix) or a valid key prefix.
fn validate_namespace(namespace: &str) -> Result<(), BusError> {
    if namespace.is_empty() {
        Ok(())
    } else {
        validate_key_part("namespace", namespace)
    }
}

/// A topic as used on the bus: one leading `/` (ROS style) is accepted and removed.
fn normalize_topic(topic: &str) -> Result<&str, BusError> {
    let topic = topic.strip_prefix('/').unwrap_or(topic);
    if topic.is_empty() {
        return Err(BusError::Config("empty topic name".to_owned()));
    }
    validate_key_part("topic", topic)?;
    Ok(topic)
}

/// A handle on the bus: publish JSON messages, subscribe to topics. Cheap to clone; all
/// clones share one session (Zenoh) or one hub (in-process).
#[derive(Clone)]
pub struct Bus {
    inner: Arc<Inner>,
}

impl fmt::Debug for Bus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let transport = match self.inner.transport {
            Transport::InProcess => "in-process",
            Transport::Zenoh(_) => "zenoh",
            #[cfg(feature = "ros2")]
            Transport::Ros2(_) => "ros2",
        };
        f.debug_struct("Bus")
            .field("transport", &transport)
            .field("namespace", &self.inner.namespace)
            .field("closed", &self.inner.closed.load(Ordering::Relaxed))
            .finish()
    }
}

impl Bus {
    fn with_transport(namespace: String, transport: Transport) -> Self {
        Self {
            inner: Arc::new(Inner {
                namespace,
                closed: AtomicBool::new(false),
                registry: Mutex::new(Registry::default()),
                subscribed: Condvar::new(),
                transport,
            }),
        }
    }

    /// An in-process bus with no namespace: publish fans out synchronously to the matching
    /// subscriptions, in the order they were created.
    pub fn in_process() -> Self {
        Self::with_transport(String::new(), Transport::InProcess)
    }

    /// An in-process bus reporting `namespace` (validated like a Zenoh namespace).
    pub fn in_process_with_namespace(namespace: &str) -> Result<Self, BusError> {
        validate_namespace(namespace)?;
        Ok(Self::with_transport(
            namespace.to_owned(),
            Transport::InProcess,
        ))
    }

    /// Opens a Zenoh session. In client mode this blocks until the listener is reachable
    /// (retrying with Zenoh's back-off); call it from a plain thread or a multi-threaded runtime.
    pub fn zenoh(options: &ZenohOptions) -> Result<Self, BusError> {
        validate_namespace(&options.namespace)?;
        let config = zenoh_config(options)?;
        tracing::debug!(mode = options.mode.as_str(), listen = ?options.listen, connect = ?options.connect,
            namespace = %options.namespace, "opening zenoh session");
        let session = zenoh::open(config).wait().map_err(zenoh_error)?;
        tracing::info!(zid = %session.zid(), namespace = %options.namespace, "zenoh session open");
        Ok(Self::with_transport(
            options.namespace.clone(),
            Transport::Zenoh(ZenohTransport {
                session,
                publishers: Mutex::new(HashMap::new()),
            }),
        ))
    }

    /// Joins the ROS 2 graph as node `options.node_name` (rmw_zenoh wire format, Humble):
    /// publishing and subscribing then go through the ROS topics, TF and the Nav2 action that
    /// [`crate::ros2::routes`] gives each runtime topic; payloads stay the runtime's JSON
    /// on this API.
    #[cfg(feature = "ros2")]
    pub fn ros2(options: &crate::Ros2Options) -> Result<Self, BusError> {
        let transport = crate::ros2::rmw::Ros2Transport::open(options)?;
        Ok(Self::with_transport(
            String::new(),
            Transport::Ros2(Box::new(transport)),
        ))
    }

    /// Without the cargo feature `ros2`: an error saying how to get it.
    #[cfg(not(feature = "ros2"))]
    pub fn ros2(_options: &crate::Ros2Options) -> Result<Self, BusError> {
        Err(BusError::Config(
            "this build has no ROS 2 transport: build with the cargo feature `ros2` \
             (on by default in the binaries)"
                .to_owned(),
        ))
    }

    /// The robot namespace prefixed to every key ("" for none).
    pub fn namespace(&self) -> &str {
        &self.inner.namespace
    }

    /// Whether [`close`](Self::close) was called.
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::Acquire)
    }

    /// The Zenoh key of `topic`: `<namespace>/<topic>`, or just the topic without a namespace.
    pub fn key(&self, topic: &str) -> Result<String, BusError> {
        let topic = normalize_topic(topic)?;
        Ok(self.key_of(topic))
    }

    fn key_of(&self, topic: &str) -> String {
        if self.inner.namespace.is_empty() {
            topic.to_owned()
        } else {
            format!("{}/{topic}", self.inner.namespace)
        }
    }

    /// Serialises `msg` to JSON and publishes it on `topic` (Zenoh encoding `application/json`).
    pub fn publish<T: Serialize>(&self, topic: &str, msg: &T) -> Result<(), BusError> {
        let topic = normalize_topic(topic)?;
        let payload = serde_json::to_vec(msg).map_err(|err| BusError::Encode {
            topic: topic.to_owned(),
            message: err.to_string(),
        })?;
        self.send(topic, payload)
    }

    /// Publishes bytes on `topic` as they are: a JSON payload encoded elsewhere (the same bytes
    /// [`publish`](Self::publish) would send), or garbage in tests.
    pub fn publish_raw(&self, topic: &str, payload: &[u8]) -> Result<(), BusError> {
        let topic = normalize_topic(topic)?;
        self.send(topic, payload.to_vec())
    }

    /// Publishes a CDR payload as it is on the ROS topic that carries `topic` (ROS 2 transport
    /// only): for relaying recorded ROS payloads and for tests that send malformed CDR.
    pub fn publish_cdr(&self, topic: &str, payload: &[u8]) -> Result<(), BusError> {
        let topic = normalize_topic(topic)?;
        if self.is_closed() {
            return Err(BusError::Closed);
        }
        match &self.inner.transport {
            #[cfg(feature = "ros2")]
            Transport::Ros2(r) => r.send_cdr(topic, payload),
            _ => {
                let _ = payload;
                Err(BusError::Config(format!(
                    "topic `{topic}`: CDR payloads need the ROS 2 transport"
                )))
            }
        }
    }

    fn send(&self, topic: &str, payload: Vec<u8>) -> Result<(), BusError> {
        if self.is_closed() {
            return Err(BusError::Closed);
        }
        match &self.inner.transport {
            Transport::InProcess => {
                let registry = lock(&self.inner.registry);
                for entry in registry
                    .entries
                    .iter()
                    .filter(|e| e.topics.iter().any(|t| t == topic))
                {
                    entry.queue.push(Received {
                        topic: topic.to_owned(),
                        payload: payload.clone(),
                    });
                }
                Ok(())
            }
            Transport::Zenoh(z) => {
                let publisher = self.publisher(z, topic)?;
                publisher.put(payload).wait().map_err(zenoh_error)
            }
            #[cfg(feature = "ros2")]
            Transport::Ros2(r) => r.send(topic, &payload),
        }
    }

    /// The cached publisher of `topic`, declared on first use.
    fn publisher(
        &self,
        z: &ZenohTransport,
        topic: &str,
    ) -> Result<Arc<Publisher<'static>>, BusError> {
        let key = self.key_of(topic);
        let mut publishers = lock(&z.publishers);
        if let Some(publisher) = publishers.get(&key) {
            return Ok(Arc::clone(publisher));
        }
        let publisher = z
            .session
            .declare_publisher(key.clone())
            .encoding(Encoding::APPLICATION_JSON)
            .express(true)
            .wait()
            .map_err(zenoh_error)?;
        let publisher = Arc::new(publisher);
        publishers.insert(key, Arc::clone(&publisher));
        Ok(publisher)
    }

    /// Subscribes to several topics at once: one bounded queue, messages in arrival order.
    pub fn subscribe(&self, topics: &[&str]) -> Result<Subscription, BusError> {
        if self.is_closed() {
            return Err(BusError::Closed);
        }
        let mut names: Vec<String> = Vec::with_capacity(topics.len());
        for topic in topics {
            let topic = normalize_topic(topic)?;
            if !names.iter().any(|n| n == topic) {
                names.push(topic.to_owned());
            }
        }
        let queue = Arc::new(Queue::new(QUEUE_CAPACITY));
        let mut zenoh_subscribers = Vec::new();
        #[cfg(feature = "ros2")]
        let mut ros2_subscriptions = Vec::new();
        #[cfg(feature = "ros2")]
        if let Transport::Ros2(r) = &self.inner.transport {
            for topic in &names {
                ros2_subscriptions.push(r.subscribe(topic, &queue)?);
            }
        }
        if let Transport::Zenoh(z) = &self.inner.transport {
            for topic in &names {
                let queue = Arc::clone(&queue);
                let name = topic.clone();
                let subscriber = z
                    .session
                    .declare_subscriber(self.key_of(topic))
                    .callback(move |sample| {
                        let payload = sample.payload().to_bytes().into_owned();
                        queue.push(Received {
                            topic: name.clone(),
                            payload,
                        });
                    })
                    .wait()
                    .map_err(zenoh_error)?;
                zenoh_subscribers.push(subscriber);
            }
        }
        let id = {
            let mut registry = lock(&self.inner.registry);
            let id = registry.next_id;
            registry.next_id += 1;
            registry.entries.push(Entry {
                id,
                topics: names.clone(),
                queue: Arc::clone(&queue),
            });
            id
        };
        self.inner.subscribed.notify_all();
        Ok(Subscription {
            bus: self.clone(),
            id,
            topics: names,
            queue,
            _zenoh: zenoh_subscribers,
            #[cfg(feature = "ros2")]
            _ros2: ros2_subscriptions,
        })
    }

    /// Whether someone subscribes to `topic` now (never blocks).
    pub fn has_subscriber(&self, topic: &str) -> bool {
        self.wait_for_subscriber(topic, Duration::ZERO)
    }

    /// Waits until someone subscribes to `topic`: on Zenoh the topic's publisher reports a
    /// matching subscriber (local or remote); in-process any subscription includes it.
    pub fn wait_for_subscriber(&self, topic: &str, timeout: Duration) -> bool {
        let Ok(topic) = normalize_topic(topic) else {
            return false;
        };
        let start = Instant::now();
        let remaining = || timeout.saturating_sub(start.elapsed());
        match &self.inner.transport {
            Transport::InProcess => {
                let mut registry = lock(&self.inner.registry);
                loop {
                    if registry
                        .entries
                        .iter()
                        .any(|e| e.topics.iter().any(|t| t == topic))
                    {
                        return true;
                    }
                    let left = remaining();
                    if left.is_zero() || self.is_closed() {
                        return false;
                    }
                    registry = self
                        .inner
                        .subscribed
                        .wait_timeout(registry, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
            }
            Transport::Zenoh(z) => {
                let publisher = match self.publisher(z, topic) {
                    Ok(publisher) => publisher,
                    Err(err) => {
                        tracing::warn!(%topic, %err, "cannot declare publisher");
                        return false;
                    }
                };
                loop {
                    if self.is_closed() {
                        return false;
                    }
                    match publisher.matching_status().wait() {
                        Ok(status) if status.matching() => return true,
                        Ok(_) => {}
                        Err(err) => {
                            tracing::warn!(%topic, %err, "matching status unavailable");
                            return false;
                        }
                    }
                    let left = remaining();
                    if left.is_zero() {
                        return false;
                    }
                    std::thread::sleep(left.min(Duration::from_millis(10)));
                }
            }
            #[cfg(feature = "ros2")]
            Transport::Ros2(r) => loop {
                if r.has_subscriber(topic) {
                    return true;
                }
                let left = remaining();
                if left.is_zero() || self.is_closed() {
                    return false;
                }
                std::thread::sleep(left.min(Duration::from_millis(10)));
            },
        }
    }

    /// Closes the bus for every clone: publishing fails with [`BusError::Closed`], receivers
    /// drain what is queued and then get `None`, the Zenoh session is closed.
    pub fn close(&self) {
        if self.inner.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        for entry in &lock(&self.inner.registry).entries {
            entry.queue.close();
        }
        self.inner.subscribed.notify_all();
        #[cfg(feature = "ros2")]
        if let Transport::Ros2(r) = &self.inner.transport {
            r.close();
        }
        if let Transport::Zenoh(z) = &self.inner.transport {
            lock(&z.publishers).clear();
            if let Err(err) = z.session.close().wait() {
                tracing::warn!(%err, "closing the zenoh session failed");
            }
        }
    }
}

/// A queue of messages from one or more topics, in arrival order. Holds at most 4096
/// messages; when full the oldest is dropped and counted in [`dropped`](Self::dropped).
/// Dropping the subscription unsubscribes.
pub struct Subscription {
    bus: Bus,
    id: u64,
    topics: Vec<String>,
    queue: Arc<Queue>,
    _zenoh: Vec<Subscriber<()>>,
    #[cfg(feature = "ros2")]
    _ros2: Vec<crate::ros2::rmw::Ros2Subscription>,
}

impl fmt::Debug for Subscription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subscription")
            .field("topics", &self.topics)
            .field("pending", &self.queue.len())
            .field("dropped", &self.queue.dropped())
            .finish()
    }
}

impl Subscription {
    /// The next message, waiting at most `timeout`; `None` on timeout or once closed and empty.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Received> {
        self.queue.pop_timeout(timeout)
    }

    /// The next message if one is queued.
    pub fn try_recv(&self) -> Option<Received> {
        self.queue.try_pop()
    }

    /// The topics of this subscription (normalised, without the namespace).
    pub fn topics(&self) -> &[String] {
        &self.topics
    }

    /// How many messages wait in the queue.
    pub fn pending(&self) -> usize {
        self.queue.len()
    }

    /// How many messages were dropped (oldest first) because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.queue.dropped()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        lock(&self.bus.inner.registry)
            .entries
            .retain(|e| e.id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Mode;

    #[test]
    fn namespaces_are_validated() {
        for bad in ["red/", "/red", "r*d", "a$b", "a#b", "a?b", "a//b", "a b"] {
            assert!(
                matches!(validate_namespace(bad), Err(BusError::Config(_))),
                "{bad}"
            );
        }
        for good in ["", "red", "team/red", "robot-1_x"] {
            assert_eq!(validate_namespace(good), Ok(()), "{good}");
        }
    }

    #[test]
    fn topics_lose_one_leading_slash() {
        assert_eq!(normalize_topic("/obj_hp"), Ok("obj_hp"));
        assert_eq!(
            normalize_topic("navigate_through_poses/_action/status"),
            Ok("navigate_through_poses/_action/status")
        );
        assert!(normalize_topic("").is_err());
        assert!(normalize_topic("/").is_err());
        assert!(normalize_topic("a/*").is_err());
    }

    #[test]
    fn keys_carry_the_namespace() {
        let bus = Bus::in_process_with_namespace("red");
        assert_eq!(
            bus.and_then(|b| b.key("/obj_hp")),
            Ok("red/obj_hp".to_owned())
        );
        assert_eq!(Bus::in_process().key("obj_hp"), Ok("obj_hp".to_owned()));
    }

    #[test]
    fn config_without_file_is_loopback_safe() {
        let config = zenoh_config(&ZenohOptions::default());
        let get = |key: &str| config.as_ref().ok().and_then(|c| c.get_json(key).ok());
        assert_eq!(get("scouting/multicast/enabled").as_deref(), Some("false"));
        assert_eq!(get("scouting/gossip/enabled").as_deref(), Some("false"));
        assert_eq!(
            get("listen/endpoints").as_deref(),
            Some(r#"["tcp/127.0.0.1:7447"]"#)
        );
        assert_eq!(get("mode").as_deref(), Some(r#""peer""#));
        assert_eq!(
            get("transport/link/tx/queue/congestion_control/drop/wait_before_drop").as_deref(),
            Some("50000")
        );
    }

    #[test]
    fn file_gaps_are_filled_safely_and_flags_override()
    -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("viewer.json5");
        std::fs::write(
            &path,
            r#"{ mode: "client", connect: { endpoints: ["tcp/127.0.0.1:9"] } }"#,
        )?;
        let options = ZenohOptions {
            listen: Vec::new(),
            connect: vec!["tcp/127.0.0.1:7448".to_owned()],
            config_file: Some(path),
            ..ZenohOptions::default()
        };
        let config = zenoh_config(&options)?;
        assert_eq!(
            config.get_json("mode")?,
            r#""client""#,
            "the file's mode stays"
        );
        assert_eq!(
            config.get_json("connect/endpoints")?,
            r#"["tcp/127.0.0.1:7448"]"#
        );
        assert_eq!(config.get_json("scouting/multicast/enabled")?, "false");
        assert_eq!(config.get_json("scouting/gossip/enabled")?, "false");
        assert_eq!(config.get_json("connect/timeout_ms")?, "-1");
        assert_eq!(config.get_json("connect/exit_on_failure")?, "false");
        Ok(())
    }

    #[test]
    fn client_config_waits_for_the_listener() {
        let options = ZenohOptions {
            mode: Mode::Client,
            listen: Vec::new(),
            connect: vec!["tcp/127.0.0.1:7447".to_owned()],
            ..ZenohOptions::default()
        };
        let config = zenoh_config(&options);
        let get = |key: &str| config.as_ref().ok().and_then(|c| c.get_json(key).ok());
        assert_eq!(get("connect/timeout_ms").as_deref(), Some("-1"));
        assert_eq!(get("connect/exit_on_failure").as_deref(), Some("false"));
        assert_eq!(get("listen/endpoints").as_deref(), Some("[]"));
        let lonely = ZenohOptions {
            mode: Mode::Client,
            listen: Vec::new(),
            ..ZenohOptions::default()
        };
        assert!(matches!(zenoh_config(&lonely), Err(BusError::Config(_))));
    }
}
