//! Retrograde analysis by the counting scheme (Thompson, "Retrograde analysis of certain
//! endgames", ICCA Journal 9(3), 1986; the "counter" formulation as in Wu and Beal, "A
//! memory efficient retrograde algorithm and its application to Chinese chess endgames",
//! 2002): the positions where Black is mated are lost in 0 plies; every position from which
//! White reaches a position lost in `d` is won in `d + 1` (the first time it is reached,
//! which is the shortest win, since distances grow level by level); each Black-to-move
//! position keeps a counter of its moves not yet known to lose, and when the last one is
//! refuted the position is lost in `d + 2` (its longest resistance). Predecessors come from
//! un-move generation ([`Ending::white_unmoves`], [`Ending::black_unmoves`]), so each level
//! touches only the positions next to the previous one, never the whole table again.
//!
//! The strong side is White. Black has only its king, so Black never wins; a Black move
//! that captures leaves a drawn ending (the position can never be lost), and a promotion
//! leaves the table for the ending it promotes into (those distances are looked up in the
//! smaller tables, built first, and enter the levels as seeds).

use std::time::Instant;

use super::board::Extra;
use super::{Ending, ILLEGAL, Tablebase, encode};

/// A Black-to-move position that can never be lost (a capture or stalemate is available):
/// its counter is parked here.
const SAFE: u8 = u8::MAX;

/// What a build reports beside the table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildStats {
    /// Legal positions in the table (one per symmetry class), both sides to move.
    pub slots: u64,
    /// The same positions counted on the full board (each class by its number of images).
    pub positions: u64,
    /// Positions on the full board, White to move: wins, draws.
    pub white_to_move: [u64; 2],
    /// Positions on the full board, Black to move: losses, draws.
    pub black_to_move: [u64; 2],
    /// The longest win with White to move, in plies.
    pub longest_win_plies: u32,
    /// Bytes the build held at its peak (the table, the counters and the level lists).
    pub peak_bytes: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The table of `ending` and its statistics; `progress` is told the level just finished.
pub fn build(ending: Ending, progress: &mut dyn FnMut(u32)) -> (Tablebase, BuildStats) {
    let started = Instant::now();
    let promotions: Vec<(Extra, Tablebase)> = ending
        .promotion_endings()
        .iter()
        .map(|&(piece, sub)| (piece, build(sub, &mut |_| {}).0))
        .collect();
    let per_side = ending.entries_per_side();
    let mut values = vec![0u8; 2 * per_side];
    let mut counters = vec![SAFE; per_side];
    let mut losses = initialise(ending, &mut values, &mut counters);
    let mut seeds = promotion_seeds(ending, &values, &promotions);
    let mut peak_lists = 0;
    let mut unmoves = Vec::with_capacity(32);
    let mut level = 0u32;
    while !losses.is_empty() || !seeds.is_empty() {
        let win = level + 1;
        let mut wins = Vec::new();
        for &lost in &losses {
            ending.white_unmoves(&ending.decode(lost as usize), &mut unmoves);
            for pred in &unmoves {
                mark_win(ending.index(pred), win, &mut values, &mut wins);
            }
        }
        while seeds.last().is_some_and(|&(d, _)| d == win) {
            let (_, index) = seeds.pop().expect("checked");
            mark_win(index, win, &mut values, &mut wins);
        }
        let next = refute(ending, &wins, level + 2, &mut values, &mut counters);
        peak_lists = peak_lists.max((losses.len() + wins.len() + next.len()) * 4);
        losses = next;
        progress(win);
        level += 2;
    }
    let table = Tablebase { ending, values };
    let mut stats = statistics(&table);
    stats.peak_bytes = table.values.len() + counters.len() + peak_lists;
    stats.seconds = started.elapsed().as_secs_f64();
    (table, stats)
}

/// Marks White-to-move slot `index` won in `plies` if nothing was known of it.
fn mark_win(index: usize, plies: u32, values: &mut [u8], wins: &mut Vec<u32>) {
    if values[index] == 0 {
        values[index] = encode(plies);
        wins.push(index as u32);
    }
}

/// Decrements the counter of every Black-to-move predecessor of the positions just won;
/// those left without a move that escapes are lost in `plies`.
fn refute(
    ending: Ending,
    wins: &[u32],
    plies: u32,
    values: &mut [u8],
    counters: &mut [u8],
) -> Vec<u32> {
    let per_side = ending.entries_per_side();
    let mut lost = Vec::new();
    let mut preds = [0usize; 8];
    for &won in wins {
        let n = distinct(
            ending
                .black_unmoves(&ending.decode(won as usize))
                .map(|p| ending.index(&p)),
            &mut preds,
        );
        for &index in &preds[..n] {
            let counter = &mut counters[index - per_side];
            if *counter == SAFE || *counter == 0 {
                continue;
            }
            *counter -= 1;
            if *counter == 0 {
                values[index] = encode(plies);
                lost.push(index as u32);
            }
        }
    }
    lost
}

/// Collects the distinct values of `items` (at most 8) into `out`; returns how many.
fn distinct(items: impl Iterator<Item = usize>, out: &mut [usize; 8]) -> usize {
    let mut n = 0;
    for item in items {
        if !out[..n].contains(&item) {
            out[n] = item;
            n += 1;
        }
    }
    n
}

/// Marks illegal and non-canonical slots, counts each Black-to-move position's distinct
/// successors, and returns the positions where Black is mated (lost in 0 plies).
fn initialise(ending: Ending, values: &mut [u8], counters: &mut [u8]) -> Vec<u32> {
    let per_side = ending.entries_per_side();
    let mut mated = Vec::new();
    let mut succ = [0usize; 8];
    for (index, value) in values.iter_mut().enumerate() {
        let pos = ending.decode(index);
        if !ending.is_legal_slot(&pos, index) {
            *value = ILLEGAL;
            continue;
        }
        if pos.white_to_move {
            continue;
        }
        let (targets, captures) = ending.black_moves(&pos);
        if captures {
            continue;
        }
        if targets == 0 {
            if ending.black_in_check(&pos) {
                *value = encode(0);
                mated.push(index as u32);
            }
            continue;
        }
        let destinations = (0..64u8).filter(|&sq| targets & (1 << sq) != 0);
        let n = distinct(
            destinations.map(|to| ending.index(&ending.after_black_move(&pos, to))),
            &mut succ,
        );
        counters[index - per_side] = n as u8;
    }
    mated
}

/// White-to-move positions whose promotion reaches a lost position of the smaller ending:
/// `(win in plies, slot)`, longest first (so the next level's seeds are popped off the end).
fn promotion_seeds(
    ending: Ending,
    values: &[u8],
    promotions: &[(Extra, Tablebase)],
) -> Vec<(u32, usize)> {
    let mut seeds = Vec::new();
    if promotions.is_empty() {
        return seeds;
    }
    for (index, &value) in values[..ending.entries_per_side()].iter().enumerate() {
        if value == ILLEGAL {
            continue;
        }
        let pos = ending.decode(index);
        for (pawn, to) in ending.promotions(&pos) {
            let best = promotions
                .iter()
                .filter_map(|(piece, table)| table.loss_after_promotion(&pos, pawn, to, *piece))
                .min();
            if let Some(d) = best {
                seeds.push((d + 1, index));
            }
        }
    }
    seeds.sort_unstable_by(|a, b| b.cmp(a));
    seeds
}

/// Counts on the full board and the longest win.
fn statistics(table: &Tablebase) -> BuildStats {
    let ending = table.ending;
    let mut stats = BuildStats::default();
    for (index, &value) in table.values.iter().enumerate() {
        if value == ILLEGAL {
            continue;
        }
        let pos = ending.decode(index);
        let weight = ending.orbit_size(&pos);
        stats.slots += 1;
        stats.positions += weight;
        let decided = usize::from(value == 0);
        if pos.white_to_move {
            stats.white_to_move[decided] += weight;
            if value != 0 {
                stats.longest_win_plies = stats.longest_win_plies.max(u32::from(value) - 1);
            }
        } else {
            stats.black_to_move[decided] += weight;
        }
    }
    stats
}
