//! Role questions and the role a branch takes.

use super::question;
use crate::context::{Role, SoccerContext};
use decision_core::engine::blackboard::EntryType;
use decision_core::engine::{Action, LeafParams, ParamError, PortDecl, Registry, Status};
use std::fmt::Write;

/// Registers the role leaves.
pub fn register(registry: &mut Registry<SoccerContext>) {
    question(
        registry,
        "is_closest_to_ball",
        |c| c.world.is_striker,
        |c, o| {
            let _ = write!(
                o,
                "owns the ball's Voronoi cell: {} (striker hysteresis: not yet or no longer)",
                c.world.owns_ball_cell
            );
        },
    );
    question(
        registry,
        "is_goalkeeper_closest_to_ball",
        is_goalkeeper_closest_to_ball,
        |_, o| {
            o.push_str("a teammate is nearer to the ball, or no ball or pose");
        },
    );
    let role = PortDecl::input("role", EntryType::Str, "the role this robot takes").one_of(&[
        "goalkeeper",
        "striker",
        "supporter",
        "searcher",
        "penalty_shootout",
    ]);
    registry.action("assume_role", vec![role], |p: &LeafParams| {
        let name = p.str("role")?;
        let role = Role::from_name(name).ok_or_else(|| {
            ParamError::new("role", format!("unknown role `{name}` (goalkeeper, striker, supporter, searcher, penalty_shootout)"))
        })?;
        Ok(Box::new(AssumeRole(role)) as Box<dyn Action<SoccerContext>>)
    });
}

/// This robot is nearer to the ball than every fresh teammate (plain distance).
pub fn is_goalkeeper_closest_to_ball(c: &SoccerContext) -> bool {
    let (Some(pose), Some(ball)) = (c.world.pose, c.world.ball) else {
        return false;
    };
    let own = pose.position.distance_squared(ball.position);
    c.world
        .teammates
        .iter()
        .filter_map(|m| m.pose)
        .all(|p| p.position.distance_squared(ball.position) > own)
}

/// `assume_role`: records the role of the branch; the searcher's turn direction is chosen
/// when the search starts (towards the last seen ball's side, else left) and kept.
struct AssumeRole(Role);

impl Action<SoccerContext> for AssumeRole {
    fn tick(&mut self, c: &mut SoccerContext, _now: f64) -> Status {
        c.out.role = Some(self.0);
        if self.0 == Role::Searcher && c.memory.search_direction.is_none() {
            c.memory.search_direction = Some(crate::leaves::walking::search_start_direction(c));
        }
        Status::Success
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaves::test_support::{context, frame, tick_leaf};
    use crate::motion::TurnDirection;
    use serde_json::json;

    #[test]
    fn assume_role_records_the_role_and_starts_the_search_direction() {
        let mut ctx = context(&frame(
            r#"{"pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": 1, "y": -1}}"#,
        ));
        assert_eq!(
            tick_leaf("assume_role", json!({"role": "striker"}), &mut ctx),
            Status::Success
        );
        assert_eq!(ctx.out.role, Some(Role::Striker));
        assert_eq!(ctx.memory.search_direction, None);
        assert_eq!(
            tick_leaf("assume_role", json!({"role": "searcher"}), &mut ctx),
            Status::Success
        );
        assert_eq!(
            ctx.memory.search_direction,
            Some(TurnDirection::Right),
            "ball on the right"
        );
        assert_eq!(
            crate::leaves::test_support::compile_leaf(
                "assume_role",
                json!({"role": "strikr"}),
                &mut ctx
            )
            .err()
            .as_deref(),
            Some(
                "assume_role: port `role`: `strikr` is not one of goalkeeper, striker, \
                 supporter, searcher, penalty_shootout (did you mean `striker`?)"
            )
        );
    }

    #[test]
    fn the_goalkeeper_is_closest_only_when_nearer_than_every_teammate() {
        let ctx = context(&frame(
            r#"{"pose": {"x": -4, "y": 0, "yaw": 0}, "ball": {"x": -3, "y": 0},
                "teammate_messages": [{"player": 2, "pose": {"x": -1, "y": 0, "yaw": 0}}]}"#,
        ));
        assert!(is_goalkeeper_closest_to_ball(&ctx));
        let ctx = context(&frame(
            r#"{"pose": {"x": -4, "y": 0, "yaw": 0}, "ball": {"x": -2, "y": 0},
                "teammate_messages": [{"player": 2, "pose": {"x": -1.5, "y": 0, "yaw": 0}}]}"#,
        ));
        assert!(!is_goalkeeper_closest_to_ball(&ctx));
    }
}
