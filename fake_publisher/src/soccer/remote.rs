//! The soccer match over the bus: the game controller, world and perception of
//! [`SoccerMatch`] for robots that are `soccer run` nodes. Each tick every remote robot gets
//! its inputs under `<team>/player_<N>/` (game state, localization, ball, obstacles, fall
//! state), and moves by the last motion command it published; its State messages go from node
//! to node on `<team>/team/state_message` and are counted against the team's budget here.

use super::{Happening, Side, SoccerMatch, side_name};
use bus::messages::Header;
use bus::soccer::{
    self as topics, BallMsg, FallStateMsg, GameStateMsg, LocalizationMsg, MotionCommandMsg,
    ObstaclesMsg, TeamStateMsg, robot_topic, split_robot_topic,
};
use bus::{Bus, BusError, decode};
use soccer_profile::context::Role;
use soccer_profile::frame::Frame;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The bus topic of `topic` of robot `number` of the team called `team`.
pub fn team_robot_topic(team: &str, number: u8, topic: &str) -> String {
    format!("{team}/{}", robot_topic(number, topic))
}

/// The five input records of robot `number`'s frame as its node receives them, stamped
/// `stamp`: each with its topic under the robot's prefix (`bus::soccer::GAME_STATE`, ...) and
/// its JSON payload. The frame's teammate messages travel on the team key instead.
pub fn frame_payloads(frame: &Frame, stamp: f64) -> [(&'static str, Vec<u8>); 5] {
    let header = Header::at(stamp);
    [
        (
            topics::GAME_STATE,
            json(&GameStateMsg {
                header: header.clone(),
                primary_state: frame.primary_state,
                game: frame.game.clone(),
            }),
        ),
        (
            topics::LOCALIZATION,
            json(&LocalizationMsg {
                header: header.clone(),
                pose: frame.pose,
                head_yaw: frame.head_yaw,
            }),
        ),
        (
            topics::BALL,
            json(&BallMsg {
                header: header.clone(),
                ball: frame.ball,
                rule_ball: frame.rule_ball,
            }),
        ),
        (
            topics::OBSTACLES,
            json(&ObstaclesMsg {
                header: header.clone(),
                obstacles: frame.obstacles.clone(),
            }),
        ),
        (
            topics::FALL_STATE,
            json(&FallStateMsg {
                header,
                fallen: frame.fallen,
                stand_up_available: frame.stand_up_available,
            }),
        ),
    ]
}

/// A record's JSON payload, as [`Bus::publish`] encodes it (these records always encode).
fn json<T: serde::Serialize>(record: &T) -> Vec<u8> {
    serde_json::to_vec(record).unwrap_or_default()
}

/// Publishes the five input records of robot `number`'s frame ([`frame_payloads`]), stamped
/// `stamp` (the wall clock), under `team`.
pub fn publish_frame(
    bus: &Bus,
    team: &str,
    number: u8,
    frame: &Frame,
    stamp: f64,
) -> Result<(), BusError> {
    for (topic, payload) in frame_payloads(frame, stamp) {
        bus.publish_raw(&team_robot_topic(team, number, topic), &payload)?;
    }
    Ok(())
}

/// Counters of a match over the bus.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RemoteStats {
    /// Simulation ticks run.
    pub ticks: u64,
    /// Motion commands received per robot (`home/3`).
    pub commands: BTreeMap<String, u64>,
    /// State messages seen per team.
    pub team_messages: [u64; 2],
    /// Messages that could not be used, per topic.
    pub malformed: BTreeMap<String, u64>,
}

/// Runs `game` over `bus` (no namespace: topics carry the team name) at `speed` x real time
/// until it is over or `stop` is set, with the robots of our behaviour in the `remote` teams
/// on the bus (the others decide in process); `happened` sees every timeline entry as it
/// happens. `clock` gives the stamp of the published inputs (the wall clock live).
pub fn run_remote_match(
    game: &mut SoccerMatch,
    remote: &[Side],
    bus: &Bus,
    stop: &AtomicBool,
    speed: f64,
    clock: &dyn Fn() -> f64,
    happened: &mut dyn FnMut(&Happening),
) -> Result<RemoteStats, BusError> {
    let teams = [
        game.team_name(Side::Home).to_owned(),
        game.team_name(Side::Away).to_owned(),
    ];
    for side in remote {
        game.make_remote(*side);
    }
    let mut inputs: Vec<String> = Vec::new();
    for p in &game.players {
        let team = &teams[usize::from(p.side == Side::Away)];
        inputs.push(team_robot_topic(team, p.number, topics::MOTION_COMMAND));
        inputs.push(team_robot_topic(team, p.number, topics::TRACE));
    }
    for team in &teams {
        inputs.push(format!("{team}/{}", topics::TEAM_STATE));
    }
    let refs: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let subscription = bus.subscribe(&refs)?;
    let mut stats = RemoteStats::default();
    let period = Duration::from_secs_f64(super::TICK / speed);
    let mut next = Instant::now();
    while !game.is_over() && !stop.load(Ordering::Relaxed) {
        while let Some(received) = subscription.try_recv() {
            if let Some(h) = receive(game, &teams, &received, &mut stats) {
                happened(&h);
            }
        }
        for h in game.step() {
            happened(&h);
        }
        stats.ticks += 1;
        let stamp = clock();
        for (side, number, frame) in game.take_remote_frames() {
            publish_frame(
                bus,
                &teams[usize::from(side == Side::Away)],
                number,
                &frame,
                stamp,
            )?;
        }
        next += period;
        let now = Instant::now();
        if next > now {
            std::thread::sleep(next - now);
        } else if now - next > Duration::from_millis(200) {
            // Far behind (a stalled machine): catch up by skipping, never by bursting.
            next = now;
        }
    }
    Ok(stats)
}

/// Applies one received message: a motion command moves its robot, a trace reports its
/// role (a change is returned for the timeline), a State message counts.
fn receive(
    game: &mut SoccerMatch,
    teams: &[String; 2],
    received: &bus::Received,
    stats: &mut RemoteStats,
) -> Option<Happening> {
    let (team, rest) = received.topic.split_once('/')?;
    let side = teams
        .iter()
        .position(|t| t == team)
        .map(|i| if i == 0 { Side::Home } else { Side::Away })?;
    let bad = |stats: &mut RemoteStats| {
        *stats.malformed.entry(received.topic.clone()).or_default() += 1;
    };
    if rest == topics::TEAM_STATE {
        match decode::<TeamStateMsg>(&received.topic, &received.payload) {
            Ok(_) => {
                stats.team_messages[usize::from(side == Side::Away)] += 1;
                game.count_remote_message(side);
            }
            Err(_) => bad(stats),
        }
        return None;
    }
    match split_robot_topic(rest)? {
        (number, topics::MOTION_COMMAND) => {
            match decode::<MotionCommandMsg>(&received.topic, &received.payload) {
                Ok(m) => {
                    *stats
                        .commands
                        .entry(format!("{}/{number}", side_name(side)))
                        .or_default() += 1;
                    game.command_remote(side, number, m.command);
                }
                Err(_) => bad(stats),
            }
            None
        }
        (number, topics::TRACE) => {
            let Ok(trace) = serde_json::from_slice::<serde_json::Value>(&received.payload) else {
                bad(stats);
                return None;
            };
            let role = trace
                .pointer("/decision/role")
                .and_then(serde_json::Value::as_str)
                .and_then(Role::from_name)
                .map(Role::name);
            game.report_remote_role(side, number, role)
        }
        _ => None,
    }
}
