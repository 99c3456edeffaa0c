//! Kicking: where a kick aims, which foot, and the questions that decide whether to kick
//! (the ball is close, the robot stands at its kick position, a moving ball can be
//! intercepted, the goalkeeper should clear).

use super::{deed, question};
use crate::context::SoccerContext;
use crate::frame::{Foot, RemoteCommand};
use crate::motion::Body;
use decision_core::engine::{Registry, Status};
use geometry::{Field, Point2, Pose2, wrap_pi};
use std::fmt::Write;

/// Registers the kicking leaves.
pub fn register(registry: &mut Registry<SoccerContext>) {
    question(registry, "is_ball_close", is_ball_close, |c, o| {
        match (c.world.pose, c.world.ball) {
            (Some(p), Some(b)) => {
                let _ = write!(
                    o,
                    "ball {:.2} m away > {:.2} m",
                    p.position.distance(b.position),
                    kick_distance(c)
                );
            }
            _ => o.push_str("no pose or no ball"),
        }
    });
    question(
        registry,
        "is_at_kick_position",
        is_at_kick_position,
        |_, o| {
            o.push_str("not at the kick position, or not aligned to the goal");
        },
    );
    question(
        registry,
        "can_intercept_ball",
        |c| interception_point(c).is_some(),
        |_, o| {
            o.push_str("the ball is not moving towards the robot and the own half fast enough within reach");
        },
    );
    question(
        registry,
        "may_kick_ball_in_reach",
        may_kick_ball_in_reach,
        |c, o| {
            if c.params.behavior_node.support.kick_ball_in_reach {
                o.push_str("the ball is not within kicking distance");
            } else {
                o.push_str("support.kick_ball_in_reach is off");
            }
        },
    );
    question(registry, "should_clear_ball", should_clear_ball, |_, o| {
        o.push_str("the ball is not in front, near and inside the own penalty area");
    });
    deed(registry, "kick_at_goal", kick_at_goal);
    deed(registry, "kick_at_interception_point", |c| {
        match (interception_point(c), c.world.pose) {
            (Some(point), Some(pose)) => {
                let foot = foot_for(&pose, point);
                let target = goal_target(c);
                kick(c, foot, target)
            }
            _ => Status::Failure,
        }
    });
    deed(registry, "kick_away", |c| {
        match (c.world.ball, c.world.pose) {
            (Some(ball), Some(pose)) => {
                let side = if ball.position.y >= 0.0 { 1.0 } else { -1.0 };
                let target = Point2::new(0.0, side * c.params.field.width / 4.0);
                let foot = foot_for(&pose, ball.position);
                kick(c, foot, target)
            }
            _ => Status::Failure,
        }
    });
    deed(registry, "kick_remote", |c| {
        match (c.world.remote_control, c.world.pose) {
            (Some(RemoteCommand::Kick(foot)), Some(pose)) => {
                let ahead = c.params.behavior_node.remote_control.kick_target_distance;
                let target = pose.to_frame(Point2::new(ahead, 0.0));
                kick(c, foot, target)
            }
            _ => Status::Failure,
        }
    });
    deed(registry, "kick_penalty", |c| {
        match (c.world.ball, c.world.pose) {
            (Some(ball), Some(pose)) => {
                let field = &c.params.field;
                let y = c.params.behavior_node.penalty_shootout.target_y_fraction
                    * field.goal_inner_width
                    / 2.0;
                let foot = foot_for(&pose, ball.position);
                kick(c, foot, Point2::new(field.half_length(), y))
            }
            _ => Status::Failure,
        }
    });
}

fn kick(c: &mut SoccerContext, foot: Foot, target: Point2<Field>) -> Status {
    c.out.body = Some(Body::Kick { foot, target });
    Status::Success
}

/// The foot on the side of `point` as the robot sees it.
pub fn foot_for(pose: &Pose2<Field>, point: Point2<Field>) -> Foot {
    if pose.to_robot(point).y >= 0.0 {
        Foot::Left
    } else {
        Foot::Right
    }
}

/// Where a kick at the opponent goal aims: on the goal line, where the line from the robot
/// through the ball meets it, kept `kicking.goal_post_margin` inside the posts.
pub fn goal_target(c: &SoccerContext) -> Point2<Field> {
    let field = &c.params.field;
    let x = field.half_length();
    let limit =
        (field.goal_inner_width / 2.0 - c.params.behavior_node.kicking.goal_post_margin).max(0.0);
    let y = match (c.world.pose, c.world.ball) {
        (Some(pose), Some(ball)) => {
            let d = ball.position - pose.position;
            if d.x > 1e-6 && ball.position.x < x {
                ball.position.y + (x - ball.position.x) * d.y / d.x
            } else {
                0.0
            }
        }
        _ => 0.0,
    };
    Point2::new(x, y.clamp(-limit, limit))
}

/// The distance under which the striker kicks: `kicking.distance_for_kick`, plus half the
/// hysteresis band while kicking, minus it otherwise.
fn kick_distance(c: &SoccerContext) -> f64 {
    let k = &c.params.behavior_node.kicking;
    let half_band = k.distance_for_kick_hysteresis / 2.0;
    if c.last_body_was("kick") {
        k.distance_for_kick + half_band
    } else {
        k.distance_for_kick - half_band
    }
}

/// The ball is near enough to kick (with hysteresis).
pub fn is_ball_close(c: &SoccerContext) -> bool {
    match (c.world.pose, c.world.ball) {
        (Some(p), Some(b)) => p.position.distance(b.position) < kick_distance(c),
        _ => false,
    }
}

/// A supporter may kick: `support.kick_ball_in_reach` is on and the ball is close
/// ([`is_ball_close`]).
pub fn may_kick_ball_in_reach(c: &SoccerContext) -> bool {
    c.params.behavior_node.support.kick_ball_in_reach && is_ball_close(c)
}

/// Kicks at the goal with the foot on the ball's side.
fn kick_at_goal(c: &mut SoccerContext) -> Status {
    let (Some(ball), Some(pose)) = (c.world.ball, c.world.pose) else {
        return Status::Failure;
    };
    let target = goal_target(c);
    let foot = foot_for(&pose, ball.position);
    kick(c, foot, target)
}

/// In a set play: near the kick position (`substates.distance_for_kick` with its band) and
/// facing the kick direction within `substates.alignment_angle_threshold`.
pub fn is_at_kick_position(c: &SoccerContext) -> bool {
    let (Some(pose), Some(kick_pose)) = (c.world.pose, super::positioning::kick_pose(c)) else {
        return false;
    };
    let s = &c.params.behavior_node.substates;
    let half_band = s.distance_for_kick_hysteresis / 2.0;
    let limit = if c.last_body_was("kick") {
        s.distance_for_kick + half_band
    } else {
        s.distance_for_kick - half_band
    };
    pose.position.distance(kick_pose.position) < limit
        && wrap_pi(pose.yaw - kick_pose.yaw).abs() < s.alignment_angle_threshold
}

/// Where the striker meets a moving ball: the closest point of the ball's line to the robot,
/// when the ball is near, in front, fast, coming towards the robot and the own half, and that
/// point is within `ball.interception.maximum_intercept_distance`.
pub fn interception_point(c: &SoccerContext) -> Option<Point2<Field>> {
    let (pose, ball) = (c.world.pose?, c.world.ball?);
    let i = &c.params.behavior_node.ball.interception;
    let to_robot = pose.position - ball.position;
    let distance = to_robot.norm();
    let speed = ball.velocity.norm();
    let in_front = pose.to_robot(ball.position).x > 0.0;
    let towards_robot = ball.velocity.dot(to_robot.normalized()?);
    let towards_own_half = -ball.velocity.x;
    if distance > i.maximum_ball_distance
        || !in_front
        || speed <= i.minimum_ball_velocity
        || towards_robot <= i.minimum_ball_velocity_towards_robot
        || towards_own_half <= i.minimum_ball_velocity_towards_own_half
    {
        return None;
    }
    let direction = ball.velocity.normalized()?;
    let along = to_robot.dot(direction).max(0.0);
    let point = ball.position + direction * along;
    (point.distance(pose.position) <= i.maximum_intercept_distance).then_some(point)
}

/// The goalkeeper should clear: the ball is in front of it, nearer than
/// `goalkeeper.kick_away_ball_maximum_robot_distance` and inside the own penalty area.
pub fn should_clear_ball(c: &SoccerContext) -> bool {
    let (Some(pose), Some(ball)) = (c.world.pose, c.world.ball) else {
        return false;
    };
    let field = &c.params.field;
    let b = ball.position;
    let in_area = b.x < -field.half_length() + field.penalty_area_length
        && b.y.abs() < field.penalty_area_width / 2.0;
    in_area
        && pose.to_robot(b).x > 0.0
        && pose.position.distance(b)
            < c.params
                .behavior_node
                .goalkeeper
                .kick_away_ball_maximum_robot_distance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaves::test_support::{context, frame, tick_leaf};
    use serde_json::json;

    #[test]
    fn kicks_aim_inside_the_opponent_goal() {
        let mut ctx = context(&frame(
            r#"{"pose": {"x": 3.0, "y": 2.0, "yaw": 0}, "ball": {"x": 3.3, "y": 2.2}}"#,
        ));
        assert_eq!(
            tick_leaf("kick_at_goal", json!({}), &mut ctx),
            Status::Success
        );
        let Some(Body::Kick { foot, target }) = ctx.out.body.clone() else {
            panic!("no kick: {:?}", ctx.out.body)
        };
        assert_eq!(foot, Foot::Left);
        assert_eq!(target.x, 4.5);
        assert!(target.y.abs() < 1.3, "inside the posts: {target:?}");
        assert_eq!(target.y, 1.0, "clamped to the margin");
    }

    #[test]
    fn the_kick_distance_has_a_band() {
        let mut ctx = context(&frame(
            r#"{"pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": 0.45, "y": 0}}"#,
        ));
        assert!(!is_ball_close(&ctx), "0.45 m > 0.5 - 0.1");
        ctx.memory.last_body = Some(Body::Kick {
            foot: Foot::Left,
            target: Point2::new(4.5, 0.0),
        });
        assert!(is_ball_close(&ctx), "0.45 m < 0.5 + 0.1 while kicking");
    }

    #[test]
    fn a_supporter_may_kick_only_with_the_parameter_and_within_the_kick_distance() {
        let with = |kick_ball_in_reach: bool, ball_x: f64| {
            let mut params = crate::params::Parameters::default();
            params.behavior_node.support.kick_ball_in_reach = kick_ball_in_reach;
            let ctx = crate::leaves::test_support::with_params(
                &frame(&format!(
                    r#"{{"pose": {{"x": 0, "y": 0, "yaw": 0}}, "ball": {{"x": {ball_x}, "y": 0}}}}"#
                )),
                params,
            );
            may_kick_ball_in_reach(&ctx)
        };
        // distance_for_kick 0.5 minus half the 0.2 band while not kicking: 0.4 m.
        assert!(with(true, 0.39));
        assert!(!with(true, 0.41));
        assert!(!with(false, 0.39), "off by default");
    }

    #[test]
    fn a_fast_ball_coming_at_the_robot_is_intercepted() {
        let ctx = context(&frame(
            r#"{"pose": {"x": -1, "y": 0, "yaw": 0}, "ball": {"x": 1, "y": 0.5, "vx": -2, "vy": 0}}"#,
        ));
        let p = interception_point(&ctx).expect("interception");
        assert!(
            (p.x + 1.0).abs() < 1e-9 && (p.y - 0.5).abs() < 1e-9,
            "{p:?}"
        );
        let slow = context(&frame(
            r#"{"pose": {"x": -1, "y": 0, "yaw": 0}, "ball": {"x": 1, "y": 0.5, "vx": -0.5, "vy": 0}}"#,
        ));
        assert!(interception_point(&slow).is_none());
        let away = context(&frame(
            r#"{"pose": {"x": -1, "y": 0, "yaw": 0}, "ball": {"x": 1, "y": 0.5, "vx": 2, "vy": 0}}"#,
        ));
        assert!(interception_point(&away).is_none());
    }

    #[test]
    fn the_goalkeeper_clears_a_near_ball_in_its_penalty_area() {
        let mut ctx = context(&frame(
            r#"{"pose": {"x": -4.2, "y": 0, "yaw": 0}, "ball": {"x": -3.5, "y": -0.5}}"#,
        ));
        assert!(should_clear_ball(&ctx));
        assert_eq!(tick_leaf("kick_away", json!({}), &mut ctx), Status::Success);
        assert!(
            matches!(ctx.out.body, Some(Body::Kick { target, .. }) if target == Point2::new(0.0, -1.5))
        );
        let ctx = context(&frame(
            r#"{"pose": {"x": -4.2, "y": 0, "yaw": 0}, "ball": {"x": -1.0, "y": 0}}"#,
        ));
        assert!(!should_clear_ball(&ctx));
    }

    #[test]
    fn remote_kicks_aim_three_metres_ahead() {
        let mut params = crate::params::Parameters::default();
        params.behavior_node.remote_control.enable = true;
        let mut ctx = crate::leaves::test_support::with_params(
            &frame(
                r#"{"pose": {"x": 1, "y": 1, "yaw": 1.5707963267948966}, "remote_control": {"kick": "right"}}"#,
            ),
            params,
        );
        assert_eq!(
            tick_leaf("kick_remote", json!({}), &mut ctx),
            Status::Success
        );
        let Some(Body::Kick { foot, target }) = ctx.out.body.clone() else {
            panic!("no kick")
        };
        assert_eq!(foot, Foot::Right);
        assert!(
            (target.x - 1.0).abs() < 1e-9 && (target.y - 4.0).abs() < 1e-9,
            "{target:?}"
        );
    }
}
