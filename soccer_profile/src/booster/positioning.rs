//! Positioning nodes: the ready slots, the goal-blocking spot, the assistant's spot behind
//! the ball, and the free-kick slots. Each computes a field pose and walks there (our
//! `walk_to`, through the path planner), standing once within its tolerances.
//!
//! Slots follow the striker rank the cooperation computes (how many alive striker teammates
//! have a lower player number).

use super::walking::walk_to_pose;
use super::{ball, field, leaf, own_goal};
use crate::context::SoccerContext;
use crate::params::FieldDimensions;
use decision_core::engine::blackboard::EntryType::{Double, Str};
use decision_core::engine::{Behavior, Cx, Fault, PortDecl, PortValues, Registry, Status};
use geometry::{Field, Point2, Pose2, Vector2};

/// Registers the positioning nodes, `GoToReadyPosition` through `GoToFreekickPosition`.
pub fn register(registry: &mut Registry<SoccerContext>) {
    let walk_ports = |theta: &'static str, vx: &'static str, vy: &'static str| {
        vec![
            PortDecl::input_or(
                "dist_tolerance",
                Double,
                "0.8",
                "arrived within this distance (m)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "theta_tolerance",
                Double,
                theta,
                "arrived within this heading error (rad)",
            )
            .at_least(0.0),
            PortDecl::input_or("vx_limit", Double, vx, "walking speed limit (m/s)").at_least(0.0),
            PortDecl::input_or("vy_limit", Double, vy, "sideways speed limit (m/s)").at_least(0.0),
        ]
    };
    let with_goalline = |mut ports: Vec<PortDecl>| {
        ports.push(
            PortDecl::input_or(
                "dist_to_goalline",
                Double,
                "2.5",
                "how far in front of the own goal line to block (m)",
            )
            .at_least(0.0),
        );
        ports
    };
    leaf(
        registry,
        "GoToReadyPosition",
        "Walks to the ready slot of this robot's striker rank (or the goalkeeper's), facing the opponent goal.",
        walk_ports("0.5", "0.8", "0.5"),
        |ports| Ok(Box::new(GoToReadyPosition { ports })),
    );
    leaf(
        registry,
        "GoToGoalBlockingPosition",
        "Blocks the ball's way to the own goal: on the ball-goal line `dist_to_goalline` in front of the goal line, facing the ball.",
        with_goalline(walk_ports("0.8", "0.1", "0.1")),
        |ports| Ok(Box::new(GoToGoalBlockingPosition { ports })),
    );
    leaf(
        registry,
        "Assist",
        "Stays 2 m (a second assistant 4 m) behind the ball towards the own goal, facing the ball.",
        with_goalline(walk_ports("0.8", "0.1", "0.1")),
        |ports| Ok(Box::new(Assist { ports })),
    );
    leaf(
        registry,
        "GoToFreekickPosition",
        "Walks to this robot's free-kick slot (attack: behind the ball along the kick direction; defense: towards the own goal); RUNNING until within 0.2 m and 0.1 rad.",
        vec![
            PortDecl::input_or(
                "side",
                Str,
                "attack",
                "`attack` (our free kick) or `defense`",
            )
            .one_of(&["attack", "defense"]),
            PortDecl::input_or(
                "attack_dist",
                Double,
                "0.7",
                "distance behind the ball of the kicker's slot (m)",
            )
            .at_least(0.0),
            PortDecl::input_or(
                "defense_dist",
                Double,
                "1.9",
                "least distance from the ball of a defender's slot (m)",
            )
            .at_least(0.0),
            PortDecl::input_or("vx_limit", Double, "1.2", "walking speed limit (m/s)")
                .at_least(0.0),
            PortDecl::input_or("vy_limit", Double, "0.5", "sideways speed limit (m/s)")
                .at_least(0.0),
        ],
        |ports| Ok(Box::new(GoToFreekickPosition { ports })),
    );
}

/// The ready slot of a striker of `rank` (or the goalkeeper), facing the opponent goal.
pub(crate) fn ready_slot(
    f: &FieldDimensions,
    goalkeeper: bool,
    rank: usize,
    kickoff: bool,
) -> Pose2<Field> {
    let l2 = f.half_length();
    let r = f.center_circle_diameter / 2.0;
    let x0 = if kickoff { -r - 0.5 } else { -2.0 * r };
    let (x, y) = if goalkeeper {
        (-l2 + f.goal_box_area_length, 0.0)
    } else {
        match rank {
            0 => (x0, 0.0),
            1 => (x0, -1.5),
            2 => (-l2 + f.penalty_area_length, r / 2.0),
            _ => (-l2 + f.penalty_marker_distance, -r / 2.0),
        }
    };
    Pose2::new(x, y, 0.0)
}

/// Reads the `dist_tolerance`, `theta_tolerance` and `vx_limit` ports.
fn walk_limits(p: &PortValues, cx: &Cx<'_, SoccerContext>) -> Result<([f64; 3], f64), Fault> {
    let d = p.f64(cx, "dist_tolerance")?;
    let t = p.f64(cx, "theta_tolerance")?;
    let v = p.f64(cx, "vx_limit")?.abs();
    // A square tolerance of half-side d / sqrt(2) inscribes the distance circle.
    let side = d / std::f64::consts::SQRT_2;
    Ok(([side, side, t], v))
}

/// A pose at `position` facing `at` (or `fallback` when they coincide).
fn facing(position: Point2<Field>, at: Point2<Field>, fallback: f64) -> Pose2<Field> {
    let yaw = (at - position)
        .normalized()
        .map_or(fallback, |d: Vector2<Field>| d.angle());
    Pose2 { position, yaw }
}

/// `GoToReadyPosition`.
struct GoToReadyPosition {
    ports: PortValues,
}

impl Behavior<SoccerContext> for GoToReadyPosition {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let (tol, speed) = walk_limits(p, cx)?;
        let c = cx.ctx_mut();
        let b = &c.memory.booster;
        let slot = ready_slot(field(c), b.goalkeeper, b.striker_rank, b.kickoff_side);
        c.out.kickoff_pose = Some(slot);
        walk_to_pose(c, slot, tol, speed);
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// The blocking spot for a ball at `b`.
pub(crate) fn blocking_spot(
    f: &FieldDimensions,
    b: Option<Point2<Field>>,
    goalkeeper: bool,
    dist_to_goalline: f64,
) -> Pose2<Field> {
    let goal = own_goal(f);
    let x_line = -f.half_length() + dist_to_goalline;
    let Some(b) = b else {
        return Pose2::new(x_line, 0.0, 0.0);
    };
    let mut x = x_line;
    if !goalkeeper {
        // A striker stays at most 1.5 m behind the ball.
        x = x.max(b.x - 1.5);
    }
    let dx = b.x - goal.x;
    let y = if dx.abs() < 1e-6 {
        0.0
    } else {
        b.y * ((x - goal.x) / dx).clamp(0.0, 1.0)
    };
    let limit = if goalkeeper {
        f.penalty_area_width / 2.0
    } else {
        f.goal_inner_width / 2.0
    };
    let position = Point2::new(x, y.clamp(-limit, limit));
    facing(position, b, 0.0)
}

/// `GoToGoalBlockingPosition`.
struct GoToGoalBlockingPosition {
    ports: PortValues,
}

impl Behavior<SoccerContext> for GoToGoalBlockingPosition {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let (tol, speed) = walk_limits(p, cx)?;
        let d = p.f64(cx, "dist_to_goalline")?;
        let c = cx.ctx_mut();
        let spot = blocking_spot(field(c), ball(c), c.memory.booster.goalkeeper, d);
        walk_to_pose(c, spot, tol, speed);
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// The assistant's spot: `2 m` (from cost rank 2 on, `4 m`) behind the ball on its line to
/// the own goal, shifted ±0.5 m sideways by rank parity when there are two assistants.
pub(crate) fn assist_spot(f: &FieldDimensions, b: Point2<Field>, cost_rank: usize) -> Pose2<Field> {
    let back = (own_goal(f) - b)
        .normalized()
        .unwrap_or(Vector2::new(-1.0, 0.0));
    let distance = if cost_rank >= 2 { 4.0 } else { 2.0 };
    let side = match cost_rank {
        0 | 1 => 0.0,
        r if r % 2 == 0 => 0.5,
        _ => -0.5,
    };
    let perp = back.rotated(std::f64::consts::FRAC_PI_2);
    let mut position = b + back * distance + perp * side;
    position = Point2::new(
        position.x.clamp(-f.half_length(), f.half_length()),
        position.y.clamp(-f.half_width(), f.half_width()),
    );
    facing(position, b, 0.0)
}

/// `Assist`.
struct Assist {
    ports: PortValues,
}

impl Behavior<SoccerContext> for Assist {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let (tol, speed) = walk_limits(p, cx)?;
        let c = cx.ctx_mut();
        let Some(b) = ball(c) else {
            return Ok(Status::Success);
        };
        let spot = assist_spot(field(c), b, c.memory.booster.cost_rank);
        walk_to_pose(c, spot, tol, speed);
        Ok(Status::Success)
    }

    fn can_resume(&self) -> bool {
        true
    }
}

/// The free-kick slot of a striker of `rank` for a ball at `b`.
pub(crate) fn freekick_slot(
    f: &FieldDimensions,
    b: Point2<Field>,
    kick_dir: f64,
    attack: bool,
    rank: usize,
    [attack_dist, defense_dist]: [f64; 2],
) -> Pose2<Field> {
    let back = (own_goal(f) - b)
        .normalized()
        .unwrap_or(Vector2::new(-1.0, 0.0));
    let deep = |sign: f64| {
        Point2::new(
            -f.half_length() + f.penalty_marker_distance,
            sign * f.goal_box_area_width / 2.0,
        )
    };
    let position = match (attack, rank) {
        (true, 0) => {
            let p = b - Vector2::from_angle(kick_dir) * attack_dist;
            return Pose2 {
                position: p,
                yaw: kick_dir,
            };
        }
        (true, 1) => b + back * 2.0,
        (false, 0) => b + back * defense_dist.max(3.0),
        (false, 1) => b + back * defense_dist.max(3.75),
        (_, r) if r % 2 == 0 => deep(1.0),
        _ => deep(-1.0),
    };
    facing(position, b, 0.0)
}

/// `GoToFreekickPosition` (stateful).
struct GoToFreekickPosition {
    ports: PortValues,
}

impl Behavior<SoccerContext> for GoToFreekickPosition {
    fn tick(&mut self, cx: &mut Cx<'_, SoccerContext>) -> Result<Status, Fault> {
        let p = &self.ports;
        let side = p.text(cx, "side")?;
        let attack = match side.as_str() {
            "attack" => true,
            "defense" => false,
            other => return Err(Fault::from(format!("port `side`: unknown value `{other}`"))),
        };
        let dists = [p.f64(cx, "attack_dist")?, p.f64(cx, "defense_dist")?];
        let speed = p.f64(cx, "vx_limit")?.abs();
        let c = cx.ctx_mut();
        let Some(b) = ball(c) else {
            return Ok(Status::Running);
        };
        let s = &c.memory.booster;
        let slot = freekick_slot(field(c), b, s.kick_dir, attack, s.striker_rank, dists);
        // Within 0.2 m (a square inscribing that circle) and 0.1 rad.
        let side = 0.2 / std::f64::consts::SQRT_2;
        let arrived = walk_to_pose(c, slot, [side, side, 0.1], speed);
        Ok(if arrived {
            Status::Success
        } else {
            Status::Running
        })
    }

    fn can_resume(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booster::test_support::*;
    use crate::motion::Body;

    #[test]
    fn ready_slots_by_rank_and_the_goalkeeper() {
        let f = FieldDimensions::default();
        assert_eq!(ready_slot(&f, false, 0, true), Pose2::new(-1.25, 0.0, 0.0));
        assert_eq!(ready_slot(&f, false, 0, false), Pose2::new(-1.5, 0.0, 0.0));
        assert_eq!(ready_slot(&f, false, 1, false), Pose2::new(-1.5, -1.5, 0.0));
        assert_eq!(
            ready_slot(&f, false, 2, false),
            Pose2::new(-2.5, 0.375, 0.0)
        );
        assert_eq!(
            ready_slot(&f, false, 3, false),
            Pose2::new(-3.0, -0.375, 0.0)
        );
        assert_eq!(ready_slot(&f, true, 0, false), Pose2::new(-3.5, 0.0, 0.0));
    }

    #[test]
    fn go_to_ready_position_walks_to_the_slot_and_stands_there() {
        let mut t = node("GoToReadyPosition", &[("vx_limit", "0.7")]);
        let mut ctx = at([-4.0, 2.0, 0.0], None);
        tick(&mut t, &mut ctx);
        assert!(
            matches!(ctx.out.body, Some(Body::WalkTo { target, speed }) if target == Pose2::new(-1.5, 0.0, 0.0) && speed == 0.7),
            "{:?}",
            ctx.out.body
        );
        let mut ctx = at([-1.6, 0.1, 0.1], None);
        tick(&mut t, &mut ctx);
        assert_eq!(ctx.out.body, Some(Body::Stand));
    }

    #[test]
    fn blocking_and_assist_spots_lie_between_ball_and_goal() {
        let f = FieldDimensions::default();
        let keeper = blocking_spot(&f, Some(Point2::new(0.0, 2.0)), true, 2.5);
        assert!((keeper.position.x + 2.0).abs() < 1e-9);
        assert!(
            (keeper.position.y - 2.0 * 2.5 / 4.5).abs() < 1e-9,
            "{keeper:?}"
        );
        let striker = blocking_spot(&f, Some(Point2::new(0.0, 2.0)), false, 2.5);
        assert_eq!(striker.position.x, -1.5, "at most 1.5 m behind the ball");
        assert!(striker.position.y <= 1.3, "within the goal width");
        let a = assist_spot(&f, Point2::new(0.0, 0.0), 1);
        assert_eq!(a.position, Point2::new(-2.0, 0.0));
        let a2 = assist_spot(&f, Point2::new(0.0, 0.0), 2);
        assert_eq!(a2.position, Point2::new(-4.0, -0.5));
    }

    #[test]
    fn assist_and_blocking_nodes_walk_slowly_by_default() {
        let mut ctx = at([0.0, -2.0, 0.0], Some([1.0, 0.0]));
        tick(&mut node("Assist", &[]), &mut ctx);
        assert!(matches!(ctx.out.body, Some(Body::WalkTo { speed, .. }) if speed == 0.1));
        let mut ctx = at([2.0, 0.0, 0.0], Some([1.0, 0.0]));
        tick(
            &mut node("GoToGoalBlockingPosition", &[("vx_limit", "0.5")]),
            &mut ctx,
        );
        assert!(matches!(ctx.out.body, Some(Body::WalkTo { speed, .. }) if speed == 0.5));
        let mut ctx = at([0.0, 0.0, 0.0], None);
        tick(&mut node("Assist", &[]), &mut ctx);
        assert_eq!(ctx.out.body, None, "no ball, no spot");
    }

    #[test]
    fn freekick_slots_and_the_node_runs_until_arrival() {
        let f = FieldDimensions::default();
        let b = Point2::new(1.0, 1.0);
        let kicker = freekick_slot(&f, b, 0.0, true, 0, [0.7, 1.9]);
        assert_eq!(kicker, Pose2::new(0.30000000000000004, 1.0, 0.0));
        let defender = freekick_slot(&f, b, 0.0, false, 0, [0.7, 1.9]);
        assert!((defender.position.distance(b) - 3.0).abs() < 1e-9);
        let mut t = node("GoToFreekickPosition", &[("side", "attack")]);
        let mut ctx = at([-2.0, 0.0, 0.0], Some([1.0, 1.0]));
        assert_eq!(tick(&mut t, &mut ctx), Status::Running);
        assert_eq!(ctx.out.body.as_ref().map(Body::kind), Some("walk_to"));
        let mut ctx = at([0.3, 1.0, 0.0], Some([1.0, 1.0]));
        assert_eq!(tick(&mut t, &mut ctx), Status::Success);
        let e = compile_node("GoToFreekickPosition", &[("side", "midfield")])
            .err()
            .unwrap_or_default();
        assert!(
            e.contains("GoToFreekickPosition") && e.contains("port `side`"),
            "{e}"
        );
    }
}
