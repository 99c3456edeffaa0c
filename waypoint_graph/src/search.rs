//! Path searches over the waypoint graph: the original's DFS chain and Dijkstra.
//!
//! Both return the path without the start waypoint, `[target]` when start == target, and
//! nothing when the target is unreachable or an id is unknown. The `_into` forms reuse a
//! [`PathScratch`] and an output vector, so they do not allocate once those have grown to the
//! graph's size.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::graph::WaypointGraph;

/// Reusable buffers for [`WaypointGraph::dfs_chain_into`] and
/// [`WaypointGraph::shortest_path_into`], so steady-state ticks do not allocate.
#[derive(Debug, Default, Clone)]
pub struct PathScratch {
    visited: Vec<bool>,
    /// DFS stack: (node, position of the next neighbour to try in its `connect` list).
    stack: Vec<(usize, usize)>,
    dist: Vec<f64>,
    prev: Vec<usize>,
    heap: BinaryHeap<HeapItem>,
}

impl PathScratch {
    /// Empty scratch; it grows on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Scratch pre-sized for a graph, so even the first search does not allocate
    /// (except the heap growing past `graph.len()` entries in dense graphs).
    pub fn for_graph(graph: &WaypointGraph) -> Self {
        let n = graph.len();
        Self {
            visited: Vec::with_capacity(n),
            stack: Vec::with_capacity(n),
            dist: Vec::with_capacity(n),
            prev: Vec::with_capacity(n),
            heap: BinaryHeap::with_capacity(n),
        }
    }
}

/// Dijkstra queue entry, ordered so the max-heap pops the smallest distance, then the
/// smallest file index.
#[derive(Debug, Clone, Copy)]
struct HeapItem {
    dist: f64,
    node: usize,
}

impl PartialEq for HeapItem {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for HeapItem {}

impl PartialOrd for HeapItem {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for HeapItem {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .dist
            .total_cmp(&self.dist)
            .then_with(|| other.node.cmp(&self.node))
    }
}

const NO_PREV: usize = usize::MAX;

impl WaypointGraph {
    /// The original's succession path: depth-first over `connect` order from `start` until
    /// `target` is pushed; the stack without `start` (not a shortest path). `[target]` when
    /// start == target; `None` if unreachable or an id is unknown.
    pub fn dfs_chain(&self, start: i32, target: i32) -> Option<Vec<i32>> {
        let mut out = Vec::new();
        self.dfs_chain_into(start, target, &mut PathScratch::new(), &mut out)
            .then_some(out)
    }

    /// [`Self::dfs_chain`] into `out` (cleared first) using `scratch`; returns whether a path
    /// exists (`out` is left empty when not). Allocation-free after warm-up.
    ///
    /// Each stack entry keeps a cursor into its `connect` list; since the visited set only
    /// grows, resuming at the cursor finds the same "first unvisited neighbour" as rescanning.
    pub fn dfs_chain_into(
        &self,
        start: i32,
        target: i32,
        scratch: &mut PathScratch,
        out: &mut Vec<i32>,
    ) -> bool {
        out.clear();
        let (Some(s), Some(t)) = (self.index_of(start), self.index_of(target)) else {
            return false;
        };
        if s == t {
            out.push(target);
            return true;
        }
        let visited = &mut scratch.visited;
        visited.clear();
        visited.resize(self.len(), false);
        let stack = &mut scratch.stack;
        stack.clear();
        stack.push((s, 0));
        visited[s] = true;
        let adj = self.adj();
        while let Some(top) = stack.last_mut() {
            let range = self.adj_range(top.0);
            let mut next = None;
            while let Some(&w) = adj[range.clone()].get(top.1) {
                top.1 += 1;
                if !visited[w] {
                    next = Some(w);
                    break;
                }
            }
            match next {
                Some(w) => {
                    visited[w] = true;
                    stack.push((w, 0));
                    if w == t {
                        out.extend(stack.iter().skip(1).map(|&(n, _)| self.id_at(n)));
                        return true;
                    }
                }
                None => {
                    stack.pop();
                }
            }
        }
        false
    }

    /// Shortest path by Euclidean edge length (Dijkstra, `f64`), same output form as
    /// [`Self::dfs_chain`].
    ///
    /// Ties are deterministic: nodes are settled in order of (distance, file index), edges are
    /// relaxed in `connect` order, and a predecessor is only replaced by a strictly shorter
    /// route, so among equal-length paths the one reaching each node first wins.
    pub fn shortest_path(&self, start: i32, target: i32) -> Option<Vec<i32>> {
        let mut out = Vec::new();
        self.shortest_path_into(start, target, &mut PathScratch::new(), &mut out)
            .then_some(out)
    }

    /// [`Self::shortest_path`] into `out` (cleared first) using `scratch`; returns whether a
    /// path exists. Allocation-free after warm-up.
    pub fn shortest_path_into(
        &self,
        start: i32,
        target: i32,
        scratch: &mut PathScratch,
        out: &mut Vec<i32>,
    ) -> bool {
        out.clear();
        let (Some(s), Some(t)) = (self.index_of(start), self.index_of(target)) else {
            return false;
        };
        if s == t {
            out.push(target);
            return true;
        }
        let n = self.len();
        let PathScratch {
            visited: settled,
            dist,
            prev,
            heap,
            ..
        } = scratch;
        settled.clear();
        settled.resize(n, false);
        dist.clear();
        dist.resize(n, f64::INFINITY);
        prev.clear();
        prev.resize(n, NO_PREV);
        heap.clear();
        dist[s] = 0.0;
        heap.push(HeapItem { dist: 0.0, node: s });
        let (adj, adj_len) = (self.adj(), self.adj_len());
        while let Some(HeapItem { dist: d, node: v }) = heap.pop() {
            if settled[v] {
                continue;
            }
            settled[v] = true;
            if v == t {
                break;
            }
            for k in self.adj_range(v) {
                let (w, len) = (adj[k], adj_len[k]);
                let nd = d + len;
                if !settled[w] && nd < dist[w] {
                    dist[w] = nd;
                    prev[w] = v;
                    heap.push(HeapItem { dist: nd, node: w });
                }
            }
        }
        if !settled[t] {
            return false;
        }
        let mut v = t;
        while v != s {
            out.push(self.id_at(v));
            v = prev[v];
            if v == NO_PREV {
                out.clear();
                return false;
            }
        }
        out.reverse();
        true
    }
}
