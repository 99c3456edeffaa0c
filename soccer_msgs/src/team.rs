//! Team communication: the State message a robot sends (topic `team/state_message`) and the
//! same message as a teammate receives it (the frame's `teammate_messages`).

use crate::field::{PointJson, PoseJson};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A State message received from a teammate since the previous frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeammateMessage {
    /// The sender's number.
    pub player: u8,
    /// The sender's pose (`null` = not localized).
    #[serde(default)]
    pub pose: Option<PoseJson>,
    /// The sender's head yaw relative to its body.
    #[serde(default)]
    pub head_yaw: f64,
    /// The sender's ball (`null` = none).
    #[serde(default)]
    pub ball: Option<PointJson>,
    /// Age of that ball when sent (s).
    #[serde(default)]
    pub ball_age: f64,
    /// The sender's striker claim (`ball.closest_to_ball.striker_claim`; absent = no claim
    /// made either way).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub striker: Option<bool>,
}

/// A pose in a message.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MessagePose {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
    /// Heading (rad).
    pub yaw: f64,
}

/// A ball position in a message.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MessageBall {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
}

/// The State message a robot sends to its team.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StateMessage {
    /// The sender's number.
    pub player: u8,
    /// The sender's field pose.
    pub pose: MessagePose,
    /// The commanded head yaw relative to the body.
    pub head_yaw: f64,
    /// The sender's local ball, if any.
    pub ball: Option<MessageBall>,
    /// That ball's age (s), `null` without a ball.
    pub ball_age: Option<f64>,
    /// Whether the sender takes itself as the team's striker; only with
    /// `ball.closest_to_ball.striker_claim` (one bit of the message's budget), else absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub striker: Option<bool>,
}

impl StateMessage {
    /// The message as a teammate receives it (the frame's `teammate_messages` entry).
    pub fn as_received(&self) -> TeammateMessage {
        TeammateMessage {
            player: self.player,
            pose: Some(PoseJson {
                x: self.pose.x,
                y: self.pose.y,
                yaw: self.pose.yaw,
            }),
            head_yaw: self.head_yaw,
            ball: self.ball.map(|b| PointJson { x: b.x, y: b.y }),
            ball_age: self.ball_age.unwrap_or(0.0),
            striker: self.striker,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sent_message_is_received_with_its_pose_ball_and_claim() {
        let sent = StateMessage {
            player: 4,
            pose: MessagePose {
                x: 1.0,
                y: -2.0,
                yaw: 0.5,
            },
            head_yaw: 0.25,
            ball: Some(MessageBall { x: 3.0, y: 0.5 }),
            ball_age: Some(1.5),
            striker: Some(true),
        };
        let received = sent.as_received();
        assert_eq!(
            received,
            TeammateMessage {
                player: 4,
                pose: Some(PoseJson {
                    x: 1.0,
                    y: -2.0,
                    yaw: 0.5
                }),
                head_yaw: 0.25,
                ball: Some(PointJson { x: 3.0, y: 0.5 }),
                ball_age: 1.5,
                striker: Some(true),
            }
        );
        let without_ball = StateMessage {
            ball: None,
            ball_age: None,
            striker: None,
            ..sent
        };
        assert_eq!(
            serde_json::to_string(&without_ball).ok().as_deref(),
            Some(
                r#"{"player":4,"pose":{"x":1.0,"y":-2.0,"yaw":0.5},"head_yaw":0.25,"ball":null,"ball_age":null}"#
            )
        );
        assert_eq!(without_ball.as_received().ball_age, 0.0);
    }
}
