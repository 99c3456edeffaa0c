use super::*;
use crate::ros2::cdr;
use crate::ros2::routes::{Route, route};
use crate::soccer::{self as topics, robot_topic};
use serde::Serialize;
use serde::de::DeserializeOwned;
use soccer_msgs::{GamePhase, SubState, Team};

fn game_state(game: Option<GameState>, primary_state: PrimaryState) -> GameStateMsg {
    GameStateMsg {
        header: Header::at(12.25),
        primary_state,
        game,
    }
}

fn full_game(sub_state: Option<SubState>, kicking_team: Option<Team>) -> GameState {
    GameState {
        phase: GamePhase::PenaltyShootout,
        kicking_team,
        sub_state,
        first_half: false,
        remaining_time_in_half: 321.5,
        half_duration: 600.0,
        remaining_messages: 987,
        sending_suspended: true,
        players: vec![1, 2, 4],
        penalized: vec![3],
    }
}

fn localization(pose: Option<PoseJson>, head_yaw: f64) -> LocalizationMsg {
    LocalizationMsg {
        header: Header::at(3.5),
        pose,
        head_yaw,
    }
}

fn ball(ball: Option<BallJson>, rule_ball: Option<PointJson>) -> BallMsg {
    BallMsg {
        header: Header::at(4.0),
        ball,
        rule_ball,
    }
}

fn obstacles(list: Vec<ObstacleJson>) -> ObstaclesMsg {
    ObstaclesMsg {
        header: Header::at(5.0),
        obstacles: list,
    }
}

fn obstacle(x: f64, y: f64, radius: f64) -> ObstacleJson {
    ObstacleJson { x, y, radius }
}

/// The message route of the input `topic` of robot 2.
fn input_route(topic: &str) -> (String, crate::ros2::routes::MessageRoute<'static>) {
    let name: &'static str = robot_topic(2, topic).leak();
    match route(name) {
        Route::Message(m) => (name.to_owned(), m),
        other => panic!("{name} is {other:?}"),
    }
}

/// `message` published as JSON on the runtime's API, carried over ROS 2 (JSON -> CDR -> JSON)
/// and read back as the topic's runtime type.
fn through_ros<J: Serialize + DeserializeOwned>(topic: &str, message: &J) -> J {
    let (name, m) = input_route(topic);
    let json = serde_json::to_vec(message).expect("JSON");
    let cdr = (m.to_ros)(&name, &json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&cdr[..4], &cdr::CDR_LE);
    let back = (m.from_ros)(&cdr).unwrap_or_else(|e| panic!("{e}"));
    crate::decode(&name, &back).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_inputs_travel_as_our_package() {
    for (topic, type_name) in [
        (topics::GAME_STATE, GameControllerState::TYPE_NAME),
        (topics::LOCALIZATION, Localization::TYPE_NAME),
        (topics::BALL, BallState::TYPE_NAME),
        (topics::OBSTACLES, Obstacles::TYPE_NAME),
        (topics::FALL_STATE, FallState::TYPE_NAME),
    ] {
        let (name, m) = input_route(topic);
        assert_eq!((m.ros_name, m.type_name), (name.as_str(), type_name));
        assert!(type_name.starts_with("soccer_decision_msgs/msg/"));
    }
}

#[test]
fn every_game_state_survives_the_ros_message() {
    let mut cases = vec![game_state(None, PrimaryState::Initial)];
    for (i, primary) in codes::PRIMARY_STATES.into_iter().enumerate() {
        let sub_state = codes::SUB_STATES[i % codes::SUB_STATES.len()];
        let team = codes::KICKING_TEAMS[i % codes::KICKING_TEAMS.len()];
        cases.push(game_state(Some(full_game(sub_state, team)), primary));
    }
    cases.push(game_state(
        Some(GameState::default()),
        PrimaryState::Playing,
    ));
    for case in cases {
        assert_eq!(through_ros(topics::GAME_STATE, &case), case);
    }
    let ros = GameControllerState::from(&game_state(
        Some(full_game(Some(SubState::ThrowIn), Some(Team::Opponent))),
        PrimaryState::Set,
    ));
    assert_eq!(
        (
            ros.primary_state,
            ros.phase,
            ros.kicking_team,
            ros.sub_state
        ),
        (5, 1, 2, 4),
        "the .msg file's constants"
    );
    assert_eq!(
        (ros.players.as_slice(), ros.remaining_messages),
        (&[1, 2, 4][..], 987)
    );
}

#[test]
fn codes_outside_the_constants_are_errors_naming_the_field() {
    let valid = GameControllerState {
        has_game: true,
        ..GameControllerState::default()
    };
    for (bad, field) in [
        (
            GameControllerState {
                primary_state: 9,
                ..valid.clone()
            },
            "primary_state: 9 is no PRIMARY_* code (0..=8)",
        ),
        (
            GameControllerState {
                phase: 2,
                ..valid.clone()
            },
            "phase: 2 is no PHASE_* code (0..=1)",
        ),
        (
            GameControllerState {
                kicking_team: 3,
                ..valid.clone()
            },
            "kicking_team: 3 is no KICKING_TEAM_* code (0..=2)",
        ),
        (
            GameControllerState {
                sub_state: 7,
                ..valid.clone()
            },
            "sub_state: 7 is no SUB_STATE_* code (0..=6)",
        ),
    ] {
        let err = GameStateMsg::try_from(&bad).expect_err(field);
        assert_eq!(
            err,
            format!("soccer_decision_msgs/msg/GameControllerState.{field}")
        );
    }
    // Without a game-controller state its codes are not read.
    let no_game = GameControllerState {
        phase: 200,
        ..GameControllerState::default()
    };
    assert_eq!(GameStateMsg::try_from(&no_game).map(|m| m.game), Ok(None));
    // Through the route the subscriber gets the error as a malformed payload.
    let (name, m) = input_route(topics::GAME_STATE);
    let err = (m.from_ros)(&cdr::encode(&GameControllerState {
        sub_state: 7,
        ..valid
    }))
    .expect_err("code 7");
    assert!(err.contains("sub_state"), "{name}: {err}");
}

#[test]
fn localization_ball_obstacles_and_fall_state_survive_the_ros_message() {
    let pose = PoseJson {
        x: -1.5,
        y: 2.25,
        yaw: 0.75,
    };
    for case in [localization(Some(pose), -0.5), localization(None, 0.25)] {
        assert_eq!(through_ros(topics::LOCALIZATION, &case), case);
    }
    let seen = BallJson {
        x: 1.0,
        y: -0.5,
        vx: 0.25,
        vy: -1.0,
    };
    let rule = PointJson { x: 0.0, y: 1.5 };
    for case in [
        ball(Some(seen), Some(rule)),
        ball(Some(seen), None),
        ball(None, Some(rule)),
        ball(None, None),
    ] {
        assert_eq!(through_ros(topics::BALL, &case), case);
    }
    for case in [
        obstacles(vec![obstacle(1.0, 2.0, 0.3), obstacle(-3.0, 0.5, 0.25)]),
        obstacles(Vec::new()),
    ] {
        assert_eq!(through_ros(topics::OBSTACLES, &case), case);
    }
    for (fallen, stand_up_available) in [(true, false), (true, true), (false, false)] {
        let case = FallStateMsg {
            header: Header::at(6.0),
            fallen,
            stand_up_available,
        };
        assert_eq!(through_ros(topics::FALL_STATE, &case), case);
    }
}

/// A ROS node publishes `with_nan` (a NaN or infinity in `field`): the node receives the same
/// JSON a JSON publisher's `with_nan` gives (serde_json writes a non-finite float as `null`)
/// and refuses it with the same error, naming the topic and the field; our own publisher of it
/// on ROS 2 gets that error at once.
fn non_finite_is_refused_as_on_json<J, R>(topic: &str, with_nan: J, field: &str)
where
    J: Serialize + DeserializeOwned + std::fmt::Debug,
    R: RosMessage + for<'a> From<&'a J>,
{
    let (name, m) = input_route(topic);
    let json_path = serde_json::to_vec(&with_nan).expect("JSON");
    let ros_path = (m.from_ros)(&cdr::encode(&R::from(&with_nan)))
        .unwrap_or_else(|e| panic!("{name} {field}: {e}"));
    assert_eq!(
        String::from_utf8_lossy(&ros_path),
        String::from_utf8_lossy(&json_path),
        "{name} {field}"
    );
    let err = crate::decode::<J>(&name, &ros_path).expect_err(field);
    assert_eq!(
        (err.topic.as_str(), err.field.as_str()),
        (name.as_str(), field)
    );
    assert_eq!(err.message, "invalid type: null, expected f64");
    let publish = (m.to_ros)(&name, &json_path).expect_err(field);
    assert_eq!(publish, err.to_string());
}

#[test]
fn a_non_finite_game_time_is_refused_as_on_json() {
    let game = || full_game(None, Some(Team::Own));
    for (value, field) in [
        (
            GameState {
                remaining_time_in_half: f64::NAN,
                ..game()
            },
            "game.remaining_time_in_half",
        ),
        (
            GameState {
                half_duration: f64::INFINITY,
                ..game()
            },
            "game.half_duration",
        ),
    ] {
        non_finite_is_refused_as_on_json::<_, GameControllerState>(
            topics::GAME_STATE,
            game_state(Some(value), PrimaryState::Playing),
            field,
        );
    }
}

#[test]
fn a_non_finite_pose_or_head_yaw_is_refused_as_on_json() {
    let pose = PoseJson {
        x: 1.0,
        y: 2.0,
        yaw: 0.5,
    };
    for (message, field) in [
        (
            localization(
                Some(PoseJson {
                    x: f64::NAN,
                    ..pose
                }),
                0.0,
            ),
            "pose.x",
        ),
        (
            localization(
                Some(PoseJson {
                    y: f64::NAN,
                    ..pose
                }),
                0.0,
            ),
            "pose.y",
        ),
        (
            localization(
                Some(PoseJson {
                    yaw: f64::NEG_INFINITY,
                    ..pose
                }),
                0.0,
            ),
            "pose.yaw",
        ),
        (localization(Some(pose), f64::NAN), "head_yaw"),
    ] {
        non_finite_is_refused_as_on_json::<_, Localization>(topics::LOCALIZATION, message, field);
    }
    // Not localized: the pose fields carry nothing, a NaN there is not read (as JSON has no
    // pose to write it in).
    let unused = Localization {
        has_pose: false,
        x: f64::NAN,
        ..Localization::default()
    };
    let (name, m) = input_route(topics::LOCALIZATION);
    let back = (m.from_ros)(&cdr::encode(&unused)).expect("converts");
    let read: LocalizationMsg = crate::decode(&name, &back).expect("no pose");
    assert_eq!(read.pose, None);
}

#[test]
fn a_non_finite_ball_is_refused_as_on_json() {
    let seen = BallJson {
        x: 1.0,
        y: 2.0,
        vx: 0.5,
        vy: -0.5,
    };
    let rule = PointJson { x: 0.0, y: 0.0 };
    for (message, field) in [
        (
            ball(
                Some(BallJson {
                    x: f64::NAN,
                    ..seen
                }),
                None,
            ),
            "ball.x",
        ),
        (
            ball(
                Some(BallJson {
                    y: f64::NAN,
                    ..seen
                }),
                None,
            ),
            "ball.y",
        ),
        (
            ball(
                Some(BallJson {
                    vx: f64::NAN,
                    ..seen
                }),
                None,
            ),
            "ball.vx",
        ),
        (
            ball(
                Some(BallJson {
                    vy: f64::INFINITY,
                    ..seen
                }),
                None,
            ),
            "ball.vy",
        ),
        (
            ball(
                None,
                Some(PointJson {
                    x: f64::NAN,
                    ..rule
                }),
            ),
            "rule_ball.x",
        ),
        (
            ball(
                Some(seen),
                Some(PointJson {
                    y: f64::NAN,
                    ..rule
                }),
            ),
            "rule_ball.y",
        ),
    ] {
        non_finite_is_refused_as_on_json::<_, BallState>(topics::BALL, message, field);
    }
}

#[test]
fn a_non_finite_obstacle_is_refused_as_on_json() {
    for (bad, field) in [
        (obstacle(f64::NAN, 0.0, 0.3), "obstacles[1].x"),
        (obstacle(0.0, f64::NAN, 0.3), "obstacles[1].y"),
        (obstacle(0.0, 0.0, f64::INFINITY), "obstacles[1].radius"),
    ] {
        non_finite_is_refused_as_on_json::<_, Obstacles>(
            topics::OBSTACLES,
            obstacles(vec![obstacle(1.0, 1.0, 0.2), bad]),
            field,
        );
    }
}

#[test]
fn the_fall_state_has_no_float_to_be_nan() {
    // FallState.msg is a header and two bools: the header's stamp is integers.
    let text = include_str!("../../../../ros2/soccer_decision_msgs/msg/FallState.msg");
    let fields: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        fields,
        [
            "std_msgs/Header header",
            "bool fallen",
            "bool stand_up_available"
        ]
    );
}
