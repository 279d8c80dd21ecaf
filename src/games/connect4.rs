//! Connect four on 7 columns of 6 rows, as two 64-bit bitboards.
//!
//! The representation is Pascal Pons's (<http://blog.gamesolver.org/solving-connect-four/06-bitboard/>):
//! bit `7 * column + row` stands for a cell (row 0 at the bottom), and each column has one
//! more bit above its top cell, the sentinel, which is never set. `position` holds the stones
//! of the side to move, `mask` all stones, and `position + mask` is a key unique to the
//! position. Columns are written 1-7 from the left; a position is written `start` or as the
//! columns played in order, first player first (`"4453"`), as in Pons's test sets.

use std::fmt;

use crate::game::{Evaluator, Game, Notation, Outcome, ParseError, Player, Score, Status, score};

/// Number of columns.
const WIDTH: u8 = 7;
/// Number of rows.
const HEIGHT: u8 = 6;
/// Bits per column: the rows plus the sentinel.
const STRIDE: u8 = HEIGHT + 1;
/// Cells on the board: the longest game.
const CELLS: u8 = WIDTH * HEIGHT;
/// The bottom cell of every column.
const BOTTOM_ROW: u64 = bottom_row();
/// The top cell (row 5) of every column; a column is full when its top cell is taken.
const TOP_ROW: u64 = BOTTOM_ROW << (HEIGHT - 1);

/// Builds [`BOTTOM_ROW`] (a `const fn` loop, as iterators are not const).
const fn bottom_row() -> u64 {
    let mut row = 0;
    let mut col = 0;
    while col < WIDTH {
        row |= 1 << (col * STRIDE);
        col += 1;
    }
    row
}

/// The bottom cell of column `col` (0-6).
const fn bottom_cell(col: u8) -> u64 {
    1 << (col * STRIDE)
}

/// The top cell of column `col` (0-6).
const fn top_cell(col: u8) -> u64 {
    1 << (HEIGHT - 1 + col * STRIDE)
}

/// Whether `stones` hold four in a row in any direction (Pons, part 6: shift by the
/// direction's step and `and`, then by twice the step and `and` again). The sentinel bits
/// keep lines from wrapping across columns.
const fn has_four(stones: u64) -> bool {
    // Horizontal (step 7), diagonal `\` (step 6), diagonal `/` (step 8), vertical (step 1).
    let h = stones & (stones >> STRIDE);
    let d1 = stones & (stones >> (STRIDE - 1));
    let d2 = stones & (stones >> (STRIDE + 1));
    let v = stones & (stones >> 1);
    (h & (h >> (2 * STRIDE)))
        | (d1 & (d1 >> (2 * (STRIDE - 1))))
        | (d2 & (d2 >> (2 * (STRIDE + 1))))
        | (v & (v >> 2))
        != 0
}

/// Appends to `out`, from the left, the columns that hold a cell of `cells` (at most one
/// each). Without a branch per column: how many columns a node keeps varies from node to
/// node, and a loop that stops at the last one is mispredicted about once a call (a search
/// asks this at every node). Each column is written in place, one byte each: a list built
/// on the stack and copied whole would be read back right after its bytes were stored,
/// which the processor cannot forward from the stores (a stall of its own).
fn push_columns(cells: u64, out: &mut Vec<Column>) {
    let len = out.len();
    out.resize(len + WIDTH as usize, Column(0));
    let mut n = len;
    for col in 0..WIDTH {
        out[n] = Column(col);
        n += usize::from(cells & (((1 << HEIGHT) - 1) << (col * STRIDE)) != 0);
    }
    out.truncate(n);
}

/// Every playable-or-not cell of the board (the sentinel row excluded).
const BOARD: u64 = BOTTOM_ROW * ((1 << HEIGHT) - 1);

/// The empty cells where `stones` would complete four in a row (Pons's
/// `compute_winning_position`, part 9): for each direction, the cells with three of `stones`
/// aligned on one side, or two on one side and one on the other.
const fn winning_cells(stones: u64, mask: u64) -> u64 {
    let h = HEIGHT as u32;
    // Vertical: three stones right below.
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    // Horizontal (step h + 1) and the two diagonals (steps h and h + 2).
    let steps = [h + 1, h, h + 2];
    let mut i = 0;
    while i < 3 {
        let s = steps[i];
        let mut p = (stones << s) & (stones << (2 * s));
        r |= p & (stones << (3 * s));
        r |= p & (stones >> s);
        p = (stones >> s) & (stones >> (2 * s));
        r |= p & (stones << s);
        r |= p & (stones >> (3 * s));
        i += 1;
    }
    r & (BOARD ^ mask)
}

/// A column to drop a disc into, 0-6 inside, written 1-7 from the left (Pons's notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Column(u8);

impl Column {
    /// The column with index `index` (0 = leftmost), or `None` past the right edge.
    #[must_use]
    pub const fn new(index: u8) -> Option<Self> {
        if index < WIDTH {
            Some(Self(index))
        } else {
            None
        }
    }

    /// The column's index, 0 (leftmost) to 6.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

/// A connect-four position: Pons's two bitboards and the number of stones (24 bytes; a move
/// is three bit operations, and whether it completed four in a row is worked out only when
/// asked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Connect4 {
    /// Stones of the side to move.
    position: u64,
    /// All stones.
    mask: u64,
    /// Stones on the board.
    plies: u8,
}

impl Connect4 {
    /// The empty board, first player to move.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            position: 0,
            mask: 0,
            plies: 0,
        }
    }

    /// Whether the side that just moved has four in a row. Asked when needed, not kept by
    /// [`Game::play`]: a search plays every child (for ordering, for table lookups) but asks
    /// once per node it enters.
    const fn last_mover_won(&self) -> bool {
        has_four(self.position ^ self.mask)
    }

    /// The cells a disc can drop into now: the lowest empty cell of each column.
    const fn playable(&self) -> u64 {
        (self.mask + BOTTOM_ROW) & BOARD
    }

    /// The column of the lowest cell in `cells`.
    const fn column_of(cells: u64) -> Column {
        Column((cells.trailing_zeros() as u8) / STRIDE)
    }

    /// Pons's key `position + mask`: unique to the position, side to move included.
    #[must_use]
    pub const fn key(&self) -> u64 {
        self.position + self.mask
    }

    /// Pons's two bitboards: the side to move's stones and all stones (bit `7 × column + row`,
    /// row 0 at the bottom, bit 6 of each column a sentinel). For evaluations outside this file.
    #[must_use]
    pub const fn bitboards(&self) -> (u64, u64) {
        (self.position, self.mask)
    }

    /// Whether column `col` still has room (finished games aside).
    #[must_use]
    pub const fn can_play(&self, col: Column) -> bool {
        self.mask & top_cell(col.0) == 0
    }

    /// The board drawn in text, top row first: `X` for the first player, `O` for the
    /// second, `.` for empty cells, with the column numbers underneath.
    #[must_use]
    pub fn to_ascii(&self) -> String {
        let first = if self.plies.is_multiple_of(2) {
            self.position
        } else {
            self.position ^ self.mask
        };
        let mut out = String::with_capacity(usize::from(STRIDE) * usize::from(WIDTH + 1));
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let cell = 1 << (col * STRIDE + row);
                out.push(if self.mask & cell == 0 {
                    '.'
                } else if first & cell != 0 {
                    'X'
                } else {
                    'O'
                });
            }
            out.push('\n');
        }
        out.push_str("1234567\n");
        out
    }
}

impl Game for Connect4 {
    type Move = Column;
    const NAME: &'static str = "connect4";

    fn side_to_move(&self) -> Player {
        if self.plies.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn generate_moves(&self, out: &mut Vec<Column>) {
        if self.last_mover_won() {
            return;
        }
        // Columns whose top cell is free, from the left (a full board leaves none).
        let mut free = TOP_ROW & !self.mask;
        while free != 0 {
            out.push(Column((free.trailing_zeros() as u8) / STRIDE));
            free &= free - 1;
        }
    }

    fn play(&mut self, mv: Column) {
        debug_assert!(mv.0 < WIDTH && self.can_play(mv), "column {mv} is full");
        debug_assert!(!self.last_mover_won(), "the game is over");
        // Adding the column's bottom bit to the mask carries up to its first empty cell.
        self.position ^= self.mask;
        self.mask |= self.mask + bottom_cell(mv.0);
        self.plies += 1;
    }

    fn status(&self) -> Status {
        if self.last_mover_won() {
            Status::Over(Outcome::Loss)
        } else if self.plies == CELLS {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        }
    }

    fn exact_key(&self) -> Option<u64> {
        Some(self.key())
    }

    fn hash(&self) -> u64 {
        // A bijection that spreads every key bit over the whole word (see `finalize`).
        crate::rng::finalize(self.key())
    }

    fn plies_played(&self) -> u32 {
        u32::from(self.plies)
    }

    fn remaining_plies(&self) -> Option<u32> {
        Some(u32::from(CELLS - self.plies))
    }

    fn move_code(mv: Column) -> u16 {
        u16::from(mv.0)
    }

    /// A move can only complete the mover's own line.
    const MOVER_CAN_LOSE: bool = false;

    /// Every move adds a stone.
    const POSITIONS_REPEAT: bool = false;

    /// Four (three) in a row or a full board: win, loss or draw.
    const ONLY_WIN_LOSS_DRAW: bool = true;

    /// Pons's `canWinNext` (part 9): a playable cell that completes four for the side to move.
    fn winning_move(&self, _scratch: &mut Vec<Column>) -> Option<Column> {
        if self.last_mover_won() {
            return None;
        }
        let wins = winning_cells(self.position, self.mask) & self.playable();
        (wins != 0).then(|| Self::column_of(wins))
    }

    /// Pons's `possibleNonLosingMoves` (part 9): with two opponent wins playable nothing
    /// saves the game; with one, only blocking it; never a cell right below an opponent's
    /// winning cell. Columns from the left, as [`Game::generate_moves`] lists them.
    fn non_losing_moves(&self, out: &mut Vec<Column>, _: &mut Vec<Column>, _: &mut Vec<Column>) {
        debug_assert!(!self.last_mover_won(), "asked of a finished game");
        let mut possible = self.playable();
        let opponent = winning_cells(self.position ^ self.mask, self.mask);
        let forced = possible & opponent;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return;
            }
            possible = forced;
        }
        push_columns(possible & !(opponent >> 1), out);
    }

    /// Pons's `moveScore` (part 10): the winning cells of the side to move once its disc is
    /// in column `mv` (the mask left as it was, as in his code).
    fn winning_spots_after(&self, mv: Column) -> u32 {
        let column = ((1u64 << HEIGHT) - 1) << (mv.0 * STRIDE);
        let cell = self.playable() & column;
        winning_cells(self.position | cell, self.mask).count_ones()
    }
}

/// A solved score in Pons's convention (his test sets' second column): for the side to move
/// at `root`, `(43 - stones on the board when the winner plays)/2`, positive for a win,
/// negative for a loss, 0 for a draw. `search_score` is a root-relative score of a search
/// that reached the end of the game; a heuristic (non-decisive, non-zero) score gives `None`.
#[must_use]
pub fn pons_score(root: &Connect4, search_score: Score) -> Option<i32> {
    if search_score == 0 {
        return Some(0);
    }
    let plies = score::plies_to_end(search_score)?;
    // The winning disc is the `plies`-th from the root: stones before it are root + plies - 1.
    let stones_before = i32::from(root.plies) + plies - 1;
    let magnitude = (43 - stones_before) / 2;
    Some(if search_score > 0 {
        magnitude
    } else {
        -magnitude
    })
}

/// The scores Pons's convention ([`pons_score`]) can give `root`: a win of the side to move
/// no sooner than its next stone, a loss no sooner than the opponent's, and neither before
/// the seventh stone of the game (four of the winner's, three of the loser's between);
/// from the start, -18..=18. A finished position has its one score.
#[must_use]
pub fn pons_score_range(root: &Connect4) -> std::ops::RangeInclusive<i32> {
    let stones = i32::from(root.plies);
    match root.status() {
        Status::Over(Outcome::Draw) => 0..=0,
        Status::Over(_) => {
            // The last stone won: it was placed with stones - 1 before it.
            let lost = -((43 - (stones - 1)) / 2);
            lost..=lost
        }
        Status::Ongoing => {
            let win = (43 - stones.max(6)) / 2;
            let loss = (43 - (stones + 1).max(7)) / 2;
            -loss..=win
        }
    }
}

impl Notation for Connect4 {
    /// `start` (or an empty string) is the empty board; otherwise the columns played, one
    /// digit 1-7 each, first player first, as in Pons's test sets. Refused: other
    /// characters, a move into a full column, a move after the game is won, more than 42 moves.
    fn parse_position(text: &str) -> Result<Self, ParseError> {
        let text = text.trim();
        let mut pos = Self::new();
        if text == "start" {
            return Ok(pos);
        }
        for (i, c) in text.chars().enumerate() {
            let col = c
                .to_digit(10)
                .filter(|d| (1..=u32::from(WIDTH)).contains(d))
                .ok_or_else(|| {
                    ParseError::new(format!("character {i} (`{c}`) is not a column 1-7"))
                })?;
            let mv = Column(col as u8 - 1);
            if pos.plies == CELLS {
                return Err(ParseError::new(format!(
                    "character {i} (`{c}`): more than {CELLS} moves"
                )));
            }
            if pos.last_mover_won() {
                return Err(ParseError::new(format!(
                    "character {i} (`{c}`): the game is already won"
                )));
            }
            if !pos.can_play(mv) {
                return Err(ParseError::new(format!(
                    "character {i} (`{c}`): column {c} is full"
                )));
            }
            pos.play(mv);
        }
        Ok(pos)
    }
}

/// Pons's centre-first move order (<http://blog.gamesolver.org/solving-connect-four/05-move-exploration-order/>):
/// columns nearer the centre belong to more lines of four, so they are tried first, in the
/// order 4, 3, 5, 2, 6, 1, 7.
///
/// The static evaluation, used only at a depth horizon (a search to the end of the game
/// never calls it), counts for each stone the lines of four through its cell (3 in a corner
/// to 13 in the centre): the side to move's total minus the opponent's. It is the classic
/// "possible wins" weighting of connect-four programs (Allis 1988 discusses why central
/// cells matter); it scores position, not threats.
#[derive(Clone, Copy, Debug, Default)]
pub struct CentreFirst;

/// Lines of four through each cell, as four bit planes: the weight of cell `i` is
/// `sum(2^k for k where WEIGHT_PLANES[k] has bit i)`.
const WEIGHT_PLANES: [u64; 4] = weight_planes();

/// Number of windows of four cells in a row (any direction) that contain (`col`, `row`).
const fn lines_through(col: i32, row: i32) -> u64 {
    let directions = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut count = 0;
    let mut d = 0;
    while d < 4 {
        let (dc, dr) = directions[d];
        let mut start = -3;
        while start <= 0 {
            let (c0, r0) = (col + start * dc, row + start * dr);
            let (c3, r3) = (c0 + 3 * dc, r0 + 3 * dr);
            if on_board(c0, r0) && on_board(c3, r3) {
                count += 1;
            }
            start += 1;
        }
        d += 1;
    }
    count
}

const fn on_board(col: i32, row: i32) -> bool {
    col >= 0 && col < WIDTH as i32 && row >= 0 && row < HEIGHT as i32
}

const fn weight_planes() -> [u64; 4] {
    let mut planes = [0u64; 4];
    let mut col = 0;
    while col < WIDTH {
        let mut row = 0;
        while row < HEIGHT {
            let weight = lines_through(col as i32, row as i32);
            let mut k = 0;
            while k < 4 {
                if weight >> k & 1 == 1 {
                    planes[k] |= 1 << (col * STRIDE + row);
                }
                k += 1;
            }
            row += 1;
        }
        col += 1;
    }
    planes
}

/// The summed line counts of the cells in `stones`.
#[must_use]
pub fn cell_weight(stones: u64) -> i32 {
    let mut total = 0;
    for (k, plane) in WEIGHT_PLANES.iter().enumerate() {
        total += ((stones & plane).count_ones() as i32) << k;
    }
    total
}

impl Evaluator<Connect4> for CentreFirst {
    fn evaluate(&self, pos: &Connect4) -> Score {
        cell_weight(pos.position) - cell_weight(pos.position ^ pos.mask)
    }

    /// `3 - |column - 3|` for column indices 0-6: 3 for the centre down to 0 at the edges;
    /// ties (3 before 5, ...) keep the generation order, left first.
    fn order_hint(&self, _pos: &Connect4, mv: Column, _depth: u32) -> i32 {
        3 - (i32::from(mv.0) - 3).abs()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// An independent, naive connect four: a 7 x 6 array and a scan of every cell for four
    /// in a row in each direction.
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    struct Naive {
        /// `cells[col][row]`: 0 empty, 1 first player, 2 second player; row 0 at the bottom.
        cells: [[u8; 6]; 7],
        plies: usize,
    }

    impl Naive {
        fn new() -> Self {
            Self {
                cells: [[0; 6]; 7],
                plies: 0,
            }
        }

        fn height(&self, col: usize) -> usize {
            self.cells[col].iter().take_while(|&&c| c != 0).count()
        }

        fn wins(&self, player: u8) -> bool {
            let at = |c: i32, r: i32| {
                (0..7).contains(&c)
                    && (0..6).contains(&r)
                    && self.cells[c as usize][r as usize] == player
            };
            for c in 0..7 {
                for r in 0..6 {
                    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                        if (0..4).all(|k| at(c + dc * k, r + dr * k)) {
                            return true;
                        }
                    }
                }
            }
            false
        }

        fn status(&self) -> Status {
            let last_mover = if self.plies.is_multiple_of(2) { 2 } else { 1 };
            if self.plies > 0 && self.wins(last_mover) {
                Status::Over(Outcome::Loss)
            } else if self.plies == 42 {
                Status::Over(Outcome::Draw)
            } else {
                Status::Ongoing
            }
        }

        fn moves(&self) -> Vec<usize> {
            if self.status() != Status::Ongoing {
                return Vec::new();
            }
            (0..7).filter(|&c| self.height(c) < 6).collect()
        }

        fn play(&mut self, col: usize) {
            let row = self.height(col);
            self.cells[col][row] = if self.plies.is_multiple_of(2) { 1 } else { 2 };
            self.plies += 1;
        }
    }

    /// A tiny xorshift64 generator, seeded, so random games repeat.
    struct XorShift(u64);

    impl XorShift {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    fn pos(moves: &str) -> Connect4 {
        Connect4::parse_position(moves).unwrap()
    }

    fn naive(moves: &str) -> Naive {
        let mut n = Naive::new();
        for c in moves.bytes() {
            n.play(usize::from(c - b'1'));
        }
        n
    }

    fn moves_of(p: &Connect4) -> Vec<Column> {
        let mut out = Vec::new();
        p.generate_moves(&mut out);
        out
    }

    /// Leaves at `depth`: finished games count as one leaf and are not expanded.
    fn perft(p: &Connect4, depth: u32) -> u64 {
        if depth == 0 || p.status() != Status::Ongoing {
            return 1;
        }
        let mut total = 0;
        for mv in moves_of(p) {
            let mut child = *p;
            child.play(mv);
            total += perft(&child, depth - 1);
        }
        total
    }

    fn naive_perft(n: &Naive, depth: u32) -> u64 {
        if depth == 0 || n.status() != Status::Ongoing {
            return 1;
        }
        n.moves()
            .into_iter()
            .map(|c| {
                let mut child = *n;
                child.play(c);
                naive_perft(&child, depth - 1)
            })
            .sum()
    }

    #[test]
    fn cell_weights_count_lines_of_four() {
        // The classic table: 3 4 5 7 5 4 3 on the bottom row, 5 8 11 13 11 8 5 in the middle.
        assert_eq!(cell_weight(bottom_cell(0)), 3);
        assert_eq!(cell_weight(bottom_cell(3)), 7);
        assert_eq!(cell_weight(bottom_cell(3) << 2), 13);
        assert_eq!(cell_weight(bottom_cell(1) << 1), 6);
        // 69 lines of four, four cells each.
        let all = (0..WIDTH).fold(0, |m, c| m | (0x3F << (c * STRIDE)));
        assert_eq!(cell_weight(all), 4 * 69);
        let pos = Connect4::parse_position("4").unwrap();
        // The second player to move; the first player holds the bottom centre.
        assert_eq!(CentreFirst.evaluate(&pos), -7);
    }

    #[test]
    fn perft_agrees_with_the_naive_board() {
        // No game ends before ply 7, so depths 1-6 are 7^n. Depth 7 is 7^7 - 7: a column
        // holds 6 discs, so the 7 sequences dropping all 7 discs into one column are
        // illegal. Depth 8 was computed by both boards here and by a third, independent
        // count (a Python script that checks lines through the last disc); games won at
        // ply 7 count as single leaves.
        let expected = [7, 49, 343, 2_401, 16_807, 117_649, 823_536, 5_686_266];
        for (depth, &count) in (1..=8).zip(expected.iter()) {
            assert_eq!(perft(&Connect4::new(), depth), count, "depth {depth}");
            assert_eq!(
                naive_perft(&Naive::new(), depth),
                count,
                "naive, depth {depth}"
            );
        }
    }

    #[test]
    fn random_games_agree_with_the_naive_board() {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        let mut endings = [0; 2];
        for _ in 0..3_000 {
            let mut p = Connect4::new();
            let mut n = Naive::new();
            loop {
                assert_eq!(p.status(), n.status(), "\n{}", p.to_ascii());
                let moves: Vec<usize> = moves_of(&p).iter().map(|m| usize::from(m.0)).collect();
                assert_eq!(moves, n.moves());
                assert_eq!(p.plies_played() as usize, n.plies);
                if moves.is_empty() {
                    break;
                }
                let col = moves[rng.below(moves.len())];
                p.play(Column(col as u8));
                n.play(col);
            }
            endings[usize::from(p.status() == Status::Over(Outcome::Draw))] += 1;
        }
        // The random games exercise both endings.
        assert!(endings[0] > 0 && endings[1] > 0, "{endings:?}");
    }

    /// Pons's bitboard answers to the solver hooks against their definitions, played out
    /// move by move: a winning move ends the game at once; the non-losing moves (asked where
    /// the side to move has no immediate win) are exactly those after which the opponent has
    /// none, in generation order.
    #[test]
    fn solver_hooks_agree_with_playing_the_moves() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let (mut with_wins, mut pruned) = (0, 0);
        for _ in 0..2_000 {
            let mut p = Connect4::new();
            while p.status() == Status::Ongoing {
                let moves = moves_of(&p);
                let wins_at_once = |q: &Connect4, mv: Column| {
                    let mut child = *q;
                    child.play(mv);
                    child.status() == Status::Over(Outcome::Loss)
                };
                let winning = p.winning_move(&mut Vec::new());
                match winning {
                    Some(mv) => assert!(wins_at_once(&p, mv), "\n{}", p.to_ascii()),
                    None => assert!(!moves.iter().any(|&mv| wins_at_once(&p, mv))),
                }
                if winning.is_none() {
                    let safe: Vec<Column> = moves
                        .iter()
                        .copied()
                        .filter(|&mv| {
                            let mut child = p;
                            child.play(mv);
                            child.winning_move(&mut Vec::new()).is_none()
                        })
                        .collect();
                    let mut got = vec![Column(9)]; // appended to, never cleared
                    p.non_losing_moves(&mut got, &mut Vec::new(), &mut Vec::new());
                    assert_eq!(got[1..], safe[..], "\n{}", p.to_ascii());
                    pruned += usize::from(safe.len() < moves.len());
                } else {
                    with_wins += 1;
                }
                p.play(moves[rng.below(moves.len())]);
            }
        }
        // Both cases are exercised.
        assert!(with_wins > 0 && pruned > 0, "{with_wins} {pruned}");
    }

    /// Whether `player`'s disc on (`col`, `row`) of the naive board would be part of four
    /// in a row, gravity aside: the definition of a winning cell (Pons, part 9), read off
    /// the array by walking each direction from the cell.
    fn completes_four(n: &Naive, player: u8, col: usize, row: usize) -> bool {
        let mine = |c: i32, r: i32| {
            (c, r) == (col as i32, row as i32)
                || ((0..7).contains(&c)
                    && (0..6).contains(&r)
                    && n.cells[c as usize][r as usize] == player)
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: i32| {
                (1..4)
                    .take_while(|&k| mine(col as i32 + sign * k * dc, row as i32 + sign * k * dr))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    /// The empty cells of the naive board where `player` would complete four, as a bitboard
    /// in Pons's layout (bit `7 * col + row`).
    fn naive_winning_cells(n: &Naive, player: u8) -> u64 {
        let mut cells = 0;
        for col in 0..7 {
            for row in 0..6 {
                if n.cells[col][row] == 0 && completes_four(n, player, col, row) {
                    cells |= 1 << (7 * col + row);
                }
            }
        }
        cells
    }

    /// `winning_cells` (every empty cell, playable or not, where a side's disc completes
    /// four) and `winning_spots_after` (those cells for the side to move once its disc is
    /// in the column, the mask left as it was, so the new disc's cell counts if it wins)
    /// against their definitions on the naive board, along seeded random games.
    #[test]
    fn winning_cells_and_spots_agree_with_the_naive_board() {
        let mut rng = XorShift(0xD1B5_4A32_D192_ED03);
        let (mut hidden, mut spots) = (0, 0);
        for _ in 0..400 {
            let (mut p, mut n) = (Connect4::new(), Naive::new());
            while p.status() == Status::Ongoing {
                let (me, them) = if n.plies.is_multiple_of(2) {
                    (1, 2)
                } else {
                    (2, 1)
                };
                let want = naive_winning_cells(&n, me);
                let board = format!("\n{}", p.to_ascii());
                assert_eq!(winning_cells(p.position, p.mask), want, "mover's{board}");
                let theirs = winning_cells(p.position ^ p.mask, p.mask);
                assert_eq!(theirs, naive_winning_cells(&n, them), "opponent's{board}");
                hidden += usize::from(want & !p.playable() != 0);
                for mv in moves_of(&p) {
                    let col = usize::from(mv.0);
                    let mut after = n;
                    after.cells[col][n.height(col)] = me;
                    let mut want = naive_winning_cells(&after, me).count_ones();
                    // The mask is left as it was: the new disc's cell counts if it wins.
                    want += u32::from(completes_four(&after, me, col, n.height(col)));
                    let got = p.winning_spots_after(mv);
                    assert_eq!(got, want, "spots after column {mv}{board}");
                    spots += usize::from(want > 1);
                }
                let moves = moves_of(&p);
                let mv = moves[rng.below(moves.len())];
                p.play(mv);
                n.play(usize::from(mv.0));
            }
        }
        // Winning cells above the playable ones, and moves that make two threats, are met.
        assert!(
            hidden > 100 && spots > 100,
            "{hidden} hidden, {spots} double"
        );
    }

    /// Every position within 5 plies, each told apart by the naive board (which records the
    /// side to move through its stone count), with its `key`: equal for transpositions and
    /// distinct for distinct boards, or the test fails naming `what`. 7 + 49 + 238 + 1 120 +
    /// 4 263 positions after 1-5 plies (OEIS A212693).
    fn one_key_per_position_within_five_plies(
        what: &str,
        key: impl Fn(&Connect4) -> u64,
    ) -> HashMap<Naive, u64> {
        let mut by_board: HashMap<Naive, u64> = HashMap::new();
        let mut by_key: HashMap<u64, Naive> = HashMap::new();
        let mut frontier = vec![(Connect4::new(), Naive::new())];
        for _ in 0..5 {
            let mut next = Vec::new();
            for (p, n) in frontier {
                for mv in moves_of(&p) {
                    let (mut p, mut n) = (p, n);
                    p.play(mv);
                    n.play(usize::from(mv.0));
                    let k = key(&p);
                    let first = *by_board.entry(n).or_insert(k);
                    let board = p.to_ascii();
                    assert_eq!(first, k, "a transposition changed the {what}\n{board}");
                    let other = *by_key.entry(k).or_insert(n);
                    assert!(other == n, "two boards share the {what} {k}\n{board}");
                    next.push((p, n));
                }
            }
            frontier = next;
        }
        assert_eq!(
            by_board.len(),
            7 + 49 + 238 + 1_120 + 4_263,
            "positions (OEIS A212693)"
        );
        by_board
    }

    /// `exact_key` is a key unique to the position (module doc, Pons part 6), the side to
    /// move included, over every position within 5 plies.
    #[test]
    fn exact_keys_tell_every_position_apart() {
        one_key_per_position_within_five_plies("exact key", |p| {
            p.exact_key().expect("connect four has exact keys")
        });
    }

    /// The drawing (`X` the first player's stones whoever is to move, `.` empty, top row
    /// first) and the plies left (the empty cells: every game that is not won fills them)
    /// against the naive board, along seeded random games.
    #[test]
    fn drawing_and_plies_left_agree_with_the_naive_board() {
        let mut rng = XorShift(0xA076_1D64_78BD_642F);
        for _ in 0..200 {
            let (mut p, mut n) = (Connect4::new(), Naive::new());
            loop {
                let mut drawn = String::new();
                for row in (0..6).rev() {
                    for col in 0..7 {
                        drawn.push(['.', 'X', 'O'][usize::from(n.cells[col][row])]);
                    }
                    drawn.push('\n');
                }
                drawn.push_str("1234567\n");
                assert_eq!(p.to_ascii(), drawn, "after {} plies", n.plies);
                let empty = n.cells.iter().flatten().filter(|&&c| c == 0).count();
                assert_eq!(p.remaining_plies(), Some(empty as u32), "\n{drawn}");
                let moves = moves_of(&p);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                p.play(mv);
                n.play(usize::from(mv.0));
            }
        }
    }

    #[test]
    fn four_in_a_row_is_found_in_every_direction() {
        for (direction, moves) in [
            ("horizontal", "1122334"),
            ("vertical", "1212121"),
            ("diagonal /", "12234334544"),
            ("diagonal \\", "76654554344"),
            ("second player, horizontal, raised", "12345671526374"),
        ] {
            let before = pos(&moves[..moves.len() - 1]);
            assert_eq!(before.status(), Status::Ongoing, "{direction}");
            let after = pos(moves);
            assert_eq!(after.status(), Status::Over(Outcome::Loss), "{direction}");
            assert_eq!(naive(moves).status(), after.status(), "{direction}");
            assert!(moves_of(&after).is_empty(), "{direction}");
        }
        // Stones across the sentinel between columns are not a line: the first player holds
        // column 1 rows 5-6 and column 2 rows 1-2, adjacent bits but for the sentinel.
        let wrapped = "11111717262";
        assert_eq!(pos(wrapped).status(), Status::Ongoing);
        assert_eq!(naive(wrapped).status(), Status::Ongoing);
    }

    #[test]
    fn a_full_board_without_four_is_a_draw() {
        let moves = "455714637617614767242476316455122212535333";
        assert_eq!(moves.len(), 42);
        let p = pos(moves);
        assert_eq!(p.status(), Status::Over(Outcome::Draw));
        assert_eq!(naive(moves).status(), Status::Over(Outcome::Draw));
        assert!(moves_of(&p).is_empty());
        assert_eq!(p.plies_played(), 42);
        assert!(Connect4::parse_position(&format!("{moves}1")).is_err());
    }

    #[test]
    fn moves_are_columns_from_the_left_written_1_to_7() {
        let start = Connect4::new();
        let moves = moves_of(&start);
        let written: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(written, ["1", "2", "3", "4", "5", "6", "7"]);
        assert_eq!(start.parse_move("4"), Ok(Column(3)));
        assert!(start.parse_move("8").is_err());
        assert_eq!(Connect4::move_code(Column(6)), 6);
        assert_eq!(Column::new(6).map(Column::index), Some(6));
        assert_eq!(Column::new(7), None);
        let full_third = pos("333333");
        let written: Vec<String> = moves_of(&full_third)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(written, ["1", "2", "4", "5", "6", "7"]);
        assert_eq!(full_third.side_to_move(), Player::First);
        assert_eq!(pos("3").side_to_move(), Player::Second);
    }

    #[test]
    fn bad_positions_are_refused_with_a_reason() {
        for bad in ["8", "0", "1111111", "x", "12121213", "44 53"] {
            let err = Connect4::parse_position(bad).unwrap_err();
            assert!(err.0.starts_with("character "), "{bad}: {err}");
        }
        assert_eq!(
            Connect4::parse_position("1111111").unwrap_err().0,
            "character 6 (`1`): column 1 is full"
        );
        assert_eq!(Connect4::parse_position("start"), Ok(Connect4::new()));
        assert_eq!(Connect4::parse_position("  4453\n"), Ok(pos("4453")));
    }

    #[test]
    fn pons_end_game_positions_are_read() {
        let set = include_str!("../../experiments/data/connect4/Test_L3_R1");
        let mut lines = 0;
        for line in set.lines() {
            let moves = line.split_whitespace().next().unwrap();
            let p = Connect4::parse_position(moves).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(p.plies_played() as usize, moves.len(), "{line}");
            assert_eq!(p.status(), Status::Ongoing, "{line}");
            lines += 1;
        }
        assert_eq!(lines, 1000);
    }

    #[test]
    fn transpositions_share_a_hash_and_different_positions_do_not() {
        assert_eq!(pos("1234").hash(), pos("3214").hash());
        assert_ne!(pos("1234").hash(), pos("2143").hash());
        assert_ne!(pos("12").hash(), pos("21").hash());
        // Every position within 5 plies: equal boards if and only if equal hashes.
        let by_board = one_key_per_position_within_five_plies("hash", Connect4::hash);
        // The high and the low bits both spread the 5 677 positions over 64 buckets: none
        // holds less than half its share.
        for bucket in [|h: u64| h >> 58, |h: u64| h & 63] {
            let mut counts = [0; 64];
            for &h in by_board.values() {
                counts[bucket(h) as usize] += 1;
            }
            assert!(counts.iter().all(|&c| c > 5_677 / 128), "{counts:?}");
        }
    }

    #[test]
    fn centre_first_orders_4_3_5_2_6_1_7() {
        let p = Connect4::new();
        let mut moves = moves_of(&p);
        moves.sort_by_key(|&m| -CentreFirst.order_hint(&p, m, 0));
        let written: String = moves.iter().map(ToString::to_string).collect();
        assert_eq!(written, "4352617");
        assert_eq!(CentreFirst.evaluate(&p), 0);
    }

    #[test]
    fn positions_are_small_and_drawn_with_the_first_player_as_x() {
        assert!(std::mem::size_of::<Connect4>() <= 24);
        assert_eq!(
            pos("4453").to_ascii(),
            ".......\n.......\n.......\n.......\n...O...\n..OXX..\n1234567\n"
        );
    }

    #[test]
    fn pons_scores_lie_in_their_range() {
        assert_eq!(pons_score_range(&Connect4::new()), -18..=18);
        // The first player's fourth stone wins: the seventh of the game, 6 before it.
        let won = pos("1212121");
        assert_eq!(pons_score_range(&won), -18..=-18);
        assert_eq!(pons_score(&won, score::loss_in(0)), Some(-18));
        // The side to move wins at once: its stone comes after the 7 on the board.
        let threat = pos("445566");
        assert_eq!(pons_score(&threat, score::win_in(1)), Some(18));
        assert_eq!(*pons_score_range(&threat).end(), 18);
        // With 7 stones played: a win on the 8th stone at the soonest, a loss on the 9th.
        assert_eq!(pons_score_range(&pos("4444443")), -17..=18);
    }
}
