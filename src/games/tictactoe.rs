//! Tic-tac-toe on two 9-bit boards.
//!
//! Squares are numbered 1-9 row by row from the top left; a move is written as its square
//! number. A position is written `start` or as the squares played in order (`"5 1 9"` or
//! `"519"`), X first.

use std::fmt;

use crate::game::{Game, Notation, Outcome, ParseError, Player, Status};

/// The eight lines of three, as 9-bit masks (bit i = square i + 1).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;

/// A square, 0-8 inside, written 1-9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square(u8);

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

/// A tic-tac-toe position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    /// Squares of the side to move.
    mine: u16,
    /// Squares of the side that just moved.
    theirs: u16,
    plies: u8,
}

impl TicTacToe {
    /// The empty board, X to move.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            mine: 0,
            theirs: 0,
            plies: 0,
        }
    }

    fn has_line(stones: u16) -> bool {
        LINES.iter().any(|&line| line & !stones == 0)
    }
}

impl Game for TicTacToe {
    type Move = Square;
    const NAME: &'static str = "tictactoe";

    fn side_to_move(&self) -> Player {
        if self.plies.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn generate_moves(&self, out: &mut Vec<Square>) {
        if self.status() != Status::Ongoing {
            return;
        }
        let mut empty = FULL & !(self.mine | self.theirs);
        while empty != 0 {
            out.push(Square(empty.trailing_zeros() as u8));
            empty &= empty - 1;
        }
    }

    fn play(&mut self, mv: Square) {
        let bit = 1 << mv.0;
        debug_assert_eq!((self.mine | self.theirs) & bit, 0, "square {mv} is taken");
        let placed = self.mine | bit;
        self.mine = self.theirs;
        self.theirs = placed;
        self.plies += 1;
    }

    fn status(&self) -> Status {
        if Self::has_line(self.theirs) {
            Status::Over(Outcome::Loss)
        } else if self.mine | self.theirs == FULL {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        }
    }

    fn hash(&self) -> u64 {
        // Both 9-bit boards side by side identify the position (the side to move follows
        // from the number of stones); a multiplicative mix spreads them over the table.
        (u64::from(self.mine) | u64::from(self.theirs) << 9).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn plies_played(&self) -> u32 {
        u32::from(self.plies)
    }

    fn remaining_plies(&self) -> Option<u32> {
        Some(9 - u32::from(self.plies))
    }

    fn move_code(mv: Square) -> u16 {
        u16::from(mv.0)
    }

    /// A move only ever completes the mover's own line.
    const MOVER_CAN_LOSE: bool = false;

    /// Every move fills a square.
    const POSITIONS_REPEAT: bool = false;

    /// Four (three) in a row or a full board: win, loss or draw.
    const ONLY_WIN_LOSS_DRAW: bool = true;

    /// The empty squares that would complete a line of the side to move once `mv` is
    /// played (the generic solver hooks keep their defaults otherwise).
    fn winning_spots_after(&self, mv: Square) -> u32 {
        let mine = self.mine | 1 << mv.0;
        let empty = FULL & !(mine | self.theirs);
        let spots = LINES
            .iter()
            .filter(|&&line| (line & mine).count_ones() == 2)
            .fold(0u16, |acc, &line| acc | (line & empty));
        spots.count_ones()
    }
}

impl Notation for TicTacToe {
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        let mut pos = Self::new();
        if text == "start" {
            return Ok(pos);
        }
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            let square = c
                .to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .ok_or_else(|| ParseError::new(format!("`{c}` is not a square 1-9")))?;
            if pos.status() != Status::Ongoing {
                return Err(ParseError::new(format!(
                    "the game is over before square {c}"
                )));
            }
            let mv = Square(square as u8 - 1);
            if (pos.mine | pos.theirs) & (1 << mv.0) != 0 {
                return Err(ParseError::new(format!("square {c} is played twice")));
            }
            pos.play(mv);
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_the_game_for_the_side_that_did_not_make_them() {
        let pos = TicTacToe::parse_position("1 4 2 5 3").unwrap();
        assert_eq!(pos.status(), Status::Over(Outcome::Loss));
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert!(moves.is_empty());
        let draw = TicTacToe::parse_position("5 1 9 3 2 8 7 4 6").unwrap();
        assert_eq!(draw.status(), Status::Over(Outcome::Draw));
    }

    #[test]
    fn bad_positions_are_refused_with_a_reason() {
        assert!(TicTacToe::parse_position("0").is_err());
        assert!(TicTacToe::parse_position("55").is_err());
        assert!(TicTacToe::parse_position("1425367").is_err());
        assert!(TicTacToe::parse_position("x").is_err());
    }
}
