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
    use std::collections::HashMap;

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

    /// A line of eight squares: `Some(true)` the player's, `Some(false)` the opponent's,
    /// `None` empty.
    type Line = [Option<bool>; 8];

    /// The line after `mover` (true: the player) puts a disc on the empty square `x`: each
    /// run of the other side's discs it closes against one of its own, towards either end,
    /// turns over.
    fn fill(line: &Line, x: usize, mover: bool) -> Line {
        let mut next = *line;
        next[x] = Some(mover);
        for step in [-1, 1] {
            let mut y = x as i32 + step;
            while (0..8).contains(&y) && line[y as usize] == Some(!mover) {
                y += step;
            }
            if (0..8).contains(&y) && line[y as usize] == Some(mover) {
                let mut z = x as i32 + step;
                while z != y {
                    next[z as usize] = Some(mover);
                    z += step;
                }
            }
        }
        next
    }

    /// The squares (bit i for square i) that are not the player's in `line` or in some
    /// line reached from it by filling its empty squares one at a time, in any order, each
    /// by either side: brute force over every filling, memoised on the line (3^8 lines).
    fn ever_lost(line: &Line, memo: &mut HashMap<Line, u8>) -> u8 {
        if let Some(&lost) = memo.get(line) {
            return lost;
        }
        let mut lost = 0;
        for (i, square) in line.iter().enumerate() {
            if *square != Some(true) {
                lost |= 1 << i;
            }
        }
        for x in 0..8 {
            if line[x].is_none() {
                for mover in [true, false] {
                    lost |= ever_lost(&fill(line, x, mover), memo);
                }
            }
        }
        memo.insert(*line, lost);
        lost
    }

    /// The line of bytes `p` (the player's) and `o` (the opponent's), bit i on square i.
    fn line_of(p: u8, o: u8) -> Line {
        std::array::from_fn(|i| {
            if p >> i & 1 == 1 {
                Some(true)
            } else if o >> i & 1 == 1 {
                Some(false)
            } else {
                None
            }
        })
    }

    /// The edge table against its definition, brute-forced: for every one of the 3^8
    /// lines, the player's squares that no filling of the line ever turns over.
    #[test]
    fn the_edge_table_is_every_filling_of_the_line_brute_forced() {
        let mut memo = HashMap::new();
        let mut stable_lines = 0;
        for p in 0..=255u8 {
            for o in (0..=255u8).filter(|o| o & p == 0) {
                let want = p & !ever_lost(&line_of(p, o), &mut memo);
                let got = EDGE_STABLE[usize::from(p) << 8 | usize::from(o)];
                assert!(
                    got == want,
                    "edge {p:08b} against {o:08b}: {got:08b}, by brute force {want:08b}"
                );
                stable_lines += usize::from(want != 0);
            }
        }
        // Lines with some stable disc and lines without both occur in plenty.
        assert!((1000..6000).contains(&stable_lines), "{stable_lines}");
    }

    /// [`stable_discs`] as its module doc defines it, on (file, rank) coordinates: the
    /// player's discs on each edge line that no filling of that line turns over
    /// ([`ever_lost`]), then, off the edges, repeatedly each disc of the player whose four
    /// lines (row, column, both diagonals) are each full or hold, beside it, a disc found
    /// so far.
    fn reference_stable(player: u64, opponent: u64, memo: &mut HashMap<Line, u8>) -> u64 {
        let bit = |f: i32, r: i32| 1u64 << (8 * r + f);
        let mut stable = 0;
        // Each edge as its eight (file, rank) squares in order.
        let edges: [[(i32, i32); 8]; 4] = [
            std::array::from_fn(|i| (i as i32, 0)),
            std::array::from_fn(|i| (i as i32, 7)),
            std::array::from_fn(|i| (0, i as i32)),
            std::array::from_fn(|i| (7, i as i32)),
        ];
        for edge in edges {
            let line: Line = edge.map(|(f, r)| {
                let b = bit(f, r);
                (player & b != 0)
                    .then_some(true)
                    .or((opponent & b != 0).then_some(false))
            });
            let lost = ever_lost(&line, memo);
            for (i, &(f, r)) in edge.iter().enumerate() {
                if line[i] == Some(true) && lost >> i & 1 == 0 {
                    stable |= bit(f, r);
                }
            }
        }
        let filled = player | opponent;
        // Whether the whole line through (f, r) along (df, dr) is filled.
        let full = |f: i32, r: i32, df: i32, dr: i32| {
            [1, -1].iter().all(|&s| {
                let (mut x, mut y) = (f, r);
                while (0..8).contains(&x) && (0..8).contains(&y) {
                    if filled & bit(x, y) == 0 {
                        return false;
                    }
                    (x, y) = (x + s * df, y + s * dr);
                }
                true
            })
        };
        loop {
            let mut grown = stable;
            for (f, r) in (1..7).flat_map(|r| (1..7).map(move |f| (f, r))) {
                if player & bit(f, r) == 0 {
                    continue;
                }
                let held = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().all(|&(df, dr)| {
                    full(f, r, df, dr) || stable & (bit(f + df, r + dr) | bit(f - df, r - dr)) != 0
                });
                if held {
                    grown |= bit(f, r);
                }
            }
            if grown == stable {
                return stable;
            }
            stable = grown;
        }
    }

    /// [`stable_discs`] equals its definition ([`reference_stable`]) on seeded random
    /// boards of every density, each side's discs in turn: no stable disc missed, none
    /// invented (which the flip check above would miss where no filling flips one).
    #[test]
    fn stable_discs_are_those_of_the_definition() {
        let mut rng = XorShift::new(88);
        let mut memo = HashMap::new();
        let (mut edge_seen, mut central_seen) = (0, 0);
        for i in 0..4000 {
            // Each square filled with probability (i % 16 + 1) / 17 (from 0 to 60 or so
            // empties), the player's with probability 1/2, 7/10, 8/10 or 9/10: boards
            // where stable discs spread far across the board, from several sides at once.
            let share = [5, 7, 8, 9][(i / 16 % 4) as usize];
            let (mut player, mut opponent) = (0u64, 0u64);
            for sq in 0..64 {
                if rng.below(17) <= i % 16 {
                    if rng.below(10) < share {
                        player |= 1 << sq;
                    } else {
                        opponent |= 1 << sq;
                    }
                }
            }
            for (p, o) in [(player, opponent), (opponent, player)] {
                let want = reference_stable(p, o, &mut memo);
                let got = stable_discs(p, o);
                assert!(
                    got == want,
                    "stable discs of {p:#018x} against {o:#018x}: {got:#018x}, \
                     by the definition {want:#018x}"
                );
                edge_seen += (want & !CENTRAL).count_ones();
                central_seen += (want & CENTRAL).count_ones();
            }
        }
        // The check checks something: thousands of stable discs on the edges and off them.
        assert!(
            edge_seen > 5_000 && central_seen > 1_000,
            "{edge_seen} {central_seen}"
        );
    }
}
