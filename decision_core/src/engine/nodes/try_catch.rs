//! `TryCatch` (BT.CPP 4): the children but the last (the "try" block) run as a `Sequence`;
//! when one of them fails, the last child (the "catch") runs, and `TryCatch` fails once it
//! has completed.
//!
//! | case | TryCatch |
//! |---|---|
//! | try child `Running` | `Running` (resumes at that child next tick) |
//! | try child `Success` / `Skipped` | goes on with the next try child |
//! | all try children done | `Success`, or `Skipped` when every try child skipped; children reset |
//! | try child `Failure` | try children reset, the catch child is ticked in the same tick |
//! | catch child `Running` | `Running` (next tick ticks the catch child again) |
//! | catch child `Success` / `Failure` | `Failure`; children reset, next tick starts the try block again |
//!
//! `catch_on_halt` (default `false`, a literal `true` / `false`): when the node is halted while
//! in the try block, the running try child is halted and the catch child is ticked inside the
//! halt (so it appears in the trace of the tick in which a parent halted `TryCatch`, before
//! that parent's own entry); a catch child still running then is halted too. Halted while in
//! the catch, or with `catch_on_halt` false, it only halts its running child. Fewer than two
//! children is a load error.

use super::round::Round;
use crate::engine::blackboard::{EntryType, Value};
use crate::engine::node::{Behavior, Cx, Fault, NodeState, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `TryCatch`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "TryCatch",
        NodeModel::new(
            Children::AtLeast(2),
            vec![PortDecl::input_or(
                "catch_on_halt",
                EntryType::Bool,
                "false",
                "tick the catch child when halted during the try block",
            )],
        ),
        |b| {
            let catch_on_halt = match b.port("catch_on_halt") {
                Port::Literal(Value::Bool(on)) => on,
                _ => {
                    return Err(
                        "port `catch_on_halt`: expected a literal `true` or `false`".to_owned()
                    );
                }
            };
            Ok(Box::new(TryCatch {
                catch_on_halt,
                round: Round::default(),
                in_catch: false,
            }))
        },
    );
}

/// The try block's position and skipped count, and whether the catch child is running.
#[derive(Debug)]
pub struct TryCatch {
    catch_on_halt: bool,
    round: Round,
    in_catch: bool,
}

impl<C> Behavior<C> for TryCatch {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let n = cx.child_count();
        let tries = n - 1;
        if cx.state() == NodeState::Idle {
            self.in_catch = false;
        }
        self.round.start(cx);
        while !self.in_catch && self.round.current < tries {
            match cx.tick_child(self.round.current)? {
                Status::Running => return Ok(Status::Running),
                Status::Failure => {
                    cx.halt_children();
                    self.round.current = 0;
                    self.in_catch = true;
                }
                Status::Success => self.round.current += 1,
                Status::Skipped => self.round.skip(),
            }
        }
        if self.in_catch {
            if cx.tick_child(tries)? == Status::Running {
                return Ok(Status::Running);
            }
            cx.halt_children();
            self.round.current = 0;
            self.in_catch = false;
            return Ok(Status::Failure);
        }
        Ok(self.round.finish(cx, tries, Status::Success))
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        let n = cx.child_count();
        if self.catch_on_halt && !self.in_catch && cx.state() == NodeState::Running && n >= 2 {
            for i in 0..n - 1 {
                cx.halt_child(i);
            }
            match cx.tick_child(n - 1) {
                Ok(Status::Running) => cx.halt_child(n - 1),
                Ok(_) => {}
                Err(fault) => cx.defer_fault(fault),
            }
        }
        self.round = Round::default();
        self.in_catch = false;
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status};

    fn try_catch(on_halt: bool, children: Vec<serde_json::Value>) -> serde_json::Value {
        json!({ "type": "TryCatch", "ports": { "catch_on_halt": on_halt }, "children": children })
    }

    #[test]
    fn the_try_block_runs_as_a_sequence() {
        let mut t = build(try_catch(
            false,
            vec![act("a"), skipped(), act("b"), act("c")],
        ));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Success),
                (2, Status::Skipped),
                (3, Status::Running),
                (0, Status::Running)
            ]
        );
        ctx.ret("b", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
        assert_eq!(entries(&t), [(3, Status::Success), (0, Status::Success)]);
        assert_eq!(ctx.ticks("c"), 0);
        assert!(all_idle(&t));
        let mut t = build(try_catch(false, vec![skipped(), act("c")]));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Skipped);
    }

    #[test]
    fn a_failure_ticks_the_catch_in_the_same_tick_then_fails() {
        let mut t = build(try_catch(false, vec![act("a"), act("b"), act("c")]));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success).ret("b", Status::Failure);
        // The catch runs: TryCatch stays running.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Success),
                (2, Status::Failure),
                (3, Status::Running),
                (0, Status::Running)
            ]
        );
        // The catch is ticked again, not the try block.
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(entries(&t), [(3, Status::Running), (0, Status::Running)]);
        // A completed catch (success or failure) gives FAILURE.
        ctx.ret("c", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(entries(&t), [(3, Status::Success), (0, Status::Failure)]);
        assert!(all_idle(&t));
        // Next round starts the try block again.
        ctx.ret("c", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(
            entries(&t),
            [
                (1, Status::Success),
                (2, Status::Failure),
                (3, Status::Failure),
                (0, Status::Failure)
            ]
        );
    }

    #[test]
    fn catch_on_halt_ticks_the_catch_inside_the_halt() {
        let mut t = build(guarded("g", try_catch(true, vec![act("a"), act("c")])));
        let mut ctx = Ctx::default();
        ctx.set("g", true).ret("c", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        // The catch's entry comes before the reactive parent's own.
        assert_eq!(
            entries(&t),
            [
                (1, Status::Failure),
                (4, Status::Success),
                (0, Status::Failure)
            ]
        );
        assert_eq!(ctx.halts("a"), 1);
        assert_eq!(ctx.ticks("c"), 1);
        assert!(all_idle(&t));
    }

    #[test]
    fn a_catch_still_running_in_the_halt_is_halted() {
        let mut t = build(guarded("g", try_catch(true, vec![act("a"), act("c")])));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(t.trace().status_of(NodeId(4)), Some(Status::Running));
        assert_eq!(ctx.halts("c"), 1);
        assert!(all_idle(&t));
    }

    #[test]
    fn no_catch_on_halt_when_off_or_already_in_the_catch() {
        let mut t = build(guarded("g", try_catch(false, vec![act("a"), act("c")])));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(entries(&t), [(1, Status::Failure), (0, Status::Failure)]);
        assert_eq!(ctx.ticks("c"), 0);
        // In the catch: halting halts the catch once, without ticking it again.
        let mut t = build(guarded("g", try_catch(true, vec![act("a"), act("c")])));
        let mut ctx = Ctx::default();
        ctx.set("g", true).ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!(ctx.ticks("c"), 1);
        assert_eq!(ctx.halts("c"), 1);
    }

    #[test]
    fn load_errors() {
        let e = compile_errors(json!({ "type": "TryCatch", "children": [act("a")] }));
        assert_eq!(
            e,
            ["TryCatch: `TryCatch` needs at least 2 children, found 1"]
        );
        let e = compile_errors(json!({ "type": "TryCatch",
            "ports": { "catch_on_halt": "{k}" }, "children": [act("a"), act("b")] }));
        assert!(
            e[0].contains("expected a literal `true` or `false`"),
            "{e:?}"
        );
        let e = compile_errors(json!({ "type": "TryCatch",
            "ports": { "catch_on_halt": "yes" }, "children": [act("a"), act("b")] }));
        assert!(e[0].contains("port `catch_on_halt`"), "{e:?}");
    }
}
