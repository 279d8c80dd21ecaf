//! `.obf` records, Edax's test-position format (problem/fforum-1-19.obf in Edax's
//! repository): the 64-character board and the side to move, then `;`, then each legal move
//! with its exact final disc difference for the side to move (empties to the winner), best
//! first: `--XXXXX--OOOXX-O-... X; G8:+18; H1:+12; ...;`. As Edax reads them (its
//! src/obftest.c): `%` starts a comment, to the end of the line, and a record that lists no
//! move may give the position's score alone (`... X; +18;`, what Edax writes for a position
//! without moves).

use super::{Othello, OthelloMove};
use crate::game::{Game, Notation, ParseError};

/// One record: the position and the exact score of each listed move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfRecord {
    /// The board and side, as written.
    pub board: String,
    /// The position.
    pub position: Othello,
    /// The listed moves with their final disc differences, in the file's order.
    pub moves: Vec<(OthelloMove, i32)>,
    /// The position's score given alone, without a move (`... X; +18;`).
    pub bare_score: Option<i32>,
}

impl ObfRecord {
    /// The position's exact score: the best listed move's, or the score given alone;
    /// `None` when neither is.
    #[must_use]
    pub fn score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, s)| s).max().or(self.bare_score)
    }

    /// Every move that reaches the best score.
    #[must_use]
    pub fn best_moves(&self) -> Vec<OthelloMove> {
        let best = self.score();
        self.moves
            .iter()
            .filter(|&&(_, s)| Some(s) == best)
            .map(|&(m, _)| m)
            .collect()
    }
}

/// Whether `discs` can be a final disc difference with the empty squares given to the
/// winner: within ±64 and even (the two sides' discs then fill the board).
#[must_use]
pub const fn is_disc_difference(discs: i32) -> bool {
    discs.abs() <= 64 && discs % 2 == 0
}

/// Reads one record (a `%` and what follows it is a comment). Refused: a bad board or side,
/// a move that is not legal in the position or listed twice, a score that is not an even
/// signed integer within ±64 (final disc differences with the empty squares given to the
/// winner are always even), a score given alone beside listed moves or twice.
pub fn parse_line(line: &str) -> Result<ObfRecord, ParseError> {
    let record = line.split('%').next().unwrap_or_default();
    let mut fields = record.split(';').map(str::trim);
    let board = fields.next().unwrap_or_default();
    let position = Othello::parse_position(board)?;
    let mut moves: Vec<(OthelloMove, i32)> = Vec::new();
    let mut bare_score = None;
    for field in fields.filter(|f| !f.is_empty()) {
        let Some((mv, score)) = field.split_once(':') else {
            if !moves.is_empty() || bare_score.is_some() {
                return Err(ParseError::new(format!(
                    "`{field}` is not MOVE:SCORE (a score alone stands in a record without moves)"
                )));
            }
            bare_score = Some(disc_difference(field, field)?);
            continue;
        };
        if bare_score.is_some() {
            return Err(ParseError::new(format!(
                "`{field}`: a record gives its score alone or its moves, not both"
            )));
        }
        let mv = position
            .parse_move(mv.trim())
            .map_err(|e| ParseError::new(format!("`{field}`: {e}")))?;
        let score = disc_difference(score, field)?;
        if moves.iter().any(|&(m, _)| m == mv) {
            return Err(ParseError::new(format!("`{field}`: {mv} is listed twice")));
        }
        moves.push((mv, score));
    }
    Ok(ObfRecord {
        board: board.to_owned(),
        position,
        moves,
        bare_score,
    })
}

/// The final disc difference `text` of the record's `field`.
fn disc_difference(text: &str, field: &str) -> Result<i32, ParseError> {
    text.trim()
        .parse::<i32>()
        .ok()
        .filter(|&s| is_disc_difference(s))
        .ok_or_else(|| {
            ParseError::new(format!(
                "`{field}`: the score is not an even number within ±64"
            ))
        })
}
