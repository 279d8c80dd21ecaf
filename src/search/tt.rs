//! The transposition table: a fixed-size hash table of search results, shared by all
//! threads without locks.
//!
//! Each entry is two 64-bit atomics, `data` and `key ^ data` (Hyatt and Mann, "A lock-less
//! transposition table implementation for parallel search chess engines", ICGA Journal 2002).
//! A reader recomputes `stored ^ data` and trusts the entry only if that equals its key, so a
//! write torn between the two words by another thread reads as a miss, never as another
//! position's entry.
//!
//! Replacement: entries live in buckets of four (one 64-byte cache line). A store goes to
//! the entry already holding the same key if there is one; otherwise to an empty entry;
//! otherwise it replaces the entry of least worth, where worth = depth − 4 × age and age is
//! how many searches ago the entry was written (the table's generation counter advances once
//! per search). Deep results survive, stale ones make way.
//!
//! An empty entry is two zero words; its bound bits are 0, which no stored entry has, so it
//! reads as a miss even for a position whose key is 0 (the empty boards of connect four and
//! tic-tac-toe hash to 0).
//!
//! Scores are stored relative to the node (decisive scores re-based by the node's ply, see
//! [`crate::game::score::to_table`]), so a win found at one ply keeps its exact distance when
//! read back at another.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::game::{Score, score};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (the node failed high).
    Lower,
    /// The true value is at most the score (the node failed low).
    Upper,
    /// The score is the true value at that depth.
    Exact,
}

/// One entry as read from the table, score already adjusted to the reader's ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score, root-relative for the ply it was probed at.
    pub score: Score,
    /// The best or refuting move's code ([`crate::game::Game::move_code`]), if any.
    pub move_code: Option<u16>,
    /// Remaining depth of the search that produced the entry.
    pub depth: u8,
    /// How the score bounds the true value.
    pub bound: Bound,
}

impl Entry {
    /// The score, if it settles a node searched with window `(alpha, beta)`.
    #[must_use]
    pub fn cutoff(&self, alpha: Score, beta: Score) -> Option<Score> {
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        };
        settles.then_some(self.score)
    }
}

const NO_MOVE: u16 = u16::MAX;
const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    entries: [[AtomicU64; 2]; ENTRIES_PER_BUCKET],
}

const _: () = assert!(size_of::<Bucket>() == 64);

/// Bit layout of `data`: score 0..32, move 32..48, depth 48..56, bound 56..58, generation 58..64.
fn pack(score: Score, move_code: u16, depth: u8, bound: Bound, generation: u8) -> u64 {
    let bound_bits: u64 = match bound {
        Bound::Lower => 1,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    u64::from(score as u32)
        | u64::from(move_code) << 32
        | u64::from(depth) << 48
        | bound_bits << 56
        | u64::from(generation & 63) << 58
}

fn unpack(data: u64, ply: i32) -> Option<Entry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let code = (data >> 32) as u16;
    Some(Entry {
        score: score::from_table(data as u32 as i32, ply),
        move_code: (code != NO_MOVE).then_some(code),
        depth: (data >> 48) as u8,
        bound,
    })
}

/// A transposition table of a fixed size, safe to share between threads (`&Table` is enough
/// to probe and store).
pub struct Table {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
    /// With [`Self::new_tracked`]: one bit per bucket written since the last clear, so that
    /// [`Self::clear`] rewrites only those (a suite of short searches reuses one table, and
    /// zeroing all of it between positions would cost more than the searches). Empty: off.
    touched: Vec<AtomicU64>,
}

impl Table {
    /// A table of about `megabytes` MiB (at least one bucket of four entries).
    #[must_use]
    pub fn new(megabytes: usize) -> Self {
        let count = (megabytes << 20) / size_of::<Bucket>();
        Self {
            buckets: (0..count.max(1)).map(|_| Bucket::default()).collect(),
            generation: AtomicU8::new(0),
            touched: Vec::new(),
        }
    }

    /// [`Self::new`], remembering which buckets are written so that [`Self::clear`] costs
    /// in proportion to what was used (one bit per bucket: 32 KiB for 16 MiB).
    #[must_use]
    pub fn new_tracked(megabytes: usize) -> Self {
        let mut table = Self::new(megabytes);
        table.touched = (0..table.buckets.len().div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        table
    }

    /// [`Self::new`], but a failed allocation is an error instead of an abort (the UCI
    /// engine's `Hash` keeps its old table then). Linux may still grant memory it cannot
    /// back, so callers also compare the size with the memory available first.
    ///
    /// # Errors
    /// The buckets cannot be allocated.
    pub fn try_new(megabytes: usize) -> Result<Self, std::collections::TryReserveError> {
        let count = megabytes.saturating_mul(1 << 20) / size_of::<Bucket>();
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count.max(1))?;
        buckets.resize_with(count.max(1), Bucket::default);
        Ok(Self {
            buckets,
            generation: AtomicU8::new(0),
            touched: Vec::new(),
        })
    }

    /// Number of entries of a table of `megabytes` MiB.
    #[must_use]
    pub const fn capacity_for(megabytes: usize) -> usize {
        let count = (megabytes << 20) / size_of::<Bucket>();
        if count == 0 {
            ENTRIES_PER_BUCKET
        } else {
            count * ENTRIES_PER_BUCKET
        }
    }

    /// Number of entries.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES_PER_BUCKET
    }

    /// Forgets everything (between independent jobs).
    pub fn clear(&self) {
        let wipe = |bucket: &Bucket| {
            for [key, data] in &bucket.entries {
                key.store(0, Relaxed);
                data.store(0, Relaxed);
            }
        };
        if self.touched.is_empty() {
            self.buckets.iter().for_each(wipe);
        } else {
            for (w, word) in self.touched.iter().enumerate() {
                let mut bits = word.swap(0, Relaxed);
                while bits != 0 {
                    wipe(&self.buckets[w * 64 + bits.trailing_zeros() as usize]);
                    bits &= bits - 1;
                }
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// The table's fill in permille, as UCI's `info hashfull`: of the first 1000 entries (or
    /// all, in a smaller table), those written during the current search, as Stockfish counts.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed) & 63;
        let sample = self.buckets.iter().flat_map(|b| &b.entries).take(1000);
        let (mut used, mut seen) = (0u32, 0u32);
        for [_, data] in sample {
            let data = data.load(Relaxed);
            seen += 1;
            // A stored entry has non-zero bound bits; its generation is bits 58..64.
            if (data >> 56) & 3 != 0 && (data >> 58) as u8 == generation {
                used += 1;
            }
        }
        used * 1000 / seen.max(1)
    }

    /// Starts a new search: entries written before now age by one.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[self.bucket_index(key)]
    }

    fn bucket_index(&self, key: u64) -> usize {
        // Lemire's multiply-shift maps the key onto any bucket count without a division.
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry stored under `key`, read at `ply` plies from the root.
    #[must_use]
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        self.bucket(key).entries.iter().find_map(|[stored, data]| {
            let data = data.load(Relaxed);
            (stored.load(Relaxed) ^ data == key)
                .then(|| unpack(data, ply))
                .flatten()
        })
    }

    /// Stores a result for `key` searched at `ply` plies from the root with `depth` plies
    /// remaining (depths above 255 are stored as 255).
    pub fn store(&self, key: u64, ply: i32, entry: Entry) {
        let generation = self.generation.load(Relaxed);
        let index = self.bucket_index(key);
        if let Some(word) = self.touched.get(index / 64) {
            let bit = 1 << (index % 64);
            if word.load(Relaxed) & bit == 0 {
                word.fetch_or(bit, Relaxed);
            }
        }
        let bucket = &self.buckets[index];
        let slot = self.replacement_slot(bucket, key, generation);
        let data = pack(
            score::to_table(entry.score, ply),
            entry.move_code.unwrap_or(NO_MOVE),
            entry.depth,
            entry.bound,
            generation,
        );
        let [stored, word] = &bucket.entries[slot];
        stored.store(key ^ data, Relaxed);
        word.store(data, Relaxed);
    }

    fn replacement_slot(&self, bucket: &Bucket, key: u64, generation: u8) -> usize {
        let worth = |[stored, data]: &[AtomicU64; 2]| -> i32 {
            let data = data.load(Relaxed);
            if stored.load(Relaxed) ^ data == key {
                return i32::MIN; // the same position: overwrite it
            }
            if (data >> 56) & 3 == 0 {
                return i32::MIN + 1; // empty
            }
            let age = i32::from(generation.wrapping_sub((data >> 58) as u8) & 63);
            i32::from((data >> 48) as u8) - 4 * age
        };
        (0..ENTRIES_PER_BUCKET)
            .min_by_key(|&i| worth(&bucket.entries[i]))
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: Score, depth: u8) -> Entry {
        Entry {
            score,
            move_code: Some(3),
            depth,
            bound: Bound::Exact,
        }
    }

    #[test]
    fn stores_and_probes_with_mate_scores_rebased_by_ply() {
        let t = Table::new(1);
        t.store(42, 3, entry(score::win_in(7), 5));
        // Stored as "win in 4 from this node"; probed at ply 5 it is a win at ply 9.
        let e = t.probe(42, 5).unwrap();
        assert_eq!(e.score, score::win_in(9));
        assert_eq!((e.move_code, e.depth, e.bound), (Some(3), 5, Bound::Exact));
        assert_eq!(t.probe(43, 0), None);
        t.clear();
        assert_eq!(t.probe(42, 3), None);
    }

    #[test]
    fn a_tracked_table_clears_what_was_written() {
        let t = Table::new_tracked(1);
        for key in 0..500u64 {
            t.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, entry(1, 2));
        }
        assert!(t.probe(0x9E37_79B9_7F4A_7C15, 0).is_some());
        t.clear();
        assert!((0..500u64).all(|k| t.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0).is_none()));
        assert!(t.buckets.iter().all(|b| {
            b.entries
                .iter()
                .all(|[k, d]| k.load(Relaxed) == 0 && d.load(Relaxed) == 0)
        }));
    }

    #[test]
    fn replacement_keeps_deep_entries_and_overwrites_the_same_key() {
        let t = Table::new(0); // one bucket of four
        assert_eq!(t.capacity(), 4);
        for (key, depth) in [(1, 9), (2, 1), (3, 5), (4, 7)] {
            t.store(key, 0, entry(10, depth));
        }
        t.store(5, 0, entry(11, 2)); // evicts the depth-1 entry
        assert!(t.probe(2, 0).is_none());
        assert_eq!(t.probe(1, 0).unwrap().depth, 9);
        t.store(1, 0, entry(12, 1)); // the same key is overwritten even by a shallower result
        assert_eq!(t.probe(1, 0).unwrap().score, 12);
        // After many searches, old deep entries give way.
        for _ in 0..3 {
            t.new_search();
        }
        t.store(6, 0, entry(13, 1));
        assert!(t.probe(6, 0).is_some());
    }

    #[test]
    fn hashfull_counts_this_searchs_entries_in_permille() {
        let t = Table::new(0); // four entries
        assert_eq!(t.hashfull(), 0);
        t.store(1, 0, entry(10, 3));
        assert_eq!(t.hashfull(), 250);
        t.new_search();
        t.store(2, 0, entry(10, 3));
        t.store(3, 0, entry(10, 3));
        // The entry of the previous search no longer counts.
        assert_eq!(t.hashfull(), 500);
    }

    #[test]
    fn negative_scores_and_missing_moves_survive_packing() {
        let t = Table::new(1);
        let e = Entry {
            score: -123_456,
            move_code: None,
            depth: 255,
            bound: Bound::Upper,
        };
        t.store(7, 0, e);
        assert_eq!(t.probe(7, 0), Some(e));
        assert_eq!(e.cutoff(-200_000, 0), None);
        assert_eq!(e.cutoff(-100_000, 0), Some(-123_456));
    }
}
