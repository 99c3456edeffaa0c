//! Obstacle map coordinates and line-of-sight: the sampled rule and the exact traversal.

use std::sync::OnceLock;

use proptest::prelude::*;
use waypoint_graph::{MapError, ObstacleMap};

/// 12.65625 x 8.4375 m gives 1620 x 1080 pixels at exactly 128 px/m, so pixel positions are
/// exact binary fractions of metres. `walls` are painted black; the rest is white.
fn exact_map(walls: &[(u32, u32)]) -> ObstacleMap {
    let (w, h) = (1620u32, 1080u32);
    let mut grey = vec![255u8; (w * h) as usize];
    for &(c, r) in walls {
        grey[(r * w + c) as usize] = 0;
    }
    match ObstacleMap::from_grey(w, h, grey, 12.656_25, 8.4375) {
        Ok(m) => m,
        Err(e) => panic!("map: {e}"),
    }
}

/// Metres of a pixel coordinate on [`exact_map`].
fn m(px: f32) -> f32 {
    px / 128.0
}

#[test]
fn sizes_and_coordinate_mapping() {
    let map = exact_map(&[]);
    assert_eq!((map.cols(), map.rows()), (1620, 1080));
    assert_eq!(map.to_pixel(m(810.0), m(540.0)), (810, 540));
    assert_eq!(map.to_pixel(m(12.9), m(3.99)), (12, 3));
    assert_eq!(map.to_pixel(-0.001, -0.001), (0, 0)); // truncation toward zero, like int()
    assert_eq!(map.to_metres(810.0, 540.0), (m(810.0), m(540.0)));
    assert_eq!(map.grey(0, 0), Some(255));
    assert_eq!(map.grey(1620, 0), None);
    assert_eq!(map.grey(-1, 5), None);
    assert!(map.is_wall_px(0, 1080) && map.is_wall_px(-1, 0));
    assert!(!map.is_wall_px(1619, 1079));

    // The original's fields: 12 x 8 m -> 135 px/m.
    let Ok(field) = ObstacleMap::from_grey(2, 2, vec![255; 4], 12.0, 8.0) else {
        panic!("map")
    };
    assert_eq!((field.cols(), field.rows()), (1620, 1080));
    assert_eq!(field.to_pixel(8.96, 2.79), (1209, 376));
    assert_eq!(field.to_pixel(12.0, 8.0), (1620, 1080));
}

#[test]
fn wall_threshold_is_grey_below_ten() {
    // A 4 x 1 source on a 4 x 1 m field is upscaled 1080x: far from the source pixel borders
    // the resized values are the source values.
    let Ok(map) = ObstacleMap::from_grey(4, 1, vec![9, 10, 255, 0], 4.0, 1.0) else {
        panic!("map")
    };
    assert_eq!((map.cols(), map.rows()), (4320, 1080));
    assert_eq!(map.grey(100, 500), Some(9));
    assert_eq!(map.grey(1620, 500), Some(10));
    assert_eq!(map.grey(4300, 500), Some(0));
    assert!(map.is_wall_px(100, 500));
    assert!(!map.is_wall_px(1620, 500));
    assert!(map.is_wall_px(4300, 500));
}

#[test]
fn bad_inputs_are_reported() {
    let e = ObstacleMap::from_grey(0, 5, vec![], 12.0, 8.0);
    assert!(matches!(e, Err(MapError::Empty { .. })));
    let e = ObstacleMap::from_grey(2, 2, vec![0; 3], 12.0, 8.0);
    assert!(matches!(e, Err(MapError::BadSize { .. })));
    for (w, h) in [
        (0.0, 8.0),
        (12.0, -1.0),
        (f32::NAN, 8.0),
        (1e9, 1.0),
        (1e-6, 8.0),
    ] {
        let e = ObstacleMap::from_grey(2, 2, vec![0; 4], w, h);
        assert!(
            matches!(e, Err(MapError::BadSize { .. })),
            "{w} x {h}: {e:?}"
        );
    }
    let missing = std::path::Path::new("/nonexistent/RMUL.png");
    let e = ObstacleMap::load_png(missing, 12.0, 8.0);
    let Err(err @ MapError::Io { .. }) = e else {
        panic!("expected Io, got {e:?}")
    };
    assert!(err.to_string().contains("/nonexistent/RMUL.png"), "{err}");
    let not_png = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let e = ObstacleMap::load_png(&not_png, 12.0, 8.0);
    let Err(err @ MapError::Decode { .. }) = e else {
        panic!("expected Decode, got {e:?}")
    };
    assert!(
        err.to_string().contains("Cargo.toml") && err.to_string().contains("decode"),
        "{err}"
    );
}

#[test]
fn sampled_rule_sample_positions() {
    let map = exact_map(&[]);
    // Step 0.1 m -> int(12.8) = 12 px; 1 m -> 128 px: samples at 12, 24, ..., 120.
    assert_eq!(map.step_pixels(0.1), 12);
    let from = (m(100.0), m(200.0));
    let to = (m(228.0), m(200.0));
    let s: Vec<_> = map.samples(from, to, 0.1).collect();
    let want: Vec<_> = (1..=10).map(|k| (100 + 12 * k, 200)).collect();
    assert_eq!(s, want);
    // Backwards and vertical rays.
    let s: Vec<_> = map.samples(to, from, 0.1).collect();
    assert_eq!(s.first(), Some(&(216, 200)));
    let s: Vec<_> = map.samples(from, (m(100.0), m(100.0)), 0.1).collect();
    assert_eq!(s.last(), Some(&(100, 104)));
    // 3-4-5 diagonal: offsets k*12*(0.6, 0.8) rounded to nearest.
    let s: Vec<_> = map
        .samples(from, (m(100.0 + 60.0), m(200.0 + 80.0)), 0.1)
        .collect();
    assert_eq!(s.len(), 8); // 12*8 = 96 < 100
    assert_eq!(s[0], (107, 210)); // 7.2, 9.6
    assert_eq!(s[2], (122, 229)); // 21.6, 28.8
}

#[test]
fn sampled_rule_walls_end_points_and_gaps() {
    let from = (m(100.0), m(200.0));
    let to = (m(228.0), m(200.0));
    // A wall on a sample blocks.
    assert!(!exact_map(&[(136, 200)]).visible_sampled(from, to, 0.1));
    // Between samples: the sampled rule misses it, the exact traversal does not.
    let gap = exact_map(&[(130, 200)]);
    assert!(gap.visible_sampled(from, to, 0.1));
    assert!(!gap.visible_exact(from, to));
    // End points are not sampled / not checked.
    let ends = exact_map(&[(100, 200), (228, 200)]);
    assert!(ends.visible_sampled(from, to, 0.1));
    assert!(ends.visible_exact(from, to));
    let clear = exact_map(&[]);
    assert!(clear.visible_sampled(from, to, 0.1) && clear.visible_exact(from, to));
    // Shorter than one step: nothing is sampled.
    assert!(exact_map(&[(105, 200)]).visible_sampled(from, (m(110.0), m(200.0)), 0.1));
    // The same point: visible.
    assert!(clear.visible_sampled(from, from, 0.1) && clear.visible_exact(from, from));
}

#[test]
fn sampled_rule_outside_step_zero_and_non_finite() {
    let map = exact_map(&[]);
    let inside = (m(10.0), m(10.0));
    // Leaving the image counts as a wall.
    assert!(!map.visible_sampled(inside, (-1.0, m(10.0)), 0.1));
    assert!(!map.visible_exact(inside, (-1.0, m(10.0))));
    assert!(!map.visible_sampled(inside, (m(10.0), 100.0), 0.1));
    // Step 0 (and negative, NaN) samples every pixel and terminates.
    let to = (m(50.0), m(10.0));
    for step in [0.0, -1.0, f32::NAN, 1e-9] {
        assert_eq!(map.samples(inside, to, step).count(), 39, "step {step}");
    }
    assert!(!exact_map(&[(31, 10)]).visible_sampled(inside, to, 0.0));
    // Non-finite points are never visible and have no samples.
    for bad in [(f32::NAN, 1.0), (1.0, f32::INFINITY)] {
        assert!(!map.visible_sampled(inside, bad, 0.1));
        assert!(!map.visible_sampled(bad, inside, 0.1));
        assert!(!map.visible_exact(inside, bad));
        assert_eq!(map.samples(inside, bad, 0.1).count(), 0);
    }
    // A huge far point: stops after leaving the image.
    let far = (1e30, m(10.0));
    assert!(!map.visible_sampled(inside, far, 0.0));
    assert!(!map.visible_exact(inside, far));
    assert!(map.samples(inside, far, 0.0).count() < 10_000);
}

#[test]
fn for_each_sample_reports_walls() {
    let map = exact_map(&[(124, 200), (148, 200)]);
    let mut seen = Vec::new();
    map.for_each_sample(
        (m(100.0), m(200.0)),
        (m(228.0), m(200.0)),
        0.1,
        |c, r, wall| {
            seen.push((c, r, wall));
        },
    );
    assert_eq!(seen.len(), 10);
    let walls: Vec<_> = seen.iter().filter(|s| s.2).map(|s| s.0).collect();
    assert_eq!(walls, [124, 148]);
}

/// 16 x 8 m gives 2160 x 1080 pixels with bit-identical x and y mappings, so a point
/// `(v, v)` has equal pixel coordinates: a 45-degree segment crosses pixel corners exactly.
fn diag_map(walls: &[(u32, u32)]) -> ObstacleMap {
    let (w, h) = (2160u32, 1080u32);
    let mut grey = vec![255u8; (w * h) as usize];
    for &(c, r) in walls {
        grey[(r * w + c) as usize] = 0;
    }
    match ObstacleMap::from_grey(w, h, grey, 16.0, 8.0) {
        Ok(m) => m,
        Err(e) => panic!("map: {e}"),
    }
}

#[test]
fn exact_traversal_corners_and_grid_lines() {
    // From inside (100, 100) to inside (103, 103) along x == y: crosses pixel corners exactly.
    let (a, b) = (100.5f32 / 135.0, 103.5f32 / 135.0);
    let (from, to) = ((a, a), (b, b));
    let map = diag_map(&[]);
    let (px, py) = map.to_pixel_f32(a, a);
    assert_eq!(px, py);
    assert!(map.visible_exact(from, to));
    assert!(!diag_map(&[(102, 102)]).visible_exact(from, to));
    // Side pixels of a corner crossing count (no leak between corner-touching walls).
    assert!(!diag_map(&[(101, 100)]).visible_exact(from, to));
    assert!(!diag_map(&[(101, 102)]).visible_exact(from, to));
    assert!(!diag_map(&[(103, 102)]).visible_exact(from, to));
    // Pixels not touched at all do not.
    assert!(diag_map(&[(102, 100), (100, 102), (104, 104)]).visible_exact(from, to));
    // A segment along the grid line y = 2 m = row 270.0 lies in row 270 (half-open pixels).
    let (a, b) = ((0.1, 2.0), (0.4, 2.0));
    assert_eq!(map.to_pixel_f32(0.1, 2.0).1, 270.0);
    assert!(diag_map(&[(30, 269)]).visible_exact(a, b));
    assert!(!diag_map(&[(30, 270)]).visible_exact(a, b));
    // A shallow line crossing rows between columns: from (10.5, 50.5) px to (90.5, 52.5) px.
    let exact = exact_map(&[]);
    let (a, b) = ((m(10.5), m(50.5)), (m(90.5), m(52.5)));
    assert!(exact.visible_exact(a, b));
    assert!(!exact_map(&[(50, 51)]).visible_exact(a, b));
    assert!(exact_map(&[(50, 53)]).visible_exact(a, b));
}

/// A 1620 x 1080 map of 10 x 10-pixel blocks, about one in six black (fixed pattern).
fn block_map() -> &'static ObstacleMap {
    static MAP: OnceLock<ObstacleMap> = OnceLock::new();
    MAP.get_or_init(|| {
        let (w, h) = (1620u32, 1080u32);
        let mut grey = vec![255u8; (w * h) as usize];
        for (i, p) in grey.iter_mut().enumerate() {
            let (bx, by) = ((i as u32 % w) / 10, (i as u32 / w) / 10);
            if (bx.wrapping_mul(7919) ^ by.wrapping_mul(104_729)) % 6 == 0 {
                *p = 0;
            }
        }
        match ObstacleMap::from_grey(w, h, grey, 12.656_25, 8.4375) {
            Ok(m) => m,
            Err(e) => panic!("map: {e}"),
        }
    })
}

proptest! {
    /// Cross-check the traversal with dense sampling of the segment: a wall pixel that a dense
    /// sample lands in (other than the end pixels) means not visible, and "visible" means no
    /// dense sample lands in a wall.
    #[test]
    fn exact_traversal_agrees_with_dense_sampling(
        ax in 0.0f32..300.0, ay in 0.0f32..300.0, dx in -60.0f32..60.0, dy in -60.0f32..60.0,
    ) {
        let map = block_map();
        let (bx, by) = ((ax + dx).clamp(0.0, 1619.0), (ay + dy).clamp(0.0, 1079.0));
        let from = (m(ax), m(ay));
        let to = (m(bx), m(by));
        let (pa, pb) = (map.to_pixel_f32(from.0, from.1), map.to_pixel_f32(to.0, to.1));
        let start = (pa.0.floor() as i64, pa.1.floor() as i64);
        let end = (pb.0.floor() as i64, pb.1.floor() as i64);
        let n = 4000;
        let hit = (0..=n).any(|i| {
            let t = f64::from(i) / f64::from(n);
            let x = f64::from(pa.0) + t * (f64::from(pb.0) - f64::from(pa.0));
            let y = f64::from(pa.1) + t * (f64::from(pb.1) - f64::from(pa.1));
            let cell = (x.floor() as i64, y.floor() as i64);
            cell != start && cell != end && map.is_wall_px(cell.0, cell.1)
        });
        let visible = map.visible_exact(from, to);
        prop_assert!(!(hit && visible), "dense sampling hits a wall but traversal says visible");
    }

    /// A wall-free map: everything inside is visible both ways.
    #[test]
    fn clear_map_is_visible(ax in 0.0f32..12.6, ay in 0.0f32..8.4, bx in 0.0f32..12.6, by in 0.0f32..8.4) {
        static CLEAR: OnceLock<ObstacleMap> = OnceLock::new();
        let map = CLEAR.get_or_init(|| exact_map(&[]));
        prop_assert!(map.visible_exact((ax, ay), (bx, by)));
        prop_assert!(map.visible_sampled((ax, ay), (bx, by), 0.1));
    }
}
