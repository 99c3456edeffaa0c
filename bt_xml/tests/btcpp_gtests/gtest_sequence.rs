//! `tests/gtest_sequence.cpp`. The fixtures build nodes in C++ and call `executeTick()` on
//! the root; here they are XML trees. `ConditionTestNode` / `SyncActionTest` are
//! `Bench::sync_action`, the threaded `AsyncActionTest` an action lasting N ms of injected
//! time; `tickCount()` of an asynchronous action is its number of completed runs.
//! A node built in C++ has no wake-up signal, so SequenceWithMemory does not yield there after
//! a synchronous SUCCESS; in a tree (BT.CPP's too) it yields once: such an `executeTick()` is
//! two ticks here (said at each place).

use decision_core::engine::NodeState::{self, Idle};

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">{body}</BehaviorTree></root>"#)
}

/// `condition*` are ConditionTestNodes, `action*` AsyncActionTests of `ms` milliseconds.
fn bench(ms: u64) -> Bench {
    let mut b = Bench::new();
    for id in ["condition", "condition_1", "condition_2", "action_2_sync"] {
        b.sync_action(id);
    }
    for id in ["action", "action_1", "action_2", "action_3"] {
        b.async_action_for(id, Lasts::Ms(ms), Success);
    }
    b
}

fn simple_sequence() -> Run {
    bench(100).tree(&tree("<Sequence><condition/><action/></Sequence>"))
}

#[test]
fn simple_sequence_test_condition_true() {
    let mut t = simple_sequence();
    let state = t.tick_once();
    assert_eq!(t.state(2), NodeState::Running);
    assert_eq!(state, Running);
}

#[test]
fn simple_sequence_test_condition_turn_to_false() {
    let mut t = simple_sequence();
    t.expect("condition", Failure);
    t.tick_once();
    let state = t.tick_once();
    assert_eq!(state, Failure);
    assert_eq!(t.state(1), Idle);
    assert_eq!(t.state(2), Idle);
}

/// root 0, sequence_conditions 1, condition_1 2, condition_2 3, action_1 4.
fn complex_sequence() -> Run {
    bench(100).tree(&tree(
        "<ReactiveSequence><Sequence><condition_1/><condition_2/></Sequence><action_1/></ReactiveSequence>",
    ))
}

#[test]
fn complex_sequence_test_complex_sequence_conditions_true() {
    let mut t = complex_sequence();
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), Idle);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(4), NodeState::Running);
}

#[test]
fn sequence_triple_action_test_triple_action() {
    let mut t = bench(300).tree(&tree(
        "<Sequence><condition/><action_1/><action_2_sync/><action_3/></Sequence>",
    ));
    let timeout = 0.600 + 0.020;
    let mut state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(2), NodeState::Running);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(4), Idle);
    while state != Success && t.now < timeout {
        t.sleep_ms(1);
        state = t.tick_once();
    }
    assert_eq!(state, Success);
    assert_eq!(t.ticks("condition"), 1);
    assert_eq!(t.completions("action_1", Success), 1);
    assert_eq!(t.ticks("action_2_sync"), 1);
    assert_eq!(t.completions("action_3", Success), 1);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(4), Idle);
    assert!(t.now < timeout);
}

#[test]
fn complex_sequence2_actions_test_conditions_true() {
    // root 0, sequence_1 1, condition_1 2, action_1 3, sequence_2 4, condition_2 5, action_2 6.
    let mut t = bench(100).tree(&tree(
        "<Sequence><Sequence><condition_1/><action_1/></Sequence>\
         <Sequence><condition_2/><action_2/></Sequence></Sequence>",
    ));
    t.tick_once();
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Running);
    assert_eq!(t.state(2), NodeState::Success);
    assert_eq!(t.state(3), NodeState::Running);
    assert_eq!(t.state(4), Idle);
    assert_eq!(t.state(5), Idle);
    assert_eq!(t.state(6), Idle);

    t.sleep_ms(300);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Success);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(4), NodeState::Running);
    assert_eq!(t.state(5), NodeState::Success);
    assert_eq!(t.state(6), NodeState::Running);
    t.tick_once();
}

fn complex_sequence_condition_to_false(condition: &str) {
    let mut t = complex_sequence();
    t.tick_once();
    t.expect(condition, Failure);
    let state = t.tick_once();
    assert_eq!(state, Failure);
    assert_eq!(t.state(1), Idle);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(4), Idle);
}

#[test]
fn complex_sequence_test_complex_sequence_conditions1_to_false() {
    complex_sequence_condition_to_false("condition_1");
}

#[test]
fn complex_sequence_test_complex_sequence_conditions2_to_false() {
    complex_sequence_condition_to_false("condition_2");
}

fn simple_sequence_with_memory() -> Run {
    bench(100).tree(&tree(
        "<SequenceWithMemory><condition/><action/></SequenceWithMemory>",
    ))
}

#[test]
fn simple_sequence_with_memory_test_condition_true() {
    let mut t = simple_sequence_with_memory();
    // One executeTick(): the tree yields after the condition.
    assert_eq!(t.tick_once(), Running);
    let state = t.tick_once();
    t.sleep_ms(50);
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Success);
    assert_eq!(t.state(2), NodeState::Running);
}

#[test]
fn simple_sequence_with_memory_test_condition_turn_to_false() {
    let mut t = simple_sequence_with_memory();
    // One executeTick(): the tree yields after the condition.
    assert_eq!(t.tick_once(), Running);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Success);
    assert_eq!(t.state(2), NodeState::Running);

    t.expect("condition", Failure);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_eq!(t.state(1), NodeState::Success);
    assert_eq!(t.state(2), NodeState::Running);
}

/// root 0, sequence_conditions 1, condition_1 2, condition_2 3, sequence_actions 4,
/// action_1 5, action_2 6. The first executeTick() is two ticks (sequence_conditions yields
/// after condition_1).
fn complex_sequence_with_memory() -> Run {
    let mut t = bench(100).tree(&tree(
        "<SequenceWithMemory>\
           <SequenceWithMemory><condition_1/><condition_2/></SequenceWithMemory>\
           <SequenceWithMemory><action_1/><action_2/></SequenceWithMemory>\
         </SequenceWithMemory>",
    ));
    assert_eq!(t.tick_once(), Running);
    t
}

fn assert_conditions_done_action_1_running(t: &Run) {
    assert_eq!(t.state(1), NodeState::Success);
    assert_eq!(t.state(2), Idle);
    assert_eq!(t.state(3), Idle);
    assert_eq!(t.state(4), NodeState::Running);
    assert_eq!(t.state(5), NodeState::Running);
    assert_eq!(t.state(6), Idle);
}

#[test]
fn complex_sequence_with_memory_test_conditions_true() {
    let mut t = complex_sequence_with_memory();
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_conditions_done_action_1_running(&t);
}

#[test]
fn complex_sequence_with_memory_test_conditions1_to_false() {
    let mut t = complex_sequence_with_memory();
    t.tick_once();
    t.expect("condition_1", Failure);
    let state = t.tick_once();
    assert_eq!(state, Running);
    assert_conditions_done_action_1_running(&t);
}

#[test]
fn sequence_with_memory_test_issue_636() {
    // BT.CPP's tickOnce() ticks again at once while a node asked to be woken up (the
    // SequenceWithMemory yields); without asynchronous nodes that is ticking while RUNNING.
    let mut t = Bench::new().tree(
        r#"

<root BTCPP_format="4" main_tree_to_execute="MainTree" >

    <BehaviorTree ID="MainTree">
        <SequenceWithMemory>
            <Script code = " var := 0 " />
            <TestA/>
            <ScriptCondition code = "var+=1; var >= 5" />
            <TestB/>
            <TestC/>
        </SequenceWithMemory>
    </BehaviorTree>
</root> "#,
    );
    let mut res = t.tick_while_running();
    let mut tick_count = 1;
    while res != Success {
        res = t.tick_while_running();
        tick_count += 1;
    }
    assert_eq!(t.ticks("TestA"), 1);
    assert_eq!(t.ticks("TestB"), 1);
    assert_eq!(t.ticks("TestC"), 1);
    assert_eq!(tick_count, 5);
}
