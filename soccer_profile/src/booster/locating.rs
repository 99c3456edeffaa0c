//! Self-localisation nodes and the small utilities.
//!
//! Booster re-fixes its odometry from field markings; our world model already carries a
//! localized pose (or none), so the locators succeed without moving anything: the
//! cooperation sets `odom_calibrated` from whether a pose is known. Their ports are checked
//! as Booster declares them.

use super::leaf;
use crate::context::SoccerContext;
use decision_core::engine::blackboard::EntryType::{Bool, Double, Int, Str};
use decision_core::engine::{Behavior, Cx, Fault, PortDecl, PortValues, Registry, Status};
use geometry::Pose2;

/// The localisation modes of `SelfLocate`.
const MODES: [&str; 4] = [
    "enter_field",
    "face_forward",
    "trust_direction",
    "fall_recovery",
];

/// The marking-based locators (`SelfLocate1M`, ...): id and what they fix from.
const MARKING_LOCATORS: [(&str, &str); 6] = [
    (
        "SelfLocate1M",
        "Re-fixes the pose from one field marking (our world model is already localized: SUCCESS).",
    ),
    (
        "SelfLocate2X",
        "Re-fixes the pose from two X crossings (our world model is already localized: SUCCESS).",
    ),
    (
        "SelfLocate2T",
        "Re-fixes the pose from two T crossings (our world model is already localized: SUCCESS).",
    ),
    (
        "SelfLocateLT",
        "Re-fixes the pose from an L and a T crossing (our world model is already localized: SUCCESS).",
    ),
    (
        "SelfLocatePT",
        "Re-fixes the pose from the penalty mark and a T crossing (our world model is already localized: SUCCESS).",
    ),
    (
        "SelfLocateBorder",
        "Re-fixes the pose from the field border (our world model is already localized: SUCCESS).",
    ),
];

/// Registers the localisation and utility nodes.
pub fn register(registry: &mut Registry<SoccerContext>) {
    leaf(
        registry,
        "SelfLocate",
        "Marker-based pose search in a mode's constraint box (our world model is already localized: SUCCESS).",
        vec![
            PortDecl::input_or(
                "mode",
                Str,
                "enter_field",
                "enter_field, face_forward, trust_direction or fall_recovery",
            )
            .one_of(&MODES),
            PortDecl::input_or(
                "msecs_interval",
                Int,
                "10000",
                "least time between two searches (ms)",
            )
            .at_least(0.0),
        ],
        |_| Ok(Box::new(Locator)),
    );
    leaf(
        registry,
        "SelfLocateEnterField",
        "Localizes at a touchline entry point of the own half (our world model is already localized: SUCCESS).",
        vec![
            PortDecl::input_or(
                "msecs_interval",
                Int,
                "1000",
                "least time between two searches (ms)",
            )
            .at_least(0.0),
        ],
        |_| Ok(Box::new(Locator)),
    );
    leaf(
        registry,
        "CalibrateOdom",
        "Sets the odometry to a pose (remembered in the brain state; our pose comes from the world model).",
        vec![
            PortDecl::input_or("x", Double, "0", "x on the field (m)"),
            PortDecl::input_or("y", Double, "0", "y on the field (m)"),
            PortDecl::input_or("theta", Double, "0", "heading (rad)"),
        ],
        |ports| Ok(Box::new(CalibrateOdom { ports })),
    );
    leaf(
        registry,
        "PrintMsg",
        "Keeps `msg` as the brain state's last message (libraries print nothing).",
        vec![PortDecl::input("msg", Str, "the text to print")],
        |ports| Ok(Box::new(PrintMsg { ports })),
    );

    for (id, doc) in MARKING_LOCATORS {
        leaf(
            registry,
            id,
            doc,
            vec![
                PortDecl::input_or(
                    "msecs_interval",
                    Int,
                    "1000",
                    "least time between two fixes (ms)",
                )
                .at_least(0.0),
                PortDecl::input_or(
                    "max_dist",
                    Double,
                    "2.0",
                    "farthest marking used (m; x1.5 when standing)",
                )
                .at_least(0.0),
                PortDecl::input_or(
                    "max_drift",
                    Double,
                    "1.0",
                    "largest accepted correction (m)",
                )
                .at_least(0.0),
                PortDecl::input_or(
                    "validate",
                    Bool,
                    "true",
                    "check the fix against the field before accepting it",
                ),
            ],
            |_| Ok(Box::new(Locator)),
        );
    }
}

/// A locator: the world model's pose is the fix.
struct Locator;

impl Behavior<SoccerContext> for Locator {
    fn tick(&mut self, _cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `CalibrateOdom`.
struct CalibrateOdom {
    ports: PortValues,
}

impl Behavior<SoccerContext> for CalibrateOdom {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let pose = Pose2::new(p.f64(cx, "x")?, p.f64(cx, "y")?, p.f64(cx, "theta")?);
        cx.ctx_mut().memory.booster.odometry_reset = Some(pose);
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `PrintMsg`.
struct PrintMsg {
    ports: PortValues,
}

impl Behavior<SoccerContext> for PrintMsg {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let msg = p.text(cx, "msg")?;
        cx.ctx_mut().memory.booster.message = Some(msg);
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use decision_core::engine::Status;

    #[test]
    fn locators_succeed_and_check_their_ports() {
        let mut ctx = at([0.0, 0.0, 0.0], None);
        for id in [
            "SelfLocate1M",
            "SelfLocate2X",
            "SelfLocateBorder",
            "SelfLocateEnterField",
        ] {
            assert_eq!(
                tick(&mut node(id, &[("msecs_interval", "300")]), &mut ctx),
                Status::Success
            );
        }
        let mut t = node("SelfLocate", &[("mode", "trust_direction")]);
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        assert_eq!(ctx.out.body, None, "a locator does not move");
        let e = compile_node("SelfLocate", &[("mode", "guess")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("SelfLocate") && e.contains("port `mode`"), "{e}");
        let e = compile_node("SelfLocate2T", &[("max_drift", "-2")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("SelfLocate2T") && e.contains("max_drift"), "{e}");
    }

    #[test]
    fn print_msg_needs_its_message_and_calibrate_odom_remembers_the_pose() {
        let e = compile_node("PrintMsg", &[]).err().unwrap_or_default();
        assert!(e.contains("PrintMsg") && e.contains("msg"), "{e}");
        let mut ctx = at([0.0, 0.0, 0.0], None);
        tick(&mut node("PrintMsg", &[("msg", "hello")]), &mut ctx);
        assert_eq!(ctx.memory.booster.message.as_deref(), Some("hello"));
        tick(
            &mut node("CalibrateOdom", &[("x", "1"), ("theta", "0.5")]),
            &mut ctx,
        );
        assert_eq!(
            ctx.memory.booster.odometry_reset,
            Some(geometry::Pose2::new(1.0, 0.0, 0.5))
        );
    }
}
