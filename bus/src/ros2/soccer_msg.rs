//! The soccer behaviour's outputs as ROS 2 messages of our own package
//! `soccer_decision_msgs` (`ros2/soccer_decision_msgs/` in the repository, field for field):
//! the motion command, the State message to the team, the search heatmap and the search
//! target; and their conversions to and from the runtime's messages ([`crate::soccer`]).

use super::msg::RosMessage;
use crate::messages::Header;
use crate::soccer::{HeatmapMsg, MotionCommandMsg, SearchPositionMsg, TeamStateMsg};
use geometry::{Field, Point2, Pose2};
use serde::{Deserialize, Serialize};
use soccer_msgs::motion::{Body, Foot, Head, MotionCommand as Command, TurnDirection};
use soccer_msgs::{PointJson, PoseJson, TeammateMessage};

/// `soccer_decision_msgs/MotionCommand`: body and head motion (kinds as in the `.msg`
/// constants, the fields the kind uses, the rest 0).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MotionCommand {
    /// The tick's time.
    pub header: Header,
    /// The robot's player number.
    pub player: u8,
    /// One of the `BODY_*` kinds.
    pub body: u8,
    /// Walk target or kick target x (m).
    pub target_x: f64,
    /// Walk target or kick target y (m).
    pub target_y: f64,
    /// Walk target heading (rad).
    pub target_yaw: f64,
    /// Walk speed (m/s).
    pub speed: f64,
    /// Forward velocity (m/s).
    pub vx: f64,
    /// Leftward velocity (m/s).
    pub vy: f64,
    /// Turn rate (rad/s).
    pub vyaw: f64,
    /// A configured command as JSON (`BODY_INJECTED`).
    pub injected: String,
    /// One of the `HEAD_*` kinds.
    pub head: u8,
    /// Look-at target x (m).
    pub head_target_x: f64,
    /// Look-at target y (m).
    pub head_target_y: f64,
}

/// The `BODY_*` and `HEAD_*` constants of `MotionCommand.msg`.
pub mod kinds {
    /// Damping (limp).
    pub const BODY_DAMPING: u8 = 0;
    /// Prepare (stand ready).
    pub const BODY_PREPARE: u8 = 1;
    /// Stand.
    pub const BODY_STAND: u8 = 2;
    /// Get up.
    pub const BODY_STAND_UP: u8 = 3;
    /// Walk to a pose.
    pub const BODY_WALK_TO: u8 = 4;
    /// Walk at a velocity.
    pub const BODY_WALK_VELOCITY: u8 = 5;
    /// Turn left on the spot.
    pub const BODY_TURN_LEFT: u8 = 6;
    /// Turn right on the spot.
    pub const BODY_TURN_RIGHT: u8 = 7;
    /// Kick with the left foot.
    pub const BODY_KICK_LEFT_FOOT: u8 = 8;
    /// Kick with the right foot.
    pub const BODY_KICK_RIGHT_FOOT: u8 = 9;
    /// A configured command (JSON).
    pub const BODY_INJECTED: u8 = 10;
    /// Look forward.
    pub const HEAD_LOOK_FORWARD: u8 = 0;
    /// Look around.
    pub const HEAD_LOOK_AROUND: u8 = 1;
    /// Look at a field point.
    pub const HEAD_LOOK_AT: u8 = 2;
    /// Search for the ball.
    pub const HEAD_SEARCH: u8 = 3;
}

/// `soccer_decision_msgs/StateMessage`: what a robot tells its team.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StateMessage {
    /// When it was sent.
    pub header: Header,
    /// The sender's player number.
    pub player: u8,
    /// Whether `x`, `y`, `yaw` hold a pose.
    pub has_pose: bool,
    /// Field x (m).
    pub x: f64,
    /// Field y (m).
    pub y: f64,
    /// Heading (rad).
    pub yaw: f64,
    /// Head yaw relative to the body (rad).
    pub head_yaw: f64,
    /// Whether `ball_x`, `ball_y` hold a ball.
    pub has_ball: bool,
    /// Ball x (m).
    pub ball_x: f64,
    /// Ball y (m).
    pub ball_y: f64,
    /// The ball's age when sent (s).
    pub ball_age: f64,
    /// Whether `striker` holds the sender's striker claim.
    pub has_striker_claim: bool,
    /// Whether the sender takes itself as the team's striker.
    pub striker: bool,
}

/// `soccer_decision_msgs/Heatmap`: the ball-search heatmap, row-major.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Heatmap {
    /// The tick's time.
    pub header: Header,
    /// Cells along the field's length (x).
    pub length: u32,
    /// Cells along its width (y).
    pub width: u32,
    /// Priorities, cell `(i, j)` at `j * length + i`.
    pub values: Vec<f64>,
}

/// `soccer_decision_msgs/SearchTarget`: the search suggestor's target, if any.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SearchTarget {
    /// The tick's time.
    pub header: Header,
    /// Whether `x`, `y` hold a target.
    pub valid: bool,
    /// Target x (m).
    pub x: f64,
    /// Target y (m).
    pub y: f64,
}

impl RosMessage for MotionCommand {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/MotionCommand";
}
impl RosMessage for StateMessage {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/StateMessage";
}
impl RosMessage for Heatmap {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/Heatmap";
}
impl RosMessage for SearchTarget {
    const TYPE_NAME: &'static str = "soccer_decision_msgs/msg/SearchTarget";
}

impl From<&MotionCommandMsg> for MotionCommand {
    fn from(m: &MotionCommandMsg) -> Self {
        use kinds::*;
        let mut out = Self {
            header: m.header.clone(),
            player: m.player,
            ..Self::default()
        };
        out.body = match &m.command.body {
            Body::Damping => BODY_DAMPING,
            Body::Prepare => BODY_PREPARE,
            Body::Stand => BODY_STAND,
            Body::StandUp => BODY_STAND_UP,
            Body::WalkTo { target, speed } => {
                out.target_x = target.position.x;
                out.target_y = target.position.y;
                out.target_yaw = target.yaw;
                out.speed = *speed;
                BODY_WALK_TO
            }
            Body::WalkVelocity { vx, vy, vyaw } => {
                (out.vx, out.vy, out.vyaw) = (*vx, *vy, *vyaw);
                BODY_WALK_VELOCITY
            }
            Body::Turn(TurnDirection::Left) => BODY_TURN_LEFT,
            Body::Turn(TurnDirection::Right) => BODY_TURN_RIGHT,
            Body::Kick { foot, target } => {
                (out.target_x, out.target_y) = (target.x, target.y);
                match foot {
                    Foot::Left => BODY_KICK_LEFT_FOOT,
                    Foot::Right => BODY_KICK_RIGHT_FOOT,
                }
            }
            Body::Injected(value) => {
                out.injected = value.to_string();
                BODY_INJECTED
            }
        };
        out.head = match m.command.head {
            Head::LookForward => HEAD_LOOK_FORWARD,
            Head::LookAround => HEAD_LOOK_AROUND,
            Head::LookAt(p) => {
                (out.head_target_x, out.head_target_y) = (p.x, p.y);
                HEAD_LOOK_AT
            }
            Head::Search => HEAD_SEARCH,
        };
        out
    }
}

impl TryFrom<&MotionCommand> for MotionCommandMsg {
    type Error = String;

    fn try_from(m: &MotionCommand) -> Result<Self, String> {
        use kinds::*;
        let target = Point2::<Field>::new(m.target_x, m.target_y);
        let body = match m.body {
            BODY_DAMPING => Body::Damping,
            BODY_PREPARE => Body::Prepare,
            BODY_STAND => Body::Stand,
            BODY_STAND_UP => Body::StandUp,
            BODY_WALK_TO => Body::WalkTo {
                target: Pose2::new(m.target_x, m.target_y, m.target_yaw),
                speed: m.speed,
            },
            BODY_WALK_VELOCITY => Body::WalkVelocity {
                vx: m.vx,
                vy: m.vy,
                vyaw: m.vyaw,
            },
            BODY_TURN_LEFT => Body::Turn(TurnDirection::Left),
            BODY_TURN_RIGHT => Body::Turn(TurnDirection::Right),
            BODY_KICK_LEFT_FOOT => Body::Kick {
                foot: Foot::Left,
                target,
            },
            BODY_KICK_RIGHT_FOOT => Body::Kick {
                foot: Foot::Right,
                target,
            },
            BODY_INJECTED => Body::Injected(
                serde_json::from_str(&m.injected)
                    .map_err(|e| format!("{}.injected: not JSON: {e}", MotionCommand::TYPE_NAME))?,
            ),
            other => {
                return Err(format!(
                    "{}.body: {other} is no BODY_* kind (0..=10)",
                    MotionCommand::TYPE_NAME
                ));
            }
        };
        let head = match m.head {
            HEAD_LOOK_FORWARD => Head::LookForward,
            HEAD_LOOK_AROUND => Head::LookAround,
            HEAD_LOOK_AT => Head::LookAt(Point2::new(m.head_target_x, m.head_target_y)),
            HEAD_SEARCH => Head::Search,
            other => {
                return Err(format!(
                    "{}.head: {other} is no HEAD_* kind (0..=3)",
                    MotionCommand::TYPE_NAME
                ));
            }
        };
        Ok(Self {
            header: m.header.clone(),
            player: m.player,
            command: Command { body, head },
        })
    }
}

impl From<&TeamStateMsg> for StateMessage {
    fn from(m: &TeamStateMsg) -> Self {
        let t = &m.message;
        let pose = t.pose.unwrap_or(PoseJson {
            x: 0.0,
            y: 0.0,
            yaw: 0.0,
        });
        let ball = t.ball.unwrap_or(PointJson { x: 0.0, y: 0.0 });
        Self {
            header: m.header.clone(),
            player: t.player,
            has_pose: t.pose.is_some(),
            x: pose.x,
            y: pose.y,
            yaw: pose.yaw,
            head_yaw: t.head_yaw,
            has_ball: t.ball.is_some(),
            ball_x: ball.x,
            ball_y: ball.y,
            ball_age: t.ball_age,
            has_striker_claim: t.striker.is_some(),
            striker: t.striker.unwrap_or(false),
        }
    }
}

impl From<&StateMessage> for TeamStateMsg {
    fn from(m: &StateMessage) -> Self {
        Self {
            header: m.header.clone(),
            message: TeammateMessage {
                player: m.player,
                pose: m.has_pose.then_some(PoseJson {
                    x: m.x,
                    y: m.y,
                    yaw: m.yaw,
                }),
                head_yaw: m.head_yaw,
                ball: m.has_ball.then_some(PointJson {
                    x: m.ball_x,
                    y: m.ball_y,
                }),
                ball_age: m.ball_age,
                striker: m.has_striker_claim.then_some(m.striker),
            },
        }
    }
}

impl TryFrom<&HeatmapMsg> for Heatmap {
    type Error = String;

    fn try_from(m: &HeatmapMsg) -> Result<Self, String> {
        let cells = |what: &str, n: usize| {
            u32::try_from(n)
                .map_err(|_| format!("{}.{what}: {n} cells do not fit uint32", Heatmap::TYPE_NAME))
        };
        Ok(Self {
            header: m.header.clone(),
            length: cells("length", m.length)?,
            width: cells("width", m.width)?,
            values: m.values.clone(),
        })
    }
}

impl From<&Heatmap> for HeatmapMsg {
    fn from(m: &Heatmap) -> Self {
        Self {
            header: m.header.clone(),
            length: m.length as usize,
            width: m.width as usize,
            values: m.values.clone(),
        }
    }
}

impl From<&SearchPositionMsg> for SearchTarget {
    fn from(m: &SearchPositionMsg) -> Self {
        let [x, y] = m.position.unwrap_or([0.0, 0.0]);
        Self {
            header: m.header.clone(),
            valid: m.position.is_some(),
            x,
            y,
        }
    }
}

impl From<&SearchTarget> for SearchPositionMsg {
    fn from(m: &SearchTarget) -> Self {
        Self {
            header: m.header.clone(),
            position: m.valid.then_some([m.x, m.y]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(command: Command) {
        let runtime = MotionCommandMsg {
            header: Header::at(3.5),
            player: 4,
            command,
        };
        let ros = MotionCommand::from(&runtime);
        let bytes = super::super::cdr::encode(&ros);
        let back: MotionCommand = super::super::cdr::decode(&bytes).expect("CDR");
        assert_eq!(MotionCommandMsg::try_from(&back), Ok(runtime));
    }

    #[test]
    fn every_body_and_head_survives_the_ros_message() {
        let bodies = [
            Body::Damping,
            Body::Prepare,
            Body::Stand,
            Body::StandUp,
            Body::WalkTo {
                target: Pose2::new(1.5, -2.0, 0.25),
                speed: 0.4,
            },
            Body::WalkVelocity {
                vx: 0.3,
                vy: -0.1,
                vyaw: 0.2,
            },
            Body::Turn(TurnDirection::Left),
            Body::Turn(TurnDirection::Right),
            Body::Kick {
                foot: Foot::Right,
                target: Point2::new(4.5, 0.0),
            },
            Body::Injected(serde_json::json!({"kind": "dance", "tempo": 2})),
        ];
        let heads = [
            Head::LookForward,
            Head::LookAround,
            Head::LookAt(Point2::new(-1.0, 2.0)),
            Head::Search,
        ];
        for body in &bodies {
            for head in heads {
                round_trip(Command {
                    body: body.clone(),
                    head,
                });
            }
        }
    }

    #[test]
    fn unknown_kinds_are_errors_naming_the_field() {
        let bad = MotionCommand {
            body: 11,
            ..MotionCommand::default()
        };
        let err = MotionCommandMsg::try_from(&bad);
        assert!(err.as_ref().is_err_and(|e| e.contains(".body")), "{err:?}");
        let bad = MotionCommand {
            head: 9,
            ..MotionCommand::default()
        };
        let err = MotionCommandMsg::try_from(&bad);
        assert!(err.as_ref().is_err_and(|e| e.contains(".head")), "{err:?}");
    }

    #[test]
    fn state_heatmap_and_target_round_trip() {
        let state = TeamStateMsg {
            header: Header::at(1.0),
            message: TeammateMessage {
                player: 2,
                pose: Some(PoseJson {
                    x: 1.0,
                    y: 2.0,
                    yaw: 0.5,
                }),
                head_yaw: 0.1,
                ball: None,
                ball_age: 0.0,
                striker: None,
            },
        };
        assert_eq!(TeamStateMsg::from(&StateMessage::from(&state)), state);
        for claim in [Some(true), Some(false)] {
            let mut claiming = state.clone();
            claiming.message.striker = claim;
            let ros = StateMessage::from(&claiming);
            assert_eq!(
                (ros.has_striker_claim, ros.striker),
                (true, claim == Some(true))
            );
            assert_eq!(TeamStateMsg::from(&ros), claiming);
        }
        let map = HeatmapMsg {
            header: Header::at(2.0),
            length: 3,
            width: 2,
            values: vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
        };
        let ros = Heatmap::try_from(&map).expect("fits");
        assert_eq!(HeatmapMsg::from(&ros), map);
        for position in [None, Some([1.5, -0.5])] {
            let target = SearchPositionMsg {
                header: Header::at(3.0),
                position,
            };
            assert_eq!(
                SearchPositionMsg::from(&SearchTarget::from(&target)),
                target
            );
        }
    }
}
