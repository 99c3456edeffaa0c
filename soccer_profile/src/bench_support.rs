//! Frames of a five-a-side situation for the tick benchmark and the allocation test: this
//! robot (number 3) with five teammates heard every frame, as striker, supporter or searcher;
//! and the heatmap's frames (this robot turning its head, three teammates heard twice a second).

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

/// `n` heatmap frames 20 ms apart: this robot at (-1, 0.5) turning, three teammates whose
/// messages arrive every 0.5 s, no ball anywhere.
pub fn heatmap_frames(n: usize) -> Vec<crate::search::HeatmapFrame> {
    use crate::search::{HeatmapFrame, TeammateState};
    (0..n)
        .map(|i| {
            let t = i as f64 * 0.02;
            HeatmapFrame {
                t,
                pose: Some(PoseJson {
                    x: -1.0,
                    y: 0.5,
                    yaw: (t * 0.7).sin() * 2.0,
                }),
                teammates: (3u8..=5)
                    .map(|player| TeammateState {
                        player,
                        t: (t / 0.5).floor() * 0.5,
                        pose: Some(PoseJson {
                            x: f64::from(player) - 3.0,
                            y: -1.0,
                            yaw: t,
                        }),
                        head_yaw: 0.0,
                        ball: None,
                    })
                    .collect(),
                ..HeatmapFrame::default()
            }
        })
        .collect()
}
