//! One waypoint of the field and the single-precision distance the original uses.

/// A named point of the field a robot can be sent to, with its outgoing `connect` list.
///
/// Coordinates are metres in the map frame (origin top-left of the map image, y growing
/// downwards in the image); `angle` is the heading in radians used when no aim target exists.
#[derive(Debug, Clone, PartialEq)]
pub struct Waypoint {
    /// Unique id, referenced by decisions and by other waypoints' `connect`.
    pub id: i32,
    /// Human-readable name from the waypoint file.
    pub name: String,
    /// X coordinate in metres.
    pub x: f32,
    /// Y coordinate in metres.
    pub y: f32,
    /// Heading at this waypoint in radians.
    pub angle: f32,
    /// Ids this waypoint has a directed edge to, in file order (the DFS order).
    pub connect: Vec<i32>,
}

impl Waypoint {
    /// Builds a waypoint with an empty name and zero angle, handy for tests and generated maps.
    pub fn at(id: i32, x: f32, y: f32, connect: Vec<i32>) -> Self {
        Self {
            id,
            name: String::new(),
            x,
            y,
            angle: 0.0,
            connect,
        }
    }

    /// Distance from this waypoint to `(x, y)`, in single precision as the original computes it.
    pub fn distance_to(&self, x: f32, y: f32) -> f32 {
        distance_f32(self.x, self.y, x, y)
    }
}

/// Euclidean distance computed entirely in `f32` (`dx*dx + dy*dy`, then `sqrt`), no fused ops,
/// so threshold comparisons match the original bit for bit.
pub fn distance_f32(ax: f32, ay: f32, bx: f32, by: f32) -> f32 {
    let dx = ax - bx;
    let dy = ay - by;
    (dx * dx + dy * dy).sqrt()
}
