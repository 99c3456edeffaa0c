//! Waypoint graph: construction errors, nearest, DFS chain, shortest path, reachability.

use proptest::prelude::*;
use waypoint_graph::{GraphError, PathScratch, Waypoint, WaypointGraph};

fn wp(id: i32, x: f32, y: f32, connect: &[i32]) -> Waypoint {
    Waypoint::at(id, x, y, connect.to_vec())
}

/// The spec's example: 0:[1,2] 1:[0,3] 2:[0,4] 3:[1] 4:[2].
fn spec_graph() -> WaypointGraph {
    let g = WaypointGraph::new(vec![
        wp(0, 0.0, 0.0, &[1, 2]),
        wp(1, -1.0, 1.0, &[0, 3]),
        wp(2, 1.0, 1.0, &[0, 4]),
        wp(3, -1.0, 2.0, &[1]),
        wp(4, 1.0, 2.0, &[2]),
    ]);
    match g {
        Ok(g) => g,
        Err(e) => panic!("spec graph: {e}"),
    }
}

#[test]
fn construction_errors() {
    let dup = WaypointGraph::new(vec![wp(1, 0.0, 0.0, &[]), wp(1, 1.0, 0.0, &[])]);
    assert_eq!(dup.err(), Some(GraphError::DuplicateId { id: 1 }));
    let unknown = WaypointGraph::new(vec![wp(1, 0.0, 0.0, &[]), wp(2, 1.0, 0.0, &[1, 7])]);
    assert_eq!(
        unknown.err(),
        Some(GraphError::UnknownConnect { from: 2, to: 7 })
    );
    let nan = WaypointGraph::new(vec![wp(3, f32::NAN, 0.0, &[])]);
    assert_eq!(nan.err(), Some(GraphError::NonFiniteCoordinate { id: 3 }));
    assert_eq!(
        GraphError::UnknownConnect { from: 2, to: 7 }.to_string(),
        "waypoint 2 connects to unknown waypoint id 7"
    );
    let empty = WaypointGraph::new(Vec::new());
    assert!(empty.is_ok_and(|g| g.is_empty() && g.nearest(0.0, 0.0, 10.0).is_none()));
}

#[test]
fn lookup_in_file_order() {
    let g = spec_graph();
    assert_eq!(g.len(), 5);
    assert_eq!(
        g.waypoints().iter().map(|w| w.id).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4]
    );
    assert_eq!(g.index_of(3), Some(3));
    assert_eq!(g.get(4).map(|w| w.x), Some(1.0));
    assert!(g.get(9).is_none() && g.index_of(9).is_none());
    assert_eq!(g.neighbours(0).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(g.neighbours(9).count(), 0);
    assert_eq!(g.graph().edge_count(), 8);
}

#[test]
fn ids_need_not_be_dense_or_sorted() {
    let g = WaypointGraph::new(vec![
        wp(10, 0.0, 0.0, &[-3]),
        wp(-3, 1.0, 0.0, &[7]),
        wp(7, 2.0, 0.0, &[]),
    ]);
    let Ok(g) = g else { panic!("graph") };
    assert_eq!(g.index_of(-3), Some(1));
    assert_eq!(g.dfs_chain(10, 7), Some(vec![-3, 7]));
    assert_eq!(g.shortest_path(10, 7), Some(vec![-3, 7]));
}

#[test]
fn small_and_large_ids_are_found_as_a_scan_finds_them() {
    // Small ids (table), a gap, a large id past the table's bound, negatives and i32's ends.
    let ids = [5, 0, 2, 63, 64, 100, 100_000, -1, i32::MIN, i32::MAX];
    let g = WaypointGraph::new(
        ids.iter()
            .enumerate()
            .map(|(i, &id)| wp(id, i as f32, 0.0, &[]))
            .collect(),
    );
    let Ok(g) = g else { panic!("graph") };
    let probes = (-5..200).chain([99_999, 100_000, 100_001, i32::MIN, i32::MAX, i32::MIN + 1]);
    for id in probes {
        let scanned = g.waypoints().iter().position(|w| w.id == id);
        assert_eq!(g.index_of(id), scanned, "id {id}");
    }
}

#[test]
fn nearest_ties_threshold_and_nan() {
    let Ok(g) = WaypointGraph::new(vec![
        wp(5, 0.0, 0.0, &[]),
        wp(6, 2.0, 0.0, &[]),
        wp(7, 1.0, 5.0, &[]),
    ]) else {
        panic!("graph")
    };
    // Exactly between 5 and 6: the earlier one wins.
    assert_eq!(g.nearest(1.0, 0.0, 10.0), Some(5));
    assert_eq!(g.nearest(1.1, 0.0, 10.0), Some(6));
    // Threshold equality counts as "at the waypoint"; strictly greater is None.
    assert_eq!(g.nearest(0.0, 1.0, 1.0), Some(5));
    assert_eq!(g.nearest(0.0, 1.0, 0.999_999_9), None);
    assert_eq!(g.nearest(10.0, 10.0, 4.0), None);
    assert_eq!(g.nearest(f32::NAN, 0.0, 10.0), None);
    assert_eq!(g.nearest(0.0, 0.0, f32::NAN), None);
    assert_eq!(g.nearest(1.0, 4.9, 0.5), Some(7));
}

/// The nearest waypoint by definition: the first of smallest `f32` distance (NaN distances
/// passed over), if within `threshold`.
fn nearest_by_definition(waypoints: &[Waypoint], x: f32, y: f32, threshold: f32) -> Option<i32> {
    let mut best: Option<(f32, i32)> = None;
    for w in waypoints {
        let (dx, dy) = (w.x - x, w.y - y);
        let d = (dx * dx + dy * dy).sqrt();
        if !d.is_nan() && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, w.id));
        }
    }
    best.filter(|(d, _)| *d <= threshold).map(|(_, id)| id)
}

#[test]
fn nearest_picks_as_the_definition_on_random_fields() {
    use geometry::rng::SplitMix64;
    let mut rng = SplitMix64::new(17);
    let mut unit = || rng.unit_f32();
    let (mut found, mut missed, mut far) = (0, 0, 0);
    for round in 0..2_000 {
        // Waypoints on a 12 m x 8 m field, some on a coarse grid so that ties happen.
        let count = 1 + round % 20;
        let waypoints: Vec<Waypoint> = (0..count)
            .map(|id| {
                let (x, y) = if unit() < 0.5 {
                    ((unit() * 12.0).round(), (unit() * 8.0).round())
                } else {
                    (unit() * 12.0, unit() * 8.0)
                };
                wp(id, x, y, &[])
            })
            .collect();
        let Ok(g) = WaypointGraph::new(waypoints.clone()) else {
            panic!("graph")
        };
        for _ in 0..20 {
            let pick = unit();
            // On the field (also on the grid), huge (infinite squares), or not a number.
            let (x, y) = if pick < 0.6 {
                (unit() * 14.0 - 1.0, unit() * 10.0 - 1.0)
            } else if pick < 0.8 {
                ((unit() * 12.0).round(), (unit() * 8.0).round())
            } else if pick < 0.9 {
                (f32::MAX * (unit() - 0.5), 3e19 * unit())
            } else {
                (f32::NAN, unit())
            };
            let threshold = [1.0, 0.5, f32::INFINITY, f32::NAN][(unit() * 4.0) as usize % 4];
            let expected = nearest_by_definition(&waypoints, x, y, threshold);
            assert_eq!(
                g.nearest(x, y, threshold),
                expected,
                "({x}, {y}) {threshold}"
            );
            match expected {
                Some(_) if x.abs() > 1e18 || y.abs() > 1e18 => far += 1,
                Some(_) => found += 1,
                None => missed += 1,
            }
        }
    }
    assert!(
        found > 10_000 && missed > 5_000 && far > 100,
        "{found} {missed} {far}"
    );
}

#[test]
fn nearest_uses_single_precision() {
    // In f64, waypoint 1 is nearer (5.84972641 < 5.84972643); in f32 both distances are
    // 5.849726, a tie, so the earlier waypoint 0 wins, as in the original.
    let Ok(g) = WaypointGraph::new(vec![wp(0, 2.88, 6.81, &[]), wp(1, 0.08, 7.27, &[])]) else {
        panic!("graph")
    };
    let d = |a: (f64, f64)| (a.0 - f64::from(0.56f32)).hypot(a.1 - f64::from(1.44f32));
    assert!(
        d((f64::from(0.08f32), f64::from(7.27f32))) < d((f64::from(2.88f32), f64::from(6.81f32)))
    );
    assert_eq!(g.nearest(0.56, 1.44, 10.0), Some(0));
}

#[test]
fn dfs_chain_spec_examples() {
    let g = spec_graph();
    assert_eq!(g.dfs_chain(3, 4), Some(vec![1, 0, 2, 4]));
    assert_eq!(g.dfs_chain(0, 4), Some(vec![2, 4]));
    assert_eq!(g.dfs_chain(2, 2), Some(vec![2]));
    assert_eq!(g.dfs_chain(4, 3), Some(vec![2, 0, 1, 3]));
    assert_eq!(g.dfs_chain(9, 3), None);
    assert_eq!(g.dfs_chain(3, 9), None);
}

#[test]
fn dfs_chain_backtracks_and_reports_unreachable() {
    // 0 -> 1 -> 2 (dead end), 0 -> 3 -> 4; 5 isolated.
    let Ok(g) = WaypointGraph::new(vec![
        wp(0, 0.0, 0.0, &[1, 3]),
        wp(1, 1.0, 0.0, &[2]),
        wp(2, 2.0, 0.0, &[]),
        wp(3, 0.0, 1.0, &[4]),
        wp(4, 0.0, 2.0, &[]),
        wp(5, 9.0, 9.0, &[]),
    ]) else {
        panic!("graph")
    };
    assert_eq!(g.dfs_chain(0, 4), Some(vec![3, 4]));
    assert_eq!(g.dfs_chain(0, 5), None);
    assert_eq!(g.dfs_chain(4, 0), None); // one-way
    let mut scratch = PathScratch::new();
    let mut out = vec![99];
    assert!(!g.dfs_chain_into(0, 5, &mut scratch, &mut out));
    assert!(out.is_empty());
    assert!(g.dfs_chain_into(0, 2, &mut scratch, &mut out));
    assert_eq!(out, [1, 2]);
}

#[test]
fn shortest_path_differs_from_dfs_and_breaks_ties() {
    // DFS goes 0 -> 1 -> 2 -> 3; the direct edge 0 -> 3 is shorter.
    let Ok(g) = WaypointGraph::new(vec![
        wp(0, 0.0, 0.0, &[1, 3]),
        wp(1, 0.0, 5.0, &[2]),
        wp(2, 5.0, 5.0, &[3]),
        wp(3, 5.0, 0.0, &[]),
    ]) else {
        panic!("graph")
    };
    assert_eq!(g.dfs_chain(0, 3), Some(vec![1, 2, 3]));
    assert_eq!(g.shortest_path(0, 3), Some(vec![3]));
    assert_eq!(g.shortest_path(3, 0), None);
    assert_eq!(g.shortest_path(1, 1), Some(vec![1]));
    assert_eq!(g.shortest_path(0, 42), None);

    // Two equal routes 0 -> 1 -> 3 and 0 -> 2 -> 3 (a diamond): the one settled first wins,
    // i.e. via the lower file index among equal distances, whatever the connect order.
    for connect in [[1, 2], [2, 1]] {
        let Ok(d) = WaypointGraph::new(vec![
            wp(0, 0.0, 0.0, &connect),
            wp(1, 1.0, 1.0, &[3]),
            wp(2, 1.0, -1.0, &[3]),
            wp(3, 2.0, 0.0, &[]),
        ]) else {
            panic!("graph")
        };
        assert_eq!(
            d.shortest_path(0, 3),
            Some(vec![1, 3]),
            "connect {connect:?}"
        );
    }
}

#[test]
fn reachability_and_one_way_edges() {
    let Ok(g) = WaypointGraph::new(vec![
        wp(0, 0.0, 0.0, &[1, 1, 0]),
        wp(1, 1.0, 0.0, &[0, 2]),
        wp(2, 2.0, 0.0, &[]),
        wp(3, 3.0, 0.0, &[2]),
    ]) else {
        panic!("graph")
    };
    assert!(g.is_reachable(0, 2));
    assert!(!g.is_reachable(2, 0));
    assert!(g.is_reachable(2, 2));
    assert!(!g.is_reachable(0, 3));
    assert!(!g.is_reachable(0, 99));
    assert_eq!(g.reachable_from(1), [0, 1, 2]);
    assert_eq!(g.reachable_from(3), [2, 3]);
    assert!(g.reachable_from(99).is_empty());
    // Duplicates listed once; the self-loop is its own reverse.
    assert_eq!(g.one_way_edges(), [(1, 2), (3, 2)]);
    assert!(spec_graph().one_way_edges().is_empty());
}

/// Random graphs: `n` waypoints, each with a random `connect` list (duplicates, self-loops).
fn arb_graph() -> impl Strategy<Value = Vec<Waypoint>> {
    (1usize..12).prop_flat_map(|n| {
        let ids = n as i32;
        prop::collection::vec(
            (
                -10.0f32..10.0,
                -10.0f32..10.0,
                prop::collection::vec(0..ids, 0..4),
            ),
            n,
        )
        .prop_map(|v| {
            v.into_iter()
                .enumerate()
                .map(|(i, (x, y, c))| Waypoint::at(i as i32, x, y, c))
                .collect()
        })
    })
}

fn is_edge(g: &WaypointGraph, a: i32, b: i32) -> bool {
    g.neighbours(a).any(|n| n == b)
}

/// A path in the crate's form (without start) is a simple walk along edges to `target`.
fn check_walk(
    g: &WaypointGraph,
    start: i32,
    target: i32,
    path: &[i32],
) -> Result<(), TestCaseError> {
    prop_assert_eq!(path.last().copied(), Some(target));
    if start == target {
        prop_assert_eq!(path, &[target][..]);
        return Ok(());
    }
    let mut prev = start;
    let mut seen = vec![start];
    for &v in path {
        prop_assert!(is_edge(g, prev, v), "no edge {} -> {}", prev, v);
        prop_assert!(!seen.contains(&v), "vertex {} repeated", v);
        seen.push(v);
        prev = v;
    }
    Ok(())
}

proptest! {
    #[test]
    fn dfs_chain_is_a_simple_walk_to_the_target(wps in arb_graph(), s in 0i32..12, t in 0i32..12) {
        let n = wps.len() as i32;
        let (s, t) = (s % n, t % n);
        let g = WaypointGraph::new(wps).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let dfs = g.dfs_chain(s, t);
        prop_assert_eq!(dfs.is_some(), g.is_reachable(s, t));
        let mut scratch = PathScratch::new();
        let mut out = Vec::new();
        prop_assert_eq!(g.dfs_chain_into(s, t, &mut scratch, &mut out), dfs.is_some());
        if let Some(path) = &dfs {
            prop_assert_eq!(&out, path);
            check_walk(&g, s, t, path)?;
        }
        let sp = g.shortest_path(s, t);
        prop_assert_eq!(sp.is_some(), dfs.is_some());
        if let Some(path) = &sp {
            check_walk(&g, s, t, path)?;
        }
        prop_assert_eq!(g.reachable_from(s).contains(&t), dfs.is_some());
    }
}
