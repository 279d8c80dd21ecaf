//! Othello bitboard primitives: legal moves, flipped discs and the features move ordering
//! and the endgame solver read, by shifts and small constant tables, with no allocation.
//!
//! Square `a1` is bit 0, `h1` bit 7, `a2` bit 8, ..., `h8` bit 63 (row by row from the top,
//! the order of the 64-character board strings). Moving one square in a direction is a
//! shift of the whole board; a direction with a horizontal component masks out the file
//! that would wrap onto the next row.
//!
//! [`moves`] is a flood fill (the chess programming wiki's Dumb7Fill and Kogge-Stone pages,
//! as Othello programs use it, for example Edax's `get_moves` in src/board.c): from the
//! player's discs, follow runs of opponent discs for at most six squares; a run that ends
//! on an empty square is a move. [`flips`] looks along the lines from the square played
//! for the first square that is not the opponent's.
//!
//! Both have two implementations that give the same bits. The portable ones
//! ([`moves_portable`], [`flips_portable`]) take the eight directions one after another.
//! On an x86-64 processor with AVX2, detected at run time (the build targets x86-64-v2,
//! which lacks it), the `avx2` module takes four directions at once, one per 64-bit lane
//! of a 256-bit register, as Edax 4.6 does (its `get_moves` for AVX2 and Okuhara's
//! src/flip_avx_ppfill.c). Measured on FFO 20-51 (rungs 14 and 15 of
//! experiments/othello.toml): 14-16% less time, the same nodes.

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
/// `opponent`: `avx2::moves` where the processor has AVX2, else [`moves_portable`].
#[inline]
#[must_use]
pub fn moves(player: u64, opponent: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the processor has AVX2.
        return unsafe { avx2::moves(player, opponent) };
    }
    moves_portable(player, opponent)
}

/// [`moves`], one direction at a time. A run of up to six opponent discs is found in four
/// dependent steps rather than six: after two single steps, two double steps through
/// `pairs`, the opponent discs whose neighbour back along the direction is also the
/// opponent's (Kogge-Stone's parallel prefix, as Edax's `get_moves`).
#[inline]
#[must_use]
pub const fn moves_portable(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let mut out = 0;
    let mut d = 0;
    while d < DIRECTIONS.len() {
        let (shift, up, mask) = DIRECTIONS[d];
        let o = opponent & mask;
        let pairs = o & step(o, shift, up);
        let mut run = step(player, shift, up) & o;
        run |= step(run, shift, up) & o;
        run |= step(run, 2 * shift, up) & pairs;
        run |= step(run, 2 * shift, up) & pairs;
        out |= step(run, shift, up) & empty;
        d += 1;
    }
    out
}

/// The opponent discs flipped when the player owning `player` plays on square `sq`
/// (0-63, empty); 0 when the move is illegal: `avx2::flips` where the processor has AVX2,
/// else [`flips_portable`].
#[inline]
#[must_use]
pub fn flips(sq: u32, player: u64, opponent: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        // SAFETY: the processor has AVX2.
        return unsafe { avx2::flips(sq, player, opponent) };
    }
    flips_portable(sq, player, opponent)
}

/// [`flips`], one direction at a time.
///
/// Per direction, from the line of squares beyond `sq` ([`RAYS`]): the first square on it
/// that is not the opponent's is the nearest set bit of `ray & !opponent` (the lowest for
/// rays towards higher bits, the highest for the others); if it is the player's, the ray's
/// squares before it are flipped. This is Edax's `flip_bitscan.c` idea: a few independent
/// operations per direction instead of a six-step dependent fill.
#[inline]
#[must_use]
pub const fn flips_portable(sq: u32, player: u64, opponent: u64) -> u64 {
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
        table[sq] = neighbours(1 << sq);
        sq += 1;
    }
    table
}

/// The squares next to (in any of the eight directions) a square of `b`, those of `b`
/// included only where they are next to another.
#[inline]
#[must_use]
pub const fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & 0xFEFE_FEFE_FEFE_FEFE) | ((b >> 1) & 0x7F7F_7F7F_7F7F_7F7F);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// The empty squares of `empty` next to a disc of `discs` along a line on which that disc
/// could be flipped (a disc on the edge of the board cannot be flipped across it): where the
/// other player may later play against those discs, its potential mobility (Rosenbloom's
/// IAGO, 1982; Edax's `get_potential_moves`, src/board.c).
#[inline]
#[must_use]
pub const fn potential_moves(discs: u64, empty: u64) -> u64 {
    let inner_files = discs & 0x7E7E_7E7E_7E7E_7E7E;
    let inner_rows = discs & 0x00FF_FFFF_FFFF_FF00;
    let inner = inner_files & inner_rows;
    let beside = (inner_files << 1) | (inner_files >> 1);
    let above_below = (inner_rows << 8) | (inner_rows >> 8);
    let diagonal = (inner << 7) | (inner >> 7) | (inner << 9) | (inner >> 9);
    (beside | above_below | diagonal) & empty
}

/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The size of a set of squares with the corners counted twice (Edax's
/// `bit_weighted_count`): a corner, which can never be flipped, is worth two.
#[inline]
#[must_use]
pub const fn corner_weighted_count(b: u64) -> u32 {
    b.count_ones() + (b & CORNERS).count_ones()
}

/// The discs of `discs` that can never be flipped because they are a corner or lie on an
/// edge next to a corner of the same owner (Edax's `get_corner_stability`; a cheap part of
/// full stability, enough to order moves by).
#[inline]
#[must_use]
pub const fn corner_stable(discs: u64) -> u64 {
    let corners = discs & CORNERS;
    // One square along each edge from each owned corner (bit 0 is a1, bit 8 a2): from a1 and
    // a8 to the b file, from h1 and h8 to the g file, from a1 and h1 to row 2, from a8 and h8
    // to row 7.
    let on_a_file = corners & 0x0100_0000_0000_0001;
    let on_h_file = corners & 0x8000_0000_0000_0080;
    let on_row_1 = corners & 0x0000_0000_0000_0081;
    let on_row_8 = corners & 0x8100_0000_0000_0000;
    let beside = (on_a_file << 1) | (on_h_file >> 1) | (on_row_1 << 8) | (on_row_8 >> 8);
    corners | (beside & discs)
}

/// `LAST_FLIPS[x << 8 | p]`: how many discs a move on square `x` of a line of eight turns
/// over along that line when the mover holds the squares of `p` and every other square but
/// `x` is the opponent's, as on a board with one empty square left.
static LAST_FLIPS: [u8; 8 << 8] = last_flips_table();

const fn last_flips_table() -> [u8; 8 << 8] {
    let mut table = [0; 8 << 8];
    let mut x = 0;
    while x < 8 {
        let mut p = 0;
        while p < 256 {
            table[x << 8 | p] = line_run(p, x, 1) + line_run(p, x, -1);
            p += 1;
        }
        x += 1;
    }
    table
}

/// The opponent squares from square `x` of a full line of eight up to the mover's nearest
/// square (of `mover`) in direction `dir` (±1): the discs a move on `x` turns over that
/// way, or 0 when no square of the mover closes the run.
const fn line_run(mover: usize, x: usize, dir: isize) -> u8 {
    let mut run = 0;
    let mut y = x as isize + dir;
    while y >= 0 && y < 8 {
        if mover >> y & 1 == 1 {
            return run;
        }
        run += 1;
        y += dir;
    }
    0
}

/// The a file (`a1` to `a8`).
pub(super) const A_FILE: u64 = 0x0101_0101_0101_0101;

/// The a-file squares of `b` gathered into a byte, `a1` lowest: the shifts by 7, 14 and 28
/// bits add up to 7 bits per row, which bring the square of row `r` (bit `8r`) to bit `r`.
#[inline]
pub(super) const fn a_file_to_byte(b: u64) -> usize {
    let mut x = b & A_FILE;
    x |= x >> 7;
    x |= x >> 14;
    x |= x >> 28;
    (x & 0xFF) as usize
}

/// How many discs the owner of `discs` turns over by playing on `sq`, the board's last
/// empty square. With every other square taken, the discs not its own are all the
/// opponent's, so each of the four lines through `sq` is one lookup in a table and
/// no flips are computed (Edax's `count_last_flip`, src/count_last_flip_kindergarten.c).
#[inline]
#[must_use]
pub fn last_flip_count(sq: u32, discs: u64) -> u32 {
    let (row, file) = (sq / 8, sq % 8);
    let count = |x: u32, line: usize| u32::from(LAST_FLIPS[(x as usize) << 8 | line]);
    // A diagonal holds one square per file, so one multiplication gathers it into the top
    // byte, by file (the "kindergarten" bitboard trick). Squares off the diagonal then read
    // as the opponent's, which turns nothing over: no run of them ends on the mover's disc.
    let diagonal = |mask: u64| ((discs & mask).wrapping_mul(A_FILE) >> 56) as usize;
    let rays = &RAYS[sq as usize];
    count(file, (discs >> (8 * row)) as usize & 0xFF)
        + count(row, a_file_to_byte(discs >> file))
        + count(file, diagonal(rays[2] | rays[6]))
        + count(file, diagonal(rays[3] | rays[7]))
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

/// The quadrants holding an odd number of the squares of `empty`, as four bits: quadrant
/// `q` of [`QUADRANTS`] is bit `q`. A move flips one bit ([`quadrant_bit`]), so a search
/// can keep them as it goes (Edax's `search->parity`) instead of counting again.
#[inline]
#[must_use]
pub const fn odd_quadrants(empty: u64) -> usize {
    let mut odd = 0;
    let mut q = 0;
    while q < QUADRANTS.len() {
        odd |= ((empty & QUADRANTS[q]).count_ones() as usize & 1) << q;
        q += 1;
    }
    odd
}

/// The bit of [`odd_quadrants`] that a move on `sq` flips: its quadrant's (rows 5-8 are
/// squares 32 and up, files e-h have bit 2 set).
#[inline]
#[must_use]
pub const fn quadrant_bit(sq: u32) -> usize {
    1 << ((sq >> 5) << 1 | (sq >> 2) & 1)
}

/// The squares of the quadrants whose bits `odd` holds (as [`odd_quadrants`] gives them).
#[inline]
#[must_use]
pub const fn quadrant_squares(odd: usize) -> u64 {
    QUADRANT_SQUARES[odd]
}

/// [`quadrant_squares`] for each of the 16 sets of quadrants.
const QUADRANT_SQUARES: [u64; 16] = {
    let mut table = [0; 16];
    let mut odd = 0;
    while odd < 16 {
        let mut q = 0;
        while q < QUADRANTS.len() {
            if odd >> q & 1 == 1 {
                table[odd] |= QUADRANTS[q];
            }
            q += 1;
        }
        odd += 1;
    }
    table
};

/// The empty squares lying in quadrants that hold an odd number of empty squares.
#[inline]
#[must_use]
pub const fn odd_regions(empty: u64) -> u64 {
    quadrant_squares(odd_quadrants(empty)) & empty
}

/// [`moves`] and [`flips`] with AVX2: the four directions towards higher bits (east,
/// south, south-east, south-west: shifts 1, 8, 9 and 7) in the four lanes of one 256-bit
/// register, the four towards lower bits in another, as Edax 4.6 does.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{NOT_EDGE_FILES, RAYS};
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_add_epi64,
        _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64,
        _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x,
        _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srlv_epi64, _mm256_sub_epi64,
    };

    /// Whether this processor has AVX2 (the standard library detects it once and caches
    /// the answer).
    #[inline]
    pub(super) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
    }

    /// One step along each lane's line, as a shift: the rows, the files, the diagonals
    /// from a1 to h8 and those from h1 to a8 (east or west, south or north, ...).
    const STEP: [u64; 4] = [1, 8, 9, 7];

    /// Four words in the four lanes, the first in the lowest.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn lanes(words: [u64; 4]) -> __m256i {
        let [a, b, c, d] = words.map(|w| w as i64);
        _mm256_set_epi64x(d, c, b, a)
    }

    /// The union of the four lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn union(v: __m256i) -> u64 {
        let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }

    /// [`super::moves`]: [`super::moves_portable`]'s fill, four directions at a time.
    #[target_feature(enable = "avx2")]
    pub(super) fn moves(player: u64, opponent: u64) -> u64 {
        let p = _mm256_set1_epi64x(player as i64);
        let crossable = [NOT_EDGE_FILES, u64::MAX, NOT_EDGE_FILES, NOT_EDGE_FILES];
        let o = _mm256_and_si256(_mm256_set1_epi64x(opponent as i64), lanes(crossable));
        let ends = _mm256_or_si256(run_ends(p, o, true), run_ends(p, o, false));
        union(ends) & !(player | opponent)
    }

    /// The squares just beyond the runs of `o` that start next to `p`, in each lane's
    /// direction towards higher bits if `up`, else towards lower bits.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn run_ends(p: __m256i, o: __m256i, up: bool) -> __m256i {
        let step = lanes(STEP);
        let double = _mm256_add_epi64(step, step);
        let pairs = _mm256_and_si256(o, shift(o, step, up));
        let mut run = _mm256_and_si256(o, shift(p, step, up));
        run = _mm256_or_si256(run, _mm256_and_si256(o, shift(run, step, up)));
        run = _mm256_or_si256(run, _mm256_and_si256(pairs, shift(run, double, up)));
        run = _mm256_or_si256(run, _mm256_and_si256(pairs, shift(run, double, up)));
        shift(run, step, up)
    }

    /// Each lane of `v` shifted by its own count, towards higher bits if `up`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn shift(v: __m256i, counts: __m256i, up: bool) -> __m256i {
        if up {
            _mm256_sllv_epi64(v, counts)
        } else {
            _mm256_srlv_epi64(v, counts)
        }
    }

    /// [`super::flips`]. Towards higher bits, as [`super::flips_portable`]: the lowest
    /// blocker (a square not the opponent's) is `b & -b`. Towards lower bits there is no
    /// four-lane bit scan in AVX2, so the highest blocker is found by smearing the blockers
    /// down their line (by 1, 2 and 4 steps, seven squares in all, Okuhara's "parallel
    /// prefix fill"): the smear covers the highest blocker and everything beyond it, and
    /// shifted one step further it covers every blocker but the highest.
    #[target_feature(enable = "avx2")]
    pub(super) fn flips(sq: u32, player: u64, opponent: u64) -> u64 {
        let [e, s, se, sw, w, n, nw, ne] = RAYS[sq as usize];
        let zero = _mm256_setzero_si256();
        let p = _mm256_set1_epi64x(player as i64);
        let not_o = _mm256_set1_epi64x(!opponent as i64);
        // Towards higher bits: the squares below an outflanking disc of the player's.
        let rays = lanes([e, s, se, sw]);
        let blockers = _mm256_and_si256(rays, not_o);
        let lowest = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
        let outflank = _mm256_and_si256(lowest, p);
        let below = _mm256_and_si256(_mm256_add_epi64(outflank, _mm256_set1_epi64x(-1)), rays);
        let up = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), below);
        // Towards lower bits: the squares above it.
        let step = lanes(STEP);
        let rays = lanes([w, n, nw, ne]);
        let blockers = _mm256_and_si256(rays, not_o);
        let mut covered = _mm256_or_si256(blockers, _mm256_srlv_epi64(blockers, step));
        let double = _mm256_add_epi64(step, step);
        covered = _mm256_or_si256(covered, _mm256_srlv_epi64(covered, double));
        let quadruple = _mm256_add_epi64(double, double);
        covered = _mm256_or_si256(covered, _mm256_srlv_epi64(covered, quadruple));
        let highest = _mm256_andnot_si256(_mm256_srlv_epi64(covered, step), blockers);
        let outflank = _mm256_and_si256(highest, p);
        let above = _mm256_andnot_si256(covered, rays);
        let down = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), above);
        union(_mm256_or_si256(up, down))
    }
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

    /// `moves` and `flips` of an implementation, checked against the square-by-square walk
    /// on random boards: 20,000 with each share of the board (a quarter, a half, three
    /// quarters and seven eighths) the opponent's, so that runs of every length are met.
    fn check_fills(moves: impl Fn(u64, u64) -> u64, flips: impl Fn(u32, u64, u64) -> u64) {
        let mut rng = crate::rng::XorShift::new(13);
        for share in 0..4 {
            for _ in 0..20_000 {
                let mut opponent = rng.next_u64();
                match share {
                    0 => opponent &= rng.next_u64(),
                    _ => (1..share).for_each(|_| opponent |= rng.next_u64()),
                }
                let player = rng.next_u64() & rng.next_u64() & !opponent;
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
    }

    #[test]
    fn portable_fills_agree_with_a_square_by_square_walk_on_random_boards() {
        check_fills(moves_portable, flips_portable);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_fills_agree_with_a_square_by_square_walk_on_random_boards() {
        if !avx2::available() {
            println!("skipped: this processor has no AVX2");
            return;
        }
        // SAFETY (both): the processor has AVX2, checked above.
        check_fills(
            |p, o| unsafe { avx2::moves(p, o) },
            |sq, p, o| unsafe { avx2::flips(sq, p, o) },
        );
    }

    /// The square `(row, column)`'s bit, or 0 off the board.
    fn at(r: i32, c: i32) -> u64 {
        if (0..8).contains(&r) && (0..8).contains(&c) {
            1 << (r * 8 + c)
        } else {
            0
        }
    }

    #[test]
    fn potential_moves_and_corner_stability_agree_with_square_by_square_definitions() {
        let mut rng = crate::rng::XorShift::new(29);
        for _ in 0..5_000 {
            let discs = rng.next_u64() & rng.next_u64();
            let empty = !discs & rng.next_u64();
            // Potential moves: an empty square next to a disc that has a square on the
            // board beyond it, on the line from the empty square through the disc.
            let mut potential = 0;
            let mut stable = 0;
            for r in 0..8 {
                for c in 0..8 {
                    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                        for sign in [1, -1] {
                            let (dr, dc) = (dr * sign, dc * sign);
                            let next = at(r + dr, c + dc) & discs;
                            if at(r, c) & empty != 0 && next != 0 && at(r + 2 * dr, c + 2 * dc) != 0
                            {
                                potential |= at(r, c);
                            }
                        }
                    }
                    // Corner stability: a corner disc, or an edge disc next to a corner disc
                    // of the same owner, along the edge.
                    let corner = |r: i32, c: i32| (r == 0 || r == 7) && (c == 0 || c == 7);
                    let own = |r: i32, c: i32| at(r, c) & discs != 0;
                    let beside_corner = [(0, 1), (0, -1), (1, 0), (-1, 0)]
                        .iter()
                        .any(|&(dr, dc)| corner(r + dr, c + dc) && own(r + dr, c + dc))
                        && (r == 0 || r == 7 || c == 0 || c == 7);
                    if own(r, c) && (corner(r, c) || beside_corner) {
                        stable |= at(r, c);
                    }
                }
            }
            assert_eq!(
                potential_moves(discs, empty),
                potential,
                "{discs:x} {empty:x}"
            );
            assert_eq!(corner_stable(discs), stable, "{discs:x}");
            let corners = [0, 7, 56, 63]
                .iter()
                .filter(|&&s| discs >> s & 1 == 1)
                .count();
            assert_eq!(
                corner_weighted_count(discs),
                discs.count_ones() + corners as u32
            );
        }
    }

    #[test]
    fn last_flip_counts_are_the_flips_of_the_last_empty_square() {
        let mut rng = crate::rng::XorShift::new(31);
        for _ in 0..20_000 {
            let sq = rng.below(64) as u32;
            let discs = rng.next_u64() & !(1 << sq);
            let others = !discs & !(1 << sq);
            assert_eq!(
                last_flip_count(sq, discs),
                flips(sq, discs, others).count_ones(),
                "{discs:x} {sq}"
            );
        }
    }

    #[test]
    fn odd_regions_and_the_parity_bits_moves_keep_agree_with_counting() {
        let mut rng = crate::rng::XorShift::new(37);
        for _ in 0..5_000 {
            let empty = rng.next_u64() & rng.next_u64();
            let odd: u64 = QUADRANTS
                .iter()
                .filter(|&&q| (empty & q).count_ones() % 2 == 1)
                .fold(0, |all, &q| all | q);
            assert_eq!(odd_regions(empty), odd & empty, "{empty:x}");
            let parity = odd_quadrants(empty);
            for sq in 0..64 {
                let after = odd_quadrants(empty ^ 1 << sq);
                assert_eq!(parity ^ quadrant_bit(sq), after, "{empty:x} {sq}");
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
