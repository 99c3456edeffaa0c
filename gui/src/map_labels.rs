//! Where waypoint labels go on the map: beside their marker, on the first side where they
//! cover no other label and no marker, or not at all (zoom in to see it).

use egui::{Pos2, Rect, Vec2};

/// The gap between a marker's edge and its label, in points.
const GAP: f32 = 2.0;

/// The rectangles of labels of `sizes` beside markers at `markers` of `radius` points, tried
/// right, left, above, below, then the four corners; `None` for a label that fits nowhere in
/// `bounds` without covering a placed label or any marker. Earlier labels win.
pub fn place_labels(
    markers: &[Pos2],
    sizes: &[Vec2],
    radius: f32,
    bounds: Rect,
) -> Vec<Option<Rect>> {
    let marker_rects: Vec<Rect> = markers
        .iter()
        .map(|p| Rect::from_center_size(*p, Vec2::splat(2.0 * radius)))
        .collect();
    let mut placed: Vec<Rect> = Vec::with_capacity(markers.len());
    markers
        .iter()
        .zip(sizes)
        .map(|(p, size)| {
            let spot = candidates(*p, *size, radius).into_iter().find(|r| {
                bounds.contains_rect(*r)
                    && !placed.iter().any(|o| o.intersects(*r))
                    && !marker_rects.iter().any(|m| m.intersects(*r))
            })?;
            placed.push(spot);
            Some(spot)
        })
        .collect()
}

/// The rectangles a label of `size` may take around a marker at `p`, in order of preference.
fn candidates(p: Pos2, size: Vec2, radius: f32) -> [Rect; 8] {
    let off = radius + GAP;
    let (w, h) = (size.x, size.y);
    let at = |x: f32, y: f32| Rect::from_min_size(Pos2::new(x, y), size);
    [
        at(p.x + off, p.y - h / 2.0),
        at(p.x - off - w, p.y - h / 2.0),
        at(p.x - w / 2.0, p.y - off - h),
        at(p.x - w / 2.0, p.y + off),
        at(p.x + off * 0.7, p.y - off * 0.7 - h),
        at(p.x + off * 0.7, p.y + off * 0.7),
        at(p.x - off * 0.7 - w, p.y - off * 0.7 - h),
        at(p.x - off * 0.7 - w, p.y + off * 0.7),
    ]
}

#[cfg(test)]
mod tests {
    use super::place_labels;
    use egui::{Pos2, Rect, Vec2};

    fn bounds() -> Rect {
        Rect::from_min_size(Pos2::ZERO, Vec2::new(400.0, 300.0))
    }

    #[test]
    fn a_lone_label_goes_right_of_its_marker() {
        let placed = place_labels(
            &[Pos2::new(100.0, 100.0)],
            &[Vec2::new(60.0, 12.0)],
            5.0,
            bounds(),
        );
        assert_eq!(
            placed,
            [Some(Rect::from_min_size(
                Pos2::new(107.0, 94.0),
                Vec2::new(60.0, 12.0)
            ))]
        );
    }

    #[test]
    fn crowded_labels_move_aside_or_are_left_out_and_never_cover_a_label_or_marker() {
        // A row of markers 20 points apart: long labels cannot all sit to the right.
        let markers: Vec<Pos2> = (0..8)
            .map(|i| Pos2::new(100.0 + 20.0 * i as f32, 150.0))
            .collect();
        let sizes = vec![Vec2::new(70.0, 12.0); markers.len()];
        let placed = place_labels(&markers, &sizes, 5.0, bounds());
        let shown: Vec<Rect> = placed.iter().flatten().copied().collect();
        assert!(shown.len() >= 3, "{placed:?}");
        assert!(
            shown.len() < markers.len(),
            "some must give way: {placed:?}"
        );
        for (i, a) in shown.iter().enumerate() {
            for b in &shown[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} overlaps {b:?}");
            }
            for m in &markers {
                assert!(
                    !a.intersects(Rect::from_center_size(*m, Vec2::splat(10.0))),
                    "{a:?} covers {m:?}"
                );
            }
        }
    }

    #[test]
    fn a_label_at_the_right_edge_goes_left_and_one_that_fits_nowhere_is_left_out() {
        let size = Vec2::new(60.0, 12.0);
        let edge = place_labels(&[Pos2::new(390.0, 100.0)], &[size], 5.0, bounds());
        assert_eq!(edge[0].map(|r| r.max.x), Some(383.0));
        let too_big = place_labels(
            &[Pos2::new(200.0, 150.0)],
            &[Vec2::new(500.0, 12.0)],
            5.0,
            bounds(),
        );
        assert_eq!(too_big, [None]);
    }
}
