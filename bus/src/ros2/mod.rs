//! ROS 2 wire format for the RoboMaster profile: the `global_interface` messages and the
//! standard messages they use, field for field as the original package declares them (CDR has
//! no field names: order and types are the contract), CDR encoding with its encapsulation
//! header, and conversions to and from the runtime's own messages.
//!
//! The `.msg` files of the same package are in the repository's `ros2/global_interface/`, so
//! a ROS 2 workspace builds the identical types. With the cargo feature `ros2` the bus speaks
//! this over rmw_zenoh ([`crate::Bus::ros2`]): a ROS 2 node without a bridge.
//!
//! Main items: [`msg`] (the types), [`cdr::encode`] / [`cdr::decode`], the conversions in
//! [`convert`] (`From` to the ROS types, `TryFrom` back with an error naming the field), the
//! soccer behaviour's messages of our package `soccer_decision_msgs` ([`soccer_inputs`],
//! [`soccer_msg`]), which ROS topic each runtime topic travels as ([`routes`]), and the TF
//! lookup of the pose ([`tf`]).

pub mod cdr;
pub mod convert;
pub mod msg;
#[cfg(feature = "ros2")]
mod nav;
#[cfg(feature = "ros2")]
pub(crate) mod rmw;
pub mod router;
pub mod routes;
pub mod soccer_inputs;
pub mod soccer_msg;
pub mod tf;
pub mod type_hash;
