//! [`NearbyWaypoints`]: [`WaypointGraph::nearest`] for one fixed threshold, from a grid whose
//! cells list the few waypoints that can be within the threshold of a point of the cell.
//!
//! Why it answers as the full search does: when the nearest distance `d` is at most the
//! threshold, every waypoint at distance `d` is within the threshold, hence listed in the
//! point's cell (the lists are built with a margin above the threshold that covers the `f32`
//! rounding of the distances and of the cell lookup); the cell's list keeps file order, so
//! its first waypoint at the smallest distance is the full search's. When `d` is above the
//! threshold, every listed distance is too, and both answer `None`. Outside the grid (which
//! reaches that margin beyond the threshold around every waypoint), and for points that are
//! not finite (the threshold is), both answer `None` too.

use crate::graph::WaypointGraph;

/// One waypoint listed in a cell: its position and id.
#[derive(Debug, Clone, Copy)]
struct Listed {
    x: f32,
    y: f32,
    id: i32,
}

/// The cells of a grid over the waypoints and their surroundings, each with the waypoints
/// that can be within `threshold` of one of its points, in file order.
#[derive(Debug, Clone)]
pub struct NearbyWaypoints {
    threshold: f32,
    /// The grid's lower corner (metres) and the inverse of its cell side.
    x0: f64,
    y0: f64,
    per_metre: f64,
    /// Its columns and rows, as floats for the range test of a point.
    cols: f64,
    rows: f64,
    /// Its columns, as the count of cells in a row.
    stride: usize,
    /// Per cell, row after row: its waypoints are `listed[start..end]`.
    cells: Vec<(u32, u32)>,
    listed: Vec<Listed>,
}

/// The most cells along one side of the grid.
const MAX_SIDE: f64 = 256.0;

/// The most cell-and-waypoint pairs a grid is built from (so that a huge waypoint file does
/// not make loading slow).
const MAX_BUILD_STEPS: usize = 1 << 24;

/// The largest coordinate magnitude (metres) a grid is built for; fields are tens of metres.
const MAX_COORDINATE: f32 = 1.0e6;

impl NearbyWaypoints {
    /// The grid of `graph` for `threshold`; `None` when there is none to build (no
    /// waypoints, a threshold that is negative or not finite, coordinates beyond
    /// [`MAX_COORDINATE`], or too many waypoints for the cells), where the full search is as
    /// good.
    pub fn new(graph: &WaypointGraph, threshold: f32) -> Option<Self> {
        let waypoints = graph.waypoints();
        let reasonable = |v: f32| v.is_finite() && v.abs() <= MAX_COORDINATE;
        if waypoints.is_empty()
            || !(threshold >= 0.0 && reasonable(threshold))
            || !waypoints.iter().all(|w| reasonable(w.x) && reasonable(w.y))
        {
            return None;
        }
        let (mut min_x, mut max_x, mut min_y, mut max_y) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        let mut largest = f64::from(threshold);
        for w in waypoints {
            let (x, y) = (f64::from(w.x), f64::from(w.y));
            (min_x, max_x) = (min_x.min(x), max_x.max(x));
            (min_y, max_y) = (min_y.min(y), max_y.max(y));
            largest = largest.max(x.abs()).max(y.abs());
        }
        // Far above the relative error of an `f32` distance (a few units of 2^-24) at these
        // magnitudes, and of the cell lookup in `f64`.
        let reach = f64::from(threshold) + 1.0e-3 + largest * 1.0e-5;
        let (x0, y0) = (min_x - reach, min_y - reach);
        let (width, height) = (max_x + reach - x0, max_y + reach - y0);
        let cell = (f64::from(threshold) / 2.0)
            .max(width / MAX_SIDE)
            .max(height / MAX_SIDE);
        let cols = (width / cell).ceil() as usize + 1;
        let rows = (height / cell).ceil() as usize + 1;
        if (cols * rows).saturating_mul(waypoints.len()) > MAX_BUILD_STEPS {
            return None;
        }
        let mut cells = Vec::with_capacity(cols * rows);
        let mut listed = Vec::new();
        for row in 0..rows {
            for col in 0..cols {
                let start = u32::try_from(listed.len()).ok()?;
                let (left, top) = (x0 + col as f64 * cell, y0 + row as f64 * cell);
                for w in waypoints {
                    let (x, y) = (f64::from(w.x), f64::from(w.y));
                    let dx = (left - x).max(x - (left + cell)).max(0.0);
                    let dy = (top - y).max(y - (top + cell)).max(0.0);
                    if dx.hypot(dy) <= reach {
                        listed.push(Listed {
                            x: w.x,
                            y: w.y,
                            id: w.id,
                        });
                    }
                }
                cells.push((start, u32::try_from(listed.len()).ok()?));
            }
        }
        Some(Self {
            threshold,
            x0,
            y0,
            per_metre: 1.0 / cell,
            cols: cols as f64,
            rows: rows as f64,
            stride: cols,
            cells,
            listed,
        })
    }

    /// The threshold the grid was built for.
    pub fn threshold(&self) -> f32 {
        self.threshold
    }

    /// `graph.nearest(x, y, self.threshold())` for the `graph` the grid was built from.
    #[inline]
    pub fn nearest(&self, x: f32, y: f32) -> Option<i32> {
        // Outside the grid (or not finite: the threshold is finite) every waypoint is
        // farther than the threshold.
        let listed = self.cell_of(x, y)?;
        let mut best: Option<(f32, i32)> = None;
        for w in listed {
            let (dx, dy) = (w.x - x, w.y - y);
            let distance = (dx * dx + dy * dy).sqrt();
            if best.is_none_or(|(least, _)| distance < least) {
                best = Some((distance, w.id));
            }
        }
        best.filter(|&(distance, _)| distance <= self.threshold)
            .map(|(_, id)| id)
    }

    /// The waypoints listed in a cell whose closed square holds `(x, y)`; `None` outside the
    /// grid or for a point that is not finite.
    #[inline(always)]
    fn cell_of(&self, x: f32, y: f32) -> Option<&[Listed]> {
        let col = (f64::from(x) - self.x0) * self.per_metre;
        let row = (f64::from(y) - self.y0) * self.per_metre;
        // False for NaN too.
        if !(col >= 0.0 && row >= 0.0 && col < self.cols && row < self.rows) {
            return None;
        }
        let at = nearest_whole(row - 0.5) * self.stride + nearest_whole(col - 0.5);
        let &(start, end) = self.cells.get(at)?;
        self.listed.get(start as usize..end as usize)
    }
}

/// The integer `n` nearest to `v` in `-0.5..2^31` (either one at a tie, so that
/// `n <= v + 0.5 <= n + 1`: the cell `n` of a coordinate `v + 0.5` in cells holds it in its
/// closed side), as a count (`-0.5` gives 0). Adding 1.5 * 2^52 rounds to an integer in IEEE
/// arithmetic, and the bits of the sum count up with it.
#[inline(always)]
fn nearest_whole(v: f64) -> usize {
    const MAGIC: f64 = 6_755_399_441_055_744.0;
    ((v + MAGIC).to_bits() - MAGIC.to_bits()) as usize
}

#[cfg(test)]
mod tests {
    use super::NearbyWaypoints;
    use crate::graph::WaypointGraph;
    use crate::waypoint::Waypoint;
    use geometry::rng::SplitMix64;

    /// Random fields (some waypoints on top of each other, some on a coarse lattice so that
    /// distances tie) and points all over and around them: the grid answers as the search.
    #[test]
    fn answers_as_the_full_search() {
        let mut rng = SplitMix64::new(5);
        let mut near_answers = 0;
        for field in 0..200 {
            let count = 1 + (rng.unit_f32() * 30.0) as usize;
            let mut waypoints: Vec<Waypoint> = Vec::new();
            for id in 0..count {
                let pick = rng.unit_f32();
                let (x, y) = if pick < 0.1 && !waypoints.is_empty() {
                    let twin = &waypoints
                        [(rng.unit_f32() * waypoints.len() as f32) as usize % waypoints.len()];
                    (twin.x, twin.y)
                } else if pick < 0.5 {
                    (
                        (rng.unit_f32() * 12.0).round(),
                        (rng.unit_f32() * 8.0).round(),
                    )
                } else {
                    (rng.unit_f32() * 12.0, rng.unit_f32() * 8.0)
                };
                waypoints.push(Waypoint::at(id as i32 * 3 - 7, x, y, Vec::new()));
            }
            let graph = WaypointGraph::new(waypoints.clone()).unwrap();
            let threshold = [0.0, 0.25, 1.0, 1.0, 2.5, 20.0][field % 6];
            let nearby = NearbyWaypoints::new(&graph, threshold).unwrap();
            for _ in 0..2_000 {
                let pick = rng.unit_f32();
                let (x, y) = if pick < 0.3 {
                    // At a whole or half metre: ties with lattice waypoints, distances of
                    // exactly the threshold.
                    (
                        (rng.unit_f32() * 32.0 - 8.0).round() / 2.0,
                        (rng.unit_f32() * 24.0 - 8.0).round() / 2.0,
                    )
                } else if pick < 0.4 {
                    let w = &waypoints[(rng.unit_f32() * count as f32) as usize % count];
                    (w.x + threshold, w.y)
                } else {
                    (rng.unit_f32() * 20.0 - 4.0, rng.unit_f32() * 16.0 - 4.0)
                };
                let expected = graph.nearest(x, y, threshold);
                assert_eq!(
                    nearby.nearest(x, y),
                    expected,
                    "field {field}, threshold {threshold}, point ({x}, {y})"
                );
                near_answers += usize::from(expected.is_some());
            }
        }
        assert!(
            near_answers > 50_000,
            "{near_answers} points near a waypoint"
        );
        let graph = WaypointGraph::new(vec![Waypoint::at(4, 1.0, 2.0, Vec::new())]).unwrap();
        let nearby = NearbyWaypoints::new(&graph, 1.0).unwrap();
        for (x, y) in [
            (f32::NAN, 2.0),
            (1.0, f32::INFINITY),
            (f32::NEG_INFINITY, 0.0),
            (1.0e30, 2.0),
            (1.0, 2.0),
        ] {
            assert_eq!(nearby.nearest(x, y), graph.nearest(x, y, 1.0));
        }
    }

    #[test]
    fn is_not_built_where_it_cannot_help() {
        let graph = WaypointGraph::new(vec![Waypoint::at(0, 1.0, 2.0, Vec::new())]).unwrap();
        for threshold in [-1.0, f32::NAN, f32::INFINITY, 1.0e9] {
            assert!(NearbyWaypoints::new(&graph, threshold).is_none());
        }
        let empty = WaypointGraph::new(Vec::new()).unwrap();
        assert!(NearbyWaypoints::new(&empty, 1.0).is_none());
    }
}
