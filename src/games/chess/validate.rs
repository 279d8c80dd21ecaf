//! Whether a chess position could occur in a game, checked before cozy-chess sees it.
//!
//! cozy-chess refuses most impossible positions itself, but not all: with the two kings on
//! adjacent squares it builds a board whose move generator then lets a king capture the
//! other, and a search panics. The reference for what to refuse is python-chess's
//! `Board.status()` (<https://python-chess.readthedocs.io/en/latest/core.html>): one king
//! per side, at most 16 pieces and 8 pawns per side, no pawn on the first or last rank, the
//! side not to move not in check (a king next to the other counts), at most two checkers,
//! and with an en-passant square a check that the double pawn push could have given. Two
//! checkers on one line through the king, which python-chess refuses too, are accepted (see
//! `check_checkers`). Each refusal names its reason.

use cozy_chess::{
    BitBoard, Color, File, Piece, Rank, Square, get_bishop_moves, get_king_moves, get_knight_moves,
    get_pawn_attacks, get_rook_moves,
};

use crate::game::ParseError;

/// The pieces of a FEN's placement field, as bitboards.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Placement {
    /// Squares of each colour's pieces, indexed by [`Color`].
    colors: [BitBoard; 2],
    /// Squares of each kind of piece, indexed by [`Piece`].
    pieces: [BitBoard; 6],
}

impl Placement {
    /// Reads a placement field already checked by `check_placement` (8 ranks of 8 squares,
    /// known letters); anything else is refused rather than misread.
    pub(super) fn parse(field: &str) -> Result<Self, ParseError> {
        let mut placement = Self::default();
        for (i, rank_text) in field.split('/').enumerate() {
            let rank = Rank::try_index(7usize.wrapping_sub(i))
                .ok_or_else(|| ParseError::new(format!("`{field}` has more than 8 ranks")))?;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                    continue;
                }
                let piece = Piece::try_from(c.to_ascii_lowercase())
                    .map_err(|_| ParseError::new(format!("`{c}` is not a piece letter")))?;
                let file_of = File::try_index(file).ok_or_else(|| {
                    ParseError::new(format!("rank {} is longer than 8 squares", 8 - i))
                })?;
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let square = Square::new(file_of, rank).bitboard();
                placement.colors[color as usize] |= square;
                placement.pieces[piece as usize] |= square;
                file += 1;
            }
        }
        Ok(placement)
    }

    fn occupied(&self) -> BitBoard {
        self.colors[0] | self.colors[1]
    }

    fn of(&self, color: Color, piece: Piece) -> BitBoard {
        self.colors[color as usize] & self.pieces[piece as usize]
    }

    /// The king of `color` (the caller has checked there is exactly one).
    fn king(&self, color: Color) -> Option<Square> {
        self.of(color, Piece::King).next_square()
    }

    /// The pieces of `by` attacking `target`, sliders blocked by `occupied`.
    fn attackers(&self, target: Square, by: Color, occupied: BitBoard) -> BitBoard {
        let diagonal = self.pieces[Piece::Bishop as usize] | self.pieces[Piece::Queen as usize];
        let straight = self.pieces[Piece::Rook as usize] | self.pieces[Piece::Queen as usize];
        let attackers = (get_bishop_moves(target, occupied) & diagonal)
            | (get_rook_moves(target, occupied) & straight)
            | (get_knight_moves(target) & self.pieces[Piece::Knight as usize])
            | (get_king_moves(target) & self.pieces[Piece::King as usize])
            | (get_pawn_attacks(target, !by) & self.pieces[Piece::Pawn as usize]);
        attackers & self.colors[by as usize]
    }
}

/// Refuses a position that cannot arise in a game of chess: see the module documentation.
/// `ep` is the en-passant square already parsed (its rank checked by the caller).
pub(super) fn check_position(
    p: &Placement,
    side: Color,
    ep: Option<Square>,
) -> Result<(), ParseError> {
    check_material(p)?;
    let (Some(our_king), Some(their_king)) = (p.king(side), p.king(!side)) else {
        return Err(ParseError::new("each side needs exactly one king"));
    };
    if !p.attackers(their_king, side, p.occupied()).is_empty() {
        return Err(ParseError::new(format!(
            "impossible position: {} is to move but {} is in check{}",
            name(side),
            name(!side),
            if get_king_moves(our_king).has(their_king) {
                " (the kings stand next to each other)"
            } else {
                ""
            }
        )));
    }
    let ep = ep.map(|sq| check_en_passant(p, side, sq)).transpose()?;
    check_checkers(p, side, our_king, ep)
}

/// At most 16 pieces and 8 pawns a side, and no pawn on the first or last rank.
fn check_material(p: &Placement) -> Result<(), ParseError> {
    for color in Color::ALL {
        let pieces = p.colors[color as usize].len();
        if pieces > 16 {
            return Err(ParseError::new(format!(
                "impossible position: {} has {pieces} pieces (at most 16)",
                name(color)
            )));
        }
        let pawns = p.of(color, Piece::Pawn).len();
        if pawns > 8 {
            return Err(ParseError::new(format!(
                "impossible position: {} has {pawns} pawns (at most 8)",
                name(color)
            )));
        }
    }
    let back_ranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
    if let Some(sq) = (p.pieces[Piece::Pawn as usize] & back_ranks).next_square() {
        return Err(ParseError::new(format!(
            "impossible position: a pawn on {sq} (pawns never stand on the first or last rank)"
        )));
    }
    Ok(())
}

/// The en-passant square must follow a double push by the side not to move: that side's
/// pawn just in front of it, the square itself and the pawn's start square empty
/// (python-chess's `_valid_ep_square`).
fn check_en_passant(p: &Placement, side: Color, ep: Square) -> Result<Square, ParseError> {
    let (start_rank, pawn_rank) = match side {
        Color::White => (Rank::Seventh, Rank::Fifth),
        Color::Black => (Rank::Second, Rank::Fourth),
    };
    let pawn = Square::new(ep.file(), pawn_rank);
    let start = Square::new(ep.file(), start_rank);
    let ok =
        p.of(!side, Piece::Pawn).has(pawn) && !p.occupied().has(ep) && !p.occupied().has(start);
    if ok {
        Ok(ep)
    } else {
        Err(ParseError::new(format!(
            "en-passant square `{ep}` does not follow a two-square pawn move ({} needs a \
             pawn on {pawn} with {ep} and {start} empty)",
            name(!side)
        )))
    }
}

/// The checks on the side to move must be ones the last move could give: at most two
/// checkers (python-chess's `STATUS_TOO_MANY_CHECKERS`); after a double push, one checker,
/// either the pushed pawn or a piece the push uncovered (its `STATUS_IMPOSSIBLE_CHECK`; the
/// move generator's en-passant rule assumes it). Two checkers on one line through the king,
/// which python-chess also calls impossible, are accepted: published perft tables use them
/// as move-generator tests (perft.epd line 133, also in the 126-position perftsuite), and the
/// generator answers them exactly (the king must move, as in any double check).
fn check_checkers(
    p: &Placement,
    side: Color,
    king: Square,
    ep: Option<Square>,
) -> Result<(), ParseError> {
    let checkers = p.attackers(king, !side, p.occupied());
    if checkers.is_empty() {
        return Ok(());
    }
    if checkers.len() > 2 {
        return Err(ParseError::new(format!(
            "impossible position: {} checkers of the king on {king} (at most 2)",
            checkers.len()
        )));
    }
    let impossible = ep.is_some_and(|ep| {
        let (pushed_from, pushed_to) = match side {
            Color::White => (Rank::Seventh, Rank::Fifth),
            Color::Black => (Rank::Second, Rank::Fourth),
        };
        let (pushed_from, pushed_to) = (
            Square::new(ep.file(), pushed_from),
            Square::new(ep.file(), pushed_to),
        );
        let before = (p.occupied() & !pushed_to.bitboard()) | pushed_from.bitboard();
        let single = checkers.next_square();
        checkers.len() > 1
            || (single != Some(pushed_to) && !p.attackers(king, !side, before).is_empty())
    });
    if impossible {
        return Err(ParseError::new(format!(
            "impossible position: no legal last move gives the check on {king} by {}",
            checkers
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        )));
    }
    Ok(())
}

fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}
