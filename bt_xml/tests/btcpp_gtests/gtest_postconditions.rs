//! `tests/gtest_postconditions.cpp`.

use crate::harness::*;

#[test]
fn basic_test() {
    let mut t = Bench::new().tree(
        r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">
            <Sequence>
                <Script code = "A:=1; B:=1; C:=1; D:=1" />
                <AlwaysSuccess _onSuccess="B=42"/>
                <ForceSuccess>
                    <AlwaysSuccess _failureIf="A!=0" _onFailure="C=42"/>
                </ForceSuccess>
                <ForceSuccess>
                    <AlwaysFailure _onFailure="D=42"/>
                </ForceSuccess>
            </Sequence>
        </BehaviorTree></root>"#,
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(
        (t.get_int("B"), t.get_int("C"), t.get_int("D")),
        (42, 42, 42)
    );
}

#[test]
fn issue539() {
    let mut t = Bench::new().tree(
        r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">
        <Sequence>
          <Script code = "x:=0; y:=0" />
          <RetryUntilSuccessful num_attempts="5">
            <AlwaysFailure _onFailure="x  += 1"  _post="y  += 1" />
          </RetryUntilSuccessful>
        </Sequence>
      </BehaviorTree></root>"#,
    );
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!((t.get_int("x"), t.get_int("y")), (5, 5));
}

#[test]
fn issue601() {
    let mut t = Bench::new().tree(
        r#"<root BTCPP_format="4"><BehaviorTree ID="test_tree">
      <Sequence>
        <Script code="test := 'start'"/>
          <Parallel failure_count="1" success_count="-1">
            <Sleep msec="1000" _onHalted="test = 'halted'" _post="test = 'post'"/>
            <AlwaysFailure/>
          </Parallel>
      </Sequence>
    </BehaviorTree></root>"#,
    );
    t.tick_while_running();
    assert_eq!(t.get_str("test"), "halted");
}
