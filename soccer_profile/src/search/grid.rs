//! The heatmap grid: `cells_x` cells along the field length, `cells_y = max(1,
//! round(cells_x * width / length))` across, covering the field exactly; values in [0, 1].
//! Cell (0, 0) has its corner at (-length/2, -width/2); index = iy * cells_x + ix.

use geometry::{Field, Point2};

/// A grid of priorities over the field.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// Cells along the length (x).
    pub cells_x: usize,
    /// Cells across (y).
    pub cells_y: usize,
    /// Cell side along x (m).
    pub cell_length: f64,
    /// Cell side along y (m).
    pub cell_width: f64,
    half_length: f64,
    half_width: f64,
    /// Values, row by row (`iy * cells_x + ix`).
    pub values: Vec<f64>,
    /// The centre of each cell, row by row (the suggestor visits every cell every tick).
    centres: Vec<Point2<Field>>,
}

/// Most cells a heatmap may have: the suggestor visits every cell every tick, so parameters
/// that give more (a long, thin field with many cells along it) are refused at load.
pub const MAX_HEATMAP_CELLS: usize = 1_000_000;

impl Heatmap {
    /// The grid's cells along the length and across the width for `cells_x` cells along a
    /// `length x width` field (square-ish cells).
    pub fn shape(cells_x: usize, length: f64, width: f64) -> (usize, usize) {
        let cells_x = cells_x.max(1);
        let across = (cells_x as f64 * width / length).round();
        // `as` saturates: a non-finite or huge ratio gives a count the caller refuses.
        (cells_x, (across as usize).max(1))
    }

    /// An all-zero grid of `cells_x` cells along a `length x width` field.
    pub fn new(cells_x: usize, length: f64, width: f64) -> Self {
        let (cells_x, cells_y) = Self::shape(cells_x, length, width);
        let (cell_length, cell_width) = (length / cells_x as f64, width / cells_y as f64);
        let (half_length, half_width) = (length / 2.0, width / 2.0);
        let centres = (0..cells_y)
            .flat_map(|iy| {
                (0..cells_x).map(move |ix| {
                    Point2::new(
                        -half_length + (ix as f64 + 0.5) * cell_length,
                        -half_width + (iy as f64 + 0.5) * cell_width,
                    )
                })
            })
            .collect();
        Self {
            cells_x,
            cells_y,
            cell_length,
            cell_width,
            half_length,
            half_width,
            values: vec![0.0; cells_x * cells_y],
            centres,
        }
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the grid has no cells (never: at least one cell).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The cell containing `p` (a point on a boundary goes to the larger index; points
    /// outside are clamped to the border cells).
    pub fn cell_of(&self, p: Point2<Field>) -> usize {
        let ix = ((p.x + self.half_length) / self.cell_length).floor();
        let iy = ((p.y + self.half_width) / self.cell_width).floor();
        let ix = (ix.max(0.0) as usize).min(self.cells_x - 1);
        let iy = (iy.max(0.0) as usize).min(self.cells_y - 1);
        iy * self.cells_x + ix
    }

    /// The centre of cell `c`.
    #[inline]
    pub fn center(&self, c: usize) -> Point2<Field> {
        self.centres[c]
    }

    /// `(ix, iy)` of cell `c`.
    pub fn coords(&self, c: usize) -> (usize, usize) {
        (c % self.cells_x, c / self.cells_x)
    }

    /// Whether `p` lies on the field (boundary included).
    pub fn contains(&self, p: Point2<Field>) -> bool {
        p.x.abs() <= self.half_length && p.y.abs() <= self.half_width
    }

    /// This map at another resolution: each new cell takes the value of the old cell that
    /// contains its centre (a centre on a boundary goes to the larger index).
    ///
    /// Both grids cover the same field, so the new centre `(2i + 1) / (2 new)` of the length
    /// lies in old cell `floor((2i + 1) * old / (2 new))`: exact in integers, where the
    /// centre computed in metres may fall a rounding error short of a boundary (8.95 m field).
    pub fn resampled(&self, cells_x: usize) -> Heatmap {
        let mut next = Heatmap::new(cells_x, 2.0 * self.half_length, 2.0 * self.half_width);
        let old_index =
            |i: usize, old: usize, new: usize| ((2 * i + 1) * old / (2 * new)).min(old - 1);
        for c in 0..next.len() {
            let (ix, iy) = next.coords(c);
            let ox = old_index(ix, self.cells_x, next.cells_x);
            let oy = old_index(iy, self.cells_y, next.cells_y);
            next.values[c] = self.values[oy * self.cells_x + ox];
        }
        next
    }

    /// Half the field length (m).
    pub fn half_length(&self) -> f64 {
        self.half_length
    }

    /// Half the field width (m).
    pub fn half_width(&self) -> f64 {
        self.half_width
    }

    /// Mean value.
    pub fn mean(&self) -> f64 {
        self.values.iter().sum::<f64>() / self.values.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_covers_the_field_exactly() {
        let g = Heatmap::new(18, 9.0, 6.0);
        assert_eq!(
            (g.cells_x, g.cells_y, g.cell_length, g.cell_width),
            (18, 12, 0.5, 0.5)
        );
        let odd = Heatmap::new(7, 9.0, 6.0);
        assert_eq!(odd.cells_y, 5); // round(4.67)
        assert!(
            (odd.cell_length * 7.0 - 9.0).abs() < 1e-12
                && (odd.cell_width * 5.0 - 6.0).abs() < 1e-12
        );
        assert_eq!(Heatmap::new(1, 9.0, 1.0).cells_y, 1);
        assert_eq!(g.cell_of(Point2::new(-4.5, -3.0)), 0);
        assert_eq!(g.cell_of(Point2::new(4.5, 3.0)), g.len() - 1);
        // A point on an inner boundary goes to the larger index.
        assert_eq!(g.coords(g.cell_of(Point2::new(-4.0, -3.0))), (1, 0));
        let c = g.center(0);
        assert_eq!((c.x, c.y), (-4.25, -2.75));
    }

    #[test]
    fn resampling_takes_the_old_cell_at_each_new_centre() {
        let mut g = Heatmap::new(2, 9.0, 6.0); // 2 x 1... round(2*6/9)=1
        assert_eq!(g.cells_y, 1);
        g.values = vec![0.25, 0.75];
        let fine = g.resampled(4);
        assert_eq!((fine.cells_x, fine.cells_y), (4, 3));
        assert_eq!(&fine.values[..4], &[0.25, 0.25, 0.75, 0.75]);
        // 3 cells: the middle centre lies on the old boundary x = 0: the larger index.
        let three = g.resampled(3);
        assert_eq!(&three.values[..3], &[0.25, 0.75, 0.75]);
    }
}
