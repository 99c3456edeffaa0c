//! The soccer view (`decision-viewer --soccer-sim`, `--soccer-connect`, `--soccer-open`): a
//! five-a-side match drawn from a plain [`scene::SoccerScene`]. [`sim`] fills it from the
//! in-process simulation, [`feed`] from published messages (for [`live`], the bus, and
//! [`replay`], a recording); [`field_view`] draws the field and [`view::SoccerApp`] is the
//! window.

pub mod blackboard;
pub mod feed;
pub mod field_view;
pub mod live;
pub mod replay;
pub mod scene;
pub mod sim;
pub mod view;
