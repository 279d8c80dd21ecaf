//! Othello (reversi) on 8x8 bitboards.
//!
//! Rules: a move places a disc of the side to move on an empty square that brackets at least
//! one line of opponent discs, which are flipped. A side without a legal move passes, and
//! **a pass is a move** here ([`OthelloMove::PASS`], written `pass`, read also as `PS` as
//! Edax writes it): it is generated only when the side to move has no disc move and the
//! opponent has one. When neither side can move the game is over; no second pass is played
//! (two passes in a row would end it, so the position before them is already final).
//!
//! The result is the **final disc difference with the empty squares given to the winner**
//! (the convention of the FFO endgame positions and of Edax; a draw stays 0), for the side
//! to move, as [`Outcome::Points`] in hundredths of a disc ([`DISC`]) so that evaluations
//! (also in hundredths of a disc) have some resolution and the Monte Carlo searches read
//! them on the same logistic scale as centipawns. Test sets are compared in whole discs.
//!
//! Positions are written as the usual 64-character board, `a1` to `h1` then `a2` ... (`X`
//! or `*` black, `O` white, `-` or `.` empty), a space, and the side to move (`X` or `O`),
//! or `start`. Squares are `a1` (top left) to `h8`.

pub mod bits;
pub mod endgame;
pub mod eval;
pub mod obf;
pub mod stability;

use std::fmt;

use crate::game::{
    Game, Notation, Outcome, ParseError, Player, REFINED_UNIT, Score, SolverNodes, Status,
};
use crate::rng::mix;

pub use eval::{OthelloEval, Weights};

/// One disc of final difference in score units: scores are in hundredths of a disc.
pub const DISC: Score = 100;

/// A root score in whole discs (the convention of `.obf` test sets), `None` when it is not
/// a whole number of discs within ±64 (an evaluation rather than a final result).
#[must_use]
pub fn othello_discs(s: Score) -> Option<i32> {
    (s % DISC == 0 && s.abs() <= 64 * DISC).then_some(s / DISC)
}

/// A move: a square 0-63 (`a1` = 0, `h8` = 63) or [`OthelloMove::PASS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OthelloMove(u8);

impl OthelloMove {
    /// The pass, played when the side to move has no disc move but the opponent has one.
    pub const PASS: Self = Self(64);

    /// The move onto square `index` (0-63), or `None` past the board.
    #[must_use]
    pub const fn square(index: u8) -> Option<Self> {
        if index < 64 { Some(Self(index)) } else { None }
    }

    /// The square's index 0-63, `None` for the pass.
    #[must_use]
    pub const fn index(self) -> Option<u8> {
        if self.0 < 64 { Some(self.0) } else { None }
    }

    /// Reads `a1`..`h8` (either case) or `pass`/`PS`, without checking legality.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("ps") {
            return Ok(Self::PASS);
        }
        let b = t.as_bytes();
        let file = b.first().map(u8::to_ascii_lowercase);
        match (b.len(), file, b.get(1)) {
            (2, Some(f @ b'a'..=b'h'), Some(r @ b'1'..=b'8')) => {
                Ok(Self((r - b'1') * 8 + (f - b'a')))
            }
            _ => Err(ParseError::new(format!(
                "`{t}` is not a square a1-h8 or `pass`"
            ))),
        }
    }
}

impl fmt::Display for OthelloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index() {
            Some(i) => write!(f, "{}{}", char::from(b'a' + i % 8), i / 8 + 1),
            None => f.write_str("pass"),
        }
    }
}

/// An Othello position: the discs of the side to move and of the opponent, the side to
/// move's legal moves (worked out once in [`Game::play`], so that generation, status and
/// fastest-first ordering read them for free), whose turn it is, and the plies played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    player: u64,
    opponent: u64,
    moves: u64,
    black_to_move: bool,
    plies: u16,
}

impl Default for Othello {
    fn default() -> Self {
        Self::new()
    }
}

/// The start position's white discs (d4, e5) and black discs (e4, d5).
const START_WHITE: u64 = (1 << 27) | (1 << 36);
const START_BLACK: u64 = (1 << 28) | (1 << 35);

impl Othello {
    /// The start position, black to move.
    #[must_use]
    pub const fn new() -> Self {
        Self::from_discs(START_BLACK, START_WHITE, true, 0)
    }

    /// The position with these discs (disjoint) and side to move.
    #[must_use]
    pub const fn from_discs(black: u64, white: u64, black_to_move: bool, plies: u16) -> Self {
        let (player, opponent) = if black_to_move {
            (black, white)
        } else {
            (white, black)
        };
        Self {
            player,
            opponent,
            moves: bits::moves_portable(player, opponent),
            black_to_move,
            plies,
        }
    }

    /// Discs of the side to move.
    #[must_use]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// Discs of the side not to move.
    #[must_use]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The empty squares.
    #[must_use]
    pub const fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// The number of empty squares.
    #[must_use]
    pub const fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The side to move's disc moves, as a set of squares.
    #[must_use]
    pub const fn move_set(&self) -> u64 {
        self.moves
    }

    /// Whether black is to move.
    #[must_use]
    pub const fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// Black's and white's discs.
    #[must_use]
    pub const fn black_white(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.player, self.opponent)
        } else {
            (self.opponent, self.player)
        }
    }

    /// The final disc difference for the side to move (empties to the winner), whether or
    /// not the game is over.
    #[must_use]
    pub const fn final_discs(&self) -> i32 {
        bits::final_score(self.player, self.opponent)
    }

    /// The 64-character board and the side to move: `X`/`O` discs, `-` empty, then ` X` or ` O`.
    #[must_use]
    pub fn to_board_string(&self) -> String {
        let (black, white) = self.black_white();
        let mut s: String = (0..64)
            .map(|i| {
                if black >> i & 1 == 1 {
                    'X'
                } else if white >> i & 1 == 1 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        s.push_str(if self.black_to_move { " X" } else { " O" });
        s
    }

    /// Leaf counts to `depth` under both conventions of Bik's table: `(exact, with_early)`,
    /// where `exact` counts sequences of exactly `depth` plies (plylab's [`crate::lab::perft`])
    /// and `with_early` also counts each game that ends sooner as one leaf (Bik's total). A
    /// pass is one ply. Counts the last ply by popcount.
    #[must_use]
    pub fn perft(&self, depth: u32) -> (u64, u64) {
        if depth == 0 {
            return (1, 1);
        }
        let (p, o) = (self.player, self.opponent);
        if self.moves == 0 {
            if bits::moves(o, p) == 0 {
                return (0, 1);
            }
            let mut child = *self;
            child.play(OthelloMove::PASS);
            return child.perft(depth - 1);
        }
        if depth == 1 {
            let n = u64::from(self.moves.count_ones());
            return (n, n);
        }
        let mut total = (0, 0);
        let mut rest = self.moves;
        while rest != 0 {
            let mut child = *self;
            child.play(OthelloMove(rest.trailing_zeros() as u8));
            let (a, b) = child.perft(depth - 1);
            total = (total.0 + a, total.1 + b);
            rest &= rest - 1;
        }
        total
    }
}

impl Game for Othello {
    type Move = OthelloMove;
    const NAME: &'static str = "othello";

    /// Discs are only ever added (a pass changes the side to move, and two end the game).
    const POSITIONS_REPEAT: bool = false;

    /// A final disc difference is at most 64 discs either way, and both evaluations are
    /// clamped to that.
    const MAX_POINTS: Option<Score> = Some(64 * DISC);
    const FINAL_SCORE_STEP: Score = 2 * DISC;

    fn side_to_move(&self) -> Player {
        if self.black_to_move {
            Player::First
        } else {
            Player::Second
        }
    }

    fn generate_moves(&self, out: &mut Vec<OthelloMove>) {
        let mut rest = self.moves;
        if rest == 0 {
            if bits::moves(self.opponent, self.player) != 0 {
                out.push(OthelloMove::PASS);
            }
            return;
        }
        while rest != 0 {
            out.push(OthelloMove(rest.trailing_zeros() as u8));
            rest &= rest - 1;
        }
    }

    fn play(&mut self, mv: OthelloMove) {
        let (mut player, mut opponent) = (self.player, self.opponent);
        if let Some(sq) = mv.index() {
            debug_assert!(self.moves >> sq & 1 == 1, "{mv} is not legal here");
            let flipped = bits::flips(u32::from(sq), player, opponent);
            player |= flipped | 1 << sq;
            opponent ^= flipped;
        } else {
            debug_assert!(self.moves == 0, "a pass with moves available");
        }
        self.player = opponent;
        self.opponent = player;
        self.moves = bits::moves(opponent, player);
        self.black_to_move = !self.black_to_move;
        self.plies += 1;
    }

    fn status(&self) -> Status {
        if self.moves != 0 || bits::moves(self.opponent, self.player) != 0 {
            return Status::Ongoing;
        }
        match self.final_discs() {
            0 => Status::Over(Outcome::Draw),
            d => Status::Over(Outcome::Points(d * DISC)),
        }
    }

    /// The discs, the side to move and the plies played. A pass is a ply, so two lines can
    /// reach the same discs and side at different plies, their passes differing by two (one
    /// each, played at different moments; no position recurs within one game, as discs are
    /// only added); keyed by the plies too, the table never lets an entry of the deeper
    /// search of one occurrence answer the other, and a table search keeps minimax's value at
    /// every fixed depth, as in connect four (in chess a deeper entry can answer:
    /// "grafting", EXPERIMENTS.md, `tt_mb`).
    fn hash(&self) -> u64 {
        // Two rounds of the splitmix64 mixer over the two boards, the side and the plies:
        // every bit of either board reaches every bit of the hash, so tables may index by any
        // bits.
        let side = if self.black_to_move {
            0
        } else {
            0x5851_F42D_4C95_7F2D
        };
        let plies = u64::from(self.plies).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        mix(mix(self.player ^ side ^ plies).wrapping_add(self.opponent))
    }

    fn plies_played(&self) -> u32 {
        u32::from(self.plies)
    }

    /// Twice the empty squares: every disc move may be preceded by a pass.
    fn remaining_plies(&self) -> Option<u32> {
        Some(2 * self.empties())
    }

    fn move_code(mv: OthelloMove) -> u16 {
        u16::from(mv.0)
    }

    /// Reads `a1`..`h8` in either case, or `pass`/`PS`, and checks that it is legal.
    fn parse_move(&self, text: &str) -> Result<OthelloMove, ParseError> {
        let mv = OthelloMove::parse(text)?;
        let legal = match mv.index() {
            Some(sq) => self.moves >> sq & 1 == 1,
            None => self.moves == 0 && bits::moves(self.opponent, self.player) != 0,
        };
        if legal {
            Ok(mv)
        } else {
            Err(ParseError::new(format!(
                "`{text}` is not a legal move here"
            )))
        }
    }

    fn move_count(&self, _scratch: &mut Vec<OthelloMove>) -> usize {
        self.moves.count_ones() as usize
    }

    /// Edax's fast endgame move evaluation (src/move.c, `movelist_evaluate_fast`), from the
    /// side of the player to move after the move being weighed: its legal moves with a
    /// corner counted twice, less 1/16 of a move for each stable disc at the corners of the
    /// player who just moved, plus 1/1024 of a move for each empty square next to one of
    /// that player's discs, on a line along which it could be flipped (the side to move's
    /// potential mobility, [`bits::potential_moves`], corners twice). The weights
    /// are Edax's (`W_MOBILITY`, `W_CORNER_STABILITY`, `W_POTENTIAL_MOBILITY`), as
    /// fractions of a move.
    fn refined_mobility(&self, _scratch: &mut Vec<OthelloMove>) -> i64 {
        let mover = self.opponent;
        let mobility = i64::from(bits::corner_weighted_count(self.moves));
        let stable = i64::from(bits::corner_stable(mover).count_ones());
        let potential = bits::potential_moves(mover, self.empty());
        let potential = i64::from(bits::corner_weighted_count(potential));
        mobility * REFINED_UNIT - stable * (REFINED_UNIT / 16) + potential * (REFINED_UNIT / 1024)
    }

    fn region_parity(&self, mv: OthelloMove) -> i32 {
        mv.index().map_or(0, |sq| {
            i32::from(bits::odd_regions(self.empty()) >> sq & 1 == 1)
        })
    }

    fn final_score_ceiling(&self, alpha: Score) -> Option<Score> {
        endgame::stability_ceiling(self, alpha)
    }

    fn solve_endgame(
        &self,
        alpha: Score,
        beta: Score,
        limit: u32,
        nodes: &mut SolverNodes<'_>,
    ) -> Option<Score> {
        (self.empties() <= limit).then(|| endgame::solve_scaled(self, alpha, beta, nodes))
    }
}

/// Refuses a board with an empty centre square: the game starts with d4, e4, d5 and e5
/// taken and a disc, once placed, is only ever turned over, so no game reaches such a board.
fn check_centre(occupied: u64) -> Result<(), ParseError> {
    for (square, name) in [(27, "d4"), (28, "e4"), (35, "d5"), (36, "e5")] {
        if occupied & 1 << square == 0 {
            return Err(ParseError::new(format!(
                "centre square {name} is empty: the four centre squares hold discs from the \
                 start and discs are never removed"
            )));
        }
    }
    Ok(())
}

impl Notation for Othello {
    /// `start`, or the 64-character board (`X`/`x`/`*`/`B`/`b` black, `O`/`o`/`W`/`w` white,
    /// `-`/`.` empty), whitespace, and the side to move (`X` or `O`, or `B`/`W`); the side
    /// may also be the board's 65th character. Refused: other characters, a wrong length, a
    /// missing side, anything after it.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        if text == "start" {
            return Ok(Self::new());
        }
        let mut tokens = text.split_whitespace();
        let first = tokens.next().unwrap_or("");
        let (board, side) = match (first.chars().count(), tokens.next()) {
            (64, Some(side)) => (first, side),
            // Split before the 65th character, not the 65th byte: the text may hold
            // multi-byte characters (found by the othello fuzz target).
            (65, None) => first.split_at(first.char_indices().nth(64).map_or(0, |(i, _)| i)),
            (64, None) => return Err(ParseError::new("the side to move (X or O) is missing")),
            (n, _) => {
                return Err(ParseError::new(format!(
                    "the board has {n} squares, not 64 (a1..h1, a2..h2, ...)"
                )));
            }
        };
        if let Some(extra) = tokens.next() {
            return Err(ParseError::new(format!(
                "unexpected `{extra}` after the side to move"
            )));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in board.chars().enumerate() {
            match c {
                'X' | 'x' | '*' | 'B' | 'b' => black |= 1 << i,
                'O' | 'o' | 'W' | 'w' => white |= 1 << i,
                '-' | '.' => {}
                _ => {
                    return Err(ParseError::new(format!(
                        "square {i} (`{c}`) is not X, O or -"
                    )));
                }
            }
        }
        let black_to_move = match side {
            "X" | "x" | "*" | "B" | "b" => true,
            "O" | "o" | "W" | "w" => false,
            _ => {
                return Err(ParseError::new(format!(
                    "`{side}` is not a side to move (X or O)"
                )));
            }
        };
        check_centre(black | white)?;
        let discs = (black | white).count_ones();
        Ok(Self::from_discs(
            black,
            white,
            black_to_move,
            discs.saturating_sub(4) as u16,
        ))
    }
}

#[cfg(test)]
mod tests;
