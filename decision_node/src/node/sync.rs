//! The approximate-time synchroniser of the four main inputs (`obj_hp`, `car_pos`,
//! `game_info`, `serial_msg`).
//!
//! Policy (documented for users): the newest message of each topic is kept. A set is emitted
//! as soon as every topic has delivered at least one message since the previous set; it holds
//! the newest message of each topic. Its stamp is the oldest of the four header stamps, and its
//! spread (newest - oldest stamp) must not exceed the slop, else the set is dropped as
//! unsynchronised (counted). The node ticks once per emitted set, so it runs at the rate of
//! the slowest of the four topics; each message is used in at most one tick.

/// A value with the header stamp it came with.
#[derive(Debug, Clone)]
pub struct Stamped<T> {
    /// The newest message of its topic, as given to `put_*`.
    pub value: T,
    /// Its header stamp in seconds.
    pub stamp: f64,
    /// Whether it arrived after the last emitted set.
    fresh: bool,
}

/// Which topic of the set a message belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// `obj_hp`.
    ObjHp = 0,
    /// `car_pos`.
    CarPos = 1,
    /// `game_info`.
    GameInfo = 2,
    /// `serial_msg`.
    Serial = 3,
}

/// Joins the four topics into sets.
#[derive(Debug)]
pub struct Synchroniser<A, B, C, D> {
    /// Largest allowed spread of header stamps within a set, in seconds.
    pub slop: f64,
    obj_hp: Option<Stamped<A>>,
    car_pos: Option<Stamped<B>>,
    game_info: Option<Stamped<C>>,
    serial: Option<Stamped<D>>,
    /// Sets dropped because their stamps were further apart than the slop.
    pub unsynchronised: u64,
}

/// One joined set.
#[derive(Debug, Clone, Copy)]
pub struct Set<'a, A, B, C, D> {
    /// `obj_hp`.
    pub obj_hp: &'a A,
    /// `car_pos`.
    pub car_pos: &'a B,
    /// `game_info`.
    pub game_info: &'a C,
    /// `serial_msg`.
    pub serial: &'a D,
    /// The oldest stamp of the four.
    pub stamp: f64,
}

impl<A, B, C, D> Synchroniser<A, B, C, D> {
    /// An empty synchroniser with the given slop (seconds).
    pub fn new(slop: f64) -> Self {
        Self {
            slop,
            obj_hp: None,
            car_pos: None,
            game_info: None,
            serial: None,
            unsynchronised: 0,
        }
    }

    /// Stores `obj_hp`.
    pub fn put_obj_hp(&mut self, value: A, stamp: f64) {
        self.obj_hp = Some(Stamped {
            value,
            stamp,
            fresh: true,
        });
    }

    /// Stores `car_pos`.
    pub fn put_car_pos(&mut self, value: B, stamp: f64) {
        self.car_pos = Some(Stamped {
            value,
            stamp,
            fresh: true,
        });
    }

    /// Stores `game_info`.
    pub fn put_game_info(&mut self, value: C, stamp: f64) {
        self.game_info = Some(Stamped {
            value,
            stamp,
            fresh: true,
        });
    }

    /// Stores `serial_msg`.
    pub fn put_serial(&mut self, value: D, stamp: f64) {
        self.serial = Some(Stamped {
            value,
            stamp,
            fresh: true,
        });
    }

    /// The joined set, if one is complete now; marks its messages as used.
    pub fn take_set(&mut self) -> Option<Set<'_, A, B, C, D>> {
        let all_fresh = [
            self.obj_hp.as_ref().map(|s| s.fresh),
            self.car_pos.as_ref().map(|s| s.fresh),
            self.game_info.as_ref().map(|s| s.fresh),
            self.serial.as_ref().map(|s| s.fresh),
        ]
        .iter()
        .all(|f| *f == Some(true));
        if !all_fresh {
            return None;
        }
        let (a, b, c, d) = (
            self.obj_hp.as_mut()?,
            self.car_pos.as_mut()?,
            self.game_info.as_mut()?,
            self.serial.as_mut()?,
        );
        for fresh in [&mut a.fresh, &mut b.fresh, &mut c.fresh, &mut d.fresh] {
            *fresh = false;
        }
        let stamps = [a.stamp, b.stamp, c.stamp, d.stamp];
        let oldest = stamps.iter().copied().fold(f64::INFINITY, f64::min);
        let newest = stamps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if newest - oldest > self.slop {
            self.unsynchronised += 1;
            return None;
        }
        Some(Set {
            obj_hp: &a.value,
            car_pos: &b.value,
            game_info: &c.value,
            serial: &d.value,
            stamp: oldest,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_needs_a_fresh_message_of_every_topic() {
        let mut s: Synchroniser<u8, u8, u8, u8> = Synchroniser::new(0.1);
        s.put_obj_hp(1, 10.0);
        s.put_car_pos(2, 10.0);
        s.put_game_info(3, 10.0);
        assert!(s.take_set().is_none());
        s.put_serial(4, 10.05);
        let set = s.take_set().unwrap();
        assert_eq!((*set.obj_hp, *set.serial, set.stamp), (1, 4, 10.0));
        // nothing new: no second set from the same messages
        assert!(s.take_set().is_none());
        // newest of each is used
        s.put_obj_hp(5, 10.1);
        s.put_obj_hp(6, 10.2);
        s.put_car_pos(7, 10.2);
        s.put_game_info(8, 10.2);
        s.put_serial(9, 10.2);
        let set = s.take_set().unwrap();
        assert_eq!(*set.obj_hp, 6);
    }

    #[test]
    fn sets_wider_than_the_slop_are_dropped() {
        let mut s: Synchroniser<u8, u8, u8, u8> = Synchroniser::new(0.1);
        s.put_obj_hp(1, 10.0);
        s.put_car_pos(2, 10.0);
        s.put_game_info(3, 10.0);
        s.put_serial(4, 10.5);
        assert!(s.take_set().is_none());
        assert_eq!(s.unsynchronised, 1);
    }
}
