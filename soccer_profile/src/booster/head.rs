//! Camera (head) nodes: track the ball, find it, scan the field, set the head.
//!
//! Booster drives head pitch and yaw; our motion command has the head motions
//! `look_forward`, `look_around`, `look_at` a field point and `search`. A yaw is mapped to
//! looking at a point 3 m away in that direction; pitch is not modelled.

use super::{ball, elapsed, leaf, look, look_at_angle};
use crate::context::SoccerContext;
use crate::motion::Head;
use decision_core::engine::blackboard::EntryType::{Double, Int};
use decision_core::engine::{
    Behavior, Cx, Fault, NodeState, PortDecl, PortValues, Registry, Status,
};

/// Registers the camera nodes, `CamTrackBall` through `MoveHead`.
pub fn register(registry: &mut Registry<SoccerContext>) {
    leaf(
        registry,
        "CamTrackBall",
        "Keeps the ball in view: looks at the own or the team ball; nothing without one.",
        vec![],
        |_| Ok(Box::new(CamTrackBall)),
    );
    leaf(
        registry,
        "CamFindBall",
        "Sweeps the head to search while no ball is known.",
        vec![],
        |_| Ok(Box::new(CamFindBall)),
    );
    leaf(
        registry,
        "CamFastScan",
        "A fast head scan through 7 poses, one every `msecs_interval`; then SUCCESS.",
        vec![
            PortDecl::input_or(
                "msecs_interval",
                Int,
                "300",
                "milliseconds spent on each of the 7 head poses",
            )
            .at_least(0.0),
        ],
        |ports| Ok(Box::new(CamFastScan { ports, since: 0.0 })),
    );
    leaf(
        registry,
        "CamScanField",
        "A time-based head sweep from left_yaw to right_yaw and back every msec_cycle.",
        vec![
            PortDecl::input_or(
                "low_pitch",
                Double,
                "0.5",
                "pitch in the second half of the cycle (rad; not modelled)",
            ),
            PortDecl::input_or(
                "high_pitch",
                Double,
                "0.2",
                "pitch in the first half of the cycle (rad; not modelled)",
            ),
            PortDecl::input_or("left_yaw", Double, "0.8", "leftmost head yaw (rad)"),
            PortDecl::input_or("right_yaw", Double, "-0.8", "rightmost head yaw (rad)"),
            PortDecl::input_or("msec_cycle", Int, "4000", "length of one sweep cycle (ms)")
                .above(0.0),
        ],
        |ports| Ok(Box::new(CamScanField { ports })),
    );
    leaf(
        registry,
        "MoveHead",
        "Sets the head to `yaw` (looking in that direction) and `pitch` (not modelled).",
        vec![
            PortDecl::input_or("pitch", Double, "0", "head pitch (rad; not modelled)"),
            PortDecl::input_or(
                "yaw",
                Double,
                "0",
                "head yaw relative to the body (rad, left positive)",
            ),
        ],
        |ports| Ok(Box::new(MoveHead { ports })),
    );
}

/// `CamTrackBall`: looks at the ball the robot knows (own, remembered or the team's).
struct CamTrackBall;

impl Behavior<SoccerContext> for CamTrackBall {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let c = cx.ctx_mut();
        if let Some(b) = ball(c) {
            look(c, Head::LookAt(b));
        }
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `CamFindBall`: searches with the head while no ball is known.
struct CamFindBall;

impl Behavior<SoccerContext> for CamFindBall {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let c = cx.ctx_mut();
        if ball(c).is_none() {
            look(c, Head::Search);
        }
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `CamFastScan` (stateful): searches with the head for 7 × `msecs_interval`.
struct CamFastScan {
    ports: PortValues,
    since: f64,
}

impl Behavior<SoccerContext> for CamFastScan {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let interval = p.f64(cx, "msecs_interval")? / 1000.0;
        let now = cx.now();
        if cx.state() != NodeState::Running {
            self.since = now;
        }
        look(cx.ctx_mut(), Head::Search);
        if elapsed(now, self.since) >= 7.0 * interval - 1e-9 {
            Ok(Status::Success)
        } else {
            Ok(Status::Running)
        }
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `CamScanField`: a triangular yaw sweep on the injected clock.
struct CamScanField {
    ports: PortValues,
}

impl Behavior<SoccerContext> for CamScanField {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let left = p.f64(cx, "left_yaw")?;
        let right = p.f64(cx, "right_yaw")?;
        // Above 0, as the port declares: an entry's value is checked when it is read.
        let cycle = p.f64(cx, "msec_cycle")? / 1000.0;
        let phase = (cx.now() / cycle).fract();
        // 0 -> left, 0.5 -> right, 1 -> left again.
        let s = 1.0 - (2.0 * phase - 1.0).abs();
        let yaw = left + (right - left) * s;
        look_at_angle(cx.ctx_mut(), yaw);
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// `MoveHead`: looks `yaw` to the side.
struct MoveHead {
    ports: PortValues,
}

impl Behavior<SoccerContext> for MoveHead {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let yaw = p.f64(cx, "yaw")?;
        look_at_angle(cx.ctx_mut(), yaw);
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use crate::motion::Head;
    use decision_core::engine::Status;
    use geometry::Point2;

    #[test]
    fn cam_track_ball_looks_at_the_ball_and_does_nothing_without_one() {
        let mut ctx = at([0.0, 0.0, 0.0], Some([2.0, 1.0]));
        let mut t = node("CamTrackBall", &[]);
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        assert_eq!(ctx.out.head, Some(Head::LookAt(Point2::new(2.0, 1.0))));
        let mut ctx = at([0.0, 0.0, 0.0], None);
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        assert_eq!(ctx.out.head, None);
        assert!(compile_node("CamTrackBall", &[("speed", "1")]).is_err());
    }

    #[test]
    fn cam_find_ball_searches_only_without_a_ball() {
        let mut t = node("CamFindBall", &[]);
        let mut ctx = at([0.0, 0.0, 0.0], None);
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.head, Some(Head::Search));
        let mut ctx = at([0.0, 0.0, 0.0], Some([1.0, 0.0]));
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.head, None);
    }

    #[test]
    fn cam_fast_scan_runs_seven_intervals() {
        let mut t = node("CamFastScan", &[("msecs_interval", "100")]);
        let mut ctx = at([0.0, 0.0, 0.0], None);
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        assert_eq!(ctx.out.head, Some(Head::Search));
        ctx.world.now = 0.69;
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        ctx.world.now = 0.7;
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        let e = compile_node("CamFastScan", &[("msecs_interval", "-3")])
            .err()
            .unwrap_or_default();
        assert!(
            e.contains("CamFastScan") && e.contains("msecs_interval"),
            "{e}"
        );
        let e = compile_node("CamFastScan", &[("msecs_interval", "0.5")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("msecs_interval"), "an int port: {e}");
    }

    #[test]
    fn cam_scan_field_sweeps_from_left_to_right() {
        let mut t = node("CamScanField", &[("msec_cycle", "4000")]);
        let mut ctx = at([0.0, 0.0, 0.0], None);
        tick(&mut t, &mut ctx);
        let Some(Head::LookAt(p)) = ctx.out.head else {
            panic!("{:?}", ctx.out.head)
        };
        assert!(p.y > 0.0, "left at the start: {p:?}");
        ctx.world.now = 2.0;
        tick(&mut t, &mut ctx);
        let Some(Head::LookAt(p)) = ctx.out.head else {
            panic!("{:?}", ctx.out.head)
        };
        assert!(p.y < 0.0, "right at half cycle: {p:?}");
        assert!(compile_node("CamScanField", &[("msec_cycle", "0")]).is_err());
    }

    #[test]
    fn move_head_looks_forward_or_to_the_side() {
        let mut ctx = at([1.0, 0.0, 0.0], None);
        tick(
            &mut node("MoveHead", &[("pitch", "0.35"), ("yaw", "0.0")]),
            &mut ctx,
        );
        assert_eq!(ctx.out.head, Some(Head::LookForward));
        tick(&mut node("MoveHead", &[("yaw", "1.5707963")]), &mut ctx);
        let Some(Head::LookAt(p)) = ctx.out.head else {
            panic!("{:?}", ctx.out.head)
        };
        assert!(
            (p.x - 1.0).abs() < 1e-6 && (p.y - 3.0).abs() < 1e-6,
            "{p:?}"
        );
        let e = compile_node("MoveHead", &[("yaw", "left")])
            .err()
            .unwrap_or_default();
        assert!(e.contains("MoveHead") && e.contains("port `yaw`"), "{e}");
    }
}
