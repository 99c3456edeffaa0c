//! The RoboMaster map (resources/RMUL.png, 12 m × 8 m) as a `GridObstacle`: closed-loop drives.

use path_planner::obstacle::{FieldBorder, GridObstacle, Query};
use path_planner::*;

fn load_map(clearance: f64) -> GridObstacle {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../resources/RMUL.png");
    let img = image::open(path).expect("RMUL.png").to_luma8();
    let (cols, rows) = (img.width() as usize, img.height() as usize);
    GridObstacle::from_grey(img.as_raw(), cols, rows, 12.0, 8.0, clearance).unwrap()
}

#[test]
fn rmul_walls_are_never_entered() {
    let clearance = 0.3;
    let grid = load_map(clearance);
    let border = FieldBorder::new(
        Vec2::new(clearance, clearance),
        Vec2::new(12.0 - clearance, 8.0 - clearance),
    );
    let obs: Vec<&dyn Obstacle> = vec![&border, &grid];
    let limits = MoveLimits {
        vmax: 2.0,
        amax: 2.0,
    };
    // Red start → supply zone, red start → blue start (point symmetric), and back.
    let trips = [
        (Vec2::new(8.96, 2.79), Vec2::new(11.16, 7.13)),
        (Vec2::new(8.96, 2.79), Vec2::new(3.04, 5.21)),
        (Vec2::new(3.04, 5.21), Vec2::new(0.84, 0.87)),
    ];
    for (start, dest) in trips {
        assert!(
            grid.distance(&Query::at_rest(start, 0.0)) > 0.0,
            "start {start:?} in a wall"
        );
        let mut mt = MoveTo::new(
            PathFinder::new(PlannerConfig::default()),
            MoveToConfig::default(),
        );
        let (mut pos, mut vel) = (start, Vec2::ZERO);
        let mut worst = f64::INFINITY;
        let mut arrived = None;
        for step in 0..3000 {
            let req = PlanRequest {
                pos,
                vel,
                dest,
                limits,
                obstacles: &obs,
                dt: 0.01,
            };
            match mt.update(&req).0 {
                MoveCommand::Follow { path, .. } => (pos, vel) = path.pos_vel(0.01),
                MoveCommand::Brake { decel } => {
                    let s = vel.len();
                    let v = if s > 0.0 {
                        vel * ((s - decel * 0.01).max(0.0) / s)
                    } else {
                        vel
                    };
                    pos += (vel + v) * 0.005;
                    vel = v;
                }
            }
            // True clearance check: reported distance + half-cell slack (the report is conservative).
            worst =
                worst.min(grid.distance(&Query::at_rest(pos, 0.0)) + grid.distance_slack() / 2.0);
            if pos.dist(dest) < 1e-3 && vel.len() < 1e-3 {
                arrived = Some(step as f64 * 0.01);
                break;
            }
        }
        println!(
            "RMUL {start:?} -> {dest:?}: arrived {arrived:?}, min wall clearance beyond robot radius {worst:.3} m"
        );
        assert!(worst > -0.01, "entered a wall: {worst}");
        assert!(
            arrived.is_some(),
            "did not arrive at {dest:?}, stuck at {pos:?}"
        );
    }
}
