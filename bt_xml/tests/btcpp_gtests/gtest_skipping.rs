//! `tests/gtest_skipping.cpp`.

use decision_core::engine::blackboard::{EntryType, Value};

use crate::harness::*;

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">{body}</BehaviorTree></root>"#)
}

#[test]
fn sequence() {
    let mut t = Bench::new().tree(&tree(
        r#"<Sequence>
                <Script code = "A:=1"/>
                <TestA _successIf="A==2" _failureIf="A!=1" _skipIf="A==1"/>
                <TestB/>
            </Sequence>"#,
    ));
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (0, 1));
}

#[test]
fn skip_all() {
    let mut t = Bench::new().tree(&tree(
        r#"<Sequence>
                <TestA _skipIf="A==1"/>
                <TestB _skipIf="A<2"/>
                <TestC _skipIf="A>0"/>
            </Sequence>"#,
    ));
    t.set("A", int(1));
    let status = t.tick_while_running();
    let counts = ["TestA", "TestB", "TestC"].map(|id| t.ticks(id));
    assert_eq!(counts, [0, 0, 0]);
    assert_eq!(status, Skipped);
}

#[test]
fn skip_subtree() {
    let mut t = Bench::new().tree(
        r#"<root BTCPP_format="4" main_tree_to_execute="main">
        <BehaviorTree ID="main">
            <Sequence>
                <TestA/>
                <Script code=" data:=true "/>
                <SubTree ID="sub" _skipIf="data"/>
            </Sequence>
        </BehaviorTree>
        <BehaviorTree ID="sub"><TestB/></BehaviorTree>
    </root>"#,
    );
    t.set("A", int(1));
    let status = t.tick_while_running();
    assert_eq!((t.ticks("TestA"), t.ticks("TestB")), (1, 0));
    assert_eq!(status, Success);
}

/// The gtest only checks that ticking does not crash or hang.
#[test]
fn reactive_single_child() {
    let mut t = Bench::new().tree_with(
        &tree(r#"<ReactiveSequence><AlwaysSuccess _skipIf="flag"/></ReactiveSequence>"#),
        |bbs, root| {
            bbs.create(root, "flag", EntryType::Bool).expect("create");
            bbs.set(root, "flag", Value::Bool(true)).expect("set");
        },
    );
    t.tick_while_running();
}

/// `AsyncActionTest` (a 100 ms threaded action ticked every 15 ms) is an action running for
/// 6 ticks here.
#[test]
fn skipping_reactive_sequence() {
    let mut b = Bench::new();
    b.async_action("AsyncActionTest", 6, Success);
    let noskip = tree(
        r#"<ReactiveSequence>
            <Script code=" value:=50 "/>
            <TestA _skipIf="value < 25"/>
            <AsyncActionTest/>
          </ReactiveSequence>"#,
    );
    let skip = tree(
        r#"<ReactiveSequence>
            <Script code=" value:=10 "/>
            <TestB _skipIf="value < 25"/>
            <AsyncActionTest/>
          </ReactiveSequence>"#,
    );
    let mut expected_a = 0;
    let mut ticks = (0, 0);
    for (k, xml) in [noskip, skip].iter().enumerate() {
        let mut t = b.tree(xml);
        for _ in 0..3 {
            let mut status = Running;
            while status == Running {
                status = t.tick_once();
                if k == 0 {
                    expected_a += 1;
                }
                t.sleep_ms(15);
            }
            assert_eq!(status, Success);
        }
        ticks.0 += t.ticks("TestA");
        ticks.1 += t.ticks("TestB");
    }
    assert_eq!(ticks, (expected_a, 0));
}

#[test]
fn while_skip() {
    let noskip = tree(
        r#"<Sequence><Script code=" doit:=true "/><Sequence><TestA _while="doit"/></Sequence></Sequence>"#,
    );
    let skip = tree(
        r#"<Sequence><Script code=" doit:=false "/><Sequence><TestB _while="doit"/></Sequence></Sequence>"#,
    );
    let mut ticks = (0, 0);
    for xml in [noskip, skip] {
        let mut t = Bench::new().tree(&xml);
        assert_eq!(t.tick_while_running(), Success);
        ticks.0 += t.ticks("TestA");
        ticks.1 += t.ticks("TestB");
    }
    assert_eq!(ticks, (1, 0));
}
