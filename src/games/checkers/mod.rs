//! English draughts (American checkers) on 32-square bitboards.
//!
//! Rules (WCDF Rules of Draughts, the rules of English draughts): Black moves first, from
//! squares 1-12 (PDN's convention, square 1 on Black's side); men move one square
//! diagonally forward, kings one square in any diagonal direction; captures are
//! compulsory, and a capturing piece goes on jumping while it can, though the player
//! chooses freely among the capture sequences (no majority rule); men jump forward only,
//! kings in all four directions; a man that reaches the far row is crowned, and a jump that
//! crowns a man ends the move. Jumped pieces stay on the board until the move is complete
//! (a piece is never jumped twice, and no jump lands on a jumped piece's square); the
//! moving piece's own starting square is free to land on. The side with no legal move (no
//! pieces, or all blocked) loses.
//!
//! Draws: the WCDF rules draw a game when the same position occurs the third time, and
//! when neither player has advanced an uncrowned man or removed a piece in their own
//! previous 40 moves. [`Game::status`] applies the second rule as [`NO_PROGRESS_PLIES`]
//! = 80 plies without a man move or a capture (the counter is
//! [`Checkers::quiet_plies`], [`Game::reversible_plies`] for the search); repetition is
//! detected by the searches (any repetition scores as a draw) and by the arena
//! (threefold).
//!
//! Moves that capture the same pieces with the same piece and end on the same square are
//! one move, whatever the order of the jumps (only a king going round a closed loop can
//! do that); moves with the same end squares but different captured pieces are different
//! moves, and are written with their full path (see [`notation`]).
//!
//! perft counts these moves. It equals the start-position table of
//! rhalbersma/dctl (test/walk/initial/board8x8.cpp; ../shared/data/checkers) to depth 12
//! (tests/checkers_perft.rs), and the moves of 20,000 random placements rich in kings agree
//! with a naive array-board generator written separately in the unit tests.
//!
//! For endgame work: [`Checkers::from_pieces`] places pieces (bit `n - 1` of a [`Squares`]
//! for square `n`), and [`Checkers::pieces`], [`Checkers::men`], [`Checkers::kings`],
//! [`Checkers::count`], [`Checkers::piece_at`] and [`Game::side_to_move`] read them back.

pub(crate) mod board;
mod eval;
pub mod notation;
#[cfg(test)]
mod tests;

use std::fmt;

pub use board::Squares;
use board::{BOTTOM_ROW, DIRECTIONS, Direction, LANDING, NEIGHBOUR, NONE, TOP_ROW, bit, shift};
pub use eval::{CheckersEval, FEATURES, Weights};

use crate::game::{Game, Outcome, Player, Status};
use crate::rng::finalize;

/// Plies without a man move or a capture after which the game is drawn: the WCDF rule's
/// 40 moves of each player.
pub const NO_PROGRESS_PLIES: u16 = 80;

/// Black, the side that moves first ([`Player::First`]).
pub const BLACK: Player = Player::First;
/// White, the side that moves second ([`Player::Second`]).
pub const WHITE: Player = Player::Second;

/// A piece: a man or a king of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its colour: [`BLACK`] or [`WHITE`].
    pub colour: Player,
    /// Crowned.
    pub king: bool,
}

/// A position: each colour's pieces and the kings as sets of squares, the side to move,
/// and the no-progress counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Checkers {
    /// Black's pieces.
    black: Squares,
    /// White's pieces.
    white: Squares,
    /// The kings of both colours.
    kings: Squares,
    /// Black to move.
    black_to_move: bool,
    /// Plies since the last man move or capture.
    quiet: u16,
    /// Plies since the position the game was read from (or the start).
    plies: u32,
}

/// Why a placement of pieces is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// A square holds a piece of both colours.
    #[error("square {0} holds both a black and a white piece")]
    BothColours(u8),
    /// A king set names a square without a piece.
    #[error("square {0} is marked a king but holds no piece")]
    KingWithoutPiece(u8),
    /// A man stands on the row where it would have been crowned.
    #[error("a {colour} man on square {square} would have been crowned")]
    ManOnCrowningRow {
        /// `black` or `white`.
        colour: &'static str,
        /// The square, 1-32.
        square: u8,
    },
    /// More than twelve pieces of one colour.
    #[error("{colour} has {count} pieces; a side has at most 12")]
    TooManyPieces {
        /// `black` or `white`.
        colour: &'static str,
        /// How many.
        count: u32,
    },
    /// No piece at all: no game is played on an empty board.
    #[error("the board is empty: a position needs at least one piece")]
    Empty,
}

impl Default for Checkers {
    fn default() -> Self {
        Self::new()
    }
}

impl Checkers {
    /// The start position: Black's men on 1-12, White's on 21-32, Black to move.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            black: 0x0000_0FFF,
            white: 0xFFF0_0000,
            kings: 0,
            black_to_move: true,
            quiet: 0,
            plies: 0,
        }
    }

    /// A position from its pieces: each colour's set of squares (bit `n - 1` for square
    /// `n`), the kings among them, and the side to move. The no-progress counter starts at 0.
    pub fn from_pieces(
        black: Squares,
        white: Squares,
        kings: Squares,
        to_move: Player,
    ) -> Result<Self, PlacementError> {
        let first = |set: Squares| set.trailing_zeros() as u8 + 1;
        if black | white == 0 {
            return Err(PlacementError::Empty);
        }
        if black & white != 0 {
            return Err(PlacementError::BothColours(first(black & white)));
        }
        if kings & !(black | white) != 0 {
            return Err(PlacementError::KingWithoutPiece(first(
                kings & !(black | white),
            )));
        }
        for (colour, set, crown) in [("black", black, BOTTOM_ROW), ("white", white, TOP_ROW)] {
            if set.count_ones() > 12 {
                let count = set.count_ones();
                return Err(PlacementError::TooManyPieces { colour, count });
            }
            let crowned_men = set & crown & !kings;
            if crowned_men != 0 {
                let square = first(crowned_men);
                return Err(PlacementError::ManOnCrowningRow { colour, square });
            }
        }
        Ok(Self {
            black,
            white,
            kings,
            black_to_move: to_move == BLACK,
            quiet: 0,
            plies: 0,
        })
    }

    /// The squares of `colour`'s pieces (men and kings).
    #[must_use]
    pub const fn pieces(&self, colour: Player) -> Squares {
        match colour {
            Player::First => self.black,
            Player::Second => self.white,
        }
    }

    /// The squares of `colour`'s men.
    #[must_use]
    pub const fn men(&self, colour: Player) -> Squares {
        self.pieces(colour) & !self.kings
    }

    /// The squares of `colour`'s kings.
    #[must_use]
    pub const fn kings(&self, colour: Player) -> Squares {
        self.pieces(colour) & self.kings
    }

    /// The number of `colour`'s men and kings.
    #[must_use]
    pub const fn count(&self, colour: Player) -> (u32, u32) {
        (
            self.men(colour).count_ones(),
            self.kings(colour).count_ones(),
        )
    }

    /// The piece on `square` (1-32), if any; `None` also for a number off the board.
    #[must_use]
    pub const fn piece_at(&self, square: u8) -> Option<Piece> {
        if square == 0 || square > 32 {
            return None;
        }
        let b = bit(square - 1);
        let king = self.kings & b != 0;
        if self.black & b != 0 {
            Some(Piece {
                colour: BLACK,
                king,
            })
        } else if self.white & b != 0 {
            Some(Piece {
                colour: WHITE,
                king,
            })
        } else {
            None
        }
    }

    /// Plies since the last man move or capture (the no-progress counter).
    #[must_use]
    pub const fn quiet_plies(&self) -> u16 {
        self.quiet
    }

    /// The same position with the no-progress counter set to `plies`.
    #[must_use]
    pub const fn with_quiet_plies(mut self, plies: u16) -> Self {
        self.quiet = plies;
        self
    }

    /// The side to move's pieces and the opponent's.
    const fn sides(&self) -> (Squares, Squares) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }

    /// The directions the side to move's men go (down for Black, up for White).
    const fn forward(&self) -> [Direction; 2] {
        if self.black_to_move {
            [Direction::DownLeft, Direction::DownRight]
        } else {
            [Direction::UpLeft, Direction::UpRight]
        }
    }

    /// The row where the side to move's men are crowned.
    const fn crowning_row(&self) -> Squares {
        if self.black_to_move {
            BOTTOM_ROW
        } else {
            TOP_ROW
        }
    }

    /// The empty squares.
    const fn empty(&self) -> Squares {
        !(self.black | self.white)
    }

    /// Whether the side to move's pieces in `movers` can jump in direction `d`.
    const fn can_jump(&self, movers: Squares, d: Direction) -> bool {
        let (_, theirs) = self.sides();
        shift(shift(movers, d) & theirs, d) & self.empty() != 0
    }

    /// Whether the side to move has a capture.
    #[must_use]
    pub fn has_capture(&self) -> bool {
        let (mine, _) = self.sides();
        let kings = mine & self.kings;
        let [f1, f2] = self.forward();
        let [b1, b2] = self.backward();
        self.can_jump(mine, f1)
            || self.can_jump(mine, f2)
            || self.can_jump(kings, b1)
            || self.can_jump(kings, b2)
    }

    /// The directions the side to move's men may not go.
    const fn backward(&self) -> [Direction; 2] {
        if self.black_to_move {
            [Direction::UpLeft, Direction::UpRight]
        } else {
            [Direction::DownLeft, Direction::DownRight]
        }
    }

    /// Whether the side to move has any legal move.
    #[must_use]
    pub fn has_moves(&self) -> bool {
        let (mine, _) = self.sides();
        let kings = mine & self.kings;
        let empty = self.empty();
        let [f1, f2] = self.forward();
        let [b1, b2] = self.backward();
        (shift(mine, f1) | shift(mine, f2) | shift(kings, b1) | shift(kings, b2)) & empty != 0
            || self.has_capture()
    }

    /// Appends the capture sequences of the side to move's piece on bit `from`.
    fn piece_captures(&self, from: u8, out: &mut Vec<CheckersMove>) {
        let (mine, theirs) = self.sides();
        let king = self.kings & bit(from) != 0;
        let jump = Jumper {
            from,
            king,
            theirs,
            // The jumping piece has left its square; jumped pieces stay until the end.
            empty: self.empty() | bit(from),
            crowning: if king { 0 } else { self.crowning_row() },
            directions: if king {
                DIRECTIONS
            } else {
                self.directions_of_men()
            },
        };
        debug_assert!(mine & bit(from) != 0);
        jump.extend(from, 0, Path::default(), out);
    }

    /// A man's directions: its two forward ones first (only those are used; the array has
    /// a king's length so that men and kings share one loop).
    const fn directions_of_men(&self) -> [Direction; 4] {
        let [a, b] = self.forward();
        [a, b, a, b]
    }

    /// Appends every capture sequence of the side to move, then marks the ones whose end
    /// squares do not identify them.
    fn generate_captures(&self, out: &mut Vec<CheckersMove>) {
        let start = out.len();
        let (mine, _) = self.sides();
        let mut pieces = mine;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            self.piece_captures(from, out);
        }
        mark_ambiguous(&mut out[start..]);
    }

    /// Appends every non-capturing move of the side to move, by square then direction.
    fn generate_steps(&self, out: &mut Vec<CheckersMove>) {
        let (mine, _) = self.sides();
        let empty = self.empty();
        let mut pieces = mine;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let king = self.kings & bit(from) != 0;
            let directions = if king {
                DIRECTIONS
            } else {
                self.directions_of_men()
            };
            let count = if king { 4 } else { 2 };
            for d in &directions[..count] {
                let to = NEIGHBOUR[*d as usize][usize::from(from)];
                if to != NONE && empty & bit(to) != 0 {
                    out.push(CheckersMove::step(from, to));
                }
            }
        }
    }
}

/// A capture search for one piece.
struct Jumper {
    from: u8,
    king: bool,
    theirs: Squares,
    empty: Squares,
    /// Where a man is crowned (empty for a king).
    crowning: Squares,
    /// A king's four directions, or a man's two forward ones first.
    directions: [Direction; 4],
}

/// The landing squares of a capture so far.
#[derive(Clone, Copy, Default)]
struct Path {
    /// Landing squares before the last, 5 bits each, first in the low bits.
    between: u64,
    /// Jumps made.
    jumps: u8,
}

impl Jumper {
    /// Goes on from bit `at`, reached after `path.jumps` jumps that took `captured`: every
    /// possible next jump is followed; where none is possible (or a man was just crowned)
    /// the sequence is a move.
    fn extend(&self, at: u8, captured: Squares, path: Path, out: &mut Vec<CheckersMove>) {
        if path.jumps > 0 && self.crowning & bit(at) != 0 {
            self.finish(at, captured, path, out);
            return;
        }
        let count = if self.king { 4 } else { 2 };
        let mut went_on = false;
        for d in &self.directions[..count] {
            let over = NEIGHBOUR[*d as usize][usize::from(at)];
            let land = LANDING[*d as usize][usize::from(at)];
            if land == NONE
                || self.theirs & !captured & bit(over) == 0
                || self.empty & bit(land) == 0
            {
                continue;
            }
            went_on = true;
            let mut next = path;
            if next.jumps > 0 {
                next.between |= u64::from(at) << (5 * (u32::from(next.jumps) - 1));
            }
            next.jumps += 1;
            self.extend(land, captured | bit(over), next, out);
        }
        if !went_on && path.jumps > 0 {
            self.finish(at, captured, path, out);
        }
    }

    /// Records the sequence ending on `to`, unless the same capture (same pieces, same end)
    /// was already found by another order of jumps.
    fn finish(&self, to: u8, captured: Squares, path: Path, out: &mut Vec<CheckersMove>) {
        let duplicate = self.king
            && out
                .iter()
                .rev()
                .take_while(|m| m.from == self.from)
                .any(|m| m.to == to && m.captured == captured);
        if !duplicate {
            out.push(CheckersMove {
                from: self.from,
                to,
                captured,
                between: path.between,
                jumps: path.jumps,
                variant: 0,
            });
        }
    }
}

/// Gives each capture that shares its start and end squares with another a variant number
/// from 1 (in generation order), so that its notation writes the full path and its
/// [`Game::move_code`] stays unique.
fn mark_ambiguous(captures: &mut [CheckersMove]) {
    for i in 1..captures.len() {
        let (before, rest) = captures.split_at_mut(i);
        let m = &mut rest[0];
        let mut same_ends = before
            .iter_mut()
            .filter(|o| o.from == m.from && o.to == m.to)
            .peekable();
        if same_ends.peek().is_none() {
            continue;
        }
        let mut highest = 0;
        for other in same_ends {
            if other.variant == 0 {
                other.variant = 1;
            }
            highest = highest.max(other.variant);
        }
        m.variant = highest + 1;
    }
}

/// A move: a step or a capture sequence. Squares are bits 0-31 inside, written 1-32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckersMove {
    from: u8,
    to: u8,
    /// The jumped pieces (empty for a step).
    captured: Squares,
    /// Landing squares before `to`, 5 bits each, the first in the low bits.
    between: u64,
    /// Jumps (0 for a step).
    jumps: u8,
    /// 0 when no other legal capture has the same start and end squares; otherwise this
    /// capture's number among them, from 1.
    variant: u8,
}

impl CheckersMove {
    const fn step(from: u8, to: u8) -> Self {
        Self {
            from,
            to,
            captured: 0,
            between: 0,
            jumps: 0,
            variant: 0,
        }
    }

    /// The start square, 1-32.
    #[must_use]
    pub const fn from_square(self) -> u8 {
        self.from + 1
    }

    /// The end square, 1-32.
    #[must_use]
    pub const fn to_square(self) -> u8 {
        self.to + 1
    }

    /// The squares of the jumped pieces.
    #[must_use]
    pub const fn captured(self) -> Squares {
        self.captured
    }

    /// Whether the move captures.
    #[must_use]
    pub const fn is_capture(self) -> bool {
        self.jumps > 0
    }

    /// Every square the piece stands on, 1-32: the start, each landing, the end.
    #[must_use]
    pub fn path(self) -> Vec<u8> {
        let mut squares = vec![self.from + 1];
        for k in 0..self.jumps.saturating_sub(1) {
            squares.push(((self.between >> (5 * k)) & 31) as u8 + 1);
        }
        squares.push(self.to + 1);
        squares
    }

    /// Whether the end squares alone do not name this move among the legal ones.
    #[must_use]
    pub const fn needs_full_path(self) -> bool {
        self.variant != 0
    }
}

impl fmt::Display for CheckersMove {
    /// PDN: `11-15` for a step, `22x15` for a capture, `1x10x19` (every landing) for a
    /// capture whose end squares are shared by another legal capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_capture() {
            return write!(f, "{}-{}", self.from + 1, self.to + 1);
        }
        if !self.needs_full_path() {
            return write!(f, "{}x{}", self.from + 1, self.to + 1);
        }
        let path = self.path();
        for (k, square) in path.iter().enumerate() {
            if k > 0 {
                f.write_str("x")?;
            }
            write!(f, "{square}")?;
        }
        Ok(())
    }
}

impl Game for Checkers {
    type Move = CheckersMove;
    const NAME: &'static str = "checkers";

    fn side_to_move(&self) -> Player {
        if self.black_to_move { BLACK } else { WHITE }
    }

    /// Captures if there are any (compulsory), else steps; each group by start square.
    fn generate_moves(&self, out: &mut Vec<CheckersMove>) {
        if self.has_capture() {
            self.generate_captures(out);
        } else {
            self.generate_steps(out);
        }
    }

    fn play(&mut self, mv: CheckersMove) {
        let (from, to) = (bit(mv.from), bit(mv.to));
        let man = self.kings & from == 0;
        let crowning = self.crowning_row();
        let (mine, theirs) = if self.black_to_move {
            (&mut self.black, &mut self.white)
        } else {
            (&mut self.white, &mut self.black)
        };
        debug_assert!(*mine & from != 0 && *theirs & mv.captured == mv.captured);
        // A king's capture may end on its own start square (a closed loop): clear, then set.
        *mine = (*mine & !from) | to;
        *theirs &= !mv.captured;
        self.kings &= !mv.captured;
        if !man {
            self.kings = (self.kings & !from) | to;
        } else if to & crowning != 0 {
            self.kings |= to;
        }
        self.quiet = if man || mv.is_capture() {
            0
        } else {
            self.quiet + 1
        };
        self.black_to_move = !self.black_to_move;
        self.plies += 1;
    }

    fn status(&self) -> Status {
        if !self.has_moves() {
            Status::Over(Outcome::Loss)
        } else if self.quiet >= NO_PROGRESS_PLIES {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        }
    }

    fn hash(&self) -> u64 {
        // splitmix64's finalizer on each half of the key, combined: every output bit
        // depends on every board bit, so tables may index by high or low bits.
        let boards = u64::from(self.black) | (u64::from(self.white) << 32);
        let rest = u64::from(self.kings) | (u64::from(self.black_to_move) << 32);
        finalize(boards ^ finalize(rest ^ 0x9E37_79B9_7F4A_7C15))
    }

    fn plies_played(&self) -> u32 {
        self.plies
    }

    /// Start and end squares (10 bits) and the variant number among captures sharing them
    /// (6 bits: unique while fewer than 64 captures share their end squares, far more than
    /// any position has).
    fn move_code(mv: CheckersMove) -> u16 {
        debug_assert!(mv.variant < 64);
        u16::from(mv.from) | u16::from(mv.to) << 5 | u16::from(mv.variant) << 10
    }

    fn parse_move(&self, text: &str) -> Result<CheckersMove, crate::game::ParseError> {
        notation::parse_move(self, text).map_err(|e| crate::game::ParseError::new(e.to_string()))
    }

    fn reversible_plies(&self) -> u32 {
        u32::from(self.quiet)
    }

    fn plies_to_no_progress_draw(&self) -> Option<u32> {
        Some(u32::from(NO_PROGRESS_PLIES).saturating_sub(u32::from(self.quiet)))
    }

    /// Captures are compulsory: with one pending, quiescence may not stop on the evaluation
    /// (it would decline a forced capture and miss every shot at the horizon).
    fn may_stand_pat(&self) -> bool {
        !self.has_capture()
    }
}
