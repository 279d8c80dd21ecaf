//! Checkers (English draughts) endgame databases by retrograde analysis: every position of
//! 1 to `N` pieces (N at most [`MAX_PIECES`]) with its exact value and distance to the win
//! in plies, in one table.
//!
//! Positions: a placement of black and white men and kings on the 32 squares, men never on
//! the row where they would be crowned, with Black to move. A White-to-move position is
//! looked up as its colour-reversed image (the board turned half round, bit `i` to bit
//! `31 - i`, and the colours swapped), which is a Black-to-move position of equal value, so
//! one side to move covers both. This is the convention of Schaeffer et al., "Checkers Is
//! Solved" (Science 317, 2007, table 1): its counts, 120, 6,972, 261,224 and 7,092,774
//! positions of 1, 2, 3 and 4 pieces, are exactly the placements counted here once each
//! (either colour may have no piece; the side to move without a piece has lost). The
//! tests check the four figures.
//!
//! Values as in the chess tables ([`super`]): one byte per slot, 0 a draw, 255 a slot that
//! is no position (two pieces on one square), otherwise the distance in plies plus one, odd
//! for a win of the side to move, even for a loss (0: no legal move). Distances are plies
//! to the position where the loser has no move, as in plylab's win-in-ply scores. The
//! 40-move rule ([`crate::games::checkers::NO_PROGRESS_PLIES`]) is ignored, as in every
//! checkers database (Schaeffer's too).
//!
//! Layout: slices by material (black men, black kings, white men, white kings), smallest
//! piece count first, each slice indexed by the combinatorial number system over the
//! squares each kind may stand on (28 for men, 32 for kings), kinds independent (so a few
//! slots overlap and are marked 255). The file is the chess format with the name `CHK<N>`.
//!
//! Build (the counting scheme of [`super::retro`], Thompson 1986): piece counts in
//! increasing order. A capture leaves fewer pieces, so a position with a capture (captures
//! are compulsory) takes its value at once from the smaller tables. Every other position
//! keeps a counter of its moves; the levels then go outwards from the positions without
//! moves, predecessors coming from un-moves (a king stepping back, a man stepping back,
//! a king on its crowning row turning back into the man it was), each checked to have had
//! no capture.

use std::time::Instant;

use crate::game::{Game, Player};
use crate::games::checkers::{BLACK, Checkers, Squares, WHITE};
use crate::search::probe::Exact;

use super::{ILLEGAL, TablebaseError, decode, encode};

/// The most pieces a table here holds (5 pieces would be 150 million slots).
pub const MAX_PIECES: u32 = 4;

/// Binomial coefficients `C(n, k)` for `n <= 32`, `k <= 4`.
const BINOMIAL: [[u32; 5]; 33] = binomials();

const fn binomials() -> [[u32; 5]; 33] {
    let mut t = [[0u32; 5]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 4 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// Black men stand on bits 0-27 (not on 29-32, where they are crowned), white men on bits
/// 4-31; kings anywhere.
const MAN_SQUARES: u32 = 28;
const WHITE_MAN_OFFSET: u32 = 4;

/// The rank of a set of `k` squares among the subsets of `0..n` (combinatorial number
/// system: the sum of `C(s_i, i + 1)` over the squares in increasing order).
fn rank(mut set: Squares) -> u32 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let s = set.trailing_zeros() as usize;
        set &= set - 1;
        r += BINOMIAL[s][i];
        i += 1;
    }
    r
}

/// The set of `k` squares with rank `r` (the inverse of [`rank`]).
fn unrank(mut r: u32, k: usize) -> Squares {
    let mut set = 0;
    for i in (1..=k).rev() {
        let mut s = i - 1;
        while BINOMIAL[s + 1][i] <= r {
            s += 1;
        }
        r -= BINOMIAL[s][i];
        set |= 1 << s;
    }
    set
}

/// One material: numbers of black men, black kings, white men, white kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slice {
    counts: [u8; 4],
    offset: usize,
    /// Slots per kind: `C(28, bm)`, `C(32, bk)`, `C(28, wm)`, `C(32, wk)`.
    sizes: [u32; 4],
}

impl Slice {
    fn len(&self) -> usize {
        self.sizes.iter().map(|&s| s as usize).product()
    }
}

/// The slices of 1 to `max` pieces, smallest piece count first, and the total slot count.
fn slices(max: u32) -> (Vec<Slice>, usize) {
    let mut out = Vec::new();
    let mut offset = 0;
    for n in 1..=max as u8 {
        for bm in 0..=n {
            for bk in 0..=n - bm {
                for wm in 0..=n - bm - bk {
                    let wk = n - bm - bk - wm;
                    let counts = [bm, bk, wm, wk];
                    let sizes = [
                        BINOMIAL[MAN_SQUARES as usize][bm as usize],
                        BINOMIAL[32][bk as usize],
                        BINOMIAL[MAN_SQUARES as usize][wm as usize],
                        BINOMIAL[32][wk as usize],
                    ];
                    let slice = Slice {
                        counts,
                        offset,
                        sizes,
                    };
                    offset += slice.len();
                    out.push(slice);
                }
            }
        }
    }
    (out, offset)
}

/// A position as four sets, Black to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placement {
    black_men: Squares,
    black_kings: Squares,
    white_men: Squares,
    white_kings: Squares,
}

impl Placement {
    fn of(pos: &Checkers) -> Self {
        let placement = Self {
            black_men: pos.men(BLACK),
            black_kings: pos.kings(BLACK),
            white_men: pos.men(WHITE),
            white_kings: pos.kings(WHITE),
        };
        if pos.side_to_move() == BLACK {
            placement
        } else {
            placement.reversed()
        }
    }

    /// The colour-reversed image: the board turned half round and the colours swapped.
    const fn reversed(self) -> Self {
        Self {
            black_men: self.white_men.reverse_bits(),
            black_kings: self.white_kings.reverse_bits(),
            white_men: self.black_men.reverse_bits(),
            white_kings: self.black_kings.reverse_bits(),
        }
    }

    const fn pieces(self) -> u32 {
        (self.black_men | self.black_kings | self.white_men | self.white_kings).count_ones()
    }

    /// The game position, with `to_move` to move (`None` for overlapping pieces).
    fn position(self, to_move: Player) -> Option<Checkers> {
        let (b, w) = (
            self.black_men | self.black_kings,
            self.white_men | self.white_kings,
        );
        if b & w != 0 || self.black_men & self.black_kings != 0 {
            return None;
        }
        if self.white_men & self.white_kings != 0 {
            return None;
        }
        Checkers::from_pieces(b, w, self.black_kings | self.white_kings, to_move).ok()
    }
}

/// The slot layout of a table of 1 to `max_pieces` pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    max_pieces: u32,
    slices: Vec<Slice>,
    len: usize,
}

impl Layout {
    fn new(max_pieces: u32) -> Self {
        let (slices, len) = slices(max_pieces);
        Self {
            max_pieces,
            slices,
            len,
        }
    }

    /// The slots of the positions of `pieces` pieces (consecutive: slices are by count).
    fn range(&self, pieces: u32) -> std::ops::Range<usize> {
        let of_count = self
            .slices
            .iter()
            .filter(|s| s.counts.iter().map(|&c| u32::from(c)).sum::<u32>() == pieces);
        let start = of_count.clone().map(|s| s.offset).min().unwrap_or(0);
        let end = of_count.map(|s| s.offset + s.len()).max().unwrap_or(0);
        start..end
    }

    fn slice_of(&self, counts: [u8; 4]) -> Option<&Slice> {
        self.slices.iter().find(|s| s.counts == counts)
    }

    /// The slot of a placement (1 to `max_pieces` pieces).
    fn index(&self, p: Placement) -> Option<usize> {
        let counts = [
            p.black_men.count_ones() as u8,
            p.black_kings.count_ones() as u8,
            p.white_men.count_ones() as u8,
            p.white_kings.count_ones() as u8,
        ];
        let slice = self.slice_of(counts)?;
        let ranks = [
            rank(p.black_men),
            rank(p.black_kings),
            rank(p.white_men >> WHITE_MAN_OFFSET),
            rank(p.white_kings),
        ];
        let mut index = 0usize;
        for (r, size) in ranks.iter().zip(slice.sizes) {
            index = index * size as usize + *r as usize;
        }
        Some(slice.offset + index)
    }

    /// The slice holding `index` and the placement there (which may overlap).
    fn decode(&self, index: usize) -> Placement {
        let slice = self
            .slices
            .iter()
            .rev()
            .find(|s| s.offset <= index)
            .expect("index in the table");
        let mut rest = index - slice.offset;
        let mut ranks = [0u32; 4];
        for k in (0..4).rev() {
            let size = slice.sizes[k] as usize;
            ranks[k] = (rest % size) as u32;
            rest /= size;
        }
        let set = |k: usize| unrank(ranks[k], usize::from(slice.counts[k]));
        Placement {
            black_men: set(0),
            black_kings: set(1),
            white_men: set(2) << WHITE_MAN_OFFSET,
            white_kings: set(3),
        }
    }
}

/// A checkers endgame database: the values of every position of 1 to `max_pieces` pieces.
#[derive(Clone, PartialEq, Eq)]
pub struct CheckersTable {
    max_pieces: u32,
    layout: Layout,
    values: Vec<u8>,
}

impl std::fmt::Debug for CheckersTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CheckersTable({} pieces, {} slots)",
            self.max_pieces,
            self.values.len()
        )
    }
}

/// What a build reports, per piece count (index 0: one piece).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckersStats {
    /// Positions (Black to move, each placement once: Schaeffer's count).
    pub positions: Vec<u64>,
    /// Among them: won, drawn and lost for the side to move.
    pub outcomes: Vec<[u64; 3]>,
    /// The longest win, in plies.
    pub longest_win_plies: Vec<u32>,
    /// Slots in the table (positions and overlapping placements).
    pub slots: usize,
    /// Bytes the build held at its peak (values, counters and level lists).
    pub peak_bytes: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A slot no longer waiting for its moves to be refuted.
const DONE: u8 = u8::MAX;

/// The four diagonal neighbours of every bit (up-left, up-right, down-left, down-right;
/// "up" towards bit 0, as in [`crate::games::checkers`]), `None` off the board.
const NEIGHBOURS: [[Option<u8>; 4]; 32] = neighbours();

const fn neighbours() -> [[Option<u8>; 4]; 32] {
    let mut t = [[None; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let row = (i / 4) as i8;
        let col = 2 * (i % 4) as i8 + if row % 2 == 0 { 1 } else { 0 };
        let steps = [(-1i8, -1i8), (-1, 1), (1, -1), (1, 1)];
        let mut d = 0;
        while d < 4 {
            let (r, c) = (row + steps[d].0, col + steps[d].1);
            if r >= 0 && r < 8 && c >= 0 && c < 8 {
                t[i][d] = Some((r * 4 + c / 2) as u8);
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// Black's crowning row, squares 29-32.
const BLACK_CROWN: Squares = 0xF000_0000;

/// The Black-to-move positions from which a Black step (no capture) leads to `after`
/// (White to move, drawn as a placement), pushed to `out` as slots.
fn unmoves(layout: &Layout, after: Placement, out: &mut Vec<usize>) {
    out.clear();
    let occupied = after.black_men | after.black_kings | after.white_men | after.white_kings;
    let mut push = |p: Placement| {
        let pos = p.position(BLACK).expect("un-move keeps squares apart");
        if !pos.has_capture() {
            out.push(layout.index(p).expect("same material"));
        }
    };
    let mut kings = after.black_kings;
    while kings != 0 {
        let to = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        for (d, from) in NEIGHBOURS[to].iter().enumerate() {
            let Some(from) = *from else { continue };
            let from_bit = 1u32 << from;
            if occupied & from_bit != 0 {
                continue;
            }
            let mut p = after;
            p.black_kings = (p.black_kings & !(1 << to)) | from_bit;
            push(p);
            // A king on Black's crowning row may have been a man a step before (men of
            // Black go down, so it came from above: directions 0 and 1).
            if d < 2 && BLACK_CROWN & (1 << to) != 0 {
                let mut p = after;
                p.black_kings &= !(1 << to);
                p.black_men |= from_bit;
                push(p);
            }
        }
    }
    let mut men = after.black_men;
    while men != 0 {
        let to = men.trailing_zeros() as usize;
        men &= men - 1;
        for from in NEIGHBOURS[to][..2].iter().flatten() {
            let from_bit = 1u32 << from;
            if occupied & from_bit != 0 {
                continue;
            }
            let mut p = after;
            p.black_men = (p.black_men & !(1 << to)) | from_bit;
            push(p);
        }
    }
}

/// The number of positions of exactly `pieces` pieces (1 to [`MAX_PIECES`]), counted as the
/// table counts them (each placement once, Black to move) but without building it: the
/// figure to compare with Schaeffer et al.'s table 1.
#[must_use]
pub fn count_positions(pieces: u32) -> u64 {
    let layout = Layout::new(pieces.clamp(1, MAX_PIECES));
    let range = layout.range(pieces);
    range
        .filter(|&i| layout.decode(i).position(BLACK).is_some())
        .count() as u64
}

/// The value of a table byte during the build.
fn known(values: &[u8], index: usize) -> Exact {
    decode(values[index]).expect("a position's slot")
}

/// Builds the table of 1 to `max_pieces` pieces; `progress` is told the piece count and
/// the level (plies) just finished.
///
/// # Errors
/// When `max_pieces` is 0 or above [`MAX_PIECES`].
pub fn build_checkers(
    max_pieces: u32,
    progress: &mut dyn FnMut(u32, u32),
) -> Result<(CheckersTable, CheckersStats), TablebaseError> {
    if max_pieces == 0 || max_pieces > MAX_PIECES {
        return Err(TablebaseError::UnknownEnding(format!(
            "checkers {max_pieces} (pieces: 1 to {MAX_PIECES})"
        )));
    }
    let started = Instant::now();
    let layout = Layout::new(max_pieces);
    let mut values = vec![ILLEGAL; layout.len];
    let mut counters = vec![DONE; layout.len];
    let mut peak_lists = 0;
    let mut moves = Vec::with_capacity(32);
    let mut preds = Vec::with_capacity(32);
    for n in 1..=max_pieces {
        let range = layout.range(n);
        // Level lists: positions whose value is decided at that many plies.
        let mut levels: Vec<Vec<u32>> = Vec::new();
        let at = |levels: &mut Vec<Vec<u32>>, plies: u32, index: usize| {
            let plies = plies as usize;
            if levels.len() <= plies {
                levels.resize_with(plies + 1, Vec::new);
            }
            levels[plies].push(index as u32);
        };
        for index in range {
            let placement = layout.decode(index);
            let Some(pos) = placement.position(BLACK) else {
                continue;
            };
            values[index] = 0;
            moves.clear();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                values[index] = encode(0);
                at(&mut levels, 0, index);
                continue;
            }
            if !moves[0].is_capture() {
                counters[index] = u8::try_from(moves.len()).expect("at most 16 steps");
                continue;
            }
            // Captures leave fewer pieces: the value is known now.
            let mut best_win = None::<u32>;
            let mut drawn = false;
            let mut longest_loss = 0;
            for &mv in &moves {
                let mut child = pos;
                child.play(mv);
                let slot = layout
                    .index(Placement::of(&child))
                    .expect("fewer pieces, in the table");
                match known(&values, slot) {
                    Exact::Loss(d) => best_win = Some(best_win.map_or(d + 1, |b| b.min(d + 1))),
                    Exact::Draw => drawn = true,
                    Exact::Win(d) => longest_loss = longest_loss.max(d + 1),
                }
            }
            if let Some(d) = best_win {
                values[index] = encode(d);
                at(&mut levels, d, index);
            } else if !drawn {
                values[index] = encode(longest_loss);
                at(&mut levels, longest_loss, index);
            }
        }
        let mut plies = 0;
        while plies < levels.len() {
            let decided = std::mem::take(&mut levels[plies]);
            peak_lists = peak_lists.max(decided.len() * 4);
            let win = plies % 2 == 1;
            for &q in &decided {
                // `q`, Black to move, is the image of the position White faces after a
                // Black move: its predecessors are found from that position.
                unmoves(&layout, layout.decode(q as usize).reversed(), &mut preds);
                for &p in &preds {
                    if counters[p] == DONE {
                        continue;
                    }
                    if !win {
                        values[p] = encode(plies as u32 + 1);
                        counters[p] = DONE;
                        at(&mut levels, plies as u32 + 1, p);
                    } else {
                        counters[p] -= 1;
                        if counters[p] == 0 {
                            values[p] = encode(plies as u32 + 1);
                            counters[p] = DONE;
                            at(&mut levels, plies as u32 + 1, p);
                        }
                    }
                }
            }
            progress(n, plies as u32);
            plies += 1;
        }
    }
    let table = CheckersTable {
        max_pieces,
        layout,
        values,
    };
    let mut stats = table.statistics();
    stats.peak_bytes = 2 * table.layout.len + peak_lists;
    stats.seconds = started.elapsed().as_secs_f64();
    Ok((table, stats))
}

impl CheckersTable {
    /// The most pieces a position here has.
    #[must_use]
    pub const fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The name written in files: `CHK4` for up to 4 pieces.
    #[must_use]
    pub fn name(&self) -> String {
        format!("CHK{}", self.max_pieces)
    }

    /// The value of `pos` for its side to move, `None` when it has more pieces (or none).
    #[must_use]
    pub fn probe(&self, pos: &Checkers) -> Option<Exact> {
        let placement = Placement::of(pos);
        if placement.pieces() > self.max_pieces {
            return None;
        }
        decode(self.values[self.layout.index(placement)?])
    }

    fn statistics(&self) -> CheckersStats {
        let layout = &self.layout;
        let n = self.max_pieces as usize;
        let mut stats = CheckersStats {
            positions: vec![0; n],
            outcomes: vec![[0; 3]; n],
            longest_win_plies: vec![0; n],
            slots: layout.len,
            ..CheckersStats::default()
        };
        for slice in &layout.slices {
            let k = slice.counts.iter().map(|&c| usize::from(c)).sum::<usize>() - 1;
            for &v in &self.values[slice.offset..slice.offset + slice.len()] {
                let Some(value) = decode(v) else { continue };
                stats.positions[k] += 1;
                match value {
                    Exact::Win(d) => {
                        stats.outcomes[k][0] += 1;
                        stats.longest_win_plies[k] = stats.longest_win_plies[k].max(d);
                    }
                    Exact::Draw => stats.outcomes[k][1] += 1,
                    Exact::Loss(_) => stats.outcomes[k][2] += 1,
                }
            }
        }
        stats
    }

    /// The values, for the file.
    pub(crate) fn values(&self) -> &[u8] {
        &self.values
    }

    /// Slots of a table of 1 to `max_pieces` pieces.
    pub(crate) fn slots(max_pieces: u32) -> usize {
        Layout::new(max_pieces).len
    }

    /// A table from a file's values (their length already checked against [`Self::slots`]).
    pub(crate) fn from_values(max_pieces: u32, values: Vec<u8>) -> Self {
        Self {
            max_pieces,
            layout: Layout::new(max_pieces),
            values,
        }
    }

    /// A random position of `pieces` pieces (with `rng`'s next numbers), Black or White to
    /// move, with its value here: for tests and experiments that sample the table.
    pub fn sample(&self, pieces: u32, rng: &mut crate::rng::XorShift) -> (Checkers, Exact) {
        let layout = &self.layout;
        let range = layout.range(pieces);
        loop {
            let index = range.start + rng.below(range.len() as u64) as usize;
            let Some(value) = decode(self.values[index]) else {
                continue;
            };
            let placement = layout.decode(index);
            let pos = if rng.below(2) == 0 {
                placement.position(BLACK)
            } else {
                placement.reversed().position(WHITE)
            };
            return (pos.expect("a position's slot"), value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_round_trip() {
        for (k, &count) in BINOMIAL[28].iter().enumerate() {
            for r in (0..count).step_by(97) {
                let set = unrank(r, k);
                assert_eq!(set.count_ones() as usize, k);
                assert!(set < 1 << 28);
                assert_eq!(rank(set), r);
            }
        }
    }

    #[test]
    fn slots_decode_and_index_back() {
        let layout = Layout::new(3);
        for index in (0..layout.len).step_by(101) {
            let p = layout.decode(index);
            assert_eq!(layout.index(p), Some(index));
        }
    }

    /// Every step's result lists the position among its un-moves' results.
    #[test]
    fn unmoves_invert_steps() {
        let layout = Layout::new(3);
        let mut rng = crate::rng::XorShift::new(7);
        let mut moves = Vec::new();
        let mut preds = Vec::new();
        let mut checked = 0;
        while checked < 2000 {
            let index = rng.below(layout.len as u64) as usize;
            let p = layout.decode(index);
            let Some(pos) = p.position(BLACK) else {
                continue;
            };
            moves.clear();
            pos.generate_moves(&mut moves);
            for &mv in moves.iter().filter(|m| !m.is_capture()) {
                let mut child = pos;
                child.play(mv);
                let image = Placement::of(&child);
                unmoves(&layout, image.reversed(), &mut preds);
                assert!(preds.contains(&index), "{pos:?} then {mv}");
                checked += 1;
            }
        }
    }
}
