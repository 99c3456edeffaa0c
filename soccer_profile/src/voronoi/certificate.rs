//! Who owns one cell, proved without running the queue (the striker question, most ticks).
//!
//! Every key a rank ever offers a cell is its seed key plus the steps of a walk at that
//! rank's own step costs, so no rank can reach a cell cheaper than the cheapest walk at its
//! cheapest straight and diagonal steps: the rank's *floor* at that cell. The keys of a walk
//! of one site from its own cell to the target, step by step, are upper bounds of what the
//! queue gives the walk's cells: its own cell is seeded with the first, and each cell of the
//! walk, once final, offers the next cell the next key. So when every cell of the walk is
//! free and its walk key lies below every other rank's floor there, the queue gives each of
//! them to the walking site, the target included, whatever the other sites do.
//!
//! One walk is tried: the straight one (as a line is drawn on a grid) of the site that walks
//! to the target cheapest. When it proves nothing, the caller runs the queue.

use super::{RANK_BITS, SEED_COST, STEPS, VoronoiGrid, WALL};

/// One rank's floor: its cell and its cheapest steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Floor {
    /// Its cell's column and row on the padded grid.
    x: usize,
    y: usize,
    /// Its seed key (seed cost and rank).
    seed_key: u64,
    /// Its cheapest straight and diagonal step, in key position.
    straight: u64,
    diagonal: u64,
}

impl Floor {
    /// The lowest key the rank can offer the padded cell at (`x`, `y`): its seed key plus
    /// the cheapest mix of straight and diagonal steps that covers the distance (a walk of
    /// `a` straight and `b` diagonal steps covers `max(|dx|, |dy|) <= a + b` and
    /// `|dx| + |dy| <= a + 2b`; the cheapest such mix is at a corner of that region).
    fn at(&self, x: usize, y: usize) -> u64 {
        let (dx, dy) = (self.x.abs_diff(x) as u64, self.y.abs_diff(y) as u64);
        let (long, short) = (dx.max(dy), dx.min(dy));
        let all_straight = self.straight * (long + short);
        let line = self.straight * (long - short) + self.diagonal * short;
        let all_diagonal = self.diagonal * long;
        self.seed_key + all_straight.min(line).min(all_diagonal)
    }
}

/// The straight walk from one padded cell to another: `long` steps, `short` of them
/// diagonal, spread as evenly as a line drawn on the grid.
struct Walk {
    long: usize,
    short: usize,
    /// Index of the straight and of the diagonal step in [`STEPS`].
    straight: usize,
    diagonal: usize,
}

impl Walk {
    fn new(from: (usize, usize), to: (usize, usize)) -> Self {
        let (dx, dy) = (
            to.0 as isize - from.0 as isize,
            to.1 as isize - from.1 as isize,
        );
        let (sx, sy) = (dx.signum() as i32, dy.signum() as i32);
        let along_x = dx.unsigned_abs() >= dy.unsigned_abs();
        let straight = if along_x { (sx, 0) } else { (0, sy) };
        let index = |step: (i32, i32)| STEPS.iter().position(|&s| s == step).unwrap_or(0);
        Self {
            long: dx.unsigned_abs().max(dy.unsigned_abs()),
            short: dx.unsigned_abs().min(dy.unsigned_abs()),
            straight: index(straight),
            diagonal: index((sx, sy)),
        }
    }

    /// Whether step `k` (from 1) is diagonal: `short` of the `long` steps are.
    fn is_diagonal(&self, k: usize) -> bool {
        k * self.short / self.long > (k - 1) * self.short / self.long
    }

    /// The walk's cost at `steps` (a rank's step costs in key position).
    fn cost(&self, steps: &[u64; 8]) -> u64 {
        (self.long - self.short) as u64 * steps[self.straight]
            + self.short as u64 * steps[self.diagonal]
    }
}

impl VoronoiGrid {
    /// The rank that provably owns padded cell `target` once the queue has run, if the
    /// straight walk of the site walking there cheapest proves it (see the module doc).
    /// Reads only the derived inputs and the keys' walls (blocked and padding cells).
    pub(super) fn certified_rank(&mut self, target: usize) -> Option<usize> {
        let stride = self.nx + 2;
        let at = |cell: usize| (cell % stride, cell / stride);
        let mut floors = std::mem::take(&mut self.floors);
        floors.clear();
        let mut walker: Option<(u64, usize, Walk)> = None;
        for (rank, seed) in self.seed_cells.iter().enumerate() {
            let Some(seed) = *seed else {
                floors.push(None);
                continue;
            };
            let steps = &self.step_keys[rank];
            let (x, y) = at(seed);
            let seed_key = SEED_COST << RANK_BITS | rank as u64;
            floors.push(Some(Floor {
                x,
                y,
                seed_key,
                straight: steps[0].min(steps[2]).min(steps[4]).min(steps[6]),
                diagonal: steps[1].min(steps[3]).min(steps[5]).min(steps[7]),
            }));
            let walk = Walk::new((x, y), at(target));
            let key = seed_key + walk.cost(steps);
            if walker.as_ref().is_none_or(|(best, _, _)| key < *best) {
                walker = Some((key, rank, walk));
            }
        }
        let proved = walker.and_then(|(_, rank, walk)| {
            let floor = floors[rank]?;
            let below_rivals = |key: u64, x: usize, y: usize| {
                floors
                    .iter()
                    .enumerate()
                    .all(|(r, f)| r == rank || f.is_none_or(|f| key < f.at(x, y)))
            };
            let (mut x, mut y) = (floor.x, floor.y);
            let mut key = floor.seed_key;
            if !below_rivals(key, x, y) {
                return None;
            }
            let steps = &self.step_keys[rank];
            for k in 1..=walk.long {
                let step = if walk.is_diagonal(k) {
                    walk.diagonal
                } else {
                    walk.straight
                };
                let (dx, dy) = STEPS[step];
                x = x.wrapping_add_signed(dx as isize);
                y = y.wrapping_add_signed(dy as isize);
                key += steps[step];
                if self.key[y * stride + x] == WALL || !below_rivals(key, x, y) {
                    return None;
                }
            }
            Some(rank)
        });
        self.floors = floors;
        proved
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{obstacle, reference_owners, shuffled_scene, site};
    use super::super::{Site, Until, VoronoiGrid};
    use super::{Floor, RANK_BITS, STEPS};
    use crate::world::Obstacle;
    use geometry::{Field, Point2};

    /// The proofs over every free cell of the partition of `sites` around `obstacles` on a
    /// grid of `resolution`, each checked against the partition by its definition: (proved,
    /// cells tried).
    fn check_every_proof(
        sites: &[Site],
        obstacles: &[Obstacle],
        bias: f64,
        resolution: f64,
    ) -> Result<(usize, usize), String> {
        let mut g = VoronoiGrid::default();
        g.resize(9.0, 6.0, 1.0, resolution);
        g.compute(sites, obstacles, bias, Until::Complete);
        let expected = reference_owners(&g, sites);
        let (mut proved, mut tried) = (0, 0);
        for (c, owner) in expected.iter().enumerate() {
            if g.blocked[c] {
                continue;
            }
            tried += 1;
            let Some(rank) = g.certified_rank(g.padded(c)) else {
                continue;
            };
            proved += 1;
            let player = sites[usize::from(g.site_of_rank[rank])].player;
            if *owner != Some(player) {
                return Err(format!("cell {c}: proved {player}, owned by {owner:?}"));
            }
        }
        Ok((proved, tried))
    }

    proptest::proptest! {
        #[test]
        fn a_proved_owner_is_the_owner_of_the_partition(
            poses in proptest::collection::vec((-5.5f64..5.5, -4.0f64..4.0, -3.2f64..3.2), 1..6),
            holes in proptest::collection::vec((-4.5f64..4.5, -3.0f64..3.0, 0.1f64..1.0), 0..5),
            bias in 0.0f64..3.0,
            large_bias in proptest::bool::ANY,
            coarse in proptest::bool::ANY,
        ) {
            // Biases up to the largest taken, and both grids of the benches.
            let bias = if large_bias { bias * 33.0 } else { bias };
            let (sites, obstacles) = shuffled_scene(&poses, &holes);
            let checked = check_every_proof(&sites, &obstacles, bias, if coarse { 0.3 } else { 0.2 });
            proptest::prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        }
    }

    #[test]
    fn most_cells_are_proved_and_contested_ones_are_not() {
        let sites = [
            site(2, -3.0, 0.5, 0.0),
            site(3, 0.0, -1.0, 2.0),
            site(4, 2.5, 1.5, -1.0),
        ];
        let obstacles = [obstacle(-1.5, 0.0, 0.3), obstacle(1.0, 1.0, 0.4)];
        let (proved, tried) = check_every_proof(&sites, &obstacles, 0.5, 0.2).unwrap();
        assert!(proved * 10 > tried * 6, "{proved} of {tried} proved");
        // Cell centres on one row: robot 2 seven cells left of the cell at x = 0.2, robot 3
        // six cells right of it but facing away (its steps there cost 1.5 cells each).
        let row_y = 0.1;
        let contested = [site(2, -1.2, row_y, 0.0), site(3, 1.4, row_y, 0.0)];
        let middle = Point2::<Field>::new(0.2, row_y);
        let mut g = VoronoiGrid::default();
        g.resize(9.0, 6.0, 1.0, 0.2);
        g.compute(&contested, &[], 0.5, Until::OwnerOf(middle));
        // Robot 3's floor (six cells at one cell each) is below robot 2's walk (seven), and
        // robot 2's floor below robot 3's walk (nine): no proof, the queue answers.
        assert_eq!(g.certified, None);
        assert!(g.stopped_at.is_some());
        assert_eq!(g.owner_at(middle), Some(2));
        // Facing the cell, robot 3 walks there in six cells, under robot 2's floor: proved,
        // and answered without a run.
        let facing = [
            site(2, -1.2, row_y, 0.0),
            site(3, 1.4, row_y, std::f64::consts::PI),
        ];
        g.compute(&facing, &[], 0.5, Until::OwnerOf(middle));
        assert!(g.certified.is_some() && g.stopped_at.is_none());
        assert_eq!(g.owner_at(middle), Some(3));
        // A wall across the walk: no proof.
        g.compute(
            &facing,
            &[obstacle(0.8, row_y, 0.15)],
            0.5,
            Until::OwnerOf(middle),
        );
        assert_eq!(g.certified, None);
        assert_eq!(g.owner_at(middle), Some(3));
    }

    /// The cheapest walk from the centre of an open 21 x 21 lattice to each cell, at `steps`.
    fn cheapest_walks(steps: &[u64; 8]) -> Vec<u64> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let n = 21usize;
        let mut cost = vec![u64::MAX; n * n];
        let mut heap = BinaryHeap::new();
        cost[10 * n + 10] = 0;
        heap.push(Reverse((0u64, 10usize, 10usize)));
        while let Some(Reverse((c, x, y))) = heap.pop() {
            if c > cost[y * n + x] {
                continue;
            }
            for (k, &(dx, dy)) in STEPS.iter().enumerate() {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                if nx < 0 || ny < 0 || nx >= n as i32 || ny >= n as i32 {
                    continue;
                }
                let (nx, ny) = (nx as usize, ny as usize);
                if c + steps[k] < cost[ny * n + nx] {
                    cost[ny * n + nx] = c + steps[k];
                    heap.push(Reverse((c + steps[k], nx, ny)));
                }
            }
        }
        cost
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// A floor is never above the cheapest walk to a cell (from the walk's own cell, at
        /// the same step costs), and it is the cheapest walk when the steps cost alike in
        /// every direction and a diagonal step costs between one and two straight ones.
        #[test]
        fn a_floor_is_never_above_the_cheapest_walk(
            costs in proptest::array::uniform8(super::super::UNITS_PER_CELL..3 * super::super::UNITS_PER_CELL),
            uniform in proptest::bool::ANY,
        ) {
            let mut steps = costs.map(|c| c << RANK_BITS);
            if uniform {
                let (straight, diagonal) = (steps[0], steps[1]);
                for (k, step) in steps.iter_mut().enumerate() {
                    *step = if k % 2 == 0 { straight } else { diagonal };
                }
            }
            let floor = Floor {
                x: 10,
                y: 10,
                seed_key: 0,
                straight: steps[0].min(steps[2]).min(steps[4]).min(steps[6]),
                diagonal: steps[1].min(steps[3]).min(steps[5]).min(steps[7]),
            };
            let cheapest = cheapest_walks(&steps);
            for (c, &walk) in cheapest.iter().enumerate() {
                let (x, y) = (c % 21, c / 21);
                proptest::prop_assert!(floor.at(x, y) <= walk, "cell ({}, {})", x, y);
                // Cells near the centre (the walk cannot need the lattice's edge), with a
                // diagonal step dearer than a straight one and cheaper than two (as without
                // orientation bias): the floor's mix of steps is a walk.
                let line_is_a_walk = steps[0] <= steps[1] && steps[1] <= 2 * steps[0];
                if uniform && line_is_a_walk && x.abs_diff(10) <= 5 && y.abs_diff(10) <= 5 {
                    proptest::prop_assert_eq!(floor.at(x, y), walk, "cell ({}, {})", x, y);
                }
            }
        }
    }

    #[test]
    fn a_robot_sharing_the_cell_of_a_lower_number_proves_nothing() {
        // Robots 2 and 3 stand in one cell (the lower number owns it, so robot 3 owns no
        // cell at all). Robot 3 faces the target along +x and walks there cheaper than
        // robot 2, who faces diagonally: still robot 2 owns the target.
        let shared = [
            site(2, -1.1, 0.1, std::f64::consts::FRAC_PI_4),
            site(3, -1.1, 0.1, 0.0),
        ];
        let target = Point2::<Field>::new(0.1, 0.1);
        let mut g = VoronoiGrid::default();
        g.resize(9.0, 6.0, 1.0, 0.2);
        g.compute(&shared, &[], 0.5, Until::OwnerOf(target));
        assert_eq!(g.owner_at(target), Some(2));
        let mut complete = g.clone();
        complete.compute(&shared, &[], 0.5, Until::Complete);
        assert_eq!(complete.owner_at(target), Some(2));
        assert!(check_every_proof(&shared, &[], 0.5, 0.2).is_ok());
    }

    #[test]
    fn a_proof_leaves_the_queue_to_finish_the_same_partition() {
        let sites = [site(2, -3.0, 0.5, 0.0), site(3, 0.0, -1.0, 2.0)];
        let ball = Point2::<Field>::new(-2.5, 0.4);
        let mut proved = VoronoiGrid::default();
        proved.resize(9.0, 6.0, 1.0, 0.2);
        proved.compute(&sites, &[], 0.5, Until::OwnerOf(ball));
        assert!(proved.certified.is_some() && !proved.is_complete());
        assert_eq!(proved.owner_at(ball), Some(2));
        proved.compute(&sites, &[], 0.5, Until::Complete);
        let mut fresh = VoronoiGrid::default();
        fresh.resize(9.0, 6.0, 1.0, 0.2);
        fresh.compute(&sites, &[], 0.5, Until::Complete);
        assert_eq!(proved.key, fresh.key);
        assert_eq!(proved.owner_at(ball), Some(2));
        // Robots moved within their cells (the same cells and step costs): the same proof,
        // and no run. (That it is kept rather than made again only shows in the count of
        // instructions: `soccer/striker` in tools/icount.)
        let mut nudged = VoronoiGrid::default();
        nudged.resize(9.0, 6.0, 1.0, 0.2);
        nudged.compute(&sites, &[], 0.5, Until::OwnerOf(ball));
        let proof = nudged.certified;
        assert!(proof.is_some());
        let within = [site(2, -3.01, 0.51, 0.0), site(3, 0.01, -1.01, 2.0)];
        nudged.compute(&within, &[], 0.5, Until::OwnerOf(ball));
        assert_eq!((nudged.certified, nudged.stopped_at), (proof, None));
        assert_eq!(nudged.owner_at(ball), Some(2));
        // New inputs drop the proof.
        let moved = [site(2, 3.0, 0.5, 0.0), site(3, 0.0, -1.0, 2.0)];
        proved.compute(&moved, &[], 0.5, Until::OwnerOf(ball));
        assert_ne!(
            proved.certified,
            Some((proved.padded(proved.cell_of(ball).unwrap()), 0))
        );
        assert_eq!(proved.owner_at(ball), Some(3));
    }
}
