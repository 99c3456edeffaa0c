//! The CDR of our ROS 2 messages against an implementation that shares none of our code: the
//! `rosbags` Python package, reading the `.msg` files of `ros2/global_interface/` and
//! `ros2/soccer_decision_msgs/`.
//!
//! `.ci/run` runs the two ignored tests around `ros2/check_cdr.py`:
//! 1. `write_samples_for_rosbags` writes one payload and its expected values per message type
//!    to `$ROS2_CDR_DIR`;
//! 2. `check_cdr.py` decodes each with rosbags, compares the values, re-encodes them and
//!    requires the same bytes, and writes its own payloads;
//! 3. `read_what_rosbags_wrote` decodes rosbags' payloads with ours and compares.
//!
//! The last test here needs nothing outside: every sample survives our own round trip.

use bus::messages::{Header, Stamp};
use bus::ros2::cdr::{decode, encode};
use bus::ros2::msg::{self, RosMessage};
use bus::ros2::{soccer_inputs, soccer_msg};
use serde_json::Value;
use std::path::PathBuf;

fn header(frame: &str, sec: i32) -> Header {
    Header {
        stamp: Stamp {
            sec,
            nanosec: 123_456_789,
        },
        frame_id: frame.into(),
    }
}

/// Decodes a payload and compares it with the sample's message.
type Matcher = Box<dyn Fn(&[u8]) -> Result<(), String>>;

/// One sample: its type name, payload, expected values as JSON, and our decode of a payload
/// compared with the sample.
struct Sample {
    type_name: &'static str,
    payload: Vec<u8>,
    expected: Value,
    matches: Matcher,
}

fn sample<T: RosMessage + PartialEq + std::fmt::Debug + 'static>(m: T) -> Sample {
    let payload = encode(&m);
    let expected = serde_json::to_value(&m).expect("a message is JSON");
    Sample {
        type_name: T::TYPE_NAME,
        payload,
        expected,
        matches: Box::new(move |bytes| match decode::<T>(bytes) {
            Ok(back) if back == m => Ok(()),
            Ok(back) => Err(format!("decoded {back:?}, expected {m:?}")),
            Err(e) => Err(e.to_string()),
        }),
    }
}

fn samples() -> Vec<Sample> {
    let mut hp = [0u16; 16];
    for (i, v) in hp.iter_mut().enumerate() {
        *v = 50 * i as u16 + 3;
    }
    let mut pos = [msg::Point2f::default(); 12];
    for (i, p) in pos.iter_mut().enumerate() {
        *p = msg::Point2f {
            x: 0.5 + i as f32,
            y: 7.25 - i as f32 * 0.5,
        };
    }
    let pose = msg::Pose {
        position: msg::Point {
            x: 4.5,
            y: -1.25,
            z: 0.125,
        },
        orientation: msg::Quaternion::from_yaw(0.75),
    };
    let detection = msg::Detection {
        header: header("camera", 11),
        conf: 0.875,
        kind: "B3".into(),
        center: pose,
    };
    vec![
        sample(msg::Point2f { x: 1.5, y: -2.5 }),
        sample(msg::ObjHP {
            header: header("referee", 1),
            hp,
        }),
        sample(msg::CarPos {
            header: header("map_decision", 2),
            pos,
        }),
        sample(msg::GameInfo {
            header: header("", 3),
            timestamp: 417,
            game_stage: 4,
        }),
        sample(msg::Serial {
            header: header("gimbal", 4),
            imu: msg::Imu {
                header: header("imu", 4),
                orientation: msg::Quaternion::from_yaw(-0.5),
                orientation_covariance: [0.25; 9],
                angular_velocity: msg::Vector3 {
                    x: 0.1,
                    y: -0.2,
                    z: 3.0,
                },
                angular_velocity_covariance: [-1.0; 9],
                linear_acceleration: msg::Vector3 {
                    x: 0.0,
                    y: 0.0,
                    z: 9.81,
                },
                linear_acceleration_covariance: [0.0; 9],
            },
            mode: 8,
            theta: 0.3,
            bullet_speed: 27.5,
        }),
        sample(msg::Decision {
            header: header("map_decision", 5),
            decision_id: 13,
            x: 8.8,
            y: 2.55,
            theta: -1.125,
            mode: 6,
        }),
        sample(detection.clone()),
        sample(msg::DetectionArray {
            header: header("camera", 11),
            detections: vec![
                detection,
                msg::Detection {
                    kind: "R7 sentry".into(),
                    ..msg::Detection::default()
                },
            ],
        }),
        sample(msg::DetectionArray::default()),
        sample(msg::Autoaim {
            header: header("camera", 12),
            mode: 1,
            key: "3".into(),
            hp: 150,
            period: 0.5,
            bullet_speed: 27.5,
            timestamp: -1_234_567_890_123,
            point2d: [
                msg::Point2f { x: 1.0, y: 2.0 },
                msg::Point2f { x: 3.0, y: 4.0 },
                msg::Point2f { x: 5.0, y: 6.0 },
                msg::Point2f { x: 7.0, y: 8.0 },
            ],
            clockwise: true,
            is_spinning: false,
            is_controlled: true,
            is_target_lost: false,
            target_switched: true,
            spinning_switched: false,
            is_still_spinning: true,
            quat_imu: msg::Quaternion::from_yaw(1.0),
            aiming_point_world: msg::Point {
                x: 1.0,
                y: 2.0,
                z: 0.5,
            },
            aiming_point_cam: msg::Point {
                x: 0.0,
                y: 0.0,
                z: 3.5,
            },
        }),
        sample(msg::ModeSet {
            header: header("", 13),
            mode: 2,
            x: 1.0,
            y: 2.0,
        }),
        sample(msg::StrikeLicensing {
            header: header("", 14),
            weights: [0.0, 0.5, 1.0, 0.25, 0.75, 1.5],
        }),
        sample(msg::PoseStamped {
            header: header("map_decision", 15),
            pose,
        }),
        // The standard messages of the ROS 2 transport: TF, the action's, std_msgs.
        sample(msg::TfMessage {
            transforms: vec![
                msg::TransformStamped {
                    header: header("map_decision", 16),
                    child_frame_id: "odom".into(),
                    transform: msg::Transform {
                        translation: msg::Vector3 {
                            x: 1.0,
                            y: -2.0,
                            z: 0.0,
                        },
                        rotation: msg::Quaternion::from_yaw(0.5),
                    },
                },
                msg::TransformStamped {
                    header: header("odom", 17),
                    child_frame_id: "base_link".into(),
                    transform: msg::Transform::default(),
                },
            ],
        }),
        sample(msg::GoalStatusList {
            status_list: vec![
                msg::GoalStatusEntry {
                    goal_info: msg::GoalInfo {
                        goal_id: msg::Uuid { uuid: [7; 16] },
                        stamp: Stamp {
                            sec: 18,
                            nanosec: 5,
                        },
                    },
                    status: 4,
                },
                msg::GoalStatusEntry {
                    goal_info: msg::GoalInfo {
                        goal_id: msg::Uuid { uuid: [9; 16] },
                        stamp: Stamp {
                            sec: 19,
                            nanosec: 0,
                        },
                    },
                    status: 2,
                },
            ],
        }),
        sample(msg::StringMsg {
            data: r#"{"tick":3,"why_not":{}}"#.into(),
        }),
        sample(msg::Float32Msg { data: 4.25 }),
        sample(msg::NavigateThroughPosesGoal {
            poses: vec![
                msg::PoseStamped {
                    header: header("map_decision", 20),
                    pose,
                },
                msg::PoseStamped {
                    header: header("map_decision", 20),
                    pose: msg::Pose::default(),
                },
            ],
            behavior_tree: String::new(),
        }),
        sample(msg::NavigateThroughPosesFeedbackMessage {
            goal_id: msg::Uuid { uuid: [3; 16] },
            feedback: msg::NavigateThroughPosesFeedback {
                current_pose: msg::PoseStamped {
                    header: header("map_decision", 21),
                    pose,
                },
                navigation_time: msg::RosDuration {
                    sec: 3,
                    nanosec: 500,
                },
                estimated_time_remaining: msg::RosDuration { sec: 9, nanosec: 0 },
                number_of_recoveries: 1,
                distance_remaining: 2.5,
                number_of_poses_remaining: 2,
            },
        }),
        // The soccer outputs (our package soccer_decision_msgs).
        sample(soccer_msg::MotionCommand {
            header: header("", 22),
            player: 3,
            body: soccer_msg::kinds::BODY_WALK_TO,
            target_x: 1.5,
            target_y: -2.25,
            target_yaw: 0.5,
            speed: 0.4,
            injected: String::new(),
            head: soccer_msg::kinds::HEAD_LOOK_AT,
            head_target_x: 4.5,
            head_target_y: 0.25,
            ..soccer_msg::MotionCommand::default()
        }),
        sample(soccer_msg::StateMessage {
            header: header("", 23),
            player: 2,
            has_pose: true,
            x: -1.0,
            y: 2.0,
            yaw: 3.0,
            head_yaw: 0.25,
            has_ball: true,
            ball_x: 0.5,
            ball_y: 0.75,
            ball_age: 1.5,
            has_striker_claim: true,
            striker: true,
        }),
        sample(soccer_msg::Heatmap {
            header: header("", 24),
            length: 3,
            width: 2,
            values: vec![0.0, 0.5, 1.0, 1.5, 2.0, 2.5],
        }),
        sample(soccer_msg::SearchTarget {
            header: header("", 25),
            valid: true,
            x: 2.5,
            y: -1.5,
        }),
        // The soccer inputs (our package soccer_decision_msgs).
        sample(soccer_inputs::GameControllerState {
            header: header("", 26),
            primary_state: 6,
            has_game: true,
            phase: 1,
            kicking_team: 2,
            sub_state: 4,
            first_half: true,
            remaining_time_in_half: 412.5,
            half_duration: 600.0,
            remaining_messages: -3,
            sending_suspended: true,
            players: vec![1, 2, 3, 5],
            penalized: vec![4],
        }),
        sample(soccer_inputs::Localization {
            header: header("", 27),
            has_pose: true,
            x: -2.5,
            y: 1.25,
            yaw: -0.75,
            head_yaw: 0.5,
        }),
        sample(soccer_inputs::BallState {
            header: header("", 28),
            has_ball: true,
            x: 1.5,
            y: -0.25,
            vx: 0.125,
            vy: -2.0,
            has_rule_ball: false,
            rule_x: 0.0,
            rule_y: 0.0,
        }),
        sample(soccer_inputs::Obstacle {
            x: 3.0,
            y: -1.0,
            radius: 0.3,
        }),
        sample(soccer_inputs::Obstacles {
            header: header("", 29),
            obstacles: vec![
                soccer_inputs::Obstacle {
                    x: 1.0,
                    y: 2.0,
                    radius: 0.25,
                },
                soccer_inputs::Obstacle {
                    x: -4.5,
                    y: 0.0,
                    radius: 0.5,
                },
            ],
        }),
        sample(soccer_inputs::FallState {
            header: header("", 30),
            fallen: true,
            stand_up_available: false,
        }),
    ]
}

/// How many samples there are (the rosbags check expects every one).
const SAMPLES: usize = 29;

/// The file stem of sample `index`: `01-global_interface.msg.ObjHP` (two samples may share
/// a type).
fn stem(index: usize, type_name: &str) -> String {
    format!("{index:02}-{}", type_name.replace('/', "."))
}

/// Where `write_samples_for_rosbags` puts our type hashes (check_cdr.py reads it).
const TYPE_HASHES_FILE: &str = "type_hashes.json";

fn exchange_dir() -> PathBuf {
    PathBuf::from(std::env::var("ROS2_CDR_DIR").expect("ROS2_CDR_DIR names the exchange folder"))
}

#[test]
fn every_sample_survives_our_own_round_trip() {
    let samples = samples();
    assert_eq!(samples.len(), SAMPLES);
    for s in &samples {
        assert_eq!((s.matches)(&s.payload), Ok(()), "{}", s.type_name);
    }
}

#[test]
#[ignore = "step 1 of the rosbags check in .ci/run (needs ROS2_CDR_DIR)"]
fn write_samples_for_rosbags() {
    let dir = exchange_dir();
    std::fs::create_dir_all(&dir).expect("exchange folder");
    for (i, s) in samples().into_iter().enumerate() {
        let name = stem(i, s.type_name);
        std::fs::write(dir.join(format!("{name}.cdr")), &s.payload).expect("write payload");
        let expected = serde_json::json!({ "type": s.type_name, "value": s.expected });
        std::fs::write(dir.join(format!("{name}.json")), expected.to_string())
            .expect("write values");
    }
    // Our RIHS01 type hashes (Jazzy's key expressions), for check_cdr.py to compare with
    // rosbags' own.
    let known = bus::ros2::type_hash::known().expect("the interface definitions parse");
    let hashes: serde_json::Map<String, serde_json::Value> = known
        .names()
        .filter_map(|name| Some((name.to_owned(), known.rihs01(name)?.into())))
        .collect();
    std::fs::write(
        dir.join(TYPE_HASHES_FILE),
        serde_json::Value::Object(hashes).to_string(),
    )
    .expect("write hashes");
}

#[test]
#[ignore = "step 3 of the rosbags check in .ci/run (needs ROS2_CDR_DIR)"]
fn read_what_rosbags_wrote() {
    let dir = exchange_dir();
    let mut read = 0;
    for (i, s) in samples().into_iter().enumerate() {
        let path = dir.join(format!("{}.rosbags.cdr", stem(i, s.type_name)));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(e) = (s.matches)(&bytes) {
            panic!("{}: {e}", path.display());
        }
        read += 1;
    }
    assert_eq!(read, SAMPLES);
}
