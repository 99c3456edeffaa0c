//! TF for the node's pose: the latest transform of every frame from `/tf` and `/tf_static`,
//! and the lookup `map_decision` <- `base_link` through whatever frames lie between (the
//! original asks tf2 for exactly this transform every tick).

use super::msg::{Quaternion, TfMessage, Transform, TransformStamped, Vector3};
use crate::messages::{Header, PoseMsg, Stamp};
use std::collections::HashMap;

/// The frame the decisions are made in (the original's target frame).
pub const MAP_FRAME: &str = "map_decision";
/// The robot's chassis frame.
pub const BASE_FRAME: &str = "base_link";
/// The topic of moving transforms.
pub const TF_TOPIC: &str = "/tf";
/// The topic of static (latched) transforms.
pub const TF_STATIC_TOPIC: &str = "/tf_static";
/// The longest chain of frames a lookup walks (a loop in the tree ends there).
const MAX_CHAIN: usize = 32;

/// The latest transform of every child frame: its parent, where it is there, and the stamp.
#[derive(Debug, Default, Clone)]
pub struct TfBuffer {
    parents: HashMap<String, (String, Transform, Stamp)>,
}

impl TfBuffer {
    /// Takes every transform of `message` (a later one of the same child replaces it).
    pub fn insert(&mut self, message: TfMessage) {
        for t in message.transforms {
            if t.child_frame_id.is_empty() || !is_finite(&t.transform) {
                continue;
            }
            self.parents.insert(
                t.child_frame_id,
                (t.header.frame_id, t.transform, t.header.stamp),
            );
        }
    }

    /// Where `source` is in `target` when `target` is an ancestor of `source`, and the newest
    /// stamp along the chain; `None` while the chain is incomplete.
    pub fn lookup(&self, target: &str, source: &str) -> Option<(Transform, Stamp)> {
        let mut total = Transform::default();
        let mut stamp = Stamp::default();
        let mut frame = source;
        for _ in 0..MAX_CHAIN {
            if frame == target {
                return Some((total, stamp));
            }
            let (parent, step, step_stamp) = self.parents.get(frame)?;
            total = compose(step, &total);
            stamp = stamp.max(*step_stamp);
            frame = parent;
        }
        None
    }

    /// The node's pose message: `base_link` in `map_decision`, if both are connected.
    pub fn robot_pose(&self) -> Option<PoseMsg> {
        let (t, stamp) = self.lookup(MAP_FRAME, BASE_FRAME)?;
        Some(PoseMsg {
            header: Header {
                stamp,
                frame_id: MAP_FRAME.to_owned(),
            },
            x: t.translation.x as f32,
            y: t.translation.y as f32,
            yaw: t.rotation.yaw() as f32,
        })
    }
}

/// The transform `map_decision` -> `base_link` that puts the robot at `pose` (what a
/// localisation node broadcasts).
pub fn pose_transform(pose: &PoseMsg) -> TfMessage {
    TfMessage {
        transforms: vec![TransformStamped {
            header: Header {
                stamp: pose.header.stamp,
                frame_id: MAP_FRAME.to_owned(),
            },
            child_frame_id: BASE_FRAME.to_owned(),
            transform: Transform {
                translation: Vector3 {
                    x: f64::from(pose.x),
                    y: f64::from(pose.y),
                    z: 0.0,
                },
                rotation: Quaternion::from_yaw(f64::from(pose.yaw)),
            },
        }],
    }
}

fn is_finite(t: &Transform) -> bool {
    let v = t.translation;
    let q = t.rotation;
    [v.x, v.y, v.z, q.x, q.y, q.z, q.w]
        .iter()
        .all(|c| c.is_finite())
}

/// `outer` after `inner`: where a point of the innermost frame lands in the outermost.
fn compose(outer: &Transform, inner: &Transform) -> Transform {
    let rotated = rotate(&outer.rotation, &inner.translation);
    Transform {
        translation: Vector3 {
            x: outer.translation.x + rotated.x,
            y: outer.translation.y + rotated.y,
            z: outer.translation.z + rotated.z,
        },
        rotation: multiply(&outer.rotation, &inner.rotation),
    }
}

/// The Hamilton product `a * b`.
fn multiply(a: &Quaternion, b: &Quaternion) -> Quaternion {
    Quaternion {
        w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    }
}

/// `v` rotated by the unit quaternion `q` (`q v q*`).
fn rotate(q: &Quaternion, v: &Vector3) -> Vector3 {
    let p = Quaternion {
        x: v.x,
        y: v.y,
        z: v.z,
        w: 0.0,
    };
    let conjugate = Quaternion {
        x: -q.x,
        y: -q.y,
        z: -q.z,
        w: q.w,
    };
    let r = multiply(&multiply(q, &p), &conjugate);
    Vector3 {
        x: r.x,
        y: r.y,
        z: r.z,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planar(parent: &str, child: &str, x: f64, y: f64, yaw: f64, sec: i32) -> TransformStamped {
        TransformStamped {
            header: Header {
                stamp: Stamp { sec, nanosec: 0 },
                frame_id: parent.to_owned(),
            },
            child_frame_id: child.to_owned(),
            transform: Transform {
                translation: Vector3 { x, y, z: 0.0 },
                rotation: Quaternion::from_yaw(yaw),
            },
        }
    }

    #[test]
    fn the_pose_goes_through_odom() {
        let mut tf = TfBuffer::default();
        tf.insert(TfMessage {
            transforms: vec![planar(
                MAP_FRAME,
                "odom",
                1.0,
                2.0,
                std::f64::consts::FRAC_PI_2,
                0,
            )],
        });
        assert_eq!(tf.robot_pose(), None, "base_link is not connected yet");
        tf.insert(TfMessage {
            transforms: vec![planar("odom", BASE_FRAME, 3.0, 0.5, 0.25, 7)],
        });
        let pose = tf.robot_pose().expect("map_decision <- odom <- base_link");
        // odom is turned by +90 degrees: its (3, 0.5) is the map's (-0.5, 3), plus (1, 2).
        assert!((pose.x - 0.5).abs() < 1e-6, "{pose:?}");
        assert!((pose.y - 5.0).abs() < 1e-6, "{pose:?}");
        assert!((f64::from(pose.yaw) - (std::f64::consts::FRAC_PI_2 + 0.25)).abs() < 1e-6);
        assert_eq!(pose.header.stamp.sec, 7, "the newest stamp of the chain");
        assert_eq!(pose.header.frame_id, MAP_FRAME);
    }

    #[test]
    fn a_broadcast_pose_reads_back() {
        let pose = PoseMsg {
            header: Header::at(12.5),
            x: 4.25,
            y: -1.5,
            yaw: -2.0,
        };
        let mut tf = TfBuffer::default();
        tf.insert(pose_transform(&pose));
        let back = tf.robot_pose().expect("one transform");
        assert_eq!((back.x, back.y), (pose.x, pose.y));
        assert!((back.yaw - pose.yaw).abs() < 1e-6);
        assert_eq!(back.header.stamp, pose.header.stamp);
    }

    #[test]
    fn loops_and_non_finite_transforms_give_no_pose() {
        let mut tf = TfBuffer::default();
        tf.insert(TfMessage {
            transforms: vec![
                planar("a", BASE_FRAME, 0.0, 0.0, 0.0, 0),
                planar(BASE_FRAME, "a", 0.0, 0.0, 0.0, 0),
            ],
        });
        assert_eq!(tf.robot_pose(), None);
        let mut tf = TfBuffer::default();
        tf.insert(TfMessage {
            transforms: vec![planar(MAP_FRAME, BASE_FRAME, f64::NAN, 0.0, 0.0, 0)],
        });
        assert_eq!(tf.robot_pose(), None);
    }
}
