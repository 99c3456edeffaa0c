//! Frames of a five-a-side situation for the tick benchmark and the allocation test: this
//! robot (number 3) with five teammates heard every frame, as striker, supporter or searcher.

use crate::frame::{BallJson, Frame, PointJson, PoseJson, PrimaryState, TeammateMessage};

/// Which role the frames put this robot in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Situation {
    /// The ball is next to this robot.
    Striker,
    /// The ball is next to a teammate.
    Supporter,
    /// Nobody knows where the ball is; the suggestor has a target.
    Searcher,
}

/// `n` frames 20 ms apart in `situation`; the ball and the robots drift slowly.
pub fn frames(situation: Situation, n: usize) -> Vec<Frame> {
    let mates = [
        (1u8, -4.2, 0.0),
        (2, -2.0, -1.5),
        (4, 1.0, 1.5),
        (5, 0.5, -1.0),
        (6, 2.5, 0.0),
    ];
    (0..n)
        .map(|i| {
            let t = i as f64 * 0.02;
            let drift = (t * 0.5).sin() * 0.2;
            let ball = match situation {
                Situation::Striker => Some((-0.4 + drift, 0.6)),
                Situation::Supporter => Some((1.2 + drift, 1.4)),
                Situation::Searcher => None,
            };
            Frame {
                t,
                player_number: 3,
                primary_state: PrimaryState::Playing,
                pose: Some(PoseJson {
                    x: -1.0 + drift,
                    y: 0.5,
                    yaw: 0.2,
                }),
                ball: ball.map(|(x, y)| BallJson {
                    x,
                    y,
                    vx: 0.0,
                    vy: 0.0,
                }),
                obstacles: vec![crate::frame::ObstacleJson {
                    x: 3.0,
                    y: -2.0,
                    radius: 0.3,
                }],
                teammate_messages: mates
                    .iter()
                    .map(|&(player, x, y)| TeammateMessage {
                        player,
                        pose: Some(PoseJson {
                            x: x + drift,
                            y,
                            yaw: 0.0,
                        }),
                        head_yaw: 0.0,
                        ball: ball
                            .filter(|_| player == 4)
                            .map(|(x, y)| PointJson { x, y }),
                        ball_age: 0.1,
                        striker: None,
                    })
                    .collect(),
                search_target: (situation == Situation::Searcher).then_some([2.0, -1.5]),
                search_cell_size: Some([0.5, 0.5]),
                ..Frame::default()
            }
        })
        .collect()
}
