//! `tests/gtest_blackboard.cpp`. The gtests that build `BB_TestNode` in C++ with a hand-made
//! `NodeConfig` and call `executeTick()` are one-node trees here: `assignDefaultRemapping` is
//! `{=}` on both ports, a `config.input_ports` entry is the XML attribute.

use decision_core::engine::PortDecl;
use decision_core::engine::blackboard::{EntryType, Value};

use crate::harness::*;

/// BT.CPP's `BB_TestNode`: `out_port = in_port * 2`; a missing input or a failed output
/// is an error.
fn bench() -> Bench {
    let mut b = Bench::new();
    b.leaf(
        "BB_TestNode",
        vec![
            PortDecl::input("in_port", EntryType::Int, "input"),
            PortDecl::output("out_port", EntryType::Int, "input times 2"),
        ],
        |l| {
            let v = l
                .input("in_port")
                .ok_or("BB_TestNode needs input")?
                .as_int()
                .map_err(|e| e.to_string())?;
            l.output("out_port", Value::Int(v * 2))
                .map_err(|e| format!("BB_TestNode failed output: {e}"))?;
            Ok(Success)
        },
    );
    b.say_something("SaySomething", false);
    b
}

fn tree(body: &str) -> String {
    format!(r#"<root BTCPP_format="4"><BehaviorTree ID="MainTree">{body}</BehaviorTree></root>"#)
}

#[test]
fn blackboard_test_get_inputs_from_blackboard() {
    let mut t = bench().tree_with(
        &tree(r#"<BB_TestNode in_port="{=}" out_port="{=}"/>"#),
        |bbs, root| bbs.set(root, "in_port", int(11)).unwrap(),
    );
    t.tick_once();
    assert_eq!(t.get_int("out_port"), 22);
}

#[test]
fn blackboard_test_basic_remapping() {
    let mut t = bench().tree_with(
        &tree(r#"<BB_TestNode in_port="{my_input_port}" out_port="{my_output_port}"/>"#),
        |bbs, root| bbs.set(root, "my_input_port", int(11)).unwrap(),
    );
    t.tick_once();
    assert_eq!(t.get_int("my_output_port"), 22);
}

#[test]
fn blackboard_test_get_inputs_from_text() {
    let b = bench();
    let mut missing_out = b.tree(&tree(r#"<BB_TestNode in_port="11"/>"#));
    assert!(missing_out.try_tick().is_err());

    let mut t = b.tree(&tree(r#"<BB_TestNode in_port="11" out_port="{=}"/>"#));
    t.tick_once();
    assert_eq!(t.get_int("out_port"), 22);
}

#[test]
fn blackboard_test_set_output_from_text() {
    let mut t = bench().tree(
        r#"

     <root BTCPP_format="4" >
         <BehaviorTree ID="MainTree">
            <Sequence>
                <BB_TestNode in_port="11" out_port="{my_port}"/>
                <Script code="my_port=-43" />
            </Sequence>
         </BehaviorTree>
     </root>
    "#,
    );
    t.tick_while_running();
}

#[test]
fn blackboard_test_with_factory() {
    let mut t = bench().tree(
        r#"

    <root BTCPP_format="4" >
        <BehaviorTree ID="MainTree">
            <Sequence>
                <BB_TestNode in_port="11"
                             out_port="{my_input_port}"/>

                <BB_TestNode in_port="{my_input_port}"
                             out_port="{my_input_port}" />

                <BB_TestNode in_port="{my_input_port}"
                             out_port="{my_output_port}" />
            </Sequence>
        </BehaviorTree>
    </root>"#,
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.get_int("my_input_port"), 44);
    assert_eq!(t.get_int("my_output_port"), 88);
}

#[test]
fn blackboard_test_typo_in_port_name() {
    bench().load_error(
        r#"

    <root BTCPP_format="4" >
        <BehaviorTree ID="MainTree">
             <BB_TestNode inpuuuut_port="{value}" />
        </BehaviorTree>
    </root>"#,
    );
}

#[test]
fn parser_test_issue605_whitespaces() {
    let mut t = bench().tree_main(
        r#"
  <root BTCPP_format="4" >
    <BehaviorTree ID="MySubtree">
      <Script code=" sub_value:=false " />
    </BehaviorTree>

    <BehaviorTree ID="MainTree">
      <Sequence>
        <Script code=" my_value:=true " />
        <SubTree ID="MySubtree" sub_value="{my_value}  "/>
      </Sequence>
    </BehaviorTree>
  </root> "#,
        "MainTree",
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.get("my_value").map(|v| v.as_bool()), Some(Ok(false)));
}

#[test]
fn blackboard_test_issue_set_blackboard() {
    let mut b = bench();
    b.leaf(
        "ComparisonNode",
        vec![
            PortDecl::input("first", EntryType::Int, "first"),
            PortDecl::input("second", EntryType::Int, "second"),
            PortDecl::input("operator", EntryType::Str, "operator"),
        ],
        |l| {
            let int_of = |v: Option<Value>| {
                v.ok_or("can't access input")?
                    .as_int()
                    .map_err(|e| e.to_string())
            };
            let (a, b) = (int_of(l.input("first"))?, int_of(l.input("second"))?);
            let op = l
                .input("operator")
                .ok_or("can't access input")?
                .to_string_value()
                .map_err(|e| e.to_string())?;
            let holds = match op.as_str() {
                "==" => a == b,
                "!=" => a != b,
                "<=" => a <= b,
                ">=" => a >= b,
                "<" => a < b,
                ">" => a > b,
                _ => false,
            };
            Ok(if holds { Success } else { Failure })
        },
    );
    let mut t = b.tree_main(
        r#"
  <root BTCPP_format="4" >
    <BehaviorTree ID="MySubtree">
      <ComparisonNode first="{value}" second="42" operator="==" />
    </BehaviorTree>

    <BehaviorTree ID="MainTree">
      <Sequence>
        <SetBlackboard value="42" output_key="value" />
        <SubTree ID="MySubtree" value="{value}  "/>
      </Sequence>
    </BehaviorTree>
  </root> "#,
        "MainTree",
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.get_int("value"), 42);
}

#[test]
fn blackboard_test_null_output_remapping() {
    // `config.output_ports["out_port"] = ""`: setOutput fails, so the node throws; here the
    // empty output port is refused at load or at the tick.
    let b = bench();
    let failed = match b.try_tree_with(
        &tree(r#"<BB_TestNode in_port="{my_input_port}" out_port=""/>"#),
        |bbs, root| bbs.set(root, "my_input_port", int(11)).unwrap(),
    ) {
        Err(_) => true,
        Ok(mut t) => t.try_tick().is_err(),
    };
    assert!(failed);
}

#[test]
fn blackboard_test_root_blackboard() {
    let mut t = bench().tree_main(
        r#"
  <root BTCPP_format="4" >
    <BehaviorTree ID="SubA">
      <Sequence>
        <SubTree ID="SubB" />
        <Script code=" @var3:=3 " />
      </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="SubB">
      <Sequence>
        <SaySomething message="{@msg}" />
        <Script code=" @var4:=4 " />
      </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="Sub_Issue823">
      <BB_TestNode in_port="2" out_port="{@var5}" />
    </BehaviorTree>

    <BehaviorTree ID="MainTree">
      <Sequence>
        <Script code=" msg:='hello' " />
        <SubTree ID="SubA" />

        <Script code="@var5:=0" />
        <SubTree ID="Sub_Issue823" />

        <Script code=" var1:=1 " />
        <Script code=" @var2:=2 " />
      </Sequence>
    </BehaviorTree>
  </root> "#,
        "MainTree",
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.get_int("var1"), 1);
    assert_eq!(t.get_int("var2"), 2);
    assert_eq!(t.get_int("var3"), 3);
    assert_eq!(t.get_int("var4"), 4);
    assert_eq!(t.get_int("var5"), 4);
}

#[test]
fn blackboard_test_get_locked_port_content_with_default_issue942() {
    let mut b = bench();
    b.leaf(
        "ActionWithLockedPort",
        vec![PortDecl {
            default: Some("{=}"),
            ..PortDecl::inout("value", EntryType::Int, "A value with default BB remap")
        }],
        |l| match l.output("value", int(42)) {
            Ok(()) => Ok(Success),
            Err(_) => Ok(Failure),
        },
    );
    let mut t = b.tree(
        r#"
    <root BTCPP_format="4" >
      <BehaviorTree ID="Main">
        <ActionWithLockedPort/>
      </BehaviorTree>
    </root>"#,
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.get_int("value"), 42);
}
