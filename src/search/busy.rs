//! Which positions other threads are searching right now, for lazy SMP's deferral of busy
//! moves: "simplified ABDADA" (Tom Kerrigan, 2016, after Weill's ABDADA, 1996). A thread
//! about to search a move that is not the node's first checks whether another thread is
//! already inside the position it leads to; if so, it searches the node's other moves first
//! and that one last, by when the other thread's result is likely in the table.
//!
//! The table is lossy by design: a fixed array of atomics indexed by the position's hash,
//! each holding the hash of one position being searched. Two positions sharing a slot can
//! overwrite each other's mark, which only makes a deferral more or less likely; it never
//! changes a search's value.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Positions being searched by some thread.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

/// Slots of the table: plenty for the nodes two to a few dozen threads are inside at once.
const SLOTS: usize = 1 << 15;

impl Default for BusyTable {
    fn default() -> Self {
        Self::new()
    }
}

impl BusyTable {
    /// An empty table.
    #[must_use]
    pub fn new() -> Self {
        Self {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[(hash as usize) & (SLOTS - 1)]
    }

    /// Whether some thread marked `hash` and has not cleared it.
    #[must_use]
    pub fn is_busy(&self, hash: u64) -> bool {
        self.slot(hash).load(Relaxed) == hash
    }

    /// Marks `hash` as being searched.
    pub fn mark(&self, hash: u64) {
        self.slot(hash).store(hash, Relaxed);
    }

    /// Clears the mark of `hash`, if the slot still holds it.
    pub fn clear(&self, hash: u64) {
        let _ = self.slot(hash).compare_exchange(hash, 0, Relaxed, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::BusyTable;

    #[test]
    fn marks_are_seen_until_cleared() {
        let busy = BusyTable::new();
        assert!(!busy.is_busy(42));
        busy.mark(42);
        assert!(busy.is_busy(42));
        busy.clear(42);
        assert!(!busy.is_busy(42));
    }

    #[test]
    fn clearing_another_positions_mark_leaves_it() {
        let busy = BusyTable::new();
        let (a, b) = (7, 7 + (1 << 15));
        busy.mark(a);
        busy.mark(b);
        busy.clear(a);
        assert!(busy.is_busy(b));
    }
}
