//! Nav2's `NavigateThroughPoses` as a real ROS 2 action over hiroz: the client the node sends
//! its goals and cancels through, and the server the fake publisher's simulated Nav2 runs.
//!
//! The runtime names goals by a counter (`goal_id` of [`messages::NavGoal`]); the action by
//! UUID. The client keeps the UUID of each goal it sent, so statuses and feedback of its own
//! goals carry the runtime's id and those of other clients' goals none; the server numbers the
//! goals it accepts.

use super::msg::{
    GoalStatusList, NavigateThroughPosesFeedback, NavigateThroughPosesFeedbackMessage,
    NavigateThroughPosesGoal, NavigateThroughPosesResult, PoseStamped, RosMessage, dds_type_name,
};
use super::rmw::Delivery;
use super::routes::NAV_ACTION;
use super::tf::MAP_FRAME;
use super::{convert, msg};
use crate::messages::{self, GoalStatus, Header, NavCancel, Pose2};
use crate::queue::Queue;
use crate::transport::BusError;
use hiroz::Builder;
use hiroz::action::GoalId;
use hiroz::action::ZAction;
use hiroz::action::client::ZActionClient;
use hiroz::action::server::{ExecutingGoal, ZActionServer};
use hiroz::entity::{TypeHash, TypeInfo};
use hiroz::msg::{SerdeCdrSerdes, ZMessage};
use hiroz::node::ZNode;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

/// How many sent goals the client remembers the UUID of.
const REMEMBERED_GOALS: usize = 256;
/// How often a served goal looks for a cancel request.
const CANCEL_POLL: Duration = Duration::from_millis(10);

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ZMessage for NavigateThroughPosesGoal {
    type Serdes = SerdeCdrSerdes<Self>;
}
impl ZMessage for NavigateThroughPosesResult {
    type Serdes = SerdeCdrSerdes<Self>;
}
impl ZMessage for NavigateThroughPosesFeedback {
    type Serdes = SerdeCdrSerdes<Self>;
}

/// `nav2_msgs/action/NavigateThroughPoses` with the type names rmw_zenoh gives its endpoints.
pub(crate) struct NavigateThroughPoses;

fn type_info(name: &str) -> TypeInfo {
    TypeInfo::new(&dds_type_name(name), TypeHash::zero())
}

impl ZAction for NavigateThroughPoses {
    type Goal = NavigateThroughPosesGoal;
    type Result = NavigateThroughPosesResult;
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

/// The UUIDs of the goals the client sent, by runtime id (the newest [`REMEMBERED_GOALS`]).
#[derive(Debug, Default)]
pub(crate) struct SentGoals {
    by_uuid: HashMap<[u8; 16], u64>,
    by_id: HashMap<u64, GoalId>,
    order: VecDeque<u64>,
}

impl SentGoals {
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
}

/// The node's action client: goals and cancels go out in the order they were asked for.
#[derive(Clone)]
pub(crate) struct NavClient {
    requests: UnboundedSender<NavAction>,
}

impl NavClient {
    /// Declares the client and starts the task that talks to the server; the UUIDs of the
    /// accepted goals go to `sent`.
    pub(crate) fn start(
        node: &ZNode,
        runtime: &tokio::runtime::Runtime,
        sent: &Arc<Mutex<SentGoals>>,
    ) -> Result<Self, BusError> {
        let client: ZActionClient<NavigateThroughPoses> = node
            .create_action_client::<NavigateThroughPoses>(NAV_ACTION)
            .build()
            .map_err(|e| BusError::Zenoh(format!("ROS 2 action client: {e}")))?;
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
                        match client.send_goal(ros_goal).await {
                            Ok(handle) => lock(&task_sent).insert(goal.goal_id, handle.id()),
                            Err(e) => {
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

impl SentGoals {
    /// The runtime's status message of the action's status list: oldest goal first (the last
    /// entry is the newest goal, the one that counts), each with the runtime id of the goal
    /// if our client sent it.
    pub(crate) fn status_of(&self, list: &GoalStatusList) -> messages::GoalStatusArray {
        let sent = self;
        let mut entries: Vec<_> = list.status_list.iter().collect();
        entries.sort_by_key(|e| e.goal_info.stamp);
        messages::GoalStatusArray {
            header: Header::default(),
            status_list: entries
                .into_iter()
                .map(|e| GoalStatus {
                    status: u8::try_from(e.status).unwrap_or(GoalStatus::UNKNOWN),
                    goal_id: sent.by_uuid.get(&e.goal_info.goal_id).copied(),
                })
                .collect(),
        }
    }

    /// The runtime's feedback message of the action's feedback.
    pub(crate) fn feedback_of(m: &NavigateThroughPosesFeedbackMessage) -> messages::NavFeedback {
        let f = &m.feedback;
        let p = &f.current_pose.pose;
        messages::NavFeedback {
            header: f.current_pose.header.clone(),
            current_pose: Pose2 {
                x: p.position.x as f32,
                y: p.position.y as f32,
                yaw: p.orientation.yaw() as f32,
            },
            number_of_poses_remaining: u32::try_from(f.number_of_poses_remaining).unwrap_or(0),
            distance_remaining: f.distance_remaining,
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
#[derive(Default)]
struct Served {
    goal_sinks: Mutex<Vec<Delivery>>,
    cancel_sinks: Mutex<Vec<Delivery>>,
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

    fn deliver(sinks: &Mutex<Vec<Delivery>>, value: &impl serde::Serialize) {
        let mut sinks = lock(sinks);
        sinks.retain(Delivery::is_live);
        for sink in sinks.iter() {
            sink.json(value);
        }
    }
}

/// The simulated Nav2's action server: accepted goals reach the subscribers of the goal topic,
/// cancel requests those of the cancel topic, and the statuses and feedback published on the
/// bus drive the goals. A new goal aborts the older ones, as Nav2 does when preempted.
#[derive(Clone)]
pub(crate) struct NavServer {
    served: Arc<Served>,
    _server: Arc<ZActionServer<NavigateThroughPoses>>,
}

impl NavServer {
    /// Declares the server and starts serving.
    pub(crate) fn start(node: &ZNode, runtime: &tokio::runtime::Runtime) -> Result<Self, BusError> {
        let served = Arc::new(Served::default());
        let handler_served = Arc::clone(&served);
        // The server spawns its tasks on the runtime it is built in.
        let _entered = runtime.enter();
        let server = node
            .create_action_server::<NavigateThroughPoses>(NAV_ACTION)
            .build()
            .map_err(|e| BusError::Zenoh(format!("ROS 2 action server: {e}")))?
            .with_handler(move |goal: ExecutingGoal<NavigateThroughPoses>| {
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
            let final_status = matches!(
                entry.status,
                GoalStatus::SUCCEEDED | GoalStatus::CANCELED | GoalStatus::ABORTED
            );
            if !final_status {
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
        let p = feedback.current_pose;
        let ros = NavigateThroughPosesFeedback {
            current_pose: PoseStamped {
                header: Header {
                    stamp: feedback.header.stamp,
                    frame_id: MAP_FRAME.to_owned(),
                },
                pose: msg::Pose {
                    position: msg::Point {
                        x: f64::from(p.x),
                        y: f64::from(p.y),
                        z: 0.0,
                    },
                    orientation: msg::Quaternion::from_yaw(f64::from(p.yaw)),
                },
            },
            number_of_poses_remaining: i16::try_from(feedback.number_of_poses_remaining)
                .unwrap_or(i16::MAX),
            distance_remaining: feedback.distance_remaining,
            ..NavigateThroughPosesFeedback::default()
        };
        self.served.send(id, GoalCommand::Feedback(ros));
    }
}

/// One served goal, from acceptance to its final status.
async fn serve_goal(served: Arc<Served>, goal: ExecutingGoal<NavigateThroughPoses>) {
    let id = served.next_id.fetch_add(1, Ordering::Relaxed) + 1;
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
        poses: poses
            .iter()
            .map(|p| Pose2 {
                x: p.pose.position.x as f32,
                y: p.pose.position.y as f32,
                yaw: p.pose.orientation.yaw() as f32,
            })
            .collect(),
    };
    Served::deliver(&served.goal_sinks, &runtime_goal);
    let mut cancel_reported = false;
    loop {
        tokio::select! {
            command = incoming.recv() => match command {
                Some(GoalCommand::Feedback(feedback)) => {
                    if let Err(e) = goal.publish_feedback(feedback) {
                        tracing::debug!("feedback of goal {id}: {e}");
                    }
                }
                Some(GoalCommand::Finish(status)) => {
                    lock(&served.goals).remove(&id);
                    let result = NavigateThroughPosesResult::default();
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
            () = tokio::time::sleep(CANCEL_POLL) => {
                if !cancel_reported && goal.is_cancel_requested() {
                    cancel_reported = true;
                    Served::deliver(
                        &served.cancel_sinks,
                        &NavCancel { header: header.clone(), goal_id: id },
                    );
                }
            }
        }
    }
}
