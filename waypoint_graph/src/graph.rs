//! The waypoint graph: validated waypoints, id lookup, nearest waypoint, reachability.
//!
//! Path searches (DFS chain, shortest path) live in [`crate::search`].

use std::collections::HashMap;

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::Bfs;
use thiserror::Error;

use crate::waypoint::{Waypoint, distance_f32};

/// Why a list of waypoints does not form a graph.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GraphError {
    /// Two waypoints share an id; ids must be unique so decisions can name them.
    #[error("duplicate waypoint id {id}")]
    DuplicateId {
        /// The first id, in file order, that a later waypoint repeats.
        id: i32,
    },
    /// A `connect` entry names an id no waypoint has.
    #[error("waypoint {from} connects to unknown waypoint id {to}")]
    UnknownConnect {
        /// Id of the waypoint whose `connect` list is wrong.
        from: i32,
        /// The unknown id it names.
        to: i32,
    },
    /// A waypoint's x or y is NaN or infinite, which would break distances and paths.
    #[error("waypoint {id} has a non-finite coordinate")]
    NonFiniteCoordinate {
        /// Id of the offending waypoint.
        id: i32,
    },
}

/// Waypoints in file order plus the directed graph their `connect` lists describe.
///
/// Node `i` of [`WaypointGraph::graph`] is `waypoints()[i]`; every `connect` entry is one
/// directed edge whose weight is its Euclidean length in metres. Adjacency is also kept in
/// `connect` order in a compact form for the allocation-free searches.
#[derive(Debug, Clone)]
pub struct WaypointGraph {
    waypoints: Vec<Waypoint>,
    index: HashMap<i32, usize>,
    /// The file index + 1 of each id in `0..small_ids.len()` (0: no such waypoint), so the
    /// usual small ids are found without hashing; other ids are looked up in `index`.
    small_ids: Vec<u32>,
    /// `adj[adj_start[i]..adj_start[i + 1]]` are the neighbours of node `i` in `connect` order.
    adj_start: Vec<usize>,
    adj: Vec<usize>,
    /// Euclidean length of each entry of `adj`.
    adj_len: Vec<f64>,
    graph: DiGraph<i32, f64>,
    /// The waypoints' `x`s and `y`s apart, in file order, padded with NaN (a NaN distance
    /// never wins) to whole groups of [`NEAREST_LANES`], for [`WaypointGraph::nearest`].
    xs: Vec<f32>,
    ys: Vec<f32>,
}

/// The waypoints [`WaypointGraph::nearest`] looks at a time (so that it vectorises).
const NEAREST_LANES: usize = 8;

/// The `small_ids` table of `waypoints`: file index + 1 per id in `0..=max`, where `max` is
/// the largest non-negative id below a bound that keeps the table within a few times the
/// number of waypoints (ids above it stay in the hash map only).
fn small_id_table(waypoints: &[Waypoint]) -> Vec<u32> {
    if u32::try_from(waypoints.len()).is_err() {
        return Vec::new();
    }
    let bound = waypoints.len().saturating_mul(4).saturating_add(64);
    let len = waypoints
        .iter()
        .filter_map(|wp| usize::try_from(wp.id).ok())
        .filter(|&id| id < bound)
        .max()
        .map_or(0, |max| max + 1);
    let mut table = vec![0u32; len];
    for (i, wp) in waypoints.iter().enumerate() {
        if let Some(slot) = usize::try_from(wp.id).ok().and_then(|id| table.get_mut(id)) {
            *slot = u32::try_from(i + 1).unwrap_or(u32::MAX);
        }
    }
    table
}

impl WaypointGraph {
    /// Validates the waypoints (unique ids, known `connect` targets, finite x/y) and builds
    /// the graph; the first problem in file order is returned.
    pub fn new(waypoints: Vec<Waypoint>) -> Result<Self, GraphError> {
        let mut index = HashMap::with_capacity(waypoints.len());
        for (i, wp) in waypoints.iter().enumerate() {
            if !(wp.x.is_finite() && wp.y.is_finite()) {
                return Err(GraphError::NonFiniteCoordinate { id: wp.id });
            }
            if index.insert(wp.id, i).is_some() {
                return Err(GraphError::DuplicateId { id: wp.id });
            }
        }
        let mut graph = DiGraph::with_capacity(waypoints.len(), 0);
        for wp in &waypoints {
            graph.add_node(wp.id);
        }
        let mut adj_start = Vec::with_capacity(waypoints.len() + 1);
        let mut adj = Vec::new();
        let mut adj_len = Vec::new();
        for (i, wp) in waypoints.iter().enumerate() {
            adj_start.push(adj.len());
            for &to in &wp.connect {
                let Some(&j) = index.get(&to) else {
                    return Err(GraphError::UnknownConnect { from: wp.id, to });
                };
                let other = &waypoints[j];
                let len = f64::from(wp.x - other.x).hypot(f64::from(wp.y - other.y));
                adj.push(j);
                adj_len.push(len);
                graph.add_edge(NodeIndex::new(i), NodeIndex::new(j), len);
            }
        }
        adj_start.push(adj.len());
        let small_ids = small_id_table(&waypoints);
        let padded = waypoints.len().next_multiple_of(NEAREST_LANES);
        let mut xs: Vec<f32> = waypoints.iter().map(|wp| wp.x).collect();
        let mut ys: Vec<f32> = waypoints.iter().map(|wp| wp.y).collect();
        xs.resize(padded, f32::NAN);
        ys.resize(padded, f32::NAN);
        Ok(Self {
            waypoints,
            index,
            small_ids,
            adj_start,
            adj,
            adj_len,
            graph,
            xs,
            ys,
        })
    }

    /// All waypoints in file order (the order ties are broken in).
    pub fn waypoints(&self) -> &[Waypoint] {
        &self.waypoints
    }

    /// Number of waypoints.
    pub fn len(&self) -> usize {
        self.waypoints.len()
    }

    /// Whether there are no waypoints at all.
    pub fn is_empty(&self) -> bool {
        self.waypoints.is_empty()
    }

    /// The waypoint with this id, if any.
    #[inline]
    pub fn get(&self, id: i32) -> Option<&Waypoint> {
        self.index_of(id).and_then(|i| self.waypoints.get(i))
    }

    /// Position of the waypoint with this id in file order (also its petgraph node index).
    #[inline]
    pub fn index_of(&self, id: i32) -> Option<usize> {
        match usize::try_from(id).ok().and_then(|i| self.small_ids.get(i)) {
            Some(&slot) => (slot as usize).checked_sub(1),
            None => self.index.get(&id).copied(),
        }
    }

    /// The underlying petgraph graph: node weight = waypoint id, edge weight = length (m).
    pub fn graph(&self) -> &DiGraph<i32, f64> {
        &self.graph
    }

    /// Ids of the waypoints `id` connects to, in `connect` order (empty for an unknown id).
    pub fn neighbours(&self, id: i32) -> impl Iterator<Item = i32> + '_ {
        let range = self.index_of(id).map_or(0..0, |i| self.adj_range(i));
        self.adj[range].iter().map(|&j| self.waypoints[j].id)
    }

    /// The current waypoint at `(x, y)`: nearest by `f32` distance, file order, strictly
    /// smaller wins (ties keep the earlier waypoint); `None` if the minimum distance is
    /// strictly greater than `threshold` (equal counts as at the waypoint).
    ///
    /// NaN distances (NaN position) never win; a NaN threshold yields `None`.
    pub fn nearest(&self, x: f32, y: f32, threshold: f32) -> Option<i32> {
        // The smallest distance is the root of the smallest square (sqrt is monotonic; a NaN
        // square is never the smallest), and the pick is the first waypoint at that distance.
        // Both passes take the waypoints a group at a time, lane by lane, with the very `f32`
        // operations of `distance_f32`.
        let groups = self
            .xs
            .chunks_exact(NEAREST_LANES)
            .zip(self.ys.chunks_exact(NEAREST_LANES));
        let mut smallest = [f32::INFINITY; NEAREST_LANES];
        for (gx, gy) in groups.clone() {
            for ((least, &wx), &wy) in smallest.iter_mut().zip(gx).zip(gy) {
                let (dx, dy) = (wx - x, wy - y);
                let square = dx * dx + dy * dy;
                *least = if square < *least { square } else { *least };
            }
        }
        let least = smallest
            .iter()
            .fold(f32::INFINITY, |m, &s| if s < m { s } else { m });
        let distance = least.sqrt();
        debug_assert_eq!(
            self.waypoints
                .iter()
                .map(|wp| distance_f32(wp.x, wp.y, x, y))
                .filter(|d| !d.is_nan())
                .reduce(f32::min)
                .unwrap_or(f32::INFINITY),
            distance
        );
        for (group, (gx, gy)) in groups.enumerate() {
            let mut at_distance = 0u32;
            for (lane, (&wx, &wy)) in gx.iter().zip(gy).enumerate() {
                let (dx, dy) = (wx - x, wy - y);
                at_distance |= u32::from((dx * dx + dy * dy).sqrt() == distance) << lane;
            }
            if at_distance != 0 {
                let i = group * NEAREST_LANES + at_distance.trailing_zeros() as usize;
                return self
                    .waypoints
                    .get(i)
                    .filter(|_| distance <= threshold)
                    .map(|wp| wp.id);
            }
        }
        None
    }

    /// Whether a directed path leads from `from` to `to` (a waypoint reaches itself);
    /// false if either id is unknown.
    pub fn is_reachable(&self, from: i32, to: i32) -> bool {
        match (self.index_of(from), self.index_of(to)) {
            (Some(a), Some(b)) => petgraph::algo::has_path_connecting(
                &self.graph,
                NodeIndex::new(a),
                NodeIndex::new(b),
                None,
            ),
            _ => false,
        }
    }

    /// Ids reachable from `from` (including `from` itself), in file order; empty if unknown.
    pub fn reachable_from(&self, from: i32) -> Vec<i32> {
        let Some(start) = self.index_of(from) else {
            return Vec::new();
        };
        let mut seen = vec![false; self.waypoints.len()];
        let mut bfs = Bfs::new(&self.graph, NodeIndex::new(start));
        while let Some(n) = bfs.next(&self.graph) {
            if let Some(s) = seen.get_mut(n.index()) {
                *s = true;
            }
        }
        self.waypoints
            .iter()
            .zip(&seen)
            .filter(|(_, s)| **s)
            .map(|(wp, _)| wp.id)
            .collect()
    }

    /// Edges `a -> b` without a `b -> a`, in file and `connect` order, each listed once;
    /// `check` reports them because robots cannot drive such a link back.
    pub fn one_way_edges(&self) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for i in 0..self.waypoints.len() {
            let row = &self.adj[self.adj_range(i)];
            for (k, &j) in row.iter().enumerate() {
                if row[..k].contains(&j) {
                    continue; // duplicate connect entry
                }
                if !self.adj[self.adj_range(j)].contains(&i) {
                    out.push((self.waypoints[i].id, self.waypoints[j].id));
                }
            }
        }
        out
    }

    /// Index range of node `i`'s neighbours in `adj` / `adj_len`.
    pub(crate) fn adj_range(&self, i: usize) -> std::ops::Range<usize> {
        match (self.adj_start.get(i), self.adj_start.get(i + 1)) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        }
    }

    /// Neighbour indices in `connect` order (crate-internal, for the searches).
    pub(crate) fn adj(&self) -> &[usize] {
        &self.adj
    }

    /// Edge lengths parallel to [`Self::adj`].
    pub(crate) fn adj_len(&self) -> &[f64] {
        &self.adj_len
    }

    /// Id of the node at file index `i` (crate-internal; `i` comes from our own tables).
    pub(crate) fn id_at(&self, i: usize) -> i32 {
        self.waypoints[i].id
    }
}
