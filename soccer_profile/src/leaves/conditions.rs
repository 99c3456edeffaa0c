//! Conditions on the primary state, the game state and the ball.

use super::question;
use crate::context::SoccerContext;
use crate::frame::{GamePhase, PrimaryState, RemoteCommand, SubState, Team};
use decision_core::engine::blackboard::EntryType;
use decision_core::engine::{Condition, LeafParams, ParamError, PortDecl, Registry};
use std::fmt::Write;

/// A port's value as the enum it names (its choices are checked when the tree compiles).
fn from_name<T: serde::de::DeserializeOwned>(port: &str, name: &str) -> Result<T, ParamError> {
    serde_json::from_value(serde_json::Value::String(name.to_owned()))
        .map_err(|_| ParamError::new(port, format!("unknown value `{name}`")))
}

/// Registers the conditions.
pub fn register(registry: &mut Registry<SoccerContext>) {
    let state = PortDecl::input("state", EntryType::Str, "the primary state that holds").one_of(&[
        "damping",
        "prepare",
        "stop",
        "initial",
        "ready",
        "set",
        "playing",
        "finished",
        "penalized",
    ]);
    registry.condition("is_primary_state", vec![state], |p: &LeafParams| {
        let state: PrimaryState = from_name("state", p.str("state")?)?;
        Ok(Box::new(IsPrimaryState(state)) as Box<dyn Condition<SoccerContext>>)
    });
    let kind = PortDecl::input("kind", EntryType::Str, "the set play that holds").one_of(&[
        "free_kick",
        "goal_kick",
        "corner_kick",
        "throw_in",
        "penalty_kick",
        "pushing_free_kick",
    ]);
    registry.condition("is_set_play", vec![kind], |p: &LeafParams| {
        let kind: SubState = from_name("kind", p.str("kind")?)?;
        Ok(Box::new(IsSetPlay(kind)) as Box<dyn Condition<SoccerContext>>)
    });
    let team = PortDecl::input("team", EntryType::Str, "the team that kicks the set play")
        .one_of(&["own", "opponent"]);
    registry.condition("is_kicking_team", vec![team], |p: &LeafParams| {
        let team = match p.str("team")? {
            "own" => Team::Own,
            _ => Team::Opponent,
        };
        Ok(Box::new(IsKickingTeam(team)) as Box<dyn Condition<SoccerContext>>)
    });
    question(
        registry,
        "is_motion_switch_allowed",
        |c| c.world.motion_switch_allowed,
        |c, o| {
            let _ = write!(
                o,
                "motion_switch_allowed is {}",
                c.world.motion_switch_allowed
            );
        },
    );
    question(
        registry,
        "is_remote_control_active",
        is_remote_control_active,
        |c, o| {
            if !c.params.behavior_node.remote_control.enable {
                o.push_str("remote_control.enable is false");
            } else {
                o.push_str("the frame carries no remote_control command");
            }
        },
    );
    question(
        registry,
        "is_remote_walk_command",
        |c| matches!(c.world.remote_control, Some(RemoteCommand::Walk(_))),
        |_, o| {
            o.push_str("the remote command is not a walk");
        },
    );
    question(
        registry,
        "has_injected_motion_command",
        |c| {
            c.params
                .behavior_node
                .control
                .injected_motion_command
                .is_some()
        },
        |_, o| {
            o.push_str("control.injected_motion_command is null");
        },
    );
    question(
        registry,
        "can_stand_up",
        |c| c.world.fallen && c.world.stand_up_available,
        |c, o| {
            let _ = write!(
                o,
                "fallen {}, stand_up_available {}",
                c.world.fallen, c.world.stand_up_available
            );
        },
    );
    question(
        registry,
        "is_penalty_shootout",
        is_penalty_shootout,
        |c, o| match &c.world.game {
            Some(_) => o.push_str("game phase is normal"),
            None => o.push_str("no game-controller state"),
        },
    );
    question(
        registry,
        "is_simple_mode",
        |c| c.params.behavior_node.control.simple_mode,
        |_, o| {
            o.push_str("control.simple_mode is false");
        },
    );
    question(registry, "is_goalkeeper", is_goalkeeper, |c, o| {
        let _ = write!(
            o,
            "player {} is not goalkeeper.player_number {}",
            c.world.player_number, c.params.behavior_node.goalkeeper.player_number
        );
    });
    question(
        registry,
        "has_ball",
        |c| c.world.ball.is_some(),
        |c, o| {
            let timeout = c.params.behavior_node.ball.last_ball_timeout;
            match c.world.last_local_ball {
                Some(b) => {
                    let _ = write!(
                        o,
                        "last local ball {:.2} s old > {timeout} s, no fresh team ball",
                        b.age(c.world.now)
                    );
                }
                None => o.push_str("no ball seen, no fresh team ball"),
            }
        },
    );
    question(
        registry,
        "sees_ball",
        |c| c.world.current_ball.is_some(),
        |_, o| {
            o.push_str("no ball perceived this frame");
        },
    );
    question(
        registry,
        "is_in_set_play",
        is_in_set_play,
        |c, o| match &c.world.game {
            Some(g) if g.sub_state.is_none() => o.push_str("no set play"),
            Some(_) => o.push_str("set play without a kicking team"),
            None => o.push_str("no game-controller state"),
        },
    );
    question(
        registry,
        "is_ball_in_own_half",
        |c| c.world.ball.is_some_and(|b| b.position.x < 0.0),
        |c, o| match c.world.ball {
            Some(b) => {
                let _ = write!(o, "ball x {:.2} >= 0", b.position.x);
            }
            None => o.push_str("no ball"),
        },
    );
}

/// `remote_control.enable` and the frame carries a command.
pub fn is_remote_control_active(c: &SoccerContext) -> bool {
    c.params.behavior_node.remote_control.enable && c.world.remote_control.is_some()
}

/// The game is in a penalty shootout.
pub fn is_penalty_shootout(c: &SoccerContext) -> bool {
    c.world
        .game
        .as_ref()
        .is_some_and(|g| g.phase == GamePhase::PenaltyShootout)
}

/// This robot's number is the goalkeeper's.
pub fn is_goalkeeper(c: &SoccerContext) -> bool {
    c.world.player_number == c.params.behavior_node.goalkeeper.player_number
}

/// A set play with a known kicking team is in progress.
pub fn is_in_set_play(c: &SoccerContext) -> bool {
    c.world
        .game
        .as_ref()
        .is_some_and(|g| g.sub_state.is_some() && g.kicking_team.is_some())
}

/// `is_primary_state`: the primary state is `state`.
struct IsPrimaryState(PrimaryState);

impl Condition<SoccerContext> for IsPrimaryState {
    fn check(&mut self, ctx: &SoccerContext, _now: f64) -> bool {
        ctx.world.primary_state == self.0
    }

    fn explain(&self, ctx: &SoccerContext, _now: f64) -> String {
        format!(
            "primary state is {}, not {}",
            state_name(ctx.world.primary_state),
            state_name(self.0)
        )
    }
}

/// The snake_case name of a primary state.
pub fn state_name(s: PrimaryState) -> &'static str {
    match s {
        PrimaryState::Damping => "damping",
        PrimaryState::Prepare => "prepare",
        PrimaryState::Stop => "stop",
        PrimaryState::Initial => "initial",
        PrimaryState::Ready => "ready",
        PrimaryState::Set => "set",
        PrimaryState::Playing => "playing",
        PrimaryState::Finished => "finished",
        PrimaryState::Penalized => "penalized",
    }
}

/// `is_set_play`: the set play in progress is `kind`.
struct IsSetPlay(SubState);

impl Condition<SoccerContext> for IsSetPlay {
    fn check(&mut self, ctx: &SoccerContext, _now: f64) -> bool {
        ctx.world.game.as_ref().and_then(|g| g.sub_state) == Some(self.0)
    }

    fn explain(&self, ctx: &SoccerContext, _now: f64) -> String {
        format!(
            "set play is {:?}, not {:?}",
            ctx.world.game.as_ref().and_then(|g| g.sub_state),
            self.0
        )
    }
}

/// `is_kicking_team`: the kick-off or set play belongs to `team`.
struct IsKickingTeam(Team);

impl Condition<SoccerContext> for IsKickingTeam {
    fn check(&mut self, ctx: &SoccerContext, _now: f64) -> bool {
        ctx.world.game.as_ref().and_then(|g| g.kicking_team) == Some(self.0)
    }

    fn explain(&self, ctx: &SoccerContext, _now: f64) -> String {
        format!(
            "kicking team is {:?}, not {:?}",
            ctx.world.game.as_ref().and_then(|g| g.kicking_team),
            self.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaves::test_support::{context, frame, tick_leaf, with_params};
    use crate::params::Parameters;
    use decision_core::engine::Status;
    use serde_json::json;

    #[test]
    fn a_leaf_port_may_name_a_blackboard_entry() {
        use crate::leaves::test_support::compile_leaf;
        use decision_core::engine::blackboard::Value;
        let mut ctx = context(&frame(r#"{"primary_state": "ready"}"#));
        let mut tree = compile_leaf("is_primary_state", json!({"state": "{wanted}"}), &mut ctx)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut tick = |tree: &mut decision_core::engine::Tree<_>, wanted: &str| {
            let root = tree.root_scope();
            tree.blackboard_mut()
                .set(root, "wanted", Value::Str(wanted.to_owned()))
                .unwrap_or_else(|e| panic!("{e}"));
            tree.try_tick(&mut ctx, 0.0).map_err(|e| e.to_string())
        };
        assert_eq!(tick(&mut tree, "ready"), Ok(Status::Success));
        assert_eq!(tick(&mut tree, "set"), Ok(Status::Failure));
        assert_eq!(
            tick(&mut tree, "redy"),
            Err(
                "is_primary_state: port `state`: `redy` is not one of damping, prepare, stop, \
                 initial, ready, set, playing, finished, penalized (did you mean `ready`?)"
                    .to_owned()
            )
        );
    }

    #[test]
    fn primary_state_and_game_questions() {
        let mut ctx = context(&frame(r#"{"primary_state": "ready"}"#));
        assert_eq!(
            tick_leaf("is_primary_state", json!({"state": "ready"}), &mut ctx),
            Status::Success
        );
        assert_eq!(
            tick_leaf("is_primary_state", json!({"state": "set"}), &mut ctx),
            Status::Failure
        );
        assert!(!is_penalty_shootout(&ctx));
        let ctx = context(&frame(r#"{"game": {"phase": "penalty_shootout"}}"#));
        assert!(is_penalty_shootout(&ctx));
        let mut ctx = context(&frame(
            r#"{"game": {"sub_state": "goal_kick", "kicking_team": "opponent"}}"#,
        ));
        assert!(is_in_set_play(&ctx));
        assert_eq!(
            tick_leaf("is_set_play", json!({"kind": "goal_kick"}), &mut ctx),
            Status::Success
        );
        assert_eq!(
            tick_leaf("is_kicking_team", json!({"team": "own"}), &mut ctx),
            Status::Failure
        );
        let ctx = context(&frame(
            r#"{"game": {"sub_state": "goal_kick", "kicking_team": null}}"#,
        ));
        assert!(!is_in_set_play(&ctx));
    }

    #[test]
    fn goalkeeper_and_remote_control_questions_read_the_parameters() {
        let ctx = context(&frame(
            r#"{"player_number": 1, "remote_control": {"kick": "left"}}"#,
        ));
        assert!(is_goalkeeper(&ctx));
        assert!(!is_remote_control_active(&ctx), "disabled by default");
        let mut params = Parameters::default();
        params.behavior_node.remote_control.enable = true;
        params.behavior_node.goalkeeper.player_number = 2;
        let ctx = with_params(
            &frame(r#"{"player_number": 1, "remote_control": {"kick": "left"}}"#),
            params,
        );
        assert!(is_remote_control_active(&ctx));
        assert!(!is_goalkeeper(&ctx));
    }

    #[test]
    fn stand_up_needs_a_fall_and_recovery() {
        let mut ctx = context(&frame(r#"{"fallen": true}"#));
        assert_eq!(
            tick_leaf("can_stand_up", json!({}), &mut ctx),
            Status::Failure
        );
        let mut ctx = context(&frame(r#"{"fallen": true, "stand_up_available": true}"#));
        assert_eq!(
            tick_leaf("can_stand_up", json!({}), &mut ctx),
            Status::Success
        );
    }

    #[test]
    fn bad_leaf_params_are_compile_errors() {
        let mut ctx = context(&frame("{}"));
        // The same errors, with the same suggestions, as the standard library's ports.
        for (id, ports, expected) in [
            (
                "is_primary_state",
                json!({"state": "walking"}),
                "is_primary_state: port `state`: `walking` is not one of damping, prepare, \
                 stop, initial, ready, set, playing, finished, penalized",
            ),
            (
                "is_primary_state",
                json!({"state": "playng"}),
                "is_primary_state: port `state`: `playng` is not one of damping, prepare, \
                 stop, initial, ready, set, playing, finished, penalized (did you mean `playing`?)",
            ),
            (
                "is_primary_state",
                json!({"state": "ready", "stat": 1}),
                "is_primary_state: `is_primary_state` has no port `stat` (did you mean `state`?)",
            ),
            (
                "is_primary_state",
                json!({}),
                "is_primary_state: missing required port `state` of `is_primary_state`",
            ),
            (
                "is_set_play",
                json!({"kind": "corner"}),
                "is_set_play: port `kind`: `corner` is not one of free_kick, goal_kick, \
                 corner_kick, throw_in, penalty_kick, pushing_free_kick",
            ),
            (
                "is_kicking_team",
                json!({"team": "them"}),
                "is_kicking_team: port `team`: `them` is not one of own, opponent",
            ),
            (
                "has_ball",
                json!({"x": 1}),
                "has_ball: `has_ball` has no port `x` (it takes no ports)",
            ),
        ] {
            let result = crate::leaves::test_support::compile_leaf(id, ports.clone(), &mut ctx);
            assert_eq!(result.err().as_deref(), Some(expected), "{id} {ports}");
        }
    }
}
