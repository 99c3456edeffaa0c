//! `tests/gtest_parallel.cpp`. The fixtures build Parallel nodes in C++ and call
//! `executeTick()`; here they are XML trees (`setSuccessThreshold` / `setFailureThreshold` are
//! `success_count` / `failure_count`; BT.CPP's defaults -1 and 1). Threaded
//! `AsyncActionTest`s and `TestNode`s with `async_delay` are actions lasting the same time
//! on the injected clock; `TreeObserver` statistics are counted from the per-tick trace.

use decision_core::engine::NodeId;
use decision_core::engine::NodeState::{self, Idle};

use crate::harness::*;

const R: NodeState = NodeState::Running;
const S: NodeState = NodeState::Success;
const F: NodeState = NodeState::Failure;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">{body}</BehaviorTree></root>"#)
}

/// `(success_count, failure_count)` attributes; `None` keeps the default.
fn counts(success: Option<i32>, failure: Option<i32>) -> String {
    let mut s = String::new();
    if let Some(n) = success {
        s += &format!(r#" success_count="{n}""#);
    }
    if let Some(n) = failure {
        s += &format!(r#" failure_count="{n}""#);
    }
    s
}

/// root 0, condition_1 1, action_1 2, condition_2 3, action_2 4.
fn simple_parallel(
    success: Option<i32>,
    failure: Option<i32>,
    action_1: (u64, Status),
    action_2: (u64, Status),
) -> Run {
    let mut b = Bench::new();
    b.sync_action("condition_1");
    b.sync_action("condition_2");
    b.async_action_for("action_1", Lasts::Ms(action_1.0), action_1.1);
    b.async_action_for("action_2", Lasts::Ms(action_2.0), action_2.1);
    b.tree(&tree(&format!(
        "<Parallel{}><condition_1/><action_1/><condition_2/><action_2/></Parallel>",
        counts(success, failure)
    )))
}

fn states(t: &Run, nodes: std::ops::RangeInclusive<u32>) -> Vec<NodeState> {
    nodes.map(|n| t.state(n)).collect()
}

#[test]
fn simple_parallel_test_conditions_true() {
    let mut t = simple_parallel(None, None, (100, Success), (300, Success));
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [S, R, S, R]);
    assert_eq!(state, Running);

    t.sleep_ms(200);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [S, S, S, R]);
    assert_eq!(state, Running);

    t.sleep_ms(200);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [Idle; 4]);
    assert_eq!(state, Success);
}

fn threshold_3(success: i32) {
    let mut t = simple_parallel(Some(success), None, (100, Success), (500, Success));
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [S, R, S, R]);
    assert_eq!(state, Running);

    t.sleep_ms(150);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [Idle; 4]);
    assert_eq!(state, Success);
}

#[test]
fn simple_parallel_test_threshold_3() {
    threshold_3(3);
}

#[test]
fn simple_parallel_test_threshold_neg2() {
    threshold_3(-2);
}

#[test]
fn simple_parallel_test_threshold_neg1() {
    let mut t = simple_parallel(Some(-1), None, (100, Success), (500, Success));
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [S, R, S, R]);
    assert_eq!(state, Running);

    t.sleep_ms(150);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [S, S, S, R]);
    assert_eq!(state, Running);

    t.sleep_ms(650);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [Idle; 4]);
    assert_eq!(state, Success);
}

#[test]
fn simple_parallel_test_threshold_threshold_fneg1() {
    let mut t = simple_parallel(Some(1), Some(-1), (100, Failure), (200, Failure));
    t.expect("condition_1", Failure);
    t.expect("condition_2", Failure);
    assert_eq!(t.tick_once(), Running);
    t.sleep_ms(250);
    assert_eq!(t.tick_once(), Failure);
}

#[test]
fn simple_parallel_test_threshold_2() {
    let mut t = simple_parallel(Some(2), None, (100, Success), (300, Success));
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=4), [Idle; 4]);
    assert_eq!(state, Success);
}

/// parallel_root 0 (success 2), parallel_left 1 (success 3: condition_1 2, action_1 3 of
/// 100 ms, condition_2 4, action_2 5 of 200 ms), parallel_right 6 (success 1: condition_3 7,
/// action_3 8 of 400 ms).
fn complex_parallel(left: (Option<i32>, Option<i32>), right_failure: Option<i32>) -> Run {
    let mut b = Bench::new();
    for id in ["condition_1", "condition_2", "condition_3"] {
        b.sync_action(id);
    }
    for (id, ms) in [("action_1", 100), ("action_2", 200), ("action_3", 400)] {
        b.async_action_for(id, Lasts::Ms(ms), Success);
    }
    b.tree(&tree(&format!(
        "<Parallel success_count=\"2\">\
           <Parallel{}><condition_1/><action_1/><condition_2/><action_2/></Parallel>\
           <Parallel{}><condition_3/><action_3/></Parallel>\
         </Parallel>",
        counts(Some(left.0.unwrap_or(3)), left.1),
        counts(Some(1), right_failure)
    )))
}

#[test]
fn complex_parallel_test_conditions_true() {
    let mut t = complex_parallel((None, None), None);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=5), [R, S, R, S, R]);
    assert_eq!(states(&t, 6..=8), [S, Idle, Idle]);
    assert_eq!(state, Running);

    t.sleep_ms(200);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=8), [Idle; 8]);
    assert_eq!(state, Success);
}

#[test]
fn complex_parallel_test_conditions_left_false() {
    let mut t = complex_parallel((Some(3), Some(3)), None);
    t.expect("condition_1", Failure);
    t.expect("condition_2", Failure);
    let state = t.tick_once();
    // It fails because Parallel Left it will never succeed (two already fail)
    // even though threshold_failure == 3
    assert_eq!(states(&t, 1..=8), [Idle; 8]);
    assert_eq!(state, Failure);
}

#[test]
fn complex_parallel_test_condition_right_false() {
    let mut t = complex_parallel((None, None), None);
    t.expect("condition_3", Failure);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=8), [Idle; 8]);
    assert_eq!(state, Failure);
}

#[test]
fn complex_parallel_test_condition_right_false_threshold_f_2() {
    let mut t = complex_parallel((None, None), Some(2));
    t.expect("condition_3", Failure);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=5), [R, S, R, S, R]);
    assert_eq!(states(&t, 6..=8), [R, F, R]);
    assert_eq!(state, Running);

    t.sleep_ms(500);
    let state = t.tick_once();
    assert_eq!(states(&t, 1..=8), [Idle; 8]);
    assert_eq!(state, Success);
}

#[test]
fn complex_parallel_test_condition_right_false_action1_done() {
    let mut t = complex_parallel((Some(4), None), Some(2));
    t.expect("condition_3", Failure);
    t.tick_once();
    t.sleep_ms(300);
    // parallel_1 hasn't realize (yet) that action_1 has succeeded. The gtest's threaded
    // actions are SUCCESS by now; ours complete when ticked, so only the rest is asserted.
    assert_eq!(t.state(1), R);
    assert_eq!(t.state(2), S);
    assert_eq!(t.state(4), S);
    assert_eq!(t.state(6), R);

    let state = t.tick_once();
    assert_eq!(states(&t, 1..=5), [S, Idle, Idle, Idle, Idle]);
    assert_eq!(t.state(6), R);
    assert_eq!(t.state(8), R);
    assert_eq!(state, Running);

    t.sleep_ms(300);
    let state = t.tick_once();
    assert_eq!(t.state(1), Idle);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(6), Idle);
    assert_eq!(t.state(8), Idle);
    assert_eq!(state, Success);
}

/// `tickWhileRunning` counting, per node `1..=n`, the ticks that ended in SUCCESS / FAILURE
/// (`TreeObserver::getStatistics(name).success_count / failure_count`).
fn observe(t: &mut Run, n: usize) -> (Status, Vec<(u32, u32)>) {
    let mut stats = vec![(0, 0); n];
    loop {
        let status = t.tick_once();
        for (k, s) in stats.iter_mut().enumerate() {
            match t.tree.trace().status_of(NodeId(k as u32 + 1)) {
                Some(Success) => s.0 += 1,
                Some(Failure) => s.1 += 1,
                _ => {}
            }
        }
        if status != Running {
            return (status, stats);
        }
        t.sleep_ms(10);
    }
}

#[test]
fn parallel_failing_parallel() {
    let mut b = Bench::new();
    b.async_action_for("GoodTest", Lasts::Ms(200), Success);
    b.async_action_for("BadTest", Lasts::Ms(100), Failure);
    b.async_action_for("SlowTest", Lasts::Ms(300), Success);
    let mut t = b.tree(
        r#"
<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Parallel name="parallel" success_count="1" failure_count="3">
      <GoodTest name="first"/>
      <BadTest name="second"/>
      <SlowTest name="third"/>
    </Parallel>
  </BehaviorTree>
</root>  "#,
    );
    let (state, stats) = observe(&mut t, 3);
    assert_eq!(state, Success);
    assert_eq!(stats[0].0, 1);
    assert_eq!(stats[1].1, 1);
    assert_eq!(stats[2].1, 0);
}

#[test]
fn parallel_parallel_all() {
    let mut b = Bench::new();
    b.async_action_for("GoodTest", Lasts::Ms(300), Success);
    b.async_action_for("BadTest", Lasts::Ms(100), Failure);
    for (max_failures, expected) in [(1, Failure), (2, Success)] {
        let mut t = b.tree(&format!(
            r#"
<root BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <ParallelAll max_failures="{max_failures}">
      <BadTest name="first"/>
      <GoodTest name="second"/>
      <GoodTest name="third"/>
    </ParallelAll>
  </BehaviorTree>
</root>  "#
        ));
        let (state, stats) = observe(&mut t, 3);
        assert_eq!(state, expected, "max_failures={max_failures}");
        assert_eq!(stats[0].1, 1);
        assert_eq!(stats[1].0, 1);
        assert_eq!(stats[2].0, 1);
    }
}

#[test]
fn parallel_issue593() {
    let mut t = Bench::new().tree(
        r#"
<root BTCPP_format="4">
  <BehaviorTree ID="TestTree">
    <Sequence>
      <Script code="test := true"/>
      <Parallel failure_count="1" success_count="-1">
        <TestA _skipIf="test == true"/>
        <Sleep msec="100"/>
      </Parallel>
    </Sequence>
  </BehaviorTree>
</root>
"#,
    );
    t.tick_while_running();
    assert_eq!(t.ticks("TestA"), 0);
}

#[test]
fn parallel_pause_with_retry() {
    let mut t = Bench::new().tree(
        r#"
<root BTCPP_format="4">
  <BehaviorTree ID="TestTree">
    <Parallel>
      <Sequence>
        <Sleep msec="150"/>
        <Script code="paused := false"/>
        <Sleep msec="150"/>
      </Sequence>

      <Sequence>
        <Script code="paused := true; done := false"/>
        <RetryUntilSuccessful _while="paused" num_attempts="-1" _onHalted="done = true">
          <AlwaysFailure/>
        </RetryUntilSuccessful>
      </Sequence>
    </Parallel>
  </BehaviorTree>
</root>
"#,
    );
    let t1 = t.now;
    let mut done_time = None;
    let mut status = t.tick_once();
    while status == Running {
        t.sleep_ms(1);
        if done_time.is_none() && t.get("done").map(|v| v.as_bool()) == Some(Ok(true)) {
            done_time = Some(t.now);
        }
        status = t.tick_once();
    }
    let t2 = t.now;
    assert_eq!(status, Success);
    let to_msec = |s: f64| (s * 1000.0).round() as i64;
    let margin_msec = 80;
    let done_time = done_time.expect("`done` was never set");
    assert!(to_msec(done_time - t1) - 150 <= margin_msec);
    assert!(to_msec(t2 - t1) - 300 <= margin_msec * 2);
}

#[test]
fn parallel_issue819_sequence_vs_reactive_sequence() {
    for (control, second_tick_count) in [("Sequence", 1), ("ReactiveSequence", 2)] {
        let mut b = Bench::new();
        b.leaf("TestCondition", vec![], |l| {
            let name = l.name.to_owned();
            l.record(text(&name));
            Ok(Success)
        });
        let mut t = b.tree(&format!(
            r#"
<root BTCPP_format="4">
  <BehaviorTree ID="TestTree">
    <Parallel success_count="2" failure_count="1">
      <{control}>
        <TestCondition name="cond1"/>
        <Sleep msec="200"/>
      </{control}>
      <{control}>
        <TestCondition name="cond2"/>
        <Sleep msec="200"/>
      </{control}>
    </Parallel>
  </BehaviorTree>
</root>
"#
        ));
        let tick_counts = |t: &Run| {
            let v = t.values("TestCondition");
            [
                v.iter().filter(|x| **x == text("cond1")).count(),
                v.iter().filter(|x| **x == text("cond2")).count(),
            ]
        };
        assert_eq!(t.tick_once(), Running);
        assert_eq!(tick_counts(&t), [1, 1]);

        t.sleep_ms(50);
        assert_eq!(t.tick_once(), Running);
        assert_eq!(
            tick_counts(&t),
            [second_tick_count, second_tick_count],
            "{control}"
        );
    }
}
