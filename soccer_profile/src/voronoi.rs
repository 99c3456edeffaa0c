//! The field players' Voronoi partition of the field: a grid over the field and its border
//! strip, each free cell owned by the robot that reaches it cheapest (multi-source Dijkstra
//! over the 8-neighbourhood; a step costs its length in cells plus
//! `orientation_bias * (1 - cos angle) / 2` for the angle between the robot's heading and the
//! step). Cells inside obstacles are blocked. Buffers are kept, so a recomputation does not
//! allocate.

use crate::world::Obstacle;
use geometry::{Field, Point2, Pose2, Vector2};

/// No owner (blocked or unreachable).
const NOBODY: u8 = u8::MAX;

/// One robot taking part in the partition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Site {
    /// The robot's number.
    pub player: u8,
    /// Its field pose; the heading biases the step costs (`orientation_bias`).
    pub pose: Pose2<Field>,
}

const STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The mutable state of one run of the bucket queue, borrowed apart from the grid.
struct Search<'a> {
    cost: &'a mut [f32],
    owner: &'a mut [u8],
    done: &'a mut [bool],
    buckets: &'a mut [Vec<u32>],
    inverse_width: f32,
    mask: usize,
    pending: usize,
}

impl Search<'_> {
    /// Offers cell `n` the cost `next` through `owner`. Blocked cells cost minus infinity, so
    /// the first comparison rejects them; offers to a final cell are at least one bucket width
    /// dearer and fail it too, but for rounding the final flag is checked as well.
    #[inline(always)]
    fn offer(&mut self, n: usize, next: f32, owner: u8) {
        if next >= self.cost[n] || self.done[n] {
            return;
        }
        self.cost[n] = next;
        self.owner[n] = owner;
        let index = (next * self.inverse_width) as usize & self.mask;
        self.buckets[index].push(n as u32);
        self.pending += 1;
    }
}

/// A reusable partition: per-cell cost and owner, the bucket queue and the sites.
#[derive(Debug, Clone, Default)]
pub struct VoronoiGrid {
    resolution: f64,
    min_x: f64,
    min_y: f64,
    nx: usize,
    ny: usize,
    cost: Vec<f32>,
    owner: Vec<u8>,
    blocked: Vec<bool>,
    done: Vec<bool>,
    /// Dial's buckets: cells by `floor(cost / width)`, circular. With the width at most the
    /// cheapest step, every cell of the lowest bucket is final, so no heap is needed.
    buckets: Vec<Vec<u32>>,
    bucket_width: f32,
    inverse_width: f32,
    current: usize,
    pending: usize,
    complete: bool,
    sites: Vec<Site>,
    step_costs: Vec<[f32; 8]>,
}

/// Where a run of the bucket queue may stop before every cell is final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Run to the end.
    Never,
    /// Once this cell is final.
    AtCell(usize),
}

impl VoronoiGrid {
    /// Sizes the grid for a field of `length x width` plus `border` on each side.
    pub fn resize(&mut self, length: f64, width: f64, border: f64, resolution: f64) {
        let nx = ((length + 2.0 * border) / resolution).ceil().max(1.0) as usize;
        let ny = ((width + 2.0 * border) / resolution).ceil().max(1.0) as usize;
        self.resolution = resolution;
        self.min_x = -(nx as f64) * resolution / 2.0;
        self.min_y = -(ny as f64) * resolution / 2.0;
        if (nx, ny) != (self.nx, self.ny) {
            self.nx = nx;
            self.ny = ny;
            let n = nx * ny;
            self.cost = vec![f32::INFINITY; n];
            self.owner = vec![NOBODY; n];
            self.blocked = vec![false; n];
            self.done = vec![false; n];
        }
    }

    /// The cell containing `p`, if on the grid.
    pub fn cell_of(&self, p: Point2<Field>) -> Option<usize> {
        let ix = ((p.x - self.min_x) / self.resolution).floor();
        let iy = ((p.y - self.min_y) / self.resolution).floor();
        if ix < 0.0 || iy < 0.0 || ix >= self.nx as f64 || iy >= self.ny as f64 {
            return None;
        }
        Some(iy as usize * self.nx + ix as usize)
    }

    /// The centre of cell `c`.
    pub fn center(&self, c: usize) -> Point2<Field> {
        let (ix, iy) = (c % self.nx, c / self.nx);
        Point2::new(
            self.min_x + (ix as f64 + 0.5) * self.resolution,
            self.min_y + (iy as f64 + 0.5) * self.resolution,
        )
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.nx * self.ny
    }

    /// Whether the grid has no cells (not sized yet).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The owner of cell `c` after [`compute`](Self::compute).
    pub fn owner(&self, c: usize) -> Option<u8> {
        self.owner.get(c).copied().filter(|o| *o != NOBODY)
    }

    /// Partitions the grid among `sites` around `obstacles`. With `stop_near`, stops once
    /// [`owner_at`](Self::owner_at) of that point is final: its cell, or when an obstacle
    /// covers it, the nearest free cell (enough to answer "who owns the ball's cell").
    pub fn compute(
        &mut self,
        sites: &[Site],
        obstacles: &[Obstacle],
        orientation_bias: f64,
        stop_near: Option<Point2<Field>>,
    ) {
        self.cost.fill(f32::INFINITY);
        self.owner.fill(NOBODY);
        self.done.fill(false);
        for bucket in &mut self.buckets {
            bucket.clear();
        }
        self.current = 0;
        self.pending = 0;
        // Blocked cells: the centres inside an obstacle, visiting only its bounding box.
        self.blocked.fill(false);
        for o in obstacles {
            if !(o.radius > 0.0 && o.center.is_finite()) {
                continue;
            }
            let cells = |v: f64, min: f64, n: usize| {
                (((v - min) / self.resolution).floor().max(0.0) as usize).min(n)
            };
            let (x0, x1) = (
                cells(o.center.x - o.radius, self.min_x, self.nx),
                cells(o.center.x + o.radius, self.min_x, self.nx - 1) + 1,
            );
            let (y0, y1) = (
                cells(o.center.y - o.radius, self.min_y, self.ny),
                cells(o.center.y + o.radius, self.min_y, self.ny - 1) + 1,
            );
            for iy in y0..y1.min(self.ny) {
                for ix in x0..x1.min(self.nx) {
                    let p = Point2::<Field>::new(
                        self.min_x + (ix as f64 + 0.5) * self.resolution,
                        self.min_y + (iy as f64 + 0.5) * self.resolution,
                    );
                    if p.distance_squared(o.center) < o.radius * o.radius {
                        self.blocked[iy * self.nx + ix] = true;
                    }
                }
            }
        }
        self.sites.clear();
        self.sites.extend_from_slice(sites);
        self.step_costs.clear();
        for site in sites {
            let heading = Vector2::<Field>::from_angle(site.pose.yaw);
            let mut costs = [0f32; 8];
            for (k, (dx, dy)) in STEPS.iter().enumerate() {
                let step = Vector2::<Field>::new(f64::from(*dx), f64::from(*dy));
                let length = step.norm();
                let cos = heading.dot(step) / length;
                costs[k] = (length + orientation_bias * (1.0 - cos) / 2.0) as f32;
            }
            self.step_costs.push(costs);
        }
        let cheapest = self
            .step_costs
            .iter()
            .flatten()
            .copied()
            .fold(f32::INFINITY, f32::min);
        let dearest = self
            .step_costs
            .iter()
            .flatten()
            .copied()
            .fold(0.0, f32::max);
        self.bucket_width = if cheapest.is_finite() {
            cheapest.max(1e-3)
        } else {
            1.0
        };
        let count = ((dearest / self.bucket_width).ceil() as usize + 2).next_power_of_two();
        if self.buckets.len() != count {
            self.buckets.resize_with(count, Vec::new);
        }
        self.inverse_width = 1.0 / self.bucket_width;
        for site in sites {
            if let Some(c) = self.cell_of(site.pose.position) {
                // A robot's own cell is never blocked (it stands there).
                self.blocked[c] = false;
            }
        }
        for (cost, blocked) in self.cost.iter_mut().zip(&self.blocked) {
            if *blocked {
                *cost = f32::NEG_INFINITY;
            }
        }
        for (index, site) in sites.iter().enumerate() {
            if let Some(c) = self.cell_of(site.pose.position)
                && self.owner[c] == NOBODY
            {
                self.cost[c] = 0.0;
                self.owner[c] = index as u8;
                self.push(0.0, c);
            }
        }
        self.complete = false;
        // The nearest free cell to a covered point is the nearest owned one too, once owned
        // (an unreachable one never is, and the run then goes to the end).
        let stop_cell = stop_near.and_then(|p| {
            let c = self.cell_of(p)?;
            if self.blocked[c] {
                self.nearest_cell(p, c, |n| !self.blocked[n])
            } else {
                Some(c)
            }
        });
        self.run(stop_cell.map_or(Stop::Never, Stop::AtCell));
    }

    /// Whether the last computation ran to the end (not stopped at a cell).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Continues a computation stopped at a cell until every cell is owned.
    pub fn finish(&mut self) {
        if !self.complete {
            self.run(Stop::Never);
        }
    }

    fn push(&mut self, cost: f32, cell: usize) {
        let mask = self.buckets.len() - 1;
        let index = (cost * self.inverse_width) as usize & mask;
        self.buckets[index].push(cell as u32);
        self.pending += 1;
    }

    fn run(&mut self, stop: Stop) {
        let mask = self.buckets.len() - 1;
        let (nx, ny) = (self.nx, self.ny);
        let w = nx as isize;
        let interior_offsets = [1, w + 1, w, w - 1, -1, -w - 1, -w, -w + 1];
        let mut search = Search {
            cost: &mut self.cost,
            owner: &mut self.owner,
            done: &mut self.done,
            buckets: &mut self.buckets,
            inverse_width: self.inverse_width,
            mask,
            pending: self.pending,
        };
        let mut current = self.current;
        let mut stopped = false;
        while search.pending > 0 {
            let Some(cell) = search.buckets[current].pop() else {
                current = (current + 1) & mask;
                continue;
            };
            search.pending -= 1;
            let c = cell as usize;
            if search.done[c] || (search.cost[c] * search.inverse_width) as usize & mask != current
            {
                continue; // already final, or a stale entry of an improved cell
            }
            search.done[c] = true;
            let cost = search.cost[c];
            let owner = search.owner[c];
            let (ix, iy) = (c % nx, c / nx);
            let costs = &self.step_costs[usize::from(owner)];
            if ix > 0 && iy > 0 && ix + 1 < nx && iy + 1 < ny {
                // Inside the border every neighbour exists: fixed index offsets.
                for (offset, step) in interior_offsets.iter().zip(costs) {
                    search.offer((c as isize + offset) as usize, cost + step, owner);
                }
            } else {
                for ((dx, dy), step) in STEPS.iter().zip(costs) {
                    let (jx, jy) = (ix as i32 + dx, iy as i32 + dy);
                    if jx < 0 || jy < 0 || jx >= nx as i32 || jy >= ny as i32 {
                        continue;
                    }
                    search.offer(jy as usize * nx + jx as usize, cost + step, owner);
                }
            }
            if stop == Stop::AtCell(c) {
                stopped = true;
                break;
            }
        }
        self.pending = search.pending;
        self.current = current;
        self.complete = !stopped;
    }

    /// The player owning the cell at `p`; a blocked cell defers to the nearest free one.
    pub fn owner_at(&self, p: Point2<Field>) -> Option<u8> {
        let c = self.cell_of(p)?;
        let index = if self.blocked[c] {
            self.owner[self.nearest_cell(p, c, |n| !self.blocked[n] && self.owner[n] != NOBODY)?]
        } else {
            self.owner[c]
        };
        self.sites.get(usize::from(index)).map(|s| s.player)
    }

    /// The cell passing `wanted` whose centre is nearest to `p` (in cell `c`), ties to the
    /// lowest index: rings of cells around `c`, outwards until no farther ring can hold a
    /// nearer one.
    fn nearest_cell(
        &self,
        p: Point2<Field>,
        c: usize,
        wanted: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let (cx, cy) = ((c % self.nx) as isize, (c / self.nx) as isize);
        let (nx, ny) = (self.nx as isize, self.ny as isize);
        let mut best: Option<(f64, usize)> = None;
        let consider = |best: &mut Option<(f64, usize)>, x: isize, y: isize| {
            if x < 0 || y < 0 || x >= nx || y >= ny {
                return;
            }
            let n = y as usize * self.nx + x as usize;
            if !wanted(n) {
                return;
            }
            let d2 = p.distance_squared(self.center(n));
            if best.is_none_or(|(b2, bn)| d2 < b2 || (d2 == b2 && n < bn)) {
                *best = Some((d2, n));
            }
        };
        for r in 1..=nx.max(ny) {
            // Every centre of ring r is at least (r - 1/2) cells from `p` along one axis.
            if let Some((b2, _)) = best {
                let nearest_possible = (r as f64 - 0.5) * self.resolution;
                if nearest_possible * nearest_possible > b2 {
                    break;
                }
            }
            for x in (cx - r)..=(cx + r) {
                consider(&mut best, x, cy - r);
                consider(&mut best, x, cy + r);
            }
            for y in (cy - r + 1)..(cy + r) {
                consider(&mut best, cx - r, y);
                consider(&mut best, cx + r, y);
            }
        }
        best.map(|(_, n)| n)
    }

    /// Whether `player` owns the cell at `p`, computing only as far as needed.
    pub fn owns(
        &mut self,
        player: u8,
        p: Point2<Field>,
        sites: &[Site],
        obstacles: &[Obstacle],
        bias: f64,
    ) -> bool {
        if self.cell_of(p).is_none() {
            return false;
        }
        self.compute(sites, obstacles, bias, Some(p));
        self.owner_at(p) == Some(player)
    }

    /// The cells `player` owns, as centres.
    pub fn cells_of(&self, player: u8) -> impl Iterator<Item = Point2<Field>> + '_ {
        let index = self
            .sites
            .iter()
            .position(|s| s.player == player)
            .map(|i| i as u8);
        (0..self.len())
            .filter(move |c| index.is_some() && self.owner[*c] == index.unwrap_or(NOBODY))
            .map(|c| self.center(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> VoronoiGrid {
        let mut g = VoronoiGrid::default();
        g.resize(9.0, 6.0, 1.0, 0.2);
        g
    }

    fn site(player: u8, x: f64, y: f64, yaw: f64) -> Site {
        Site {
            player,
            pose: Pose2::new(x, y, yaw),
        }
    }

    fn obstacle(x: f64, y: f64, radius: f64) -> Obstacle {
        Obstacle {
            center: Point2::new(x, y),
            radius,
        }
    }

    #[test]
    fn a_ball_under_an_obstacle_stops_early_with_the_full_answer() {
        let sites = [
            site(2, -3.0, 1.0, 0.0),
            site(3, 2.5, -1.5, 2.0),
            site(4, 1.0, 2.5, -1.0),
        ];
        let obstacles = [obstacle(0.4, 0.2, 0.7)];
        let mut full = grid();
        full.compute(&sites, &obstacles, 0.5, None);
        for k in 0..60 {
            let ball = Point2::<Field>::new(-0.2 + 0.02 * k as f64, 0.2 - 0.01 * k as f64);
            let mut partial = grid();
            partial.compute(&sites, &obstacles, 0.5, Some(ball));
            assert_eq!(partial.owner_at(ball), full.owner_at(ball), "{ball:?}");
            if k == 30 {
                assert!(
                    !partial.is_complete(),
                    "the ball query should not need every cell"
                );
            }
        }
    }

    #[test]
    fn the_ring_search_finds_the_same_cell_as_a_full_scan() {
        let mut g = grid();
        let sites = [
            site(2, -2.0, 1.0, 0.0),
            site(3, 1.5, -1.0, 2.0),
            site(4, 3.0, 2.0, -1.0),
        ];
        let obstacles = [obstacle(0.0, 0.0, 1.3), obstacle(3.3, 2.2, 0.6)];
        g.compute(&sites, &obstacles, 0.5, None);
        let mut blocked_queries = 0;
        for k in 0..400 {
            let p = Point2::<Field>::new(-1.3 + 0.0071 * k as f64, -1.2 + 0.0063 * k as f64);
            let c = g.cell_of(p).expect("on the grid");
            if !g.blocked[c] {
                continue;
            }
            blocked_queries += 1;
            let scan = (0..g.len())
                .filter(|n| !g.blocked[*n] && g.owner[*n] != NOBODY)
                .min_by(|a, b| {
                    p.distance_squared(g.center(*a))
                        .total_cmp(&p.distance_squared(g.center(*b)))
                });
            assert_eq!(
                g.nearest_cell(p, c, |n| !g.blocked[n] && g.owner[n] != NOBODY),
                scan,
                "{p:?}"
            );
        }
        assert!(blocked_queries > 100, "{blocked_queries}");
    }

    #[test]
    fn without_bias_the_nearest_robot_owns_a_cell() {
        let mut g = grid();
        let sites = [site(2, -2.0, 0.0, 0.0), site(3, 2.0, 0.0, 0.0)];
        g.compute(&sites, &[], 0.0, None);
        assert_eq!(g.owner_at(Point2::new(-0.5, 1.0)), Some(2));
        assert_eq!(g.owner_at(Point2::new(0.5, -1.0)), Some(3));
        assert!(g.owns(3, Point2::new(1.0, 0.0), &sites, &[], 0.0));
        assert!(!g.owns(2, Point2::new(1.0, 0.0), &sites, &[], 0.0));
    }

    #[test]
    fn a_robot_facing_the_ball_reaches_it_cheaper() {
        let mut g = grid();
        // Equidistant, but 3 faces away from the point and 2 faces it.
        let sites = [site(2, -1.0, 0.0, 0.0), site(3, 1.0, 0.0, 0.0)];
        g.compute(&sites, &[], 2.0, None);
        assert_eq!(g.owner_at(Point2::new(0.05, 0.0)), Some(2));
    }

    #[test]
    fn obstacles_block_cells_and_a_blocked_ball_cell_defers_to_the_nearest_free_cell() {
        let mut g = grid();
        let sites = [site(2, -2.0, 0.0, 0.0), site(3, 2.0, 0.0, 0.0)];
        // A wall of obstacles right of robot 3's approach makes it walk around.
        let wall = [Obstacle {
            center: Point2::new(1.0, 0.0),
            radius: 0.5,
        }];
        g.compute(&sites, &wall, 0.0, None);
        assert_eq!(
            g.owner_at(Point2::new(1.0, 0.0)),
            Some(3),
            "nearest free cell is 3's"
        );
        assert!(g.cells_of(2).count() > 0 && g.cells_of(3).count() > 0);
    }
}
