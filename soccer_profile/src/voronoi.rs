//! The field players' Voronoi partition of the field: a grid over the field and its border
//! strip, each free cell owned by the robot that reaches it cheapest (multi-source Dijkstra
//! over the 8-neighbourhood; a step costs its length in cells plus
//! `orientation_bias * (1 - cos angle) / 2` for the angle between the robot's heading and the
//! step). Cells inside obstacles are blocked. Buffers are kept, so a recomputation does not
//! allocate.
//!
//! Costs are fixed-point integers ([`UNITS_PER_CELL`] per cell length), so sums are exact: a
//! tie is a tie on every machine and in every robot's view, and goes to the lower player
//! number.
//!
//! Each cell holds one *key*: its cost shifted left by eight bits, with the owner's rank
//! (its place among the sites by player number) in the low byte. A lower key is a lower cost,
//! or an equal cost reached by a lower player number, so one comparison decides an offer,
//! and a step adds its shifted cost to the key without touching the rank.
//!
//! A run can stop early, once the owner of one point is final (the striker question), and be
//! finished later. Most of the time that question needs no run at all: a cheap proof
//! settles it (the `certificate` module).

use crate::world::Obstacle;
use geometry::{Field, Point2, Pose2, Vector2};

mod certificate;

/// Cost units per cell length (fixed point); a step costs at least this much, which is also
/// the width of a bucket.
pub const UNITS_PER_CELL: u64 = 1 << 16;

/// Bits of a key below its cost: the owner's rank.
const RANK_BITS: u32 = 8;

/// The rank byte of a key.
const RANK_MASK: u64 = (1 << RANK_BITS) - 1;

/// Bits of a key below its bucket number.
const BUCKET_SHIFT: u32 = RANK_BITS + UNITS_PER_CELL.trailing_zeros();

/// The key of a cell not reached yet.
const UNREACHED: u64 = u64::MAX;

/// The key of a blocked or padding cell: no offer is lower (every reached key costs at least
/// one cell length, see [`SEED_COST`]).
const WALL: u64 = 0;

/// The cost of a robot's own cell. Costs are counted from one cell length instead of zero,
/// so that no key of a reached cell equals [`WALL`]; only differences of costs matter.
const SEED_COST: u64 = UNITS_PER_CELL;

/// The most sites a partition takes (ranks and site indices are single bytes).
pub const MAX_SITES: usize = 255;

/// The largest `orientation_bias` (in cell lengths) the partition takes, so that a step's
/// cost, and the ring of buckets, stay small.
pub const MAX_ORIENTATION_BIAS: f64 = 100.0;

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

/// Whether a key belongs to a reached cell (neither a wall nor unreached).
#[inline(always)]
fn is_reached(key: u64) -> bool {
    key != WALL && key != UNREACHED
}

/// The circular bucket of a key.
#[inline(always)]
fn bucket_of(key: u64, mask: usize) -> usize {
    (key >> BUCKET_SHIFT) as usize & mask
}

/// The rank of a reached key.
#[inline(always)]
fn rank_of(key: u64) -> usize {
    (key & RANK_MASK) as usize
}

/// The mutable state of one run of the bucket queue, borrowed apart from the grid.
struct Search<'a> {
    key: &'a mut [u64],
    buckets: &'a mut [Vec<u32>],
    mask: usize,
    pending: usize,
}

impl Search<'_> {
    /// Offers padded cell `n` the key `next`. Walls hold the lowest key, so the first
    /// comparison rejects them, and so it does for final cells: a step costs at least a
    /// bucket's width, so nothing taken from the current bucket reaches a final cell as
    /// cheaply as it has. An equal cost goes to the lower rank (player number) by the same
    /// comparison, so the partition does not depend on the order cells leave a bucket. A cell
    /// whose bucket does not change keeps its one queue entry (the pop reads the current key).
    #[inline(always)]
    fn offer(&mut self, n: usize, next: u64) {
        let old = self.key[n];
        if next >= old {
            return;
        }
        self.key[n] = next;
        let index = bucket_of(next, self.mask);
        if old != UNREACHED && bucket_of(old, self.mask) == index {
            return;
        }
        self.buckets[index].push(n as u32);
        self.pending += 1;
    }
}

/// A reusable partition: per-cell key, the bucket queue and the sites.
///
/// Keys are kept on a grid padded with one ring of walls, so every real cell has eight
/// neighbours at fixed index offsets; public cell indices (`iy * nx + ix`) are unpadded.
#[derive(Debug, Clone, Default)]
pub struct VoronoiGrid {
    resolution: f64,
    min_x: f64,
    min_y: f64,
    nx: usize,
    ny: usize,
    /// Per padded cell: cost and owner's rank (see the module doc), [`WALL`] where blocked or
    /// outside, [`UNREACHED`] before an offer.
    key: Vec<u64>,
    /// Per public cell: inside an obstacle.
    blocked: Vec<bool>,
    /// The public cells an obstacle covers (a cell once per obstacle covering it; some may
    /// be freed again for a robot standing there): the cells [`Self::reset_keys`] walls.
    covered: Vec<u32>,
    /// Dial's buckets: padded cells by `floor(cost / UNITS_PER_CELL)`, circular. With the
    /// width at most the cheapest step, every cell of the lowest bucket is final, so no heap
    /// is needed.
    buckets: Vec<Vec<u32>>,
    current: usize,
    pending: usize,
    complete: bool,
    sites: Vec<Site>,
    /// Per rank: the index of its site in `sites` (sites by player number, then by index).
    site_of_rank: Vec<u8>,
    /// Per rank: the cost of each of the eight steps of its site, shifted to key position.
    step_keys: Vec<[u64; 8]>,
    /// Per rank: the padded cell its site stands on, if on the grid.
    seed_cells: Vec<Option<usize>>,
    /// `blocked`, `step_keys` and `seed_cells` of the computation before (buffers swapped
    /// in turn): when the new inputs give the same, the keys hold their partition too.
    previous_blocked: Vec<bool>,
    previous_step_keys: Vec<[u64; 8]>,
    previous_seed_cells: Vec<Option<usize>>,
    /// Per rank: its site's player number; and those of the computation before.
    rank_players: Vec<u8>,
    previous_rank_players: Vec<u8>,
    /// Counts the changes of the partition: of the keys (a computation started over or run
    /// on) or of the players of the ranks.
    revision: u64,
    /// Where the last run stopped early (a padded cell), while it is not complete.
    stopped_at: Option<usize>,
    /// The orientation bias of the last computation (its bits), while the keys still hold
    /// it; with `sites` and `last_obstacles` the inputs that the same again continue instead
    /// of starting over (a robot standing still, teammates' poses between their messages).
    last_bias: Option<u64>,
    /// The obstacles of the last computation.
    last_obstacles: Vec<Obstacle>,
    /// A padded cell and the rank proved to own it in the partition of the current inputs
    /// without running the queue (the `certificate` module); [`owner_at`](Self::owner_at)
    /// answers it from here.
    certified: Option<(usize, usize)>,
    /// The ranks' floors of the last proof (a buffer, kept so a proof does not allocate).
    floors: Vec<Option<certificate::Floor>>,
}

/// Whether two lists hold the same values bit for bit (`bits` of each item).
fn same_bits<T, const N: usize>(a: &[T], b: &[T], bits: impl Fn(&T) -> [u64; N]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| bits(x) == bits(y))
}

/// The bits of a site.
fn site_bits(site: &Site) -> [u64; 4] {
    let p = site.pose;
    [
        u64::from(site.player),
        p.position.x.to_bits(),
        p.position.y.to_bits(),
        p.yaw.to_bits(),
    ]
}

/// The bits of an obstacle.
fn obstacle_bits(o: &Obstacle) -> [u64; 3] {
    [
        o.center.x.to_bits(),
        o.center.y.to_bits(),
        o.radius.to_bits(),
    ]
}

/// How far [`VoronoiGrid::compute`] runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Until {
    /// Until every cell is owned.
    Complete,
    /// Until [`owner_at`](VoronoiGrid::owner_at) this point is final: its cell, or when an
    /// obstacle covers it, the nearest free cell (enough to answer "who owns the ball's cell").
    /// A free cell's owner may be proved instead, with no run: then its key is not computed.
    OwnerOf(Point2<Field>),
}

/// Where a run of the bucket queue may stop before every cell is final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Run to the end.
    Never,
    /// Once this padded cell is final.
    AtCell(usize),
}

impl VoronoiGrid {
    /// Sizes the grid for a field of `length x width` plus `border` on each side.
    pub fn resize(&mut self, length: f64, width: f64, border: f64, resolution: f64) {
        let nx = ((length + 2.0 * border) / resolution).ceil().max(1.0) as usize;
        let ny = ((width + 2.0 * border) / resolution).ceil().max(1.0) as usize;
        if (resolution.to_bits(), nx, ny) != (self.resolution.to_bits(), self.nx, self.ny) {
            // Other cells: the last computation is no longer in the keys.
            self.forget();
        }
        self.resolution = resolution;
        self.min_x = -(nx as f64) * resolution / 2.0;
        self.min_y = -(ny as f64) * resolution / 2.0;
        if (nx, ny) != (self.nx, self.ny) {
            self.nx = nx;
            self.ny = ny;
            self.key = vec![UNREACHED; (nx + 2) * (ny + 2)];
            self.blocked = vec![false; nx * ny];
        }
    }

    /// The padded index of public cell `c`.
    #[inline]
    fn padded(&self, c: usize) -> usize {
        (c / self.nx + 1) * (self.nx + 2) + c % self.nx + 1
    }

    /// The cell containing `p`, if on the grid (a point with a NaN coordinate is on none).
    pub fn cell_of(&self, p: Point2<Field>) -> Option<usize> {
        let ix = ((p.x - self.min_x) / self.resolution).floor();
        let iy = ((p.y - self.min_y) / self.resolution).floor();
        let inside = ix >= 0.0 && iy >= 0.0 && ix < self.nx as f64 && iy < self.ny as f64;
        if !inside {
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

    /// The site index owning the cell with padded index `p`, if reached.
    fn site_at_padded(&self, p: usize) -> Option<u8> {
        let key = self.key[p];
        is_reached(key).then(|| self.site_of_rank[rank_of(key)])
    }

    /// The owner (an index into the sites) of cell `c` after [`compute`](Self::compute).
    pub fn owner(&self, c: usize) -> Option<u8> {
        if c >= self.len() {
            return None;
        }
        self.site_at_padded(self.padded(c))
    }

    /// Drops the memory of the last computation: the next one starts over.
    fn forget(&mut self) {
        self.last_bias = None;
        self.certified = None;
    }

    /// Partitions the grid among `sites` around `obstacles`, as far as `until` needs. Sites
    /// past [`MAX_SITES`] are left out. The same inputs as the last computation continue it
    /// (a run is the same however often it stops on the way), so they cost nothing once it
    /// is complete.
    pub fn compute(
        &mut self,
        sites: &[Site],
        obstacles: &[Obstacle],
        orientation_bias: f64,
        until: Until,
    ) {
        let sites = &sites[..sites.len().min(MAX_SITES)];
        let same = self.last_bias == Some(orientation_bias.to_bits())
            && same_bits(&self.sites, sites, site_bits)
            && same_bits(&self.last_obstacles, obstacles, obstacle_bits);
        // The keys hold the partition of these inputs (complete or not).
        let mut continues = same;
        if !same {
            continues = self.derive(sites, obstacles, orientation_bias);
            if !continues {
                self.start();
            }
            self.last_bias = Some(orientation_bias.to_bits());
            self.last_obstacles.clear();
            self.last_obstacles.extend_from_slice(obstacles);
        }
        if self.complete {
            return;
        }
        match until {
            Until::Complete => self.run(Stop::Never),
            Until::OwnerOf(p) => {
                // The nearest free cell to a covered point is the nearest owned one too, once
                // owned (an unreachable one never is, and the run then goes to the end).
                let stop_cell = self.cell_of(p).and_then(|c| {
                    let free = if self.blocked[c] {
                        self.nearest_cell(p, c, |n| !self.blocked[n])?
                    } else {
                        c
                    };
                    Some(self.padded(free))
                });
                let stop = stop_cell.map_or(Stop::Never, Stop::AtCell);
                // Answered already, or proved without running the queue: no run.
                let answered = continues && self.is_final(stop);
                if !(answered || self.prove_owner(p, stop)) {
                    self.run(stop);
                    self.stopped_at = match stop {
                        Stop::AtCell(cell) if !self.complete => Some(cell),
                        _ => None,
                    };
                }
            }
        }
    }

    /// Whether the owner of `p`'s cell, `stop`'s when it is free, is proved without running
    /// the queue (kept for [`owner_at`](Self::owner_at)).
    fn prove_owner(&mut self, p: Point2<Field>, stop: Stop) -> bool {
        let (Some(c), Stop::AtCell(cell)) = (self.cell_of(p), stop) else {
            return false;
        };
        if self.blocked[c] {
            return false;
        }
        if self.proved_rank(cell).is_some() {
            return true;
        }
        match self.certified_rank(cell) {
            Some(rank) => {
                self.certified = Some((cell, rank));
                true
            }
            None => false,
        }
    }

    /// The rank a proof gave padded cell `cell` (a proved cell is free).
    fn proved_rank(&self, cell: usize) -> Option<usize> {
        self.certified
            .and_then(|(proved, rank)| (proved == cell).then_some(rank))
    }

    /// Whether the stopped run already made `stop`'s cell final: the cell is reached and its
    /// cost lies in the bucket the run stopped in or a lower one (no step from that bucket
    /// on reaches them cheaper, see [`VoronoiGrid::buckets`]).
    fn is_final(&self, stop: Stop) -> bool {
        let (Stop::AtCell(cell), Some(at)) = (stop, self.stopped_at) else {
            return false;
        };
        let key = self.key[cell];
        is_reached(key) && key >> BUCKET_SHIFT <= self.key[at] >> BUCKET_SHIFT
    }

    /// Takes new inputs: blocks the obstacles' cells, ranks the sites, prices their steps and
    /// finds their cells, everything a run reads. Whether all of it is what the keys were
    /// computed from: then they hold the partition of the new inputs too (a robot that moved
    /// or turned within its cell and its step costs' rounding, an obstacle that moved without
    /// covering or uncovering a cell centre), and the computation goes on. The players' numbers
    /// only order the ranks, so they need not be the same.
    fn derive(&mut self, sites: &[Site], obstacles: &[Obstacle], orientation_bias: f64) -> bool {
        std::mem::swap(&mut self.blocked, &mut self.previous_blocked);
        std::mem::swap(&mut self.step_keys, &mut self.previous_step_keys);
        std::mem::swap(&mut self.seed_cells, &mut self.previous_seed_cells);
        std::mem::swap(&mut self.rank_players, &mut self.previous_rank_players);
        self.block_obstacles(obstacles);
        self.sites.clear();
        self.sites.extend_from_slice(sites);
        self.site_of_rank.clear();
        self.site_of_rank.extend(0..sites.len() as u8);
        // The keys are distinct, so the unstable sort (which never allocates) is stable.
        self.site_of_rank
            .sort_unstable_by_key(|&i| (sites[usize::from(i)].player, i));
        self.price_steps(orientation_bias.clamp(0.0, MAX_ORIENTATION_BIAS));
        self.seed_cells.clear();
        self.rank_players.clear();
        for &site in &self.site_of_rank {
            let site = &sites[usize::from(site)];
            let cell = self.cell_of(site.pose.position);
            if let Some(c) = cell {
                // A robot's own cell is never blocked (it stands there).
                self.blocked[c] = false;
            }
            self.seed_cells.push(cell.map(|c| self.padded(c)));
            self.rank_players.push(site.player);
        }
        if self.rank_players != self.previous_rank_players {
            self.revision += 1;
        }
        let same = self.last_bias.is_some()
            && self.blocked == self.previous_blocked
            && self.step_keys == self.previous_step_keys
            && self.seed_cells == self.previous_seed_cells;
        if !same {
            // A proof reads only what is compared above (its rank's player is looked up).
            self.certified = None;
        }
        same
    }

    /// The partition's revision: the same number means the same player owning each cell
    /// (what [`owner_at`](Self::owner_at) and [`for_each_cell_of`](Self::for_each_cell_of)
    /// tell), so a reader may keep what it derived from them until the number changes. Not
    /// [`owner`](Self::owner)'s site index, which follows the order the sites were given in.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Starts a computation over: clears the keys and the queue and seeds it with the sites'
    /// cells.
    fn start(&mut self) {
        self.revision += 1;
        for bucket in &mut self.buckets {
            bucket.clear();
        }
        self.current = 0;
        self.pending = 0;
        self.stopped_at = None;
        self.reset_keys();
        for rank in 0..self.seed_cells.len() {
            let Some(c) = self.seed_cells[rank] else {
                continue;
            };
            // Ranks in order: of two robots in one cell, the lower number seeds it first and
            // owns it, as for any tie.
            if self.key[c] == UNREACHED {
                let key = SEED_COST << RANK_BITS | rank as u64;
                self.key[c] = key;
                self.push(key, c);
            }
        }
        self.complete = false;
    }

    /// Marks the cells whose centres lie inside an obstacle, visiting only its bounding box.
    fn block_obstacles(&mut self, obstacles: &[Obstacle]) {
        self.blocked.clear();
        self.blocked.resize(self.nx * self.ny, false);
        self.covered.clear();
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
                        self.covered.push((iy * self.nx + ix) as u32);
                    }
                }
            }
        }
    }

    /// Each rank's eight step costs, in key position, and a ring of buckets wide enough for
    /// the dearest step.
    fn price_steps(&mut self, bias: f64) {
        self.step_keys.clear();
        let mut dearest = UNITS_PER_CELL;
        for &site in &self.site_of_rank {
            let heading = Vector2::<Field>::from_angle(self.sites[usize::from(site)].pose.yaw);
            let mut costs = [UNITS_PER_CELL; 8];
            for (k, (dx, dy)) in STEPS.iter().enumerate() {
                let step = Vector2::<Field>::new(f64::from(*dx), f64::from(*dy));
                let length = step.norm();
                let cos = heading.dot(step) / length;
                let cells = length + bias * (1.0 - cos) / 2.0;
                if cells.is_finite() {
                    // At least one cell length, whatever the rounding.
                    costs[k] = ((cells * UNITS_PER_CELL as f64).round() as u64).max(UNITS_PER_CELL);
                }
            }
            dearest = costs.into_iter().fold(dearest, u64::max);
            self.step_keys.push(costs.map(|cost| cost << RANK_BITS));
        }
        let count = ((dearest / UNITS_PER_CELL) as usize + 2).next_power_of_two();
        if self.buckets.len() != count {
            self.buckets.resize_with(count, Vec::new);
        }
    }

    /// Whether the last computation ran to the end (not stopped early).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Continues a computation stopped early until every cell is owned.
    pub fn finish(&mut self) {
        if !self.complete {
            self.run(Stop::Never);
        }
    }

    /// Keys for a new computation: [`UNREACHED`] on free cells, [`WALL`] on blocked ones and
    /// on the padding ring. Obstacles cover few cells, so each row is filled first and the
    /// walls are written over it. (Row by row: a fill of the whole grid at once becomes one
    /// large `memset`, which glibc does with `rep stosb`, and valgrind counts each byte of
    /// that as an instruction.)
    fn reset_keys(&mut self) {
        let (nx, stride) = (self.nx, self.nx + 2);
        let rows = self.key.len() / stride;
        self.key[..stride].fill(WALL);
        self.key[(rows - 1) * stride..].fill(WALL);
        for row in self.key.chunks_exact_mut(stride).take(rows - 1).skip(1) {
            row[0] = WALL;
            row[1..=nx].fill(UNREACHED);
            row[stride - 1] = WALL;
        }
        for &c in &self.covered {
            let c = c as usize;
            if self.blocked[c] {
                self.key[(c / nx + 1) * stride + c % nx + 1] = WALL;
            }
        }
    }

    fn push(&mut self, key: u64, cell: usize) {
        let index = bucket_of(key, self.buckets.len() - 1);
        self.buckets[index].push(cell as u32);
        self.pending += 1;
    }

    fn run(&mut self, stop: Stop) {
        self.revision += 1;
        let mask = self.buckets.len() - 1;
        let w = self.nx + 2;
        let mut search = Search {
            key: &mut self.key,
            buckets: &mut self.buckets,
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
            let key = search.key[c];
            if bucket_of(key, mask) != current {
                // A stale entry: the cell moved to a lower bucket and was final there (a cell
                // has at most one entry per bucket, so a final cell is never taken again).
                continue;
            }
            let rank = rank_of(key);
            let steps = &self.step_keys[rank];
            // Every real cell has its eight neighbours on the padded grid; one check here
            // lets the compiler drop the eight below.
            assert!(
                c > w && c + w + 1 < search.key.len(),
                "a queued cell is a real cell"
            );
            search.offer(c + 1, key + steps[0]);
            search.offer(c + w + 1, key + steps[1]);
            search.offer(c + w, key + steps[2]);
            search.offer(c + w - 1, key + steps[3]);
            search.offer(c - 1, key + steps[4]);
            search.offer(c - w - 1, key + steps[5]);
            search.offer(c - w, key + steps[6]);
            search.offer(c - w + 1, key + steps[7]);
            if stop == Stop::AtCell(c) {
                stopped = true;
                break;
            }
        }
        self.pending = search.pending;
        self.current = current;
        self.complete = !stopped;
    }

    /// The player owning the cell at `p` (from the proof when one settled it); a blocked cell
    /// defers to the nearest free one.
    pub fn owner_at(&self, p: Point2<Field>) -> Option<u8> {
        let c = self.cell_of(p)?;
        let index = if let Some(rank) = self.proved_rank(self.padded(c)) {
            Some(self.site_of_rank[rank])
        } else if self.blocked[c] {
            let free = self.nearest_cell(p, c, |n| {
                !self.blocked[n] && is_reached(self.key[self.padded(n)])
            })?;
            self.site_at_padded(self.padded(free))
        } else {
            self.site_at_padded(self.padded(c))
        }?;
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
        self.compute(sites, obstacles, bias, Until::OwnerOf(p));
        self.owner_at(p) == Some(player)
    }

    /// Calls `visit` with the centre of each cell `player` owns, row by row (after a complete
    /// run).
    pub fn for_each_cell_of(&self, player: u8, visit: impl FnMut(Point2<Field>)) {
        self.for_each_cell_of_around(
            player,
            (f64::NEG_INFINITY, f64::INFINITY),
            (f64::NEG_INFINITY, f64::INFINITY),
            visit,
        );
    }

    /// [`for_each_cell_of`](Self::for_each_cell_of), leaving out cells whose centres lie
    /// clearly outside `x` and `y` (ranges of coordinates): every cell centred inside them is
    /// visited, and some just outside may be.
    pub fn for_each_cell_of_around(
        &self,
        player: u8,
        x: (f64, f64),
        y: (f64, f64),
        mut visit: impl FnMut(Point2<Field>),
    ) {
        let rank = self
            .site_of_rank
            .iter()
            .position(|&site| self.sites[usize::from(site)].player == player);
        // A rank fits a byte (at most MAX_SITES sites).
        let Some(rank) = rank.map(|r| u64::from(r as u8)) else {
            return;
        };
        let columns = self.indices_around(x, self.min_x, self.nx);
        let rows = self.indices_around(y, self.min_y, self.ny);
        let stride = self.nx + 2;
        for iy in rows {
            let y = self.min_y + (iy as f64 + 0.5) * self.resolution;
            let row = &self.key[(iy + 1) * stride + 1..(iy + 2) * stride - 1];
            for (ix, &key) in row[columns.clone()].iter().enumerate() {
                if is_reached(key) && key & RANK_MASK == rank {
                    let ix = columns.start + ix;
                    visit(Point2::new(
                        self.min_x + (ix as f64 + 0.5) * self.resolution,
                        y,
                    ));
                }
            }
        }
    }

    /// The indices along one axis (from `min`, `n` cells) of the cells centred in `range`,
    /// widened by a cell on each side for rounding; all of them when a bound is not finite.
    fn indices_around(&self, range: (f64, f64), min: f64, n: usize) -> std::ops::Range<usize> {
        let (low, high) = range;
        if !(low.is_finite() && high.is_finite()) {
            return 0..n;
        }
        let first = ((low - min) / self.resolution - 0.5).floor() - 1.0;
        let last = ((high - min) / self.resolution - 0.5).ceil() + 1.0;
        if last < 0.0 || first >= n as f64 || first > last {
            return 0..0;
        }
        first.max(0.0) as usize..(last as usize + 1).min(n)
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

    pub(super) fn site(player: u8, x: f64, y: f64, yaw: f64) -> Site {
        Site {
            player,
            pose: Pose2::new(x, y, yaw),
        }
    }

    pub(super) fn obstacle(x: f64, y: f64, radius: f64) -> Obstacle {
        Obstacle {
            center: Point2::new(x, y),
            radius,
        }
    }

    /// The partition by its definition: Dijkstra with a binary heap over the unpadded grid
    /// (each cell final when taken, steps at its owner's costs, equal costs to the lower
    /// player number). Uses `g`'s blocked cells and step costs of its last computation.
    pub(super) fn reference_owners(g: &VoronoiGrid, sites: &[Site]) -> Vec<Option<u8>> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let n = g.len();
        let mut cost = vec![u64::MAX; n];
        let mut owner: Vec<Option<usize>> = vec![None; n];
        let mut done = vec![false; n];
        let mut heap = BinaryHeap::new();
        // Site `o`'s cost of step `k`, in units, as the grid priced it.
        let step_cost = |o: usize, k: usize| {
            let rank = g
                .site_of_rank
                .iter()
                .position(|&site| usize::from(site) == o)
                .expect("every site has a rank");
            g.step_keys[rank][k] >> RANK_BITS
        };
        for (i, site) in sites.iter().enumerate() {
            let Some(c) = g.cell_of(site.pose.position) else {
                continue;
            };
            match owner[c] {
                None => {
                    cost[c] = 0;
                    owner[c] = Some(i);
                    heap.push(Reverse((0u64, c)));
                }
                Some(o) if site.player < sites[o].player => owner[c] = Some(i),
                Some(_) => {}
            }
        }
        while let Some(Reverse((queued, c))) = heap.pop() {
            if done[c] || queued != cost[c] {
                continue;
            }
            done[c] = true;
            let o = owner[c].expect("a queued cell has an owner");
            let (ix, iy) = ((c % g.nx) as i32, (c / g.nx) as i32);
            for (k, (dx, dy)) in STEPS.iter().enumerate() {
                let (jx, jy) = (ix + dx, iy + dy);
                if jx < 0 || jy < 0 || jx >= g.nx as i32 || jy >= g.ny as i32 {
                    continue;
                }
                let m = jy as usize * g.nx + jx as usize;
                if g.blocked[m] || done[m] {
                    continue;
                }
                let next = cost[c] + step_cost(o, k);
                if next < cost[m] {
                    cost[m] = next;
                    owner[m] = Some(o);
                    heap.push(Reverse((next, m)));
                } else if next == cost[m]
                    && owner[m].is_some_and(|p| sites[o].player < sites[p].player)
                {
                    owner[m] = Some(o);
                }
            }
        }
        owner.iter().map(|o| o.map(|i| sites[i].player)).collect()
    }

    proptest::proptest! {
        /// The cells of a player around ranges are its cells, in order, and include every
        /// one centred inside the ranges.
        #[test]
        fn the_cells_around_ranges_hold_every_cell_centred_inside(
            poses in proptest::collection::vec((-5.5f64..5.5, -4.0f64..4.0, -3.2f64..3.2), 1..4),
            x in (-7.0f64..7.0, 0.0f64..9.0),
            y in (-5.0f64..5.0, 0.0f64..7.0),
        ) {
            let (sites, _) = scene(&poses, &[]);
            let mut g = grid();
            g.compute(&sites, &[], 0.5, Until::Complete);
            let (x, y) = ((x.0, x.0 + x.1), (y.0, y.0 + y.1));
            let inside = |p: &Point2<Field>| x.0 <= p.x && p.x <= x.1 && y.0 <= p.y && p.y <= y.1;
            let mut all = Vec::new();
            g.for_each_cell_of(1, |p| all.push(p));
            let mut around = Vec::new();
            g.for_each_cell_of_around(1, x, y, |p| around.push(p));
            let kept: Vec<_> = all.iter().copied().filter(|p| around.contains(p)).collect();
            proptest::prop_assert_eq!(&kept, &around, "around: own cells, in order");
            let want: Vec<_> = all.iter().copied().filter(inside).collect();
            let got: Vec<_> = around.iter().copied().filter(inside).collect();
            proptest::prop_assert_eq!(got, want);
        }

        /// A computation starts with walls on the padding ring and on every blocked cell (a
        /// robot's own cell is free even under an obstacle), its sites' seeds, and every
        /// other cell unreached, whatever the obstacles of the computation before.
        #[test]
        fn a_computation_starts_from_walls_exactly_on_blocked_and_padding_cells(
            poses in proptest::collection::vec((-5.5f64..5.5, -4.0f64..4.0, -3.2f64..3.2), 1..5),
            before in proptest::collection::vec((-6.0f64..6.0, -4.5f64..4.5, 0.1f64..1.5), 0..6),
            holes in proptest::collection::vec((-6.0f64..6.0, -4.5f64..4.5, 0.1f64..1.5), 0..6),
        ) {
            let (sites, before) = scene(&poses, &before);
            let (_, holes) = scene(&poses, &holes);
            let mut g = grid();
            g.compute(&sites, &before, 0.5, Until::Complete);
            g.derive(&sites, &holes, 0.5);
            g.start();
            let stride = g.nx + 2;
            for (p, &key) in g.key.iter().enumerate() {
                let (x, y) = (p % stride, p / stride);
                let padding = x == 0 || y == 0 || x == g.nx + 1 || y == g.ny + 1;
                let want_wall = padding || g.blocked[(y - 1) * g.nx + x - 1];
                let seed = g.seed_cells.contains(&Some(p));
                proptest::prop_assert_eq!(key == WALL, want_wall, "cell ({}, {})", x, y);
                proptest::prop_assert_eq!(key == UNREACHED, !want_wall && !seed);
            }
        }

        #[test]
        fn the_bucket_queue_partitions_as_plain_dijkstra_does(
            poses in proptest::collection::vec((-5.5f64..5.5, -4.0f64..4.0, -3.2f64..3.2), 1..6),
            holes in proptest::collection::vec((-4.5f64..4.5, -3.0f64..3.0, 0.1f64..1.0), 0..4),
            bias in 0.0f64..2.0,
            coarse in proptest::bool::ANY,
            ball in (-5.0f64..5.0, -3.5f64..3.5),
        ) {
            let mut g = VoronoiGrid::default();
            g.resize(9.0, 6.0, 1.0, if coarse { 0.3 } else { 0.2 });
            let (sites, obstacles) = shuffled_scene(&poses, &holes);
            g.compute(&sites, &obstacles, bias, Until::Complete);
            let expected = reference_owners(&g, &sites);
            for (c, want) in expected.iter().enumerate() {
                let got = g.owner(c).map(|i| sites[usize::from(i)].player);
                proptest::prop_assert_eq!(got, *want, "cell {}", c);
            }
            let ball = Point2::<Field>::new(ball.0, ball.1);
            let mut partial = g.clone();
            partial.forget();
            partial.compute(&sites, &obstacles, bias, Until::OwnerOf(ball));
            proptest::prop_assert_eq!(partial.owner_at(ball), g.owner_at(ball));
        }
    }

    /// Sites for players 1, 2, ... at `poses` (x, y, yaw) and obstacles at `holes` (x, y,
    /// radius).
    /// [`scene`] with the players numbered in a shuffled order (two robots may share a cell).
    pub(super) fn shuffled_scene(
        poses: &[(f64, f64, f64)],
        holes: &[(f64, f64, f64)],
    ) -> (Vec<Site>, Vec<Obstacle>) {
        let (mut sites, obstacles) = scene(poses, holes);
        for (i, s) in sites.iter_mut().enumerate() {
            s.player = (i as u8 * 3) % 7 + 1;
        }
        (sites, obstacles)
    }

    fn scene(poses: &[(f64, f64, f64)], holes: &[(f64, f64, f64)]) -> (Vec<Site>, Vec<Obstacle>) {
        let sites = (poses.iter().enumerate())
            .map(|(i, (x, y, yaw))| site(i as u8 + 1, *x, *y, *yaw))
            .collect();
        let obstacles = holes.iter().map(|(x, y, r)| obstacle(*x, *y, *r)).collect();
        (sites, obstacles)
    }

    /// Every key of a grid, and whether its run is complete.
    fn keys_of(g: &VoronoiGrid) -> (Vec<u64>, bool) {
        (g.key.clone(), g.complete)
    }

    proptest::proptest! {
        /// A computation with the inputs of the last one continues it: after each request of a
        /// sequence (the same sites and obstacles again or changed, balls anywhere, complete or
        /// stopped, a finish), the answer and the finished partition are those of a grid that
        /// starts every computation over.
        #[test]
        fn the_same_inputs_again_continue_the_last_computation(
            poses in proptest::collection::vec((-5.5f64..5.5, -4.0f64..4.0, -3.2f64..3.2), 1..6),
            holes in proptest::collection::vec((-4.5f64..4.5, -3.0f64..3.0, 0.1f64..1.0), 0..3),
            requests in proptest::collection::vec(
                (0u8..7, (-5.5f64..5.5, -4.0f64..4.0), 0u8..3), 1..12),
        ) {
            let (sites, mut obstacles) = scene(&poses, &holes);
            let mut memo = grid();
            let mut moved = sites.clone();
            for (change, (bx, by), what) in requests {
                // 0, 1: the same inputs; 2: the first robot moves; 3: without obstacles;
                // 4: the first robot moves a little and turns a little (within its cell and
                // its step costs' rounding or not); 5: the obstacles move a little; 6: the
                // last robot's number changes.
                match change {
                    2 => moved[0].pose.position.x = (moved[0].pose.position.x + 0.37).min(5.5),
                    4 => {
                        moved[0].pose.position.x = (moved[0].pose.position.x + 0.013).min(5.5);
                        moved[0].pose.yaw += 1e-9;
                    }
                    5 => {
                        for o in &mut obstacles {
                            o.center.y += 0.011;
                        }
                    }
                    6 => {
                        let last = moved.len() - 1;
                        moved[last].player = (moved[last].player + 4) % 9;
                    }
                    _ => {}
                }
                let holes: &[Obstacle] = if change == 3 { &[] } else { &obstacles };
                let ball = Point2::<Field>::new(bx, by);
                let until = if what == 0 { Until::Complete } else { Until::OwnerOf(ball) };
                memo.compute(&moved, holes, 0.5, until);
                let mut fresh = grid();
                fresh.compute(&moved, holes, 0.5, until);
                proptest::prop_assert_eq!(memo.owner_at(ball), fresh.owner_at(ball));
                // The ball's cell is final: its cost too, not only its owner (unless a proof
                // answered for it without a run).
                if let Some(c) = fresh.cell_of(ball).filter(|&c| !fresh.blocked[c]) {
                    let p = fresh.padded(c);
                    if memo.proved_rank(p).is_none() && fresh.proved_rank(p).is_none() {
                        proptest::prop_assert_eq!(memo.key[p], fresh.key[p]);
                    }
                }
                if what == 2 {
                    memo.finish();
                    fresh.finish();
                }
                if memo.is_complete() {
                    fresh.finish();
                    proptest::prop_assert_eq!(keys_of(&memo), keys_of(&fresh));
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// After a run stopped at one ball, a request for any other cell with the same inputs
        /// leaves that cell with its final cost (the complete run's), whether the cell was
        /// taken before the stop or not.
        #[test]
        fn a_continued_run_answers_every_cell_with_its_final_cost(
            poses in proptest::collection::vec((-5.5f64..5.5, -4.0f64..4.0, -3.2f64..3.2), 2..6),
            holes in proptest::collection::vec((-4.5f64..4.5, -3.0f64..3.0, 0.1f64..1.0), 0..3),
            first_ball in (-5.5f64..5.5, -4.0f64..4.0),
        ) {
            let (sites, obstacles) = scene(&poses, &holes);
            let mut complete = grid();
            complete.compute(&sites, &obstacles, 0.5, Until::Complete);
            let mut stopped = grid();
            let first_ball = Point2::<Field>::new(first_ball.0, first_ball.1);
            stopped.compute(&sites, &obstacles, 0.5, Until::OwnerOf(first_ball));
            for c in (0..complete.len()).filter(|&c| !complete.blocked[c]) {
                let mut continued = stopped.clone();
                let ball = complete.center(c);
                continued.compute(&sites, &obstacles, 0.5, Until::OwnerOf(ball));
                let p = complete.padded(c);
                if continued.proved_rank(p).is_some() {
                    proptest::prop_assert_eq!(continued.owner_at(ball), complete.owner_at(ball));
                } else {
                    proptest::prop_assert_eq!(continued.key[p], complete.key[p], "cell {}", c);
                }
            }
        }
    }

    #[test]
    fn a_computation_with_the_same_inputs_continues_instead_of_starting_over() {
        let sites = [site(1, -2.0, 0.0, 0.0), site(2, 2.0, 1.0, 1.0)];
        let mut g = grid();
        g.compute(&sites, &[], 0.5, Until::OwnerOf(Point2::new(-1.5, 0.0)));
        assert!(!g.is_complete());
        let stopped = keys_of(&g);
        // A ball in a cell taken before the stop: answered without running on.
        g.compute(&sites, &[], 0.5, Until::OwnerOf(Point2::new(-1.9, 0.0)));
        assert_eq!(keys_of(&g), stopped);
        assert_eq!(g.owner_at(Point2::new(-1.9, 0.0)), Some(1));
        g.compute(&sites, &[], 0.5, Until::Complete);
        assert!(g.is_complete());
        // A changed input starts over.
        let moved = [site(1, -2.0, 0.0, 0.0), site(2, 2.0, 1.0, 1.5)];
        g.compute(&moved, &[], 0.5, Until::OwnerOf(Point2::new(-1.5, 0.0)));
        assert!(!g.is_complete());
        // So does another cell size.
        g.compute(&moved, &[], 0.5, Until::Complete);
        g.resize(9.0, 6.0, 1.0, 0.3);
        g.compute(&moved, &[], 0.5, Until::OwnerOf(Point2::new(-1.5, 0.0)));
        assert!(!g.is_complete());
    }

    #[test]
    fn new_inputs_that_give_the_same_cells_and_step_costs_continue_the_computation() {
        // Robots and the obstacle away from cell borders (0.2 m cells from -5.5 m, -4 m).
        let sites = [site(1, -2.48, 0.1, 0.3), site(2, 2.09, 1.3, -2.0)];
        let hole = [obstacle(0.3, -0.5, 0.45)];
        let mut g = grid();
        g.compute(&sites, &hole, 0.5, Until::Complete);
        let complete = keys_of(&g);
        // Within their cells, the same headings: the partition is complete at once.
        let nudged = [site(1, -2.47, 0.12, 0.3), site(2, 2.08, 1.31, -2.0)];
        let hole_nudged = [obstacle(0.31, -0.49, 0.45)];
        g.compute(
            &nudged,
            &hole_nudged,
            0.5,
            Until::OwnerOf(Point2::new(-2.4, 0.0)),
        );
        assert_eq!(keys_of(&g), complete);
        // Other numbers in the same order: the same keys, answered with the new numbers.
        let renumbered = [site(3, -2.47, 0.12, 0.3), site(5, 2.08, 1.31, -2.0)];
        g.compute(&renumbered, &hole_nudged, 0.5, Until::Complete);
        assert_eq!(keys_of(&g), complete);
        assert_eq!(g.owner_at(Point2::new(-2.4, 0.0)), Some(3));
        assert_eq!(g.owner_at(Point2::new(2.4, 1.0)), Some(5));
        // The numbers in the other order swap the ranks: started over.
        let swapped = [site(5, -2.47, 0.12, 0.3), site(3, 2.08, 1.31, -2.0)];
        g.compute(
            &swapped,
            &hole_nudged,
            0.5,
            Until::OwnerOf(Point2::new(-2.4, 0.0)),
        );
        assert!(!g.is_complete());
        assert_eq!(g.owner_at(Point2::new(-2.4, 0.0)), Some(5));
        // Into another cell, a turn, an obstacle covering another centre: each starts over.
        let changes: [([Site; 2], [Obstacle; 1]); 3] = [
            ([site(1, -2.25, 0.12, 0.3), nudged[1]], hole_nudged),
            ([site(1, -2.47, 0.12, 0.5), nudged[1]], hole_nudged),
            (nudged, [obstacle(0.31, -0.49, 0.6)]),
        ];
        for (sites, hole) in changes {
            g.compute(&nudged, &hole_nudged, 0.5, Until::Complete);
            g.compute(&sites, &hole, 0.5, Until::OwnerOf(Point2::new(-2.4, 0.0)));
            assert!(!g.is_complete(), "{sites:?} {hole:?}");
        }
    }

    #[test]
    fn the_revision_changes_with_the_owners_of_the_cells() {
        let sites = [site(1, -2.48, 0.1, 0.3), site(2, 2.09, 1.3, -2.0)];
        let mut g = grid();
        g.compute(&sites, &[], 0.5, Until::Complete);
        let complete = g.revision();
        // The same partition: the same inputs, or others within the cells.
        g.compute(&sites, &[], 0.5, Until::Complete);
        let nudged = [site(1, -2.47, 0.12, 0.3), site(2, 2.08, 1.31, -2.0)];
        g.compute(&nudged, &[], 0.5, Until::Complete);
        assert_eq!(g.revision(), complete);
        // Other players with the same keys.
        let renumbered = [site(3, -2.47, 0.12, 0.3), site(5, 2.08, 1.31, -2.0)];
        g.compute(&renumbered, &[], 0.5, Until::Complete);
        assert_ne!(g.revision(), complete);
        let renumbered_revision = g.revision();
        // A run on after a stop.
        let moved = [site(3, -1.0, 0.12, 0.3), site(5, 2.08, 1.31, -2.0)];
        g.compute(&moved, &[], 0.5, Until::OwnerOf(Point2::new(-0.9, 0.0)));
        let stopped = g.revision();
        assert_ne!(stopped, renumbered_revision);
        g.finish();
        assert_ne!(g.revision(), stopped);
    }

    #[test]
    fn equal_costs_go_to_the_lower_player_whatever_the_order_of_the_sites() {
        // Mirror images: every cell on the middle column is equally dear from both.
        let a = [site(4, -1.4, 0.1, 0.0), site(2, 1.4, 0.1, 0.0)];
        let b = [a[1], a[0]];
        let (mut ga, mut gb) = (grid(), grid());
        ga.compute(&a, &[], 0.0, Until::Complete);
        gb.compute(&b, &[], 0.0, Until::Complete);
        let players = |g: &VoronoiGrid, s: &[Site]| -> Vec<Option<u8>> {
            (0..g.len())
                .map(|c| g.owner(c).map(|i| s[usize::from(i)].player))
                .collect()
        };
        assert_eq!(players(&ga, &a), players(&gb, &b));
        assert_eq!(
            ga.owner_at(Point2::new(0.0, 0.1)),
            Some(2),
            "the tie on the middle"
        );
        assert_eq!(ga.owner_at(Point2::new(0.0, 2.0)), Some(2), "and above it");
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
        full.compute(&sites, &obstacles, 0.5, Until::Complete);
        for k in 0..60 {
            let ball = Point2::<Field>::new(-0.2 + 0.02 * k as f64, 0.2 - 0.01 * k as f64);
            let mut partial = grid();
            partial.compute(&sites, &obstacles, 0.5, Until::OwnerOf(ball));
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
        g.compute(&sites, &obstacles, 0.5, Until::Complete);
        let mut blocked_queries = 0;
        for k in 0..400 {
            let p = Point2::<Field>::new(-1.3 + 0.0071 * k as f64, -1.2 + 0.0063 * k as f64);
            let c = g.cell_of(p).expect("on the grid");
            if !g.blocked[c] {
                continue;
            }
            blocked_queries += 1;
            let scan = (0..g.len())
                .filter(|n| !g.blocked[*n] && g.owner(*n).is_some())
                .min_by(|a, b| {
                    p.distance_squared(g.center(*a))
                        .total_cmp(&p.distance_squared(g.center(*b)))
                });
            assert_eq!(
                g.nearest_cell(p, c, |n| !g.blocked[n] && g.owner(n).is_some()),
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
        g.compute(&sites, &[], 0.0, Until::Complete);
        assert_eq!(g.owner_at(Point2::new(-0.5, 1.0)), Some(2));
        assert_eq!(g.owner_at(Point2::new(0.5, -1.0)), Some(3));
        assert!(g.owns(3, Point2::new(1.0, 0.0), &sites, &[], 0.0));
        assert!(!g.owns(2, Point2::new(1.0, 0.0), &sites, &[], 0.0));
    }

    #[test]
    fn a_point_with_a_nan_coordinate_is_on_no_cell_and_owns_nothing() {
        let mut g = grid();
        let nan = Point2::<Field>::new(f64::NAN, 0.5);
        assert_eq!(g.cell_of(nan), None);
        assert_eq!(g.cell_of(Point2::new(0.5, f64::NAN)), None);
        // A robot without a valid position takes no cell (it used to take the corner cell 0).
        let sites = [site(2, f64::NAN, f64::NAN, 0.0), site(3, 1.0, 0.0, 0.0)];
        g.compute(&sites, &[], 0.0, Until::Complete);
        assert_eq!(g.owner(0).map(|i| sites[usize::from(i)].player), Some(3));
        let mut count = 0;
        g.for_each_cell_of(2, |_| count += 1);
        assert_eq!(count, 0);
        assert_eq!(g.owner_at(nan), None);
        assert!(!g.owns(3, nan, &sites, &[], 0.0));
    }

    #[test]
    fn a_robot_facing_the_ball_reaches_it_cheaper() {
        let mut g = grid();
        // Equidistant, but 3 faces away from the point and 2 faces it.
        let sites = [site(2, -1.0, 0.0, 0.0), site(3, 1.0, 0.0, 0.0)];
        g.compute(&sites, &[], 2.0, Until::Complete);
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
        g.compute(&sites, &wall, 0.0, Until::Complete);
        assert_eq!(
            g.owner_at(Point2::new(1.0, 0.0)),
            Some(3),
            "nearest free cell is 3's"
        );
        let count = |player| {
            let mut n = 0;
            g.for_each_cell_of(player, |_| n += 1);
            n
        };
        assert!(count(2) > 0 && count(3) > 0);
    }
}
