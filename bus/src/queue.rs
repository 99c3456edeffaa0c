//! The bounded FIFO behind every [`Subscription`](crate::Subscription): one queue for all the
//! subscription's topics, in arrival order; when full the oldest message is dropped and counted
//! (a decision node wants the freshest data, and stale data is discarded by age anyway).

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::transport::Received;

/// Capacity of one subscription's queue.
pub const QUEUE_CAPACITY: usize = 4096;

/// The queue's state under its lock.
#[derive(Debug, Default)]
struct State {
    items: VecDeque<Received>,
    dropped: u64,
    closed: bool,
}

/// A bounded, drop-oldest, multi-producer single-consumer queue.
#[derive(Debug)]
pub(crate) struct Queue {
    state: Mutex<State>,
    ready: Condvar,
    capacity: usize,
}

impl Queue {
    /// An empty queue holding at most `capacity` messages (at least one).
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            state: Mutex::new(State::default()),
            ready: Condvar::new(),
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Appends a message, dropping the oldest one when full; ignored once closed.
    pub(crate) fn push(&self, msg: Received) {
        let mut state = self.lock();
        if state.closed {
            return;
        }
        if state.items.len() >= self.capacity {
            state.items.pop_front();
            state.dropped += 1;
            if state.dropped == 1 || state.dropped.is_power_of_two() {
                tracing::warn!(
                    dropped = state.dropped,
                    topic = %msg.topic,
                    "subscription queue full: dropping the oldest messages"
                );
            }
        }
        state.items.push_back(msg);
        drop(state);
        self.ready.notify_one();
    }

    /// Marks the queue closed: waiting receivers wake up, queued messages can still be drained.
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    /// The oldest message, if any, without waiting.
    pub(crate) fn try_pop(&self) -> Option<Received> {
        self.lock().items.pop_front()
    }

    /// The oldest message, waiting at most `timeout` for one.
    pub(crate) fn pop_timeout(&self, timeout: Duration) -> Option<Received> {
        let deadline = Instant::now().checked_add(timeout);
        let mut state = self.lock();
        loop {
            if let Some(msg) = state.items.pop_front() {
                return Some(msg);
            }
            if state.closed {
                return None;
            }
            let remaining = match deadline {
                Some(deadline) => deadline.saturating_duration_since(Instant::now()),
                // A timeout too large for an Instant: wait in long slices.
                None => Duration::from_secs(3600),
            };
            if remaining.is_zero() {
                return None;
            }
            state = self
                .ready
                .wait_timeout(state, remaining)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// How many messages were dropped because the queue was full.
    pub(crate) fn dropped(&self) -> u64 {
        self.lock().dropped
    }

    /// How many messages are waiting.
    pub(crate) fn len(&self) -> usize {
        self.lock().items.len()
    }
}
