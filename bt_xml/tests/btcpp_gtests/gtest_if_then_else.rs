//! `tests/gtest_if_then_else.cpp`.

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
fn condition_true_then_branch() {
    let r = run(
        &Bench::new(),
        "<IfThenElse><AlwaysSuccess/><TestA/><TestB/></IfThenElse>",
    );
    assert_eq!(r, (Success, 1, 0));
}

#[test]
fn condition_false_else_branch() {
    let r = run(
        &Bench::new(),
        "<IfThenElse><AlwaysFailure/><TestA/><TestB/></IfThenElse>",
    );
    assert_eq!(r, (Success, 0, 1));
}

#[test]
fn condition_false_two_children_returns_failure() {
    let r = run(
        &Bench::new(),
        "<IfThenElse><AlwaysFailure/><TestA/></IfThenElse>",
    );
    assert_eq!((r.0, r.1), (Failure, 0));
}

#[test]
fn then_branch_fails() {
    let r = run(
        &Bench::new(),
        "<IfThenElse><AlwaysSuccess/><AlwaysFailure/><TestA/></IfThenElse>",
    );
    assert_eq!((r.0, r.1), (Failure, 0));
}

#[test]
fn else_branch_fails() {
    let r = run(
        &Bench::new(),
        "<IfThenElse><AlwaysFailure/><TestA/><AlwaysFailure/></IfThenElse>",
    );
    assert_eq!((r.0, r.1), (Failure, 0));
}

#[test]
fn condition_running() {
    let mut b = Bench::new();
    b.scripted("RunningThenSuccess", &[Running], Success);
    let mut t = b.tree(&tree(
        "<IfThenElse><RunningThenSuccess/><TestA/><TestB/></IfThenElse>",
    ));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.ticks("TestA"), 0);
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 1);
}

#[test]
fn halt_behavior() {
    let b = Bench::new();
    let mut t = b.tree(&tree(
        "<IfThenElse><AlwaysSuccess/><TestA/><TestB/></IfThenElse>",
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 1);
    t.halt();
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 2);
}

#[test]
fn invalid_child_count_one() {
    let mut t = Bench::new().tree(&tree("<IfThenElse><AlwaysSuccess/></IfThenElse>"));
    assert!(t.try_tick_while_running().is_err());
}

#[test]
fn invalid_child_count_four() {
    let mut t = Bench::new().tree(&tree(
        "<IfThenElse><AlwaysSuccess/><TestA/><TestB/><TestC/></IfThenElse>",
    ));
    assert!(t.try_tick_while_running().is_err());
}
