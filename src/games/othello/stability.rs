//! Stable discs: discs that no sequence of moves can ever turn over, so that the final
//! score is bounded by them. Edax's `get_stability` (src/board.c), after Buro's and
//! Andersson's solvers:
//!
//! - along each edge, the discs stable within the edge alone, read from a table made by
//!   trying every way of filling the edge's empty squares (`edge_stable`);
//! - discs every one of whose four lines (row, column, both diagonals) is full: no move can
//!   come along a full line;
//! - then, repeatedly, a disc each of whose four lines is full or holds a stable disc of the
//!   same owner beside it on that line (a flip along a line needs an empty square or an
//!   opponent's disc on both sides of it).
//!
//! Every disc found is stable; some stable discs are missed (the count is a lower bound),
//! which keeps a cutoff on it sound.

use std::sync::LazyLock;

use super::bits::{A_FILE, a_file_to_byte, flips};

/// Squares off the edges: the last step's neighbours by a shift stay on their line.
const CENTRAL: u64 = 0x007E_7E7E_7E7E_7E00;

/// The discs of `player` that `opponent` can never turn over (a subset of them all).
#[must_use]
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    let filled = player | opponent;
    let full = full_lines(filled);
    let central = player & CENTRAL;
    let mut new = edge_stable(player, opponent) | (full[0] & full[1] & full[2] & full[3] & central);
    let mut stable = 0;
    while new & !stable != 0 {
        stable |= new;
        let row = (stable >> 1) | (stable << 1) | full[0];
        let column = (stable >> 8) | (stable << 8) | full[1];
        let rising = (stable >> 7) | (stable << 7) | full[2];
        let falling = (stable >> 9) | (stable << 9) | full[3];
        new = row & column & rising & falling & central;
    }
    stable
}

/// The squares of full rows, full columns, full a8-h1 diagonals and full a1-h8 diagonals,
/// in that order.
fn full_lines(filled: u64) -> [u64; 4] {
    // Bit 8r of `row` stands for row r, bit f of `column` for file f.
    let mut row = filled & (filled >> 1);
    row &= row >> 2;
    row &= row >> 4;
    let rows = (row & A_FILE) * 0xFF;
    let mut column = filled & (filled >> 8);
    column &= column >> 16;
    column &= column >> 32;
    let columns = (column & 0xFF) * A_FILE;
    let full = |lines: &[u64; 15]| {
        lines
            .iter()
            .filter(|&&line| filled & line == line)
            .fold(0, |acc, line| acc | line)
    };
    [rows, columns, full(&RISING), full(&FALLING)]
}

/// The 15 diagonals along which file + row is constant: a8-h1 and its parallels.
static RISING: [u64; 15] = diagonals(7);
/// The 15 diagonals along which file − row is constant: a1-h8 and its parallels.
static FALLING: [u64; 15] = diagonals(9);

/// The 15 diagonals of squares `step` bits apart (7: rising, 9: falling), one per sum
/// (step 7) or difference (step 9) of file and row.
const fn diagonals(step: u32) -> [u64; 15] {
    let mut lines = [0; 15];
    let mut sq = 0;
    while sq < 64 {
        let (file, row) = (sq % 8, sq / 8);
        let index = if step == 7 {
            file + row
        } else {
            file + 7 - row
        };
        lines[index] |= 1 << sq;
        sq += 1;
    }
    lines
}

/// The discs of `player` on the four edges that no sequence of moves along the edge can
/// turn over.
fn edge_stable(player: u64, opponent: u64) -> u64 {
    let table = &*EDGE_STABLE;
    let lookup = |p: usize, o: usize| u64::from(table[p << 8 | o]);
    let row_1 = lookup(player as usize & 0xFF, opponent as usize & 0xFF);
    let row_8 = lookup((player >> 56) as usize, (opponent >> 56) as usize) << 56;
    let file_a = BYTE_TO_A_FILE[lookup(a_file_to_byte(player), a_file_to_byte(opponent)) as usize];
    let file_h = BYTE_TO_A_FILE
        [lookup(a_file_to_byte(player >> 7), a_file_to_byte(opponent >> 7)) as usize]
        << 7;
    row_1 | row_8 | file_a | file_h
}

/// `BYTE_TO_A_FILE[b]`: bit `r` of `b` placed on the a-file square of row `r`.
static BYTE_TO_A_FILE: [u64; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        while r < 8 {
            if b >> r & 1 == 1 {
                table[b] |= 1 << (8 * r);
            }
            r += 1;
        }
        b += 1;
    }
    table
};

/// `EDGE_STABLE[p << 8 | o]`: the squares of `p` on a line of eight (with `o` the
/// opponent's, disjoint from `p`) that stay `p`'s however the empty squares are filled,
/// each by either side, with the flips a disc placed there makes along the line (Edax's
/// `edge_stability` and `find_edge_stable`). Made once, on first use (64 KiB).
static EDGE_STABLE: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let mut table = vec![0; 1 << 16];
    for p in 0..256 {
        for o in 0..256 {
            if p & o == 0 {
                table[p << 8 | o] = edge_stable_squares(p as u8, o as u8, p as u8);
            }
        }
    }
    table
});

/// The squares of `stable` (a subset of `p`) still `p`'s after every way of filling the
/// empty squares of the line.
fn edge_stable_squares(p: u8, o: u8, stable: u8) -> u8 {
    let mut stable = stable & p;
    let empty = !(p | o);
    if stable == 0 || empty == 0 {
        return stable;
    }
    for x in 0..8 {
        if empty >> x & 1 == 0 {
            continue;
        }
        let (p2, o2) = place(p, o, x);
        stable = edge_stable_squares(p2, o2, stable);
        if stable == 0 {
            return 0;
        }
        let (o2, p2) = place(o, p, x);
        stable = edge_stable_squares(p2, o2, stable);
        if stable == 0 {
            return 0;
        }
    }
    stable
}

/// `mover` places a disc on square `x` of a line, turning over the runs of `other`'s discs
/// it closes on either side: the new `(mover, other)`. The line is read as row 1 of a
/// board holding nothing else, where only moves along the row turn discs over.
fn place(mover: u8, other: u8, x: u32) -> (u8, u8) {
    let flipped = flips(x, u64::from(mover), u64::from(other)) as u8;
    (mover | flipped | 1 << x, other & !flipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::XorShift;

    /// Whether some way of filling the empty squares, one at a time, each by either side
    /// (legal or not) with the flips the disc makes, turns over a disc of `target`, which
    /// `owner` holds: tried exhaustively.
    fn can_flip(owner: u64, other: u64, target: u64) -> bool {
        let mut rest = !(owner | other);
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let gain = flips(sq, owner, other);
            if can_flip(owner | gain | 1 << sq, other & !gain, target) {
                return true;
            }
            let loss = flips(sq, other, owner);
            if loss & target != 0 || can_flip(owner & !loss, other | loss | 1 << sq, target) {
                return true;
            }
        }
        false
    }

    #[test]
    fn corners_full_lines_and_their_neighbours_are_stable() {
        // Black holds a1 and b1, the rest of row 1 empty: both are stable (the edge); a
        // lone disc on d1 between empties is not.
        assert_eq!(stable_discs(0b11, 0), 0b11);
        assert_eq!(stable_discs(1 << 3, 0), 0);
        // A full board: every disc is stable.
        let black = 0x00FF_00FF_00FF_00FF;
        assert_eq!(stable_discs(black, !black), black);
        assert_eq!(stable_discs(!black, black), !black);
        // The start position: nothing is.
        assert_eq!(stable_discs(1 << 28 | 1 << 35, 1 << 27 | 1 << 36), 0);
    }

    #[test]
    fn no_filling_turns_over_a_disc_counted_stable() {
        // Random boards with 1 to 6 empty squares, every filling tried.
        let mut rng = XorShift::new(2026);
        let (mut stable_seen, mut central_seen) = (0, 0);
        for _ in 0..400 {
            let mut empty = 0u64;
            let count = 1 + rng.below(6) as u32;
            while empty.count_ones() < count {
                empty |= 1 << rng.below(64);
            }
            let player = rng.next_u64() & !empty;
            let opponent = !player & !empty;
            let stable = stable_discs(player, opponent);
            assert_eq!(stable & !player, 0, "only the player's discs");
            assert!(
                !can_flip(player, opponent, stable),
                "{player:#x} {opponent:#x}"
            );
            stable_seen += stable.count_ones();
            central_seen +=
                (stable & CENTRAL & !full_lines(!empty).iter().fold(!0, |a, l| a & l)).count_ones();
        }
        // The check checks something: many stable discs, some found only by propagation.
        assert!(stable_seen > 5000, "{stable_seen}");
        assert!(central_seen > 50, "{central_seen}");
    }

    #[test]
    fn edge_stability_matches_filling_the_edge() {
        // An a1 corner holds; a disc between an empty square and the opponent's does not;
        // a full edge is all stable.
        assert_eq!(
            edge_stable_squares(0b0000_0001, 0b0000_0010, 0b0000_0001),
            1
        );
        assert_eq!(
            edge_stable_squares(0b0000_0100, 0b0000_1000, 0b0000_0100),
            0
        );
        assert_eq!(
            edge_stable_squares(0b1010_1010, 0b0101_0101, 0b1010_1010),
            0b1010_1010
        );
        // The four edges read the same table.
        let h_file = 0x8080_8080_8080_8080;
        assert_eq!(edge_stable(1 << 7 | 1 << 15, 0), 1 << 7 | 1 << 15);
        assert_eq!(edge_stable(1 << 56, 1 << 48), 1 << 56);
        assert_eq!(edge_stable(h_file, 0), h_file);
    }
}
