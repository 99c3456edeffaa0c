//! The entry-update nodes of BT.CPP 4, which all watch one blackboard entry's write counter
//! ([`Blackboards::slot_writes`]) through one [`UpdateWatch`]: the entry counts as updated
//! when its counter differs from the one this node saw at its previous check (none at first).
//! Every write counts, also one that rewrites the same value (input lines, scripts,
//! `SetBlackboard`, output ports); a missing entry is "not updated" and leaves the memory as
//! it was. Each node has its own memory.
//!
//! * `WasEntryUpdated` (condition): `Success` when updated, else `Failure`.
//! * `SkipUnlessUpdated` (decorator): ticks its child when updated, else `Skipped`.
//! * `WaitValueUpdate` (decorator): ticks its child when updated, else `Running`.
//!
//! | entry since the last check | child | WasEntryUpdated | SkipUnlessUpdated | WaitValueUpdate |
//! |---|---|---|---|---|
//! | written (once or more) | its result | `Success` | the child's result | the child's result |
//! | not written, or missing | not ticked | `Failure` | `Skipped` | `Running` |
//! | (not checked) child was `Running` | ticked again | - | the child's result | the child's result |
//!
//! Port `entry` names the entry, as `{k}` or `k`; a missing or empty `entry` is a load error.
//! A completed child is reset after the tick (BT.CPP's `DecoratorNode::executeTick` resets a
//! child that ended in success or failure), so its pre-conditions are checked again the next
//! time it is ticked; halting the decorator halts the running child, and the next tick checks
//! the entry again.
//!
//! [`Blackboards::slot_writes`]: crate::engine::blackboard::Blackboards::slot_writes

use crate::engine::blackboard::{Blackboards, EntrySlot, EntryType, remapped_key};
use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeBuilder, NodeModel, PortDecl, Registry, Status};

/// Registers `WasEntryUpdated`, `SkipUnlessUpdated` and `WaitValueUpdate`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "WasEntryUpdated",
        NodeModel::new(Children::None, vec![entry_port()]).condition(),
        |b| Ok(Box::new(WasEntryUpdated(UpdateWatch::new(b)?))),
    );
    for (id, otherwise) in [
        ("SkipUnlessUpdated", Status::Skipped),
        ("WaitValueUpdate", Status::Running),
    ] {
        registry.register(
            id,
            NodeModel::new(Children::Exactly(1), vec![entry_port()]),
            move |b| {
                Ok(Box::new(UnlessUpdated {
                    watch: UpdateWatch::new(b)?,
                    otherwise,
                    child_running: false,
                }))
            },
        );
    }
}

fn entry_port() -> PortDecl {
    PortDecl::input("entry", EntryType::Any, "the entry to watch (`{k}` or `k`)")
}

/// One entry's slot and the write count seen at the previous check (0: none yet, as a
/// new entry has not been written).
#[derive(Debug)]
pub struct UpdateWatch {
    slot: EntrySlot,
    seen: u64,
}

impl UpdateWatch {
    /// Resolves port `entry` (`{k}` or `k`) at load time.
    pub fn new(b: &mut NodeBuilder<'_>) -> Result<Self, String> {
        let text = b.text("entry").ok_or("missing required port `entry`")?;
        let key = remapped_key("entry", &text).unwrap_or(&text);
        if key.is_empty() {
            return Err("port `entry`: the key is empty".to_owned());
        }
        let (bbs, scope) = b.blackboard();
        let slot = bbs
            .reserve(scope, key)
            .ok_or_else(|| format!("port `entry`: `{key}` is not a valid blackboard key"))?;
        Ok(Self { slot, seen: 0 })
    }

    /// Whether the entry was written since the previous check; remembers its count. A
    /// missing entry is not updated and leaves the memory as it was.
    pub fn updated(&mut self, bbs: &Blackboards) -> bool {
        match bbs.slot_writes(self.slot) {
            Some(count) => std::mem::replace(&mut self.seen, count) != count,
            None => false,
        }
    }
}

/// `WasEntryUpdated`: `Success` when the entry was written since the previous tick.
#[derive(Debug)]
pub struct WasEntryUpdated(UpdateWatch);

impl<C> Behavior<C> for WasEntryUpdated {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        Ok(if self.0.updated(cx.blackboard()) {
            Status::Success
        } else {
            Status::Failure
        })
    }

    fn halt(&mut self, _cx: &mut Cx<'_, C>) {}
}

/// `SkipUnlessUpdated` / `WaitValueUpdate`: the watch, the status returned when the entry
/// was not updated, and whether the child is running (then the entry is not checked).
#[derive(Debug)]
pub struct UnlessUpdated {
    watch: UpdateWatch,
    otherwise: Status,
    child_running: bool,
}

impl<C> Behavior<C> for UnlessUpdated {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        if !self.child_running && !self.watch.updated(cx.blackboard()) {
            return Ok(self.otherwise);
        }
        let status = cx.tick_child(0)?;
        self.child_running = status == Status::Running;
        if matches!(status, Status::Success | Status::Failure) {
            cx.halt_child(0);
        }
        Ok(status)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.child_running = false;
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status};

    fn was(entry: &str) -> serde_json::Value {
        leaf("WasEntryUpdated", "was", json!({ "entry": entry }))
    }

    #[test]
    fn was_entry_updated_follows_the_write_counter() {
        let mut t = build(was("{k}"));
        let mut ctx = Ctx::default();
        // Missing entry: not updated.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        put(&mut t, "k", Value::Int(1));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        // Rewriting the same value counts.
        put(&mut t, "k", Value::Int(1));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        // Two writes between checks: one update.
        put(&mut t, "k", Value::Int(2));
        put(&mut t, "k", Value::Int(3));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
    }

    #[test]
    fn the_key_may_be_bare_and_scripts_count_as_writes() {
        let tree = json!({ "type": "Sequence", "children": [
            { "type": "Script", "ports": { "code": "k := 5" } },
            was("k"),
        ]});
        let mut t = build(tree);
        let mut ctx = Ctx::default();
        // The script rewrites the same value on every tick: always updated.
        for _ in 0..3 {
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        }
    }

    #[test]
    fn each_instance_keeps_its_own_memory() {
        let tree = json!({ "type": "Sequence", "children": [was("{k}"), was("{k}")] });
        let mut t = build(tree);
        let mut ctx = Ctx::default();
        put(&mut t, "k", Value::Str("a".into()));
        // Both see the write, not only the first to check.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Failure)]);
    }

    #[test]
    fn skip_unless_updated_skips_or_ticks_the_child() {
        let mut t = build(dec(
            "SkipUnlessUpdated",
            json!({ "entry": "{k}" }),
            act("a"),
        ));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(0, Status::Skipped)]);
        put(&mut t, "k", Value::Int(0));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(1, Status::Success), (0, Status::Success)]);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
        assert_eq!(ctx.ticks("a"), 1);
    }

    #[test]
    fn a_running_child_is_ticked_without_checking_the_entry() {
        let mut t = build(dec("WaitValueUpdate", json!({ "entry": "k" }), act("a")));
        let mut ctx = Ctx::default();
        // Not updated: Running without ticking the child.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(0, Status::Running)]);
        put(&mut t, "k", Value::Int(0));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Running), (0, Status::Running)]);
        // No new write, but the child runs on.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(1, Status::Running), (0, Status::Running)]);
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        // Completed: the entry is checked again.
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(0, Status::Running)]);
        assert_eq!(ctx.ticks("a"), 3);
    }

    #[test]
    fn a_completed_child_is_reset_so_its_pre_conditions_apply_again() {
        // Oracle default_lib/044: SkipUnlessUpdated(c) over Noop[_failureIf a == 0]; the Noop
        // fails from its pre-condition, and must fail again on the next update, as BT.CPP
        // reset it after the tick.
        let mut t = build(dec(
            "SkipUnlessUpdated",
            json!({ "entry": "c" }),
            json!({ "type": "AlwaysSuccess", "name": "noo", "ports": { "_failureIf": "a == 0" } }),
        ));
        let mut ctx = Ctx::default();
        put(&mut t, "a", Value::Int(0));
        put(&mut t, "c", Value::Int(0));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        put(&mut t, "c", Value::Int(3));
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Failure);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Failure)]);
        put(&mut t, "a", Value::Int(1));
        put(&mut t, "c", Value::Int(3));
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Success);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
    }

    #[test]
    fn halting_forgets_the_running_child() {
        let mut t = build(guarded(
            "g",
            dec("SkipUnlessUpdated", json!({ "entry": "{k}" }), act("a")),
        ));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        put(&mut t, "k", Value::Int(0));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert_eq!(t.state(NodeId(3)), NodeState::Idle);
        ctx.set("g", true);
        // The entry is checked again: no write since, so skipped.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(t.trace().status_of(NodeId(2)), Some(Status::Skipped));
        assert_eq!(ctx.ticks("a"), 1);
    }

    #[test]
    fn a_missing_entry_port_is_a_load_error_at_the_node() {
        let mut v = json!({ "type": "WasEntryUpdated", "name": "w" });
        v["span"] = json!({ "file": "t.xml", "line": 3, "column": 5 });
        let e = compile_errors(v);
        assert_eq!(
            e,
            ["t.xml:3:5: w: missing required port `entry` of `WasEntryUpdated`"]
        );
        let e = compile_errors(dec("SkipUnlessUpdated", json!({ "entry": "" }), act("a")));
        assert!(e[0].contains("port `entry`: the key is empty"), "{e:?}");
        let e = compile_errors(dec("WaitValueUpdate", json!({}), act("a")));
        assert!(e[0].contains("missing required port `entry`"), "{e:?}");
    }
}
