//! Search configuration: the algorithm, each technique a switch with its parameters, and
//! the limits. Every optional technique is `Option<...>` (None = off) or a plain default
//! that changes nothing, so a configuration names exactly what it turns on.

use std::time::Duration;

use crate::game::Score;

use super::Ordering;

/// Depth is counted in 1/24 ply (seed 001, ICS 180 lecture on extensions: "make the depth
/// counter record some multiple of the number of levels ... say depth = levels*24"), so that
/// extensions can be fractional while search still terminates: every extension is smaller
/// than one ply.
pub const ONE_PLY: i32 = 24;

// The ranges of the numeric settings, one source for the `search`/`suite` flags, the UCI
// options and experiment files.

/// The most search threads (`threads`, `--threads`, UCI `Threads`).
pub const MAX_SEARCH_THREADS: usize = 256;

/// The largest `split_plies`: YBW's fewest plies from the horizon at which a node may
/// split (1 to this).
pub const MAX_SPLIT_PLIES: u32 = 64;

/// The most empties handed to a game's endgame solver (`endgame_solver`, 1 to this): the
/// solver keeps no table and orders by parity alone, so its reach is kept to what it solves
/// in a moment (it checks the search's limits as it goes, [`crate::game::SolverNodes`]).
pub const MAX_ENDGAME_SOLVER: u32 = 20;

/// The coarsest score grain in plies (`score_grain`, 1 to this).
pub const MAX_SCORE_GRAIN: u8 = 16;

/// The largest check extension, in 1/24 ply: below one ply, so that search terminates.
pub const MAX_CHECK_EXTENSION: i32 = ONE_PLY - 1;

/// Which depths lazy SMP's helper threads search ([`super::smp`]).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "snake_case")]
pub enum HelperDepths {
    /// Every other depth, odd ones for odd helpers and even ones for even helpers, then the
    /// depth limit (after Stockfish 7-10's skip schedule), so that half of them run a ply
    /// ahead of the main thread. The default: on chess it gives the lower search overhead.
    #[default]
    Alternate,
    /// The main thread's depths, 1, 2, 3, ...: the threads meet at every depth and the
    /// deferral of busy moves alone spreads them. With 16 threads on 16 cores it had the
    /// higher search overhead on connect four (1.69 against 1.61; see [`super::smp`]).
    Same,
}

impl std::fmt::Display for HelperDepths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Alternate => "alternate",
            Self::Same => "same",
        })
    }
}

/// Which depths lazy SMP's main thread searches when it has helpers ([`super::smp`]).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "snake_case")]
pub enum MainDepths {
    /// Every depth, 1, 2, 3, ...: the single-threaded search's iterative deepening. The
    /// default.
    #[default]
    Every,
    /// Every other depth, ending at the depth limit (... D − 4, D − 2, D; the odd depths
    /// without a depth limit): the helpers search the depths between, so the main thread
    /// spends nothing on iterations the table already mostly holds. On 16 cores it raised
    /// the chess time-to-depth speedup from 8.3 to 10.3 in one run, by 1-5% in two later
    /// ones (results/scaling_main_depths).
    Alternate,
}

impl std::fmt::Display for MainDepths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Every => "every",
            Self::Alternate => "alternate",
        })
    }
}

/// Which node function to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Negamax over every move: visits the whole tree to the horizon (Shannon 1950).
    Minimax,
    /// Fail-soft alpha-beta (Knuth and Moore 1975) with the switches of [`SearchConfig`].
    Alphabeta,
    /// Alpha-beta on `threads` threads sharing the table ([`super::smp`]).
    LazySmp,
    /// Young Brothers Wait: alpha-beta whose younger brothers are searched in parallel on
    /// `threads` threads sharing the table, once the eldest brother has not cut off
    /// ([`super::ybw`]; Feldmann et al. 1989).
    Ybw,
    /// Expectiminimax over chance nodes without pruning, the reference for games of chance
    /// ([`super::expecti`]; Michie 1966).
    Expectiminimax,
    /// Ballard's Star1: alpha-beta at player nodes, windows derived from value bounds at
    /// chance nodes ([`super::expecti`]; Ballard 1983).
    Star1,
    /// Ballard's Star2: Star1 with a probing phase at chance nodes ([`super::expecti`];
    /// Ballard 1983; Hauk, Buro and Schaeffer 2004).
    Star2,
}

impl Algorithm {
    /// Whether the node function is alpha-beta (and so the table and techniques apply).
    #[must_use]
    pub fn is_alphabeta(self) -> bool {
        matches!(self, Self::Alphabeta | Self::LazySmp | Self::Ybw)
    }

    /// Whether the search handles chance nodes (and only it does: the others are refused
    /// on games of chance, and these on deterministic games, when a file is validated).
    #[must_use]
    pub fn searches_chance(self) -> bool {
        matches!(self, Self::Expectiminimax | Self::Star1 | Self::Star2)
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Minimax => "minimax",
            Self::Alphabeta => "alphabeta",
            Self::LazySmp => "lazy_smp",
            Self::Ybw => "ybw",
            Self::Expectiminimax => "expectiminimax",
            Self::Star1 => "star1",
            Self::Star2 => "star2",
        })
    }
}

/// A search configuration: the algorithm and its switches.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// The node function.
    pub algorithm: Algorithm,
    /// Move-ordering switches (alpha-beta only).
    pub ordering: Ordering,
    /// Transposition-table size in MiB; 0 means no table (alpha-beta only).
    pub tt_mb: usize,
    /// Search depths 1, 2, ... up to the limit (true), or only the limit (false).
    pub iterative: bool,
    /// Seed of every random choice the search makes (the shuffle ordering).
    pub seed: u64,
    /// Quiescence search at the horizon (alpha-beta only).
    pub quiescence: Option<Quiescence>,
    /// Null-move pruning (alpha-beta only).
    pub null_move: Option<NullMove>,
    /// Search extensions, in 1/24 ply.
    pub extensions: Extensions,
    /// Principal variation search: moves after the first get a null window first and are
    /// searched again with the full window only if they beat alpha (Marsland and Campbell
    /// 1982, "Parallel search of strongly ordered game trees"; Reinefeld 1983, NegaScout).
    pub pvs: bool,
    /// Enhanced transposition cutoff (Plaat, Schaeffer, Pijls and de Bruin 1996, "Exploiting
    /// graph properties of game trees"): before searching a node's moves, look their
    /// positions up in the table; one whose stored bound already refutes the window cuts the
    /// node off without a visit. At nodes at least two plies from the horizon.
    pub etc: bool,
    /// Aspiration windows: each iteration after the first searches the root with the window
    /// previous score ± this half-width, widening it fourfold and searching again on a fail
    /// (Brudno 1963; Slate and Atkin 1977). None: full window.
    pub aspiration: Option<Score>,
    /// Search threads (lazy SMP and Young Brothers Wait only; 1 otherwise).
    pub threads: usize,
    /// Young Brothers Wait: a node at least this many plies from the horizon may hand its
    /// younger brothers to idle threads (default [`SPLIT_DEPTH`]; at least 1).
    pub split_plies: u32,
    /// Lazy SMP: the depths the helper threads search.
    pub helper_depths: HelperDepths,
    /// Lazy SMP: the depths the main thread searches when it has helpers.
    pub main_depths: MainDepths,
    /// Secondary search ([`super::secondary`]): verify the chosen root move `plies` deeper.
    pub secondary: Option<Secondary>,
    /// Store decisive scores in the table relative to the node and re-base them by ply on
    /// retrieval (seed 000). Off only to measure what it is for: without it, a win found at
    /// one depth reads back with the wrong distance at another.
    pub tt_mate_adjust: bool,
    /// Keep fractional depths (a half-ply check extension's) in the table to half a ply
    /// ([`super::tt::Entry::depth`]). Off, results are stored as the whole plies they
    /// reached, rounded down, as before this switch: a node searched 2.5 plies deep then
    /// stores 2 and can never be settled by its own entry at 2.5 plies.
    pub tt_fractional: bool,
    /// Hand positions within this many of the end (empty squares in othello) to the game's
    /// dedicated exact solver ([`crate::game::Game::solve_endgame`]; Edax's last-empties
    /// search), where the search's depth reaches the end of the game. None: off. Alpha-beta only.
    pub endgame_solver: Option<u32>,
    /// The exact-solver switches of Pons's connect-four ladder (immediate wins, the score
    /// window, the score grain, null-window deepening on the score, anticipation, the weak
    /// solver, upper-bound-only tables), all off by default ([`super::solve`]).
    pub solve: SolveSwitches,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::Alphabeta,
            ordering: Ordering::default(),
            tt_mb: 0,
            iterative: true,
            seed: 0,
            quiescence: None,
            null_move: None,
            extensions: Extensions::default(),
            pvs: false,
            etc: false,
            aspiration: None,
            threads: 1,
            split_plies: SPLIT_DEPTH,
            helper_depths: HelperDepths::Alternate,
            main_depths: MainDepths::Every,
            tt_mate_adjust: true,
            tt_fractional: false,
            endgame_solver: None,
            secondary: None,
            solve: SolveSwitches::default(),
        }
    }
}

/// Secondary search (seed 003): after depth d, the best move must still look good
/// `plies` deeper (its value at most `margin` below the depth-d one), else the next best
/// is tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Secondary {
    /// k: how many plies beyond d the verification looks.
    pub plies: u32,
    /// How far (in the evaluator's units) the deeper value may fall and still pass.
    pub margin: Score,
}

/// The deepest depth limit a search (or perft) takes, in plies: half of
/// [`score::MAX_PLY`](crate::game::score::MAX_PLY), the depth of a search without one in a
/// game of unbounded length, so that a line with extensions and quiescence stays within
/// `MAX_PLY` and its mate scores decisive. The command line and experiment files refuse
/// deeper limits; [`Searcher::run`](super::Searcher::run) searches no deeper.
pub const MAX_DEPTH: u32 = (crate::game::score::MAX_PLY / 2) as u32;

/// When a search stops. A search interrupted by `nodes`, `time` or a stop request returns
/// the last iteration it completed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Deepest iteration, in plies (at most [`MAX_DEPTH`]). `None`: until the end of the game
    /// where the game bounds its length ([`crate::game::Game::remaining_plies`]), otherwise
    /// until another limit stops it.
    pub depth: Option<u32>,
    /// Most nodes over all iterations.
    pub nodes: Option<u64>,
    /// Longest wall-clock time.
    pub time: Option<Duration>,
}

impl Limits {
    /// The limits that are set, as experiment-file assignments: `depth=5`, `nodes=1000`,
    /// `time_ms=50` (how summaries and variant names show them).
    #[must_use]
    pub fn assignments(&self) -> Vec<String> {
        let depth = self.depth.map(|d| format!("depth={d}"));
        let nodes = self.nodes.map(|n| format!("nodes={n}"));
        let time = self.time.map(|t| format!("time_ms={}", t.as_millis()));
        [depth, nodes, time].into_iter().flatten().collect()
    }
}

/// Time kept back from every clock budget for the latency of the pipe (and of a GUI).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// The search time of one move on a clock, for `plylab uci` and for arena players with a
/// time control: `time_left / min(movestogo, 30) + increment × 0.8` (a
/// thirtieth of the time left without `movestogo`), never more than half the time left,
/// minus [`MOVE_OVERHEAD`], and at least 1 ms. Returns `(hard, soft)`: the search is stopped
/// at `hard`, and no new iteration starts after `soft` = `hard / 2` (the next iteration
/// would most likely be cut off and wasted).
#[must_use]
pub fn time_budget(
    time_left: Duration,
    increment: Duration,
    moves_to_go: Option<u32>,
) -> (Duration, Duration) {
    let moves = moves_to_go.unwrap_or(30).clamp(1, 30);
    let share = time_left / moves + increment.mul_f64(0.8);
    let hard = share
        .min(time_left / 2)
        .saturating_sub(MOVE_OVERHEAD)
        .max(Duration::from_millis(1));
    (hard, hard / 2)
}

/// Quiescence search (seed 001; Shannon 1950's "quiescent positions", Turing's capture-only
/// continuation): at the horizon, the side to move may stand pat on the static evaluation or
/// play a noisy move ([`crate::game::Evaluator::is_noisy`]: captures and promotions in chess),
/// so the evaluation is only taken where nothing is hanging. Noisy moves are tried in the
/// evaluator's hint order (MVV-LVA in chess). In check, every move is searched (no stand pat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Quiescence {
    /// Deepest quiescence ply; None = unlimited (captures run out by themselves).
    pub max_depth: Option<u32>,
    /// Also search checking moves in the first quiescence ply.
    pub checks: bool,
    /// Delta pruning: skip a capture whose material gain cannot lift the stand-pat score to
    /// alpha even with this margin (centipawns), but never a move that gives check, nor any
    /// once alpha is a proven win. Lossy. None: off.
    pub delta: Option<Score>,
    /// Look quiescence nodes up in the transposition table (after standing pat, which is
    /// cheaper, has not settled them) and store their values there, at depth 0, as
    /// Stockfish's qsearch does. Only where the value depends on the position alone: not
    /// under `max_depth`, nor at the first quiescence ply with `checks`.
    pub tt: bool,
}

/// How many plies a null-move search is reduced by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// Always R plies.
    Fixed(u32),
    /// R = 3 with more than 6 plies left, else 2 (Heinz 1999, "Adaptive null-move pruning").
    Adaptive,
}

impl Reduction {
    /// R for a node with `depth` (in 1/24 ply) left.
    #[must_use]
    pub fn plies(self, depth: i32) -> i32 {
        match self {
            Self::Fixed(r) => r as i32,
            Self::Adaptive if depth > 6 * ONE_PLY => 3,
            Self::Adaptive => 2,
        }
    }
}

/// Null-move pruning (seed 001; Beal 1989, Goetsch and Campbell 1990, Donninger 1993): if
/// passing and searching R plies shallower still fails high, the node is assumed to fail
/// high. Never at the root, never twice in a row, never where the game refuses a pass
/// (chess: in check, or only king and pawns, where zugzwang is likely).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NullMove {
    /// The depth reduction R.
    pub reduction: Reduction,
    /// Verified null move: a null-move fail-high is only trusted after a search of the node
    /// R plies shallower without the null move fails high too (Stockfish's verification
    /// search, after Tabibi and Netanyahu 2002; [`super::null_move`] says how theirs
    /// differs).
    pub verify: bool,
}

/// Search extensions in 1/24 ply, each smaller than a ply so that search terminates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Extensions {
    /// Added to the depth of a move that gives check.
    pub check: i32,
}

/// The default least remaining depth, in plies, of a node whose younger brothers may go to
/// other threads ([`SearchConfig::split_plies`]). Shallower subtrees are too small to pay
/// for waking a thread and copying the node (Stockfish 1.x-6 used 4 plies, its
/// `MinimumSplitDepth`; Crafty about the same). Right for chess; connect four's nodes are so
/// cheap that 16 threads want 8 (results/scaling_summary.md).
pub const SPLIT_DEPTH: u32 = 4;

/// The exact-solver switches of Pons's connect-four ladder ([`super::solve`], where they act;
/// the parts are his blog's); the default changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveSwitches {
    /// Score a node whose side to move wins at once without expanding it (part 3).
    pub win_check: bool,
    /// Narrow the window to the scores still possible, and by the table's bound (part 4).
    pub score_window: bool,
    /// Decisive scores count the end of the game in units of this many plies (Pons: 2).
    pub score_grain: u8,
    /// Find the root value by null-window searches on the score (part 8).
    pub mtd: bool,
    /// Generate only moves that do not lose at once (part 9); implies the win check.
    pub anticipate: bool,
    /// The weak solver: the root window is (−1, 1), only the result's sign is exact.
    pub weak: bool,
    /// Store lower bounds (and exact values) beside upper bounds in the table (part 12).
    pub tt_lower_bounds: bool,
    /// The compact table with partial keys (part 11) instead of four-entry buckets.
    pub tt_compact: bool,
}

impl Default for SolveSwitches {
    fn default() -> Self {
        Self {
            win_check: false,
            score_window: false,
            score_grain: 1,
            mtd: false,
            anticipate: false,
            weak: false,
            tt_lower_bounds: true,
            tt_compact: false,
        }
    }
}

impl SolveSwitches {
    /// The switches that differ from the default, as `key=value` words for labels.
    #[must_use]
    pub fn words(&self) -> Vec<String> {
        let flags = [
            (self.win_check, "win_check"),
            (self.score_window, "score_window"),
            (self.mtd, "mtd"),
            (self.anticipate, "anticipate"),
            (self.weak, "weak"),
            (self.tt_compact, "tt_compact"),
        ];
        let mut words: Vec<String> = flags
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| (*name).to_string())
            .collect();
        if self.score_grain != 1 {
            words.push(format!("score_grain={}", self.score_grain));
        }
        if !self.tt_lower_bounds {
            words.push("tt_lower_bounds=false".into());
        }
        words
    }

    /// Whether nodes look for an immediate win before expanding.
    #[must_use]
    pub fn checks_wins(&self) -> bool {
        self.win_check || self.anticipate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_follows_the_documented_rule() {
        let ms = Duration::from_millis;
        // 60 s, no increment: 60000 / 30 = 2000, minus the overhead.
        assert_eq!(time_budget(ms(60_000), ms(0), None), (ms(1970), ms(985)));
        // 10 s + 1 s: 333 + 800 = 1133 (Duration division truncates to whole nanoseconds).
        let (hard, _) = time_budget(ms(10_000), ms(1000), None);
        assert_eq!(hard.as_millis(), 1133 - 30);
        // One move to go: never more than half the time left.
        assert_eq!(time_budget(ms(1000), ms(0), Some(1)).0, ms(470));
        // Almost no time: still 1 ms.
        assert_eq!(time_budget(ms(10), ms(0), None).0, ms(1));
    }
}
