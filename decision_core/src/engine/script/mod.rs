//! BehaviorTree.CPP 4's script language, for Script, ScriptCondition, Precondition nodes and
//! the `_skipIf` / `_while` / `_post` attributes.
//!
//! A script is parsed once at load time ([`Script::parse`]), its keys are bound once to
//! blackboard slots ([`Script::bind`]), and it is then evaluated many times with
//! [`Script::eval`] / [`Script::eval_bool`], by slot index and without building strings for
//! numeric code. Semantics follow BT.CPP 4.10: literals are int64, arithmetic is double,
//! `==` on numbers uses an f32 epsilon, `a < b < c` chains, `&&` / `||` evaluate both sides,
//! `:=` creates a missing entry and `=` requires an existing one.
//!
//! Evaluation first tries a side-effect-free fast path (`fast.rs`) that computes plain `f64`s
//! and borrows strings; whenever it cannot decide a statement without doubt it gives up and
//! the general evaluator (`eval.rs`) runs that statement, so results and errors are the
//! general evaluator's.

mod eval;
mod fast;
mod lexer;
mod parser;

use super::blackboard::{Blackboards, EntrySlot, ScopeId, Value};

/// A load-time (parse, bind) or run-time script error at a byte offset in the script.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("script error at offset {offset}: {message}")]
pub struct ScriptError {
    /// 0-based byte offset in the script of the token that failed.
    pub offset: usize,
    /// What went wrong.
    pub message: String,
}

impl ScriptError {
    /// An error at `offset` with `message`.
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        Self {
            offset,
            message: message.into(),
        }
    }
}

/// A parsed script, optionally bound to blackboard slots.
#[derive(Debug, Clone)]
pub struct Script {
    source: String,
    program: parser::Program,
    slots: Vec<EntrySlot>,
    /// The script as a bound guard, if it is one (see [`fast::Guard`]).
    guard: Option<fast::Guard>,
}

impl Script {
    /// Parses `src`; syntax errors (double-quoted strings, unbalanced parentheses, a trailing
    /// operator, an empty script) are reported with their offset.
    pub fn parse(src: &str) -> Result<Script, ScriptError> {
        Ok(Script {
            source: src.to_owned(),
            program: parser::parse(src)?,
            slots: Vec::new(),
            guard: None,
        })
    }

    /// Parses `src` and binds it to `scope` in one step.
    pub fn compile(
        src: &str,
        bbs: &mut Blackboards,
        scope: ScopeId,
    ) -> Result<Script, ScriptError> {
        let mut script = Script::parse(src)?;
        script.bind(bbs, scope)?;
        Ok(script)
    }

    /// The text it was parsed from, unchanged (error messages quote it).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The blackboard keys the script reads or writes, in order of first use.
    pub fn keys(&self) -> &[String] {
        &self.program.keys
    }

    /// True once every key has a slot.
    pub fn is_bound(&self) -> bool {
        self.slots.len() == self.program.keys.len()
    }

    /// Resolves every key as seen from `scope` (remaps, autoremap, `@root`) to its slot; entries
    /// need not exist yet.
    pub fn bind(&mut self, bbs: &mut Blackboards, scope: ScopeId) -> Result<(), ScriptError> {
        self.bind_with(&mut |key| bbs.reserve(scope, key))
    }

    /// Resolves every key with `resolve` (for callers that manage slots themselves).
    pub fn bind_with(
        &mut self,
        resolve: &mut dyn FnMut(&str) -> Option<EntrySlot>,
    ) -> Result<(), ScriptError> {
        let mut slots = Vec::with_capacity(self.program.keys.len());
        for (i, key) in self.program.keys.iter().enumerate() {
            let Some(slot) = resolve(key) else {
                let offset = self
                    .program
                    .nodes
                    .iter()
                    .position(|n| matches!(n, parser::Node::Name(k) if *k as usize == i))
                    .and_then(|n| self.program.offsets.get(n).copied())
                    .unwrap_or(0);
                return Err(ScriptError::new(
                    offset,
                    format!("invalid blackboard key [{key}]"),
                ));
            };
            slots.push(slot);
        }
        self.guard = fast::Guard::of(&self.program, &slots);
        self.slots = slots;
        Ok(())
    }

    /// Runs the script; its value is the last statement's value.
    pub fn eval(&self, bbs: &mut Blackboards) -> Result<Value, ScriptError> {
        self.program.run(&self.slots, bbs)
    }

    /// Runs the script as a condition: an int result must be 0 or 1, a double is true when
    /// non-zero, a string is an error.
    #[inline]
    pub fn eval_bool(&self, bbs: &mut Blackboards) -> Result<bool, ScriptError> {
        self.program.run_bool(&self.slots, bbs)
    }

    /// [`eval_bool`](Self::eval_bool) when it can be decided without doubt on the fast path
    /// (a one-statement condition such as `state == 3` on a number entry), else `None`: the
    /// caller then runs `eval_bool`, which gives the same result or the error.
    #[inline(always)]
    pub fn quick_bool(&self, bbs: &Blackboards) -> Option<bool> {
        match self.guard {
            Some(guard) => guard.holds(bbs),
            None => self.program.quick_bool(&self.slots, bbs),
        }
    }
}

#[cfg(test)]
mod tests;
