//! The round state the sequence-like kinds keep across ticks (`Sequence`, `Fallback`, their
//! async variants, `SequenceWithMemory`, `TryCatch`'s try block): the position of the child to
//! tick and how many children this round skipped, with the rules they share.

use crate::engine::Status;
use crate::engine::node::{Cx, NodeState};

/// The position of the child to tick next and the children skipped this round.
#[derive(Debug, Default, Clone, Copy)]
pub struct Round {
    /// The child ticked next (kept while the node runs).
    pub current: usize,
    /// Children that returned `Skipped` this round.
    pub skipped: usize,
}

impl Round {
    /// Starts a tick: a node that was idle counts its skipped children afresh, and the node
    /// is running while its children tick (BT.CPP sets it so before ticking them).
    #[inline]
    pub fn start<C>(&mut self, cx: &mut Cx<'_, C>) {
        if cx.start_running() == NodeState::Idle {
            self.skipped = 0;
        }
    }

    /// The current child was skipped: go on with the next one.
    #[inline]
    pub fn skip(&mut self) {
        self.current += 1;
        self.skipped += 1;
    }

    /// All `n` children of the round are through: the children are reset and the round
    /// starts again; the result is `Skipped` when every child skipped, else `done`.
    #[inline]
    pub fn finish<C>(&mut self, cx: &mut Cx<'_, C>, n: usize, done: Status) -> Status {
        let all_skipped = self.skipped == n;
        cx.halt_children_before(n);
        *self = Round::default();
        if all_skipped { Status::Skipped } else { done }
    }
}
