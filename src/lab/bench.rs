//! `plylab bench`: a fixed single-thread suite whose total node count is a signature of the
//! search's behaviour. It changes only when search behaviour changes (commits that change it
//! say so and why); nodes/s is printed beside it, per case and per game: the search's own
//! time, without making its table (16 MiB filled entry by entry was a fifth of a small
//! connect-four case's time). An oracle's solving to order moves is the search's.

use super::runner::{GameTask, with_game};
use super::settings::EvalChoice;
use super::spec::GamePosition;
use crate::game::{Evaluator, Game, Score};
use crate::games::random_tree::OracleOrder;
use crate::search::{Algorithm, Limits, Ordering, SearchConfig, Searcher};

/// One line of the suite.
struct Case {
    name: &'static str,
    game: super::spec::GameKind,
    position: GamePosition,
    config: SearchConfig,
    oracle: Option<OracleOrder>,
    limits: Limits,
}

/// The figures of one case, or of the whole suite.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BenchLine {
    /// Nodes over every iteration.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl BenchLine {
    /// Nodes per second of wall-clock time.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }
}

impl std::ops::AddAssign for BenchLine {
    fn add_assign(&mut self, other: Self) {
        self.nodes += other.nodes;
        self.seconds += other.seconds;
    }
}

struct Count<'a> {
    config: &'a SearchConfig,
    limits: &'a Limits,
}

impl GameTask for Count<'_> {
    /// The nodes, and the seconds of the search's own clock (started once its table and
    /// buffers are made).
    type Output = (u64, f64);
    fn run<G: Game, E: Evaluator<G>>(
        self,
        root: &G,
        eval: &E,
        _: &dyn Fn(Score) -> i32,
    ) -> (u64, f64) {
        let result = Searcher::new(eval, self.config).run(root, self.limits);
        (result.total.nodes, result.elapsed.as_secs_f64())
    }
}

fn case(
    name: &'static str,
    game: super::spec::GameKind,
    text: &str,
    algorithm: Algorithm,
    ordering: Ordering,
    tt_mb: usize,
    depth: Option<u32>,
) -> Case {
    Case {
        name,
        game,
        position: GamePosition::parse(game, text).expect("bench positions are valid"),
        config: SearchConfig {
            algorithm,
            ordering,
            tt_mb,
            iterative: true,
            seed: 1,
            ..SearchConfig::default()
        },
        oracle: None,
        limits: Limits {
            depth,
            ..Limits::default()
        },
    }
}

fn cases() -> Vec<Case> {
    use super::spec::GameKind::{
        Backgammon, Checkers, Chess, Connect4, Othello, RandomTree, Tictactoe,
    };
    let none = Ordering::default();
    let mut oracle = case(
        "random b=8 d=8 oracle",
        RandomTree,
        "b=8 d=8 seed=3",
        Algorithm::Alphabeta,
        Ordering { hint: true, ..none },
        0,
        None,
    );
    oracle.oracle = Some(OracleOrder::Perfect);
    let mut chess = case(
        "chess start d8 ordered+tt+quiescence",
        Chess,
        "start",
        Algorithm::Alphabeta,
        Ordering::HEURISTICS,
        16,
        Some(8),
    );
    chess.config.quiescence = Some(crate::search::Quiescence::default());
    vec![
        chess,
        case(
            "checkers start d15 ordered+tt",
            Checkers,
            "start",
            Algorithm::Alphabeta,
            Ordering::HEURISTICS,
            16,
            Some(15),
        ),
        case(
            "othello start d13 ordered+tt",
            Othello,
            "start",
            Algorithm::Alphabeta,
            Ordering::HEURISTICS,
            16,
            Some(13),
        ),
        case(
            "backgammon start d4 star2",
            Backgammon,
            "start",
            Algorithm::Star2,
            Ordering::HEURISTICS,
            16,
            Some(4),
        ),
        case(
            "tictactoe minimax",
            Tictactoe,
            "start",
            Algorithm::Minimax,
            none,
            0,
            None,
        ),
        case(
            "tictactoe ordered+tt",
            Tictactoe,
            "start",
            Algorithm::Alphabeta,
            Ordering::HEURISTICS,
            1,
            None,
        ),
        case(
            "connect4 start d12 ordered+tt",
            Connect4,
            "start",
            Algorithm::Alphabeta,
            Ordering::HEURISTICS,
            16,
            Some(12),
        ),
        case(
            "connect4 L3 #1 solve ordered+tt",
            Connect4,
            "2252576253462244111563365343671351441",
            Algorithm::Alphabeta,
            Ordering::HEURISTICS,
            16,
            None,
        ),
        case(
            "connect4 L2 #1 solve ordered+tt",
            Connect4,
            "5554224333234511764415115",
            Algorithm::Alphabeta,
            Ordering::HEURISTICS,
            16,
            None,
        ),
        case(
            "random b=4 d=12 natural",
            RandomTree,
            "b=4 d=12 seed=1",
            Algorithm::Alphabeta,
            none,
            0,
            None,
        ),
        case(
            "random b=8 d=9 natural",
            RandomTree,
            "b=8 d=9 seed=2",
            Algorithm::Alphabeta,
            none,
            0,
            None,
        ),
        oracle,
        case(
            "random b=6 d=8 incremental minimax",
            RandomTree,
            "b=6 d=8 seed=4 model=incremental",
            Algorithm::Minimax,
            none,
            0,
            None,
        ),
    ]
}

/// Runs the suite, calling `report` after each case with its name and game; returns the
/// totals.
pub fn run(mut report: impl FnMut(&str, &str, BenchLine)) -> BenchLine {
    let mut total = BenchLine::default();
    for c in cases() {
        let task = Count {
            config: &c.config,
            limits: &c.limits,
        };
        let eval = EvalChoice {
            oracle: c.oracle,
            seed: 1,
            ..EvalChoice::default()
        };
        let (nodes, seconds) = with_game(&c.position, eval, task);
        let line = BenchLine { nodes, seconds };
        report(c.name, &c.game.to_string(), line);
        total += line;
    }
    total
}
