//! `Sleep` (BT.CPP 4): an action that runs for `msec` milliseconds on the injected clock.
//!
//! | state | Sleep |
//! |---|---|
//! | idle, `msec` = 0 | `Success` |
//! | idle, `msec` > 0 | `Running`; the timer starts |
//! | running, `now < start + msec` | `Running` |
//! | running, time up | `Success` |
//!
//! `msec` is read when the sleep starts; a missing or negative value is a tick error.
//! Halting cancels the sleep: the next tick starts a new one.

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault, NodeState, Port};
use crate::engine::nodes::delay::read_seconds;
use crate::engine::{Children, NodeModel, PortDecl, Registry, Status};

/// Registers `Sleep`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "Sleep",
        NodeModel::new(
            Children::None,
            // Required: a missing port is a load error, as `robot-decision bt` requires (BT.CPP
            // reports it on the first tick).
            vec![PortDecl::input(
                "msec",
                EntryType::Int,
                "milliseconds to sleep",
            )],
        ),
        |b| {
            Ok(Box::new(Sleep {
                msec: b.port("msec"),
                until: 0.0,
            }))
        },
    );
}

/// The `msec` port and the time the running sleep ends.
#[derive(Debug)]
pub struct Sleep {
    msec: Port,
    until: f64,
}

impl<C> Behavior<C> for Sleep {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        match cx.state() {
            NodeState::Idle => {
                let secs = read_seconds(cx, &self.msec, "msec")?;
                if secs == 0.0 {
                    return Ok(Status::Success);
                }
                self.until = cx.now() + secs;
                Ok(Status::Running)
            }
            NodeState::Running if cx.now() < self.until => Ok(Status::Running),
            NodeState::Running | NodeState::Success => Ok(Status::Success),
            NodeState::Failure => Ok(Status::Failure),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::engine::test_support::*;
    use crate::engine::{Status, compile};

    fn sleep(ms: i64) -> serde_json::Value {
        leaf("Sleep", "zz", json!({ "msec": ms }))
    }

    #[test]
    fn runs_until_the_injected_time_is_up() {
        let mut t = build(sleep(250));
        let mut ctx = Ctx::default();
        assert_eq!(t.tick(&mut ctx, 3.0), Status::Running);
        assert_eq!(entries(&t), [(0, Status::Running)]);
        assert_eq!(t.tick(&mut ctx, 3.249), Status::Running);
        assert_eq!(t.tick(&mut ctx, 3.25), Status::Success);
        assert_eq!(entries(&t), [(0, Status::Success)]);
        // The completed root was reset: a new sleep starts.
        assert_eq!(t.tick(&mut ctx, 4.0), Status::Running);
        assert_eq!(t.tick(&mut ctx, 4.2), Status::Running);
    }

    #[test]
    fn zero_msec_succeeds_at_once() {
        let mut t = build(sleep(0));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Success);
    }

    #[test]
    fn halting_cancels_the_sleep() {
        // 0 ReactiveSequence, 1 flag g, 2 Sleep
        let mut t = build(guarded("g", sleep(100)));
        let mut ctx = Ctx::default();
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        ctx.set("g", false);
        assert_eq!(t.tick(&mut ctx, 0.05), Status::Failure);
        assert!(all_idle(&t));
        ctx.set("g", true);
        assert_eq!(t.tick(&mut ctx, 0.12), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.2), Status::Running);
        assert_eq!(t.tick(&mut ctx, 0.22), Status::Success);
    }

    #[test]
    fn missing_msec_is_a_compile_error_and_a_negative_one_a_tick_error() {
        let missing = compile(&spec(leaf("Sleep", "zz", json!({}))), &registry());
        assert!(
            missing
                .err()
                .is_some_and(|e| e[0].message.contains("missing required port `msec`"))
        );
        let s = spec(leaf("Sleep", "zz", json!({ "msec": -5 })));
        let mut t = compile(&s, &registry()).unwrap();
        assert!(t.try_tick(&mut Ctx::default(), 0.0).is_err());
    }
}
