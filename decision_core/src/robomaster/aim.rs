//! Aiming: the nearest visible enemy inside the seek circle, and the yaws derived from it.

use super::config::{OcclusionTest, RmConfig};
use super::decisions::UNIT_SLOTS;
use super::world::{Point2, Unit, World, key_of};
use geometry::{rem_euclid_tau_f32, wrap_pi_f32};
use std::f32::consts::TAU;
use waypoint_graph::ObstacleMap;

/// The enemy we aim at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AimTarget {
    /// Enemy unit slot (hero .. sentry).
    pub slot: usize,
    /// Absolute yaw from us to it, from +x toward +y, in [0, 2 pi).
    pub yaw: f32,
    /// Distance in metres.
    pub distance: f32,
}

/// Picks the strictly nearest enemy (slot order breaks ties) within `INIT_SEEK_THR` that is
/// not occluded on the map; enemies at our exact position or at an unknown position are skipped.
pub fn find_target(world: &World, config: &RmConfig, map: &ObstacleMap) -> Option<AimTarget> {
    find_target_with_memo(world, config, map, &mut SightMemo::default())
}

/// The last line-of-sight answer for each enemy slot, so that a test between two unmoved
/// robots is not sampled again. Valid for one map and one occlusion setting only: a
/// [`Decider`](super::Decider) keeps one for its fixed tables.
#[derive(Debug, Clone, Default)]
pub struct SightMemo {
    /// Per enemy slot: the bits of our position and of the enemy's, and the answer.
    answers: [Option<(u64, u64, bool)>; UNIT_SLOTS],
}

/// As [`find_target`], taking the line-of-sight answers between unmoved robots from `memo`
/// (which must have been filled with this `map` and `config` only).
pub fn find_target_with_memo(
    world: &World,
    config: &RmConfig,
    map: &ObstacleMap,
    memo: &mut SightMemo,
) -> Option<AimTarget> {
    let me = world.position;
    let mut best: Option<AimTarget> = None;
    let distances = enemy_distances(me, &world.enemies);
    // Every test only skips the enemy, so their order does not matter: the one that skips
    // most enemies (outside the seek circle) comes first, for all of them at once.
    // A NaN distance is not outside: such an enemy goes on to the other tests.
    let outside = distances
        .iter()
        .enumerate()
        .fold(0u32, |bits, (slot, distance)| {
            bits | u32::from(*distance > config.seek_thr) << slot
        });
    let mut in_circle = !outside & ((1 << UNIT_SLOTS) - 1);
    while in_circle != 0 {
        let slot = in_circle.trailing_zeros() as usize;
        in_circle &= in_circle - 1;
        let (Some(enemy), Some(&distance)) = (world.enemies.get(slot), distances.get(slot)) else {
            continue;
        };
        let p = enemy.position;
        if best.is_some_and(|b| distance >= b.distance) || p.is_unknown() || p == me {
            continue;
        }
        let keys = (key_of(me), key_of(p));
        let known = memo.answers.get(slot).copied().flatten();
        let visible = match known {
            Some((from, to, visible)) if (from, to) == keys => visible,
            _ => {
                let visible = in_sight(config, map, me, p);
                if let Some(answer) = memo.answers.get_mut(slot) {
                    *answer = Some((keys.0, keys.1, visible));
                }
                visible
            }
        };
        if visible {
            best = Some(AimTarget {
                slot,
                yaw: bearing(me, p),
                distance,
            });
        }
    }
    best
}

/// The distance from `me` to each enemy, [`Point2::distance`] of every slot, computed lane by
/// lane (so that it vectorises).
#[inline(always)]
fn enemy_distances(me: Point2, enemies: &[Unit; UNIT_SLOTS]) -> [f32; UNIT_SLOTS] {
    let mut dxs = [0.0f32; UNIT_SLOTS];
    let mut dys = [0.0f32; UNIT_SLOTS];
    for ((dx, dy), enemy) in dxs.iter_mut().zip(&mut dys).zip(enemies) {
        *dx = enemy.position.x - me.x;
        *dy = enemy.position.y - me.y;
    }
    let mut distances = [0.0f32; UNIT_SLOTS];
    for ((distance, dx), dy) in distances.iter_mut().zip(&dxs).zip(&dys) {
        *distance = (dx * dx + dy * dy).sqrt();
    }
    distances
}

/// Whether `to` is visible from `from` by the configured occlusion test.
fn in_sight(config: &RmConfig, map: &ObstacleMap, from: Point2, to: Point2) -> bool {
    match config.occlusion_test {
        OcclusionTest::Sampled => {
            map.visible_sampled((from.x, from.y), (to.x, to.y), config.step_distance)
        }
        OcclusionTest::Exact => map.visible_exact((from.x, from.y), (to.x, to.y)),
    }
}

/// The field bearing from `me` to `p`, in [0, 2π).
fn bearing(me: Point2, p: Point2) -> f32 {
    let yaw = rem_euclid_tau_f32((p.y - me.y).atan2(p.x - me.x));
    // rem_euclid can round up to exactly TAU for tiny negative angles.
    if yaw >= TAU { 0.0 } else { yaw }
}

/// The gimbal yaw relative to the chassis that the Decision message carries (0 without target).
pub fn relative_yaw(target: Option<&AimTarget>, chassis_yaw: f32) -> f32 {
    target.map_or(0.0, |t| wrap_pi_f32(t.yaw - chassis_yaw))
}

#[cfg(test)]
mod tests {
    use super::{AimTarget, bearing, find_target, in_sight};
    use crate::robomaster::load::load;
    use crate::robomaster::world::{Point2, World};
    use geometry::rng::SplitMix64;
    use std::path::Path;

    /// The target by definition (without the memo): enemies at an unknown position or at
    /// ours skipped first, then those outside the seek circle or not strictly nearer than the
    /// best, then the occluded ones.
    fn target_by_definition(
        world: &World,
        config: &crate::robomaster::config::RmConfig,
        map: &waypoint_graph::ObstacleMap,
    ) -> Option<AimTarget> {
        let me = world.position;
        let mut best: Option<AimTarget> = None;
        for (slot, enemy) in world.enemies.iter().enumerate() {
            let p = enemy.position;
            if p.is_unknown() || p == me {
                continue;
            }
            let distance = me.distance(p);
            if distance > config.seek_thr || best.is_some_and(|b| distance >= b.distance) {
                continue;
            }
            if in_sight(config, map, me, p) {
                best = Some(AimTarget {
                    slot,
                    yaw: bearing(me, p),
                    distance,
                });
            }
        }
        best
    }

    #[test]
    fn the_nearest_first_order_finds_the_target_of_the_definition() {
        let repo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let tables = load(&repo.join("sample/config.json")).tables.unwrap();
        let mut rng = SplitMix64::new(23);
        let mut unit = || rng.unit_f32();
        let mut world = World::default();
        let mut targets = 0;
        for _ in 0..20_000 {
            world.position = Point2::new(unit() * 12.0, unit() * 8.0);
            for enemy in &mut world.enemies {
                let pick = unit();
                // Unknown, at our position, at a whole metre (ties), or anywhere on the field.
                enemy.position = if pick < 0.15 {
                    Point2::new(0.0, unit() * 8.0)
                } else if pick < 0.2 {
                    world.position
                } else if pick < 0.4 {
                    Point2::new((unit() * 12.0).round(), (unit() * 8.0).round())
                } else {
                    Point2::new(unit() * 12.0, unit() * 8.0)
                };
            }
            let expected = target_by_definition(&world, &tables.config, &tables.map);
            assert_eq!(find_target(&world, &tables.config, &tables.map), expected);
            targets += usize::from(expected.is_some());
        }
        assert!(targets > 5_000, "{targets} targets");
    }
}
