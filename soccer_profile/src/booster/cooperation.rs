//! Booster's brain around the tree: the root blackboard keys (Booster's `initEntry`) and
//! what its callbacks and `handleCooperation()` write into them before each tick,
//! computed from our soccer world.
//!
//! | key | from |
//! |---|---|
//! | `player_role` | `goal_keeper` for `goalkeeper.player_number`, else `striker` |
//! | `odom_calibrated` | a pose is known |
//! | `ball_location_known` | the own ball was seen within [`BALL_MEMORY_TIMEOUT`] |
//! | `tm_ball_pos_reliable` | an alive teammate reports a ball more than [`TEAM_BALL_DISTANCE`] from me (held [`TEAM_BALL_HOLD`]) |
//! | `ball_out` | the known ball is outside the lines |
//! | `ball_range` | distance to the known ball |
//! | `gc_game_state` | primary state: INITIAL / READY / SET / PLAY / END (others keep the last) |
//! | `gc_game_sub_state_type`, `gc_game_sub_state` | a set play against us: FREE_KICK, GET_READY; our own: FREE_KICK, GET_READY for [`OWN_SET_PLAY_PLACING`], then NONE (we play the ball) |
//! | `gc_is_kickoff_side`, `gamecontroller_isKickOff` | our team kicks off / takes the set play |
//! | `gc_is_sub_state_kickoff_side` | our team takes the set play |
//! | `gc_is_under_penalty` | primary state penalized |
//! | `is_lead` | Booster's cost-to-kick rule |
//! | `wait_for_opponent_kickoff` | READY / SET of an opponent kick-off, then in PLAY until the ball moved or [`KICKOFF_WAIT`] |
//! | `control_state` | 1 while the primary state is `stop`, 3 when it ends (else the tree's own) |
//!
//! Not written (they keep `initEntry`'s value): `go_manual`, `assist_chase`, `assist_kick`
//! (joystick), `we_just_scored`, `need_check_behind`, `goalie_mode`, `test_choice`,
//! `track_ball`, `defend_decision`, the calibration keys. Role switching
//! (`enable_role_switch`, off by default) and the goalkeeper swap are not done.

use super::{field, on_field};
use crate::context::{Role, SoccerContext};
use crate::frame::{PrimaryState, Team};
use decision_core::engine::blackboard::{Blackboards, EntrySlot, ScopeId, Value, ValueError};
use geometry::{Field, Point2, Pose2};

/// Booster's `ball_memory_timeout` (s).
pub const BALL_MEMORY_TIMEOUT: f64 = 2.0;
/// Booster's `tm_ball_dist_threshold` (m).
pub const TEAM_BALL_DISTANCE: f64 = 2.0;
/// How long a reliable team ball stays reliable after the last report (s).
pub const TEAM_BALL_HOLD: f64 = 1.0;
/// A teammate silent this long is not alive (`COM_TIMEOUT`, s).
pub const COMMUNICATION_TIMEOUT: f64 = 5.0;
/// Booster's `ball_control_cost_threshold`.
pub const BALL_CONTROL_COST_THRESHOLD: f64 = 20.0;
/// The longest wait for the opponent's kick-off in PLAY (s).
pub const KICKOFF_WAIT: f64 = 10.0;
/// How long our own set play is announced as GET_READY before we play the ball (s).
pub const OWN_SET_PLAY_PLACING: f64 = 5.0;

/// The root keys with `initEntry`'s values.
pub fn initial_entries() -> Vec<(&'static str, Value)> {
    let s = |v: &str| Value::Str(v.to_owned());
    let mut out = vec![
        ("player_role", s("striker")),
        ("ball_location_known", Value::Bool(false)),
        ("tm_ball_pos_reliable", Value::Bool(false)),
        ("ball_out", Value::Bool(false)),
        ("track_ball", Value::Bool(true)),
        ("odom_calibrated", Value::Bool(false)),
        ("decision", s("")),
        ("defend_decision", s("chase")),
        ("ball_range", Value::Double(0.0)),
        ("gamecontroller_isKickOff", Value::Bool(true)),
        ("gc_game_state", s("")),
        ("gc_game_sub_state_type", s("NONE")),
        ("gc_game_sub_state", s("")),
        ("gc_is_kickoff_side", Value::Bool(false)),
        ("gc_is_sub_state_kickoff_side", Value::Bool(false)),
        ("gc_is_under_penalty", Value::Bool(false)),
        ("need_check_behind", Value::Bool(false)),
        ("is_lead", Value::Bool(true)),
        ("goalie_mode", s("attack")),
        ("test_choice", Value::Int(0)),
        ("control_state", Value::Int(0)),
        ("assist_chase", Value::Bool(false)),
        ("assist_kick", Value::Bool(false)),
        ("go_manual", Value::Bool(false)),
        ("we_just_scored", Value::Bool(false)),
        ("wait_for_opponent_kickoff", Value::Bool(false)),
        ("calibrate_state", s("pitch")),
    ];
    for key in [
        "calibrate_pitch_center",
        "calibrate_pitch_step",
        "calibrate_yaw_center",
        "calibrate_yaw_step",
        "calibrate_z_center",
        "calibrate_z_step",
    ] {
        out.push((key, Value::Double(0.0)));
    }
    out
}

/// The slots of the keys the cooperation writes.
#[derive(Debug, Clone)]
pub struct Keys {
    player_role: EntrySlot,
    odom_calibrated: EntrySlot,
    ball_location_known: EntrySlot,
    tm_ball_pos_reliable: EntrySlot,
    ball_out: EntrySlot,
    ball_range: EntrySlot,
    gc_game_state: EntrySlot,
    gc_game_sub_state_type: EntrySlot,
    gc_game_sub_state: EntrySlot,
    gc_is_kickoff_side: EntrySlot,
    gamecontroller_is_kick_off: EntrySlot,
    gc_is_sub_state_kickoff_side: EntrySlot,
    gc_is_under_penalty: EntrySlot,
    is_lead: EntrySlot,
    wait_for_opponent_kickoff: EntrySlot,
    control_state: EntrySlot,
}

impl Keys {
    /// Creates every root key with its initial value in `root` and keeps the written ones'
    /// slots.
    pub fn create(bbs: &mut Blackboards, root: ScopeId) -> Result<Keys, ValueError> {
        for (key, value) in initial_entries() {
            let slot = bbs.create(root, key, value.entry_type())?;
            bbs.set_slot(slot, value)?;
        }
        let mut slot = |key: &str| {
            bbs.reserve(root, key)
                .ok_or_else(|| ValueError::new(format!("invalid blackboard key [{key}]")))
        };
        Ok(Keys {
            player_role: slot("player_role")?,
            odom_calibrated: slot("odom_calibrated")?,
            ball_location_known: slot("ball_location_known")?,
            tm_ball_pos_reliable: slot("tm_ball_pos_reliable")?,
            ball_out: slot("ball_out")?,
            ball_range: slot("ball_range")?,
            gc_game_state: slot("gc_game_state")?,
            gc_game_sub_state_type: slot("gc_game_sub_state_type")?,
            gc_game_sub_state: slot("gc_game_sub_state")?,
            gc_is_kickoff_side: slot("gc_is_kickoff_side")?,
            gamecontroller_is_kick_off: slot("gamecontroller_isKickOff")?,
            gc_is_sub_state_kickoff_side: slot("gc_is_sub_state_kickoff_side")?,
            gc_is_under_penalty: slot("gc_is_under_penalty")?,
            is_lead: slot("is_lead")?,
            wait_for_opponent_kickoff: slot("wait_for_opponent_kickoff")?,
            control_state: slot("control_state")?,
        })
    }
}

/// A teammate as the cooperation sees it: alive, with its pose and ball.
struct Mate {
    player: u8,
    pose: Option<Pose2<Field>>,
    ball: Option<(Point2<Field>, f64)>,
}

/// The cost to kick (seconds-equivalent) of a robot at `pose` for a ball at `ball` seen
/// `ball_age` seconds ago (Booster's `updateCostToKick` without the obstacle and bump terms).
pub fn cost_to_kick(
    pose: Option<Pose2<Field>>,
    ball: Option<Point2<Field>>,
    ball_age: f64,
    fallen: bool,
) -> f64 {
    let mut cost = if fallen { 15.0 } else { 0.0 };
    let Some(pose) = pose else {
        return cost + 100.0;
    };
    let Some(ball) = ball else {
        return cost + 5.0 + ball_age.min(10.0);
    };
    cost += ball_age.clamp(0.0, 10.0);
    cost += pose.position.distance(ball);
    cost += pose.bearing_to(ball).abs();
    cost
}

/// Runs Booster's callbacks and cooperation for this tick: updates the brain state and
/// writes the keys. Write errors (an entry a tree script re-typed) are returned.
pub fn cooperate(
    c: &mut SoccerContext,
    bbs: &mut Blackboards,
    keys: &Keys,
) -> Result<(), ValueError> {
    let now = c.world.now;
    let params = c.params.clone();
    let f = field(c).clone();
    let keeper_number = params.behavior_node.goalkeeper.player_number;
    let goalkeeper = c.world.player_number == keeper_number;
    let own_ball = c
        .world
        .last_local_ball
        .filter(|b| b.age(now) <= BALL_MEMORY_TIMEOUT + 1e-9);
    let ball_known = own_ball.is_some();
    let pose = c.world.pose;
    let penalized = c.world.primary_state == PrimaryState::Penalized;

    // Alive teammates: heard within the timeout and not penalized by the game controller.
    let game_penalized: Vec<u8> = c
        .world
        .game
        .as_ref()
        .map_or(Vec::new(), |g| g.penalized.clone());
    let mates: Vec<Mate> = c
        .world
        .teammates
        .iter()
        .filter(|m| {
            now - m.heard_at <= COMMUNICATION_TIMEOUT && !game_penalized.contains(&m.player)
        })
        .map(|m| Mate {
            player: m.player,
            pose: m.pose,
            ball: m.ball,
        })
        .collect();

    // Team ball.
    let team_ball = mates
        .iter()
        .filter_map(|m| {
            let (b, seen) = m.ball?;
            let range = m.pose.map_or(f64::INFINITY, |p| p.position.distance(b));
            let far_from_me = pose.is_none_or(|p| p.position.distance(b) > TEAM_BALL_DISTANCE);
            (far_from_me && now - seen <= BALL_MEMORY_TIMEOUT).then_some(range)
        })
        .min_by(f64::total_cmp);
    let s = &mut c.memory.booster;
    s.active = true;
    s.goalkeeper = goalkeeper;
    s.ball_known = ball_known;
    if team_ball.is_some() {
        s.team_ball_at = Some(now);
    }
    s.team_ball_reliable = s
        .team_ball_at
        .is_some_and(|t| now - t <= TEAM_BALL_HOLD + 1e-9);

    // Lead and ranks.
    let ball_pos = c.world.ball.map(|b| b.position);
    let ball_age = c.world.ball.map_or(0.0, |b| b.age(now));
    let mine = if penalized || pose.is_none() {
        100.0 + cost_to_kick(pose, ball_pos, ball_age, c.world.fallen)
    } else {
        cost_to_kick(pose, ball_pos, ball_age, c.world.fallen)
    };
    let mate_costs: Vec<f64> = mates
        .iter()
        .map(|m| {
            let (b, age) = match m.ball {
                Some((b, seen)) => (Some(b), now - seen),
                None => (ball_pos, ball_age + 5.0),
            };
            cost_to_kick(m.pose, b, age, false)
        })
        .collect();
    let lower = mate_costs.iter().filter(|&&x| x < mine).count();
    let someone_in_control = mate_costs
        .iter()
        .any(|&x| x < BALL_CONTROL_COST_THRESHOLD && x < mine);
    s.cost = mine;
    s.cost_rank = lower;
    s.is_lead = !(someone_in_control || lower >= 2);
    s.striker_rank = mates
        .iter()
        .filter(|m| m.player != keeper_number && m.player < c.world.player_number)
        .count();

    // Game controller.
    let game = c.world.game.clone();
    let kickoff_side = game
        .as_ref()
        .is_none_or(|g| g.kicking_team == Some(Team::Own));
    let set_play = game.as_ref().and_then(|g| g.sub_state);
    let game_state = match c.world.primary_state {
        PrimaryState::Initial => "INITIAL",
        PrimaryState::Ready => "READY",
        PrimaryState::Set => "SET",
        PrimaryState::Playing => "PLAY",
        PrimaryState::Finished => "END",
        _ if s.game_state.is_empty() => "INITIAL",
        _ => s.game_state,
    };
    let entering_play = game_state == "PLAY" && s.game_state != "PLAY";
    s.game_state = game_state;
    s.kickoff_side = kickoff_side;
    match set_play {
        Some(_) if s.set_play_since.is_none() => s.set_play_since = Some(now),
        None => s.set_play_since = None,
        _ => {}
    }
    s.defending_set_play = set_play.is_some() && !kickoff_side;
    let placing_own = s
        .set_play_since
        .is_some_and(|t| now - t < OWN_SET_PLAY_PLACING);
    let (sub_type, sub_state) = match set_play {
        Some(_) if !kickoff_side || placing_own => ("FREE_KICK", "GET_READY"),
        _ => ("NONE", ""),
    };

    // Kick-off wait.
    let before_play = matches!(game_state, "READY" | "SET");
    if before_play {
        s.waiting_for_kickoff = !kickoff_side;
        s.kickoff_ball = None;
        s.kickoff_wait_since = None;
    } else if game_state == "PLAY" && s.waiting_for_kickoff {
        if entering_play || s.kickoff_wait_since.is_none() {
            s.kickoff_wait_since = Some(now);
            s.kickoff_ball = ball_pos.or(c.world.rule_ball);
        }
        let moved = match (s.kickoff_ball, ball_pos, pose) {
            (Some(start), Some(b), Some(p)) => {
                let range = p.position.distance(b);
                start.distance(b) > (0.15 * range).max(0.3)
            }
            _ => false,
        };
        let timed_out = s
            .kickoff_wait_since
            .is_some_and(|t| now - t >= KICKOFF_WAIT);
        if moved || timed_out {
            s.waiting_for_kickoff = false;
        }
    } else {
        s.waiting_for_kickoff = false;
    }

    // The stop button.
    let stop = c.world.primary_state == PrimaryState::Stop;
    let was_stop = s.last_primary == Some(PrimaryState::Stop);
    s.last_primary = Some(c.world.primary_state);
    let control_state = match (stop, was_stop) {
        (true, _) => Some(1),
        (false, true) => Some(3),
        _ => None,
    };

    let waiting = s.waiting_for_kickoff;
    let is_lead = s.is_lead;
    let team_reliable = s.team_ball_reliable;
    c.out.role = Some(if goalkeeper {
        Role::Goalkeeper
    } else {
        Role::Striker
    });
    let ball_out = ball_pos.is_some_and(|b| !on_field(&f, b, 0.0));
    let ball_range = match (pose, ball_pos) {
        (Some(p), Some(b)) => p.position.distance(b),
        _ => 0.0,
    };

    let role = if goalkeeper { "goal_keeper" } else { "striker" };
    let writes = [
        (keys.player_role, Value::Str(role.to_owned())),
        (keys.odom_calibrated, Value::Bool(pose.is_some())),
        (keys.ball_location_known, Value::Bool(ball_known)),
        (keys.tm_ball_pos_reliable, Value::Bool(team_reliable)),
        (keys.ball_out, Value::Bool(ball_out)),
        (keys.ball_range, Value::Double(ball_range)),
        (keys.gc_game_state, Value::Str(game_state.to_owned())),
        (keys.gc_game_sub_state_type, Value::Str(sub_type.to_owned())),
        (keys.gc_game_sub_state, Value::Str(sub_state.to_owned())),
        (keys.gc_is_kickoff_side, Value::Bool(kickoff_side)),
        (keys.gamecontroller_is_kick_off, Value::Bool(kickoff_side)),
        (
            keys.gc_is_sub_state_kickoff_side,
            Value::Bool(set_play.is_some() && kickoff_side),
        ),
        (keys.gc_is_under_penalty, Value::Bool(penalized)),
        (keys.is_lead, Value::Bool(is_lead)),
        (keys.wait_for_opponent_kickoff, Value::Bool(waiting)),
    ];
    for (slot, value) in writes {
        bbs.set_slot(slot, value)?;
    }
    if let Some(state) = control_state {
        bbs.set_slot(keys.control_state, Value::Int(state))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaves::test_support::{context, frame};

    fn run(json: &str) -> (SoccerContext, Blackboards, ScopeId, Keys) {
        let mut ctx = context(&frame(json));
        let mut bbs = Blackboards::new();
        let root = bbs.new_root();
        let keys = match Keys::create(&mut bbs, root) {
            Ok(k) => k,
            Err(e) => panic!("{e}"),
        };
        if let Err(e) = cooperate(&mut ctx, &mut bbs, &keys) {
            panic!("{e}");
        }
        (ctx, bbs, root, keys)
    }

    fn get<'a>(bbs: &'a Blackboards, root: ScopeId, key: &str) -> Option<&'a Value> {
        bbs.get(root, key)
    }

    #[test]
    fn every_initial_key_is_created_with_its_value() {
        let mut bbs = Blackboards::new();
        let root = bbs.new_root();
        assert!(Keys::create(&mut bbs, root).is_ok());
        assert_eq!(get(&bbs, root, "control_state"), Some(&Value::Int(0)));
        assert_eq!(
            get(&bbs, root, "gc_game_sub_state_type"),
            Some(&Value::Str("NONE".into()))
        );
        assert_eq!(get(&bbs, root, "is_lead"), Some(&Value::Bool(true)));
        assert_eq!(
            get(&bbs, root, "calibrate_z_step"),
            Some(&Value::Double(0.0))
        );
        assert_eq!(initial_entries().len(), 33);
    }

    #[test]
    fn the_world_is_written_into_the_keys() {
        let (ctx, bbs, root, _) = run(r#"{"player_number": 3, "primary_state": "playing",
                "pose": {"x": 0, "y": 0, "yaw": 0}, "ball": {"x": 2, "y": 0}}"#);
        assert_eq!(
            get(&bbs, root, "gc_game_state"),
            Some(&Value::Str("PLAY".into()))
        );
        assert_eq!(
            get(&bbs, root, "player_role"),
            Some(&Value::Str("striker".into()))
        );
        assert_eq!(
            get(&bbs, root, "ball_location_known"),
            Some(&Value::Bool(true))
        );
        assert_eq!(get(&bbs, root, "odom_calibrated"), Some(&Value::Bool(true)));
        assert_eq!(get(&bbs, root, "ball_range"), Some(&Value::Double(2.0)));
        assert_eq!(get(&bbs, root, "ball_out"), Some(&Value::Bool(false)));
        assert_eq!(get(&bbs, root, "is_lead"), Some(&Value::Bool(true)));
        assert!(ctx.memory.booster.is_lead);
        let (_, bbs, root, _) =
            run(r#"{"player_number": 1, "primary_state": "penalized", "pose": null}"#);
        assert_eq!(
            get(&bbs, root, "player_role"),
            Some(&Value::Str("goal_keeper".into()))
        );
        assert_eq!(
            get(&bbs, root, "gc_is_under_penalty"),
            Some(&Value::Bool(true))
        );
        assert_eq!(
            get(&bbs, root, "odom_calibrated"),
            Some(&Value::Bool(false))
        );
        assert_eq!(
            get(&bbs, root, "ball_location_known"),
            Some(&Value::Bool(false))
        );
    }

    #[test]
    fn a_teammate_nearer_the_ball_takes_the_lead_and_its_ball_is_reliable() {
        let (ctx, bbs, root, _) = run(r#"{"player_number": 3, "pose": {"x": -3, "y": 0, "yaw": 0},
                "teammate_messages": [{"player": 2, "pose": {"x": 1.5, "y": 0, "yaw": 0},
                                       "ball": {"x": 2, "y": 0}}]}"#);
        assert_eq!(get(&bbs, root, "is_lead"), Some(&Value::Bool(false)));
        assert_eq!(
            get(&bbs, root, "tm_ball_pos_reliable"),
            Some(&Value::Bool(true))
        );
        assert_eq!(
            get(&bbs, root, "ball_location_known"),
            Some(&Value::Bool(false))
        );
        assert_eq!(ctx.memory.booster.cost_rank, 1);
        assert_eq!(
            ctx.memory.booster.striker_rank, 1,
            "player 2 has a lower number"
        );
    }

    #[test]
    fn set_plays_map_to_free_kick_sub_states() {
        let (ctx, bbs, root, _) = run(r#"{"player_number": 3, "pose": {"x": 0, "y": 0, "yaw": 0},
                "game": {"kicking_team": "opponent", "sub_state": "corner_kick"}}"#);
        assert_eq!(
            get(&bbs, root, "gc_game_sub_state_type"),
            Some(&Value::Str("FREE_KICK".into()))
        );
        assert_eq!(
            get(&bbs, root, "gc_game_sub_state"),
            Some(&Value::Str("GET_READY".into()))
        );
        assert_eq!(
            get(&bbs, root, "gc_is_sub_state_kickoff_side"),
            Some(&Value::Bool(false))
        );
        assert!(ctx.memory.booster.defending_set_play);
        // Our own set play: placing first, then normal play.
        let mut ctx = context(&frame(
            r#"{"t": 0, "pose": {"x": 0, "y": 0, "yaw": 0},
                "game": {"kicking_team": "own", "sub_state": "free_kick"}}"#,
        ));
        let mut bbs = Blackboards::new();
        let root = bbs.new_root();
        let keys = Keys::create(&mut bbs, root).unwrap_or_else(|e| panic!("{e}"));
        cooperate(&mut ctx, &mut bbs, &keys).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            get(&bbs, root, "gc_game_sub_state"),
            Some(&Value::Str("GET_READY".into()))
        );
        assert_eq!(
            get(&bbs, root, "gc_is_sub_state_kickoff_side"),
            Some(&Value::Bool(true))
        );
        ctx.world.now = OWN_SET_PLAY_PLACING;
        cooperate(&mut ctx, &mut bbs, &keys).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            get(&bbs, root, "gc_game_sub_state_type"),
            Some(&Value::Str("NONE".into()))
        );
    }

    #[test]
    fn the_opponent_kickoff_is_awaited_until_the_ball_moves() {
        let mut ctx = context(&frame(
            r#"{"t": 0, "primary_state": "set", "pose": {"x": -1, "y": 0, "yaw": 0},
                "ball": {"x": 0, "y": 0}, "game": {"kicking_team": "opponent"}}"#,
        ));
        let mut bbs = Blackboards::new();
        let root = bbs.new_root();
        let keys = Keys::create(&mut bbs, root).unwrap_or_else(|e| panic!("{e}"));
        cooperate(&mut ctx, &mut bbs, &keys).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            get(&bbs, root, "wait_for_opponent_kickoff"),
            Some(&Value::Bool(true))
        );
        ctx.world.primary_state = PrimaryState::Playing;
        ctx.world.now = 1.0;
        cooperate(&mut ctx, &mut bbs, &keys).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            get(&bbs, root, "wait_for_opponent_kickoff"),
            Some(&Value::Bool(true))
        );
        ctx.world.ball = ctx.world.ball.map(|mut b| {
            b.position = Point2::new(0.5, 0.0);
            b
        });
        ctx.world.now = 2.0;
        cooperate(&mut ctx, &mut bbs, &keys).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            get(&bbs, root, "wait_for_opponent_kickoff"),
            Some(&Value::Bool(false))
        );
    }

    #[test]
    fn the_stop_button_sets_control_state_one_then_three() {
        let (mut ctx, mut bbs, root, keys) = run(r#"{"primary_state": "stop"}"#);
        assert_eq!(get(&bbs, root, "control_state"), Some(&Value::Int(1)));
        ctx.world.primary_state = PrimaryState::Playing;
        cooperate(&mut ctx, &mut bbs, &keys).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(get(&bbs, root, "control_state"), Some(&Value::Int(3)));
    }
}
