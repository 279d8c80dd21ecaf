//! Corners of the search that the broader suites do not pin down, each against a truth
//! worked out here:
//!
//! - a mate read from the transposition table is trusted only where it lands before the
//!   fifty-move draw (FIDE Laws 9.3 and 9.6.2; Stockfish's `is_draw` lets a mate on the
//!   hundredth ply stand): the table key leaves the halfmove clock out, so the same board
//!   under a higher clock may no longer hold the mate;
//! - a node settled by the game's own endgame solver is counted once, as a leaf, with the
//!   solver's other nodes added to the search's, and a solve started late in the search
//!   stops at its node limit (alphabeta.rs, `solve_near_end`);
//! - a quiescence node counts as expanded and counts all its legal moves as generated,
//!   though it searches only the noisy ones (search/mod.rs, `take_noisy_moves`; the
//!   meaning of the counters is stats.rs's), and under a quiescence depth limit the
//!   quiescence nodes leave the table alone (quiescence.rs, `uses_table`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use plylab::game::{Evaluator, Game, Neutral, Notation, Score, SolverNodes, Status, score};
use plylab::games::chess::{Chess, Pst};
use plylab::games::othello::{Othello, OthelloEval};
use plylab::lab::spec::{GameKind, GamePosition};
use plylab::lab::test_set;
use plylab::rng::XorShift;
use plylab::search::{Algorithm, Limits, Quiescence, SearchConfig, Searcher, Stats, Table, search};

/// Black to move: Ka1 against Kc1 and Rh1. Black's one legal move is Ka2 (b1 and b2 are
/// the white king's), then 2. Rh3 Ka1 (a3 and b3 are the rook's, b1 and b2 still the
/// king's) 3. Ra3 mate: White mates on the fourth ply, and no sooner (after 1... Ka2 no
/// white move mates). Black has only its king: a capture takes White's rook and leaves no
/// mate, so every mating line is of king and rook moves without a capture, along which the
/// halfmove clock only grows. `clock` is the clock at the root.
fn boxed_king(clock: u32) -> Chess {
    Chess::parse_position(&format!("8/8/8/8/8/8/8/k1K4R b - - {clock} 1"))
        .expect("a legal position")
}

/// Alpha-beta with a table, one fixed-depth iteration, nothing else on.
fn table_config() -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        tt_mb: 1,
        iterative: false,
        ..SearchConfig::default()
    }
}

/// The root score of `pos` searched `depth` plies deep with `table`.
fn score_with(pos: &Chess, depth: u32, table: &Table) -> Score {
    let config = table_config();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = Searcher::new(&Neutral, &config)
        .with_table(table)
        .run(pos, &limits);
    result.score().expect("a completed iteration")
}

/// A table in which the position after 1... Ka2 holds White's mate in three plies, stored
/// by a search of the whole line from a root whose halfmove clock is 0.
fn table_with_the_mate() -> Table {
    let table = Table::new(1);
    let found = score_with(&boxed_king(0), 4, &table);
    assert_eq!(
        found,
        score::loss_in(4),
        "the filling search must see Black mated on the fourth ply"
    );
    table
}

/// With the root's clock at 95 the mate lands on ply 99 of the count: real, so the stored
/// mate is trusted, and a search too shallow to find it itself reports it. With the clock
/// at 97 the mate would come on ply 101, after the draw: the stored mate must not be read
/// back, and the shallow search finds what it sees itself (no decisive score in two
/// plies; the evaluation is 0 everywhere). Kills `past_no_progress_draw` returning
/// `false` (the stale mate read at 97) and `true` (the real one ignored at 95), and its
/// comparison and subtraction mutants (`<`, `+`, `/`).
#[test]
fn a_stored_mate_is_read_back_only_where_it_lands_before_the_fifty_move_draw() {
    // 1... Ka2 at ply 1 finds the table's mate at depth 3 where it has one ply left.
    let real = score_with(&boxed_king(95), 2, &table_with_the_mate());
    assert_eq!(
        real,
        score::loss_in(4),
        "clock 95: the stored mate lands on ply 99 and must be read back"
    );
    let stale = score_with(&boxed_king(97), 2, &table_with_the_mate());
    assert_eq!(
        stale, 0,
        "clock 97: the stored mate would land past ply 100 and must not be read back"
    );
    // The same shallow search with an empty table: the value the stale case must match.
    let fresh = score_with(&boxed_king(97), 2, &Table::new(1));
    assert_eq!(fresh, 0, "clock 97 without a table");
}

/// Othello positions `empties` squares from the end, the side to move with at least two
/// moves (none of them a pass), from seeded random play-outs of the start.
fn othello_positions(seed: u64, empties: u32, count: usize) -> Vec<Othello> {
    let mut rng = XorShift::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = Othello::new();
        while pos.empties() > empties && pos.status() == Status::Ongoing {
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        moves.clear();
        pos.generate_moves(&mut moves);
        let real_moves = moves.len() >= 2;
        if pos.empties() == empties && pos.status() == Status::Ongoing && real_moves {
            out.push(pos);
        }
    }
    out
}

/// The counters of a root searched to the end by plain alpha-beta whose children are all
/// settled by the game's solver: fail-soft, children in generation order, each given the
/// window `(-beta, -alpha)` of the root's current `(alpha, beta)`. The root is one node
/// and the one expanded node; each child is one leaf, and its nodes are the solver's
/// (the child itself among them). Returns the stats the search must report, and the value.
fn solved_children_by_definition(root: &Othello, limit: u32) -> (Stats, Score) {
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    let mut stats = Stats {
        nodes: 1,
        expanded_nodes: 1,
        generated_moves: moves.len() as u64,
        ..Stats::default()
    };
    let (mut alpha, beta) = (-score::INFINITY, score::INFINITY);
    let mut best = -score::INFINITY;
    for mv in moves {
        let mut child = *root;
        child.play(mv);
        let mut nodes = SolverNodes::unlimited();
        let value = -child
            .solve_endgame(-beta, -alpha, limit, &mut nodes)
            .expect("a child within the solver's reach");
        stats.nodes += nodes.count;
        stats.leaf_nodes += 1;
        best = best.max(value);
        alpha = alpha.max(value);
    }
    (stats, best)
}

/// alphabeta.rs's `solve_near_end`: a node the solver settles is counted once (the
/// solver's count includes it, the caller has counted it already) and as one leaf, and
/// the solver's other nodes are added to the search's. The truth is the root loop of
/// [`solved_children_by_definition`] over the solver called directly, with a 6-empty
/// solver, on 7-empty boards (the children within its reach) and on 6-empty boards (the
/// root within it too, but never solved there: it must return a move). Kills the mutants
/// of the two counters there (`+=` to `-=` or `*=`) and the one solving the root.
#[test]
fn a_node_settled_by_the_endgame_solver_counts_once_as_a_leaf() {
    let config = SearchConfig {
        algorithm: Algorithm::Alphabeta,
        iterative: false,
        endgame_solver: Some(6),
        ..SearchConfig::default()
    };
    let roots = [
        othello_positions(2027, 7, 10),
        othello_positions(2028, 6, 10),
    ];
    for root in roots.concat() {
        let (expected, value) = solved_children_by_definition(&root, 6);
        let result = search(&root, &OthelloEval::STANDARD, &config, &Limits::default());
        let got = result.total;
        let what = root.to_board_string();
        assert_eq!(result.score(), Some(value), "{what}: value");
        assert!(result.best_move().is_some(), "{what}: the root has a move");
        assert_eq!(
            (got.nodes, got.leaf_nodes),
            (expected.nodes, expected.leaf_nodes),
            "{what}: (nodes, leaves)"
        );
        assert_eq!(
            (got.expanded_nodes, got.generated_moves),
            (expected.expanded_nodes, expected.generated_moves),
            "{what}: (expanded, generated)"
        );
    }
}

/// A solve that starts late in the search stops at the search's node limit as the first
/// one does: the solver's checks count the search's nodes before the solve and its own
/// (alphabeta.rs, `solve_near_end`). A 12-empty solver below a 26-empty root (FFO #14 with
/// six edge discs taken off, as in tests/othello.rs) makes many solves, so the limit
/// falls inside one that starts after many thousand of the search's nodes; the search
/// must stop at the limit, at most two of the solver's check intervals past it
/// ([`SolverNodes::CHECK_INTERVAL`]). Kills the mutants of the count the solver's checks
/// use (`+` to `-` or `*`, in the search's nodes and in the solver's).
#[test]
fn a_late_solve_stops_at_the_search_limits() {
    let pos = Othello::parse_position(
        "----------OOOX---XOOXXX--OOOOOOOOOOXXXOOOOOXXOOX--XXOO----XXXXX- X",
    )
    .expect("a legal board");
    let config = SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering: plylab::search::Ordering {
            tt_move: true,
            fastest_first: true,
            ..plylab::search::Ordering::default()
        },
        tt_mb: 16,
        iterative: false,
        endgame_solver: Some(12),
        ..SearchConfig::default()
    };
    for limit in [300_000, 1_000_000] {
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        let result = search(&pos, &OthelloEval::STANDARD, &config, &limits);
        let nodes = result.total.nodes;
        let slack = 2 * SolverNodes::CHECK_INTERVAL;
        assert!(
            (limit..limit + slack).contains(&nodes),
            "{nodes} nodes under a {limit}-node limit"
        );
    }
}

/// Chess's evaluation (PeSTO's tables), counting the quiescence nodes that ask for their
/// noisy moves and the legal moves of those nodes, counted here by the game's own move
/// generator.
#[derive(Default)]
struct CountingPst {
    noisy_calls: AtomicU64,
    legal_there: AtomicU64,
}

impl Evaluator<Chess> for CountingPst {
    fn evaluate(&self, pos: &Chess) -> Score {
        Pst.evaluate(pos)
    }
    fn is_noisy(&self, pos: &Chess, mv: <Chess as Game>::Move) -> bool {
        Pst.is_noisy(pos, mv)
    }
    fn noisy_moves(&self, pos: &Chess, out: &mut Vec<<Chess as Game>::Move>) -> usize {
        let mut all = Vec::new();
        pos.generate_moves(&mut all);
        self.noisy_calls.fetch_add(1, Relaxed);
        self.legal_there.fetch_add(all.len() as u64, Relaxed);
        Pst.noisy_moves(pos, out)
    }
    fn order_hint(&self, pos: &Chess, mv: <Chess as Game>::Move, depth: u32) -> i32 {
        Pst.order_hint(pos, mv, depth)
    }
    fn material_gain(&self, pos: &Chess, mv: <Chess as Game>::Move) -> Option<Score> {
        Pst.material_gain(pos, mv)
    }
}

/// search/mod.rs's `take_noisy_moves`: a quiescence node out of check that generates its
/// noisy moves is an expanded node (stats.rs: its moves were generated and searched) and
/// all its legal moves count as generated, as at a full-width node, though only the
/// captures are tried. One ply of alpha-beta with quiescence below: the root is the one
/// full-width node (expanded, its legal moves generated), every other expansion is a
/// quiescence node's. The positions are pawn skirmishes far from both kings, so that no
/// capture gives check or promotes: no quiescence node is in check, where every move
/// would be searched instead. Kills the counters' mutants (`+=` to `-=` or `*=`).
#[test]
fn a_quiescence_node_counts_as_expanded_with_all_its_legal_moves() {
    let config = SearchConfig {
        algorithm: Algorithm::Alphabeta,
        iterative: false,
        quiescence: Some(Quiescence::default()),
        ..SearchConfig::default()
    };
    for fen in [
        "7k/8/8/3p1p2/2P1P3/8/8/K7 w - - 0 1",
        "7k/8/2p5/1p1p4/P1P1P3/3P4/8/K7 b - - 0 1",
    ] {
        let root = Chess::parse_position(fen).expect("a legal position");
        let mut root_moves = Vec::new();
        root.generate_moves(&mut root_moves);
        let eval = CountingPst::default();
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let got = search(&root, &eval, &config, &limits).total;
        let expansions = eval.noisy_calls.load(Relaxed);
        assert!(expansions > 1, "{fen}: quiescence expanded some nodes");
        assert!(got.qnodes > 0, "{fen}: quiescence searched some captures");
        assert_eq!(
            got.expanded_nodes,
            1 + expansions,
            "{fen}: expanded nodes (the root and each quiescence expansion)"
        );
        assert_eq!(
            got.generated_moves,
            root_moves.len() as u64 + eval.legal_there.load(Relaxed),
            "{fen}: generated moves (the root's and those quiescence nodes' legal moves)"
        );
    }
}

/// quiescence.rs's `uses_table`: quiescence nodes use the table only where their value
/// depends on the position alone ([`Quiescence::tt`]), so never under a quiescence depth
/// limit, where the plies left matter. One iteration of one or two plies then finds no
/// entry but its own quiescence nodes' could have stored (a full-width node a ply from
/// the root never repeats one, and the root is never cut off), so with the quiescence
/// table switched on, a table must change nothing at all: the same value, best move,
/// nodes and quiescence nodes as without a table, with and without the quiet checks of
/// the first quiescence ply, on the first Win At Chess positions.
#[test]
fn under_a_quiescence_depth_limit_the_table_changes_nothing() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/data/chess/wac.epd");
    let positions = test_set::read(GameKind::Chess, &path, Some(12)).expect("wac.epd");
    for entry in &positions {
        let GamePosition::Chess(pos) = &entry.position else {
            unreachable!("a chess test set")
        };
        for (depth, max_depth, checks) in [(1, 1, false), (2, 3, false), (2, 2, true)] {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let with_table = |tt_mb| SearchConfig {
                algorithm: Algorithm::Alphabeta,
                ordering: plylab::search::Ordering::HEURISTICS,
                tt_mb,
                iterative: false,
                quiescence: Some(Quiescence {
                    max_depth: Some(max_depth),
                    checks,
                    tt: true,
                    ..Quiescence::default()
                }),
                ..SearchConfig::default()
            };
            let off = search(pos, &Pst, &with_table(0), &limits);
            let on = search(pos, &Pst, &with_table(8), &limits);
            let what = format!(
                "{} depth {depth} max_depth {max_depth} checks {checks}",
                entry.label
            );
            assert_eq!(
                (on.score(), on.best_move()),
                (off.score(), off.best_move()),
                "{what}: (score, move)"
            );
            assert_eq!(
                (on.total.nodes, on.total.qnodes),
                (off.total.nodes, off.total.qnodes),
                "{what}: (nodes, quiescence nodes)"
            );
        }
    }
}
