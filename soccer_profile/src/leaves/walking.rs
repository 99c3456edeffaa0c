//! Body actions: stand, damp, prepare, stand up, the injected command, remote walking,
//! turning to search, and walking to a target (through the path planner) or the kick-off
//! pose.

use super::deed;
use crate::context::SoccerContext;
use crate::formation::kickoff_pose;
use crate::frame::RemoteCommand;
use crate::motion::{Body, TurnDirection};
use decision_core::engine::blackboard::EntryType;
use decision_core::engine::{Action, LeafParams, ParamError, PortDecl, Registry, Status};
use geometry::{Field, Pose2, wrap_pi};

/// Registers the body actions.
pub fn register(registry: &mut Registry<SoccerContext>) {
    deed(registry, "stand", |c| choose(c, Body::Stand));
    deed(registry, "damp", |c| choose(c, Body::Damping));
    deed(registry, "prepare", |c| choose(c, Body::Prepare));
    deed(registry, "stand_up", |c| choose(c, Body::StandUp));
    deed(registry, "send_injected_motion_command", |c| {
        match c
            .params
            .behavior_node
            .control
            .injected_motion_command
            .clone()
        {
            Some(command) => choose(c, Body::Injected(command)),
            None => Status::Failure,
        }
    });
    deed(registry, "walk_with_remote_velocity", |c| {
        match c.world.remote_control {
            Some(RemoteCommand::Walk([vx, vy, vyaw])) => {
                choose(c, Body::WalkVelocity { vx, vy, vyaw })
            }
            _ => Status::Failure,
        }
    });
    deed(registry, "turn_to_search", |c| {
        let direction = match c.memory.search_direction {
            Some(d) => d,
            None => search_start_direction(c),
        };
        choose(c, Body::Turn(direction))
    });
    deed(registry, "walk_to_kickoff_pose", walk_to_kickoff_pose);
    let speed = PortDecl::input("speed", EntryType::Str, "the walking speed to use")
        .one_of(&["kicking", "search", "blocking", "support"]);
    registry.action("walk_to_target", vec![speed], |p: &LeafParams| {
        let speed = Speed::from_name(p.str("speed")?)?;
        Ok(Box::new(WalkToTarget(speed)) as Box<dyn Action<SoccerContext>>)
    });
}

fn choose(c: &mut SoccerContext, body: Body) -> Status {
    c.out.body = Some(body);
    Status::Success
}

/// The search's turning direction when it starts: towards the side of the last seen ball
/// relative to the heading when both are known, else left.
pub fn search_start_direction(c: &SoccerContext) -> TurnDirection {
    let last_ball = c.world.ball.or(c.world.last_local_ball).map(|b| b.position);
    match (c.world.pose, last_ball) {
        (Some(pose), Some(ball)) if pose.bearing_to(ball) < 0.0 => TurnDirection::Right,
        _ => TurnDirection::Left,
    }
}

/// Which `walking.speed` a walk uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    /// `walking.speed.kicking`.
    Kicking,
    /// `walking.speed.search`.
    Search,
    /// `walking.speed.blocking`.
    Blocking,
    /// `walking.speed.support`.
    Support,
}

impl Speed {
    fn from_name(name: &str) -> Result<Speed, ParamError> {
        Ok(match name {
            "kicking" => Speed::Kicking,
            "search" => Speed::Search,
            "blocking" => Speed::Blocking,
            "support" => Speed::Support,
            other => {
                return Err(ParamError::new(
                    "speed",
                    format!("unknown speed `{other}` (kicking, search, blocking, support)"),
                ));
            }
        })
    }

    /// The speed in m/s.
    pub fn value(self, c: &SoccerContext) -> f64 {
        let s = &c.params.behavior_node.walking.speed;
        match self {
            Speed::Kicking => s.kicking,
            Speed::Search => s.search,
            Speed::Blocking => s.blocking,
            Speed::Support => s.support,
        }
    }
}

/// Whether `pose` is within `(distance, yaw)` of `target`.
fn is_within(pose: &Pose2<Field>, target: &Pose2<Field>, distance: f64, yaw: f64) -> bool {
    pose.position.distance(target.position) <= distance
        && wrap_pi(pose.yaw - target.yaw).abs() <= yaw
}

/// `walk_to_target`: walks to the target a positioning leaf set, or stands once it is
/// reached (`walking.walk_and_stand.target_reached_thresholds`, widened by `hysteresis` while
/// already standing; not at `search` speed, whose arrival is the search's). Fails without a
/// pose or a target.
struct WalkToTarget(Speed);

impl Action<SoccerContext> for WalkToTarget {
    fn tick(&mut self, c: &mut SoccerContext, _now: f64) -> Status {
        let Some(target) = c.out.target else {
            return Status::Failure;
        };
        // Not localized: stand where we are (the role holds; only `ready` fails without a pose).
        let Some(pose) = c.world.pose else {
            return choose(c, Body::Stand);
        };
        let walk = &c.params.behavior_node.walking.walk_and_stand;
        let [mut distance, mut yaw] = walk.target_reached_thresholds;
        if c.last_body_was("stand") {
            distance += walk.hysteresis[0];
            yaw += walk.hysteresis[1];
        }
        // The search has its own arrival rule (`search_position` fails within it and the
        // searcher turns), so a search walk never stands.
        if self.0 != Speed::Search && is_within(&pose, &target, distance, yaw) {
            return choose(c, Body::Stand);
        }
        let speed = self.0.value(c);
        walk_to(c, target, speed)
    }
}

/// Chooses `walk_to target` at `speed` and plans its path.
pub fn walk_to(c: &mut SoccerContext, target: Pose2<Field>, speed: f64) -> Status {
    let params = c.params.clone();
    c.out.path_next = c
        .memory
        .walker
        .plan(&c.world, &params, target.position, speed);
    choose(c, Body::WalkTo { target, speed })
}

/// `walk_to_kickoff_pose`: the ready formation's pose (also reported as `kickoff_pose`);
/// walks there at `walking.speed.walk_to_kickoff`, stands within `ready.arrival_distance` and
/// `ready.arrival_yaw`. Fails without a pose; a player without a slot stands.
fn walk_to_kickoff_pose(c: &mut SoccerContext) -> Status {
    let kicking_team = c.world.game.as_ref().and_then(|g| g.kicking_team);
    let target = kickoff_pose(
        c.world.player_number,
        c.world.active_players(),
        kicking_team,
        &c.params,
    );
    c.out.kickoff_pose = target;
    let Some(pose) = c.world.pose else {
        return Status::Failure;
    };
    let Some(target) = target else {
        return choose(c, Body::Stand);
    };
    let ready = &c.params.behavior_node.ready;
    if is_within(&pose, &target, ready.arrival_distance, ready.arrival_yaw) {
        return choose(c, Body::Stand);
    }
    let speed = c.params.behavior_node.walking.speed.walk_to_kickoff;
    walk_to(c, target, speed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaves::test_support::{context, frame, tick_leaf};
    use serde_json::json;

    #[test]
    fn walk_to_target_walks_then_stands_with_hysteresis() {
        let mut ctx = context(&frame(r#"{"pose": {"x": 0, "y": 0, "yaw": 0}}"#));
        assert_eq!(
            tick_leaf("walk_to_target", json!({"speed": "support"}), &mut ctx),
            Status::Failure,
            "no target"
        );
        ctx.out.target = Some(Pose2::new(1.0, 0.0, 0.0));
        assert_eq!(
            tick_leaf("walk_to_target", json!({"speed": "support"}), &mut ctx),
            Status::Success
        );
        assert!(matches!(ctx.out.body, Some(Body::WalkTo { speed, .. }) if speed == 0.75));
        assert!(ctx.out.path_next.is_some(), "a free field has a path");
        // 0.2 m away: beyond the 0.05 m threshold while walking ...
        ctx.out.target = Some(Pose2::new(0.2, 0.0, 0.0));
        tick_leaf("walk_to_target", json!({"speed": "support"}), &mut ctx);
        assert_eq!(ctx.out.body.as_ref().map(Body::kind), Some("walk_to"));
        // ... but within the widened 0.35 m once standing.
        ctx.memory.last_body = Some(Body::Stand);
        tick_leaf("walk_to_target", json!({"speed": "support"}), &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand));
    }

    #[test]
    fn a_search_walk_does_not_stand_after_standing() {
        let mut ctx = context(&frame(r#"{"pose": {"x": 0, "y": 0, "yaw": 0}}"#));
        ctx.memory.last_body = Some(Body::Stand);
        // 0.3 m away: within the widened 0.35 m, but beyond the search's arrival distance
        ctx.out.target = Some(Pose2::new(0.3, 0.0, 0.0));
        tick_leaf("walk_to_target", json!({"speed": "search"}), &mut ctx);
        assert!(matches!(ctx.out.body, Some(Body::WalkTo { speed, .. }) if speed == 0.4));
        tick_leaf("walk_to_target", json!({"speed": "support"}), &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand));
    }

    #[test]
    fn the_kickoff_walk_stands_on_arrival_and_fails_without_a_pose() {
        let mut ctx = context(&frame(
            r#"{"player_number": 1, "pose": {"x": -4.185, "y": 0.1, "yaw": 0.1}}"#,
        ));
        assert_eq!(
            tick_leaf("walk_to_kickoff_pose", json!({}), &mut ctx),
            Status::Success
        );
        assert_eq!(ctx.out.body, Some(Body::Stand));
        let mut ctx = context(&frame(
            r#"{"player_number": 1, "pose": {"x": -3, "y": 0, "yaw": 0}}"#,
        ));
        tick_leaf("walk_to_kickoff_pose", json!({}), &mut ctx);
        assert!(matches!(ctx.out.body, Some(Body::WalkTo { speed, .. }) if speed == 0.5));
        let mut ctx = context(&frame(r#"{"player_number": 1, "pose": null}"#));
        assert_eq!(
            tick_leaf("walk_to_kickoff_pose", json!({}), &mut ctx),
            Status::Failure
        );
        assert!(ctx.out.kickoff_pose.is_some(), "the pose is still reported");
    }

    #[test]
    fn turning_keeps_the_chosen_direction_and_defaults_to_the_ball_side() {
        let mut ctx = context(&frame(r#"{"pose": {"x": 0, "y": 0, "yaw": 0}}"#));
        tick_leaf("turn_to_search", json!({}), &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Turn(TurnDirection::Left)));
        ctx.memory.search_direction = Some(TurnDirection::Right);
        tick_leaf("turn_to_search", json!({}), &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Turn(TurnDirection::Right)));
        assert_eq!(
            crate::leaves::test_support::compile_leaf(
                "walk_to_target",
                json!({"speed": "fast"}),
                &mut ctx
            )
            .err()
            .as_deref(),
            Some(
                "walk_to_target: port `speed`: `fast` is not one of kicking, search, blocking, \
                 support"
            )
        );
    }
}
