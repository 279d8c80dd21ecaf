//! The connect-four linear evaluation: five features, side to move minus opponent.
//!
//! - `cells`: the summed number of lines of four through each stone's cell, the
//!   [`CentreFirst`] evaluation (with `cells = 1` and the rest 0 the linear evaluation *is*
//!   `CentreFirst`, tested);
//! - threats: empty cells that would complete a player's four (Pons's
//!   `compute_winning_position`, <http://blog.gamesolver.org/solving-connect-four/10-bitboard/>),
//!   split by parity as Allis's zugzwang analysis splits them (V. Allis, "A Knowledge-based
//!   Approach of Connect-Four", 1988, section 4): the first player's threats on odd rows
//!   (1, 3, 5 from the bottom) and the second player's on even rows are `threats_good_parity`,
//!   the others `threats_bad_parity`;
//! - `threats_playable`: threats whose cell can be played at once;
//! - `tempo`: 1 for the side to move.

use super::{FIXED, clamp_score, to_fixed};
use crate::game::{Evaluator, Score};
use crate::games::connect4::{CentreFirst, Column, Connect4, cell_weight};

/// Number of features (one weight each).
pub const FEATURES: usize = 5;

/// Weight names, in order.
pub const WEIGHT_NAMES: [&str; FEATURES] = [
    "cells",
    "threats_good_parity",
    "threats_bad_parity",
    "threats_playable",
    "tempo",
];

/// [`CentreFirst`] as weights.
pub const CENTRE_FIRST_WEIGHTS: [f64; FEATURES] = [1.0, 0.0, 0.0, 0.0, 0.0];

/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut b = 0;
    let mut c = 0;
    while c < 7 {
        b |= 1 << (7 * c);
        c += 1;
    }
    b
};
/// Every playable cell (the sentinel row excluded).
const BOARD: u64 = BOTTOM * 0b11_1111;
/// Rows 1, 3 and 5 counted from 1 at the bottom.
const ODD_ROWS: u64 = BOTTOM * 0b01_0101;

/// Empty cells that would complete four in a row for `stones` (Pons's bit shifts: vertical,
/// then for each of the horizontal and two diagonal directions the three ways a gap can sit
/// among three stones).
#[must_use]
pub fn winning_cells(stones: u64, mask: u64) -> u64 {
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    for s in [7u32, 6, 8] {
        let p = (stones << s) & (stones << (2 * s));
        r |= p & (stones << (3 * s));
        r |= p & (stones >> s);
        let p = (stones >> s) & (stones >> (2 * s));
        r |= p & (stones << s);
        r |= p & (stones >> (3 * s));
    }
    r & (BOARD ^ mask)
}

/// The feature values of `pos` for the side to move.
#[must_use]
pub fn features(pos: &Connect4) -> [i32; FEATURES] {
    let (me, mask) = pos.bitboards();
    let op = me ^ mask;
    let first_to_move = mask.count_ones().is_multiple_of(2);
    let (my_good, op_good) = if first_to_move {
        (ODD_ROWS, BOARD ^ ODD_ROWS)
    } else {
        (BOARD ^ ODD_ROWS, ODD_ROWS)
    };
    let (mine, theirs) = (winning_cells(me, mask), winning_cells(op, mask));
    let playable = (mask + BOTTOM) & BOARD;
    let n = |b: u64| b.count_ones() as i32;
    [
        cell_weight(me) - cell_weight(op),
        n(mine & my_good) - n(theirs & op_good),
        n(mine & !my_good) - n(theirs & !op_good),
        n(mine & playable) - n(theirs & playable),
        1,
    ]
}

/// The connect-four linear evaluation with fixed weights ([`FIXED`] per unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4Linear {
    w: [i32; FEATURES],
}

impl Connect4Linear {
    /// The evaluator with `weights` in [`WEIGHT_NAMES`] order.
    ///
    /// # Panics
    /// If `weights` does not hold [`FEATURES`] values.
    #[must_use]
    pub fn from_weights(weights: &[f64]) -> Self {
        assert_eq!(weights.len(), FEATURES, "connect4 linear weights");
        let mut w = [0; FEATURES];
        for (x, &v) in w.iter_mut().zip(weights) {
            *x = to_fixed(v);
        }
        Self { w }
    }
}

impl Evaluator<Connect4> for Connect4Linear {
    fn evaluate(&self, pos: &Connect4) -> Score {
        let f = features(pos);
        let sum: i64 = (0..FEATURES)
            .map(|i| i64::from(f[i]) * i64::from(self.w[i]))
            .sum();
        clamp_score(sum / FIXED)
    }

    /// The centre-first order of [`CentreFirst`].
    fn order_hint(&self, pos: &Connect4, mv: Column, depth: u32) -> i32 {
        CentreFirst.order_hint(pos, mv, depth)
    }
}

/// `x` with `Connect4Linear::evaluate ≈ w · x`: the features themselves.
pub fn gradient(pos: &Connect4, x: &mut [f64]) {
    for (x, f) in x.iter_mut().zip(features(pos)) {
        *x = f64::from(f);
    }
}

/// Neither side can complete four on its next move.
#[must_use]
pub fn is_quiet(pos: &Connect4) -> bool {
    let (me, mask) = pos.bitboards();
    let playable = (mask + BOTTOM) & BOARD;
    (winning_cells(me, mask) | winning_cells(me ^ mask, mask)) & playable == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation, Status};

    #[test]
    fn centre_first_equivalence_and_threats() {
        let linear = Connect4Linear::from_weights(&CENTRE_FIRST_WEIGHTS);
        let mut rng = crate::rng::XorShift::new(3);
        let mut moves = Vec::new();
        let mut pos = Connect4::new();
        for _ in 0..400 {
            if pos.status() != Status::Ongoing {
                pos = Connect4::new();
            }
            assert_eq!(linear.evaluate(&pos), CentreFirst.evaluate(&pos));
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        // First player: columns 1, 2, 3 of the bottom row; second player: two stones on
        // column 7, and to move. The first player's threat, column 4 row 1, is odd (good
        // parity for the first player) and playable: -1 for the side to move.
        let pos = Connect4::parse_position("17273").unwrap();
        let f = features(&pos);
        assert_eq!(f[1], -1, "{f:?}");
        assert_eq!(f[2], 0);
        assert_eq!(f[3], -1);
        assert!(!is_quiet(&pos));
        assert!(is_quiet(&Connect4::new()));
    }
}
