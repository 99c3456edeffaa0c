//! Head actions: look forward, look around, look at the ball, search.

use super::{deed, status};
use crate::context::SoccerContext;
use crate::motion::Head;
use decision_core::engine::{Registry, Status};

/// Registers the head actions.
pub fn register(registry: &mut Registry<SoccerContext>) {
    deed(registry, "look_forward", |c| choose(c, Head::LookForward));
    deed(registry, "look_around", |c| choose(c, Head::LookAround));
    deed(registry, "search_with_head", |c| choose(c, Head::Search));
    deed(registry, "look_at_ball", look_at_ball);
}

fn choose(c: &mut SoccerContext, head: Head) -> Status {
    c.out.head = Some(head);
    Status::Success
}

/// Looks at the retained ball; fails without one.
fn look_at_ball(c: &mut SoccerContext) -> Status {
    if let Some(ball) = c.world.ball {
        c.out.head = Some(Head::LookAt(ball.position));
    }
    status(c.world.ball.is_some())
}

#[cfg(test)]
mod tests {
    use crate::leaves::test_support::{context, frame, tick_leaf};
    use crate::motion::Head;
    use decision_core::engine::Status;
    use geometry::Point2;
    use serde_json::json;

    #[test]
    fn look_at_ball_needs_a_ball_and_others_always_choose() {
        let mut ctx = context(&frame("{}"));
        assert_eq!(
            tick_leaf("look_at_ball", json!({}), &mut ctx),
            Status::Failure
        );
        assert_eq!(ctx.out.head, None);
        assert_eq!(
            tick_leaf("search_with_head", json!({}), &mut ctx),
            Status::Success
        );
        assert_eq!(ctx.out.head, Some(Head::Search));
        let mut ctx = context(&frame(r#"{"ball": {"x": 1, "y": 2}}"#));
        assert_eq!(
            tick_leaf("look_at_ball", json!({}), &mut ctx),
            Status::Success
        );
        assert_eq!(ctx.out.head, Some(Head::LookAt(Point2::new(1.0, 2.0))));
        assert_eq!(
            tick_leaf("look_around", json!({}), &mut ctx),
            Status::Success
        );
        assert_eq!(ctx.out.head, Some(Head::LookAround));
    }
}
