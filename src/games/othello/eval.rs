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
    use crate::game::{Game, Notation, Status};
    use crate::rng::XorShift;

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

    /// The disc of `sq` for `player`'s features: +1 its, -1 the opponent's, 0 empty.
    fn disc_at(player: u64, opponent: u64, file: i32, rank: i32) -> i32 {
        let bit = 1u64 << (8 * rank + file);
        i32::from(player & bit != 0) - i32::from(opponent & bit != 0)
    }

    /// Whether `file` and `rank` are on the board.
    fn on_board(file: i32, rank: i32) -> bool {
        (0..8).contains(&file) && (0..8).contains(&rank)
    }

    /// The eight directions as (file, rank) steps.
    const DIRECTIONS: [(i32, i32); 8] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];

    /// The feature values by their definitions in the module doc, square by square on
    /// (file, rank) coordinates: a move is an empty square from which some direction runs
    /// over one or more opponent discs to one of the mover's; potential mobility counts the
    /// empty squares touching an opponent disc; corners, X- and C-squares are named by
    /// their place on the board, not by the module's tables.
    fn reference_features(player: u64, opponent: u64) -> Features {
        let at = |f, r| disc_at(player, opponent, f, r);
        // For side +1 (the player) or -1: its legal moves and its potential mobility.
        let side = |me: i32| {
            let (mut moves, mut potential) = (0, 0);
            for (f, r) in (0..8).flat_map(|r| (0..8).map(move |f| (f, r))) {
                if at(f, r) != 0 {
                    continue;
                }
                let mut legal = false;
                let mut touches = false;
                for (df, dr) in DIRECTIONS {
                    let (mut x, mut y, mut run) = (f + df, r + dr, 0);
                    touches |= on_board(x, y) && at(x, y) == -me;
                    while on_board(x, y) && at(x, y) == -me {
                        (x, y, run) = (x + df, y + dr, run + 1);
                    }
                    legal |= run > 0 && on_board(x, y) && at(x, y) == me;
                }
                moves += i32::from(legal);
                potential += i32::from(touches);
            }
            (moves, potential)
        };
        let (my_moves, my_potential) = side(1);
        let (their_moves, their_potential) = side(-1);
        let mut f = Features {
            mobility: my_moves - their_moves,
            potential_mobility: my_potential - their_potential,
            discs: player.count_ones() as i32 - opponent.count_ones() as i32,
            ..Features::default()
        };
        for (cf, cr) in [(0, 0), (7, 0), (0, 7), (7, 7)] {
            f.corners += at(cf, cr);
            if at(cf, cr) != 0 {
                continue;
            }
            // One step in from the corner along each edge and along the diagonal.
            let (sf, sr) = (if cf == 0 { 1 } else { -1 }, if cr == 0 { 1 } else { -1 });
            f.x_squares += at(cf + sf, cr + sr);
            f.c_squares += at(cf + sf, cr) + at(cf, cr + sr);
        }
        f
    }

    /// Every feature of [`Features::of`] equals its definition ([`reference_features`]) on
    /// seeded random boards of every density (not all reachable in play, which the
    /// features do not need) and on positions of random games, both sides to move.
    #[test]
    fn features_match_their_definitions_square_by_square() {
        let mut rng = XorShift::new(64);
        let mut positions = Vec::new();
        for i in 0..400 {
            // Each square filled with probability (i % 8 + 1) / 9, by either side.
            let (mut black, mut white) = (0u64, 0u64);
            for sq in 0..64 {
                if rng.below(9) <= i % 8 {
                    if rng.below(2) == 0 {
                        black |= 1 << sq;
                    } else {
                        white |= 1 << sq;
                    }
                }
            }
            positions.push(Othello::from_discs(black, white, i % 2 == 0, 0));
        }
        for _ in 0..100 {
            let mut pos = Othello::new();
            let mut plies = rng.below(61);
            let mut moves = Vec::new();
            while plies > 0 && pos.status() == Status::Ongoing {
                plies -= 1;
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            positions.push(pos);
        }
        // The features are exercised: empty corners with their X- and C-squares held,
        // and held corners, are both met.
        let (mut x_seen, mut corner_seen) = (0, 0);
        for pos in &positions {
            let want = reference_features(pos.player(), pos.opponent());
            let got = Features::of(pos);
            assert_eq!(got, want, "features of {}", pos.to_board_string());
            x_seen += want.x_squares.abs() + want.c_squares.abs();
            corner_seen += want.corners.abs();
        }
        assert!(x_seen > 200 && corner_seen > 200, "{x_seen} {corner_seen}");
    }

    /// The score is the weighted sum of the features: with weights 2, 20, .., 200,000 and
    /// feature values 1 .. 6, the sum is twice the digits 6 5 4 3 2 1 read off in decimal
    /// (no weight 1, so that a product cannot pass for a quotient), and a negative feature
    /// subtracts.
    #[test]
    fn the_score_is_the_sum_of_each_feature_times_its_weight() {
        let w = Weights {
            mobility: 2,
            potential_mobility: 20,
            corners: 200,
            x_squares: 2_000,
            c_squares: 20_000,
            discs: 200_000,
        };
        let f = Features {
            mobility: 1,
            potential_mobility: 2,
            corners: 3,
            x_squares: 4,
            c_squares: 5,
            discs: 6,
        };
        assert_eq!(f.score(&w), 2 * 654_321);
        let f = Features { corners: -3, ..f };
        // The corners' digit 3 becomes -3: twice 600 less.
        assert_eq!(
            f.score(&w),
            2 * (654_321 - 600),
            "a negative feature subtracts"
        );
    }

    /// The evaluation is the weighted sum clamped to ±64 discs. On a full board the
    /// features are the corners and the discs alone (no move, no empty square, no empty
    /// corner: checked first); with black on files a-e and white on f-h the corners are
    /// even and black leads by 40 - 24 = 16 discs. At 10 discs a disc that is 160 discs,
    /// clamped to 64 (and -64 for white to move); at 1 disc a disc it is 16, unclamped.
    #[test]
    fn the_evaluation_is_the_weighted_sum_clamped_to_64_discs() {
        let eval = OthelloEval {
            weights: Weights {
                discs: 10 * DISC,
                ..Weights::STANDARD
            },
        };
        let file = |f: u32| 0x0101_0101_0101_0101u64 << f;
        // Black holds files a-e (40 discs), white f-h (24): a lead of 16 for black.
        let black = file(0) | file(1) | file(2) | file(3) | file(4);
        let white = !black;
        let full = Othello::from_discs(black, white, true, 60);
        let f = Features::of(&full);
        assert_eq!(
            (f.mobility, f.potential_mobility, f.x_squares, f.c_squares),
            (0, 0, 0, 0),
            "a full board has only corners and discs"
        );
        assert_eq!((f.corners, f.discs), (0, 16));
        assert_eq!(eval.evaluate(&full), 64 * DISC, "160 discs clamped to 64");
        let other = Othello::from_discs(black, white, false, 60);
        assert_eq!(
            eval.evaluate(&other),
            -64 * DISC,
            "-160 discs clamped to -64"
        );
        // Files a-d against e-h: even, worth 0.
        let even = file(0) | file(1) | file(2) | file(3);
        let pos = Othello::from_discs(even, !even, true, 60);
        assert_eq!(eval.evaluate(&pos), 0);
        // With one disc per disc, the 16-disc lead is worth 16 discs, unclamped.
        let plain = OthelloEval {
            weights: Weights {
                discs: DISC,
                ..Weights::STANDARD
            },
        };
        assert_eq!(plain.evaluate(&full), 16 * DISC);
        assert_eq!(plain.evaluate(&other), -16 * DISC);
    }
}
