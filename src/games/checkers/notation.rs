//! Checkers positions and moves as text, in the Portable Draughts Notation (PDN 3.0,
//! section "FEN"; the notation of the WCDF rules).
//!
//! Positions: `B:W21,22,K30:B1,2,3` — the side to move (`B` or `W`), then each colour's
//! pieces after its letter, kings marked `K`, colons between. Read: either colour first, a
//! colour with no pieces (`W`), ranges (`B1-12`, `WK1-3`), spaces, a final `.`, the PDN
//! tag form `[FEN "B:W...:B..."]`, and `start` for the start position. Written
//! ([`to_fen`]): side to move, White's pieces, Black's pieces, each as its men in
//! ascending order then its kings, no ranges (`B:W21,22,23,K30:B1,2,K3`).
//!
//! A position may be followed by moves played from it: `start moves 11-15 23-19`, or
//! `<FEN> moves ...` (as UCI writes `position startpos moves ...`).
//!
//! Moves: `11-15` for a step, `22x15` for a capture by its start and end squares, and the
//! full path `22x15x8` when another legal capture has the same end squares (written only
//! then; read always). Either separator is accepted in input.

use super::{BLACK, Checkers, CheckersMove, PlacementError, Squares, WHITE};
use crate::game::{Game, Notation, ParseError, Player};

/// Why a position or move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The position does not have the `<turn>:<colour>...:<colour>...` shape.
    #[error("expected `<B|W>:W<squares>:B<squares>` (PDN FEN), found `{0}`")]
    Shape(String),
    /// The side to move is not `B` or `W`.
    #[error("the side to move must be `B` or `W`, found `{0}`")]
    Turn(String),
    /// A colour section does not start with `W` or `B`, or a colour appears twice.
    #[error("each of `W` and `B` must start one piece list, found `{0}`")]
    Colour(String),
    /// A piece is not `[K]<square>` or `[K]<square>-<square>`.
    #[error("`{0}` is not a square 1-32, a king `K<square>` or a range `<square>-<square>`")]
    Piece(String),
    /// The same square is listed twice.
    #[error("square {0} is listed twice")]
    Repeated(u8),
    /// The pieces do not make a position.
    #[error(transparent)]
    Placement(#[from] PlacementError),
    /// A move is not squares 1-32 joined by `-` or `x`.
    #[error("`{0}` is not a move: expected squares 1-32 joined by `-` or `x` (`11-15`, `22x15x8`)")]
    MoveSyntax(String),
    /// A step written with `x`, which marks a capture.
    #[error("`{0}` is written as a capture (`x`), but it captures nothing: write `-`")]
    NotACapture(String),
    /// No legal move matches.
    #[error("`{text}` is not a legal move here{hint}; legal: {legal}")]
    Illegal {
        /// The move as given.
        text: String,
        /// Why, where it is known (a compulsory capture).
        hint: &'static str,
        /// The legal moves.
        legal: String,
    },
    /// `moves` with no move after it (a line cut short).
    #[error("`moves` with no move after it")]
    NoMoves,
    /// A move after `moves` could not be played.
    #[error("move {index} after `moves`: {source}")]
    Line {
        /// Its place in the list, from 1.
        index: usize,
        /// Why.
        source: Box<NotationError>,
    },
    /// Several legal captures share the end squares given.
    #[error("`{text}` is ambiguous: give the full path, one of {paths}")]
    Ambiguous {
        /// The move as given.
        text: String,
        /// The full paths of the candidates.
        paths: String,
    },
}

/// The position in canonical PDN FEN (see the module documentation).
#[must_use]
pub fn to_fen(pos: &Checkers) -> String {
    let turn = if pos.side_to_move() == BLACK {
        'B'
    } else {
        'W'
    };
    format!(
        "{turn}:W{}:B{}",
        piece_list(pos, WHITE),
        piece_list(pos, BLACK)
    )
}

/// `colour`'s men ascending, then its kings ascending with `K`, comma-separated.
fn piece_list(pos: &Checkers, colour: Player) -> String {
    let mut items = Vec::new();
    for (set, prefix) in [(pos.men(colour), ""), (pos.kings(colour), "K")] {
        items.extend(squares_of(set).map(|n| format!("{prefix}{n}")));
    }
    items.join(",")
}

/// The square numbers (1-32) in `set`, ascending.
fn squares_of(set: Squares) -> impl Iterator<Item = u8> {
    (0..32u8).filter(move |i| set >> i & 1 == 1).map(|i| i + 1)
}

/// Reads a position: `start`, or PDN FEN (see the module documentation).
pub fn parse_fen(text: &str) -> Result<Checkers, NotationError> {
    let body = unwrap_tag(text.trim());
    if body == "start" || body.is_empty() {
        return Ok(Checkers::new());
    }
    let body = body.strip_suffix('.').unwrap_or(body);
    let parts: Vec<&str> = body.split(':').map(str::trim).collect();
    let [turn, first, second] = parts[..] else {
        return Err(NotationError::Shape(text.trim().to_owned()));
    };
    let to_move = match turn {
        "B" | "b" => BLACK,
        "W" | "w" => WHITE,
        _ => return Err(NotationError::Turn(turn.to_owned())),
    };
    let mut sets: [Option<(Squares, Squares)>; 2] = [None, None];
    for section in [first, second] {
        let (slot, list) = match section.chars().next() {
            Some('W' | 'w') => (1, &section[1..]),
            Some('B' | 'b') => (0, &section[1..]),
            _ => return Err(NotationError::Colour(section.to_owned())),
        };
        if sets[slot].is_some() {
            return Err(NotationError::Colour(section.to_owned()));
        }
        sets[slot] = Some(parse_pieces(list)?);
    }
    let [Some((black, black_kings)), Some((white, white_kings))] = sets else {
        unreachable!("two distinct sections fill both colours")
    };
    Ok(Checkers::from_pieces(
        black,
        white,
        black_kings | white_kings,
        to_move,
    )?)
}

/// `[FEN "..."]` to its quoted text; anything else unchanged.
fn unwrap_tag(text: &str) -> &str {
    text.strip_prefix("[FEN")
        .and_then(|t| t.strip_suffix(']'))
        .map(|t| t.trim().trim_matches('"').trim())
        .unwrap_or(text)
}

/// A comma-separated piece list: the pieces' squares and the kings among them.
fn parse_pieces(list: &str) -> Result<(Squares, Squares), NotationError> {
    let (mut pieces, mut kings) = (0u32, 0u32);
    // An empty list is a side without pieces; an empty item (`21,,22`) is a slip.
    if list.trim().is_empty() {
        return Ok((pieces, kings));
    }
    for item in list.split(',').map(str::trim) {
        let (king, range) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let bad = || NotationError::Piece(item.to_owned());
        let (lo, hi) = match range.split_once('-') {
            Some((a, b)) => (square(a).ok_or_else(bad)?, square(b).ok_or_else(bad)?),
            None => {
                let n = square(range).ok_or_else(bad)?;
                (n, n)
            }
        };
        if lo > hi {
            return Err(bad());
        }
        for n in lo..=hi {
            let b = 1u32 << (n - 1);
            if pieces & b != 0 {
                return Err(NotationError::Repeated(n));
            }
            pieces |= b;
            if king {
                kings |= b;
            }
        }
    }
    Ok((pieces, kings))
}

/// A square number 1-32.
fn square(text: &str) -> Option<u8> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u8>().ok().filter(|n| (1..=32).contains(n))
}

/// Reads a move in PDN and finds it among the legal moves of `pos`.
pub fn parse_move(pos: &Checkers, text: &str) -> Result<CheckersMove, NotationError> {
    let trimmed = text.trim();
    // One separator throughout: `-` for a step (or, as some PDN writers do, a capture), `x`
    // for a capture.
    let steps = trimmed.contains('-');
    let captures = trimmed.contains(['x', 'X']);
    let squares: Option<Vec<u8>> = trimmed.split(['-', 'x', 'X']).map(square).collect();
    let squares = squares
        .filter(|s| s.len() >= 2 && !(steps && captures))
        .ok_or_else(|| NotationError::MoveSyntax(trimmed.to_owned()))?;
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    let candidates: Vec<CheckersMove> = if squares.len() == 2 {
        legal
            .iter()
            .copied()
            .filter(|m| m.from_square() == squares[0] && m.to_square() == squares[1])
            .collect()
    } else {
        legal
            .iter()
            .copied()
            .filter(|m| m.is_capture() && m.path() == squares)
            .collect()
    };
    match candidates[..] {
        [one] if captures && !one.is_capture() => {
            Err(NotationError::NotACapture(trimmed.to_owned()))
        }
        [one] => Ok(one),
        [] => Err(NotationError::Illegal {
            text: trimmed.to_owned(),
            hint: if legal.first().is_some_and(|m| m.is_capture()) {
                " (a capture is compulsory)"
            } else {
                ""
            },
            legal: list(&legal),
        }),
        _ => Err(NotationError::Ambiguous {
            text: trimmed.to_owned(),
            paths: list(&candidates),
        }),
    }
}

/// Moves written and joined with spaces (`none` for an empty list).
fn list(moves: &[CheckersMove]) -> String {
    if moves.is_empty() {
        return "none".to_owned();
    }
    let written: Vec<String> = moves.iter().map(ToString::to_string).collect();
    written.join(" ")
}

/// Reads `start` or PDN FEN, optionally followed by `moves` and moves played from it.
pub fn parse_position(text: &str) -> Result<Checkers, NotationError> {
    let (position, line) = match text.split_once(" moves") {
        Some((position, line)) => (position, Some(line)),
        None => (text, None),
    };
    let mut pos = parse_fen(position)?;
    if line.is_some_and(|l| l.trim().is_empty()) {
        return Err(NotationError::NoMoves);
    }
    for (i, mv) in line.unwrap_or("").split_whitespace().enumerate() {
        let parsed = parse_move(&pos, mv).map_err(|e| NotationError::Line {
            index: i + 1,
            source: Box::new(e),
        })?;
        pos.play(parsed);
    }
    Ok(pos)
}

impl Notation for Checkers {
    /// `start` or PDN FEN, optionally followed by `moves` (see [`parse_position`]).
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        parse_position(text).map_err(|e| ParseError::new(e.to_string()))
    }
}
