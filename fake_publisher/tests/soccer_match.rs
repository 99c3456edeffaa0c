//! The simulated soccer match on the sample scenarios: deterministic for a seed, goals in a
//! kick-off, the search finds a lost ball, set plays, the shootout, lost messages.

use fake_publisher::soccer::{Side, SoccerMatch, load_soccer_scenario, referee::Phase};
use soccer_profile::params::{self, Parameters};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn parameters() -> Arc<Parameters> {
    let dir = repo().join("sample/soccer/parameters");
    Arc::new(params::load(&dir, Some("simulation"), None).unwrap_or_else(|e| panic!("{e:?}")))
}

fn game(scenario: &str, seed: u64) -> SoccerMatch {
    let path = repo().join("sample/soccer/scenarios").join(scenario);
    let scenario = load_soccer_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
    let spec = soccer_profile::tree::default_spec().unwrap_or_else(|e| panic!("{e:?}"));
    SoccerMatch::new(scenario, parameters(), &spec, Some(seed)).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs to the end; the timeline as text.
fn timeline(m: &mut SoccerMatch) -> Vec<String> {
    let mut out = Vec::new();
    while !m.is_over() {
        out.extend(
            m.step()
                .into_iter()
                .map(|h| format!("{:.2} {}", h.t, h.text)),
        );
    }
    out
}

#[test]
fn the_same_seed_gives_the_same_match_and_another_seed_another() {
    let run = |seed| {
        let mut m = game("kickoff.json5", seed);
        let t = timeline(&mut m);
        (t, m.referee.score, m.kicks())
    };
    let a = run(7);
    assert_eq!(a, run(7));
    assert_ne!(a.0, run(8).0);
}

#[test]
fn the_kickoff_scenario_scores_within_its_90_seconds() {
    let mut m = game("kickoff.json5", 1);
    let lines = timeline(&mut m);
    let goals = m.referee.score[0] + m.referee.score[1];
    assert!(goals >= 1, "{lines:#?}");
    assert!(lines.iter().any(|l| l.ends_with("game playing")));
}

#[test]
fn while_playing_every_robot_has_a_role_and_mostly_one_striker_per_team() {
    let mut m = game("kickoff.json5", 3);
    let (mut playing_ticks, mut one_striker) = (0usize, [0usize; 2]);
    while !m.is_over() {
        m.step();
        if m.referee.phase != Phase::Playing || m.referee.phase_since + 2.0 > m.now {
            continue;
        }
        playing_ticks += 1;
        // Robots on the ground are in the stand-up branch, not playing a role.
        for p in m
            .players
            .iter()
            .filter(|p| p.penalized_until.is_none() && p.branch == "playing")
        {
            assert!(
                p.role.is_some(),
                "{} {} without a role at {:.2}",
                p.branch,
                p.number,
                m.now
            );
        }
        for (i, side) in [Side::Home, Side::Away].into_iter().enumerate() {
            let strikers = m
                .players
                .iter()
                .filter(|p| p.side == side && p.role == Some("striker"))
                .count();
            if strikers == 1 {
                one_striker[i] += 1;
            }
        }
    }
    assert!(playing_ticks > 1000);
    for n in one_striker {
        let share = n as f64 / playing_ticks as f64;
        assert!(
            share > 0.6,
            "exactly one striker in only {:.0} % of the playing ticks",
            share * 100.0
        );
    }
}

#[test]
fn the_search_finds_a_ball_lost_in_a_corner() {
    let mut m = game("lost_ball_corner.json5", 1);
    // Nobody sees the ball at first: the home robots search.
    m.step();
    let searching = m
        .players
        .iter()
        .filter(|p| p.side == Side::Home && p.role == Some("searcher"))
        .count();
    assert!(searching >= 3, "{searching} searchers");
    let mut found_at = None;
    while !m.is_over() && found_at.is_none() {
        m.step();
        let striker = m
            .players
            .iter()
            .any(|p| p.side == Side::Home && p.role == Some("striker"));
        let sees = m.players.iter().any(|p| {
            p.side == Side::Home
                && p.decision
                    .as_ref()
                    .and_then(|d| d.ball)
                    .is_some_and(|b| b.age == 0.0)
        });
        if striker && sees {
            found_at = Some(m.now);
        }
    }
    let t = found_at.unwrap_or(f64::INFINITY);
    assert!(t < 45.0, "the ball was found at {t} s");
}

#[test]
fn a_corner_kick_is_awarded_and_taken_by_the_kicking_team() {
    let mut m = game("corner_kick.json5", 1);
    let lines = timeline(&mut m);
    let awarded = lines
        .iter()
        .position(|l| l.contains("CornerKick for home"))
        .expect("awarded");
    let after = &lines[awarded..];
    // The set play ends because home plays the ball, well before the 30 s timeout ...
    let over = after
        .iter()
        .find(|l| l.ends_with("set play over"))
        .expect("over");
    let over_at: f64 = over
        .split(' ')
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(f64::INFINITY);
    assert!(over_at < 2.0 + 25.0, "{after:#?}");
    // ... and the first kick after the award is a home kick.
    let kick = after
        .iter()
        .find(|l| l.ends_with(" kicks"))
        .expect("a kick");
    assert!(kick.contains("home"), "{kick}");
}

#[test]
fn the_penalty_shootout_takes_five_kicks_each() {
    let mut m = game("penalty_shootout.json5", 1);
    let mut roles = Vec::new();
    while !m.is_over() {
        m.step();
        if m.referee.phase == Phase::Playing {
            roles.extend(
                m.players
                    .iter()
                    .filter(|p| p.penalized_until.is_none())
                    .map(|p| p.role),
            );
        }
    }
    let shootout = m.referee.shootout.expect("shootout");
    assert_eq!(shootout.taken, [5, 5]);
    assert!(
        roles.iter().all(|r| *r == Some("penalty_shootout")),
        "{roles:?}"
    );
}

#[test]
fn a_robot_whose_messages_are_lost_is_never_heard() {
    let mut m = game("messages_lost.json5", 1);
    timeline(&mut m);
    let (sent, lost) = m.message_counts();
    assert!(
        sent[0] > 20 && lost[0] >= sent[0] / 5,
        "sent {sent:?} lost {lost:?}"
    );
    for p in m
        .players
        .iter()
        .filter(|p| p.side == Side::Home && p.number != 3)
    {
        assert!(!p.has_heard_from(3), "home {} heard from 3", p.number);
        assert!(p.has_heard_from(2) || p.number == 2);
    }
}
