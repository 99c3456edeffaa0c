//! How each runtime topic travels on ROS 2: the ROS topic name and type of a message topic
//! with the conversions of its payload between the runtime's JSON and CDR, or one of the
//! topics that ROS carries differently (the pose as TF, the Nav2 goal, cancel, status and
//! feedback through the `NavigateThroughPoses` action).
//!
//! Names follow the original: the inputs are absolute (`/obj_hp`), the node's own outputs
//! relative (`robot_decision/decision`, under the node's namespace). The soccer inputs and
//! outputs travel as messages of our package `soccer_decision_msgs` ([`super::soccer_inputs`],
//! [`super::soccer_msg`]); the runtime's topics without a ROS message (trace, tree layout,
//! events, the viewer's) carry their JSON in a `std_msgs/String`.

use super::cdr;
use super::convert::ConvertError;
use super::msg::{self, RosMessage};
use crate::decode::decode;
use crate::messages;
use crate::topics;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A payload that does not convert: the reason, naming the field.
pub type ConvertResult = Result<Vec<u8>, String>;

/// How a runtime topic travels on ROS 2 (names borrowed from the topic or `'static`: working
/// out a route allocates nothing, so it is done per message).
#[derive(Debug, Clone)]
pub enum Route<'a> {
    /// A topic of its own with a ROS message type.
    Message(MessageRoute<'a>),
    /// `pose`: the TF `map_decision` <- `base_link` on `/tf` and `/tf_static`.
    Pose,
    /// The Nav2 goal: a `send_goal` of the action.
    NavGoal,
    /// The Nav2 cancel: a `cancel_goal` of the action.
    NavCancel,
    /// The action's `_action/status` topic.
    NavStatus,
    /// The action's `_action/feedback` topic.
    NavFeedback,
}

/// A runtime topic carried as a ROS topic of type `type_name`.
#[derive(Debug, Clone)]
pub struct MessageRoute<'a> {
    /// The ROS topic name (absolute or relative to the node's namespace).
    pub ros_name: &'a str,
    /// The ROS type (`global_interface/msg/ObjHP`).
    pub type_name: &'static str,
    /// Sensor-data QoS (best effort, keep last 1) for subscribers, as the original subscribes
    /// its inputs; otherwise reliable, keep last 10.
    pub sensor_qos: bool,
    /// Runtime JSON -> CDR.
    pub to_ros: fn(&str, &[u8]) -> ConvertResult,
    /// CDR -> runtime JSON.
    pub from_ros: fn(&[u8]) -> ConvertResult,
}

/// The name of the Nav2 action (relative, as the original's client names it).
pub const NAV_ACTION: &str = "navigate_through_poses";

impl<'a> Route<'a> {
    /// The ROS topic and type this route's messages travel on (TF's moving transforms for the
    /// pose, the action's status and feedback topics); `None` for the goal and the cancel,
    /// which are calls of the action, not topics.
    pub fn ros_topic(&self) -> Option<(&'a str, &'static str)> {
        match self {
            Route::Message(m) => Some((m.ros_name, m.type_name)),
            Route::Pose => Some((super::tf::TF_TOPIC, msg::TfMessage::TYPE_NAME)),
            Route::NavStatus => Some(nav_status_topic()),
            Route::NavFeedback => Some(nav_feedback_topic()),
            Route::NavGoal | Route::NavCancel => None,
        }
    }
}

/// The Nav2 action's status topic (the runtime's topic has the action's name) and its type.
pub fn nav_status_topic() -> (&'static str, &'static str) {
    (topics::NAV_STATUS, msg::GoalStatusList::TYPE_NAME)
}

/// The Nav2 action's feedback topic and its type.
pub fn nav_feedback_topic() -> (&'static str, &'static str) {
    (
        topics::NAV_FEEDBACK,
        msg::NavigateThroughPosesFeedbackMessage::TYPE_NAME,
    )
}

/// The route of `topic` (without a leading `/`).
pub fn route(topic: &str) -> Route<'_> {
    let message = |ros_name, type_name, sensor_qos, to_ros, from_ros| {
        Route::Message(MessageRoute {
            ros_name,
            type_name,
            sensor_qos,
            to_ros,
            from_ros,
        })
    };
    match topic {
        topics::OBJ_HP => message(
            "/obj_hp",
            msg::ObjHP::TYPE_NAME,
            true,
            to_ros::<messages::ObjHp, msg::ObjHP>,
            from_ros::<msg::ObjHP, messages::ObjHp>,
        ),
        topics::CAR_POS => message(
            "/car_pos",
            msg::CarPos::TYPE_NAME,
            true,
            to_ros::<messages::CarPos, msg::CarPos>,
            from_ros::<msg::CarPos, messages::CarPos>,
        ),
        topics::GAME_INFO => message(
            "/game_info",
            msg::GameInfo::TYPE_NAME,
            true,
            to_ros::<messages::GameInfo, msg::GameInfo>,
            from_ros::<msg::GameInfo, messages::GameInfo>,
        ),
        topics::SERIAL_MSG => message(
            "/serial_msg",
            msg::Serial::TYPE_NAME,
            true,
            to_ros::<messages::Serial, msg::Serial>,
            from_ros::<msg::Serial, messages::Serial>,
        ),
        topics::AUTOAIM => message(
            "/armor_detector/armor_msg",
            msg::Autoaim::TYPE_NAME,
            true,
            to_ros::<messages::Autoaim, msg::Autoaim>,
            from_ros::<msg::Autoaim, messages::Autoaim>,
        ),
        topics::PERCEPTION => message(
            topics::PERCEPTION,
            msg::DetectionArray::TYPE_NAME,
            true,
            perception_to_ros,
            perception_from_ros,
        ),
        topics::DECISION => message(
            topics::DECISION,
            msg::Decision::TYPE_NAME,
            false,
            to_ros::<messages::DecisionMsg, msg::Decision>,
            from_ros::<msg::Decision, messages::DecisionMsg>,
        ),
        topics::AIM_YAW => message(
            topics::AIM_YAW,
            msg::Float32Msg::TYPE_NAME,
            false,
            aim_yaw_to_ros,
            aim_yaw_from_ros,
        ),
        topics::POSE => Route::Pose,
        topics::NAV_GOAL => Route::NavGoal,
        topics::NAV_CANCEL => Route::NavCancel,
        topics::NAV_STATUS => Route::NavStatus,
        topics::NAV_FEEDBACK => Route::NavFeedback,
        other => soccer_route(other).unwrap_or_else(|| {
            message(
                other,
                msg::StringMsg::TYPE_NAME,
                false,
                text_to_ros,
                text_from_ros,
            )
        }),
    }
}

/// The soccer topics with a message of `soccer_decision_msgs`: each robot's inputs
/// (game-controller state, localization, ball, obstacles, fall state), its motion command,
/// heatmap and search target (`player_<N>/...`, relative) and the team's State messages.
fn soccer_route(topic: &str) -> Option<Route<'_>> {
    use super::soccer_inputs::{
        BallState, FallState, GameControllerState, Localization, Obstacles,
    };
    use super::soccer_msg::{Heatmap, MotionCommand, SearchTarget, StateMessage};
    use crate::soccer;
    let route = |type_name, to_ros, from_ros| {
        Some(Route::Message(MessageRoute {
            ros_name: topic,
            type_name,
            sensor_qos: false,
            to_ros,
            from_ros,
        }))
    };
    // A viewer follows teams by prefix (`home/player_3/...`): each team is a ROS namespace.
    let team_state = topic
        .strip_suffix(soccer::TEAM_STATE)
        .is_some_and(|prefix| prefix.is_empty() || prefix.ends_with('/'));
    if team_state {
        return route(
            StateMessage::TYPE_NAME,
            to_ros::<soccer::TeamStateMsg, StateMessage>,
            from_ros::<StateMessage, soccer::TeamStateMsg>,
        );
    }
    let robot = match topic.find("/player_") {
        Some(at) => &topic[at + 1..],
        None => topic,
    };
    match soccer::split_robot_topic(robot)?.1 {
        soccer::GAME_STATE => route(
            GameControllerState::TYPE_NAME,
            to_ros::<soccer::GameStateMsg, GameControllerState>,
            from_ros::<GameControllerState, soccer::GameStateMsg>,
        ),
        soccer::LOCALIZATION => route(
            Localization::TYPE_NAME,
            to_ros::<soccer::LocalizationMsg, Localization>,
            from_ros::<Localization, soccer::LocalizationMsg>,
        ),
        soccer::BALL => route(
            BallState::TYPE_NAME,
            to_ros::<soccer::BallMsg, BallState>,
            from_ros::<BallState, soccer::BallMsg>,
        ),
        soccer::OBSTACLES => route(
            Obstacles::TYPE_NAME,
            to_ros::<soccer::ObstaclesMsg, Obstacles>,
            from_ros::<Obstacles, soccer::ObstaclesMsg>,
        ),
        soccer::FALL_STATE => route(
            FallState::TYPE_NAME,
            to_ros::<soccer::FallStateMsg, FallState>,
            from_ros::<FallState, soccer::FallStateMsg>,
        ),
        soccer::MOTION_COMMAND => route(
            MotionCommand::TYPE_NAME,
            to_ros::<soccer::MotionCommandMsg, MotionCommand>,
            from_ros::<MotionCommand, soccer::MotionCommandMsg>,
        ),
        soccer::HEATMAP => route(
            Heatmap::TYPE_NAME,
            to_ros::<soccer::HeatmapMsg, Heatmap>,
            from_ros::<Heatmap, soccer::HeatmapMsg>,
        ),
        soccer::SUGGESTED_SEARCH_POSITION => route(
            SearchTarget::TYPE_NAME,
            to_ros::<soccer::SearchPositionMsg, SearchTarget>,
            from_ros::<SearchTarget, soccer::SearchPositionMsg>,
        ),
        _ => None,
    }
}

/// The runtime message in `json` (decoded as the topic's type) as CDR of its ROS type.
fn to_ros<J, R>(topic: &str, json: &[u8]) -> ConvertResult
where
    J: DeserializeOwned,
    R: RosMessage + for<'a> TryFrom<&'a J>,
    for<'a> <R as TryFrom<&'a J>>::Error: std::fmt::Display,
{
    let runtime: J = decode(topic, json).map_err(|e| e.to_string())?;
    let ros = R::try_from(&runtime).map_err(|e| format!("topic `{topic}`: {e}"))?;
    Ok(cdr::encode(&ros))
}

/// The ROS message in the CDR `payload` as the runtime's JSON.
fn from_ros<R, J>(payload: &[u8]) -> ConvertResult
where
    R: RosMessage,
    J: Serialize + for<'a> TryFrom<&'a R>,
    for<'a> <J as TryFrom<&'a R>>::Error: std::fmt::Display,
{
    let ros: R = cdr::decode(payload).map_err(|e| e.to_string())?;
    let runtime = J::try_from(&ros).map_err(|e| e.to_string())?;
    json(&runtime)
}

/// `value` as the runtime's JSON, or why it cannot be.
pub(crate) fn json(value: &impl Serialize) -> ConvertResult {
    serde_json::to_vec(value).map_err(|e| format!("cannot encode JSON: {e}"))
}

/// The runtime's own topics: the JSON text in a `std_msgs/String`.
fn text_to_ros(topic: &str, json: &[u8]) -> ConvertResult {
    let data = String::from_utf8(json.to_vec())
        .map_err(|e| format!("topic `{topic}`: payload is not UTF-8: {e}"))?;
    Ok(cdr::encode(&msg::StringMsg { data }))
}

fn text_from_ros(payload: &[u8]) -> ConvertResult {
    let text: msg::StringMsg = cdr::decode(payload).map_err(|e| e.to_string())?;
    Ok(text.data.into_bytes())
}

/// `robot_decision/aim_yaw` as `std_msgs/Float32` (which has no header).
fn aim_yaw_to_ros(topic: &str, json: &[u8]) -> ConvertResult {
    let m: messages::Float32 = decode(topic, json).map_err(|e| e.to_string())?;
    Ok(cdr::encode(&msg::Float32Msg { data: m.data }))
}

fn aim_yaw_from_ros(payload: &[u8]) -> ConvertResult {
    let m: msg::Float32Msg = cdr::decode(payload).map_err(|e| e.to_string())?;
    json(&messages::Float32 {
        header: messages::Header::default(),
        data: m.data,
    })
}

/// The perception array: the runtime's unit index travels as the detection's `type`.
fn perception_to_ros(topic: &str, json: &[u8]) -> ConvertResult {
    let m: messages::DetectionArray = decode(topic, json).map_err(|e| e.to_string())?;
    let detections = m
        .detections
        .iter()
        .map(|d| msg::Detection {
            header: m.header.clone(),
            conf: d.confidence,
            kind: d.id.to_string(),
            center: msg::Pose {
                position: msg::Point {
                    x: f64::from(d.position.x),
                    y: f64::from(d.position.y),
                    z: 0.0,
                },
                orientation: msg::Quaternion::default(),
            },
        })
        .collect();
    Ok(cdr::encode(&msg::DetectionArray {
        header: m.header,
        detections,
    }))
}

fn perception_from_ros(payload: &[u8]) -> ConvertResult {
    let m: msg::DetectionArray = cdr::decode(payload).map_err(|e| e.to_string())?;
    let mut detections = Vec::with_capacity(m.detections.len());
    for (i, d) in m.detections.iter().enumerate() {
        let id = d.kind.parse::<u8>().map_err(|_| {
            ConvertError {
                type_name: msg::DetectionArray::TYPE_NAME,
                field: "detections[].type",
                reason: format!("detection {i}: `{}` is not a unit index 0..=255", d.kind),
            }
            .to_string()
        })?;
        detections.push(messages::Detection {
            id,
            position: messages::Point2f {
                x: d.center.position.x as f32,
                y: d.center.position.y as f32,
            },
            confidence: d.conf,
        });
    }
    json(&messages::DetectionArray {
        header: m.header,
        detections,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message_route(topic: &str) -> MessageRoute<'_> {
        match route(topic) {
            Route::Message(m) => m,
            other => panic!("{topic} is {other:?}"),
        }
    }

    /// Jazzy's keys need every type a route uses described (a type without a hash would be
    /// refused when its endpoint is declared).
    #[test]
    fn every_routed_type_has_a_jazzy_type_hash() {
        use crate::soccer;
        let runtime_topics = topics::NODE_INPUTS.iter().chain(&topics::NODE_OUTPUTS);
        let soccer_topics = soccer::ROBOT_INPUTS
            .iter()
            .chain(&soccer::ROBOT_OUTPUTS)
            .map(|t| soccer::robot_topic(3, t))
            .chain([soccer::TEAM_STATE.to_owned()]);
        let mut checked = 0;
        for topic in runtime_topics.map(|t| (*t).to_owned()).chain(soccer_topics) {
            let type_name = match route(&topic).ros_topic() {
                Some((_, type_name)) => type_name,
                None => continue,
            };
            let dds = crate::ros2::msg::dds_type_name(type_name);
            assert!(
                crate::ros2::type_hash::rihs01_of_dds_name(&dds).is_ok(),
                "{topic}: {type_name}"
            );
            checked += 1;
        }
        assert!(checked >= 20, "{checked} routed topics");
    }

    #[test]
    fn the_action_topics_are_the_actions() {
        assert_eq!(nav_status_topic().0, format!("{NAV_ACTION}/_action/status"));
        assert_eq!(
            nav_feedback_topic().0,
            format!("{NAV_ACTION}/_action/feedback")
        );
    }

    #[test]
    fn inputs_are_absolute_sensor_topics_and_outputs_relative() {
        let hp = message_route(topics::OBJ_HP);
        assert_eq!(
            (hp.ros_name, hp.type_name, hp.sensor_qos),
            ("/obj_hp", "global_interface/msg/ObjHP", true)
        );
        let decision = message_route(topics::DECISION);
        assert_eq!(
            (decision.ros_name, decision.sensor_qos),
            ("robot_decision/decision", false)
        );
        assert_eq!(
            message_route(topics::TRACE).type_name,
            "std_msgs/msg/String"
        );
        assert!(matches!(route(topics::POSE), Route::Pose));
        assert!(matches!(route(topics::NAV_GOAL), Route::NavGoal));
        assert!(matches!(route(topics::NAV_STATUS), Route::NavStatus));
    }

    #[test]
    fn payloads_round_trip_through_cdr() {
        let cases: [(&str, &str); 6] = [
            (
                topics::OBJ_HP,
                r#"{"header":{"stamp":{"sec":3,"nanosec":5},"frame_id":""},"hp":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]}"#,
            ),
            (
                topics::GAME_INFO,
                r#"{"header":{"stamp":{"sec":1,"nanosec":0},"frame_id":""},"timestamp":299.0,"game_stage":4}"#,
            ),
            (
                topics::DECISION,
                r#"{"header":{"stamp":{"sec":0,"nanosec":0},"frame_id":""},"decision_id":3,"mode":6,"x":1.5,"y":2.25,"theta":0.5}"#,
            ),
            (
                topics::AIM_YAW,
                r#"{"header":{"stamp":{"sec":0,"nanosec":0},"frame_id":""},"data":1.25}"#,
            ),
            (
                topics::PERCEPTION,
                r#"{"header":{"stamp":{"sec":0,"nanosec":0},"frame_id":""},"detections":[{"id":7,"position":{"x":1.5,"y":2.5},"confidence":0.75}]}"#,
            ),
            (topics::TRACE, r#"{"tick":1,"why_not":{}}"#),
        ];
        for (topic, json) in cases {
            let m = message_route(topic);
            let cdr = (m.to_ros)(topic, json.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(&cdr[..4], &cdr::CDR_LE, "{topic}");
            let back = (m.from_ros)(&cdr).unwrap_or_else(|e| panic!("{e}"));
            let want: serde_json::Value = serde_json::from_str(json).expect("test JSON");
            let got: serde_json::Value = serde_json::from_slice(&back).expect("JSON back");
            assert_eq!(got, want, "{topic}");
        }
    }

    #[test]
    fn soccer_outputs_travel_as_our_package() {
        let motion = crate::soccer::robot_topic(3, crate::soccer::MOTION_COMMAND);
        let m = message_route(&motion);
        assert_eq!(
            (m.ros_name, m.type_name),
            (
                "player_3/behavior/motion_command",
                "soccer_decision_msgs/msg/MotionCommand"
            )
        );
        let json = br#"{"header":{"stamp":{"sec":1,"nanosec":0},"frame_id":""},"player":3,"command":{"body":{"kind":"walk_to","x":1.0,"y":2.0,"yaw":0.5,"speed":0.3},"head":{"kind":"look_at","x":4.0,"y":0.0}}}"#;
        let cdr = (m.to_ros)(&motion, json).unwrap_or_else(|e| panic!("{e}"));
        let back = (m.from_ros)(&cdr).unwrap_or_else(|e| panic!("{e}"));
        let want: serde_json::Value = serde_json::from_slice(json).expect("test JSON");
        let got: serde_json::Value = serde_json::from_slice(&back).expect("JSON back");
        assert_eq!(got, want);
        assert_eq!(
            message_route(crate::soccer::TEAM_STATE).type_name,
            "soccer_decision_msgs/msg/StateMessage"
        );
        for (topic, type_name) in [
            (crate::soccer::HEATMAP, "soccer_decision_msgs/msg/Heatmap"),
            (
                crate::soccer::SUGGESTED_SEARCH_POSITION,
                "soccer_decision_msgs/msg/SearchTarget",
            ),
            (crate::soccer::BALL, "soccer_decision_msgs/msg/BallState"),
        ] {
            let name = crate::soccer::robot_topic(1, topic);
            assert_eq!(message_route(&name).type_name, type_name, "{name}");
            // The same topic under a team (a viewer following `home`).
            let in_team = format!("home/{name}");
            let m = message_route(&in_team);
            assert_eq!((m.ros_name, m.type_name), (in_team.as_str(), type_name));
        }
        assert_eq!(
            message_route("away/team/state_message").type_name,
            "soccer_decision_msgs/msg/StateMessage"
        );
    }

    #[test]
    fn bad_payloads_are_errors_naming_topic_and_field() {
        let hp = message_route(topics::OBJ_HP);
        let err = (hp.to_ros)(
            topics::OBJ_HP,
            br#"{"header":{"stamp":{"sec":0,"nanosec":0}},"hp":[1,2]}"#,
        );
        assert!(
            err.as_ref()
                .is_err_and(|e| e.contains("hp") && e.contains("exactly 16")),
            "{err:?}"
        );
        let err = (hp.from_ros)(&[0, 1, 0, 0, 7]);
        assert!(err.as_ref().is_err_and(|e| e.contains("ObjHP")), "{err:?}");
        let err = (hp.from_ros)(&[1, 2]);
        assert!(err.is_err());
    }
}
