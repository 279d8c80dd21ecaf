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
//! The compact layout ([`Table::compact`]; Pons, "Solving Connect 4", part 11) keeps one
//! 8-byte slot per index instead: a prime number of slots indexed by the key modulo that
//! prime, the key's low 32 bits beside 32 bits of entry in one atomic word (so no write can
//! tear), always replaced. Keyed by a game's exact key ([`Game::exact_key`], connect four's 49
//! bits) the check is exact (Chinese remainder theorem), and positions a few moves apart
//! often land near each other, which Pons's solver owes much of its speed to; other games
//! key it by their hash. Entries are half the size, so twice as many fit; a move is kept
//! only where its code fits in 7 bits (connect four, tic-tac-toe, othello), a score only
//! where it fits in 16 (decisive scores up to [`score::MAX_PLY`] plies, evaluations within
//! ±22,766; a result that does not fit is not stored).
//!
//! The table can keep depths to half a ply (to a whole ply in the compact layout), rounded
//! down; the search asks for it with
//! [`SearchConfig::tt_fractional`](super::SearchConfig::tt_fractional) and otherwise stores
//! whole plies. With it, a node searched 2.5 plies deep after a half-ply
//! check extension finds its own entry again at 2.5 plies, where whole plies would have kept 2
//! and made it useless at the very depth that stored it. Rounding down keeps every cutoff
//! sound (an entry never claims more depth than its search had).
//!
//! Scores are stored relative to the node (decisive scores re-based by the node's ply, see
//! [`crate::game::score::to_table`]), so a win found at one ply keeps its exact distance when
//! read back at another.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::game::{Game, Score, score};

use super::config::ONE_PLY;

/// The bucket layout's depth unit, in 1/24 ply ([`ONE_PLY`]): half a ply.
const HALF_PLY: i32 = ONE_PLY / 2;

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
    /// Remaining depth of the search that produced the entry, in 1/24 ply ([`ONE_PLY`]), as
    /// the table keeps it: rounded down to half a ply, at most 127.5 plies (the compact
    /// layout: to a whole ply, at most 127), negative depths as 0.
    pub depth: i32,
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

/// Bit layout of `data`: score 0..32, move 32..48, depth in half plies 48..56, bound 56..58,
/// generation 58..64.
fn pack(score: Score, move_code: u16, depth: i32, bound: Bound, generation: u8) -> u64 {
    let bound_bits: u64 = match bound {
        Bound::Lower => 1,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    u64::from(score as u32)
        | u64::from(move_code) << 32
        | u64::from((depth / HALF_PLY).clamp(0, 255) as u8) << 48
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
        depth: i32::from((data >> 48) as u8) * HALF_PLY,
        bound,
    })
}

/// A transposition table of a fixed size, safe to share between threads (`&Table` is enough
/// to probe and store).
pub struct Table {
    slots: Slots,
    generation: AtomicU8,
    /// With [`Self::tracked`]: one bit per cache line written since the last clear, so that
    /// [`Self::clear`] rewrites only those (a suite of short searches reuses one table, and
    /// zeroing all of it between positions would cost more than the searches). Empty: off.
    touched: Vec<AtomicU64>,
}

/// Tables up to this size are kept by a thread between searches ([`with_kept_tables`]);
/// larger ones cost little to make beside the long searches they serve, and would sit idle
/// between them.
pub const KEPT_TABLE_MB: usize = 64;

thread_local! {
    /// This thread's kept tables, by the caller's slot.
    static KEPT: RefCell<Vec<Option<Table>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with a table for each layout `(megabytes, compact)` given, kept by this thread
/// between calls and cleared before each (only the lines the last search wrote): a caller
/// running many short, independent searches (a test set's positions as jobs, a match's
/// games) would otherwise allocate and zero a table for each. A cleared table holds what a
/// fresh one holds, so results do not change. `None` for a slot without a layout, one above
/// [`KEPT_TABLE_MB`], or when this thread is already inside `with_kept_tables` (a search
/// that waits on a thread pool may run another caller's work here): the caller then makes
/// its own.
pub fn with_kept_tables<const N: usize, R>(
    layouts: [Option<(usize, bool)>; N],
    f: impl FnOnce([Option<&Table>; N]) -> R,
) -> R {
    let kept_layouts = layouts.map(|l| l.filter(|&(mb, _)| (1..=KEPT_TABLE_MB).contains(&mb)));
    if kept_layouts.iter().all(Option::is_none) {
        return f([None; N]);
    }
    KEPT.with(|cell| {
        let Ok(mut kept) = cell.try_borrow_mut() else {
            return f([None; N]);
        };
        if kept.len() < N {
            kept.resize_with(N, || None);
        }
        for (slot, layout) in kept.iter_mut().zip(kept_layouts) {
            let Some((mb, compact)) = layout else {
                continue;
            };
            match slot {
                Some(table) if table.is_layout(mb, compact) => table.clear(),
                _ => {
                    // The old table goes before the new one is made.
                    *slot = None;
                    *slot = Some(Table::with_layout(mb, compact).tracked());
                }
            }
        }
        let kept = &*kept;
        f(std::array::from_fn(|i| {
            kept_layouts[i].and(kept[i].as_ref())
        }))
    })
}

/// The two layouts.
enum Slots {
    /// Buckets of four 16-byte entries, full keys, depth-and-age replacement.
    Buckets(Vec<Bucket>),
    /// One 8-byte slot per index, a prime number of them, partial keys, always replaced.
    Compact(Vec<AtomicU64>),
}

/// Compact slots per 64-byte cache line (the unit [`Table::clear`] tracks).
const SLOTS_PER_LINE: usize = 8;

impl Table {
    /// A table of about `megabytes` MiB (at least one bucket of four entries).
    #[must_use]
    pub fn new(megabytes: usize) -> Self {
        let count = bucket_count(megabytes);
        Self::with_slots(Slots::Buckets(table_memory(count, Bucket::default)))
    }

    /// A compact table of about `megabytes` MiB (Pons's part 11): the largest prime number
    /// of 8-byte slots that fits, and at least the smallest prime above 2^17 (a little over
    /// 1 MiB), below which connect four's 49-bit keys would not be checked exactly.
    #[must_use]
    pub fn compact(megabytes: usize) -> Self {
        let count = compact_slot_count(megabytes);
        Self::with_slots(Slots::Compact(table_memory(count, AtomicU64::default)))
    }

    /// A table of `megabytes` MiB in the layout a search configuration asks for.
    #[must_use]
    pub fn with_layout(megabytes: usize, compact: bool) -> Self {
        if compact {
            Self::compact(megabytes)
        } else {
            Self::new(megabytes)
        }
    }

    fn with_slots(slots: Slots) -> Self {
        Self {
            slots,
            generation: AtomicU8::new(0),
            touched: Vec::new(),
        }
    }

    /// This table, remembering which cache lines are written so that [`Self::clear`] costs
    /// in proportion to what was used (one bit per 64 bytes: 32 KiB for 16 MiB).
    #[must_use]
    pub fn tracked(mut self) -> Self {
        self.touched = (0..self.lines().div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        self
    }

    /// Whether this is the compact layout.
    #[must_use]
    pub fn is_compact(&self) -> bool {
        matches!(self.slots, Slots::Compact(_))
    }

    /// The key `pos` is stored under: its exact key in the compact layout where the game has
    /// one, else its hash.
    #[inline]
    #[must_use]
    pub fn key_of<G: Game>(&self, pos: &G) -> u64 {
        match self.slots {
            Slots::Compact(_) => pos.exact_key().unwrap_or_else(|| pos.hash()),
            Slots::Buckets(_) => pos.hash(),
        }
    }

    /// Cache lines of 64 bytes.
    fn lines(&self) -> usize {
        match &self.slots {
            Slots::Buckets(buckets) => buckets.len(),
            Slots::Compact(slots) => slots.len().div_ceil(SLOTS_PER_LINE),
        }
    }

    /// [`Self::with_layout`], but a failed allocation is an error instead of an abort (the
    /// UCI engine's `Hash` keeps its old table then). Linux may still grant memory it cannot
    /// back, so callers also compare the size with the memory available first.
    ///
    /// # Errors
    /// The table cannot be allocated.
    pub fn try_with_layout(
        megabytes: usize,
        compact: bool,
    ) -> Result<Self, std::collections::TryReserveError> {
        let slots = if compact {
            Slots::Compact(try_table_memory(
                compact_slot_count(megabytes),
                AtomicU64::default,
            )?)
        } else {
            Slots::Buckets(try_table_memory(bucket_count(megabytes), Bucket::default)?)
        };
        Ok(Self::with_slots(slots))
    }

    /// Whether this is the table [`Self::with_layout`] makes for `megabytes` and `compact`
    /// (a caller's table stands in for the one a search would make).
    #[must_use]
    pub fn is_layout(&self, megabytes: usize, compact: bool) -> bool {
        match &self.slots {
            Slots::Buckets(buckets) => !compact && buckets.len() == bucket_count(megabytes),
            Slots::Compact(slots) => compact && slots.len() == compact_slot_count(megabytes),
        }
    }

    /// Number of entries.
    #[must_use]
    pub fn capacity(&self) -> usize {
        match &self.slots {
            Slots::Buckets(buckets) => buckets.len() * ENTRIES_PER_BUCKET,
            Slots::Compact(slots) => slots.len(),
        }
    }

    /// Forgets everything (between independent jobs).
    pub fn clear(&self) {
        if self.touched.is_empty() {
            (0..self.lines()).for_each(|line| self.wipe_line(line));
        } else {
            for (w, word) in self.touched.iter().enumerate() {
                // Read before swapping: a swap is a locked write even of a zero word, and
                // most words are zero after a small search (a suite's clear between
                // positions was a fifth of its time).
                if word.load(Relaxed) == 0 {
                    continue;
                }
                let mut bits = word.swap(0, Relaxed);
                while bits != 0 {
                    self.wipe_line(w * 64 + bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Empties the entries of 64-byte line `line`.
    fn wipe_line(&self, line: usize) {
        match &self.slots {
            Slots::Buckets(buckets) => {
                for [key, data] in &buckets[line].entries {
                    key.store(0, Relaxed);
                    data.store(0, Relaxed);
                }
            }
            Slots::Compact(slots) => {
                let end = slots.len().min((line + 1) * SLOTS_PER_LINE);
                for slot in &slots[line * SLOTS_PER_LINE..end] {
                    slot.store(0, Relaxed);
                }
            }
        }
    }

    /// The table's fill in permille, as UCI's `info hashfull`: of the first 1000 entries (or
    /// all, in a smaller table), those written during the current search, as Stockfish counts
    /// (the compact layout keeps no age: there, every entry written since the last clear).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed) & 63;
        let (mut used, mut seen) = (0u32, 0u32);
        match &self.slots {
            Slots::Buckets(buckets) => {
                for [_, data] in buckets.iter().flat_map(|b| &b.entries).take(1000) {
                    let data = data.load(Relaxed);
                    seen += 1;
                    // A stored entry has non-zero bound bits; its generation is bits 58..64.
                    if (data >> 56) & 3 != 0 && (data >> 58) as u8 == generation {
                        used += 1;
                    }
                }
            }
            Slots::Compact(slots) => {
                for slot in slots.iter().take(1000) {
                    seen += 1;
                    used += u32::from(compact::unpack(slot.load(Relaxed) as u32, 0).is_some());
                }
            }
        }
        used * 1000 / seen.max(1)
    }

    /// Starts a new search: entries written before now age by one.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn bucket_index(buckets: &[Bucket], key: u64) -> usize {
        // Lemire's multiply-shift maps the key onto any bucket count without a division.
        ((u128::from(key) * buckets.len() as u128) >> 64) as usize
    }

    /// The entry stored under `key`, read at `ply` plies from the root.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        match &self.slots {
            Slots::Buckets(buckets) => buckets[Self::bucket_index(buckets, key)]
                .entries
                .iter()
                .find_map(|[stored, data]| {
                    let data = data.load(Relaxed);
                    (stored.load(Relaxed) ^ data == key)
                        .then(|| unpack(data, ply))
                        .flatten()
                }),
            Slots::Compact(slots) => {
                let word = slots[(key % slots.len() as u64) as usize].load(Relaxed);
                ((word >> 32) as u32 == key as u32)
                    .then(|| compact::unpack(word as u32, ply))
                    .flatten()
            }
        }
    }

    /// Asks the processor to bring the cache line `key`'s entry lives in closer, ahead of a
    /// probe. A hint: it changes nothing a probe returns.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line: *const i8 = match &self.slots {
                Slots::Buckets(buckets) => {
                    std::ptr::from_ref(&buckets[Self::bucket_index(buckets, key)]).cast()
                }
                Slots::Compact(slots) => {
                    std::ptr::from_ref(&slots[(key % slots.len() as u64) as usize]).cast()
                }
            };
            // SAFETY: a prefetch reads nothing the program sees and never faults; `line`
            // points into the table all the same.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Marks 64-byte line `line` as written, for [`Self::clear`].
    fn touch(&self, line: usize) {
        if let Some(word) = self.touched.get(line / 64) {
            let bit = 1 << (line % 64);
            if word.load(Relaxed) & bit == 0 {
                word.fetch_or(bit, Relaxed);
            }
        }
    }

    /// Stores a result for `key` searched at `ply` plies from the root (its depth kept as
    /// [`Entry::depth`] says).
    #[inline]
    pub fn store(&self, key: u64, ply: i32, entry: Entry) {
        let buckets = match &self.slots {
            Slots::Buckets(buckets) => buckets,
            Slots::Compact(slots) => {
                let Some(data) = compact::pack(&entry, ply) else {
                    return;
                };
                let index = (key % slots.len() as u64) as usize;
                self.touch(index / SLOTS_PER_LINE);
                slots[index].store(u64::from(key as u32) << 32 | u64::from(data), Relaxed);
                return;
            }
        };
        let generation = self.generation.load(Relaxed);
        let index = Self::bucket_index(buckets, key);
        self.touch(index);
        let bucket = &buckets[index];
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
            // Depth in plies − 4 × age, counted in half plies.
            let age = i32::from(generation.wrapping_sub((data >> 58) as u8) & 63);
            i32::from((data >> 48) as u8) - 8 * age
        };
        (0..ENTRIES_PER_BUCKET)
            .min_by_key(|&i| worth(&bucket.entries[i]))
            .unwrap_or(0)
    }
}

/// Buckets in a table of `megabytes` MiB (at least one).
fn bucket_count(megabytes: usize) -> usize {
    (megabytes.saturating_mul(1 << 20) / size_of::<Bucket>()).max(1)
}

/// The fewest slots of a compact table: the smallest prime above 2^17, so that the index
/// (the key modulo the slots) and the key's low 32 bits identify every key of up to 49 bits
/// (connect four's, [`Game::exact_key`](crate::game::Game::exact_key)) exactly, at any size.
const MIN_COMPACT_SLOTS: usize = 131_101;

/// Slots in a compact table of `megabytes` MiB: the largest prime that fits, at least
/// [`MIN_COMPACT_SLOTS`] (1 MiB and 232 bytes).
fn compact_slot_count(megabytes: usize) -> usize {
    prime_at_most(megabytes.saturating_mul(1 << 20) / size_of::<AtomicU64>()).max(MIN_COMPACT_SLOTS)
}

/// `count` values made by `make`, in memory the kernel is asked to back with 2 MiB pages;
/// aborts, as a `Vec` does, if the memory cannot be had.
fn table_memory<T>(count: usize, make: impl Fn() -> T) -> Vec<T> {
    try_table_memory(count, make).unwrap_or_else(|_| {
        std::alloc::handle_alloc_error(
            std::alloc::Layout::array::<T>(count).unwrap_or(std::alloc::Layout::new::<T>()),
        )
    })
}

/// [`table_memory`], or the error if the memory cannot be had.
fn try_table_memory<T>(
    count: usize,
    make: impl Fn() -> T,
) -> Result<Vec<T>, std::collections::TryReserveError> {
    let mut slots = Vec::new();
    slots.try_reserve_exact(count)?;
    advise_huge_pages(slots.as_ptr() as usize, count * size_of::<T>());
    slots.extend((0..count).map(|_| make()));
    Ok(slots)
}

/// Asks Linux to back the 2 MiB-aligned part of `len` bytes at `start`, not yet touched,
/// with transparent huge pages (`madvise(MADV_HUGEPAGE)`): a table probed at random
/// addresses misses the TLB on nearly every probe with 4 KiB pages, and Linux's default
/// (`madvise` mode) gives huge pages only to memory that asks. A hint: where it is refused,
/// nothing changes.
fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let begin = start.next_multiple_of(HUGE_PAGE);
        let end = (start + len) / HUGE_PAGE * HUGE_PAGE;
        if end > begin {
            // SAFETY: the range lies inside an allocation this process owns; madvise only
            // changes how the kernel backs it, never what it holds.
            unsafe { libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// The largest prime at most `n` (n >= 2), by trial division: at most a few dozen
/// candidates of up to 2^33 (a 64 GiB table) each, tried once per table.
fn prime_at_most(n: usize) -> usize {
    let is_prime = |k: usize| {
        k >= 2
            && (2..)
                .take_while(|d| d * d <= k)
                .all(|d| !k.is_multiple_of(d))
    };
    (2..=n.max(2)).rev().find(|&k| is_prime(k)).unwrap_or(2)
}

/// The compact layout's 32 bits of entry: score 0..16 (see [`pack_score`]), move code + 1
/// 16..23 (0: none), depth in plies 23..30, bound 30..32 (0: empty).
mod compact {
    use super::{Bound, Entry, ONE_PLY, Score, score};

    /// Evaluations within ±this are stored as they are; decisive scores above it.
    const HEURISTIC: i32 = i16::MAX as i32 - score::MAX_PLY - 1;

    /// The 16-bit form of a table score (decisive scores already re-based to the node):
    /// evaluations as they are, a win `p` plies from the node as `i16::MAX - p`, a loss as
    /// its negation. None: it does not fit.
    fn pack_score(s: Score) -> Option<i16> {
        let decisive = |plies: i32| (0..score::MAX_PLY).contains(&plies);
        let packed = if s > score::DECISIVE && decisive(score::WIN - s) {
            i32::from(i16::MAX) - (score::WIN - s)
        } else if s < -score::DECISIVE && decisive(score::WIN + s) {
            -(i32::from(i16::MAX) - (score::WIN + s))
        } else if s.abs() <= HEURISTIC {
            s
        } else {
            return None;
        };
        i16::try_from(packed).ok()
    }

    fn unpack_score(p: i16) -> Score {
        let p = i32::from(p);
        if p > HEURISTIC {
            score::WIN - (i32::from(i16::MAX) - p)
        } else if p < -HEURISTIC {
            -score::WIN + (i32::from(i16::MAX) + p)
        } else {
            p
        }
    }

    /// The entry stored at `ply`, or None where its score does not fit.
    pub(super) fn pack(entry: &Entry, ply: i32) -> Option<u32> {
        let s = pack_score(score::to_table(entry.score, ply))?;
        let code = entry.move_code.filter(|&c| c < 127).map_or(0, |c| c + 1);
        let bound: u32 = match entry.bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        Some(
            u32::from(s as u16)
                | u32::from(code) << 16
                | ((entry.depth / ONE_PLY).clamp(0, 127) as u32) << 23
                | bound << 30,
        )
    }

    /// The entry of `data` read at `ply`; None for an empty slot.
    pub(super) fn unpack(data: u32, ply: i32) -> Option<Entry> {
        let bound = match data >> 30 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => return None,
        };
        let code = ((data >> 16) & 127) as u16;
        Some(Entry {
            score: score::from_table(unpack_score(data as u16 as i16), ply),
            move_code: code.checked_sub(1),
            depth: ((data >> 23) & 127) as i32 * ONE_PLY,
            bound,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept table is the same table from call to call, emptied before each; a second slot
    /// has its own; a table above the cap, no layout, or a call from inside a call get none.
    #[test]
    fn kept_tables_are_reused_empty() {
        let key = 0x1234_5678_9ABC_DEF1;
        let first = with_kept_tables([Some((1, false)), Some((1, true))], |[a, b]| {
            let (a, b) = (a.expect("kept"), b.expect("kept"));
            assert!(a.is_layout(1, false) && b.is_layout(1, true));
            a.store(key, 0, entry(7, 3));
            assert!(a.probe(key, 0).is_some());
            // Nested: this thread's tables are lent out.
            with_kept_tables([Some((1, false))], |[inner]| assert!(inner.is_none()));
            std::ptr::from_ref(a) as usize
        });
        let second = with_kept_tables([Some((1, false)), None], |[a, b]| {
            let a = a.expect("kept");
            assert!(a.probe(key, 0).is_none(), "cleared");
            assert!(b.is_none());
            std::ptr::from_ref(a) as usize
        });
        assert_eq!(first, second, "the same table");
        with_kept_tables([Some((KEPT_TABLE_MB + 1, false))], |[big]| {
            assert!(big.is_none())
        });
        // Another layout replaces the kept one.
        with_kept_tables([Some((2, false))], |[a]| {
            assert!(a.expect("kept").is_layout(2, false))
        });
    }

    /// An exact entry `plies` deep.
    fn entry(score: Score, plies: i32) -> Entry {
        Entry {
            score,
            move_code: Some(3),
            depth: plies * ONE_PLY,
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
        assert_eq!(
            (e.move_code, e.depth, e.bound),
            (Some(3), 5 * ONE_PLY, Bound::Exact)
        );
        assert_eq!(t.probe(43, 0), None);
        t.clear();
        assert_eq!(t.probe(42, 3), None);
    }

    #[test]
    fn a_tracked_table_clears_what_was_written() {
        let t = Table::new(1).tracked();
        for key in 0..500u64 {
            t.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, entry(1, 2));
        }
        assert!(t.probe(0x9E37_79B9_7F4A_7C15, 0).is_some());
        t.clear();
        assert!((0..500u64).all(|k| t.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0).is_none()));
        let Slots::Buckets(buckets) = &t.slots else {
            unreachable!()
        };
        assert!(buckets.iter().all(|b| {
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
        assert_eq!(t.probe(1, 0).unwrap().depth, 9 * ONE_PLY);
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
    fn compact_entries_keep_scores_moves_and_bounds() {
        let t = Table::compact(1);
        assert!(t.is_compact() && t.is_layout(1, true) && !t.is_layout(1, false));
        assert_eq!(t.capacity(), 131_101, "the smallest prime above 2^17");
        for (key, ply, e) in [
            (1u64, 3, entry(score::win_in(7), 5)),
            (2, 0, entry(score::loss_in(9_999), 100)),
            (3, 2, entry(-22_766, 1)),
            (4, 1, entry(22_766, 0)),
        ] {
            t.store(key, ply, e);
            assert_eq!(t.probe(key, ply), Some(e), "{e:?}");
        }
        // Rebased by ply like the bucket table; a missing or wide move code is kept as none.
        assert_eq!(t.probe(1, 5).unwrap().score, score::win_in(9));
        let no_move = Entry {
            move_code: Some(500),
            bound: Bound::Lower,
            ..entry(7, 200)
        };
        t.store(5, 0, no_move);
        let read = t.probe(5, 0).unwrap();
        assert_eq!(
            (read.move_code, read.depth, read.bound),
            (None, 127 * ONE_PLY, Bound::Lower)
        );
        // A score outside the 16-bit band is not stored: a probe misses rather than lies.
        t.store(6, 0, entry(30_000, 3));
        assert_eq!(t.probe(6, 0), None);
        t.clear();
        assert_eq!(t.probe(1, 3), None);
    }

    #[test]
    fn compact_keys_below_the_bound_never_collide() {
        // 2 MiB: a prime above 2^17 slots, so keys below 2^49 (connect four's) are told
        // apart by their index and low 32 bits (Chinese remainder theorem).
        let t = Table::compact(2).tracked();
        let slots = t.capacity() as u64;
        assert!(slots > 1 << 17);
        let key = |i: u64| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 15) & ((1 << 49) - 1);
        for i in 0..20_000 {
            t.store(key(i), 0, entry(i as Score % 100, 1));
        }
        // Keys sharing a slot with a stored one, and its low 32 bits, but not equal to it.
        for i in 0..20_000 {
            let k = key(i);
            for other in [k + slots, k ^ (1 << 40), k + (slots << 32)] {
                if other != k && other >> 49 == 0 && t.probe(other, 0).is_some() {
                    // Only a key actually stored may be found.
                    assert!(
                        (0..20_000).any(|j| key(j) == other),
                        "{other:#x} was never stored"
                    );
                }
            }
        }
        t.clear();
        assert!((0..20_000).all(|i| t.probe(key(i), 0).is_none()));
    }

    #[test]
    fn depths_are_kept_to_half_a_ply_rounded_down_or_a_whole_ply_compact() {
        let (t, compact) = (Table::new(1), Table::compact(1));
        let depth_read = |t: &Table, depth: i32| {
            t.store(
                9,
                0,
                Entry {
                    depth,
                    ..entry(1, 0)
                },
            );
            t.probe(9, 0).unwrap().depth
        };
        // 2.5 plies (two plies and a half-ply check extension) reads back as stored.
        assert_eq!(
            depth_read(&t, 2 * ONE_PLY + HALF_PLY),
            2 * ONE_PLY + HALF_PLY
        );
        // Finer fractions round down, never up; negative depths are 0; deep ones are capped.
        assert_eq!(depth_read(&t, 2 * ONE_PLY + 11), 2 * ONE_PLY);
        assert_eq!(depth_read(&t, 2 * ONE_PLY + 13), 2 * ONE_PLY + HALF_PLY);
        assert_eq!(depth_read(&t, -ONE_PLY), 0);
        assert_eq!(depth_read(&t, 500 * ONE_PLY), 255 * HALF_PLY);
        assert_eq!(depth_read(&compact, 2 * ONE_PLY + HALF_PLY), 2 * ONE_PLY);
        assert_eq!(depth_read(&compact, 500 * ONE_PLY), 127 * ONE_PLY);
    }

    #[test]
    fn a_compact_table_of_any_size_checks_49_bit_keys_exactly() {
        assert_eq!(prime_at_most(MIN_COMPACT_SLOTS), MIN_COMPACT_SLOTS);
        assert!(prime_at_most(MIN_COMPACT_SLOTS - 1) <= 1 << 17);
        // The index and the low 32 bits identify a key below slots × 2^32 (Chinese remainder
        // theorem): 49-bit keys at the fewest slots.
        assert!((MIN_COMPACT_SLOTS as u64) << 32 >= 1 << 49);
        for megabytes in [0, 1] {
            assert_eq!(Table::compact(megabytes).capacity(), MIN_COMPACT_SLOTS);
        }
        // Two keys with the same low 32 bits, 2^32 apart: in the fewest slots they index
        // apart, so neither reads the other's entry.
        let t = Table::compact(0);
        let (a, b) = (5u64 << 32 | 77, 6u64 << 32 | 77);
        t.store(a, 0, entry(10, 3));
        assert_eq!(t.probe(a, 0), Some(entry(10, 3)));
        assert_eq!(t.probe(b, 0), None);
        assert_eq!(
            Table::compact(2).capacity(),
            262_139,
            "the largest prime below 2^18"
        );
    }

    #[test]
    fn lower_bound_entries_read_back_and_cut_off_at_beta() {
        let e = Entry {
            score: 10,
            move_code: Some(4),
            depth: 3 * ONE_PLY,
            bound: Bound::Lower,
        };
        let t = Table::new(1);
        t.store(11, 0, e);
        assert_eq!(t.probe(11, 0), Some(e));
        // A lower bound settles the node when it reaches beta (score >= beta).
        assert_eq!(e.cutoff(0, 10), Some(10));
        assert_eq!(e.cutoff(0, 5), Some(10));
        assert_eq!(e.cutoff(0, 11), None);
    }

    #[test]
    fn replacement_evicts_an_old_deep_entry_before_new_shallow_ones() {
        let t = Table::new(0); // one bucket of four
        t.store(1, 0, entry(10, 9)); // 18 half plies, generation 0
        for _ in 0..3 {
            t.new_search();
        }
        for key in [2, 3, 4] {
            t.store(key, 0, entry(10, 5)); // 10 half plies, generation 3
        }
        // Worth = half plies - 8 x age: key 1: 18 - 8*3 = -6; keys 2-4: 10 - 0 = 10.
        t.store(5, 0, entry(10, 2));
        assert!(t.probe(1, 0).is_none(), "the old deep entry makes way");
        assert!([2u64, 3, 4, 5].iter().all(|&k| t.probe(k, 0).is_some()));
    }

    #[test]
    fn an_empty_entry_is_taken_before_a_shallow_one_of_this_search() {
        let t = Table::new(0); // one bucket of four
        t.store(1, 0, entry(10, 0)); // depth 0, age 0: worth 0
        t.store(2, 0, entry(20, 0));
        assert_eq!(
            t.probe(1, 0).map(|e| e.score),
            Some(10),
            "not evicted while empty entries remain"
        );
        assert_eq!(t.probe(2, 0).map(|e| e.score), Some(20));
    }

    #[test]
    fn compact_upper_bounds_and_the_widest_move_code_survive_packing() {
        let t = Table::compact(1);
        let upper = Entry {
            bound: Bound::Upper,
            ..entry(-5, 4)
        };
        t.store(21, 0, upper);
        assert_eq!(t.probe(21, 0), Some(upper));
        // Codes 0..=126 fit in 7 bits (stored + 1); 127 does not and must not spill into
        // the depth bits.
        let widest = Entry {
            move_code: Some(126),
            ..entry(1, 2)
        };
        t.store(22, 0, widest);
        assert_eq!(t.probe(22, 0), Some(widest));
        // Beyond a loss at the root (-WIN) nothing is a decisive score within MAX_PLY plies
        // nor an evaluation within the band: not stored.
        t.store(24, 0, entry(-score::WIN - 1, 1));
        assert_eq!(t.probe(24, 0), None);
        t.store(
            23,
            0,
            Entry {
                move_code: Some(127),
                ..entry(1, 2)
            },
        );
        assert_eq!(
            t.probe(23, 0),
            Some(Entry {
                move_code: None,
                ..entry(1, 2)
            })
        );
    }

    #[test]
    fn negative_scores_and_missing_moves_survive_packing() {
        let t = Table::new(1);
        let e = Entry {
            score: -123_456,
            move_code: None,
            depth: 255 * HALF_PLY,
            bound: Bound::Upper,
        };
        t.store(7, 0, e);
        assert_eq!(t.probe(7, 0), Some(e));
        assert_eq!(e.cutoff(-200_000, 0), None);
        assert_eq!(e.cutoff(-100_000, 0), Some(-123_456));
    }
}
