//! Team communication questions (the State messages themselves are sent after the tick by
//! [`crate::messages`]).

use super::question;
use crate::context::SoccerContext;
use decision_core::engine::Registry;
use std::fmt::Write;

/// Registers the team questions.
pub fn register(registry: &mut Registry<SoccerContext>) {
    question(
        registry,
        "is_last_active_robot",
        |c| c.world.is_last_active_robot(),
        |c, o| {
            let heard: Vec<u8> = c.world.teammates.iter().map(|m| m.player).collect();
            let _ = write!(o, "teammates heard within the maximum age: {heard:?}");
        },
    );
}

#[cfg(test)]
mod tests {
    use crate::leaves::test_support::{context, frame, tick_leaf};
    use decision_core::engine::Status;
    use serde_json::json;

    #[test]
    fn a_robot_nobody_heard_from_is_the_last_active_robot() {
        let mut ctx = context(&frame("{}"));
        assert_eq!(
            tick_leaf("is_last_active_robot", json!({}), &mut ctx),
            Status::Success
        );
        let mut ctx = context(&frame(r#"{"teammate_messages": [{"player": 2}]}"#));
        assert_eq!(
            tick_leaf("is_last_active_robot", json!({}), &mut ctx),
            Status::Failure
        );
    }
}
