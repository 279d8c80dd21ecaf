//! Othello bitboard primitives: legal moves and flipped discs by shifts, with no tables and
//! no allocation.
//!
//! Square `a1` is bit 0, `h1` bit 7, `a2` bit 8, ..., `h8` bit 63 (row by row from the top,
//! the order of the 64-character board strings). Moving one square in a direction is a
//! shift of the whole board; a direction with a horizontal component masks out the file
//! that would wrap onto the next row.
//!
//! Both [`moves`] and [`flips`] are the "dumb7fill" (shift-and-mask flood fill) of the chess
//! programming wiki's Dumb7Fill and Kogge-Stone pages, as Othello programs use it (for
//! example Edax's `get_moves` in src/board.c, the same fill unrolled): starting from the
//! player's discs (moves) or from the square played (flips), follow runs of opponent discs
//! for at most six steps; a run that ends on an empty square is a move, one that ends on the
//! player's own disc is flipped.

/// Every square but the `a` and `h` files: opponent discs that a horizontal or diagonal run
/// may cross without wrapping from one row onto the next.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The eight directions as (shift, whether it moves towards higher bits, mask of opponent
/// discs it may cross).
const DIRECTIONS: [(u32, bool, u64); 8] = [
    (1, true, NOT_EDGE_FILES),  // east (b1 -> c1)
    (1, false, NOT_EDGE_FILES), // west
    (8, true, u64::MAX),        // south (a1 -> a2)
    (8, false, u64::MAX),       // north
    (9, true, NOT_EDGE_FILES),  // south-east
    (9, false, NOT_EDGE_FILES), // north-west
    (7, true, NOT_EDGE_FILES),  // south-west
    (7, false, NOT_EDGE_FILES), // north-east
];

/// Shifts `b` one square along a direction.
#[inline(always)]
const fn step(b: u64, shift: u32, up: bool) -> u64 {
    if up { b << shift } else { b >> shift }
}

/// The legal moves (as a set of empty squares) of the player owning `player` against
/// `opponent`.
#[inline]
#[must_use]
pub const fn moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let mut out = 0;
    let mut d = 0;
    while d < DIRECTIONS.len() {
        let (shift, up, mask) = DIRECTIONS[d];
        let o = opponent & mask;
        let mut run = step(player, shift, up) & o;
        run |= step(run, shift, up) & o;
        run |= step(run, shift, up) & o;
        run |= step(run, shift, up) & o;
        run |= step(run, shift, up) & o;
        run |= step(run, shift, up) & o;
        out |= step(run, shift, up) & empty;
        d += 1;
    }
    out
}

/// The opponent discs flipped when the player owning `player` plays on square `sq`
/// (0-63, empty); 0 when the move is illegal.
///
/// Per direction, from the line of squares beyond `sq` ([`RAYS`]): the first square on it
/// that is not the opponent's is the nearest set bit of `ray & !opponent` (the lowest for
/// rays towards higher bits, the highest for the others); if it is the player's, the ray's
/// squares before it are flipped. This is Edax's `flip_bitscan.c` idea: a few independent
/// operations per direction instead of a six-step dependent fill.
#[inline]
#[must_use]
pub const fn flips(sq: u32, player: u64, opponent: u64) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut out = 0;
    let mut d = 0;
    while d < 4 {
        // Towards higher bits: the nearest blocker is the lowest bit.
        let ray = rays[d];
        let blockers = ray & !opponent;
        let first = blockers & blockers.wrapping_neg();
        if first & player != 0 {
            out |= ray & (first - 1);
        }
        // Towards lower bits: the nearest blocker is the highest bit.
        let ray = rays[d + 4];
        let blockers = ray & !opponent;
        if blockers != 0 {
            let top = 63 - blockers.leading_zeros();
            if player >> top & 1 == 1 {
                out |= ray & !((2u64 << top) - 1);
            }
        }
        d += 1;
    }
    out
}

/// For each square, the squares beyond it in each direction: east, south, south-east,
/// south-west (towards higher bits), then west, north, north-west, north-east.
pub const RAYS: [[u64; 8]; 64] = ray_table();

const fn ray_table() -> [[u64; 8]; 64] {
    // (column step, row step) per direction, in the order of RAYS.
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut table = [[0; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = STEPS[d];
            let (mut c, mut r) = (sq as i32 % 8 + dc, sq as i32 / 8 + dr);
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                table[sq][d] |= 1 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// The squares around each square (up to eight): a square with no opponent disc among them
/// flips nothing, which the endgame solver checks before computing flips (as Edax's
/// `NEIGHBOUR` table).
pub const NEIGHBOURS: [u64; 64] = neighbour_table();

const fn neighbour_table() -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let b = 1u64 << sq;
        let h = ((b << 1) & 0xFEFE_FEFE_FEFE_FEFE) | ((b >> 1) & 0x7F7F_7F7F_7F7F_7F7F);
        let row = b | h;
        table[sq] = h | (row << 8) | (row >> 8);
        sq += 1;
    }
    table
}

/// The final disc difference for the owner of `player`, the empty squares going to the
/// winner (the convention of the FFO test positions and of Edax; a draw stays 0).
#[inline]
#[must_use]
pub const fn final_score(player: u64, opponent: u64) -> i32 {
    let mine = player.count_ones() as i32;
    let theirs = opponent.count_ones() as i32;
    let empty = 64 - mine - theirs;
    let diff = mine - theirs;
    if diff > 0 {
        diff + empty
    } else if diff < 0 {
        diff - empty
    } else {
        0
    }
}

/// The four 4x4 quadrants, the regions of parity ordering (Edax's `QUADRANT_ID`): near the
/// end of the game each quadrant is mostly a region of its own.
pub const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The empty squares lying in quadrants that hold an odd number of empty squares.
#[inline]
#[must_use]
pub const fn odd_regions(empty: u64) -> u64 {
    let mut odd = 0;
    let mut q = 0;
    while q < QUADRANTS.len() {
        if (empty & QUADRANTS[q]).count_ones() % 2 == 1 {
            odd |= QUADRANTS[q];
        }
        q += 1;
    }
    odd & empty
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A naive reference: walk each direction square by square with coordinates.
    fn naive_flips(sq: u32, player: u64, opponent: u64) -> u64 {
        let (r0, c0) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut out = 0;
        for (dr, dc) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            let (mut r, mut c) = (r0 + dr, c0 + dc);
            let mut run = 0u64;
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        out |= run;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        out
    }

    #[test]
    fn fills_agree_with_a_square_by_square_walk_on_random_boards() {
        let mut rng = crate::rng::XorShift::new(13);
        for _ in 0..20_000 {
            let a = rng.next_u64();
            let b = rng.next_u64() & !a;
            let (player, opponent) = (a & rng.next_u64(), b);
            let empty = !(player | opponent);
            let mut expected_moves = 0;
            for sq in 0..64 {
                if empty >> sq & 1 == 1 {
                    let f = naive_flips(sq, player, opponent);
                    assert_eq!(flips(sq, player, opponent), f);
                    if f != 0 {
                        expected_moves |= 1 << sq;
                    }
                }
            }
            assert_eq!(moves(player, opponent), expected_moves);
            for sq in 0..64 {
                if NEIGHBOURS[sq as usize] & opponent == 0 {
                    assert_eq!(naive_flips(sq, player, opponent), 0);
                }
            }
        }
    }

    #[test]
    fn final_scores_give_the_empty_squares_to_the_winner() {
        assert_eq!(final_score(0xFF, 0xF00), 4 + 52);
        assert_eq!(final_score(0xF00, 0xFF), -56);
        assert_eq!(final_score(0xF, 0xF0), 0);
        assert_eq!(odd_regions(0b101), 0);
        assert_eq!(odd_regions(0b111), 0b111);
    }
}
