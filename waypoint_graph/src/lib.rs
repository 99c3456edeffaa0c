//! Geometry of the RoboMaster decision engine: where the robots are and what they can see.
//!
//! * [`Waypoint`] and [`WaypointGraph`]: the waypoint file's points and their directed
//!   `connect` graph (petgraph inside), with the original's nearest-waypoint rule
//!   ([`WaypointGraph::nearest`]), the original's DFS succession chain
//!   ([`WaypointGraph::dfs_chain`]), Dijkstra ([`WaypointGraph::shortest_path`]) and the
//!   reachability queries `check` needs. The `_into` searches with a [`PathScratch`] do not
//!   allocate in steady state.
//! * [`ObstacleMap`]: the field PNG as grey pixels, converted and resized bit-exactly like the
//!   original's OpenCV calls ([`map::grey`], [`map::resize`]), the metres <-> pixels mapping,
//!   and the occlusion tests: the original's sampling rule
//!   ([`ObstacleMap::visible_sampled`]) and an exact grid traversal
//!   ([`ObstacleMap::visible_exact`]).
//!
//! The rules are the original package's: the current waypoint is the nearest one within the
//! threshold ([`graph::WaypointGraph::nearest`]), a path is the direct hop or the first DFS
//! chain over `connect` ([`search`]), and a target is visible when sampled points on the
//! segment to it are free ([`ObstacleMap::visible_sampled`]).

#![warn(missing_docs)]

pub mod graph;
pub mod map;
pub mod nearby;
pub mod search;
pub mod waypoint;

pub use graph::{GraphError, WaypointGraph};
pub use map::{MapError, ObstacleMap, resize_linear_u8, target_size};
pub use nearby::NearbyWaypoints;
pub use search::PathScratch;
pub use waypoint::{Waypoint, distance_f32};
