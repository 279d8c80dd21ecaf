//! The chess linear evaluation: 32 features, each the side to move's count minus the
//! opponent's, with a middlegame and an endgame weight blended by the game phase (the
//! "tapered eval" of Fruit and PeSTO: knights and bishops count 1, rooks 2, queens 4, 24 at
//! the start; `(mg·phase + eg·(24 − phase)) / 24`).
//!
//! The features are the terms the seeds and the literature name: material; a compact
//! piece-square term per piece (centrality, 0 in a corner to 3 on d4/e4/d5/e5, and advance,
//! the rank counted from the piece's own side); mobility (squares a knight, bishop, rook or
//! queen attacks that its own pieces do not occupy); Shannon's pawn faults (doubled,
//! isolated, backward: `eval::pawn_faults`) and passed pawns with their advance; king safety
//! (pawns sheltering the king, attacks into the squares around the enemy king); the bishop
//! pair, rooks on open and half-open files, and a tempo bonus for the side to move. With
//! only the five material weights set to 1, 3, 3, 5, 9 pawns in both phases it is exactly
//! [`crate::games::chess::Material`] (tested).

use cozy_chess::{
    BitBoard, Board, Color, Piece, Square, get_bishop_moves, get_king_moves, get_knight_moves,
    get_pawn_attacks, get_rook_moves,
};

use super::{FIXED, clamp_score, phase_weights};
use crate::game::{Evaluator, Score};
use crate::games::chess::eval::{
    is_noisy, material_gain, material_of, mvv_lva, noisy_and_hint, pawn_faults,
};
use crate::games::chess::{Chess, ChessMove};

/// Number of features (each has a middlegame and an endgame weight).
pub const FEATURES: usize = 32;
/// Number of weights: two per feature.
pub const WEIGHTS: usize = 2 * FEATURES;

/// Declares the feature names and the weight names (`<feature>_mg`, `<feature>_eg`) from one
/// list.
macro_rules! names {
    ($($f:literal),*) => {
        /// Feature names, in order.
        pub const FEATURE_NAMES: [&str; FEATURES] = [$($f),*];
        /// Weight names: `<feature>_mg`, `<feature>_eg` for each feature in order.
        pub const WEIGHT_NAMES: [&str; WEIGHTS] = [$(concat!($f, "_mg"), concat!($f, "_eg")),*];
    };
}

names!(
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "pawn_centre",
    "knight_centre",
    "bishop_centre",
    "rook_centre",
    "queen_centre",
    "king_centre",
    "pawn_advance",
    "knight_advance",
    "bishop_advance",
    "rook_advance",
    "queen_advance",
    "king_advance",
    "knight_mobility",
    "bishop_mobility",
    "rook_mobility",
    "queen_mobility",
    "doubled_pawns",
    "isolated_pawns",
    "backward_pawns",
    "passed_pawns",
    "passed_advance",
    "king_shield",
    "king_attacks",
    "bishop_pair",
    "rook_open_file",
    "rook_half_open_file",
    "tempo"
);

/// The hand-set material evaluation as weights: pawn, knight, bishop, rook, queen at 100,
/// 300, 300, 500, 900 centipawns in both phases (`eval::PIECE_VALUES`), everything else 0.
pub const MATERIAL_WEIGHTS: [f64; WEIGHTS] = {
    let mut w = [0.0; WEIGHTS];
    let values = [100.0, 300.0, 300.0, 500.0, 900.0];
    let mut i = 0;
    while i < 5 {
        w[2 * i] = values[i];
        w[2 * i + 1] = values[i];
        i += 1;
    }
    w
};

/// Phase weights of pawn, knight, bishop, rook, queen, king (PeSTO's; 24 at the start).
const PHASE_INC: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The largest phase (all pieces on the board); more after promotions is capped.
pub const MAX_PHASE: i32 = 24;

/// Squares at centrality at least 1, 2 and 3 (centrality: 3 minus the king-move distance to
/// the four centre squares' block, so 0 on the edge, 3 on d4, e4, d5, e5).
const CENTRE_RINGS: [u64; 3] = [
    0x007E_7E7E_7E7E_7E00,
    0x0000_3C3C_3C3C_0000,
    0x0000_0018_1800_0000,
];

/// The raw feature values of a position: side to move minus opponent, and the phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// One value per [`FEATURE_NAMES`] entry.
    pub values: [i32; FEATURES],
    /// Game phase, 0 (bare kings and pawns) to [`MAX_PHASE`].
    pub phase: i32,
}

/// The rank of `sq` counted from `color`'s side (0 = its back rank).
fn relative_rank(sq: Square, color: Color) -> i32 {
    let r = sq.rank() as i32;
    if color == Color::White { r } else { 7 - r }
}

/// Squares strictly ahead of `sq` (from `color`'s side) on its file and the adjacent ones.
fn front_span(sq: Square, color: Color) -> u64 {
    let files = sq.file().bitboard().0 | sq.file().adjacent().0;
    let rank = sq.rank() as u32;
    let ahead = match color {
        Color::White if rank == 7 => 0,
        Color::White => !0u64 << (8 * (rank + 1)),
        Color::Black => (1u64 << (8 * rank)) - 1,
    };
    files & ahead
}

/// Adds `color`'s counts into `f` with sign `sign` (+1 for the side to move, −1 for the
/// opponent), and returns its phase weight.
fn add_side(board: &Board, color: Color, sign: i32, f: &mut [i32; FEATURES]) -> i32 {
    let occ = board.occupied();
    let own = board.colors(color);
    let pawns = board.colored_pieces(color, Piece::Pawn).0;
    let enemy_pawns = board.colored_pieces(!color, Piece::Pawn).0;
    let enemy_king = board.king(!color);
    let zone = get_king_moves(enemy_king).0 | enemy_king.bitboard().0;
    let mut phase = 0;
    let mut attacks_on_king = 0;
    for piece in Piece::ALL {
        let p = piece as usize;
        let set = board.colored_pieces(color, piece);
        let n = set.len() as i32;
        phase += PHASE_INC[p] * n;
        if p < 5 {
            f[p] += sign * n;
        }
        let centre: u32 = CENTRE_RINGS.iter().map(|&r| (set.0 & r).count_ones()).sum();
        f[5 + p] += sign * centre as i32;
        let mut advance = 0;
        for sq in set {
            advance += relative_rank(sq, color);
            let attacks = match piece {
                Piece::Knight => get_knight_moves(sq),
                Piece::Bishop => get_bishop_moves(sq, occ),
                Piece::Rook => get_rook_moves(sq, occ),
                Piece::Queen => get_bishop_moves(sq, occ) | get_rook_moves(sq, occ),
                Piece::Pawn => {
                    attacks_on_king += (get_pawn_attacks(sq, color).0 & zone).count_ones();
                    continue;
                }
                Piece::King => continue,
            };
            f[17 + p - 1] += sign * (attacks & !own).len() as i32;
            attacks_on_king += (attacks.0 & zone).count_ones();
        }
        f[11 + p] += sign * advance;
    }
    let faults = pawn_faults(board, color);
    f[21] += sign * faults.doubled as i32;
    f[22] += sign * faults.isolated as i32;
    f[23] += sign * faults.backward as i32;
    for sq in BitBoard(pawns) {
        if front_span(sq, color) & enemy_pawns == 0 {
            f[24] += sign;
            f[25] += sign * relative_rank(sq, color);
        }
    }
    let king = board.king(color);
    let shelter_files = king.file().bitboard().0 | king.file().adjacent().0;
    let rank_mask = |r: i32| {
        if (0..8).contains(&r) {
            0xFFu64 << (8 * r)
        } else {
            0
        }
    };
    let kr = king.rank() as i32;
    let shelter_ranks = match color {
        Color::White => rank_mask(kr + 1) | rank_mask(kr + 2),
        Color::Black => rank_mask(kr - 1) | rank_mask(kr - 2),
    };
    f[26] += sign * (pawns & shelter_files & shelter_ranks).count_ones() as i32;
    f[27] += sign * attacks_on_king as i32;
    f[28] += sign * i32::from(board.colored_pieces(color, Piece::Bishop).len() >= 2);
    let all_pawns = pawns | enemy_pawns;
    for sq in board.colored_pieces(color, Piece::Rook) {
        let file = sq.file().bitboard().0;
        if file & all_pawns == 0 {
            f[29] += sign;
        } else if file & pawns == 0 {
            f[30] += sign;
        }
    }
    phase
}

/// Measures `board` for the side to move.
#[must_use]
pub fn features(board: &Board) -> Features {
    let us = board.side_to_move();
    let mut values = [0; FEATURES];
    let ph = add_side(board, us, 1, &mut values) + add_side(board, !us, -1, &mut values);
    values[31] = 1;
    Features {
        values,
        phase: ph.min(MAX_PHASE),
    }
}

/// The chess linear evaluation with fixed weights ([`FIXED`] per unit), side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessLinear {
    mg: [i32; FEATURES],
    eg: [i32; FEATURES],
}

impl ChessLinear {
    /// The evaluator with `weights` in [`WEIGHT_NAMES`] order.
    ///
    /// # Panics
    /// If `weights` does not hold [`WEIGHTS`] values.
    #[must_use]
    pub fn from_weights(weights: &[f64]) -> Self {
        assert_eq!(weights.len(), WEIGHTS, "chess linear weights");
        let (mg, eg) = phase_weights(weights);
        Self { mg, eg }
    }

    /// The value of measured features, in centipawns (rounded toward zero).
    #[must_use]
    pub fn value(&self, f: &Features) -> Score {
        let (ph, rest) = (i64::from(f.phase), i64::from(MAX_PHASE - f.phase));
        let mut sum = 0i64;
        for i in 0..FEATURES {
            let v = i64::from(f.values[i]);
            sum += v * (i64::from(self.mg[i]) * ph + i64::from(self.eg[i]) * rest);
        }
        clamp_score(sum / (i64::from(MAX_PHASE) * FIXED))
    }
}

impl Evaluator<Chess> for ChessLinear {
    fn evaluate(&self, pos: &Chess) -> Score {
        self.value(&features(pos.board()))
    }

    noisy_and_hint!();
}

/// Material balance for the side to move after the best capture sequence (captures only,
/// standing pat allowed, at most `depth` captures deep): the quiet test of Texel's method.
fn capture_search(board: &Board, mut alpha: i32, beta: i32, depth: u32) -> i32 {
    let us = board.side_to_move();
    let stand = material_of(board, us) - material_of(board, !us);
    if stand >= beta || depth == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let enemy = board.colors(!us);
    let mut best = stand;
    board.generate_moves(|mut moves| {
        moves.to &= enemy;
        for mv in moves {
            let mut next = board.clone();
            next.play_unchecked(mv);
            let v = -capture_search(&next, -beta, -alpha, depth - 1);
            if v > best {
                best = v;
                alpha = alpha.max(v);
            }
            if best >= beta {
                return true;
            }
        }
        false
    });
    best
}

/// `x` with `ChessLinear::evaluate ≈ w · x` for weights `w` in [`WEIGHT_NAMES`] order
/// (exact before integer rounding): the evaluation's gradient with respect to its weights.
pub fn gradient(board: &Board, x: &mut [f64]) {
    let f = features(board);
    let mg = f64::from(f.phase) / f64::from(MAX_PHASE);
    for i in 0..FEATURES {
        let v = f64::from(f.values[i]);
        x[2 * i] = v * mg;
        x[2 * i + 1] = v * (1.0 - mg);
    }
}

/// Not in check, and no capture sequence changes the material balance: Texel's method
/// labels positions whose static evaluation is their quiescence value (here material
/// decides, six captures deep).
#[must_use]
pub fn is_quiet(b: &Board) -> bool {
    if !b.checkers().is_empty() {
        return false;
    }
    let us = b.side_to_move();
    let stand = material_of(b, us) - material_of(b, !us);
    capture_search(b, stand - 1, stand + 1, 6) == stand
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation};
    use crate::games::chess::Material;

    #[test]
    fn names_and_material_equivalence() {
        assert_eq!(WEIGHT_NAMES[0], "pawn_mg");
        assert_eq!(WEIGHT_NAMES[63], "tempo_eg");
        for (i, f) in FEATURE_NAMES.iter().enumerate() {
            assert_eq!(WEIGHT_NAMES[2 * i], format!("{f}_mg"));
        }
        let linear = ChessLinear::from_weights(&MATERIAL_WEIGHTS);
        let mut pos = Chess::startpos();
        let mut rng = crate::rng::XorShift::new(7);
        let mut moves = Vec::new();
        for _ in 0..300 {
            if pos.status() != crate::game::Status::Ongoing {
                pos = Chess::startpos();
            }
            assert_eq!(
                linear.evaluate(&pos),
                Material.evaluate(&pos),
                "{}",
                pos.to_fen()
            );
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }

    #[test]
    fn features_on_hand_made_positions() {
        let start = features(Chess::startpos().board());
        // Symmetric: every difference is 0 but the tempo.
        assert_eq!(start.values[..31], [0; 31]);
        assert_eq!(start.values[31], 1);
        assert_eq!(start.phase, 24);
        // White: king g1, pawns f2 g2 h2, rook on the open d-file, a passed pawn on a6.
        // Black: king a8... the a-pawn is passed (no black pawn on a-b files ahead of it).
        let p = Chess::parse_position("k7/8/P7/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let f = features(p.board());
        let at = |name: &str| f.values[FEATURE_NAMES.iter().position(|&n| n == name).unwrap()];
        assert_eq!(at("pawn"), 4);
        assert_eq!(at("rook"), 1);
        assert_eq!(at("passed_pawns"), 4);
        assert_eq!(at("passed_advance"), 5 + 3);
        assert_eq!(at("king_shield"), 3);
        assert_eq!(at("rook_open_file"), 1);
        // Rook d1: 7 squares up the file, c1 b1 a1 e1 f1 (g1 is its own king) = 12.
        assert_eq!(at("rook_mobility"), 12);
        // The a6 pawn attacks b7, next to the black king on a8.
        assert_eq!(at("king_attacks"), 1);
        assert_eq!(f.phase, 2);
    }

    #[test]
    fn quiet_positions() {
        assert!(is_quiet(Chess::startpos().board()));
        // White queen hangs to the pawn on d5.
        let p = Chess::parse_position("4k3/8/8/3p4/4Q3/8/8/4K3 b - - 0 1").unwrap();
        assert!(!is_quiet(p.board()));
        // Nothing to capture.
        let p = Chess::parse_position("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(is_quiet(p.board()));
    }
}
