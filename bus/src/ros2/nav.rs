//! Nav2's `NavigateThroughPoses` as a real ROS 2 action over hiroz: the client the node sends
//! its goals and cancels through, and the server the fake publisher's simulated Nav2 runs.
//!
//! The runtime names goals by a counter (`goal_id` of [`messages::NavGoal`]); the action by
//! UUID. The client keeps the UUID of each goal it sent, so statuses and feedback of its own
//! goals carry the runtime's id and those of other clients' goals none; the server numbers the
//! goals it accepts.

use super::convert;
use super::msg::{
    GoalStatusList, NavigateThroughPosesFeedback, NavigateThroughPosesFeedbackMessage,
    NavigateThroughPosesGoal, NavigateThroughPosesResult, NavigateThroughPosesResultJazzy,
    RosMessage,
};
use super::rmw::{Delivery, Sinks, ros_error, type_info};
use super::routes::NAV_ACTION;
use super::tf::MAP_FRAME;
use crate::messages::{self, GoalStatus, Header, NavCancel};
use crate::queue::Queue;
use crate::transport::{BusError, lock};
use hiroz::Builder;
use hiroz::action::GoalId;
use hiroz::action::ZAction;
use hiroz::action::client::ZActionClient;
use hiroz::action::server::{ExecutingGoal, ZActionServer};
use hiroz::entity::TypeInfo;
use hiroz::msg::{SerdeCdrSerdes, ZMessage};
use hiroz::node::ZNode;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

/// How many sent goals the client remembers the UUID of.
const REMEMBERED_GOALS: usize = 256;
/// How often a served goal looks for a cancel request.
const CANCEL_POLL: Duration = Duration::from_millis(10);

impl ZMessage for NavigateThroughPosesGoal {
    type Serdes = SerdeCdrSerdes<Self>;
}
impl ZMessage for NavigateThroughPosesResult {
    type Serdes = SerdeCdrSerdes<Self>;
}
impl ZMessage for NavigateThroughPosesResultJazzy {
    type Serdes = SerdeCdrSerdes<Self>;
}
impl ZMessage for NavigateThroughPosesFeedback {
    type Serdes = SerdeCdrSerdes<Self>;
}

/// The result of a goal in one distribution's layout of the action (the only part of it that
/// changed between Humble and Jazzy).
pub(crate) trait NavResult:
    ZMessage + Clone + Default + Send + Sync + serde::Serialize + for<'de> serde::Deserialize<'de>
{
}
impl NavResult for NavigateThroughPosesResult {}
impl NavResult for NavigateThroughPosesResultJazzy {}

/// `nav2_msgs/action/NavigateThroughPoses` with the type names rmw_zenoh gives its endpoints,
/// its result `R` as the distribution defines it.
pub(crate) struct NavigateThroughPoses<R>(PhantomData<R>);

impl<R: NavResult + 'static> ZAction for NavigateThroughPoses<R> {
    type Goal = NavigateThroughPosesGoal;
    type Result = R;
    type Feedback = NavigateThroughPosesFeedback;

    fn name() -> &'static str {
        "nav2_msgs::action::dds_::NavigateThroughPoses_"
    }
    fn send_goal_type_info() -> TypeInfo {
        type_info("nav2_msgs/action/NavigateThroughPoses_SendGoal")
    }
    fn get_result_type_info() -> TypeInfo {
        type_info("nav2_msgs/action/NavigateThroughPoses_GetResult")
    }
    fn cancel_goal_type_info() -> TypeInfo {
        type_info("action_msgs/srv/CancelGoal")
    }
    fn feedback_type_info() -> TypeInfo {
        type_info(NavigateThroughPosesFeedbackMessage::TYPE_NAME)
    }
    fn status_type_info() -> TypeInfo {
        type_info(GoalStatusList::TYPE_NAME)
    }
}

/// What the runtime asks of the action client.
#[derive(Debug)]
pub(crate) enum NavAction {
    /// Send this goal.
    Goal(messages::NavGoal),
    /// Cancel the goal with this runtime id ([`NavCancel::ANY_GOAL`]: every goal).
    Cancel(u64),
}

/// The UUIDs of the goals our client sent or our server numbered, by runtime id (the newest
/// [`REMEMBERED_GOALS`]), and the status deliveries that need them.
///
/// A goal's UUID is known here only once the server's answer to `send_goal` is back, while
/// its first statuses travel on the status topic, a separate path, and may come first. So a
/// status list with a goal we cannot place arriving while a goal is in flight is held back
/// and delivered (the newest such list) when the answer is in.
#[derive(Default)]
pub(crate) struct KnownGoals {
    by_uuid: HashMap<[u8; 16], u64>,
    by_id: HashMap<u64, GoalId>,
    order: VecDeque<u64>,
    in_flight: usize,
    held_back: Option<GoalStatusList>,
    status_sinks: Sinks,
}

impl KnownGoals {
    /// Status lists go to `sink` as runtime status messages.
    pub(crate) fn deliver_status_to(&mut self, sink: Delivery) {
        self.status_sinks.push(sink);
    }

    /// A status list from the action's status topic: delivered now, or held back while a
    /// goal it may contain is in flight.
    pub(crate) fn on_status(&mut self, list: GoalStatusList) {
        let unplaced = list
            .status_list
            .iter()
            .any(|e| !self.by_uuid.contains_key(&e.goal_info.goal_id.uuid));
        if self.in_flight > 0 && unplaced {
            self.held_back = Some(list);
        } else {
            self.deliver(&list);
        }
    }

    /// A payload on the status topic that is not a status list: every status subscription
    /// counts it as malformed.
    pub(crate) fn on_malformed_status(&mut self, reason: &str) {
        self.status_sinks.malformed(reason);
    }

    fn deliver(&mut self, list: &GoalStatusList) {
        let status = self.status_of(list);
        tracing::debug!(?status, "Nav2 status");
        self.status_sinks.json(&status);
    }

    /// A goal is on its way to the server.
    fn sending(&mut self) {
        self.in_flight += 1;
    }

    /// The server answered for a goal (`accepted` with its UUID, or not): the held-back list
    /// goes out once nothing is in flight.
    fn answered(&mut self, accepted: Option<(u64, GoalId)>) {
        if let Some((id, uuid)) = accepted {
            self.insert(id, uuid);
        }
        self.in_flight = self.in_flight.saturating_sub(1);
        if self.in_flight == 0
            && let Some(list) = self.held_back.take()
        {
            self.deliver(&list);
        }
    }

    fn insert(&mut self, id: u64, uuid: GoalId) {
        self.by_uuid.insert(*uuid.as_bytes(), id);
        self.by_id.insert(id, uuid);
        self.order.push_back(id);
        while self.order.len() > REMEMBERED_GOALS {
            if let Some(old) = self.order.pop_front()
                && let Some(uuid) = self.by_id.remove(&old)
            {
                self.by_uuid.remove(uuid.as_bytes());
            }
        }
    }

    /// The runtime's status message of the action's status list, ordered so that the last
    /// entry is the newest goal (the one the node reads): goals of unknown origin that have
    /// ended, then ours by runtime id (the order we sent them), then goals of unknown origin
    /// still active (one that runs is newer than every goal it preempted). Within a group the
    /// server's acceptance stamps order. Servers do not agree on the list's order (rclcpp's
    /// is acceptance order, hiroz's a hash map's), hence the explicit one.
    pub(crate) fn status_of(&self, list: &GoalStatusList) -> messages::GoalStatusArray {
        let mut keyed: Vec<_> = list
            .status_list
            .iter()
            .map(|e| {
                let status = u8::try_from(e.status).unwrap_or(GoalStatus::UNKNOWN);
                let ours = self.by_uuid.get(&e.goal_info.goal_id.uuid).copied();
                let group = match ours {
                    Some(id) => (1, id),
                    None if GoalStatus::is_final(status) || status == GoalStatus::UNKNOWN => (0, 0),
                    // Accepted, executing or canceling: it still runs.
                    None => (2, 0),
                };
                (group, e.goal_info.stamp, status, ours)
            })
            .collect();
        keyed.sort_by_key(|(group, stamp, _, _)| (*group, *stamp));
        messages::GoalStatusArray {
            header: Header::default(),
            status_list: keyed
                .into_iter()
                .map(|(_, _, status, goal_id)| GoalStatus { status, goal_id })
                .collect(),
        }
    }

    /// The runtime's feedback message of the action's feedback.
    pub(crate) fn feedback_of(m: &NavigateThroughPosesFeedbackMessage) -> messages::NavFeedback {
        let f = &m.feedback;
        let p = &f.current_pose.pose;
        messages::NavFeedback {
            header: f.current_pose.header.clone(),
            current_pose: convert::planar(p),
            number_of_poses_remaining: u32::try_from(f.number_of_poses_remaining).unwrap_or(0),
            distance_remaining: f.distance_remaining,
        }
    }
}

/// The node's action client: goals and cancels go out in the order they were asked for.
#[derive(Clone)]
pub(crate) struct NavClient {
    requests: UnboundedSender<NavAction>,
}

impl NavClient {
    /// Declares the client and starts the task that talks to the server; the UUIDs of the
    /// accepted goals go to `sent`.
    pub(crate) fn start<R: NavResult + 'static>(
        node: &ZNode,
        runtime: &tokio::runtime::Runtime,
        sent: &Arc<Mutex<KnownGoals>>,
    ) -> Result<Self, BusError> {
        let client: ZActionClient<NavigateThroughPoses<R>> = node
            .create_action_client::<NavigateThroughPoses<R>>(NAV_ACTION)
            .build()
            .map_err(|e| ros_error("action client", e))?;
        let (requests, mut incoming) = unbounded_channel::<NavAction>();
        let task_sent = Arc::clone(sent);
        runtime.spawn(async move {
            while let Some(request) = incoming.recv().await {
                match request {
                    NavAction::Goal(goal) => {
                        let poses = match convert::goal_poses(&goal, MAP_FRAME) {
                            Ok(p) => p,
                            Err(e) => {
                                tracing::warn!("Nav2 goal {} not sent: {e}", goal.goal_id);
                                continue;
                            }
                        };
                        let ros_goal = NavigateThroughPosesGoal {
                            poses,
                            behavior_tree: String::new(),
                        };
                        lock(&task_sent).sending();
                        match client.send_goal(ros_goal).await {
                            Ok(handle) => {
                                lock(&task_sent).answered(Some((goal.goal_id, handle.id())))
                            }
                            Err(e) => {
                                lock(&task_sent).answered(None);
                                tracing::warn!("Nav2 goal {} not accepted: {e}", goal.goal_id)
                            }
                        }
                    }
                    NavAction::Cancel(id) => {
                        let result = if id == NavCancel::ANY_GOAL {
                            client.cancel_all_goals().await
                        } else {
                            let uuid = lock(&task_sent).by_id.get(&id).copied();
                            match uuid {
                                Some(uuid) => client.cancel_goal(uuid).await,
                                None => {
                                    tracing::debug!("cancel of goal {id}: never accepted");
                                    continue;
                                }
                            }
                        };
                        if let Err(e) = result {
                            tracing::warn!("Nav2 cancel of goal {id} failed: {e}");
                        }
                    }
                }
            }
        });
        Ok(Self { requests })
    }

    /// Queues a goal or cancel.
    pub(crate) fn request(&self, action: NavAction) {
        if self.requests.send(action).is_err() {
            tracing::warn!("the Nav2 action client has stopped");
        }
    }
}

/// What the simulated Nav2 tells one goal it serves.
#[derive(Debug)]
enum GoalCommand {
    Feedback(NavigateThroughPosesFeedback),
    Finish(u8),
}

/// The server's bookkeeping, shared with the goal tasks.
struct Served {
    numbered: Arc<Mutex<KnownGoals>>,
    goal_sinks: Mutex<Sinks>,
    cancel_sinks: Mutex<Sinks>,
    goals: Mutex<BTreeMap<u64, UnboundedSender<GoalCommand>>>,
    next_id: AtomicU64,
}

impl Served {
    fn send(&self, id: u64, command: GoalCommand) {
        if let Some(goal) = lock(&self.goals).get(&id) {
            let _ = goal.send(command);
        }
    }

    fn latest(&self) -> Option<u64> {
        lock(&self.goals).keys().next_back().copied()
    }
}

/// The simulated Nav2's action server: accepted goals reach the subscribers of the goal topic,
/// cancel requests those of the cancel topic, and the statuses and feedback published on the
/// bus drive the goals. A new goal aborts the older ones, as Nav2 does when preempted.
#[derive(Clone)]
pub(crate) struct NavServer {
    served: Arc<Served>,
    /// The `ZActionServer`, kept for as long as the server serves (its type names the result
    /// layout, which only the goal tasks need).
    _server: Arc<dyn std::any::Any + Send + Sync>,
}

impl NavServer {
    /// Declares the server and starts serving; the UUIDs of the goals it numbers go to
    /// `numbered` (so that statuses read back on this side carry the numbers too).
    pub(crate) fn start<R: NavResult + 'static>(
        node: &ZNode,
        runtime: &tokio::runtime::Runtime,
        numbered: &Arc<Mutex<KnownGoals>>,
    ) -> Result<Self, BusError> {
        let served = Arc::new(Served {
            numbered: Arc::clone(numbered),
            goal_sinks: Mutex::default(),
            cancel_sinks: Mutex::default(),
            goals: Mutex::default(),
            next_id: AtomicU64::new(0),
        });
        let handler_served = Arc::clone(&served);
        // The server spawns its tasks on the runtime it is built in.
        let _entered = runtime.enter();
        let server: ZActionServer<NavigateThroughPoses<R>> = node
            .create_action_server::<NavigateThroughPoses<R>>(NAV_ACTION)
            .build()
            .map_err(|e| ros_error("action server", e))?
            .with_handler(move |goal: ExecutingGoal<NavigateThroughPoses<R>>| {
                serve_goal(Arc::clone(&handler_served), goal)
            });
        Ok(Self {
            served,
            _server: Arc::new(server),
        })
    }

    /// Accepted goals go to `queue` as `topic` messages.
    pub(crate) fn deliver_goals_to(&self, topic: &str, queue: &Arc<Queue>) {
        lock(&self.served.goal_sinks).push(Delivery::new(topic, queue));
    }

    /// Cancel requests go to `queue` as `topic` messages.
    pub(crate) fn deliver_cancels_to(&self, topic: &str, queue: &Arc<Queue>) {
        lock(&self.served.cancel_sinks).push(Delivery::new(topic, queue));
    }

    /// Ends the goals whose status the simulation reports as final (an entry without a goal id
    /// is the newest goal's).
    pub(crate) fn report_status(&self, status: &messages::GoalStatusArray) {
        for entry in &status.status_list {
            if !GoalStatus::is_final(entry.status) {
                continue;
            }
            if let Some(id) = entry.goal_id.or_else(|| self.served.latest()) {
                self.served.send(id, GoalCommand::Finish(entry.status));
            }
        }
    }

    /// Publishes the simulation's feedback for the newest goal.
    pub(crate) fn report_feedback(&self, feedback: &messages::NavFeedback) {
        let Some(id) = self.served.latest() else {
            return;
        };
        let ros = NavigateThroughPosesFeedback {
            current_pose: convert::pose_stamped(
                &feedback.current_pose,
                feedback.header.stamp,
                MAP_FRAME,
            ),
            number_of_poses_remaining: i16::try_from(feedback.number_of_poses_remaining)
                .unwrap_or(i16::MAX),
            distance_remaining: feedback.distance_remaining,
            ..NavigateThroughPosesFeedback::default()
        };
        self.served.send(id, GoalCommand::Feedback(ros));
    }
}

/// One served goal, from acceptance to its final status.
async fn serve_goal<R: NavResult + 'static>(
    served: Arc<Served>,
    goal: ExecutingGoal<NavigateThroughPoses<R>>,
) {
    let id = served.next_id.fetch_add(1, Ordering::Relaxed) + 1;
    lock(&served.numbered).insert(id, goal.info().goal_id);
    let (commands, mut incoming) = unbounded_channel();
    let older: Vec<u64> = {
        let mut goals = lock(&served.goals);
        let older = goals.keys().copied().collect();
        goals.insert(id, commands);
        older
    };
    for old in older {
        served.send(old, GoalCommand::Finish(GoalStatus::ABORTED));
    }
    let poses = &goal.goal().poses;
    let header = poses.first().map(|p| p.header.clone()).unwrap_or_default();
    let runtime_goal = messages::NavGoal {
        header: header.clone(),
        goal_id: id,
        poses: poses.iter().map(|p| convert::planar(&p.pose)).collect(),
    };
    lock(&served.goal_sinks).json(&runtime_goal);
    let mut cancel_reported = false;
    let report_cancel = |reported: &mut bool, goal: &ExecutingGoal<NavigateThroughPoses<R>>| {
        if !*reported && goal.is_cancel_requested() {
            *reported = true;
            lock(&served.cancel_sinks).json(&NavCancel {
                header: header.clone(),
                goal_id: id,
            });
        }
    };
    loop {
        // A cancel request is reported before anything ends the goal (a preempting goal
        // arrives right after the cancel of the one it replaces).
        report_cancel(&mut cancel_reported, &goal);
        tokio::select! {
            command = incoming.recv() => match command {
                Some(GoalCommand::Feedback(feedback)) => {
                    if let Err(e) = goal.publish_feedback(feedback) {
                        tracing::debug!("feedback of goal {id}: {e}");
                    }
                }
                Some(GoalCommand::Finish(status)) => {
                    report_cancel(&mut cancel_reported, &goal);
                    lock(&served.goals).remove(&id);
                    // The simulation's result is the empty one (Jazzy: error code 0, no
                    // message) whatever the status: the status says how the goal ended.
                    let result = R::default();
                    let ended = match status {
                        GoalStatus::SUCCEEDED => goal.succeed(result),
                        GoalStatus::CANCELED => goal.canceled(result),
                        _ => goal.abort(result),
                    };
                    if let Err(e) = ended {
                        tracing::debug!("ending goal {id}: {e}");
                    }
                    return;
                }
                None => return,
            },
            () = tokio::time::sleep(CANCEL_POLL) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::Stamp;
    use crate::ros2::msg::{GoalInfo, GoalStatusEntry, Uuid};

    fn entry(uuid: u8, status: i8, sec: i32) -> GoalStatusEntry {
        GoalStatusEntry {
            goal_info: GoalInfo {
                goal_id: Uuid { uuid: [uuid; 16] },
                stamp: Stamp { sec, nanosec: 0 },
            },
            status,
        }
    }

    #[test]
    fn the_newest_goal_is_last_whatever_the_servers_order() {
        let mut sent = KnownGoals::default();
        sent.insert(7, GoalId::from_bytes([7; 16]));
        sent.insert(8, GoalId::from_bytes([8; 16]));
        // hiroz lists goals in hash order with one stamp for all.
        let list = GoalStatusList {
            status_list: vec![entry(8, 4, 5), entry(9, 6, 5), entry(7, 6, 5)],
        };
        let runtime = sent.status_of(&list);
        let order: Vec<_> = runtime
            .status_list
            .iter()
            .map(|s| (s.goal_id, s.status))
            .collect();
        assert_eq!(order, [(None, 6), (Some(7), 6), (Some(8), 4)]);
        // A goal of another client that still runs is newer than ours.
        let list = GoalStatusList {
            status_list: vec![entry(3, 2, 9), entry(8, 5, 1), entry(2, 4, 0)],
        };
        let last = sent.status_of(&list).status_list.last().cloned();
        assert_eq!(last.map(|s| (s.goal_id, s.status)), Some((None, 2)));
    }

    #[test]
    fn a_list_with_a_goal_still_in_flight_waits_for_its_uuid() {
        let queue = Arc::new(Queue::new(16));
        let mut sent = KnownGoals::default();
        sent.deliver_status_to(Delivery::new("status", &queue));
        sent.insert(1, GoalId::from_bytes([1; 16]));
        sent.sending();
        // Goal 2 already succeeded on the status topic before its send_goal answer is in.
        sent.on_status(GoalStatusList {
            status_list: vec![entry(2, 4, 0), entry(1, 6, 0)],
        });
        assert_eq!(queue.len(), 0, "held back");
        sent.answered(Some((2, GoalId::from_bytes([2; 16]))));
        let delivered = queue.try_pop().expect("delivered once answered");
        let status: messages::GoalStatusArray =
            serde_json::from_slice(&delivered.payload).expect("status JSON");
        let last = status.status_list.last().cloned();
        assert_eq!(last.map(|s| (s.goal_id, s.status)), Some((Some(2), 4)));
        // Nothing in flight: lists go out at once.
        sent.on_status(GoalStatusList {
            status_list: vec![entry(9, 2, 0)],
        });
        assert_eq!(queue.len(), 1);
    }

    #[test]
    fn only_the_newest_uuids_are_remembered() {
        let mut sent = KnownGoals::default();
        for id in 0..(REMEMBERED_GOALS as u64 + 10) {
            let mut uuid = [0u8; 16];
            uuid[..8].copy_from_slice(&id.to_le_bytes());
            sent.insert(id, GoalId::from_bytes(uuid));
        }
        assert_eq!(sent.by_id.len(), REMEMBERED_GOALS);
        assert_eq!(sent.by_uuid.len(), REMEMBERED_GOALS);
        assert!(!sent.by_id.contains_key(&9) && sent.by_id.contains_key(&10));
    }
}
