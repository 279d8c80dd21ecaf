//! The checkers linear evaluation: nine features, each the side to move's count minus the
//! opponent's (the last, `tempo`, is 1 for the side to move).
//!
//! The first five are the hand-set evaluation's ([`CheckersEval`]: men, kings, men on their
//! own back rank, pieces on the eight central squares, rows advanced by men), from the
//! terms of Samuel's checkers player (A. L. Samuel, "Some studies in machine learning using
//! the game of checkers", IBM J. Res. Dev. 3(3), 1959: piece advantage, `BACK`, `CENT`,
//! `ADV`). Added here:
//!
//! - `king_centre`: kings on the central squares (Samuel's `KCENT`);
//! - `mobility`: the simple moves (steps, captures not counted) the pieces have, whoever is
//!   to move (Samuel's `MOB`, "total mobility");
//! - `runaway`: men with no opposing piece anywhere ahead of them on the way to the
//!   crowning row (every square a forward step could still reach), which will crown unless
//!   stopped from the side: the "runaway checker" term of later programs (J. Schaeffer et
//!   al., "A world championship caliber checkers program", Artificial Intelligence 53, 1992,
//!   lists runaway checkers among Chinook's evaluation terms);
//! - `tempo`: 1 for the side to move.
//!
//! With the first five weights at the hand-set values (100, 130, 10, 4, 1) and the rest 0 it
//! *is* [`CheckersEval`] (tested), hints and quiescence's captures included.

use super::{FIXED, clamp_score, to_fixed};
use crate::game::{Evaluator, Game, Player, Score};
use crate::games::checkers::board::{BOTTOM_ROW, Direction, Squares, TOP_ROW, bit, shift};
use crate::games::checkers::{BLACK, Checkers, CheckersEval, CheckersMove, Weights};

/// Number of features (one weight each).
pub const FEATURES: usize = 9;

/// Weight names, in order.
pub const WEIGHT_NAMES: [&str; FEATURES] = [
    "man",
    "king",
    "back_rank",
    "centre",
    "advancement",
    "king_centre",
    "mobility",
    "runaway",
    "tempo",
];

/// The hand-set [`CheckersEval`] as weights.
pub const HAND_SET_WEIGHTS: [f64; FEATURES] = [100.0, 130.0, 10.0, 4.0, 1.0, 0.0, 0.0, 0.0, 0.0];

/// The eight central squares 10, 11, 14, 15, 18, 19, 22, 23 (Samuel's `CENT`).
const CENTRE: Squares =
    bit(9) | bit(10) | bit(13) | bit(14) | bit(17) | bit(18) | bit(21) | bit(22);

/// A colour's two forward directions (Black moves down the board, to higher squares).
const fn forward(black: bool) -> [Direction; 2] {
    if black {
        [Direction::DownLeft, Direction::DownRight]
    } else {
        [Direction::UpLeft, Direction::UpRight]
    }
}

/// `CONES[c][i]`: every square a man of colour `c` (0 Black, 1 White) on bit `i` could reach
/// by forward steps.
const CONES: [[Squares; 32]; 2] = [cones(true), cones(false)];

const fn cones(black: bool) -> [Squares; 32] {
    let [a, b] = forward(black);
    let mut table = [0; 32];
    let mut i = 0;
    while i < 32 {
        let mut front = bit(i as u8);
        let mut cone = 0;
        let mut r = 0;
        while r < 8 {
            front = shift(front, a) | shift(front, b);
            cone |= front;
            r += 1;
        }
        table[i] = cone;
        i += 1;
    }
    table
}

/// `colour`'s own count of each feature but tempo.
fn side(pos: &Checkers, colour: Player, f: &mut [i32; FEATURES], sign: i32) {
    let black = colour == BLACK;
    let (men, kings) = (pos.men(colour), pos.kings(colour));
    let theirs = pos.pieces(colour.other());
    let empty = !(pos.pieces(colour) | theirs);
    let back_rank = if black { TOP_ROW } else { BOTTOM_ROW };
    let count = |s: Squares| s.count_ones() as i32;
    let mut advancement = 0;
    let mut runaway = 0;
    let mut rest = men;
    while rest != 0 {
        let i = rest.trailing_zeros();
        let row = (i / 4) as i32;
        advancement += if black { row } else { 7 - row };
        runaway += i32::from(CONES[usize::from(!black)][i as usize] & theirs == 0);
        rest &= rest - 1;
    }
    let [a, b] = forward(black);
    let [c, d] = forward(!black);
    let mobility = count(shift(men | kings, a) & empty)
        + count(shift(men | kings, b) & empty)
        + count(shift(kings, c) & empty)
        + count(shift(kings, d) & empty);
    let values = [
        count(men),
        count(kings),
        count(men & back_rank),
        count(pos.pieces(colour) & CENTRE),
        advancement,
        count(kings & CENTRE),
        mobility,
        runaway,
    ];
    for (x, v) in f.iter_mut().zip(values) {
        *x += sign * v;
    }
}

/// The feature values of `pos` for the side to move.
#[must_use]
pub fn features(pos: &Checkers) -> [i32; FEATURES] {
    let me = pos.side_to_move();
    let mut f = [0; FEATURES];
    side(pos, me, &mut f, 1);
    side(pos, me.other(), &mut f, -1);
    f[8] = 1;
    f
}

/// The checkers linear evaluation with fixed weights ([`FIXED`] per unit); its hints, noisy
/// moves and material gains are [`CheckersEval`]'s with the man and king weights rounded.
#[derive(Clone, Copy, Debug)]
pub struct CheckersLinear {
    w: [i32; FEATURES],
    hints: CheckersEval,
}

impl CheckersLinear {
    /// The evaluator with `weights` in [`WEIGHT_NAMES`] order.
    ///
    /// # Panics
    /// If `weights` does not hold [`FEATURES`] values.
    #[must_use]
    pub fn from_weights(weights: &[f64]) -> Self {
        assert_eq!(weights.len(), FEATURES, "checkers linear weights");
        let mut w = [0; FEATURES];
        for (x, &v) in w.iter_mut().zip(weights) {
            *x = to_fixed(v);
        }
        let mut hand = Weights::DEFAULT.0;
        hand[0] = weights[0].round() as Score;
        hand[1] = weights[1].round() as Score;
        Self {
            w,
            hints: CheckersEval {
                weights: Weights(hand),
            },
        }
    }
}

impl Evaluator<Checkers> for CheckersLinear {
    fn evaluate(&self, pos: &Checkers) -> Score {
        let f = features(pos);
        let sum: i64 = (0..FEATURES)
            .map(|i| i64::from(f[i]) * i64::from(self.w[i]))
            .sum();
        clamp_score(sum / FIXED)
    }

    fn is_noisy(&self, pos: &Checkers, mv: CheckersMove) -> bool {
        self.hints.is_noisy(pos, mv)
    }

    fn material_gain(&self, pos: &Checkers, mv: CheckersMove) -> Option<Score> {
        self.hints.material_gain(pos, mv)
    }

    fn order_hint(&self, pos: &Checkers, mv: CheckersMove, depth: u32) -> i32 {
        self.hints.order_hint(pos, mv, depth)
    }
}

/// `x` with `CheckersLinear::evaluate ≈ w · x`: the features themselves.
pub fn gradient(pos: &Checkers, x: &mut [f64]) {
    for (x, f) in x.iter_mut().zip(features(pos)) {
        *x = f64::from(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Notation, Status};

    #[test]
    fn hand_set_equivalence_and_features() {
        let linear = CheckersLinear::from_weights(&HAND_SET_WEIGHTS);
        let hand = CheckersEval::default();
        let mut rng = crate::rng::XorShift::new(5);
        let mut moves = Vec::new();
        let mut pos = Checkers::new();
        for _ in 0..2000 {
            if pos.status() != Status::Ongoing {
                pos = Checkers::new();
            }
            assert_eq!(linear.evaluate(&pos), hand.evaluate(&pos));
            assert_eq!(&features(&pos)[..5], &CheckersEval::features(&pos)[..]);
            moves.clear();
            pos.generate_moves(&mut moves);
            for &m in &moves {
                assert_eq!(linear.order_hint(&pos, m, 1), hand.order_hint(&pos, m, 1));
                assert_eq!(linear.material_gain(&pos, m), hand.material_gain(&pos, m));
            }
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        // The start: 7 steps each side (Black 9-13, 9-14, 10-14, 10-15, 11-15, 11-16,
        // 12-16), no runaways, symmetric.
        let f = features(&Checkers::new());
        assert_eq!(f, [0, 0, 0, 0, 0, 0, 0, 0, 1]);
        // A Black man on 27, a White man on 5 and a White king on 32; Black to move.
        let pos = Checkers::parse_position("B:W5,K32:B27").unwrap();
        let f = features(&pos);
        assert_eq!(f[0], 0, "{f:?}"); // one man each
        assert_eq!(f[1], -1); // White's king
        // White's man on 5 has only square 1 ahead, empty: a runaway. Black's on 27 has
        // 31 and 32 ahead, and White's king stands on 32.
        assert_eq!(f[7], -1, "{f:?}");
        // Black: 27-31 (32 is taken). White: 5-1, and the king 32-28 (27 is taken).
        assert_eq!(f[6], 1 - 2, "{f:?}");
    }
}
