//! The geometry of the 32 playing squares: square numbers, diagonal neighbours and jump
//! landings as tables, and bitboard shifts along each diagonal direction.
//!
//! Square `n` (1-32, the standard numbering of English draughts, WCDF Rules of Draughts
//! 1.5) is bit `n - 1` of a `u32`. The board is drawn with Black's home (squares 1-12) at
//! the top and White's (21-32) at the bottom; each row holds four squares, numbered from
//! left to right. Rows 0, 2, 4, 6 (squares 1-4, 9-12, ...) start one column in, so that
//! square 4 and square 29 are the single corners and the long diagonal runs
//! 4-8-11-15-18-22-25-29.

/// A set of squares: bit `n - 1` for square `n`.
pub type Squares = u32;

/// A diagonal direction. "Down" is towards the higher square numbers (Black's forward
/// direction); "left" and "right" as the board is drawn, square 1 top left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards lower square numbers, leftwards.
    UpLeft = 0,
    /// Towards lower square numbers, rightwards.
    UpRight = 1,
    /// Towards higher square numbers, leftwards.
    DownLeft = 2,
    /// Towards higher square numbers, rightwards.
    DownRight = 3,
}

/// The four directions, in table order.
pub const DIRECTIONS: [Direction; 4] = [
    Direction::UpLeft,
    Direction::UpRight,
    Direction::DownLeft,
    Direction::DownRight,
];

/// No square (a neighbour off the board).
pub const NONE: u8 = u8::MAX;

/// The row (0 at the top, Black's back rank) and column (0-7 from the left) of bit `i`.
const fn coordinates(i: u8) -> (i8, i8) {
    let row = (i / 4) as i8;
    // Even rows start one column in (squares 1-4 sit on columns 1, 3, 5, 7).
    let col = 2 * (i % 4) as i8 + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

/// The bit of the square at (`row`, `col`), or [`NONE`] off the board or on a light square.
const fn index_of(row: i8, col: i8) -> u8 {
    if row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 == 0 {
        return NONE;
    }
    (row * 4 + col / 2) as u8
}

/// The row and column steps of a direction.
const fn steps(d: usize) -> (i8, i8) {
    match d {
        0 => (-1, -1),
        1 => (-1, 1),
        2 => (1, -1),
        _ => (1, 1),
    }
}

/// `NEIGHBOUR[d][i]`: the bit of the square next to bit `i` in direction `d`, or [`NONE`].
pub const NEIGHBOUR: [[u8; 32]; 4] = neighbours(1);
/// `LANDING[d][i]`: the bit two squares away from bit `i` in direction `d` (where a jump
/// over the neighbour lands), or [`NONE`].
pub const LANDING: [[u8; 32]; 4] = neighbours(2);

const fn neighbours(distance: i8) -> [[u8; 32]; 4] {
    let mut table = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let (dr, dc) = steps(d);
        let mut i = 0;
        while i < 32 {
            let (row, col) = coordinates(i as u8);
            table[d][i] = index_of(row + distance * dr, col + distance * dc);
            i += 1;
        }
        d += 1;
    }
    table
}

/// For each direction, the squares whose neighbour lies 3, 4 and 5 bits away (up: lower
/// bits, down: higher bits), so that a whole set moves one step with three masked shifts.
const SHIFT_MASKS: [[Squares; 3]; 4] = shift_masks();

const fn shift_masks() -> [[Squares; 3]; 4] {
    let mut masks = [[0; 3]; 4];
    let mut d = 0;
    while d < 4 {
        let mut i = 0;
        while i < 32 {
            let n = NEIGHBOUR[d][i];
            if n != NONE {
                let distance = n.abs_diff(i as u8);
                masks[d][(distance - 3) as usize] |= 1 << i;
            }
            i += 1;
        }
        d += 1;
    }
    masks
}

/// The squares one step from `set` in direction `d` (steps off the board are dropped).
#[must_use]
pub const fn shift(set: Squares, d: Direction) -> Squares {
    let m = &SHIFT_MASKS[d as usize];
    if (d as usize) < 2 {
        ((set & m[0]) >> 3) | ((set & m[1]) >> 4) | ((set & m[2]) >> 5)
    } else {
        ((set & m[0]) << 3) | ((set & m[1]) << 4) | ((set & m[2]) << 5)
    }
}

/// The set holding only square bit `i`.
#[must_use]
pub const fn bit(i: u8) -> Squares {
    1 << i
}

/// Black's back rank, squares 1-4 (where White's men are crowned).
pub const TOP_ROW: Squares = 0x0000_000F;
/// White's back rank, squares 29-32 (where Black's men are crowned).
pub const BOTTOM_ROW: Squares = 0xF000_0000;

#[cfg(test)]
mod tests {
    use super::*;

    /// Square number (1-32) of the neighbour of square `n` in direction `d`.
    fn next(n: u8, d: Direction) -> Option<u8> {
        let i = NEIGHBOUR[d as usize][usize::from(n - 1)];
        (i != NONE).then(|| i + 1)
    }

    #[test]
    fn the_long_diagonal_and_the_corners_are_where_the_standard_board_has_them() {
        // The long diagonal 29-25-22-18-15-11-8-4 (single corners 4 and 29).
        let mut square = 29;
        let mut path = vec![square];
        while let Some(n) = next(square, Direction::UpRight) {
            path.push(n);
            square = n;
        }
        assert_eq!(path, [29, 25, 22, 18, 15, 11, 8, 4]);
        // Double corners: 1-5 (Black's) and 28-32 (White's).
        assert_eq!(next(1, Direction::DownLeft), Some(5));
        assert_eq!(next(32, Direction::UpRight), Some(28));
        assert_eq!(next(4, Direction::DownRight), None);
        assert_eq!(next(4, Direction::DownLeft), Some(8));
        // Black's first moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16.
        assert_eq!(next(9, Direction::DownLeft), Some(13));
        assert_eq!(next(9, Direction::DownRight), Some(14));
        assert_eq!(next(12, Direction::DownRight), None);
        assert_eq!(next(12, Direction::DownLeft), Some(16));
        // Jumps: from 22 over 18 onto 15 (up-right), from 11 over 15 onto 18 (down-left).
        assert_eq!(LANDING[Direction::UpRight as usize][21], 14);
        assert_eq!(LANDING[Direction::DownLeft as usize][10], 17);
    }

    #[test]
    fn shifts_agree_with_the_tables() {
        for d in DIRECTIONS {
            for i in 0..32u8 {
                let n = NEIGHBOUR[d as usize][usize::from(i)];
                let expected = if n == NONE { 0 } else { bit(n) };
                assert_eq!(shift(bit(i), d), expected, "{d:?} from bit {i}");
            }
        }
    }
}
