//! Team communication out: the State message and when it is sent (every
//! `hsl_state_message_send_interval`, with a pose, the first one at once).

use crate::motion::MotionCommand;
use crate::params::Parameters;
use crate::world::World;
use serde::Serialize;

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
}

/// When the last message went out.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MessageSender {
    last_sent: Option<f64>,
}

impl MessageSender {
    /// The message to send this frame, if any: the interval is known, a pose is known, and at
    /// least the interval has passed since the last one (the first one at once).
    pub fn maybe_send(
        &mut self,
        world: &World,
        motion: &MotionCommand,
        params: &Parameters,
    ) -> Option<StateMessage> {
        let interval = world.message_interval?;
        let pose = world.pose?;
        if let Some(last) = self.last_sent
            && world.now - last < interval
        {
            return None;
        }
        self.last_sent = Some(world.now);
        let ball = world.local_ball_for_message(params);
        Some(StateMessage {
            player: world.player_number,
            pose: MessagePose {
                x: pose.position.x,
                y: pose.position.y,
                yaw: pose.yaw,
            },
            head_yaw: motion.commanded_head_yaw(
                Some(&pose),
                world.head_yaw,
                params.behavior_node.head.maximum_yaw,
            ),
            ball: ball.map(|b| MessageBall {
                x: b.position.x,
                y: b.position.y,
            }),
            ball_age: ball.map(|b| b.age(world.now)),
        })
    }
}
