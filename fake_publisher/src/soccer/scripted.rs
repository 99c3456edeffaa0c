//! Scripted opponents: the lowest number keeps goal, everyone else walks to the ball and
//! kicks it at the other goal. Enough to play against; no set plays, no team play.

use geometry::{Field, Point2, Pose2};
use soccer_profile::frame::{Foot, PrimaryState};
use soccer_profile::motion::{Body, Head, MotionCommand};

/// The scripted robot's command in its team frame.
pub fn command(
    player: u8,
    keeper: u8,
    primary: PrimaryState,
    pose: Pose2<Field>,
    ball: Option<Point2<Field>>,
    half_length: f64,
) -> MotionCommand {
    let stand = MotionCommand::STAND;
    let walk = |x: f64, y: f64, yaw: f64, speed: f64| MotionCommand {
        body: Body::WalkTo {
            target: Pose2::new(x, y, yaw),
            speed,
        },
        head: ball.map_or(Head::LookAround, Head::LookAt),
    };
    match primary {
        PrimaryState::Ready => {
            let x = if player == keeper {
                -half_length + 0.3
            } else {
                -1.0 - 0.4 * f64::from(player)
            };
            let y = if player == keeper {
                0.0
            } else {
                (f64::from(player) - 3.0) * 0.8
            };
            walk(x, y, 0.0, 0.4)
        }
        PrimaryState::Playing => {
            let Some(ball) = ball else {
                return MotionCommand {
                    body: Body::Stand,
                    head: Head::LookAround,
                };
            };
            if player == keeper {
                return walk(-half_length + 0.3, ball.y.clamp(-1.0, 1.0), 0.0, 0.5);
            }
            if pose.position.distance(ball) < 0.4 {
                return MotionCommand {
                    body: Body::Kick {
                        foot: Foot::Right,
                        target: Point2::new(half_length, 0.0),
                    },
                    head: Head::LookAt(ball),
                };
            }
            let behind = Point2::<Field>::new(ball.x - 0.3, ball.y);
            walk(behind.x, behind.y, 0.0, 0.35)
        }
        _ => stand,
    }
}
