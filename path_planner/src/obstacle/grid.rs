//! Walls from an occupancy grid (e.g. the RoboMaster map as a grey image).
//!
//! World frame as in the rest of the workspace: origin at the image's top-left corner,
//! x to the right (columns), y downward (rows). A pixel is a wall if its grey value is < 10.

use super::{Obstacle, Query};
use geometry::Vec2;

/// Grey values below this are walls.
pub const WALL_GREY: u8 = 10;

/// Errors building a [`GridObstacle`].
#[derive(Clone, Debug, PartialEq)]
pub enum GridError {
    /// `pixels.len() != cols * rows`.
    SizeMismatch {
        /// Expected length.
        expected: usize,
        /// Actual length.
        actual: usize,
    },
    /// Zero size or non-positive real extent.
    BadDimensions,
}

impl std::fmt::Display for GridError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SizeMismatch { expected, actual } => {
                write!(f, "grid has {actual} pixels, expected {expected}")
            }
            Self::BadDimensions => write!(f, "grid dimensions must be positive"),
        }
    }
}

impl std::error::Error for GridError {}

/// Precomputed signed distance field of the walls (robot clearance already subtracted).
#[derive(Clone, Debug)]
pub struct GridObstacle {
    cols: usize,
    rows: usize,
    sx: f64,
    sy: f64,
    clearance: f64,
    /// Signed distance (m) from each cell centre to the wall boundary (negative inside walls).
    sdf: Vec<f32>,
}

/// "No target" value of the squared distance transform (m²).
const FAR: f64 = 1e12;

/// 1D squared distance transform with sample spacing `s` (Felzenszwalb & Huttenlocher).
fn dt1d(f: &[f64], s: f64, out: &mut [f64], v: &mut [usize], z: &mut [f64]) {
    let n = f.len();
    let s2 = s * s;
    let inter = |q: usize, p: usize| {
        let (qf, pf) = (q as f64, p as f64);
        ((f[q] + s2 * qf * qf) - (f[p] + s2 * pf * pf)) / (2.0 * s2 * (qf - pf))
    };
    let mut k = 0usize;
    v[0] = 0;
    z[0] = f64::NEG_INFINITY;
    z[1] = f64::INFINITY;
    for q in 1..n {
        let mut x = inter(q, v[k]);
        while x <= z[k] {
            if k == 0 {
                break;
            }
            k -= 1;
            x = inter(q, v[k]);
        }
        if k == 0 && x <= z[0] {
            v[0] = q;
            z[1] = f64::INFINITY;
            continue;
        }
        k += 1;
        v[k] = q;
        z[k] = x;
        z[k + 1] = f64::INFINITY;
    }
    k = 0;
    for (q, o) in out.iter_mut().enumerate() {
        while z[k + 1] < q as f64 {
            k += 1;
        }
        let d = q as f64 - v[k] as f64;
        *o = (s2 * d * d + f[v[k]]).min(FAR);
    }
}

/// Euclidean distance (m) from every cell to the nearest cell where `target` is true.
fn edt(target: &[bool], cols: usize, rows: usize, sx: f64, sy: f64) -> Vec<f64> {
    let mut g = vec![FAR; cols * rows];
    let n = cols.max(rows);
    let (mut f, mut out, mut v, mut z) = (
        vec![0.0; n],
        vec![0.0; n],
        vec![0usize; n],
        vec![0.0; n + 1],
    );
    for c in 0..cols {
        for r in 0..rows {
            f[r] = if target[r * cols + c] { 0.0 } else { FAR };
        }
        dt1d(&f[..rows], sy, &mut out[..rows], &mut v, &mut z);
        for r in 0..rows {
            g[r * cols + c] = out[r];
        }
    }
    for r in 0..rows {
        f[..cols].copy_from_slice(&g[r * cols..(r + 1) * cols]);
        dt1d(&f[..cols], sx, &mut out[..cols], &mut v, &mut z);
        for c in 0..cols {
            g[r * cols + c] = out[c].sqrt();
        }
    }
    g
}

impl GridObstacle {
    /// Builds the wall field from grey `pixels` (row-major, `cols × rows`) covering
    /// `width × height` metres; `clearance` (robot radius) is subtracted from distances.
    pub fn from_grey(
        pixels: &[u8],
        cols: usize,
        rows: usize,
        width: f64,
        height: f64,
        clearance: f64,
    ) -> Result<Self, GridError> {
        if cols == 0 || rows == 0 || width <= 0.0 || height <= 0.0 {
            return Err(GridError::BadDimensions);
        }
        if pixels.len() != cols * rows {
            return Err(GridError::SizeMismatch {
                expected: cols * rows,
                actual: pixels.len(),
            });
        }
        let (sx, sy) = (width / cols as f64, height / rows as f64);
        let wall: Vec<bool> = pixels.iter().map(|&g| g < WALL_GREY).collect();
        let free: Vec<bool> = wall.iter().map(|w| !w).collect();
        let to_wall = edt(&wall, cols, rows, sx, sy);
        let to_free = edt(&free, cols, rows, sx, sy);
        let half = 0.5 * sx.min(sy);
        let sdf = (0..cols * rows)
            .map(|i| {
                let d = if wall[i] {
                    -(to_free[i] - half)
                } else {
                    to_wall[i] - half
                };
                d as f32
            })
            .collect();
        Ok(Self {
            cols,
            rows,
            sx,
            sy,
            clearance,
            sdf,
        })
    }

    /// Cell (col, row) containing `p`, clamped to the grid.
    fn cell(&self, p: Vec2) -> (usize, usize) {
        let c = (p.x / self.sx).floor().clamp(0.0, (self.cols - 1) as f64) as usize;
        let r = (p.y / self.sy).floor().clamp(0.0, (self.rows - 1) as f64) as usize;
        (c, r)
    }

    /// Centre of cell (col, row) in metres; rows grow with y, like [`Self::cell`].
    fn centre(&self, c: usize, r: usize) -> Vec2 {
        Vec2::new((c as f64 + 0.5) * self.sx, (r as f64 + 0.5) * self.sy)
    }

    fn cell_distance(&self, c: usize, r: usize) -> f64 {
        self.sdf[r * self.cols + c] as f64 - self.clearance
    }

    /// Half the cell diagonal: how far the cell value may be off the true distance.
    fn half_diag(&self) -> f64 {
        0.5 * self.sx.hypot(self.sy)
    }

    /// Grid size (cols, rows).
    pub fn size(&self) -> (usize, usize) {
        (self.cols, self.rows)
    }
}

impl Obstacle for GridObstacle {
    fn distance(&self, q: &Query) -> f64 {
        let (c, r) = self.cell(q.pos);
        // Conservative: the true distance can differ from the cell-centre value by the half diagonal.
        self.cell_distance(c, r) - self.half_diag()
    }
    fn distance_slack(&self) -> f64 {
        2.0 * self.half_diag()
    }
    fn closest_point_outside(&self, p: Vec2, clearance: f64) -> Option<Vec2> {
        let (c0, r0) = self.cell(p);
        let need = clearance + self.half_diag();
        let max_ring = self.cols.max(self.rows);
        for ring in 0..max_ring {
            let mut best: Option<(f64, Vec2)> = None;
            let (lo_c, hi_c) = (c0.saturating_sub(ring), (c0 + ring).min(self.cols - 1));
            let (lo_r, hi_r) = (r0.saturating_sub(ring), (r0 + ring).min(self.rows - 1));
            for r in lo_r..=hi_r {
                for c in lo_c..=hi_c {
                    let on_ring = r.abs_diff(r0) == ring || c.abs_diff(c0) == ring;
                    if on_ring && self.cell_distance(c, r) >= need {
                        let q = self.centre(c, r);
                        let d = q.dist(p);
                        if best.is_none_or(|b| d < b.0) {
                            best = Some((d, q));
                        }
                    }
                }
            }
            if let Some((_, q)) = best {
                return Some(q);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: `closest_point_outside` used a y-flipped cell centre, so the escape point of
    /// a point in a wall near the top of the map landed near the bottom.
    #[test]
    fn closest_point_outside_stays_next_to_the_wall() {
        // 10 x 10 cells of 0.1 m; a wall block in rows 1..=2 (y 0.1..0.3), columns 3..=6
        let mut pixels = vec![255u8; 100];
        for r in 1..=2 {
            for c in 3..=6 {
                pixels[r * 10 + c] = 0;
            }
        }
        let grid = GridObstacle::from_grey(&pixels, 10, 10, 1.0, 1.0, 0.0).unwrap();
        let inside = Vec2::new(0.45, 0.15);
        let out = grid.closest_point_outside(inside, 0.0).unwrap();
        assert!(
            out.dist(inside) < 0.3,
            "escape point {out:?} is far from {inside:?}"
        );
        let (c, r) = grid.cell(out);
        assert!(
            grid.cell_distance(c, r) >= 0.0,
            "escape point {out:?} is inside the wall"
        );
    }
}
