//! `tests/gtest_switch.cpp`. The `SwitchTest` fixture builds a `Switch2` in C++
//! (`variable="{my_var}" case_1="1" case_2="42"`) over three threaded `AsyncActionTest`s of
//! 200 ms; here it is an XML tree with actions of 200 ms of injected time.
//! `SwitchStringEquality` (`details::CheckStringEquality(selector, case)`) is a Switch2 whose
//! first case is the case text and whose variable is the selector text.

use decision_core::engine::NodeState::{self, Idle};

use crate::harness::*;

/// root 0, action_1 1, action_42 2, action_default 3.
fn switch() -> Run {
    let mut b = Bench::new();
    for id in ["action_1", "action_42", "action_default"] {
        b.async_action_for(id, Lasts::Ms(200), Success);
    }
    b.tree(
        r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">
        <Switch2 name="simple_switch" variable="{my_var}" case_1="1" case_2="42">
            <action_1/>
            <action_42/>
            <action_default/>
        </Switch2>
    </BehaviorTree></root>"#,
    )
}

/// The statuses of action_1, action_42 and action_default.
fn actions(t: &Run) -> [NodeState; 3] {
    [t.state(1), t.state(2), t.state(3)]
}

const R: NodeState = NodeState::Running;

/// The first tick runs the action `running` (1..=3), 300 ms later the switch succeeds.
fn runs_case(my_var: Option<&str>, running: usize) {
    let mut t = switch();
    if let Some(v) = my_var {
        t.set("my_var", text(v));
    }
    let state = t.tick_once();
    let mut expected = [Idle; 3];
    expected[running - 1] = R;
    assert_eq!(actions(&t), expected);
    assert_eq!(state, Running);

    t.sleep_ms(300);
    let state = t.tick_once();
    assert_eq!(actions(&t), [Idle; 3]);
    assert_eq!(state, Success);
    t.halt();
}

#[test]
fn switch_test_default_case() {
    runs_case(None, 3);
}

#[test]
fn switch_test_case1() {
    runs_case(Some("1"), 1);
}

#[test]
fn switch_test_case2() {
    runs_case(Some("42"), 2);
}

#[test]
fn switch_test_case_none() {
    runs_case(Some("none"), 3);
}

#[test]
fn switch_test_case_switch_to_default() {
    let mut t = switch();
    t.set("my_var", text("1"));
    let state = t.tick_once();
    assert_eq!(actions(&t), [R, Idle, Idle]);
    assert_eq!(state, Running);

    t.sleep_ms(20);
    let state = t.tick_once();
    assert_eq!(actions(&t), [R, Idle, Idle]);
    assert_eq!(state, Running);

    // Switch Node does not feels changes. Only when tick. (not reactive)
    t.sleep_ms(20);
    t.set("my_var", text(""));
    t.sleep_ms(20);
    assert_eq!(actions(&t), [R, Idle, Idle]);
    assert_eq!(t.state(0), R);

    t.sleep_ms(20);
    let state = t.tick_once();
    assert_eq!(actions(&t), [Idle, Idle, R]);
    assert_eq!(state, Running);

    t.sleep_ms(300);
    let state = t.tick_once();
    assert_eq!(actions(&t), [Idle; 3]);
    assert_eq!(state, Success);
    t.halt();
}

#[test]
fn switch_test_case_switch_to_action2() {
    let mut t = switch();
    t.set("my_var", text("1"));
    let state = t.tick_once();
    assert_eq!(actions(&t), [R, Idle, Idle]);
    assert_eq!(state, Running);

    t.set("my_var", text("42"));
    t.sleep_ms(20);
    let state = t.tick_once();
    assert_eq!(actions(&t), [Idle, R, Idle]);
    assert_eq!(state, Running);

    t.sleep_ms(300);
    let state = t.tick_once();
    assert_eq!(actions(&t), [Idle; 3]);
    assert_eq!(state, Success);
    t.halt();
}

#[test]
fn switch_test_action_failure() {
    let mut t = switch();
    t.set("my_var", text("1"));
    let state = t.tick_once();
    t.expect("action_1", Failure);
    assert_eq!(actions(&t), [R, Idle, Idle]);
    assert_eq!(state, Running);

    t.sleep_ms(300);
    let state = t.tick_once();
    assert_eq!(state, Failure);
    assert_eq!(actions(&t), [Idle; 3]);
    t.halt();
}

/// `CheckStringEquality(selector, case)`: does the Switch pick the case?
fn check_string_equality(selector: &str, case: &str) -> bool {
    let mut t = Bench::new().tree_with(
        &format!(
            r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">
        <Switch2 variable="{{v}}" case_1="{case}" case_2="__never__">
            <AlwaysSuccess/><AlwaysFailure/><AlwaysFailure/>
        </Switch2></BehaviorTree></root>"#
        ),
        |bbs, root| bbs.set(root, "v", text(selector)).unwrap(),
    );
    t.tick_once() == Success
}

#[test]
fn switch_string_equality_rejects_trailing_characters() {
    assert!(check_string_equality("5", "5"));
    assert!(check_string_equality("5", "5.0"));
    assert!(check_string_equality("42", "42"));
    assert!(check_string_equality("-7", "-7"));

    assert!(!check_string_equality("5abc", "5"));
    assert!(!check_string_equality("42xxxx", "42"));
    assert!(!check_string_equality("1.0junk", "1.0"));
    assert!(!check_string_equality("5 ", "5"));
    assert!(!check_string_equality("none", "1"));
}
