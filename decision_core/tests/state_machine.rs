//! The decision in effect as a state machine (the decision rules 1-6 of
//! `docs/src/formats/decisions.md`) and the pose headings, on our own fixture field: one test per rule on the
//! snapshot sequences that expose it, and a property test that compares `Decider` tick by tick
//! with a reference state machine written here from the six rules.

mod common;

use common::*;
use decision_core::robomaster::context::NavAction;
use decision_core::robomaster::{Decider, Skip, TickInput, TickResult};
use proptest::prelude::*;
use serde_json::json;
use std::f32::consts::{FRAC_PI_2, PI};

const EXECUTING: u8 = 2;
const SUCCEEDED: u8 = 4;

fn with_status(mut input: TickInput, status: u8) -> TickInput {
    input.nav_status = status;
    input
}

fn off_every_waypoint() -> TickInput {
    snapshot((4.5, 4.0))
}

fn published(r: &TickResult) -> Option<u8> {
    r.decision.map(|d| d.decision_id)
}

#[test]
fn the_running_decision_outlives_ticks_without_candidates() {
    // 0 (w100) only at waypoint 0; 1 (w50) only at waypoint 2.
    let field = Field::new().decisions(&[
        decision(0, 100, 1, json!({"wayPointID": [0]})),
        decision(1, 50, 4, json!({"wayPointID": [2]})),
    ]);
    let mut decider = field.decider();
    let r = tick(&mut decider, &at_waypoint(0));
    assert_eq!((r.chosen, r.action), (Some(0), NavAction::Send));
    // Two ticks with nothing available (the goal finished meanwhile): nothing published.
    for status in [EXECUTING, SUCCEEDED] {
        let r = tick(&mut decider, &with_status(off_every_waypoint(), status));
        assert_eq!(
            (r.skipped, r.chosen, published(&r), r.action),
            (Some(Skip::NoDecision), None, None, NavAction::None)
        );
        assert_eq!(r.cancelled, None);
    }
    // Executing with a lighter best: the running decision 0 continues.
    let r = tick(&mut decider, &with_status(at_waypoint(2), EXECUTING));
    assert_eq!(r.best, Some(1));
    assert_eq!(
        (r.chosen, published(&r), r.action, r.path.clone()),
        (Some(0), Some(0), NavAction::Continue, vec![1])
    );
}

#[test]
fn executing_with_nothing_available_publishes_nothing() {
    let field = Field::new().decisions(&[decision(0, 100, 1, json!({"wayPointID": [0]}))]);
    let mut decider = field.decider();
    tick(&mut decider, &at_waypoint(0));
    let r = tick(&mut decider, &with_status(off_every_waypoint(), EXECUTING));
    assert_eq!(
        (r.skipped, r.chosen, r.decision, r.cancelled),
        (Some(Skip::NoDecision), None, None, None)
    );
    // And the commitment is intact: back to a candidate-holding tick, it continues.
    let r = tick(&mut decider, &with_status(at_waypoint(0), EXECUTING));
    assert_eq!((r.chosen, r.action), (Some(0), NavAction::Continue));
}

#[test]
fn a_held_goal_runs_and_continues_against_an_equal_weight_best() {
    // 0 and 1 of equal weight; 1 is only available at waypoint 3.
    let field = Field::new().decisions(&[
        decision(0, 100, 3, json!({"wayPointID": [3]})),
        decision(1, 100, 1, json!({})),
    ]);
    let mut decider = field.decider();
    let r = tick(&mut decider, &at_waypoint(1));
    assert_eq!((r.chosen, r.action), (Some(1), NavAction::Send));
    // Succeeded at the target, best is the same goal: held, and it is the running decision.
    let r = tick(&mut decider, &with_status(at_waypoint(1), SUCCEEDED));
    assert_eq!(
        (r.chosen, r.action, published(&r)),
        (Some(1), NavAction::Hold, Some(1))
    );
    // Executing: the earlier equal-weight 0 is best, but the held decision 1 continues.
    let r = tick(&mut decider, &with_status(at_waypoint(3), EXECUTING));
    assert_eq!(r.best, Some(0));
    assert_eq!(
        (r.chosen, r.action, published(&r)),
        (Some(1), NavAction::Continue, Some(1))
    );
}

#[test]
fn weight_zero_as_the_only_candidate_while_executing_changes_nothing() {
    let field = Field::new().decisions(&[
        decision(0, 100, 1, json!({"wayPointID": [0]})),
        decision(1, 0, 4, json!({"wayPointID": [2]})),
        decision(2, 50, 3, json!({"wayPointID": [4]})),
    ]);
    let mut decider = field.decider();
    tick(&mut decider, &at_waypoint(0));
    let r = tick(&mut decider, &with_status(at_waypoint(2), EXECUTING));
    assert_eq!(r.available, vec![1]);
    assert_eq!(
        (r.best, r.chosen, r.decision, r.cancelled, r.action),
        (None, None, None, None, NavAction::None)
    );
    let r = tick(&mut decider, &with_status(at_waypoint(4), EXECUTING));
    assert_eq!((r.best, r.chosen), (Some(2), Some(0)), "0 is still running");
}

#[test]
fn a_skipped_tick_inside_a_commitment_changes_nothing() {
    let field = Field::new().decisions(&[
        decision(0, 100, 1, json!({"wayPointID": [0]})),
        decision(1, 50, 4, json!({})),
    ]);
    let mut decider = field.decider();
    tick(&mut decider, &at_waypoint(0));
    for skip in [Skip::NotInBattle, Skip::NoPosition, Skip::InvalidPosition] {
        let mut input = with_status(at_waypoint(2), SUCCEEDED);
        match skip {
            Skip::NotInBattle => input.game_stage = 5,
            Skip::NoPosition => input.positions[5].x = 0.0,
            _ => input.positions[3].x = f32::NAN,
        }
        let r = tick(&mut decider, &input);
        assert_eq!((r.skipped, r.chosen, r.decision), (Some(skip), None, None));
        assert_eq!((r.action, r.cancelled), (NavAction::None, None));
    }
    let r = tick(&mut decider, &with_status(at_waypoint(2), EXECUTING));
    assert_eq!(
        (r.best, r.chosen, r.action),
        (Some(1), Some(0), NavAction::Continue)
    );
}

#[test]
fn an_active_goal_without_a_running_decision_is_cancelled_and_nothing_published() {
    let field = Field::new().decisions(&[decision(0, 100, 1, json!({}))]);
    let mut decider = field.decider();
    let summary = decider.tick(&with_status(at_waypoint(0), EXECUTING));
    assert!(summary.cancel_active_goal);
    let r = decider.result();
    assert_eq!(
        (r.skipped, r.best, r.chosen, r.decision),
        (Some(Skip::ForeignGoalActive), Some(0), None, None)
    );
    // Once Nav2 is idle the best is sent.
    let summary = decider.tick(&with_status(at_waypoint(0), SUCCEEDED));
    assert!(!summary.cancel_active_goal);
    assert_eq!(summary.action, NavAction::Send);
}

#[test]
fn with_an_aim_target_the_heading_is_the_aim_yaw_even_when_reversed() {
    let field = Field::new().decisions(&[decision(0, 100, 1, json!({"if_reverse": true}))]);
    // Enemy hero straight "above" us: aim yaw pi/2; reverse must not add pi.
    let seen = place(snapshot((4.0, 4.0)), 6, (4.0, 7.0));
    let r = tick(&mut field.decider(), &seen);
    assert_eq!(r.aim_yaw, Some(FRAC_PI_2));
    assert_eq!(r.poses, vec![[3.0, 2.0, FRAC_PI_2]]);
    // Without a target: the waypoint's angle plus pi.
    let r = tick(&mut field.decider(), &snapshot((4.0, 4.0)));
    assert_eq!(r.poses, vec![[3.0, 2.0, 1.5 + PI]]);
}

// ---- the property test: Decider against a reference of rules 1-6 ----

/// The fixture decisions of the property test: (id, weight, target).
const RULES: [(i32, i32, i32); 6] = [
    (0, 100, 2),
    (1, 100, 3),
    (2, 200, 1),
    (3, 0, 4),
    (4, 150, 0),
    (5, 150, 5),
];

fn rules_field() -> Field {
    Field::new().decisions(&[
        decision(0, 100, 2, json!({"wayPointID": [0, 1]})),
        decision(1, 100, 3, json!({"wayPointID": [2, 3]})),
        decision(2, 200, 1, json!({"maxHP": 300, "wayPointID": [1, 2, 4]})),
        decision(3, 0, 4, json!({"wayPointID": [3, 5]})),
        decision(4, 150, 0, json!({"minHP": 500, "wayPointID": [4, 5]})),
        decision(5, 150, 5, json!({"minHP": 500, "wayPointID": [0]})),
    ])
}

/// One generated tick: where we stand (a waypoint or off), HP, Nav2 status, in battle or not.
#[derive(Debug, Clone)]
struct Step {
    place: usize,
    hp: u16,
    status: u8,
    in_battle: bool,
}

fn step_input(s: &Step) -> TickInput {
    let mut input = if s.place < WAYPOINTS.len() {
        at_waypoint(s.place)
    } else {
        off_every_waypoint()
    };
    input.hp[5] = s.hp;
    input.nav_status = s.status;
    if !s.in_battle {
        input.game_stage = 2;
    }
    input
}

/// What the reference expects of one tick.
#[derive(Debug, PartialEq)]
struct Expected {
    chosen: Option<i32>,
    published: Option<i32>,
    action: NavAction,
    cancelled: Option<i32>,
    cancel_active_goal: bool,
}

/// The spec's rules, written plainly: `running` is the decision last sent (or held), `sent`
/// the target of the goal last sent.
#[derive(Default)]
struct Reference {
    running: Option<i32>,
    sent: Option<i32>,
}

impl Reference {
    fn weight(id: i32) -> i32 {
        RULES.iter().find(|r| r.0 == id).map_or(0, |r| r.1)
    }

    fn target(id: i32) -> i32 {
        RULES.iter().find(|r| r.0 == id).map_or(-1, |r| r.2)
    }

    fn tick(&mut self, step: &Step, available: &[i32], waypoint: Option<i32>) -> Expected {
        let nothing = Expected {
            chosen: None,
            published: None,
            action: NavAction::None,
            cancelled: None,
            cancel_active_goal: false,
        };
        // Rule 1: a skipped tick changes nothing.
        if !step.in_battle {
            return nothing;
        }
        // Rules 2 and 3: the best candidate.
        let mut best: Option<i32> = None;
        for &id in available {
            let w = Self::weight(id);
            if w > 0 && best.is_none_or(|b| w > Self::weight(b)) {
                best = Some(id);
            }
        }
        // Rule 4: no best, nothing at all.
        let Some(best) = best else {
            return nothing;
        };
        let send = |me: &mut Self, action: NavAction, cancelled: Option<i32>| {
            me.running = Some(best);
            me.sent = Some(Self::target(best));
            Expected {
                chosen: Some(best),
                published: Some(best),
                action,
                cancelled,
                cancel_active_goal: false,
            }
        };
        // Rule 5: the goal is accepted or executing.
        if step.status == 1 || step.status == 2 {
            return match self.running {
                Some(r) if Self::weight(best) > Self::weight(r) => {
                    send(self, NavAction::Preempt, Some(r))
                }
                Some(r) => Expected {
                    chosen: Some(r),
                    published: Some(r),
                    action: NavAction::Continue,
                    ..nothing
                },
                None => Expected {
                    cancel_active_goal: true,
                    ..nothing
                },
            };
        }
        // Rule 6: the best is sent; a duplicate goal is held (not re-sent) unless the last one
        // ended without success, or succeeded while we have left its target.
        let target = Self::target(best);
        let ended_badly = step.status == 5 || step.status == 6;
        let left_target = step.status == SUCCEEDED && waypoint != Some(target);
        if self.sent == Some(target) && !ended_badly && !left_target {
            self.running = Some(best);
            return Expected {
                chosen: Some(best),
                published: Some(best),
                action: NavAction::Hold,
                ..nothing
            };
        }
        send(self, NavAction::Send, None)
    }
}

fn observed(decider: &mut Decider, input: &TickInput) -> (TickResult, bool) {
    let summary = decider.tick(input);
    (result_of(decider), summary.cancel_active_goal)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn decider_agrees_with_the_reference_state_machine(
        steps in proptest::collection::vec(
            (0usize..8, prop_oneof![Just(50u16), Just(250), Just(600)], 0u8..7, proptest::bool::weighted(0.9))
                .prop_map(|(place, hp, status, in_battle)| Step { place, hp, status, in_battle }),
            1..60,
        )
    ) {
        let field = rules_field();
        let mut decider = field.decider();
        let mut reference = Reference::default();
        for (i, step) in steps.iter().enumerate() {
            let (r, cancel_active_goal) = observed(&mut decider, &step_input(step));
            let expected = reference.tick(step, &r.available, r.waypoint);
            let got = Expected {
                chosen: r.chosen,
                published: r.decision.map(|d| i32::from(d.decision_id)),
                action: r.action,
                cancelled: r.cancelled,
                cancel_active_goal,
            };
            prop_assert_eq!(got, expected, "tick {} of {:?}", i, steps);
        }
    }
}
