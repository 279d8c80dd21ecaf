//! Chess, on Analog Hors's cozy-chess move generator (<https://docs.rs/cozy-chess/0.3>, MIT).
//!
//! [`Chess`] is a cozy-chess [`Board`] (bitboards, an incrementally updated Zobrist hash,
//! checkers and pins: about 100 bytes, cloned at every node), one flag for the draw rules,
//! and the material and piece-square sums the evaluators read, updated by every move
//! ([`eval`]'s `EvalSums`).
//! Positions are read as `startpos` (or `start`) or as FEN, with 4 or 6 fields (Edwards,
//! "Portable Game Notation Specification and Implementation Guide", 1994, section 16.1).
//! Moves are written in UCI's long algebraic notation (`e2e4`, `e7e8q`, castling as the king's
//! two-square move `e1g1`); cozy-chess itself encodes castling as "king takes own rook"
//! (`e1h1`), and [`Game::parse_move`] reads both. [`Chess::san`] and [`Chess::parse_san`]
//! write and read standard algebraic notation (PGN section 8.2.3), and
//! [`Chess::parse_long_algebraic`] reads the hyphenated notation of the mate suites
//! (`Bh8-f6+`, `f4xe3/ep`). The evaluators are in [`eval`].
//!
//! The game ends by checkmate (a loss for the side to move), stalemate, the fifty-move rule
//! (FIDE Laws of Chess 9.3, claimed at once: 100 plies without a capture or pawn move, unless
//! that last move mated) and dead positions by insufficient material (FIDE 5.2.2; the cases
//! listed under [`Chess::insufficient_material`]). Repetition is left to the search, which
//! alone sees the history ([`Game::reversible_plies`] tells it how far back to look).

pub mod eval;
mod notation;
mod pesto;
mod validate;

use std::fmt;

use cozy_chess::{BitBoard, Board, File, Rank};
pub use cozy_chess::{Color, Piece, Square};

use crate::game::{Game, Notation, Outcome, ParseError, Player, Status};

pub use eval::{Material, PawnFaults, Pst, Shannon};

/// The FEN of the initial position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A legal move: cozy-chess's move (castling as king takes own rook) and whether it castles,
/// so that [`Display`](fmt::Display) can write standard UCI without the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChessMove {
    /// The move in cozy-chess's encoding.
    raw: cozy_chess::Move,
    /// The king castles (`raw.to` is then the rook's square).
    castle: bool,
}

impl ChessMove {
    /// The square the piece leaves.
    #[must_use]
    pub const fn from(self) -> Square {
        self.raw.from
    }

    /// The square the piece arrives on; for castling, the king's destination (g- or c-file).
    #[must_use]
    pub const fn to(self) -> Square {
        if self.castle {
            let file = if (self.raw.to as u8) > (self.raw.from as u8) {
                File::G
            } else {
                File::C
            };
            Square::new(file, self.raw.from.rank())
        } else {
            self.raw.to
        }
    }

    /// The piece a pawn promotes to.
    #[must_use]
    pub const fn promotion(self) -> Option<Piece> {
        self.raw.promotion
    }

    /// Whether the move castles.
    #[must_use]
    pub const fn is_castle(self) -> bool {
        self.castle
    }

    /// Whether the move castles on the king's side (`O-O`).
    #[must_use]
    pub const fn is_short_castle(self) -> bool {
        self.castle && (self.raw.to as u8) > (self.raw.from as u8)
    }

    /// The move in cozy-chess's encoding (castling as king takes own rook, `e1h1`).
    #[must_use]
    pub const fn raw(self) -> cozy_chess::Move {
        self.raw
    }
}

impl fmt::Display for ChessMove {
    /// Standard UCI: from-square, to-square, lower-case promotion letter; castling as the
    /// king's move (`e1g1`, `e8c8`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", char::from(p))?;
        }
        Ok(())
    }
}

/// A chess position: the cozy-chess board, whether the draw rules that need no history
/// (fifty moves, insufficient material) end the game, and the evaluators' sums.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    /// Pieces, side to move, castling rights, en passant, clocks, hash, checkers and pins.
    board: Board,
    /// Whether [`Game::status`] declares fifty-move and insufficient-material draws (it
    /// always declares checkmate and stalemate). See [`Chess::with_rule_draws`].
    rule_draws: bool,
    /// Material and PeSTO's sums of `board`, kept up to date by [`Game::play`] for the
    /// evaluators.
    sums: eval::EvalSums,
}

impl Default for Chess {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Chess {
    /// The initial position, White to move.
    #[must_use]
    pub fn startpos() -> Self {
        Self::from_board(Board::startpos())
    }

    /// A position of `board`, with the rule draws on.
    fn from_board(board: Board) -> Self {
        Self {
            sums: eval::EvalSums::of(&board),
            board,
            rule_draws: true,
        }
    }

    /// The same position with the fifty-move and insufficient-material draws switched on or
    /// off (on by default). Published perft tables count every legal move sequence, draws or
    /// not, so perft runs with them off; checkmate and stalemate always end the game.
    #[must_use]
    pub fn with_rule_draws(mut self, on: bool) -> Self {
        self.rule_draws = on;
        self
    }

    /// The cozy-chess board.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The position in FEN, six fields.
    #[must_use]
    pub fn to_fen(&self) -> String {
        self.board.to_string()
    }

    /// The colour to move.
    #[must_use]
    pub fn color_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    /// The legal moves, in a new vector (searches use [`Game::generate_moves`] and a buffer).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<ChessMove> {
        let mut out = Vec::with_capacity(64);
        self.generate_moves(&mut out);
        out
    }

    /// The number of legal moves, counted without listing them (cozy-chess's per-piece move
    /// sets know their size).
    #[must_use]
    pub fn count_moves(&self) -> u32 {
        count_moves(&self.board)
    }

    /// Appends the legal captures (en passant included) and promotions, in the order
    /// [`Game::generate_moves`] lists them, and returns the number of all legal moves.
    /// Quiescence search follows only these moves: taking them from the generator's target
    /// sets skips building, and then testing, every quiet move (a fifth of a chess search's
    /// time went to that).
    pub fn generate_noisy_moves(&self, out: &mut Vec<ChessMove>) -> usize {
        let board = &self.board;
        let mover = board.side_to_move();
        let them = board.colors(!mover);
        let en_passant = board.en_passant().map_or(BitBoard::EMPTY, |file| {
            Square::new(file, Rank::Sixth.relative_to(mover)).bitboard()
        });
        // A pawn's move onto the first or eighth rank promotes; one onto the en passant
        // square captures. Castling (the king onto its own rook) never matches `them`.
        let pawn_targets = them | en_passant | Rank::First.bitboard() | Rank::Eighth.bitboard();
        let mut legal = 0;
        board.generate_moves(|mut moves| {
            legal += moves.len();
            moves.to &= if moves.piece == Piece::Pawn {
                pawn_targets
            } else {
                them
            };
            out.extend(
                moves
                    .into_iter()
                    .map(|raw| ChessMove { raw, castle: false }),
            );
            false
        });
        legal
    }

    /// Whether the side to move has at least one legal move.
    #[must_use]
    pub fn has_moves(&self) -> bool {
        self.board.generate_moves(|_| true)
    }

    /// Why the game is over ([`Game::status`]): `checkmate`, `stalemate`, `insufficient
    /// material` or `fifty moves`; `None` while it goes on.
    #[must_use]
    pub fn end_reason(&self) -> Option<&'static str> {
        match self.status() {
            Status::Ongoing => None,
            Status::Over(_) if !self.has_moves() => Some(if self.in_check() {
                "checkmate"
            } else {
                "stalemate"
            }),
            Status::Over(_) if self.insufficient_material() => Some("insufficient material"),
            Status::Over(_) => Some("fifty moves"),
        }
    }

    /// Whether neither side can ever checkmate whatever is played (FIDE 5.2.2), in the
    /// cases recognised here: no pawns, rooks or queens on the board, and either at most one
    /// knight or bishop in all, or no knights and every bishop on squares of one colour
    /// (which covers K v K, K+minor v K and KB v KB with bishops on the same colour).
    #[must_use]
    pub fn insufficient_material(&self) -> bool {
        let b = &self.board;
        let heavy = b.pieces(Piece::Pawn) | b.pieces(Piece::Rook) | b.pieces(Piece::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = b.pieces(Piece::Knight);
        let bishops = b.pieces(Piece::Bishop);
        if (knights | bishops).len() <= 1 {
            return true;
        }
        knights.is_empty()
            && (bishops.is_subset(BitBoard::DARK_SQUARES)
                || bishops.is_subset(BitBoard::LIGHT_SQUARES))
    }

    /// The piece on `sq`, with its colour.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<(Piece, Color)> {
        Some((self.board.piece_on(sq)?, self.board.color_on(sq)?))
    }

    /// The piece that `mv` moves (a king for castling).
    #[must_use]
    pub fn moved_piece(&self, mv: ChessMove) -> Piece {
        self.board.piece_on(mv.from()).unwrap_or(Piece::King)
    }

    /// The piece that `mv` captures: the piece on its destination, or a pawn for en passant
    /// (castling captures nothing, though cozy-chess encodes it as king takes rook).
    #[must_use]
    pub fn captured_piece(&self, mv: ChessMove) -> Option<Piece> {
        if mv.castle {
            return None;
        }
        let them = !self.board.side_to_move();
        if self.board.colors(them).has(mv.raw.to) {
            return self.board.piece_on(mv.raw.to);
        }
        let pawn_sidestep = mv.raw.from.file() != mv.raw.to.file()
            && self.board.pieces(Piece::Pawn).has(mv.raw.from);
        pawn_sidestep.then_some(Piece::Pawn)
    }

    /// Whether `mv` captures (en passant included).
    #[must_use]
    pub fn is_capture(&self, mv: ChessMove) -> bool {
        self.captured_piece(mv).is_some()
    }

    /// Whether `mv` captures en passant.
    #[must_use]
    pub fn is_en_passant(&self, mv: ChessMove) -> bool {
        !mv.castle
            && self.board.pieces(Piece::Pawn).has(mv.raw.from)
            && mv.raw.from.file() != mv.raw.to.file()
            && !self.board.occupied().has(mv.raw.to)
    }

    /// A legal en-passant capture, where the last move was a double step and one exists.
    #[must_use]
    pub fn en_passant_capture(&self) -> Option<ChessMove> {
        let file = self.board.en_passant()?;
        let target = Square::new(file, Rank::Sixth.relative_to(self.board.side_to_move()));
        let mut found = None;
        self.board
            .generate_moves_for(self.board.pieces(Piece::Pawn), |moves| {
                found = moves.into_iter().find(|raw| raw.to == target);
                found.is_some()
            });
        found.map(|raw| ChessMove { raw, castle: false })
    }

    /// Looks up a move by its squares among the legal moves: `to` may be the king's castling
    /// destination (`e1g1`) or cozy-chess's rook square (`e1h1`).
    fn find_move(&self, from: Square, to: Square, promotion: Option<Piece>) -> Option<ChessMove> {
        self.legal_moves().into_iter().find(|m| {
            m.from() == from && (m.to() == to || m.raw.to == to) && m.promotion() == promotion
        })
    }
}

/// Legal moves of the side to move on `board`, counted per piece without listing them.
fn count_moves(board: &Board) -> u32 {
    let mut n = 0;
    board.generate_moves(|moves| {
        n += moves.len() as u32;
        false
    });
    n
}

const fn player_of(color: Color) -> Player {
    match color {
        Color::White => Player::First,
        Color::Black => Player::Second,
    }
}

/// Piece codes for [`Game::move_code`]: 0 for no promotion.
const fn promotion_code(p: Option<Piece>) -> u16 {
    match p {
        None => 0,
        Some(p) => p as u16 + 1,
    }
}

impl Game for Chess {
    type Move = ChessMove;
    const NAME: &'static str = "chess";

    fn side_to_move(&self) -> Player {
        player_of(self.board.side_to_move())
    }

    /// Every legal move, castling included. Positions drawn by the fifty-move rule or by
    /// insufficient material still list their moves (searches ask [`Game::status`] first);
    /// checkmate and stalemate list none.
    fn generate_moves(&self, out: &mut Vec<ChessMove>) {
        let ours = self.board.colors(self.board.side_to_move());
        self.board.generate_moves(|moves| {
            if moves.piece == Piece::King {
                for raw in moves {
                    out.push(ChessMove {
                        raw,
                        castle: ours.has(raw.to),
                    });
                }
            } else {
                for raw in moves {
                    out.push(ChessMove { raw, castle: false });
                }
            }
            false
        });
    }

    fn play(&mut self, mv: ChessMove) {
        debug_assert!(self.board.is_legal(mv.raw), "illegal move {mv}");
        self.sums = self.sums.after(self, mv);
        self.board.play_unchecked(mv.raw);
    }

    /// Checkmate: a loss for the side to move; stalemate: a draw. With the rule draws on
    /// (the default), also a draw after 100 plies without a capture or pawn move, and in
    /// the dead positions of [`Chess::insufficient_material`].
    fn status(&self) -> Status {
        if !self.has_moves() {
            return Status::Over(if self.in_check() {
                Outcome::Loss
            } else {
                Outcome::Draw
            });
        }
        if self.rule_draws && (self.board.halfmove_clock() >= 100 || self.insufficient_material()) {
            return Status::Over(Outcome::Draw);
        }
        Status::Ongoing
    }

    /// cozy-chess's Zobrist hash, kept up to date by every move.
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// The hash without the en-passant file unless a legal move takes en passant: the same
    /// position for the repetition rule (FIDE Laws 9.2.3; python-chess's
    /// `_transposition_key`), though cozy-chess keeps the file after every double step.
    fn repetition_key(&self) -> u64 {
        if self.en_passant_capture().is_some() {
            self.board.hash()
        } else {
            self.board.hash_without_ep()
        }
    }

    /// From the fullmove number: `2 * (fullmove - 1)`, plus one when Black is to move.
    fn plies_played(&self) -> u32 {
        let full = u32::from(self.board.fullmove_number().max(1));
        2 * (full - 1) + u32::from(self.board.side_to_move() == Color::Black)
    }

    /// From-square (bits 0-5), cozy-chess's to-square (bits 6-11; the rook's square for
    /// castling) and promotion (bits 12-14: 0 none, 2 knight, 3 bishop, 4 rook, 5 queen):
    /// the three together tell any two legal moves apart.
    fn move_code(mv: ChessMove) -> u16 {
        mv.raw.from as u16 | (mv.raw.to as u16) << 6 | promotion_code(mv.raw.promotion) << 12
    }

    /// UCI text: `e2e4`, `e7e8q`, castling as `e1g1` or as cozy-chess's `e1h1`.
    fn parse_move(&self, text: &str) -> Result<ChessMove, ParseError> {
        self.parse_uci(text)
    }

    /// The position after passing, refused in check and when the side to move has only its
    /// king and pawns (where zugzwang is common: Heinz, "Adaptive null-move pruning", ICCA
    /// Journal 22(3), 1999, reviews the condition).
    fn null_move(&self) -> Option<Self> {
        let us = self.board.side_to_move();
        let king_and_pawns =
            self.board.colored_pieces(us, Piece::King) | self.board.colored_pieces(us, Piece::Pawn);
        if self.board.colors(us) == king_and_pawns {
            return None;
        }
        Some(Self {
            board: self.board.null_move()?,
            rule_draws: self.rule_draws,
            sums: self.sums,
        })
    }

    fn in_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// 100 less the halfmove clock, where the rules' draws apply.
    fn plies_to_no_progress_draw(&self) -> Option<u32> {
        self.rule_draws
            .then(|| 100u32.saturating_sub(u32::from(self.board.halfmove_clock())))
    }

    /// The halfmove clock: plies since the last capture or pawn move.
    fn reversible_plies(&self) -> u32 {
        u32::from(self.board.halfmove_clock())
    }
}

impl Notation for Chess {
    /// `startpos` or `start`, or a FEN of 4 fields (counters taken as `0 1`) or 6 fields.
    /// Refused with a reason: a wrong number of fields, ranks or squares, an unknown piece
    /// letter, not exactly one king per side, pawns on the first or last rank, a side other
    /// than `w`/`b`, castling rights without the king on e1/e8 and the rook in its corner,
    /// an en-passant square on the wrong rank or without the pawn that just moved, the side
    /// not to move in check (kings side by side included), more than 16 pieces or 8 pawns a
    /// side, more than two checkers or a check the last double pawn push could not give, a
    /// fullmove number of 0 (the checks of python-chess's `Board.status()`, in
    /// `validate.rs`, less one: two checkers on a line through the king are accepted). A halfmove clock over 100 is read
    /// as 100 (cozy-chess's cap, enough for the fifty-move rule).
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        if text == "startpos" || text == "start" {
            return Ok(Self::startpos());
        }
        Ok(Self::from_board(parse_fen(text, false)?))
    }
}

impl Chess {
    /// A Chess960 (Fischer random) position from a FEN whose castling field is Shredder-FEN
    /// (the files of the castling rooks, `HAha`) or X-FEN (`KQkq` for the outermost rook on
    /// that side of the king, file letters otherwise), checked as
    /// [`Notation::parse_position`] checks a FEN, each castling right needing the king on its
    /// first rank and a rook of its side on the file named. `startpos` is the standard
    /// array. Castling moves are the king taking its own rook: write them with
    /// [`ChessMove::raw`] (UCI's `UCI_Chess960` convention).
    ///
    /// # Errors
    /// What [`Notation::parse_position`] refuses, or an impossible castling right.
    pub fn parse_chess960(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        if text == "startpos" || text == "start" {
            return Ok(Self::startpos());
        }
        Ok(Self::from_board(parse_fen(text, true)?))
    }
}

/// Reads a FEN of 4 or 6 fields into a board (see [`Chess::parse_position`]), with
/// Chess960's castling rights if `chess960` ([`Chess::parse_chess960`]).
fn parse_fen(text: &str, chess960: bool) -> Result<Board, ParseError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (placement, side, castling, ep) = match fields.as_slice() {
        [p, s, c, e] | [p, s, c, e, _, _] => (*p, *s, *c, *e),
        _ => {
            return Err(ParseError::new(format!(
                "a FEN has 4 or 6 fields, `{text}` has {}",
                fields.len()
            )));
        }
    };
    check_placement(placement)?;
    let white = match side {
        "w" => true,
        "b" => false,
        _ => {
            return Err(ParseError::new(format!(
                "side to move `{side}` is neither `w` nor `b`"
            )));
        }
    };
    let shredder;
    let castling = if chess960 {
        shredder = chess960_castling(placement, castling)?;
        shredder.as_str()
    } else {
        check_castling(placement, castling)?;
        castling
    };
    let ep_square = check_en_passant(ep, white)?;
    let side_color = if white { Color::White } else { Color::Black };
    validate::check_position(
        &validate::Placement::parse(placement)?,
        side_color,
        ep_square,
    )?;
    let (halfmove, fullmove) = match fields.as_slice() {
        [_, _, _, _, h, f] => (
            counter(h, "halfmove clock")?,
            counter(f, "fullmove number")?,
        ),
        _ => (0, 1),
    };
    if fullmove == 0 {
        return Err(ParseError::new(
            "fullmove number 0: the count starts at 1 (PGN standard, section 16.1.3.6)",
        ));
    }
    let fen = format!(
        "{placement} {side} {castling} {ep} {} {}",
        halfmove.min(100),
        fullmove.min(u32::from(u16::MAX))
    );
    Board::from_fen(&fen, chess960).map_err(|e| {
        ParseError::new(match e {
            cozy_chess::FenParseError::InvalidBoard => {
                "impossible position (pawns on the first or last rank, the side not to move \
                 in check, or more than two checkers)"
                    .to_owned()
            }
            cozy_chess::FenParseError::InvalidEnPassant => {
                format!("en-passant square `{ep}` does not follow a two-square pawn move")
            }
            other => other.to_string(),
        })
    })
}

/// A FEN counter (a non-negative integer below 2^32).
fn counter(text: &str, what: &str) -> Result<u32, ParseError> {
    text.parse().map_err(|_| {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        ParseError::new(if digits {
            format!("{what} `{text}` is too large (at most {})", u32::MAX)
        } else {
            format!("{what} `{text}` is not a number")
        })
    })
}

/// Checks the piece-placement field: 8 ranks of 8 squares, known letters, one king each.
fn check_placement(placement: &str) -> Result<(), ParseError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseError::new(format!(
            "piece placement `{placement}` has {} ranks, not 8",
            ranks.len()
        )));
    }
    let (mut white_kings, mut black_kings) = (0, 0);
    for (i, rank) in ranks.iter().enumerate() {
        let mut squares = 0;
        let mut after_digit = false;
        for c in rank.chars() {
            // Two digits in a row (`44`) count the same squares twice over: FEN writes a
            // run of empty squares as one digit (python-chess refuses them too).
            if after_digit && c.is_ascii_digit() {
                return Err(ParseError::new(format!(
                    "rank {} (`{rank}`) has two digits in a row: a run of empty squares is \
                     one digit",
                    8 - i
                )));
            }
            after_digit = c.is_ascii_digit();
            match c {
                '1'..='8' => squares += c as u32 - '0' as u32,
                'K' => (white_kings, squares) = (white_kings + 1, squares + 1),
                'k' => (black_kings, squares) = (black_kings + 1, squares + 1),
                'P' | 'N' | 'B' | 'R' | 'Q' | 'p' | 'n' | 'b' | 'r' | 'q' => squares += 1,
                _ => {
                    return Err(ParseError::new(format!(
                        "`{c}` in rank {} is not a piece letter (PNBRQK, pnbrqk) or 1-8",
                        8 - i
                    )));
                }
            }
        }
        if squares != 8 {
            return Err(ParseError::new(format!(
                "rank {} (`{rank}`) has {squares} squares, not 8",
                8 - i
            )));
        }
    }
    if white_kings != 1 || black_kings != 1 {
        return Err(ParseError::new(format!(
            "{white_kings} white and {black_kings} black kings: each side needs exactly one"
        )));
    }
    Ok(())
}

/// The piece letter on `file` (0 = a) of the rank written `rank_text`, if any.
fn letter_at(rank_text: &str, file: u32) -> Option<char> {
    let mut f = 0;
    for c in rank_text.chars() {
        if let Some(d) = c.to_digit(10) {
            f += d;
        } else {
            if f == file {
                return Some(c);
            }
            f += 1;
        }
        if f > file {
            return None;
        }
    }
    None
}

/// Checks the castling field: `-` or distinct letters of `KQkq`, each with the king on its
/// e-file square and the rook in the corner (standard chess only).
fn check_castling(placement: &str, castling: &str) -> Result<(), ParseError> {
    if castling == "-" {
        return Ok(());
    }
    let ranks: Vec<&str> = placement.split('/').collect();
    let (Some(&last), Some(&first)) = (ranks.first(), ranks.get(7)) else {
        return Err(ParseError::new(
            "castling rights on a board without 8 ranks",
        ));
    };
    for (i, c) in castling.char_indices() {
        let (rank, king, rook, file, name) = match c {
            'K' => (first, 'K', 'R', 7, "White's king side"),
            'Q' => (first, 'K', 'R', 0, "White's queen side"),
            'k' => (last, 'k', 'r', 7, "Black's king side"),
            'q' => (last, 'k', 'r', 0, "Black's queen side"),
            _ => {
                return Err(ParseError::new(format!(
                    "castling field `{castling}`: `{c}` is not one of KQkq"
                )));
            }
        };
        if castling[..i].contains(c) {
            return Err(ParseError::new(format!(
                "castling field `{castling}` repeats `{c}`"
            )));
        }
        if letter_at(rank, 4) != Some(king) || letter_at(rank, file) != Some(rook) {
            return Err(ParseError::new(format!(
                "castling `{c}` is impossible: {name} needs the king on its e-file square \
                 and the rook in the corner"
            )));
        }
    }
    Ok(())
}

/// Chess960 castling rights (Shredder-FEN or X-FEN, see [`Chess::parse_chess960`]) as
/// Shredder-FEN's file letters, each checked against the placement.
fn chess960_castling(placement: &str, castling: &str) -> Result<String, ParseError> {
    if castling == "-" {
        return Ok(castling.to_owned());
    }
    let ranks: Vec<&str> = placement.split('/').collect();
    let mut out = String::with_capacity(4);
    for c in castling.chars() {
        let white = c.is_ascii_uppercase();
        let (rank, king, rook) = if white {
            (ranks[7], 'K', 'R')
        } else {
            (ranks[0], 'k', 'r')
        };
        let bad = |why: &str| ParseError::new(format!("castling `{c}` in `{castling}`: {why}"));
        let king_file = (0..8)
            .find(|&f| letter_at(rank, f) == Some(king))
            .ok_or_else(|| bad("the king is not on its first rank"))?;
        let rook_on = |f: &u32| letter_at(rank, *f) == Some(rook);
        let file = match c.to_ascii_lowercase() {
            'k' => (king_file + 1..8).rev().find(rook_on),
            'q' => (0..king_file).find(rook_on),
            f @ 'a'..='h' => Some(f as u32 - 'a' as u32).filter(rook_on),
            _ => return Err(bad("not a file letter or one of KQkq")),
        }
        .ok_or_else(|| bad("no rook of that side on the file it names"))?;
        let letter = char::from(b'a' + file as u8);
        out.push(if white {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    Ok(out)
}

/// Checks the en-passant field's form: `-` or a square on rank 6 (White to move) or 3.
fn check_en_passant(ep: &str, white_to_move: bool) -> Result<Option<Square>, ParseError> {
    if ep == "-" {
        return Ok(None);
    }
    let square: Square = ep
        .parse()
        .map_err(|_| ParseError::new(format!("en-passant field `{ep}` is not a square")))?;
    let rank = if white_to_move {
        Rank::Sixth
    } else {
        Rank::Third
    };
    if square.rank() != rank {
        return Err(ParseError::new(format!(
            "en-passant square `{ep}` must be on rank {} with {} to move",
            rank as u8 + 1,
            if white_to_move { "White" } else { "Black" }
        )));
    }
    Ok(Some(square))
}

#[cfg(test)]
mod tests;
