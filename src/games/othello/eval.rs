//! A pattern-free Othello evaluation: a few named features, each the side to move's count
//! minus the opponent's, times a weight from a small named table ([`Weights`]), so that a
//! learned evaluation can replace the numbers without touching the code.
//!
//! The features are the classic ones of Rosenbloom's IAGO (1982) and of every hand-tuned
//! program after it: mobility (legal moves), potential mobility (empty squares next to the
//! opponent's discs, i.e. frontier), corners, the X- and C-squares next to an empty corner
//! (which give the corner away), and the plain disc count, which matters least until the end.
//! Scores are in hundredths of a disc ([`super::DISC`]) and clamped to ±64 discs.

use super::bits;
use super::{DISC, Othello, OthelloMove};
use crate::game::{Evaluator, Score};

/// The four corners a1, h1, a8, h8.
const CORNERS: [u32; 4] = [0, 7, 56, 63];
/// The X-square diagonal to each corner of [`CORNERS`] (b2, g2, b7, g7).
const X_SQUARES: [u32; 4] = [9, 14, 49, 54];
/// The two C-squares beside each corner of [`CORNERS`].
const C_SQUARES: [[u32; 2]; 4] = [[1, 8], [6, 15], [48, 57], [55, 62]];

/// The weights of the features, in hundredths of a disc per unit of feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per legal move (side to move's minus opponent's).
    pub mobility: i32,
    /// Per empty square next to an opponent disc (minus next to one's own): frontier.
    pub potential_mobility: i32,
    /// Per corner held.
    pub corners: i32,
    /// Per X-square held beside an empty corner (negative: it offers the corner).
    pub x_squares: i32,
    /// Per C-square held beside an empty corner.
    pub c_squares: i32,
    /// Per disc.
    pub discs: i32,
}

impl Weights {
    /// Hand-set weights in the proportions of the usual tutorials (a corner worth about
    /// eight discs, an X-square costing three, a move of mobility more than a disc).
    pub const STANDARD: Self = Self {
        mobility: 60,
        potential_mobility: 20,
        corners: 800,
        x_squares: -300,
        c_squares: -100,
        discs: 5,
    };
}

/// The feature values of a position for the side to move (its count minus the opponent's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Legal moves.
    pub mobility: i32,
    /// Empty squares next to the opponent's discs.
    pub potential_mobility: i32,
    /// Corners held.
    pub corners: i32,
    /// X-squares held beside an empty corner.
    pub x_squares: i32,
    /// C-squares held beside an empty corner.
    pub c_squares: i32,
    /// Discs.
    pub discs: i32,
}

impl Features {
    /// Measures `pos`.
    #[must_use]
    pub fn of(pos: &Othello) -> Self {
        let (p, o) = (pos.player(), pos.opponent());
        let empty = pos.empty();
        let count = |b: u64| b.count_ones() as i32;
        let (mut x, mut c) = (0, 0);
        for (k, &corner) in CORNERS.iter().enumerate() {
            if empty >> corner & 1 == 0 {
                continue;
            }
            x += owner(p, o, X_SQUARES[k]);
            c += C_SQUARES[k].iter().map(|&s| owner(p, o, s)).sum::<i32>();
        }
        let corners = CORNERS.iter().map(|&s| owner(p, o, s)).sum();
        Self {
            mobility: count(pos.move_set()) - count(bits::moves(o, p)),
            potential_mobility: count(bits::neighbours(o) & empty)
                - count(bits::neighbours(p) & empty),
            corners,
            x_squares: x,
            c_squares: c,
            discs: count(p) - count(o),
        }
    }

    /// The weighted sum.
    #[must_use]
    pub const fn score(&self, w: &Weights) -> Score {
        self.mobility * w.mobility
            + self.potential_mobility * w.potential_mobility
            + self.corners * w.corners
            + self.x_squares * w.x_squares
            + self.c_squares * w.c_squares
            + self.discs * w.discs
    }
}

/// +1 if `player` holds `sq`, -1 if `opponent` does, else 0.
fn owner(player: u64, opponent: u64, sq: u32) -> i32 {
    (player >> sq & 1) as i32 - (opponent >> sq & 1) as i32
}

/// The static value of each square for move ordering (the `hint` switch): the classic
/// weighted-squares table of beginners' programs, corners best, X-squares worst.
const SQUARE_VALUES: [i8; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, 1, 1, 1, 1, -2, 10, //
    5, -2, 1, 0, 0, 1, -2, 5, //
    5, -2, 1, 0, 0, 1, -2, 5, //
    10, -2, 1, 1, 1, 1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100, //
];

/// The Othello evaluation: [`Features`] weighted by [`Weights`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OthelloEval {
    /// The weights in use.
    pub weights: Weights,
}

impl Default for OthelloEval {
    fn default() -> Self {
        Self::STANDARD
    }
}

impl OthelloEval {
    /// The evaluation with [`Weights::STANDARD`].
    pub const STANDARD: Self = Self {
        weights: Weights::STANDARD,
    };
}

impl Evaluator<Othello> for OthelloEval {
    fn evaluate(&self, pos: &Othello) -> Score {
        Features::of(pos)
            .score(&self.weights)
            .clamp(-64 * DISC, 64 * DISC)
    }

    /// The square's value in `SQUARE_VALUES`; a pass (the only move when it is legal) 0.
    fn order_hint(&self, _pos: &Othello, mv: OthelloMove, _depth: u32) -> i32 {
        mv.index()
            .map_or(0, |sq| i32::from(SQUARE_VALUES[usize::from(sq)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    #[test]
    fn features_of_the_start_and_of_a_corner_position() {
        let start = Othello::new();
        let f = Features::of(&start);
        assert_eq!(f, Features::default());
        assert_eq!(OthelloEval::STANDARD.evaluate(&start), 0);
        // Beside the start's four centre discs, black holds a1; h1 is empty and white holds
        // g2 beside it: black to move.
        let mut board = ['-'; 64];
        for (square, disc) in [
            (0, 'X'),
            (14, 'O'),
            (27, 'O'),
            (28, 'X'),
            (35, 'X'),
            (36, 'O'),
        ] {
            board[square] = disc;
        }
        let board: String = board.iter().collect();
        let pos = Othello::parse_position(&format!("{board} X")).unwrap();
        let f = Features::of(&pos);
        assert_eq!(
            (f.corners, f.x_squares, f.c_squares, f.discs),
            (1, -1, 0, 0)
        );
        assert_eq!(bits::neighbours(1), 0b10 | 0b11 << 8);
        assert_eq!(bits::neighbours(1 << 7), 1 << 6 | 0b11 << 14);
    }
}
