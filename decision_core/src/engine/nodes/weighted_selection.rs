//! `weighted_selection` over `weighted_rule` children: the heaviest rule whose guard holds
//! wins; a running rule is kept unless a strictly heavier rule's guard holds.
//!
//! **Children.** Every child is a `weighted_rule` with a finite `weight` port and exactly two
//! children, its *guard* and its *body*. The guard is ticked to a result each tick (it must
//! not run: `Running` counts as not holding and halts it). Zero rules are allowed (the node
//! then always fails), since a rule file may declare no rules.
//!
//! **Tick.**
//!
//! 1. Every rule's guard is ticked in declaration order; a rule whose guard fails gets a
//!    `Failure` entry in the trace (its body is not ticked for it).
//! 2. `best` = the first rule of maximal weight among those whose guard held and whose weight
//!    is `> 0`. A weight `<= 0` is never chosen; ties go to declaration order.
//! 3. With no `best` the result is `Failure` at once: a rule `r` running from the previous
//!    tick is *suspended*, neither ticked nor halted, and stays the running rule (a tick with
//!    no candidate changes no commitment; the RoboMaster rules need exactly this).
//! 4. If a rule `r` was running from the previous tick:
//!    * if `weight(best) > weight(r)` strictly, `r`'s body is halted (`preempted = r`) and
//!      the tick goes on with 5;
//!    * otherwise `r`'s body is ticked **without requiring its guard** (commitment):
//!      `Running` -> the result is `Running` (`chosen = r`, `kept_running`);
//!      `Success`/`Failure` -> `r` is no longer running and the tick goes on with 5.
//! 5. `best`'s body is ticked from its start; if it returns `Running` it becomes the running
//!    rule; the result is its status (`chosen = best`).
//!
//! | situation                                               | result                      |
//! |---------------------------------------------------------|-----------------------------|
//! | no guard holds with weight > 0                          | `Failure`, `r` suspended    |
//! | nothing running, `best`'s body returns `s`              | `s`                         |
//! | `r` running, `best` strictly heavier                    | halt `r`, then as step 5    |
//! | `r` running, not preempted, `r`'s body `Running`        | `Running`                   |
//! | `r` running, not preempted, `r`'s body completes        | as step 5 (`r` may be best) |
//!
//! Each tick keeps one [`WeightedOutcome`] (`best`, `chosen`, `preempted`, `kept_running`;
//! indices are rule positions), read with [`WeightedSelection::outcome`]. A rule can have two trace entries in one
//! tick: the committed `r` whose guard failed (its `Failure` from step 1, then its body's
//! status), or an `r` that completed in step 4 and is `best` again in step 5;
//! [`TickTrace::status_of`](crate::engine::TickTrace::status_of) reports the last. Halting
//! the node halts the running rule's body.

use crate::engine::blackboard::EntryType;
use crate::engine::node::{Behavior, Cx, Fault};
use crate::engine::trace::NodeId;
use crate::engine::{Children, NodeBuilder, NodeModel, PortDecl, Registry, Status, TreeSpec};
use serde::{Deserialize, Serialize};

/// Registers `weighted_selection` and `weighted_rule`.
pub fn register<C: 'static>(registry: &mut Registry<C>) {
    registry.register(
        "weighted_selection",
        NodeModel::new(Children::AtLeast(0), Vec::new()),
        |b| Ok(Box::new(WeightedSelection::build(b)?)),
    );
    let rule_ports = vec![
        PortDecl::input(
            "weight",
            EntryType::Double,
            "the rule's weight: the heaviest rule whose guard holds is chosen",
        ),
        PortDecl::input_or("id", EntryType::Any, "", "the decision's id, for people"),
        PortDecl::input_or(
            "decision_name",
            EntryType::Any,
            "",
            "the decision's name, for people",
        ),
    ];
    registry.register(
        RULE,
        NodeModel::new(Children::Exactly(2), rule_ports),
        |_| Ok(Box::new(WeightedRule)),
    );
}

/// What a `weighted_selection` decided in its last tick (indices are rule positions); read it
/// with [`Tree::behavior`](crate::engine::Tree::behavior) and [`WeightedSelection::outcome`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WeightedOutcome {
    /// The `weighted_selection` node.
    pub node: NodeId,
    /// The heaviest rule (weight > 0, first in declaration order on ties) whose guard held.
    pub best: Option<usize>,
    /// The rule whose body decided the result, if any.
    pub chosen: Option<usize>,
    /// The running rule halted because `best` was strictly heavier.
    pub preempted: Option<usize>,
    /// The running rule kept running this tick (commitment: its guard was not required).
    pub kept_running: bool,
}

/// Type id of a rule under `weighted_selection`.
pub const RULE: &str = "weighted_rule";

/// The rules (weights and places), the running rule and the last tick's outcome.
#[derive(Debug)]
pub struct WeightedSelection {
    rules: Vec<Rule>,
    running: Option<usize>,
    last: Option<WeightedOutcome>,
}

impl WeightedSelection {
    /// What the last tick decided (`None` before the first tick).
    pub fn outcome(&self) -> Option<WeightedOutcome> {
        self.last
    }

    /// The node of `b`, whose children must be `weighted_rule`s of finite weights.
    pub fn build(b: &NodeBuilder<'_>) -> Result<Self, String> {
        let mut rules = Vec::with_capacity(b.child_count());
        let mut at = 0u32;
        for (i, child) in b.children().iter().enumerate() {
            if child.kind != RULE {
                return Err(format!(
                    "child {i} is a `{}`: every child of a weighted_selection is a `{RULE}`",
                    child.kind
                ));
            }
            let weight = crate::engine::LeafParams::new(&child.ports)
                .f64("weight")
                .map_err(|e| format!("child {i}: {e}"))?;
            if !weight.is_finite() {
                return Err(format!("child {i}: `weight` must be a finite number"));
            }
            rules.push(Rule::at(weight, at, child));
            at = at.saturating_add(node_count(child));
        }
        Ok(WeightedSelection {
            rules,
            running: None,
            last: None,
        })
    }

    /// The weight of rule `i`.
    pub fn weight(&self, i: usize) -> Option<f64> {
        self.rules.get(i).map(|rule| rule.weight)
    }

    /// The running rule (its body returned `Running` and was not halted since).
    pub fn running(&self) -> Option<usize> {
        self.running
    }

    /// `best` with rule `i` of weight `w`, whose guard holds, looked at: the first rule of
    /// maximal weight `> 0` (step 2).
    #[inline(always)]
    fn better(best: Option<(usize, f64)>, i: usize, w: f64) -> Option<(usize, f64)> {
        if w > 0.0 && best.is_none_or(|(_, bw)| w > bw) {
            Some((i, w))
        } else {
            best
        }
    }

    /// Records in the trace (and the node's state) that rule `i`'s guard failed, for a node
    /// that checked the guard itself.
    #[inline]
    pub(crate) fn settle_failed_rule<C>(&self, cx: &mut Cx<'_, C>, i: usize) {
        if let Some(rule) = self.rules.get(i) {
            cx.settle_at(rule.rule, Status::Failure);
        }
    }
}

const GUARD: usize = 0;
const BODY: usize = 1;

/// One rule: its weight and where its nodes sit after the `weighted_selection` in preorder
/// (offsets from its first child, known from the children's specs since node ids are
/// preorder positions), so a tick reaches a guard or a body without looking up child lists.
#[derive(Debug, Clone, Copy)]
struct Rule {
    weight: f64,
    /// The `weighted_rule` node.
    rule: u32,
    /// Its guard (the rule's first child).
    guard: u32,
    /// Its body (the rule's second child).
    body: u32,
}

impl Rule {
    /// The rule of `weight` whose spec is `spec`, at offset `rule`.
    fn at(weight: f64, rule: u32, spec: &TreeSpec) -> Self {
        let guard = rule.saturating_add(1);
        let guard_size = spec.children.first().map_or(0, node_count);
        Rule {
            weight,
            rule,
            guard,
            body: guard.saturating_add(guard_size),
        }
    }
}

/// The number of nodes of `spec`'s subtree, as an offset.
fn node_count(spec: &TreeSpec) -> u32 {
    u32::try_from(spec.node_count()).unwrap_or(u32::MAX)
}

impl WeightedSelection {
    /// Whether rule `i`'s guard holds (ticked at its place `guard`); a running guard is halted
    /// and does not hold.
    #[inline(always)]
    fn guard_holds<C>(cx: &mut Cx<'_, C>, i: usize, guard: u32) -> Result<bool, Fault> {
        match cx.tick_at(guard)? {
            Status::Success => Ok(true),
            Status::Running => {
                cx.halt_grandchild(i, GUARD);
                Ok(false)
            }
            Status::Failure | Status::Skipped => Ok(false),
        }
    }

    /// Ticks `rule`'s body and records the rule's result.
    #[inline(always)]
    fn tick_body<C>(cx: &mut Cx<'_, C>, rule: Rule) -> Result<Status, Fault> {
        let status = cx.tick_at(rule.body)?;
        cx.settle_at(rule.rule, status);
        Ok(status)
    }
}

impl WeightedSelection {
    /// Steps 3 to 5 of a tick once the guards are known: `best` is the first rule of maximal
    /// weight `> 0` whose guard held. For kinds that check the rules' guards their own way.
    #[inline(always)]
    pub(crate) fn choose<C>(
        &mut self,
        cx: &mut Cx<'_, C>,
        best: Option<(usize, f64)>,
    ) -> Result<Status, Fault> {
        let mut outcome = WeightedOutcome {
            node: cx.id(),
            best: best.map(|(i, _)| i),
            chosen: None,
            preempted: None,
            kept_running: false,
        };
        // (3): no candidate: the running rule is suspended.
        let Some((b, best_weight)) = best else {
            self.last = Some(outcome);
            return Ok(Status::Failure);
        };
        // (4): the running rule: preempted, kept, or completed.
        if let Some(r) = self.running
            && let Some(&running) = self.rules.get(r)
        {
            if best_weight > running.weight {
                cx.halt_grandchild(r, BODY);
                cx.halt_child(r);
                outcome.preempted = Some(r);
            } else {
                let status = Self::tick_body(cx, running)?;
                if status == Status::Running {
                    outcome.chosen = Some(r);
                    outcome.kept_running = true;
                    self.last = Some(outcome);
                    return Ok(Status::Running);
                }
            }
            self.running = None;
        }
        // (5): the best rule's body from its start.
        let Some(&chosen) = self.rules.get(b) else {
            self.last = Some(outcome);
            return Ok(Status::Failure);
        };
        let status = Self::tick_body(cx, chosen)?;
        self.running = (status == Status::Running).then_some(b);
        outcome.chosen = Some(b);
        self.last = Some(outcome);
        Ok(status)
    }
}

impl<C> Behavior<C> for WeightedSelection {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        // (1) + (2): guards and the best candidate.
        let mut best: Option<(usize, f64)> = None;
        for (i, rule) in self.rules.iter().enumerate() {
            if !Self::guard_holds(cx, i, rule.guard)? {
                cx.settle_at(rule.rule, Status::Failure);
                continue;
            }
            best = Self::better(best, i, rule.weight);
        }
        self.choose(cx, best)
    }

    fn halt(&mut self, cx: &mut Cx<'_, C>) {
        self.running = None;
        cx.halt_children();
    }

    fn can_resume(&self) -> bool {
        true
    }

    fn resume(&mut self, child: Option<usize>) {
        self.running = child;
    }

    fn running_child(&self) -> Option<usize> {
        self.running
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

/// A rule: a container of `{guard, body}` that its `weighted_selection` ticks part by part.
/// Ticked on its own it behaves as "guard, then body".
#[derive(Debug)]
pub struct WeightedRule;

impl<C> Behavior<C> for WeightedRule {
    fn tick(&mut self, cx: &mut Cx<'_, C>) -> Result<Status, Fault> {
        match cx.tick_child(GUARD)? {
            Status::Success => cx.tick_child(BODY),
            Status::Running => {
                cx.halt_child(GUARD);
                Ok(Status::Failure)
            }
            other => Ok(other),
        }
    }

    fn can_resume(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{WeightedOutcome, WeightedSelection};
    use crate::engine::test_support::*;
    use crate::engine::{NodeId, Status, Tree};

    /// A rule `{flag guard, act id}` of weight `w` (3 nodes: rule, guard, body).
    fn rule(guard: &str, id: &str, w: f64) -> serde_json::Value {
        rule_of(cond(guard), act(id), w)
    }

    fn outcome(t: &Tree<Ctx>) -> WeightedOutcome {
        match t
            .behavior::<WeightedSelection>(NodeId(0))
            .and_then(|w| w.outcome())
        {
            Some(o) => o,
            None => panic!("no weighted outcome"),
        }
    }

    #[test]
    fn trace_lists_guards_failed_rules_and_the_chosen_body() {
        // 0 ws, 1 rule(w1), 2 Sequence[3 a, 4 b], 5 act x, 6 rule(w2), 7 flag c, 8 act y
        let mut t = build(node(
            "weighted_selection",
            vec![
                rule_of(node("Sequence", vec![cond("a"), cond("b")]), act("x"), 1.0),
                rule("c", "y", 2.0),
            ],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true).set("c", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (3, Status::Success),
                (4, Status::Failure),
                (2, Status::Failure),
                (1, Status::Failure),
                (7, Status::Success),
                (8, Status::Running),
                (6, Status::Running),
                (0, Status::Running),
            ]
        );
        assert_eq!(
            outcome(&t),
            WeightedOutcome {
                node: NodeId(0),
                best: Some(1),
                chosen: Some(1),
                preempted: None,
                kept_running: false
            }
        );
        assert_eq!(t.running_child(NodeId(0)), Some(1));
    }

    #[test]
    fn guards_and_bodies_are_found_behind_guards_of_any_size() {
        // 0 ws, 1 rule(w1), 2 Sequence[3 Sequence[4 a, 5 b], 6 c], 7 act x,
        // 8 rule(w2), 9 flag d, 10 act y, 11 rule(w0.5), 12 Sequence[13 e], 14 act z
        let nested = node("Sequence", vec![cond("a"), cond("b")]);
        let mut t = build(node(
            "weighted_selection",
            vec![
                rule_of(node("Sequence", vec![nested, cond("c")]), act("x"), 1.0),
                rule("d", "y", 2.0),
                rule_of(node("Sequence", vec![cond("e")]), act("z"), 0.5),
            ],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true)
            .set("b", true)
            .set("c", true)
            .set("e", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (4, Status::Success),
                (5, Status::Success),
                (3, Status::Success),
                (6, Status::Success),
                (2, Status::Success),
                (9, Status::Failure),
                (8, Status::Failure),
                (13, Status::Success),
                (12, Status::Success),
                (7, Status::Running),
                (1, Status::Running),
                (0, Status::Running),
            ]
        );
        assert_eq!((ctx.ticks("x"), ctx.ticks("y"), ctx.ticks("z")), (1, 0, 0));
        // The last rule's body, behind its one-child guard, once it is the only candidate.
        ctx.set("a", false).ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        assert_eq!((ctx.ticks("x"), ctx.ticks("z")), (2, 1));
        assert_eq!(t.trace().status_of(NodeId(11)), Some(Status::Running));
        assert_eq!(t.trace().status_of(NodeId(1)), Some(Status::Success));
    }

    #[test]
    fn running_rule_is_kept_against_equal_weight_and_preempted_by_heavier() {
        let mut t = build(node(
            "weighted_selection",
            vec![
                rule("lo", "lo", 1.0),
                rule("eq", "eq", 1.0),
                rule("hi", "hi", 3.0),
            ],
        ));
        let mut ctx = Ctx::default();
        ctx.set("eq", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(t.running_child(NodeId(0)), Some(1));
        ctx.set("lo", true);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        let o = outcome(&t);
        assert_eq!(
            (o.best, o.chosen, o.preempted, o.kept_running),
            (Some(0), Some(1), None, true)
        );
        assert_eq!((ctx.ticks("lo"), ctx.ticks("eq")), (0, 2));
        ctx.set("hi", true);
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Running);
        let o = outcome(&t);
        assert_eq!(
            (o.best, o.chosen, o.preempted, o.kept_running),
            (Some(2), Some(2), Some(1), false)
        );
        assert_eq!(ctx.halts("eq"), 1);
        assert_eq!(ctx.ticks("hi"), 1);
        t.tick(&mut ctx, 3.0);
        assert_eq!((ctx.halts("eq"), ctx.ticks("eq")), (1, 2));
    }

    #[test]
    fn weight_zero_or_negative_is_never_chosen() {
        let mut t = build(node(
            "weighted_selection",
            vec![rule("a", "zero", 0.0), rule("a", "neg", -5.0)],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Failure);
        assert_eq!((outcome(&t).best, outcome(&t).chosen), (None, None));
        assert_eq!(ctx.ticks("zero") + ctx.ticks("neg"), 0);
    }

    #[test]
    fn ties_go_to_declaration_order() {
        let mut t = build(node(
            "weighted_selection",
            vec![
                rule("a", "light", 1.0),
                rule("a", "first", 2.0),
                rule("a", "second", 2.0),
            ],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        assert_eq!(outcome(&t).chosen, Some(1));
        assert_eq!((ctx.ticks("first"), ctx.ticks("second")), (1, 0));
    }

    #[test]
    fn running_rule_is_committed_when_its_guard_turns_false() {
        // 0 ws, 1 rule, 2 a, 3 x, 4 rule, 5 b, 6 y
        let mut t = build(node(
            "weighted_selection",
            vec![rule("a", "x", 1.0), rule("b", "y", 1.0)],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        ctx.set("a", false).set("b", true);
        assert_eq!(t.tick(&mut ctx, 1.0), Status::Running);
        assert_eq!(
            entries(&t),
            [
                (2, Status::Failure),
                (1, Status::Failure),
                (5, Status::Success),
                (3, Status::Running),
                (1, Status::Running),
                (0, Status::Running),
            ]
        );
        assert_eq!(t.trace().status_of(NodeId(1)), Some(Status::Running));
        let o = outcome(&t);
        assert_eq!((o.best, o.chosen, o.kept_running), (Some(1), Some(0), true));
        ctx.ret("x", Status::Success);
        assert_eq!(t.tick(&mut ctx, 2.0), Status::Running);
        assert_eq!(t.running_child(NodeId(0)), Some(1));
        assert_eq!((ctx.ticks("x"), ctx.ticks("y")), (3, 1));
    }

    #[test]
    fn without_a_candidate_the_running_rule_is_suspended_not_halted() {
        let mut t = build(node(
            "weighted_selection",
            vec![rule("a", "x", 2.0), rule("z", "zero", 0.0)],
        ));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        ctx.set("a", false);
        for now in [1.0, 2.0] {
            assert_eq!(t.tick(&mut ctx, now), Status::Failure);
            ctx.set("z", true);
        }
        assert_eq!(outcome(&t).chosen, None);
        assert_eq!(
            (ctx.ticks("x"), ctx.halts("x"), ctx.ticks("zero")),
            (1, 0, 0)
        );
        assert_eq!(t.running_child(NodeId(0)), Some(0));
        ctx.set("z", false).set("a", true);
        assert_eq!(t.tick(&mut ctx, 3.0), Status::Running);
        assert!(outcome(&t).kept_running);
        assert_eq!(ctx.ticks("x"), 2);
    }

    #[test]
    fn halt_halts_the_running_body() {
        let mut t = build(node("weighted_selection", vec![rule("a", "x", 1.0)]));
        let mut ctx = Ctx::default();
        ctx.set("a", true);
        t.tick(&mut ctx, 0.0);
        t.halt(&mut ctx);
        assert_eq!(ctx.halts("x"), 1);
        assert_eq!(t.running_child(NodeId(0)), None);
        assert!(!t.is_running(NodeId(3)));
    }

    #[test]
    fn resume_running_adopts_a_running_rule() {
        // 0 ws, 1 rule(w1), 2 a, 3 x, 4 rule(w2), 5 b, 6 y, 7 rule(w0.5), 8 c, 9 z
        let mut t = build(node(
            "weighted_selection",
            vec![
                rule("a", "x", 1.0),
                rule("b", "y", 2.0),
                rule("c", "z", 0.5),
            ],
        ));
        let ids = |v: &[u32]| v.iter().map(|&i| NodeId(i)).collect::<Vec<_>>();
        assert!(!t.resume_running(&ids(&[0, 3])));
        assert!(!t.resume_running(&ids(&[1, 3])));
        assert!(!t.resume_running(&ids(&[0, 1])));
        assert!(!t.resume_running(&[]));
        assert!(t.resume_running(&ids(&[0, 1, 3])));
        assert_eq!(t.running_child(NodeId(0)), Some(0));
        assert!(
            !t.resume_running(&ids(&[0, 4, 6])),
            "something runs already"
        );
        let mut ctx = Ctx::default();
        ctx.set("c", true);
        assert_eq!(t.tick(&mut ctx, 0.0), Status::Running);
        assert_eq!(ctx.ticks("x"), 1);
        assert!(outcome(&t).kept_running);
        ctx.set("b", true);
        t.tick(&mut ctx, 1.0);
        assert_eq!((ctx.halts("x"), ctx.ticks("y")), (1, 1));
    }

    #[test]
    fn no_rules_is_failure_and_a_non_rule_child_is_a_compile_error() {
        let mut t = build(node("weighted_selection", vec![]));
        assert_eq!(t.tick(&mut Ctx::default(), 0.0), Status::Failure);
        let bad = crate::engine::compile(
            &spec(node("weighted_selection", vec![act("x")])),
            &registry(),
        );
        let errors = bad.err().expect("compile error");
        assert!(errors[0].message.contains("weighted_rule"), "{errors:?}");
    }
}
