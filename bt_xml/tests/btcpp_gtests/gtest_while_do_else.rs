//! `tests/gtest_while_do_else.cpp`.

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree>{body}</BehaviorTree></root>"#)
}

fn run(b: &Bench, body: &str) -> (Status, u32, u32) {
    let mut t = b.tree(&tree(body));
    let s = t.tick_while_running();
    (s, t.ticks("TestA"), t.ticks("TestB"))
}

#[test]
fn condition_true_do_branch() {
    let r = run(
        &Bench::new(),
        "<WhileDoElse><AlwaysSuccess/><TestA/><TestB/></WhileDoElse>",
    );
    assert_eq!(r, (Success, 1, 0));
}

#[test]
fn condition_false_else_branch() {
    let r = run(
        &Bench::new(),
        "<WhileDoElse><AlwaysFailure/><TestA/><TestB/></WhileDoElse>",
    );
    assert_eq!(r, (Success, 0, 1));
}

#[test]
fn condition_false_two_children_returns_failure() {
    let r = run(
        &Bench::new(),
        "<WhileDoElse><AlwaysFailure/><TestA/></WhileDoElse>",
    );
    assert_eq!((r.0, r.1), (Failure, 0));
}

#[test]
fn do_branch_fails() {
    let r = run(
        &Bench::new(),
        "<WhileDoElse><AlwaysSuccess/><AlwaysFailure/><TestA/></WhileDoElse>",
    );
    assert_eq!((r.0, r.1), (Failure, 0));
}

#[test]
fn else_branch_fails() {
    let r = run(
        &Bench::new(),
        "<WhileDoElse><AlwaysFailure/><TestA/><AlwaysFailure/></WhileDoElse>",
    );
    assert_eq!((r.0, r.1), (Failure, 0));
}

#[test]
fn condition_changes_halts_else() {
    let mut b = Bench::new();
    b.scripted("ToggleCondition", &[Failure], Success);
    let r = run(
        &b,
        "<WhileDoElse><ToggleCondition/><TestA/><TestB/></WhileDoElse>",
    );
    assert_eq!(r, (Success, 0, 1));
}

#[test]
fn condition_changes_halts_do() {
    let mut b = Bench::new();
    b.scripted("ToggleCondition2", &[Success], Failure);
    let r = run(
        &b,
        "<WhileDoElse><ToggleCondition2/><TestA/><TestB/></WhileDoElse>",
    );
    assert_eq!(r, (Success, 1, 0));
}

#[test]
fn halt_behavior() {
    let mut t = Bench::new().tree(&tree(
        "<WhileDoElse><AlwaysSuccess/><TestA/><TestB/></WhileDoElse>",
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 1);
    t.halt();
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 2);
}

#[test]
fn invalid_child_count_one() {
    let mut t = Bench::new().tree(&tree("<WhileDoElse><AlwaysSuccess/></WhileDoElse>"));
    assert!(t.try_tick_while_running().is_err());
}

#[test]
fn invalid_child_count_four() {
    let mut t = Bench::new().tree(&tree(
        "<WhileDoElse><AlwaysSuccess/><TestA/><TestB/><TestC/></WhileDoElse>",
    ));
    assert!(t.try_tick_while_running().is_err());
}

#[test]
fn condition_running() {
    let mut b = Bench::new();
    b.scripted("RunningThenSuccess", &[Running], Success);
    let mut t = b.tree(&tree(
        "<WhileDoElse><RunningThenSuccess/><TestA/><TestB/></WhileDoElse>",
    ));
    assert_eq!(t.tick_once(), Running);
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (0, 0));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 1);
}
