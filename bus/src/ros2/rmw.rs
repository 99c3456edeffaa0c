//! The ROS 2 transport: the bus's topics as a ROS 2 node on Zenoh in rmw_zenoh's wire format
//! (CDR payloads, rmw key expressions and attachments, liveliness tokens for the ROS graph),
//! through `hiroz`. Nodes run with `RMW_IMPLEMENTATION=rmw_zenoh_cpp` see it in `ros2 node
//! list` and can `ros2 topic echo` its topics.
//!
//! Each runtime topic travels as its [`Route`] says: message topics as their ROS type, the pose
//! as TF, the Nav2 goal and cancel as calls of a real `NavigateThroughPoses` action client and
//! its status and feedback from the action's topics. A side that subscribes to the goal (the
//! fake publisher's Nav2) serves the action instead, and what it publishes on the status and
//! feedback topics drives its goals.
//!
//! Payloads that are not CDR of the expected type reach the subscriber as a JSON string naming
//! the CDR error, so the node counts and reports them like any other malformed message.

use super::cdr;
use super::msg::{self, RosMessage, dds_type_name};
use super::nav::{KnownGoals, NavAction, NavClient, NavServer};
use super::routes::{self, Route, nav_feedback_topic, nav_status_topic, route};
use super::tf::{self, TfBuffer};
use super::type_hash;
use crate::messages;
use crate::options::{Distro, Ros2Options};
use crate::queue::Queue;
use crate::transport::{BusError, Received, lock};
use hiroz::Builder;
use hiroz::context::{KeyExprFormat, ZContext, ZContextBuilder};
use hiroz::entity::{EndpointKind, TypeHash, TypeInfo};
use hiroz::msg::{SerdeCdrSerdes, ZMessage};
use hiroz::node::ZNode;
use hiroz::pubsub::ZPub;
use hiroz::qos::{QosDurability, QosHistory, QosProfile, QosReliability};
use hiroz::queue::BoundedQueue;
use hiroz::topic_name::qualify_topic_name;
use hiroz_protocol::entity::{EndpointEntity, Entity, LivelinessKE, NodeEntity, TopicKE};
use hiroz_protocol::{DynKeyExprFormatter, KeyExprFormatter, RmwZenohFormatter};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, OnceLock};
use zenoh::sample::Sample;

/// The payload type of every hiroz endpoint here: payloads are encoded and decoded by
/// [`cdr`], so hiroz only needs the type's name, which each endpoint gets at run time.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub(crate) struct Opaque;

impl ZMessage for Opaque {
    type Serdes = SerdeCdrSerdes<Opaque>;
}

/// A publisher of pre-encoded CDR payloads.
pub(crate) type RawPublisher = ZPub<Opaque, SerdeCdrSerdes<Opaque>>;

pub(crate) fn ros_error(what: &str, err: impl std::fmt::Display) -> BusError {
    BusError::Zenoh(format!("ROS 2 {what}: {err}"))
}

/// The rmw type info of `type_name`. Its hash stays zero: hiroz writes Humble's
/// `TypeHashNotSupported` for it, which [`JazzyKeys`] replaces for Jazzy.
pub(crate) fn type_info(type_name: &str) -> TypeInfo {
    TypeInfo::new(&dds_type_name(type_name), TypeHash::zero())
}

/// What Humble's rmw_zenoh writes where Jazzy's writes the type hash.
const NO_TYPE_HASH: &str = "TypeHashNotSupported";

/// Jazzy's key expressions: rmw_zenoh's, with each endpoint type's RIHS01 hash
/// ([`type_hash`]) where Humble's carry [`NO_TYPE_HASH`]. hiroz, built for Humble, writes the
/// rest (data keys, liveliness tokens, QoS) the same for both distributions. (With a custom
/// format hiroz does not join rmw_zenoh's CPU buffer group, which only matters for large
/// `uint8[]` payloads; none of our types has one.)
#[derive(Debug)]
struct JazzyKeys;

impl JazzyKeys {
    /// `key` with the hash of `entity`'s type in the segment after the type's name, which must
    /// be Humble's placeholder (anything else, or a type without a description, is refused: a
    /// key with a wrong hash would match nobody, silently).
    fn with_hash(key: &str, entity: &EndpointEntity) -> zenoh::Result<String> {
        let Some(info) = &entity.type_info else {
            return Ok(key.to_owned());
        };
        let mut segments: Vec<&str> = key.split('/').collect();
        let hash_at = segments
            .windows(2)
            .position(|pair| pair == [info.name.as_str(), NO_TYPE_HASH])
            .map(|type_at| type_at + 1)
            .ok_or_else(|| {
                format!(
                    "`{key}` has no `{}/{NO_TYPE_HASH}` for Jazzy's type hash",
                    info.name
                )
            })?;
        let hash = type_hash::rihs01_of_dds_name(&info.name)?;
        segments[hash_at] = &hash;
        Ok(segments.join("/"))
    }
}

impl DynKeyExprFormatter for JazzyKeys {
    fn topic_key_expr(&self, entity: &EndpointEntity) -> zenoh::Result<TopicKE> {
        let key = RmwZenohFormatter::topic_key_expr(entity)?;
        Ok(TopicKE::new(
            Self::with_hash(key.as_str(), entity)?.try_into()?,
        ))
    }
    fn liveliness_key_expr(
        &self,
        entity: &EndpointEntity,
        zid: &zenoh::session::ZenohId,
    ) -> zenoh::Result<LivelinessKE> {
        let key = RmwZenohFormatter::liveliness_key_expr(entity, zid)?;
        Ok(LivelinessKE::new(
            Self::with_hash(key.as_str(), entity)?.try_into()?,
        ))
    }
    fn node_liveliness_key_expr(&self, entity: &NodeEntity) -> zenoh::Result<LivelinessKE> {
        RmwZenohFormatter::node_liveliness_key_expr(entity)
    }
    fn parse_liveliness(&self, key: &zenoh::key_expr::KeyExpr) -> zenoh::Result<Entity> {
        RmwZenohFormatter::parse_liveliness(key)
    }
    fn encode_qos(&self, qos: &hiroz_protocol::qos::QosProfile, keyless: bool) -> String {
        RmwZenohFormatter::encode_qos(qos, keyless)
    }
    fn decode_qos(&self, text: &str) -> zenoh::Result<(bool, hiroz_protocol::qos::QosProfile)> {
        RmwZenohFormatter::decode_qos(text)
    }
    fn liveliness_pattern(&self, domain_id: usize) -> String {
        format!("{}/{domain_id}/**", RmwZenohFormatter::ADMIN_SPACE)
    }
}

/// Best effort, keep last 1, volatile: how the original subscribes its inputs.
fn sensor_qos() -> QosProfile {
    QosProfile {
        reliability: QosReliability::BestEffort,
        history: QosHistory::KeepLast(NonZeroUsize::MIN),
        ..QosProfile::default()
    }
}

/// Reliable, keep last `depth`, volatile.
fn reliable_qos(depth: usize) -> QosProfile {
    QosProfile {
        reliability: QosReliability::Reliable,
        history: QosHistory::KeepLast(NonZeroUsize::new(depth).unwrap_or(NonZeroUsize::MIN)),
        ..QosProfile::default()
    }
}

/// Reliable, transient local, keep last `depth` (`/tf_static`).
fn latched_qos(depth: usize) -> QosProfile {
    QosProfile {
        durability: QosDurability::TransientLocal,
        ..reliable_qos(depth)
    }
}

/// The ROS 2 side of a bus: one context, one node, its publishers, the Nav2 action.
pub(crate) struct Ros2Transport {
    runtime: tokio::runtime::Runtime,
    node: ZNode,
    publishers: Mutex<HashMap<String, Arc<RawPublisher>>>,
    nav_client: Mutex<Option<NavClient>>,
    known_goals: Arc<Mutex<KnownGoals>>,
    nav_server: Mutex<Option<NavServer>>,
    /// The one subscriber of the action's status topic, for every status subscription.
    status_listener: Mutex<Option<Arc<Ros2Subscription>>>,
    distro: Distro,
    _context: ZContext,
}

impl std::fmt::Debug for Ros2Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ros2Transport")
            .field("node", &self.node.name())
            .field("namespace", &self.node.namespace())
            .finish_non_exhaustive()
    }
}

impl Ros2Transport {
    /// Opens the context (the Zenoh session) and declares the node.
    pub(crate) fn open(options: &Ros2Options) -> Result<Self, BusError> {
        // The session as the JSON transport's: the same flags, file and client retry.
        let mut builder = ZContextBuilder::default()
            .with_domain_id(options.domain_id as usize)
            .with_zenoh_config(options.session_config()?);
        if options.distro == Distro::Jazzy {
            builder = builder.keyexpr_format(KeyExprFormat::Custom(Arc::new(JazzyKeys)));
        }
        let context = builder.build().map_err(|e| ros_error("context", e))?;
        let mut node = context.create_node(&options.node_name).without_parameters();
        if !options.ros_namespace.is_empty() {
            node = node.with_namespace(&options.ros_namespace);
        }
        let node = node.build().map_err(|e| ros_error("node", e))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ros2-action")
            .enable_all()
            .build()
            .map_err(|e| ros_error("runtime", e))?;
        tracing::info!(node = %options.node_name, domain = options.domain_id,
            namespace = %options.ros_namespace, distro = ?options.distro, "ROS 2 node up (rmw_zenoh)");
        Ok(Self {
            runtime,
            node,
            publishers: Mutex::new(HashMap::new()),
            nav_client: Mutex::new(None),
            known_goals: Arc::default(),
            nav_server: Mutex::new(None),
            status_listener: Mutex::new(None),
            distro: options.distro,
            _context: context,
        })
    }

    /// The cached publisher of `ros_name`, declared on first use.
    fn publisher(
        &self,
        ros_name: &str,
        type_name: &'static str,
        qos: QosProfile,
    ) -> Result<Arc<RawPublisher>, BusError> {
        let mut publishers = lock(&self.publishers);
        if let Some(p) = publishers.get(ros_name) {
            return Ok(Arc::clone(p));
        }
        let publisher = self
            .node
            .create_pub_impl::<Opaque>(ros_name, Some(type_info(type_name)))
            .with_qos(qos)
            .build()
            .map_err(|e| ros_error(&format!("publisher `{ros_name}`"), e))?;
        let publisher = Arc::new(publisher);
        publishers.insert(ros_name.to_owned(), Arc::clone(&publisher));
        Ok(publisher)
    }

    fn publish_cdr(
        &self,
        ros_name: &str,
        type_name: &'static str,
        qos: QosProfile,
        payload: Vec<u8>,
    ) -> Result<(), BusError> {
        self.publisher(ros_name, type_name, qos)?
            .publish_serialized(payload)
            .map_err(|e| ros_error(&format!("publish on `{ros_name}`"), e))
    }

    /// Publishes the runtime's JSON `payload` of `topic` the ROS way.
    pub(crate) fn send(&self, topic: &str, payload: &[u8]) -> Result<(), BusError> {
        match route(topic) {
            Route::Message(m) => {
                let cdr = (m.to_ros)(topic, payload).map_err(|message| BusError::Encode {
                    topic: topic.to_owned(),
                    message,
                })?;
                self.publish_cdr(m.ros_name, m.type_name, reliable_qos(10), cdr)
            }
            Route::Pose => {
                let pose: messages::PoseMsg = decoded(topic, payload)?;
                let tf = cdr::encode(&tf::pose_transform(&pose));
                self.publish_cdr(
                    tf::TF_TOPIC,
                    msg::TfMessage::TYPE_NAME,
                    reliable_qos(100),
                    tf,
                )
            }
            Route::NavGoal => {
                let goal = decoded(topic, payload)?;
                self.client()?.request(NavAction::Goal(goal));
                Ok(())
            }
            Route::NavCancel => {
                let cancel: messages::NavCancel = decoded(topic, payload)?;
                self.client()?.request(NavAction::Cancel(cancel.goal_id));
                Ok(())
            }
            Route::NavStatus => {
                self.server()?.report_status(&decoded(topic, payload)?);
                Ok(())
            }
            Route::NavFeedback => {
                self.server()?.report_feedback(&decoded(topic, payload)?);
                Ok(())
            }
        }
    }

    /// Publishes `payload` unconverted on the ROS topic of `topic` (for the action's topics:
    /// the action's status or feedback topic; the goal and cancel are calls, not topics).
    pub(crate) fn send_cdr(&self, topic: &str, payload: &[u8]) -> Result<(), BusError> {
        let (name, type_name) = route(topic).ros_topic().ok_or_else(|| {
            BusError::Config(format!(
                "topic `{topic}` is a call of the Nav2 action, not a ROS topic"
            ))
        })?;
        self.publish_cdr(name, type_name, reliable_qos(10), payload.to_vec())
    }

    /// The action client, created on first use.
    fn client(&self) -> Result<NavClient, BusError> {
        started_once(&self.nav_client, || {
            let (node, runtime, goals) = (&self.node, &self.runtime, &self.known_goals);
            match self.distro {
                Distro::Humble => {
                    NavClient::start::<msg::NavigateThroughPosesResult>(node, runtime, goals)
                }
                Distro::Jazzy => {
                    NavClient::start::<msg::NavigateThroughPosesResultJazzy>(node, runtime, goals)
                }
            }
        })
    }

    /// The action server (the simulated Nav2), created on first use.
    fn server(&self) -> Result<NavServer, BusError> {
        started_once(&self.nav_server, || {
            let (node, runtime, goals) = (&self.node, &self.runtime, &self.known_goals);
            match self.distro {
                Distro::Humble => {
                    NavServer::start::<msg::NavigateThroughPosesResult>(node, runtime, goals)
                }
                Distro::Jazzy => {
                    NavServer::start::<msg::NavigateThroughPosesResultJazzy>(node, runtime, goals)
                }
            }
        })
    }

    /// The subscriber of the action's status topic, created on first use: each status list
    /// is decoded once and goes to every status subscription through the goal book.
    fn status_listener(&self) -> Result<Arc<Ros2Subscription>, BusError> {
        started_once(&self.status_listener, || {
            let goals = Arc::clone(&self.known_goals);
            let mut handle = Ros2Subscription::default();
            self.pump(
                &mut handle,
                nav_status_topic(),
                reliable_qos(10),
                move |payload| match cdr::decode::<msg::GoalStatusList>(payload) {
                    Ok(list) => lock(&goals).on_status(list),
                    Err(e) => lock(&goals).on_malformed_status(&e.to_string()),
                },
            )?;
            Ok(Arc::new(handle))
        })
    }

    /// Starts delivering `topic` into `queue`.
    pub(crate) fn subscribe(
        &self,
        topic: &str,
        queue: &Arc<Queue>,
    ) -> Result<Ros2Subscription, BusError> {
        let mut handle = Ros2Subscription::default();
        match route(topic) {
            Route::Message(m) => {
                let qos = if m.sensor_qos {
                    sensor_qos()
                } else {
                    reliable_qos(10)
                };
                let deliver = Delivery::new(topic, queue);
                let from_ros = m.from_ros;
                self.pump(
                    &mut handle,
                    (m.ros_name, m.type_name),
                    qos,
                    move |payload| {
                        deliver.converted(from_ros(payload));
                    },
                )?;
            }
            Route::Pose => {
                let buffer = Arc::new(Mutex::new(TfBuffer::default()));
                for (name, qos) in [
                    (tf::TF_TOPIC, reliable_qos(100)),
                    (tf::TF_STATIC_TOPIC, latched_qos(100)),
                ] {
                    let deliver = Delivery::new(topic, queue);
                    let buffer = Arc::clone(&buffer);
                    let route = (name, msg::TfMessage::TYPE_NAME);
                    self.pump(&mut handle, route, qos, move |payload| {
                        match cdr::decode::<msg::TfMessage>(payload) {
                            Ok(tf) => {
                                let mut buffer = lock(&buffer);
                                buffer.insert(tf);
                                if let Some(pose) = buffer.robot_pose() {
                                    deliver.json(&pose);
                                }
                            }
                            Err(e) => deliver.malformed(&e.to_string()),
                        }
                    })?;
                }
            }
            Route::NavStatus => {
                lock(&self.known_goals).deliver_status_to(Delivery::new(topic, queue));
                self.status_listener()?;
            }
            Route::NavFeedback => {
                let deliver = Delivery::new(topic, queue);
                self.pump(
                    &mut handle,
                    nav_feedback_topic(),
                    reliable_qos(10),
                    move |payload| match cdr::decode::<msg::NavigateThroughPosesFeedbackMessage>(
                        payload,
                    ) {
                        Ok(m) => deliver.json(&KnownGoals::feedback_of(&m)),
                        Err(e) => deliver.malformed(&e.to_string()),
                    },
                )?;
            }
            Route::NavGoal => self.server()?.deliver_goals_to(topic, queue),
            Route::NavCancel => self.server()?.deliver_cancels_to(topic, queue),
        }
        Ok(handle)
    }

    /// Takes every payload of the ROS topic of `route` to `each`, on Zenoh's receiving thread
    /// as it arrives: messages from one publisher reach the queue in the order it sent them,
    /// across topics, as on the JSON transport.
    fn pump(
        &self,
        handle: &mut Ros2Subscription,
        (ros_name, type_name): (&str, &'static str),
        qos: QosProfile,
        each: impl Fn(&[u8]) + Send + Sync + 'static,
    ) -> Result<(), BusError> {
        let arrived: Arc<OnceLock<Arc<BoundedQueue<Sample>>>> = Arc::default();
        let notified = Arc::clone(&arrived);
        let each = Arc::new(each);
        let drain = move |queue: &BoundedQueue<Sample>| {
            while let Some(sample) = queue.try_recv() {
                each(&sample.payload().to_bytes());
            }
        };
        let notified_drain = drain.clone();
        let subscriber = self
            .node
            .create_sub_impl::<Opaque>(ros_name, Some(type_info(type_name)))
            .with_qos(qos)
            .with_buffer_group(hiroz::BufferGroup::Off)
            .build_with_notifier(move || {
                if let Some(queue) = notified.get() {
                    notified_drain(queue);
                }
            })
            .map_err(|e| ros_error(&format!("subscriber `{ros_name}`"), e))?;
        if let Some(queue) = &subscriber.queue {
            let _ = arrived.set(Arc::clone(queue));
            // What arrived before the queue was known here (a latched `/tf_static` sent once
            // would otherwise wait for a next sample that may never come).
            drain(queue);
        }
        handle.subscribers.push(Box::new(subscriber));
        Ok(())
    }

    /// Whether the ROS graph has a subscriber of the ROS topic `topic` travels on now (true
    /// for the action's goal and cancel, which are calls).
    pub(crate) fn has_subscriber(&self, topic: &str) -> bool {
        let Some((name, _)) = route(topic).ros_topic() else {
            return true;
        };
        match qualify_topic_name(name, self.node.namespace(), self.node.name()) {
            Ok(qualified) => {
                self.node
                    .graph()
                    .count(EndpointKind::Subscription, qualified)
                    > 0
            }
            Err(e) => {
                tracing::warn!(topic, "not a ROS topic name: {e}");
                false
            }
        }
    }

    /// Closes the publishers and the action endpoints (the context closes when dropped).
    pub(crate) fn close(&self) {
        lock(&self.publishers).clear();
        lock(&self.nav_client).take();
        lock(&self.nav_server).take();
        lock(&self.status_listener).take();
    }
}

/// The value in `slot`, started by `start` the first time.
fn started_once<T: Clone>(
    slot: &Mutex<Option<T>>,
    start: impl FnOnce() -> Result<T, BusError>,
) -> Result<T, BusError> {
    let mut slot = lock(slot);
    if let Some(value) = slot.as_ref() {
        return Ok(value.clone());
    }
    let value = start()?;
    *slot = Some(value.clone());
    Ok(value)
}

/// The runtime message in `payload` of `topic`, or an encode error naming the field.
fn decoded<T: serde::de::DeserializeOwned>(topic: &str, payload: &[u8]) -> Result<T, BusError> {
    crate::decode(topic, payload).map_err(|e| BusError::Encode {
        topic: topic.to_owned(),
        message: e.to_string(),
    })
}

/// Subscription queues that take the same messages (a status list, a served goal).
#[derive(Default)]
pub(crate) struct Sinks(Vec<Delivery>);

impl Sinks {
    /// Adds `sink`.
    pub(crate) fn push(&mut self, sink: Delivery) {
        self.0.push(sink);
    }

    /// Sends `value` as JSON (encoded once) to every sink whose subscription still exists.
    pub(crate) fn json(&mut self, value: &impl Serialize) {
        self.0.retain(Delivery::is_live);
        match routes::json(value) {
            Ok(payload) => {
                for sink in &self.0 {
                    sink.raw(payload.clone());
                }
            }
            Err(reason) => self.malformed(&reason),
        }
    }

    /// Reports a malformed payload to every sink whose subscription still exists.
    pub(crate) fn malformed(&mut self, reason: &str) {
        self.0.retain(Delivery::is_live);
        for sink in &self.0 {
            sink.malformed(reason);
        }
    }
}

/// Puts what a ROS topic brings into one subscription queue as runtime messages.
#[derive(Clone)]
pub(crate) struct Delivery {
    topic: String,
    queue: std::sync::Weak<Queue>,
}

impl Delivery {
    pub(crate) fn new(topic: &str, queue: &Arc<Queue>) -> Self {
        Self {
            topic: topic.to_owned(),
            queue: Arc::downgrade(queue),
        }
    }

    /// Delivers `payload` (JSON) as it is.
    pub(crate) fn raw(&self, payload: Vec<u8>) {
        if let Some(queue) = self.queue.upgrade() {
            queue.push(Received {
                topic: self.topic.clone(),
                payload,
            });
        }
    }

    /// Delivers `value` as JSON.
    pub(crate) fn json(&self, value: &impl Serialize) {
        self.converted(routes::json(value));
    }

    /// Delivers a conversion's result, or its error as a malformed payload.
    pub(crate) fn converted(&self, result: Result<Vec<u8>, String>) {
        match result {
            Ok(payload) => self.raw(payload),
            Err(e) => self.malformed(&e),
        }
    }

    /// A payload that was not CDR of the topic's type: a JSON string naming the error, which
    /// no runtime message decodes from, so the receiver counts it as malformed.
    pub(crate) fn malformed(&self, reason: &str) {
        tracing::debug!(topic = %self.topic, "malformed ROS 2 payload: {reason}");
        let text = serde_json::Value::String(format!("malformed CDR: {reason}"));
        self.raw(text.to_string().into_bytes());
    }

    /// Whether the subscription still exists.
    pub(crate) fn is_live(&self) -> bool {
        self.queue.strong_count() > 0
    }
}

/// The ROS subscribers of one bus subscription; dropping it undeclares them.
#[derive(Default)]
pub(crate) struct Ros2Subscription {
    subscribers: Vec<Box<dyn std::any::Any + Send + Sync>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(kind: EndpointKind, topic: &str, type_name: &str) -> EndpointEntity {
        let node = NodeEntity::new(
            0,
            zenoh::session::ZenohId::default(),
            1,
            "robot_decision".to_owned(),
            String::new(),
            String::new(),
        );
        EndpointEntity {
            id: 2,
            node: Some(node),
            kind,
            topic: topic.to_owned(),
            type_info: Some(type_info(type_name)),
            qos: hiroz_protocol::qos::QosProfile::default(),
        }
    }

    #[test]
    fn jazzy_keys_carry_the_type_hash_where_humble_has_the_placeholder() {
        let tf = endpoint(EndpointKind::Subscription, "/tf", msg::TfMessage::TYPE_NAME);
        let hash = "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087";
        let key = JazzyKeys.topic_key_expr(&tf).expect("topic key");
        assert_eq!(
            key.as_str(),
            format!("0/tf/tf2_msgs::msg::dds_::TFMessage_/{hash}")
        );
        let token = JazzyKeys
            .liveliness_key_expr(&tf, &zenoh::session::ZenohId::default())
            .expect("token");
        let humble =
            RmwZenohFormatter::liveliness_key_expr(&tf, &zenoh::session::ZenohId::default())
                .expect("token");
        assert_eq!(
            token.as_str(),
            humble.as_str().replace(NO_TYPE_HASH, hash),
            "only the hash differs"
        );
        // A service key carries the service's hash.
        let send_goal = endpoint(
            EndpointKind::Client,
            "/navigate_through_poses/_action/send_goal",
            "nav2_msgs/action/NavigateThroughPoses_SendGoal",
        );
        let key = JazzyKeys.topic_key_expr(&send_goal).expect("service key");
        let expected = type_hash::known()
            .expect("definitions")
            .rihs01("nav2_msgs/action/NavigateThroughPoses_SendGoal")
            .expect("hash");
        assert!(
            key.as_str()
                .ends_with(&format!("NavigateThroughPoses_SendGoal_/{expected}"))
        );
    }

    #[test]
    fn jazzy_keys_refuse_what_they_cannot_hash() {
        let unknown = endpoint(EndpointKind::Publisher, "/x", "no_msgs/msg/Nothing");
        let error = JazzyKeys
            .topic_key_expr(&unknown)
            .expect_err("no description");
        assert!(
            error.to_string().contains("no_msgs::msg::dds_::Nothing_"),
            "{error}"
        );
        // A key that already carries a hash (hiroz built with hashes of its own) is refused
        // rather than passed on with a hash that may be wrong.
        let point = endpoint(EndpointKind::Publisher, "/p", "geometry_msgs/msg/Point");
        let hashed = "0/p/geometry_msgs::msg::dds_::Point_/RIHS01_00";
        assert!(JazzyKeys::with_hash(hashed, &point).is_err());
    }
}
