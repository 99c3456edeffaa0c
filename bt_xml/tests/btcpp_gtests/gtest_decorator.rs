//! `tests/gtest_decorator.cpp`. The fixtures that build a decorator in C++ and call
//! `executeTick()` on it are trees here; such a node has no wake-up signal, so BT.CPP's Repeat
//! and Retry loop inside one tick where ours (in a tree) yield: `tickWhileRunning` stands in
//! for the single tick. Threaded test actions are actions timed on the injected clock.

use decision_core::engine::NodeState;

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree>{body}</BehaviorTree></root>"#)
}

/// `Timeout` of 100 ms over an action of `action_ms`.
fn deadline(action_ms: u64) -> Run {
    let mut b = Bench::new();
    b.async_action_for("TestAction", Lasts::Ms(action_ms), Success);
    b.tree(&tree(r#"<Timeout msec="100"><TestAction/></Timeout>"#))
}

#[test]
fn deadline_triggered_test() {
    let mut t = deadline(150);
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.state(1), NodeState::Running);
    t.sleep_ms(150 + 20);
    assert_eq!(t.tick_once(), Failure);
    assert_eq!(t.state(1), NodeState::Idle);
}

#[test]
fn deadline_not_triggered_test() {
    let mut t = deadline(30);
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.state(1), NodeState::Running);
    t.sleep_ms(30 + 20);
    assert_eq!(t.tick_once(), Success);
    assert_eq!(t.state(1), NodeState::Idle);
}

#[test]
fn retry_test_a() {
    let mut b = Bench::new();
    b.sync_action("TestAction");
    let mut t = b.tree(&tree(
        r#"<RetryUntilSuccessful num_attempts="3"><TestAction/></RetryUntilSuccessful>"#,
    ));
    t.expect("TestAction", Failure);
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!(t.ticks("TestAction"), 3);
    t.expect("TestAction", Success);
    t.reset_ticks("TestAction");
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestAction"), 1);
}

#[test]
fn repeat_test_async() {
    let mut b = Bench::new();
    b.async_action_for("TestAction", Lasts::Ms(20), Success);
    let mut t = b.tree(&tree(r#"<Repeat num_cycles="3"><TestAction/></Repeat>"#));
    let tick = |t: &mut Run| {
        let mut res = t.tick_once();
        while res == Running {
            t.sleep_ms(20);
            res = t.tick_once();
        }
        res
    };
    assert_eq!(tick(&mut t), Success);
    assert_eq!(
        (
            t.completions("TestAction", Success),
            t.completions("TestAction", Failure)
        ),
        (3, 0)
    );
    t.expect("TestAction", Failure);
    t.ctx.results.clear();
    assert_eq!(tick(&mut t), Failure);
    assert_eq!(
        (
            t.completions("TestAction", Success),
            t.completions("TestAction", Failure)
        ),
        (0, 1)
    );
}

#[test]
fn repeat_test_a() {
    let mut b = Bench::new();
    b.sync_action("TestAction");
    let mut t = b.tree(&tree(r#"<Repeat num_cycles="3"><TestAction/></Repeat>"#));
    t.expect("TestAction", Failure);
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!(t.ticks("TestAction"), 1);
    t.reset_ticks("TestAction");
    t.expect("TestAction", Success);
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestAction"), 3);
}

/// Two seconds of ticks 50 µs apart become 2000 ticks 1 ms apart on the injected clock.
#[test]
fn timeout_and_retry_issue57() {
    let mut b = Bench::new();
    b.sync_action("TestAction");
    let mut t = b.tree(&tree(
        r#"<Timeout msec="9"><RetryUntilSuccessful num_attempts="1000"><TestAction/></RetryUntilSuccessful></Timeout>"#,
    ));
    t.expect("TestAction", Failure);
    for _ in 0..2000 {
        assert!(t.try_tick().is_ok());
        t.sleep_ms(1);
    }
}

#[test]
fn run_once() {
    let mut t = Bench::new().tree(&tree(
        "<Sequence><RunOnce> <TestA/> </RunOnce><TestB/></Sequence>",
    ));
    for _ in 0..5 {
        assert_eq!(t.tick_while_running(), Success);
    }
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (1, 5));
}

#[test]
fn delay_with_xml() {
    let mut t = Bench::new().tree(&tree(r#"<Delay delay_msec="100"><AlwaysSuccess/></Delay>"#));
    let start = t.now;
    assert_eq!(t.tick_once(), Running);
    t.sleep_ms(50);
    let mut status = t.tick_once();
    assert_eq!(status, Running);
    while status == Running {
        t.sleep_ms(1);
        status = t.tick_once();
    }
    let elapsed = (t.now - start) * 1000.0;
    assert_eq!(status, Success);
    assert!((80.0..=200.0).contains(&elapsed), "{elapsed}");
}

fn status_of(body: &str) -> Status {
    Bench::new().tree(&tree(body)).tick_while_running()
}

#[test]
fn force_failure_child_success() {
    assert_eq!(
        status_of("<ForceFailure><AlwaysSuccess/></ForceFailure>"),
        Failure
    );
}

#[test]
fn force_failure_child_failure() {
    assert_eq!(
        status_of("<ForceFailure><AlwaysFailure/></ForceFailure>"),
        Failure
    );
}

#[test]
fn force_success_child_failure() {
    assert_eq!(
        status_of("<ForceSuccess><AlwaysFailure/></ForceSuccess>"),
        Success
    );
}

#[test]
fn force_success_child_success() {
    assert_eq!(
        status_of("<ForceSuccess><AlwaysSuccess/></ForceSuccess>"),
        Success
    );
}

#[test]
fn inverter_child_success() {
    assert_eq!(status_of("<Inverter><AlwaysSuccess/></Inverter>"), Failure);
}

#[test]
fn inverter_child_failure() {
    assert_eq!(status_of("<Inverter><AlwaysFailure/></Inverter>"), Success);
}

#[test]
fn inverter_in_sequence() {
    assert_eq!(
        status_of("<Sequence><Inverter><AlwaysFailure/></Inverter><AlwaysSuccess/></Sequence>"),
        Success
    );
}

#[test]
fn keep_running_until_failure() {
    let mut b = Bench::new();
    b.scripted("SuccessThenFail", &[Success, Success], Failure);
    let mut t = b.tree(&tree(
        "<KeepRunningUntilFailure><SuccessThenFail/></KeepRunningUntilFailure>",
    ));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.ticks("SuccessThenFail"), 1);
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.ticks("SuccessThenFail"), 2);
    assert_eq!(t.tick_once(), Failure);
    assert_eq!(t.ticks("SuccessThenFail"), 3);
}
