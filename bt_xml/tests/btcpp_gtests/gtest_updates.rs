//! `tests/gtest_updates.cpp` (WasEntryUpdated, SkipUnlessUpdated). The gtest registers the
//! `Check` tree and the main tree from two texts; here they share one document.

use crate::harness::*;

const CHECK: &str = r#"
    <BehaviorTree ID="Check">
      <Sequence>
        <Fallback>
          <WasEntryUpdated entry="A"/>
          <TestA/>
        </Fallback>
        <SkipUnlessUpdated entry="A">
          <TestB/>
        </SkipUnlessUpdated>
      </Sequence>
    </BehaviorTree>"#;

fn run(main: &str) -> (Status, u32, u32) {
    let xml = format!(
        r#"<root BTCPP_format="4" main_tree_to_execute="Main">{CHECK}
      <BehaviorTree ID="Main">{main}</BehaviorTree></root>"#
    );
    let mut t = Bench::new().tree(&xml);
    let status = t.tick_while_running();
    (status, t.ticks("TestA"), t.ticks("TestB"))
}

#[test]
fn no_entry() {
    let r = run(r#"<Sequence><SubTree ID="Check" _autoremap="true"/></Sequence>"#);
    assert_eq!(r, (Success, 1, 0));
}

#[test]
fn initialized() {
    let r = run(
        r#"<Sequence><Script code="A:=1;B:=1"/><SubTree ID="Check" _autoremap="true"/></Sequence>"#,
    );
    assert_eq!(r, (Success, 0, 1));
}

#[test]
fn update_once() {
    let r = run(r#"<Sequence>
          <Script code="A:=1"/>
          <Repeat num_cycles="2"><SubTree ID="Check" _autoremap="true"/></Repeat>
        </Sequence>"#);
    assert_eq!(r, (Success, 1, 1));
}

#[test]
fn update_twice() {
    let r = run(r#"<Repeat num_cycles="2">
          <Sequence>
            <Script code="A:=1"/>
            <SubTree ID="Check" _autoremap="true"/>
          </Sequence>
        </Repeat>"#);
    assert_eq!(r, (Success, 0, 2));
}
