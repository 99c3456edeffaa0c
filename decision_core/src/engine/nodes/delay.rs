//! `Delay` (BT.CPP 4): waits `delay_msec` milliseconds on the injected clock, then ticks the
//! child until it completes.
//!
//! | state | child result | Delay |
//! |---|---|---|
//! | first tick from idle: the timer starts | not ticked | `Running` |
//! | waiting (`now < start + delay`) | not ticked | `Running` |
//! | delay over | `Success` / `Failure` | the same; child reset, the next tick starts a new delay |
//! | delay over | `Running` / `Skipped` | the same; the delay stays over (the next tick ticks the child) |
//!
//! The tick that starts the timer always returns `Running`, even for a zero delay (BT.CPP's
//! timer fires on another thread after that tick has checked it). `delay_msec` is read on
//! every tick; a missing or negative value is a tick error. Halting cancels the timer and
//! halts the running child.

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault, Port};
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `Delay`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Delay",
        NodeModel::new(
            Children::Exactly(1),
            // Required: a missing port is a load error, as `robot-decision bt` requires (BT.CPP
            // reports it on the first tick).
            vec![PortDecl::input(
                "delay_msec",
                EntryType::Int,
                "milliseconds to wait before ticking the child",
            )],
        ),
        |b| {
            Ok(Box::new(Delay {
                msec: b.port("delay_msec"),
                until: None,
            }))
        },
    );
}

/// Reads an unsigned millisecond port as seconds (the engine's clock unit).
pub(crate) fn read_seconds<C>(cx: &Cx<'_, C>, port: &Port, name: &str) -> Result<f64, String> {
    let ms = cx
        .get_int(port, name)
        .map_err(|e| format!("missing parameter [{name}]: {e}"))?;
    if ms < 0 {
        return Err(format!("port `{name}`: {ms} is not an unsigned number"));
    }
    Ok(ms as f64 / 1000.0)
}

/// The `delay_msec` port and, once started, the time the delay ends.
#[derive(Debug)]
pub struct Delay {
    msec: Port,
    until: Option<f64>,
}

impl<C> Behavior<C> for Delay {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        let delay = read_seconds(cx, &self.msec, "delay_msec")?;
        let Some(until) = self.until else {
            self.until = Some(cx.now() + delay);
            return Ok(Status::Running);
        };
        if cx.now() < until {
            return Ok(Status::Running);
        }
        let status = cx.tick_child(0)?;
        if status.is_completed() {
            self.until = None;
            cx.halt_child(0);
        }
        Ok(status)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.until = None;
        cx.halt_children();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::test_support::*;
    use crate::engine::{NodeId, NodeState, Status, compile};

    fn delay(ms: i64, child: serde_json::Value) -> serde_json::Value {
        dec("Delay", json!({ "delay_msec": ms }), child)
    }

    #[test]
    fn waits_on_the_injected_clock_then_ticks_the_child() {
        let mut t = build(delay(500, act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 10.0), Status::Running);
        assert_eq!(entries(&t), [(0, Status::Running)]);
        assert_eq!(t.tick(&mut ctx, 10.499), Status::Running);
        assert_eq!(ctx.ticks("a"), 0);
        assert_eq!(t.tick(&mut ctx, 10.5), Status::Success);
        assert_eq!(entries(&t), [(1, Status::Success), (0, Status::Success)]);
        // Completed: the next tick starts a new delay.
        assert_eq!(t.tick(&mut ctx, 11.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 11.4), Status::Running);
        assert_eq!(t.tick(&mut ctx, 11.5), Status::Success);
        assert_eq!(ctx.ticks("a"), 2);
    }

    #[test]
    fn outcome_table_after_the_delay() {
        for child in [Status::Success, Status::Failure, Status::Running] {
            let mut t = build(delay(100, act("a")));
            let mut ctx = Ctx::default();
            ctx.ret("a", child);
            assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
            assert_eq!(t.tick(&mut ctx, 0.1), child);
            assert_eq!(entries(&t), [(1, child), (0, child)]);
        }
    }

    #[test]
    fn a_running_or_skipped_child_is_ticked_again_without_a_new_delay() {
        let mut t = build(delay(100, act("a")));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.2), Status::Running);
        assert_eq!(t.state(NodeId(1)), NodeState::Running);
        ctx.ret("a", Status::Failure);
        assert_eq!(t.tick(&mut ctx, 0.21), Status::Failure);
        assert_eq!(ctx.ticks("a"), 2);

        let mut t = build(delay(100, skipped()));
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.1), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
        assert_eq!(t.tick(&mut ctx, 0.1), Status::Skipped);
        assert_eq!(entries(&t), [(1, Status::Skipped), (0, Status::Skipped)]);
    }

    #[test]
    fn zero_delay_runs_once_before_ticking_the_child() {
        let mut t = build(delay(0, act("a")));
        let mut ctx = Ctx::default();
        ctx.ret("a", Status::Success);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Success);
    }

    #[test]
    fn halting_cancels_the_delay_and_halts_the_child_once() {
        let mut t = build(guarded("g", delay(100, act("a"))));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.1), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.2), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
        assert!(all_idle(&t));
        // A new delay starts after the halt.
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 5.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 5.05), Status::Running);
        assert_eq!(ctx.ticks("a"), 1);
        // Halted while waiting: the child was never started, so it is not halted.
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 5.06), Status::Failure);
        assert_eq!(ctx.halts("a"), 1);
    }

    #[test]
    fn missing_delay_is_a_compile_error_and_a_negative_one_a_tick_error() {
        let missing = compile(&spec(dec("Delay", json!({}), act("a"))), &registry());
        assert!(
            missing
                .err()
                .is_some_and(|e| e[0].message.contains("missing required port `delay_msec`"))
        );
        let s = spec(dec("Delay", json!({ "delay_msec": -1 }), act("a")));
        let mut t = compile(&s, &registry()).unwrap();
        assert!(t.try_tick(&mut Ctx::default(), 0.0).is_err());
    }
}
