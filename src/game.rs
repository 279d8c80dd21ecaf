//! The vocabulary every game and every search shares.
//!
//! A [`Game`] is a position plus its rules; an [`Evaluator`] scores positions that a search
//! does not expand. Searches (`crate::search`) know only this module, and games
//! (`crate::games`) know only this module, so every algorithm runs on every game.

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// Who is to move. Games with two players call them `First` and `Second`
/// (White and Black in chess, the player who drops the first disc in connect four).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first from the start position.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Self {
        match self {
            Self::First => Self::Second,
            Self::Second => Self::First,
        }
    }
}

/// How a finished game ended, seen by the side to move in the final position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost (for example: the opponent just completed four in a row).
    Loss,
    /// Nobody won.
    Draw,
    /// The game ended with a numeric result for the side to move, such as the leaf value of a
    /// synthetic tree. It must lie strictly inside `±score::DECISIVE`.
    Points(Score),
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Moves remain to be played.
    Ongoing,
    /// The game is finished.
    Over(Outcome),
}

/// A position's value for the side to move, in the evaluator's units (centipawns, leaf
/// values, ...). Wins and losses use the band near `±score::WIN`, see [`score`].
pub type Score = i32;

/// Score conventions: wins and losses adjusted by the distance in plies, so that a faster
/// win always scores higher and a slower loss less badly (Eppstein, ICS 180 lecture of
/// 2 February 1999, "Forcing progress in winning positions"; shared/seeds/000).
pub mod score {
    use super::Score;

    /// Larger than every score a search can return; the initial window is `(-INFINITY, INFINITY)`.
    pub const INFINITY: Score = 2_000_000_000;
    /// The score of a win at the root itself (ply 0).
    pub const WIN: Score = 1_900_000_000;
    /// Longer than any line a search can follow. Scores beyond `WIN - MAX_PLY` are decisive.
    pub const MAX_PLY: i32 = 10_000;
    /// Every heuristic evaluation lies strictly between `-DECISIVE` and `DECISIVE`.
    pub const DECISIVE: Score = WIN - MAX_PLY;

    /// The score of a position where the side to move has won, `ply` plies from the root.
    #[must_use]
    pub const fn win_in(ply: i32) -> Score {
        WIN - ply
    }

    /// The score of a position where the side to move has lost, `ply` plies from the root.
    #[must_use]
    pub const fn loss_in(ply: i32) -> Score {
        -WIN + ply
    }

    /// True for scores that announce a forced win or loss.
    #[must_use]
    pub const fn is_decisive(s: Score) -> bool {
        s > DECISIVE || s < -DECISIVE
    }

    /// Plies from the root to the end of the game for a decisive score, `None` otherwise.
    #[must_use]
    pub const fn plies_to_end(s: Score) -> Option<i32> {
        if s > DECISIVE {
            Some(WIN - s)
        } else if s < -DECISIVE {
            Some(WIN + s)
        } else {
            None
        }
    }

    /// A decisive score in moves (not plies) to mate, as UCI's `mate N` and PGN comments'
    /// `+M5` write it: positive when the side to move mates, negative when it is mated;
    /// `None` for other scores.
    #[must_use]
    pub fn mate_in_moves(s: Score) -> Option<i32> {
        let plies = plies_to_end(s)?;
        let moves = (plies + 1) / 2;
        Some(if s > 0 { moves } else { -moves })
    }

    /// Converts a root-relative score to one relative to a node `ply` plies below the root,
    /// for storing in a transposition table (seed 000: "store scores adjusted relative to the
    /// current position, rather than the position at the root").
    #[must_use]
    pub const fn to_table(s: Score, ply: i32) -> Score {
        if s > DECISIVE {
            s + ply
        } else if s < -DECISIVE {
            s - ply
        } else {
            s
        }
    }

    /// The inverse of [`to_table`]: a node-relative score read back at `ply`.
    #[must_use]
    pub const fn from_table(s: Score, ply: i32) -> Score {
        if s > DECISIVE {
            s - ply
        } else if s < -DECISIVE {
            s + ply
        } else {
            s
        }
    }

    /// The score of a finished game for the side to move, `ply` plies from the root.
    #[must_use]
    pub const fn of_outcome(outcome: super::Outcome, ply: i32) -> Score {
        match outcome {
            super::Outcome::Win => win_in(ply),
            super::Outcome::Loss => loss_in(ply),
            super::Outcome::Draw => 0,
            super::Outcome::Points(p) => p,
        }
    }
}

/// The weight of one outcome of a chance node. A node's outcomes carry positive integer
/// weights, and an outcome's probability is its weight over the sum of the node's weights
/// (1 and 2 over 36 for the 21 distinct rolls of two dice): integers keep expected values
/// exact and runs byte-identical, where floating-point probabilities would round differently
/// depending on the order of the sum.
pub type Weight = u32;

/// Why a position, move or parameter could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

impl ParseError {
    /// An error with the given reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Self(reason.into())
    }
}

/// One legal move in [`Game::refined_mobility`]'s units: its finer terms are fractions of a
/// move.
pub const REFINED_UNIT: i64 = 1 << 10;

/// The logistic `1 / (1 + 10^(-score / 400))` of the Elo scale (Elo 1978; the same curve as
/// the chess programming wiki's "Pawn Advantage, Win Percentage, and Elo" with centipawns):
/// 0 maps to 0.5, +400 to about 0.91. [`Game::win_probability`]'s default.
#[must_use]
pub fn elo_win_probability(score: Score) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(score) / 400.0))
}

/// A two-player, zero-sum, perfect-information game: a position and its rules.
///
/// Positions are copy-make: a search clones the parent and calls [`Game::play`] on the
/// clone, so `Clone` must be cheap (a few machine words for the games here).
pub trait Game: Clone + Send + Sync + 'static {
    /// A move. `Display` writes it in the game's notation ([`Game::parse_move`] reads it back).
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;

    /// The name used in experiment files and on the command line.
    const NAME: &'static str;

    /// The player to move.
    fn side_to_move(&self) -> Player;

    /// Appends every legal move to `out` (which the caller clears and reuses, so that a
    /// search allocates nothing per node). Empty when the game is won, lost or blocked; a
    /// position drawn by a rule (chess's fifty-move rule) may still list its moves, which
    /// perft counts. Searches ask [`Game::status`] first.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays a legal move. Playing an illegal move is a logic error (it may panic in debug builds).
    fn play(&mut self, mv: Self::Move);

    /// Whether the game is over, and how it ended for the side to move.
    fn status(&self) -> Status;

    /// A hash of the position (including the side to move) for transposition tables.
    fn hash(&self) -> u64;

    /// The position as the rule of threefold repetition compares it, for a game's referee
    /// (the arena, self-play): [`Game::hash`] unless the game's rules count as different some
    /// positions that hash differently. Chess: FIDE's Laws 9.2.3 count the en-passant file
    /// only where an en-passant capture is possible, while the hash keeps it after every
    /// double step. Searches keep [`Game::hash`] for their own repetitions.
    fn repetition_key(&self) -> u64 {
        self.hash()
    }

    /// A key that identifies the position exactly in at most 64 bits, where the game has one
    /// that is not a hash (connect four: Pons's `position + mask`, 49 bits). The compact
    /// table ([`crate::search::Table::compact`]) indexes by it modulo a prime, so positions a
    /// few moves apart often share cache lines, and keeps only its low 32 bits: with more
    /// than `2^(bits - 32)` slots the index and those bits identify the key exactly (the
    /// Chinese remainder theorem; Pons, "Solving Connect 4", part 11). Default: none, the
    /// compact table uses [`Game::hash`] and its check is probabilistic.
    fn exact_key(&self) -> Option<u64> {
        None
    }

    /// Plies played from the game's start position (used to convert scores to the game's own
    /// conventions, such as Pons's connect-four scores).
    fn plies_played(&self) -> u32;

    /// A compact code for a move, unique among the legal moves of any position, used to keep
    /// moves in a transposition table. A code read from the table is only used after it has
    /// been matched against the freshly generated legal moves. Backgammon alone breaks the
    /// uniqueness: a play of up to four steps does not fit 16 bits and is hashed to 15, so
    /// two plays of one position can share a code (77 of 3,647 positions of 50 random
    /// games had such a pair); only move ordering uses its codes, which may then try the
    /// other play first (the root filters that select by code serve alpha-beta, which
    /// refuses games with chance nodes).
    fn move_code(mv: Self::Move) -> u16;

    /// Reads a move in the game's notation, checking that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves
            .into_iter()
            .find(|m| m.to_string() == text)
            .ok_or_else(|| ParseError::new(format!("`{text}` is not a legal move here")))
    }

    /// A score of this game (an evaluation, or a finished game's [`Outcome::Points`]) as
    /// the probability that the side it is scored for wins, as Monte Carlo search rewards a
    /// playout cut short or ended in points: by default the logistic of the Elo scale,
    /// [`elo_win_probability`], for centipawn-like scores. A game whose scores are on
    /// another scale (backgammon's points of `1,000,000`) reads them its own way.
    fn win_probability(score: Score) -> f64 {
        elo_win_probability(score)
    }

    /// The moves of `line`, move texts joined by spaces as the arena's `line` column and
    /// stored self-play games write them, each as [`Game::parse_move`] reads it: a word
    /// each, unless a move's text holds spaces (a backgammon play, `24/20 20/15`).
    fn line_moves(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    /// An upper bound on the plies left before the game must end (9 − stones in tic-tac-toe),
    /// or `None` when the rules set no practical bound. A search without a depth limit goes
    /// this deep, so it solves the game.
    fn remaining_plies(&self) -> Option<u32> {
        None
    }

    /// The position after passing, where the rules allow it and passing is a sound
    /// test (null-move pruning uses this). Chess returns `None` in check and when the side to
    /// move has only king and pawns, where zugzwang is likely.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// Whether the side to move is in check (check extensions, quiescence and null move use
    /// it). Games without checks keep the default.
    fn in_check(&self) -> bool {
        false
    }

    /// Whether quiescence search may "stand pat" here: take the static evaluation instead of
    /// the noisy moves, a pass that is only sound where the side to move could decline them
    /// all (seed 001; seed 003: "always expand any forced sequences"). The default is "not
    /// in check", where chess must play an evasion; checkers overrides it, as a capture
    /// there is compulsory.
    fn may_stand_pat(&self) -> bool {
        !self.in_check()
    }

    /// Whether playing `mv` puts the opponent in check. The default plays it on a copy.
    fn gives_check(&self, mv: Self::Move) -> bool {
        let mut child = self.clone();
        child.play(mv);
        child.in_check()
    }

    /// Plies since the last irreversible move (a capture or pawn move in chess): only the
    /// positions this far back can repeat this one. 0 for games where nothing repeats, which
    /// lets the search skip repetition detection.
    fn reversible_plies(&self) -> u32 {
        0
    }

    /// Plies left before the rules draw the game for want of progress (chess's 50-move rule:
    /// 100 less the halfmove clock; checkers' 40-move rule: 80 less the quiet plies), or
    /// `None` where no such rule applies. The table key leaves the counter out, so that
    /// transpositions are found; a decisive score stored under a lower counter is then not
    /// trusted where its end lies past this draw (see `Searcher::past_no_progress_draw`).
    fn plies_to_no_progress_draw(&self) -> Option<u32> {
        None
    }

    /// Whether a position can occur twice in one game. `false` where every move adds to the
    /// board for good (connect four, tic-tac-toe, othello): the search then keeps no hashes
    /// of the positions on its path, a cost at every node that could only serve repetition
    /// detection. The default, `true`, is always safe.
    const POSITIONS_REPEAT: bool = true;

    /// The number of legal moves (fastest-first ordering counts the opponent's replies). The
    /// default generates them into `scratch`, the caller's reused buffer; a game that knows
    /// the count cheaply (a popcount in othello) overrides it.
    fn move_count(&self, scratch: &mut Vec<Self::Move>) -> usize {
        scratch.clear();
        self.generate_moves(scratch);
        scratch.len()
    }

    /// The side to move's prospects as the `refined_mobility` ordering weighs them (smaller
    /// is better for the player who just moved), in units where one legal move is
    /// [`REFINED_UNIT`]: by default the number of legal moves. Othello refines it as Edax's
    /// endgame move sorting does (`Othello`'s implementation says how).
    fn refined_mobility(&self, scratch: &mut Vec<Self::Move>) -> i64 {
        (self.move_count(scratch) as i64) * REFINED_UNIT
    }

    /// Parity ordering near the end of the game: 1 for a move into a region with an odd
    /// number of empty cells (the quadrants in othello), else 0. Games without regions keep
    /// the default, and the `parity` ordering switch changes nothing for them.
    fn region_parity(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// An upper bound on the final score of every continuation, for the side to move, that
    /// this position alone proves (othello: the opponent's discs that can never be turned
    /// over, Edax's stability cutoff), or `None` when the game knows none or it would not be
    /// worth its cost: a game may skip the work where the bound could not reach `alpha`.
    /// The `score_window` switch narrows the window of a search that reaches the end of the
    /// game with it. Default: `None`.
    fn final_score_ceiling(&self, _alpha: Score) -> Option<Score> {
        None
    }

    /// The exact value of this position, if the game has a dedicated solver for positions
    /// within `limit` of the end (in the game's own measure: empty squares in othello) and
    /// this one is: fail-soft in the window `(alpha, beta)` like an alpha-beta node, in
    /// score units, counting the nodes it visits in `nodes` and giving up (any value) once
    /// [`SolverNodes::should_stop`] says the search's limits are reached. The search calls
    /// it only where its depth reaches the end of the game (`endgame_solver` switch), and
    /// discards the value of a solve it stopped. Default: `None`.
    fn solve_endgame(
        &self,
        _alpha: Score,
        _beta: Score,
        _limit: u32,
        _nodes: &mut SolverNodes<'_>,
    ) -> Option<Score> {
        None
    }
    /// Whether a move can end the game in a loss for the player who makes it. The solver
    /// switches ([`crate::search::SolveSwitches`]) derive the worst score still possible from
    /// it: where no move loses at once (connect four, tic-tac-toe), the side to move can lose
    /// no sooner than after the opponent's reply. The default, `true`, is always safe.
    const MOVER_CAN_LOSE: bool = true;

    /// Whether every finished game is a win, a loss or a draw (never [`Outcome::Points`]):
    /// then a search that reaches the end of the game and can no longer win or lose scores 0
    /// (Pons's draw check). Default `false`, always safe.
    const ONLY_WIN_LOSS_DRAW: bool = false;

    /// The largest magnitude of a finished game's score, where every finished game is an
    /// [`Outcome::Points`] within it and the evaluation stays within it too (othello: 64
    /// discs). The solver's score window ([`crate::search::SolveSwitches::score_window`]) then
    /// narrows every node below the root to it, so that a node holding the best score there
    /// is cut off as a proven win is (Edax searches within ±64 discs). Default `None`: no
    /// such bound.
    const MAX_POINTS: Option<Score> = None;

    /// The step between the scores a finished game can have, where all are multiples of it
    /// (othello: two discs, since the winner's discs, the loser's and the empty squares,
    /// which go to the winner, add up to 64). The `mtd` switch then tests only values
    /// between two such scores when its search reaches the end of the game. Default 1: any
    /// score.
    const FINAL_SCORE_STEP: Score = 1;

    /// A move that wins at once, if the side to move has one (Pons, "Solving Connect 4",
    /// part 3: checking for an immediate win before expanding a node). The default plays each
    /// legal move on a copy (`scratch` is the caller's reused move buffer); connect four
    /// answers with a few bitboard operations.
    fn winning_move(&self, scratch: &mut Vec<Self::Move>) -> Option<Self::Move> {
        scratch.clear();
        self.generate_moves(scratch);
        scratch.iter().copied().find(|&mv| {
            let mut child = self.clone();
            child.play(mv);
            child.status() == Status::Over(Outcome::Loss)
        })
    }

    /// Appends to `out` the legal moves that neither lose at once nor leave the opponent an
    /// immediate win (Pons, part 9, "anticipate direct losing moves"); empty when every move
    /// loses that soon. Only asked where the game goes on and the side to move has no
    /// immediate win (where it has, a game may leave out the winning move itself, as Pons's
    /// does; the search has already asked [`Game::status`]). The default plays each
    /// move on a copy and asks [`Game::winning_move`] of the result (`scratch` and `inner`
    /// are reused buffers).
    fn non_losing_moves(
        &self,
        out: &mut Vec<Self::Move>,
        scratch: &mut Vec<Self::Move>,
        inner: &mut Vec<Self::Move>,
    ) {
        scratch.clear();
        self.generate_moves(scratch);
        for &mv in scratch.iter() {
            let mut child = self.clone();
            child.play(mv);
            let loses = match child.status() {
                Status::Over(outcome) => outcome == Outcome::Win,
                Status::Ongoing => child.winning_move(inner).is_some(),
            };
            if !loses {
                out.push(mv);
            }
        }
    }

    /// The number of cells where the side to move would complete a winning line after
    /// playing `mv` (Pons, part 10: ordering by the winning spots a move creates); the
    /// `threats` ordering switch tries moves with more first. Games without such a notion
    /// keep the default, 0, and the switch changes nothing for them.
    fn winning_spots_after(&self, _mv: Self::Move) -> u32 {
        0
    }

    /// Whether the next event is drawn by chance (a roll of the dice) rather than chosen by
    /// the side to move: a chance node of an expectiminimax tree (Michie 1966; Ballard 1983;
    /// shared/seeds/003, "non-deterministic games"). Its value for [`Game::side_to_move`]
    /// (the player who moves after the event) is the weighted mean of its outcomes' values.
    /// Deterministic games keep the default, and the searches for them never ask.
    fn is_chance(&self) -> bool {
        false
    }

    /// Appends the outcomes of a chance node with their weights to `out` (cleared and
    /// reused by the caller); an outcome is applied with [`Game::play`], like a move.
    /// Appends nothing where [`Game::is_chance`] is false.
    fn chance_outcomes(&self, _out: &mut Vec<(Self::Move, Weight)>) {}
}

/// A game that can be read from text: `start`, or the game's own position notation.
pub trait Notation: Game + Sized {
    /// The start position, or the position described by `text` (see each game's docs).
    fn parse_position(text: &str) -> Result<Self, ParseError>;
}

/// Scores positions that a search does not expand, and advises on move order.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The static value of an ongoing position for the side to move, strictly inside
    /// `±score::DECISIVE`.
    fn evaluate(&self, pos: &G) -> Score;

    /// Moves that quiescence search follows past the horizon (captures in chess).
    fn is_noisy(&self, _pos: &G, _mv: G::Move) -> bool {
        false
    }

    /// Replaces `out` with the noisy moves of `pos` ([`Self::is_noisy`]'s), in the order
    /// [`Game::generate_moves`] lists them, and returns the number of all its legal moves.
    /// This generates every move and keeps the noisy ones; an evaluator whose game can
    /// generate them directly does so (chess).
    fn noisy_moves(&self, pos: &G, out: &mut Vec<G::Move>) -> usize {
        out.clear();
        pos.generate_moves(out);
        let legal = out.len();
        out.retain(|&mv| self.is_noisy(pos, mv));
        legal
    }

    /// The most material `mv` can win (the captured piece, plus a promotion's gain), for
    /// delta pruning in quiescence; `None` when the game has no such notion.
    fn material_gain(&self, _pos: &G, _mv: G::Move) -> Option<Score> {
        None
    }

    /// An ordering hint for `mv` in `pos`, searched with `depth` plies remaining:
    /// higher is searched earlier. Used by the `hint` ordering switch.
    fn order_hint(&self, _pos: &G, _mv: G::Move, _depth: u32) -> i32 {
        0
    }

    /// Bounds `(lo, hi)` on every value, for every side to move, of the positions in the
    /// game below `root`: evaluations and finished games' scores alike. Ballard's Star1 and
    /// Star2 prune chance nodes with them (Ballard 1983, "The *-minimax search procedure for
    /// trees containing chance nodes"); `None` (the default) means no bounds are known, and
    /// then those searches prune nothing at chance nodes (they stay exact).
    fn bounds(&self, _root: &G) -> Option<(Score, Score)> {
        None
    }
}

/// The evaluator that knows nothing: every ongoing position is worth 0. Exact searches that
/// reach the end of the game (tic-tac-toe, solving connect four) need nothing more.
#[derive(Clone, Copy, Debug, Default)]
pub struct Neutral;

impl<G: Game> Evaluator<G> for Neutral {
    fn evaluate(&self, _pos: &G) -> Score {
        0
    }
}

/// The nodes a game's own endgame solver ([`Game::solve_endgame`]) visits, and whether the
/// search that called it must stop: a solve of twenty empty squares can take a minute, past
/// any time or node limit, so the solver asks [`Self::should_stop`] as it goes, which runs
/// the search's own check of its limits and stop flags every [`Self::CHECK_INTERVAL`]
/// solver nodes.
pub struct SolverNodes<'a> {
    /// Nodes visited so far.
    pub count: u64,
    next_check: u64,
    stop: Option<&'a mut dyn FnMut(u64) -> bool>,
    stopped: bool,
}

impl<'a> SolverNodes<'a> {
    /// Solver nodes between two checks of the search's limits.
    pub const CHECK_INTERVAL: u64 = 4096;

    /// A count that never stops the solver (tests, a solve without limits).
    #[must_use]
    pub fn unlimited() -> Self {
        Self {
            count: 0,
            next_check: u64::MAX,
            stop: None,
            stopped: false,
        }
    }

    /// A count that asks `stop(count)` every [`Self::CHECK_INTERVAL`] nodes whether the
    /// solver must stop.
    #[must_use]
    pub fn with_stop(stop: &'a mut dyn FnMut(u64) -> bool) -> Self {
        Self {
            count: 0,
            next_check: Self::CHECK_INTERVAL,
            stop: Some(stop),
            stopped: false,
        }
    }

    /// Whether the solver must stop now; once true, true for good.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        if self.count >= self.next_check && !self.stopped {
            self.next_check = self.count + Self::CHECK_INTERVAL;
            let count = self.count;
            self.stopped = self.stop.as_mut().is_some_and(|stop| stop(count));
        }
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::score::*;

    #[test]
    fn mates_are_counted_in_moves() {
        assert_eq!(mate_in_moves(win_in(1)), Some(1));
        assert_eq!(mate_in_moves(win_in(5)), Some(3));
        assert_eq!(mate_in_moves(loss_in(2)), Some(-1));
        assert_eq!(mate_in_moves(loss_in(4)), Some(-2));
        assert_eq!(mate_in_moves(35), None);
    }

    #[test]
    fn table_adjustment_round_trips_and_prefers_faster_wins() {
        for ply in [0, 1, 7, 40] {
            for s in [win_in(3 + ply), loss_in(5 + ply), 0, 1234, -999] {
                assert_eq!(from_table(to_table(s, ply), ply), s);
            }
        }
        // A win found 3 plies below a node at ply 2 is stored as "win in 3 from here";
        // read back at ply 6 it becomes a win at ply 9 from the root.
        let stored = to_table(win_in(5), 2);
        assert_eq!(stored, win_in(3));
        assert_eq!(from_table(stored, 6), win_in(9));
        assert!(win_in(1) > win_in(3));
        assert!(loss_in(3) > loss_in(1));
        assert_eq!(plies_to_end(win_in(7)), Some(7));
        assert_eq!(plies_to_end(loss_in(4)), Some(4));
        assert_eq!(plies_to_end(12), None);
    }
}
