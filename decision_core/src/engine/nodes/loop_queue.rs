//! `LoopInt`, `LoopBool`, `LoopDouble` and `LoopString` (BT.CPP 4's `LoopNode<T>`): one
//! generic decorator, [`LoopQueue`], over the element type ([`LoopItem`]). Each tick in which
//! the child is not running pops the next value of the queue, writes it to `value` and ticks
//! the child.
//!
//! | case | child | Loop |
//! |---|---|---|
//! | a value was popped | `Success` / `Skipped` | `Running` (also when the queue is now empty); a completed child is reset |
//! | a value was popped, or the child was running | `Running` | `Running`; next tick ticks the child again without popping |
//! | a value was popped, or the child was running | `Failure` | `Failure` at once; child reset |
//! | queue empty, child not running | not ticked | the status named by `if_empty` (default `SUCCESS`) |
//!
//! So a queue of n values takes n+1 ticks. The queue is (re)loaded when the node starts from
//! idle: a literal is parsed at load time; `queue="{q}"` reads the string entry `q` on the
//! first pop after each start (writing `q` while the loop runs changes nothing until it
//! restarts; an entry that is not a string, or has no value, is an error at that tick).
//! `if_empty` is read only when it is needed (a bad value is an error at that tick; `IDLE` is
//! refused). Its status does not change the node's own status when it is `SKIPPED`: after a
//! pass the node keeps answering `SKIPPED`, without reloading, until its parent halts or
//! resets it.
//!
//! Queue text: split on `;`, without trimming; `""` is empty, a trailing `;` is ignored, an
//! empty element (`"1;;3"`) of a number or bool queue is an error (a load error for a
//! literal). `LoopInt` elements are read by their leading integer (`07` 7, `2x` 2, `1.5` 1,
//! `-1.9` -1; `+3` and values beyond 32 bits are refused), `LoopDouble` ones by their leading
//! number (no leading space or `+`), `LoopBool` ones are `true`/`false`/`1`/`0` (also `TRUE`,
//! `True`, `FALSE`, `False`), `LoopString` ones are kept as they are. A literal given to the
//! output `value` is accepted and ignored (BT.CPP ignores the failed write); a missing `queue`
//! is a load error.

use super::precondition::parse_status;
use crate::engine::blackboard::{
    Blackboards, EntrySlot, EntryType, Value, ValueError, leading_double, leading_int,
    parse_literal,
};
use crate::engine::node::{Behavior, Cx, Fault, NodeState, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `LoopInt`, `LoopBool`, `LoopDouble` and `LoopString`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    register_loop::<i64, C>(registry);
    register_loop::<bool, C>(registry);
    register_loop::<f64, C>(registry);
    register_loop::<String, C>(registry);
}

/// An element type of a loop queue: its node kind, its entry type, how one element is read
/// from the queue text and how it is written to `value`.
pub trait LoopItem: Sized + Send + 'static {
    /// The registry id (`LoopInt`, ...).
    const KIND: &'static str;
    /// The type of the `value` port.
    const TYPE: EntryType;
    /// One element of the queue text.
    fn parse(text: &str) -> Result<Self, ValueError>;
    /// Writes the element into the `value` entry.
    fn store(&self, bbs: &mut Blackboards, slot: EntrySlot) -> Result<(), ValueError>;
}

impl LoopItem for i64 {
    const KIND: &'static str = "LoopInt";
    const TYPE: EntryType = EntryType::Int;
    fn parse(text: &str) -> Result<Self, ValueError> {
        let v = leading_int(text)?;
        // BT.CPP's loop holds C++ `int`s.
        i32::try_from(v).map(i64::from).map_err(|_| {
            ValueError::new(format!(
                "value out of bound when converting [{text}] to integer"
            ))
        })
    }
    fn store(&self, bbs: &mut Blackboards, slot: EntrySlot) -> Result<(), ValueError> {
        bbs.set_slot(slot, Value::Int(*self))
    }
}

impl LoopItem for bool {
    const KIND: &'static str = "LoopBool";
    const TYPE: EntryType = EntryType::Bool;
    fn parse(text: &str) -> Result<Self, ValueError> {
        match parse_literal(text, EntryType::Bool)? {
            Value::Bool(b) => Ok(b),
            _ => Err(ValueError::new(format!(
                "invalid bool conversion of [{text}]"
            ))),
        }
    }
    fn store(&self, bbs: &mut Blackboards, slot: EntrySlot) -> Result<(), ValueError> {
        bbs.set_slot(slot, Value::Bool(*self))
    }
}

impl LoopItem for f64 {
    const KIND: &'static str = "LoopDouble";
    const TYPE: EntryType = EntryType::Double;
    fn parse(text: &str) -> Result<Self, ValueError> {
        leading_double(text)
    }
    fn store(&self, bbs: &mut Blackboards, slot: EntrySlot) -> Result<(), ValueError> {
        bbs.set_slot(slot, Value::Double(*self))
    }
}

impl LoopItem for String {
    const KIND: &'static str = "LoopString";
    const TYPE: EntryType = EntryType::Str;
    fn parse(text: &str) -> Result<Self, ValueError> {
        Ok(text.to_owned())
    }
    fn store(&self, bbs: &mut Blackboards, slot: EntrySlot) -> Result<(), ValueError> {
        bbs.set_slot_str(slot, self)
    }
}

/// Parses queue text into `items` (cleared first): `;`-separated elements, not trimmed; a
/// trailing `;` ends the last element.
pub fn parse_queue<T: LoopItem>(text: &str, items: &mut Vec<T>) -> Result<(), String> {
    items.clear();
    let mut pos = 0;
    while pos < text.len() {
        let end = text[pos..].find(';').map_or(text.len(), |i| pos + i);
        let item = T::parse(&text[pos..end])
            .map_err(|e| format!("element {} of [{text}]: {e}", items.len()))?;
        items.push(item);
        pos = end + 1;
    }
    Ok(())
}

fn register_loop<T: LoopItem, C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        T::KIND,
        NodeModel::new(
            Children::Exactly(1),
            vec![
                // Read as text (BT.CPP's untyped bidirectional port): a literal or `{q}`.
                PortDecl::input(
                    "queue",
                    EntryType::Any,
                    "values separated by `;`, or `{q}` holding such a string",
                ),
                PortDecl::output("value", T::TYPE, "the value popped for the child")
                    .literal_ignored(),
                PortDecl::input_or(
                    "if_empty",
                    EntryType::Str,
                    "SUCCESS",
                    "status returned when the queue is empty: SUCCESS, FAILURE, SKIPPED",
                ),
            ],
        ),
        |b| {
            let mut items = Vec::new();
            let source = match b.port("queue") {
                Port::Entry(slot) => Some(slot),
                _ => {
                    let text = b.text("queue").ok_or("missing required port `queue`")?;
                    parse_queue::<T>(&text, &mut items)
                        .map_err(|e| format!("port `queue`: {e}"))?;
                    None
                }
            };
            Ok(Box::new(LoopQueue::<T> {
                source,
                items,
                next: 0,
                loaded: false,
                child_running: false,
                value: b.port("value"),
                if_empty: b.port("if_empty"),
            }))
        },
    );
}

/// A loop's queue (the literal's values, or the last values read from its entry), the next
/// position, and whether the child is running.
#[derive(Debug)]
pub struct LoopQueue<T> {
    /// The entry holding the queue text; `None` for a literal (kept in `items`).
    source: Option<EntrySlot>,
    items: Vec<T>,
    next: usize,
    /// Whether `items` holds the entry's values of this run.
    loaded: bool,
    /// Kept, not read from the child's state: a child that returns `Skipped` may be left
    /// running (a `Sequence` marks itself running first), and the loop then pops again.
    child_running: bool,
    value: Port,
    if_empty: Port,
}

impl<T: LoopItem> LoopQueue<T> {
    /// Reads the queue entry into `items` (first pop of a run).
    fn load(&mut self, bbs: &Blackboards, slot: EntrySlot) -> Result<(), String> {
        match bbs.get_slot(slot) {
            Some(Value::Str(text)) => {
                parse_queue(text, &mut self.items).map_err(|e| format!("port `queue`: {e}"))?
            }
            Some(other) => {
                return Err(format!(
                    "port `queue`: entry `{}` holds a {}, not a string of values",
                    bbs.slot_key(slot),
                    other.type_name()
                ));
            }
            None => {
                return Err(format!(
                    "port `queue`: entry `{}` has no value",
                    bbs.slot_key(slot)
                ));
            }
        }
        self.loaded = true;
        self.next = 0;
        Ok(())
    }

    /// The status named by `if_empty` (a string is read in place: a loop answering
    /// `SKIPPED` every tick allocates nothing).
    fn empty_status<C>(&self, cx: &Cx<'_, C>) -> Result<Status, String> {
        let status = match cx
            .get(&self.if_empty)
            .ok_or("missing parameter [if_empty]")?
        {
            Value::Str(text) => parse_status(text),
            other => parse_status(
                &other
                    .to_string_value()
                    .map_err(|e| format!("port `if_empty`: {e}"))?,
            ),
        };
        status.map_err(|e| format!("port `if_empty`: {e}"))
    }
}

impl<C, T: LoopItem> Behavior<C> for LoopQueue<T> {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let idle = cx.state() == NodeState::Idle;
        if idle {
            self.child_running = false;
            self.next = 0;
            self.loaded = false;
        }
        let mut popped = false;
        if !self.child_running {
            if let Some(slot) = self.source
                && !self.loaded
            {
                self.load(cx.blackboard(), slot)?;
            }
            if let Some(item) = self.items.get(self.next) {
                if let Port::Entry(slot) = self.value {
                    item.store(cx.blackboard_mut(), slot)
                        .map_err(|e| format!("port `value`: {e}"))?;
                }
                self.next += 1;
                popped = true;
            }
        }
        if !popped && !self.child_running {
            return Ok(self.empty_status(cx)?);
        }
        if idle {
            cx.set_running();
        }
        let status = cx.tick_child(0)?;
        self.child_running = status == Status::Running;
        if status.is_completed() {
            cx.halt_child(0);
        }
        Ok(if status == Status::Failure {
            Status::Failure
        } else {
            Status::Running
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{LoopItem, parse_queue};
    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status};

    fn parsed<T: LoopItem>(text: &str) -> Result<Vec<T>, String> {
        let mut items = Vec::new();
        parse_queue(text, &mut items).map(|()| items)
    }

    fn lp(kind: &str, ports: serde_json::Value, child: serde_json::Value) -> serde_json::Value {
        dec(kind, ports, child)
    }

    fn value(t: &crate::engine::Tree<Ctx>, key: &str) -> Option<Value> {
        t.blackboard().get(t.root_scope(), key).cloned()
    }

    #[test]
    fn queue_text_follows_btcpp() {
        assert_eq!(parsed::<i64>(""), Ok(vec![]));
        assert_eq!(parsed::<i64>("1;2;"), Ok(vec![1, 2]));
        assert_eq!(parsed::<i64>("07;2x;1.5;-1.9"), Ok(vec![7, 2, 1, -1]));
        assert!(parsed::<i64>("+3").is_err());
        assert!(parsed::<i64>("1;;3").is_err());
        assert!(parsed::<i64>(";").is_err());
        assert!(parsed::<i64>("3000000000").is_err());
        assert!(parsed::<i64>(" 1").is_err());
        assert_eq!(parsed::<f64>("1.5;-2;3e1x"), Ok(vec![1.5, -2.0, 30.0]));
        assert!(parsed::<f64>(" 1.5").is_err());
        assert!(parsed::<f64>("+1.5").is_err());
        assert_eq!(
            parsed::<bool>("true;false;1;0;TRUE;True;FALSE;False"),
            Ok(vec![true, false, true, false, true, true, false, false])
        );
        assert!(parsed::<bool>("yes").is_err());
        assert!(parsed::<bool>("1;;0").is_err());
        assert_eq!(
            parsed::<String>(" a ; b;"),
            Ok(vec![" a ".to_owned(), " b".to_owned()])
        );
    }

    #[test]
    fn n_values_take_n_plus_one_ticks() {
        let mut t = build(lp(
            "LoopInt",
            json!({ "queue": "1;2;3", "value": "{v}" }),
            act("a"),
        ));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        for expected in 1..=3 {
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
            assert_eq!(entries(&t), [(1, Status::Success), (0, Status::Running)]);
            assert_eq!(value(&t, "v"), Some(Value::Int(expected)));
        }
        // The `if_empty` status comes on the next tick, without ticking the child.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
        assert_eq!(ctx.ticks("a"), 3);
        // A new run reloads the literal.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Int(1)));
    }

    #[test]
    fn failure_fails_at_once_and_running_does_not_pop() {
        let mut t = build(lp(
            "LoopDouble",
            json!({ "queue": "0.5;1.5;2.5", "value": "{v}" }),
            act("a"),
        ));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Double(0.5)));
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Double(0.5)));
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(value(&t, "v"), Some(Value::Double(1.5)));
        assert!(all_idle(&t));
    }

    #[test]
    fn if_empty_is_read_only_when_needed() {
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        let mut t = build(lp(
            "LoopBool",
            json!({ "queue": "true", "value": "{v}", "if_empty": "FAILURE" }),
            act("a"),
        ));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Bool(true)));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        // A bad `if_empty` loads, and fails at the tick that needs it.
        let mut t = build(lp(
            "LoopBool",
            json!({ "queue": "0", "if_empty": "MAYBE" }),
            act("a"),
        ));
        assert_eq!(t.try_tick(&mut ctx, 0.0), Ok(Status::Running));
        let e = t.try_tick(&mut ctx, 0.0).err().map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|e| e.contains("port `if_empty`: cannot convert [MAYBE]")),
            "{e:?}"
        );
        // An empty queue answers at once.
        let mut t = build(lp("LoopInt", json!({ "queue": "" }), act("a")));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
    }

    #[test]
    fn skipped_after_a_pass_keeps_skipping_until_halted() {
        let mut t = build(lp(
            "LoopString",
            json!({ "queue": "a;b", "value": "{v}", "if_empty": "SKIPPED" }),
            act("a"),
        ));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Str("b".into())));
        for _ in 0..3 {
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
            assert!(t.is_running(NodeId(0)));
        }
        assert_eq!(ctx.ticks("a"), 2);
        t.halt(&mut ctx);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Str("a".into())));
        // Skipped from idle: the first tick of an empty queue leaves it idle.
        let mut t = build(lp(
            "LoopString",
            json!({ "queue": "", "if_empty": "SKIPPED" }),
            act("a"),
        ));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        assert!(all_idle(&t));
    }

    #[test]
    fn a_queue_entry_is_read_on_the_first_pop_of_each_run() {
        let mut t = build_untyped(
            lp(
                "LoopInt",
                json!({ "queue": "{q}", "value": "{v}" }),
                act("a"),
            ),
            &["q"],
        );
        put(&mut t, "q", Value::Str("4;5".into()));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Int(4)));
        // Writing the entry while the loop runs changes nothing until it restarts.
        put(&mut t, "q", Value::Str("7".into()));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Int(5)));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(value(&t, "v"), Some(Value::Int(7)));
    }

    #[test]
    fn a_queue_entry_that_is_not_a_string_is_a_tick_error() {
        let tree = lp("LoopInt", json!({ "queue": "{q}" }), act("a"));
        let mut t = build(tree.clone());
        let mut ctx = Ctx::default();
        let e = t.try_tick(&mut ctx, 0.0).err().map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("entry `q` has no value")));
        let mut t = build(tree.clone());
        put(&mut t, "q", Value::Int(3));
        let e = t.try_tick(&mut ctx, 0.0).err().map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("holds a int")));
        let mut t = build(tree);
        put(&mut t, "q", Value::Str("1;;2".into()));
        assert!(t.try_tick(&mut ctx, 0.0).is_err());
        assert_eq!(ctx.ticks("a"), 0);
    }

    #[test]
    fn a_literal_value_port_is_ignored() {
        let mut t = build(lp(
            "LoopInt",
            json!({ "queue": "1", "value": "7" }),
            act("a"),
        ));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
    }

    #[test]
    fn bad_literals_and_a_missing_queue_are_load_errors_at_the_port() {
        let mut v = lp("LoopInt", json!({ "queue": "1;;3" }), act("a"));
        v["name"] = json!("loop");
        v["span"] = json!({ "file": "t.xml", "line": 2, "column": 3 });
        v["port_spans"] = json!({ "queue": { "file": "t.xml", "line": 2, "column": 12 } });
        let e = compile_errors(v);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].starts_with("t.xml:2:3: loop: port `queue`: element 1 of [1;;3]"),
            "{e:?}"
        );
        let e = compile_errors(lp("LoopDouble", json!({ "queue": " 1" }), act("a")));
        assert!(e[0].contains("port `queue`"), "{e:?}");
        let e = compile_errors(lp("LoopString", json!({}), act("a")));
        assert!(
            e[0].contains("missing required port `queue` of `LoopString`"),
            "{e:?}"
        );
    }
}
