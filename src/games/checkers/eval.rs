//! A hand-weighted checkers evaluation: a few named features, each the side to move's
//! count minus the opponent's, and one weight per feature.
//!
//! The features are the classic ones of Samuel's checkers player (A. L. Samuel, "Some
//! studies in machine learning using the game of checkers", IBM J. Res. Dev. 3(3), 1959:
//! piece advantage, back-rank control `BACK`, centre control `CENT`, advancement `ADV`),
//! with kings weighted above men. The weights live in a small named table ([`Weights`]) so
//! that a learned evaluation can replace them without touching the features.

use super::board::{BOTTOM_ROW, TOP_ROW, bit};
use super::{BLACK, Checkers, CheckersMove, Squares};
use crate::game::{Evaluator, Game, Player, Score};

/// The features' names, in the order of [`CheckersEval::features`] and [`Weights`].
pub const FEATURES: [&str; 5] = ["man", "king", "back_rank", "centre", "advancement"];

/// The eight central squares 10, 11, 14, 15, 18, 19, 22, 23 (Samuel's `CENT` squares).
const CENTRE: Squares =
    bit(9) | bit(10) | bit(13) | bit(14) | bit(17) | bit(18) | bit(21) | bit(22);

/// One weight per feature of [`FEATURES`], in the evaluator's units (a man is 100).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [Score; 5]);

impl Weights {
    /// Hand-set: a man 100, a king 130 (a king is worth more than a man but less than two;
    /// 1.3 men is the usual hand value), 10 for each man still guarding its own back rank,
    /// 4 for each piece on a central square, 1 for each row a man has advanced.
    pub const DEFAULT: Self = Self([100, 130, 10, 4, 1]);
}

impl Default for Weights {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The weighted sum of the features ([`FEATURES`]) for the side to move.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckersEval {
    /// The weights.
    pub weights: Weights,
}

impl CheckersEval {
    /// Each feature of [`FEATURES`] for the side to move minus the opponent.
    #[must_use]
    pub fn features(pos: &Checkers) -> [Score; 5] {
        let me = pos.side_to_move();
        let mine = side_features(pos, me);
        let theirs = side_features(pos, me.other());
        std::array::from_fn(|k| mine[k] - theirs[k])
    }

    /// The value of a piece (man or king) on the squares `set`, by the weights.
    fn material(&self, pos: &Checkers, set: Squares) -> Score {
        let kings = (set & pos.kings).count_ones() as Score;
        let men = (set & !pos.kings).count_ones() as Score;
        men * self.weights.0[0] + kings * self.weights.0[1]
    }

    /// Whether `mv` crowns a man.
    fn crowns(pos: &Checkers, mv: CheckersMove) -> bool {
        pos.kings & bit(mv.from) == 0 && pos.crowning_row() & bit(mv.to) != 0
    }
}

/// `colour`'s own count of each feature.
fn side_features(pos: &Checkers, colour: Player) -> [Score; 5] {
    let (men, kings) = (pos.men(colour), pos.kings(colour));
    let back_rank = if colour == BLACK { TOP_ROW } else { BOTTOM_ROW };
    [
        men.count_ones() as Score,
        kings.count_ones() as Score,
        (men & back_rank).count_ones() as Score,
        (pos.pieces(colour) & CENTRE).count_ones() as Score,
        advancement(men, colour),
    ]
}

/// Rows advanced by `colour`'s men, summed (a man on its own back rank has advanced 0).
fn advancement(men: Squares, colour: Player) -> Score {
    let mut total = 0;
    let mut rest = men;
    while rest != 0 {
        let row = (rest.trailing_zeros() / 4) as Score;
        total += if colour == BLACK { row } else { 7 - row };
        rest &= rest - 1;
    }
    total
}

impl Evaluator<Checkers> for CheckersEval {
    fn evaluate(&self, pos: &Checkers) -> Score {
        let features = Self::features(pos);
        features
            .iter()
            .zip(self.weights.0)
            .map(|(f, w)| f * w)
            .sum()
    }

    /// Captures: quiescence follows them past the horizon, as forced replies.
    fn is_noisy(&self, _pos: &Checkers, mv: CheckersMove) -> bool {
        mv.is_capture()
    }

    /// The captured pieces' values, plus a king's gain over a man for a crowning move.
    fn material_gain(&self, pos: &Checkers, mv: CheckersMove) -> Option<Score> {
        let crown = if Self::crowns(pos, mv) {
            self.weights.0[1] - self.weights.0[0]
        } else {
            0
        };
        Some(self.material(pos, mv.captured) + crown)
    }

    /// Captures first, the most material first; then crowning moves; then the rest.
    fn order_hint(&self, pos: &Checkers, mv: CheckersMove, _depth: u32) -> i32 {
        let crown = if Self::crowns(pos, mv) { 50 } else { 0 };
        10 * self.material(pos, mv.captured) + crown
    }
}
