//! `tests/script_parser_test.cpp`: the expressions run on a blackboard environment as the
//! gtest's `ParseScriptAndExecute` / `GetScriptResult` do (each text parsed and bound, then
//! its statements run in order; the last one's value is the result). Results are compared as
//! the gtest's `cast<T>` reads them: numbers as doubles, strings as text.

use decision_core::engine::PortDecl;
use decision_core::engine::blackboard::{Blackboards, EntryType, ScopeId, Value};
use decision_core::engine::script::Script;

use crate::harness::*;

/// What a script must give.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// A number equal to this.
    N(f64),
    /// A number different from this.
    Not(f64),
    /// This string.
    S(&'static str),
    /// Any value (the gtest only checks it has one).
    Some,
    /// An error, at parse or at run time.
    Err,
    /// A parse error (`ValidateScript` is false).
    Invalid,
    /// Parses (`ValidateScript` is true).
    Valid,
}

use Want::*;

struct Env {
    bbs: Blackboards,
    root: ScopeId,
}

impl Env {
    fn new() -> Self {
        let mut bbs = Blackboards::new();
        let root = bbs.new_root();
        Self { bbs, root }
    }

    fn run(&mut self, src: &str) -> Result<Value, String> {
        let script = Script::compile(src, &mut self.bbs, self.root).map_err(|e| e.message)?;
        script.eval(&mut self.bbs).map_err(|e| e.message)
    }

    #[track_caller]
    fn check(&mut self, cases: &[(&str, Want)]) {
        for &(src, want) in cases {
            let got = match want {
                Invalid | Valid => {
                    let parsed = Script::parse(src).is_ok();
                    assert_eq!(parsed, matches!(want, Valid), "{src:?} parses: {parsed}");
                    continue;
                }
                _ => self.run(src),
            };
            let ok = match (want, &got) {
                (N(x), Ok(v)) => v.as_double().is_ok_and(|d| d == x),
                (Not(x), Ok(v)) => v.as_double().is_ok_and(|d| d != x),
                (S(s), Ok(Value::Str(v))) => v == s,
                (Some, Ok(_)) | (Err, Result::Err(_)) => true,
                _ => false,
            };
            assert!(ok, "{src:?}: want {want:?}, got {got:?}");
        }
    }

    #[track_caller]
    fn var(&self, key: &str) -> Value {
        match self.bbs.get(self.root, key) {
            Option::Some(v) => v.clone(),
            None => panic!("no entry `{key}`"),
        }
    }

    fn num(&self, key: &str) -> f64 {
        self.var(key).as_double().unwrap_or(f64::NAN)
    }
}

#[test]
#[allow(clippy::approx_constant)] // 3.14 is the gtest's literal
fn any_types() {
    Env::new().check(&[
        ("628", N(628.0)),
        ("-628", N(-628.0)),
        ("0x100", N(256.0)),
        ("0X100", N(256.0)),
        ("3.14", N(3.14)),
        ("-3.14", N(-3.14)),
        ("3.14e2", N(314.0)),
        ("3.14e-2", N(0.0314)),
        ("3e2", N(300.0)),
        ("3e-2", N(0.03)),
        ("'hello world '", S("hello world ")),
        ("true", N(1.0)),
        ("false", N(0.0)),
    ]);
}

#[test]
fn any_types_failing() {
    let mut env = Env::new();
    env.check(&[
        ("0X100g", Invalid),
        ("0X100.", Invalid),
        ("3foo", Invalid),
        ("65.", Invalid),
        ("65.43foo", Invalid),
        ("foo", Valid),
        ("foo", Err),
    ]);
}

#[test]
fn equations() {
    let mut env = Env::new();
    env.check(&[("x:= 3; y:=5; x+y", N(8.0))]);
    assert_eq!((env.num("x"), env.num("y")), (3.0, 5.0));
    for (src, result) in [
        ("x+=1", 4.0),
        ("x += 1", 5.0),
        ("x-=1", 4.0),
        ("x -= 1", 3.0),
        ("x*=2", 6.0),
    ] {
        env.check(&[(src, N(result))]);
        assert_eq!(env.num("x"), result, "{src}");
    }
    env.check(&[("-x", N(-6.0)), ("x/=2", N(3.0))]);
    assert_eq!(env.num("x"), 3.0);
    env.check(&[
        ("y", N(5.0)),
        ("y/2", N(2.5)),
        ("y*2", N(10.0)),
        ("y-x", N(2.0)),
        ("y & x", N(f64::from(5 & 3))),
        ("y | x", N(f64::from(5 | 3))),
        ("y ^ x", N(f64::from(5 ^ 3))),
        ("y ^ 5.1", Err),
        ("A:='hello'; B:=' '; C:='world'; A+B+C", S("hello world")),
    ]);
    assert_eq!(
        ["A", "B", "C"].map(|k| env.var(k)),
        ["hello", " ", "world"].map(text)
    );
    env.check(&[("A= '   right'; B= ' center '; C= 'left    '  ", Some)]);
    assert_eq!(
        ["A", "B", "C"].map(|k| env.var(k)),
        ["   right", " center ", "left    "].map(text)
    );
    env.check(&[
        // can't change the type, once created
        ("x=A", Err),
        ("x='msg'", Err),
        ("A=1.0", Err),
        // invalid assignments
        (" 'hello' = 'world' ", Err),
        (" 'hello' = 2.0 ", Err),
        (" 3.0 = 2.0 ", Err),
        ("new_var=69", Err),
    ]);
    assert!(!env.bbs.contains(env.root, "new_var"));
    env.check(&[
        ("x < y", N(1.0)),
        ("y > x", N(1.0)),
        ("y != x", N(1.0)),
        ("y == x", N(0.0)),
        (" 'hello' == 'hello'", N(1.0)),
        (" 'hello' != 'world'", N(1.0)),
        (" 'hello' < 'world'", N(1.0)),
        (" 'hello' > 'world'", N(0.0)),
        ("x > y", Not(1.0)),
        ("y < x", Not(1.0)),
        ("y == x", Not(1.0)),
        ("y == x ? 'T' : 'F'", S("F")),
        ("y != x ? 'T' : 'F'", S("T")),
        ("y == x", N(0.0)),
        ("y == 5", N(1.0)),
        ("x == 3", N(1.0)),
        (" true ", N(1.0)),
        (" 'true' ", S("true")),
        ("v1:= true; v2:= false", Some),
    ]);
    assert_eq!((env.num("v1"), env.num("v2")), (1.0, 0.0));
    env.check(&[
        (" v2 = true ", N(1.0)),
        (" v2 = !false ", N(1.0)),
        (" v2 = !v2 ", N(0.0)),
        ("v1 && v2", N(0.0)),
        ("v1 || v2", N(1.0)),
        ("(y == x) && (x == 3)", N(0.0)),
        ("(y == x) || (x == 3)", N(1.0)),
        (" y == x  &&  x == 3 ", N(0.0)),
        (" y == x  ||  x == 3 ", N(1.0)),
        // a string is converted to a number
        (" par1:='3'; par2:=3; par1==par2", N(1.0)),
        (" par1:='3'; par2:=4; par1!=par2", N(1.0)),
    ]);
}

/// The gtest creates `x` as a `uint8_t` entry without a value; ours is an empty int entry.
#[test]
fn not_initialized_comparison() {
    let mut env = Env::new();
    let r = env.bbs.create(env.root, "x", EntryType::Int);
    assert!(r.is_ok(), "{r:?}");
    env.check(&[
        ("x < 0", Err),
        ("x == 0", Err),
        ("x > 0", Err),
        ("x + 1", Err),
        ("x += 1", Err),
    ]);
}

#[test]
fn issue595() {
    let mut b = Bench::new();
    b.leaf(
        "SampleNode595",
        vec![PortDecl::output("find_enemy", EntryType::Int, "written 0")],
        |l| {
            l.output("find_enemy", int(0))?;
            Ok(Success)
        },
    );
    let mut t = b.tree(
        r#"<root BTCPP_format="4"><BehaviorTree ID="PowerManagerT">
      <Sequence>
        <SampleNode595 find_enemy="{find_enemy}" />
        <TestA _skipIf="find_enemy==0"/>
      </Sequence>
    </BehaviorTree></root>"#,
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!(t.ticks("TestA"), 0);
}

#[test]
fn operator_associativity_issue1029() {
    Env::new().check(&[
        ("5 - 2 + 1", N(4.0)),
        ("10 - 3 - 2", N(5.0)),
        ("2 + 3 - 1", N(4.0)),
        ("12 / 3 / 2", N(2.0)),
        ("12 / 3 * 2", N(8.0)),
        ("2 + 3 * 4 - 1", N(13.0)),
        ("A:='hello'; B:=' world'; A .. B", S("hello world")),
        ("A .. ' ' .. B", S("hello  world")),
    ]);
}

#[test]
fn validate_script_large_error_issue923() {
    let mut script = String::new();
    for _ in 0..10 {
        script += "+6e66>6666.6+66\r6>6;6e62=6+6e66>66666'; en';o';o'; en'; ";
        script += "\u{7f}n\u{7f}r;6.6+66.H>6+6\u{80}6\u{1e};@e66";
    }
    assert!(Script::parse(&script).is_err());
}

#[test]
fn compare_with_negative_number_issue832() {
    Env::new().check(&[
        ("A:=0; A!=-1", N(1.0)),
        ("A:=-1; A!=-1", N(0.0)),
        ("A:=0; A==-1", N(0.0)),
        ("A:=0; A>-1", N(1.0)),
        ("A:=0; A<-1", N(0.0)),
        ("A:=0; A!=-1", Valid),
        ("A:=0; A>-1", Valid),
    ]);
    let mut t = Bench::new().tree(
        r#"<root BTCPP_format="4"><BehaviorTree>
         <Sequence>
             <Script code=" A:=0 " />
             <AlwaysSuccess _failureIf="A!=-1"/>
         </Sequence>
      </BehaviorTree></root>"#,
    );
    assert_eq!(t.tick_while_running(), Failure);
}

#[test]
fn new_line() {
    let mut t = Bench::new().tree(
        r#"<root BTCPP_format="4"><BehaviorTree ID="Main">
      <Script code="A:=5;&#10;B:=6"/>
    </BehaviorTree></root>"#,
    );
    assert_eq!(t.tick_while_running(), Success);
    assert_eq!((t.get_int("A"), t.get_int("B")), (5, 6));
}

#[test]
fn tokenizer_edge_cases() {
    Env::new().check(&[
        ("'hello", Invalid),
        ("0x", Invalid),
        ("0xG", Invalid),
        ("3e", Invalid),
        ("3e+", Invalid),
        ("A:='65'; B:='66'; A..B", S("6566")),
        ("", Invalid),
        ("   ", Invalid),
        ("\t\n\r", Invalid),
    ]);
}

#[test]
fn chained_comparisons() {
    Env::new().check(&[
        ("1 < 2 < 3", N(1.0)),
        ("3 > 2 > 1", N(1.0)),
        ("1 < 2 > 3", N(0.0)),
        ("5 == 5 == 5", N(1.0)),
        ("5 == 5 != 3", N(1.0)),
        ("1 <= 2 <= 3", N(1.0)),
        ("3 >= 2 >= 1", N(1.0)),
    ]);
}

#[test]
fn operator_precedence() {
    Env::new().check(&[
        ("6 | 3 & 5", N(7.0)),
        ("true && (6 | 0)", N(1.0)),
        ("false || true && true", N(1.0)),
        ("false && true || true", N(1.0)),
        ("(2 + 3) * 4", N(20.0)),
        ("2 * (3 + 4)", N(14.0)),
    ]);
}

#[test]
fn unary_operators() {
    let mut env = Env::new();
    env.check(&[
        ("!true", N(0.0)),
        ("!false", N(1.0)),
        ("!!true", N(1.0)),
        ("-(3 + 2)", N(-5.0)),
        ("10 + -3", N(7.0)),
    ]);
    let r = env
        .run("~0")
        .and_then(|v| v.as_int().map_err(|e| e.to_string()));
    assert_eq!(r, Ok(!0_i64));
}

#[test]
fn ternary_expressions() {
    Env::new().check(&[
        ("true ? 1 : 2", N(1.0)),
        ("false ? 1 : 2", N(2.0)),
        ("true ? 2 + 3 : 10", N(5.0)),
        ("false ? 10 : 2 + 3", N(5.0)),
        ("3 > 2 ? 'yes' : 'no'", S("yes")),
        ("3 < 2 ? 'yes' : 'no'", S("no")),
    ]);
}

#[test]
fn multiple_statements() {
    let mut env = Env::new();
    env.check(&[("a:=1;;; b:=2;;", Some)]);
    assert_eq!((env.num("a"), env.num("b")), (1.0, 2.0));
    env.check(&[("a:=10; b:=20; a+b", N(30.0))]);
}
