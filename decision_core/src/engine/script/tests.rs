use super::*;
use crate::engine::blackboard::{EntryType, Remap};

fn s(text: &str) -> Value {
    Value::Str(text.to_owned())
}

/// A root blackboard with `setup` entries written as ports would write them.
fn board(setup: &[(&str, Value)]) -> (Blackboards, ScopeId) {
    let mut bbs = Blackboards::new();
    let root = bbs.new_root();
    for (key, value) in setup {
        assert!(bbs.set(root, key, value.clone()).is_ok(), "setting {key}");
    }
    (bbs, root)
}

fn run_on(bbs: &mut Blackboards, scope: ScopeId, src: &str) -> Result<Value, ScriptError> {
    Script::compile(src, bbs, scope)?.eval(bbs)
}

fn run(src: &str) -> Result<Value, ScriptError> {
    let (mut bbs, root) = board(&[]);
    run_on(&mut bbs, root, src)
}

fn d(x: f64) -> Result<Value, ScriptError> {
    Ok(Value::Double(x))
}

#[test]
fn literals() {
    assert_eq!(run("42"), Ok(Value::Int(42)));
    assert_eq!(run("0x1F"), Ok(Value::Int(31)));
    assert_eq!(run("2.5"), d(2.5));
    assert_eq!(run("1e3"), d(1000.0));
    assert_eq!(run("true"), d(1.0));
    assert_eq!(run("false"), d(0.0));
    assert_eq!(run("'abc'"), Ok(s("abc")));
    assert_eq!(run("''"), Ok(s("")));
}

#[test]
fn arithmetic_is_double() {
    let cases: &[(&str, f64)] = &[
        ("3/2", 1.5),
        ("1+1", 2.0),
        ("7-10", -3.0),
        ("2*3.5", 7.0),
        ("1/0", f64::INFINITY),
        ("-3", -3.0),
        ("--3", 3.0),
    ];
    for (src, want) in cases {
        assert_eq!(run(src), d(*want), "{src}");
    }
}

#[test]
fn precedence_table() {
    let cases: &[(&str, f64)] = &[
        ("1 + 2 * 3", 7.0),
        ("(1 + 2) * 3", 9.0),
        ("10 - 4 - 3", 3.0),
        ("8 / 4 / 2", 1.0),
        ("-2 * 3", -6.0),
        ("!0 + 1", 2.0),
        ("1 + 2 == 3", 1.0),
        ("1 == 1 && 2 == 3", 0.0),
        ("0 && 1 || 1", 1.0),
        ("1 || 0 && 0", 1.0),
        ("6 & 3 | 8", 10.0),
        ("6 ^ 3 & 1", 7.0),
        ("1 | 2 == 3", 1.0),
        ("1 + 2 & 3", 3.0),
        ("1 < 2 ? 10 : 20", 10.0),
        ("0 ? 1 : 0 ? 2 : 3", 3.0),
        ("1 ? 2 : 3 + 4", 2.0),
        ("0 ? 2 : 3 + 4", 7.0),
    ];
    for (src, want) in cases {
        let got = run(src).map(|v| v.as_double());
        assert_eq!(got, Ok(Ok(*want)), "{src}");
    }
}

#[test]
fn unary_operators() {
    assert_eq!(run("!1"), d(0.0));
    assert_eq!(run("!0"), d(1.0));
    // `!` of any non-zero number is 0, without the 0/1 rule.
    assert_eq!(run("!2"), d(0.0));
    assert_eq!(run("~0"), d(-1.0));
    assert_eq!(run("~5"), d(-6.0));
    assert_eq!(run("~2.7"), d(-3.0));
    assert!(run("!'a'").is_err());
    assert!(run("-'a'").is_err());
    assert!(run("~'a'").is_err());
}

#[test]
fn bitwise_needs_integers() {
    assert_eq!(run("12 & 10"), d(8.0));
    assert_eq!(run("12 | 3"), d(15.0));
    assert_eq!(run("12 ^ 10"), d(6.0));
    assert_eq!(run("(1+1) & 3"), d(2.0));
    assert!(run("1.5 & 1").is_err());
    assert!(run("'a' & 1").is_err());
}

#[test]
fn strings_concatenate() {
    assert_eq!(run("'ab' + 'cd'"), Ok(s("abcd")));
    assert_eq!(run("'ab' .. 'cd'"), Ok(s("abcd")));
    assert_eq!(run("'n=' .. 3"), Ok(s("n=3")));
    assert_eq!(run("1.5 .. 'x'"), Ok(s("1.500000x")));
    assert!(run("'a' + 1").is_err());
    assert!(run("'a' - 'b'").is_err());
    assert!(run("'a' * 2").is_err());
    assert!(run("1 .. 2").is_err());
}

#[test]
fn comparisons_and_epsilon() {
    let cases: &[(&str, f64)] = &[
        ("1 == 1", 1.0),
        ("1 != 1", 0.0),
        ("1 < 2", 1.0),
        ("2 <= 2", 1.0),
        ("3 > 2", 1.0),
        ("2 >= 3", 0.0),
        ("0.1 + 0.2 == 0.3", 1.0),
        ("1 == 1.0000001", 1.0),
        ("1 != 1.0000001", 0.0),
        ("1 == 1.000001", 0.0),
        // Ordering is exact, no epsilon.
        ("1 < 1.0000001", 1.0),
        ("1.0000001 <= 1", 0.0),
    ];
    for (src, want) in cases {
        assert_eq!(run(src), d(*want), "{src}");
    }
}

#[test]
fn chained_comparisons() {
    assert_eq!(run("1 < 2 < 3"), d(1.0));
    assert_eq!(run("1 < 3 < 2"), d(0.0));
    assert_eq!(run("3 > 2 > 1"), d(1.0));
    assert_eq!(run("1 == 1 == 1"), d(1.0));
    // Not `(1 < 2) < 0.5`, which would compare 1.0 with 0.5.
    assert_eq!(run("1 < 2 < 0.5"), d(0.0));
    assert_eq!(run("1 + 1 == 2 < 3"), d(1.0));
}

#[test]
fn string_and_number_comparisons() {
    assert_eq!(run("'3' == 3"), d(1.0));
    assert_eq!(run("3 == '3'"), d(1.0));
    assert_eq!(run("'2.5' < 3"), d(1.0));
    assert_eq!(run("'true' == 1"), d(1.0));
    assert_eq!(run("'abc' < 'abd'"), d(1.0));
    assert_eq!(run("'B' < 'a'"), d(1.0));
    assert_eq!(run("'abc' == 'abc'"), d(1.0));
    assert_eq!(run("'abc' != 'abc'"), d(0.0));
    let err = run("'x' == 1");
    assert!(err.is_err());
    assert_eq!(err.map_err(|e| e.offset), Err(4));
    assert!(run("1 < 'nope'").is_err());
}

#[test]
fn logic_operators_and_bool_rules() {
    assert_eq!(run("1 && 1"), d(1.0));
    assert_eq!(run("1 && 0"), d(0.0));
    assert_eq!(run("0 || 1"), d(1.0));
    assert_eq!(run("0 || 0"), d(0.0));
    assert_eq!(run("0.5 && 1"), d(1.0));
    assert!(run("2 && 1").is_err());
    assert!(run("1 || 2").is_err());
    assert!(run("'a' && 1").is_err());
}

#[test]
fn both_sides_of_logic_operators_run() {
    let (mut bbs, root) = board(&[]);
    let r = run_on(&mut bbs, root, "(a := 1) > 5 && (b := 2) > 0");
    assert_eq!(r, d(0.0));
    assert_eq!(bbs.get(root, "b"), Some(&Value::Int(2)));
    let r = run_on(&mut bbs, root, "(c := 1) == 1 || (e := 3) > 0");
    assert_eq!(r, d(1.0));
    assert_eq!(bbs.get(root, "e"), Some(&Value::Int(3)));
    // An error on the right side surfaces even when the left side decides.
    assert!(run_on(&mut bbs, root, "0 && missing").is_err());
    assert!(run_on(&mut bbs, root, "1 || 2").is_err());
}

#[test]
fn a_failing_chain_link_stops_the_chain() {
    let (mut bbs, root) = board(&[]);
    assert_eq!(run_on(&mut bbs, root, "3 < 2 < (z := 1)"), d(0.0));
    assert!(!bbs.contains(root, "z"));
}

#[test]
fn ternary_conditions() {
    assert_eq!(run("2 ? 'y' : 'n'"), Ok(s("y")));
    assert_eq!(run("0.0 ? 'y' : 'n'"), Ok(s("n")));
    assert_eq!(run("'text' ? 'y' : 'n'"), Ok(s("y")));
    assert!(run("'' ? 'y' : 'n'").is_err());
    // Only the chosen branch runs.
    let (mut bbs, root) = board(&[]);
    assert_eq!(
        run_on(&mut bbs, root, "1 ? (p := 1) : (q := 2)"),
        Ok(Value::Int(1))
    );
    assert!(bbs.contains(root, "p"));
    assert!(!bbs.contains(root, "q"));
}

#[test]
fn assignment_create_and_existing() {
    let (mut bbs, root) = board(&[]);
    assert_eq!(run_on(&mut bbs, root, "x := 3"), Ok(Value::Int(3)));
    assert_eq!(bbs.get(root, "x"), Some(&Value::Int(3)));
    let err = run_on(&mut bbs, root, "y = 1");
    assert_eq!(err.as_ref().map(|_| ()).map_err(|e| e.offset), Err(2));
    assert!(err.is_err_and(|e| e.message.contains("[:=]")));
    assert!(!bbs.contains(root, "y"));
    // `=` and `:=` on an existing entry convert to its representation (no re-typing).
    assert_eq!(run_on(&mut bbs, root, "x = 4.0"), Ok(Value::Int(4)));
    assert_eq!(run_on(&mut bbs, root, "x := 5"), Ok(Value::Int(5)));
    assert!(run_on(&mut bbs, root, "x = 4.5").is_err());
    assert_eq!(bbs.get(root, "x"), Some(&Value::Int(5)));
    // A fresh `:=` of an arithmetic result is a double.
    assert_eq!(run_on(&mut bbs, root, "h := 1 + 1"), d(2.0));
    // The value of a script is its last statement.
    assert_eq!(
        run_on(&mut bbs, root, "a := 1; b := a + 1; b * 10"),
        d(20.0)
    );
    // `b` already holds a double: `:=` converts, never re-types.
    assert_eq!(run_on(&mut bbs, root, "a := 7 b := a"), d(7.0));
    assert_eq!(run_on(&mut bbs, root, "a := 8;;"), Ok(Value::Int(8)));
}

#[test]
fn assignment_target_must_be_a_key() {
    let err = run("1 + 2 := 3");
    assert!(err.is_err_and(|e| e.offset == 6));
}

#[test]
fn create_then_read_in_the_same_assignment() {
    let (mut bbs, root) = board(&[]);
    let err = run_on(&mut bbs, root, "n := n + 1");
    assert!(err.is_err_and(|e| e.message.contains("not initialized")));
    // BT.CPP creates the entry before evaluating the right side.
    assert!(bbs.contains(root, "n"));
    assert_eq!(bbs.get(root, "n"), None);
}

#[test]
fn compound_assignment() {
    let (mut bbs, root) = board(&[
        ("i", Value::Int(10)),
        ("f", Value::Double(1.0)),
        ("t", s("ab")),
    ]);
    assert_eq!(run_on(&mut bbs, root, "i += 5"), Ok(Value::Int(15)));
    assert_eq!(run_on(&mut bbs, root, "i -= 3"), Ok(Value::Int(12)));
    assert_eq!(run_on(&mut bbs, root, "i *= 2"), Ok(Value::Int(24)));
    assert_eq!(run_on(&mut bbs, root, "i /= 4"), Ok(Value::Int(6)));
    assert!(run_on(&mut bbs, root, "i /= 4").is_err());
    assert_eq!(run_on(&mut bbs, root, "f /= 4"), d(0.25));
    assert_eq!(run_on(&mut bbs, root, "t += 'cd'"), Ok(s("abcd")));
    assert!(run_on(&mut bbs, root, "t -= 'cd'").is_err());
    assert!(run_on(&mut bbs, root, "t += 1").is_err());
    assert!(run_on(&mut bbs, root, "i += 'x'").is_err());
    assert!(run_on(&mut bbs, root, "nope += 1").is_err());
}

#[test]
fn typed_entries_convert_on_assignment() {
    let (mut bbs, root) = board(&[]);
    for (key, ty) in [
        ("n", EntryType::Int),
        ("b", EntryType::Bool),
        ("r", EntryType::Double),
        ("st", EntryType::Str),
    ] {
        assert!(bbs.create(root, key, ty).is_ok());
    }
    assert_eq!(run_on(&mut bbs, root, "n = '2x'"), Ok(Value::Int(2)));
    assert_eq!(run_on(&mut bbs, root, "n := '1.7'"), Ok(Value::Int(1)));
    assert_eq!(run_on(&mut bbs, root, "n = 3.0"), Ok(Value::Int(3)));
    assert_eq!(run_on(&mut bbs, root, "r = 2"), d(2.0));
    assert_eq!(run_on(&mut bbs, root, "st = 'hi'"), Ok(s("hi")));
    assert!(run_on(&mut bbs, root, "st = 5").is_err());
    // 2 into a bool entry is accepted and fails only when used as a condition.
    assert_eq!(run_on(&mut bbs, root, "b = 2"), Ok(Value::Int(2)));
    let cond = Script::compile("b", &mut bbs, root);
    assert!(cond.is_ok_and(|c| c.eval_bool(&mut bbs).is_err()));
    assert_eq!(run_on(&mut bbs, root, "b = 1"), Ok(Value::Bool(true)));
    // A bool is a number in arithmetic.
    assert_eq!(run_on(&mut bbs, root, "b + 1 == 2"), d(1.0));
}

#[test]
fn untyped_entry_holding_a_number_reads_strings_as_numbers() {
    let (mut bbs, root) = board(&[]);
    assert_eq!(run_on(&mut bbs, root, "v := 1; v = '7'"), d(7.0));
    assert_eq!(run_on(&mut bbs, root, "v = 'true'"), d(1.0));
    assert!(run_on(&mut bbs, root, "v = 'abc'").is_err());
}

#[test]
fn conditions() {
    let (mut bbs, root) = board(&[("two", Value::Int(2)), ("half", Value::Double(0.5))]);
    let cases: &[(&str, Option<bool>)] = &[
        ("1", Some(true)),
        ("0", Some(false)),
        ("two", None),
        ("half", Some(true)),
        ("0.0", Some(false)),
        ("two == 2", Some(true)),
        ("'yes'", None),
        ("true", Some(true)),
    ];
    for (src, want) in cases {
        let got = Script::compile(src, &mut bbs, root).and_then(|c| c.eval_bool(&mut bbs));
        assert_eq!(got.ok(), *want, "{src}");
    }
}

#[test]
fn missing_variable_is_a_runtime_error() {
    let err = run("1 + ghost");
    assert!(err.is_err_and(|e| e.offset == 4 && e.message.contains("ghost")));
}

#[test]
fn parse_errors_have_offsets() {
    let cases: &[(&str, usize)] = &[
        ("a := \"x\"", 5),
        ("(1 + 2", 6),
        ("1 + 2)", 5),
        ("1 +", 3),
        ("", 0),
        ("   ", 0),
        (";", 0),
        ("a := 3foo", 5),
        ("x := 'open", 5),
        ("1 ? 2", 5),
        ("a ==", 4),
        ("65.", 0),
        ("@", 0),
        ("b := #", 5),
    ];
    for (src, offset) in cases {
        let got = Script::parse(src).map(|_| ()).map_err(|e| e.offset);
        assert_eq!(got, Err(*offset), "{src:?}");
    }
    assert!(Script::parse("a := \"x\"").is_err_and(|e| e.message.contains("double-quoted")));
}

#[test]
fn root_keys_and_scopes() {
    let mut bbs = Blackboards::new();
    let root = bbs.new_root();
    assert!(bbs.set(root, "pose", Value::Int(1)).is_ok());
    let sub = bbs.new_child(
        root,
        [
            ("target".to_owned(), Remap::Parent("pose".to_owned())),
            ("speed".to_owned(), Remap::Literal("3".to_owned())),
        ],
        false,
    );
    assert_eq!(run_on(&mut bbs, sub, "target += 1"), Ok(Value::Int(2)));
    assert_eq!(bbs.get(root, "pose"), Some(&Value::Int(2)));
    assert_eq!(run_on(&mut bbs, sub, "@glob := speed == 3"), d(1.0));
    assert_eq!(bbs.get(root, "glob"), Some(&Value::Double(1.0)));
    assert_eq!(run_on(&mut bbs, sub, "loc := 1"), Ok(Value::Int(1)));
    assert!(!bbs.contains(root, "loc"));
}

#[test]
fn bound_slots_see_later_writes_and_unset() {
    let (mut bbs, root) = board(&[]);
    let script = Script::compile("x > 1", &mut bbs, root);
    let Ok(script) = script else {
        panic!("parse failed");
    };
    assert_eq!(script.keys(), ["x".to_owned()]);
    assert!(script.is_bound());
    assert!(script.eval(&mut bbs).is_err());
    assert!(bbs.set(root, "x", Value::Int(5)).is_ok());
    assert_eq!(script.eval_bool(&mut bbs), Ok(true));
    assert!(bbs.unset(root, "x"));
    assert!(script.eval(&mut bbs).is_err());
}

#[test]
fn unbound_script_reports_an_error() {
    let mut bbs = Blackboards::new();
    let script = Script::parse("x := 1");
    assert!(script.is_ok_and(|s| !s.is_bound() && s.eval(&mut bbs).is_err()));
}

#[test]
fn numeric_loop_does_not_allocate() {
    let (mut bbs, root) = board(&[("x", Value::Int(0))]);
    let Ok(script) = Script::compile("x += 1; y := x * 2 > 3", &mut bbs, root) else {
        panic!("parse failed");
    };
    assert!(script.eval(&mut bbs).is_ok());
    let before = alloc_count::get();
    for _ in 0..1000 {
        assert!(script.eval(&mut bbs).is_ok());
    }
    assert_eq!(alloc_count::get() - before, 0);
    assert_eq!(bbs.get(root, "x"), Some(&Value::Int(1001)));
    assert_eq!(bbs.get(root, "y"), Some(&Value::Double(1.0)));
}

/// Counts this thread's allocations (the test binary's global allocator).
mod alloc_count {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    struct Counting;

    // SAFETY: every call forwards to `System` unchanged; the counter is a plain thread-local.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            // SAFETY: same contract as the caller's.
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: same contract as the caller's.
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            // SAFETY: same contract as the caller's.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    /// Allocations made so far on this thread.
    pub(super) fn get() -> u64 {
        COUNT.with(Cell::get)
    }
}

#[test]
fn deep_nesting_is_an_error_with_a_position_not_a_stack_overflow() {
    let depth = 100_000;
    for src in [
        format!("{}1{}", "(".repeat(depth), ")".repeat(depth)),
        format!("{}true", "!".repeat(depth)),
        format!("{}1", "-".repeat(depth)),
        format!("x := {}", vec!["1"; depth].join(" + ")),
        format!("{}1", "true ? ".repeat(depth)).replace("? ", "? 1 : "),
    ] {
        let e = Script::parse(&src).unwrap_err();
        assert!(
            e.message.contains("nested deeper than 256 levels"),
            "{}",
            e.message
        );
        assert!(e.offset > 0 && e.offset < src.len(), "offset {}", e.offset);
    }
}

#[test]
fn nesting_up_to_the_limit_is_accepted_and_evaluates() {
    let src = format!("{}1{}", "(".repeat(200), ")".repeat(200));
    assert_eq!(run(&src), Ok(Value::Int(1)));
    let src = format!("x := {}", vec!["1"; 200].join(" + "));
    assert_eq!(run(&src), Ok(Value::Double(200.0)));
}

/// The fast path must give exactly what the general evaluator gives: values, conditions and
/// errors (message and offset), over operators, operand kinds and entry states.
#[test]
fn fast_path_agrees_with_the_general_evaluator() {
    let values = [
        Some(Value::Int(0)),
        Some(Value::Int(1)),
        Some(Value::Int(2)),
        Some(Value::Int(-3)),
        Some(Value::Int(1 << 60)),
        Some(Value::Double(0.5)),
        Some(Value::Double(0.0)),
        Some(Value::Double(3.0000001)),
        Some(Value::Bool(true)),
        Some(Value::Bool(false)),
        Some(s("3")),
        Some(s("abc")),
        Some(s("")),
        Some(s("true")),
        None,
    ];
    let operands = [
        "a",
        "b",
        "c",
        "1",
        "0",
        "2",
        "2.5",
        "'3'",
        "'x'",
        "''",
        "9007199254740993",
        "true",
    ];
    let templates = [
        "X",
        "-X",
        "!X",
        "~X",
        "X + Y",
        "X - Y",
        "X * Y",
        "X / Y",
        "X && Y",
        "X || Y",
        "X & Y",
        "X .. Y",
        "X == Y",
        "X != Y",
        "X < Y",
        "X >= Y",
        "X <= Y < 3",
        "X == Y == a",
        "X ? Y : 5",
        "(X ? Y : a) == 1",
        "X == Y && X != 0",
        "!(X < Y) || Y",
        "-X * 2 > Y",
        "a; X == Y",
    ];
    let n = values.len();
    for i in 0..n {
        let (mut bbs, root) = board(&[]);
        // `c` exists without a value.
        if let Some(slot) = bbs.reserve(root, "c") {
            assert!(bbs.create_slot(slot, EntryType::Any).is_ok());
        }
        for (key, v) in [("a", &values[i]), ("b", &values[(i * 5 + 3) % n])] {
            if let Some(v) = v {
                assert!(bbs.set(root, key, v.clone()).is_ok());
            }
        }
        for t in templates {
            for x in operands {
                for y in operands {
                    let src = t.replace('X', x).replace('Y', y);
                    let script = match Script::compile(&src, &mut bbs, root) {
                        Ok(script) => script,
                        Err(e) => panic!("{src}: {e}"),
                    };
                    let general = script.program.run_general(&script.slots, &mut bbs);
                    let fast = script.eval(&mut bbs);
                    let ctx = format!(
                        "{src} with a={:?} b={:?}",
                        bbs.get(root, "a"),
                        bbs.get(root, "b")
                    );
                    assert_eq!(format!("{fast:?}"), format!("{general:?}"), "{ctx}");
                    let general_bool = general.and_then(|v| eval::condition(&v));
                    if let Some(quick) = script.quick_bool(&bbs) {
                        assert_eq!(Ok(quick), general_bool, "quick: {ctx}");
                    }
                    assert_eq!(script.eval_bool(&mut bbs), general_bool, "{ctx}");
                }
            }
        }
    }
}

/// Assignments whose right side the fast path computes write what the general evaluator
/// writes, and fail the same way.
#[test]
fn fast_assignments_agree_with_the_general_evaluator() {
    let values = [
        Value::Int(1),
        Value::Int(1 << 60),
        Value::Double(2.5),
        Value::Bool(true),
        s("3"),
        s("abc"),
    ];
    let templates = [
        "z := a + 1",
        "z := a == 1",
        "a = a * 2",
        "a = -a",
        "a += a < 3",
        "z := (a ? 2 : 3) * 2",
        "z := 1; z += z + a",
        "z = a + 1",
        "z := z + 1",
        "b := a > 0 && a < 10; b",
        "t := a; t = t / 2",
    ];
    for v in &values {
        for src in templates {
            let setup = [("a", v.clone())];
            let (mut general_bbs, root) = board(&setup);
            let (mut fast_bbs, _) = board(&setup);
            let general = Script::compile(src, &mut general_bbs, root)
                .and_then(|c| c.program.run_general(&c.slots, &mut general_bbs));
            let fast =
                Script::compile(src, &mut fast_bbs, root).and_then(|c| c.eval(&mut fast_bbs));
            assert_eq!(
                format!("{fast:?}"),
                format!("{general:?}"),
                "{src} with a={v:?}"
            );
            for key in ["a", "b", "t", "z"] {
                assert_eq!(
                    format!("{:?}", fast_bbs.get(root, key)),
                    format!("{:?}", general_bbs.get(root, key)),
                    "{key} after {src} with a={v:?}"
                );
            }
        }
    }
}
