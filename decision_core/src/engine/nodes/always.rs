//! `AlwaysSuccess` and `AlwaysFailure` (BT.CPP 4): leaves that return their result at once.

use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::{Children, NodeModel, Registry, Status};

/// Registers `AlwaysSuccess` and `AlwaysFailure`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "AlwaysSuccess",
        NodeModel::new(Children::None, Vec::new()),
        |_| Ok(Box::new(Always(Status::Success))),
    );
    registry.register(
        "AlwaysFailure",
        NodeModel::new(Children::None, Vec::new()),
        |_| Ok(Box::new(Always(Status::Failure))),
    );
}

/// A leaf with a fixed result.
#[derive(Debug)]
pub struct Always(Status);

impl<C> Behavior<C> for Always {
    fn tick(&mut self, _cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        Ok(self.0)
    }
}
