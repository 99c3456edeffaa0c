//! `tests/gtest_try_catch.cpp`.

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree>{body}</BehaviorTree></root>"#)
}

#[test]
fn all_try_children_succeed() {
    let b = Bench::new();
    let mut t = b.tree(&tree("<TryCatch><TestA/><TestB/><TestC/></TryCatch>"));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(
        (t.ticks("TestA"), t.ticks("TestB"), t.ticks("TestC")),
        (1, 1, 0)
    );
}

#[test]
fn first_child_fails_catch_executed() {
    let b = Bench::new();
    let mut t = b.tree(&tree(
        "<TryCatch><AlwaysFailure/><TestA/><TestB/></TryCatch>",
    ));
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (0, 1));
}

#[test]
fn second_child_fails_catch_executed() {
    let b = Bench::new();
    let mut t = b.tree(&tree(
        "<TryCatch><TestA/><AlwaysFailure/><TestB/></TryCatch>",
    ));
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (1, 1));
}

#[test]
fn catch_returns_failure_node_still_returns_failure() {
    let b = Bench::new();
    let mut t = b.tree(&tree(
        "<TryCatch><AlwaysFailure/><AlwaysFailure/></TryCatch>",
    ));
    assert_eq!(t.tick_while_running(), Failure);
}

#[test]
fn catch_returns_success_node_still_returns_failure() {
    let b = Bench::new();
    let mut t = b.tree(&tree(
        "<TryCatch><AlwaysFailure/><AlwaysSuccess/></TryCatch>",
    ));
    assert_eq!(t.tick_while_running(), Failure);
}

#[test]
fn try_child_running() {
    let mut b = Bench::new();
    b.scripted("RunningThenSuccess", &[Running], Success);
    let mut t = b.tree(&tree("<TryCatch><RunningThenSuccess/><TestA/></TryCatch>"));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 0);
}

#[test]
fn catch_child_running() {
    let mut b = Bench::new();
    b.scripted("RunningThenFailure", &[Running], Failure);
    let mut t = b.tree(&tree(
        "<TryCatch><AlwaysFailure/><RunningThenFailure/></TryCatch>",
    ));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.tick_while_running(), Failure);
}

#[test]
fn minimum_two_children_parse_time_validation() {
    let b = Bench::new();
    b.load_error(&tree("<TryCatch><AlwaysSuccess/></TryCatch>"));
}

#[test]
fn re_execute_after_success() {
    let b = Bench::new();
    let mut t = b.tree(&tree("<TryCatch><TestA/><TestB/></TryCatch>"));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 1);
    t.halt();
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (2, 0));
}

#[test]
fn re_execute_after_failure() {
    let mut b = Bench::new();
    b.scripted("FailThenSucceed", &[Failure], Success);
    let mut t = b.tree(&tree("<TryCatch><FailThenSucceed/><TestA/></TryCatch>"));
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!(t.ticks("TestA"), 1);
    t.halt();
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 1);
}

#[test]
fn catch_on_halt_disabled() {
    let mut b = Bench::new();
    b.constant("CountCatch", Success)
        .constant("AlwaysRunning", Running);
    let mut t = b.tree(&tree("<TryCatch><AlwaysRunning/><CountCatch/></TryCatch>"));
    assert_eq!(t.tick_once(), Running);
    t.halt();
    assert_eq!(t.ticks("CountCatch"), 0);
}

#[test]
fn catch_on_halt_enabled() {
    let mut b = Bench::new();
    b.constant("CountCatch", Success)
        .constant("AlwaysRunning", Running);
    let mut t = b.tree(&tree(
        r#"<TryCatch catch_on_halt="true"><AlwaysRunning/><CountCatch/></TryCatch>"#,
    ));
    assert_eq!(t.tick_once(), Running);
    t.halt();
    assert_eq!(t.ticks("CountCatch"), 1);
}

#[test]
fn catch_on_halt_not_triggered_when_already_in_catch() {
    let mut b = Bench::new();
    b.constant("RunningCatch", Running);
    let mut t = b.tree(&tree(
        r#"<TryCatch catch_on_halt="true"><AlwaysFailure/><RunningCatch/></TryCatch>"#,
    ));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.ticks("RunningCatch"), 1);
    t.halt();
    assert_eq!(t.ticks("RunningCatch"), 1);
}

#[test]
fn async_catch_completes_inside_sequence() {
    let mut b = Bench::new();
    b.scripted("AsyncCleanup", &[Running; 5], Success);
    let mut t = b.tree(&tree(
        "<Sequence><TryCatch><AlwaysFailure/><AsyncCleanup/></TryCatch><TestA/></Sequence>",
    ));
    for i in 1..=5 {
        assert_eq!(t.tick_once(), Running, "tick {i}");
        assert_eq!(t.ticks("AsyncCleanup"), i);
    }
    assert_eq!(t.tick_once(), Failure);
    assert_eq!(t.ticks("AsyncCleanup"), 6);
    assert_eq!(t.ticks("TestA"), 0);
}

#[test]
fn single_try_child_success() {
    let b = Bench::new();
    let mut t = b.tree(&tree("<TryCatch><TestA/><TestB/></TryCatch>"));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (1, 0));
}

#[test]
fn many_try_children_third_fails() {
    let b = Bench::new();
    let mut t = b.tree(&tree(
        "<TryCatch><TestA/><TestB/><AlwaysFailure/><TestC/></TryCatch>",
    ));
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!(
        (t.ticks("TestA"), t.ticks("TestB"), t.ticks("TestC")),
        (1, 1, 1)
    );
}
