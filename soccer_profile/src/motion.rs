//! Body and head motions, chosen independently by the tree's actions and assembled into one
//! motion command after each tick (defaults: stand, look forward). The types are the soccer
//! messages' (`soccer_msgs::motion`): the motion command topic carries them as they are.

pub use soccer_msgs::motion::{Body, Head, MotionCommand, TurnDirection};
