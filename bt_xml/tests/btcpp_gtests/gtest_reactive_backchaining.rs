//! `tests/gtest_reactive_backchaining.cpp`. The `TreeObserver` statistics are counted from
//! our per-tick trace (a node's result in each tick it was ticked).

use decision_core::engine::blackboard::{ScopeId, Value};
use decision_core::engine::{Behavior, Children, Cx, Fault, NodeId, NodeModel, NodeState, Status};

use crate::harness::*;

/// `AsyncTestAction`: RUNNING on its first two ticks, then writes `true` to its key (in its
/// own blackboard) and succeeds.
struct AsyncTestAction {
    key: &'static str,
    counter: u32,
}

impl Behavior<Ctx> for AsyncTestAction {
    fn tick(&mut self, cx: &mut Cx<'_, Ctx>) -> Result<Status, Fault> {
        if cx.state() != NodeState::Running {
            self.counter = 0;
            return Ok(Running);
        }
        self.counter += 1;
        if self.counter == 2 {
            let scope = cx.scope();
            cx.blackboard_mut()
                .set(scope, self.key, Value::Bool(true))
                .map_err(|e| e.to_string())?;
            return Ok(Success);
        }
        Ok(Running)
    }
}

fn bench() -> Bench {
    let mut b = Bench::new();
    for (id, key) in [
        ("IsWarm", "is_warm"),
        ("IsHoldingJacket", "holding_jacket"),
        ("IsNearCloset", "near_closet"),
    ] {
        b.leaf(id, vec![], move |l| {
            let (bbs, scope) = l.blackboard();
            match bbs.get(scope, key).map(Value::as_bool) {
                Some(Ok(true)) => Ok(Success),
                Some(Ok(false)) => Ok(Failure),
                other => Err(format!("`{key}` is not a bool: {other:?}")),
            }
        });
    }
    for (id, key) in [("WearJacket", "is_warm"), ("GrabJacket", "holding_jacket")] {
        b.registry
            .register(id, NodeModel::new(Children::None, vec![]), move |_| {
                Ok(Box::new(AsyncTestAction { key, counter: 0 }) as Box<dyn Behavior<Ctx>>)
            });
    }
    b
}

fn get_bool(t: &Run, scope: u32, key: &str) -> bool {
    match t.tree.blackboard().get(ScopeId(scope), key) {
        Some(Value::Bool(b)) => *b,
        other => panic!("`{key}` is not a bool: {other:?}"),
    }
}

fn set_bool(t: &mut Run, scope: u32, key: &str, value: bool) {
    let r = t
        .tree
        .blackboard_mut()
        .set(ScopeId(scope), key, Value::Bool(value));
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn ensure_warm() {
    let mut t = bench().tree(
        r#"<root BTCPP_format="4">
    <BehaviorTree ID="EnsureWarm">
      <ReactiveFallback>
        <IsWarm name="warm"/>
        <ReactiveSequence>
          <IsHoldingJacket name="jacket" />
          <WearJacket name="wear" />
        </ReactiveSequence>
      </ReactiveFallback>
    </BehaviorTree>
  </root>"#,
    );
    set_bool(&mut t, 0, "is_warm", false);
    set_bool(&mut t, 0, "holding_jacket", true);
    // Results per node (preorder: warm 1, jacket 3, wear 4) over the ticks.
    let mut seen: Vec<[Option<Status>; 3]> = Vec::new();
    let mut tick = |t: &mut Run| {
        let s = t.tick_once();
        let trace = t.tree.trace();
        seen.push([1, 3, 4].map(|n| trace.status_of(NodeId(n))));
        s
    };
    assert_eq!(tick(&mut t), Running);
    assert!(!get_bool(&t, 0, "is_warm"));
    assert_eq!(tick(&mut t), Running);
    assert!(!get_bool(&t, 0, "is_warm"));
    assert_eq!(tick(&mut t), Success);
    assert!(get_bool(&t, 0, "is_warm"));
    assert_eq!(tick(&mut t), Success);
    let count = |k: usize, s: Status| seen.iter().filter(|r| r[k] == Some(s)).count();
    let ticked = |k: usize| seen.iter().filter(|r| r[k].is_some()).count();
    assert_eq!((count(0, Failure), count(0, Success)), (3, 1));
    assert_eq!((ticked(1), count(1, Success)), (3, 3));
    assert_eq!(count(2, Success), 1);
}

/// `tree.subtrees[1]->blackboard` is the scope of the `EnsureHoldingJacket` subtree, the
/// second scope our blackboards create.
#[test]
fn ensure_warm_with_ensure_holding_hacket() {
    let mut t = bench().tree(
        r#"<root BTCPP_format="4" main_tree_to_execute="EnsureWarm">
    <BehaviorTree ID="EnsureWarm">
      <ReactiveFallback>
        <IsWarm />
        <ReactiveSequence>
          <SubTree ID="EnsureHoldingJacket" />
          <WearJacket />
        </ReactiveSequence>
      </ReactiveFallback>
    </BehaviorTree>
    <BehaviorTree ID="EnsureHoldingJacket">
      <ReactiveFallback>
        <IsHoldingJacket />
        <ReactiveSequence>
          <IsNearCloset />
          <GrabJacket />
        </ReactiveSequence>
      </ReactiveFallback>
    </BehaviorTree>
  </root>"#,
    );
    set_bool(&mut t, 0, "is_warm", false);
    set_bool(&mut t, 1, "holding_jacket", false);
    set_bool(&mut t, 1, "near_closet", true);
    assert_eq!(t.tick_once(), Running);
    assert!(!get_bool(&t, 0, "is_warm"));
    assert!(!get_bool(&t, 1, "holding_jacket"));
    assert!(get_bool(&t, 1, "near_closet"));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.tick_once(), Running);
    assert!(!get_bool(&t, 0, "is_warm"));
    assert!(get_bool(&t, 1, "holding_jacket"));
    assert_eq!(t.tick_once(), Running);
    assert_eq!(t.tick_once(), Success);
    assert!(get_bool(&t, 0, "is_warm"));
    assert_eq!(t.tick_once(), Success);
}
