//! Reading and writing moves: UCI, standard algebraic notation (SAN) and the hyphenated long
//! algebraic notation of the mate suites.
//!
//! SAN follows the PGN standard (Edwards 1994, section 8.2.3): piece letter (none for
//! pawns), the fewest from-square characters that make the move unique (file, else rank,
//! else both), `x` for captures, the destination, `=Q` for promotions, `+` for check and `#`
//! for mate; castling is `O-O` and `O-O-O`.

use cozy_chess::{File, Piece, Rank, Square};

use super::{Chess, ChessMove};
use crate::game::{Game, ParseError};

/// The upper-case SAN letter of a piece (pawns have none, but promotions print theirs).
const fn piece_letter(p: Piece) -> char {
    match p {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    }
}

/// The piece of an upper-case SAN letter.
const fn letter_piece(c: char) -> Option<Piece> {
    match c {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        'K' => Some(Piece::King),
        _ => None,
    }
}

/// The piece of a promotion letter, either case (UCI writes `q`, SAN `Q`).
const fn promotion_piece(c: char) -> Option<Piece> {
    match c.to_ascii_uppercase() {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        _ => None,
    }
}

/// Removes annotation suffixes (`+`, `#`, `!`, `?`) and en-passant marks (`/ep`, `e.p.`).
fn strip_suffixes(text: &str) -> &str {
    let mut t = text.trim();
    loop {
        let before = t.len();
        t = t.trim_end_matches(['+', '#', '!', '?']).trim_end();
        for mark in ["/ep", "e.p.", "ep"] {
            if let Some(rest) = t.strip_suffix(mark)
                && rest.len() >= 2
                && rest.as_bytes()[rest.len() - 1].is_ascii_digit()
            {
                t = rest.trim_end();
            }
        }
        if t.len() == before {
            return t;
        }
    }
}

/// `Some(true)` for king-side castling text (`O-O`, `0-0`), `Some(false)` for queen side.
fn castle_side(text: &str) -> Option<bool> {
    match text {
        "O-O" | "0-0" | "o-o" => Some(true),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(false),
        _ => None,
    }
}

/// A square from its two characters.
fn square(text: &str) -> Option<Square> {
    if text.len() == 2 {
        text.parse().ok()
    } else {
        None
    }
}

impl Chess {
    /// The move in standard algebraic notation (`Nbd7`, `exd6`, `e8=Q+`, `O-O-O#`).
    /// `mv` must be legal here.
    #[must_use]
    pub fn san(&self, mv: ChessMove) -> String {
        let mut out = if mv.is_castle() {
            if mv.is_short_castle() {
                "O-O".to_owned()
            } else {
                "O-O-O".to_owned()
            }
        } else {
            self.san_body(mv)
        };
        let mut child = self.clone();
        child.play(mv);
        if child.in_check() {
            out.push(if child.has_moves() { '+' } else { '#' });
        }
        out
    }

    /// SAN without the check suffix, for a move that does not castle.
    fn san_body(&self, mv: ChessMove) -> String {
        let piece = self.moved_piece(mv);
        let capture = self.is_capture(mv);
        let mut out = String::with_capacity(8);
        if piece == Piece::Pawn {
            if capture {
                out.push(char::from(mv.from().file()));
                out.push('x');
            }
        } else {
            out.push(piece_letter(piece));
            self.push_disambiguation(mv, piece, &mut out);
            if capture {
                out.push('x');
            }
        }
        out.push_str(&mv.to().to_string());
        if let Some(p) = mv.promotion() {
            out.push('=');
            out.push(piece_letter(p));
        }
        out
    }

    /// Appends the from-file, from-rank or both when another piece of the same kind can
    /// also move to the destination.
    fn push_disambiguation(&self, mv: ChessMove, piece: Piece, out: &mut String) {
        let rivals: Vec<Square> = self
            .legal_moves()
            .into_iter()
            .filter(|m| {
                !m.is_castle()
                    && m.to() == mv.to()
                    && m.from() != mv.from()
                    && self.moved_piece(*m) == piece
            })
            .map(ChessMove::from)
            .collect();
        if rivals.is_empty() {
            return;
        }
        let (file, rank) = (mv.from().file(), mv.from().rank());
        if rivals.iter().all(|s| s.file() != file) {
            out.push(char::from(file));
        } else if rivals.iter().all(|s| s.rank() != rank) {
            out.push(char::from(rank));
        } else {
            out.push_str(&mv.from().to_string());
        }
    }

    /// The legal castling move on the given side, if any.
    fn castle_move(&self, short: bool, text: &str) -> Result<ChessMove, ParseError> {
        self.legal_moves()
            .into_iter()
            .find(|m| m.is_castle() && m.is_short_castle() == short)
            .ok_or_else(|| ParseError::new(format!("`{text}`: castling is not legal here")))
    }

    /// What SAN and long algebraic share: suffixes stripped, castling recognised, the
    /// moving piece's letter, the promotion, and the squares with capture marks and hyphens
    /// removed.
    fn move_text(&self, text: &str) -> Result<MoveText, ParseError> {
        let t = strip_suffixes(text);
        if let Some(short) = castle_side(t) {
            return self.castle_move(short, text).map(MoveText::Castle);
        }
        let bad = |why: &str| ParseError::new(format!("`{text}` {why}"));
        let mut chars = t.chars();
        let first = chars.next().ok_or_else(|| bad("is empty"))?;
        let (piece, rest) = match letter_piece(first) {
            Some(p) => (p, chars.as_str()),
            None => (Piece::Pawn, t),
        };
        let (rest, promotion) = split_promotion(rest).map_err(|w| bad(&w))?;
        let squares = rest
            .chars()
            .filter(|c| !matches!(c, 'x' | '-' | ':'))
            .collect();
        Ok(MoveText::Piece(piece, squares, promotion))
    }

    /// Reads a move in standard algebraic notation and checks that it is legal here.
    /// Tolerated: check, mate and annotation suffixes (`+`, `#`, `!`, `?`), `0-0` for
    /// `O-O`, `e.p.`, a promotion without `=` (`e8Q`), hyphens and redundant from-squares
    /// (so `Ng1-f3` reads too). Refused: unknown or illegal moves, and ambiguous ones.
    pub fn parse_san(&self, text: &str) -> Result<ChessMove, ParseError> {
        let (piece, rest, promotion) = match self.move_text(text)? {
            MoveText::Castle(mv) => return Ok(mv),
            MoveText::Piece(piece, rest, promotion) => (piece, rest, promotion),
        };
        let bad = |why: &str| ParseError::new(format!("`{text}` {why}"));
        if rest.len() < 2 || !rest.is_ascii() {
            return Err(bad("has no destination square"));
        }
        let (hint, dest) = rest.split_at(rest.len() - 2);
        let to = square(dest).ok_or_else(|| bad("has no destination square"))?;
        let (file, rank) = parse_hint(hint).ok_or_else(|| bad("has a bad from-square hint"))?;
        let matches: Vec<ChessMove> = self
            .legal_moves()
            .into_iter()
            .filter(|m| {
                m.to() == to
                    && m.promotion() == promotion
                    && self.moved_piece(*m) == piece
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
            })
            .collect();
        match matches.as_slice() {
            [m] => Ok(*m),
            [] => Err(bad("is not a legal move here")),
            _ => Err(bad("is ambiguous here")),
        }
    }

    /// Reads the hyphenated long algebraic notation of the mate suites: optional piece
    /// letter, from-square, `-` or `x`, to-square, optional promotion (`=Q` or `Q`), optional
    /// `/ep` and suffixes (`Bh8-f6+`, `f4xe3/ep`, `e7-e8=Q`, `e7xf8N+`, `O-O-O`). The move is
    /// the legal move with that from-square, to-square and promotion; a piece letter that
    /// does not match the piece on the from-square is an error.
    pub fn parse_long_algebraic(&self, text: &str) -> Result<ChessMove, ParseError> {
        let (piece, rest, promotion) = match self.move_text(text)? {
            MoveText::Castle(mv) => return Ok(mv),
            MoveText::Piece(piece, rest, promotion) => (piece, rest, promotion),
        };
        let bad = |why: &str| ParseError::new(format!("`{text}` {why}"));
        let (from, to) = match (
            rest.get(..2).and_then(square),
            rest.get(2..).and_then(square),
        ) {
            (Some(f), Some(t)) => (f, t),
            _ => return Err(bad("is not <piece><from>-<to>")),
        };
        if self.board.piece_on(from) != Some(piece) {
            return Err(bad("names a piece that is not on its from-square"));
        }
        self.find_move(from, to, promotion)
            .filter(|m| m.from() == from && (!m.is_castle() || piece == Piece::King))
            .ok_or_else(|| bad("is not a legal move here"))
    }

    /// Reads UCI text: from-square, to-square, optional promotion letter (`e7e8q`);
    /// castling as the king's move (`e1g1`) or as king takes own rook (`e1h1`).
    pub fn parse_uci(&self, text: &str) -> Result<ChessMove, ParseError> {
        let t = text.trim();
        let bad = || ParseError::new(format!("`{t}` is not a legal move here (UCI, like e2e4)"));
        let from = t.get(..2).and_then(square).ok_or_else(bad)?;
        let to = t.get(2..4).and_then(square).ok_or_else(bad)?;
        let promotion = match t.get(4..) {
            Some("") => None,
            Some(p) if p.len() == 1 => {
                Some(p.chars().next().and_then(promotion_piece).ok_or_else(bad)?)
            }
            _ => return Err(bad()),
        };
        self.find_move(from, to, promotion).ok_or_else(bad)
    }
}

/// Splits a promotion off the end of a move text: `e8=Q` or `e8Q` (upper case only, as a
/// lower-case `b` would be a file).
fn split_promotion(text: &str) -> Result<(&str, Option<Piece>), String> {
    if let Some((body, p)) = text.split_once('=') {
        let mut cs = p.chars();
        return match (cs.next().and_then(promotion_piece), cs.next()) {
            (Some(piece), None) => Ok((body, Some(piece))),
            _ => Err(format!("has a bad promotion `={p}`")),
        };
    }
    match text.chars().last().and_then(letter_piece) {
        Some(Piece::King) => Err("promotes to a king".to_owned()),
        Some(piece) => Ok((&text[..text.len() - 1], Some(piece))),
        None => Ok((text, None)),
    }
}

/// The from-square hint of a SAN move: nothing, a file, a rank, or both.
fn parse_hint(hint: &str) -> Option<(Option<File>, Option<Rank>)> {
    let mut file = None;
    let mut rank = None;
    for c in hint.chars() {
        match c {
            'a'..='h' if file.is_none() && rank.is_none() => file = Some(c.try_into().ok()?),
            '1'..='8' if rank.is_none() => rank = Some(c.try_into().ok()?),
            _ => return None,
        }
    }
    Some((file, rank))
}

/// A move's text split by [`Chess::move_text`]: castling, or (piece, squares, promotion).
enum MoveText {
    Castle(ChessMove),
    Piece(Piece, String, Option<Piece>),
}
