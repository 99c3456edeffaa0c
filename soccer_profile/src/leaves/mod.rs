//! The soccer leaf vocabulary, by behaviour area. Predicates are questions
//! (`is_closest_to_ball`), actions are verbs (`walk_to_target`); a leaf's registry id is its
//! trace label, so the tree file, the trace and the viewer use the same names.
//!
//! Actions choose body or head motions into [`TickChoices`](crate::context::TickChoices);
//! positioning leaves compute a target that the next walking leaf walks to.

pub mod conditions;
pub mod head;
pub mod kicking;
pub mod positioning;
pub mod roles;
pub mod team;
pub mod walking;

use crate::context::SoccerContext;
use decision_core::engine::{Action, Condition, LeafParams, Registry, Status};

/// Registers every soccer leaf (next to the standard library, which the caller adds).
pub fn register(registry: &mut Registry<SoccerContext>) {
    conditions::register(registry);
    head::register(registry);
    kicking::register(registry);
    positioning::register(registry);
    roles::register(registry);
    team::register(registry);
    walking::register(registry);
}

/// A parameterless predicate with its explanation.
pub(crate) struct Question {
    check: fn(&SoccerContext) -> bool,
    explain: fn(&SoccerContext, &mut String),
}

impl Condition<SoccerContext> for Question {
    fn check(&mut self, ctx: &SoccerContext, _now: f64) -> bool {
        (self.check)(ctx)
    }

    fn explain(&self, ctx: &SoccerContext, _now: f64) -> String {
        let mut out = String::new();
        (self.explain)(ctx, &mut out);
        out
    }

    fn explain_into(&self, ctx: &SoccerContext, _now: f64, out: &mut String) {
        (self.explain)(ctx, out);
    }
}

/// Registers a parameterless predicate.
pub(crate) fn question(
    registry: &mut Registry<SoccerContext>,
    id: &'static str,
    check: fn(&SoccerContext) -> bool,
    explain: fn(&SoccerContext, &mut String),
) {
    registry.condition(id, Vec::new(), move |_: &LeafParams| {
        Ok(Box::new(Question { check, explain }) as Box<dyn Condition<SoccerContext>>)
    });
}

/// The action behind [`deed`]: calls its function every tick and returns its status.
pub(crate) struct Deed(fn(&mut SoccerContext) -> Status);

impl Action<SoccerContext> for Deed {
    fn tick(&mut self, ctx: &mut SoccerContext, _now: f64) -> Status {
        (self.0)(ctx)
    }
}

/// Registers a parameterless action.
pub(crate) fn deed(
    registry: &mut Registry<SoccerContext>,
    id: &'static str,
    act: fn(&mut SoccerContext) -> Status,
) {
    registry.action(id, Vec::new(), move |_: &LeafParams| {
        Ok(Box::new(Deed(act)) as Box<dyn Action<SoccerContext>>)
    });
}

/// Success when `ok`, else failure.
pub(crate) fn status(ok: bool) -> Status {
    if ok { Status::Success } else { Status::Failure }
}

/// Test helpers: a context with a frame applied.
#[cfg(test)]
pub(crate) mod test_support {
    use crate::context::SoccerContext;
    use crate::frame::Frame;
    use crate::params::Parameters;
    use std::sync::Arc;

    /// A context after `frame` with default parameters.
    pub fn context(frame: &Frame) -> SoccerContext {
        with_params(frame, Parameters::default())
    }

    /// A context after `frame` with `params`.
    pub fn with_params(frame: &Frame, params: Parameters) -> SoccerContext {
        let mut ctx = SoccerContext::new(Arc::new(params));
        let params = ctx.params.clone();
        ctx.world.update(frame, &params);
        ctx
    }

    /// Compiles a one-leaf tree of `id` with `ports` (the error text on failure).
    pub fn compile_leaf(
        id: &str,
        ports: serde_json::Value,
        _ctx: &mut SoccerContext,
    ) -> Result<decision_core::engine::Tree<SoccerContext>, String> {
        let mut registry = decision_core::engine::Registry::new();
        decision_core::engine::nodes::register_standard(&mut registry);
        super::register(&mut registry);
        let mut spec = decision_core::engine::TreeSpec::new(id);
        if let serde_json::Value::Object(map) = ports {
            spec.ports = map;
        }
        decision_core::engine::compile(&spec, &registry).map_err(|errors| {
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })
    }

    /// Ticks a one-leaf tree of `id` with `ports` once (panics when it does not compile).
    pub fn tick_leaf(
        id: &str,
        ports: serde_json::Value,
        ctx: &mut SoccerContext,
    ) -> decision_core::engine::Status {
        let mut tree = match compile_leaf(id, ports, ctx) {
            Ok(t) => t,
            Err(e) => panic!("{id}: {e}"),
        };
        let now = ctx.world.now;
        tree.tick(ctx, now)
    }

    /// A frame from JSON (panics on a bad literal: test data only).
    pub fn frame(json: &str) -> Frame {
        match Frame::parse(json) {
            Ok(f) => f,
            Err(e) => panic!("bad test frame {json}: {e}"),
        }
    }
}
