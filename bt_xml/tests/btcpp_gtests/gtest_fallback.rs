//! `tests/gtest_fallback.cpp`. The fixtures build nodes in C++ and call `executeTick()` on
//! the root; here they are XML trees. `ConditionTestNode` is `Bench::sync_action`, the
//! threaded `AsyncActionTest` an action lasting 100 ms of injected time.

use decision_core::engine::NodeState::{self, Idle};

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">{body}</BehaviorTree></root>"#)
}

fn bench() -> Bench {
    let mut b = Bench::new();
    for id in ["condition", "condition_1", "condition_2"] {
        b.sync_action(id);
    }
    for id in ["action", "action_1", "action_2"] {
        b.async_action_for(id, Lasts::Ms(100), Success);
    }
    b
}

/// root 0, condition 1, action 2 (`SimpleFallbackTest` and `SimpleFallbackWithMemoryTest`
/// are the same tree).
fn simple_fallback() -> Run {
    bench().tree(&tree("<Fallback><condition/><action/></Fallback>"))
}

#[test]
fn simple_fallback_test_condition_true() {
    let mut t = simple_fallback();
    t.expect("condition", Success);
    let state = t.tick_once();
    assert_eq!(state, Success);
    assert_eq!(t.state(1), Idle);
    assert_eq!(t.state(2), Idle);
}

fn condition_changes_while_running() {
    let mut t = simple_fallback();
    t.expect("condition", Failure);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Failure);
    assert_eq!(t.state(2), NodeState::Running);

    t.expect("condition", Success);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Failure);
    assert_eq!(t.state(2), NodeState::Running);
}

#[test]
fn simple_fallback_test_condition_change_while_running() {
    condition_changes_while_running();
}

/// root 0, condition_1 1, condition_2 2, action_1 3.
fn reactive_fallback_condition_to_true(condition: &str) {
    let mut t = bench().tree(&tree(
        "<ReactiveFallback><condition_1/><condition_2/><action_1/></ReactiveFallback>",
    ));
    t.expect("condition_1", Failure);
    t.expect("condition_2", Failure);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), Idle);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), NodeState::Running);

    t.expect(condition, Success);
    let state = t.tick_once();
    assert_eq!(state, Success);
    assert_eq!(t.state(1), Idle);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), Idle);
}

#[test]
fn reactive_fallback_test_condition1_to_true() {
    reactive_fallback_condition_to_true("condition_1");
}

#[test]
fn reactive_fallback_test_condition2_to_true() {
    reactive_fallback_condition_to_true("condition_2");
}

#[test]
fn simple_fallback_with_memory_test_condition_false() {
    let mut t = simple_fallback();
    t.expect("condition", Failure);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Failure);
    assert_eq!(t.state(2), NodeState::Running);
}

#[test]
fn simple_fallback_with_memory_test_condition_turn_to_true() {
    condition_changes_while_running();
}

/// root 0, fallback_conditions 1, condition_1 2, condition_2 3, fallback_actions 4,
/// action_1 5, action_2 6.
fn complex_fallback() -> Run {
    bench().tree(&tree(
        "<Fallback><Fallback><condition_1/><condition_2/></Fallback>\
         <Fallback><action_1/><action_2/></Fallback></Fallback>",
    ))
}

fn assert_all_idle(t: &Run) {
    for n in 1..=6 {
        assert_eq!(t.state(n), Idle, "node {n}");
    }
}

fn assert_conditions_failed_action_1_running(t: &Run) {
    assert_eq!(t.state(1), NodeState::Failure);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(4), NodeState::Running);
    assert_eq!(t.state(5), NodeState::Running);
    assert_eq!(t.state(6), Idle);
}

#[test]
fn complex_fallback_with_memory_test_conditions_true() {
    let mut t = complex_fallback();
    assert_eq!(t.tick_once(), Success);
    assert_all_idle(&t);
}

#[test]
fn complex_fallback_with_memory_test_condition1_false() {
    let mut t = complex_fallback();
    t.expect("condition_1", Failure);
    assert_eq!(t.tick_once(), Success);
    assert_all_idle(&t);
}

#[test]
fn complex_fallback_with_memory_test_conditions_false() {
    let mut t = complex_fallback();
    t.expect("condition_1", Failure);
    t.expect("condition_2", Failure);
    assert_eq!(t.tick_once(), Running);
    assert_conditions_failed_action_1_running(&t);
}

fn complex_fallback_condition_to_true(condition: &str) {
    let mut t = complex_fallback();
    t.expect("condition_1", Failure);
    t.expect("condition_2", Failure);
    t.tick_once();
    t.expect(condition, Success);
    assert_eq!(t.tick_once(), Running);
    assert_conditions_failed_action_1_running(&t);
}

#[test]
fn complex_fallback_with_memory_test_conditions1_to_true() {
    complex_fallback_condition_to_true("condition_1");
}

#[test]
fn complex_fallback_with_memory_test_conditions2_to_true() {
    complex_fallback_condition_to_true("condition_2");
}

#[test]
fn complex_fallback_with_memory_test_action1_failed() {
    let mut t = complex_fallback();
    t.expect("action_1", Failure);
    t.expect("action_2", Success);
    t.expect("condition_1", Failure);
    t.expect("condition_2", Failure);
    t.tick_once();
    t.tick_once();
    t.sleep_ms(500);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Failure);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(4), NodeState::Running);
    assert_eq!(t.state(5), NodeState::Failure);
    assert_eq!(t.state(6), NodeState::Running);
}
