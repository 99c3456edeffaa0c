//! `Switch2` .. `Switch6` (BT.CPP 4): picks one child by comparing the `variable` port with
//! the `case_1` .. `case_N` ports; `SwitchN` has `N + 1` children, the last one the default.
//!
//! Every tick reads `variable` as text (ints in decimal, a bool as `1`/`0`, a double with 6
//! decimals, so 1.4999999 reads as `1.500000`) and takes the first case that matches it
//! ([`case_matches`]): the same string (case-sensitive), else both parse as the same 32-bit
//! int (`"02"` matches `2`), else both parse as reals within a float epsilon (1.19e-7). An
//! empty `variable` entry picks the default; a case whose entry is empty never matches.
//! (`true` never matches a bool entry, which reads as `1`.)
//!
//! | picked child | SwitchN |
//! |---|---|
//! | `Running` | `Running`; the child is remembered as the running branch |
//! | `Success` / `Failure` | the same; every child reset |
//! | `Skipped` | `Skipped`; no branch remembered, children left as they are |
//!
//! When the pick differs from the branch that was running, that branch is halted (exactly
//! once) and reset before the new pick is ticked. Halting forgets the running branch and
//! halts it.
//!
//! BT.CPP only reads the ports at tick time (a missing `variable` picks the default, a
//! missing case never matches); here every port is required, so a missing one is a compile
//! error.

use crate::engine::blackboard::{EntryType, Value, in_range_double};
use crate::engine::node::{Behavior, Cx, Fault, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Case port names, `case_1` .. `case_6`.
const CASES: [&str; 6] = ["case_1", "case_2", "case_3", "case_4", "case_5", "case_6"];

/// Registers `Switch2` .. `Switch6`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    for cases in 2..=CASES.len() {
        let mut ports = vec![PortDecl::input(
            "variable",
            EntryType::Str,
            "the value compared with the cases",
        )];
        ports.extend(
            CASES[..cases]
                .iter()
                .map(|&name| PortDecl::input(name, EntryType::Str, "a value of `variable`")),
        );
        registry.register(
            &format!("Switch{cases}"),
            NodeModel::new(Children::Exactly(cases + 1), ports),
            move |b| {
                let variable = b.port("variable");
                let case_ports = CASES[..cases].iter().map(|name| b.port(name)).collect();
                Ok(Box::new(Switch::new(variable, case_ports)))
            },
        );
    }
}

/// Whether `variable` matches `case` as BT.CPP's Switch compares them: equal strings, else
/// equal 32-bit ints, else reals within `f32::EPSILON`.
pub fn case_matches(variable: &str, case: &str) -> bool {
    if variable == case {
        return true;
    }
    if let (Some(a), Some(b)) = (whole_int(variable), whole_int(case)) {
        // Two ints are within f32::EPSILON as reals only when equal.
        return a == b;
    }
    match (whole_real(variable), whole_real(case)) {
        (Some(a), Some(b)) => (a - b).abs() <= f64::from(f32::EPSILON),
        _ => false,
    }
}

/// `s` as an `i32` when the whole text is one (C++ `from_chars`: no `+`, no spaces).
fn whole_int(s: &str) -> Option<i32> {
    if s.starts_with('+') {
        return None;
    }
    s.parse().ok()
}

/// `s` as an `f64` when the whole text is one (C++ `from_chars`: no `+`, no spaces; a value
/// out of the double range is no number).
fn whole_real(s: &str) -> Option<f64> {
    if s.starts_with('+') {
        return None;
    }
    in_range_double(s)
}

/// `value` as the text Switch compares (a string as it is, else formatted into `buf`).
fn text_of<'a>(value: &'a Value, buf: &'a mut String) -> &'a str {
    match value {
        Value::Str(s) => s,
        other => {
            buf.clear();
            other.write_string_into(buf);
            buf
        }
    }
}

/// A literal case read once as [`case_matches`] reads it: as a 32-bit int and as a real.
#[derive(Debug, Clone, Copy)]
struct LiteralCase {
    int: Option<i32>,
    real: Option<f64>,
}

impl LiteralCase {
    /// Whether an int variable `v` matches this case, as [`case_matches`] would decide on
    /// `v`'s decimal text, without writing that text: equal texts are equal ints or reals.
    fn matches_int(self, v: i64) -> bool {
        if let (Ok(a), Some(b)) = (i32::try_from(v), self.int) {
            return a == b;
        }
        // The decimal text of `v` parses to the double nearest `v`, as `as` rounds.
        self.real
            .is_some_and(|b| (v as f64 - b).abs() <= f64::from(f32::EPSILON))
    }
}

/// The ports, the branch running since the last tick, and text buffers.
#[derive(Debug)]
pub struct Switch {
    variable: Port,
    cases: Vec<Port>,
    /// The cases when every one is a literal (the usual switch): compared with an int
    /// variable directly.
    literal_cases: Option<Vec<LiteralCase>>,
    /// The cases as 32-bit ints when every one is an int literal: a variable in that range
    /// picks the first equal one, as [`LiteralCase::matches_int`] decides.
    int_cases: Option<Box<[i32]>>,
    running: Option<usize>,
    variable_text: String,
    case_text: String,
}

impl Switch {
    /// A switch over `cases` (its children are the cases and then the default).
    pub fn new(variable: Port, cases: Vec<Port>) -> Self {
        let literal_cases = cases
            .iter()
            .map(|port| match port {
                Port::Literal(Value::Str(text)) => Some(LiteralCase {
                    int: whole_int(text),
                    real: whole_real(text),
                }),
                _ => None,
            })
            .collect::<Option<Vec<_>>>();
        let int_cases = literal_cases
            .as_ref()
            .and_then(|cases| cases.iter().map(|case| case.int).collect());
        Self {
            variable,
            cases,
            literal_cases,
            int_cases,
            running: None,
            variable_text: String::new(),
            case_text: String::new(),
        }
    }

    /// The position of the child picked for this tick (the default when nothing matches).
    fn pick<C>(&mut self, cx: &Cx<'_, C>) -> usize {
        let default = self.cases.len();
        let Some(value) = cx.get(&self.variable) else {
            return default;
        };
        if let Value::Int(v) = *value
            && let Some(picked) = self.pick_int(v)
        {
            // The usual game-state switch: an int against literal cases, no text needed.
            return picked.unwrap_or(default);
        }
        let variable = text_of(value, &mut self.variable_text);
        for (k, port) in self.cases.iter().enumerate() {
            if let Some(case) = cx.get(port)
                && case_matches(variable, text_of(case, &mut self.case_text))
            {
                return k;
            }
        }
        default
    }
}

impl Switch {
    /// The case an int variable `v` picks (`Some(None)`: none, the default) when every case
    /// is a literal; `None` when the cases need their text.
    #[inline]
    fn pick_int(&self, v: i64) -> Option<Option<usize>> {
        if let (Some(ints), Ok(v)) = (&self.int_cases, i32::try_from(v)) {
            return Some(ints.iter().position(|&case| case == v));
        }
        let literal_cases = self.literal_cases.as_ref()?;
        Some(literal_cases.iter().position(|case| case.matches_int(v)))
    }
}

impl<C> Behavior<C> for Switch {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let picked = self.pick(cx);
        if let Some(running) = self.running
            && running != picked
        {
            cx.halt_child(running);
        }
        let status = cx.tick_child(picked)?;
        match status {
            Status::Running => self.running = Some(picked),
            Status::Skipped => self.running = None,
            Status::Success | Status::Failure => {
                cx.halt_children();
                self.running = None;
            }
        }
        Ok(status)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.running = None;
        cx.halt_children();
    }

    fn running_child(&self) -> Option<usize> {
        self.running
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{LiteralCase, Switch, case_matches, whole_int, whole_real};
    use crate::engine::blackboard::Value;
    use crate::engine::node::Port;
    use crate::engine::test_support::*;
    use crate::engine::test_support::{build_untyped, compile_errors, put};
    use crate::engine::{NodeId, NodeState, Status};

    use Status::{Failure as F, Running as R, Skipped as K, Success as S};

    /// `Switch2` (node 0) on `{sw}` with cases `c1`, `c2` over actions a, b, d (nodes 1-3).
    fn sw2(c1: &str, c2: &str) -> serde_json::Value {
        json!({
            "type": "Switch2",
            "ports": { "variable": "{sw}", "case_1": c1, "case_2": c2 },
            "children": [act("a"), act("b"), act("d")]
        })
    }

    /// The child (1-based node id) a `Switch2` on untyped `sw` = `value` ticks.
    fn picked(value: Value, c1: &str, c2: &str) -> u32 {
        let mut t = build_untyped(sw2(c1, c2), &["sw"]);
        put(&mut t, "sw", value);
        let mut ctx = Ctx::default();
        ctx.ret("a", S).ret("b", S).ret("d", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        let e = entries(&t);
        assert_eq!(e.len(), 2, "{e:?}");
        e[0].0
    }

    #[test]
    fn an_int_variable_matches_literal_cases_as_its_text_would() {
        let cases = [
            "0",
            "-0",
            "2",
            "02",
            "+2",
            " 2",
            "2.0",
            "2.5",
            "1e2",
            "100",
            "abc",
            "",
            "-1",
            "2147483647",
            "2147483648",
            "4294967296",
            "4294967296.0",
            "9007199254740993",
            "1e400",
            "inf",
            "nan",
            "0x10",
            "16",
        ];
        let values = [
            0,
            2,
            -1,
            100,
            16,
            2147483647,
            2147483648,
            4294967296,
            9007199254740993,
            i64::MIN,
        ];
        for case in cases {
            let literal = LiteralCase {
                int: whole_int(case),
                real: whole_real(case),
            };
            for v in values {
                assert_eq!(
                    literal.matches_int(v),
                    case_matches(&v.to_string(), case),
                    "{v} against {case:?}"
                );
            }
        }
    }

    #[test]
    fn matching_rules() {
        assert!(case_matches("abc", "abc"));
        assert!(!case_matches("abc", "ABC"));
        assert!(case_matches("02", "2"));
        assert!(case_matches("-0", "0"));
        assert!(!case_matches("+2", "2"));
        assert!(!case_matches(" 2", "2"));
        assert!(case_matches("2.0", "2"));
        assert!(case_matches(".5", "0.50"));
        assert!(case_matches("1e2", "100"));
        assert!(case_matches("1.0000001", "1"));
        assert!(!case_matches("1.000001", "1"));
        assert!(!case_matches("true", "1"));
        assert!(!case_matches("nan", "NaN"));
        assert!(!case_matches("1e400", "2e400"));
        assert!(!case_matches("1e-400", "0"));
        // Beyond 32 bits the int comparison fails and the texts are compared as reals.
        assert!(case_matches("4294967296", "4294967296.0"));
    }

    #[test]
    fn first_matching_case_is_ticked() {
        let mut t = build(sw2("1", "1"));
        put(&mut t, "sw", Value::Str("1".into()));
        let mut ctx = Ctx::default();
        ctx.ret("a", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(1, S), (0, S)]);
        assert!(all_idle(&t));
    }

    #[test]
    fn outcome_of_the_picked_child_is_passed_through() {
        let mut t = build(sw2("1", "2"));
        let mut ctx = Ctx::default();
        put(&mut t, "sw", Value::Str("2".into()));
        ctx.ret("b", F);
        assert_eq!(t.tick(&mut ctx, 0.0), F);
        assert_eq!(entries(&t), [(2, F), (0, F)]);
        assert!(all_idle(&t));
        ctx.ret("b", K);
        assert_eq!(t.tick(&mut ctx, 1.0), K);
        assert_eq!(entries(&t), [(2, K), (0, K)]);
        assert!(all_idle(&t));
        ctx.ret("b", R);
        assert_eq!(t.tick(&mut ctx, 2.0), R);
        assert_eq!(entries(&t), [(2, R), (0, R)]);
        assert_eq!(t.running_child(NodeId(0)), Some(1));
    }

    #[test]
    fn no_match_or_empty_variable_picks_the_default() {
        let mut t = build(sw2("1", "2"));
        let mut ctx = Ctx::default();
        ctx.ret("d", S);
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(3, S), (0, S)]);
        put(&mut t, "sw", Value::Str("3".into()));
        assert_eq!(t.tick(&mut ctx, 1.0), S);
        assert_eq!(entries(&t), [(3, S), (0, S)]);
        assert_eq!((ctx.ticks("a"), ctx.ticks("b"), ctx.ticks("d")), (0, 0, 2));
    }

    #[test]
    fn variable_types_read_as_text() {
        assert_eq!(picked(Value::Int(2), "02", "2"), 1);
        assert_eq!(picked(Value::Bool(true), "true", "1"), 2);
        assert_eq!(picked(Value::Bool(false), "false", "true"), 3);
        assert_eq!(picked(Value::Double(1.4999999), "1.49999", "1.5"), 2);
        // Read as `1.000000`: the 6-decimal text is what is compared.
        assert_eq!(picked(Value::Double(1.0000004), "1.0000004", "1"), 2);
        assert_eq!(picked(Value::Double(2.0), "2.000000", "2"), 1);
        assert_eq!(picked(Value::Double(2.0), "3", "2"), 2);
        assert_eq!(picked(Value::Str("2.0".into()), "1", "2"), 2);
        assert_eq!(picked(Value::Str("x".into()), "X", "y"), 3);
    }

    #[test]
    fn cases_can_be_entries_and_an_empty_case_never_matches() {
        let mut t = build(sw2("{c1}", "{c2}"));
        let mut ctx = Ctx::default();
        ctx.ret("a", S).ret("b", S).ret("d", S);
        put(&mut t, "sw", Value::Str("5".into()));
        put(&mut t, "c2", Value::Str("05".into()));
        assert_eq!(t.tick(&mut ctx, 0.0), S);
        assert_eq!(entries(&t), [(2, S), (0, S)]);
        put(&mut t, "c1", Value::Str("5".into()));
        assert_eq!(t.tick(&mut ctx, 1.0), S);
        assert_eq!(entries(&t), [(1, S), (0, S)]);
    }

    #[test]
    fn switching_branch_halts_the_running_one_once() {
        let mut t = build(sw2("1", "2"));
        let mut ctx = Ctx::default();
        put(&mut t, "sw", Value::Str("1".into()));
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        assert_eq!(entries(&t), [(1, R), (0, R)]);
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(ctx.halts("a"), 0);
        put(&mut t, "sw", Value::Str("2".into()));
        assert_eq!(t.tick(&mut ctx, 2.0), R);
        assert_eq!(entries(&t), [(2, R), (0, R)]);
        assert_eq!((ctx.halts("a"), t.state(NodeId(1))), (1, NodeState::Idle));
        put(&mut t, "sw", Value::Str("9".into()));
        ctx.ret("d", S);
        assert_eq!(t.tick(&mut ctx, 3.0), S);
        assert_eq!(entries(&t), [(3, S), (0, S)]);
        assert_eq!((ctx.halts("a"), ctx.halts("b")), (1, 1));
        assert!(all_idle(&t));
    }

    #[test]
    fn halt_halts_the_running_branch_once() {
        let mut t = build(sw2("1", "2"));
        let mut ctx = Ctx::default();
        put(&mut t, "sw", Value::Str("2".into()));
        assert_eq!(t.tick(&mut ctx, 0.0), R);
        t.halt(&mut ctx);
        assert_eq!((ctx.halts("a"), ctx.halts("b"), ctx.halts("d")), (0, 1, 0));
        assert!(all_idle(&t));
        assert_eq!(t.running_child(NodeId(0)), None);
        // After a halt nothing is remembered: a new pick halts nobody.
        put(&mut t, "sw", Value::Str("1".into()));
        assert_eq!(t.tick(&mut ctx, 1.0), R);
        assert_eq!(ctx.halts("b"), 1);
    }

    #[test]
    fn switch3_to_switch6_take_n_plus_one_children() {
        for n in 3..=6 {
            let mut ports = serde_json::Map::new();
            ports.insert("variable".into(), json!("{sw}"));
            for k in 1..=n {
                ports.insert(format!("case_{k}"), json!(k.to_string()));
            }
            let children: Vec<_> = (0..=n).map(|k| act(&format!("x{k}"))).collect();
            let spec =
                json!({ "type": format!("Switch{n}"), "ports": ports, "children": children });
            let mut t = build(spec.clone());
            let mut ctx = Ctx::default();
            put(&mut t, "sw", Value::Str(n.to_string()));
            ctx.ret(&format!("x{}", n - 1), S);
            assert_eq!(t.tick(&mut ctx, 0.0), S);
            assert_eq!(entries(&t), [(n as u32, S), (0, S)]);
            let mut short = spec;
            short["children"].as_array_mut().map(Vec::pop);
            assert_eq!(compile_errors(short).len(), 1, "Switch{n}");
        }
    }

    #[test]
    fn ports_are_required_and_declared() {
        let errors = compile_errors(json!({
            "type": "Switch2",
            "ports": { "variable": "{sw}", "case_1": "1", "case_3": "3" },
            "children": [act("a"), act("b"), act("d")]
        }));
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors.iter().any(|e| e.contains("no port `case_3`")),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.contains("missing required port `case_2`")),
            "{errors:?}"
        );
    }

    /// Int cases compared as 32-bit ints pick what the literal cases pick for every int.
    #[test]
    fn int_cases_pick_as_the_literal_cases_do() {
        let texts = [
            vec!["0", "1", "2", "3", "4"],
            vec!["-5", "2147483647", "-2147483648", "7", "7"],
            vec!["1", "1.0", "2"],
        ];
        for cases in texts {
            let ports = cases
                .iter()
                .map(|text| Port::Literal(Value::Str((*text).to_owned())))
                .collect();
            let switch = Switch::new(Port::Missing, ports);
            let Some(literal_cases) = switch.literal_cases.as_ref() else {
                panic!("{cases:?} are literals");
            };
            let values = [
                0,
                1,
                2,
                3,
                4,
                5,
                7,
                -5,
                -1,
                i64::from(i32::MAX),
                i64::from(i32::MIN),
            ];
            let beyond = [
                i64::from(i32::MAX) + 1,
                i64::from(i32::MIN) - 1,
                i64::MAX,
                i64::MIN,
            ];
            for v in values.into_iter().chain(beyond) {
                let literal = literal_cases.iter().position(|case| case.matches_int(v));
                assert_eq!(switch.pick_int(v), Some(literal), "{cases:?} with {v}");
            }
        }
    }
}
