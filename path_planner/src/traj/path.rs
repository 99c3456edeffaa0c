//! Paths made of one trajectory, or of a sub-trajectory followed by a tail after a switch time.

use super::{BangBang2D, Trajectory};
use crate::aabb::Aabb;
use geometry::Vec2;

/// A planned path: `first` on [0, t_switch], then `second` shifted by `t_switch`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrajPath {
    first: BangBang2D,
    t_switch: f64,
    second: Option<BangBang2D>,
    sub_dest: Option<Vec2>,
}

impl TrajPath {
    /// A single-part path.
    pub fn single(traj: BangBang2D) -> Self {
        Self {
            first: traj,
            t_switch: f64::INFINITY,
            second: None,
            sub_dest: None,
        }
    }

    /// A two-part path via `sub_dest`: `first` until `t_switch`, then `second`.
    pub fn switched(first: BangBang2D, sub_dest: Vec2, t_switch: f64, second: BangBang2D) -> Self {
        Self {
            first,
            t_switch,
            second: Some(second),
            sub_dest: Some(sub_dest),
        }
    }

    /// The trajectory on [0, t_switch]: the whole path when it is single.
    pub fn first(&self) -> &BangBang2D {
        &self.first
    }

    /// The second part, if the path is switched.
    pub fn second(&self) -> Option<&BangBang2D> {
        self.second.as_ref()
    }

    /// Switch time (infinite for single-part paths).
    pub fn switch_time(&self) -> f64 {
        self.t_switch
    }

    /// The intermediate destination, if any.
    pub fn sub_destination(&self) -> Option<Vec2> {
        self.sub_dest
    }

    /// Target of the current part: the intermediate destination, else the final position.
    pub fn next_destination(&self) -> Vec2 {
        self.sub_dest.unwrap_or_else(|| self.final_position())
    }

    /// Final rest position.
    pub fn final_position(&self) -> Vec2 {
        match &self.second {
            Some(s) => s.final_position(),
            None => self.first.final_position(),
        }
    }

    /// Position and velocity at `t` in one lookup.
    #[inline]
    pub fn pos_vel(&self, t: f64) -> (Vec2, Vec2) {
        match &self.second {
            Some(s) if t > self.t_switch => s.pos_vel(t - self.t_switch),
            _ => self.first.pos_vel(t),
        }
    }

    /// The box of the positions on `[t_from, t_to]` (`t_from ≤ t_to`, within rounding).
    pub fn bounds(&self, t_from: f64, t_to: f64) -> Aabb {
        match &self.second {
            Some(s) if t_to > self.t_switch => {
                let tail = s.bounds((t_from - self.t_switch).max(0.0), t_to - self.t_switch);
                if t_from > self.t_switch {
                    tail
                } else {
                    tail.union(self.first.bounds(t_from, self.t_switch))
                }
            }
            _ => self.first.bounds(t_from, t_to),
        }
    }

    /// Upper bound on the speed over the path (exact per part; conservative for the prefix).
    pub fn max_speed(&self) -> f64 {
        match &self.second {
            Some(s) => self.first.max_speed().max(s.max_speed()),
            None => self.first.max_speed(),
        }
    }
}

impl Trajectory for TrajPath {
    type Value = Vec2;
    /// The position of [`pos_vel`](TrajPath::pos_vel), bit for bit, without the velocity.
    #[inline(always)]
    fn position(&self, t: f64) -> Vec2 {
        match &self.second {
            Some(s) if t > self.t_switch => s.position(t - self.t_switch),
            _ => self.first.position(t),
        }
    }
    fn velocity(&self, t: f64) -> Vec2 {
        self.pos_vel(t).1
    }
    fn acceleration(&self, t: f64) -> Vec2 {
        match &self.second {
            Some(s) if t > self.t_switch => s.acceleration(t - self.t_switch),
            _ => self.first.acceleration(t),
        }
    }
    fn total_time(&self) -> f64 {
        match &self.second {
            Some(s) => self.t_switch + s.total_time(),
            None => self.first.total_time(),
        }
    }
}
