//! Chess evaluators, in centipawns for the side to move.
//!
//! - [`Material`]: the classical piece values 1, 3, 3, 5, 9 pawns;
//! - [`Shannon`]: Shannon's example evaluation (material, pawn structure, mobility);
//! - [`Pst`]: PeSTO's tapered piece-square tables.
//!
//! All three call captures (en passant included) and promotions noisy, and order them by
//! MVV-LVA ([`mvv_lva`]); quiet moves get hint 0.
//!
//! Material and PeSTO's sums are kept in the position and updated by every move
//! (`EvalSums`), so [`Material`] and [`Pst`] evaluate in constant time.

use cozy_chess::{BitBoard, Board, Color, File, Piece, Square};

use super::{Chess, ChessMove, count_moves, pesto};
use crate::game::{Evaluator, Score};

/// Classical piece values in centipawns (pawn, knight, bishop, rook, queen, king): 1, 3, 3,
/// 5, 9 pawns, the values of Shannon 1950 and of most chess primers. The king has none.
pub const PIECE_VALUES: [Score; 6] = [100, 300, 300, 500, 900, 0];

/// The value of a piece in [`PIECE_VALUES`].
#[must_use]
pub const fn piece_value(p: Piece) -> Score {
    PIECE_VALUES[p as usize]
}

/// Material of `color`: the sum of [`PIECE_VALUES`] over its pieces (bitboard popcounts).
#[must_use]
pub fn material_of(board: &Board, color: Color) -> Score {
    let ours = board.colors(color);
    Piece::ALL[..5]
        .iter()
        .map(|&p| (ours & board.pieces(p)).len() as Score * piece_value(p))
        .sum()
}

/// Most valuable victim, least valuable attacker (Chess Programming Wiki, "MVV-LVA"):
/// `16 × gain − attacker` for captures and promotions, where the gain is the captured
/// piece's value plus, for a promotion, the new piece's value less a pawn, and the
/// attacker's value is its [`PIECE_VALUES`] entry (the king counts 0: a legal king capture
/// cannot be answered by a recapture). Always positive for those moves; 0 for quiet moves.
#[must_use]
pub fn mvv_lva(pos: &Chess, mv: ChessMove) -> i32 {
    let gain = material_gain(pos, mv);
    if gain == 0 {
        return 0;
    }
    16 * gain - piece_value(pos.moved_piece(mv))
}

/// The material a move wins: the captured piece plus a promotion's gain over the pawn.
#[must_use]
pub fn material_gain(pos: &Chess, mv: ChessMove) -> Score {
    let victim = pos.captured_piece(mv).map_or(0, piece_value);
    let promotion = mv
        .promotion()
        .map_or(0, |p| piece_value(p) - piece_value(Piece::Pawn));
    victim + promotion
}

/// Captures (en passant included) and promotions: what quiescence search follows.
#[must_use]
pub fn is_noisy(pos: &Chess, mv: ChessMove) -> bool {
    mv.promotion().is_some() || pos.is_capture(mv)
}

/// The trait methods every chess evaluator shares: noisy moves and MVV-LVA hints.
macro_rules! noisy_and_hint {
    () => {
        fn is_noisy(&self, pos: &Chess, mv: ChessMove) -> bool {
            is_noisy(pos, mv)
        }

        fn noisy_moves(&self, pos: &Chess, out: &mut Vec<ChessMove>) -> usize {
            out.clear();
            pos.generate_noisy_moves(out)
        }

        fn order_hint(&self, pos: &Chess, mv: ChessMove, _depth: u32) -> i32 {
            mvv_lva(pos, mv)
        }

        fn material_gain(&self, pos: &Chess, mv: ChessMove) -> Option<Score> {
            Some(material_gain(pos, mv))
        }
    };
}
// The learned linear evaluation (crate::games::linear::chess) shares them too.
pub(crate) use noisy_and_hint;

/// Material only: 100, 300, 300, 500, 900 centipawns for pawn, knight, bishop, rook,
/// queen ([`PIECE_VALUES`]), side to move minus opponent.
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

impl Evaluator<Chess> for Material {
    fn evaluate(&self, pos: &Chess) -> Score {
        pos.sums.material(pos.board.side_to_move())
    }

    noisy_and_hint!();
}

/// Shannon's example evaluation (C. E. Shannon, "Programming a Computer for Playing Chess",
/// Philosophical Magazine 41, 1950, section 3; as summarised in shared/seeds/004): material
/// ([`PIECE_VALUES`]), minus half a pawn (50) for each doubled, backward and isolated pawn,
/// plus a tenth of a pawn (10) per legal move, each term for the side to move minus the
/// opponent. Shannon's checkmate value (200 pawns) is the search's business here.
///
/// Pawn faults are counted by [`pawn_faults`]. Mobility is counted honestly as legal moves:
/// the side to move's in the position, the opponent's in the position after a null move
/// (cozy-chess's `null_move`, the same board with the other side to move and no en-passant
/// square). When the side to move is in check there is no such position (passing is
/// illegal), and the mobility term is left out (0).
#[derive(Clone, Copy, Debug, Default)]
pub struct Shannon;

/// Shannon's weights in centipawns.
const SHANNON_PAWN_FAULT: Score = 50;
/// Shannon's mobility weight in centipawns per legal move.
const SHANNON_MOBILITY: Score = 10;

impl Evaluator<Chess> for Shannon {
    fn evaluate(&self, pos: &Chess) -> Score {
        let board = &pos.board;
        let us = board.side_to_move();
        let faults =
            pawn_faults(board, us).total() as Score - pawn_faults(board, !us).total() as Score;
        pos.sums.material(us) - SHANNON_PAWN_FAULT * faults
            + SHANNON_MOBILITY * mobility_balance(board)
    }

    noisy_and_hint!();
}

/// Legal moves of the side to move minus those of the opponent (after a null move); 0 in
/// check.
fn mobility_balance(board: &Board) -> Score {
    match board.null_move() {
        Some(passed) => count_moves(board) as Score - count_moves(&passed) as Score,
        None => 0,
    }
}

/// One side's pawn-structure faults, in Shannon's three kinds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnFaults {
    /// Pawns beyond the first on each file (two pawns on a file count 1, three count 2).
    pub doubled: u32,
    /// Pawns with no pawn of their colour on either adjacent file.
    pub isolated: u32,
    /// Pawns that are not isolated, have no pawn of their colour on an adjacent file beside
    /// or behind them (so none can ever defend them or their advance), and whose stop square
    /// (the square in front) is attacked by an enemy pawn, so they cannot advance safely
    /// (the Chess Programming Wiki's "Backward Pawn" definition).
    pub backward: u32,
}

impl PawnFaults {
    /// Doubled + isolated + backward.
    #[must_use]
    pub const fn total(self) -> u32 {
        self.doubled + self.isolated + self.backward
    }
}

/// The a-file.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file.
const FILE_H: u64 = FILE_A << 7;

/// Squares attacked by pawns of `color` standing on `pawns`.
const fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

/// Squares on `sq`'s rank and the ranks behind it, seen from `color`.
const fn level_or_behind(sq: Square, color: Color) -> u64 {
    let rank = sq.rank() as u32;
    match color {
        Color::White => {
            if rank == 7 {
                !0
            } else {
                (1u64 << (8 * (rank + 1))) - 1
            }
        }
        Color::Black => !0u64 << (8 * rank),
    }
}

/// Doubled, isolated and backward pawns of `color` (see [`PawnFaults`]), with bitboards.
#[must_use]
pub fn pawn_faults(board: &Board, color: Color) -> PawnFaults {
    let own = board.colored_pieces(color, Piece::Pawn).0;
    let enemy_attacks = pawn_attacks(board.colored_pieces(!color, Piece::Pawn).0, !color);
    let mut faults = PawnFaults::default();
    for file in 0..8 {
        let n = (own & (FILE_A << file)).count_ones();
        faults.doubled += n.saturating_sub(1);
    }
    for sq in BitBoard(own) {
        let adjacent = sq.file().adjacent().0;
        if own & adjacent == 0 {
            faults.isolated += 1;
            continue;
        }
        if own & adjacent & level_or_behind(sq, color) != 0 {
            continue;
        }
        let stop = match color {
            Color::White => sq.bitboard().0 << 8,
            Color::Black => sq.bitboard().0 >> 8,
        };
        if enemy_attacks & stop != 0 {
            faults.backward += 1;
        }
    }
    faults
}

/// PeSTO's evaluation (Ronald Friederich; tables from the Chess Programming Wiki page
/// "PeSTO's Evaluation Function", see `pesto.rs`): for each piece, a middlegame and an
/// endgame value (piece value plus square bonus), blended by the game phase: knights and
/// bishops count 1, rooks 2, queens 4 (24 at the start, capped at 24 after promotions);
/// the score is `(mg × phase + eg × (24 − phase)) / 24`, side to move minus opponent. The
/// tables mirror each other by colour, so the start position scores 0.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pst;

/// Middlegame and endgame value of each (colour, piece, cozy-chess square), with the piece
/// value folded in: `[phase][colour][piece][square]`.
const PST: [[[[i32; 64]; 6]; 2]; 2] = pst_tables();

/// Builds [`PST`]: a White piece on square `s` (a1 = 0) reads the wiki table at `s ^ 56`
/// (the wiki lists rank 8 first), a Black piece at `s` (the board seen from Black's side).
const fn pst_tables() -> [[[[i32; 64]; 6]; 2]; 2] {
    let mut out = [[[[0; 64]; 6]; 2]; 2];
    let mut piece = 0;
    while piece < 6 {
        let mut sq = 0;
        while sq < 64 {
            out[0][0][piece][sq] = pesto::MG_VALUE[piece] + pesto::MG_TABLE[piece][sq ^ 56];
            out[0][1][piece][sq] = pesto::MG_VALUE[piece] + pesto::MG_TABLE[piece][sq];
            out[1][0][piece][sq] = pesto::EG_VALUE[piece] + pesto::EG_TABLE[piece][sq ^ 56];
            out[1][1][piece][sq] = pesto::EG_VALUE[piece] + pesto::EG_TABLE[piece][sq];
            sq += 1;
        }
        piece += 1;
    }
    out
}

/// The terms one piece on one square adds to [`EvalSums`], `[colour][piece][square]`:
/// [material](PIECE_VALUES), PeSTO's middlegame and endgame values ([`PST`]), each negative
/// for Black, and PeSTO's phase weight (positive for both).
static TERMS: [[[[i32; TERM_COUNT]; 64]; 6]; 2] = term_table();

/// The number of terms of [`EvalSums`]: material, middlegame, endgame, phase.
const TERM_COUNT: usize = 4;
/// The material term's place in a [`TERMS`] entry and in [`EvalSums`].
const MATERIAL: usize = 0;
/// PeSTO's middlegame term's place.
const MIDDLEGAME: usize = 1;
/// PeSTO's endgame term's place.
const ENDGAME: usize = 2;
/// PeSTO's phase weight's place.
const PHASE: usize = 3;

/// Builds [`TERMS`] from [`PIECE_VALUES`], [`PST`] and PeSTO's phase weights.
const fn term_table() -> [[[[i32; TERM_COUNT]; 64]; 6]; 2] {
    let mut out = [[[[0; TERM_COUNT]; 64]; 6]; 2];
    let mut color = 0;
    while color < 2 {
        let sign = if color == 0 { 1 } else { -1 };
        let mut piece = 0;
        while piece < 6 {
            let mut sq = 0;
            while sq < 64 {
                out[color][piece][sq] = [
                    sign * PIECE_VALUES[piece],
                    sign * PST[0][color][piece][sq],
                    sign * PST[1][color][piece][sq],
                    pesto::PHASE_INC[piece],
                ];
                sq += 1;
            }
            piece += 1;
        }
        color += 1;
    }
    out
}

/// The board's material and PeSTO sums, White minus Black, kept by [`Chess`] and brought up
/// to date by every move ([`EvalSums::after`]) instead of recomputed at every evaluation (an
/// incremental update, as Stockfish keeps its material and piece-square score in the
/// position: Chess Programming Wiki, "Incremental Updates"). Summing the pieces at each
/// evaluation took about a fifth of a chess search's time with [`Pst`] (`perf`, Bratko-Kopec
/// 3 to depth 10 with quiescence); a move changes two to four pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct EvalSums {
    /// The sums of [`TERMS`] over the pieces on the board.
    terms: [i32; TERM_COUNT],
}

impl EvalSums {
    /// The sums of `board`, from scratch.
    pub(super) fn of(board: &Board) -> Self {
        let mut sums = Self::default();
        for color in Color::ALL {
            for piece in Piece::ALL {
                for sq in board.colored_pieces(color, piece) {
                    sums.add(color, piece, sq);
                }
            }
        }
        sums
    }

    /// Puts a piece on `sq`.
    fn add(&mut self, color: Color, piece: Piece, sq: Square) {
        let terms = &TERMS[color as usize][piece as usize][sq as usize];
        for (sum, term) in self.terms.iter_mut().zip(terms) {
            *sum += term;
        }
    }

    /// Takes a piece off `sq`.
    fn remove(&mut self, color: Color, piece: Piece, sq: Square) {
        let terms = &TERMS[color as usize][piece as usize][sq as usize];
        for (sum, term) in self.terms.iter_mut().zip(terms) {
            *sum -= term;
        }
    }

    /// The sums once `mv`, a legal move of `pos` (whose sums these are), is played: the
    /// mover leaves its square and arrives (promoted) on its destination, a victim leaves
    /// its square (en passant: beside the destination), and castling moves the king and the
    /// rook.
    #[inline]
    pub(super) fn after(mut self, pos: &Chess, mv: ChessMove) -> Self {
        let us = pos.color_to_move();
        if mv.is_castle() {
            let rank = mv.from().rank();
            let rook_file = if mv.is_short_castle() {
                File::F
            } else {
                File::D
            };
            self.remove(us, Piece::King, mv.from());
            self.add(us, Piece::King, mv.to());
            self.remove(us, Piece::Rook, mv.raw().to);
            self.add(us, Piece::Rook, Square::new(rook_file, rank));
            return self;
        }
        if let Some(victim) = pos.captured_piece(mv) {
            let at = if pos.board.colors(!us).has(mv.to()) {
                mv.to()
            } else {
                Square::new(mv.to().file(), mv.from().rank())
            };
            self.remove(!us, victim, at);
        }
        let piece = pos.moved_piece(mv);
        self.remove(us, piece, mv.from());
        self.add(us, mv.promotion().unwrap_or(piece), mv.to());
        self
    }

    /// +1 for White, −1 for Black: the sums are White's point of view.
    const fn sign(us: Color) -> i32 {
        match us {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// Material of `us` minus the opponent's ([`PIECE_VALUES`]).
    fn material(self, us: Color) -> Score {
        Self::sign(us) * self.terms[MATERIAL]
    }

    /// PeSTO's score for `us`: the phase capped at 24 (promotions can exceed it), the
    /// middlegame and endgame differences blended by it.
    fn pesto(self, us: Color) -> Score {
        let sign = Self::sign(us);
        let phase = self.terms[PHASE].min(24);
        (sign * self.terms[MIDDLEGAME] * phase + sign * self.terms[ENDGAME] * (24 - phase)) / 24
    }
}

impl Evaluator<Chess> for Pst {
    /// The sums [`Chess`] keeps up to date (`EvalSums`), blended.
    fn evaluate(&self, pos: &Chess) -> Score {
        pos.sums.pesto(pos.board.side_to_move())
    }

    noisy_and_hint!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Notation};

    fn pos(fen: &str) -> Chess {
        Chess::parse_position(fen).expect(fen)
    }

    #[test]
    fn pawn_faults_on_hand_made_positions() {
        // White a2, a3, c2: the a-pawns are doubled, and all three are isolated (the b-file
        // is empty), so none can be backward.
        let p = pos("4k3/8/8/8/8/P7/P1P5/4K3 w - - 0 1");
        let w = pawn_faults(&p.board, Color::White);
        assert_eq!(
            w,
            PawnFaults {
                doubled: 1,
                isolated: 3,
                backward: 0
            }
        );

        // White d2 is backward: its only neighbour, e3, is ahead of it, and Black's c4
        // attacks its stop square d3. White e3 has no such problem.
        let p = pos("4k3/8/8/8/2p5/4P3/3P4/4K3 w - - 0 1");
        let w = pawn_faults(&p.board, Color::White);
        assert_eq!(
            w,
            PawnFaults {
                doubled: 0,
                isolated: 0,
                backward: 1
            }
        );
        // Black's c4 is isolated (no b- or d-file black pawns).
        assert_eq!(pawn_faults(&p.board, Color::Black).isolated, 1);

        // Not backward when a neighbour stands level: d2 and e2 side by side.
        let p = pos("4k3/8/8/8/2p5/8/3PP3/4K3 w - - 0 1");
        assert_eq!(pawn_faults(&p.board, Color::White).backward, 0);

        // The mirror image for Black: d7 backward behind e6, White pawn on c5 hits d6.
        let p = pos("4k3/3p4/4p3/2P5/8/8/8/4K3 b - - 0 1");
        let b = pawn_faults(&p.board, Color::Black);
        assert_eq!(
            b,
            PawnFaults {
                doubled: 0,
                isolated: 0,
                backward: 1
            }
        );

        // Tripled and isolated h-pawns: doubled 2, isolated 3.
        let p = pos("4k3/8/8/7P/7P/7P/8/4K3 w - - 0 1");
        assert_eq!(
            pawn_faults(&p.board, Color::White),
            PawnFaults {
                doubled: 2,
                isolated: 3,
                backward: 0
            }
        );
    }

    #[test]
    fn shannon_counts_faults_and_mobility() {
        let start = Chess::startpos();
        assert_eq!(Shannon.evaluate(&start), 0);
        // White has lone king e1 (5 moves); Black king e8 and pawn h7 (5 + 2 moves): material
        // −100 and mobility 5 − 7 = −2, and Black's h-pawn is isolated (+50 for White).
        let p = pos("4k3/7p/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(Shannon.evaluate(&p), -100 + 50 + 10 * (5 - 7));
        // In check the mobility term is left out.
        let p = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        assert!(p.board.null_move().is_none());
        assert_eq!(Shannon.evaluate(&p), -500);
    }

    #[test]
    fn mvv_lva_prefers_big_victims_and_small_attackers() {
        // Black queen c5 and knight e5; White pawn d4 takes either, White queen h2 the knight.
        let p = pos("4k3/8/8/2q1n3/3P4/8/7Q/4K3 w - - 0 1");
        let hint = |uci: &str| mvv_lva(&p, p.parse_uci(uci).expect(uci));
        assert_eq!(hint("d4c5"), 16 * 900 - 100);
        assert_eq!(hint("d4e5"), 16 * 300 - 100);
        assert_eq!(hint("h2e5"), 16 * 300 - 900);
        assert_eq!(hint("d4d5"), 0);
        assert!(hint("d4c5") > hint("d4e5") && hint("d4e5") > hint("h2e5"));
        assert!(is_noisy(&p, p.parse_uci("h2e5").expect("legal")));
        assert!(!is_noisy(&p, p.parse_uci("h2h7").expect("legal")));
        // Promotions are noisy, queen first; en passant captures a pawn.
        let p = pos("8/P3k3/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let hint = |uci: &str| mvv_lva(&p, p.parse_uci(uci).expect(uci));
        assert_eq!(hint("a7a8q"), 16 * 800 - 100);
        assert!(hint("a7a8q") > hint("a7a8n"));
        assert_eq!(hint("e5d6"), 16 * 100 - 100);
        assert!(Material.is_noisy(&p, p.parse_uci("e5d6").expect("legal")));
    }

    /// Positions of seeded random games from a few starting points with pawns of both
    /// colours on every kind of file (rook files included, where pawn attacks could wrap).
    fn random_positions(seed: u64, plies: usize) -> Vec<Chess> {
        let mut rng = crate::rng::XorShift::new(seed);
        let mut out = Vec::new();
        for fen in [
            crate::games::chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/pp1p2pp/2p1p3/P4P1P/1P4P1/2P5/3P4/4K3 w - - 0 1",
            "4k3/p1p3pp/1p1p4/P3p1P1/1PP4P/4P3/8/4K3 b - - 0 1",
        ] {
            let mut pos = pos(fen);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                out.push(pos.clone());
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        out
    }

    /// PeSTO's evaluation written out from the Chess Programming Wiki's definition, square
    /// by square from the board: the tables are listed from White's side with rank 8 first,
    /// so a White piece on (file, rank) reads row `7 − rank` and a Black piece, the board
    /// turned over, row `rank`; phase 1 per minor, 2 per rook, 4 per queen, at most 24;
    /// `(mg × phase + eg × (24 − phase)) / 24` for White, negated for Black to move.
    fn pesto_by_definition(board: &Board) -> Score {
        let (mut mg, mut eg, mut phase) = (0, 0, 0);
        for sq in Square::ALL {
            let (Some(piece), Some(color)) = (board.piece_on(sq), board.color_on(sq)) else {
                continue;
            };
            let (file, rank) = (sq.file() as usize, sq.rank() as usize);
            let (row, sign) = match color {
                Color::White => (7 - rank, 1),
                Color::Black => (rank, -1),
            };
            let (p, i) = (piece as usize, row * 8 + file);
            mg += sign * (pesto::MG_VALUE[p] + pesto::MG_TABLE[p][i]);
            eg += sign * (pesto::EG_VALUE[p] + pesto::EG_TABLE[p][i]);
            phase += match piece {
                Piece::Knight | Piece::Bishop => 1,
                Piece::Rook => 2,
                Piece::Queen => 4,
                Piece::Pawn | Piece::King => 0,
            };
        }
        let phase = phase.min(24);
        let white = (mg * phase + eg * (24 - phase)) / 24;
        match board.side_to_move() {
            Color::White => white,
            Color::Black => -white,
        }
    }

    /// Pst, read from the sums `Chess` keeps move by move, equals PeSTO written out from
    /// its definition ([`pesto_by_definition`]) after seeded random moves, and two values
    /// worked by hand from the wiki's tables: a lone pawn on a7 (phase 0: endgame only, the
    /// kings' e1 and e8 cancel) and a lone queen on d1 (phase 4).
    #[test]
    fn pst_equals_pesto_written_out_from_its_definition() {
        // Endgame pawn value 94 + a7's entry 178.
        let pawn = |fen| Pst.evaluate(&pos(fen));
        assert_eq!(
            pawn("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
            94 + 178,
            "pawn a7, White to move"
        );
        assert_eq!(
            pawn("4k3/P7/8/8/8/8/8/4K3 b - - 0 1"),
            -(94 + 178),
            "pawn a7, Black"
        );
        // Queen d1: middlegame 1025 + 10, endgame 936 − 43, blended at phase 4 of 24.
        let queen = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let blend = (1035 * 4 + 893 * 20) / 24;
        assert_eq!(Pst.evaluate(&queen), blend, "queen d1 at phase 4");
        // Seven queens against two make phase 36, capped at 24 (middlegame values only).
        let queens = pos("qq2k3/8/8/8/8/8/8/QQQQKQQQ w - - 0 1");
        let want = pesto_by_definition(&queens.board);
        assert_eq!(Pst.evaluate(&queens), want, "phase capped at 24");
        for p in random_positions(31, 160) {
            assert_eq!(
                Pst.evaluate(&p),
                pesto_by_definition(&p.board),
                "{}",
                p.to_fen()
            );
        }
    }

    /// Pawn-structure faults written out by squares, from the definitions on
    /// [`PawnFaults`] (doubled: pawns beyond the first on a file; isolated: no own pawn on
    /// an adjacent file; backward: not isolated, no own pawn on an adjacent file level with
    /// or behind it, and its stop square attacked by an enemy pawn).
    fn faults_by_definition(board: &Board, color: Color) -> PawnFaults {
        let pawn_at = |c: Color, file: i32, rank: i32| {
            (0..8).contains(&file)
                && (0..8).contains(&rank)
                && board.colored_pieces(c, Piece::Pawn).has(Square::new(
                    File::index(file as usize),
                    cozy_chess::Rank::index(rank as usize),
                ))
        };
        let forward = if color == Color::White { 1 } else { -1 };
        let mut faults = PawnFaults::default();
        for file in 0..8 {
            let n = (0..8).filter(|&r| pawn_at(color, file, r)).count() as u32;
            faults.doubled += n.saturating_sub(1);
            for rank in (0..8).filter(|&r| pawn_at(color, file, r)) {
                let neighbours: Vec<i32> = (0..8)
                    .filter(|&r| pawn_at(color, file - 1, r) || pawn_at(color, file + 1, r))
                    .collect();
                if neighbours.is_empty() {
                    faults.isolated += 1;
                    continue;
                }
                let supported = neighbours.iter().any(|&r| (r - rank) * forward <= 0);
                // An enemy pawn attacks the stop square from one file aside, one rank on.
                let stop = rank + forward;
                let hit = pawn_at(!color, file - 1, stop + forward)
                    || pawn_at(!color, file + 1, stop + forward);
                if !supported && hit {
                    faults.backward += 1;
                }
            }
        }
        faults
    }

    /// Shannon's evaluation written out from its definition (Shannon 1950, section 3):
    /// 200K + 9Q + 5R + 3(B + N) + P − 0.5(D + S + I) + 0.1M in pawns, here in centipawns
    /// and without the king term (mate is the search's business); each term side to move
    /// minus opponent, the pieces counted square by square, D, S and I by
    /// [`faults_by_definition`], M by legal moves (the opponent's after a pass, none of it
    /// in check) counted by cozy-chess itself.
    fn shannon_by_definition(board: &Board) -> Score {
        let us = board.side_to_move();
        let side = |c: Color| -> Score { if c == us { 1 } else { -1 } };
        let mut score = 0;
        for sq in Square::ALL {
            if let (Some(piece), Some(color)) = (board.piece_on(sq), board.color_on(sq)) {
                let value = match piece {
                    Piece::Pawn => 100,
                    Piece::Knight | Piece::Bishop => 300,
                    Piece::Rook => 500,
                    Piece::Queen => 900,
                    Piece::King => 0,
                };
                score += side(color) * value;
            }
        }
        for color in Color::ALL {
            let f = faults_by_definition(board, color);
            score -= side(color) * 50 * (f.doubled + f.isolated + f.backward) as Score;
        }
        let legal = |b: &Board| {
            let mut n = 0;
            b.generate_moves(|m| {
                n += m.len() as Score;
                false
            });
            n
        };
        if board.checkers().is_empty() {
            let passed = board.null_move().expect("not in check");
            score += 10 * (legal(board) - legal(&passed));
        }
        score
    }

    /// Shannon's evaluation and the pawn faults behind it equal their definitions written
    /// out square by square, on seeded random games whose pawns stand on every file.
    #[test]
    fn shannon_and_pawn_faults_equal_their_definitions() {
        let positions = random_positions(47, 160);
        for p in &positions {
            for color in Color::ALL {
                assert_eq!(
                    pawn_faults(&p.board, color),
                    faults_by_definition(&p.board, color),
                    "{:?} in {}",
                    color,
                    p.to_fen()
                );
            }
            assert_eq!(
                Shannon.evaluate(p),
                shannon_by_definition(&p.board),
                "{}",
                p.to_fen()
            );
        }
        // The pawn structures are not all clean: every fault occurs.
        let total = |f: fn(PawnFaults) -> u32| {
            positions
                .iter()
                .map(|p| {
                    Color::ALL
                        .map(|c| f(pawn_faults(&p.board, c)))
                        .iter()
                        .sum::<u32>()
                })
                .sum::<u32>()
        };
        assert!(total(|f| f.doubled) > 0 && total(|f| f.isolated) > 0);
        assert!(total(|f| f.backward) > 0, "no backward pawn met");
    }

    /// Each evaluator's move hints are MVV-LVA by its definition (16 × gain − attacker, 0
    /// for a quiet move), its material gains the captured piece plus a promotion's gain
    /// over the pawn, and its noisy moves the captures and promotions, all written out from
    /// the board (en passant: the move of a pawn to the empty en-passant square).
    #[test]
    fn evaluators_hint_mvv_lva_by_its_definition() {
        fn check<E: Evaluator<Chess>>(e: &E, p: &Chess) {
            let board = &p.board;
            // Pawns count 1, minor pieces 3, rooks 5, queens 9, the king 0.
            let value = |piece| match piece {
                Piece::Pawn => 100,
                Piece::Knight | Piece::Bishop => 300,
                Piece::Rook => 500,
                Piece::Queen => 900,
                Piece::King => 0,
            };
            let legal = p.legal_moves();
            // `noisy_moves` replaces what the buffer held (Evaluator::noisy_moves).
            let mut noisy = legal.clone();
            let count = e.noisy_moves(p, &mut noisy);
            assert_eq!(count, legal.len(), "legal moves of {}", p.to_fen());
            let mut expected_noisy = Vec::new();
            for mv in legal {
                let raw = mv.raw();
                let mover = board.piece_on(raw.from).expect("a piece moves");
                let victim = if board.color_on(raw.to) == Some(!board.side_to_move()) {
                    board.piece_on(raw.to)
                } else if mover == Piece::Pawn && raw.from.file() != raw.to.file() {
                    Some(Piece::Pawn)
                } else {
                    None
                };
                let gain = victim.map_or(0, value) + raw.promotion.map_or(0, |q| value(q) - 100);
                let hint = if gain == 0 {
                    0
                } else {
                    16 * gain - value(mover)
                };
                let what = format!("{mv} in {}", p.to_fen());
                assert_eq!(e.order_hint(p, mv, 0), hint, "hint of {what}");
                assert_eq!(e.material_gain(p, mv), Some(gain), "gain of {what}");
                let is_noisy = victim.is_some() || raw.promotion.is_some();
                assert_eq!(e.is_noisy(p, mv), is_noisy, "noisy {what}");
                if is_noisy {
                    expected_noisy.push(mv);
                }
            }
            assert_eq!(noisy, expected_noisy, "noisy moves of {}", p.to_fen());
        }
        for p in random_positions(53, 60) {
            check(&Material, &p);
            check(&Shannon, &p);
            check(&Pst, &p);
        }
    }
}
