//! Team communication out: the State message and when it is sent (every
//! `hsl_state_message_send_interval`, with a pose, the first one at once).

use crate::motion::MotionCommand;
use crate::params::Parameters;
use crate::world::{World, has_reached};

/// The State message and its parts are the soccer messages' types (`soccer_msgs::team`).
pub use soccer_msgs::team::{MessageBall, MessagePose, StateMessage};

/// When the last message went out, and the striker claim it carried.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MessageSender {
    last_sent: Option<f64>,
    last_claim: Option<bool>,
}

impl MessageSender {
    /// The message to send this frame, if any: the interval is known, a pose is known, and at
    /// least the interval has passed since the last one (the first one at once), or the
    /// striker claim changed and `ball.closest_to_ball.claim_change_gap` has passed. `striker`
    /// (whether the sender is striker this frame) goes out only with
    /// `ball.closest_to_ball.striker_claim`.
    pub fn maybe_send(
        &mut self,
        world: &World,
        motion: &MotionCommand,
        params: &Parameters,
        striker: bool,
    ) -> Option<StateMessage> {
        let interval = world.message_interval?;
        let pose = world.pose?;
        let choice = &params.behavior_node.ball.closest_to_ball;
        let claim = choice.striker_claim.then_some(striker);
        if let Some(last) = self.last_sent
            && !has_reached(world.now - last, interval)
        {
            let claim_changed = claim.is_some() && claim != self.last_claim;
            let gap_passed = choice
                .claim_change_gap
                .is_some_and(|gap| has_reached(world.now - last, gap));
            if !(claim_changed && gap_passed) {
                return None;
            }
        }
        self.last_sent = Some(world.now);
        self.last_claim = claim;
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
            striker: claim,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::Frame;

    #[test]
    fn the_next_message_goes_out_once_the_interval_has_passed_in_decimal_times() {
        let params = Parameters::default();
        // (600 + 600) s * 5 players / (1220 - 20) messages = 5 s
        let game = r#""game": {"remaining_messages": 1220}"#;
        let mut world = World::default();
        let mut sender = MessageSender::default();
        let mut at = |t: f64| {
            let frame = match Frame::parse(&format!(r#"{{"t": {t}, {game}}}"#)) {
                Ok(f) => f,
                Err(e) => panic!("{e}"),
            };
            world.update(&frame, &params);
            sender
                .maybe_send(&world, &MotionCommand::STAND, &params, false)
                .is_some()
        };
        assert!(at(0.1), "the first at once");
        assert!(!at(5.0));
        // 5.1 - 0.1 is 4.999999999999999 in floating point, still 5 s
        assert!(at(5.1));
    }

    #[test]
    fn the_striker_claim_goes_out_only_with_striker_claim() {
        let frame = match Frame::parse(r#"{"t": 1.0, "pose": {"x": 0, "y": 0, "yaw": 0}}"#) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        };
        let mut params = Parameters::default();
        let mut world = World::default();
        world.update(&frame, &params);
        let send = |params: &Parameters, striker: bool| {
            MessageSender::default().maybe_send(&world, &MotionCommand::STAND, params, striker)
        };
        let plain = send(&params, true).expect("the first message goes out at once");
        assert_eq!(plain.striker, None);
        let json = serde_json::to_string(&plain).expect("json");
        assert!(!json.contains("striker"), "the default message: {json}");
        params.behavior_node.ball.closest_to_ball.striker_claim = true;
        let claim = send(&params, true).expect("message");
        assert_eq!(claim.striker, Some(true));
        assert_eq!(claim.as_received().striker, Some(true));
        assert!(
            serde_json::to_string(&claim)
                .expect("json")
                .ends_with(r#","striker":true}"#)
        );
        assert_eq!(send(&params, false).map(|m| m.striker), Some(Some(false)));
    }

    #[test]
    fn a_changed_claim_goes_out_once_the_claim_change_gap_has_passed() {
        // (600 + 600) s * 5 players / (1220 - 20) messages = 5 s between regular messages
        let game = r#""game": {"remaining_messages": 1220}"#;
        let pose = r#""pose": {"x": 0, "y": 0, "yaw": 0}"#;
        let run = |gap: Option<f64>, claim: bool, plan: &[(f64, bool)]| -> Vec<f64> {
            let mut params = Parameters::default();
            params.behavior_node.ball.closest_to_ball.striker_claim = claim;
            params.behavior_node.ball.closest_to_ball.claim_change_gap = gap;
            let mut world = World::default();
            let mut sender = MessageSender::default();
            let mut sent = Vec::new();
            for &(t, striker) in plan {
                let frame = match Frame::parse(&format!(r#"{{"t": {t}, {game}, {pose}}}"#)) {
                    Ok(f) => f,
                    Err(e) => panic!("{e}"),
                };
                world.update(&frame, &params);
                if sender
                    .maybe_send(&world, &MotionCommand::STAND, &params, striker)
                    .is_some()
                {
                    sent.push(t);
                }
            }
            sent
        };
        // Striker from 0.5 s (too soon after the first message: it goes out at 1.0 s), still
        // at 1.5 s, not any more at 3.0 s; the next regular message is due 5 s after the
        // last one.
        let plan = [
            (0.0, false),
            (0.5, true),
            (1.0, true),
            (1.5, true),
            (3.0, false),
            (3.5, false),
            (5.0, false),
            (7.0, false),
            (8.0, false),
        ];
        assert_eq!(run(Some(1.0), true, &plan), vec![0.0, 1.0, 3.0, 8.0]);
        // Without the gap, or without claims, only the regular messages go out.
        assert_eq!(run(None, true, &plan), vec![0.0, 5.0]);
        assert_eq!(run(Some(1.0), false, &plan), vec![0.0, 5.0]);
    }
}
