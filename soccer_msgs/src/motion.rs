//! Body and head motions, chosen independently by the tree's actions and assembled into one
//! motion command after each tick (defaults: stand, look forward).

use geometry::{Field, Point2, Pose2};
use schemars::JsonSchema;
use serde::de::{Deserializer, Error as _};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

/// A foot, `left` or `right` (remote-control and motion kicks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Foot {
    /// Left foot.
    Left,
    /// Right foot.
    Right,
}

/// Which way to turn in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnDirection {
    /// Counter-clockwise.
    Left,
    /// Clockwise.
    Right,
}

/// What the body does.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// Joints soft.
    Damping,
    /// Prepare motion (before standing).
    Prepare,
    /// Stand still.
    Stand,
    /// Get up after a fall.
    StandUp,
    /// Walk to a field pose at a speed (m/s).
    WalkTo {
        /// Field pose to reach: x, y (m) and final heading (rad).
        target: Pose2<Field>,
        /// Walking speed (m/s).
        speed: f64,
    },
    /// Walk with a velocity in the robot frame.
    WalkVelocity {
        /// Forward (m/s).
        vx: f64,
        /// Left (m/s).
        vy: f64,
        /// Turn rate (rad/s).
        vyaw: f64,
    },
    /// Turn in place.
    Turn(TurnDirection),
    /// Kick the ball towards a field target.
    Kick {
        /// Foot to kick with (`left` / `right` in the output).
        foot: Foot,
        /// Where the ball should go.
        target: Point2<Field>,
    },
    /// A configured body command, sent verbatim.
    Injected(serde_json::Value),
}

impl Body {
    /// The motion type's name (`walk_to`, `kick`, ...), as in the output.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Damping => "damping",
            Body::Prepare => "prepare",
            Body::Stand => "stand",
            Body::StandUp => "stand_up",
            Body::WalkTo { .. } => "walk_to",
            Body::WalkVelocity { .. } => "walk_velocity",
            Body::Turn(_) => "turn",
            Body::Kick { .. } => "kick",
            Body::Injected(_) => "injected",
        }
    }
}

/// In words, for people (the viewer's world table): `walk to (1.20, -0.50) facing 90°
/// at 0.60 m/s`.
impl std::fmt::Display for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Body::Damping => f.write_str("damping"),
            Body::Prepare => f.write_str("prepare"),
            Body::Stand => f.write_str("stand"),
            Body::StandUp => f.write_str("stand up"),
            Body::WalkTo { target, speed } => write!(
                f,
                "walk to ({:.2}, {:.2}) facing {:.0}\u{b0} at {speed:.2} m/s",
                target.position.x,
                target.position.y,
                target.yaw.to_degrees()
            ),
            Body::WalkVelocity { vx, vy, vyaw } => write!(
                f,
                "walk at {vx:.2} m/s forward, {vy:.2} m/s left, turning {:.0}\u{b0}/s",
                vyaw.to_degrees()
            ),
            Body::Turn(TurnDirection::Left) => f.write_str("turn left"),
            Body::Turn(TurnDirection::Right) => f.write_str("turn right"),
            Body::Kick { foot, target } => {
                let foot = match foot {
                    Foot::Left => "left",
                    Foot::Right => "right",
                };
                write!(
                    f,
                    "kick with the {foot} foot to ({:.2}, {:.2})",
                    target.x, target.y
                )
            }
            Body::Injected(value) => write!(f, "configured command {value}"),
        }
    }
}

/// What the head does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Head {
    /// Straight ahead.
    LookForward,
    /// Scan from side to side.
    LookAround,
    /// Keep a field point in view.
    LookAt(Point2<Field>),
    /// Search for the ball.
    Search,
}

/// One assembled motion command.
#[derive(Debug, Clone, PartialEq)]
pub struct MotionCommand {
    /// Legs' motion; `stand` when no action chose one.
    pub body: Body,
    /// Head motion, chosen apart from the body; `look_forward` when no action chose one.
    pub head: Head,
}

impl MotionCommand {
    /// The safe command: stand, look forward.
    pub const STAND: MotionCommand = MotionCommand {
        body: Body::Stand,
        head: Head::LookForward,
    };

    /// Assembles the actions' choices: what was not chosen takes the default.
    pub fn assemble(body: Option<Body>, head: Option<Head>) -> MotionCommand {
        MotionCommand {
            body: body.unwrap_or(Body::Stand),
            head: head.unwrap_or(Head::LookForward),
        }
    }

    /// The head yaw relative to the body this command asks for: 0 looking forward, the
    /// target's bearing (clamped to `maximum_yaw`) looking at a point, else `current`.
    pub fn commanded_head_yaw(
        &self,
        pose: Option<&Pose2<Field>>,
        current: f64,
        maximum_yaw: f64,
    ) -> f64 {
        match (self.head, pose) {
            (Head::LookForward, _) => 0.0,
            (Head::LookAt(target), Some(pose)) => {
                pose.bearing_to(target).clamp(-maximum_yaw, maximum_yaw)
            }
            _ => current,
        }
    }
}

impl Serialize for Body {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Body::Injected(value) = self {
            return value.serialize(s);
        }
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("kind", self.kind())?;
        match self {
            Body::WalkTo { target, speed } => {
                map.serialize_entry("x", &target.position.x)?;
                map.serialize_entry("y", &target.position.y)?;
                map.serialize_entry("yaw", &target.yaw)?;
                map.serialize_entry("speed", speed)?;
            }
            Body::WalkVelocity { vx, vy, vyaw } => {
                map.serialize_entry("vx", vx)?;
                map.serialize_entry("vy", vy)?;
                map.serialize_entry("vyaw", vyaw)?;
            }
            Body::Turn(direction) => map.serialize_entry("direction", direction)?,
            Body::Kick { foot, target } => {
                map.serialize_entry("foot", foot)?;
                map.serialize_entry("target", &target.to_array())?;
            }
            _ => {}
        }
        map.end()
    }
}

impl Serialize for Head {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        match self {
            Head::LookForward => map.serialize_entry("kind", "look_forward")?,
            Head::LookAround => map.serialize_entry("kind", "look_around")?,
            Head::Search => map.serialize_entry("kind", "search")?,
            Head::LookAt(p) => {
                map.serialize_entry("kind", "look_at")?;
                map.serialize_entry("x", &p.x)?;
                map.serialize_entry("y", &p.y)?;
            }
        }
        map.end()
    }
}

impl Serialize for MotionCommand {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("body", &self.body)?;
        map.serialize_entry("head", &self.head)?;
        map.end()
    }
}

/// Reads a number field of a body or head object.
fn number(value: &serde_json::Value, key: &str) -> Result<f64, String> {
    value
        .get(key)
        .and_then(serde_json::Value::as_f64)
        .ok_or_else(|| format!("`{key}`: expected a number"))
}

impl Body {
    /// Reads a body written by [`Serialize`]; an unknown `kind` is an injected command.
    pub fn from_json(value: &serde_json::Value) -> Result<Body, String> {
        let kind = value.get("kind").and_then(serde_json::Value::as_str);
        Ok(match kind {
            Some("damping") => Body::Damping,
            Some("prepare") => Body::Prepare,
            Some("stand") => Body::Stand,
            Some("stand_up") => Body::StandUp,
            Some("walk_to") => Body::WalkTo {
                target: Pose2::new(
                    number(value, "x")?,
                    number(value, "y")?,
                    number(value, "yaw")?,
                ),
                speed: number(value, "speed")?,
            },
            Some("walk_velocity") => Body::WalkVelocity {
                vx: number(value, "vx")?,
                vy: number(value, "vy")?,
                vyaw: number(value, "vyaw")?,
            },
            Some("turn") => Body::Turn(match value.get("direction").and_then(|d| d.as_str()) {
                Some("left") => TurnDirection::Left,
                Some("right") => TurnDirection::Right,
                _ => return Err("`direction`: expected `left` or `right`".into()),
            }),
            Some("kick") => {
                let foot = match value.get("foot").and_then(|d| d.as_str()) {
                    Some("left") => Foot::Left,
                    Some("right") => Foot::Right,
                    _ => return Err("`foot`: expected `left` or `right`".into()),
                };
                let target = value
                    .get("target")
                    .and_then(|t| t.as_array())
                    .and_then(|t| Some([t.first()?.as_f64()?, t.get(1)?.as_f64()?]))
                    .ok_or("`target`: expected [x, y]")?;
                Body::Kick {
                    foot,
                    target: Point2::new(target[0], target[1]),
                }
            }
            _ => Body::Injected(value.clone()),
        })
    }
}

/// In words, for people: `look at (4.50, 0.00)`.
impl std::fmt::Display for Head {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Head::LookForward => f.write_str("look forward"),
            Head::LookAround => f.write_str("look around"),
            Head::LookAt(p) => write!(f, "look at ({:.2}, {:.2})", p.x, p.y),
            Head::Search => f.write_str("search for the ball"),
        }
    }
}

impl Head {
    /// Reads a head motion written by [`Serialize`].
    pub fn from_json(value: &serde_json::Value) -> Result<Head, String> {
        Ok(
            match value.get("kind").and_then(serde_json::Value::as_str) {
                Some("look_forward") => Head::LookForward,
                Some("look_around") => Head::LookAround,
                Some("search") => Head::Search,
                Some("look_at") => {
                    Head::LookAt(Point2::new(number(value, "x")?, number(value, "y")?))
                }
                _ => {
                    return Err(
                        "`kind`: expected look_forward, look_around, search or look_at".into(),
                    );
                }
            },
        )
    }
}

impl<'de> Deserialize<'de> for MotionCommand {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        let part = |key: &str| {
            value
                .get(key)
                .ok_or_else(|| D::Error::custom(format!("missing `{key}`")))
        };
        let body =
            Body::from_json(part("body")?).map_err(|e| D::Error::custom(format!("body: {e}")))?;
        let head =
            Head::from_json(part("head")?).map_err(|e| D::Error::custom(format!("head: {e}")))?;
        Ok(MotionCommand { body, head })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn commands_read_in_words() {
        let walk = Body::WalkTo {
            target: Pose2::new(1.2, -0.5, std::f64::consts::FRAC_PI_2),
            speed: 0.6,
        };
        assert_eq!(
            walk.to_string(),
            "walk to (1.20, -0.50) facing 90\u{b0} at 0.60 m/s"
        );
        let kick = Body::Kick {
            foot: Foot::Left,
            target: Point2::new(4.5, 0.0),
        };
        assert_eq!(kick.to_string(), "kick with the left foot to (4.50, 0.00)");
        assert_eq!(Body::StandUp.to_string(), "stand up");
        assert_eq!(
            Head::LookAt(Point2::new(4.5, 0.0)).to_string(),
            "look at (4.50, 0.00)"
        );
        assert_eq!(Head::Search.to_string(), "search for the ball");
    }

    #[test]
    fn commands_read_back_as_written() {
        let commands = [
            MotionCommand {
                body: Body::WalkTo {
                    target: Pose2::new(1.0, -2.0, 0.5),
                    speed: 0.4,
                },
                head: Head::LookAt(Point2::new(3.0, 1.0)),
            },
            MotionCommand {
                body: Body::Kick {
                    foot: Foot::Right,
                    target: Point2::new(4.5, 0.0),
                },
                head: Head::Search,
            },
            MotionCommand {
                body: Body::Turn(TurnDirection::Left),
                head: Head::LookAround,
            },
            MotionCommand {
                body: Body::WalkVelocity {
                    vx: 0.1,
                    vy: 0.0,
                    vyaw: -0.2,
                },
                head: Head::LookForward,
            },
            MotionCommand::STAND,
        ];
        for command in commands {
            let text = serde_json::to_string(&command).unwrap_or_default();
            let back: Result<MotionCommand, _> = serde_json::from_str(&text);
            assert_eq!(back.ok(), Some(command), "{text}");
        }
        let bad: Result<MotionCommand, _> = serde_json::from_str(
            r#"{"body":{"kind":"kick","foot":"middle"},"head":{"kind":"search"}}"#,
        );
        assert!(bad.is_err_and(|e| e.to_string().contains("foot")));
    }

    #[test]
    fn defaults_are_stand_and_look_forward() {
        assert_eq!(MotionCommand::assemble(None, None), MotionCommand::STAND);
        let m = MotionCommand::assemble(None, Some(Head::Search));
        assert_eq!(m.body, Body::Stand);
        assert_eq!(m.head, Head::Search);
    }

    #[test]
    fn bodies_serialise_as_the_contract_says() {
        let walk = Body::WalkTo {
            target: Pose2::new(1.0, -2.0, 0.5),
            speed: 0.4,
        };
        assert_eq!(
            serde_json::to_string(&walk).ok().as_deref(),
            Some(r#"{"kind":"walk_to","x":1.0,"y":-2.0,"yaw":0.5,"speed":0.4}"#)
        );
        let kick = Body::Kick {
            foot: Foot::Left,
            target: Point2::new(4.5, 0.0),
        };
        assert_eq!(
            serde_json::to_string(&kick).ok().as_deref(),
            Some(r#"{"kind":"kick","foot":"left","target":[4.5,0.0]}"#)
        );
        assert_eq!(
            serde_json::to_string(&Body::Turn(TurnDirection::Right))
                .ok()
                .as_deref(),
            Some(r#"{"kind":"turn","direction":"right"}"#)
        );
        let injected = Body::Injected(serde_json::json!({"kind": "stand", "note": 1}));
        assert_eq!(
            serde_json::to_string(&injected).ok().as_deref(),
            Some(r#"{"kind":"stand","note":1}"#)
        );
        assert_eq!(
            serde_json::to_string(&Head::LookAt(Point2::new(1.0, 2.0)))
                .ok()
                .as_deref(),
            Some(r#"{"kind":"look_at","x":1.0,"y":2.0}"#)
        );
    }

    #[test]
    fn commanded_head_yaw_follows_the_head_motion() {
        let pose = Pose2::<Field>::new(0.0, 0.0, 0.0);
        let forward = MotionCommand::assemble(None, None);
        assert_eq!(forward.commanded_head_yaw(Some(&pose), 0.7, 2.0), 0.0);
        let left = MotionCommand::assemble(None, Some(Head::LookAt(Point2::new(0.0, 1.0))));
        assert!(
            (left.commanded_head_yaw(Some(&pose), 0.0, 2.0) - std::f64::consts::FRAC_PI_2).abs()
                < 1e-12
        );
        let behind = MotionCommand::assemble(None, Some(Head::LookAt(Point2::new(-1.0, 0.01))));
        assert_eq!(behind.commanded_head_yaw(Some(&pose), 0.0, 2.0), 2.0);
        let around = MotionCommand::assemble(None, Some(Head::LookAround));
        assert_eq!(around.commanded_head_yaw(Some(&pose), 0.7, 2.0), 0.7);
    }
}
