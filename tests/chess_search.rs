//! Chess searches against what each technique promises: the seed-000 mate in one, quiescence
//! removing the horizon effect of horizon.epd and scoring as its definition (every depth
//! limit, with and without checks), null move saving nodes to a fixed depth on
//! Bratko-Kopec and keeping the full search's answers on Win At Chess while verification
//! finds the zugzwang mates it prunes and the values are its definition's, a perpetual
//! check scored as the draw it is, and a played-out mate delivered on time with the table
//! kept between moves.

use std::path::Path;

use plylab::game::{Notation, score};
use plylab::games::chess::{Chess, Material, Pst};
use plylab::lab::spec::{GameKind, Job, SearcherVariant};
use plylab::lab::{runner, test_set};
use plylab::search::{
    Algorithm, Extensions, Limits, NullMove, Ordering, Quiescence, Reduction, SearchConfig, search,
};

fn strong() -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ordering: Ordering::HEURISTICS,
        tt_mb: 8,
        quiescence: Some(Quiescence::default()),
        pvs: true,
        extensions: Extensions { check: 12 },
        ..SearchConfig::default()
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn data(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments/data/chess")
        .join(file)
}

#[test]
fn the_queen_mates_at_once_from_kd6_qa7_against_ke8() {
    // Seed 000: White Kd6, Qa7; Black Ke8; White to move plays Qe7 mate.
    let pos = Chess::parse_position("4k3/Q7/3K4/8/8/8/8/8 w - - 0 1").unwrap();
    for config in [
        strong(),
        SearchConfig {
            tt_mb: 0,
            ..strong()
        },
    ] {
        let result = search(&pos, &Pst, &config, &depth(6));
        assert_eq!(
            result.best_move().map(|m| m.to_string()).as_deref(),
            Some("a7e7")
        );
        assert_eq!(result.score(), Some(score::win_in(1)));
    }
}

#[test]
fn quiescence_sees_the_recapture_past_the_horizon() {
    let positions = test_set::read(GameKind::Chess, &data("horizon.epd"), None).unwrap();
    // No check extension: it alone would see past Qxe5+ in the first position.
    let quiet = SearchConfig {
        extensions: Extensions::default(),
        ..strong()
    };
    let plain = SearchConfig {
        quiescence: None,
        ..quiet.clone()
    };
    for entry in &positions {
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        let avoid = |config: &SearchConfig| {
            let it = search(pos, &Pst, config, &depth(1));
            let answer = entry.answer.as_ref().unwrap();
            answer.accepts(it.last().unwrap(), &|s| s)
        };
        assert!(
            !avoid(&plain),
            "{}: without quiescence depth 1 plays the capture",
            entry.label
        );
        assert!(avoid(&quiet), "{}: quiescence avoids it", entry.label);
    }
}

/// [`strong`] with null-move pruning, adaptive and unverified.
fn with_null_move() -> SearchConfig {
    SearchConfig {
        null_move: Some(NullMove {
            reduction: Reduction::Adaptive,
            verify: false,
        }),
        ..strong()
    }
}

#[test]
fn null_move_saves_nodes_to_a_fixed_depth() {
    let positions = test_set::read(GameKind::Chess, &data("bratko-kopec.epd"), Some(6)).unwrap();
    let with_null = with_null_move();
    let nodes = |config: &SearchConfig| -> u64 {
        positions
            .iter()
            .map(|e| {
                let plylab::lab::spec::GamePosition::Chess(pos) = &e.position else {
                    unreachable!()
                };
                search(pos, &Pst, config, &depth(6)).total.nodes
            })
            .sum()
    };
    let (off, on) = (nodes(&strong()), nodes(&with_null));
    assert!(on * 2 < off, "null move: {on} nodes, without: {off}");
}

/// What null move promises beside its saving (seed 001): where passing is not the best move,
/// a pass that still fails high means the node very likely does too, so the answers barely
/// change. On the first 100 Win At Chess positions at depth 5 it plays the full search's
/// move in 98 and gives 98 the same score; a pass scored from the wrong side (the
/// null-window search's value not negated, which every other test let through) kept 54
/// moves and 35 scores.
#[test]
fn null_move_keeps_the_full_searchs_answers_where_passing_is_no_help() {
    let positions = test_set::read(GameKind::Chess, &data("wac.epd"), Some(100)).unwrap();
    let with_null = with_null_move();
    let (mut same_move, mut same_score) = (0, 0);
    for entry in &positions {
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        let (full, null) = (
            search(pos, &Pst, &strong(), &depth(5)),
            search(pos, &Pst, &with_null, &depth(5)),
        );
        same_move += usize::from(full.best_move() == null.best_move());
        same_score += usize::from(full.score() == null.score());
    }
    assert!(same_move >= 90, "the same move in {same_move} of 100");
    assert!(same_score >= 80, "the same score in {same_score} of 100");
}

#[test]
fn verification_finds_the_zugzwang_mates_that_plain_null_move_prunes() {
    // ZPTS.05 (mate in 4 by the quiet Qg7) and ZPTS.10 (mate in 3 by Qa7): each key move
    // leaves Black in zugzwang, where a pass would be Black's best reply, so a null-move
    // search at the node after it fails high for Black and cuts the mate off. Verified
    // null move trusts that fail-high only after a shallower search without the pass
    // agrees, and finds the mate at the same depth as no null move.
    let positions = test_set::read(GameKind::Chess, &data("zugzwang.epd"), None).unwrap();
    let null_move = |verify| SearchConfig {
        null_move: Some(NullMove {
            reduction: Reduction::Fixed(2),
            verify,
        }),
        ..strong()
    };
    for (id, fen) in [
        ("ZPTS.05", "6Q1/8/8/7k/8/8/3p1pp1/3Kbrrb w"),
        ("ZPTS.10", "8/1B6/8/5p2/8/8/5Qrq/1K1R2bk w"),
    ] {
        let entry = positions
            .iter()
            .find(|e| e.label.starts_with(fen))
            .expect(id);
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        let answer = entry.answer.as_ref().unwrap();
        let run = |config: &SearchConfig| search(pos, &Pst, config, &depth(9));
        let (off, plain, verified) = (
            run(&strong()),
            run(&null_move(false)),
            run(&null_move(true)),
        );
        let mates = |result: &plylab::search::SearchResult<_>| {
            answer.accepts(result.last().unwrap(), &|s| s)
                && result.score().is_some_and(score::is_decisive)
        };
        assert!(
            mates(&off),
            "{id}: without null move the mate is found at depth 9"
        );
        assert!(
            !mates(&plain),
            "{id}: plain null move prunes it (else this tests nothing)"
        );
        assert!(mates(&verified), "{id}: verified null move finds it");
        assert_eq!(
            verified.score(),
            off.score(),
            "{id}: the same mate distance"
        );
    }
}

#[test]
fn a_perpetual_check_is_scored_as_the_draw_it_is() {
    // Two rooks down, White draws by perpetual check, Qe8+ Kh7 Qh5+ Kg8 Qe8+: Black's king
    // has no other square and nothing can interpose (Stockfish 15.1 at depth 20: 0.00, by
    // another perpetual). At every horizon White is still two rooks down, so only a search
    // that scores the repetition inside its tree as a draw finds the 0.
    let pos = Chess::parse_position("6k1/3Q2p1/8/8/8/6K1/8/rr6 w - - 0 1").unwrap();
    for d in [6, 8] {
        let result = search(&pos, &Pst, &strong(), &depth(d));
        assert_eq!(
            result.score(),
            Some(0),
            "depth {d}: {:?}",
            result.best_move()
        );
    }
}

#[test]
fn mates_are_played_out_on_time_with_the_table_kept() {
    let positions = test_set::read(GameKind::Chess, &data("mate_in_2.epd"), Some(30)).unwrap();
    let searcher = SearcherVariant::new("mate", strong());
    for (id, position) in positions.into_iter().enumerate() {
        let label = position.label.clone();
        let job = Job {
            id,
            game_index: 0,
            position,
            searcher: searcher.clone(),
            limits: depth(8),
            repetition: 0,
            play_out: true,
            baseline: None,
            seed: 1,
        };
        let rows = runner::execute(&job);
        let last = rows.last().unwrap();
        assert_eq!(last.solved, Some(true), "{label}");
        // Searches at plies 0 (mate in 2), 1 (defence), 2 (mate in 1): then mate.
        let steps: std::collections::BTreeSet<u32> = rows.iter().map(|r| r.step).collect();
        assert_eq!(
            steps.into_iter().collect::<Vec<_>>(),
            vec![0, 1, 2],
            "{label}"
        );
        assert!(rows.iter().all(|r| r.iterations as usize == rows.len()));
    }
}

/// Lazy SMP and YBW play a mate out with their own table kept from the first search, each
/// move searched by them: on one thread both are alpha-beta with a fresh searcher and the
/// kept table, so they agree node for node, and with alpha-beta (which keeps its history
/// too) on every value and move. The play-out had searched on one thread with another
/// table: the defence's root then missed the first search's entry.
#[test]
fn parallel_searchers_play_mates_out_with_their_own_table_kept() {
    let positions = test_set::read(GameKind::Chess, &data("mate_in_2.epd"), Some(6)).unwrap();
    let rows = |algorithm: Algorithm, position: &plylab::lab::spec::PositionEntry| {
        let config = SearchConfig {
            algorithm,
            threads: 1,
            ..strong()
        };
        let job = Job {
            id: 0,
            game_index: 0,
            position: position.clone(),
            searcher: SearcherVariant::new("mate", config),
            limits: depth(6),
            repetition: 0,
            play_out: true,
            baseline: None,
            seed: 1,
        };
        runner::execute(&job)
    };
    let outcome = |rows: &[plylab::lab::record::Row]| -> Vec<_> {
        rows.iter()
            .map(|r| (r.step, r.depth, r.score, r.best_move.clone(), r.solved))
            .collect()
    };
    let work = |rows: &[plylab::lab::record::Row]| -> Vec<_> {
        rows.iter().map(|r| (r.nodes, r.tt_hits)).collect()
    };
    for position in &positions {
        let label = &position.label;
        let alphabeta = rows(Algorithm::Alphabeta, position);
        let (smp, ybw) = (
            rows(Algorithm::LazySmp, position),
            rows(Algorithm::Ybw, position),
        );
        assert!(alphabeta.iter().any(|r| r.step == 2), "{label}");
        assert_eq!(outcome(&smp), outcome(&alphabeta), "{label}");
        assert_eq!(outcome(&ybw), outcome(&alphabeta), "{label}");
        assert_eq!(work(&smp), work(&ybw), "{label}");
        // The defence's first iteration finds the first search's entries, as alpha-beta's.
        let defence_hits = |rows: &[plylab::lab::record::Row]| {
            rows.iter().find(|r| r.step == 1).map_or(0, |r| r.tt_hits)
        };
        assert!(defence_hits(&alphabeta) > 0, "{label}");
        assert!(defence_hits(&smp) > 0, "{label}");
    }
}

/// `strong()` with the table in quiescence on or off.
fn with_quiescence_table(config: &SearchConfig, tt: bool) -> SearchConfig {
    SearchConfig {
        quiescence: config.quiescence.map(|q| Quiescence { tt, ..q }),
        ..config.clone()
    }
}

#[test]
fn the_table_in_quiescence_changes_no_value_where_it_holds_only_quiescence_values() {
    // One iteration (no deepening) of 1 or 2 plies without extensions: then every entry a
    // quiescence node can find was stored by a quiescence node (a position two captures or
    // more into quiescence never equals one a ply from the root), and a quiescence value
    // depends on the position alone, so the table's bounds are the values' own and the
    // root's value must not move. Delta pruning is off: it would make the stored bounds
    // guesses.
    let mut positions = test_set::read(GameKind::Chess, &data("bratko-kopec.epd"), None).unwrap();
    positions.extend(test_set::read(GameKind::Chess, &data("wac.epd"), Some(40)).unwrap());
    let base = SearchConfig {
        iterative: false,
        extensions: Extensions::default(),
        ..strong()
    };
    let (mut saved, mut all) = (0, 0);
    for entry in &positions {
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        for d in [1, 2] {
            let off = search(pos, &Pst, &with_quiescence_table(&base, false), &depth(d));
            let on = search(pos, &Pst, &with_quiescence_table(&base, true), &depth(d));
            assert_eq!(on.score(), off.score(), "{} at depth {d}", entry.label);
            saved += off.total.nodes.saturating_sub(on.total.nodes);
            all += off.total.nodes;
        }
    }
    assert!(saved > 0, "the table saved no quiescence node in {all}");
}

/// Total nodes and answers found of each of `configs` over the first `take` WAC positions
/// searched to depth 5.
fn wac_nodes_and_answers(take: usize, configs: [SearchConfig; 2]) -> ([u64; 2], [usize; 2]) {
    let positions = test_set::read(GameKind::Chess, &data("wac.epd"), Some(take)).unwrap();
    let (mut nodes, mut solved) = ([0, 0], [0, 0]);
    for entry in &positions {
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        let answer = entry.answer.as_ref().unwrap();
        for (i, config) in configs.iter().enumerate() {
            let result = search(pos, &Pst, config, &depth(5));
            nodes[i] += result.total.nodes;
            solved[i] += usize::from(answer.accepts(result.last().unwrap(), &|s| s));
        }
    }
    (nodes, solved)
}

#[test]
fn the_table_in_quiescence_saves_nodes_and_keeps_the_answers() {
    // With iterative deepening the quiescence nodes also find deeper results (and cut on
    // them, as in Stockfish's qsearch): values may differ from the search without, so
    // what is held to is fewer nodes and the same suite answers.
    let ([nodes_off, nodes_on], [solved_off, solved_on]) = wac_nodes_and_answers(
        30,
        [false, true].map(|tt| with_quiescence_table(&strong(), tt)),
    );
    assert!(
        nodes_on < nodes_off,
        "{nodes_on} nodes with the table in quiescence, {nodes_off} without"
    );
    assert!(
        solved_on >= solved_off,
        "{solved_on} answers with the table in quiescence, {solved_off} without"
    );
}

#[test]
fn fractional_depths_in_the_table_save_nodes_and_keep_the_answers() {
    // With a half-ply check extension, `tt_fractional` lets a node searched 2.5 plies deep
    // be settled by its own entry at 2.5 plies (whole plies would keep 2).
    let fractional = SearchConfig {
        tt_fractional: true,
        ..strong()
    };
    let (nodes, solved) = wac_nodes_and_answers(40, [strong(), fractional]);
    assert!(
        nodes[1] < nodes[0],
        "{} nodes keeping half plies, {} whole plies",
        nodes[1],
        nodes[0]
    );
    assert!(solved[1] >= solved[0], "{solved:?} answers");
}

/// `config` with quiescence (unlimited, `checks` in its first ply) and delta pruning at
/// `margin`, no table and no deepening: one search, so that what differs is the pruning.
fn with_delta(checks: bool, margin: Option<i32>) -> SearchConfig {
    SearchConfig {
        tt_mb: 0,
        iterative: false,
        quiescence: Some(Quiescence {
            checks,
            delta: margin,
            ..Quiescence::default()
        }),
        ..strong()
    }
}

#[test]
fn delta_pruning_with_a_margin_beyond_any_gain_skips_nothing() {
    // A margin larger than any evaluation can never leave a capture below alpha, unless the
    // sum wraps around (i32::MAX once skipped every capture) or alpha is a mate score, which
    // no material gain reaches: a faster mate was then reported as a slower one.
    let mut positions = test_set::read(GameKind::Chess, &data("mate_in_2.epd"), Some(300)).unwrap();
    positions.extend(test_set::read(GameKind::Chess, &data("wac.epd"), Some(40)).unwrap());
    for entry in &positions {
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        for checks in [false, true] {
            let plain = search(pos, &Pst, &with_delta(checks, None), &depth(2));
            for margin in [100_000, i32::MAX] {
                let pruned = search(pos, &Pst, &with_delta(checks, Some(margin)), &depth(2));
                assert_eq!(
                    pruned.score(),
                    plain.score(),
                    "{} (checks {checks}) with delta_margin {margin}",
                    entry.label
                );
            }
        }
    }
}

#[test]
fn delta_pruning_never_skips_a_check() {
    // White mates in 2 with Nf5+ (the knight captures nothing) e2 Rc5#, a quiet discovered
    // check from the bishop on b8: delta pruning once skipped it in quiescence (it gains no
    // material) and scored the position by its material instead.
    let pos = Chess::parse_position("1B6/2R2PN1/8/7P/2p1pk2/2Q1pN1P/8/1B5K w - - 0 1").unwrap();
    let result = search(&pos, &Pst, &with_delta(true, Some(200)), &depth(2));
    assert_eq!(result.score(), Some(score::win_in(3)));
}

/// A mate quiescence finds is counted in the search's score grain, as a full-width node
/// counts it: a mate in 3 plies with grain 2 scores as a game ending on the 4th ply, whether
/// quiescence (depth 1) or the full width (depth 3) finds it.
#[test]
fn quiescence_counts_a_mate_in_the_score_grain() {
    let pos = Chess::parse_position("rnbq2kr/ppp3pp/4P2n/3p2NQ/4p3/B1P5/P1P2PPP/R3KB1R w KQ - 0 1")
        .expect("FEN");
    let grained = |quiescence: Option<Quiescence>, d: u32| {
        let config = SearchConfig {
            tt_mb: 0,
            iterative: false,
            quiescence,
            solve: plylab::search::SolveSwitches {
                score_grain: 2,
                ..Default::default()
            },
            ..SearchConfig::default()
        };
        let result = search(&pos, &Pst, &config, &depth(d));
        result.last().expect("a completed search").score
    };
    let unlimited = Quiescence {
        max_depth: None,
        ..Quiescence::default()
    };
    assert_eq!(grained(None, 3), score::win_in(4));
    assert_eq!(grained(Some(unlimited), 1), score::win_in(4));
}

/// An alpha-beta window `(alpha, beta)`.
type Window = (i32, i32);

/// The widest window: every value inside it is exact.
const FULL: Window = (-score::INFINITY, score::INFINITY);

/// Quiescence written out from its definition (seed 001), independent of the searcher:
/// past the horizon the side to move may stand pat on the evaluation, or play a noisy move
/// (with `checks`, a checking one too at the first quiescence ply); in check it may not
/// stand pat and every move is searched. At `max_depth` plies into quiescence a position
/// that may stand pat is evaluated. Textbook fail-hard alpha-beta over that tree (Knuth and
/// Moore 1975), so that its capture sequences stay affordable; exact inside the window.
fn quiescence_by_definition(pos: &Chess, q: Quiescence, qply: u32, ply: i32, w: Window) -> i32 {
    use plylab::game::{Evaluator, Game, Status};
    let (mut alpha, beta) = w;
    if let Status::Over(outcome) = pos.status() {
        return score::of_outcome(outcome, ply).clamp(alpha, beta);
    }
    let forced = !pos.may_stand_pat();
    if !forced {
        alpha = alpha.max(Pst.evaluate(pos));
        if alpha >= beta || q.max_depth.is_some_and(|m| qply >= m) {
            return alpha.min(beta);
        }
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let checks = q.checks && qply == 0;
    for mv in moves {
        if forced || Pst.is_noisy(pos, mv) || checks && pos.gives_check(mv) {
            let mut child = pos.clone();
            child.play(mv);
            let value = -quiescence_by_definition(&child, q, qply + 1, ply + 1, (-beta, -alpha));
            alpha = alpha.max(value);
            if alpha >= beta {
                return beta;
            }
        }
    }
    alpha
}

/// Fail-hard alpha-beta to `depth` plies with [`quiescence_by_definition`] at the horizon.
fn minimax_to_quiet_leaves(pos: &Chess, q: Quiescence, depth: u32, ply: i32, w: Window) -> i32 {
    use plylab::game::{Game, Status};
    let (mut alpha, beta) = w;
    if let Status::Over(outcome) = pos.status() {
        return score::of_outcome(outcome, ply).clamp(alpha, beta);
    }
    if depth == 0 {
        return quiescence_by_definition(pos, q, 0, ply, w);
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for mv in moves {
        let mut child = pos.clone();
        child.play(mv);
        let value = -minimax_to_quiet_leaves(&child, q, depth - 1, ply + 1, (-beta, -alpha));
        alpha = alpha.max(value);
        if alpha >= beta {
            return beta;
        }
    }
    alpha
}

/// Quiescence changes what a leaf is worth, not alpha-beta's promise: with it, unlimited or
/// cut at a depth, with quiet checks at its first ply or without, the searcher returns the
/// value of a search whose leaves are scored by quiescence written out from its definition.
/// Its stand pat, its moves (captures, promotions, evasions in check, checks), its depth
/// limit and its scores of mates found in quiescence are each checked here, on the Win At
/// Chess positions (tactical, so rich in captures and checks) one and two plies deep.
#[test]
fn alphabeta_with_quiescence_is_minimax_to_quiet_leaves() {
    let positions = test_set::read(GameKind::Chess, &data("wac.epd"), Some(40)).unwrap();
    let settings = [
        Quiescence::default(),
        Quiescence {
            max_depth: Some(0),
            ..Quiescence::default()
        },
        Quiescence {
            max_depth: Some(1),
            ..Quiescence::default()
        },
        Quiescence {
            max_depth: Some(3),
            ..Quiescence::default()
        },
        Quiescence {
            checks: true,
            ..Quiescence::default()
        },
        Quiescence {
            max_depth: Some(2),
            checks: true,
            ..Quiescence::default()
        },
    ];
    let mut differ = 0;
    for entry in &positions {
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        for d in 1..=2 {
            let horizon = minimax_to_quiet_leaves(pos, Quiescence::default(), d, 0, FULL);
            for q in settings {
                let config = SearchConfig {
                    algorithm: Algorithm::Alphabeta,
                    tt_mb: 0,
                    quiescence: Some(q),
                    ..SearchConfig::default()
                };
                let truth = minimax_to_quiet_leaves(pos, q, d, 0, FULL);
                let got = search(pos, &Pst, &config, &depth(d)).score();
                assert_eq!(got, Some(truth), "{} depth {d} {q:?}", entry.label);
                differ += usize::from(truth != horizon);
            }
        }
    }
    // The settings do disagree with one another: a fault in one cannot hide behind another.
    assert!(
        differ > 100,
        "{differ} values differ from unlimited quiescence"
    );
}

/// Fail-soft alpha-beta with null-move pruning written out from its definition (seed 001,
/// src/search/null_move.rs), independent of the searcher: moves in generation order, no
/// table, `eval` at the horizon, a finished game scored at its ply and a position repeated
/// on the path (every second ply, within its reversible plies) as a draw. Depths in 1/24
/// ply, as the searcher counts them, so that a check extension leaves fractional depths.
struct NullMoveByDefinition<'a, E> {
    eval: &'a E,
    null: NullMove,
    check_extension: i32,
    /// The hash of the position at each ply of the current path.
    path: Vec<u64>,
}

impl<E: plylab::game::Evaluator<Chess>> NullMoveByDefinition<'_, E> {
    const PLY: i32 = 24;

    fn reduction(&self, depth: i32) -> i32 {
        match self.null.reduction {
            Reduction::Fixed(r) => r as i32,
            // Heinz's adaptive R: 3 with more than 6 plies left, else 2.
            Reduction::Adaptive => 2 + i32::from(depth > 6 * Self::PLY),
        }
    }

    fn search(&mut self, pos: &Chess, depth: i32, w: Window, ply: usize, after_null: bool) -> i32 {
        use plylab::game::{Game, Status};
        let (mut alpha, beta) = w;
        self.path.truncate(ply);
        self.path.push(pos.hash());
        if let Status::Over(outcome) = pos.status() {
            return score::of_outcome(outcome, ply as i32);
        }
        let repeated = (4..=pos.reversible_plies() as usize)
            .step_by(2)
            .any(|back| back <= ply && self.path[ply - back] == self.path[ply]);
        if ply > 0 && repeated {
            return 0;
        }
        if depth <= 0 {
            return self.eval.evaluate(pos);
        }
        // Pass, and search the reply R + 1 plies shallower with a null window at beta:
        // never at the root, twice in a row, with less than two plies left or against a
        // mate score.
        if ply > 0
            && !after_null
            && depth >= 2 * Self::PLY
            && !score::is_decisive(beta)
            && let Some(passed) = pos.null_move()
        {
            let r = self.reduction(depth) * Self::PLY;
            let reply = (-beta, -beta + 1);
            let value = -self.search(&passed, depth - Self::PLY - r, reply, ply + 1, true);
            // Verified: the node itself, R plies shallower, with a null window at beta and
            // no pass at it, must fail high too.
            let holds = value >= beta
                && (!self.null.verify
                    || self.search(pos, depth - r, (beta - 1, beta), ply, true) >= beta);
            if holds {
                // A pass proves no mate.
                return if score::is_decisive(value) {
                    beta
                } else {
                    value
                };
            }
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut best = -score::INFINITY;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let extension = if child.in_check() {
                self.check_extension
            } else {
                0
            };
            let child_depth = depth - Self::PLY + extension;
            let value = -self.search(&child, child_depth, (-beta, -alpha), ply + 1, false);
            best = best.max(value);
            alpha = alpha.max(value);
            if value >= beta {
                break;
            }
        }
        best
    }
}

/// Null move is lossy, so its values are not minimax's; they are those of its definition.
/// Plain alpha-beta (no table, no ordering) with null move, fixed R of 1, 2 or 3 or
/// adaptive, verified or not, with a check extension of part of a ply (fractional depths)
/// or none, returns the value of [`NullMoveByDefinition`] on Win At Chess positions 3 and 4
/// plies deep, by piece-square tables and by material alone (whose many equal values put
/// the null windows' edges to the test). The other tests checked null move through its
/// effects (nodes saved, answers kept, zugzwang mates found by verification), which let
/// through a verification search at the node's full depth or a ply too deep.
#[test]
fn alphabeta_with_null_move_returns_the_value_of_its_definition() {
    let pruned = [
        null_move_by_definition_on_wac(&Pst),
        null_move_by_definition_on_wac(&Material),
    ];
    // Null move does change values here: the comparison is not plain alpha-beta's.
    assert!(
        pruned.iter().all(|&n| n > 20),
        "{pruned:?} values differ from alpha-beta"
    );
}

/// The check of [`alphabeta_with_null_move_returns_the_value_of_its_definition`] by `eval`:
/// how many of its values differ from plain alpha-beta's.
fn null_move_by_definition_on_wac<E: plylab::game::Evaluator<Chess>>(eval: &E) -> usize {
    let positions = test_set::read(GameKind::Chess, &data("wac.epd"), Some(12)).unwrap();
    let reductions = [
        Reduction::Fixed(1),
        Reduction::Fixed(2),
        Reduction::Fixed(3),
        Reduction::Adaptive,
    ];
    let mut pruned = 0;
    for entry in &positions {
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        for d in 3..=4 {
            for (reduction, verify, check) in reductions
                .iter()
                .flat_map(|&r| [(r, false, 0), (r, true, 0), (r, true, 20), (r, false, 12)])
            {
                let null = NullMove { reduction, verify };
                let config = SearchConfig {
                    algorithm: Algorithm::Alphabeta,
                    iterative: false,
                    null_move: Some(null),
                    extensions: Extensions { check },
                    ..SearchConfig::default()
                };
                let mut reference = NullMoveByDefinition {
                    eval,
                    null,
                    check_extension: check,
                    path: Vec::new(),
                };
                let truth =
                    reference.search(pos, d * NullMoveByDefinition::<E>::PLY, FULL, 0, false);
                let got = search(pos, eval, &config, &depth(d as u32)).score();
                let what = format!("{} depth {d} {null:?} check {check}", entry.label);
                assert_eq!(got, Some(truth), "{what}");
                let plain = SearchConfig {
                    null_move: None,
                    ..config
                };
                pruned += usize::from(search(pos, eval, &plain, &depth(d as u32)).score() != got);
            }
        }
    }
    pruned
}

/// The counters of a quiescence search, as [`plylab::search::Stats`] names them.
#[derive(Debug, Default, PartialEq, Eq)]
struct QuiescenceCounts {
    qnodes: u64,
    leaf_nodes: u64,
    beta_cutoffs: u64,
    first_move_cutoffs: u64,
}

/// Fail-soft quiescence written out from its definition (seed 001), counting as the
/// searcher's counters are defined: a quiescence node is counted when entered, a leaf where
/// standing pat fails high, where no move is left to try, or where the game is over, and a
/// cutoff (and whether the first move made it) where a move fails high. Out of check the
/// noisy moves, in check every move, tried in the evaluator's hint order (MVV-LVA), best
/// first and ties in generation order: the technique's own order, not a switch. With delta
/// pruning at `delta`, out of check a move whose material gain plus the margin leaves the
/// stand-pat score below alpha is skipped, unless it gives check or alpha is a proven win.
fn quiescence_counted(
    pos: &Chess,
    w: Window,
    ply: i32,
    delta: Option<i32>,
    counts: &mut QuiescenceCounts,
) -> i32 {
    use plylab::game::{Evaluator, Game, Status};
    let (mut alpha, beta) = w;
    let forced = !pos.may_stand_pat();
    let stand_pat = if forced {
        -score::INFINITY
    } else {
        Pst.evaluate(pos)
    };
    if stand_pat >= beta {
        counts.leaf_nodes += 1;
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut moves = Vec::new();
    if forced {
        pos.generate_moves(&mut moves);
    } else {
        Pst.noisy_moves(pos, &mut moves);
    }
    if moves.is_empty() {
        counts.leaf_nodes += 1;
        return stand_pat;
    }
    moves.sort_by_key(|&mv| std::cmp::Reverse(Pst.order_hint(pos, mv, 0)));
    let mut best = stand_pat;
    for (i, mv) in moves.into_iter().enumerate() {
        let futile = delta.is_some_and(|margin| {
            let gain = Pst.material_gain(pos, mv).expect("chess has material");
            let reach = i64::from(stand_pat) + i64::from(gain) + i64::from(margin);
            reach < i64::from(alpha) && !pos.gives_check(mv) && !score::is_decisive(alpha)
        });
        if !forced && futile {
            continue;
        }
        let mut child = pos.clone();
        child.play(mv);
        counts.qnodes += 1;
        let value = if let Status::Over(outcome) = child.status() {
            counts.leaf_nodes += 1;
            -score::of_outcome(outcome, ply + 1)
        } else {
            -quiescence_counted(&child, (-beta, -alpha), ply + 1, delta, counts)
        };
        best = best.max(value);
        alpha = alpha.max(value);
        if value >= beta {
            counts.beta_cutoffs += 1;
            counts.first_move_cutoffs += u64::from(i == 0);
            break;
        }
    }
    best
}

/// Quiescence's counters are those of its definition: one ply of plain alpha-beta (no
/// table, moves in generation order, so that the root cuts nothing off) with unlimited
/// quiescence, without delta pruning and with margins of 0, 100 and 300, counts the
/// quiescence nodes, leaves and cutoffs of [`quiescence_counted`] below each root move and
/// returns its value, on the Win At Chess positions. Its ordering by the evaluator's hint
/// and its counters had no test (the search's values do not depend on them), and delta
/// pruning only two: a margin beyond any gain, and a quiet check never skipped.
#[test]
fn quiescence_counts_its_nodes_leaves_and_cutoffs_as_defined() {
    use plylab::game::{Game, Status};
    let positions = test_set::read(GameKind::Chess, &data("wac.epd"), Some(40)).unwrap();
    let deltas = [None, Some(0), Some(100), Some(300)];
    for (entry, delta) in positions.iter().flat_map(|e| deltas.map(|d| (e, d))) {
        let plylab::lab::spec::GamePosition::Chess(pos) = &entry.position else {
            unreachable!()
        };
        let mut counts = QuiescenceCounts::default();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut alpha = -score::INFINITY;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let value = if let Status::Over(outcome) = child.status() {
                counts.leaf_nodes += 1;
                -score::of_outcome(outcome, 1)
            } else {
                counts.qnodes += 1;
                let w = (-score::INFINITY, -alpha);
                -quiescence_counted(&child, w, 1, delta, &mut counts)
            };
            alpha = alpha.max(value);
        }
        let config = SearchConfig {
            algorithm: Algorithm::Alphabeta,
            iterative: false,
            quiescence: Some(Quiescence {
                delta,
                ..Quiescence::default()
            }),
            ..SearchConfig::default()
        };
        let result = search(pos, &Pst, &config, &depth(1));
        let stats = result.total;
        let got = QuiescenceCounts {
            qnodes: stats.qnodes,
            leaf_nodes: stats.leaf_nodes,
            beta_cutoffs: stats.beta_cutoffs,
            first_move_cutoffs: stats.first_move_cutoffs,
        };
        assert_eq!(got, counts, "{} delta {delta:?}", entry.label);
        assert_eq!(
            result.score(),
            Some(alpha),
            "{} delta {delta:?}",
            entry.label
        );
    }
}
