//! `tests/gtest_loop.cpp` (LoopInt / LoopDouble / LoopString / LoopBool).

use decision_core::engine::blackboard::{EntryType, Value};

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree>{body}</BehaviorTree></root>"#)
}

fn recording(id: &str, ty: EntryType) -> Bench {
    let mut b = Bench::new();
    b.recorder(id, "value", ty);
    b
}

#[test]
fn static_int_queue() {
    let b = recording("RecordIntValue", EntryType::Int);
    let mut t = b.tree(&tree(
        r#"<LoopInt queue="1;2;3;4;5" value="{val}"><RecordIntValue value="{val}"/></LoopInt>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.values("RecordIntValue"), [1, 2, 3, 4, 5].map(int));
}

#[test]
fn static_double_queue() {
    let b = recording("RecordDoubleValue", EntryType::Double);
    let mut t = b.tree(&tree(
        r#"<LoopDouble queue="1.5;2.5;3.5" value="{val}"><RecordDoubleValue value="{val}"/></LoopDouble>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(
        t.values("RecordDoubleValue"),
        [1.5, 2.5, 3.5].map(Value::Double)
    );
}

#[test]
fn static_string_queue() {
    let b = recording("RecordStringValue", EntryType::Str);
    let mut t = b.tree(&tree(
        r#"<LoopString queue="hello;world;test" value="{val}"><RecordStringValue value="{val}"/></LoopString>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(
        t.values("RecordStringValue"),
        ["hello", "world", "test"].map(text)
    );
}

fn empty_queue(if_empty: &str) -> (Status, u32) {
    let mut b = Bench::new();
    b.constant("CountTicks", Success);
    let mut t = b.tree(&tree(&format!(
        r#"<LoopInt queue="" if_empty="{if_empty}" value="{{val}}"><CountTicks/></LoopInt>"#
    )));
    (t.tick_while_running(), t.ticks("CountTicks"))
}

#[test]
fn empty_queue_returns_success() {
    assert_eq!(empty_queue("SUCCESS"), (Success, 0));
}

#[test]
fn empty_queue_returns_failure() {
    assert_eq!(empty_queue("FAILURE"), (Failure, 0));
}

#[test]
fn empty_queue_returns_skipped() {
    assert_eq!(empty_queue("SKIPPED"), (Skipped, 0));
}

#[test]
fn child_failure_stops_loop() {
    let mut b = Bench::new();
    b.scripted("FailOnThird", &[Success, Success, Failure], Success);
    let mut t = b.tree(&tree(
        r#"<LoopInt queue="1;2;3;4;5" value="{val}"><FailOnThird/></LoopInt>"#,
    ));
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!(t.ticks("FailOnThird"), 3);
}

/// The gtest puts a `std::deque<int>` on the blackboard; ours holds the queue as its text.
#[test]
fn dynamic_queue_from_blackboard() {
    let b = recording("RecordIntValue", EntryType::Int);
    let mut t = b.tree(&tree(
        r#"<LoopInt queue="{my_queue}" value="{val}"><RecordIntValue value="{val}"/></LoopInt>"#,
    ));
    t.set("my_queue", text("10;20;30"));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.values("RecordIntValue"), [10, 20, 30].map(int));
}

#[test]
fn bool_queue() {
    let b = recording("RecordBoolValue", EntryType::Bool);
    let mut t = b.tree(&tree(
        r#"<LoopBool queue="true;false;true" value="{val}"><RecordBoolValue value="{val}"/></LoopBool>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(
        t.values("RecordBoolValue"),
        [true, false, true].map(Value::Bool)
    );
}

#[test]
fn restart_after_completion() {
    let mut b = Bench::new();
    b.constant("CountTicks", Success);
    let mut t = b.tree(&tree(
        r#"<LoopInt queue="1;2;3" value="{val}"><CountTicks/></LoopInt>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("CountTicks"), 3);
    t.halt();
    t.reset_ticks("CountTicks");
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("CountTicks"), 3);
}

/// `convertFromString<SharedQueue<T>>` is C++ API; the same texts as literal queues.
fn converted(kind: &str, queue: &str, ty: EntryType) -> Vec<Value> {
    let b = recording("Record", ty);
    let mut t = b.tree(&tree(&format!(
        r#"<{kind} queue="{queue}" value="{{v}}"><Record value="{{v}}"/></{kind}>"#
    )));
    assert_eq!(t.tick_while_running(), Success);
    t.values("Record")
}

#[test]
fn convert_from_string_int() {
    let q = converted("LoopInt", "1;2;3;4;5", EntryType::Int);
    assert_eq!(q.len(), 5);
    assert_eq!((&q[0], &q[4]), (&int(1), &int(5)));
}

#[test]
fn convert_from_string_double() {
    let q = converted("LoopDouble", "1.1;2.2;3.3", EntryType::Double);
    assert_eq!(q.len(), 3);
    assert_eq!((&q[0], &q[2]), (&Value::Double(1.1), &Value::Double(3.3)));
}

#[test]
fn convert_from_string_bool() {
    let q = converted("LoopBool", "true;false;true;false", EntryType::Bool);
    assert_eq!(q.len(), 4);
    assert_eq!((&q[0], &q[1]), (&Value::Bool(true), &Value::Bool(false)));
}

#[test]
fn convert_from_string_string() {
    let q = converted("LoopString", "foo;bar;baz", EntryType::Str);
    assert_eq!(q, ["foo", "bar", "baz"].map(text));
}
