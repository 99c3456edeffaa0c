//! `tests/gtest_subtree.cpp`.

use decision_core::engine::PortDecl;
use decision_core::engine::blackboard::{EntryType, Value};

use crate::harness::*;

fn bench() -> Bench {
    let mut b = Bench::new();
    b.say_something("SaySomething", false);
    b.say_something("PrintToConsole", true);
    b.leaf(
        "CopyPorts",
        vec![
            PortDecl::input("in", EntryType::Str, "copied"),
            PortDecl::output("out", EntryType::Str, "copy"),
        ],
        |l| {
            let msg = l.input("in").ok_or("missing required input [message]")?;
            l.output("out", msg)?;
            Ok(Success)
        },
    );
    // Reads `ros_node` from its own blackboard (the gtest's node reads it in its constructor
    // and at each tick).
    b.leaf("NaughtyNav2Node", vec![], |l| {
        let (bbs, scope) = l.blackboard();
        match bbs.get(scope, "ros_node") {
            Some(Value::Str(_)) => Ok(Success),
            other => Err(format!("no string `ros_node`: {other:?}")),
        }
    });
    b.leaf(
        "Assert",
        vec![PortDecl::input("condition", EntryType::Bool, "asserted")],
        |l| match l.input("condition").map(|v| v.as_bool()) {
            Some(Ok(true)) => Ok(Success),
            Some(Ok(false)) => Ok(Failure),
            other => Err(format!("bad condition: {other:?}")),
        },
    );
    b
}

#[test]
fn sibling_ports_issue_72() {
    let mut t = bench().tree(
        r#"<root BTCPP_format="4" main_tree_to_execute="MainTree" >
    <BehaviorTree ID="MainTree">
        <Sequence>
            <Script code = " myParam = 'hello' " />
            <SubTree ID="mySubtree" param="{myParam}" />
            <Script code = " myParam = 'world' " />
            <SubTree ID="mySubtree" param="{myParam}" />
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="mySubtree">
            <SaySomething message="{param}" />
    </BehaviorTree>
</root>"#,
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.values("SaySomething"), ["hello", "world"].map(text));
}

const COPY_SUBTREE: &str = r#"
    <BehaviorTree ID="CopySubtree">
            <CopyPorts in="{in_arg}" out="{out_arg}"/>
    </BehaviorTree>"#;

#[test]
fn good_remapping() {
    let mut t = bench().tree(&format!(
        r#"<root BTCPP_format="4" main_tree_to_execute="MainTree">
    <BehaviorTree ID="MainTree">
        <Sequence>
            <Script code = " thoughts = 'hello' " />
            <SubTree ID="CopySubtree" in_arg="{{thoughts}}" out_arg="{{greetings}}"/>
            <SaySomething  message="{{greetings}}" />
        </Sequence>
    </BehaviorTree>{COPY_SUBTREE}
</root>"#
    ));
    assert_eq!(t.tick_while_running(), Success);
}

#[test]
fn bad_remapping() {
    let b = bench();
    for remap in [r#"out_arg="{greetings}""#, r#"in_arg="{thoughts}""#] {
        let mut t = b.tree_main(
            &format!(
                r#"<root BTCPP_format="4">
    <BehaviorTree ID="MainTree">
        <Sequence>
            <Script code = " thoughts='hello' " />
            <SubTree ID="CopySubtree" {remap}/>
            <SaySomething  message="{{greetings}}" />
        </Sequence>
    </BehaviorTree>{COPY_SUBTREE}
</root>"#
            ),
            "MainTree",
        );
        assert!(t.try_tick_while_running().is_err(), "{remap}");
    }
}

#[test]
fn subtree_plus_a() {
    let mut t = bench().tree_main(
        r#"<root BTCPP_format="4">
    <BehaviorTree ID="MainTree">
        <Sequence>
            <Script code = "myParam = 'Hello' " />
            <SubTree ID="mySubtree" param="{myParam}" />
            <SubTree ID="mySubtree" param="World" />
            <Script code = "param = 'Auto remapped' " />
            <SubTree ID="mySubtree" _autoremap="1"  />
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="mySubtree">
            <SaySomething message="{param}" />
    </BehaviorTree>
</root>"#,
        "MainTree",
    );
    assert_eq!(t.tick_while_running(), Success);
}

#[test]
fn subtree_plus_b() {
    let mut t = bench().tree_main(
        r#"<root BTCPP_format="4">
    <BehaviorTree ID="MainTree">
        <Sequence>
            <Script code = "myParam = 'Hello World'; param3='Auto remapped' " />
            <SubTree ID="mySubtree" _autoremap="1" param1="{myParam}" param2="Straight Talking" />
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="mySubtree">
        <Sequence>
            <SaySomething message="{param1}" />
            <SaySomething message="{param2}" />
            <SaySomething message="{param3}" />
        </Sequence>
    </BehaviorTree>
</root>"#,
        "MainTree",
    );
    assert_eq!(t.tick_while_running(), Success);
}

#[test]
fn script_remap() {
    let mut t = bench().tree_main(
        r#"<root BTCPP_format="4">
    <BehaviorTree ID="MainTree">
        <Sequence>
            <Script code = "value:=0" />
            <SubTree ID="mySubtree" value="{value}"  />
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="mySubtree">
        <Script code = "value:=1" />
    </BehaviorTree>
</root>"#,
        "MainTree",
    );
    t.tick_once();
    assert_eq!(t.get_int("value"), 1);
}

const NAV2_TREES: &str = r#"
    <BehaviorTree ID="Tree2">
        <SubTree ID="Tree3" _autoremap="true"/>
    </BehaviorTree>
    <BehaviorTree ID="Tree3">
        <SubTree ID="Talker" _autoremap="true"/>
    </BehaviorTree>"#;

#[test]
fn subtree_nav2_issue563() {
    let xml = format!(
        r#"<root BTCPP_format="4">
    <BehaviorTree ID="Tree1">
      <Sequence>
        <SetBlackboard output_key="the_message" value="hello world"/>
        <SubTree ID="Tree2" _autoremap="true"/>
        <SaySomething message="{{reply}}" />
      </Sequence>
    </BehaviorTree>{NAV2_TREES}
    <BehaviorTree ID="Talker">
      <Sequence>
        <SaySomething message="{{the_message}}" />
        <Script code=" reply:='done' "/>
        <NaughtyNav2Node/>
      </Sequence>
    </BehaviorTree>
</root>"#
    );
    let mut t = bench()
        .try_tree_main(&xml, Some("Tree1"), |bbs, root| {
            assert!(
                bbs.set(root, "ros_node", text("nav2_shouldnt_do_this"))
                    .is_ok()
            );
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.tick_once(), Success);
}

#[test]
fn subtree_nav2_issue724() {
    let xml = r#"<root BTCPP_format="4">
    <BehaviorTree ID="Tree1">
      <Sequence><SubTree ID="Tree2" ros_node="{ros_node}"/></Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Tree2"><SubTree ID="Tree3" ros_node="{ros_node}"/></BehaviorTree>
    <BehaviorTree ID="Tree3"><SubTree ID="Talker" ros_node="{ros_node}"/></BehaviorTree>
    <BehaviorTree ID="Talker"><Sequence><NaughtyNav2Node/></Sequence></BehaviorTree>
</root>"#;
    let mut t = bench()
        .try_tree_main(xml, Some("Tree1"), |bbs, root| {
            assert!(
                bbs.set(root, "ros_node", text("nav2_shouldnt_do_this"))
                    .is_ok()
            );
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.tick_once(), Success);
}

#[test]
fn subtree_issue592() {
    let mut t = bench().tree_main(
        r#"<root BTCPP_format="4">
  <BehaviorTree ID="Outer_Tree">
    <Sequence>
      <Script code="variable := 'test'"/>
      <Script code="var := 'test'"/>
      <SubTree ID="Inner_Tree" _autoremap="false" variable="{var}" />
      <SubTree ID="Inner_Tree" _autoremap="true"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Inner_Tree">
    <Sequence><TestA _skipIf="variable != 'test'"/></Sequence>
  </BehaviorTree>
</root>"#,
        "Outer_Tree",
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 2);
}

/// The gtest only ticks the tree (its `Assert` would throw on a missing value).
#[test]
fn issue653_set_blackboard() {
    let mut t = bench().tree(
        r#"<root main_tree_to_execute = "MainTree" BTCPP_format="4">
  <BehaviorTree ID="MainTree">
    <Sequence>
      <SubTree ID="Init" test="{test}" />
      <Assert condition="{test}" />
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Init">
    <SetBlackboard output_key="test" value="true"/>
  </BehaviorTree>
</root>"#,
    );
    assert!(t.try_tick_while_running().is_ok());
}

#[test]
fn remapping_issue696() {
    let mut t = bench().tree_main(
        r#"<root BTCPP_format="4">
    <BehaviorTree ID="Subtree1">
      <Sequence>
        <PrintToConsole message="{msg1}"/>
        <PrintToConsole message="{msg2}"/>
      </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Subtree2">
      <Sequence>
        <SubTree ID="Subtree1" msg1="foo1" _autoremap="true"/>
        <SubTree ID="Subtree1" msg1="foo2" _autoremap="true"/>
      </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="MainTree">
      <SubTree ID="Subtree2" msg2="bar"/>
    </BehaviorTree>
  </root>"#,
        "MainTree",
    );
    t.tick_while_running();
    assert_eq!(
        t.values("PrintToConsole"),
        ["foo1", "bar", "foo2", "bar"].map(text)
    );
}

#[test]
fn private_auto_remapping() {
    let mut t = bench().tree_main(
        r#"<root BTCPP_format="4">
    <BehaviorTree ID="Subtree">
      <Sequence>
        <SetBlackboard output_key="public_value"   value="hello"/>
        <SetBlackboard output_key="_private_value" value="world"/>
      </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="MainTree">
      <Sequence>
        <SubTree ID="Subtree" _autoremap="true"/>
        <PrintToConsole message="{public_value}"/>
        <PrintToConsole message="{_private_value}"/>
      </Sequence>
    </BehaviorTree>
  </root>"#,
        "MainTree",
    );
    assert_eq!(t.tick_while_running(), Failure);
    assert_eq!(t.values("PrintToConsole"), [text("hello")]);
}

#[test]
fn subtree_name_not_registered() {
    bench().load_error(
        r#"<root BTCPP_format="4" main_tree_to_execute="MainTree">
    <BehaviorTree ID="PrintToConsole">
      <Sequence><PrintToConsole message="world"/></Sequence>
    </BehaviorTree>
    <BehaviorTree ID="MainTree">
      <Sequence>
        <PrintToConsole message="hello"/>
        <SubTree ID="PrintToConsole"/>
      </Sequence>
    </BehaviorTree>
  </root>"#,
    );
}

#[test]
fn recursive_subtree() {
    bench().load_error(
        r#"<root BTCPP_format="4">
      <BehaviorTree ID="MainTree">
         <Sequence name="root"><AlwaysSuccess/><SubTree ID="MainTree" /></Sequence>
      </BehaviorTree>
  </root>"#,
    );
}

#[test]
fn recursive_cycle() {
    bench().load_error(
        r#"<root BTCPP_format="4" main_tree_to_execute="MainTree">
      <BehaviorTree ID="MainTree">
         <Sequence name="root"><AlwaysSuccess/><SubTree ID="TreeA" /></Sequence>
      </BehaviorTree>
      <BehaviorTree ID="TreeA">
         <Sequence name="root"><AlwaysSuccess/><SubTree ID="TreeB" /></Sequence>
      </BehaviorTree>
      <BehaviorTree ID="TreeB">
         <Sequence name="root"><AlwaysSuccess/><SubTree ID="MainTree" /></Sequence>
      </BehaviorTree>
  </root>"#,
    );
}

#[test]
fn substring_tree_ids_are_not_recursive() {
    bench().tree(
        r#"<root BTCPP_format="4" main_tree_to_execute="Tree">
      <BehaviorTree ID="Tree"><SubTree ID="TreeABC" /></BehaviorTree>
      <BehaviorTree ID="TreeABC"><AlwaysSuccess/></BehaviorTree>
  </root>"#,
    );
}

fn workers(names: [&str; 2], parent: &str) -> String {
    format!(
        r#"<root BTCPP_format="4" main_tree_to_execute="MainTree">
    <BehaviorTree ID="MainTree">
        <{parent}>
            <SubTree ID="Worker" {}/>
            <SubTree ID="Worker" {}/>
        </{parent}>
    </BehaviorTree>
    <BehaviorTree ID="Worker"><AlwaysSuccess name="do_work"/></BehaviorTree>
</root>"#,
        names[0], names[1]
    )
}

#[test]
fn duplicate_sub_tree_name_groot2_issue56() {
    bench().load_error(&workers(
        [r#"name="my_worker""#, r#"name="my_worker""#],
        "ParallelAll",
    ));
}

#[test]
fn duplicate_sub_tree_name_error_message() {
    let e = bench().load_error(&workers(
        [r#"name="my_task""#, r#"name="my_task""#],
        "Sequence",
    ));
    assert!(e.contains("Duplicate SubTree path"), "{e}");
    assert!(e.contains("my_task"), "{e}");
}

/// The gtest also checks that every node's path is unique (not observable here).
#[test]
fn unique_sub_tree_names_works_correctly() {
    let mut t = bench().tree(&workers(
        [r#"name="worker_1""#, r#"name="worker_2""#],
        "ParallelAll",
    ));
    assert_eq!(t.tick_while_running(), Success);
}

#[test]
fn no_name_attribute_auto_generates_unique_paths() {
    let mut t = bench().tree(&workers(["", ""], "ParallelAll"));
    assert_eq!(t.tick_while_running(), Success);
}

#[test]
fn nested_duplicate_names_should_fail() {
    bench().load_error(
        r#"<root BTCPP_format="4" main_tree_to_execute="MainTree">
    <BehaviorTree ID="MainTree">
        <Sequence>
            <SubTree ID="Level1" name="task"/>
            <SubTree ID="Level1" name="task"/>
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Level1"><AlwaysSuccess name="work"/></BehaviorTree>
</root>"#,
    );
}

#[test]
fn literal_numeric_ports_preserve_type() {
    let mut t = bench().tree(
        r#"<root BTCPP_format="4" main_tree_to_execute="MainTree">
    <BehaviorTree ID="MainTree">
        <Sequence>
            <SubTree ID="DoMath" int_val="42" dbl_val="3.14" str_val="hello"
                     remapped_val="{from_parent}" />
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="DoMath">
        <Sequence>
            <ScriptCondition code=" int_val + 1 == 43 " />
            <ScriptCondition code=" dbl_val > 3.0 " />
            <ScriptCondition code=" remapped_val + 1 == 101 " />
        </Sequence>
    </BehaviorTree>
</root>"#,
    );
    t.set("from_parent", int(100));
    assert_eq!(t.tick_while_running(), Success);
}
