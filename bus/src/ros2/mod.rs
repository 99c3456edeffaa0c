//! ROS 2 wire format for the RoboMaster profile: the `global_interface` messages and the
//! standard messages they use, field for field as the original package declares them (CDR has
//! no field names: order and types are the contract), CDR encoding with its encapsulation
//! header, and conversions to and from the runtime's own messages.
//!
//! The `.msg` files of the same package are in the repository's `ros2/global_interface/`, so
//! a ROS 2 workspace builds the identical types. This module is the first part of the ROS 2
//! transport: what goes over the wire; the rmw_zenoh session and the Nav2 action come on top.
//!
//! Main items: [`msg`] (the types), [`cdr::encode`] / [`cdr::decode`], and the conversions in
//! [`convert`] (`From` to the ROS types, `TryFrom` back with an error naming the field).

pub mod cdr;
pub mod convert;
pub mod msg;
