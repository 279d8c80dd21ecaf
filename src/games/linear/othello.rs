//! The Othello linear evaluation: eight features, each the side to move's count minus the
//! opponent's, with an opening and an ending weight blended by the empty squares left (a
//! tapered evaluation as in chess: `(w_mg · e + w_eg · (60 − e)) / 60`, `e` the empties).
//!
//! The first six are the hand-set evaluation's ([`OthelloEval`], after Rosenbloom's IAGO,
//! "A world-championship-level Othello program", Artificial Intelligence 19, 1982):
//! mobility, potential mobility (frontier), corners, X- and C-squares beside an empty corner,
//! discs. Added here, as in the same line of programs:
//!
//! - `edges`: discs on the edges, corners left out;
//! - `stable`: discs that can never be flipped because they are joined to an own corner
//!   along an edge by own discs only (the edge-anchored part of stability; IAGO's and
//!   Buro's, M. Buro, "An evaluation function for Othello based on statistics", NECI
//!   report 31, 1997, fuller measures count interior stable discs too).
//!
//! Disc difference by phase is `discs_mg`/`discs_eg`. With every weight at
//! [`Weights::STANDARD`]'s value in both phases it *is* [`OthelloEval::STANDARD`] (tested).
//! Scores are in hundredths of a disc ([`DISC`]) and clamped to ±64 discs, as there.

use super::{FIXED, phase_weights};
use crate::game::{Evaluator, Score};
use crate::games::othello::eval::Features;
use crate::games::othello::{DISC, Othello, OthelloEval, OthelloMove, Weights};

/// Number of features (each has an opening and an ending weight).
pub const FEATURES: usize = 8;
/// Number of weights.
pub const WEIGHTS: usize = 2 * FEATURES;
/// Empty squares at the start: the phase of the opening weights.
pub const MAX_PHASE: i32 = 60;

/// Declares the feature and weight names from one list.
macro_rules! names {
    ($($f:literal),*) => {
        /// Feature names, in order.
        pub const FEATURE_NAMES: [&str; FEATURES] = [$($f),*];
        /// Weight names: `<feature>_mg` (opening), `<feature>_eg` (ending) for each feature.
        pub const WEIGHT_NAMES: [&str; WEIGHTS] = [$(concat!($f, "_mg"), concat!($f, "_eg")),*];
    };
}

names!(
    "mobility",
    "potential_mobility",
    "corners",
    "x_squares",
    "c_squares",
    "discs",
    "edges",
    "stable"
);

/// [`Weights::STANDARD`] as weights, the same in both phases; `edges` and `stable` 0.
pub const HAND_SET_WEIGHTS: [f64; WEIGHTS] = {
    let s = Weights::STANDARD;
    let v = [
        s.mobility,
        s.potential_mobility,
        s.corners,
        s.x_squares,
        s.c_squares,
        s.discs,
        0,
        0,
    ];
    let mut w = [0.0; WEIGHTS];
    let mut i = 0;
    while i < FEATURES {
        w[2 * i] = v[i] as f64;
        w[2 * i + 1] = v[i] as f64;
        i += 1;
    }
    w
};

/// The edge squares without the corners.
const EDGES: u64 = (0x0000_0000_0000_007E | 0x7E00_0000_0000_0000)
    | (0x0001_0101_0101_0100 | 0x0080_8080_8080_8000);

/// Each corner and its two directions along the edges (square steps).
const CORNER_WALKS: [(u32, [i32; 2]); 4] =
    [(0, [1, 8]), (7, [-1, 8]), (56, [1, -8]), (63, [-1, -8])];

/// `discs`' discs joined to one of its corners along an edge by its own discs only.
fn edge_stable(discs: u64) -> u64 {
    let mut stable = 0;
    for (corner, steps) in CORNER_WALKS {
        if discs >> corner & 1 == 0 {
            continue;
        }
        stable |= 1 << corner;
        for step in steps {
            let mut sq = corner as i32;
            for _ in 0..7 {
                sq += step;
                if discs >> sq & 1 == 0 {
                    break;
                }
                stable |= 1 << sq;
            }
        }
    }
    stable
}

/// The feature values of `pos` for the side to move, and its phase (empties, at most 60).
#[must_use]
pub fn features(pos: &Othello) -> ([i32; FEATURES], i32) {
    let f = Features::of(pos);
    let (p, o) = (pos.player(), pos.opponent());
    let count = |b: u64| b.count_ones() as i32;
    let values = [
        f.mobility,
        f.potential_mobility,
        f.corners,
        f.x_squares,
        f.c_squares,
        f.discs,
        count(p & EDGES) - count(o & EDGES),
        count(edge_stable(p)) - count(edge_stable(o)),
    ];
    (values, (pos.empties() as i32).min(MAX_PHASE))
}

/// The Othello linear evaluation with fixed weights ([`FIXED`] per unit); hints are
/// [`OthelloEval`]'s square values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OthelloLinear {
    mg: [i32; FEATURES],
    eg: [i32; FEATURES],
}

impl OthelloLinear {
    /// The evaluator with `weights` in [`WEIGHT_NAMES`] order.
    ///
    /// # Panics
    /// If `weights` does not hold [`WEIGHTS`] values.
    #[must_use]
    pub fn from_weights(weights: &[f64]) -> Self {
        assert_eq!(weights.len(), WEIGHTS, "othello linear weights");
        let (mg, eg) = phase_weights(weights);
        Self { mg, eg }
    }
}

impl Evaluator<Othello> for OthelloLinear {
    fn evaluate(&self, pos: &Othello) -> Score {
        let (f, phase) = features(pos);
        let (ph, rest) = (i64::from(phase), i64::from(MAX_PHASE - phase));
        let mut sum = 0i64;
        for ((&v, &mg), &eg) in f.iter().zip(&self.mg).zip(&self.eg) {
            sum += i64::from(v) * (i64::from(mg) * ph + i64::from(eg) * rest);
        }
        let limit = i64::from(64 * DISC);
        (sum / (i64::from(MAX_PHASE) * FIXED)).clamp(-limit, limit) as Score
    }

    fn order_hint(&self, pos: &Othello, mv: OthelloMove, depth: u32) -> i32 {
        OthelloEval::STANDARD.order_hint(pos, mv, depth)
    }
}

/// `x` with `OthelloLinear::evaluate ≈ w · x` (before clamping and rounding).
pub fn gradient(pos: &Othello, x: &mut [f64]) {
    let (f, phase) = features(pos);
    let mg = f64::from(phase) / f64::from(MAX_PHASE);
    for i in 0..FEATURES {
        let v = f64::from(f[i]);
        x[2 * i] = v * mg;
        x[2 * i + 1] = v * (1.0 - mg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation, Status};

    #[test]
    fn hand_set_equivalence_and_features() {
        let linear = OthelloLinear::from_weights(&HAND_SET_WEIGHTS);
        let mut rng = crate::rng::XorShift::new(9);
        let mut moves = Vec::new();
        let mut pos = Othello::new();
        for _ in 0..3000 {
            if pos.status() != Status::Ongoing {
                pos = Othello::new();
            }
            assert_eq!(linear.evaluate(&pos), OthelloEval::STANDARD.evaluate(&pos));
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        assert_eq!(features(&Othello::new()), ([0; FEATURES], 60));
        // Black (to move) holds a1, b1, c1 and a2; White holds e1 and h8; the centre is the
        // start's.
        let mut board = vec!['-'; 64];
        for sq in [0, 1, 2, 8, 28, 35] {
            board[sq] = 'X';
        }
        for sq in [4, 63, 27, 36] {
            board[sq] = 'O';
        }
        let text: String = board.into_iter().collect();
        let pos = Othello::parse_position(&format!("{text} X")).unwrap();
        let (f, phase) = features(&pos);
        let at = |name: &str| f[FEATURE_NAMES.iter().position(|&n| n == name).unwrap()];
        assert_eq!(phase, 54);
        // Black's a1, b1, c1, a2 are edge-stable; White's h8 is (a corner).
        assert_eq!(at("stable"), 4 - 1);
        // Edges without corners: b1, c1, a2 against e1.
        assert_eq!(at("edges"), 3 - 1);
        assert_eq!(at("corners"), 0);
    }
}
