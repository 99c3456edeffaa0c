//! `TickTrace`: what one tick did, node by node.

use std::cell::Cell;

use serde::{Deserialize, Serialize};

use super::Status;

/// Identifies a node of a compiled [`Tree`](super::Tree).
///
/// The id is the **preorder index** of the node in the [`TreeSpec`](super::TreeSpec) the tree
/// was compiled from: the root is `NodeId(0)`, its first child `NodeId(1)`, that child's first
/// child (if any) `NodeId(2)`, and so on, each subtree numbered before its next sibling.
/// Profiles and the viewer rely on this to map ids back to spec nodes without the tree.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The id as an index into per-node arrays.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One node's result in a tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TraceEntry {
    /// Preorder id of the node that finished this tick.
    pub node: NodeId,
    /// What it returned.
    pub status: Status,
}

/// Where a status sits in a packed word: an entry (the node id below it) and a node's slot
/// (the generation below it) share the place, so a slot takes an entry's status as it is.
const STATUS_SHIFT: u32 = 32;

/// The status byte of a packed word, in place.
#[inline(always)]
fn status_in_place(word: u64) -> u64 {
    word & (0xff << STATUS_SHIFT)
}

/// The status of a packed word.
#[inline]
fn status_of_word(word: u64) -> Status {
    Status::from_bits((word >> STATUS_SHIFT) as u8)
}

impl TraceEntry {
    /// The entry in one word (the id in the low 32 bits, the status above): a record is then
    /// one 8-byte store, where the struct's padding would make it two.
    #[inline(always)]
    fn packed(node: u32, status: Status) -> u64 {
        u64::from(node) | (u64::from(status as u8) << STATUS_SHIFT)
    }

    /// The entry a [`packed`](Self::packed) word holds.
    #[inline]
    fn unpacked(word: u64) -> Self {
        Self {
            node: NodeId(word as u32),
            status: status_of_word(word),
        }
    }
}

/// The trace of the last tick: every node ticked, with its status, in the order the ticks
/// *finished* (children before their parent, the root last).
///
/// The buffers are reused from tick to tick, so recording costs no allocation in steady state.
/// A record is one entry written on the way back up the tree; the per-node index behind
/// [`status_of`](Self::status_of) is built from the entries when it is first asked after a
/// tick, so a tick whose trace is only listed (or not read) never pays for it.
#[derive(Clone)]
pub struct TickTrace {
    /// This tick's entries ([`TraceEntry::packed`]) are the first `len`; the rest are kept
    /// from earlier ticks as room, so that recording is a write and no capacity check of
    /// `Vec::push` (whose growth path makes every record save registers).
    entries: Vec<u64>,
    len: usize,
    /// Per node: the generation of the tick that last recorded it (low 32 bits) and that
    /// status (the next 8), stamped from the entries on the first `status_of` of a tick.
    slots: Vec<Cell<u64>>,
    /// How far `slots` are stamped: the generation and the number of its entries (0: none).
    stamped: Cell<(u32, usize)>,
    /// Generation of the current tick, never 0 once ticked (0 = not recorded).
    generation: u32,
    /// Ticks run so far.
    tick_number: u64,
    now: f64,
}

impl TickTrace {
    pub(crate) fn new(node_count: usize) -> Self {
        Self {
            entries: vec![0; node_count],
            len: 0,
            slots: vec![Cell::new(0); node_count],
            stamped: Cell::new((0, 0)),
            generation: 0,
            tick_number: 0,
            now: f64::NAN,
        }
    }

    /// Starts a new tick at time `now`: forgets the previous one in O(1) (the entries' length
    /// goes back to 0 and the generation moves on; the slots are cleared only when the
    /// generation wraps).
    #[inline]
    pub(crate) fn begin(&mut self, now: f64) {
        self.len = 0;
        self.tick_number += 1;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped after 2^32 ticks: forget every slot so no stale one matches.
            self.slots.iter_mut().for_each(|slot| *slot.get_mut() = 0);
            *self.stamped.get_mut() = (0, 0);
            self.generation = 1;
        }
        self.now = now;
    }

    /// Records that node `node` returned `status` in this tick.
    pub(crate) fn record(&mut self, node: u32, status: Status) {
        self.record_in_line(node, status);
    }

    /// [`record`](Self::record), always inlined: for the few callers that record in a tight
    /// loop of their own (a selection settling its rules), where the call costs more than the
    /// record. It returns `status`, so that a caller that returns the status next keeps
    /// nothing across the rare call that grows the room.
    #[inline(always)]
    pub(crate) fn record_in_line(&mut self, node: u32, status: Status) -> Status {
        let len = self.len;
        let Some(entry) = self.entries.get_mut(len) else {
            return self.record_growing(node, status);
        };
        // The new length is stored from the register read above (written after the entry,
        // the compiler made it an increment in memory, which measured 30% slower on `deep`).
        self.len = len + 1;
        *entry = TraceEntry::packed(node, status);
        status
    }

    /// [`record`](Self::record) when the room is full (a tick that ticks nodes more than
    /// once, or more nodes than the tree has): grows the room, which later ticks keep.
    #[cold]
    #[inline(never)]
    fn record_growing(&mut self, node: u32, status: Status) -> Status {
        let room = (self.len * 2).max(16);
        self.entries.resize(room, 0);
        self.record_in_line(node, status)
    }

    /// This tick's entries, packed.
    fn packed_entries(&self) -> &[u64] {
        self.entries.get(..self.len).unwrap_or(&self.entries)
    }

    /// Every node ticked in the last tick, in the order the ticks finished.
    ///
    /// A node appears once per time it was ticked (a kind may tick a child twice in one tick,
    /// e.g. a completed running child that is chosen again).
    pub fn entries(
        &self,
    ) -> impl ExactSizeIterator<Item = TraceEntry> + DoubleEndedIterator + Clone + '_ {
        self.packed_entries()
            .iter()
            .map(|&word| TraceEntry::unpacked(word))
    }

    /// The status node `n` returned in the last tick (its last entry), or `None` when it was not
    /// ticked. O(1) after the first call of a tick, which indexes the tick's entries.
    pub fn status_of(&self, n: NodeId) -> Option<Status> {
        if self.stamped.get() != (self.generation, self.len) {
            self.stamp_slots();
        }
        let slot = self.slots.get(n.index())?.get();
        let generation = slot as u32;
        if generation != self.generation || generation == 0 {
            return None;
        }
        Some(status_of_word(slot))
    }

    /// Stamps each node of this tick's entries not stamped yet with the generation and its
    /// status (later entries of a node overwrite earlier ones).
    #[cold]
    #[inline(never)]
    fn stamp_slots(&self) {
        let (stamped_generation, stamped_len) = self.stamped.get();
        let from = if stamped_generation == self.generation {
            stamped_len
        } else {
            0
        };
        let generation = u64::from(self.generation);
        // Both lists as locals: a store through a `Cell` may, for the compiler, change
        // anything behind `&self`, which would reload them at every entry.
        let slots: &[Cell<u64>] = &self.slots;
        let entries = self.packed_entries().get(from..).unwrap_or_default();
        for &word in entries {
            if let Some(slot) = slots.get(word as u32 as usize) {
                slot.set(generation | status_in_place(word));
            }
        }
        self.stamped.set((self.generation, self.len));
    }

    /// The injected time of the last tick (`NaN` before the first tick).
    pub fn now(&self) -> f64 {
        self.now
    }

    /// How many ticks the tree has run (0 before the first); identifies the tick of this trace.
    pub fn tick_number(&self) -> u64 {
        self.tick_number
    }
}

impl std::fmt::Debug for TickTrace {
    /// This tick's entries only (not the room past them), with the tick's number and time.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TickTrace")
            .field("tick_number", &self.tick_number)
            .field("now", &self.now)
            .field("entries", &self.entries().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_of_forgets_the_previous_tick() {
        let mut t = TickTrace::new(3);
        assert_eq!(t.status_of(NodeId(0)), None);
        t.begin(1.0);
        t.record(2, Status::Success);
        t.record(0, Status::Running);
        assert_eq!(t.status_of(NodeId(2)), Some(Status::Success));
        assert_eq!(t.status_of(NodeId(1)), None);
        assert_eq!(t.status_of(NodeId(9)), None);
        t.begin(2.0);
        t.record(0, Status::Failure);
        assert_eq!(t.status_of(NodeId(2)), None);
        assert_eq!(t.status_of(NodeId(0)), Some(Status::Failure));
        assert_eq!(t.entries().len(), 1);
        assert_eq!(t.tick_number(), 2);
    }

    #[test]
    fn a_tick_with_more_entries_than_room_grows_it_and_the_next_tick_starts_empty() {
        let mut t = TickTrace::new(2);
        t.begin(0.0);
        let statuses = [
            Status::Success,
            Status::Failure,
            Status::Running,
            Status::Skipped,
        ];
        let recorded: Vec<TraceEntry> = (0..40u32)
            .map(|k| TraceEntry {
                node: NodeId(k % 2),
                status: statuses[k as usize % 4],
            })
            .collect();
        for e in &recorded {
            t.record(e.node.0, e.status);
        }
        assert_eq!(t.entries().collect::<Vec<_>>(), recorded);
        assert_eq!(t.status_of(NodeId(1)), Some(Status::Skipped));
        assert_eq!(t.status_of(NodeId(0)), Some(Status::Running));
        t.begin(1.0);
        assert_eq!(t.entries().len(), 0);
        t.record(1, Status::Failure);
        assert!(t.entries().eq([TraceEntry {
            node: NodeId(1),
            status: Status::Failure
        }]));
        assert_eq!(t.status_of(NodeId(0)), None);
    }

    #[test]
    fn status_of_asked_during_a_tick_sees_the_entries_recorded_after() {
        let mut t = TickTrace::new(3);
        t.begin(0.0);
        t.record(1, Status::Running);
        assert_eq!(t.status_of(NodeId(1)), Some(Status::Running));
        assert_eq!(t.status_of(NodeId(2)), None);
        t.record(2, Status::Success);
        t.record(1, Status::Failure);
        assert_eq!(t.status_of(NodeId(1)), Some(Status::Failure));
        assert_eq!(t.status_of(NodeId(2)), Some(Status::Success));
        t.begin(1.0);
        t.record(2, Status::Skipped);
        assert_eq!(t.status_of(NodeId(1)), None);
        assert_eq!(t.status_of(NodeId(2)), Some(Status::Skipped));
    }

    #[test]
    fn an_entry_packs_and_unpacks_every_status_and_large_ids() {
        for status in [
            Status::Success,
            Status::Failure,
            Status::Running,
            Status::Skipped,
        ] {
            for node in [0, 1, 7, u32::MAX] {
                let e = TraceEntry::unpacked(TraceEntry::packed(node, status));
                assert_eq!((e.node, e.status), (NodeId(node), status));
            }
        }
    }

    #[test]
    fn from_bits_inverts_the_discriminants() {
        for s in [
            Status::Success,
            Status::Failure,
            Status::Running,
            Status::Skipped,
        ] {
            assert_eq!(Status::from_bits(s as u8), s);
        }
    }

    #[test]
    fn generation_wrap_forgets_stale_slots() {
        let mut t = TickTrace::new(2);
        t.begin(0.0);
        t.record(1, Status::Success);
        t.generation = u32::MAX;
        // Stale: would match generation 1 after the wrap.
        t.slots[0] = Cell::new(1 | (u64::from(Status::Running as u8) << STATUS_SHIFT));
        t.begin(1.0);
        assert_eq!(t.generation, 1);
        assert_eq!(t.status_of(NodeId(0)), None);
        assert_eq!(t.status_of(NodeId(1)), None);
    }
}
