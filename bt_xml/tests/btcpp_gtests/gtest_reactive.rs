//! `tests/gtest_reactive.cpp`.

use decision_core::engine::NodeId;

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">{body}</BehaviorTree></root>"#)
}

#[test]
fn running_children() {
    let mut t = Bench::new().tree(&tree(
        r#"<ReactiveSequence>
      <Sequence name="first"><TestA/><TestB/><TestC/></Sequence>
      <AsyncSequence name="second"><TestD/><TestE/><TestF/></AsyncSequence>
    </ReactiveSequence>"#,
    ));
    let mut status = Running;
    let mut count = 0;
    while status == Running && count < 100 {
        count += 1;
        status = t.tick_once();
    }
    assert_ne!(count, 100);
    assert_eq!(status, Success);
    let counts = ["TestA", "TestB", "TestC", "TestD", "TestE", "TestF"].map(|id| t.ticks(id));
    assert_eq!(counts, [3, 3, 3, 1, 1, 1]);
}

#[test]
fn issue587() {
    let mut t = Bench::new().tree(&tree(
        r#"<Sequence>
      <Script code="test := false"/>
      <ReactiveSequence>
        <RetryUntilSuccessful name="Retry 1" num_attempts="-1" _skipIf="test ">
          <TestA name="Success 1" _onSuccess="test = true"/>
        </RetryUntilSuccessful>
        <RetryUntilSuccessful name="Retry 2" num_attempts="5">
          <AlwaysFailure name="Failure 2"/>
        </RetryUntilSuccessful>
      </ReactiveSequence>
    </Sequence>"#,
    ));
    t.tick_while_running();
    assert_eq!(t.ticks("TestA"), 1);
}

/// The gtest's `TreeObserver` statistics are counted from our per-tick trace.
#[test]
fn test_logging() {
    let mut t = Bench::new().tree(&tree(
        r#"<ReactiveSequence>
      <TestA name="testA"/>
      <AlwaysSuccess name="success"/>
      <Sleep msec="100"/>
    </ReactiveSequence>"#,
    ));
    let mut successes = [0u32; 2];
    let mut status = Running;
    while status == Running {
        status = t.tick_once();
        for (k, n) in successes.iter_mut().enumerate() {
            if t.tree.trace().status_of(NodeId(k as u32 + 1)) == Some(Success) {
                *n += 1;
            }
        }
        t.sleep_ms(10);
    }
    assert_eq!(status, Success);
    let num_ticks = t.ticks("TestA");
    assert!(num_ticks >= 5, "{num_ticks}");
    assert_eq!(successes, [num_ticks, num_ticks]);
}

#[test]
fn two_async_nodes_in_reactive_sequence() {
    Bench::new().load_error(&tree(
        r#"<ReactiveSequence>
      <AsyncSequence name="first"><TestA/><TestB/><TestC/></AsyncSequence>
      <AsyncSequence name="second"><TestD/><TestE/><TestF/></AsyncSequence>
    </ReactiveSequence>"#,
    ));
}

#[test]
fn reactive_sequence_first_child_fails() {
    let mut t = Bench::new().tree(&tree(
        "<ReactiveSequence><AlwaysFailure/><TestA/></ReactiveSequence>",
    ));
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!(t.ticks("TestA"), 0);
}

#[test]
fn reactive_sequence_halt_on_condition_change() {
    let mut b = Bench::new();
    b.sync_action("DynamicCondition");
    b.async_action("TrackingAction", u32::MAX, Success);
    let mut t = b.tree(&tree(
        "<ReactiveSequence><DynamicCondition/><TrackingAction/></ReactiveSequence>",
    ));
    assert_eq!(t.tick_once(), Running);
    assert!(t.ticks("TrackingAction") >= 1);
    assert_eq!(t.halts("TrackingAction"), 0);
    assert_eq!(t.tick_once(), Running);
    t.expect("DynamicCondition", Failure);
    assert_eq!(t.tick_once(), Failure);
    assert!(t.halts("TrackingAction") > 0);
}

#[test]
fn reactive_fallback_first_child_succeeds() {
    let mut t = Bench::new().tree(&tree(
        "<ReactiveFallback><AlwaysSuccess/><TestA/></ReactiveFallback>",
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 0);
}

#[test]
fn reactive_fallback_all_children_fail() {
    let mut t = Bench::new().tree(&tree(
        "<ReactiveFallback><AlwaysFailure/><AlwaysFailure/><AlwaysFailure/></ReactiveFallback>",
    ));
    assert_eq!(t.tick_while_running(), Failure);
}

#[test]
fn reactive_fallback_second_child_succeeds() {
    let mut t = Bench::new().tree(&tree(
        "<ReactiveFallback><AlwaysFailure/><TestA/></ReactiveFallback>",
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 1);
}

#[test]
fn reactive_sequence_all_children_succeed() {
    let mut t = Bench::new().tree(&tree(
        "<ReactiveSequence><TestA/><TestB/><TestC/></ReactiveSequence>",
    ));
    assert_eq!(t.tick_while_running(), Success);
    let counts = ["TestA", "TestB", "TestC"].map(|id| t.ticks(id));
    assert_eq!(counts, [1, 1, 1]);
}

#[test]
fn reactive_sequence_re_evaluates_on_every_tick() {
    let mut b = Bench::new();
    b.constant("CountingCondition", Success);
    let mut t = b.tree(&tree(
        r#"<ReactiveSequence><CountingCondition/><Sleep msec="50"/></ReactiveSequence>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert!(t.ticks("CountingCondition") >= 2);
}
