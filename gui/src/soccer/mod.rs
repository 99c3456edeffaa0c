//! The soccer view (`decision-viewer --soccer-sim`): a five-a-side match drawn from a plain
//! [`scene::SoccerScene`]. [`sim`] is the adapter that fills it from the in-process
//! simulation; [`field_view`] draws the field and [`view::SoccerApp`] is the window.

pub mod field_view;
pub mod scene;
pub mod sim;
pub mod view;
