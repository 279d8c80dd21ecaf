//! Experiment files: TOML in, a validated [`Plan`] of jobs out.
//!
//! The whole file is checked before anything runs: unknown keys, wrong types, impossible
//! values, unreadable positions and missing files are all [`SpecError`]s that name the file,
//! the line and column, and the key. EXPERIMENTS.md documents every key.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::answer::Answer;
use super::settings::{
    AlgorithmSetting, EvalChoice, EvalSetting, NullMoveSetting, QuiescenceSetting,
};
use super::sweep::{Sweep, Variants};
use crate::game::{Game, Notation, ParseError, Status};
use crate::games::backgammon::Backgammon;
use crate::games::chance_tree::{ChanceKind, ChanceTree, ChanceTreeParams};
use crate::games::checkers::Checkers;
use crate::games::chess::Chess;
use crate::games::connect4::Connect4;
use crate::games::othello::Othello;
use crate::games::random_tree::{Model, OracleOrder, RandomTree, TreeParams};
use crate::games::tictactoe::TicTacToe;
use crate::rng::mix;
use crate::search::mcts::{MctsAlgorithm, MctsConfig};
use crate::search::{Limits, MAX_DEPTH, SearchConfig, config};

/// The largest transposition table an experiment may ask for, in MiB (64 GiB).
pub const MAX_TT_MB: usize = 1 << 16;

/// An experiment file, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentFile {
    /// Names the output directory, `runs/<name>/` unless `--out` says otherwise: letters,
    /// digits, `-` and `_`.
    pub name: Spanned<String>,
    /// One line saying what the experiment asks.
    #[serde(default)]
    pub description: String,
    /// Markdown copied into summary.md (for example, how to read the figures).
    #[serde(default)]
    pub notes: String,
    /// Seed of every random choice (trees, shuffles). Default 0.
    #[serde(default)]
    pub seed: u64,
    /// Runs of every job, each with its own derived seed. Default 1.
    #[serde(default = "one")]
    pub repetitions: Spanned<u32>,
    /// Limits for every job, overridden per game and per searcher.
    #[serde(default)]
    pub limits: LimitsSpec,
    /// Games and their positions.
    pub games: Spanned<Vec<GameSpec>>,
    /// Labelled search configurations.
    pub searchers: Spanned<Vec<SearcherSpec>>,
    /// Published figures to set beside the measured ones in summary.md.
    #[serde(default)]
    pub references: Vec<ReferenceSpec>,
}

fn one() -> Spanned<u32> {
    Spanned::new(0..0, 1)
}

/// Search limits. Each field may be a sweep.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSpec {
    /// Deepest iteration in plies; absent: to the end of the game.
    pub depth: Option<Spanned<Sweep<u32>>>,
    /// Most nodes over all iterations.
    pub nodes: Option<Spanned<Sweep<u64>>>,
    /// Most milliseconds of wall-clock time.
    pub time_ms: Option<Spanned<Sweep<u64>>>,
}

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Tic-tac-toe.
    Tictactoe,
    /// Connect four, 7x6.
    Connect4,
    /// Synthetic uniform trees.
    RandomTree,
    /// Chess (cozy-chess): positions as FEN or `startpos`, test sets as EPD.
    Chess,
    /// English draughts: positions as PDN FEN or `start`.
    Checkers,
    /// Othello: positions as a 64-character board and side, test sets as `.obf`.
    Othello,
    /// Synthetic trees with chance layers (`crate::games::chance_tree`).
    ChanceTree,
    /// Backgammon: positions as GNU Backgammon Position IDs, optionally with the roll.
    Backgammon,
}

impl GameKind {
    /// Whether the game's length is bounded (by its board, or a tree's height), so that a
    /// search without a limit ends: to the end of the game. Chess, checkers and backgammon
    /// can go on without end, and their searches need a limit.
    #[must_use]
    pub fn has_bounded_length(self) -> bool {
        !matches!(self, Self::Chess | Self::Checkers | Self::Backgammon)
    }

    /// Whether a search of this game under `limits` may never end: none is set (no depth,
    /// nodes or time) and the game's length is unbounded. Experiment files, arena files and
    /// the command line all refuse such a search.
    #[must_use]
    pub fn search_never_ends(self, limits: &Limits) -> bool {
        !self.has_bounded_length() && *limits == Limits::default()
    }

    /// Whether the game has chance nodes: only the searches over chance
    /// (`expectiminimax`, `star1`, `star2`) search it, and only it.
    #[must_use]
    pub fn has_chance(self) -> bool {
        matches!(self, Self::ChanceTree | Self::Backgammon)
    }

    /// The technique of `config` that this game gives nothing to work on, as its experiment
    /// key and the reason: quiescence search resolves captures (chess and checkers have
    /// them); null-move pruning needs a null move, and check extensions and quiescence
    /// checks a check (chess alone has both here); the `parity` ordering and the endgame
    /// solver work on othello's empty regions ([`Game::region_parity`],
    /// [`Game::solve_endgame`]), the `refined_mobility` ordering on othello's finer measure
    /// of mobility ([`Game::refined_mobility`]), and the `threats` ordering counts the
    /// winning spots of connect four and tic-tac-toe ([`Game::winning_spots_after`]). The
    /// immediate-win check, anticipation and a score grain need wins and losses, which
    /// othello (disc counts) and random trees (leaf values) never end in. Such a
    /// technique would run and change nothing but the labels (`refined_mobility` nothing but
    /// fastest-first's), so it is refused rather than reported as measured.
    #[must_use]
    pub fn idle_technique(self, config: &SearchConfig) -> Option<(&'static str, String)> {
        let captures = matches!(self, Self::Chess | Self::Checkers);
        let checks = self == Self::Chess;
        let wins = !matches!(self, Self::Othello | Self::RandomTree);
        let q = config.quiescence.as_ref();
        let idle = [
            (
                "quiescence",
                q.is_some() && !captures,
                "no captures to resolve",
            ),
            (
                "delta_margin",
                q.is_some_and(|q| q.delta.is_some()) && !captures,
                "no captures to resolve",
            ),
            (
                "quiescence_tt",
                q.is_some_and(|q| q.tt) && !captures,
                "no captures to resolve",
            ),
            (
                "quiescence_checks",
                q.is_some_and(|q| q.checks) && !checks,
                "no checks",
            ),
            (
                "null_move",
                config.null_move.is_some() && !checks,
                "no null move",
            ),
            (
                "check_extension",
                config.extensions.check > 0 && !checks,
                "no checks",
            ),
            (
                "parity",
                config.ordering.parity && self != Self::Othello,
                "no regions of empty squares to order by parity",
            ),
            (
                "refined_mobility",
                config.ordering.refined_mobility && self != Self::Othello,
                "no measure of mobility finer than fastest-first's count of moves",
            ),
            (
                "endgame_solver",
                config.endgame_solver.is_some() && self != Self::Othello,
                "no dedicated endgame solver",
            ),
            (
                "threats",
                config.ordering.threats && !matches!(self, Self::Connect4 | Self::Tictactoe),
                "no winning spots to count",
            ),
            (
                "win_check",
                config.solve.win_check && !wins,
                "no wins to check for (its games end in scores)",
            ),
            (
                "anticipate",
                config.solve.anticipate && !wins,
                "no losses to anticipate (its games end in scores)",
            ),
            (
                "score_grain",
                config.solve.score_grain > 1 && !wins,
                "no wins or losses whose distance a grain could round (its games end in scores)",
            ),
        ];
        idle.into_iter()
            .find(|(_, idle, _)| *idle)
            .map(|(key, _, why)| (key, format!("{self} has {why}")))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Tictactoe => "tictactoe",
            Self::Connect4 => "connect4",
            Self::RandomTree => "random_tree",
            Self::Chess => "chess",
            Self::Checkers => "checkers",
            Self::Othello => "othello",
            Self::ChanceTree => "chance_tree",
            Self::Backgammon => "backgammon",
        })
    }
}

/// A game and the positions to search in it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    /// `tictactoe`, `connect4`, `random_tree`, `chess`, `checkers`, `othello`, `chance_tree`
    /// or `backgammon`.
    pub game: Spanned<GameKind>,
    /// Positions in the game's notation (`start`, or moves).
    pub positions: Option<Spanned<Vec<Spanned<String>>>>,
    /// A test-set file, relative to the experiment file: `<position> [<known score>]` a line.
    pub file: Option<Spanned<String>>,
    /// Only the first `take` positions of `file`.
    pub take: Option<Spanned<usize>>,
    /// Random trees: branching factor.
    pub b: Option<Spanned<Sweep<u32>>>,
    /// Random trees: height.
    pub d: Option<Spanned<Sweep<u32>>>,
    /// Random trees: `iid` (default) or `incremental`.
    pub model: Option<Spanned<Sweep<Model>>>,
    /// Random trees: how many trees of each shape (default 1).
    pub trees: Option<Spanned<u32>>,
    /// Chance trees: the outcomes of each chance node, a number of equally likely ones or
    /// `"dice"` (the 21 rolls of two dice).
    pub chance: Option<Spanned<Sweep<ChanceKind>>>,
    /// Chance trees: the smallest node value (default -1000).
    pub lo: Option<Spanned<i32>>,
    /// Chance trees: the largest node value (default 1000).
    pub hi: Option<Spanned<i32>>,
    /// Chess test sets with `ce +Mn`: play each mate out, the searcher keeping its table and
    /// playing both sides; solved only if every attacking search announces the right distance
    /// and mate falls on the n-th move.
    pub play_out: Option<Spanned<bool>>,
    /// Only these searchers (by label) run on this game; default: all of them.
    pub searchers: Option<Spanned<Vec<Spanned<String>>>>,
    /// Limits for this game's jobs.
    #[serde(default)]
    pub limits: LimitsSpec,
}

impl GameSpec {
    /// Whether the mates of this game's test set are played out ([`GameSpec::play_out`]).
    pub fn plays_out(&self) -> bool {
        self.play_out.as_ref().is_some_and(|p| *p.get_ref())
    }
}

/// A labelled search configuration.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearcherSpec {
    /// The name in the `searcher` column.
    pub label: Spanned<String>,
    /// `minimax`, `alphabeta`, `lazy_smp`, `ybw`, `expectiminimax`, `star1`, `star2`, `uct`,
    /// `flat_monte_carlo`, `root_parallel`, `tree_parallel` or `tree_parallel_locked`
    /// (EXPERIMENTS.md); required, except for an arena's external engine.
    pub algorithm: Option<Sweep<AlgorithmSetting>>,
    /// Arena files only: an external UCI engine instead of a plylab search
    /// (`{ cmd = "stockfish", args = [...], options = { Threads = 1 } }`), read by
    /// `crate::arena`.
    pub engine: Option<Spanned<toml::Value>>,
    /// Arena files only: this player's time control, `"seconds+increment"`, instead of the
    /// match's.
    pub tc: Option<Spanned<String>>,
    /// Monte Carlo searches: the UCT exploration constant (default √2).
    pub exploration: Option<Spanned<Sweep<f64>>>,
    /// Monte Carlo searches: end each playout after this many plies with the evaluator
    /// (default: play to the end).
    pub playout_cutoff: Option<Spanned<Sweep<u32>>>,
    /// `tree_parallel` only: plies below the root whose statistics each thread holds back
    /// (default 0: every node written on every iteration).
    pub hold_depth: Option<Spanned<Sweep<u32>>>,
    /// `tree_parallel` only: playouts between two publications of the held-back statistics
    /// (default 512).
    pub hold_playouts: Option<Spanned<Sweep<u32>>>,
    /// Monte Carlo tree searches: playouts through a node before it expands (default 1).
    pub expand_visits: Option<Spanned<Sweep<u32>>>,
    /// Monte Carlo tree searches: the most MiB the tree may take (default: no cap but the
    /// memory the machine can spare).
    pub tree_mb: Option<Spanned<Sweep<u32>>>,
    /// Transposition table size in MiB (0 = none, at most [`MAX_TT_MB`]).
    pub tt_mb: Option<Spanned<Sweep<usize>>>,
    /// Iterative deepening (default true).
    pub iterative: Option<Sweep<bool>>,
    /// Move-ordering switches.
    #[serde(default)]
    pub ordering: OrderingSpec,
    /// Random trees only: order moves by the true values (replaces the other switches there).
    pub oracle: Option<Spanned<Sweep<OracleOrder>>>,
    /// Chess: `material`, `shannon` or `pst` (default); backgammon: `pubeval` (default) or
    /// `race`; either, and connect four, checkers and othello: `linear:<weights file>` of
    /// the game. Any other is refused (`check_eval`).
    pub eval: Option<Spanned<Sweep<EvalSetting>>>,
    /// Quiescence search: "off" (default), "unlimited" or its deepest ply.
    pub quiescence: Option<Sweep<QuiescenceSetting>>,
    /// Also search checking moves in the first quiescence ply.
    pub quiescence_checks: Option<Sweep<bool>>,
    /// Delta pruning margin in quiescence, in the evaluator's units (absent: off).
    pub delta_margin: Option<Spanned<Sweep<i32>>>,
    /// Quiescence nodes use the transposition table (absent: off).
    pub quiescence_tt: Option<Sweep<bool>>,
    /// Null-move pruning: "off" (default), "adaptive" or R.
    pub null_move: Option<Sweep<NullMoveSetting>>,
    /// Verify null-move fail-highs with a reduced search.
    pub null_verify: Option<Sweep<bool>>,
    /// Check extension in 1/24 ply (0-23; default 0).
    pub check_extension: Option<Spanned<Sweep<i32>>>,
    /// Principal variation search.
    pub pvs: Option<Sweep<bool>>,
    /// Enhanced transposition cutoff: children looked up in the table before the search.
    pub etc: Option<Sweep<bool>>,
    /// Aspiration window half-width (0 or absent: full window).
    pub aspiration: Option<Spanned<Sweep<i32>>>,
    /// Re-base decisive table scores by ply (default true).
    pub tt_mate_adjust: Option<Sweep<bool>>,
    /// Keep fractional depths in the table to half a ply (default false).
    pub tt_fractional: Option<Sweep<bool>>,
    /// The game's dedicated exact solver for positions this near the end (empties in
    /// othello), where the search reaches the end; absent or 0: off.
    pub endgame_solver: Option<Spanned<Sweep<u32>>>,
    /// Search threads (lazy_smp, ybw, root_parallel, tree_parallel and
    /// tree_parallel_locked; default 1).
    pub threads: Option<Spanned<Sweep<usize>>>,
    /// Young Brothers Wait: the fewest plies from the horizon at which a node may split
    /// (1-64, default 4).
    pub split_plies: Option<Spanned<Sweep<u32>>>,
    /// Lazy SMP: the depths the helpers search, `"alternate"` (default) or `"same"`.
    pub helper_depths: Option<Spanned<Sweep<crate::search::HelperDepths>>>,
    /// Lazy SMP: the depths the main thread searches when it has helpers, `"every"`
    /// (default) or `"alternate"`.
    pub main_depths: Option<Spanned<Sweep<crate::search::MainDepths>>>,
    /// Chess or checkers, alpha-beta: an endgame database file (`plylab tablebase build`),
    /// or a directory of `*.plytb` files, relative to the experiment file, consulted at every
    /// node below the root.
    pub tablebase: Option<Spanned<String>>,
    /// Secondary search: verify the chosen root move this many plies deeper (0: off).
    pub secondary: Option<Spanned<Sweep<u32>>>,
    /// Solver switches (Pons's connect-four ladder, `crate::search::solve`): score a node
    /// whose side to move wins at once without expanding it.
    pub win_check: Option<Sweep<bool>>,
    /// Narrow the window to the scores still possible and by the table's bounds.
    pub score_window: Option<Sweep<bool>>,
    /// Count decisive scores in units of this many plies of the game (1-16; 2: Pons's).
    pub score_grain: Option<Spanned<Sweep<u32>>>,
    /// Find the root value by null-window searches on the score.
    pub mtd: Option<Sweep<bool>>,
    /// Generate only moves that do not lose at once.
    pub anticipate: Option<Sweep<bool>>,
    /// The weak solver: root window (-1, 1), only the result's sign is exact.
    pub weak: Option<Sweep<bool>>,
    /// Keep lower bounds beside upper bounds in the table (default true).
    pub tt_lower_bounds: Option<Sweep<bool>>,
    /// The compact table with partial keys (Pons's part 11; default false).
    pub tt_compact: Option<Sweep<bool>>,
    /// Secondary search: how far the deeper value may fall and still pass (default 0).
    pub secondary_margin: Option<Spanned<Sweep<i32>>>,
    /// Arena files: a chess Polyglot opening book (.bin) or a connect-four book (`plylab
    /// book build connect4`), played before searching.
    pub book: Option<Spanned<String>>,
    /// How a book move is chosen: `best` (default) or `weighted` (seeded).
    pub book_choice: Option<Spanned<crate::knowledge::book::BookChoice>>,
    /// Run this searcher's jobs alone on the machine (for timing), after the others.
    #[serde(default)]
    pub exclusive: bool,
    /// Limits for this searcher's jobs.
    #[serde(default)]
    pub limits: LimitsSpec,
}

/// Move-ordering switches, each a bool or a sweep of bools.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderingSpec {
    /// The evaluator's static hint.
    pub hint: Option<Sweep<bool>>,
    /// The table's move first.
    pub tt_move: Option<Sweep<bool>>,
    /// Killer moves.
    pub killers: Option<Sweep<bool>>,
    /// History heuristic.
    pub history: Option<Sweep<bool>>,
    /// Seeded shuffle.
    pub shuffle: Option<Sweep<bool>>,
    /// Fastest-first: fewest opponent replies first.
    pub fastest_first: Option<Sweep<bool>>,
    /// Refined mobility: fastest-first by the game's finer measure (othello: Edax's).
    pub refined_mobility: Option<Sweep<bool>>,
    /// Parity: moves into odd regions first (othello's quadrants).
    pub parity: Option<Sweep<bool>>,
    /// Threats: moves creating the most winning cells first (Pons, part 10).
    pub threats: Option<Sweep<bool>>,
}

/// A published figure: mean `metric` of `searcher` over the positions of `set`.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceSpec {
    /// The searcher label it compares with.
    pub searcher: String,
    /// The position set (a file's name such as `Test_L3_R1`).
    pub set: String,
    /// What is compared: `nodes` (mean total nodes per position, all iterations).
    pub metric: String,
    /// The published value.
    pub value: f64,
    /// Who published it, and where.
    pub source: String,
}

/// A position of one of the games, ready to search.
#[derive(Clone, Debug)]
pub enum GamePosition {
    /// Tic-tac-toe.
    TicTacToe(TicTacToe),
    /// Connect four.
    Connect4(Connect4),
    /// A synthetic tree's root.
    RandomTree(RandomTree),
    /// Chess.
    Chess(Chess),
    /// Checkers (English draughts).
    Checkers(Checkers),
    /// Othello.
    Othello(Othello),
    /// A synthetic tree with chance layers.
    ChanceTree(ChanceTree),
    /// Backgammon.
    Backgammon(Backgammon),
}

impl GamePosition {
    /// The game's name.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            Self::TicTacToe(_) => GameKind::Tictactoe,
            Self::Connect4(_) => GameKind::Connect4,
            Self::RandomTree(_) => GameKind::RandomTree,
            Self::Chess(_) => GameKind::Chess,
            Self::Checkers(_) => GameKind::Checkers,
            Self::Othello(_) => GameKind::Othello,
            Self::ChanceTree(_) => GameKind::ChanceTree,
            Self::Backgammon(_) => GameKind::Backgammon,
        }
    }

    /// Reads a position of `kind` from text. An empty text is refused for every game
    /// (some games' own readers take it for the start, and it would label rows with
    /// nothing): the start is `start`.
    pub fn parse(kind: GameKind, text: &str) -> Result<Self, ParseError> {
        if text.trim().is_empty() {
            return Err(ParseError::new(match kind {
                GameKind::RandomTree => "an empty position: name the tree (`b=4,d=8,seed=1`)",
                GameKind::ChanceTree => "an empty position: name the tree (`b=3,d=5,chance=dice`)",
                _ => "an empty position: write `start` for the start position",
            }));
        }
        Ok(match kind {
            GameKind::Tictactoe => Self::TicTacToe(TicTacToe::parse_position(text)?),
            GameKind::Connect4 => Self::Connect4(Connect4::parse_position(text)?),
            GameKind::RandomTree => Self::RandomTree(RandomTree::parse_position(text)?),
            GameKind::Chess => Self::Chess(Chess::parse_position(text)?),
            GameKind::Checkers => Self::Checkers(Checkers::parse_position(text)?),
            GameKind::Othello => Self::Othello(Othello::parse_position(text)?),
            GameKind::ChanceTree => Self::ChanceTree(ChanceTree::parse_position(text)?),
            GameKind::Backgammon => Self::Backgammon(Backgammon::parse_position(text)?),
        })
    }

    /// True if the game is over in this position (no move to play from it).
    #[must_use]
    pub fn is_over(&self) -> bool {
        let status = match self {
            Self::TicTacToe(p) => p.status(),
            Self::Connect4(p) => p.status(),
            Self::RandomTree(p) => p.status(),
            Self::Chess(p) => p.status(),
            Self::Checkers(p) => p.status(),
            Self::Othello(p) => p.status(),
            Self::ChanceTree(p) => p.status(),
            Self::Backgammon(p) => p.status(),
        };
        status != Status::Ongoing
    }

    /// True if chance moves next here (a roll still to be drawn), not a player.
    #[must_use]
    pub fn is_chance(&self) -> bool {
        match self {
            Self::TicTacToe(p) => p.is_chance(),
            Self::Connect4(p) => p.is_chance(),
            Self::RandomTree(p) => p.is_chance(),
            Self::Chess(p) => p.is_chance(),
            Self::Checkers(p) => p.is_chance(),
            Self::Othello(p) => p.is_chance(),
            Self::ChanceTree(p) => p.is_chance(),
            Self::Backgammon(p) => p.is_chance(),
        }
    }
}

/// Why a Monte Carlo search cannot start from a chance node.
pub const MCTS_AT_CHANCE_ROOT: &str = "a Monte Carlo search chooses a player's move, and chance moves next here: \
     give a position where a player moves (backgammon: with its roll, as `start 31`)";

/// A position with its label, the set it came from and its known value, if any.
#[derive(Clone, Debug)]
pub struct PositionEntry {
    /// As written (or, for random trees, the parameters that rebuild the tree).
    pub label: String,
    /// `start`, `list`, a file's name, or `random_tree`.
    pub set: String,
    /// The position.
    pub position: GamePosition,
    /// The known answer from a test set.
    pub answer: Option<Answer>,
}

/// A searcher with every sweep resolved.
#[derive(Clone, Debug)]
pub struct SearcherVariant {
    /// The user's label.
    pub label: String,
    /// The swept assignments that made this variant (`tt_mb=16 ...`), empty if none.
    pub swept: String,
    /// The configuration.
    pub config: SearchConfig,
    /// The oracle order on random trees.
    pub oracle: Option<OracleOrder>,
    /// The chess evaluation.
    pub eval: EvalSetting,
    /// A Monte Carlo search instead of the alpha-beta family one in `config` (which then
    /// only gives the threads and the seed).
    pub mcts: Option<MctsAlgorithm>,
    /// The Monte Carlo settings (used when `mcts` is set).
    pub mcts_config: MctsConfig,
    /// Runs alone.
    pub exclusive: bool,
    /// Endgame databases (and other knowledge) consulted beside the search.
    pub knowledge: crate::knowledge::Knowledge,
}

impl SearcherVariant {
    /// A searcher labelled `label` running `config`, with nothing swept, no oracle, the
    /// default chess evaluation, and not exclusive.
    #[must_use]
    pub fn new(label: impl Into<String>, config: SearchConfig) -> Self {
        Self {
            label: label.into(),
            swept: String::new(),
            config,
            oracle: None,
            eval: EvalSetting::default(),
            mcts: None,
            mcts_config: MctsConfig::default(),
            exclusive: false,
            knowledge: crate::knowledge::Knowledge::default(),
        }
    }

    /// The configuration in one string, for the `params` column.
    #[must_use]
    pub fn params(&self) -> String {
        if self.mcts.is_some() {
            let m = &self.mcts_config;
            let mut s = format!("exploration={}", m.exploration);
            if let Some(cut) = m.playout_cutoff {
                s.push_str(&format!(" playout_cutoff={cut}"));
            }
            let default = MctsConfig::default();
            if m.expand_visits != default.expand_visits {
                s.push_str(&format!(" expand_visits={}", m.expand_visits));
            }
            if let Some(mb) = m.tree_mb {
                s.push_str(&format!(" tree_mb={mb}"));
            }
            let held = (m.hold_depth, m.hold_playouts);
            if self.mcts == Some(MctsAlgorithm::TreeParallel)
                && held != (default.hold_depth, default.hold_playouts)
            {
                s.push_str(&format!(
                    " hold_depth={} hold_playouts={}",
                    m.hold_depth, m.hold_playouts
                ));
            }
            return s;
        }
        let c = &self.config;
        let mut s = format!(
            "ordering={} tt_mb={} iterative={}",
            c.ordering.label(),
            c.tt_mb,
            c.iterative
        );
        if let Some(o) = self.oracle {
            s.push_str(&format!(" oracle={o}"));
        }
        if self.eval != EvalSetting::default() {
            s.push_str(&format!(" eval={}", self.eval));
        }
        s.push_str(&technique_label(c));
        s.push_str(&self.knowledge.label());
        s
    }

    /// The files this searcher reads besides the experiment file, as they are named there:
    /// linear weights, endgame databases (a file, or a directory of them: see
    /// [`input_fingerprints`]), an opening book.
    #[must_use]
    pub fn input_files(&self) -> Vec<String> {
        let mut files = Vec::new();
        if let EvalSetting::Linear(id) = self.eval {
            files.push(id.get().path.clone());
        }
        let knowledge = [
            self.knowledge.tablebase.as_ref().map(|(path, _)| path),
            self.knowledge.book.as_ref().map(|(path, _)| path),
        ];
        files.extend(
            knowledge
                .into_iter()
                .flatten()
                .map(|path| path.display().to_string()),
        );
        files
    }

    /// The name of this variant in the output: the label, followed by the swept values in
    /// brackets when the searcher sweeps (`nullmove[null_move=R2]`), so that charts and
    /// summaries keep variants apart.
    #[must_use]
    pub fn name(&self) -> String {
        if self.swept.is_empty() {
            self.label.clone()
        } else {
            format!("{}[{}]", self.label, self.swept)
        }
    }

    /// Appends swept assignments (those of the limits) to [`Self::swept`].
    pub fn add_swept(&mut self, swept: &[String]) {
        let all: Vec<&str> = [self.swept.as_str()]
            .into_iter()
            .chain(swept.iter().map(String::as_str))
            .filter(|s| !s.is_empty())
            .collect();
        self.swept = all.join(" ");
    }

    /// Whether the algorithm searches on several threads (lazy SMP, ybw, root- and
    /// tree-parallel Monte Carlo), so that `threads` means something to it.
    #[must_use]
    pub fn searches_in_parallel(&self) -> bool {
        self.mcts.map_or(
            matches!(
                self.config.algorithm,
                crate::search::Algorithm::LazySmp | crate::search::Algorithm::Ybw
            ),
            MctsAlgorithm::is_parallel,
        )
    }

    /// The algorithm's name, for the `algorithm` column.
    #[must_use]
    pub fn algorithm_name(&self) -> String {
        self.mcts
            .map_or_else(|| self.config.algorithm.to_string(), |m| m.to_string())
    }

    /// The configuration this searcher runs with on `position`. On random trees with an
    /// oracle, the oracle decides the whole order: it knows the true values, so the
    /// heuristics have nothing to add and would only disturb it.
    #[must_use]
    pub fn config_for(&self, position: &GamePosition) -> SearchConfig {
        let mut config = self.config.clone();
        if self.oracle.is_some() && matches!(position, GamePosition::RandomTree(_)) {
            config.ordering = crate::search::Ordering {
                hint: true,
                ..Default::default()
            };
        }
        config
    }

    /// How this searcher's evaluator is chosen, with `seed` for the oracle.
    #[must_use]
    pub fn eval_choice(&self, seed: u64) -> EvalChoice {
        EvalChoice {
            oracle: self.oracle,
            named: self.eval,
            seed,
        }
    }
}

/// The techniques a configuration turns on, for the `params` column (empty if none).
fn technique_label(c: &SearchConfig) -> String {
    let mut parts = Vec::new();
    if let Some(q) = c.quiescence {
        let depth = q.max_depth.map_or("unlimited".into(), |d| d.to_string());
        parts.push(format!("quiescence={depth}"));
        if q.checks {
            parts.push("quiescence_checks".into());
        }
        if let Some(m) = q.delta {
            parts.push(format!("delta_margin={m}"));
        }
        if q.tt {
            parts.push("quiescence_tt".into());
        }
    }
    if let Some(n) = c.null_move {
        let r = match n.reduction {
            crate::search::Reduction::Fixed(r) => format!("R{r}"),
            crate::search::Reduction::Adaptive => "adaptive".into(),
        };
        parts.push(format!(
            "null_move={r}{}",
            if n.verify { "+verify" } else { "" }
        ));
    }
    if c.extensions.check > 0 {
        parts.push(format!("check_extension={}", c.extensions.check));
    }
    if c.pvs {
        parts.push("pvs".into());
    }
    if c.etc {
        parts.push("etc".into());
    }
    if let Some(n) = c.endgame_solver {
        parts.push(format!("endgame_solver={n}"));
    }
    if let Some(w) = c.aspiration {
        parts.push(format!("aspiration={w}"));
    }
    if c.split_plies != crate::search::ybw::SPLIT_DEPTH {
        parts.push(format!("split_plies={}", c.split_plies));
    }
    if c.helper_depths == crate::search::HelperDepths::Same {
        parts.push("helper_depths=same".into());
    }
    if c.main_depths == crate::search::MainDepths::Alternate {
        parts.push("main_depths=alternate".into());
    }
    if !c.tt_mate_adjust {
        parts.push("tt_mate_adjust=false".into());
    }
    if c.tt_fractional {
        parts.push("tt_fractional".into());
    }
    parts.extend(c.solve.words());
    if let Some(s) = c.secondary {
        parts.push(format!(
            "secondary={} secondary_margin={}",
            s.plies, s.margin
        ));
    }
    parts.iter().map(|p| format!(" {p}")).collect()
}

/// One unit of work: a searcher on a position under limits.
#[derive(Clone, Debug)]
pub struct Job {
    /// Index in the plan; rows of the CSV are sorted by it.
    pub id: usize,
    /// Which game spec of the file this came from.
    pub game_index: usize,
    /// The position.
    pub position: PositionEntry,
    /// The searcher.
    pub searcher: SearcherVariant,
    /// The limits.
    pub limits: Limits,
    /// Repetition number, from 0.
    pub repetition: u32,
    /// Play the position out (see [`GameSpec::play_out`]).
    pub play_out: bool,
    /// The job this one is measured against for parallel speedup: the same searcher,
    /// position, limits and repetition with one thread (set on jobs with several threads
    /// when the file has that job).
    pub baseline: Option<usize>,
    /// The job's seed (the searcher's random choices), derived from the experiment seed, the
    /// position and the repetition: every searcher sees the same randomness on a position.
    pub seed: u64,
}

impl Job {
    /// What identifies a job across edits of its experiment file: its whole resolved
    /// configuration, not its number or the file's text.
    #[must_use]
    pub fn identity(&self) -> String {
        let s = &self.searcher;
        format!(
            "{}|{}|{}|{:?}|{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{}|{}|{}",
            self.position.position.kind(),
            self.position.set,
            self.position.label,
            self.position.answer.as_ref().map(ToString::to_string),
            s.name(),
            s.algorithm_name(),
            s.params(),
            s.config,
            s.oracle,
            s.eval,
            s.mcts,
            s.mcts_config,
            s.exclusive,
            self.limits,
            self.repetition,
            self.play_out,
            self.seed,
        )
    }

    /// Whether running the job again gives the same rows, timing columns aside: one thread
    /// and no time limit (a clock, or the interleaving of threads, makes the rest differ
    /// from run to run; every random choice is seeded).
    #[must_use]
    pub fn is_reproducible(&self) -> bool {
        self.searcher.config.threads == 1 && self.limits.time.is_none()
    }
}

/// A validated experiment: everything needed to run it.
#[derive(Debug)]
pub struct Plan {
    /// The experiment's name.
    pub name: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// The file's text, recorded in run.json.
    pub text: String,
    /// The experiment seed.
    pub seed: u64,
    /// Notes for summary.md.
    pub notes: String,
    /// The description.
    pub description: String,
    /// Published figures for summary.md.
    pub references: Vec<ReferenceSpec>,
    /// The jobs, in order.
    pub jobs: Vec<Job>,
    /// The files its searchers read, with their fingerprints ([`input_fingerprints`]).
    pub inputs: BTreeMap<String, String>,
}

/// The files that `variants` read ([`SearcherVariant::input_files`]), each with its
/// [`crate::input::fingerprint`], in name order. A directory (a `tablebase` of several
/// databases) stands for its `*.plytb` files, each recorded with its own fingerprint, and is
/// recorded itself with a fingerprint of their names and fingerprints: a database added,
/// removed or changed changes it, and a searcher names the directory, not its files.
///
/// # Errors
/// [`InputError`], naming the file, when one cannot be read. Reading the plan has just read
/// every one of them, so it was removed or made unreadable since; it is refused rather than
/// left out, for a run that left it out could not tell on `--resume` whether it changed.
pub fn input_fingerprints<'a>(
    variants: impl IntoIterator<Item = &'a SearcherVariant>,
) -> Result<BTreeMap<String, String>, InputError> {
    let mut files: Vec<String> = variants
        .into_iter()
        .flat_map(SearcherVariant::input_files)
        .collect();
    files.sort_unstable();
    files.dedup();
    let mut prints = BTreeMap::new();
    for file in &files {
        prints.extend(fingerprints_of(file)?);
    }
    Ok(prints)
}

/// `file` with its fingerprint; for a directory, each of its `*.plytb` files with theirs
/// and then the directory with the fingerprint of its listing (see [`input_fingerprints`]).
fn fingerprints_of(file: &str) -> Result<Vec<(String, String)>, InputError> {
    let path = Path::new(file);
    let unreadable = |at: &Path, why: String| InputError {
        file: at.display().to_string(),
        why,
    };
    let print =
        |at: &Path| crate::input::fingerprint(at).map_err(|e| unreadable(at, e.to_string()));
    if !path.is_dir() {
        return Ok(vec![(file.to_owned(), print(path)?)]);
    }
    let databases =
        crate::knowledge::tablebase::files_at(path).map_err(|e| unreadable(path, e.to_string()))?;
    let mut prints = Vec::with_capacity(databases.len() + 1);
    let mut listing = String::new();
    for database in &databases {
        let p = print(database)?;
        let name = database.file_name().unwrap_or_default().to_string_lossy();
        listing.push_str(&format!("{name} {p}\n"));
        prints.push((database.display().to_string(), p));
    }
    prints.push((
        file.to_owned(),
        crate::input::fingerprint_bytes(listing.as_bytes()),
    ));
    Ok(prints)
}

/// A file that a plan's searchers read and that could not be read again to record its
/// fingerprint ([`input_fingerprints`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read {file} again to record its fingerprint in run.json (it was read a moment \
     before: removed or changed since?): {why}"
)]
pub struct InputError {
    /// The file (or directory), as the run would record it.
    pub file: String,
    /// Why it could not be read.
    pub why: String,
}

impl InputError {
    /// As an error of the experiment (or arena) file `file`, which names the input: exit
    /// code 2, as for a file the plan could not read.
    #[must_use]
    pub fn in_file(self, file: &Path) -> SpecError {
        SpecError {
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            key: None,
            message: self.to_string(),
        }
    }
}

/// Positions kept per game by [`Plan::quick`].
pub const QUICK_POSITIONS: usize = 2;
/// The node budget of every job in [`Plan::quick`].
pub const QUICK_NODES: u64 = 200_000;

impl Plan {
    /// A reduced plan to check an experiment end to end in seconds: the first
    /// [`QUICK_POSITIONS`] positions of each game and at most [`QUICK_NODES`] nodes per job.
    /// Its figures are not the experiment's.
    #[must_use]
    pub fn quick(mut self) -> Self {
        let mut kept: Vec<(usize, String)> = Vec::new();
        self.jobs.retain(|job| {
            let key = (job.game_index, job.position.label.clone());
            if kept.contains(&key) {
                return true;
            }
            let of_game = kept.iter().filter(|(g, _)| *g == job.game_index).count();
            if of_game < QUICK_POSITIONS {
                kept.push(key);
                return true;
            }
            false
        });
        for (id, job) in self.jobs.iter_mut().enumerate() {
            job.id = id;
            job.limits.nodes = Some(job.limits.nodes.map_or(QUICK_NODES, |n| n.min(QUICK_NODES)));
        }
        // The ids changed (and so did the limits): link the twins again.
        link_baselines(&mut self.jobs);
        self
    }
}

/// An error in an experiment file, located.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SpecError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The key at fault, when one is known.
    pub key: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if let Some(key) = &self.key {
            write!(f, ": key `{key}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Locates errors in one file's text.
pub(crate) struct Source<'a> {
    /// The file, as named in messages.
    pub(crate) file: &'a Path,
    /// Its text, which spans index.
    pub(crate) text: &'a str,
}

impl Source<'_> {
    /// An error at byte `span` of the text, naming `key` (or the key assigned on that line).
    pub(crate) fn error(
        &self,
        span: std::ops::Range<usize>,
        key: Option<&str>,
        message: impl Into<String>,
    ) -> SpecError {
        let start = span.start.min(self.text.len());
        let before = &self.text[..start];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        let key = key
            .map(str::to_owned)
            .or_else(|| super::diagnose::key_before(self.text, start))
            .or_else(|| self.key_starting_at(start))
            .or_else(|| self.key_on_line(start));
        SpecError {
            file: self.file.to_path_buf(),
            line,
            column,
            key,
            message: message.into(),
        }
    }

    /// The key that starts at byte `at` (`hnt` of `hnt = true`), inside an inline table
    /// named with the line's key (`ordering = { hint = true, hnt = true }`: `ordering.hnt`).
    fn key_starting_at(&self, at: usize) -> Option<String> {
        let rest = self.text.get(at..)?;
        let name: &str = &rest[..rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len())];
        let after = rest[name.len()..].trim_start_matches([' ', '\t']);
        if name.is_empty() || !after.starts_with('=') || after.starts_with("==") {
            return None;
        }
        Some(match self.key_on_line(at) {
            Some(outer) if outer != name => format!("{outer}.{name}"),
            _ => name.to_owned(),
        })
    }

    /// The key assigned on the line containing byte `at`, or the table header there.
    fn key_on_line(&self, at: usize) -> Option<String> {
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = self.text[line_start..].lines().next().unwrap_or("").trim();
        if let Some(header) = line.strip_prefix('[') {
            return Some(
                header
                    .trim_matches(|c| c == '[' || c == ']')
                    .trim()
                    .to_owned(),
            );
        }
        let (key, _) = line.split_once('=')?;
        let key = key.trim();
        (!key.is_empty() && !key.starts_with('#')).then(|| key.to_owned())
    }

    /// An error at `key` of the entry (a `[[searchers]]` table) holding the value `within`
    /// (its label): for the keys whose values carry no position of their own. Where the
    /// entry leaves `key` out (a missing key, a default), at `within`.
    pub(crate) fn at_key_of<T>(
        &self,
        within: &Spanned<T>,
        key: &str,
        message: impl Into<String>,
    ) -> SpecError {
        let leaf = key.rsplit('.').next().unwrap_or(key);
        let span = super::diagnose::key_in_entry(self.text, within.span().start, leaf)
            .map_or_else(|| within.span(), |at| at..at + leaf.len());
        self.error(span, Some(key), message)
    }

    /// An error at the value `spanned`, naming `key`.
    pub(crate) fn at<T>(
        &self,
        spanned: &Spanned<T>,
        key: &str,
        message: impl Into<String>,
    ) -> SpecError {
        self.error(spanned.span(), Some(key), message)
    }
}

/// Reads and validates an experiment file.
pub fn load(file: &Path) -> Result<Plan, SpecError> {
    parse(file, &read_file(file)?)
}

/// The text of an experiment file (an error without a line when it cannot be read, with
/// one where it is not UTF-8).
pub(crate) fn read_file(file: &Path) -> Result<String, SpecError> {
    let error = |line, column, message| SpecError {
        file: file.to_path_buf(),
        line,
        column,
        key: None,
        message,
    };
    let bytes = crate::input::read(file, crate::input::Cap::TEXT)
        .map_err(|e| error(0, 0, format!("cannot read the experiment file: {e}")))?;
    crate::input::utf8(bytes).map_err(|e| error(e.line, e.column, e.to_string()))
}

/// The TOML document of `src`, as `T` (syntax, types and unknown keys located).
pub(crate) fn document<T: serde::de::DeserializeOwned>(src: &Source) -> Result<T, SpecError> {
    if let Some((span, key)) = super::diagnose::list_for_table(src.text) {
        let why = format!(
            "a list where a table is expected: write it with names, e.g. {} (a list would be \
             read by position)",
            super::diagnose::table_example(&key)
        );
        return Err(src.error(span, Some(&key), why));
    }
    toml::from_str(src.text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let value = src.text.get(span.start..).unwrap_or_default();
        let message = super::diagnose::user_words(e.message(), value);
        src.error(span, None, message)
    })
}

/// Validates an experiment given as text; `file` locates errors and relative paths.
pub fn parse(file: &Path, text: &str) -> Result<Plan, SpecError> {
    let src = Source { file, text };
    let doc: ExperimentFile = document(&src)?;
    check_name(&src, &doc.name)?;
    if *doc.repetitions.get_ref() == 0 {
        return Err(src.at(&doc.repetitions, "repetitions", "must be at least 1"));
    }
    if doc.games.get_ref().is_empty() {
        return Err(src.at(&doc.games, "games", "the list of games is empty"));
    }
    if doc.searchers.get_ref().is_empty() {
        return Err(src.at(
            &doc.searchers,
            "searchers",
            "the list of searchers is empty",
        ));
    }
    check_limits(&src, &doc.limits)?;
    let searchers = searcher_variants(&src, &doc)?;
    let base_dir = file.parent().unwrap_or(Path::new("."));
    let mut jobs = Vec::new();
    for (game_index, game) in doc.games.get_ref().iter().enumerate() {
        check_limits(&src, &game.limits)?;
        let mut positions = positions(&src, game, base_dir, doc.seed)?;
        if game.plays_out() {
            // Played-out positions are judged differently: keep them apart in summaries.
            positions
                .iter_mut()
                .for_each(|p| p.set = format!("{} played out", p.set));
        }
        let chosen = searchers_for(&src, game, &searchers)?;
        check_knowledge_game(&src, &doc, game, &chosen)?;
        check_game_evals(&src, &doc, game, &chosen)?;
        check_chance_searchers(&src, game, &chosen)?;
        check_idle_techniques(&src, &doc, game, &chosen)?;
        let per_position: Option<usize> = chosen.iter().try_fold(0usize, |sum, (_, limits)| {
            let sweeps = limit_variants([limits, &game.limits, &doc.limits]).len();
            // A product past MAX_VARIANTS was cut short: its true size is unknown.
            (sweeps <= super::sweep::MAX_VARIANTS).then_some(())?;
            sum.checked_add(sweeps)
        });
        let count = per_position
            .and_then(|n| n.checked_mul(positions.len()))
            .and_then(|n| n.checked_mul(*doc.repetitions.get_ref() as usize));
        let what = "positions × searcher variants × limit sweeps × repetitions";
        super::diagnose::check_job_count(&src, game.game.span(), "game", count, jobs.len(), what)?;
        let first_new = jobs.len();
        add_jobs(&mut jobs, &doc, game_index, game, &positions, &chosen);
        let kind = *game.game.get_ref();
        if jobs[first_new..]
            .iter()
            .any(|j| kind.search_never_ends(&j.limits))
        {
            let why = format!(
                "{kind} has no bound on its length: give a depth, nodes or time_ms limit (in [limits], the game or the searcher)"
            );
            return Err(src.at(&game.game, "game", why));
        }
        if let Some(job) = jobs[first_new..].iter().find(|j| {
            j.searcher.mcts.is_some() && j.limits.nodes.is_none() && j.limits.time.is_none()
        }) {
            let why = format!(
                "the Monte Carlo searcher `{}` needs a nodes (playouts) or time_ms limit: it has no depth",
                job.searcher.label
            );
            let searcher = doc
                .searchers
                .get_ref()
                .iter()
                .find(|s| *s.label.get_ref() == job.searcher.label);
            return Err(match searcher {
                Some(s) => src.at_key_of(&s.label, "limits", why),
                None => src.at(&game.game, "game", why),
            });
        }
        if let Some(job) = jobs[first_new..]
            .iter()
            .find(|j| j.searcher.mcts.is_some() && j.position.position.is_chance())
        {
            let why = format!(
                "position `{}` for `{}`: {MCTS_AT_CHANCE_ROOT}",
                job.position.label, job.searcher.label
            );
            return Err(src.at(&game.game, "game", why));
        }
    }
    link_baselines(&mut jobs);
    // Names first: a label that repeats another searcher's variant name is the likelier
    // mistake behind two identical jobs, and its message says so.
    super::diagnose::check_variant_names(&src, doc.searchers.get_ref(), &jobs)?;
    check_repeated_jobs(&src, &doc, &jobs)?;
    super::diagnose::check_references(&src, &doc.references, &jobs)?;
    Ok(Plan {
        name: doc.name.into_inner(),
        file: file.to_path_buf(),
        text: text.to_owned(),
        seed: doc.seed,
        notes: doc.notes,
        description: doc.description,
        references: doc.references,
        inputs: input_fingerprints(jobs.iter().map(|j| &j.searcher))
            .map_err(|e| e.in_file(file))?,
        jobs,
    })
}

/// Endgame databases are chess's and checkers': a searcher with one may not run on another
/// game, nor be a Monte Carlo search.
fn check_knowledge_game(
    src: &Source,
    doc: &ExperimentFile,
    game: &GameSpec,
    chosen: &[(SearcherVariant, LimitsSpec)],
) -> Result<(), SpecError> {
    let is_chess = matches!(game.game.get_ref(), GameKind::Chess | GameKind::Checkers);
    for (variant, _) in chosen {
        if variant.knowledge.tablebase.is_none() {
            continue;
        }
        let why = if !is_chess {
            "endgame databases are for chess and checkers; this searcher also runs on another game (name the searchers per game)".into()
        } else if variant.mcts.is_some()
            || variant.config.algorithm != crate::search::Algorithm::Alphabeta
        {
            "endgame databases are consulted by algorithm = \"alphabeta\" only (not minimax, lazy SMP or Monte Carlo searches)".into()
        } else if let Some(why) = database_mismatch(variant, *game.game.get_ref()) {
            why
        } else {
            continue;
        };
        let spec = doc
            .searchers
            .get_ref()
            .iter()
            .find(|s| s.label.get_ref() == &variant.label)
            .and_then(|s| s.tablebase.as_ref());
        if let Some(tb) = spec {
            return Err(src.at(tb, "tablebase", why));
        }
    }
    Ok(())
}

/// Why a variant's endgame databases answer nothing on `game`, a chess or checkers game:
/// every one is for the other game (a directory of both kinds serves either).
pub(crate) fn database_mismatch(v: &SearcherVariant, game: GameKind) -> Option<String> {
    let (_, tables) = v.knowledge.tablebase.as_ref()?;
    let (held, other) = match game {
        GameKind::Chess => (tables.has_chess(), GameKind::Checkers),
        GameKind::Checkers => (tables.has_checkers(), GameKind::Chess),
        _ => return None,
    };
    (!held).then(|| {
        let names = tables.names().join(", ");
        format!("{names}: a database for {other}, not {game}")
    })
}

/// The experiment's name must be usable as a directory name.
pub(crate) fn check_name(src: &Source, name: &Spanned<String>) -> Result<(), SpecError> {
    if name.get_ref().len() > MAX_NAME_LEN {
        let why = format!("at most {MAX_NAME_LEN} characters (it names the results directory)");
        return Err(src.at(name, "name", why));
    }
    let ok = !name.get_ref().is_empty()
        && name
            .get_ref()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(src.at(
            name,
            "name",
            "use letters, digits, `-` and `_` only (it names the results directory)",
        ))
    }
}

/// The longest name of an experiment, match or learning run: it names a directory (and a
/// weights file), and file systems refuse names past 255 bytes.
pub const MAX_NAME_LEN: usize = 100;

/// Every limit is at least 1; a depth at most [`MAX_DEPTH`].
pub(crate) fn check_limits(src: &Source, limits: &LimitsSpec) -> Result<(), SpecError> {
    let zero = |s: &Option<Spanned<Sweep<u64>>>, key| match s {
        Some(s) if s.get_ref().values().contains(&0) => Err(src.at(s, key, "must be at least 1")),
        _ => Ok(()),
    };
    if let Some(depth) = &limits.depth {
        let depths = depth.get_ref().values();
        if depths.contains(&0) {
            return Err(src.at(depth, "depth", "must be at least 1"));
        }
        if depths.iter().any(|&d| d > MAX_DEPTH) {
            return Err(src.at(depth, "depth", format!("must be at most {MAX_DEPTH} plies")));
        }
    }
    zero(&limits.nodes, "nodes")?;
    zero(&limits.time_ms, "time_ms")
}

fn searcher_variants(
    src: &Source,
    doc: &ExperimentFile,
) -> Result<Vec<(SearcherVariant, LimitsSpec)>, SpecError> {
    let specs = doc.searchers.get_ref();
    check_labels(src, specs)?;
    let mut out = Vec::new();
    for spec in specs {
        let arena_only = [
            ("engine", spec.engine.as_ref().map(Spanned::span)),
            ("tc", spec.tc.as_ref().map(Spanned::span)),
            ("book", spec.book.as_ref().map(Spanned::span)),
            ("book_choice", spec.book_choice.as_ref().map(Spanned::span)),
        ];
        if let Some((key, Some(span))) = arena_only.iter().find(|(_, s)| s.is_some()) {
            let why = format!("`{key}` is for arena files (with a [match] table)");
            return Err(src.error(span.clone(), Some(key), why));
        }
        let algorithm = required_algorithm(src, spec)?;
        out.extend(
            variants_of(src, spec, algorithm)?
                .into_iter()
                .map(|v| (v, spec.limits.clone())),
        );
    }
    Ok(out)
}

/// The characters of a searcher's label: those of a results directory's name, and the
/// `+`, `.`, `=` and brackets that labels of techniques and sweep variants use; nothing
/// that breaks a Markdown table (`|`, a newline) or a quoted field (`"`).
fn label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_+.=[]".contains(c)
}

/// The longest label: longer ones only crowd the charts' legends and the tables (the
/// longest shipped is 29 characters), and one of 50,000 characters kept the charts of a
/// one-job experiment drawing for five minutes.
pub const MAX_LABEL_LEN: usize = 64;

/// Every searcher has a non-empty label of its own, of at most [`MAX_LABEL_LEN`]
/// [`label_char`]s, and valid limits.
pub(crate) fn check_labels(src: &Source, specs: &[SearcherSpec]) -> Result<(), SpecError> {
    let mut labels = std::collections::HashSet::new();
    for spec in specs {
        let label = spec.label.get_ref();
        if label.is_empty() {
            return Err(src.at(&spec.label, "label", "a searcher needs a label"));
        }
        if label.len() > MAX_LABEL_LEN {
            let why = format!(
                "{} characters: a label has at most {MAX_LABEL_LEN} (it names rows, legends \
                 and table cells)",
                label.len()
            );
            return Err(src.at(&spec.label, "label", why));
        }
        if let Some(c) = label.chars().find(|&c| !label_char(c)) {
            let why = format!(
                "{c:?} is not allowed in a label: use letters, digits and `-_+.=[]` only \
                 (labels head rows and table cells in the CSVs and summary.md)"
            );
            return Err(src.at(&spec.label, "label", why));
        }
        if !labels.insert(label.clone()) {
            return Err(src.at(
                &spec.label,
                "label",
                format!("`{label}` labels two searchers"),
            ));
        }
        check_limits(src, &spec.limits)?;
    }
    Ok(())
}

/// The searcher's `algorithm`, which a plylab search cannot do without.
pub(crate) fn required_algorithm<'a>(
    src: &Source,
    spec: &'a SearcherSpec,
) -> Result<&'a Sweep<AlgorithmSetting>, SpecError> {
    spec.algorithm.as_ref().ok_or_else(|| {
        src.at_key_of(
            &spec.label,
            "algorithm",
            format!("searcher `{}` needs an `algorithm`", spec.label.get_ref()),
        )
    })
}

/// The variants of one searcher (every sweep resolved and checked), without limits.
pub(crate) fn variants_of(
    src: &Source,
    spec: &SearcherSpec,
    algorithm: &Sweep<AlgorithmSetting>,
) -> Result<Vec<SearcherVariant>, SpecError> {
    let base = SearcherVariant {
        exclusive: spec.exclusive,
        knowledge: knowledge_of(src, spec)?,
        ..SearcherVariant::new(spec.label.get_ref().clone(), SearchConfig::default())
    };
    let o = &spec.ordering;
    let variants = Variants::new(base)
        .across("algorithm", Some(algorithm), |v, a| match a.resolve() {
            Ok(algorithm) => v.config.algorithm = algorithm,
            Err(mcts) => v.mcts = Some(mcts),
        })
        .across(
            "tt_mb",
            spec.tt_mb.as_ref().map(Spanned::get_ref),
            |v, mb| v.config.tt_mb = mb,
        )
        .across("iterative", spec.iterative.as_ref(), |v, i| {
            v.config.iterative = i
        })
        .across("hint", o.hint.as_ref(), |v, b| v.config.ordering.hint = b)
        .across("tt_move", o.tt_move.as_ref(), |v, b| {
            v.config.ordering.tt_move = b
        })
        .across("killers", o.killers.as_ref(), |v, b| {
            v.config.ordering.killers = b
        })
        .across("history", o.history.as_ref(), |v, b| {
            v.config.ordering.history = b
        })
        .across("shuffle", o.shuffle.as_ref(), |v, b| {
            v.config.ordering.shuffle = b
        })
        .across("fastest_first", o.fastest_first.as_ref(), |v, b| {
            v.config.ordering.fastest_first = b
        })
        .across("refined_mobility", o.refined_mobility.as_ref(), |v, b| {
            v.config.ordering.refined_mobility = b
        })
        .across("parity", o.parity.as_ref(), |v, b| {
            v.config.ordering.parity = b
        })
        .across("threats", o.threats.as_ref(), |v, b| {
            v.config.ordering.threats = b
        })
        .across(
            "oracle",
            spec.oracle.as_ref().map(Spanned::get_ref),
            |v, o| v.oracle = Some(o),
        );
    let variants = technique_variants(spec, variants).items;
    if variants.len() > super::sweep::MAX_VARIANTS {
        let why = format!(
            "the sweeps of this searcher make more than {} variants",
            super::sweep::MAX_VARIANTS
        );
        return Err(src.at(&spec.label, "label", why));
    }
    let mut out: Vec<SearcherVariant> = Vec::new();
    for (mut variant, mut swept) in variants {
        check_variant(src, spec, &variant)?;
        if variant.config.threads == 1 {
            drop_thread_only_sweeps(&mut variant, &mut swept);
        }
        variant.swept = swept.join(" ");
        let twice = |v: &SearcherVariant| v.config.threads == 1 && v.swept == variant.swept;
        if variant.config.threads == 1 && out.iter().any(twice) {
            continue;
        }
        out.push(variant);
    }
    Ok(out)
}

/// Settings that only the threads beside the first use: lazy SMP's `main_depths` and
/// `helper_depths`, Young Brothers Wait's `split_plies`, the lock-free tree's `hold_depth`
/// and `hold_playouts`. One thread searches the same whatever their values (src/search/smp.rs,
/// ybw.rs, mcts/lockfree.rs), so a sweep of them makes one one-thread variant, not one per
/// value, and every variant with more threads is measured against it.
const THREAD_ONLY: [&str; 5] = [
    "main_depths",
    "helper_depths",
    "split_plies",
    "hold_depth",
    "hold_playouts",
];

/// Whether a swept assignment (`name=value`) sets one of [`THREAD_ONLY`].
fn is_thread_only(assignment: &str) -> bool {
    assignment
        .split_once('=')
        .is_some_and(|(name, _)| THREAD_ONLY.contains(&name))
}

/// Resets the thread-only settings `swept` sweeps on a one-thread `variant` to their
/// defaults and takes them out of `swept`.
fn drop_thread_only_sweeps(variant: &mut SearcherVariant, swept: &mut Vec<String>) {
    let (config, mcts) = (SearchConfig::default(), MctsConfig::default());
    for assignment in swept.iter().filter(|a| is_thread_only(a)) {
        match assignment.split_once('=').map_or("", |(name, _)| name) {
            "main_depths" => variant.config.main_depths = config.main_depths,
            "helper_depths" => variant.config.helper_depths = config.helper_depths,
            "split_plies" => variant.config.split_plies = config.split_plies,
            "hold_depth" => variant.mcts_config.hold_depth = mcts.hold_depth,
            "hold_playouts" => variant.mcts_config.hold_playouts = mcts.hold_playouts,
            other => unreachable!("`{other}` is in THREAD_ONLY without a default here"),
        }
    }
    swept.retain(|a| !is_thread_only(a));
}

/// The knowledge files a searcher names, read and checked (relative to the experiment file).
fn knowledge_of(
    src: &Source,
    spec: &SearcherSpec,
) -> Result<crate::knowledge::Knowledge, SpecError> {
    let mut knowledge = crate::knowledge::Knowledge::default();
    if let Some(tb) = &spec.tablebase {
        let path = src
            .file
            .parent()
            .unwrap_or(Path::new("."))
            .join(tb.get_ref());
        let files = crate::knowledge::tablebase::files_at(&path).map_err(|e| {
            let build = "`plylab tablebase build GAME ENDING --out FILE` builds one (chess \
                         KQK, KRK, KPK or KBNK; checkers 1 to 4 pieces)";
            src.at(tb, "tablebase", format!("{e}; {build}"))
        })?;
        let tables = crate::knowledge::tablebase::Tablebases::load(&files)
            .map_err(|e| src.at(tb, "tablebase", e.to_string()))?;
        knowledge.tablebase = Some((path, std::sync::Arc::new(tables)));
    }
    if let Some(book) = &spec.book {
        let path = src
            .file
            .parent()
            .unwrap_or(Path::new("."))
            .join(book.get_ref());
        let read = crate::knowledge::book::Book::load(&path)
            .map_err(|e| src.at(book, "book", e.to_string()))?;
        knowledge.book = Some((path, std::sync::Arc::new(read)));
    }
    if let Some(choice) = &spec.book_choice {
        if spec.book.is_none() {
            return Err(src.at(choice, "book_choice", "`book_choice` needs a `book`"));
        }
        knowledge.book_choice = *choice.get_ref();
    }
    Ok(knowledge)
}

/// The searchers that run on `game`: those it names, or all.
fn searchers_for(
    src: &Source,
    game: &GameSpec,
    all: &[(SearcherVariant, LimitsSpec)],
) -> Result<Vec<(SearcherVariant, LimitsSpec)>, SpecError> {
    let Some(names) = &game.searchers else {
        return Ok(all.to_vec());
    };
    if names.get_ref().is_empty() {
        return Err(src.at(
            names,
            "searchers",
            "the list of searchers for this game is empty",
        ));
    }
    for name in names.get_ref() {
        if !all.iter().any(|(v, _)| &v.label == name.get_ref()) {
            return Err(src.at(
                name,
                "searchers",
                format!(
                    "no searcher is labelled `{}`{}",
                    name.get_ref(),
                    super::diagnose::suggestion(
                        name.get_ref(),
                        all.iter().map(|(v, _)| v.label.as_str())
                    )
                ),
            ));
        }
    }
    let wanted = |label: &String| names.get_ref().iter().any(|n| n.get_ref() == label);
    Ok(all
        .iter()
        .filter(|(v, _)| wanted(&v.label))
        .cloned()
        .collect())
}

/// Multiplies `variants` by the sweeps of the search techniques, group by group in the
/// order their keys are labelled. Modifiers of a technique (quiescence checks, delta margin,
/// null-move verification, the secondary search's margin) come after the technique.
fn technique_variants(
    spec: &SearcherSpec,
    variants: Variants<SearcherVariant>,
) -> Variants<SearcherVariant> {
    let variants = selectivity_variants(spec, variants);
    let variants = parallel_variants(spec, variants);
    let variants = table_and_solver_variants(spec, variants);
    let variants = secondary_variants(spec, variants);
    mcts_variants(spec, variants)
}

/// The search configuration a technique's sweep sets.
fn config_of(v: &mut SearcherVariant) -> &mut SearchConfig {
    &mut v.config
}

/// The evaluation and what shapes the tree: quiescence, null move, extensions, PVS,
/// enhanced transposition cutoffs, the endgame solver and aspiration windows.
fn selectivity_variants(
    spec: &SearcherSpec,
    variants: Variants<SearcherVariant>,
) -> Variants<SearcherVariant> {
    variants
        .across("eval", spec.eval.as_ref().map(Spanned::get_ref), |v, e| {
            v.eval = e
        })
        .across("quiescence", spec.quiescence.as_ref(), |v, q| {
            config_of(v).quiescence = q.config()
        })
        .across(
            "quiescence_checks",
            spec.quiescence_checks.as_ref(),
            |v, b| {
                if let Some(q) = &mut config_of(v).quiescence {
                    q.checks = b;
                }
            },
        )
        .across(
            "delta_margin",
            spec.delta_margin.as_ref().map(Spanned::get_ref),
            |v, m| {
                if let Some(q) = &mut config_of(v).quiescence {
                    q.delta = Some(m);
                }
            },
        )
        .across("quiescence_tt", spec.quiescence_tt.as_ref(), |v, b| {
            if let Some(q) = &mut config_of(v).quiescence {
                q.tt = b;
            }
        })
        .across("null_move", spec.null_move.as_ref(), |v, n| {
            config_of(v).null_move = n.config(false)
        })
        .across("null_verify", spec.null_verify.as_ref(), |v, b| {
            if let Some(n) = &mut config_of(v).null_move {
                n.verify = b;
            }
        })
        .across(
            "check_extension",
            spec.check_extension.as_ref().map(Spanned::get_ref),
            |v, e| {
                config_of(v).extensions.check = e;
            },
        )
        .across("pvs", spec.pvs.as_ref(), |v, b| config_of(v).pvs = b)
        .across("etc", spec.etc.as_ref(), |v, b| config_of(v).etc = b)
        .across(
            "endgame_solver",
            spec.endgame_solver.as_ref().map(Spanned::get_ref),
            |v, n| config_of(v).endgame_solver = (n > 0).then_some(n),
        )
        .across(
            "aspiration",
            spec.aspiration.as_ref().map(Spanned::get_ref),
            |v, w| {
                config_of(v).aspiration = (w > 0).then_some(w);
            },
        )
}

/// Threads and the parallel searches' own settings.
fn parallel_variants(
    spec: &SearcherSpec,
    variants: Variants<SearcherVariant>,
) -> Variants<SearcherVariant> {
    variants
        .across(
            "threads",
            spec.threads.as_ref().map(Spanned::get_ref),
            |v, t| {
                config_of(v).threads = t;
            },
        )
        .across(
            "split_plies",
            spec.split_plies.as_ref().map(Spanned::get_ref),
            |v, n| config_of(v).split_plies = n,
        )
        .across(
            "helper_depths",
            spec.helper_depths.as_ref().map(Spanned::get_ref),
            |v, d| config_of(v).helper_depths = d,
        )
        .across(
            "main_depths",
            spec.main_depths.as_ref().map(Spanned::get_ref),
            |v, d| config_of(v).main_depths = d,
        )
}

/// The table's options and the solver switches (Pons's ladder).
fn table_and_solver_variants(
    spec: &SearcherSpec,
    variants: Variants<SearcherVariant>,
) -> Variants<SearcherVariant> {
    variants
        .across("tt_fractional", spec.tt_fractional.as_ref(), |v, b| {
            config_of(v).tt_fractional = b
        })
        .across("tt_mate_adjust", spec.tt_mate_adjust.as_ref(), |v, b| {
            config_of(v).tt_mate_adjust = b
        })
        .across("win_check", spec.win_check.as_ref(), |v, b| {
            config_of(v).solve.win_check = b
        })
        .across("score_window", spec.score_window.as_ref(), |v, b| {
            config_of(v).solve.score_window = b
        })
        .across(
            "score_grain",
            spec.score_grain.as_ref().map(Spanned::get_ref),
            |v, g| config_of(v).solve.score_grain = u8::try_from(g).unwrap_or(u8::MAX),
        )
        .across("mtd", spec.mtd.as_ref(), |v, b| config_of(v).solve.mtd = b)
        .across("anticipate", spec.anticipate.as_ref(), |v, b| {
            config_of(v).solve.anticipate = b
        })
        .across("weak", spec.weak.as_ref(), |v, b| {
            config_of(v).solve.weak = b
        })
        .across("tt_lower_bounds", spec.tt_lower_bounds.as_ref(), |v, b| {
            config_of(v).solve.tt_lower_bounds = b
        })
        .across("tt_compact", spec.tt_compact.as_ref(), |v, b| {
            config_of(v).solve.tt_compact = b
        })
}

/// Secondary search and its margin.
fn secondary_variants(
    spec: &SearcherSpec,
    variants: Variants<SearcherVariant>,
) -> Variants<SearcherVariant> {
    variants
        .across(
            "secondary",
            spec.secondary.as_ref().map(Spanned::get_ref),
            |v, k| {
                config_of(v).secondary = (k > 0).then_some(crate::search::Secondary {
                    plies: k,
                    margin: 0,
                });
            },
        )
        .across(
            "secondary_margin",
            spec.secondary_margin.as_ref().map(Spanned::get_ref),
            |v, m| {
                if let Some(s) = &mut config_of(v).secondary {
                    s.margin = m;
                }
            },
        )
}

/// The Monte Carlo searches' settings.
fn mcts_variants(
    spec: &SearcherSpec,
    variants: Variants<SearcherVariant>,
) -> Variants<SearcherVariant> {
    variants
        .across(
            "exploration",
            spec.exploration.as_ref().map(Spanned::get_ref),
            |v, e| v.mcts_config.exploration = e,
        )
        .across(
            "playout_cutoff",
            spec.playout_cutoff.as_ref().map(Spanned::get_ref),
            |v, p| v.mcts_config.playout_cutoff = Some(p),
        )
        .across(
            "hold_depth",
            spec.hold_depth.as_ref().map(Spanned::get_ref),
            |v, d| v.mcts_config.hold_depth = d,
        )
        .across(
            "hold_playouts",
            spec.hold_playouts.as_ref().map(Spanned::get_ref),
            |v, n| v.mcts_config.hold_playouts = n,
        )
        .across(
            "expand_visits",
            spec.expand_visits.as_ref().map(Spanned::get_ref),
            |v, n| v.mcts_config.expand_visits = n,
        )
        .across(
            "tree_mb",
            spec.tree_mb.as_ref().map(Spanned::get_ref),
            |v, mb| v.mcts_config.tree_mb = Some(mb),
        )
}

/// Values that only make sense once sweeps are resolved.
fn check_variant(
    src: &Source,
    spec: &SearcherSpec,
    variant: &SearcherVariant,
) -> Result<(), SpecError> {
    if let (Some(OracleOrder::BestFirst(p)), Some(oracle)) = (variant.oracle, &spec.oracle)
        && !(0.0..=1.0).contains(&p)
    {
        return Err(src.at(
            oracle,
            "oracle",
            format!("best_first probability {p} is not in [0, 1]"),
        ));
    }
    check_technique_ranges(src, spec, variant)?;
    check_tuning_keys(src, spec, variant)?;
    if let Some(threads) = &spec.threads {
        let t = variant.config.threads;
        let most = config::MAX_SEARCH_THREADS;
        if !(1..=most).contains(&t) {
            return Err(src.at(threads, "threads", format!("{t} is not in 1..={most}")));
        }
        if t > 1 && !variant.searches_in_parallel() {
            return Err(src.at(
                threads,
                "threads",
                "more than one thread needs algorithm = \"lazy_smp\", \"ybw\", \"root_parallel\", \"tree_parallel\" or \"tree_parallel_locked\"",
            ));
        }
        if variant.config.algorithm == crate::search::Algorithm::Ybw
            && t > crate::search::ybw::MAX_THREADS
        {
            return Err(src.at(
                threads,
                "threads",
                format!(
                    "{t} is more than ybw's {} threads",
                    crate::search::ybw::MAX_THREADS
                ),
            ));
        }
    }
    if let Some(split) = &spec.split_plies {
        if variant.config.algorithm != crate::search::Algorithm::Ybw || variant.mcts.is_some() {
            return Err(src.at(
                split,
                "split_plies",
                "`split_plies` is for algorithm = \"ybw\"",
            ));
        }
        let n = variant.config.split_plies;
        let most = config::MAX_SPLIT_PLIES;
        if !(1..=most).contains(&n) {
            return Err(src.at(split, "split_plies", format!("{n} is not in 1..={most}")));
        }
    }
    let lazy_smp_keys = [
        (
            "helper_depths",
            spec.helper_depths.as_ref().map(Spanned::span),
        ),
        ("main_depths", spec.main_depths.as_ref().map(Spanned::span)),
    ];
    let lazy_smp =
        variant.config.algorithm == crate::search::Algorithm::LazySmp && variant.mcts.is_none();
    if !lazy_smp && let Some((key, Some(span))) = lazy_smp_keys.iter().find(|(_, s)| s.is_some()) {
        let why = format!("`{key}` is for algorithm = \"lazy_smp\"");
        return Err(src.error(span.clone(), Some(key), why));
    }
    check_family_keys(src, spec, variant)?;
    check_table_keys(src, spec, variant)?;
    check_secondary(src, spec, variant)?;
    if let Some(tt) = &spec.tt_mb
        && variant.config.tt_mb > MAX_TT_MB
    {
        let mb = variant.config.tt_mb;
        return Err(src.at(
            tt,
            "tt_mb",
            format!("{mb} MiB is more than the {MAX_TT_MB} MiB allowed"),
        ));
    }
    if let Some(tt) = &spec.tt_mb {
        super::diagnose::check_table_mb(variant.config.tt_mb as u64)
            .map_err(|why| src.at(tt, "tt_mb", why))?;
    }
    Ok(())
}

/// The keys (and, by the same names, flags) that change only how the transposition table is
/// used: with no table (`tt_mb = 0`) they change nothing but the label. Lazy SMP always
/// shares a table (of at least 1 MiB), so they stay meaningful there.
pub const TABLE_KEYS: [&str; 7] = [
    "tt_move",
    "etc",
    "quiescence_tt",
    "tt_mate_adjust",
    "tt_fractional",
    "tt_lower_bounds",
    "tt_compact",
];

/// Whether a search of `config` has no transposition table: `tt_mb = 0` but in lazy SMP.
#[must_use]
pub fn has_no_table(config: &crate::search::SearchConfig) -> bool {
    config.tt_mb == 0 && config.algorithm != crate::search::Algorithm::LazySmp
}

/// Refuses a key of [`TABLE_KEYS`] on a searcher without a table (`ordering = { tt_move =
/// true }` and no `tt_mb`). Where `tt_mb` is swept, the variants without a table just leave
/// the key unused.
fn check_table_keys(
    src: &Source,
    spec: &SearcherSpec,
    variant: &SearcherVariant,
) -> Result<(), SpecError> {
    let swept = spec
        .tt_mb
        .as_ref()
        .is_some_and(|mb| mb.get_ref().is_sweep());
    if variant.mcts.is_some() || swept || !has_no_table(&variant.config) {
        return Ok(());
    }
    let set = |key: &str| match key {
        "tt_move" => spec.ordering.tt_move.is_some(),
        "etc" => spec.etc.is_some(),
        "quiescence_tt" => spec.quiescence_tt.is_some(),
        "tt_mate_adjust" => spec.tt_mate_adjust.is_some(),
        "tt_fractional" => spec.tt_fractional.is_some(),
        "tt_lower_bounds" => spec.tt_lower_bounds.is_some(),
        _ => spec.tt_compact.is_some(),
    };
    match TABLE_KEYS.iter().find(|key| set(key)) {
        Some(key) => Err(src.at_key_of(
            &spec.label,
            key,
            format!(
                "`{key}` changes how the transposition table is used, and searcher `{}` has none (tt_mb = 0)",
                spec.label.get_ref()
            ),
        )),
        None => Ok(()),
    }
}

/// The keys (and flags) that tune a technique, each with the technique's key: set while
/// the technique is off, they change nothing.
pub const TUNING_KEYS: [(&str, &str); 4] = [
    ("quiescence_checks", "quiescence"),
    ("delta_margin", "quiescence"),
    ("quiescence_tt", "quiescence"),
    ("null_verify", "null_move"),
];

/// Refuses a key that tunes a technique the searcher never turns on (`null_verify`
/// without `null_move`, `delta_margin` without `quiescence`; `secondary_margin` is
/// [`check_secondary`]'s): it would change nothing but the label. Where the technique is
/// swept, the variants that turn it off just leave the key unused.
fn check_tuning_keys(
    src: &Source,
    spec: &SearcherSpec,
    variant: &SearcherVariant,
) -> Result<(), SpecError> {
    let config = &variant.config;
    let fixed = |swept: Option<bool>| swept != Some(true);
    let quiescence_off =
        config.quiescence.is_none() && fixed(spec.quiescence.as_ref().map(Sweep::is_sweep));
    let null_move_off =
        config.null_move.is_none() && fixed(spec.null_move.as_ref().map(Sweep::is_sweep));
    let set = |key: &str| match key {
        "quiescence_checks" => spec.quiescence_checks.is_some(),
        "delta_margin" => spec.delta_margin.is_some(),
        "quiescence_tt" => spec.quiescence_tt.is_some(),
        _ => spec.null_verify.is_some(),
    };
    let off = |technique: &str| match technique {
        "quiescence" => quiescence_off,
        _ => null_move_off,
    };
    match TUNING_KEYS
        .iter()
        .find(|(key, technique)| set(key) && off(technique))
    {
        Some((key, technique)) => Err(src.at_key_of(
            &spec.label,
            key,
            format!(
                "`{key}` tunes `{technique}`, which searcher `{}` does not turn on",
                spec.label.get_ref()
            ),
        )),
        None => Ok(()),
    }
}

/// The numeric technique keys in the ranges their `search` flags accept (the bounds are
/// `search::config`'s constants, shared with main.rs), 0 kept as "off" where the file's key
/// has an off value the flag expresses by its absence.
fn check_technique_ranges(
    src: &Source,
    spec: &SearcherSpec,
    variant: &SearcherVariant,
) -> Result<(), SpecError> {
    let c = &variant.config;
    if let Some(ext) = &spec.check_extension
        && !(0..=config::MAX_CHECK_EXTENSION).contains(&c.extensions.check)
    {
        let (e, most) = (c.extensions.check, config::MAX_CHECK_EXTENSION);
        let why =
            format!("{e} is not in 0..={most} (1/24 ply, below one ply so that search terminates)");
        return Err(src.at(ext, "check_extension", why));
    }
    if let Some(grain) = &spec.score_grain
        && !(1..=config::MAX_SCORE_GRAIN).contains(&c.solve.score_grain)
    {
        let (g, most) = (c.solve.score_grain, config::MAX_SCORE_GRAIN);
        return Err(src.at(
            grain,
            "score_grain",
            format!("{g} is not in 1..={most} (plies)"),
        ));
    }
    if let (Some(key), Some(n)) = (&spec.endgame_solver, c.endgame_solver)
        && n > config::MAX_ENDGAME_SOLVER
    {
        let most = config::MAX_ENDGAME_SOLVER;
        let why = format!("{n} is not in 1..={most} (empties; 0: off)");
        return Err(src.at(key, "endgame_solver", why));
    }
    let negative = |s: &Spanned<Sweep<i32>>| s.get_ref().values().iter().any(|&w| w < 0);
    if let Some(asp) = spec.aspiration.as_ref().filter(|s| negative(s)) {
        return Err(src.at(asp, "aspiration", "a window half-width cannot be negative"));
    }
    if let Some(delta) = spec.delta_margin.as_ref().filter(|s| negative(s)) {
        return Err(src.at(delta, "delta_margin", "a margin cannot be negative"));
    }
    Ok(())
}

/// Secondary search runs in the single-threaded alpha-beta search and needs a margin >= 0
/// (and a `secondary` to apply to).
fn check_secondary(
    src: &Source,
    spec: &SearcherSpec,
    variant: &SearcherVariant,
) -> Result<(), SpecError> {
    if let Some(m) = &spec.secondary_margin {
        // Absent, or off in every variant (a sweep with 0 among its values is fine).
        let never_on = spec
            .secondary
            .as_ref()
            .is_none_or(|k| !k.get_ref().is_sweep())
            && variant.config.secondary.is_none();
        if never_on {
            return Err(src.at(
                m,
                "secondary_margin",
                "`secondary_margin` needs `secondary`",
            ));
        }
        if m.get_ref().values().iter().any(|&v| v < 0) {
            return Err(src.at(m, "secondary_margin", "a margin cannot be negative"));
        }
    }
    if let Some(k) = &spec.secondary
        && k.get_ref().values().iter().any(|&plies| plies > MAX_DEPTH)
    {
        let why = format!("at most {MAX_DEPTH} plies (search::MAX_DEPTH)");
        return Err(src.at(k, "secondary", why));
    }
    if let Some(k) = &spec.secondary
        && variant.config.secondary.is_some()
        && variant.config.algorithm != crate::search::Algorithm::Alphabeta
    {
        let why = "secondary search runs in algorithm = \"alphabeta\" only";
        return Err(src.at(k, "secondary", why));
    }
    Ok(())
}

/// The keys of the alpha-beta family, each with whether `spec` sets it.
fn alpha_beta_keys(spec: &SearcherSpec) -> [(&'static str, bool); 23] {
    let o = &spec.ordering;
    [
        ("tt_mb", spec.tt_mb.is_some()),
        (
            "ordering",
            o.hint.is_some()
                || o.tt_move.is_some()
                || o.killers.is_some()
                || o.history.is_some()
                || o.shuffle.is_some()
                || o.fastest_first.is_some()
                || o.refined_mobility.is_some()
                || o.parity.is_some()
                || o.threats.is_some(),
        ),
        ("oracle", spec.oracle.is_some()),
        ("quiescence", spec.quiescence.is_some()),
        ("null_move", spec.null_move.is_some()),
        ("pvs", spec.pvs.is_some()),
        ("etc", spec.etc.is_some()),
        ("endgame_solver", spec.endgame_solver.is_some()),
        ("aspiration", spec.aspiration.is_some()),
        ("iterative", spec.iterative.is_some()),
        ("check_extension", spec.check_extension.is_some()),
        ("tt_mate_adjust", spec.tt_mate_adjust.is_some()),
        ("tt_fractional", spec.tt_fractional.is_some()),
        ("secondary", spec.secondary.is_some()),
        ("tablebase", spec.tablebase.is_some()),
        ("win_check", spec.win_check.is_some()),
        ("score_window", spec.score_window.is_some()),
        ("score_grain", spec.score_grain.is_some()),
        ("mtd", spec.mtd.is_some()),
        ("anticipate", spec.anticipate.is_some()),
        ("weak", spec.weak.is_some()),
        ("tt_lower_bounds", spec.tt_lower_bounds.is_some()),
        ("tt_compact", spec.tt_compact.is_some()),
    ]
}

/// Whether an algorithm of the alpha-beta family reads the alpha-beta key `key`: minimax
/// is the unpruned reference (no table, ordering, pruning or extensions: `iterative` alone;
/// `secondary` and `tablebase` are refused by their own checks, alpha-beta only), and the
/// chance searches (expectiminimax, Star1, Star2) have a table and move ordering but no
/// null windows, aspiration, endgame solver or solver switches. A key it does not read
/// would run unchanged under a label that says otherwise.
#[must_use]
pub fn reads_key(algorithm: crate::search::Algorithm, key: &str) -> bool {
    use crate::search::Algorithm;
    const CHANCE_UNREAD: [&str; 10] = [
        "pvs",
        "etc",
        "endgame_solver",
        "aspiration",
        "win_check",
        "score_window",
        "score_grain",
        "mtd",
        "anticipate",
        "weak",
    ];
    match algorithm {
        // `depth`: the command line's depth flag is one of the family's flags too.
        Algorithm::Minimax => matches!(key, "iterative" | "depth" | "secondary" | "tablebase"),
        Algorithm::Expectiminimax | Algorithm::Star1 | Algorithm::Star2 => {
            !CHANCE_UNREAD.contains(&key)
        }
        Algorithm::Alphabeta | Algorithm::LazySmp | Algorithm::Ybw => true,
    }
}

/// Keys of one family of algorithms set on a searcher of the other: a Monte Carlo search
/// has no table, ordering or pruning, and alpha-beta no exploration constant.
fn check_family_keys(
    src: &Source,
    spec: &SearcherSpec,
    variant: &SearcherVariant,
) -> Result<(), SpecError> {
    let mcts_keys = [
        ("exploration", spec.exploration.as_ref().map(Spanned::span)),
        (
            "playout_cutoff",
            spec.playout_cutoff.as_ref().map(Spanned::span),
        ),
        ("hold_depth", spec.hold_depth.as_ref().map(Spanned::span)),
        (
            "hold_playouts",
            spec.hold_playouts.as_ref().map(Spanned::span),
        ),
        (
            "expand_visits",
            spec.expand_visits.as_ref().map(Spanned::span),
        ),
        ("tree_mb", spec.tree_mb.as_ref().map(Spanned::span)),
    ];
    if variant.mcts.is_none() {
        if let Some((key, Some(span))) = mcts_keys.iter().find(|(_, s)| s.is_some()) {
            let why = format!(
                "`{key}` is for Monte Carlo searches (uct, flat_monte_carlo, root_parallel, tree_parallel, tree_parallel_locked)"
            );
            return Err(src.error(span.clone(), Some(key), why));
        }
        let set = alpha_beta_keys(spec);
        // `tt_mb = 0` says "no table", which is true of any algorithm.
        let no_table = variant.config.tt_mb == 0;
        let idle = |key: &&str| {
            let says_none = *key == "tt_mb" && no_table;
            !(reads_key(variant.config.algorithm, key) || says_none)
        };
        return match set.iter().find(|(key, set)| *set && idle(key)) {
            Some((key, _)) => Err(src.at_key_of(
                &spec.label,
                key,
                format!(
                    "`{key}` does nothing in algorithm = \"{}\"",
                    variant.algorithm_name()
                ),
            )),
            None => Ok(()),
        };
    }
    if let Some(e) = &spec.exploration {
        if variant.mcts == Some(MctsAlgorithm::FlatMonteCarlo) {
            let why = "`flat_monte_carlo` spreads its playouts evenly: it has no exploration term";
            return Err(src.at(e, "exploration", why));
        }
        if let Err(why) = crate::search::mcts::check_exploration(variant.mcts_config.exploration) {
            return Err(src.at(e, "exploration", why));
        }
    }
    let hold_keys = mcts_keys.iter().filter(|(key, _)| key.starts_with("hold_"));
    for (key, span) in hold_keys {
        if let Some(span) = span
            && variant.mcts != Some(MctsAlgorithm::TreeParallel)
        {
            let why = format!("`{key}` is for algorithm = \"tree_parallel\"");
            return Err(src.error(span.clone(), Some(key), why));
        }
    }
    if let Some(n) = &spec.hold_playouts
        && variant.mcts_config.hold_playouts == 0
    {
        return Err(src.at(n, "hold_playouts", "expected at least 1 playout"));
    }
    if let Some(n) = &spec.expand_visits {
        if variant.mcts == Some(MctsAlgorithm::FlatMonteCarlo) {
            let why = "`flat_monte_carlo` grows no tree to expand";
            return Err(src.at(n, "expand_visits", why));
        }
        if variant.mcts_config.expand_visits == 0 {
            return Err(src.at(n, "expand_visits", "expected at least 1 playout"));
        }
    }
    if let Some(mb) = &spec.tree_mb {
        if variant.mcts == Some(MctsAlgorithm::FlatMonteCarlo) {
            let why = "`flat_monte_carlo` grows no tree to cap";
            return Err(src.at(mb, "tree_mb", why));
        }
        if variant.mcts_config.tree_mb == Some(0) {
            return Err(src.at(mb, "tree_mb", "expected at least 1 MiB"));
        }
    }
    let alphabeta_only = alpha_beta_keys(spec);
    if let Some((key, _)) = alphabeta_only.iter().find(|(_, set)| *set) {
        let why = format!(
            "`{key}` is for the alpha-beta family; a Monte Carlo search ({}) does not use it",
            variant.algorithm_name()
        );
        return Err(src.at_key_of(&spec.label, key, why));
    }
    Ok(())
}

/// The positions a game spec names, each parsed and validated.
fn positions(
    src: &Source,
    game: &GameSpec,
    base_dir: &Path,
    seed: u64,
) -> Result<Vec<PositionEntry>, SpecError> {
    let kind = *game.game.get_ref();
    check_keys_for_game(src, game, kind)?;
    if kind == GameKind::RandomTree {
        return random_trees(src, game, seed);
    }
    if kind == GameKind::ChanceTree {
        return chance_trees(src, game, seed);
    }
    let mut out = Vec::new();
    if let Some(list) = &game.positions {
        if list.get_ref().is_empty() {
            return Err(src.at(list, "positions", "the list of positions is empty"));
        }
        for text in list.get_ref() {
            let position = GamePosition::parse(kind, text.get_ref()).map_err(|e| {
                src.at(
                    text,
                    "positions",
                    format!("bad {kind} position `{}`: {e}", text.get_ref()),
                )
            })?;
            let set = if text.get_ref().trim() == "start" {
                "start"
            } else {
                "list"
            };
            out.push(PositionEntry {
                label: text.get_ref().trim().to_owned(),
                set: set.into(),
                position,
                answer: None,
            });
        }
    }
    if let Some(file) = &game.file {
        let take = game.take.as_ref().map(|t| *t.get_ref());
        out.extend(read_test_set(src, file, base_dir, kind, take)?);
    }
    if game.positions.is_none() && game.file.is_none() {
        out.push(PositionEntry {
            label: "start".into(),
            set: "start".into(),
            position: GamePosition::parse(kind, "start").expect("every game has a start position"),
            answer: None,
        });
    }
    Ok(out)
}

fn check_keys_for_game(src: &Source, game: &GameSpec, kind: GameKind) -> Result<(), SpecError> {
    let tree_only = [
        ("b", game.b.as_ref().map(Spanned::span)),
        ("d", game.d.as_ref().map(Spanned::span)),
        ("model", game.model.as_ref().map(Spanned::span)),
        ("trees", game.trees.as_ref().map(Spanned::span)),
    ];
    let listed = [
        ("positions", game.positions.as_ref().map(Spanned::span)),
        ("file", game.file.as_ref().map(Spanned::span)),
        ("take", game.take.as_ref().map(Spanned::span)),
    ];
    let chance_only = [
        ("chance", game.chance.as_ref().map(Spanned::span)),
        ("lo", game.lo.as_ref().map(Spanned::span)),
        ("hi", game.hi.as_ref().map(Spanned::span)),
    ];
    let random_keys = [&listed[..], &chance_only[..]].concat();
    let chance_keys = [&listed[..], &tree_only[2..3]].concat();
    let other_keys = [&tree_only[..], &chance_only[..]].concat();
    let (forbidden, why) = match kind {
        GameKind::RandomTree => (
            random_keys,
            "random trees are described by b, d, model and trees",
        ),
        GameKind::ChanceTree => (
            chance_keys,
            "chance trees are described by b, d, chance, lo, hi and trees",
        ),
        _ => (
            other_keys,
            "b, d, model and trees describe random trees only (chance trees: b, d, chance, lo, hi, trees)",
        ),
    };
    if let Some((key, Some(span))) = forbidden.iter().find(|(_, s)| s.is_some()) {
        return Err(src.error(
            span.clone(),
            Some(key),
            format!("not a key of {kind}: {why}"),
        ));
    }
    if let (Some(take), None) = (&game.take, &game.file) {
        return Err(src.at(take, "take", "`take` needs a `file`"));
    }
    if let Some(take) = game.take.as_ref().filter(|t| *t.get_ref() == 0) {
        let why = "must be at least 1 (the number of the file's positions searched)";
        return Err(src.at(take, "take", why));
    }
    if let Some(play_out) = &game.play_out
        && *play_out.get_ref()
        && (kind != GameKind::Chess || game.file.is_none())
    {
        return Err(src.at(
            play_out,
            "play_out",
            "`play_out` plays out the mates of a chess EPD `file` (`ce +Mn`): it needs game = \"chess\" and a `file`",
        ));
    }
    Ok(())
}

fn random_trees(src: &Source, game: &GameSpec, seed: u64) -> Result<Vec<PositionEntry>, SpecError> {
    let missing = |key: &str| {
        src.error(
            game.game.span(),
            Some(key),
            format!("random_tree needs `{key}`"),
        )
    };
    let b = game.b.as_ref().ok_or_else(|| missing("b"))?;
    let d = game.d.as_ref().ok_or_else(|| missing("d"))?;
    let models = game
        .model
        .as_ref()
        .map_or(vec![Model::Iid], |m| m.get_ref().values().to_vec());
    let trees = game.trees.as_ref().map_or(1, |t| *t.get_ref());
    if trees == 0 {
        return Err(src.at(
            game.trees.as_ref().expect("trees = 0 was written"),
            "trees",
            "must be at least 1",
        ));
    }
    let count = [b.get_ref().values().len(), d.get_ref().values().len()]
        .into_iter()
        .try_fold(models.len() * trees as usize, usize::checked_mul);
    let span = game.trees.as_ref().map_or(game.game.span(), Spanned::span);
    let what = "models × b × d × trees random trees, before searchers";
    super::diagnose::check_job_count(src, span, "trees", count, 0, what)?;
    let mut out = Vec::new();
    for &model in &models {
        for &bv in b.get_ref().values() {
            for &dv in d.get_ref().values() {
                for tree in 0..trees {
                    let tree_seed =
                        mix(seed
                            ^ mix(u64::from(tree) ^ (u64::from(bv) << 32) ^ (u64::from(dv) << 48)));
                    let params = TreeParams {
                        b: bv,
                        d: dv,
                        seed: tree_seed,
                        model,
                    };
                    let root = RandomTree::new(params).map_err(|e| {
                        // Blamed on d where the same b makes a tree of height 1.
                        let d_at_fault = TreeParams { d: 1, ..params }.validate().is_ok();
                        let (at, key) = if d_at_fault { (d, "d") } else { (b, "b") };
                        src.at(at, key, format!("b={bv}, d={dv}: {e}"))
                    })?;
                    out.push(PositionEntry {
                        label: root.to_string(),
                        set: "random_tree".into(),
                        position: GamePosition::RandomTree(root),
                        answer: None,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The error of the refused chance-tree shape `params`, at the key to blame: `lo` or `hi`
/// where the shape is fine with the default range, `d` where it is fine with height 1,
/// else `b` (the branching, or the outcomes with it).
fn chance_tree_fault(
    src: &Source,
    game: &GameSpec,
    params: ChanceTreeParams,
    b: &Spanned<Sweep<u32>>,
    d: &Spanned<Sweep<u32>>,
    why: String,
) -> SpecError {
    let fine = |p: ChanceTreeParams| p.validate().is_ok();
    let range = game
        .lo
        .as_ref()
        .map(|lo| (lo, "lo"))
        .or(game.hi.as_ref().map(|hi| (hi, "hi")));
    if let Some((at, key)) = range
        && fine(ChanceTreeParams {
            lo: -1000,
            hi: 1000,
            ..params
        })
    {
        return src.at(at, key, why);
    }
    if fine(ChanceTreeParams { d: 1, ..params }) {
        return src.at(d, "d", why);
    }
    src.at(b, "b", why)
}

/// The trees with chance layers of a `chance_tree` game: every shape (`b`, `d`, `chance`
/// swept) `trees` times, each with its own seed derived from the experiment's.
fn chance_trees(src: &Source, game: &GameSpec, seed: u64) -> Result<Vec<PositionEntry>, SpecError> {
    let missing = |key: &str| {
        src.error(
            game.game.span(),
            Some(key),
            format!("chance_tree needs `{key}`"),
        )
    };
    let b = game.b.as_ref().ok_or_else(|| missing("b"))?;
    let d = game.d.as_ref().ok_or_else(|| missing("d"))?;
    let chance = game.chance.as_ref().ok_or_else(|| missing("chance"))?;
    let lo = game.lo.as_ref().map_or(-1000, |v| *v.get_ref());
    let hi = game.hi.as_ref().map_or(1000, |v| *v.get_ref());
    let trees = game.trees.as_ref().map_or(1, |t| *t.get_ref());
    if let Some(t) = game.trees.as_ref().filter(|_| trees == 0) {
        return Err(src.at(t, "trees", "must be at least 1"));
    }
    if let Some(kind) = chance
        .get_ref()
        .values()
        .iter()
        .find(|k| k.outcomes() > crate::games::random_tree::MAX_BRANCHING)
    {
        let why = format!(
            "{kind} outcomes: at most {} (every chance node lists them)",
            crate::games::random_tree::MAX_BRANCHING
        );
        return Err(src.at(chance, "chance", why));
    }
    // Counted before any tree is built, as random trees are (a billion trees took minutes
    // and gigabytes before the plan's count refused them).
    let count = [b.get_ref().values().len(), d.get_ref().values().len()]
        .into_iter()
        .try_fold(
            chance.get_ref().values().len() * trees as usize,
            usize::checked_mul,
        );
    let span = game.trees.as_ref().map_or(game.game.span(), Spanned::span);
    let what = "chance × b × d × trees chance trees, before searchers";
    super::diagnose::check_job_count(src, span, "trees", count, 0, what)?;
    let mut out = Vec::new();
    for &kind in chance.get_ref().values() {
        for &bv in b.get_ref().values() {
            for &dv in d.get_ref().values() {
                for tree in 0..trees {
                    let shape = u64::from(tree) ^ (u64::from(bv) << 32) ^ (u64::from(dv) << 48);
                    let params = ChanceTreeParams {
                        b: bv,
                        d: dv,
                        chance: kind,
                        lo,
                        hi,
                        seed: mix(seed ^ mix(shape ^ mix(u64::from(kind.outcomes())))),
                    };
                    let root = ChanceTree::new(params).map_err(|e| {
                        let why = format!("b={bv}, d={dv}, chance={kind}: {e}");
                        chance_tree_fault(src, game, params, b, d, why)
                    })?;
                    out.push(PositionEntry {
                        label: root.to_string(),
                        set: "chance_tree".into(),
                        position: GamePosition::ChanceTree(root),
                        answer: None,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// A game with chance nodes is searched by the searches over chance only, and they search
/// nothing else: the others would treat a roll of the dice as a player's choice.
fn check_chance_searchers(
    src: &Source,
    game: &GameSpec,
    chosen: &[(SearcherVariant, LimitsSpec)],
) -> Result<(), SpecError> {
    let kind = *game.game.get_ref();
    let mismatch = chosen.iter().map(|(v, _)| v).find(|v| {
        // Monte Carlo searches sample chance outcomes by their weights: they play both.
        let searches_chance = v.mcts.is_none() && v.config.algorithm.searches_chance();
        v.mcts.is_none() && searches_chance != kind.has_chance()
    });
    let Some(v) = mismatch else {
        return Ok(());
    };
    let why = if kind.has_chance() {
        format!(
            "{kind} has chance nodes, which searcher `{}` (algorithm {}) cannot search: use expectiminimax, star1, star2 or a Monte Carlo search",
            v.label,
            v.algorithm_name()
        )
    } else {
        format!(
            "searcher `{}` (algorithm {}) searches games with chance nodes, and {kind} has none",
            v.label,
            v.algorithm_name()
        )
    };
    Err(src.at(&game.game, "game", why))
}

/// No searcher of a game turns on a technique the game gives nothing to work on
/// ([`GameKind::idle_technique`]). The error points at the technique's key in the
/// searcher's entry, where the fix is.
fn check_idle_techniques(
    src: &Source,
    doc: &ExperimentFile,
    game: &GameSpec,
    chosen: &[(SearcherVariant, LimitsSpec)],
) -> Result<(), SpecError> {
    let kind = *game.game.get_ref();
    for (v, _) in chosen.iter().filter(|(v, _)| v.mcts.is_none()) {
        if let Some((key, why)) = kind.idle_technique(&v.config) {
            let why = format!(
                "searcher `{}` turns on `{key}`, and {why}: leave it off for this game",
                v.label
            );
            let entry = doc
                .searchers
                .get_ref()
                .iter()
                .find(|s| *s.label.get_ref() == v.label);
            return Err(match entry {
                Some(spec) => src.at_key_of(&spec.label, key, why),
                None => src.at(&game.game, "game", why),
            });
        }
    }
    Ok(())
}

/// Whether `eval` is one of `kind`'s evaluations: chess's three and backgammon's two by
/// name, and linear weights of the game (`crate::games::linear`); the other games have one
/// evaluator each and no `eval` to choose.
fn game_has_eval(kind: GameKind, eval: EvalSetting) -> bool {
    use crate::games::linear::LinearKind;
    match eval {
        EvalSetting::Material | EvalSetting::Shannon | EvalSetting::Pst => kind == GameKind::Chess,
        EvalSetting::Pubeval | EvalSetting::Race => kind == GameKind::Backgammon,
        EvalSetting::Linear(id) => match kind {
            GameKind::Chess => id.kind() == LinearKind::Chess,
            GameKind::Connect4 => id.kind() == LinearKind::Connect4,
            GameKind::Checkers => id.kind() == LinearKind::Checkers,
            GameKind::Othello => id.kind() == LinearKind::Othello,
            GameKind::Backgammon => id.kind() == LinearKind::Backgammon,
            GameKind::Tictactoe | GameKind::RandomTree | GameKind::ChanceTree => false,
        },
    }
}

/// Every `eval` the searcher writes is one of `kind`'s (an evaluation of another game would
/// be silently replaced by the game's own, or refused at run time).
///
/// # Errors
/// A [`SpecError`] at the searcher's `eval`.
pub(crate) fn check_eval(
    src: &Source,
    spec: &SearcherSpec,
    kind: GameKind,
) -> Result<(), SpecError> {
    let Some(eval) = &spec.eval else {
        return Ok(());
    };
    let Some(wrong) = eval
        .get_ref()
        .values()
        .iter()
        .find(|e| !game_has_eval(kind, **e))
    else {
        return Ok(());
    };
    let has = match kind {
        GameKind::Chess => "material, shannon, pst or linear chess weights",
        GameKind::Backgammon => "pubeval, race or linear backgammon weights",
        GameKind::Connect4 | GameKind::Checkers | GameKind::Othello => {
            "its own evaluation, with no `eval`, or linear weights of the game"
        }
        GameKind::Tictactoe | GameKind::RandomTree | GameKind::ChanceTree => {
            "its own evaluation only: leave `eval` out"
        }
    };
    let why = format!(
        "searcher `{}` evaluates with `{wrong}`, which is not an evaluation of {kind} \
         ({kind} takes {has})",
        spec.label.get_ref()
    );
    Err(src.at(eval, "eval", why))
}

/// Each searcher of a game evaluates with one of the game's evaluations ([`check_eval`]).
fn check_game_evals(
    src: &Source,
    doc: &ExperimentFile,
    game: &GameSpec,
    chosen: &[(SearcherVariant, LimitsSpec)],
) -> Result<(), SpecError> {
    let specs = doc.searchers.get_ref();
    for spec in specs {
        if chosen.iter().any(|(v, _)| &v.label == spec.label.get_ref()) {
            check_eval(src, spec, *game.game.get_ref())?;
        }
    }
    Ok(())
}

/// Reads the test set `file` (relative to the experiment file's directory).
fn read_test_set(
    src: &Source,
    file: &Spanned<String>,
    base_dir: &Path,
    kind: GameKind,
    take: Option<usize>,
) -> Result<Vec<PositionEntry>, SpecError> {
    let path = base_dir.join(file.get_ref());
    super::test_set::read(kind, &path, take).map_err(|e| src.at(file, "file", e.to_string()))
}

/// The limits of a job: the searcher's, else the game's, else the file's, for each field;
/// sweeps multiply.
pub(crate) fn limit_variants(layers: [&LimitsSpec; 3]) -> Vec<(Limits, Vec<String>)> {
    let pick = |f: fn(&LimitsSpec) -> Option<&Spanned<Sweep<u64>>>| {
        layers.iter().find_map(|l| f(l)).map(Spanned::get_ref)
    };
    let depth = layers
        .iter()
        .find_map(|l| l.depth.as_ref())
        .map(Spanned::get_ref);
    Variants::new(Limits::default())
        .across("depth", depth, |l, d| l.depth = Some(d))
        .across("nodes", pick(|l| l.nodes.as_ref()), |l, n| {
            l.nodes = Some(n)
        })
        .across("time_ms", pick(|l| l.time_ms.as_ref()), |l, t| {
            l.time = Some(std::time::Duration::from_millis(t));
        })
        .items
}

fn add_jobs(
    jobs: &mut Vec<Job>,
    doc: &ExperimentFile,
    game_index: usize,
    game: &GameSpec,
    positions: &[PositionEntry],
    searchers: &[(SearcherVariant, LimitsSpec)],
) {
    for position in positions {
        for (searcher, searcher_limits) in searchers {
            for (limits, swept) in limit_variants([searcher_limits, &game.limits, &doc.limits]) {
                for repetition in 0..*doc.repetitions.get_ref() {
                    let mut searcher = searcher.clone();
                    searcher.add_swept(&swept);
                    let seed = job_seed(doc.seed, position, repetition);
                    searcher.config.seed = seed;
                    searcher.mcts_config.seed = seed;
                    jobs.push(Job {
                        id: jobs.len(),
                        game_index,
                        position: position.clone(),
                        searcher,
                        limits,
                        repetition,
                        play_out: game.plays_out(),
                        baseline: None,
                        seed,
                    });
                }
            }
        }
    }
}

/// Refuses two jobs that are the same search ([`Job::identity`]): a position listed twice,
/// or a `[[games]]` table repeated. The second would add nothing but weight in every mean,
/// and `--resume` could not tell the two apart.
fn check_repeated_jobs(src: &Source, doc: &ExperimentFile, jobs: &[Job]) -> Result<(), SpecError> {
    let mut seen = std::collections::HashMap::new();
    for job in jobs {
        if let Some(first) = seen.insert(job.identity(), job.id) {
            let game = &doc.games.get_ref()[job.game_index];
            let why = format!(
                "position `{}` is searched twice by `{}` with the same limits and seed (jobs {first} and {}): a position or a [[games]] table listed twice",
                job.position.label,
                job.searcher.name(),
                job.id
            );
            return Err(src.at(&game.game, "game", why));
        }
    }
    Ok(())
}

/// Points each job with several threads at its one-thread twin: the same searcher (label
/// and swept values but `threads` and the [`THREAD_ONLY`] settings), position, limits and
/// repetition.
fn link_baselines(jobs: &mut [Job]) {
    let twin_key = |job: &Job| {
        let swept: Vec<&str> = job
            .searcher
            .swept
            .split(' ')
            .filter(|part| !part.starts_with("threads=") && !is_thread_only(part))
            .collect();
        (
            job.game_index,
            job.position.label.clone(),
            job.searcher.label.clone(),
            swept.join(" "),
            job.limits,
            job.repetition,
        )
    };
    let single: std::collections::HashMap<_, usize> = jobs
        .iter()
        .filter(|j| j.searcher.config.threads == 1)
        .map(|j| (twin_key(j), j.id))
        .collect();
    for job in jobs.iter_mut() {
        if job.searcher.config.threads > 1 {
            job.baseline = single.get(&twin_key(job)).copied();
        }
    }
}

/// A seed from the experiment seed, the position's label and the repetition (FNV-1a over the
/// label, then mixed): stable when other games or searchers are added to the file.
fn job_seed(seed: u64, position: &PositionEntry, repetition: u32) -> u64 {
    let label_hash = position
        .label
        .bytes()
        .fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
        });
    mix(seed ^ mix(label_hash ^ mix(u64::from(repetition))))
}
