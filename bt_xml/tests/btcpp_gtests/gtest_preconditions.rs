//! `tests/gtest_preconditions.cpp` (the Precondition decorator and the `_successIf`,
//! `_failureIf`, `_skipIf`, `_while` attributes).

use decision_core::engine::PortDecl;
use decision_core::engine::blackboard::{EntryType, Value};

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">{body}</BehaviorTree></root>"#)
}

/// BT.CPP's `KeepRunning` test action: RUNNING forever.
fn with_keep_running() -> Bench {
    let mut b = Bench::new();
    b.constant("KeepRunning", Running);
    b
}

fn three_preconditions(script: &str) -> (Status, u32, u32, u32) {
    let mut t = Bench::new().tree(&tree(&format!(
        r#"<Sequence>
                <Script code = "{script}" />
                <Precondition if="A==B" else="FAILURE"><TestA/></Precondition>
                <Precondition if="A==C" else="SUCCESS"><TestB/></Precondition>
                <Precondition if="A!=C" else="FAILURE"><TestC/></Precondition>
            </Sequence>"#
    )));
    let s = t.tick_while_running();
    (s, t.ticks("TestA"), t.ticks("TestB"), t.ticks("TestC"))
}

#[test]
fn preconditions_decorator_integers() {
    assert_eq!(three_preconditions("A:=1; B:=1; C:=3"), (Success, 1, 0, 1));
}

#[test]
fn preconditions_decorator_double_equals() {
    assert_eq!(
        three_preconditions(" A:=1.1; B:=(1.0+0.1); C:= 2.0 "),
        (Success, 1, 0, 1)
    );
}

#[test]
fn preconditions_decorator_string_equals() {
    let mut t = Bench::new().tree(&tree(
        r#"<Sequence>
                <Script code = "A:='hello'" />
                <Script code = "B:='world'" />
                <Script code = "C:='world'" />
                <Precondition if=" A==B " else="SUCCESS"><TestA/></Precondition>
                <Precondition if=" B==C " else="FAILURE"><TestB/></Precondition>
            </Sequence>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (0, 1));
}

#[test]
fn preconditions_decorator_checks_condition_once() {
    let mut t = with_keep_running().tree(&tree(
        r#"<Sequence>
                <Script code = "A:=0" />
                <Script code = "B:=0" />
                <Precondition if=" A==0 " else="FAILURE">
                    <KeepRunning _while="B==0" />
                </Precondition>
            </Sequence>"#,
    ));
    assert_eq!(t.tick_once(), Running);
    t.set("A", int(1));
    assert_eq!(t.tick_once(), Running);
    t.set("B", int(1));
    assert_eq!(t.tick_once(), Success);
}

#[test]
fn preconditions_decorator_can_run_children_multiple_times() {
    let mut t = with_keep_running().tree(&tree(
        r#"<Sequence>
                <Script code = "A:=0" />
                <Script code = "B:=0" />
                <Script code = "C:=1" />
                <Repeat num_cycles="3">
                    <Sequence>
                        <Precondition if=" A==0 " else="SUCCESS"><TestA/></Precondition>
                        <KeepRunning _while="C==0" />
                        <KeepRunning _while="B==0" />
                    </Sequence>
                </Repeat>
            </Sequence>"#,
    ));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.ticks("TestA"), 1);
    t.set("A", int(1));
    t.set("B", int(1));
    t.set("C", int(0));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.ticks("TestA"), 1);
    t.set("A", int(0));
    t.set("C", int(1));
    assert_eq!(t.tick_once(), Success);
    assert_eq!(t.ticks("TestA"), 2);
}

#[test]
fn preconditions_basic() {
    let mut t = Bench::new().tree(&tree(
        r#"<Sequence>
                <Script code = "A:=1" />
                <TestA _successIf= "A==1"/>
                <TestB _successIf= "A==2"/>
                <Fallback>
                    <TestC _failureIf= "A==1"/>
                    <TestD _failureIf= "A!=1"/>
                </Fallback>
            </Sequence>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    let counts = ["TestA", "TestB", "TestC", "TestD"].map(|id| t.ticks(id));
    assert_eq!(counts, [0, 1, 0, 1]);
}

#[test]
fn preconditions_issue533() {
    let mut t = Bench::new().tree(&tree(
        r#"<Sequence>
                <TestA _skipIf="A!=1" />
                <TestB _skipIf="A!=2" _onSuccess="A=1"/>
                <TestC _skipIf="A!=3" _onSuccess="A=2"/>
            </Sequence>"#,
    ));
    t.set("A", int(3));
    let counts = |t: &Run| ["TestA", "TestB", "TestC"].map(|id| t.ticks(id));
    t.tick_once();
    assert_eq!(counts(&t), [0, 0, 1]);
    t.tick_once();
    assert_eq!(counts(&t), [0, 1, 1]);
    t.tick_once();
    assert_eq!(counts(&t), [1, 1, 1]);
}

/// The gtest's coroutine action runs for 10 ticks; a scripted leaf stands in for it.
#[test]
fn preconditions_issue585() {
    let mut b = Bench::new();
    b.scripted("CoroTest", &[Running; 10], Success);
    let mut t = b.tree(&tree(
        r#"<Sequence><Script code="A:=1" /><CoroTest _skipIf="A==1" /></Sequence>"#,
    ));
    t.tick_while_running();
    assert_eq!(t.ticks("CoroTest"), 0);
}

#[test]
fn preconditions_issue615_no_skip_when_running_a() {
    let mut t = Bench::new().tree(&tree(
        r#"<KeepRunningUntilFailure _skipIf="check == true"><AlwaysSuccess/></KeepRunningUntilFailure>"#,
    ));
    t.set("check", Value::Bool(false));
    assert_eq!(t.tick_once(), Running);
    t.set("check", Value::Bool(true));
    assert_eq!(t.tick_once(), Running);
}

#[test]
fn preconditions_issue615_no_skip_when_running_b() {
    let mut t = with_keep_running().tree(&tree(r#"<KeepRunning _skipIf="check==false"/>"#));
    t.set("check", Value::Bool(false));
    assert_eq!(t.tick_once(), Skipped);
    t.set("check", Value::Bool(true));
    assert_eq!(t.tick_once(), Running);
    t.set("check", Value::Bool(false));
    assert_eq!(t.tick_once(), Running);
}

#[test]
fn preconditions_remapping() {
    let mut b = Bench::new();
    b.leaf(
        "SimpleOutput",
        vec![PortDecl::output("output", EntryType::Bool, "written true")],
        |l| {
            l.output("output", Value::Bool(true))?;
            Ok(Success)
        },
    );
    let mut t = b.tree(
        r#"<root BTCPP_format="4" main_tree_to_execute="Main">
    <BehaviorTree ID="Main">
      <Sequence>
        <SimpleOutput  output="{param}" />
        <Script  code="value:=true" />
        <SubTree ID="Sub1" param="{param}"/>
        <SubTree ID="Sub1" param="{value}"/>
        <SubTree ID="Sub1" param="true"/>
        <TestA/>
      </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Sub1">
      <Sequence>
        <SubTree ID="Sub2" _skipIf="param != true" />
      </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Sub2">
      <TestB/>
    </BehaviorTree>
  </root>"#,
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (1, 3));
}

#[test]
fn preconditions_while_calls_on_halt() {
    let mut t = with_keep_running().tree(
        r#"<root BTCPP_format="4"><BehaviorTree ID="Main">
      <Sequence><KeepRunning _while="A==1" _onHalted="B=69" /></Sequence>
    </BehaviorTree></root>"#,
    );
    t.set("A", int(1));
    t.set("B", int(0));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.get_int("B"), 0);
    t.set("A", int(0));
    assert_eq!(t.tick_once(), Skipped);
    assert_eq!(t.get_int("B"), 69);
}

#[test]
fn preconditions_skipped_sequence() {
    let mut t = Bench::new().tree(&tree(
        r#"<Sequence><AlwaysSuccess _skipIf="skip"/></Sequence>"#,
    ));
    for (skip, expected) in [
        (true, Skipped),
        (false, Success),
        (true, Skipped),
        (false, Success),
    ] {
        t.set("skip", Value::Bool(skip));
        assert_eq!(t.tick_while_running(), expected, "skip={skip}");
    }
}
