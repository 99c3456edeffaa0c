//! `Precondition` (BT.CPP 4): ticks the child only if the script `if` holds, else returns
//! the status named by `else` (default `FAILURE`). Once the child has been started the
//! script is not evaluated again until the child completes.
//!
//! | script `if` | child result | Precondition |
//! |---|---|---|
//! | false (child not started) | not ticked | `else` (`SUCCESS`, `FAILURE`, `RUNNING` or `SKIPPED`) |
//! | true, or child started | `Success` / `Failure` | the same; child reset, the script is checked again next tick |
//! | true, or child started | `Running` / `Skipped` | the same; the child counts as started |
//!
//! `if` is parsed at load time (a bad script is a compile error); `else` is read on every
//! tick, and `IDLE` (which BT.CPP would return and then misbehave on) is a tick error.
//! Halting halts the running child but, as in BT.CPP, does not forget that the child was
//! started: the next tick ticks it without checking `if`.

use crate::engine::blackboard::{EntryType, Value};
use crate::engine::node::{Behavior, Cx, Fault, Port};
use crate::engine::script::Script;
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `Precondition`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Precondition",
        NodeModel::new(
            Children::Exactly(1),
            vec![
                PortDecl::input("if", EntryType::Str, "script: tick the child if true"),
                PortDecl::input_or(
                    "else",
                    EntryType::Str,
                    "FAILURE",
                    "status returned when the script is false",
                ),
            ],
        ),
        |b| {
            let cond = b.script("if")?;
            let otherwise = b.port("else");
            if let Port::Literal(Value::Str(text)) = &otherwise {
                parse_status(text).map_err(|e| format!("port `else`: {e}"))?;
            }
            Ok(Box::new(Precondition {
                cond,
                otherwise,
                started: false,
            }))
        },
    );
}

/// A BT.CPP status name; `IDLE` is refused (a node cannot return it).
pub(crate) fn parse_status(text: &str) -> Result<Status, String> {
    match text {
        "SUCCESS" => Ok(Status::Success),
        "FAILURE" => Ok(Status::Failure),
        "RUNNING" => Ok(Status::Running),
        "SKIPPED" => Ok(Status::Skipped),
        "IDLE" => Err("a node cannot return IDLE".to_owned()),
        other => Err(format!("cannot convert [{other}] to a node status")),
    }
}

/// The `if` script, the `else` port, and whether the child was started.
#[derive(Debug)]
pub struct Precondition {
    cond: Script,
    otherwise: Port,
    started: bool,
}

impl<C> Behavior<C> for Precondition {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let otherwise = match cx.get(&self.otherwise) {
            Some(v) => {
                let text = v
                    .to_string_value()
                    .map_err(|e| format!("port `else`: {e}"))?;
                parse_status(&text).map_err(|e| format!("port `else`: {e}"))?
            }
            None => return Err("missing parameter [else]".into()),
        };
        if !self.started {
            self.started = self
                .cond
                .eval_bool(cx.blackboard_mut())
                .map_err(|e| format!("script `{}`: {}", self.cond.source(), e.message))?;
        }
        if !self.started {
            return Ok(otherwise);
        }
        let status = cx.tick_child(0)?;
        if status.is_completed() {
            cx.halt_child(0);
            self.started = false;
        }
        Ok(status)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::blackboard::Value;
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status, compile};

    fn pre(ports: serde_json::Value, child: serde_json::Value) -> serde_json::Value {
        dec("Precondition", ports, child)
    }

    #[test]
    fn true_condition_passes_the_child_through() {
        for child in [Status::Success, Status::Failure, Status::Running] {
            let mut t = build(pre(json!({ "if": "1 == 1" }), act("a")));
            let mut ctx = Ctx::default();
            ctx.ret("a", child);
            assert_eq!(t.tick(&mut ctx, 0.0), child);
            assert_eq!(entries(&t), [(1, child), (0, child)]);
        }
        let mut t = build(pre(json!({ "if": "true" }), skipped()));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
    }

    #[test]
    fn false_condition_returns_else_without_ticking() {
        for (name, expected) in [
            (None, Status::Failure),
            (Some("SUCCESS"), Status::Success),
            (Some("RUNNING"), Status::Running),
            (Some("SKIPPED"), Status::Skipped),
        ] {
            let mut ports = json!({ "if": "x > 1" });
            if let Some(n) = name {
                ports["else"] = json!(n);
            }
            let mut t = build(pre(ports, act("a")));
            let root = t.root_scope();
            t.blackboard_mut().set(root, "x", Value::Int(0)).unwrap();
            let mut ctx = Ctx::default();
            assert_eq!(t.tick(&mut ctx, 0.0), expected);
            assert_eq!(entries(&t), [(0, expected)]);
            assert_eq!(ctx.ticks("a"), 0);
        }
    }

    #[test]
    fn a_started_child_is_ticked_without_rechecking_until_it_completes() {
        let mut t = build(pre(json!({ "if": "x == 1" }), act("a")));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "x", Value::Int(1)).unwrap();
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        t.blackboard_mut().set(root, "x", Value::Int(0)).unwrap();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(t.state(NodeId(1)), NodeState::Idle);
        // Completed: the script is checked again and is now false.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.ticks("a"), 3);
    }

    #[test]
    fn halting_halts_the_child_once_but_keeps_it_started() {
        // 0 ReactiveSequence, 1 flag g, 2 Precondition, 3 act a
        let mut t = build(guarded("g", pre(json!({ "if": "x == 1" }), act("a"))));
        let root = t.root_scope();
        t.blackboard_mut().set(root, "x", Value::Int(1)).unwrap();
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert!(all_idle(&t));
        // BT.CPP keeps its "children running" flag across the halt.
        t.blackboard_mut().set(root, "x", Value::Int(0)).unwrap();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(ctx.ticks("a"), 2);
    }

    #[test]
    fn errors() {
        for ports in [
            json!({}),
            json!({ "if": "x ==" }),
            json!({ "if": "true", "else": "IDLE" }),
            json!({ "if": "true", "else": "success" }),
        ] {
            assert!(compile(&spec(pre(ports, act("a"))), &registry()).is_err());
        }
        // A non-boolean script value is a tick error.
        let mut t = build(pre(json!({ "if": "'text'" }), act("a")));
        assert!(t.try_tick(&mut Ctx::default(), 0.0).is_err());
        // A bad `else` from the blackboard is a tick error.
        let mut t = build(pre(json!({ "if": "false", "else": "{e}" }), act("a")));
        let root = t.root_scope();
        t.blackboard_mut()
            .set(root, "e", Value::Str("IDLE".into()))
            .unwrap();
        assert!(t.try_tick(&mut Ctx::default(), 0.0).is_err());
    }
}
