//! What the simulation shows: each robot's [`RobotState`] and the [`Frame`] of messages it
//! publishes.

use crate::scenario::Side;
use bus::messages::{
    Autoaim, CarPos, GameInfo, GoalStatusArray, NavFeedback, ObjHp, PoseMsg, Serial, Stamp,
};
use serde::Serialize;

/// One robot as the viewer draws it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobotState {
    /// `R1` .. `R7`, `B1` .. `B7`.
    pub name: &'static str,
    /// `car_pos` index 0..11.
    pub index: usize,
    /// Its team.
    pub side: Side,
    /// x in metres (meaningless when off the field).
    pub x: f64,
    /// y in metres (meaningless when off the field).
    pub y: f64,
    /// Heading in radians from +x toward +y, in [0, 2 pi).
    pub heading: f64,
    /// HP as published.
    pub hp: u16,
    /// HP > 0 (a dead robot stays where it is).
    pub alive: bool,
    /// Whether it is on the field (off-field robots publish position 0, 0 = unknown).
    pub on_field: bool,
    /// Whether this is our robot.
    pub is_self: bool,
}

/// The messages to publish at one moment, all stamped with the simulated time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frame {
    /// `obj_hp`.
    pub obj_hp: ObjHp,
    /// `car_pos`.
    pub car_pos: CarPos,
    /// `game_info`.
    pub game_info: GameInfo,
    /// `serial_msg`.
    pub serial: Serial,
    /// `pose` (our robot).
    pub pose: PoseMsg,
    /// `navigate_through_poses/_action/status`.
    pub nav_status: GoalStatusArray,
    /// `navigate_through_poses/_action/feedback`, while a goal is executing.
    pub nav_feedback: Option<NavFeedback>,
    /// `armor_detector/armor_msg`, while our robot is alive.
    pub autoaim: Option<Autoaim>,
}

impl Frame {
    /// Sets every header's stamp to `t` seconds. The simulation stamps frames with simulated
    /// time; a live node measures message age against its own (wall) clock, so the binary
    /// restamps with the wall clock before publishing.
    pub fn restamp(&mut self, t: f64) {
        let stamp = Stamp::from_secs_f64(t);
        self.obj_hp.header.stamp = stamp;
        self.car_pos.header.stamp = stamp;
        self.game_info.header.stamp = stamp;
        self.serial.header.stamp = stamp;
        self.pose.header.stamp = stamp;
        self.nav_status.header.stamp = stamp;
        if let Some(feedback) = &mut self.nav_feedback {
            feedback.header.stamp = stamp;
        }
        if let Some(autoaim) = &mut self.autoaim {
            autoaim.header.stamp = stamp;
        }
    }

    /// Publishes every message on its topic ([`bus::topics`]).
    pub fn publish(&self, bus: &bus::Bus) -> Result<(), bus::BusError> {
        use bus::topics;
        bus.publish(topics::OBJ_HP, &self.obj_hp)?;
        bus.publish(topics::CAR_POS, &self.car_pos)?;
        bus.publish(topics::GAME_INFO, &self.game_info)?;
        bus.publish(topics::SERIAL_MSG, &self.serial)?;
        bus.publish(topics::POSE, &self.pose)?;
        bus.publish(topics::NAV_STATUS, &self.nav_status)?;
        if let Some(feedback) = &self.nav_feedback {
            bus.publish(topics::NAV_FEEDBACK, feedback)?;
        }
        if let Some(autoaim) = &self.autoaim {
            bus.publish(topics::AUTOAIM, autoaim)?;
        }
        Ok(())
    }
}
